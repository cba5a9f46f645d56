#include "core/tensor_proto.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "google/protobuf/repeated_field.h"

namespace rill {
namespace {

// Copies `n` typed values into `out` (size m), padding with the last value (TensorFlow's rule).
// InvalidArgument when there are more values than elements.
template <typename Out, typename In, typename Convert>
absl::Status FillFromValues(const In& values, int64_t n_values, absl::Span<Out> out,
                            Convert convert, const char* field) {
  const int64_t m = static_cast<int64_t>(out.size());
  if (n_values > m) {
    return absl::InvalidArgumentError(absl::StrCat("TensorProto has ", n_values, " values in ",
                                                   field, " but its shape holds only ", m,
                                                   " elements"));
  }
  for (int64_t i = 0; i < n_values; ++i) out[i] = convert(values, i);
  if (n_values > 0) {
    for (int64_t i = n_values; i < m; ++i) out[i] = out[n_values - 1];
  }
  return absl::OkStatus();
}

template <typename T, typename Field>
absl::Status FillSimple(const Field& f, absl::Span<T> out, const char* name) {
  return FillFromValues(
      f, f.size(), out, [](const Field& v, int64_t i) { return static_cast<T>(v.Get(i)); }, name);
}

template <typename C, typename Field>
absl::Status FillComplex(const Field& f, absl::Span<C> out, const char* name) {
  if (f.size() % 2 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("TensorProto ", name, " has an odd number of values (", f.size(),
                     "); complex values are (real, imaginary) pairs"));
  }
  return FillFromValues(
      f, f.size() / 2, out,
      [](const Field& v, int64_t i) { return C(v.Get(2 * i), v.Get(2 * i + 1)); }, name);
}

absl::Status FillTyped(const TensorProto& p, Tensor& t) {
  switch (t.dtype()) {
    case DT_FLOAT:
      return FillSimple(p.float_val(), t.flat<float>(), "float_val");
    case DT_DOUBLE:
      return FillSimple(p.double_val(), t.flat<double>(), "double_val");
    case DT_INT32:
      return FillSimple(p.int_val(), t.flat<int32_t>(), "int_val");
    case DT_INT16:
      return FillSimple(p.int_val(), t.flat<int16_t>(), "int_val");
    case DT_INT8:
      return FillSimple(p.int_val(), t.flat<int8_t>(), "int_val");
    case DT_UINT8:
      return FillSimple(p.int_val(), t.flat<uint8_t>(), "int_val");
    case DT_UINT16:
      return FillSimple(p.int_val(), t.flat<uint16_t>(), "int_val");
    case DT_INT64:
      return FillSimple(p.int64_val(), t.flat<int64_t>(), "int64_val");
    case DT_UINT32:
      return FillSimple(p.uint32_val(), t.flat<uint32_t>(), "uint32_val");
    case DT_UINT64:
      return FillSimple(p.uint64_val(), t.flat<uint64_t>(), "uint64_val");
    case DT_BOOL:
      return FillSimple(p.bool_val(), t.flat<bool>(), "bool_val");
    case DT_HALF:
      return FillFromValues(
          p.half_val(), p.half_val_size(), t.flat<half>(),
          [](const auto& v, int64_t i) { return half::FromBits(static_cast<uint16_t>(v.Get(i))); },
          "half_val");
    case DT_BFLOAT16:
      return FillFromValues(
          p.half_val(), p.half_val_size(), t.flat<bfloat16>(),
          [](const auto& v, int64_t i) {
            return bfloat16::FromBits(static_cast<uint16_t>(v.Get(i)));
          },
          "half_val");
    case DT_COMPLEX64:
      return FillComplex(p.scomplex_val(), t.flat<complex64>(), "scomplex_val");
    case DT_COMPLEX128:
      return FillComplex(p.dcomplex_val(), t.flat<complex128>(), "dcomplex_val");
    case DT_STRING:
      return FillFromValues(
          p.string_val(), p.string_val_size(), t.flat<std::string>(),
          [](const auto& v, int64_t i) { return v.Get(i); }, "string_val");
    case DT_QINT8:
    case DT_QUINT8:
    case DT_QINT16:
    case DT_QUINT16:
    case DT_QINT32:
      // TensorFlow keeps quantized values in int_val, each truncated to the dtype's bits.
      return VisitQuantizedType(t.dtype(), [&](auto tag) {
        using Q = typename decltype(tag)::type;
        return FillFromValues(
            p.int_val(), p.int_val_size(), t.flat<Q>(),
            [](const auto& v, int64_t i) { return Q(static_cast<typename Q::Storage>(v.Get(i))); },
            "int_val");
      });
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("Cannot decode TensorProto of dtype ", DataTypeString(t.dtype())));
  }
}

