// Swish (SiLU) applied in place, x -> x * sigmoid(x) = x / (1 + e^-x), over a float buffer: the
// activation of a convolution that the optimizer fused with swish (_FusedConv2D,
// _FusedDepthwiseConv2dNative with ["BiasAdd", "_MklSwish"]).
//
// Why a separate pass: oneDNN 2.6's swish post-op costs about twice as much per element inside its
// convolution kernels as this loop over the convolution's output costs after it (AVX-512; see
// docs/performance.md, Depthwise-separable and squeeze-excitation models), so OneDnnConv2D runs the
// convolution with its bias only and then this pass, where SwishInPlaceVectorized() says the fast
// loop is available.
//
//   if (SwishInPlaceVectorized()) SwishInPlace(threads, output, n);
//
// Accuracy and special values: swish_avx512.h (the baseline path, without AVX-512, computes the
// same formula with vector_math::ExpF).
// Thread-safe; `threads` > 1 splits large buffers over an OpenMP team (core/openmp_parallel_for.h).
#ifndef RILL_KERNELS_MATH_LIB_SWISH_INPLACE_H_
#define RILL_KERNELS_MATH_LIB_SWISH_INPLACE_H_

#include <cstdint>

namespace rill {

// True where SwishInPlace runs its AVX-512 loop (simd_dispatch.h's ActiveSimdLevel is AVX-512).
bool SwishInPlaceVectorized();

// data[i] = data[i] / (1 + e^-data[i]) for i in [0, n), on up to `threads` threads.
void SwishInPlace(int threads, float* data, int64_t n);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_SWISH_INPLACE_H_
