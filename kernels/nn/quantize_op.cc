// QuantizeV2 and Dequantize on the CPU: float <-> the quantized dtypes (qint8, quint8, qint16,
// quint16, qint32) over a range [min, max], per tensor (axis -1) or per slice along `axis`, in
// float arithmetic in TensorFlow's order, so the integers (and floats) are TensorFlow's bit for
// bit. lo / hi are the dtype's limits; a float becomes an integer as TensorFlow's compiled
// casts make it (TruncateToQuantized, CastToQuantized below: they differ only for NaN).
//
// QuantizeV2 first widens the range: min = min(0, min_range), max = max(0, max_range), and max
// grows to min + max(1, |min|, |max|) * ensure_minimum_range if it is closer. Then:
//   MIN_COMBINED  s = (hi - lo) / (max - min); clamp x to [min, max];
//                 unsigned: (x - min) * s + 0.5 truncated; signed: round((x - min) * s -
//                 (hi - lo + 1) / 2) (half away from zero)
//   MIN_FIRST     s = (2^bits - 1) / (max - min) (0 when max == min);
//                 round(x * s) + (lo - round(min * s)), clamped to [lo, hi] (qint32: to the
//                 float range [-2^31, 2147483520]); per tensor only (Unimplemented with an axis)
//   SCALED        with l = lo (+1 with narrow_range): s = min(l / min if l * min > 0,
//                 hi / max if hi * max > 0) (FLT_MAX where neither side applies); the range
//                 becomes [l / s, hi / s]; round(clamp(x) * s), half away from zero or half to
//                 even (round_mode; HALF_TO_EVEN is refused for the other modes)
// output_min / output_max are the range used.
//
// Dequantize (output float, or bfloat16 for MIN_COMBINED only):
//   MIN_COMBINED  (q + (signed ? (hi - lo + 1) / 2 : 0)) * ((max - min) / (hi - lo)) + min
//   MIN_FIRST     s = (max - min) / (2^bits - 1); m = round(min / s) * s (min when max == min);
//                 q * s + (m - lo * s); per tensor only
//   SCALED        q * (unsigned ? max / hi : max(min / l, max / hi)) (a qint32 q that is 2^31
//                 in float counts as -2^31, as in TensorFlow)
//
// Errors are TensorFlow's texts (range sizes, axis past the rank, max < min for QuantizeV2).
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

enum class Mode { kMinCombined, kMinFirst, kScaled };

absl::StatusOr<Mode> ParseMode(const std::string& s) {
  if (s == "MIN_COMBINED") return Mode::kMinCombined;
  if (s == "MIN_FIRST") return Mode::kMinFirst;
  if (s == "SCALED") return Mode::kScaled;
  return absl::InvalidArgumentError(
      absl::StrCat("Mode string must be 'MIN_COMBINED',"
                   " 'MIN_FIRST', or 'SCALED', is '",
                   s, "'"));
}

// Eigen's cwiseMin / cwiseMax (a NaN in `a` stays NaN).
float Mini(float a, float b) { return b < a ? b : a; }
float Maxi(float a, float b) { return a < b ? b : a; }

// Half away from zero, as std::round.
float RoundAway(float v) { return std::round(v); }

