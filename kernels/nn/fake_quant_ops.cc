// FakeQuantWithMinMaxArgs / Vars / VarsPerChannel on the CPU: each value is clamped to a range
// nudged so that zero is exactly representable, quantized to one of 2^num_bits levels
// (2^num_bits - 1 with narrow_range) and dequantized back to float, in float arithmetic in
// TensorFlow's order:
//   scale = (max - min) / (qmax - qmin); inv_scale = (qmax - qmin) / (max - min) for Args and
//   VarsPerChannel, 1 / scale for Vars (TensorFlow's functors differ there: a value on a
//   rounding tie, e.g. -0.21568634 in [-1, 1], lands on different levels)
//   zero point = round(qmin - min / scale) clamped to [qmin, qmax]
//   nudged_min = (qmin - zero point) * scale, nudged_max = (qmax - zero point) * scale
//   level = floor((clamp(x, nudged_min, nudged_max) - nudged_min) * inv_scale + 0.5)
//   out = (level + (qmin - zero point)) * scale
// Vars reads min and max from scalar inputs (both 0 gives zeros), VarsPerChannel from vectors
// as long as the inputs' last dimension.
// Errors (TensorFlow's texts): num_bits outside [2, 16]; Args' min >= max; Vars' min or max not
// a scalar; VarsPerChannel's min or max not of the last dimension's size.
//
// The gradient kernels (FakeQuantWithMinMax*Gradient) pass the incoming gradient where the input
// lies in the nudged range [nudged_min, nudged_max] and zero elsewhere, as TensorFlow does, by
// multiplying with 1 or 0 (so a NaN or infinite gradient outside the range gives NaN). Vars and
// VarsPerChannel also return the sums of the gradients below nudged_min (for min) and above
// nudged_max (for max), per channel for VarsPerChannel; a range with min == max == 0 passes every
// gradient to the input and none to min and max. The sums are accumulated in double.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

struct Nudged {
  float min, max, scale, inv_scale, zero_point;
};

Nudged Nudge(float min, float max, int quant_min, int quant_max, bool reciprocal) {
  const float qmin = static_cast<float>(quant_min);
  const float qmax = static_cast<float>(quant_max);
  Nudged n;
  n.scale = (max - min) / (qmax - qmin);
  n.inv_scale = reciprocal ? 1.0f / n.scale : (qmax - qmin) / (max - min);
  const float zero_point_from_min = qmin - min / n.scale;
  uint16_t zero_point;
  if (zero_point_from_min < qmin) {
    zero_point = static_cast<uint16_t>(quant_min);
  } else if (zero_point_from_min > qmax) {
    zero_point = static_cast<uint16_t>(quant_max);
  } else {
    zero_point = static_cast<uint16_t>(std::round(zero_point_from_min));
  }
  n.zero_point = static_cast<float>(zero_point);
  n.min = (qmin - zero_point) * n.scale;
  n.max = (qmax - zero_point) * n.scale;
  return n;
}

// One range's quantization: `zero` for min == max == 0 (every value quantizes to 0).
struct Quantizer {
  bool zero = false;
  Nudged q{};
  float offset = 0.0f;  // quant_min - zero point
};

Quantizer MakeQuantizer(float min, float max, int quant_min, int quant_max, bool reciprocal) {
  Quantizer z;
  if (min == 0.0f && max == 0.0f) {
    z.zero = true;
    return z;
  }
  z.q = Nudge(min, max, quant_min, quant_max, reciprocal);
  z.offset = static_cast<float>(quant_min) - z.q.zero_point;
  return z;
}

inline float Quantize(float v, const Quantizer& z) {
  if (z.zero) return 0.0f;
  // fmin/fmax would turn a NaN into a bound; TensorFlow's clamp keeps it NaN.
  const float clamped = std::isnan(v) ? v : std::fmax(std::fmin(v, z.q.max), z.q.min);
  const float shifted = clamped - z.q.min;
  const float level = std::floor(shifted * z.q.inv_scale + 0.5f);
  return (level + z.offset) * z.q.scale;
}

