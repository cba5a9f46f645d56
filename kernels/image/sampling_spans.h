// The sampling of ScaleAndTranslate (kernels/image/scale_and_translate_op.cc) and of its gradient
// (kernels/nn/scale_and_translate_grad_op.cc): the kernels by name and, along one dimension, each
// output index's span of input indices with normalized weights. See the forward op's file comment
// for the formulas. Pure functions; thread-safe.
#ifndef RILL_KERNELS_IMAGE_SAMPLING_SPANS_H_
#define RILL_KERNELS_IMAGE_SAMPLING_SPANS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace rill {
namespace sampling {

enum class Kernel { kLanczos, kGaussian, kBox, kTriangle, kKeysCubic, kMitchellCubic };

// A kernel and its radius in input pixels (before antialias widening).
struct SamplingKernel {
  Kernel kind = Kernel::kLanczos;
  float radius = 3.0f;
  float operator()(float x) const;
};

// lanczos1/3/5, gaussian, box, triangle, keyscubic, mitchellcubic; false for another name.
bool KernelFromName(const std::string& name, SamplingKernel* k);

// Per output index: the first input index and span_size weights (zero past the real span).
struct Spans {
  int64_t span_size = 0;
  std::vector<int64_t> starts;
  std::vector<float> weights;
};

Spans ComputeSpans(const SamplingKernel& kernel, int64_t out_size, int64_t in_size, float scale,
                   float translate, bool antialias);

}  // namespace sampling
}  // namespace rill

#endif  // RILL_KERNELS_IMAGE_SAMPLING_SPANS_H_
