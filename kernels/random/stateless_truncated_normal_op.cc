// StatelessParameterizedTruncatedNormal(shape, seed, means, stddevs, minvals, maxvals) on the CPU,
// half, float and double (half computed step by step in float, each result rounded to half, as
// Eigen's half arithmetic does), bit for bit TensorFlow 2.21's for outputs TensorFlow draws in one
// piece (its CPU kernel splits larger outputs over its threads, each from its own offset of the
// stream, so a result of some hundreds of elements or more depends on the thread count). The four
// parameters broadcast to a batch shape that `shape` must end with; output element [s..., b] is a
// normal of mean[b] and stddev[b] truncated to [minval[b], maxval[b]], drawn in output order
// (batch-major) from one Philox stream of the seed (stateless_keys.h) by TensorFlow's three
// samplers, in T: normal rejection when the bounds hold the mean and one lies 1.3 deviations or
// more from it, uniform rejection on [lo, hi] when the interval is narrower than TensorFlow's
// cutoff, else exponential rejection from the nearer bound (bounds mirrored first when the upper
// one is below the mean or the lower one is -inf). Each batch starts on a fresh Philox block.
// Errors are TensorFlow's texts: "seed must have shape [2], not [3]", "means, stddevs, minvals,
// maxvals must have compatible batch dimensions: [2] vs. [3] vs. [] vs. []", random_op_util.h's
// shape errors, "Shape passed in must end with broadcasted shape.", InvalidArgument "Invalid
// parameters" (stddev <= 0, minval >= maxval, both bounds infinite), and Internal "TruncatedNormal
// ... sampler failed to accept a sample." after 1000 rejections in a row.
//
// Kernels hold no mutable state; Compute is thread-safe.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
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

constexpr int kMaxIterations = 1000;

// half arithmetic as TensorFlow's Eigen::half does it: each operation in float, rounded to half.
struct Half {
  float v;
  Half() : v(0) {}
  explicit Half(float f) : v(static_cast<float>(half(f))) {}
  explicit Half(half h) : v(static_cast<float>(h)) {}
  friend Half operator+(Half a, Half b) { return Half(a.v + b.v); }
  friend Half operator-(Half a, Half b) { return Half(a.v - b.v); }
  friend Half operator*(Half a, Half b) { return Half(a.v * b.v); }
  friend Half operator/(Half a, Half b) { return Half(a.v / b.v); }
  Half operator-() const { return Half(-v); }
  friend bool operator<(Half a, Half b) { return a.v < b.v; }
  friend bool operator>(Half a, Half b) { return a.v > b.v; }
  friend bool operator<=(Half a, Half b) { return a.v <= b.v; }
  friend bool operator>=(Half a, Half b) { return a.v >= b.v; }
};
Half sqrt(Half a) { return Half(std::sqrt(a.v)); }
Half exp(Half a) { return Half(std::exp(a.v)); }
Half log(Half a) { return Half(std::log(a.v)); }
bool isfinite(Half a) { return std::isfinite(a.v); }
bool isinf(Half a) { return std::isinf(a.v); }
using std::exp;
using std::isfinite;
using std::isinf;
using std::log;
using std::sqrt;

// One Philox block as TensorFlow's UniformDistribution / NormalDistribution give it: four floats
// or two doubles.
template <typename T>
struct Block {
  static constexpr int kSize = std::is_same_v<T, double> ? 2 : 4;
  std::array<T, kSize> v;
};

template <typename T>
Block<T> Uniform(PhiloxRandom& gen) {
  const PhiloxRandom::ResultType s = gen();
  Block<T> b;
  if constexpr (std::is_same_v<T, float>) {
    for (int i = 0; i < 4; ++i) b.v[i] = random::Uint32ToFloat(s[i]);
  } else if constexpr (std::is_same_v<T, Half>) {
    for (int i = 0; i < 4; ++i) b.v[i] = Half(random::Uint16ToHalf(static_cast<uint16_t>(s[i])));
  } else {
    b.v[0] = random::Uint64ToDouble(s[0], s[1]);
    b.v[1] = random::Uint64ToDouble(s[2], s[3]);
  }
  return b;
}