// Quantizes the n values of x into y with the range [min, max].
void FakeQuant(const float* x, float* y, int64_t n, float min, float max, int quant_min,
               int quant_max, bool reciprocal) {
  const Quantizer z = MakeQuantizer(min, max, quant_min, quant_max, reciprocal);
  for (int64_t i = 0; i < n; ++i) y[i] = Quantize(x[i], z);
}

class FakeQuantBase : public OpKernel {
 public:
  explicit FakeQuantBase(OpKernelConstruction& ctx) : OpKernel(ctx) {
    int64_t num_bits = 8;
    bool narrow_range = false;
    ctx.SetStatus(ctx.GetAttr("num_bits", &num_bits));
    ctx.SetStatus(ctx.GetAttr("narrow_range", &narrow_range));
    if (num_bits < 2 || num_bits > 16) {
      ctx.SetStatus(absl::InvalidArgumentError("num_bits must be between 2 and 16, inclusive"));
      return;
    }
    quant_min_ = narrow_range ? 1 : 0;
    quant_max_ = (1 << num_bits) - 1;
  }

 protected:
  int quant_min_ = 0, quant_max_ = 255;
};

class FakeQuantArgsOp final : public FakeQuantBase {
 public:
  explicit FakeQuantArgsOp(OpKernelConstruction& ctx) : FakeQuantBase(ctx) {
    ctx.SetStatus(ctx.GetAttr("min", &min_));
    ctx.SetStatus(ctx.GetAttr("max", &max_));
    if (!(min_ < max_)) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("min has to be smaller than max, was: ", min_, " >= ", max_)));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, in.shape()));
    FakeQuant(in.flat<float>().data(), out->flat<float>().data(), in.NumElements(), min_, max_,
              quant_min_, quant_max_, /*reciprocal=*/false);
    return absl::OkStatus();
  }

 private:
  float min_ = -6.0f, max_ = 6.0f;
};

class FakeQuantVarsOp final : public FakeQuantBase {
 public:
  explicit FakeQuantVarsOp(OpKernelConstruction& ctx) : FakeQuantBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const char* names[] = {"min", "max"};
    for (int i = 1; i <= 2; ++i) {
      if (ctx.input(i).shape().rank() != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "`", names[i - 1], "` must be rank 0 but is rank ", ctx.input(i).shape().rank()));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, in.shape()));
    FakeQuant(in.flat<float>().data(), out->flat<float>().data(), in.NumElements(),
              ctx.input(1).flat<float>()[0], ctx.input(2).flat<float>()[0], quant_min_, quant_max_,
              /*reciprocal=*/true);
    return absl::OkStatus();
  }
};

class FakeQuantVarsPerChannelOp final : public FakeQuantBase {
 public:
  explicit FakeQuantVarsPerChannelOp(OpKernelConstruction& ctx) : FakeQuantBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    if (in.shape().rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("inputs must be at least rank 1 but is rank ", in.shape().rank()));
    }
    const int64_t depth = in.shape().dim(in.shape().rank() - 1);
    const char* names[] = {"min", "max"};
    for (int i = 1; i <= 2; ++i) {
      const Tensor& t = ctx.input(i);
      if (t.shape().rank() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("`", names[i - 1], "` must be rank 1 but is rank ", t.shape().rank()));
      }
      if (t.shape().dim(0) != depth) {
        return absl::InvalidArgumentError(absl::StrCat(
            names[i - 1], " has incorrect size, expected ", depth, " was ", t.shape().dim(0)));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, in.shape()));
    const float* mins = ctx.input(1).flat<float>().data();
    const float* maxs = ctx.input(2).flat<float>().data();
    const int64_t rows = depth == 0 ? 0 : in.NumElements() / depth;
    std::vector<Quantizer> channels(depth);
    for (int64_t c = 0; c < depth; ++c) {
      channels[c] = MakeQuantizer(mins[c], maxs[c], quant_min_, quant_max_, /*reciprocal=*/false);
    }
    // Row by row, in memory order.
    const float* x = in.flat<float>().data();
    float* y = out->flat<float>().data();
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < depth; ++c)
        y[r * depth + c] = Quantize(x[r * depth + c], channels[c]);
    }
    return absl::OkStatus();
  }
};

