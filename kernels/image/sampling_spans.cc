#include "kernels/image/sampling_spans.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rill {
namespace sampling {

float SamplingKernel::operator()(float x) const {
  x = std::abs(x);
  switch (kind) {
    case Kernel::kLanczos: {
      constexpr float kPi = 3.14159265359f;
      if (x > radius) return 0.0f;
      if (x <= 1e-3f) return 1.0f;
      return radius * std::sin(kPi * x) * std::sin(kPi * x / radius) / (kPi * kPi * x * x);
    }
    case Kernel::kGaussian: {
      const float sigma = radius / 3.0f;
      if (x >= radius) return 0.0f;
      return static_cast<float>(std::exp(-x * x / (2.0 * sigma * sigma)));
    }
    case Kernel::kBox:
      return x < 0.5f ? 1.0f : x == 0.5f ? 0.5f : 0.0f;
    case Kernel::kTriangle:
      return x < 1.0f ? 1.0f - x : 0.0f;
    case Kernel::kKeysCubic:
      if (x >= 2.0f) return 0.0f;
      if (x >= 1.0f) return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
      return ((1.5f * x - 2.5f) * x) * x + 1.0f;
    case Kernel::kMitchellCubic:
      if (x >= 2.0f) return 0.0f;
      if (x >= 1.0f) {
        return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x + 16.0f / 9.0f;
      }
      return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
  }
  return 0.0f;
}

bool KernelFromName(const std::string& name, SamplingKernel* k) {
  if (name == "lanczos1" || name == "lanczos3" || name == "lanczos5") {
    *k = {Kernel::kLanczos, static_cast<float>(name.back() - '0')};
  } else if (name == "gaussian") {
    *k = {Kernel::kGaussian, 1.5f};
  } else if (name == "box") {
    *k = {Kernel::kBox, 1.0f};
  } else if (name == "triangle") {
    *k = {Kernel::kTriangle, 1.0f};
  } else if (name == "keyscubic") {
    *k = {Kernel::kKeysCubic, 2.0f};
  } else if (name == "mitchellcubic") {
    *k = {Kernel::kMitchellCubic, 2.0f};
  } else {
    return false;
  }
  return true;
}

Spans ComputeSpans(const SamplingKernel& kernel, int64_t out_size, int64_t in_size, float scale,
                   float translate, bool antialias) {
  const float inv_scale = static_cast<float>(1.0 / scale);
  const float inv_translate = -inv_scale * translate;
  const float kernel_scale = antialias ? std::max(inv_scale, 1.0f) : 1.0f;
  const float reach = kernel.radius * kernel_scale;
  Spans spans;
  const double span = 2.0 * std::ceil(static_cast<double>(reach)) + 1.0;
  spans.span_size = std::min<int64_t>(
      span > static_cast<double>(in_size) ? in_size : static_cast<int64_t>(span), in_size);
  spans.starts.assign(out_size, 0);
  spans.weights.assign(out_size * spans.span_size, 0.0f);
  const float one_over_kernel_scale = 1.0f / kernel_scale;
  std::vector<float> temp;
  for (int64_t x = 0; x < out_size; ++x) {
    const float sample = (static_cast<float>(x) + 0.5f) * inv_scale + inv_translate;
    if (!(sample >= 0 && sample <= static_cast<float>(in_size))) continue;  // empty span
    const double lo = std::ceil(static_cast<double>(sample - reach - 0.5f));
    const double hi = std::floor(static_cast<double>(sample + reach - 0.5f));
    const int64_t start = static_cast<int64_t>(std::clamp(lo, 0.0, double(in_size - 1)));
    const int64_t end = static_cast<int64_t>(std::clamp(hi, 0.0, double(in_size - 1))) + 1;
    const int64_t n = std::min(end - start, spans.span_size);
    float total = 0.0f;
    temp.clear();
    for (int64_t i = start; i < start + n; ++i) {
      const float pos = static_cast<float>(i) + 0.5f - sample;
      const float w = kernel(std::abs(pos * one_over_kernel_scale));
      total += w;
      temp.push_back(w);
    }
    if (std::abs(total) >= 1000.0f * std::numeric_limits<float>::min()) {
      const float inv = 1.0f / total;
      for (int64_t k = 0; k < n; ++k) spans.weights[x * spans.span_size + k] = temp[k] * inv;
    }
    spans.starts[x] = start;
  }
  return spans;
}

}  // namespace sampling
}  // namespace rill
