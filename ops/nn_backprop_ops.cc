// Op definitions of the backprops the gradients of graph/gradients/nn_grad.cc build:
// ResizeBilinearGrad, ResizeNearestNeighborGrad, LRNGrad, MaxPoolGradGrad, Conv3DBackpropFilterV2,
// AvgPool3DGrad, MaxPool3DGrad, MaxPool3DGradGrad,
// Dilation2DBackpropInput, Dilation2DBackpropFilter, ResizeBicubicGrad, CropAndResizeGradImage,
// CropAndResizeGradBoxes and ScaleAndTranslateGrad. Signatures read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py).
#include <vector>

#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace rill {
namespace {

// The result has the shape of input `i` (the image or pooled output the backprop is for).
template <int i>
absl::Status ShapeOfInput(ShapeInferenceContext& c) {
  c.set_output(0, c.input(i));
  return absl::OkStatus();
}

// ResizeNearestNeighborGrad: [batch, size[0], size[1], channels] of the 4-D grads.
absl::Status ResizeGradShape(ShapeInferenceContext& c) {
  const PartialTensorShape& grads = c.input(0);
  std::vector<int64_t> size;
  const bool known = c.ConstantIndexValues(1, &size) && size.size() == 2;
  if (grads.rank() != 4 && !known) return absl::OkStatus();
  const int64_t batch = grads.rank() == 4 ? grads.dims()[0] : -1;
  const int64_t channels = grads.rank() == 4 ? grads.dims()[3] : -1;
  c.set_output(0,
               PartialTensorShape({batch, known ? size[0] : -1, known ? size[1] : -1, channels}));
  return absl::OkStatus();
}

// The rank-`rank` shape of input `i` (filter_sizes, orig_input_shape), constant or known in part
// (PartialIndexValues, -1 unknown); else `rank` unknown dims.
template <int i, int rank>
absl::Status ShapeFromConstInput(ShapeInferenceContext& c) {
  std::vector<int64_t> dims;
  if (c.PartialIndexValues(i, &dims) && dims.size() == rank) {
    bool ok = true;
    for (int64_t d : dims) ok &= d >= -1;
    if (ok) {
      c.set_output(0, PartialTensorShape(std::move(dims)));
      return absl::OkStatus();
    }
  }
  c.set_output(0, PartialTensorShape(std::vector<int64_t>(rank, -1)));
  return absl::OkStatus();
}

REGISTER_OP("ResizeBilinearGrad")
    .Input("grads: float")
    .Input("original_image: T")
    .Output("output: T")
    .Attr("T: {float, bfloat16, half, double}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ShapeOfInput<1>);

REGISTER_OP("ResizeNearestNeighborGrad")
    .Input("grads: T")
    .Input("size: int32")
    .Output("output: T")
    .Attr("T: {uint8, int8, int32, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeGradShape);

REGISTER_OP("LRNGrad")
    .Input("input_grads: T")
    .Input("input_image: T")
    .Input("output_image: T")
    .Output("output: T")
    .Attr("depth_radius: int = 5")
    .Attr("bias: float = 1.0")
    .Attr("alpha: float = 1.0")
    .Attr("beta: float = 0.5")
    .Attr("T: {half, bfloat16, float} = float")
    .SetShapeFn(shape_fns::AllInputsMerged);

REGISTER_OP("MaxPoolGradGrad")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .SetShapeFn(ShapeOfInput<1>);

REGISTER_OP("Conv3DBackpropFilterV2")
    .Input("input: T")
    .Input("filter_sizes: int32")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = \"NDHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .SetShapeFn(ShapeFromConstInput<1, 5>);

REGISTER_OP("AvgPool3DGrad")
    .Input("orig_input_shape: int32")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = \"NDHWC\"")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(ShapeFromConstInput<0, 5>);

REGISTER_OP("MaxPool3DGrad")
    .Input("orig_input: TInput")
    .Input("orig_output: TInput")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = \"NDHWC\"")
    .Attr("T: {half, bfloat16, float} = float")
    .Attr("TInput: {half, bfloat16, float} = float")
    .SetShapeFn(ShapeOfInput<0>);

REGISTER_OP("MaxPool3DGradGrad")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = \"NDHWC\"")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .SetShapeFn(ShapeOfInput<1>);

REGISTER_OP("Dilation2DBackpropInput")
    .Input("input: T")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("in_backprop: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn(ShapeOfInput<0>);

REGISTER_OP("Dilation2DBackpropFilter")
    .Input("input: T")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("filter_backprop: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn(ShapeOfInput<1>);

REGISTER_OP("ResizeBicubicGrad")
    .Input("grads: float")
    .Input("original_image: T")
    .Output("output: T")
    .Attr("T: {float, double}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ShapeOfInput<1>);

REGISTER_OP("CropAndResizeGradImage")
    .Input("grads: float")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Input("image_size: int32")
    .Output("output: T")
    .Attr("T: {float, half, double}")
    .Attr("method: {'bilinear', 'nearest'} = \"bilinear\"")
    .SetShapeFn(ShapeFromConstInput<3, 4>);

// CropAndResizeGradBoxes: [num_boxes, 4] like the boxes.
REGISTER_OP("CropAndResizeGradBoxes")
    .Input("grads: float")
    .Input("image: T")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Output("output: float")
    .Attr("T: {uint8, uint16, int8, int16, int32, int64, half, float, double}")
    .Attr("method: {'bilinear'} = \"bilinear\"")
    .SetShapeFn(ShapeOfInput<2>);

REGISTER_OP("ScaleAndTranslateGrad")
    .Input("grads: T")
    .Input("original_image: T")
    .Input("scale: float")
    .Input("translation: float")
    .Output("output: T")
    .Attr("T: {float}")
    .Attr("kernel_type: string = \"lanczos3\"")
    .Attr("antialias: bool = true")
    .SetShapeFn(ShapeOfInput<1>);

}  // namespace
}  // namespace rill
