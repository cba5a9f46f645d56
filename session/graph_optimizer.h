// The graph optimizer: rewrites a Run's graph (after feeds became _Arg and fetches _Retval, and
// pruning; before partitioning) once per Run signature, as TensorFlow's Grappler does:
//   - removal of nodes that only forward their inputs: Identity, StopGradient, PreventGradient,
//     IdentityN (output k is input k) and a float Mul by a scalar Const 1 read only by Mul, Add,
//     AddV2, Sub, RealDiv, Sigmoid or BiasAdd (exact for every value: a subnormal, which the Mul
//     flushes to 0, reads as 0 in those; Keras 3's swish multiplies by its beta of 1 before its
//     Sigmoid) — data inputs from non-ref outputs on the same
//     device, no control inputs; nodes waiting on one by a control edge wait on its inputs
//     instead;
//   - constant folding: a stateless node whose data inputs are all Const (and has no control
//     inputs), with its inputs and consumers on its own device, is run once on the CPU and
//     replaced by a Const of its output on that device (off the CPU only where `kernels` has a
//     Const kernel for the output's dtype there), up to max_folded_bytes (work a user placed across
//     devices, like the seed examples' towers, stays where it was placed); Shape, Size and Rank of
//     tensors whose shape inference knows fully become Consts too, so Shape -> StridedSlice -> Pack
//     chains fold away;
//   - common-subexpression elimination: stateless nodes with the same op, attrs, device and
//     inputs (in any order for commutative ops) are merged;
//   - fusions the CPU kernels exploit: MatMul + BiasAdd [+ Relu | Relu6] -> _FusedMatMul,
//     Conv2D + BiasAdd [+ Relu | Relu6 | LeakyRelu] -> _FusedConv2D (LeakyRelu on a CPU only,
//     its alpha as leakyrelu_alpha) and DepthwiseConv2dNative + BiasAdd
//     [+ Relu | Relu6] -> _FusedDepthwiseConv2dNative (TensorFlow's op names and attrs: the
//     product's attrs the fused op declares, such as strides, and its internal `_` attrs); then
//     swish and hard swish after a fused convolution, x * sigmoid(x) and
//     x * (Relu6(x + 3) / 6) with x read by nothing else, join it as fused_ops
//     ["BiasAdd", "_MklSwish"] and ["BiasAdd", "_FusedHardSwish"] (TensorFlow's names), and a
//     residual Add / AddV2 [+ Relu | Relu6] read from a fused convolution alone joins it as
//     ["BiasAdd", "Add" [, "Relu" | "Relu6"]] with the other operand as a second arg (as
//     TensorFlow's remapper does for oneDNN; the sum is oneDNN's sum post-op, in the unfused
//     order of operations).
//     Before that, batch norms at inference are folded into the product's constant filter and
//     a bias: FusedBatchNorm(V3) after Conv2D, DepthwiseConv2dNative or Conv2DBackpropInput (a
//     transposed convolution, whose BiasAdd then stays a node), and the Mul / Add by
//     per-channel constants that Keras 3 and tf.nn.batch_normalization leave once constants are
//     folded (after Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput or MatMul, with or
//     without a BiasAdd between). A fold may change
//     results by rounding only: one whose constants are not finite, or whose folded filter or
//     bias would not be (an overflow), is not made (GraphOptimizerStats::
//     folds_skipped_non_finite), so inf stays inf and a huge but finite result stays finite.
//   - an inference batch norm no product precedes (Mul and Add by per-channel Consts, as Keras
//     leaves ResNet v2's and DenseNet's pre-activation batch norms) with the Relu / Relu6 after
//     it -> one _RillScaleShift node (Rill's op, kernels/nn/scale_shift_op.cc), whose results
//     are the unfused nodes' bit for bit;
//   - layer normalization over the last axis as Keras's LayerNormalization and tf.nn.moments +
//     tf.nn.batch_normalization write it (Mean, SquaredDifference, Mean, Rsqrt(v + eps), the
//     scale and shift by Const gamma and beta) -> one _MklLayerNorm node (TensorFlow's name;
//     kernels/nn/layer_norm_op.cc), whose results are the unfused nodes' bit for bit;
//   - GELU as tf.nn.gelu and Keras write it (exact with Erfc, approximate with Tanh and Pow) and
//     an exact GELU written with Erf: (0.5 * x) * g(x) -> one _RillGelu node (Rill's op,
//     kernels/nn/gelu_op.cc), whose results are the unfused nodes' bit for bit;
//   - before the batch norm folds and fusions: an atrous convolution as TensorFlow writes it,
//     SpaceToBatchND -> Conv2D / DepthwiseConv2dNative (VALID) -> BatchToSpaceND with Const
//     blocks, paddings and crops and a finite float Const filter, on a CPU, becomes one dilated
//     convolution with explicit padding (session/atrous_fold.h), as ONNX Runtime's converter
//     writes it, so the batch norm and bias after it fold and fuse into it;
//   - a zero Pad / PadV2 of height and width before a float NHWC convolution (plain or fused,
//     padding VALID or EXPLICIT, finite Const filter, on a CPU) is folded into the convolution's
//     explicit padding (session/pad_fold.h): Keras's ZeroPadding2D before strided convolutions.
//   - MatMuls, BatchMatMulV2 / V3, convolutions (plain and fused) and Conv2DBackpropInput whose
//     weights are a Const's tensor (straight, or through Identity and Enter nodes) are marked
//     `_rill_constant_weights` (their kernel packs the weights once).
// Graphs with TF1 control flow (Switch, Merge, Enter, ...) get the marking and three passes that
// reason about frames and deadness; the other structural rewrites are unsafe there without
// that analysis. Loop variables a while loop carries unchanged become loop constants
// (graph/loop_invariants.h), so a loop TensorFlow lowered runs no Merge / NextIteration for its
// step limit and input list; then Identity nodes go where deadness allows
// (graph/control_flow_identities.h; with remove_identities), so a lowered loop body runs without
// its input and output Identities; then a Const in a loop's frame becomes a Const of the root
// frame read through a constant Enter (graph/loop_body_constants.h; with loop_invariants), so it
// runs once per step instead of once per iteration. A recurrent layer's MatMuls in its while loop
// still pack their weights.
//
// Devices: every decision reads each node's assigned device (Node::assigned_device_name(), the
// placement); a node the optimizer creates takes the assigned device of the node it replaces or
// adds to, and no node moves to another device.
//
// Shapes: when the graph has a Shape, Size, Rank or Mean node (the rewrites that read shapes:
// Shape / Size / Rank folding, the layer-norm fusion's axis), constant folding first infers every
// node's output shapes afresh (InferShapes in graph/graph_def_import.h; the shapes a node carried
// are replaced) on the graph identity removal left, so Shape / Size / Rank fold exactly where
// shape inference of this run's graph knows the shape (a feed's _Arg, and what depends on it, has
// an unknown shape); when inference fails none folds that way. Without such a node the nodes keep
// the shapes they carry. Nodes the optimizer creates carry output shapes (a Const its value's, a
// rewritten node those of the node it replaces).
//
// Graph effects: a rewritten node (a folded Const, a fused op, a batch norm turned BiasAdd) is a
// new node with the old one's name, consumers and assigned device, so node ids are not kept; the
// Consts made for folded filters and biases are named after the nodes they come from
// ("conv/folded_filter_0", "bn/folded_bias_0", "conv/scaled_filter_1", "mul/folded_bias_1").
// SOURCE and SINK edges are fixed up at the end (FixupSourceAndSinkEdges). Every pass is linear in
// the graph's size apart from sorting nodes into their original order (n log n).
//
// Options: ConfigProto.graph_options.optimizer_options — opt_level L0 turns everything off
// unless do_constant_folding / do_common_subexpression_elimination ask for that pass; the
// default (L1) turns everything on.
//
// Errors: Internal only (a rewrite that breaks the graph is a bug); a node that fails to fold is
// left unfolded (its error shows at run time, naming the node, as without the optimizer).
// Reads only its arguments and the op and kernel registries (and runs kernels); calls on distinct
// Graphs may run concurrently.
#ifndef RILL_SESSION_GRAPH_OPTIMIZER_H_
#define RILL_SESSION_GRAPH_OPTIMIZER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "core/device.h"
#include "graph/graph.h"
#include "kernels/framework/kernel_registry.h"
#include "proto/config.pb.h"

