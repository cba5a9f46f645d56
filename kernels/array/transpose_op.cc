// Transpose: y[i_0, ..., i_{r-1}] = x[...] with y's dim k = x's dim perm[k], for every storable
// dtype, by kernels/math_lib/transpose_functor.h. An identity permutation forwards the input.
// ConjugateTranspose is the same with complex elements conjugated (an identity permutation
// conjugates into a new output); of real elements it is Transpose.
//
// Errors (InvalidArgument, TensorFlow's texts): perm not a vector ("perm must
// be rank 1, got shape [2,2]"), perm of the wrong size ("transpose expects a
// vector of size 3. But input(1) is a vector of size 2"), an entry out of range
// ("3 is out of range [0 .. 3)") or repeated ("2 is missing from {0,0,1}.").
//
// Thread safety: Compute is const and keeps no state; concurrent steps are
// safe.
#include <complex>
#include <cstdint>
#include <vector>

#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"
#include "kernels/math_lib/transpose_functor.h"

namespace rill {
namespace {

// Conjugates every element of a complex64 / complex128 tensor in place.
void ConjugateInPlace(Tensor* t) {
  auto conj = [](auto* z, int64_t n) {
    for (int64_t i = 0; i < n; ++i) z[i] = std::conj(z[i]);
  };
  if (t->dtype() == DT_COMPLEX64) {
    conj(t->flat<complex64>().data(), t->NumElements());
  } else {
    conj(t->flat<complex128>().data(), t->NumElements());
  }
}

template <bool kConjugate>
class TransposeOp final : public OpKernel {
 public:
  explicit TransposeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(TransposePlan plan, TransposePlanOf(input.shape(), ctx.input(1)));
    const bool conjugate =
        kConjugate && (input.dtype() == DT_COMPLEX64 || input.dtype() == DT_COMPLEX128);
    if (plan.identity && !conjugate) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    if (input.NumElements() == 0) return absl::OkStatus();
    RILL_RETURN_IF_ERROR(TransposeInto(input, plan.perm, out));
    if (conjugate) ConjugateInPlace(out);
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("Transpose")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tperm", {DT_INT32, DT_INT64}),
                TransposeOp<false>);
REGISTER_KERNEL(KernelDefBuilder("ConjugateTranspose")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_BOOL, DT_STRING,
                                          DT_COMPLEX64, DT_COMPLEX128})
                    .TypeConstraint("Tperm", {DT_INT32, DT_INT64}),
                TransposeOp<true>);

}  // namespace
}  // namespace rill
