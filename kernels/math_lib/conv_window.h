// The attrs every 2-D window kernel reads (Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput,
// MaxPool, AvgPool), parsed and checked once at construction; the window geometry itself is
// ops/window_geometry.h (shared with the shape functions).
//
//   RILL_ASSIGN_OR_RETURN(Conv2DAttrs attrs, ParseConv2DAttrs(ctx, /*has_dilations=*/true));
//
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_CONV_WINDOW_H_
#define RILL_KERNELS_MATH_LIB_CONV_WINDOW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kernels/framework/error_nodes.h"
#include "kernels/framework/op_kernel.h"
#include "ops/window_geometry.h"

namespace rill {

// The attrs of a 2-D convolution or pooling node, read and checked once at construction.
// Per-dim values are in data_format order, as the node gives them.
struct Conv2DAttrs {
  std::vector<int64_t> strides;    // 4 values
  std::vector<int64_t> dilations;  // 4 values (all 1 when the op has none)
  Padding padding = Padding::kValid;
  std::vector<int64_t> explicit_paddings;  // 8 values (before, after per dim) or empty
  bool nchw = false;                       // data_format NCHW
  // A convolution the graph optimizer folded from SpaceToBatchND -> convolution ->
  // BatchToSpaceND (session/atrous_fold.h) carries SpaceToBatchND's block [b_h, b_w] and paddings
  // [p_t, p_b, p_l, p_r] and BatchToSpaceND's crops [c_t, c_b, c_l, c_r] (attrs
  // _rill_space_to_batch_block, _rill_space_to_batch_paddings, _rill_batch_to_space_crops): the
  // geometry refuses the inputs the unfolded graph refused, with its errors. Empty otherwise.
  std::vector<int64_t> space_to_batch_block;
  std::vector<int64_t> space_to_batch_paddings;
  std::vector<int64_t> batch_to_space_crops;
  // The unfolded graph's SpaceToBatchND, convolution and BatchToSpaceND, which the errors above
  // name (attr _rill_error_nodes; kernels/framework/error_nodes.h).
  ErrorNodes atrous_nodes;

  int h_dim() const { return nchw ? 2 : 1; }
  int w_dim() const { return nchw ? 3 : 2; }
  // The window along spatial dim `dim` (h_dim() or w_dim()) for an input of size `in` and a filter
  // of size `filter` (Errors: as ComputeWindow).
  absl::StatusOr<Window> WindowAlong(int dim, int64_t in, int64_t filter) const {
    const bool explicit_pads = padding == Padding::kExplicit;
    return ComputeWindow(in, filter, strides[dim], dilations[dim], padding,
                         explicit_pads ? explicit_paddings[2 * dim] : 0,
                         explicit_pads ? explicit_paddings[2 * dim + 1] : 0);
  }
};

// The spatial windows of a 2-D NHWC convolution: output size, padding before the first window,
// strides and dilations along height and width.
struct ConvWindows {
  int64_t out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
};

// The geometry of one NHWC convolution with an HWIO filter.
struct ConvGeometry : ConvWindows {
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t k_h = 0, k_w = 0, out_c = 0;
  int64_t groups = 1;  // in_c / the filter's input depth (1: a plain convolution)