template <typename T>
Block<T> Normal(PhiloxRandom& gen) {
  const PhiloxRandom::ResultType s = gen();
  Block<T> b;
  if constexpr (std::is_same_v<T, float>) {
    random::BoxMullerFloat(s[0], s[1], &b.v[0], &b.v[1]);
    random::BoxMullerFloat(s[2], s[3], &b.v[2], &b.v[3]);
  } else if constexpr (std::is_same_v<T, Half>) {
    float f[4];
    random::BoxMullerFloat(s[0], s[1], &f[0], &f[1]);
    random::BoxMullerFloat(s[2], s[3], &f[2], &f[3]);
    for (int i = 0; i < 4; ++i) b.v[i] = Half(f[i]);
  } else {
    random::BoxMullerDouble(s[0], s[1], s[2], s[3], &b.v[0], &b.v[1]);
  }
  return b;
}

// Draws samples_per_batch samples of one batch's distribution into out[s * stride].
template <typename T>
absl::Status SampleBatch(T mean, T stddev, T minval, T maxval, int64_t count, int64_t stride,
                         PhiloxRandom& gen, T* out) {
  if (!(stddev > T(0) && minval < maxval && (isfinite(minval) || isfinite(maxval)))) {
    return absl::InvalidArgumentError("Invalid parameters");
  }
  if ((isinf(minval) && minval < T(0)) || maxval < mean) {
    std::swap(minval, maxval);
    stddev = -stddev;
  }
  const T norm_min = (minval - mean) / stddev;
  const T norm_max = (maxval - mean) / stddev;
  const T sqrt_factor = sqrt((norm_min * norm_min) + T(4));
  const T cutoff =
      T(2) * exp(T(0.5) + (norm_min * (norm_min - sqrt_factor)) / T(4)) / (norm_min + sqrt_factor);
  const T diff = norm_max - norm_min;
  const T kInside = T(1.3);
  int64_t s = 0;
  int iterations = 0;
  if ((norm_min < -kInside && norm_max >= T(0)) || (norm_max > kInside && norm_min <= T(0))) {
    while (s < count) {
      const Block<T> n = Normal<T>(gen);
      for (int i = 0; i < Block<T>::kSize; ++i) {
        if (n.v[i] >= norm_min && n.v[i] <= norm_max) {
          out[s++ * stride] = n.v[i] * stddev + mean;
          if (s >= count) break;
          iterations = 0;
        } else if (++iterations > kMaxIterations) {
          return absl::InternalError(
              "TruncatedNormal randn rejection sampler failed to accept a sample.");
        }
      }
    }
  } else if (diff < cutoff) {
    const T plus = norm_min < T(0) ? T(0) : norm_min * norm_min;
    while (s < count) {
      const Block<T> r = Uniform<T>(gen);
      std::array<T, Block<T>::kSize> z, g;
      for (int i = 0; i < Block<T>::kSize; ++i) {
        z[i] = r.v[i] * diff + norm_min;
        g[i] = (plus - z[i] * z[i]) / T(2);
      }
      const Block<T> u = Uniform<T>(gen);
      for (int i = 0; i < Block<T>::kSize; ++i) {
        const bool accept = u.v[i] <= exp(g[i]);
        if (accept || iterations + 1 >= kMaxIterations) {
          if (!accept) {
            return absl::InternalError(
                "TruncatedNormal uniform rejection sampler failed to  accept a sample.");
          }
          out[s++ * stride] = z[i] * stddev + mean;
          if (s >= count) break;
          iterations = 0;
        } else {
          ++iterations;
        }
      }
    }
  } else {
    const T alpha = (norm_min + sqrt((norm_min * norm_min) + T(4))) / T(2);
    while (s < count) {
      const Block<T> r = Uniform<T>(gen);
      for (int i = 0; i < Block<T>::kSize; i += 2) {  // pairs: z from one value, u the next
        const T z = -log(r.v[i]) / alpha + norm_min;
        const T x = norm_min < alpha ? alpha - z : norm_min - alpha;
        const T g = exp(-x * x / T(2));
        const T u = r.v[i + 1];
        const bool accept = u <= g && z < norm_max;
        if (accept || iterations + 1 >= kMaxIterations) {
          if (!accept) {
            return absl::InternalError(
                "TruncatedNormal exponential distribution rejection sampler failed to accept a "
                "sample.");
          }
          out[s++ * stride] = z * stddev + mean;
          if (s >= count) break;
          iterations = 0;
        } else {
          ++iterations;
        }
      }
    }
  }
  return absl::OkStatus();
}

class StatelessParameterizedTruncatedNormalOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_RETURN_IF_ERROR(stateless::CheckSeed(ctx.input(1)));
    const Tensor* params[4] = {&ctx.input(2), &ctx.input(3), &ctx.input(4), &ctx.input(5)};
    absl::StatusOr<TensorShape> batch = BroadcastShapes(params[0]->shape(), params[1]->shape());
    for (int i = 2; batch.ok() && i < 4; ++i) {
      batch = BroadcastShapes(*batch, params[i]->shape());
    }
    if (!batch.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "means, stddevs, minvals, maxvals must have compatible batch dimensions: ",
          params[0]->shape().DebugString(), " vs. ", params[1]->shape().DebugString(), " vs. ",
          params[2]->shape().DebugString(), " vs. ", params[3]->shape().DebugString()));
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
    std::vector<std::vector<int64_t>> strides;
    for (const Tensor* p : params) strides.push_back(BroadcastStrides(p->shape(), *batch));
    auto offset = [&](int64_t flat, const std::vector<int64_t>& st) {
      int64_t off = 0;
      for (int d = batch_rank - 1; d >= 0; --d) {
        off += (flat % batch->dim(d)) * st[d];
        flat /= batch->dim(d);
      }
      return off;
    };
    const stateless::KeyCounter kc = stateless::KeyCounterFromSeed(ctx.input(1));
    PhiloxRandom gen(kc.counter, kc.key);
    if (out->dtype() == DT_HALF) {
      std::vector<Half> y(out->NumElements());
      for (int64_t b = 0; b < num_batches; ++b) {
        Half v[4];
        for (int k = 0; k < 4; ++k) v[k] = Half(params[k]->flat<half>()[offset(b, strides[k])]);
        RILL_RETURN_IF_ERROR(
            SampleBatch<Half>(v[0], v[1], v[2], v[3], per_batch, num_batches, gen, y.data() + b));
      }
      half* dst = out->flat<half>().data();
      for (size_t i = 0; i < y.size(); ++i) dst[i] = half(y[i].v);
      return absl::OkStatus();
    }
    return VisitKernelTypes<float, double>(*this, out->dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      T* y = out->flat<T>().data();
      for (int64_t b = 0; b < num_batches; ++b) {
        T v[4];
        for (int k = 0; k < 4; ++k) v[k] = params[k]->flat<T>()[offset(b, strides[k])];
        RILL_RETURN_IF_ERROR(
            SampleBatch<T>(v[0], v[1], v[2], v[3], per_batch, num_batches, gen, y + b));
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("StatelessParameterizedTruncatedNormal")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", DataTypesOf<half, float, double>())
                    .HostMemory("shape")
                    .HostMemory("seed")
                    .HostMemory("means")
                    .HostMemory("stddevs")
                    .HostMemory("minvals")
                    .HostMemory("maxvals"),
                StatelessParameterizedTruncatedNormalOp);

}  // namespace
}  // namespace rill
