// Where (one input) on the CPU: the coordinates of the input's nonzero (true) elements, int64,
// shape [count, rank], in row-major order. A float NaN counts as nonzero, -0.0 as zero.
// Errors: InvalidArgument "WhereOp : Unhandled input dimensions: 0" for a scalar; Unimplemented
// "No WhereOp available for float16/half type on CPU; ..." for half (TensorFlow's CPU has none).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_WHERE_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool

class WhereOp final : public OpKernel {
 public:
  explicit WhereOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape& shape = in.shape();
    if (in.dtype() == DT_HALF) {
      return absl::UnimplementedError(
          "No WhereOp available for float16/half type on CPU; dying in CPU WhereOp to avoid "
          "silently creating costly copies from device.");
    }
    if (shape.rank() == 0) {
      return absl::InvalidArgumentError("WhereOp : Unhandled input dimensions: 0");
    }
    std::vector<int64_t> hits;  // flat positions of the nonzero elements
    RILL_RETURN_IF_ERROR(VisitKernelTypes<RILL_WHERE_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = in.flat<T>().data();
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        if (cwise_internal::Load(x[i]) != decltype(cwise_internal::Load(x[i]))(0))
          hits.push_back(i);
      }
      return absl::OkStatus();
    }));
    const int rank = shape.rank();
    RILL_ASSIGN_OR_RETURN(
        Tensor * out,
        ctx.allocate_output(0, TensorShape({static_cast<int64_t>(hits.size()), int64_t{rank}})));
    int64_t* z = out->flat<int64_t>().data();
    for (size_t h = 0; h < hits.size(); ++h) {
      int64_t flat = hits[h];
      for (int d = rank - 1; d >= 0; --d) {
        z[h * rank + d] = flat % shape.dim(d);
        flat /= shape.dim(d);
      }
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("Where")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_WHERE_TYPES>()),
                WhereOp);

}  // namespace
}  // namespace rill