  int64_t patch() const { return k_h * k_w * in_c; }
  int64_t pixels() const { return batch * out_h * out_w; }
  bool IsPointwise() const {
    return k_h == 1 && k_w == 1 && stride_h == 1 && stride_w == 1 && pad_h == 0 && pad_w == 0;
  }
};

// Whether every stride and dilation is at most the input's extent: what oneDNN is given. Past
// that (a window whose taps cannot both touch the input) oneDNN builds its kernel for the whole
// dilated window (a dilation of 1e9 never finished), so the kernels run their own loops, which
// cost one pass over the output.
inline bool StridesAndDilationsWithinInput(const ConvWindows& w, int64_t in_h, int64_t in_w) {
  return w.stride_h <= in_h && w.stride_w <= in_w && w.dil_h <= in_h && w.dil_w <= in_w;
}

// The windows of an NHWC input of in_h x in_w under a k_h x k_w filter (errors: ComputeWindow's).
// REQUIRES: !attrs.nchw.
absl::StatusOr<ConvWindows> NhwcWindows(const Conv2DAttrs& attrs, int64_t in_h, int64_t in_w,
                                        int64_t k_h, int64_t k_w);

// The geometry of a convolution of an NHWC input of `in_shape` (rank 4) by an HWIO `filter` (rank
// 4): Conv2D and its backprops on every device. Grouped filters (input depth a multiple of the
// filter's) are for the forward kernels (`grouped`); groups is 0 for an empty input depth (the
// output is zeros). InvalidArgument with TensorFlow's texts: "filter depth must be stricly
// positive, got 0", "input depth must be evenly divisible by filter depth: 3 vs 2", "output depth
// must be evenly divisible by number of groups: 4 vs 3", (not `grouped`) "Gradients for grouped
// convolutions are not supported on CPU. ...", and NhwcWindows' errors. A folded atrous
// convolution (attrs.space_to_batch_block set) gives the unfolded graph's errors instead of its
// own window's: SpaceToBatchND's "padded_shape[0]=5 is not divisible by block_shape[0]=2", the
// unfolded VALID convolution's "Computed output size would be negative: -1 [input_size: 1,
// effective_filter_size: 3, stride: 1]" and BatchToSpaceND's "cropped_shape[0]=-1 must be
// non-negative", each naming its node of the unfolded graph (attrs.atrous_nodes) when listed.
absl::StatusOr<ConvGeometry> NhwcConvGeometry(const Conv2DAttrs& attrs, const TensorShape& in_shape,
                                              const TensorShape& filter, bool grouped);

// The geometry of DepthwiseConv2dNative of an NHWC input by a [H, W, C, M] filter, as a
// convolution of C groups (groups = C, out_c = C * M). InvalidArgument with TensorFlow's texts:
// "input must be 4-dimensional[2,3]", "filter must be 4-dimensional: [3,3,1]", "input and filter
// must have the same depth: 3 vs 2", the unfolded graph's as NhwcConvGeometry, and NhwcWindows'
// errors.
absl::StatusOr<ConvGeometry> NhwcDepthwiseGeometry(const Conv2DAttrs& attrs,
                                                   const TensorShape& in_shape,
                                                   const TensorShape& filter);

// Conv2D's own wording (TensorFlow 2.21): InvalidArgument "convolution input must be
// 4-dimensional: [4,4,3]" (`what` is "input" or "filter").
absl::Status CheckConvolutionFourDims(const Tensor& t, const char* what);

// TensorFlow's check: InvalidArgument "filter must not have zero elements (i.e. all dimensions
// must be non-zero)" for a filter with a zero dimension.
absl::Status CheckFilterHasElements(const Tensor& filter);

// ParseConv2DAttrs with dilations, for the CPU convolution kernels, which are NHWC only:
// Unimplemented "The Conv2D op currently only supports the NHWC tensor format on the CPU. The op
// was given the format: NCHW" (with the node's op) for NCHW. Also reads the optional
// _rill_space_to_batch_block and _rill_space_to_batch_paddings (both or neither),
// _rill_batch_to_space_crops (with them, or absent) and _rill_error_nodes (InvalidArgument
// "_rill_space_to_batch_block must be 2 values of at least 1 with 4 non-negative
// _rill_space_to_batch_paddings and _rill_batch_to_space_crops" when malformed).
absl::StatusOr<Conv2DAttrs> ParseNhwcConvAttrs(const OpKernelConstruction& ctx);

// Reads strides, padding, explicit_paddings, data_format and (when `has_dilations`) dilations.
// InvalidArgument with TensorFlow's texts: "Sliding window strides field must specify 4
// dimensions", "Current implementation does not yet support strides in the batch and depth
// dimensions.", "Current implementation does not yet support dilations in the batch and depth
// dimensions.", "Sliding window dilations field must specify 4 dimensions", "explicit_paddings
// attribute must be empty if the padding attribute is not EXPLICIT", "explicit_paddings
// attribute must contain 8 values, but got: 4", "All explicit_paddings must be non-negative".
absl::StatusOr<Conv2DAttrs> ParseConv2DAttrs(const OpKernelConstruction& ctx, bool has_dilations);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_CONV_WINDOW_H_
