// Colour-space kernels on the CPU, over the last dim (3 channels) of images of any rank >= 1:
//   RGBToHSV: V = max(r, g, b), range = V - min(r, g, b) (NaN channels as TensorFlow's reduction
//     takes them: ChannelMax), S = range / V (0 when V <= 0),
//     H = (g - b) / (6 range) when r is the max, (b - r) / (6 range) + 2/6 when g is, else
//     (r - g) / (6 range) + 4/6; 0 when range <= 0, plus 1 when negative.
//   HSVToRGB: with dh = 6 h, channel weights r = clamp(|dh - 3| - 1), g = clamp(2 - |dh - 2|),
//     b = clamp(2 - |dh - 4|) in [0, 1], each output (1 - s + s * weight) * v.
//   Both compute in T (half: every operation rounded to half, as Eigen's half arithmetic).
// Adjustments of RGB images [..., h, w, 3] (rank >= 3):
//   AdjustContrastv2: per image and channel, (x - mean) * contrast_factor + mean, the mean taken
//     over h * w (summed by repeatedly folding the image plane in half, as TensorFlow does, so the
//     float rounding matches), in float.
//   AdjustHue: hue rotated by delta (a fraction of the full turn), via the hue / value-range
//     decomposition; AdjustSaturation: saturation scaled by scale and clamped to [0, 1], via HSV.
//     Both in float per pixel. The adjustments are registered for float only (TensorFlow has no
//     half CPU kernel for them).
// Errors: InvalidArgument "input must be at least 1D[]" / "input must be at least 3-D, got
// shape[2,3]", "contrast_factor must be scalar: [2]", "delta must be scalar: [2]", "scale must be
// scalar: [2]", "input must have 3 channels but instead has 4 channels."; RGBToHSV / HSVToRGB:
// FailedPrecondition "input must have 3 channels but input only has 4 channels.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/half.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// T's arithmetic: C is the type operations are done in, R rounds a result to T.
template <typename T>
struct Arith {
  using C = float;
  static float R(float v) { return v; }
};
template <>
struct Arith<half> {
  using C = float;
  static float R(float v) { return static_cast<float>(half(v)); }
};
template <>
struct Arith<double> {
  using C = double;
  static double R(double v) { return v; }
};

template <typename T>
typename Arith<T>::C Get(T v) {
  return static_cast<typename Arith<T>::C>(v);
}
template <>
float Get<half>(half v) {
  return static_cast<float>(v);
}

absl::Status ThreeChannelsLast(const Tensor& in) {
  const TensorShape s = in.shape();
  if (s.rank() < 1) {
    return absl::InvalidArgumentError(absl::StrCat("input must be at least 1D", s.DebugString()));
  }
  const int64_t channels = s.dim(s.rank() - 1);
  if (channels != 3) {
    return absl::FailedPreconditionError(
        absl::StrCat("input must have 3 channels but input only has ", channels, " channels."));
  }
  return absl::OkStatus();
}

// The channel max / min as TensorFlow's RGBToHSV reduces them (Eigen's reducers, channels in
// order): a channel replaces the running value unless it is below (above) it, so a NaN channel
// replaces it and the next channel replaces a NaN; [0.5, NaN, 0.2] has max and min 0.2.
template <typename C>
C ChannelMax(C r, C g, C b) {
  C m = r;
  m = g < m ? m : g;
  return b < m ? m : b;
}
template <typename C>
C ChannelMin(C r, C g, C b) {
  C m = r;
  m = m < g ? m : g;
  return m < b ? m : b;
}

