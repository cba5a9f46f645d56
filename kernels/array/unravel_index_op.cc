// UnravelIndex on the CPU: flat indices into an array of shape `dims` -> their coordinates
// (row-major), one row per dim: [len(dims)] for a scalar index, [len(dims), n] for n indices.
// Errors are InvalidArgument with TensorFlow's texts: "The indices can only be scalar or vector,
// got \"[2,2]\"", "received empty tensor indices: Tensor<type: int32 shape: [0] values: >", "The
// indices can only be 1-D, got \"[]\"" (dims), "Input dims cannot contain a dim of zero, but dims
// contains zero at index 1", "Input dims cannot be negative. Got dim = -2 at index 0", "Input dims
// product is causing integer overflow", "index is out of bound as with dims".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

class UnravelIndexOp final : public OpKernel {
 public:
  explicit UnravelIndexOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices_t = ctx.input(0);
    const Tensor& dims_t = ctx.input(1);
    if (indices_t.shape().rank() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("The indices can only be scalar or vector, got \"",
                       indices_t.shape().DebugString(), "\""));
    }
    if (indices_t.shape().rank() == 1 && indices_t.NumElements() == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("received empty tensor indices: ", indices_t.DebugString()));
    }
    if (dims_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("The indices can only be 1-D, got \"", dims_t.shape().DebugString(), "\""));
    }
    const std::vector<int64_t> dims = IndexValues(dims_t);
    const bool wide = dims_t.dtype() == DT_INT64;
    const double limit = wide ? static_cast<double>(std::numeric_limits<int64_t>::max())
                              : static_cast<double>(std::numeric_limits<int32_t>::max());
    double prod = 1;
    int64_t size = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input dims cannot contain a dim of zero, but dims contains zero at index ", i));
      }
      if (dims[i] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input dims cannot be negative. Got dim = ", dims[i], " at index ", i));
      }
      if (prod > limit / static_cast<double>(dims[i])) {
        return absl::InvalidArgumentError("Input dims product is causing integer overflow");
      }
      prod *= static_cast<double>(dims[i]);
      size *= dims[i];
    }
    const std::vector<int64_t> indices = IndexValues(indices_t);
    for (int64_t index : indices) {
      if (index >= size) return absl::InvalidArgumentError("index is out of bound as with dims");
    }
    const int64_t n = static_cast<int64_t>(indices.size());
    const int64_t rank = static_cast<int64_t>(dims.size());
    const TensorShape out_shape =
        indices_t.shape().rank() == 0 ? TensorShape({rank}) : TensorShape({rank, n});
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    for (int64_t j = 0; j < n; ++j) {
      // Row-major: the last dim varies fastest, so peel coordinates from the end. C++'s / and %
      // truncate as TensorFlow's do for a negative index.
      int64_t rest = indices[j];
      for (int64_t d = rank - 1; d >= 0; --d) {
        const int64_t coordinate = rest % dims[d];
        rest /= dims[d];
        if (wide) {
          out->flat<int64_t>()[d * n + j] = coordinate;
        } else {
          out->flat<int32_t>()[d * n + j] = static_cast<int32_t>(coordinate);
        }
      }
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("UnravelIndex")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tidx", {DT_INT32, DT_INT64}),
                UnravelIndexOp);

}  // namespace
}  // namespace rill
