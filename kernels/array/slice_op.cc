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

#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
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
    const TensorShape& shape = input.shape();
    RILL_ASSIGN_OR_RETURN(SlicePlan plan, SlicePlanOf(shape, ctx.input(1), ctx.input(2)));
    if (plan.identity) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      StridedCopy(ElementsOf<T>(input), shape.dims(), plan.begin,
                  std::vector<int64_t>(shape.rank(), 1), plan.size, ElementsOf<T>(*out));
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("Slice")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Index", {DT_INT32, DT_INT64}),
                SliceOp);
// int32 on a GPU (shape arithmetic) lives in host memory: this host code serves it, as
// TensorFlow's int32 GPU kernel; real GPUs only.
REGISTER_KERNEL(KernelDefBuilder("Slice")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", {DT_INT32})
                    .TypeConstraint("Index", {DT_INT32}),
                SliceOp);

}  // namespace
}  // namespace rill
