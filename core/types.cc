#include "core/types.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace rill {
namespace {

// TensorFlow's printed names for base types (DataTypeString in types.cc).
const char* BaseName(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
      return "float";
    case DT_DOUBLE:
      return "double";
    case DT_INT32:
      return "int32";
    case DT_UINT8:
      return "uint8";
    case DT_INT16:
      return "int16";
    case DT_INT8:
      return "int8";
    case DT_STRING:
      return "string";
    case DT_COMPLEX64:
      return "complex64";
    case DT_INT64:
      return "int64";
    case DT_BOOL:
      return "bool";
    case DT_QINT8:
      return "qint8";
    case DT_QUINT8:
      return "quint8";
    case DT_QINT32:
      return "qint32";
    case DT_BFLOAT16:
      return "bfloat16";
    case DT_QINT16:
      return "qint16";
    case DT_QUINT16:
      return "quint16";
    case DT_UINT16:
      return "uint16";
    case DT_COMPLEX128:
      return "complex128";
    case DT_HALF:
      return "half";
    case DT_RESOURCE:
      return "resource";
    case DT_VARIANT:
      return "variant";
    case DT_UINT32:
      return "uint32";
    case DT_UINT64:
      return "uint64";
    case DT_FLOAT8_E5M2:
      return "float8_e5m2";
    case DT_FLOAT8_E4M3FN:
      return "float8_e4m3fn";
    case DT_INT4:
      return "int4";
    case DT_UINT4:
      return "uint4";
    default:
      return nullptr;
  }
}

}  // namespace

std::string DataTypeString(DataType dt) {
  const char* base = BaseName(BaseType(dt));
  if (base == nullptr) return absl::StrCat("unknown dtype ", static_cast<int>(dt));
  return IsRefType(dt) ? absl::StrCat(base, "_ref") : std::string(base);
}

absl::StatusOr<DataType> DataTypeFromString(absl::string_view name) {
  bool ref = absl::EndsWith(name, "_ref");
  if (ref) name.remove_suffix(4);
  for (int i = 1; i < 100; ++i) {
    const char* base = BaseName(static_cast<DataType>(i));
    if (base != nullptr && name == base) {
      DataType dt = static_cast<DataType>(i);
      return ref ? MakeRefType(dt) : dt;
    }
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown dtype name '", name, "'"));
}

std::string DataTypeListString(const std::vector<DataType>& types) {
  return absl::StrJoin(types, ", ",
                       [](std::string* out, DataType dt) { out->append(DataTypeString(dt)); });
}

int DataTypeSize(DataType dt) {
  switch (BaseType(dt)) {
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32:
    case DT_QINT32:
      return 4;
    case DT_DOUBLE:
    case DT_INT64:
    case DT_UINT64:
    case DT_COMPLEX64:
      return 8;
    case DT_HALF:
    case DT_BFLOAT16:
    case DT_INT16:
    case DT_UINT16:
    case DT_QINT16:
    case DT_QUINT16:
      return 2;
    case DT_INT8:
    case DT_UINT8:
    case DT_BOOL:
    case DT_QINT8:
    case DT_QUINT8:
      return 1;
    case DT_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

// The quantized dtypes have sizes but are left out here: core/quantized_types.h says why.
bool IsSupportedDataType(DataType dt) {
  switch (BaseType(dt)) {
    case DT_QINT8:
    case DT_QUINT8:
    case DT_QINT16:
    case DT_QUINT16:
    case DT_QINT32:
      return false;
    default:
      break;
  }
  return DataTypeSize(dt) > 0 || BaseType(dt) == DT_STRING || BaseType(dt) == DT_VARIANT;
}

bool DataTypeIsFloating(DataType dt) {
  DataType b = BaseType(dt);
  return b == DT_FLOAT || b == DT_DOUBLE || b == DT_HALF || b == DT_BFLOAT16;
}

bool DataTypeIsInteger(DataType dt) {
  switch (BaseType(dt)) {
    case DT_INT8:
    case DT_INT16:
    case DT_INT32:
    case DT_INT64:
    case DT_UINT8:
    case DT_UINT16:
    case DT_UINT32:
    case DT_UINT64:
      return true;
    default:
      return false;
  }
}

bool DataTypeIsComplex(DataType dt) {
  return BaseType(dt) == DT_COMPLEX64 || BaseType(dt) == DT_COMPLEX128;
}

}  // namespace rill
