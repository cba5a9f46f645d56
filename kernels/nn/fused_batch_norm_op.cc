// FusedBatchNorm, FusedBatchNormV2 and FusedBatchNormV3 on the CPU: per channel c (the last dim
// for NHWC/NDHWC, dim 1 for NCHW/NCDHW), with x of rank 4 or 5,
//   y = (x - m) * (scale / sqrt(v + epsilon)) + offset,
// computed in float (x may be half). Inference (is_training=false): m, v are the mean and variance
// inputs; batch_mean and batch_variance are those inputs, reserve_space_1/2 copies of them.
// Training: m, v are the batch's mean and (biased) variance over all but the channel dim;
// batch_mean = (1 - f) * mean + f * m and batch_variance = (1 - f) * variance + f * v * n / (n - 1)
// (n elements per channel, Bessel's correction; f = exponential_avg_factor, the inputs unused when
// f is 1), reserve_space_1 = m, reserve_space_2 = v. V3's reserve_space_3 is a scalar 0 (as
// TensorFlow's CPU kernel; its oneDNN kernel gives shape [0]). An empty x gives NaN batch_mean and
// batch_variance and zero reserve_space_1/2, in inference too, as TensorFlow.
// Errors are InvalidArgument with TensorFlow's texts: "input must be 4 or 5-dimensional[2,3]",
// "scale must be 1-dimensional[]" (also offset, estimated_mean, estimated_variance), "scale must
// have the same number of elements as the channels of x, got 2 and 3" (also offset), "When
// is_training=false, mean must have the same number of elements as the channels of x, got 2 and
// 3" (also variance; "When exponential_avg_factor != 1, ..." in training).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/nn/fused_batch_norm_layout.h"

namespace rill {
namespace {

template <typename T>
void Normalize(OpKernelContext& ctx, const NormLayout& l, const T* x, const float* mean,
               const float* factor, const float* offset, T* y) {
  using cwise_internal::Load;
  using cwise_internal::Store;
  if (l.inner == 1) {
    // Channels last (NHWC, NDHWC): one row per pixel, the channel loop innermost, so it
    // vectorizes and the channel needs no division per element. Each element gets the same
    // operations as below, so the result is the same bit for bit.
    const int64_t channels = l.channels;
    ctx.ParallelFor(l.outer, channels * 3, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* xr = x + p * channels;
        T* yr = y + p * channels;
        for (int64_t c = 0; c < channels; ++c) {
          yr[c] = Store<T>((static_cast<float>(Load(xr[c])) - mean[c]) * factor[c] + offset[c]);
        }
      }
    });
    return;
  }
  ctx.ParallelFor(l.outer * l.channels, l.inner * 3, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t c = row % l.channels;
      const float m = mean[c], f = factor[c], o = offset[c];
      const T* xr = x + row * l.inner;
      T* yr = y + row * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        yr[i] = Store<T>((static_cast<float>(Load(xr[i])) - m) * f + o);
      }
    }
  });
}

