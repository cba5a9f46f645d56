// QuantizeAndDequantize (v1) and V2 / V3 / V4 on the CPU (one forward kernel, as in TensorFlow):
// simulates symmetric integer quantization of num_bits (an attr; V3's is its int32 input
// num_bits, rounding half to even). The range [min, max] is input_min / input_max (inputs; v1's
// are float attrs) when range_given, else the data's minimum and maximum (per slice along `axis`
// when axis >= 0). v1, which old TF1 graphs carry (TensorFlow 2.21 runs it only in a graph of an
// old producer version), is V2 per tensor with round_mode HALF_TO_EVEN and no narrow_range.
// The integer range is [-2^(b-1) (+1 with narrow_range), 2^(b-1) - 1] signed or [0, 2^b - 1];
// the scale is the larger factor keeping both ends in it with 0 fixed, in T as TensorFlow's
// ComputeQuantizationRange:
//   scale_min = qmin / min (if qmin * min > 0), scale_max = qmax / max (if qmax * max > 0)
//   smaller one wins: inverse = min / qmin (max moved to qmax * inverse), or max / qmax (min
//   moved to qmin * inverse)
//   out = round(clamp(x, min, max) * scale) * inverse   (clamped only when range_given)
// round: half to even (rint) or half up (floor(x + 0.5)).
// Errors (TensorFlow's texts): num_bits out of range; axis below -1 or not below the rank;
// a given range with min > max; per-axis ranges of the wrong size.
//
// QuantizeAndDequantizeV4Grad (V4's gradient, a straight-through estimator): the incoming
// gradient times 1 where input_min <= input <= input_max (per slice along `axis` when axis >= 0)
// and times 0 elsewhere, as TensorFlow computes it (a NaN or infinite gradient outside gives
// NaN); the range's own gradients are zeros of its shape.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

