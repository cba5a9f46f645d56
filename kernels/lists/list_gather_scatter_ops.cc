// TensorList kernels that move many elements at once, on the CPU: TensorListGather,
// TensorListScatter / TensorListScatterV2 / TensorListScatterIntoExistingList (what a
// tf.TensorArray's gather and scatter become inside a tf.function), TensorListResize, and the
// batched TensorListConcatLists and TensorListPushBackBatch (a variant tensor of lists, one per
// element). Lists are immutable (kernels/lists/list_kernels.h): every kernel outputs new lists
// sharing the element tensors it does not write. Errors are TensorFlow's texts (InvalidArgument),
// including its "out o range" spelling; where TensorFlow does not check (a negative index or an
// element of another shape scattered into an existing list, which corrupts its memory) the error
// is Rill's. All cheap except Gather and the scatters, which copy element data.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/lists/list_kernels.h"
#include "kernels/lists/resize_elements.h"

namespace rill {
namespace {

using list_kernels::CheckDtype;
using list_kernels::ListOpBase;
using list_kernels::ScalarIndex;

PartialTensorShape ShapeOf(const Tensor& t) {
  return PartialTensorShape(std::vector<int64_t>(t.shape().dims().begin(), t.shape().dims().end()));
}

// The shape of one row of `t` (t.shape() without dim 0). REQUIRES: rank >= 1.
absl::StatusOr<TensorShape> RowShape(const Tensor& t) {
  return TensorShape::FromDims(
      std::vector<int64_t>(t.shape().dims().begin() + 1, t.shape().dims().end()));
}

absl::Status CheckAtLeastVector(const Tensor& t) {
  if (t.shape().rank() >= 1) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Tensor must be at least a vector, but saw shape: ", t.shape().DebugString()));
}

// Row `row` of `t` as a new tensor of shape `row_shape`.
absl::StatusOr<Tensor> CopyRow(OpKernelContext& ctx, const Tensor& t, int64_t row,
                               const TensorShape& row_shape) {
  const int64_t per = row_shape.num_elements();
  RILL_ASSIGN_OR_RETURN(Tensor e, ctx.allocate_temp(t.dtype(), row_shape));
  RILL_RETURN_IF_ERROR(CopyElements(t, row * per, &e, 0, per));
  return e;
}

// The largest of `indices` (int32, any shape) plus one, 0 for none; InvalidArgument for a
// negative index.
absl::StatusOr<int64_t> SizeForIndices(const Tensor& indices) {
  int64_t size = 0;
  for (int64_t i = 0; i < indices.NumElements(); ++i) {
    const int64_t index = indices.flat<int32_t>()[i];
    if (index < 0) {
      return absl::InvalidArgumentError("Indices in TensorListScatter must all be non-negative.");
    }
    size = std::max(size, index + 1);
  }
  return size;
}

// TensorListGather(list, indices, element_shape): the elements at `indices` (flattened) stacked
// into [num_indices] + element shape; unset elements read as zeros. An element shape not fully
// known from the list and the input is merged from the gathered set elements.
class GatherOp final : public ListOpBase {
 public:
  explicit GatherOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    const Tensor& indices = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(PartialTensorShape requested, ElementShapeFromTensor(ctx.input(2)));
    RILL_ASSIGN_OR_RETURN(PartialTensorShape shape, MergeShapes(list->element_shape, requested));
    const int64_t n = indices.NumElements();
    const int64_t size = static_cast<int64_t>(list->tensors.size());
    if (!shape.IsFullyDefined()) {
      if (n == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Tried to gather 0-elements from a list with non-fully-defined shape: ",
                         shape.DebugString()));
      }
      for (int64_t i = 0; i < n; ++i) {
        const int64_t index = indices.flat<int32_t>()[i];
        if (index < 0 || index >= size) {
          return absl::InvalidArgumentError(absl::StrCat("Trying to gather element ", index,
                                                         " in a list with ", size, " elements."));
        }
        const Tensor& t = list->tensors[index];
        if (t.IsInitialized()) {
          RILL_ASSIGN_OR_RETURN(shape, MergeShapes(shape, ShapeOf(t)));
        }
      }
      if (!shape.IsFullyDefined()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Tried to gather uninitialized tensors from a list with "
                         "non-fully-defined element_shape: ",
                         shape.DebugString()));
      }
    }
    std::vector<int64_t> dims{n};
    dims.insert(dims.end(), shape.dims().begin(), shape.dims().end());
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t per = n > 0 ? out_shape.num_elements() / n : 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t index = indices.flat<int32_t>()[i];
      if (index < 0 || index >= size) {
        return absl::InvalidArgumentError(
            absl::StrCat("Index ", index, " out o range; list only has ", size, " elements."));
      }
      const Tensor& t = list->tensors[index];
      if (!t.IsInitialized()) {
        RILL_RETURN_IF_ERROR(ZeroElements(out, i * per, per));
        continue;
      }
      RILL_RETURN_IF_ERROR(MergeShapes(shape, ShapeOf(t)).status());
      RILL_RETURN_IF_ERROR(CopyElements(t, 0, out, i * per, per));
    }
    return absl::OkStatus();
  }
};

