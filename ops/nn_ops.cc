// Op definitions of the neural-network ops: BatchMatMul, BatchMatMulV2, BatchMatMulV3, BiasAdd,
// Softmax, LogSoftmax, L2Loss, Conv2D, Conv2DBackpropInput, DepthwiseConv2dNative,
// SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits, Einsum. Signatures read from
// TensorFlow's registry (tests/tfgen/dump_op_specs.py). Shape functions never fail on values
// the kernel checks; they fail only where known dims contradict (InvalidArgument naming the node),
// a VALID window larger than the known input included (TensorFlow's shape-function error, where
// its kernel would give an empty output).
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/quantized_range_shape.h"
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
    const int64_t before = ex ? explicit_paddings[2 * d] : 0;
    const int64_t after = ex ? explicit_paddings[2 * d + 1] : 0;
    RILL_RETURN_IF_ERROR(
        CheckWindowFits(in.dims()[d], sizes[i], strides[d], dilations[d], pad, before, after));
    absl::StatusOr<Window> w =
        ComputeWindow(in.dims()[d], sizes[i], strides[d], dilations[d], pad, before, after);
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

// DepthwiseConv2dNative: the window shape with in_channels * multiplier output channels.
absl::Status DepthwiseShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  const PartialTensorShape& filter = c.input(1);
  const bool known = filter.rank() == 4;
  int64_t out_c = -1;
  if (known && filter.dims()[2] >= 0 && filter.dims()[3] >= 0) {
    out_c = filter.dims()[2] * filter.dims()[3];
  }
  return WindowOutputShape(c, in, known ? filter.dims()[0] : -1, known ? filter.dims()[1] : -1,
                           out_c);
}

// The cross-entropy ops: loss [batch], backprop [batch, classes] (the logits' shape).
absl::Status XentShape(ShapeInferenceContext& c) {
  const PartialTensorShape& logits = c.input(0);
  if (logits.rank() == 2) {
    c.set_output(0, PartialTensorShape({logits.dims()[0]}));
    c.set_output(1, logits);
  }
  return absl::OkStatus();
}

REGISTER_OP("DepthwiseConv2dNative")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(DepthwiseShape);

