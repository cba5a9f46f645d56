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
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
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
    const Tensor& perm_tensor = ctx.input(1);
    if (perm_tensor.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("perm must be rank 1, got shape ", perm_tensor.shape().DebugString()));
    }
    const int rank = input.shape().rank();
    const std::vector<int64_t> perm_values = IndexValues(perm_tensor);
    if (static_cast<int64_t>(perm_values.size()) != rank) {
      return absl::InvalidArgumentError(absl::StrCat("transpose expects a vector of size ", rank,
                                                     ". But input(1) is a vector of size ",
                                                     perm_values.size()));
    }
    std::vector<int> perm;
    std::vector<int64_t> out_dims;
    bool identity = true;
    for (int i = 0; i < rank; ++i) {
      const int64_t d = perm_values[i];
      if (d < 0 || d >= rank) {
        return absl::InvalidArgumentError(absl::StrCat(d, " is out of range [0 .. ", rank, ")"));
      }
      perm.push_back(static_cast<int>(d));
      out_dims.push_back(input.shape().dim(static_cast<int>(d)));
      identity &= d == i;
    }
    std::vector<bool> seen(rank, false);
    for (int d : perm) seen[d] = true;
    for (int i = 0; i < rank; ++i) {
      if (!seen[i]) {
        return absl::InvalidArgumentError(
            absl::StrCat(i, " is missing from {", absl::StrJoin(perm, ","), "}."));
      }
    }
    if (identity) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (input.NumElements() == 0) return absl::OkStatus();
    return TransposeInto(input, perm, out);
  }
};

REGISTER_KERNEL(KernelDefBuilder("Transpose")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tperm", {DT_INT32, DT_INT64}),
                TransposeOp);

}  // namespace
}  // namespace rill
