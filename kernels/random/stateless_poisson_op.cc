// StatelessRandomPoisson(shape, seed, lam) on the CPU, bit for bit TensorFlow's: output element
// [..., r] (lam broadcast over the leading dims of `shape`, whose trailing dims must be lam's)
// draws from Poisson(lam[r]) with the Philox generator of the seed (stateless_keys.h) skipped to
// 256 blocks per output in TensorFlow's order (rate-major: output number r * samples_per_rate +
// s), taking doubles two per block, the second first. lam < 10: Knuth's product of uniforms
// until it falls to exp(-lam); lam >= 10: Hormann's transformed rejection with TensorFlow's
// constants; each counted in double and converted to dtype.
// Where TensorFlow loops forever (a NaN or infinite lam, or a lam whose samples exceed dtype's
// range) this kernel returns InvalidArgument naming the node instead. Other errors are
// TensorFlow's texts: random_op_util.h's shape errors, "seed must have shape [2], not [3]",
// "Shape passed in must end with broadcasted shape.".
//
// Kernels hold no mutable state; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
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
// Rejection rounds before a lam is reported as out of the dtype's range (TensorFlow retries
// forever; a rate that fits accepts within a few rounds).
constexpr int kMaxRounds = 1 << 20;

// The doubles of a Philox stream, two per block, the second of each block first.
class UniformDoubles {
 public:
  explicit UniformDoubles(const PhiloxRandom& gen) : gen_(gen) {}
  double Next() {
    if (remaining_ == 0) {
      const PhiloxRandom::ResultType s = gen_();
      block_[0] = random::Uint64ToDouble(s[0], s[1]);
      block_[1] = random::Uint64ToDouble(s[2], s[3]);
      remaining_ = 2;
    }
    return block_[--remaining_];
  }

 private:
  PhiloxRandom gen_;
  double block_[2] = {0, 0};
  int remaining_ = 0;
};

// One Poisson(rate) draw from `uniform`, false when none fits below `highest` in kMaxRounds.
bool DrawPoisson(double rate, double exp_neg_rate, double highest, UniformDoubles& uniform,
                 double* out) {
  if (rate < 10) {
    double prod = 1, x = 0;
    for (int64_t round = 0; round < kMaxRounds; ++round) {
      prod *= uniform.Next();
      if (prod <= exp_neg_rate && x <= highest) {
        *out = x;
        return true;
      }
      x += 1;
    }
    return false;
  }
  const double log_rate = std::log(rate);
  const double b = 0.931 + 2.53 * std::sqrt(rate);
  const double a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  for (int round = 0; round < kMaxRounds; ++round) {
    const double u = uniform.Next() - 0.5;
    const double v = uniform.Next();
    const double u_shifted = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / u_shifted + b) * u + rate + 0.43);
    if (k > highest) continue;
    if (u_shifted >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2)) {
      *out = k;
      return true;
    }
    if (k < 0 || (u_shifted < 0.013 && v > u_shifted)) continue;
    const double s = std::log(v * inv_alpha / (a / (u_shifted * u_shifted) + b));
    const double t = -rate + k * log_rate - std::lgamma(k + 1);
    if (s <= t) {
      *out = k;
      return true;
    }
  }
  return false;
}

template <typename U>
double Highest() {
  if constexpr (std::is_same_v<U, half>) {
    return 65504.0;
  } else {
    return static_cast<double>(std::numeric_limits<U>::max());
  }
}

template <typename U>
U FromDouble(double x) {
  if constexpr (std::is_same_v<U, half>) {
    return half(static_cast<float>(x));
  } else {
    return static_cast<U>(x);
  }
}

class StatelessRandomPoissonOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const TensorShape shape, random::RandomOutputShape(ctx.input(0)));
    RILL_RETURN_IF_ERROR(stateless::CheckSeed(ctx.input(1)));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const Tensor& lam = ctx.input(2);
    const int lam_rank = lam.shape().rank(), rank = shape.rank();
    bool ends_with = lam_rank <= rank;
    for (int i = 0; ends_with && i < lam_rank; ++i) {
      ends_with = shape.dim(rank - lam_rank + i) == lam.shape().dim(i);
    }
    if (!ends_with) {
      return absl::InvalidArgumentError("Shape passed in must end with broadcasted shape.");
    }
    const stateless::KeyCounter kc = stateless::KeyCounterFromSeed(ctx.input(1));
    const PhiloxRandom base(kc.counter, kc.key);
    const int64_t num_rate = lam.NumElements();
    const int64_t per_rate = out->NumElements() / num_rate;
    std::vector<double> rates(num_rate);
    const absl::Status loaded =
        VisitKernelTypes<half, float, double, int32_t, int64_t>(*this, lam.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          for (int64_t r = 0; r < num_rate; ++r) {
            rates[r] = static_cast<double>(cwise_internal::Load(lam.flat<T>()[r]));
          }
          return absl::OkStatus();
        });
    if (!loaded.ok()) return loaded;
    return VisitKernelTypes<half, float, double, int32_t, int64_t>(
        *this, out->dtype(), [&](auto tag) -> absl::Status {
          using U = typename decltype(tag)::type;
          U* samples = out->flat<U>().data();
          for (int64_t r = 0; r < num_rate; ++r) {
            const double rate = rates[r];
            if (!std::isfinite(rate)) {
              return absl::InvalidArgumentError(absl::StrCat(
                  type_string(), " node ", name(), ": lam[", r, "] is ", rate,
                  ", which has no Poisson sample (TensorFlow loops forever); pass finite rates"));
            }
            const double exp_neg_rate = std::exp(-rate);
            for (int64_t s = 0; s < per_rate; ++s) {
              PhiloxRandom gen = base;
              gen.Skip(kBlocksPerOutput * static_cast<uint64_t>(r * per_rate + s));
              UniformDoubles uniform(gen);
              double x;
              if (!DrawPoisson(rate, exp_neg_rate, Highest<U>(), uniform, &x)) {
                return absl::InvalidArgumentError(absl::StrCat(
                    type_string(), " node ", name(), ": lam[", r, "] = ", rate,
                    " gives samples past the largest ", DataTypeString(out->dtype()),
                    " (TensorFlow loops forever); use a wider dtype or a smaller rate"));
              }
              samples[s * num_rate + r] = FromDouble<U>(x);
            }
          }
          return absl::OkStatus();
        });
  }
};

REGISTER_KERNEL(KernelDefBuilder("StatelessRandomPoisson")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", DataTypesOf<half, float, double, int32_t, int64_t>())
                    .TypeConstraint("Rtype", DataTypesOf<half, float, double, int32_t, int64_t>())
                    .HostMemory("shape")
                    .HostMemory("seed")
                    .HostMemory("lam"),
                StatelessRandomPoissonOp);

}  // namespace
}  // namespace rill
