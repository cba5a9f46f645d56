// Float NHWC Conv2D and DepthwiseConv2dNative (and NDHWC Conv3D) forward on oneDNN (Debian's
// libdnnl 2.6, OpenMP runtime), optionally with a bias and Relu / Relu6 / swish applied inside the
// convolution (the optimizer's _FusedConv2D and _FusedDepthwiseConv2dNative; swish runs as a pass
// over the output right after it where that is faster, kernels/math_lib/swish_inplace.h). Those
// four kernels and Conv3D use it for float (depthwise as a grouped convolution); their other dtypes
// keep their own paths (im2col + Gemm, kernels/math_lib/gemm.h; a direct loop for depthwise), and
// the backprops do not use it. A convolution with few output pixels and a large constant filter
// (at most 56 pixels, 1 MiB of weights; ResNet50's last stage at batch 1) runs as one streaming
// pass over the filter instead of oneDNN's primitive where the CPU has AVX-512
// (kernels/math_lib/small_map_conv.h).
//
// Why: oneDNN's direct convolution (brgconv kernels on AVX-512) works on the input directly, where
// im2col first copies every window into a column buffer for the GEMM, and it is the faster of
// the two (docs/performance.md has the current Conv2D figures). Matrix products do not come
// here: they run on Gemm (oneDNN's sgemm for large float blocks, OpenBLAS for the rest) or, for
// float MatMuls with constant weights, on oneDNN's matmul primitive
// (kernels/math_lib/onednn_matmul.h).
//
//   OneDnnConvShape s = ...;  // geometry in TensorFlow's terms
//   RILL_RETURN_IF_ERROR(OneDnnConv2D(s, threads, input, filter_hwio, bias_or_null, output));
//
// Primitives are built once per shape (a process-wide cache, bounded) and reused; the filter is
// reordered into oneDNN's blocked layout once when it is a Const (see `packed` below), else on
// every call (always current when a variable feeds it). Errors: Internal with
// oneDNN's message when it rejects a shape ("oneDNN convolution failed for ...: ...").
// Thread-safe: concurrent calls share the cache under a mutex and run on their own OpenMP teams
// of `threads` threads (the calling thread and threads-1 OpenMP workers), each with its own
// scratchpad.
#ifndef RILL_KERNELS_MATH_LIB_ONEDNN_CONV_H_
#define RILL_KERNELS_MATH_LIB_ONEDNN_CONV_H_

#include <cstdint>

#include "absl/status/status.h"
#include "core/tensor.h"
#include "kernels/math_lib/conv_window.h"
#include "kernels/math_lib/fused_epilogue.h"
#include "kernels/math_lib/onednn_common.h"

