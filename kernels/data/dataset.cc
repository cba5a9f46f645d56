#include "kernels/data/dataset.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"

namespace rill {
namespace {

PartialTensorShape ShapeOf(const Tensor& t) {
  const auto dims = t.shape().dims();
  return PartialTensorShape(std::vector<int64_t>(dims.begin(), dims.end()));
}

// TensorFlow's PartialTensorShape::IsCompatibleWith: an unknown rank or dim matches anything.
bool Compatible(const PartialTensorShape& a, const PartialTensorShape& b) {
  if (a.unknown_rank() || b.unknown_rank()) return true;
  if (a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i) {
    const int64_t x = a.dims()[i], y = b.dims()[i];
    if (x >= 0 && y >= 0 && x != y) return false;
  }
  return true;
}

}  // namespace

TensorDataset::TensorDataset(std::vector<Tensor> components,
                             std::vector<PartialTensorShape> output_shapes)
    : components_(std::move(components)), output_shapes_(std::move(output_shapes)) {
  for (const Tensor& t : components_) output_types_.push_back(t.dtype());
}

std::string TensorDataset::DebugString() const {
  std::vector<std::string> parts;
  for (size_t i = 0; i < components_.size(); ++i) {
    parts.push_back(
        absl::StrCat(DataTypeString(output_types_[i]), " ", output_shapes_[i].DebugString()));
  }
  return absl::StrCat("TensorDatasetOp::Dataset<", absl::StrJoin(parts, ", "), ">");
}

absl::StatusOr<std::shared_ptr<const TensorDataset>> DatasetFromTensor(const Tensor& t) {
  if (t.dtype() != DT_VARIANT || t.shape().rank() != 0) {
    return absl::InvalidArgumentError("Dataset tensor must be a scalar of dtype DT_VARIANT.");
  }
  const Variant& v = t.flat<Variant>()[0];
  if (v.get<TensorDataset>() == nullptr) {
    return absl::InvalidArgumentError("Tensor must be a Dataset object.");
  }
  return std::static_pointer_cast<const TensorDataset>(v.value());
}

absl::Status VerifyTypesMatch(const std::vector<DataType>& expected,
                              const std::vector<DataType>& got) {
  if (expected.size() != got.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Number of components does not match: expected ",
                                                   expected.size(), " types but got ", got.size(),
                                                   "."));
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != got[i]) {
      return absl::InvalidArgumentError(absl::StrCat("Data type mismatch at component ", i,
                                                     ": expected ", DataTypeString(expected[i]),
                                                     " but got ", DataTypeString(got[i]), "."));
    }
  }
  return absl::OkStatus();
}

absl::Status VerifyShapesCompatible(const std::vector<PartialTensorShape>& expected,
                                    const std::vector<PartialTensorShape>& got) {
  if (expected.size() != got.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Number of components does not match: expected ",
                                                   expected.size(), " shapes but got ", got.size(),
                                                   "."));
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!Compatible(expected[i], got[i])) {
      return absl::InvalidArgumentError(absl::StrCat("Incompatible shapes at component ", i,
                                                     ": expected ", expected[i].DebugString(),
                                                     " but got ", got[i].DebugString(), "."));
    }
  }
  return absl::OkStatus();
}

absl::Status IteratorResource::SetDataset(std::shared_ptr<const TensorDataset> dataset) {
  RILL_RETURN_IF_ERROR(VerifyTypesMatch(output_types_, dataset->output_types()));
  RILL_RETURN_IF_ERROR(VerifyShapesCompatible(output_shapes_, dataset->output_shapes()));
  rill::MutexLock lock(&mu_);
  dataset_ = std::move(dataset);
  next_ = 0;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Tensor>> IteratorResource::GetNext() {
  rill::MutexLock lock(&mu_);
  if (dataset_ == nullptr) {
    return absl::FailedPreconditionError(
        "GetNext() failed because the iterator has not been initialized. Ensure that you have run "
        "the initializer operation for this iterator before getting the next element.");
  }
  // A TensorDataset has one element.
  if (next_ >= 1) return absl::OutOfRangeError("End of sequence");
  ++next_;
  return dataset_->components();
}

std::vector<PartialTensorShape> ShapesOf(const std::vector<Tensor>& tensors) {
  std::vector<PartialTensorShape> shapes;
  for (const Tensor& t : tensors) shapes.push_back(ShapeOf(t));
  return shapes;
}

}  // namespace rill