// TensorListScatter(tensor, indices, element_shape) and TensorListScatterV2(..., num_elements): a
// new list whose element indices[i] is row i of tensor (a later row wins a repeated index), of
// num_elements elements (V2, -1: just enough) or max(indices) + 1; the rest unset.
class ScatterOp final : public ListOpBase {
 public:
  explicit ScatterOp(OpKernelConstruction& ctx)
      : ListOpBase(ctx), v2_(ctx.def().op() == "TensorListScatterV2") {}
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& t = ctx.input(0);
    const Tensor& indices = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckAtLeastVector(t));
    RILL_ASSIGN_OR_RETURN(PartialTensorShape requested, ElementShapeFromTensor(ctx.input(2)));
    RILL_ASSIGN_OR_RETURN(const TensorShape row_shape, RowShape(t));
    if (!requested.IsCompatibleWith(row_shape)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Specified a list with shape ", requested.DebugString(),
                       " from a tensor with shape ", row_shape.DebugString()));
    }
    int64_t num_elements = -1;
    if (v2_) {
      RILL_ASSIGN_OR_RETURN(num_elements, ScalarIndex(ctx.input(3), "num_elements"));
      if (num_elements < -1) {
        return absl::InvalidArgumentError(
            absl::StrCat("TensorListScatter expects num_elements >= -1, found: ", num_elements));
      }
    }
    const int64_t rows = t.shape().dim(0);
    if (indices.NumElements() != rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid number of rows in input tensor. Expected: ", indices.NumElements(),
                       " Actual: ", rows));
    }
    RILL_ASSIGN_OR_RETURN(int64_t size, SizeForIndices(indices));
    if (num_elements != -1) {
      for (int64_t i = 0; i < rows; ++i) {
        const int64_t index = indices.flat<int32_t>()[i];
        if (index >= num_elements) {
          return absl::InvalidArgumentError(
              absl::StrCat("TensorListScatter: Trying to scatter at index ", index,
                           " in list with size ", num_elements));
        }
      }
      size = num_elements;
    }
    auto list = std::make_shared<TensorList>();
    list->element_dtype = t.dtype();
    list->element_shape = requested;
    RILL_RETURN_IF_ERROR(ResizeElements(&list->tensors, size, "a TensorList"));
    for (int64_t i = 0; i < rows; ++i) {
      RILL_ASSIGN_OR_RETURN(list->tensors[indices.flat<int32_t>()[i]],
                            CopyRow(ctx, t, i, row_shape));
    }
    ctx.set_output(0, TensorForList(std::move(list)));
    return absl::OkStatus();
  }

 private:
  const bool v2_;
};

// TensorListScatterIntoExistingList(list, tensor, indices): the list with element indices[i]
// replaced by row i of tensor, grown to max(indices) + 1 elements when shorter (new ones unset).
class ScatterIntoExistingListOp final : public ListOpBase {
 public:
  explicit ScatterIntoExistingListOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    const Tensor& t = ctx.input(1);
    const Tensor& indices = ctx.input(2);
    RILL_RETURN_IF_ERROR(CheckAtLeastVector(t));
    const int64_t rows = t.shape().dim(0);
    if (indices.NumElements() != rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected len(indices) == tensor.shape[0], but saw: ", indices.NumElements(),
                       " vs. ", rows));
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape row_shape, RowShape(t));
    if (!list->element_shape.IsCompatibleWith(row_shape)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tried to scatter a tensor with incompatible shape into a list. Tensor element shape: ",
          row_shape.DebugString(), " list shape: ", list->element_shape.DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(const int64_t size, SizeForIndices(indices));
    auto out = std::make_shared<TensorList>(*list);
    if (size > static_cast<int64_t>(out->tensors.size())) {
      RILL_RETURN_IF_ERROR(ResizeElements(&out->tensors, size, "a TensorList"));
    }
    for (int64_t i = 0; i < rows; ++i) {
      RILL_ASSIGN_OR_RETURN(out->tensors[indices.flat<int32_t>()[i]],
                            CopyRow(ctx, t, i, row_shape));
    }
    ctx.set_output(0, TensorForList(std::move(out)));
    return absl::OkStatus();
  }
};

// TensorListResize(list, size): the first `size` elements, or all of them and unset ones after.
class ResizeOp final : public ListOpBase {
 public:
  explicit ResizeOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    RILL_ASSIGN_OR_RETURN(const int64_t size, ScalarIndex(ctx.input(1), "size"));
    if (size < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("TensorListSlice expects size to be non-negative. Got: ", size));
    }
    auto out = std::make_shared<TensorList>(*list);
    RILL_RETURN_IF_ERROR(ResizeElements(&out->tensors, size, "a TensorList"));
    ctx.set_output(0, TensorForList(std::move(out)));
    return absl::OkStatus();
  }
};