namespace rill {

struct OneDnnConvShape {
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t k_h = 0, k_w = 0, out_c = 0;
  int64_t out_h = 0, out_w = 0;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t pad_top = 0, pad_left = 0;  // padding before; the padding after follows from out_h/w
  bool has_bias = false;
  FusedActivation activation = FusedActivation::kNone;
  // The output holds an addend on entry: the result is act((conv + bias) + addend), oneDNN's sum
  // post-op before the activation (a residual sum, _FusedConv2D's "Add"); the activation must
  // then be kNone, kRelu or kRelu6.
  bool sum = false;
  // 1: a plain convolution, filter HWIO [k_h, k_w, in_c, out_c]. G > 1: a grouped convolution
  // (Conv2D with in_c a multiple G of the filter's input depth), filter [k_h, k_w, in_c / G,
  // out_c]; output channel co sees the input channels of group co / (out_c / G). in_c: a depthwise
  // convolution (DepthwiseConv2dNative), filter [k_h, k_w, in_c, out_c / in_c], which is the
  // grouped layout with one input channel per group; output channel c * M + m is input channel c
  // under multiplier m, as in TensorFlow.
  int64_t groups = 1;
  // 3: a 3-D convolution (Conv3D): input NDHWC [batch, in_d, in_h, in_w, in_c], filter DHWIO
  // [k_d, k_h, k_w, in_c, out_c], output NDHWC; groups must be 1.
  int spatial_dims = 2;
  int64_t in_d = 1, k_d = 1, out_d = 1, stride_d = 1, dil_d = 1, pad_front = 0;
};

// The shape of a convolution of an NHWC input [batch, in_h, in_w, in_c] with a k_h x k_w filter
// into out_c channels over `windows` (kernels/math_lib/conv_window.h); groups as above.
OneDnnConvShape MakeOneDnnConvShape(const ConvWindows& windows, int64_t batch, int64_t in_h,
                                    int64_t in_w, int64_t in_c, int64_t k_h, int64_t k_w,
                                    int64_t out_c, int64_t groups, bool has_bias,
                                    FusedActivation activation);

// Convolutions of fewer multiply-adds than these run on one thread whatever `threads` says:
// opening a team wakes its worker, which under OMP_WAIT_POLICY=PASSIVE (session_runner's choice
// on a busy machine) takes 40-50 us on average, more than splitting such a convolution saves.
// Grouped (depthwise) convolutions do about a quarter of the multiply-adds per cycle, so their
// line is a quarter of the dense one's (docs/performance.md, "Small convolutions on two
// threads"). The dense line is the matrix products' (kOneDnnMatMulSplitMacs).
inline constexpr int64_t kOneDnnConvSplitMacs = int64_t{1} << 22;
inline constexpr int64_t kOneDnnGroupedConvSplitMacs = int64_t{1} << 20;

// batch * output pixels * out_c * window * in_c / groups.
int64_t OneDnnConvMacs(const OneDnnConvShape& shape);

// The team OneDnnConv2D runs `shape` on when given `threads`: 1 below the line for its kind
// (dense_min, or grouped_min when shape.groups > 1), else max(threads, 1).
int OneDnnConvThreads(const OneDnnConvShape& shape, int threads,
                      int64_t dense_min = kOneDnnConvSplitMacs,
                      int64_t grouped_min = kOneDnnGroupedConvSplitMacs);

// Test-only: the lines OneDnnConv2D uses from now on (0, 0: every convolution on `threads`), so
// that tests can run small shapes on a team.
void SetOneDnnConvSplitMacsForTesting(int64_t dense_min, int64_t grouped_min);

// out[n,oh,ow,co] = act(bias[co] + sum in[...] * filter[kh,kw,ci,co]) (with shape.sum, act of
// that sum before act plus out's value on entry); `bias` is read only when shape.has_bias. Runs
// on OneDnnConvThreads(shape, threads) threads (a SmallMapConv2D pass, which streams the filter,
// on `threads`). All
// buffers are dense: input NHWC, filter HWIO, output NHWC (NDHWC, DHWIO, NDHWC when
// shape.spatial_dims is 3). With `packed` (a kernel whose filter the optimizer found constant) the
// filter is reordered once and kept there; without, it is reordered on every call (it may have
// changed).
//
// `step_id` is the calling kernel's OpKernelContext::step_id: an input kept in the same step as a
// Relu6 output (RecordOneDnnConvBound) needs no scan for this call's Relu / Relu6; 0 or less
// (callers outside a Session's Run) never finds one.
absl::Status OneDnnConv2D(const OneDnnConvShape& shape, int threads, const float* input,
                          const float* filter, const float* bias, float* output,
                          OneDnnPackedWeights* packed = nullptr, int64_t step_id = -1);

// Called by a kernel right after its OneDnnConv2D call succeeded, with the tensor whose data it
// passed as `output`: when that call ran Relu6 inside the primitive (every output in [0, 6], no
// NaN), keeps the tensor for the convolutions that read it (kernels/math_lib/bounded_outputs.h),
// which then need no scan of their input to run their own Relu / Relu6 inside theirs.
void RecordOneDnnConvBound(const Tensor& output, int64_t step_id);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_ONEDNN_CONV_H_