// The graph optimizer's DepthwiseConv2dNative + BiasAdd [+ Relu | Relu6]
// (session/graph_optimizer.h); TensorFlow's internal op of the same name and attrs.
REGISTER_OP("_FusedDepthwiseConv2dNative")
    .Input("input: T")
    .Input("filter: T")
    .Input("args: num_args * T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("num_args: int >= 0")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(DepthwiseShape);

REGISTER_OP("SoftmaxCrossEntropyWithLogits")
    .Input("features: T")
    .Input("labels: T")
    .Output("loss: T")
    .Output("backprop: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(XentShape);

REGISTER_OP("SparseSoftmaxCrossEntropyWithLogits")
    .Input("features: T")
    .Input("labels: Tlabels")
    .Output("loss: T")
    .Output("backprop: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("Tlabels: {int32, int64} = int64")
    .SetShapeFn(XentShape);

// Einsum: without an ellipsis, the output's labels take their sizes from the inputs' known dims.
absl::Status EinsumShape(ShapeInferenceContext& c) {
  std::string equation;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "equation", &equation));
  const size_t arrow = equation.find("->");
  if (arrow == std::string::npos || equation.find("...") != std::string::npos) {
    return absl::OkStatus();
  }
  std::map<char, int64_t> sizes;
  int input = 0;
  size_t start = 0;
  const std::string lhs = equation.substr(0, arrow);
  while (start <= lhs.size() && input < c.num_inputs()) {
    const size_t end = std::min(lhs.find(',', start), lhs.size());
    const std::string labels = lhs.substr(start, end - start);
    const PartialTensorShape& s = c.input(input++);
    if (s.rank() == static_cast<int>(labels.size())) {
      for (size_t d = 0; d < labels.size(); ++d) {
        if (s.dims()[d] >= 0) sizes[labels[d]] = s.dims()[d];
      }
    }
    start = end + 1;
  }
  std::vector<int64_t> out;
  // Every character of the output is a label, spaces included (as in the kernel and TensorFlow).
  for (char l : equation.substr(arrow + 2)) {
    auto it = sizes.find(l);
    out.push_back(it == sizes.end() ? -1 : it->second);
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

REGISTER_OP("Einsum")
    .Input("inputs: N * T")
    .Output("output: T")
    .Attr("equation: string")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(EinsumShape);

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

// The graph optimizer's Conv2D + BiasAdd [+ Relu | Relu6] (session/graph_optimizer.h);
// TensorFlow's internal op of the same name (with TensorFlow 1's `num_args * T` args).
REGISTER_OP("_FusedConv2D")
    .Input("input: T")
    .Input("filter: T")
    .Input("args: num_args * T")
    .Output("output: T")
    .Attr("T: {half, float, double}")
    .Attr("num_args: int >= 0")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
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

REGISTER_OP("BatchMatMulV3")
    .Input("x: Ta")
    .Input("y: Tb")
    .Output("output: Tout")
    .Attr(
        "Ta: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
        "complex128}")
    .Attr(
        "Tb: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
        "complex128}")
    .Attr("Tout: {bfloat16, half, float, double, int16, int32, int64, complex64, complex128}")
    .Attr("adj_x: bool = false")
    .Attr("adj_y: bool = false")
    .Attr("grad_x: bool = false")
    .Attr("grad_y: bool = false")
    .SetShapeFn(BatchMatMulShape);

// BiasAdd: the value's shape. A known rank without a channel dim (below 2, or below 3 for NCHW)
// is TensorFlow's graph-construction error; the bias length against the channel dim is the
// kernel's check.
absl::Status BiasAddShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  std::string format = "NHWC";
  (void)GetNodeAttr(c.node(), "data_format", &format);
  const int min_rank = format == "NCHW" ? 3 : 2;
  if (!in.unknown_rank() && in.rank() < min_rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("Shape must be at least rank ", min_rank, " but is rank ", in.rank(),
                     " for node '", c.node().name(), "' (op BiasAdd, data_format ", format,
                     ", input 0 with shape ", in.DebugString(), ")"));
  }
  c.set_output(0, in);
  return absl::OkStatus();
}

REGISTER_OP("BiasAdd")
    .Input("value: T")
    .Input("bias: T")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("data_format: {'NHWC', 'NCHW'} = \"NHWC\"")
    .SetShapeFn(BiasAddShape);

// BiasAdd before data_format: the last dimension always holds the channels.
REGISTER_OP("BiasAddV1")
    .Input("value: T")
    .Input("bias: T")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .SetShapeFn(shape_fns::Unchanged);

// The 2015 batch norm of a 4-D NHWC input by per-channel mean, variance, beta and gamma
// (deprecated by TensorFlow at GraphDef version 9; Rill runs it in any graph).
REGISTER_OP("BatchNormWithGlobalNormalization")
    .Input("t: T")
    .Input("m: T")
    .Input("v: T")
    .Input("beta: T")
    .Input("gamma: T")
    .Output("result: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("variance_epsilon: float")
    .Attr("scale_after_normalization: bool")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Softmax")
    .Input("logits: T")
    .Output("softmax: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

// The graph optimizer's GELU (session/graph_optimizer.h, kernels/nn/gelu_op.cc): Rill's internal
// op; `form` names the unfused graph it computes ("erf", "erfc": exact; "tanh": approximate).
REGISTER_OP("_RillGelu")
    .Input("features: T")
    .Output("activations: T")
    .Attr("T: {float}")
    .Attr("form: {'erf', 'erfc', 'tanh'} = \"erfc\"")
    .SetShapeFn(shape_fns::Unchanged);

// The graph optimizer's LSTM gate cell (graph/lstm_cell_fusion.h, kernels/nn/lstm_cell_op.cc):
// Rill's internal op. z [B, 4U] split into the gates i, f, g, o (the Split outputs gate_order
// names); c' = sigmoid(f) * c + sigmoid(i) * tanh(g), h = sigmoid(o) * tanh(c'), both of the
// broadcast shape of [B, U] and c.
REGISTER_OP("_RillLstmCell")
    .Input("z: T")
    .Input("c: T")
    .Output("c_out: T")
    .Output("h: T")
    .Attr("T: {float}")
    .Attr("gate_order: list(int) = [0, 1, 2, 3]")
    .SetShapeFn([](ShapeInferenceContext& c) -> absl::Status {
      PartialTensorShape gates({-1, -1});
      const PartialTensorShape& z = c.input(0);
      if (!z.unknown_rank() && z.rank() == 2) {
        const int64_t width = z.dims()[1];
        gates = PartialTensorShape({z.dims()[0], width < 0 ? -1 : width / 4});
      }
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out,
                            shape_fns::BroadcastPartial(c, gates, c.input(1)));
      c.set_output(0, out);
      c.set_output(1, std::move(out));
      return absl::OkStatus();
    });

// The graph optimizer's fused GRU gate cell (graph/gru_cell_fusion.h,
// kernels/nn/gru_cell_op.cc): Rill's internal op, the gate arithmetic of a Keras GRU step with
// reset_after. x [B, 3U] and hh [B, 3U] are the input's and the state's projections (biases
// added), their column blocks the gates z, r and the candidate in gate_order's blocks; h [B, U]
// is the state. z = sigmoid(x_z + hh_z), r = sigmoid(x_r + hh_r),
// c = tanh(x_c + r * hh_c), h_next = z * h + (1 - z) * c, batches broadcast as AddV2 and Mul do.
// units (when not -1) is the U the pass proved: the unfused graph's hh slices have fixed bounds,
// so an x of another width at run time is the unfused AddV2's "Incompatible shapes" error.
REGISTER_OP("_RillGruCell")
    .Input("x: T")
    .Input("hh: T")
    .Input("h: T")
    .Output("h_next: T")
    .Attr("T: {float}")
    .Attr("gate_order: list(int) = [0, 1, 2]")
    .Attr("units: int = -1")
    .SetShapeFn([](ShapeInferenceContext& c) -> absl::Status {
      // [batch, width / 3] of x and of hh broadcast (the gates' sums), then with h (z * h).
      auto gates_of = [](const PartialTensorShape& s) {
        if (s.unknown_rank() || s.rank() != 2) return PartialTensorShape({-1, -1});
        const int64_t width = s.dims()[1];
        return PartialTensorShape({s.dims()[0], width < 0 ? -1 : width / 3});
      };
      RILL_ASSIGN_OR_RETURN(
          PartialTensorShape gates,
          shape_fns::BroadcastPartial(c, gates_of(c.input(0)), gates_of(c.input(1))));
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out,
                            shape_fns::BroadcastPartial(c, gates, c.input(2)));
      c.set_output(0, std::move(out));
      return absl::OkStatus();
    });

// The graph optimizer's fused GRU update (graph/gru_cell_fusion.h, kernels/nn/gru_cell_op.cc):
// Rill's internal op, h_next = z * h + (1 - z) * tanh(c) for a GRU whose reset gate acts before
// the candidate's product, z, c and h broadcast as Mul and AddV2 broadcast them.
REGISTER_OP("_RillGruUpdate")
    .Input("z: T")
    .Input("c: T")
    .Input("h: T")
    .Output("h_next: T")
    .Attr("T: {float}")
    .SetShapeFn([](ShapeInferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape zh,
                            shape_fns::BroadcastPartial(c, c.input(0), c.input(2)));
      RILL_ASSIGN_OR_RETURN(PartialTensorShape zc,
                            shape_fns::BroadcastPartial(c, c.input(0), c.input(1)));
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out, shape_fns::BroadcastPartial(c, zh, zc));
      c.set_output(0, std::move(out));
      return absl::OkStatus();
    });