template <typename T, typename Field>
void AppendSimple(absl::Span<const T> in, Field* f) {
  for (const T& v : in) f->Add(v);
}

// The position of the first byte of `content` that is neither 0 nor 1; content.size() if none.
size_t BadBoolByte(const std::string& content) {
  for (size_t i = 0; i < content.size(); ++i) {
    if (static_cast<uint8_t>(content[i]) > 1) return i;
  }
  return content.size();
}

}  // namespace

bool TensorProtoValuesFit(const TensorProto& p) {
  const DataType dtype = p.dtype();
  if (BaseType(dtype) == DT_VARIANT || IsRefType(dtype) || !IsStorableDataType(dtype)) {
    return false;
  }
  absl::StatusOr<TensorShape> shape = TensorShape::FromProto(p.tensor_shape());
  if (!shape.ok()) return false;
  const uint64_t n = static_cast<uint64_t>(shape->num_elements());
  if (!p.tensor_content().empty()) {
    uint64_t bytes = 0;
    return dtype != DT_STRING &&
           !__builtin_mul_overflow(n, static_cast<uint64_t>(DataTypeSize(dtype)), &bytes) &&
           p.tensor_content().size() == bytes &&
           (dtype != DT_BOOL || BadBoolByte(p.tensor_content()) == p.tensor_content().size());
  }
  uint64_t values = 0;
  switch (dtype) {
    case DT_FLOAT:
      values = p.float_val_size();
      break;
    case DT_DOUBLE:
      values = p.double_val_size();
      break;
    case DT_INT32:
    case DT_INT16:
    case DT_INT8:
    case DT_UINT8:
    case DT_UINT16:
    case DT_QINT8:
    case DT_QUINT8:
    case DT_QINT16:
    case DT_QUINT16:
    case DT_QINT32:
      values = p.int_val_size();
      break;
    case DT_INT64:
      values = p.int64_val_size();
      break;
    case DT_UINT32:
      values = p.uint32_val_size();
      break;
    case DT_UINT64:
      values = p.uint64_val_size();
      break;
    case DT_BOOL:
      values = p.bool_val_size();
      break;
    case DT_HALF:
    case DT_BFLOAT16:
      values = p.half_val_size();
      break;
    case DT_COMPLEX64:
      if (p.scomplex_val_size() % 2 != 0) return false;
      values = p.scomplex_val_size() / 2;
      break;
    case DT_COMPLEX128:
      if (p.dcomplex_val_size() % 2 != 0) return false;
      values = p.dcomplex_val_size() / 2;
      break;
    case DT_STRING:
      values = p.string_val_size();
      break;
    default:
      break;
  }
  return values <= n;
}

absl::StatusOr<Tensor> TensorFromProto(const TensorProto& proto, Allocator* allocator) {
  const DataType dtype = proto.dtype();
  if (BaseType(dtype) == DT_VARIANT) {
    return absl::InvalidArgumentError(
        "TensorProto of dtype variant is not supported: variant values (TensorLists) are "
        "runtime objects, made by ops such as TensorListReserve, not constants");
  }
  if (IsRefType(dtype) || !IsStorableDataType(dtype)) {
    return absl::InvalidArgumentError(absl::StrCat("TensorProto has unsupported dtype ",
                                                   DataTypeString(dtype),
                                                   " (a tensor value needs a storage dtype)"));
  }
  absl::StatusOr<TensorShape> shape = TensorShape::FromProto(proto.tensor_shape());
  if (!shape.ok()) return AnnotateStatus(shape.status(), "TensorProto has an invalid shape");
  RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(allocator, dtype, *shape));
  if (!proto.tensor_content().empty()) {
    if (dtype == DT_STRING) {
      return absl::InvalidArgumentError(
          "TensorProto of dtype string must use string_val, not tensor_content");
    }
    if (proto.tensor_content().size() != t.TotalBytes()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "TensorProto tensor_content has ", proto.tensor_content().size(), " bytes but shape ",
          shape->DebugString(), " of ", DataTypeString(dtype), " needs ", t.TotalBytes()));
    }
    if (t.dtype() == DT_BOOL) {
      // A bool is one byte that must hold 0 or 1; any other byte (a corrupt or hostile file)
      // would make every later read of the tensor undefined. TensorFlow refuses the proto.
      const size_t bad = BadBoolByte(proto.tensor_content());
      if (bad < proto.tensor_content().size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Cannot parse tensor from proto: tensor_content byte ", bad, " of a bool tensor is ",
            static_cast<int>(static_cast<uint8_t>(proto.tensor_content()[bad])),
            " (a bool must be 0 or 1)"));
      }
    }
    std::memcpy(t.raw_data(), proto.tensor_content().data(), t.TotalBytes());
    return t;
  }
  RILL_RETURN_IF_ERROR(FillTyped(proto, t));
  return t;
}