namespace rill {

struct GraphOptimizerOptions {
  bool remove_identities = true;
  bool constant_folding = true;
  bool common_subexpression_elimination = true;
  bool fusion = true;
  bool loop_invariants = true;  // graph/loop_invariants.h
  // graph/loop_input_projection.h, with `fusion`; off: on the recurrent models measured it did not
  // pay (docs/performance.md, "Recurrent loops").
  bool loop_input_projection = false;
  int64_t max_folded_bytes = 10 << 20;
  Device* cpu = nullptr;  // runs folded nodes; not owned; folding is skipped when null
  // The kernels the session's devices can run (the placer's view); not owned. Fusions are made on
  // a non-CPU device only when it has a kernel for the fused op; null: on CPUs only.
  const KernelAvailability* kernels = nullptr;

  // From the ConfigProto (see above).
  static GraphOptimizerOptions FromConfig(const ConfigProto& config);
};

// What the optimizer did, for tests and logs.
struct GraphOptimizerStats {
  int identities_removed = 0;
  int nodes_folded = 0;
  int nodes_merged = 0;
  int fusions = 0;
  int batch_norms_folded = 0;
  int scale_shifts_folded = 0;  // Mul / Add by per-channel constants folded into a product
  // Batch norm, scale and shift folds not made because a constant, or a folded weight or bias,
  // was not finite (inf or NaN): the unfolded graph keeps TensorFlow's results.
  int folds_skipped_non_finite = 0;
  int constant_weights_marked = 0;  // MatMuls / convolutions with Const weights (marked)
  int pads_folded = 0;              // convolutions that read a zero Pad's input instead
  // SpaceToBatchND -> convolution -> BatchToSpaceND made one dilated convolution
  int atrous_convolutions_folded = 0;
  int layer_norms_fused = 0;    // mean / variance / rsqrt patterns made _MklLayerNorm
  int gelus_fused = 0;          // GELU patterns made _RillGelu
  int residual_adds_fused = 0;  // Add [+ Relu] after _FusedConv2D made its "Add" post-op
  int scale_shifts_fused = 0;   // Mul + Add by channel Consts [+ Relu] made _RillScaleShift
  int loop_invariants_made_constant = 0;  // loop variables carried unchanged made constant Enters
};

// Rewrites `graph` in place (see above). `stats`, when given, counts what was done.
absl::Status OptimizeGraph(const GraphOptimizerOptions& options, Graph* graph,
                           GraphOptimizerStats* stats = nullptr);

}  // namespace rill

#endif  // RILL_SESSION_GRAPH_OPTIMIZER_H_
