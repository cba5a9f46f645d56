// Float NHWC Conv2DBackpropInput (a transposed convolution: Keras's Conv2DTranspose,
// tf.nn.conv2d_transpose) and NDHWC Conv3DBackpropInputV2 (Keras's Conv3DTranspose) on oneDNN's
// deconvolution primitive (Debian's libdnnl 2.6, OpenMP runtime).
//
// Why: the im2col path (kernels/nn/conv_ops.cc) multiplies out_backprop [pixels, out_c] by the
// filter transposed into a [pixels, k_h * k_w * in_c] patch matrix and scatter-adds it back
// (col2im, one thread): a GEMM with an inner dimension of out_c, which is small in generators
// (DCGAN's 8 -> 3 channels: 2 GMAC/s), and a pass of scattered adds; the 3-D kernel
// (kernels/nn/conv3d_ops.cc) does the same with a 3-D col2im. oneDNN's deconvolution computes each
// input-gradient element in registers.
//
//   RILL_RETURN_IF_ERROR(OneDnnConv2DBackpropInput(g, threads, filter_hwio, dy, dx));
//
// Primitives are built once per geometry and thread count (a process-wide cache, bounded); the
// filter is reordered into the primitive's layout on every call (it may be a variable), or once
// into `packed` when the kernel's filter is a constant (kernels/math_lib/onednn_common.h).
// Thread-safe: concurrent calls share the cache under a mutex and run on their own OpenMP teams
// and scratchpads.
#ifndef RILL_KERNELS_MATH_LIB_ONEDNN_DECONV_H_
#define RILL_KERNELS_MATH_LIB_ONEDNN_DECONV_H_

#include "absl/status/status.h"
#include "kernels/math_lib/conv_window.h"
#include "kernels/math_lib/onednn_conv.h"

namespace rill {

// in_grad[n, h, w, ci] = sum over the windows of the convolution `g` (groups 1; batch, in_* and
// out_* as Conv2D's geometry: the gradient has the convolution's input shape) that cover (h, w)
// of out_backprop[n, oh, ow, co] * filter[kh, kw, ci, co]; zero where no window reaches. filter
// HWIO [k_h, k_w, in_c, out_c], out_backprop NHWC [batch, out_h, out_w, out_c], in_grad NHWC
// [batch, in_h, in_w, in_c]. Runs on one thread below kOneDnnConvSplitMacs multiply-adds, else
// on `threads`. Every product of an out_backprop element and a weight is summed, as the im2col
// path's are, but in another order (results differ by rounding). Errors: Internal with oneDNN's
// message when it rejects the geometry ("oneDNN deconvolution failed ..."), InvalidArgument for
// grouped geometries; the caller may then take another path.
// With `packed` (holding the filter's tensor: HoldConstantWeights) the reordered filter is kept
// there and reused.
absl::Status OneDnnConv2DBackpropInput(const ConvGeometry& g, int threads, const float* filter,
                                       const float* out_backprop, float* in_grad,
                                       OneDnnPackedWeights* packed = nullptr);

// The same for the 3-D convolution `shape` (spatial_dims 3, groups 1; its bias, activation and
// sum are not read): filter DHWIO [k_d, k_h, k_w, in_c, out_c], out_backprop NDHWC [batch,
// out_d, out_h, out_w, out_c], in_grad NDHWC [batch, in_d, in_h, in_w, in_c]. Errors as above;
// InvalidArgument for a shape that is not 3-D or is grouped.
absl::Status OneDnnConv3DBackpropInput(const OneDnnConvShape& shape, int threads,
                                       const float* filter, const float* out_backprop,
                                       float* in_grad);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_ONEDNN_DECONV_H_
