// Slice: output = input[begin_0 : begin_0 + size_0, ...], a size of -1 meaning
// "to the end". Elements move by size (every storable dtype; strings copied as
// strings) with contiguous runs of the last (and any whole trailing) dims; a
// slice of the whole input forwards its buffer.
//
// Errors (InvalidArgument, TensorFlow's texts): "Expected begin and size
// arguments to be 1-D tensors of size 2, but got shapes [3] and [2] instead.",
// "Expected begin[0] in [0, 2], but got 3", "Expected size[0] in [0, 2], but
// got 3", and for an empty dim "Expected begin[0] == 0 (got 1) and size[0] == 0
// (got 0) when input.dim_size(0) == 0".
//
// Thread safety: Compute is const and keeps no state; concurrent steps are
// safe.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

class SliceOp final : public OpKernel {
 public:
  explicit SliceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& begin_tensor = ctx.input(1);
    const Tensor& size_tensor = ctx.input(2);
    const TensorShape& shape = input.shape();
    const int rank = shape.rank();
    if (begin_tensor.shape().rank() != 1 || size_tensor.shape().rank() != 1 ||
        begin_tensor.NumElements() != rank || size_tensor.NumElements() != rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected begin and size arguments to be 1-D tensors of size ", rank,
                       ", but got shapes ", begin_tensor.shape().DebugString(), " and ",
                       size_tensor.shape().DebugString(), " instead."));
    }
    const std::vector<int64_t> begin = IndexValues(begin_tensor);
    std::vector<int64_t> size = IndexValues(size_tensor);
    bool identity = true;
    for (int i = 0; i < rank; ++i) {
      const int64_t dim = shape.dim(i);
      if (size[i] == -1) size[i] = dim - begin[i];
      const int64_t b = begin[i], s = size[i];
      if (dim == 0) {
        if (b != 0 || s != 0) {
          return absl::InvalidArgumentError(absl::StrCat("Expected begin[", i, "] == 0 (got ", b,
                                                         ") and size[", i, "] == 0 (got ", s,
                                                         ") when input.dim_size(", i, ") == 0"));
        }
      } else {
        if (b < 0 || b > dim) {
          return absl::InvalidArgumentError(
              absl::StrCat("Expected begin[", i, "] in [0, ", dim, "], but got ", b));
        }
        if (s < 0 || b + s > dim) {
          return absl::InvalidArgumentError(
              absl::StrCat("Expected size[", i, "] in [0, ", dim - b, "], but got ", s));
        }
      }
      identity &= b == 0 && s == dim;
    }
    if (identity) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(size));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      StridedCopy(ElementsOf<T>(input), shape.dims(), begin, std::vector<int64_t>(rank, 1), size,
                  ElementsOf<T>(*out));
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("Slice")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Index", {DT_INT32, DT_INT64}),
                SliceOp);

}  // namespace
}  // namespace rill
