// A whole LSTM loop frame replaced by one _RillLstmSequence node (kernels/nn/lstm_sequence_op.cc).
//
// A Keras LSTM layer (TF2's While as Rill lowers it, or TensorFlow's own lowering), once
// lstm_cell_fusion has made its gates one _RillLstmCell, runs a loop whose every iteration is
// ~25 nodes of plumbing (Merge, Switch, NextIteration, counters, the condition) around five
// nodes of work. This pass runs after the cell fusions and replaces the frame by one node that
// runs the same step kernels in a plain loop. A frame (the nodes reachable from its Enters up to
// its Exits) is rewritten when it is exactly:
//   - one LoopCond whose input is Less(counter, bound) or LogicalAnd of two such Less (int32),
//     maybe through ToBool, each bound a constant Enter (is_constant) of a value from outside
//     the loop (of any shape: the kernel gives a non-scalar condition's outcome); every
//     counter's initial value proven a scalar by shape inference (graph/graph_def_import.h's
//     InferShapes, run when a frame matched) or as a reduction (Max, Sum, ...) of such a scalar;
//   - loop variables (Enter, Merge, Switch on that LoopCond, NextIteration, maybe Exit), each
//     one of: a counter (next = Add / AddV2(counter, 1), int32, the 1 a Const through Enter /
//     Identity), the output list (next = TensorListSetItem(list, index, h'), index a counter or
//     an int32 scalar Const), h and c;
//   - the step: x = TensorListGetItem(L, counter, S) (float; L and S constant Enters), maybe
//     MatMul(x, W) (W a constant Enter; not transposed a), MatMul(h, U) likewise, their Add /
//     AddV2, BiasAdd(., b) (b a constant Enter), _RillLstmCell(., c) -> (c', h'); c's next is
//     c', h's next is h';
//   - nothing else but Identity, NoOp, Const nodes (Consts read only as the counters' 1 or the
//     write index), and Switches of constant Enters whose Exits nothing reads as data; no node
//     read from outside the frame but the Exits; no nested frame.
// Identity and Switch:1 are looked through when reading operands. The frame, its variables and
// these conditions come from graph/loop_frame.h's MatchLoopFrame: every frame node and every
// Enter's input on one CPU device, and the Enters' inputs (and their control inputs) never dead
// (graph/pass_queries.h's NeverDeadNodes): then the loop's deadness is nobody's.
// Exactness: the node runs the body's own kernels (GetItem, MatMul with the same packed-weights
// choice, AddV2, BiasAdd, _RillLstmCell, SetItem) on the same values in the same order, so every
// output is bit for bit the loop's and a step's error is its node's error (naming that node, listed
// in the fused node's _rill_error_nodes). The readers of each variable's Exit read the fused node's
// output for it; the fused node waits on the control inputs of the frame's Enters.
//
// Effects: per frame, one node added and the frame's nodes removed; SOURCE / SINK edges fixed up
// when anything changed. Linear in the graph's size plus the frames'. Needs exclusive access.
#ifndef RILL_GRAPH_LSTM_SEQUENCE_FUSION_H_
#define RILL_GRAPH_LSTM_SEQUENCE_FUSION_H_

#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

// Replaces every frame described above; returns how many. Errors: Internal when a node or edge
// cannot be added (a bug).
absl::StatusOr<int> FuseLstmSequences(Graph* graph);

}  // namespace rill

#endif  // RILL_GRAPH_LSTM_SEQUENCE_FUSION_H_
