// Op definitions of the pooling, batch-normalization and local-response-normalization ops:
// MaxPool, MaxPoolV2, AvgPool, FusedBatchNorm, FusedBatchNormV2, FusedBatchNormV3, LRN.
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py); the window geometry
// is ops/window_geometry.h, shared with the kernels.
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/quantized_range_shape.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

// Pooling: the window over the spatial dims and (max pooling only) the depth dim of a 4-D input,
// with the given ksize and strides (data_format order). Unknown where the input is, or when ksize
// or strides are invalid or unknown (the kernel reports those); a VALID or EXPLICIT window larger
// than the known (padded) input is TensorFlow's "Negative dimension size caused by subtracting".
absl::Status PoolShapeWith(ShapeInferenceContext& c, const std::vector<int64_t>& ksize,
                           const std::vector<int64_t>& strides) {
  const PartialTensorShape& in = c.input(0);
  if (in.rank() != 4 || ksize.size() != 4 || strides.size() != 4) return absl::OkStatus();
  std::string padding, format = "NHWC";
  std::vector<int64_t> explicit_paddings;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "padding", &padding));
  (void)GetNodeAttr(c.node(), "data_format", &format);  // optional attrs
  (void)GetNodeAttr(c.node(), "explicit_paddings", &explicit_paddings);
  const Padding pad = PaddingFromString(padding);
  if (format == "NCHW_VECT_C" || (pad == Padding::kExplicit && explicit_paddings.size() != 8)) {
    return absl::OkStatus();
  }
  const bool nchw = format == "NCHW";
  std::vector<int64_t> out = in.dims();
  // TensorFlow's shape functions refuse a VALID window larger than the input on the spatial dims,
  // and for max pooling on the depth dim too (AvgPool's kernel refuses depth windows).
  const bool depth_window = c.node().op() != "AvgPool";
  for (int d : {nchw ? 2 : 1, nchw ? 3 : 2, nchw ? 1 : 3}) {
    out[d] = -1;
    if (in.dims()[d] < 0) continue;
    const bool ex = pad == Padding::kExplicit;
    const int64_t before = ex ? explicit_paddings[2 * d] : 0;
    const int64_t after = ex ? explicit_paddings[2 * d + 1] : 0;
    if (d != (nchw ? 1 : 3) || depth_window) {
      RILL_RETURN_IF_ERROR(
          CheckWindowFits(in.dims()[d], ksize[d], strides[d], 1, pad, before, after));
    }
    absl::StatusOr<Window> w =
        ComputeWindow(in.dims()[d], ksize[d], strides[d], 1, pad, before, after);
    if (w.ok()) out[d] = w->out;
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// MaxPool, AvgPool: ksize and strides are attrs.
absl::Status PoolShape(ShapeInferenceContext& c) {
  std::vector<int64_t> ksize, strides;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "ksize", &ksize));
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "strides", &strides));
  return PoolShapeWith(c, ksize, strides);
}

// MaxPoolV2: ksize and strides are inputs 1 and 2, used when constant; else 4 unknown dims.
absl::Status MaxPoolV2Shape(ShapeInferenceContext& c) {
  std::vector<int64_t> ksize, strides;
  if (c.input(0).rank() == 4) c.set_output(0, PartialTensorShape(std::vector<int64_t>(4, -1)));
  if (!c.ConstantIndexValues(1, &ksize) || !c.ConstantIndexValues(2, &strides)) {
    return absl::OkStatus();
  }
  return PoolShapeWith(c, ksize, strides);
}

