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
#include "core/random/philox.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/random/philox_fill.h"
#include "kernels/random/random_op_util.h"

namespace rill {
namespace {

using random::kBlocksPerOutput;

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
    RILL_ASSIGN_OR_RETURN(TensorShape shape, random::RandomOutputShape(ctx.input(0)));
    if (kind_ == Kind::kUniformInt) return ComputeInt(ctx, shape);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const PhiloxRandom base = Reserve(out->NumElements());
    const random::FloatKind kind = kind_ == Kind::kUniform  ? random::FloatKind::kUniform
                                   : kind_ == Kind::kNormal ? random::FloatKind::kNormal
                                                            : random::FloatKind::kTruncatedNormal;
    return random::FillFloatTensor(kind, base, out, absl::StrCat(type_string(), " node ", name()));
  }

 private:
  // The stream for n outputs; the generator moves past it (TensorFlow's ReserveRandomOutputs).
  PhiloxRandom Reserve(int64_t n) const {
    rill::MutexLock lock(&mu_);
    PhiloxRandom base = generator_;
    generator_.Skip(static_cast<uint64_t>(n) * kBlocksPerOutput);
    return base;
  }

  absl::Status ComputeInt(OpKernelContext& ctx, const TensorShape& shape) const {
    RILL_RETURN_IF_ERROR(random::CheckRandomIntBoundsAreScalars(ctx.input(1), ctx.input(2)));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t n = out->NumElements();
    if (n == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(auto bounds, random::RandomIntBounds(ctx.input(1), ctx.input(2)));
    const auto [lo_v, hi_v] = bounds;
    random::FillUniformIntTensor(Reserve(n), lo_v, hi_v, out);
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
