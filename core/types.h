// DataType traits: TensorFlow's DataType enum (proto/types.proto) with names, sizes, ref types,
// the C++ type of each dtype, and a visitor that dispatches a generic lambda on a runtime dtype.
//
//   DataTypeString(DT_FLOAT_REF)   // "float_ref"
//   DataTypeSize(DT_HALF)          // 2
//   VisitDataType(dt, [&](auto tag) { using T = typename decltype(tag)::type; ... });
//
// All functions are pure and thread-safe.
#ifndef RILL_CORE_TYPES_H_
#define RILL_CORE_TYPES_H_

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/bfloat16.h"
#include "core/half.h"
#include "proto/types.pb.h"

namespace rill {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

// Name as TensorFlow prints it: "float", "int32", "float_ref", "unknown dtype 77" for others.
std::string DataTypeString(DataType dt);
// Inverse of DataTypeString (accepts "float_ref" etc.). InvalidArgument for an unknown name.
absl::StatusOr<DataType> DataTypeFromString(absl::string_view name);
// Comma-separated list of names: "float, int32".
std::string DataTypeListString(const std::vector<DataType>& types);

inline bool IsRefType(DataType dt) { return dt > 100 && dt < 200; }
inline DataType BaseType(DataType dt) {
  return IsRefType(dt) ? static_cast<DataType>(dt - 100) : dt;
}
inline DataType MakeRefType(DataType dt) {
  return IsRefType(dt) ? dt : static_cast<DataType>(dt + 100);
}
// True for dtypes Rill can hold in a Tensor (numeric, bool, string, half, bfloat16, complex, and
// variant: core/variant.h).
bool IsSupportedDataType(DataType dt);
// Bytes per element of the base type; 0 for string, resource, variant and unsupported dtypes.
int DataTypeSize(DataType dt);
bool DataTypeIsFloating(DataType dt);  // half, bfloat16, float, double
bool DataTypeIsInteger(DataType dt);   // signed and unsigned integers
bool DataTypeIsComplex(DataType dt);
// TensorFlow's DataTypeAlwaysOnHost: strings and resource handles are host objects on every
// device (refs count as their base type).
inline bool DataTypeAlwaysOnHost(DataType dt) {
  const DataType base = BaseType(dt);
  return base == DT_STRING || base == DT_RESOURCE;
}

// DataTypeToEnum<float>::value == DT_FLOAT, and so on for every supported C++ type.
template <typename T>
struct DataTypeToEnum;
#define RILL_MATCH_TYPE_AND_ENUM(TYPE, ENUM) \
  template <>                                \
  struct DataTypeToEnum<TYPE> {              \
    static constexpr DataType value = ENUM;  \
  }
RILL_MATCH_TYPE_AND_ENUM(float, DT_FLOAT);
RILL_MATCH_TYPE_AND_ENUM(double, DT_DOUBLE);
RILL_MATCH_TYPE_AND_ENUM(half, DT_HALF);
RILL_MATCH_TYPE_AND_ENUM(bfloat16, DT_BFLOAT16);
RILL_MATCH_TYPE_AND_ENUM(int8_t, DT_INT8);
RILL_MATCH_TYPE_AND_ENUM(int16_t, DT_INT16);
RILL_MATCH_TYPE_AND_ENUM(int32_t, DT_INT32);
RILL_MATCH_TYPE_AND_ENUM(int64_t, DT_INT64);
RILL_MATCH_TYPE_AND_ENUM(uint8_t, DT_UINT8);
RILL_MATCH_TYPE_AND_ENUM(uint16_t, DT_UINT16);
RILL_MATCH_TYPE_AND_ENUM(uint32_t, DT_UINT32);
RILL_MATCH_TYPE_AND_ENUM(uint64_t, DT_UINT64);
RILL_MATCH_TYPE_AND_ENUM(bool, DT_BOOL);
RILL_MATCH_TYPE_AND_ENUM(std::string, DT_STRING);
RILL_MATCH_TYPE_AND_ENUM(complex64, DT_COMPLEX64);
RILL_MATCH_TYPE_AND_ENUM(complex128, DT_COMPLEX128);
#undef RILL_MATCH_TYPE_AND_ENUM

// A tag carrying a C++ type through a generic lambda.
template <typename T>
struct TypeTag {
  using type = T;
};

// Calls `f(TypeTag<T>{})` with the C++ type T of `dt` (ref types use their base type) and returns
// its result, which must be absl::Status. Unimplemented for dtypes with no C++ storage type here
// (resource, variant, quantized, float8, int4).
template <typename F>
absl::Status VisitDataType(DataType dt, F&& f) {
  switch (BaseType(dt)) {
    case DT_FLOAT:
      return f(TypeTag<float>{});
    case DT_DOUBLE:
      return f(TypeTag<double>{});
    case DT_HALF:
      return f(TypeTag<half>{});
    case DT_BFLOAT16:
      return f(TypeTag<bfloat16>{});
    case DT_INT8:
      return f(TypeTag<int8_t>{});
    case DT_INT16:
      return f(TypeTag<int16_t>{});
    case DT_INT32:
      return f(TypeTag<int32_t>{});
    case DT_INT64:
      return f(TypeTag<int64_t>{});
    case DT_UINT8:
      return f(TypeTag<uint8_t>{});
    case DT_UINT16:
      return f(TypeTag<uint16_t>{});
    case DT_UINT32:
      return f(TypeTag<uint32_t>{});
    case DT_UINT64:
      return f(TypeTag<uint64_t>{});
    case DT_BOOL:
      return f(TypeTag<bool>{});
    case DT_STRING:
      return f(TypeTag<std::string>{});
    case DT_COMPLEX64:
      return f(TypeTag<complex64>{});
    case DT_COMPLEX128:
      return f(TypeTag<complex128>{});
    default:
      return absl::UnimplementedError("no storage type for dtype " + DataTypeString(dt));
  }
}

}  // namespace rill

#endif  // RILL_CORE_TYPES_H_