class QuantizeAndDequantizeOp final : public OpKernel {
 public:
  explicit QuantizeAndDequantizeOp(OpKernelConstruction& ctx)
      : OpKernel(ctx),
        v1_(ctx.def().op() == "QuantizeAndDequantize"),
        v3_(ctx.def().op() == "QuantizeAndDequantizeV3") {
    std::string round_mode = "HALF_TO_EVEN";
    ctx.SetStatus(ctx.GetAttr("signed_input", &signed_input_));
    ctx.SetStatus(ctx.GetAttr("range_given", &range_given_));
    if (v1_) {
      ctx.SetStatus(ctx.GetAttr("num_bits", &num_bits_));
      ctx.SetStatus(ctx.GetAttr("input_min", &v1_min_));
      ctx.SetStatus(ctx.GetAttr("input_max", &v1_max_));
      ctx.SetStatus(CheckNumBits(num_bits_));
      if (range_given_ && !(v1_min_ <= v1_max_)) {
        ctx.SetStatus(absl::InvalidArgumentError(
            absl::StrCat("Invalid range: input_min ", v1_min_, " > input_max ", v1_max_)));
      }
      return;
    }
    if (!v3_) {
      ctx.SetStatus(ctx.GetAttr("num_bits", &num_bits_));
      ctx.SetStatus(ctx.GetAttr("round_mode", &round_mode));
    }
    ctx.SetStatus(ctx.GetAttr("narrow_range", &narrow_range_));
    ctx.SetStatus(ctx.GetAttr("axis", &axis_));
    // TensorFlow reads axis as an int32 (its text when it does not fit); axis + 1 of 2^63 - 1
    // overflowed in the rank check.
    ctx.SetStatus(CheckInt32Attr("axis", axis_));
    half_up_ = round_mode == "HALF_UP";
    if (!v3_) ctx.SetStatus(CheckNumBits(num_bits_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    int64_t num_bits = num_bits_;
    if (v3_) {
      const Tensor& bits = ctx.input(3);
      if (bits.shape().rank() != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Invalid shape. The `num_bits` tensor should be a scalar. Got dimensions: ",
            bits.shape().rank()));
      }
      num_bits = bits.flat<int32_t>()[0];
      RILL_RETURN_IF_ERROR(CheckNumBits(num_bits));
    }
    if (axis_ < -1) {
      return absl::InvalidArgumentError(absl::StrCat("Axis must be at least -1. Found ", axis_));
    }
    if (axis_ != -1 && axis_ >= in.shape().rank()) {
      return absl::InvalidArgumentError(absl::StrCat("Shape must be at least rank ", axis_ + 1,
                                                     " but is rank ", in.shape().rank()));
    }
    const int64_t depth = axis_ == -1 ? 1 : in.shape().dim(axis_);
    if (range_given_ && !v1_) {
      for (int i = 1; i <= 2; ++i) {
        const Tensor& t = ctx.input(i);
        const char* name = i == 1 ? "input_min" : "input_max";
        if (axis_ == -1 ? t.shape().rank() != 0 : t.NumElements() != depth) {
          return absl::InvalidArgumentError(
              axis_ == -1 ? absl::StrCat(name, " must be a scalar.")
                          : absl::StrCat(name, " has incorrect size, expected ", depth, " was ",
                                         t.NumElements()));
        }
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, in.shape()));
    int64_t inner = 1;
    for (int d = axis_ + 1; axis_ != -1 && d < in.shape().rank(); ++d) inner *= in.shape().dim(d);
    const int64_t outer = depth * inner == 0 ? 0 : in.NumElements() / (depth * inner);
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* x = in.flat<T>().data();
      T* y = out->flat<T>().data();
      // Each slice's range and scale first, then every element in memory order (slice c of
      // the axis is the elements (o * depth + c) * inner + i): the same values as slice by
      // slice, each range's minimum and maximum read in the same order.
      std::vector<T> lo(depth), hi(depth), scale(depth), inverse(depth);
      if (range_given_ && v1_) {
        lo[0] = static_cast<T>(v1_min_);
        hi[0] = static_cast<T>(v1_max_);
      } else if (range_given_) {
        for (int64_t c = 0; c < depth; ++c) {
          lo[c] = ctx.input(1).flat<T>()[c];
          hi[c] = ctx.input(2).flat<T>()[c];
          if (axis_ == -1 && !(lo[c] <= hi[c])) {  // a NaN bound too, as TensorFlow's check
            return absl::InvalidArgumentError(
                absl::StrCat("Invalid range: input_min ", lo[c], " > input_max ", hi[c]));
          }
        }
      } else {
        std::fill(lo.begin(), lo.end(), std::numeric_limits<T>::infinity());
        std::fill(hi.begin(), hi.end(), -std::numeric_limits<T>::infinity());
        for (int64_t o = 0; o < outer; ++o) {
          for (int64_t c = 0; c < depth; ++c) {
            const T* p = x + (o * depth + c) * inner;
            T l = lo[c], h = hi[c];
            for (int64_t i = 0; i < inner; ++i) {
              l = std::min(l, p[i]);
              h = std::max(h, p[i]);
            }
            lo[c] = l;
            hi[c] = h;
          }
        }
      }
      const int64_t qmin = signed_input_ ? (narrow_range_ ? -(int64_t{1} << (num_bits - 1)) + 1
                                                          : -(int64_t{1} << (num_bits - 1)))
                                         : 0;
      const int64_t qmax =
          signed_input_ ? (int64_t{1} << (num_bits - 1)) - 1 : (int64_t{1} << num_bits) - 1;
      for (int64_t c = 0; c < depth; ++c) {
        const T scale_min = (qmin * lo[c] > 0) ? qmin / lo[c] : std::numeric_limits<T>::max();
        const T scale_max = (qmax * hi[c] > 0) ? qmax / hi[c] : std::numeric_limits<T>::max();
        if (scale_min < scale_max) {
          scale[c] = scale_min;
          inverse[c] = lo[c] / qmin;
          hi[c] = qmax * inverse[c];
        } else {
          scale[c] = scale_max;
          inverse[c] = hi[c] / qmax;
          lo[c] = qmin * inverse[c];
        }
      }
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < depth; ++c) {
          const int64_t base = (o * depth + c) * inner;
          const T l = lo[c], h = hi[c], sc = scale[c], inv = inverse[c];
          for (int64_t i = 0; i < inner; ++i) {
            T v = x[base + i];
            if (range_given_) v = std::max(std::min(v, h), l);
            const T scaled = v * sc;
            const T rounded = half_up_ ? std::floor(scaled + T(0.5)) : std::rint(scaled);
            y[base + i] = rounded * inv;
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  absl::Status CheckNumBits(int64_t num_bits) const {
    if (num_bits > 0 && num_bits < (signed_input_ ? 62 : 63)) return absl::OkStatus();
    // V3 quotes the attr's name in its text.
    return absl::InvalidArgumentError(
        absl::StrCat("num_bits is out of range: ", num_bits,
                     v3_ ? " with `signed_input_` " : " with signed_input_ ", signed_input_));
  }

  const bool v1_, v3_;
  float v1_min_ = 0.0f, v1_max_ = 0.0f;  // v1's range attrs
  bool signed_input_ = true, range_given_ = false, narrow_range_ = false, half_up_ = false;
  int64_t num_bits_ = 8, axis_ = -1;
};

class QuantizeAndDequantizeV4GradOp final : public OpKernel {
 public:
  explicit QuantizeAndDequantizeV4GradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("axis", &axis_));
    // TensorFlow reads axis as an int32 (its text when it does not fit); axis + 1 of 2^63 - 1
    // overflowed in the rank check.
    ctx.SetStatus(CheckInt32Attr("axis", axis_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& dy = ctx.input(0);
    const Tensor& in = ctx.input(1);
    const Tensor& min = ctx.input(2);
    const Tensor& max = ctx.input(3);
    const int rank = in.shape().rank();
    if (axis_ < -1) {
      return absl::InvalidArgumentError(absl::StrCat("Axis must be at least -1. Found ", axis_));
    }
    if (axis_ != -1 && axis_ >= rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("Axis should be -1 or 0 or a positive value less than ", rank,
                       "but given axis value was ", axis_));
    }
    if (dy.shape() != in.shape()) {
      return absl::InvalidArgumentError("gradient and input must be the same size");
    }
    const char* names[] = {"min", "max"};
    for (int i = 0; i < 2; ++i) {
      const int r = (i == 0 ? min : max).shape().rank();
      if (r != 0 && r != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input ", names[i], " tensor must have dimension 0 or 1. Received ", r, "."));
      }
    }
    const int64_t depth = axis_ == -1 ? 1 : in.shape().dim(axis_);
    if (axis_ != -1) {
      for (int i = 0; i < 2; ++i) {
        if ((i == 0 ? min : max).shape().rank() != 1) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Shape must be rank 1 for input_", names[i], "_tensor when the axis is specified"));
        }
      }
      for (int i = 0; i < 2; ++i) {
        const int64_t size = (i == 0 ? min : max).shape().dim(0);
        if (size != depth) {
          return absl::InvalidArgumentError(
              absl::StrCat(names[i], " has incorrect size, expected ", depth, " was ", size));
        }
      }
    } else {
      for (int i = 0; i < 2; ++i) {
        if ((i == 0 ? min : max).shape().rank() != 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("input_", names[i], " must be a scalar if axis is unspecified"));
        }
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * dx, ctx.forward_input_or_allocate_output({0}, 0, in.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * dmin, ctx.allocate_output(1, min.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * dmax, ctx.allocate_output(2, min.shape()));
    int64_t inner = 1;
    for (int d = axis_ + 1; axis_ != -1 && d < rank; ++d) inner *= in.shape().dim(d);
    const int64_t outer = depth * inner == 0 ? 0 : in.NumElements() / (depth * inner);
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* g = dy.flat<T>().data();
      const T* x = in.flat<T>().data();
      T* out = dx->flat<T>().data();
      // In memory order: slice c of the axis is the elements (o * depth + c) * inner + i.
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < depth; ++c) {
          const T lo = min.flat<T>()[c];
          const T hi = max.flat<T>()[c];
          const int64_t base = (o * depth + c) * inner;
          for (int64_t k = base; k < base + inner; ++k) {
            out[k] = g[k] * ((x[k] >= lo && x[k] <= hi) ? T(1) : T(0));
          }
        }
      }
      for (int64_t i = 0; i < dmin->NumElements(); ++i) {
        dmin->flat<T>()[i] = T(0);
        dmax->flat<T>()[i] = T(0);
      }
      return absl::OkStatus();
    });
  }

 private:
  int64_t axis_ = -1;
};

REGISTER_KERNEL(KernelDefBuilder("QuantizeAndDequantize")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                QuantizeAndDequantizeOp);
REGISTER_KERNEL(KernelDefBuilder("QuantizeAndDequantizeV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                QuantizeAndDequantizeOp);
REGISTER_KERNEL(KernelDefBuilder("QuantizeAndDequantizeV4")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                QuantizeAndDequantizeOp);
REGISTER_KERNEL(KernelDefBuilder("QuantizeAndDequantizeV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>())
                    .HostMemory("num_bits"),
                QuantizeAndDequantizeOp);
REGISTER_KERNEL(KernelDefBuilder("QuantizeAndDequantizeV4Grad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                QuantizeAndDequantizeV4GradOp);

}  // namespace
}  // namespace rill
