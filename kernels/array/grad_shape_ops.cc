// Shape helpers of TensorFlow's gradient graphs, on the CPU (host-memory int vectors):
//   BroadcastGradientArgs(s0, s1) -> (r0, r1): the dims each operand's gradient must be summed
//     over after a broadcasting op, by TensorFlow's rule: none when the shapes are equal; else, in
//     ascending order, every output dim where that operand's (1-padded) dim is 1.
//   InvertPermutation(x): y[x[i]] = i.
// Errors are InvalidArgument with TensorFlow's texts: "Incompatible shapes: [2,3] vs. [4]",
// "In[0] must be a vector.[2,2]", "invert_permutation expects a 1D vector.", "3 is not between 0
// and 3", "2 is duplicated in the input.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

// Writes `values` as output i, in the kernel's index dtype (that of input 0).
absl::Status OutputVector(OpKernelContext& ctx, int i, const std::vector<int64_t>& values) {
  RILL_ASSIGN_OR_RETURN(Tensor * out,
                        ctx.allocate_output(i, TensorShape({static_cast<int64_t>(values.size())})));
  for (size_t k = 0; k < values.size(); ++k) {
    if (out->dtype() == DT_INT32) {
      out->flat<int32_t>()[k] = static_cast<int32_t>(values[k]);
    } else {
      out->flat<int64_t>()[k] = values[k];
    }
  }
  return absl::OkStatus();
}

class BroadcastGradientArgsOp final : public OpKernel {
 public:
  explicit BroadcastGradientArgsOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    std::vector<int64_t> shapes[2];
    for (int i = 0; i < 2; ++i) {
      const Tensor& s = ctx.input(i);
      if (s.shape().rank() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("In[", i, "] must be a vector.", s.shape().DebugString()));
      }
      shapes[i] = IndexValues(s);
    }
    std::vector<int64_t> reduce[2];
    if (shapes[0] != shapes[1]) {
      const size_t rank = std::max(shapes[0].size(), shapes[1].size());
      for (size_t d = 0; d < rank; ++d) {
        int64_t dim[2];
        for (int i = 0; i < 2; ++i) {
          const size_t pad = rank - shapes[i].size();
          dim[i] = d < pad ? 1 : shapes[i][d - pad];
        }
        if (dim[0] != dim[1] && dim[0] != 1 && dim[1] != 1) {
          return absl::InvalidArgumentError(absl::StrCat("Incompatible shapes: [",
                                                         absl::StrJoin(shapes[0], ","), "] vs. [",
                                                         absl::StrJoin(shapes[1], ","), "]"));
        }
        for (int i = 0; i < 2; ++i) {
          if (dim[i] == 1) reduce[i].push_back(static_cast<int64_t>(d));
        }
      }
    }
    RILL_RETURN_IF_ERROR(OutputVector(ctx, 0, reduce[0]));
    return OutputVector(ctx, 1, reduce[1]);
  }
  bool IsExpensive() const override { return false; }
};

class InvertPermutationOp final : public OpKernel {
 public:
  explicit InvertPermutationOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    if (x.shape().rank() != 1) {
      return absl::InvalidArgumentError("invert_permutation expects a 1D vector.");
    }
    const std::vector<int64_t> perm = IndexValues(x);
    const int64_t n = static_cast<int64_t>(perm.size());
    std::vector<int64_t> inverse(n, -1);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t d = perm[i];
      if (d < 0 || d >= n) {
        return absl::InvalidArgumentError(absl::StrCat(d, " is not between 0 and ", n));
      }
      if (inverse[d] != -1) {
        return absl::InvalidArgumentError(absl::StrCat(d, " is duplicated in the input."));
      }
      inverse[d] = i;
    }
    return OutputVector(ctx, 0, inverse);
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("BroadcastGradientArgs")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_INT32, DT_INT64}),
                BroadcastGradientArgsOp);
REGISTER_KERNEL(KernelDefBuilder("InvertPermutation")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_INT32, DT_INT64}),
                InvertPermutationOp);

}  // namespace
}  // namespace rill