class RgbToHsvOp final : public OpKernel {
 public:
  explicit RgbToHsvOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_RETURN_IF_ERROR(ThreeChannelsLast(in));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    const int64_t pixels = in.NumElements() / 3;
    return VisitKernelTypes<half, float, double>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = Arith<T>;
      using C = typename A::C;
      const T* x = in.flat<T>().data();
      T* z = out->flat<T>().data();
      const C sixth = A::R(C(1) / C(6)), two_sixths = A::R(C(2) / C(6)),
              four_sixths = A::R(C(4) / C(6));
      ctx.ParallelFor(pixels, 40, [&](int64_t begin, int64_t end) {
        for (int64_t p = begin; p < end; ++p) {
          const C r = Get(x[3 * p]), g = Get(x[3 * p + 1]), b = Get(x[3 * p + 2]);
          const C v = ChannelMax(r, g, b);
          const C range = A::R(v - ChannelMin(r, g, b));
          const C s = v > C(0) ? A::R(range / v) : C(0);
          const C norm = A::R(A::R(C(1) / range) * sixth);
          C h;
          if (r == v) {
            h = A::R(norm * A::R(g - b));
          } else if (g == v) {
            h = A::R(A::R(norm * A::R(b - r)) + two_sixths);
          } else {
            h = A::R(A::R(norm * A::R(r - g)) + four_sixths);
          }
          if (!(range > C(0))) h = C(0);
          if (h < C(0)) h = A::R(h + C(1));
          z[3 * p] = T(h);
          z[3 * p + 1] = T(s);
          z[3 * p + 2] = T(v);
        }
      });
      return absl::OkStatus();
    });
  }
};

class HsvToRgbOp final : public OpKernel {
 public:
  explicit HsvToRgbOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_RETURN_IF_ERROR(ThreeChannelsLast(in));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    const int64_t pixels = in.NumElements() / 3;
    return VisitKernelTypes<half, float, double>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = Arith<T>;
      using C = typename A::C;
      const T* x = in.flat<T>().data();
      T* z = out->flat<T>().data();
      auto clamp01 = [](C v) { return std::min(std::max(v, C(0)), C(1)); };
      ctx.ParallelFor(pixels, 40, [&](int64_t begin, int64_t end) {
        for (int64_t p = begin; p < end; ++p) {
          const C h = Get(x[3 * p]), s = Get(x[3 * p + 1]), v = Get(x[3 * p + 2]);
          const C dh = A::R(h * C(6));
          const C wr = clamp01(A::R(std::abs(A::R(dh - C(3))) - C(1)));
          const C wg = clamp01(A::R(C(2) - std::abs(A::R(dh - C(2)))));
          const C wb = clamp01(A::R(C(2) - std::abs(A::R(dh - C(4)))));
          const C one_s = A::R(C(1) - s);
          z[3 * p] = T(A::R(A::R(one_s + A::R(s * wr)) * v));
          z[3 * p + 1] = T(A::R(A::R(one_s + A::R(s * wg)) * v));
          z[3 * p + 2] = T(A::R(A::R(one_s + A::R(s * wb)) * v));
        }
      });
      return absl::OkStatus();
    });
  }
};

// --- adjustments ----------------------------------------------------------------------------

// Checks an RGB-image input of rank >= 3 and a scalar float second input named `what`.
absl::Status CheckAdjustInputs(const Tensor& in, const Tensor& factor, const char* what,
                               bool need_rgb) {
  const TensorShape s = in.shape();
  if (s.rank() < 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("input must be at least 3-D, got shape", s.DebugString()));
  }
  if (factor.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be scalar: ", factor.shape().DebugString()));
  }
  if (need_rgb && s.dim(s.rank() - 1) != 3) {
    return absl::InvalidArgumentError(absl::StrCat("input must have 3 channels but instead has ",
                                                   s.dim(s.rank() - 1), " channels."));
  }
  return absl::OkStatus();
}

std::vector<float> ToFloats(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.NumElements()));
  if (t.dtype() == DT_HALF) {
    const half* p = t.flat<half>().data();
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(p[i]);
  } else {
    std::copy_n(t.flat<float>().data(), v.size(), v.data());
  }
  return v;
}

void StoreFloat(Tensor* t, int64_t i, float v) {
  if (t->dtype() == DT_HALF) {
    t->flat<half>()[i] = half(v);
  } else {
    t->flat<float>()[i] = v;
  }
}