// The list in element `i` of the variant tensor `t` (a batch of lists).
absl::StatusOr<std::shared_ptr<const TensorList>> ListAt(const Tensor& t, int64_t i,
                                                         const char* input, const std::string& op) {
  const Variant& v = t.flat<Variant>()[i];
  if (v.get<TensorList>() == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        op, ": element ", i, " of ", input, " is not a TensorList (it holds ", v.TypeName(), ")"));
  }
  return std::static_pointer_cast<const TensorList>(v.value());
}

bool IdenticalShapes(const PartialTensorShape& a, const PartialTensorShape& b) {
  if (a.unknown_rank() || b.unknown_rank()) return a.unknown_rank() == b.unknown_rank();
  return a.dims() == b.dims();
}

// TensorListConcatLists(input_a, input_b): element-wise over two variant tensors of one shape,
// the list a[i] followed by b[i]; their element dtypes and element shapes must be identical.
class ConcatListsOp final : public ListOpBase {
 public:
  explicit ConcatListsOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.shape() != b.shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input_a and input_b must have the same shape, but saw: ", a.shape().DebugString(),
          " vs. ", b.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, a.shape()));
    for (int64_t i = 0; i < a.NumElements(); ++i) {
      RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> la,
                            ListAt(a, i, "input_a", type_string()));
      RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> lb,
                            ListAt(b, i, "input_b", type_string()));
      RILL_RETURN_IF_ERROR(CheckDtype(element_dtype_, la->element_dtype));
      RILL_RETURN_IF_ERROR(CheckDtype(element_dtype_, lb->element_dtype));
      if (!IdenticalShapes(la->element_shape, lb->element_shape)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "input_a and input_b TensorList element shapes are not identical at index ", i,
            ".  Saw ", la->element_shape.DebugString(), " vs. ", lb->element_shape.DebugString()));
      }
      auto joined = std::make_shared<TensorList>(*la);
      joined->tensors.insert(joined->tensors.end(), lb->tensors.begin(), lb->tensors.end());
      out->flat<Variant>()[i] = Variant(std::move(joined));
    }
    return absl::OkStatus();
  }
};

// TensorListPushBackBatch(input_handles, tensor): row i of tensor pushed onto list i of the
// vector input_handles.
class PushBackBatchOp final : public ListOpBase {
 public:
  explicit PushBackBatchOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& handles = ctx.input(0);
    const Tensor& t = ctx.input(1);
    if (handles.shape().rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected input_handles to be a vector, but saw shape: ", handles.shape().DebugString()));
    }
    if (t.shape().rank() < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected tensor to be at least a vector, but saw shape: ", t.shape().DebugString()));
    }
    const int64_t batch = handles.NumElements();
    if (t.shape().dim(0) != batch) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected tensor.shape[0] == input_handles.size, but saw ", t.shape().dim(0),
                       " vs. ", batch));
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape row_shape, RowShape(t));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, handles.shape()));
    for (int64_t i = 0; i < batch; ++i) {
      RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list,
                            ListAt(handles, i, "input_handles", type_string()));
      RILL_RETURN_IF_ERROR(CheckDtype(element_dtype_, list->element_dtype));
      if (!list->element_shape.IsCompatibleWith(row_shape)) {
        return absl::InvalidArgumentError(
            absl::StrCat("Tried to append a tensor with incompatible shape to a list at index ", i,
                         ". Op element shape: ", row_shape.DebugString(),
                         " list shape: ", list->element_shape.DebugString()));
      }
      if (list->max_num_elements != -1 &&
          static_cast<int64_t>(list->tensors.size()) >= list->max_num_elements) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Tried to push item into a full list at list index ", i,
            " list size: ", list->tensors.size(), " max_num_elements: ", list->max_num_elements));
      }
      auto pushed = std::make_shared<TensorList>(*list);
      RILL_ASSIGN_OR_RETURN(Tensor row, CopyRow(ctx, t, i, row_shape));
      pushed->tensors.push_back(std::move(row));
      out->flat<Variant>()[i] = Variant(std::move(pushed));
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("TensorListGather").Device(kDeviceCpu), GatherOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListScatter").Device(kDeviceCpu), ScatterOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListScatterV2").Device(kDeviceCpu), ScatterOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListScatterIntoExistingList").Device(kDeviceCpu),
                ScatterIntoExistingListOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListResize").Device(kDeviceCpu), ResizeOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListConcatLists").Device(kDeviceCpu), ConcatListsOp);
REGISTER_KERNEL(KernelDefBuilder("TensorListPushBackBatch").Device(kDeviceCpu), PushBackBatchOp);

}  // namespace
}  // namespace rill
