// Op definitions of the 3-D (NDHWC) convolution and pooling ops: Conv3D,
// Conv3DBackpropInputV2 (the transposed 3-D convolution), MaxPool3D, AvgPool3D. Signatures read
// from TensorFlow's registry (tests/tfgen/dump_op_specs.py); the window geometry is
// ops/window_geometry.h, shared with the kernels.
//
// Shape functions: rank 5 with the output depth known from the filter (Conv3D) or the input
// (pools), spatial dims where the input's, the window and the strides are known; the input_sizes
// value where it is a constant (Conv3DBackpropInputV2). Bad attrs and values are the kernels' to
// report with TensorFlow's texts; the one failure here is TensorFlow's shape-function error for a
// VALID window larger than the known input ("Negative dimension size caused by subtracting 3
// from 2"), where its kernels would give an empty output.
#include <cstdint>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

// The output of a 5-D NDHWC window op over `in` with window sizes `window` (per dim, 5 values;
// the filter's spatial dims for Conv3D) and depth `depth`.
absl::StatusOr<PartialTensorShape> Window3dShape(const ShapeInferenceContext& c,
                                                 const PartialTensorShape& in,
                                                 const std::vector<int64_t>& window,
                                                 int64_t depth) {
  std::vector<int64_t> strides, dilations = {1, 1, 1, 1, 1};
  std::string padding, format = "NDHWC";
  (void)GetNodeAttr(c.node(), "data_format", &format);
  (void)GetNodeAttr(c.node(), "dilations", &dilations);
  if (in.rank() != 5 || format != "NDHWC" || !GetNodeAttr(c.node(), "strides", &strides).ok() ||
      !GetNodeAttr(c.node(), "padding", &padding).ok() || strides.size() != 5 ||
      dilations.size() != 5 || window.size() != 5) {
    return in.rank() == 5 || in.unknown_rank() ? PartialTensorShape({-1, -1, -1, -1, -1})
                                               : PartialTensorShape();
  }
  std::vector<int64_t> out = {in.dims()[0], -1, -1, -1, depth};
  for (int d = 1; d <= 3; ++d) {
    if (in.dims()[d] < 0 || window[d] < 0) continue;
    const Padding pad = PaddingFromString(padding);
    RILL_RETURN_IF_ERROR(CheckWindowFits(in.dims()[d], window[d], strides[d], dilations[d], pad));
    absl::StatusOr<Window> w =
        ComputeWindow(in.dims()[d], window[d], strides[d], dilations[d], pad);
    if (w.ok()) out[d] = w->out;
  }
  return PartialTensorShape(out);
}

absl::Status Conv3DShape(ShapeInferenceContext& c) {
  const PartialTensorShape& f = c.input(1);
  std::vector<int64_t> window = {1, -1, -1, -1, 1};
  int64_t depth = -1;
  if (f.rank() == 5) {
    window = {1, f.dims()[0], f.dims()[1], f.dims()[2], 1};
    depth = f.dims()[4];
  }
  RILL_ASSIGN_OR_RETURN(PartialTensorShape out, Window3dShape(c, c.input(0), window, depth));
  c.set_output(0, std::move(out));
  return absl::OkStatus();
}

absl::Status Pool3DShape(ShapeInferenceContext& c) {
  std::vector<int64_t> ksize;
  (void)GetNodeAttr(c.node(), "ksize", &ksize);
  const PartialTensorShape& in = c.input(0);
  RILL_ASSIGN_OR_RETURN(PartialTensorShape out,
                        Window3dShape(c, in, ksize, in.rank() == 5 ? in.dims()[4] : -1));
  c.set_output(0, std::move(out));
  return absl::OkStatus();
}

absl::Status Conv3DBackpropInputShape(ShapeInferenceContext& c) {
  std::vector<int64_t> sizes;
  if (c.ConstantIndexValues(0, &sizes) && sizes.size() == 5) {
    for (int64_t& s : sizes) s = s < 0 ? -1 : s;
    c.set_output(0, PartialTensorShape(sizes));
  } else {
    c.set_output(0, PartialTensorShape({-1, -1, -1, -1, -1}));
  }
  return absl::OkStatus();
}

REGISTER_OP("Conv3D")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = \"NDHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .SetShapeFn(Conv3DShape);

REGISTER_OP("Conv3DBackpropInputV2")
    .Input("input_sizes: Tshape")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = \"NDHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .Attr("Tshape: {int32, int64} = int32")
    .SetShapeFn(Conv3DBackpropInputShape);

REGISTER_OP("MaxPool3D")
    .Input("input: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = \"NDHWC\"")
    .Attr("T: {half, bfloat16, float}")
    .SetShapeFn(Pool3DShape);

REGISTER_OP("AvgPool3D")
    .Input("input: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = \"NDHWC\"")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(Pool3DShape);

}  // namespace
}  // namespace rill