class AdjustContrastV2Op final : public OpKernel {
 public:
  explicit AdjustContrastV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& factor_t = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckAdjustInputs(in, factor_t, "contrast_factor", false));
    const TensorShape s = in.shape();
    const int64_t channels = s.dim(s.rank() - 1);
    const int64_t image_size = s.dim(s.rank() - 3) * s.dim(s.rank() - 2);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, s));
    if (in.NumElements() == 0) return absl::OkStatus();
    const float factor = factor_t.flat<float>()[0];
    const std::vector<float> x = ToFloats(in);
    const int64_t plane = image_size * channels;
    const int64_t batch = in.NumElements() / plane;
    ctx.ParallelFor(batch, plane * 4, [&](int64_t begin, int64_t end) {
      std::vector<float> sum(static_cast<size_t>(plane));
      for (int64_t i = begin; i < end; ++i) {
        const float* xp = x.data() + i * plane;
        // Fold the plane in half until one pixel (of `channels` values) holds the sums.
        int64_t remaining = image_size;
        bool first = true;
        do {
          const int64_t right = remaining / 2, left = remaining - right;
          const float* src = first ? xp : sum.data();
          for (int64_t k = 0; k < right * channels; ++k) {
            sum[k] = first ? xp[left * channels + k] + xp[k] : sum[k] + sum[left * channels + k];
          }
          if (first && left > right) {
            std::copy_n(src + right * channels, channels, sum.data() + right * channels);
          }
          remaining = left;
          first = false;
        } while (remaining > 1);
        const float scaling = 1.0f / static_cast<float>(image_size);
        for (int64_t c = 0; c < channels; ++c) sum[c] *= scaling;
        for (int64_t k = 0; k < plane; ++k) {
          const float mean = sum[k % channels];
          StoreFloat(out, i * plane + k, (xp[k] - mean) * factor + mean);
        }
      }
    });
    return absl::OkStatus();
  }
};

// Hue / value-range decomposition of an RGB pixel: h in [0, 6), the min and max channel.
void RgbToHvRange(float r, float g, float b, float* h, float* v_min, float* v_max) {
  float v_mid;
  int category;
  if (r < g) {
    if (b < r) {
      *v_max = g, v_mid = r, *v_min = b, category = 1;
    } else if (b > g) {
      *v_max = b, v_mid = g, *v_min = r, category = 3;
    } else {
      *v_max = g, v_mid = b, *v_min = r, category = 2;
    }
  } else {
    if (b < g) {
      *v_max = r, v_mid = g, *v_min = b, category = 0;
    } else if (b > r) {
      *v_max = b, v_mid = r, *v_min = g, category = 4;
    } else {
      *v_max = r, v_mid = b, *v_min = g, category = 5;
    }
  }
  if (*v_max == *v_min) {
    *h = 0;
    return;
  }
  const float ratio = (v_mid - *v_min) / (*v_max - *v_min);
  *h = static_cast<float>(category) + ((category & 1) == 0 ? ratio : 1 - ratio);
}

void HvRangeToRgb(float h, float v_min, float v_max, float* r, float* g, float* b) {
  const int category = std::abs(h) < 1e6f ? static_cast<int>(h) : 5;  // NaN: 5
  float ratio = h - static_cast<float>(category);
  if ((category & 1) != 0) ratio = 1 - ratio;
  const float v_mid = v_min + ratio * (v_max - v_min);
  switch (category) {
    case 0:
      *r = v_max, *g = v_mid, *b = v_min;
      break;
    case 1:
      *r = v_mid, *g = v_max, *b = v_min;
      break;
    case 2:
      *r = v_min, *g = v_max, *b = v_mid;
      break;
    case 3:
      *r = v_min, *g = v_mid, *b = v_max;
      break;
    case 4:
      *r = v_mid, *g = v_min, *b = v_max;
      break;
    default:
      *r = v_max, *g = v_min, *b = v_mid;
  }
}

