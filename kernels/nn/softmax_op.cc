// Softmax and LogSoftmax on the CPU over the last dimension, numerically stable (the row's max is
// subtracted first): softmax = exp(x - max) / sum(exp(x - max)); log_softmax = (x - max) -
// log(sum(exp(x - max))). half Softmax and LogSoftmax round each step to half in TensorFlow's
// order (HalfSoftmaxRow, HalfLogSoftmaxRow); float's exponential is vector_math's
// ExpF, and the row loops run at the CPU's vector width (RunSimd); rows run in parallel over the
// kernel's intra-op threads (OpKernelContext::ParallelFor). Errors: InvalidArgument "logits must
// have >= 1 dimension, got []" (TensorFlow's text).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/math/half_sums.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/vector_math.h"

namespace rill {
namespace {

#define RILL_SOFTMAX_TYPES half, float, double

// e^x in the compute type: vector_math's ExpF for float (vectorizes), std::exp for double.
template <typename C>
C Exp(C x) {
  if constexpr (std::is_same_v<C, float>) {
    return vector_math::ExpF(x);
  } else {
    return std::exp(x);
  }
}

constexpr int kLanes = 16;
// Exponentials computed at a time into a buffer when they cannot go to the output.
constexpr int64_t kChunk = 256;

// lanes[i % kLanes] += e[i] for the whole blocks of kLanes in e[0, count); returns how many
// elements that covered.
template <typename C>
int64_t AddToLanes(const C* e, int64_t count, C* lanes) {
  int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] += e[i + l];
  }
  return i;
}

// One row of `n` logits into `z`. The max and the sum run in kLanes interleaved lanes (merged
// in a fixed order), and the exponentials in a plain loop of their own, so every loop vectorizes
// and the result does not depend on the vector width.
template <bool kLog, typename T>
void SoftmaxRow(const T* x, int64_t n, T* z) {
  using cwise_internal::Load;
  using cwise_internal::Store;
  using C = decltype(Load(x[0]));
  C lanes[kLanes];
  for (int l = 0; l < kLanes; ++l) lanes[l] = Load(x[0]);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      const C v = Load(x[i + l]);
      lanes[l] = lanes[l] < v ? v : lanes[l];
    }
  }
  C max = lanes[0];
  for (int l = 1; l < kLanes; ++l) max = max < lanes[l] ? lanes[l] : max;
  for (; i < n; ++i) max = std::max(max, Load(x[i]));

  // sum(e^(x - max)): the exponentials go to z when it holds the compute type and the result is
  // the softmax (scaled in place below), else chunk by chunk through a buffer.
  constexpr bool kInPlace = !kLog && std::is_same_v<C, T>;
  for (int l = 0; l < kLanes; ++l) lanes[l] = C(0);
  C buffer[kInPlace ? 1 : kChunk];
  C tail = C(0);
  for (int64_t begin = 0; begin < n; begin += kInPlace ? n : kChunk) {
    const int64_t count = kInPlace ? n : std::min(kChunk, n - begin);
    C* e = kInPlace ? reinterpret_cast<C*>(z) : buffer;
    for (int64_t j = 0; j < count; ++j) e[j] = Exp<C>(Load(x[begin + j]) - max);
    for (int64_t j = AddToLanes(e, count, lanes); j < count; ++j) tail += e[j];
  }
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int l = 0; l < width; ++l) lanes[l] += lanes[l + width];
  }
  const C sum = lanes[0] + tail;
  if constexpr (kLog) {
    const C log_sum = std::log(sum);
    for (int64_t j = 0; j < n; ++j) z[j] = Store<T>(Load(x[j]) - max - log_sum);
  } else if constexpr (kInPlace) {
    const C inv = C(1) / sum;
    for (int64_t j = 0; j < n; ++j) z[j] *= inv;
  } else {
    for (int64_t j = 0; j < n; ++j) z[j] = Store<T>(Exp<C>(Load(x[j]) - max) / sum);
  }
}

// The sum SoftmaxRow forms of e[0, n): kLanes interleaved lanes over the whole blocks, the rest
// added in order, the lanes merged pairwise, then the rest added.
template <typename C>
C LaneSum(const C* e, int64_t n) {
  C lanes[kLanes] = {};
  const int64_t whole = AddToLanes(e, n, lanes);
  C tail = C(0);
  for (int64_t j = whole; j < n; ++j) tail += e[j];
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int l = 0; l < width; ++l) lanes[l] += lanes[l + width];
  }
  return lanes[0] + tail;
}

// Float rows shorter than this run SoftmaxShortRows: a segmentation net's per-pixel softmax over
// 21 classes is 50k rows of 21, where one row at a time spends most of its time on the scalar
// tail of each loop and on merging lanes.
constexpr int64_t kShortRow = 64;

