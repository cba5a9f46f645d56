// TensorList: the value of a TensorFlow 2 list (DT_VARIANT scalar), as the list ops
// (kernels/lists/list_ops.cc) make and read it: the element dtype, the element shape known so far
// (PartialTensorShape: unknown rank or -1 dims) and the elements, each a Tensor or unset (a
// Reserve'd slot not yet written, read as zeros when its shape is known). Immutable once in a
// Variant that anything else can read; ops that change a list build a new one (the element Tensors
// are shared handles, so that copies pointers, not data), except TensorListSetItem on a list only
// its input holds (kernels/lists/list_kernels.h).
#ifndef RILL_KERNELS_LISTS_TENSOR_LIST_H_
#define RILL_KERNELS_LISTS_TENSOR_LIST_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/partial_tensor_shape.h"
#include "core/tensor.h"
#include "core/variant.h"

namespace rill {

class TensorList final : public VariantValue {
 public:
  DataType element_dtype = DT_INVALID;
  PartialTensorShape element_shape;  // unknown rank by default
  std::vector<Tensor> tensors;       // an uninitialized Tensor is an unset element
  int max_num_elements = -1;         // EmptyTensorList's cap; -1 = none

  std::string TypeName() const override { return "TensorList"; }
  // "TensorList<float, [?,3], 2 elements>"
  std::string DebugString() const override;
};

// The list held by `t`, which must be a scalar DT_VARIANT tensor holding a TensorList;
// InvalidArgument naming `op` otherwise.
absl::StatusOr<std::shared_ptr<const TensorList>> ListFromTensor(const Tensor& t,
                                                                 const std::string& op);
// A scalar DT_VARIANT tensor holding `list`.
Tensor TensorForList(std::shared_ptr<const TensorList> list);

// Parses an element_shape input: a scalar -1 (unknown rank) or a vector of dims (-1 unknown);
// int32 or int64. InvalidArgument otherwise.
absl::StatusOr<PartialTensorShape> ElementShapeFromTensor(const Tensor& t);

// The merge of two partial shapes (TensorFlow's MergeWith): InvalidArgument "Incompatible shapes
// during merge: [2] vs. [3]" when known ranks or dims disagree.
absl::StatusOr<PartialTensorShape> MergeShapes(const PartialTensorShape& a,
                                               const PartialTensorShape& b);

}  // namespace rill

#endif  // RILL_KERNELS_LISTS_TENSOR_LIST_H_