// The batch's per-channel mean and biased variance (accumulated in double). Each channel's sums
// take its elements in memory order, whatever the layout.
template <typename T>
void BatchMoments(const NormLayout& l, const T* x, std::vector<float>* mean,
                  std::vector<float>* var) {
  using cwise_internal::Load;
  std::vector<double> sum(l.channels, 0.0), sq(l.channels, 0.0);
  const int64_t channels = l.channels;
  if (l.inner == 1) {
    // Channels last: the channel loop innermost, without a division per element.
    for (int64_t p = 0; p < l.outer; ++p) {
      const T* xr = x + p * channels;
      for (int64_t c = 0; c < channels; ++c) sum[c] += static_cast<double>(Load(xr[c]));
    }
  } else {
    for (int64_t row = 0; row < l.outer * channels; ++row) {
      const int64_t c = row % channels;
      const T* xr = x + row * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) sum[c] += static_cast<double>(Load(xr[i]));
    }
  }
  const double n = static_cast<double>(l.per_channel());
  mean->resize(channels);
  for (int64_t c = 0; c < channels; ++c) (*mean)[c] = static_cast<float>(sum[c] / n);
  if (l.inner == 1) {
    std::vector<double> m(mean->begin(), mean->end());
    for (int64_t p = 0; p < l.outer; ++p) {
      const T* xr = x + p * channels;
      for (int64_t c = 0; c < channels; ++c) {
        const double d = static_cast<double>(Load(xr[c])) - m[c];
        sq[c] += d * d;
      }
    }
  } else {
    for (int64_t row = 0; row < l.outer * channels; ++row) {
      const int64_t c = row % channels;
      const double m = (*mean)[c];
      const T* xr = x + row * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        const double d = static_cast<double>(Load(xr[i])) - m;
        sq[c] += d * d;
      }
    }
  }
  var->resize(channels);
  for (int64_t c = 0; c < channels; ++c) (*var)[c] = static_cast<float>(sq[c] / n);
}

class FusedBatchNormOp final : public OpKernel {
 public:
  explicit FusedBatchNormOp(OpKernelConstruction& ctx)
      : OpKernel(ctx), attrs_(ReadFusedBatchNormAttrs(ctx)) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    const Tensor& offset = ctx.input(2);
    const Tensor& mean = ctx.input(3);
    const Tensor& variance = ctx.input(4);
    const TensorShape& shape = x.shape();
    RILL_ASSIGN_OR_RETURN(
        const NormLayout l,
        FusedBatchNormLayout(x, scale, offset, mean, variance, attrs_.channels_first,
                             attrs_.is_training, attrs_.avg_factor));
    RILL_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate_output(0, shape));
    Tensor* outs[4];
    for (int i = 0; i < 4; ++i) {
      RILL_ASSIGN_OR_RETURN(outs[i], ctx.allocate_output(i + 1, scale.shape()));
    }
    if (attrs_.v3) {
      RILL_ASSIGN_OR_RETURN(Tensor * reserve3, ctx.allocate_output(5, TensorShape()));
      reserve3->flat<float>()[0] = 0.0f;
    }
    const int64_t c_count = l.channels;
    auto out_vec = [&](int i) { return outs[i]->flat<float>().data(); };
    if (x.NumElements() == 0) {
      const float nan = std::numeric_limits<float>::quiet_NaN();
      for (int i = 0; i < 2; ++i) std::fill(out_vec(i), out_vec(i) + c_count, nan);
      for (int i = 2; i < 4; ++i) std::fill(out_vec(i), out_vec(i) + c_count, 0.0f);
      return absl::OkStatus();
    }
    const float* s = scale.flat<float>().data();
    const float* o = offset.flat<float>().data();
    return VisitKernelTypes<half, float>(*this, x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* xs = x.flat<T>().data();
      std::vector<float> m(c_count), v(c_count), factor(c_count);
      if (attrs_.is_training) {
        BatchMoments<T>(l, xs, &m, &v);
      } else {
        std::copy_n(mean.flat<float>().data(), c_count, m.data());
        std::copy_n(variance.flat<float>().data(), c_count, v.data());
      }
      for (int64_t c = 0; c < c_count; ++c) factor[c] = s[c] / std::sqrt(v[c] + attrs_.epsilon);
      Normalize<T>(ctx, l, xs, m.data(), factor.data(), o, y->flat<T>().data());
      float* batch_mean = out_vec(0);
      float* batch_var = out_vec(1);
      if (attrs_.is_training) {
        const int64_t n = l.per_channel();
        const float adjust = static_cast<float>(n) / static_cast<float>(n > 1 ? n - 1 : 1);
        const float f = attrs_.avg_factor;
        for (int64_t c = 0; c < c_count; ++c) {
          if (f == 1.0f) {
            batch_mean[c] = m[c];
            batch_var[c] = v[c] * adjust;
          } else {
            const float* old_m = mean.flat<float>().data();
            const float* old_v = variance.flat<float>().data();
            batch_mean[c] = (1.0f - f) * old_m[c] + f * m[c];
            batch_var[c] = (1.0f - f) * old_v[c] + (f * adjust) * v[c];
          }
        }
      } else {
        std::copy(m.begin(), m.end(), batch_mean);
        std::copy(v.begin(), v.end(), batch_var);
      }
      std::copy(m.begin(), m.end(), out_vec(2));
      std::copy(v.begin(), v.end(), out_vec(3));
      return absl::OkStatus();
    });
  }

 private:
  FusedBatchNormAttrs attrs_;
};

