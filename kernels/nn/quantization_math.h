// The arithmetic TensorFlow's eight-bit kernels use to move between quantized integers and the
// floats they stand for, step for step (double where TensorFlow computes in double, float where it
// evaluates its Eigen expressions in float), so Rill's QuantizedConv2D, QuantizedMatMul,
// QuantizedBiasAdd and QuantizedConcat give TensorFlow 2.21's integers bit for bit. A quantized
// type of B bits maps [range_min, range_max] onto its 2^B codes, lowest code at range_min.
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_NN_QUANTIZATION_MATH_H_
#define RILL_KERNELS_NN_QUANTIZATION_MATH_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace rill {
namespace quantization {

template <typename Int>
constexpr int64_t Lowest() {
  return std::numeric_limits<Int>::min();
}
template <typename Int>
constexpr int64_t Highest() {
  return std::numeric_limits<Int>::max();
}

// The code of `v` without clamping (TensorFlow's FloatToQuantizedUnclamped): in double,
// halves rounded away from zero; the lowest code for an empty range.
template <typename Int>
int64_t FloatToCodeUnclamped(float v, float range_min, float range_max) {
  if (range_min == range_max) return Lowest<Int>();
  const int64_t steps = int64_t{1} << (sizeof(Int) * 8);
  const double range_adjust = steps / (steps - 1.0);
  const double range = (range_max - range_min) * range_adjust;
  const double range_scale = steps / range;
  return static_cast<int64_t>(std::round(v * range_scale) - std::round(range_min * range_scale)) +
         Lowest<Int>();
}

// FloatToCodeUnclamped clamped to the type (TensorFlow's FloatToQuantized).
template <typename Int>
int64_t FloatToCode(float v, float range_min, float range_max) {
  return std::clamp(FloatToCodeUnclamped<Int>(v, range_min, range_max), Lowest<Int>(),
                    Highest<Int>());
}

// The float one code step stands for (TensorFlow's FloatForOneQuantizedLevel), in float.
template <typename Int>
float FloatPerCode(float range_min, float range_max) {
  return (range_max - range_min) / static_cast<float>(Highest<Int>() - Lowest<Int>());
}

// The range of a product's accumulator type C when A codes times B codes are summed without
// scaling (TensorFlow's QuantizationRangeForMultiplication).
template <typename A, typename B, typename C>
void ProductRange(float min_a, float max_a, float min_b, float max_b, float* min_c, float* max_c) {
  const float step = FloatPerCode<A>(min_a, max_a) * FloatPerCode<B>(min_b, max_b);
  *min_c = step * static_cast<float>(Lowest<C>());
  *max_c = step * static_cast<float>(Highest<C>());
}

// Codes to floats as TensorFlow's DEQUANTIZE_WITH_EIGEN evaluates them, in float:
// (min_rounded - lowest * scale) + code * scale.
template <typename Int>
class CodeToFloat {
 public:
  CodeToFloat(float range_min, float range_max)
      : scale_(static_cast<float>((range_max - range_min) /
                                  ((int64_t{1} << (sizeof(Int) * 8)) - 1.0))) {
    const float min_rounded =
        range_max == range_min ? range_min : std::round(range_min / scale_) * scale_;
    base_ = min_rounded - static_cast<float>(Lowest<Int>()) * scale_;
  }
  float operator()(int64_t code) const { return base_ + static_cast<float>(code) * scale_; }

 private:
  float scale_;
  float base_;
};

// Floats to codes as TensorFlow's QUANTIZE_WITH_EIGEN evaluates them, in float: round(x * scale)
// - (round(min * scale) - lowest), clamped to the type (for 32 bits to the floats nearest its ends
// that convert back to int32).
template <typename Int>
class FloatToCodeFast {
 public:
  FloatToCodeFast(float range_min, float range_max)
      : scale_(range_max == range_min
                   ? 0.0f
                   : static_cast<float>(((int64_t{1} << (sizeof(Int) * 8)) - 1.0) /
                                        (range_max - range_min))),
        min_scaled_(std::round(range_min * scale_)) {}
  Int operator()(float x) const {
    constexpr float kLow = std::max(static_cast<float>(Lowest<Int>()), -2.147483648e+09f);
    constexpr float kHigh = std::min(static_cast<float>(Highest<Int>()), +2.147483520e+09f);
    float q = std::round(x * scale_) - (min_scaled_ - static_cast<float>(Lowest<Int>()));
    q = std::min(std::max(q, kLow), kHigh);
    return static_cast<Int>(static_cast<int32_t>(q));
  }

 private:
  float scale_;
  float min_scaled_;
};

}  // namespace quantization
}  // namespace rill

#endif  // RILL_KERNELS_NN_QUANTIZATION_MATH_H_