// x86's cvttss2si: truncation toward zero, INT32_MIN for NaN and values outside int32.
int32_t TruncateToInt32(float v) {
  if (!(v >= -2147483648.0f && v < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

// lrint to int64 (INT64_MIN for NaN and values outside int64).
int64_t RoundToInt64(float v) {
  if (!(v >= -9.2e18f && v < 9.2e18f)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(std::nearbyint(v));
}

// MIN_FIRST's conversion: through int32, keeping the dtype's low bits.
template <typename Q>
Q TruncateToQuantized(float v) {
  return Q(static_cast<typename Q::Storage>(TruncateToInt32(v)));
}

// MIN_COMBINED's and SCALED's conversion, as TensorFlow's x86 build of Eigen's casts does it.
// The values are already in the dtype's range except NaN (a NaN input, or 0 * inf in an empty
// range): qint32 goes through lrint and keeps the low 32 bits (NaN gives 0); qint8 and qint16
// are converted 8 floats at a time with saturation (NaN gives the dtype's minimum) except the
// last n % 8 elements, which are converted one by one (NaN gives 0); the unsigned dtypes give 0.
template <typename Q>
Q CastToQuantized(float v, bool in_full_packet) {
  using S = typename Q::Storage;
  if constexpr (sizeof(S) == 4) {
    return Q(static_cast<S>(static_cast<uint32_t>(RoundToInt64(v))));
  } else {
    if (std::is_signed_v<S> && in_full_packet && std::isnan(v)) {
      return Q(std::numeric_limits<S>::min());
    }
    return Q(static_cast<S>(TruncateToInt32(v)));
  }
}

// The packet width of TensorFlow's float -> qint8 / qint16 casts.
constexpr int64_t kCastPacket = 8;

template <typename Q>
constexpr double Lowest() {
  return static_cast<double>(std::numeric_limits<typename Q::Storage>::min());
}
template <typename Q>
constexpr double Highest() {
  return static_cast<double>(std::numeric_limits<typename Q::Storage>::max());
}
template <typename Q>
constexpr bool IsSigned() {
  return std::numeric_limits<typename Q::Storage>::is_signed;
}

// The input viewed as [outer, slices, inner] for a per-slice range along `axis` (slices 1 for
// axis -1).
struct SliceLayout {
  int64_t outer = 1, slices = 1, inner = 1;
};

SliceLayout LayoutOf(const TensorShape& shape, int axis) {
  SliceLayout l;
  if (axis < 0) {
    l.inner = shape.num_elements();
    return l;
  }
  for (int d = 0; d < axis; ++d) l.outer *= shape.dim(d);
  l.slices = shape.dim(axis);
  for (int d = axis + 1; d < shape.rank(); ++d) l.inner *= shape.dim(d);
  return l;
}

// Calls fn(slice, flat index) for every element.
template <typename Fn>
void ForEachElement(const SliceLayout& l, Fn fn) {
  int64_t i = 0;
  for (int64_t o = 0; o < l.outer; ++o) {
    for (int64_t s = 0; s < l.slices; ++s) {
      for (int64_t k = 0; k < l.inner; ++k) fn(s, i++);
    }
  }
}

class QuantizeV2Op final : public OpKernel {
 public:
  explicit QuantizeV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string mode = "MIN_COMBINED", round_mode = "HALF_AWAY_FROM_ZERO";
    int64_t axis = -1;
    ctx.SetStatus(ctx.GetAttr("mode", &mode));
    ctx.SetStatus(ctx.GetAttr("round_mode", &round_mode));
    ctx.SetStatus(ctx.GetAttr("narrow_range", &narrow_range_));
    ctx.SetStatus(ctx.GetAttr("axis", &axis));
    ctx.SetStatus(ctx.GetAttr("ensure_minimum_range", &ensure_minimum_range_));
    absl::StatusOr<Mode> m = ParseMode(mode);
    if (!m.ok()) {
      ctx.SetStatus(m.status());
      return;
    }
    mode_ = *m;
    half_to_even_ = round_mode == "HALF_TO_EVEN";
    if (half_to_even_ && mode_ != Mode::kScaled) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is '",
                       mode, "'.")));
    }
    if (axis < -1 || axis > std::numeric_limits<int32_t>::max()) {
      ctx.SetStatus(
          absl::InvalidArgumentError(absl::StrCat("axis should be at least -1, got ", axis)));
    }
    axis_ = static_cast<int>(axis);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& min_t = ctx.input(1);
    const Tensor& max_t = ctx.input(2);
    int64_t slices = 1;
    if (axis_ > -1) {
      if (input.shape().rank() <= axis_) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Axis is on a zero-based index, so its value must always be less than number of "
            "input's dims, but given axis value was ",
            axis_, " and input's dims was ", input.shape().rank()));
      }
      slices = input.shape().dim(axis_);
      for (const auto& [t, name] :
           {std::pair<const Tensor*, const char*>{&min_t, "min_range"}, {&max_t, "max_range"}}) {
        const std::string head = absl::StrCat(
            "If axis is specified, ", name,
            " must be a 1-D tensor whose size matches the axis dimension of the input and output "
            "tensors, but ",
            name);
        if (t->shape().rank() != 1) {
          return absl::InvalidArgumentError(absl::StrCat(head, " dims are ", t->shape().rank()));
        }
        if (t->shape().dim(0) != slices) {
          return absl::InvalidArgumentError(
              absl::StrCat(head, " is a 1-D tensor of size ", t->shape().dim(0),
                           " and input's axis dimension is of size ", slices));
        }
      }
    } else {
      for (const auto& [t, name] :
           {std::pair<const Tensor*, const char*>{&min_t, "min_range"}, {&max_t, "max_range"}}) {
        if (t->NumElements() != 1) {
          return absl::InvalidArgumentError(
              absl::StrCat("If axis is not specified, ", name,
                           " must contain a single float element, but it contains ",
                           t->NumElements(), " elements"));
        }
      }
    }
    std::vector<float> lo(slices), hi(slices);
    for (int64_t s = 0; s < slices; ++s) {
      const float in_min = min_t.flat<float>()[s], in_max = max_t.flat<float>()[s];
      if (in_max < in_min) {
        return absl::InvalidArgumentError("input_max_range must be larger than input_min_range.");
      }
      lo[s] = std::min(0.0f, in_min);
      hi[s] = std::max(0.0f, in_max);
      const float epsilon =
          std::max(1.0f, std::max(std::fabs(lo[s]), std::fabs(hi[s]))) * ensure_minimum_range_;
      hi[s] = std::max(hi[s], lo[s] + epsilon);
    }
    if (mode_ == Mode::kMinFirst && axis_ != -1) {
      return absl::UnimplementedError(
          "MIN_FIRST mode is not implemented for Quantize with axis != -1.");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, input.shape()));
    const SliceLayout layout = LayoutOf(input.shape(), axis_);
    RILL_RETURN_IF_ERROR(VisitQuantizedType(out->dtype(), [&](auto tag) -> absl::Status {
      using Q = typename decltype(tag)::type;
      Quantize<Q>(input.flat<float>().data(), layout, &lo, &hi, out->flat<Q>().data());
      return absl::OkStatus();
    }));
    RILL_ASSIGN_OR_RETURN(Tensor * out_min, ctx.allocate_output(1, min_t.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * out_max, ctx.allocate_output(2, max_t.shape()));
    std::copy(lo.begin(), lo.end(), out_min->flat<float>().begin());
    std::copy(hi.begin(), hi.end(), out_max->flat<float>().begin());
    return absl::OkStatus();
  }

 private:
  // Quantizes `in` into `out`; for SCALED, narrows lo / hi to the range used.
  template <typename Q>
  void Quantize(const float* in, const SliceLayout& layout, std::vector<float>* lo,
                std::vector<float>* hi, Q* out) const {
    const int64_t slices = layout.slices;
    const int64_t n = layout.outer * layout.slices * layout.inner;
    const int64_t packed = n - n % kCastPacket;  // elements CastToQuantized converts in packets
    if (mode_ == Mode::kMinCombined) {
      const float half_range =
          IsSigned<Q>() ? static_cast<float>((Highest<Q>() - Lowest<Q>() + 1) / 2.0) : 0.0f;
      std::vector<float> scale(slices);
      for (int64_t s = 0; s < slices; ++s) {
        scale[s] = static_cast<float>((Highest<Q>() - Lowest<Q>()) /
                                      static_cast<double>((*hi)[s] - (*lo)[s]));
      }
      ForEachElement(layout, [&](int64_t s, int64_t i) {
        const float shifted = (Maxi(Mini(in[i], (*hi)[s]), (*lo)[s]) - (*lo)[s]) * scale[s];
        out[i] = CastToQuantized<Q>(
            IsSigned<Q>() ? RoundAway(shifted - half_range) : shifted + 0.5f, i < packed);
      });
    } else if (mode_ == Mode::kMinFirst) {
      // Per tensor only (checked by Compute).
      const double steps = std::ldexp(1.0, 8 * static_cast<int>(sizeof(typename Q::Storage)));
      const float range = (*hi)[0] - (*lo)[0];
      const float scale = (*hi)[0] == (*lo)[0] ? 0.0f : static_cast<float>((steps - 1.0) / range);
      const float offset = static_cast<float>(Lowest<Q>()) - RoundAway((*lo)[0] * scale);
      const float low = std::max(static_cast<float>(Lowest<Q>()), -2.147483648e9f);
      const float high = std::min(static_cast<float>(Highest<Q>()), 2.147483520e9f);
      ForEachElement(layout, [&](int64_t, int64_t i) {
        const float v = RoundAway(in[i] * scale) + offset;
        out[i] = TruncateToQuantized<Q>(Mini(Maxi(v, low), high));
      });
    } else {
      const float min_out = static_cast<float>(Lowest<Q>() + (narrow_range_ ? 1 : 0));
      const float max_out = static_cast<float>(Highest<Q>());
      std::vector<float> scale(slices);
      for (int64_t s = 0; s < slices; ++s) {
        const float from_min =
            min_out * (*lo)[s] > 0 ? min_out / (*lo)[s] : std::numeric_limits<float>::max();
        const float from_max =
            max_out * (*hi)[s] > 0 ? max_out / (*hi)[s] : std::numeric_limits<float>::max();
        scale[s] = std::min(from_min, from_max);
        (*lo)[s] = min_out / scale[s];
        (*hi)[s] = max_out / scale[s];
      }
      ForEachElement(layout, [&](int64_t s, int64_t i) {
        const float v = Maxi(Mini(in[i], (*hi)[s]), (*lo)[s]) * scale[s];
        out[i] = CastToQuantized<Q>(half_to_even_ ? std::nearbyint(v) : RoundAway(v), i < packed);
      });
    }
  }

  Mode mode_ = Mode::kMinCombined;
  bool half_to_even_ = false, narrow_range_ = false;
  int axis_ = -1;
  float ensure_minimum_range_ = 0.01f;
};

