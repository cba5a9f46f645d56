// Transpose: y[i_0, ..., i_{r-1}] = x[...] with y's dim k = x's dim perm[k], for every storable
// dtype, by kernels/math_lib/transpose_functor.h. An identity permutation forwards the input.
//
// Errors (InvalidArgument, TensorFlow's texts): perm not a vector ("perm must
// be rank 1, got shape [2,2]"), perm of the wrong size ("transpose expects a
// vector of size 3. But input(1) is a vector of size 2"), an entry out of range
// ("3 is out of range [0 .. 3)") or repeated ("2 is missing from {0,0,1}.").
//
// Thread safety: Compute is const and keeps no state; concurrent steps are
// safe.
#include <cstdint>
#include <vector>

#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"
#include "kernels/math_lib/transpose_functor.h"

namespace rill {
namespace {

class TransposeOp final : public OpKernel {
 public:
  explicit TransposeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(TransposePlan plan, TransposePlanOf(input.shape(), ctx.input(1)));
    if (plan.identity) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    if (input.NumElements() == 0) return absl::OkStatus();
    return TransposeInto(input, plan.perm, out);
  }
};

REGISTER_KERNEL(KernelDefBuilder("Transpose")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tperm", {DT_INT32, DT_INT64}),
                TransposeOp);
// ConjugateTranspose of real values is Transpose (complex ones, which need the conjugate, are
// not registered).
REGISTER_KERNEL(KernelDefBuilder("ConjugateTranspose")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_BOOL, DT_STRING})
                    .TypeConstraint("Tperm", {DT_INT32, DT_INT64}),
                TransposeOp);

}  // namespace
}  // namespace rill
