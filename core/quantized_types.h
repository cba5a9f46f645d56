// TensorFlow's quantized dtypes (qint8, quint8, qint16, quint16, qint32) as Tensor element types:
// each is an integer in a struct of its own, so DataTypeToEnum tells them from int8_t and the
// other plain integers, and a kernel reads them with flat<quint8>() and `.value`.
//
//   Tensor q(DT_QUINT8, {3});
//   q.flat<quint8>()[0] = quint8(200);
//   VisitQuantizedType(q.dtype(), [&](auto tag) {
//     using Q = typename decltype(tag)::type;             // quint8
//     using Int = typename Q::Storage;                     // uint8_t
//     ...
//   });
//
// Tensors, TensorProtos (int_val or tensor_content, as TensorFlow writes them), printing and the
// pass-through kernels (Const, Placeholder, Identity, _Arg / _Retval, _Send / _Recv) take them.
// They are deliberately not in IsSupportedDataType (so not in kernels/framework's
// StorableTypes()): TensorFlow registers its generic kernels for quantized dtypes only case by
// case, and a kernel takes them by naming QuantizedTypes() in its registration.
// IsStorableDataType is the union. Pure functions; thread-safe.
#ifndef RILL_CORE_QUANTIZED_TYPES_H_
#define RILL_CORE_QUANTIZED_TYPES_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "core/types.h"

namespace rill {

template <typename Int>
struct QuantizedInt {
  using Storage = Int;
  Int value = 0;

  constexpr QuantizedInt() = default;
  constexpr explicit QuantizedInt(Int v) : value(v) {}
  friend constexpr bool operator==(QuantizedInt a, QuantizedInt b) { return a.value == b.value; }
  friend constexpr bool operator!=(QuantizedInt a, QuantizedInt b) { return a.value != b.value; }
};

using qint8 = QuantizedInt<int8_t>;
using quint8 = QuantizedInt<uint8_t>;
using qint16 = QuantizedInt<int16_t>;
using quint16 = QuantizedInt<uint16_t>;
using qint32 = QuantizedInt<int32_t>;

template <>
struct DataTypeToEnum<qint8> {
  static constexpr DataType value = DT_QINT8;
};
template <>
struct DataTypeToEnum<quint8> {
  static constexpr DataType value = DT_QUINT8;
};
template <>
struct DataTypeToEnum<qint16> {
  static constexpr DataType value = DT_QINT16;
};
template <>
struct DataTypeToEnum<quint16> {
  static constexpr DataType value = DT_QUINT16;
};
template <>
struct DataTypeToEnum<qint32> {
  static constexpr DataType value = DT_QINT32;
};

// True for qint8, quint8, qint16, quint16 and qint32 (and their ref types).
inline bool IsQuantizedDataType(DataType dt) {
  switch (BaseType(dt)) {
    case DT_QINT8:
    case DT_QUINT8:
    case DT_QINT16:
    case DT_QUINT16:
    case DT_QINT32:
      return true;
    default:
      return false;
  }
}

// A dtype a Tensor can hold: IsSupportedDataType's or a quantized one.
inline bool IsStorableDataType(DataType dt) {
  return IsSupportedDataType(dt) || IsQuantizedDataType(dt);
}

// The plain integer dtype with a quantized dtype's bits (DT_QUINT8 -> DT_UINT8); `dt` itself for
// the others.
inline DataType QuantizedStorageType(DataType dt) {
  switch (BaseType(dt)) {
    case DT_QINT8:
      return DT_INT8;
    case DT_QUINT8:
      return DT_UINT8;
    case DT_QINT16:
      return DT_INT16;
    case DT_QUINT16:
      return DT_UINT16;
    case DT_QINT32:
      return DT_INT32;
    default:
      return dt;
  }
}

// The five quantized dtypes in enum order, for kernel registrations.
inline std::vector<DataType> QuantizedTypes() {
  return {DT_QINT8, DT_QUINT8, DT_QINT32, DT_QINT16, DT_QUINT16};
}

// `types` followed by the quantized dtypes.
inline std::vector<DataType> WithQuantizedTypes(std::vector<DataType> types) {
  for (DataType t : QuantizedTypes()) types.push_back(t);
  return types;
}

// Calls `f(TypeTag<Q>{})` with the C++ type Q of a quantized `dt` and returns its result;
// InvalidArgument for any other dtype.
template <typename F>
absl::Status VisitQuantizedType(DataType dt, F&& f) {
  switch (BaseType(dt)) {
    case DT_QINT8:
      return f(TypeTag<qint8>{});
    case DT_QUINT8:
      return f(TypeTag<quint8>{});
    case DT_QINT16:
      return f(TypeTag<qint16>{});
    case DT_QUINT16:
      return f(TypeTag<quint16>{});
    case DT_QINT32:
      return f(TypeTag<qint32>{});
    default:
      return absl::InvalidArgumentError("not a quantized dtype: " + DataTypeString(dt));
  }
}

}  // namespace rill

#endif  // RILL_CORE_QUANTIZED_TYPES_H_