// The graph optimizer's whole LSTM loop (graph/lstm_sequence_fusion.h,
// kernels/nn/lstm_sequence_op.cc): Rill's internal op, a Keras-style LSTM loop frame run as one
// node. While counters[bound_counters[k]] < bounds[k] for every k, a step reads
// x = TensorListGetItem(input_list, counters[read_counter], element_shape), computes
// z = BiasAdd(x kernel + h recurrent_kernel, bias) (x taken as already projected when
// project_input is false), (c, h) = _RillLstmCell(z, c), writes h into output_list at
// counters[write_counter] (write_index when write_counter is -1), and adds 1 to every counter.
// Bounds that are not scalars give the loop Switch's error, or with to_bool (the condition went
// through ToBool) run while their broadcast shape has elements.
// Outputs are the counters, the list, h and c after the last step (the loop's Exit values).
REGISTER_OP("_RillLstmSequence")
    .Input("counters: num_counters * int32")
    .Input("bounds: num_bounds * int32")
    .Input("input_list: variant")
    .Input("element_shape: int32")
    .Input("output_list: variant")
    .Input("h: T")
    .Input("c: T")
    .Input("kernel: T")
    .Input("recurrent_kernel: T")
    .Input("bias: T")
    .Output("counters_out: num_counters * int32")
    .Output("output_list_out: variant")
    .Output("h_out: T")
    .Output("c_out: T")
    .Attr("T: {float}")
    .Attr("num_counters: int >= 1")
    .Attr("num_bounds: int >= 1")
    .Attr("bound_counters: list(int)")
    .Attr("read_counter: int")
    .Attr("write_counter: int = -1")
    .Attr("write_index: int = 0")
    .Attr("project_input: bool = true")
    .Attr("transpose_kernel: bool = false")
    .Attr("transpose_recurrent_kernel: bool = false")
    .Attr("constant_kernel: bool = false")
    .Attr("constant_recurrent_kernel: bool = false")
    .Attr("input_first: bool = true")
    .Attr("to_bool: bool = false")
    .Attr("bias_data_format: string = \"NHWC\"")
    .Attr("gate_order: list(int) = [0, 1, 2, 3]")
    .SetShapeFn([](ShapeInferenceContext& c) -> absl::Status {
      // Scalar counters and list handle; h and c unknown (their shapes may change in step 1).
      const int counters = c.num_outputs() - 3;
      for (int i = 0; i <= counters; ++i)
        c.set_output(i, PartialTensorShape(std::vector<int64_t>{}));
      return absl::OkStatus();
    });