// FusedBatchNormGrad/V2/V3: the gradients of y = (x - m) * scale / sqrt(v + eps) + offset, per
// channel, with m, v from reserve_space_1/2 (the forward's batch moments when is_training, the
// population statistics otherwise), accumulated in double:
//   offset_backprop = sum(dy); scale_backprop = sum(dy * (x - m)) / sqrt(v + eps);
//   x_backprop = scale / sqrt(v + eps) * (dy - mean(dy) - (x - m) * mean(dy * (x - m)) / (v + eps))
//     when training; scale / sqrt(v + eps) * dy otherwise.
// reserve_space_3/4 (V3: 4/5) are empty. An empty x gives zero scale_backprop and offset_backprop
// whatever reserve_space_1/2 hold (NaN from an empty forward), as TensorFlow. Errors:
// InvalidArgument "input must be 4 or 5-dimensional [2,3]", "y_backprop and x must have the same
// shape: [2] vs [3]".
class FusedBatchNormGradOp final : public OpKernel {
 public:
  explicit FusedBatchNormGradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string format;
    ctx.SetStatus(ctx.GetAttr("epsilon", &epsilon_));
    ctx.SetStatus(ctx.GetAttr("data_format", &format));
    ctx.SetStatus(ctx.GetAttr("is_training", &is_training_));
    channels_first_ = format == "NCHW" || format == "NCDHW";
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& dy = ctx.input(0);
    const Tensor& x = ctx.input(1);
    const Tensor& scale = ctx.input(2);
    const Tensor& mean = ctx.input(3);
    const Tensor& var = ctx.input(4);
    const TensorShape& shape = x.shape();
    if (shape.rank() != 4 && shape.rank() != 5) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 4 or 5-dimensional", shape.DebugString()));
    }
    if (dy.shape() != shape) {
      return absl::InvalidArgumentError(
          absl::StrCat("y_backprop and x must have the same shape: ", dy.shape().DebugString(),
                       " vs ", shape.DebugString()));
    }
    NormLayout l;
    const int channel_dim = channels_first_ ? 1 : shape.rank() - 1;
    l.channels = shape.dim(channel_dim);
    l.outer = 1;
    l.inner = 1;
    for (int d = 0; d < channel_dim; ++d) l.outer *= shape.dim(d);
    for (int d = channel_dim + 1; d < shape.rank(); ++d) l.inner *= shape.dim(d);
    for (const Tensor* t : {&scale, &mean, &var}) {
      if (t->NumElements() != l.channels) {
        return absl::InvalidArgumentError(absl::StrCat(
            "scale, reserve_space_1 and reserve_space_2 must have as many elements as the channels "
            "of x, got ",
            t->NumElements(), " and ", l.channels));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * dx, ctx.allocate_output(0, shape));
    Tensor* vec[2];
    for (int i = 1; i <= 2; ++i) {
      RILL_ASSIGN_OR_RETURN(vec[i - 1], ctx.allocate_output(i, TensorShape({l.channels})));
    }
    for (int i = 3; i < ctx.num_outputs(); ++i) {
      RILL_RETURN_IF_ERROR(ctx.allocate_output(i, TensorShape({0})).status());
    }
    if (x.NumElements() == 0) {
      for (Tensor* t : vec) std::fill_n(t->flat<float>().data(), l.channels, 0.0f);
      return absl::OkStatus();
    }
    return VisitKernelTypes<half, float>(*this, x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* dyp = dy.flat<T>().data();
      const T* xp = x.flat<T>().data();
      const float* sp = scale.flat<float>().data();
      const float* mp = mean.flat<float>().data();
      const float* vp = var.flat<float>().data();
      const int64_t n = l.per_channel();
      std::vector<double> sum_dy(l.channels, 0), sum_dy_xc(l.channels, 0);
      // Channels last (l.inner == 1) walks pixels with the channel loop innermost, without a
      // division per element; each channel's sums take its elements in the same order.
      const int64_t rows = l.inner == 1 ? l.outer : l.outer * l.channels;
      const int64_t width = l.inner == 1 ? l.channels : l.inner;
      auto channel = [&](int64_t row, int64_t i) { return l.inner == 1 ? i : row % l.channels; };
      for (int64_t row = 0; row < rows; ++row) {
        for (int64_t i = 0; i < width; ++i) {
          const int64_t c = channel(row, i);
          const double g = static_cast<float>(Load(dyp[row * width + i]));
          const double xc = static_cast<float>(Load(xp[row * width + i])) - mp[c];
          sum_dy[c] += g;
          sum_dy_xc[c] += g * xc;
        }
      }
      std::vector<double> inv(l.channels), k(l.channels), mean_dy(l.channels),
          mean_dy_xc(l.channels), var_eps(l.channels);
      for (int64_t c = 0; c < l.channels; ++c) {
        inv[c] = 1.0 / std::sqrt(static_cast<double>(vp[c]) + epsilon_);
        vec[0]->flat<float>()[c] = static_cast<float>(sum_dy_xc[c] * inv[c]);
        vec[1]->flat<float>()[c] = static_cast<float>(sum_dy[c]);
        k[c] = sp[c] * inv[c];
        mean_dy[c] = n > 0 ? sum_dy[c] / n : 0;
        mean_dy_xc[c] = n > 0 ? sum_dy_xc[c] / n : 0;
        var_eps[c] = static_cast<double>(vp[c]) + epsilon_;
      }
      T* dxp = dx->flat<T>().data();
      for (int64_t row = 0; row < rows; ++row) {
        for (int64_t i = 0; i < width; ++i) {
          const int64_t c = channel(row, i);
          const int64_t at = row * width + i;
          const double g = static_cast<float>(Load(dyp[at]));
          double v = g;
          if (is_training_) {
            const double xc = static_cast<float>(Load(xp[at])) - mp[c];
            v = g - mean_dy[c] - xc * mean_dy_xc[c] / var_eps[c];
          }
          dxp[at] = cwise_internal::Store<T>(static_cast<float>(k[c] * v));
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  float epsilon_ = 1e-4f;
  bool is_training_ = true;
  bool channels_first_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("FusedBatchNormGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float>()),
                FusedBatchNormGradOp);
REGISTER_KERNEL(KernelDefBuilder("FusedBatchNormGradV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float>())
                    .TypeConstraint("U", DataTypesOf<float>()),
                FusedBatchNormGradOp);
REGISTER_KERNEL(KernelDefBuilder("FusedBatchNormGradV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float>())
                    .TypeConstraint("U", DataTypesOf<float>()),
                FusedBatchNormGradOp);
REGISTER_KERNEL(
    KernelDefBuilder("FusedBatchNorm").Device(kDeviceCpu).TypeConstraint("T", DataTypesOf<float>()),
    FusedBatchNormOp);
REGISTER_KERNEL(KernelDefBuilder("FusedBatchNormV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float>())
                    .TypeConstraint("U", DataTypesOf<float>()),
                FusedBatchNormOp);
REGISTER_KERNEL(KernelDefBuilder("FusedBatchNormV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float>())
                    .TypeConstraint("U", DataTypesOf<float>()),
                FusedBatchNormOp);

}  // namespace
}  // namespace rill