class DequantizeOp final : public OpKernel {
 public:
  explicit DequantizeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    int64_t axis = -1;
    ctx.SetStatus(ctx.GetAttr("mode", &mode_name_));
    ctx.SetStatus(ctx.GetAttr("narrow_range", &narrow_range_));
    ctx.SetStatus(ctx.GetAttr("dtype", &out_dtype_));
    ctx.SetStatus(ctx.GetAttr("axis", &axis));
    absl::StatusOr<Mode> m = ParseMode(mode_name_);
    if (!m.ok()) {
      ctx.SetStatus(m.status());
      return;
    }
    mode_ = *m;
    if (axis < -1 || axis > std::numeric_limits<int32_t>::max()) {
      ctx.SetStatus(
          absl::InvalidArgumentError(absl::StrCat("axis should be at least -1, got ", axis)));
    }
    axis_ = static_cast<int>(axis);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& min_t = ctx.input(1);
    const Tensor& max_t = ctx.input(2);
    const bool to_bfloat16 = out_dtype_ == DT_BFLOAT16;
    if (to_bfloat16 && mode_ != Mode::kMinCombined) {
      return absl::InvalidArgumentError(
          absl::StrCat("When output type is bfloat16, Mode string must be 'MIN_COMBINED', is '",
                       mode_name_, "'"));
    }
    if (axis_ >= input.shape().rank()) {
      return absl::InvalidArgumentError(absl::StrCat("Axis must be less than input dimension(",
                                                     input.shape().rank(), "), got ", axis_));
    }
    const int64_t slices = axis_ == -1 ? 1 : input.shape().dim(axis_);
    for (const auto& [t, name] : {std::pair<const Tensor*, const char*>{&min_t, "input_min_tensor"},
                                  {&max_t, "input_max_tensor"}}) {
      if (t->NumElements() != slices) {
        return absl::InvalidArgumentError(
            absl::StrCat(name, " must have as many elements as input on the dequantization axis (",
                         axis_, "), got ", t->NumElements(), ", expected ", slices));
      }
    }
    if (mode_ == Mode::kMinFirst && axis_ != -1) {
      return absl::UnimplementedError(
          "MIN_FIRST mode is not implemented for Dequantize with axis != -1.");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, input.shape()));
    const SliceLayout layout = LayoutOf(input.shape(), axis_);
    std::vector<float> values(input.NumElements());
    RILL_RETURN_IF_ERROR(VisitQuantizedType(input.dtype(), [&](auto tag) -> absl::Status {
      using Q = typename decltype(tag)::type;
      Dequantize<Q>(input.flat<Q>().data(), layout, min_t.flat<float>().data(),
                    max_t.flat<float>().data(), values.data());
      return absl::OkStatus();
    }));
    if (to_bfloat16) {
      auto o = out->flat<bfloat16>();
      for (size_t i = 0; i < values.size(); ++i) o[i] = bfloat16(values[i]);
    } else {
      std::copy(values.begin(), values.end(), out->flat<float>().begin());
    }
    return absl::OkStatus();
  }

 private:
  template <typename Q>
  void Dequantize(const Q* in, const SliceLayout& layout, const float* lo, const float* hi,
                  float* out) const {
    const int64_t slices = layout.slices;
    std::vector<float> scale(slices), offset(slices, 0.0f);
    if (mode_ == Mode::kMinCombined) {
      const float half_range =
          IsSigned<Q>() ? static_cast<float>((Highest<Q>() - Lowest<Q>() + 1) / 2.0) : 0.0f;
      for (int64_t s = 0; s < slices; ++s) {
        scale[s] = (hi[s] - lo[s]) / static_cast<float>(Highest<Q>() - Lowest<Q>());
      }
      ForEachElement(layout, [&](int64_t s, int64_t i) {
        out[i] = (static_cast<float>(in[i].value) + half_range) * scale[s] + lo[s];
      });
      return;
    }
    if (mode_ == Mode::kMinFirst) {
      const double steps = std::ldexp(1.0, 8 * static_cast<int>(sizeof(typename Q::Storage)));
      scale[0] = static_cast<float>(static_cast<double>(hi[0] - lo[0]) / (steps - 1.0));
      const float min_rounded = hi[0] == lo[0] ? lo[0] : RoundAway(lo[0] / scale[0]) * scale[0];
      offset[0] = min_rounded - static_cast<float>(Lowest<Q>()) * scale[0];
    } else {
      const float min_out = static_cast<float>(Lowest<Q>() + (narrow_range_ ? 1 : 0));
      const float max_out = static_cast<float>(Highest<Q>());
      for (int64_t s = 0; s < slices; ++s) {
        scale[s] = IsSigned<Q>() ? std::max(lo[s] / min_out, hi[s] / max_out) : hi[s] / max_out;
      }
    }
    // TensorFlow's SCALED qint32 path takes a value that rounds to 2^31 in float as -2^31
    // (2147483647 dequantizes to min_range's side); the others convert exactly.
    const bool wraps = mode_ == Mode::kScaled && sizeof(typename Q::Storage) == 4;
    ForEachElement(layout, [&](int64_t s, int64_t i) {
      float q = static_cast<float>(in[i].value);
      if (wraps && q >= 2147483648.0f) q = -2147483648.0f;
      out[i] = q * scale[s] + offset[s];
    });
  }

  std::string mode_name_ = "MIN_COMBINED";
  DataType out_dtype_ = DT_FLOAT;
  Mode mode_ = Mode::kMinCombined;
  bool narrow_range_ = false;
  int axis_ = -1;
};

REGISTER_KERNEL(
    KernelDefBuilder("QuantizeV2").Device(kDeviceCpu).TypeConstraint("T", QuantizedTypes()),
    QuantizeV2Op);
REGISTER_KERNEL(KernelDefBuilder("Dequantize")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", QuantizedTypes())
                    .TypeConstraint("dtype", {DT_FLOAT, DT_BFLOAT16}),
                DequantizeOp);

}  // namespace
}  // namespace rill
