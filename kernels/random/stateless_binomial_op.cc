// StatelessRandomBinomial(shape, seed, counts, probs) on the CPU, bit for bit TensorFlow's:
// counts and probs broadcast to a batch shape that `shape` must end with; output element
// [s..., b] draws from Binomial(counts[b], probs[b]) with the Philox generator of the seed
// (stateless_keys.h) skipped, for output number n = b * samples_per_batch + s, to 256 * n blocks
// (Hormann's BTRS where count * p >= 10, p the smaller of prob and 1 - prob) or 42 * n blocks
// (binomial inversion: geometric steps until they pass count), taking doubles two per block, the
// second first; prob > 1/2 draws count - Binomial(count, 1 - prob). count <= 0 or prob <= 0 gives
// 0, prob >= 1 gives count, a NaN prob NaN. The tests on p are made in T (half rounds its products)
// and the draws in double, as TensorFlow's kernel makes them.
// Where TensorFlow loops forever (a NaN or infinite count) this kernel returns InvalidArgument
// naming the node. Other errors are TensorFlow's texts: "seed must have shape [2], not [3]",
// "counts and probs must have compatible batch dimensions: [2] vs. [3]", random_op_util.h's
// shape errors, "Shape passed in must end with broadcasted shape.".
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
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/random/random_op_util.h"
#include "kernels/random/stateless_keys.h"