// One range's gradient: `pass_all` for min == max == 0 (every gradient reaches the input, none
// the range), else the nudged range.
struct GradientRange {
  bool pass_all = false;
  float min = 0.0f, max = 0.0f;
};

GradientRange MakeGradientRange(float min, float max, int quant_min, int quant_max) {
  GradientRange r;
  if (min == 0.0f && max == 0.0f) {
    r.pass_all = true;
    return r;
  }
  const Nudged q = Nudge(min, max, quant_min, quant_max, /*reciprocal=*/false);
  r.min = q.min;
  r.max = q.max;
  return r;
}

// dx for one value, adding its gradient below and above the range into *below and *above.
inline float Gradient(float g, float v, const GradientRange& r, double* below, double* above) {
  if (r.pass_all) return g;
  *below += g * (v < r.min ? 1.0f : 0.0f);
  *above += g * (v > r.max ? 1.0f : 0.0f);
  return g * ((v >= r.min && v <= r.max) ? 1.0f : 0.0f);
}

// The gradients of the n values: dx where x lies in min..max (nudged), and the sums of dy below
// and above it into *dmin and *dmax (when not null).
void FakeQuantGradient(const float* dy, const float* x, float* dx, int64_t n, float min, float max,
                       int quant_min, int quant_max, float* dmin, float* dmax) {
  const GradientRange r = MakeGradientRange(min, max, quant_min, quant_max);
  double below = 0.0, above = 0.0;
  for (int64_t i = 0; i < n; ++i) dx[i] = Gradient(dy[i], x[i], r, &below, &above);
  if (dmin != nullptr) *dmin = static_cast<float>(below);
  if (dmax != nullptr) *dmax = static_cast<float>(above);
}

absl::Status CheckSameSize(const Tensor& gradient, const Tensor& input) {
  if (gradient.shape() != input.shape()) {
    return absl::InvalidArgumentError("gradient and input must be the same size");
  }
  return absl::OkStatus();
}

class FakeQuantArgsGradientOp final : public FakeQuantBase {
 public:
  explicit FakeQuantArgsGradientOp(OpKernelConstruction& ctx) : FakeQuantBase(ctx) {
    ctx.SetStatus(ctx.GetAttr("min", &min_));
    ctx.SetStatus(ctx.GetAttr("max", &max_));
    if (!(min_ < max_)) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("min has to be smaller than max, was: ", min_, " >= ", max_)));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& dy = ctx.input(0);
    const Tensor& x = ctx.input(1);
    if (dy.shape() != x.shape()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Inputs to operation ", name(), " of type ", type_string(),
                       " must have the same size and shape.  Input 0: ", dy.shape().DebugString(),
                       " != input 1: ", x.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, x.shape()));
    FakeQuantGradient(dy.flat<float>().data(), x.flat<float>().data(), out->flat<float>().data(),
                      x.NumElements(), min_, max_, quant_min_, quant_max_, nullptr, nullptr);
    return absl::OkStatus();
  }

 private:
  float min_ = -6.0f, max_ = 6.0f;
};

class FakeQuantVarsGradientOp final : public FakeQuantBase {
 public:
  explicit FakeQuantVarsGradientOp(OpKernelConstruction& ctx) : FakeQuantBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& dy = ctx.input(0);
    const Tensor& x = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckSameSize(dy, x));
    const char* names[] = {"min", "max"};
    for (int i = 2; i <= 3; ++i) {
      if (ctx.input(i).shape().rank() != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "`", names[i - 2], "` must be rank 0 but is rank ", ctx.input(i).shape().rank()));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * dx, ctx.forward_input_or_allocate_output({0}, 0, x.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * dmin, ctx.allocate_output(1, TensorShape({})));
    RILL_ASSIGN_OR_RETURN(Tensor * dmax, ctx.allocate_output(2, TensorShape({})));
    FakeQuantGradient(dy.flat<float>().data(), x.flat<float>().data(), dx->flat<float>().data(),
                      x.NumElements(), ctx.input(2).flat<float>()[0], ctx.input(3).flat<float>()[0],
                      quant_min_, quant_max_, dmin->flat<float>().data(),
                      dmax->flat<float>().data());
    return absl::OkStatus();
  }
};

