// Range and LinSpace on the CPU. Range: [start, start + delta, ...) up to (not including) limit;
// element i is start + i * delta in the output type, as TensorFlow 2.21's kernel computes it (so
// float sequences round the same way: range(1e30, 1e30 + 1e24, 1e23) is not repeated addition),
// integers by repeated addition (the same values, without overflow in i * delta).
// half and bfloat16 round each step to their type, as TensorFlow's kernel computes in it.
// Size: ceil(|limit - start| / |delta|). Errors are InvalidArgument with TensorFlow's texts:
// "start must be a scalar, not shape [2]", "Requires delta != 0: 0", "Requires start <= limit
// when delta > 0: 5/0", "Requires start >= limit when delta < 0: 0/5", "Requires ((limit - start)
// / delta) <= 9223372036854775807" (NaN, inf, or a size past int64). A size that fits int64 but
// not memory is ResourceExhausted from the allocator. LinSpace: num values from start to stop
// inclusive (start + i * (stop - start) / (num - 1), the last exactly stop), TensorFlow's
// arithmetic. Errors: InvalidArgument "start must be a scalar, not shape [2]" (also stop, num),
// "Requires num > 0: 0".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_RANGE_TYPES half, bfloat16, float, double, int32_t, int64_t

// InvalidArgument "<name> must be a scalar, not shape [2]" for the first of the three inputs
// that is not a scalar.
absl::Status CheckScalars(const OpKernelContext& ctx, const std::array<const char*, 3>& names) {
  for (int i = 0; i < 3; ++i) {
    if (ctx.input(i).shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(names[i], " must be a scalar, not shape ",
                                                     ctx.input(i).shape().DebugString()));
    }
  }
  return absl::OkStatus();
}

