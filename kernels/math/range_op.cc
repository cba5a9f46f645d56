// Range on the CPU: [start, start + delta, ...) up to (not including) limit, accumulated by
// repeated addition in the output type as TensorFlow's CPU kernel does (so float sequences
// round the same way). Size: ceil(|limit - start| / |delta|).
// Errors are InvalidArgument with TensorFlow's texts: "start must be a scalar, not shape [2]",
// "Requires delta != 0: 0", "Requires start <= limit when delta > 0: 5/0", "Requires start >=
// limit when delta < 0: 0/5".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_RANGE_TYPES float, double, int32_t, int64_t

class RangeOp final : public OpKernel {
 public:
  explicit RangeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const char* names[] = {"start", "limit", "delta"};
    for (int i = 0; i < 3; ++i) {
      if (ctx.input(i).shape().rank() != 0) {
        return absl::InvalidArgumentError(absl::StrCat(names[i], " must be a scalar, not shape ",
                                                       ctx.input(i).shape().DebugString()));
      }
    }
    return VisitKernelTypes<RILL_RANGE_TYPES>(*this, ctx.input(0).dtype(), [&](auto tag) {
      return Run<typename decltype(tag)::type>(ctx);
    });
  }

 private:
  template <typename T>
  absl::Status Run(OpKernelContext& ctx) const {
    const T start = ctx.input(0).flat<T>()[0];
    const T limit = ctx.input(1).flat<T>()[0];
    const T delta = ctx.input(2).flat<T>()[0];
    if (delta == 0) return absl::InvalidArgumentError(absl::StrCat("Requires delta != 0: ", delta));
    if (delta > 0 && start > limit) {
      return absl::InvalidArgumentError(
          absl::StrCat("Requires start <= limit when delta > 0: ", start, "/", limit));
    }
    if (delta < 0 && start < limit) {
      return absl::InvalidArgumentError(
          absl::StrCat("Requires start >= limit when delta < 0: ", start, "/", limit));
    }
    int64_t size;
    if constexpr (std::is_integral_v<T>) {
      size = (std::abs(static_cast<int64_t>(limit) - static_cast<int64_t>(start)) +
              std::abs(static_cast<int64_t>(delta)) - 1) /
             std::abs(static_cast<int64_t>(delta));
    } else {
      size = static_cast<int64_t>(std::ceil(std::abs((limit - start) / delta)));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({size})));
    T* z = out->flat<T>().data();
    T value = start;
    for (int64_t i = 0; i < size; ++i) {
      z[i] = value;
      value += delta;
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("Range")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tidx", DataTypesOf<RILL_RANGE_TYPES>())
                    .HostMemory("start")
                    .HostMemory("limit")
                    .HostMemory("delta"),
                RangeOp);

}  // namespace
}  // namespace rill
