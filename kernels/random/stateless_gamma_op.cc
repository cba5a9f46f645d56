// StatelessRandomGammaV2(shape, seed, alpha) and StatelessRandomGammaV3(shape, key, counter, alg,
// alpha) on the CPU, bit for bit TensorFlow's: output element
// [..., a] (alpha broadcast over the leading dims of `shape`, whose trailing dims must be
// alpha's) draws from Gamma(alpha[a], 1) with the Philox generator of the seed
// (stateless_keys.h; V3's key and counter, Philox only) skipped to 256 blocks per output in
// TensorFlow's order (alpha-major: output number a * samples_per_alpha + s). alpha == 1:
// -log1p(-u); otherwise Marsaglia and Tsang's transformation-rejection on normals (Box-Muller in
// double, two per block) and uniforms (doubles, two per block), each pair used second first, with d
// = alpha - 1/3 (alpha + 2/3 and a final u^(1/alpha) boost below 1), computed in double and
// converted to dtype. Errors are TensorFlow's texts: random_op_util.h's shape errors, "seed must
// have shape [2], not [3]", "Shape passed in must end with broadcasted shape.".
//
// Kernels hold no mutable state; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/random/distributions.h"
#include "core/random/philox.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/random/random_op_util.h"
#include "kernels/random/stateless_keys.h"

namespace rill {
namespace {

constexpr uint64_t kBlocksPerOutput = 256;
// Rejection rounds before an alpha is reported (TensorFlow retries forever; a finite positive
// alpha accepts within a few rounds).
constexpr int kMaxRounds = 1 << 20;

// Pairs of values from one Philox block each, handed out second first.
class PairStream {
 public:
  double NextUniform(PhiloxRandom& gen) {
    if (uniform_left_ == 0) {
      const PhiloxRandom::ResultType s = gen();
      uniform_[0] = random::Uint64ToDouble(s[0], s[1]);
      uniform_[1] = random::Uint64ToDouble(s[2], s[3]);
      uniform_left_ = 2;
    }
    return uniform_[--uniform_left_];
  }
  double NextNormal(PhiloxRandom& gen) {
    if (normal_left_ == 0) {
      const PhiloxRandom::ResultType s = gen();
      random::BoxMullerDouble(s[0], s[1], s[2], s[3], &normal_[0], &normal_[1]);
      normal_left_ = 2;
    }
    return normal_[--normal_left_];
  }

 private:
  double uniform_[2] = {0, 0}, normal_[2] = {0, 0};
  int uniform_left_ = 0, normal_left_ = 0;
};

// One Gamma(alpha, 1) draw; false when no candidate is accepted in kMaxRounds.
bool DrawGamma(double alpha, PhiloxRandom gen, double* out) {
  PairStream stream;
  if (alpha == 1.0) {
    *out = -std::log1p(-stream.NextUniform(gen));
    return true;
  }
  const bool below_one = alpha < 1;
  const double d = alpha + (below_one ? 2.0 / 3 : -1.0 / 3);
  const double c = 1.0 / 3 / std::sqrt(d);
  for (int round = 0; round < kMaxRounds; ++round) {
    const double x = stream.NextNormal(gen);
    double v = 1 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = stream.NextUniform(gen);
    if (u < 1 - 0.0331 * (x * x) * (x * x) ||
        std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) {
      double res = d * v;
      if (below_one) res *= std::pow(stream.NextUniform(gen), 1 / alpha);
      *out = res;
      return true;
    }
  }
  return false;
}

template <typename U>
U FromDouble(double x) {
  if constexpr (std::is_same_v<U, half>) {
    return half(static_cast<float>(x));
  } else {
    return static_cast<U>(x);
  }
}

// kV3: StatelessRandomGammaV3, whose generator is its key, counter and alg inputs (alpha is
// input 4); else V2's seed.
template <bool kV3>
class StatelessRandomGammaOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    PhiloxRandom base;
    TensorShape shape;
    if constexpr (kV3) {
      RILL_ASSIGN_OR_RETURN(const int32_t alg, stateless::CheckAlgKeyCounter(
                                                   ctx.input(1), ctx.input(2), ctx.input(3)));
      if (alg != stateless::kAlgPhilox) {
        return absl::InvalidArgumentError(absl::StrCat("Unsupported algorithm id: ", alg));
      }
      base = stateless::GeneratorFromKeyCounter(ctx.input(1), ctx.input(2));
      RILL_ASSIGN_OR_RETURN(shape, random::RandomOutputShape(ctx.input(0)));
    } else {
      RILL_ASSIGN_OR_RETURN(shape, random::RandomOutputShape(ctx.input(0)));
      RILL_RETURN_IF_ERROR(stateless::CheckSeed(ctx.input(1)));
      const stateless::KeyCounter kc = stateless::KeyCounterFromSeed(ctx.input(1));
      base = PhiloxRandom(kc.counter, kc.key);
    }
    const Tensor& alpha = ctx.input(kV3 ? 4 : 2);
    const int alpha_rank = alpha.shape().rank(), rank = shape.rank();
    bool ends_with = alpha_rank <= rank;
    for (int i = 0; ends_with && i < alpha_rank; ++i) {
      ends_with = shape.dim(rank - alpha_rank + i) == alpha.shape().dim(i);
    }
    if (!ends_with) {
      return absl::InvalidArgumentError("Shape passed in must end with broadcasted shape.");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t num_alpha = alpha.NumElements();
    const int64_t per_alpha = out->NumElements() / num_alpha;
    return VisitKernelTypes<half, float, double>(*this, out->dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* a = alpha.flat<U>().data();
      U* samples = out->flat<U>().data();
      for (int64_t r = 0; r < num_alpha; ++r) {
        const double alpha_r = static_cast<double>(cwise_internal::Load(a[r]));
        for (int64_t s = 0; s < per_alpha; ++s) {
          PhiloxRandom gen = base;
          gen.Skip(kBlocksPerOutput * static_cast<uint64_t>(r * per_alpha + s));
          double x = std::numeric_limits<double>::quiet_NaN();
          if (!DrawGamma(alpha_r, gen, &x) && std::isfinite(alpha_r) && alpha_r > 0) {
            return absl::InternalError(absl::StrCat(type_string(), " node ", name(), ": alpha[", r,
                                                    "] = ", alpha_r, " accepted no sample"));
          }
          samples[s * num_alpha + r] = FromDouble<U>(x);
        }
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("StatelessRandomGammaV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", DataTypesOf<half, float, double>())
                    .HostMemory("shape")
                    .HostMemory("seed"),
                StatelessRandomGammaOp<false>);
REGISTER_KERNEL(KernelDefBuilder("StatelessRandomGammaV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", DataTypesOf<half, float, double>())
                    .HostMemory("shape")
                    .HostMemory("key")
                    .HostMemory("counter")
                    .HostMemory("alg"),
                StatelessRandomGammaOp<true>);

}  // namespace
}  // namespace rill
