// Stateful random ops on the CPU, seeded as TensorFlow seeds them so a graph's seeded initializers
// give TensorFlow's values bit for bit: RandomUniform ([0, 1)), RandomStandardNormal,
// TruncatedNormal (normal, redrawn outside two standard deviations) and RandomUniformInt
// ([minval, maxval)).
// Stream (TensorFlow's GuardedPhiloxRandom): each kernel holds a Philox generator keyed by the
// node's (seed, seed2) attrs (random when both are 0); every run reserves 256 blocks per output
// element and advances the generator past them, so successive runs continue the stream. Output
// group g (4 floats, 2 doubles, ...) is drawn from block g of the reservation; for the truncated
// normal from its own sub-stream starting 256 * group-size / 4 blocks further per group.
// Errors are InvalidArgument: "shape must be a vector of {int32,int64}, got shape [2,2]",
// "Dimension -1 must be >= 0", "Need minval < maxval, got 5 >= 5".
//
// Thread safety: Compute may run concurrently; the generator is guarded by a mutex (the only
// mutable state), so concurrent runs get disjoint parts of the stream.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/random/distributions.h"
#include "core/random/philox.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

using random::BoxMullerDouble;
using random::BoxMullerFloat;
using random::Uint16ToHalf;
using random::Uint32ToFloat;
using random::Uint64ToDouble;

constexpr uint64_t kBlocksPerOutput = 256;  // TensorFlow's reservation multiplier

// One group of outputs from one Philox block (fixed-size distributions).
template <typename T>
struct UniformDist {
  static constexpr int kGroup = std::is_same_v<T, double> ? 2 : 4;
  void operator()(const PhiloxRandom::ResultType& s, T* out) const {
    if constexpr (std::is_same_v<T, float>) {
      for (int i = 0; i < 4; ++i) out[i] = Uint32ToFloat(s[i]);
    } else if constexpr (std::is_same_v<T, double>) {
      for (int i = 0; i < 2; ++i) out[i] = Uint64ToDouble(s[2 * i], s[2 * i + 1]);
    } else {
      for (int i = 0; i < 4; ++i) out[i] = Uint16ToHalf(static_cast<uint16_t>(s[i]));
    }
  }
};

template <typename T>
struct NormalDist {
  static constexpr int kGroup = std::is_same_v<T, double> ? 2 : 4;
  void operator()(const PhiloxRandom::ResultType& s, T* out) const {
    if constexpr (std::is_same_v<T, double>) {
      BoxMullerDouble(s[0], s[1], s[2], s[3], &out[0], &out[1]);
    } else {
      for (int i = 0; i < 4; i += 2) {
        float f0, f1;
        BoxMullerFloat(s[i], s[i + 1], &f0, &f1);
        out[i] = T(f0);
        out[i + 1] = T(f1);
      }
    }
  }
};

template <typename T>
struct UniformIntDist {
  static constexpr int kGroup = std::is_same_v<T, int64_t> ? 2 : 4;
  T lo;
  std::make_unsigned_t<T> range;
  void operator()(const PhiloxRandom::ResultType& s, T* out) const {
    using U = std::make_unsigned_t<T>;
    for (int i = 0; i < kGroup; ++i) {
      U bits = std::is_same_v<T, int64_t>
                   ? static_cast<U>(s[2 * i] | (static_cast<uint64_t>(s[2 * i + 1]) << 32))
                   : static_cast<U>(s[i]);
      out[i] = static_cast<T>(static_cast<U>(lo) + bits % range);  // wraps like SignedAdd
    }
  }
};

// Fills n outputs, group g from block g of `base` (a partial last group uses a prefix).
template <typename T, typename Dist>
void FillGroups(PhiloxRandom base, const Dist& dist, int64_t n, T* out) {
  T group[4];
  for (int64_t offset = 0; offset < n; offset += Dist::kGroup) {
    dist(base(), group);
    const int64_t take = std::min<int64_t>(Dist::kGroup, n - offset);
    std::copy(group, group + take, out + offset);
  }
}

// Truncated normal: each group draws from its own sub-stream, one uint32 at a time, keeping values
// with |v| < 2.
template <typename T>
void FillTruncatedNormal(const PhiloxRandom& base, int64_t n, T* out) {
  constexpr int kGroup = std::is_same_v<T, double> ? 2 : 4;
  constexpr uint64_t kSkipPerGroup = kGroup * kBlocksPerOutput / PhiloxRandom::kResultElementCount;
  for (int64_t g = 0; g * kGroup < n; ++g) {
    PhiloxRandom gen = base;
    gen.Skip(static_cast<uint64_t>(g) * kSkipPerGroup);
    SingleSampleAdapter samples(&gen);
    T group[kGroup];
    int filled = 0;
    while (filled < kGroup) {
      if constexpr (std::is_same_v<T, double>) {
        const uint32_t x0 = samples(), x1 = samples(), x2 = samples(), x3 = samples();
        double d[2];
        BoxMullerDouble(x0, x1, x2, x3, &d[0], &d[1]);
        for (int i = 0; i < 2 && filled < kGroup; ++i) {
          if (std::abs(d[i]) < 2.0) group[filled++] = d[i];
        }
      } else {
        const uint32_t x0 = samples(), x1 = samples();
        float f[2];
        BoxMullerFloat(x0, x1, &f[0], &f[1]);
        for (int i = 0; i < 2 && filled < kGroup; ++i) {
          if (std::abs(f[i]) < 2.0f) group[filled++] = T(f[i]);
        }
      }
    }
    const int64_t take = std::min<int64_t>(kGroup, n - g * kGroup);
    std::copy(group, group + take, out + g * kGroup);
  }
}