namespace rill {
namespace {

// Draws before a count is reported as unusable (TensorFlow retries forever; a finite count
// accepts within a few rounds).
constexpr int64_t kMaxRounds = int64_t{1} << 24;

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

// Geometric steps of probability `prob` until their sum passes `count`; the steps taken.
bool Inversion(double count, double prob, UniformDoubles& uniform, double* out) {
  double sum = 0;
  const double log_q = std::log1p(-prob);
  for (int64_t taken = 0; taken < kMaxRounds; ++taken) {
    sum += std::ceil(std::log(uniform.Next()) / log_q);
    if (sum > count) {
      *out = static_cast<double>(taken);
      return true;
    }
  }
  return false;
}

double StirlingTail(double k) {
  static constexpr double kTail[] = {0.0810614667953272,  0.0413406959554092, 0.0276779256849983,
                                     0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                                     0.0118967099458917,  0.0104112652619720, 0.00925546218271273,
                                     0.00833056343336287};
  if (k <= 9) return kTail[static_cast<int>(k)];
  const double kp1sq = (k + 1) * (k + 1);
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

// Hormann's transformed rejection (BTRS) with TensorFlow's constants and its ratio test.
bool Btrs(double count, double prob, UniformDoubles& uniform, double* out) {
  const double stddev = std::sqrt(count * prob * (1 - prob));
  const double b = 1.15 + 2.53 * stddev;
  const double a = -0.0873 + 0.0248 * b + 0.01 * prob;
  const double c = count * prob + 0.5;
  const double v_r = 0.92 - 4.2 / b;
  const double r = prob / (1 - prob);
  const double alpha = (2.83 + 5.1 / b) * stddev;
  const double m = std::floor((count + 1) * prob);
  for (int64_t round = 0; round < kMaxRounds; ++round) {
    double u = uniform.Next();
    double v = uniform.Next();
    u = u - 0.5;
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + c);
    if (us >= 0.07 && v <= v_r) {
      *out = k;
      return true;
    }
    if (k < 0 || k > count) continue;
    v = std::log(v * alpha / (a / (us * us) + b));
    const double upper = ((m + 0.5) * std::log((m + 1) / (r * (count - m + 1))) +
                          (count + 1) * std::log((count - m + 1) / (count - k + 1)) +
                          (k + 0.5) * std::log(r * (count - k + 1) / (k + 1)) + StirlingTail(m) +
                          StirlingTail(count - m) - StirlingTail(k) - StirlingTail(count - k));
    if (v <= upper) {
      *out = k;
      return true;
    }
  }
  return false;
}

// A product or difference rounded to T, as TensorFlow's `count * prob` in T.
template <typename T>
double InT(double x) {
  if constexpr (std::is_same_v<T, half>) {
    return static_cast<float>(half(static_cast<float>(x)));
  } else {
    return static_cast<double>(static_cast<T>(x));
  }
}

template <typename U>
U FromDouble(double x) {
  if constexpr (std::is_same_v<U, half>) {
    return half(static_cast<float>(x));
  } else if constexpr (std::is_integral_v<U>) {
    // x86's conversion: the lowest value for NaN and out of range (TensorFlow's compiled cast).
    if (!(x >= -9.2233720368547758e18 && x < 9.2233720368547758e18)) {
      return std::numeric_limits<U>::min();
    }
    const int64_t v = static_cast<int64_t>(x);
    return sizeof(U) == 8 ? static_cast<U>(v) : static_cast<U>(static_cast<int32_t>(v));
  } else {
    return static_cast<U>(x);
  }
}

class StatelessRandomBinomialOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_RETURN_IF_ERROR(stateless::CheckSeed(ctx.input(1)));
    const Tensor& counts = ctx.input(2);
    const Tensor& probs = ctx.input(3);
    absl::StatusOr<TensorShape> batch = BroadcastShapes(counts.shape(), probs.shape());
    if (!batch.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "counts and probs must have compatible batch dimensions: ", counts.shape().DebugString(),
          " vs. ", probs.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape shape, random::RandomOutputShape(ctx.input(0)));
    const int batch_rank = batch->rank(), rank = shape.rank();
    bool ends_with = batch_rank <= rank;
    for (int i = 0; ends_with && i < batch_rank; ++i) {
      ends_with = shape.dim(rank - batch_rank + i) == batch->dim(i);
    }
    if (!ends_with) {
      return absl::InvalidArgumentError("Shape passed in must end with broadcasted shape.");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t num_batches = batch->num_elements();
    const int64_t per_batch = out->NumElements() / num_batches;
    const std::vector<int64_t> c_strides = BroadcastStrides(counts.shape(), *batch);
    const std::vector<int64_t> p_strides = BroadcastStrides(probs.shape(), *batch);
    auto offset = [&](int64_t flat, const std::vector<int64_t>& strides) {
      int64_t off = 0;
      for (int d = batch_rank - 1; d >= 0; --d) {
        off += (flat % batch->dim(d)) * strides[d];
        flat /= batch->dim(d);
      }
      return off;
    };
    const stateless::KeyCounter kc = stateless::KeyCounterFromSeed(ctx.input(1));
    const PhiloxRandom base(kc.counter, kc.key);
    return VisitKernelTypes<half, float, double>(*this, counts.dtype(), [&](auto ttag) {
      using T = typename decltype(ttag)::type;
      return VisitKernelTypes<half, float, double, int32_t, int64_t>(
          *this, out->dtype(), [&](auto utag) -> absl::Status {
            using U = typename decltype(utag)::type;
            U* samples = out->flat<U>().data();
            for (int64_t b = 0; b < num_batches; ++b) {
              const double count =
                  static_cast<double>(cwise_internal::Load(counts.flat<T>()[offset(b, c_strides)]));
              const double prob =
                  static_cast<double>(cwise_internal::Load(probs.flat<T>()[offset(b, p_strides)]));
              for (int64_t s = 0; s < per_batch; ++s) {
                const uint64_t n = static_cast<uint64_t>(b * per_batch + s);
                double x;
                if (count <= 0.0 || prob <= 0.0) {
                  x = 0;
                } else if (prob >= 1.0) {
                  x = count;
                } else if (std::isnan(prob)) {
                  x = std::numeric_limits<double>::quiet_NaN();
                } else {
                  const bool flip = prob > 0.5;
                  const double p = flip ? InT<T>(1.0 - prob) : prob;
                  const bool btrs = InT<T>(count * p) >= 10.0;
                  PhiloxRandom gen = base;
                  gen.Skip((btrs ? 256 : 42) * n);
                  UniformDoubles uniform(gen);
                  double k;
                  if (std::isnan(count) ||
                      !(btrs ? Btrs(count, p, uniform, &k) : Inversion(count, p, uniform, &k))) {
                    return absl::InvalidArgumentError(absl::StrCat(
                        type_string(), " node ", name(), ": counts value ", count,
                        " has no binomial sample (TensorFlow loops forever); pass finite counts"));
                  }
                  x = flip ? count - k : k;
                }
                samples[s * num_batches + b] = FromDouble<U>(x);
              }
            }
            return absl::OkStatus();
          });
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("StatelessRandomBinomial")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", DataTypesOf<half, float, double, int32_t, int64_t>())
                    .TypeConstraint("T", DataTypesOf<half, float, double>())
                    .HostMemory("shape")
                    .HostMemory("seed")
                    .HostMemory("counts")
                    .HostMemory("probs"),
                StatelessRandomBinomialOp);

}  // namespace
}  // namespace rill
