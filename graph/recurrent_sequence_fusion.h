// A whole recurrent loop frame (a Keras / tf.keras GRU or SimpleRNN layer, TF2 While as Rill
// lowers it or TensorFlow's own lowering) replaced by one _RillRecurrentSequence node
// (kernels/nn/recurrent_sequence_op.cc), which runs the frame's own step kernels in a plain loop.
//
// A GRU layer's loop runs ~25 nodes of plumbing (Merge, Switch, NextIteration, counters, the
// condition) around ten of work each step (TensorListGetItem, two MatMuls, Split and Squeeze of
// the bias, BiasAdd, AddV2, _RillGruCell, TensorListSetItem; a reset-before GRU more). A frame
// is rewritten when:
//   - it is a plain loop (graph/loop_frame.h's MatchLoopFrame: one LoopCond, everything on one CPU
//     device, inputs never dead, nothing read from outside but the Exits, no nested frame);
//   - every other frame node is an Identity, a NoOp or one of the step ops listed in
//     graph/recurrent_step_ops.h (arithmetic, activations, MatMul, BiasAdd, slicing, Select,
//     the TensorList reads and writes, the GRU and LSTM cells, comparisons and ToBool, and TF1
//     dynamic_rnn's TensorArray reads, writes and sizes, the array a loop constant and its flow a
//     loop variable) and reads no Switch's output 0;
//   - each such node runs either in the condition (it reads or waits on a variable's Merge, a
//     Switch (by a control edge: live whichever output the Switch took) or a condition node, and
//     no body node: it runs every time the condition is tested) or in the body (it reads a
//     Switch's output 1 or a body node, or waits on one: it runs when the condition held); a node
//     reading only loop constants, with nothing tying it to an iteration, is refused;
//   - the LoopCond reads a condition value, each NextIteration a body value (or a variable
//     through its Switch);
//   - the step holds a MatMul.
// LSTM frames graph/lstm_sequence_fusion.h's pass takes become its _RillLstmSequence, whose step
// has less plumbing: this pass runs that one first in each round, and takes the LSTM frames it
// leaves (masked LSTMs, other step shapes).
// The node's inputs are the variables' initial values, then the constant Enters' inputs; its
// outputs the variables' values after the loop (what the Exits gave). It carries the step as the
// nodes' own NodeDefs (attrs kept, and _rill_constant_weights where the graph optimizer's
// MarkConstantWeights would set it, so each MatMul makes the same packed-weights choice), inputs
// rewritten to "v:K" (variable K's current value), "c:K" (constant K) or "s:J:O" (output O of
// step node J). Identity nodes are looked through.
// Exactness: the kernel runs the same kernels on the same values, the condition's nodes before
// each test and the body's after a true one, so every output is the loop's bit for bit and a
// step's error is the error its node gave (naming that node, as the unfused loop's does). The fused
// node waits on the control inputs of the frame's Enters; the readers of each Exit read its output.
//
// Effects: per frame, one node added and the frame's nodes removed; SOURCE / SINK edges fixed up
// when anything changed. Linear in the graph's size plus the frames'. Needs exclusive access.
#ifndef RILL_GRAPH_RECURRENT_SEQUENCE_FUSION_H_
#define RILL_GRAPH_RECURRENT_SEQUENCE_FUSION_H_

#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

// Replaces every frame described above; returns how many. Errors: Internal when a node or edge
// cannot be added (a bug).
absl::StatusOr<int> FuseRecurrentSequences(Graph* graph);

}  // namespace rill

#endif  // RILL_GRAPH_RECURRENT_SEQUENCE_FUSION_H_