void RgbToHsv(float r, float g, float b, float* h, float* s, float* v) {
  const float vv = std::max(r, std::max(g, b));
  const float range = vv - std::min(r, std::min(g, b));
  *s = vv > 0 ? range / vv : 0.0f;
  const float norm = 1.0f / (6.0f * range);
  float hh;
  if (r == vv) {
    hh = norm * (g - b);
  } else if (g == vv) {
    hh = static_cast<float>(norm * (b - r) + 2.0 / 6.0);
  } else {
    hh = static_cast<float>(norm * (r - g) + 4.0 / 6.0);
  }
  if (range <= 0.0f) hh = 0;
  if (hh < 0.0f) hh = hh + 1;
  *v = vv;
  *h = hh;
}

// h reduced into [0, range): what adding or subtracting range until h is inside gives (each
// such step is exact while |h| < 2^24), computed with fmod so that a huge h takes one step
// instead of |h| / range (unending once range is below h's ulp). Non-finite h is returned as is.
float WrapInto(float h, float range) {
  if (!std::isfinite(h)) return h;
  float r = std::fmod(h, range);
  if (r < 0) r += range;
  if (r >= range) r -= range;  // a tiny negative r rounded up to range
  return r;
}

void HsvToRgb(float h, float s, float v, float* r, float* g, float* b) {
  const float c = s * v;
  const float m = v - c;
  const float dh = h * 6;
  const int category = std::abs(dh) < 1e6f ? static_cast<int>(dh) : -1;  // NaN: -1
  const float fmodu = WrapInto(dh, 2.0f);
  const float x = c * (1 - std::abs(fmodu - 1));
  float rr = 0, gg = 0, bb = 0;
  switch (category) {
    case 0:
      rr = c, gg = x, bb = 0;
      break;
    case 1:
      rr = x, gg = c, bb = 0;
      break;
    case 2:
      rr = 0, gg = c, bb = x;
      break;
    case 3:
      rr = 0, gg = x, bb = c;
      break;
    case 4:
      rr = x, gg = 0, bb = c;
      break;
    case 5:
      rr = c, gg = 0, bb = x;
      break;
    default:
      break;
  }
  *r = rr + m;
  *g = gg + m;
  *b = bb + m;
}

// AdjustHue (kHue true) and AdjustSaturation.
template <bool kHue>
class AdjustHsvOp final : public OpKernel {
 public:
  explicit AdjustHsvOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& factor_t = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckAdjustInputs(in, factor_t, kHue ? "delta" : "scale", true));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    const float factor = factor_t.flat<float>()[0];
    const std::vector<float> x = ToFloats(in);
    const int64_t pixels = in.NumElements() / 3;
    ctx.ParallelFor(pixels, 60, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const float* px = &x[3 * p];
        float r, g, b;
        if (kHue) {
          float h, v_min, v_max;
          RgbToHvRange(px[0], px[1], px[2], &h, &v_min, &v_max);
          constexpr float kRange = 6;
          h = WrapInto(h + factor * kRange, kRange);
          HvRangeToRgb(h, v_min, v_max, &r, &g, &b);
        } else {
          float h, s, v;
          RgbToHsv(px[0], px[1], px[2], &h, &s, &v);
          s = std::min(1.0f, std::max(0.0f, s * factor));
          HsvToRgb(h, s, v, &r, &g, &b);
        }
        StoreFloat(out, 3 * p, r);
        StoreFloat(out, 3 * p + 1, g);
        StoreFloat(out, 3 * p + 2, b);
      }
    });
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("RGBToHSV")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE}),
                RgbToHsvOp);
REGISTER_KERNEL(KernelDefBuilder("HSVToRGB")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE}),
                HsvToRgbOp);
REGISTER_KERNEL(KernelDefBuilder("AdjustContrastv2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT})
                    .HostMemory("contrast_factor"),
                AdjustContrastV2Op);
REGISTER_KERNEL(KernelDefBuilder("AdjustHue")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT})
                    .HostMemory("delta"),
                AdjustHsvOp<true>);
REGISTER_KERNEL(KernelDefBuilder("AdjustSaturation")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT})
                    .HostMemory("scale"),
                AdjustHsvOp<false>);

}  // namespace
}  // namespace rill