// The graph optimizer's whole recurrent loop (graph/recurrent_sequence_fusion.h,
// kernels/nn/recurrent_sequence_op.cc): Rill's internal op, a loop frame (a Keras GRU or
// SimpleRNN layer) run as one node. `step` holds the frame's condition and body nodes as
// serialized NodeDefs (the first num_cond the condition's), their inputs "v:K" (loop variable K),
// "c:K" (constants K) or "s:J:O" (output O of step node J); `cond` names the loop condition and
// `next` each variable's next value; errors name the step node that gave them (cond_switch for a
// condition that is not a scalar). Outputs are the variables' values when the condition fails
// (the loop's Exit values).
REGISTER_OP("_RillRecurrentSequence")
    .Input("initial: Tvars")
    .Input("constants: Tconsts")
    .Output("final: Tvars")
    .Attr("Tvars: list(type) >= 1")
    .Attr("Tconsts: list(type) >= 0")
    .Attr("step: list(string)")
    .Attr("num_cond: int >= 0")
    .Attr("cond: string")
    .Attr("next: list(string)")
    .Attr("cond_switch: string = \"\"")
    .SetShapeFn([](ShapeInferenceContext& c) -> absl::Status {
      // Unknown: a variable's shape may change from step to step.
      for (int i = 0; i < c.num_outputs(); ++i) c.set_output(i, PartialTensorShape());
      return absl::OkStatus();
    });

// The graph optimizer's scale, shift and activation (session/graph_optimizer.h,
// kernels/nn/scale_shift_op.cc): Rill's internal op, y = act(x * scale + offset) with Mul's and
// AddV2's broadcasting; `activation` "Identity", "Relu" or "Relu6".
REGISTER_OP("_RillScaleShift")
    .Input("x: T")
    .Input("scale: T")
    .Input("offset: T")
    .Output("y: T")
    .Attr("T: {float}")
    .Attr("activation: {'Identity', 'Relu', 'Relu6'} = \"Identity\"")
    .SetShapeFn([](ShapeInferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape scaled,
                            shape_fns::BroadcastPartial(c, c.input(0), c.input(1)));
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out,
                            shape_fns::BroadcastPartial(c, scaled, c.input(2)));
      c.set_output(0, std::move(out));
      return absl::OkStatus();
    });

// The graph optimizer's layer normalization over the last dimension (session/graph_optimizer.h,
// kernels/nn/layer_norm_op.cc); TensorFlow's internal op of the same name. scale and offset: a
// scalar, [C] or [1, ..., 1, C].
REGISTER_OP("_MklLayerNorm")
    .Input("x: T")
    .Input("scale: T")
    .Input("offset: T")
    .Output("y: T")
    .Attr("T: {float}")
    .Attr("epsilon: float = 0.001")
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
// The eight-bit convolution of quantize_nodes graphs: Conv2D's output shape, scalar ranges.
REGISTER_OP("QuantizedConv2D")
    .Input("input: Tinput")
    .Input("filter: Tfilter")
    .Input("min_input: float")
    .Input("max_input: float")
    .Input("min_filter: float")
    .Input("max_filter: float")
    .Output("output: out_type")
    .Output("min_output: float")
    .Output("max_output: float")
    .Attr("Tinput: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("Tfilter: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("out_type: {qint8, quint8, qint32, qint16, quint16} = qint32")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(Conv2DShape(c));
      return QuantizedRangeShapes(c, 2, 6);
    });

// Its bias addition: the input's shape (at least a matrix), scalar ranges.
REGISTER_OP("QuantizedBiasAdd")
    .Input("input: T1")
    .Input("bias: T2")
    .Input("min_input: float")
    .Input("max_input: float")
    .Input("min_bias: float")
    .Input("max_bias: float")
    .Output("output: out_type")
    .Output("min_out: float")
    .Output("max_out: float")
    .Attr("T1: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("T2: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("out_type: {qint8, quint8, qint32, qint16, quint16}")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(BiasAddShape(c));
      return QuantizedRangeShapes(c, 2, 6);
    });

}  // namespace rill
