// _MklLayerNorm on the CPU: layer normalization over the last dimension, the graph optimizer's
// fusion of the mean / variance / rsqrt pattern that Keras's LayerNormalization and
// tf.nn.moments + tf.nn.batch_normalization write (session/graph_optimizer.h); TensorFlow's
// internal op of the same name (inputs x, scale, offset; attr epsilon). Each row x[0, k) of the
// input, k its last dimension, gives
//   mean = sum(x) / k,  var = sum((x - mean)^2) / k,  r = 1 / sqrt(var + epsilon),
//   inv[c] = r * scale[c],  y[c] = x[c] * inv[c] + ((-mean) * inv[c] + offset[c]),
// every operation rounded to float as the unfused Mean, SquaredDifference, AddV2, Rsqrt, Mul, Neg
// and AddV2 kernels round it, and both sums combined as the Mean kernel combines a row
// (kernels/math/reduction_loops.h: interleaved lanes merged in a fixed order), so the fused node
// gives the unfused graph's results bit for bit, infinities and NaNs included. Each product is
// stored before the sum that reads it (separate loops), so the compiler cannot contract the two
// into a fused multiply-add, which the unfused kernels do not do.
//
// scale and offset broadcast as the unfused Mul and AddV2 broadcast them: each is a scalar, [C]
// or [1, ..., 1, C] with C equal to k, or k is 1 (every row's one element meets C channels, its
// mean being itself). The output is x's shape with C as its last dimension and with leading 1s
// up to the highest rank of the three (TensorFlow's 1-D scale and offset give x's shape).
// Rows run in parallel over the kernel's intra-op threads at the CPU's vector width (RunSimd).
// Errors (InvalidArgument): "Invalid reduction dimension (-1 for input with 0 dimension(s)" for a
// scalar x (the unfused Mean's text); "scale must be a scalar or have only its last dimension
// above 1, got [2,3]" (and offset's); "Incompatible shapes: [8,256] vs. [128]" when a last
// dimension does not broadcast.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math/reduction_loops.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// The Mean kernel's reducer for float: a plain sum.
struct SumReducer {
  template <typename A>
  static A Init() {
    return A(0);
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return acc + x;
  }
};

struct RowShape {
  int64_t k = 0;         // x's last dimension: the elements a mean and a variance are over
  int64_t channels = 0;  // the output's last dimension: k, or C when k is 1
};

// Rows [begin, end); `scale` and `offset` hold `channels` values, `tmp` and `inv` room for
// max(k, channels) floats each.
void LayerNormRows(const float* x, const float* scale, const float* offset, float epsilon,
                   RowShape s, int64_t begin, int64_t end, float* y, float* tmp, float* inv) {
  using reduction_loops::CombineRow;
  const int64_t k = s.k, channels = s.channels;
  const float count = static_cast<float>(k);
  for (int64_t r = begin; r < end; ++r) {
    const float* __restrict xr = x + r * k;
    float* __restrict yr = y + r * channels;
    const float mean = CombineRow<SumReducer, float>(xr, k) / count;
    for (int64_t c = 0; c < k; ++c) {
      const float d = xr[c] - mean;
      tmp[c] = d * d;
    }
    const float var = CombineRow<SumReducer, float>(tmp, k) / count;
    const float rs = 1.f / std::sqrt(var + epsilon);
    const float neg_mean = -mean;
    for (int64_t c = 0; c < channels; ++c) inv[c] = rs * scale[c];
    for (int64_t c = 0; c < channels; ++c) tmp[c] = neg_mean * inv[c];
    for (int64_t c = 0; c < channels; ++c) tmp[c] += offset[c];
    if (k == channels) {
      for (int64_t c = 0; c < channels; ++c) yr[c] = xr[c] * inv[c];
    } else {  // k == 1
      const float x0 = xr[0];
      for (int64_t c = 0; c < channels; ++c) yr[c] = x0 * inv[c];
    }
    for (int64_t c = 0; c < channels; ++c) yr[c] += tmp[c];
  }
}

// `t` as `channels` values: a scalar or one per channel. REQUIRES: CheckParameter passed.
std::vector<float> PerChannel(const Tensor& t, int64_t channels) {
  const float* v = t.flat<float>().data();
  const int64_t size = t.NumElements();
  std::vector<float> out(channels);
  for (int64_t c = 0; c < channels; ++c) out[c] = v[size == 1 ? 0 : c];
  return out;
}

absl::Status CheckParameter(const char* what, const Tensor& t) {
  const TensorShape& s = t.shape();
  for (int d = 0; d + 1 < s.rank(); ++d) {
    if (s.dim(d) != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " must be a scalar or have only its last dimension above 1, got ",
                       s.DebugString()));
    }
  }
  return absl::OkStatus();
}

class LayerNormOp final : public OpKernel {
 public:
  explicit LayerNormOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("epsilon", &epsilon_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    const Tensor& offset = ctx.input(2);
    const TensorShape& xs = x.shape();
    if (xs.rank() < 1) {
      return absl::InvalidArgumentError(
          "Invalid reduction dimension (-1 for input with 0 dimension(s)");
    }
    RILL_RETURN_IF_ERROR(CheckParameter("scale", scale));
    RILL_RETURN_IF_ERROR(CheckParameter("offset", offset));
    RowShape rs;
    rs.k = xs.dim(xs.rank() - 1);
    rs.channels = rs.k;
    for (const Tensor* p : {&scale, &offset}) {
      const int64_t size = p->NumElements();
      if (size == 1 || size == rs.channels) continue;
      if (rs.channels != 1) {
        return absl::InvalidArgumentError(absl::StrCat("Incompatible shapes: ", xs.DebugString(),
                                                       " vs. ", p->shape().DebugString()));
      }
      rs.channels = size;
    }
    std::vector<int64_t> dims(xs.dims().begin(), xs.dims().end());
    dims.back() = rs.channels;
    const int rank = std::max({xs.rank(), scale.shape().rank(), offset.shape().rank()});
    dims.insert(dims.begin(), rank - xs.rank(), 1);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const std::vector<float> scales = PerChannel(scale, rs.channels);
    const std::vector<float> offsets = PerChannel(offset, rs.channels);
    const float* xv = x.flat<float>().data();
    float* yv = out->flat<float>().data();
    const int64_t rows = x.NumElements() / rs.k;
    const int64_t width = std::max(rs.k, rs.channels);
    // About eight passes over a row, at the elementwise loops' charge per element
    // (kernels/math_lib/cwise_op.h).
    ctx.ParallelFor(rows, width, [&](int64_t begin, int64_t end) {
      std::vector<float> scratch(2 * width);
      cwise_internal::RunSimdFor<float>([&] {
        LayerNormRows(xv, scales.data(), offsets.data(), epsilon_, rs, begin, end, yv,
                      scratch.data(), scratch.data() + width);
      });
    });
    return absl::OkStatus();
  }

 private:
  float epsilon_ = 0.001f;
};

REGISTER_KERNEL(
    KernelDefBuilder("_MklLayerNorm").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT}),
    LayerNormOp);

}  // namespace
}  // namespace rill