// `rows` float rows of n < kShortRow logits into `z` (which may be `x`), each with SoftmaxRow's
// result bit for bit (the same max, exponentials, lane sum and scaling), a block of rows at a
// time: the exponentials of a whole block run as one long vector loop.
template <bool kLog>
void SoftmaxShortRows(const float* x, int64_t n, int64_t rows, float* z) {
  constexpr int64_t kBlock = 1024;  // elements per block
  const int64_t block_rows = std::max<int64_t>(1, kBlock / n);
  float max[kBlock];
  float e[kLog ? kBlock + kShortRow : 1];
  for (int64_t r0 = 0; r0 < rows; r0 += block_rows) {
    const int64_t count = std::min(block_rows, rows - r0);
    const float* xb = x + r0 * n;
    float* zb = z + r0 * n;
    for (int64_t r = 0; r < count; ++r) {  // NaN skipped unless first, as SoftmaxRow
      float m = xb[r * n];
      for (int64_t j = 1; j < n; ++j) m = m < xb[r * n + j] ? xb[r * n + j] : m;
      max[r] = m;
    }
    for (int64_t r = 0; r < count; ++r) {
      for (int64_t j = 0; j < n; ++j) zb[r * n + j] = xb[r * n + j] - max[r];
    }
    float* exps = kLog ? e : zb;
    for (int64_t i = 0; i < count * n; ++i) exps[i] = vector_math::ExpF(zb[i]);
    for (int64_t r = 0; r < count; ++r) {
      const float sum = LaneSum(exps + r * n, n);
      if constexpr (kLog) {
        const float log_sum = std::log(sum);
        for (int64_t j = 0; j < n; ++j) zb[r * n + j] -= log_sum;
      } else {
        const float inv = 1.f / sum;
        for (int64_t j = 0; j < n; ++j) zb[r * n + j] *= inv;
      }
    }
  }
}

// half Softmax as TensorFlow's CPU kernel computes it, each step rounded to half: e = exp(x -
// max), the row's sum of e added in Eigen's order (kernels/math/half_sums.h; `first` is the row's
// offset in the tensor), its inverse, e times the inverse.
void HalfSoftmaxRow(const half* x, int64_t n, int64_t first, half* z) {
  half max = x[0];
  for (int64_t j = 1; j < n; ++j)
    max = static_cast<float>(x[j]) > static_cast<float>(max) ? x[j] : max;
  for (int64_t j = 0; j < n; ++j) {
    const half shifted(static_cast<float>(x[j]) - static_cast<float>(max));
    z[j] = half(std::exp(static_cast<float>(shifted)));
  }
  const half inverse(1.0f / static_cast<float>(half_sums::HalfRowSum(z, first, n)));
  for (int64_t j = 0; j < n; ++j)
    z[j] = half(static_cast<float>(z[j]) * static_cast<float>(inverse));
}

// half LogSoftmax the same way: s = x - max, the row's sum of exp(s) in Eigen's order, its log,
// s minus the log, each step rounded to half.
void HalfLogSoftmaxRow(const half* x, int64_t n, int64_t first, half* z) {
  half max = x[0];
  for (int64_t j = 1; j < n; ++j)
    max = static_cast<float>(x[j]) > static_cast<float>(max) ? x[j] : max;
  auto shifted = [&](int64_t j) {
    return static_cast<float>(half(static_cast<float>(x[j]) - static_cast<float>(max)));
  };
  for (int64_t j = 0; j < n; ++j) z[j] = half(std::exp(shifted(j)));
  const half log_sum(std::log(static_cast<float>(half_sums::HalfRowSum(z, first, n))));
  for (int64_t j = 0; j < n; ++j) z[j] = half(shifted(j) - static_cast<float>(log_sum));
}

template <bool kLog>
class SoftmaxOp final : public OpKernel {
 public:
  explicit SoftmaxOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& logits = ctx.input(0);
    const TensorShape& shape = logits.shape();
    RILL_RETURN_IF_ERROR(CheckSoftmaxLogits(shape));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    const int64_t n = shape.dim(shape.rank() - 1);
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t rows = logits.NumElements() / n;
    return VisitKernelTypes<RILL_SOFTMAX_TYPES>(*this, logits.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = logits.flat<T>().data();
      T* z = out->flat<T>().data();
      if constexpr (std::is_same_v<T, half>) {
        ctx.ParallelFor(rows, n * 20, [&](int64_t begin, int64_t end) {
          for (int64_t r = begin; r < end; ++r) {
            if constexpr (kLog) {
              HalfLogSoftmaxRow(x + r * n, n, r * n, z + r * n);
            } else {
              HalfSoftmaxRow(x + r * n, n, r * n, z + r * n);
            }
          }
        });
        return absl::OkStatus();
      }
      ctx.ParallelFor(rows, n * 20, [&](int64_t begin, int64_t end) {
        cwise_internal::RunSimdFor<T>([&] {
          if constexpr (std::is_same_v<T, float>) {
            if (n < kShortRow) {
              SoftmaxShortRows<kLog>(x + begin * n, n, end - begin, z + begin * n);
              return;
            }
          }
          for (int64_t r = begin; r < end; ++r) SoftmaxRow<kLog>(x + r * n, n, z + r * n);
        });
      });
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("Softmax")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SOFTMAX_TYPES>()),
                SoftmaxOp<false>);
REGISTER_KERNEL(KernelDefBuilder("LogSoftmax")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SOFTMAX_TYPES>()),
                SoftmaxOp<true>);

}  // namespace
}  // namespace rill