enum class Kind { kUniform, kNormal, kTruncatedNormal, kUniformInt };

class RandomOp final : public OpKernel {
 public:
  RandomOp(OpKernelConstruction& ctx, Kind kind) : OpKernel(ctx), kind_(kind) {
    int64_t seed = 0, seed2 = 0;
    ctx.SetStatus(ctx.GetAttr("seed", &seed));
    ctx.SetStatus(ctx.GetAttr("seed2", &seed2));
    if (seed == 0 && seed2 == 0) {  // unseeded: a fresh random stream, as TensorFlow
      std::random_device rd;
      seed = (static_cast<int64_t>(rd()) << 32) | rd();
      seed2 = (static_cast<int64_t>(rd()) << 32) | rd();
    }
    generator_ = PhiloxRandom(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& shape_t = ctx.input(0);
    if (shape_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shape must be a vector of {int32,int64}, got shape ", shape_t.shape().DebugString()));
    }
    const std::vector<int64_t> dims = IndexValues(shape_t);
    for (int64_t d : dims) {
      if (d < 0) return absl::InvalidArgumentError(absl::StrCat("Dimension ", d, " must be >= 0"));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
    if (kind_ == Kind::kUniformInt) return ComputeInt(ctx, shape);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t n = out->NumElements();
    const PhiloxRandom base = Reserve(n);
    switch (out->dtype()) {
      case DT_FLOAT:
        return Fill<float>(base, n, out->flat<float>().data());
      case DT_DOUBLE:
        return Fill<double>(base, n, out->flat<double>().data());
      case DT_HALF:
        return Fill<half>(base, n, out->flat<half>().data());
      default:
        return absl::InvalidArgumentError(absl::StrCat(type_string(), " node ", name(),
                                                       " has no CPU kernel for ",
                                                       DataTypeString(out->dtype())));
    }
  }

 private:
  // The stream for n outputs; the generator moves past it (TensorFlow's ReserveRandomOutputs).
  PhiloxRandom Reserve(int64_t n) const {
    rill::MutexLock lock(&mu_);
    PhiloxRandom base = generator_;
    generator_.Skip(static_cast<uint64_t>(n) * kBlocksPerOutput);
    return base;
  }

  template <typename T>
  absl::Status Fill(const PhiloxRandom& base, int64_t n, T* out) const {
    switch (kind_) {
      case Kind::kUniform:
        FillGroups(base, UniformDist<T>(), n, out);
        break;
      case Kind::kNormal:
        FillGroups(base, NormalDist<T>(), n, out);
        break;
      default:
        FillTruncatedNormal(base, n, out);
    }
    return absl::OkStatus();
  }

  absl::Status ComputeInt(OpKernelContext& ctx, const TensorShape& shape) const {
    const Tensor& lo = ctx.input(1);
    const Tensor& hi = ctx.input(2);
    for (const Tensor* t : {&lo, &hi}) {
      if (t->shape().rank() != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            t == &lo ? "minval" : "maxval", " must be 0-D, got shape ", t->shape().DebugString()));
      }
    }
    const int64_t lo_v = IndexValues(lo)[0], hi_v = IndexValues(hi)[0];
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    if (lo_v >= hi_v) {
      return absl::InvalidArgumentError(
          absl::StrCat("Need minval < maxval, got ", lo_v, " >= ", hi_v));
    }
    const PhiloxRandom base = Reserve(n);
    if (out->dtype() == DT_INT32) {
      UniformIntDist<int32_t> dist{static_cast<int32_t>(lo_v),
                                   static_cast<uint32_t>(hi_v) - static_cast<uint32_t>(lo_v)};
      FillGroups(base, dist, n, out->flat<int32_t>().data());
    } else {
      UniformIntDist<int64_t> dist{lo_v, static_cast<uint64_t>(hi_v) - static_cast<uint64_t>(lo_v)};
      FillGroups(base, dist, n, out->flat<int64_t>().data());
    }
    return absl::OkStatus();
  }

  const Kind kind_;
  mutable rill::Mutex mu_;
  mutable PhiloxRandom generator_ ABSL_GUARDED_BY(mu_);
};

template <Kind kKind>
class RandomOpOf final : public OpKernel {
 public:
  explicit RandomOpOf(OpKernelConstruction& ctx) : OpKernel(ctx), op_(ctx, kKind) {}
  absl::Status Compute(OpKernelContext& ctx) const override { return op_.Compute(ctx); }

 private:
  RandomOp op_;
};

const std::vector<DataType> kFloatTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE};
const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};

REGISTER_KERNEL(KernelDefBuilder("RandomUniform")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", kFloatTypes)
                    .TypeConstraint("T", kIndexTypes)
                    .HostMemory("shape"),
                RandomOpOf<Kind::kUniform>);
REGISTER_KERNEL(KernelDefBuilder("RandomStandardNormal")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", kFloatTypes)
                    .TypeConstraint("T", kIndexTypes)
                    .HostMemory("shape"),
                RandomOpOf<Kind::kNormal>);
REGISTER_KERNEL(KernelDefBuilder("TruncatedNormal")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", kFloatTypes)
                    .TypeConstraint("T", kIndexTypes)
                    .HostMemory("shape"),
                RandomOpOf<Kind::kTruncatedNormal>);
REGISTER_KERNEL(KernelDefBuilder("RandomUniformInt")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tout", kIndexTypes)
                    .TypeConstraint("T", kIndexTypes)
                    .HostMemory("shape"),
                RandomOpOf<Kind::kUniformInt>);

}  // namespace
}  // namespace rill
