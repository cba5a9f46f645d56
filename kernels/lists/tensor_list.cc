#include "kernels/lists/tensor_list.h"

#include "absl/strings/str_cat.h"

namespace rill {

std::string TensorList::DebugString() const {
  return absl::StrCat("TensorList<", DataTypeString(element_dtype), ", ",
                      element_shape.DebugString(), ", ", tensors.size(), " elements>");
}

absl::StatusOr<std::shared_ptr<const TensorList>> ListFromTensor(const Tensor& t,
                                                                 const std::string& op) {
  if (t.dtype() != DT_VARIANT || t.shape().rank() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        op, ": input_handle must be a scalar variant tensor holding a TensorList, but got a ",
        DataTypeString(t.dtype()), " tensor of shape ", t.shape().DebugString()));
  }
  const Variant& v = t.flat<Variant>()[0];
  if (v.get<TensorList>() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": input_handle is not a TensorList (it holds ", v.TypeName(), ")"));
  }
  return std::static_pointer_cast<const TensorList>(v.value());
}

Tensor TensorForList(std::shared_ptr<const TensorList> list) {
  Tensor t(DT_VARIANT, TensorShape());
  t.flat<Variant>()[0] = Variant(std::move(list));
  return t;
}

absl::StatusOr<PartialTensorShape> ElementShapeFromTensor(const Tensor& t) {
  std::vector<int64_t> dims;
  if (t.dtype() != DT_INT32 && t.dtype() != DT_INT64) {
    return absl::InvalidArgumentError(
        absl::StrCat("element_shape must be int32 or int64, not ", DataTypeString(t.dtype())));
  }
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    dims.push_back(t.dtype() == DT_INT32 ? t.flat<int32_t>()[i] : t.flat<int64_t>()[i]);
  }
  if (t.shape().rank() == 0) {
    if (dims[0] == -1) return PartialTensorShape();
    return absl::InvalidArgumentError(absl::StrCat(
        "The only valid scalar shape tensor is the fully unknown shape specified as -1."));
  }
  if (t.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Shape must be at most rank 1 but is rank ", t.shape().rank()));
  }
  for (int64_t d : dims) {
    if (d < -1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dimension ", d, " must be >= -1 in element_shape"));
    }
  }
  return PartialTensorShape(std::move(dims));
}

absl::StatusOr<PartialTensorShape> MergeShapes(const PartialTensorShape& a,
                                               const PartialTensorShape& b) {
  if (a.unknown_rank()) return b;
  if (b.unknown_rank()) return a;
  auto incompatible = [&] {
    return absl::InvalidArgumentError(absl::StrCat(
        "Incompatible shapes during merge: ", a.DebugString(), " vs. ", b.DebugString()));
  };
  if (a.rank() != b.rank()) return incompatible();
  std::vector<int64_t> dims = a.dims();
  for (int i = 0; i < a.rank(); ++i) {
    const int64_t y = b.dims()[i];
    if (dims[i] == -1) {
      dims[i] = y;
    } else if (y != -1 && y != dims[i]) {
      return incompatible();
    }
  }
  return PartialTensorShape(std::move(dims));
}

}  // namespace rill
