// The CUDA kernels of Rill's GPU convolution, pooling and batch-norm ops (kernels/gpu/nn_ops.cu),
// as plain launch functions so that the OpKernel classes need no CUDA headers. Every launcher
// enqueues on `stream` (the device's compute stream) and returns at once; the caller checks the
// launch with GpuDevice::LaunchStatus. Pointers are device memory of the stream's GPU; tensors are
// float (the convolution helpers also 16-bit), NHWC. Thread-safe (launches on one stream are
// ordered by the stream).
#ifndef RILL_KERNELS_GPU_NN_LAUNCHERS_H_
#define RILL_KERNELS_GPU_NN_LAUNCHERS_H_

#include <cstdint>

namespace rill {
namespace gpu_kernels {

// out[c * rows + r] = in[r * cols + c]: a [rows, cols] matrix of `element_bytes`-byte elements (2
// or 4) transposed. A Conv2D filter HWIO viewed as [H*W*I, O] becomes cuDNN's OHWI; a depthwise
// filter [H, W, C, M] viewed as [H*W, C*M] becomes [C*M, H, W, 1].
void LaunchTransposeMatrix(const void* in, void* out, int64_t rows, int64_t cols, int element_bytes,
                           void* stream);

// NHWC zero padding: out is [batch, out_h, out_w, depth] with
// out[n, h + top, w + left, c] = in[n, h, w, c] and zeros elsewhere (in is [batch, in_h, in_w,
// depth]; top + in_h <= out_h, left + in_w <= out_w); elements of `element_bytes` bytes (2 or 4).
void LaunchPadNhwc(const void* in, void* out, int64_t batch, int64_t in_h, int64_t in_w,
                   int64_t depth, int64_t top, int64_t left, int64_t out_h, int64_t out_w,
                   int element_bytes, void* stream);

// A spatial NHWC pooling: output pixel (oh, ow) covers input rows oh * stride_h - pad_h ..
// + k_h - 1 and the columns likewise, clipped to the input.
struct PoolDims {
  int64_t batch = 0, in_h = 0, in_w = 0, depth = 0;
  int64_t k_h = 1, k_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  int64_t out_h = 0, out_w = 0;
};
// Max of the window's in-bounds elements, NaNs skipped (TensorFlow's CPU semantics); the
// float's lowest value for a window wholly in the padding.
void LaunchMaxPool(const float* in, float* out, const PoolDims& dims, void* stream);
// Mean of the window's in-bounds elements (divided by their count).
void LaunchAvgPool(const float* in, float* out, const PoolDims& dims, void* stream);
// Max over depth windows of `k_d` channels: out[p, c] = max of in[p, c * k_d .. c * k_d + k_d -
// 1], `pixels` rows of `depth` input channels.
void LaunchDepthMaxPool(const float* in, float* out, int64_t pixels, int64_t depth, int64_t k_d,
                        void* stream);

// DepthwiseConv2dNative over NHWC x [batch, in_h, in_w, in_c] and an [k_h, k_w, in_c, mult]
// filter into y [batch, out_h, out_w, in_c * mult]: output channel c * mult + m sums x[..., c] *
// filter[..., c, m] over the window (zero outside the input), in float32; with `bias` (float
// only) the fused form's bias and activation (LaunchBiasActivation's codes) follow in the same
// pass. One thread per output element, so consecutive threads read consecutive channels.
struct DepthwiseDims {
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0, mult = 1;
  int64_t k_h = 1, k_w = 1, stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t pad_h = 0, pad_w = 0, out_h = 0, out_w = 0;
};
void LaunchDepthwiseConv(const void* x, const void* filter, const float* bias, int activation,
                         void* y, const DepthwiseDims& dims, bool half, void* stream);

// The fused epilogue of _FusedConv2D, _FusedDepthwiseConv2dNative and _FusedMatMul, in place:
// y[i] = act(y[i] + bias[i % channels]), act in FusedActivation's order
// (kernels/math_lib/fused_epilogue.h): 0 none, 1 Relu, 2 Relu6, 3 x * sigmoid(x), 4 hard swish.
void LaunchBiasActivation(float* y, const float* bias, int64_t n, int64_t channels, int activation,
                          void* stream);

// x viewed as [outer, channels, inner] (inner 1 for channels-last formats).
struct NormDims {
  int64_t outer = 0, channels = 0, inner = 0;
};
// Per-channel mean and biased variance of x (accumulated in double, two passes as the CPU
// kernel): one block per channel.
void LaunchBatchMoments(const float* x, float* mean, float* variance, const NormDims& dims,
                        void* stream);
// Per channel: factor = scale / sqrt(v + epsilon) (into `factor`, `channels` floats), and the
// outputs of FusedBatchNorm: training (`training`): batch_mean = (1 - f) * old_mean + f * m and
// batch_var = (1 - f) * old_var + f * v * n / (n - 1) (old_* unused when f is 1); inference:
// batch_mean = m, batch_var = v. reserve_1 = m, reserve_2 = v.
void LaunchBatchNormFinish(const float* m, const float* v, const float* scale,
                           const float* old_mean, const float* old_var, float epsilon,
                           float avg_factor, bool training, int64_t per_channel, int64_t channels,
                           float* factor, float* batch_mean, float* batch_var, float* reserve_1,
                           float* reserve_2, void* stream);
// y = (x - m[c]) * factor[c] + offset[c].
void LaunchBatchNormApply(const float* x, const float* m, const float* factor, const float* offset,
                          float* y, const NormDims& dims, void* stream);

}  // namespace gpu_kernels
}  // namespace rill

#endif  // RILL_KERNELS_GPU_NN_LAUNCHERS_H_