class RangeOp final : public OpKernel {
 public:
  explicit RangeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_RETURN_IF_ERROR(CheckScalars(ctx, {"start", "limit", "delta"}));
    return VisitKernelTypes<RILL_RANGE_TYPES>(*this, ctx.input(0).dtype(), [&](auto tag) {
      return Run<typename decltype(tag)::type>(ctx);
    });
  }

 private:
  // half and bfloat16 as TensorFlow's kernel computes them in T: each operation in float,
  // rounded to T (the size from T's (limit - start) / delta, and start + T(i) * delta).
  template <typename T>
  absl::Status RunNarrowFloat(OpKernelContext& ctx) const {
    auto round = [](float v) { return static_cast<float>(T(v)); };
    const float start = static_cast<float>(ctx.input(0).flat<T>()[0]);
    const float limit = static_cast<float>(ctx.input(1).flat<T>()[0]);
    const float delta = static_cast<float>(ctx.input(2).flat<T>()[0]);
    if (delta == 0) return absl::InvalidArgumentError(absl::StrCat("Requires delta != 0: ", delta));
    if (delta > 0) {
      if (!(start <= limit)) {
        return absl::InvalidArgumentError(
            absl::StrCat("Requires start <= limit when delta > 0: ", start, "/", limit));
      }
    } else if (!(start >= limit)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Requires start >= limit when delta < 0: ", start, "/", limit));
    }
    const double n = std::ceil(std::abs(round(round(limit - start) / delta)));
    if (!(n < 9223372036854775808.0)) {
      return absl::InvalidArgumentError(absl::StrCat("Requires ((limit - start) / delta) <= ",
                                                     std::numeric_limits<int64_t>::max()));
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape shape,
                          TensorShape::FromDims({static_cast<int64_t>(n)}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    T* z = out->flat<T>().data();
    for (int64_t i = 0; i < shape.dim(0); ++i) {
      z[i] = T(start + round(round(static_cast<float>(i)) * delta));
    }
    return absl::OkStatus();
  }

  template <typename T>
  absl::Status Run(OpKernelContext& ctx) const {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
      return RunNarrowFloat<T>(ctx);
    } else {
      return RunWide<T>(ctx);
    }
  }

  template <typename T>
  absl::Status RunWide(OpKernelContext& ctx) const {
    const T start = ctx.input(0).flat<T>()[0];
    const T limit = ctx.input(1).flat<T>()[0];
    const T delta = ctx.input(2).flat<T>()[0];
    if (delta == 0) return absl::InvalidArgumentError(absl::StrCat("Requires delta != 0: ", delta));
    // Written as TensorFlow's checks, so a NaN bound or delta fails them.
    if (delta > 0) {
      if (!(start <= limit)) {
        return absl::InvalidArgumentError(
            absl::StrCat("Requires start <= limit when delta > 0: ", start, "/", limit));
      }
    } else if (!(start >= limit)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Requires start >= limit when delta < 0: ", start, "/", limit));
    }
    // The size is computed without overflow and checked before it becomes a shape: NaN, inf or
    // a span past int64 fail with TensorFlow's bound (its CPU kernel checks the float size; an
    // int64 span such as [INT64_MIN, INT64_MAX) is caught here the same way).
    const absl::Status too_large = absl::InvalidArgumentError(absl::StrCat(
        "Requires ((limit - start) / delta) <= ", std::numeric_limits<int64_t>::max()));
    int64_t size;
    if constexpr (std::is_integral_v<T>) {
      // |limit - start| and |delta| as unsigned 64-bit values are exact for every int32/int64.
      const uint64_t span = delta > 0 ? static_cast<uint64_t>(limit) - static_cast<uint64_t>(start)
                                      : static_cast<uint64_t>(start) - static_cast<uint64_t>(limit);
      const uint64_t step =
          delta > 0 ? static_cast<uint64_t>(delta) : uint64_t{0} - static_cast<uint64_t>(delta);
      const uint64_t n = span / step + (span % step != 0);
      if (n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return too_large;
      size = static_cast<int64_t>(n);
    } else {
      // NaN fails this comparison too; 2^63 is the first double past int64.
      const double n = static_cast<double>(std::ceil(std::abs((limit - start) / delta)));
      if (!(n < 9223372036854775808.0)) return too_large;
      size = static_cast<int64_t>(n);
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape shape, TensorShape::FromDims({size}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    T* z = out->flat<T>().data();
    if constexpr (std::is_integral_v<T>) {
      T value = start;
      for (int64_t i = 0; i < size; ++i) {
        z[i] = value;
        if (i + 1 < size) value += delta;  // never steps past limit (no signed overflow)
      }
    } else {
      for (int64_t i = 0; i < size; ++i) z[i] = start + static_cast<T>(i) * delta;
    }
    return absl::OkStatus();
  }
};

class LinSpaceOp final : public OpKernel {
 public:
  explicit LinSpaceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_RETURN_IF_ERROR(CheckScalars(ctx, {"start", "stop", "num"}));
    const int64_t num = IndexValues(ctx.input(2))[0];
    if (num <= 0) return absl::InvalidArgumentError(absl::StrCat("Requires num > 0: ", num));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({num})));
    return VisitKernelTypes<float, double>(*this, ctx.input(0).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T start = ctx.input(0).flat<T>()[0];
      const T stop = ctx.input(1).flat<T>()[0];
      T* z = out->flat<T>().data();
      z[0] = start;
      if (num > 1) {
        const T step = (stop - start) / static_cast<T>(num - 1);
        for (int64_t i = 1; i < num - 1; ++i) z[i] = start + step * static_cast<T>(i);
        z[num - 1] = stop;
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("LinSpace")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>())
                    .TypeConstraint("Tidx", {DT_INT32, DT_INT64})
                    .HostMemory("start")
                    .HostMemory("stop")
                    .HostMemory("num"),
                LinSpaceOp);
REGISTER_KERNEL(KernelDefBuilder("Range")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tidx", DataTypesOf<RILL_RANGE_TYPES>())
                    .HostMemory("start")
                    .HostMemory("limit")
                    .HostMemory("delta"),
                RangeOp);

}  // namespace
}  // namespace rill