class FakeQuantVarsPerChannelGradientOp final : public FakeQuantBase {
 public:
  explicit FakeQuantVarsPerChannelGradientOp(OpKernelConstruction& ctx) : FakeQuantBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& dy = ctx.input(0);
    const Tensor& x = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckSameSize(dy, x));
    const char* names[] = {"min", "max"};
    for (int i = 2; i <= 3; ++i) {
      if (ctx.input(i).shape().rank() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "`", names[i - 2], "` must be rank 1 but is rank ", ctx.input(i).shape().rank()));
      }
    }
    if (x.shape().rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("inputs must be at least rank 1 but is rank ", x.shape().rank()));
    }
    const int64_t depth = x.shape().dim(x.shape().rank() - 1);
    for (int i = 2; i <= 3; ++i) {
      if (ctx.input(i).shape().dim(0) != depth) {
        return absl::InvalidArgumentError(absl::StrCat(names[i - 2],
                                                       " has incorrect size, expected ", depth,
                                                       " was ", ctx.input(i).shape().dim(0)));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * dx, ctx.forward_input_or_allocate_output({0}, 0, x.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * dmin, ctx.allocate_output(1, TensorShape({depth})));
    RILL_ASSIGN_OR_RETURN(Tensor * dmax, ctx.allocate_output(2, TensorShape({depth})));
    const float* mins = ctx.input(2).flat<float>().data();
    const float* maxs = ctx.input(3).flat<float>().data();
    const int64_t rows = depth == 0 ? 0 : x.NumElements() / depth;
    std::vector<GradientRange> ranges(depth);
    for (int64_t c = 0; c < depth; ++c) {
      ranges[c] = MakeGradientRange(mins[c], maxs[c], quant_min_, quant_max_);
    }
    // Row by row, in memory order; each channel's sums add its rows in order.
    std::vector<double> below(depth, 0.0), above(depth, 0.0);
    const float* g = dy.flat<float>().data();
    const float* v = x.flat<float>().data();
    float* out = dx->flat<float>().data();
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < depth; ++c) {
        const int64_t k = r * depth + c;
        out[k] = Gradient(g[k], v[k], ranges[c], &below[c], &above[c]);
      }
    }
    for (int64_t c = 0; c < depth; ++c) {
      dmin->flat<float>()[c] = static_cast<float>(below[c]);
      dmax->flat<float>()[c] = static_cast<float>(above[c]);
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("FakeQuantWithMinMaxArgs").Device(kDeviceCpu), FakeQuantArgsOp);
REGISTER_KERNEL(KernelDefBuilder("FakeQuantWithMinMaxVars").Device(kDeviceCpu), FakeQuantVarsOp);
REGISTER_KERNEL(KernelDefBuilder("FakeQuantWithMinMaxVarsPerChannel").Device(kDeviceCpu),
                FakeQuantVarsPerChannelOp);
REGISTER_KERNEL(KernelDefBuilder("FakeQuantWithMinMaxArgsGradient").Device(kDeviceCpu),
                FakeQuantArgsGradientOp);
REGISTER_KERNEL(KernelDefBuilder("FakeQuantWithMinMaxVarsGradient").Device(kDeviceCpu),
                FakeQuantVarsGradientOp);
REGISTER_KERNEL(KernelDefBuilder("FakeQuantWithMinMaxVarsPerChannelGradient").Device(kDeviceCpu),
                FakeQuantVarsPerChannelGradientOp);

}  // namespace
}  // namespace rill
