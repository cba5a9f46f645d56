// Op definitions of the neural-network ops: BatchMatMul, BatchMatMulV2, BiasAdd, Softmax,
// LogSoftmax, L2Loss, Conv2D, Conv2DBackpropInput, MaxPool, MaxPoolV2, AvgPool, FusedBatchNorm,
// FusedBatchNormV2, FusedBatchNormV3, LRN. Signatures read from
// TensorFlow's registry (tools/tfgen/dump_op_specs.py). Shape functions never fail on values
// the kernel checks; they fail only where known dims contradict (InvalidArgument naming the node).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

// BatchMatMulV2: broadcast batch dims, then [m, n] from the adjoint flags.
absl::Status BatchMatMulShape(ShapeInferenceContext& c) {
  const PartialTensorShape& x = c.input(0);
  const PartialTensorShape& y = c.input(1);
  if (x.unknown_rank() || y.unknown_rank() || x.rank() < 2 || y.rank() < 2) {
    return absl::OkStatus();
  }
  bool adj_x = false, adj_y = false;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "adj_x", &adj_x));
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "adj_y", &adj_y));
  const std::vector<int64_t>& xd = x.dims();
  const std::vector<int64_t>& yd = y.dims();
  const int64_t m = xd[xd.size() - (adj_x ? 1 : 2)], kx = xd[xd.size() - (adj_x ? 2 : 1)];
  const int64_t ky = yd[yd.size() - (adj_y ? 1 : 2)], n = yd[yd.size() - (adj_y ? 2 : 1)];
  int64_t k;
  RILL_RETURN_IF_ERROR(c.MergeDim(kx, ky, &k, "inner dimensions of BatchMatMul"));
  RILL_ASSIGN_OR_RETURN(
      PartialTensorShape batch,
      shape_fns::BroadcastPartial(c, PartialTensorShape({xd.begin(), xd.end() - 2}),
                                  PartialTensorShape({yd.begin(), yd.end() - 2})));
  std::vector<int64_t> out = batch.dims();
  out.push_back(m);
  out.push_back(n);
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// The output shape of a 2-D window op over `in` (4 dims in data_format order, -1 unknown) with
// spatial filter sizes k_h, k_w (-1 unknown) and `out_c` output channels (nullopt: the input's;
// -1 unknown). Unknown where the input is, and when the attrs or sizes are invalid (the kernel
// reports those).
absl::Status WindowOutputShape(ShapeInferenceContext& c, const PartialTensorShape& in, int64_t k_h,
                               int64_t k_w, std::optional<int64_t> out_c) {
  if (in.rank() != 4) return absl::OkStatus();
  std::vector<int64_t> strides, dilations = {1, 1, 1, 1}, explicit_paddings;
  std::string padding, format = "NHWC";
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "strides", &strides));
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "padding", &padding));
  (void)GetNodeAttr(c.node(), "data_format", &format);  // optional attrs
  (void)GetNodeAttr(c.node(), "dilations", &dilations);
  (void)GetNodeAttr(c.node(), "explicit_paddings", &explicit_paddings);
  const Padding pad = PaddingFromString(padding);
  if (strides.size() != 4 || dilations.size() != 4 ||
      (pad == Padding::kExplicit && explicit_paddings.size() != 8)) {
    return absl::OkStatus();
  }
  const bool nchw = format == "NCHW";
  const int hd = nchw ? 2 : 1, wd = nchw ? 3 : 2, cd = nchw ? 1 : 3;
  std::vector<int64_t> out = in.dims();
  const int64_t sizes[] = {k_h, k_w};
  const int dims[] = {hd, wd};
  for (int i = 0; i < 2; ++i) {
    const int d = dims[i];
    out[d] = -1;
    if (in.dims()[d] < 0 || sizes[i] < 0) continue;
    const bool ex = pad == Padding::kExplicit;
    absl::StatusOr<Window> w =
        ComputeWindow(in.dims()[d], sizes[i], strides[d], dilations[d], pad,
                      ex ? explicit_paddings[2 * d] : 0, ex ? explicit_paddings[2 * d + 1] : 0);
    if (w.ok()) out[d] = w->out;
  }
  if (out_c) out[cd] = *out_c;
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

// Conv2D: the window shape over the input with the HWIO filter's spatial sizes and out channels.
absl::Status Conv2DShape(ShapeInferenceContext& c) {
  const PartialTensorShape& filter = c.input(1);
  const bool known = filter.rank() == 4;
  return WindowOutputShape(c, c.input(0), known ? filter.dims()[0] : -1,
                           known ? filter.dims()[1] : -1, known ? filter.dims()[3] : -1);
}

// Conv2DBackpropInput: the constant input_sizes; else 4 unknown dims.
absl::Status Conv2DBackpropInputShape(ShapeInferenceContext& c) {
  std::vector<int64_t> sizes;
  if (c.ConstantIndexValues(0, &sizes) && sizes.size() == 4 &&
      std::all_of(sizes.begin(), sizes.end(), [](int64_t d) { return d >= 0; })) {
    c.set_output(0, PartialTensorShape(std::move(sizes)));
  } else {
    c.set_output(0, PartialTensorShape(std::vector<int64_t>(4, -1)));
  }
  return absl::OkStatus();
}

// Pooling: the window over the spatial dims and (max pooling only) the depth dim of a 4-D input,
// with the given ksize and strides (data_format order). Unknown where the input is, or when ksize
// or strides are invalid or unknown (the kernel reports those).
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
  for (int d : {nchw ? 2 : 1, nchw ? 3 : 2, nchw ? 1 : 3}) {
    out[d] = -1;
    if (in.dims()[d] < 0) continue;
    const bool ex = pad == Padding::kExplicit;
    absl::StatusOr<Window> w =
        ComputeWindow(in.dims()[d], ksize[d], strides[d], 1, pad, ex ? explicit_paddings[2 * d] : 0,
                      ex ? explicit_paddings[2 * d + 1] : 0);
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

REGISTER_OP("Conv2D")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double, int32}")
    .Attr("strides: list(int)")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(Conv2DShape);

REGISTER_OP("Conv2DBackpropInput")
    .Input("input_sizes: int32")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double, int32}")
    .Attr("strides: list(int)")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(Conv2DBackpropInputShape);

REGISTER_OP("BatchMatMul")
    .Input("x: T")
    .Input("y: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .Attr("adj_x: bool = false")
    .Attr("adj_y: bool = false")
    .Attr("grad_x: bool = false")
    .Attr("grad_y: bool = false")
    .SetShapeFn(BatchMatMulShape);

REGISTER_OP("BatchMatMulV2")
    .Input("x: T")
    .Input("y: T")
    .Output("output: T")
    .Attr(
        "T: {bfloat16, half, float, double, int16, int32, int64, uint8, uint16, uint32, uint64, "
        "complex64, complex128}")
    .Attr("adj_x: bool = false")
    .Attr("adj_y: bool = false")
    .Attr("grad_x: bool = false")
    .Attr("grad_y: bool = false")
    .SetShapeFn(BatchMatMulShape);

REGISTER_OP("BiasAdd")
    .Input("value: T")
    .Input("bias: T")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Softmax")
    .Input("logits: T")
    .Output("softmax: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("LogSoftmax")
    .Input("logits: T")
    .Output("logsoftmax: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("L2Loss")
    .Input("t: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace
}  // namespace rill
