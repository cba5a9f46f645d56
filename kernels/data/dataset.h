// The state behind TensorFlow's tf.data ops that Rill runs (kernels/data/dataset_ops.cc):
//   TensorDataset: a dataset of one element (its components), held in a DT_VARIANT scalar.
//   IteratorResource: an Iterator's state in its device's ResourceMgr, for the session's life:
//     the element types and shapes it was declared with and, once MakeIterator ran, the dataset
//     and the position of the next element.
// The Verify* checks give TensorFlow's texts ("Data type mismatch at component 0: expected int32
// but got float.") with TensorFlow's sense of expected and got at each caller.
//
// Thread safety: a TensorDataset is immutable; an IteratorResource locks itself (concurrent
// IteratorGetNext calls each take a different element).
#ifndef RILL_KERNELS_DATA_DATASET_H_
#define RILL_KERNELS_DATA_DATASET_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/mutex.h"
#include "core/partial_tensor_shape.h"
#include "core/resource_mgr.h"
#include "core/tensor.h"
#include "core/types.h"
#include "core/variant.h"

namespace rill {

class TensorDataset final : public VariantValue {
 public:
  TensorDataset(std::vector<Tensor> components, std::vector<PartialTensorShape> output_shapes);

  const std::vector<Tensor>& components() const { return components_; }
  const std::vector<DataType>& output_types() const { return output_types_; }
  const std::vector<PartialTensorShape>& output_shapes() const { return output_shapes_; }

  std::string TypeName() const override { return "Dataset"; }
  // "TensorDatasetOp::Dataset<float [3]>"
  std::string DebugString() const override;

 private:
  std::vector<Tensor> components_;
  std::vector<DataType> output_types_;
  std::vector<PartialTensorShape> output_shapes_;
};

// The dataset a MakeIterator input holds: InvalidArgument "Dataset tensor must be a scalar of
// dtype DT_VARIANT." / "Tensor must be a Dataset object." (TensorFlow's texts) otherwise.
absl::StatusOr<std::shared_ptr<const TensorDataset>> DatasetFromTensor(const Tensor& t);

// InvalidArgument "Number of components does not match: expected 2 types but got 1." or "Data
// type mismatch at component 0: expected int32 but got float." unless `got` is `expected`.
absl::Status VerifyTypesMatch(const std::vector<DataType>& expected,
                              const std::vector<DataType>& got);
// InvalidArgument "Number of components does not match: expected 1 shapes but got 2." or
// "Incompatible shapes at component 0: expected [2] but got [3]." unless each pair of shapes
// could be the same shape (an unknown dim or rank matches any).
absl::Status VerifyShapesCompatible(const std::vector<PartialTensorShape>& expected,
                                    const std::vector<PartialTensorShape>& got);

// The shapes of `tensors`, for VerifyShapesCompatible.
std::vector<PartialTensorShape> ShapesOf(const std::vector<Tensor>& tensors);

class IteratorResource final : public ResourceBase {
 public:
  IteratorResource(std::vector<DataType> output_types,
                   std::vector<PartialTensorShape> output_shapes)
      : output_types_(std::move(output_types)), output_shapes_(std::move(output_shapes)) {}

  const std::vector<DataType>& output_types() const { return output_types_; }
  const std::vector<PartialTensorShape>& output_shapes() const { return output_shapes_; }
  std::string DebugString() const override { return "Iterator resource"; }

  // MakeIterator: checks the dataset's declared types and shapes against the iterator's (the
  // iterator's are "expected") and starts at its first element (again, when already made).
  absl::Status SetDataset(std::shared_ptr<const TensorDataset> dataset);
  // The next element's components: FailedPrecondition "GetNext() failed because the iterator has
  // not been initialized. ..." before SetDataset, OutOfRange "End of sequence" after the last.
  absl::StatusOr<std::vector<Tensor>> GetNext();

 private:
  const std::vector<DataType> output_types_;
  const std::vector<PartialTensorShape> output_shapes_;
  mutable rill::Mutex mu_;
  std::shared_ptr<const TensorDataset> dataset_ ABSL_GUARDED_BY(mu_);
  size_t next_ ABSL_GUARDED_BY(mu_) = 0;  // elements taken from dataset_
};

}  // namespace rill

#endif  // RILL_KERNELS_DATA_DATASET_H_
