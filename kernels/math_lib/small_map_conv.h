// Float convolutions with few output pixels and a large constant filter, as one pass over the
// filter: the last stages of CNNs at batch 1 (ResNet50's 512-channel 3x3 and its 2048-channel
// 1x1 convolutions on a 5x5 map at 160x160, InceptionV3's 3x3-map convolutions). OneDnnConv2D
// (kernels/math_lib/onednn_conv.h) sends them here when SmallMapConvApplies holds and the filter
// is a packed constant.
//
// Why: such a convolution does a few multiply-adds per weight (one per output pixel), so its time
// is reading the filter (a 512 -> 512 3x3 filter is 9.4 MB, more than the L2). oneDNN 2.6's
// brgconv kernels on NHWC walk the output row by row and read the filter once per row, from the
// L3 or memory each time: 60-90 GFLOP/s on these shapes, where this pass reads each weight once
// and streams it (docs/performance.md, "Convolutions with few output pixels").
//
// How: the windows of all output pixels are copied into a row-major [pixels, k_h * k_w * in_c]
// matrix (im2col; a 1x1 stride-1 input whose rows do not alias in the L1 is read in place),
// leaving out the taps through which every window reads padding (a 3x3 SAME filter on a 1x1
// map, ResNet's last stage at 32x32, reads 1 of its 9 taps' weights, as ONNX Runtime's NCHWc
// convolution does; an inf or NaN weight of such a tap so does not reach the output, as in
// oneDNN's convolution and TensorFlow 2.21's default oneDNN build, where TensorFlow's Eigen
// kernels give NaN); each
// group of 16 output channels (the filter packed by oneDNN in its Ohwi16o layout, [out_c / 16]
// [k_h][k_w][in_c][16], zeros past out_c) is one AVX-512 register per output pixel, accumulated
// over the window in order with fused multiply-adds, the filter prefetched ahead; up to 28 pixels
// at a time, and a second block of pixels reads the group's filter again from the L2. Groups of
// channels are split over the intra-op threads. Thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_SMALL_MAP_CONV_H_
#define RILL_KERNELS_MATH_LIB_SMALL_MAP_CONV_H_

#include <cstdint>

namespace rill {

// A 2-D convolution's geometry in TensorFlow's terms (NHWC input, HWIO filter, one group).
struct SmallMapConvGeometry {
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t k_h = 0, k_w = 0, out_c = 0, out_h = 0, out_w = 0;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t pad_top = 0, pad_left = 0;
};

// Output pixels (batch * out_h * out_w) summed together, one accumulator register each: up to
// this many, the filter is read from memory once.
inline constexpr int64_t kSmallMapBlockPixels = 28;
// At most this many output pixels on any map: two blocks, the second reading each group's filter
// from the L2 (a 7x7 map, ResNet50's last stage at 224x224). Past it, oneDNN's kernels are faster
// on maps of 7 or more columns.
inline constexpr int64_t kSmallMapMaxPixels = 2 * kSmallMapBlockPixels;
// Maps of at most kSmallMapNarrowWidth output columns take up to this many pixels (four blocks):
// oneDNN reads the filter once per output row, so a batch of narrow maps (an atrous convolution
// run as SpaceToBatchND -> Conv2D VALID -> BatchToSpaceND, DeepLab's and tf-slim's output stride
// 8: 512 -> 512 3x3 on 16 maps of 2x2) reads it 32 times where this pass reads it once from
// memory and three times from the L2 (docs/performance.md, "Speed sweep over the model sweep").
// Dilated convolutions take as many: the graph optimizer folds that atrous pattern into one
// convolution with dilation (session/atrous_fold.h), which on DeepLab's and tf-slim's 8x8 maps
// has 64 output pixels of 8 columns, the same pixels and filter.
inline constexpr int64_t kSmallMapNarrowMaxPixels = 4 * kSmallMapBlockPixels;
inline constexpr int64_t kSmallMapNarrowWidth = 4;
// At least this many weights (1 MiB of floats): below it the filter stays in the L2 and oneDNN's
// kernels are as fast.
inline constexpr int64_t kSmallMapMinWeights = int64_t{1} << 18;

// Whether SmallMapConv2D runs `g` on this CPU: AVX-512, at most kSmallMapMaxPixels output pixels
// (kSmallMapNarrowMaxPixels when out_w <= kSmallMapNarrowWidth or a dilation is above 1), at least
// kSmallMapMinWeights weights.
bool SmallMapConvApplies(const SmallMapConvGeometry& g);

// The number of floats SmallMapConv2D reads from `packed_filter`: ceil(out_c / 16) * 16 * k_h *
// k_w * in_c.
int64_t SmallMapPackedFilterSize(const SmallMapConvGeometry& g);

// output[n, oh, ow, co] = (sum over the window of input * filter + bias[co]), plus the output's
// value on entry when `add_to_output` (a residual sum, added last). `bias` may be null (no bias).
// input NHWC [batch, in_h, in_w, in_c]; packed_filter as above; output NHWC. REQUIRES:
// SmallMapConvApplies(g). Runs on up to `threads` threads (an OpenMP team, the caller included).
//
// `skip_zero_taps` (the caller knows every weight is finite): a pixel's taps whose in_c inputs
// are all zero (SpaceToBatchND's padding around the maps of an atrous convolution) are left out
// of its sums, which does not change them (a sum starting at +0 is never -0, and x + 0 is x);
// pixels are grouped by the taps they read, so a block of them reads only those taps' rows,
// when every group has at least 8 pixels (else each pixel reads every tap some pixel reads).
void SmallMapConv2D(const SmallMapConvGeometry& g, int threads, const float* input,
                    const float* packed_filter, const float* bias, bool add_to_output,
                    float* output, bool skip_zero_taps = false);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_SMALL_MAP_CONV_H_