// FusedBatchNorm*: y has x's shape; the per-channel outputs are [channels], the channel count
// from x (its data_format dim) or the four vectors; reserve_space_3 (V3) is unknown. All unknown
// when they disagree (the kernel reports that).
absl::Status FusedBatchNormShape(ShapeInferenceContext& c) {
  const PartialTensorShape& x = c.input(0);
  std::string format = "NHWC";
  (void)GetNodeAttr(c.node(), "data_format", &format);
  int64_t channels = -1;
  if (x.rank() == 4 || x.rank() == 5) {
    const bool channels_first = format == "NCHW" || format == "NCDHW";
    channels = x.dims()[channels_first ? 1 : x.rank() - 1];
  }
  for (int i = 1; i < 5; ++i) {
    const PartialTensorShape& v = c.input(i);
    if (v.rank() != 1 || v.dims()[0] < 0) continue;
    if (channels >= 0 && channels != v.dims()[0]) return absl::OkStatus();  // the kernel reports
    channels = v.dims()[0];
  }
  c.set_output(0, x);
  for (int i = 1; i < 5; ++i) c.set_output(i, PartialTensorShape({channels}));
  return absl::OkStatus();
}

REGISTER_OP("MaxPool")
    .Input("input: T")
    .Output("output: T")
    .Attr(
        "T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8} = "
        "float")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = \"NHWC\"")
    .SetShapeFn(PoolShape);

REGISTER_OP("MaxPoolV2")
    .Input("input: T")
    .Input("ksize: int32")
    .Input("strides: int32")
    .Output("output: T")
    .Attr(
        "T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8} = "
        "float")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = \"NHWC\"")
    .SetShapeFn(MaxPoolV2Shape);

REGISTER_OP("AvgPool")
    .Input("value: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(PoolShape);

REGISTER_OP("FusedBatchNorm")
    .Input("x: T")
    .Input("scale: T")
    .Input("offset: T")
    .Input("mean: T")
    .Input("variance: T")
    .Output("y: T")
    .Output("batch_mean: T")
    .Output("batch_variance: T")
    .Output("reserve_space_1: T")
    .Output("reserve_space_2: T")
    .Attr("T: {float}")
    .Attr("epsilon: float = 1e-04")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("is_training: bool = true")
    .SetShapeFn(FusedBatchNormShape);

REGISTER_OP("FusedBatchNormV2")
    .Input("x: T")
    .Input("scale: U")
    .Input("offset: U")
    .Input("mean: U")
    .Input("variance: U")
    .Output("y: T")
    .Output("batch_mean: U")
    .Output("batch_variance: U")
    .Output("reserve_space_1: U")
    .Output("reserve_space_2: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {float}")
    .Attr("epsilon: float = 1e-04")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("is_training: bool = true")
    .SetShapeFn(FusedBatchNormShape);

REGISTER_OP("FusedBatchNormV3")
    .Input("x: T")
    .Input("scale: U")
    .Input("offset: U")
    .Input("mean: U")
    .Input("variance: U")
    .Output("y: T")
    .Output("batch_mean: U")
    .Output("batch_variance: U")
    .Output("reserve_space_1: U")
    .Output("reserve_space_2: U")
    .Output("reserve_space_3: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {bfloat16, float}")
    .Attr("epsilon: float = 1e-04")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = \"NHWC\"")
    .Attr("is_training: bool = true")
    .SetShapeFn(FusedBatchNormShape);

REGISTER_OP("LRN")
    .Input("input: T")
    .Output("output: T")
    .Attr("depth_radius: int = 5")
    .Attr("bias: float = 1.0")
    .Attr("alpha: float = 1.0")
    .Attr("beta: float = 0.5")
    .Attr("T: {half, bfloat16, float} = float")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
// The eight-bit pooling of quantize_nodes graphs: the pooling's shape, scalar ranges.
REGISTER_OP("QuantizedMaxPool")
    .Input("input: T")
    .Input("min_input: float")
    .Input("max_input: float")
    .Output("output: T")
    .Output("min_output: float")
    .Output("max_output: float")
    .Attr("T: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("ksize: list(int)")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(PoolShape(c));
      return QuantizedRangeShapes(c, 1, 3);
    });

REGISTER_OP("QuantizedAvgPool")
    .Input("input: T")
    .Input("min_input: float")
    .Input("max_input: float")
    .Output("output: T")
    .Output("min_output: float")
    .Output("max_output: float")
    .Attr("T: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("ksize: list(int)")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(PoolShape(c));
      return QuantizedRangeShapes(c, 1, 3);
    });

}  // namespace rill