void TensorToProto(const Tensor& t, TensorProto* p, bool use_tensor_content) {
  p->Clear();
  p->set_dtype(t.dtype());
  t.shape().AsProto(p->mutable_tensor_shape());
  if (t.dtype() == DT_STRING) {
    for (const std::string& s : t.flat<std::string>()) p->add_string_val(s);
    return;
  }
  if (use_tensor_content) {
    if (t.TotalBytes() > 0) {
      p->set_tensor_content(static_cast<const char*>(t.raw_data()), t.TotalBytes());
    }
    return;
  }
  switch (t.dtype()) {
    case DT_FLOAT:
      AppendSimple<float>(t.flat<float>(), p->mutable_float_val());
      break;
    case DT_DOUBLE:
      AppendSimple<double>(t.flat<double>(), p->mutable_double_val());
      break;
    case DT_INT32:
      AppendSimple<int32_t>(t.flat<int32_t>(), p->mutable_int_val());
      break;
    case DT_INT16:
      AppendSimple<int16_t>(t.flat<int16_t>(), p->mutable_int_val());
      break;
    case DT_INT8:
      AppendSimple<int8_t>(t.flat<int8_t>(), p->mutable_int_val());
      break;
    case DT_UINT8:
      AppendSimple<uint8_t>(t.flat<uint8_t>(), p->mutable_int_val());
      break;
    case DT_UINT16:
      AppendSimple<uint16_t>(t.flat<uint16_t>(), p->mutable_int_val());
      break;
    case DT_INT64:
      AppendSimple<int64_t>(t.flat<int64_t>(), p->mutable_int64_val());
      break;
    case DT_UINT32:
      AppendSimple<uint32_t>(t.flat<uint32_t>(), p->mutable_uint32_val());
      break;
    case DT_UINT64:
      AppendSimple<uint64_t>(t.flat<uint64_t>(), p->mutable_uint64_val());
      break;
    case DT_BOOL:
      AppendSimple<bool>(t.flat<bool>(), p->mutable_bool_val());
      break;
    case DT_HALF:
      for (half h : t.flat<half>()) p->add_half_val(h.bits);
      break;
    case DT_BFLOAT16:
      for (bfloat16 h : t.flat<bfloat16>()) p->add_half_val(h.bits);
      break;
    case DT_COMPLEX64:
      for (complex64 c : t.flat<complex64>()) {
        p->add_scomplex_val(c.real());
        p->add_scomplex_val(c.imag());
      }
      break;
    case DT_COMPLEX128:
      for (complex128 c : t.flat<complex128>()) {
        p->add_dcomplex_val(c.real());
        p->add_dcomplex_val(c.imag());
      }
      break;
    case DT_QINT8:
    case DT_QUINT8:
    case DT_QINT16:
    case DT_QUINT16:
    case DT_QINT32: {
      absl::Status s = VisitQuantizedType(t.dtype(), [&](auto tag) {
        using Q = typename decltype(tag)::type;
        for (Q q : t.flat<Q>()) p->add_int_val(q.value);
        return absl::OkStatus();
      });
      (void)s;  // the five quantized dtypes are all visited
      break;
    }
    default:
      break;
  }
}

}  // namespace rill
