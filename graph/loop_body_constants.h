// Constants inside a TF1 while loop's frame become loop constants (constant Enters).
//
// TensorFlow's while_loop and its lowering of a functional While put each Const of the loop's
// body and condition into the loop's frame with a control input from a node of the frame (the
// body's pivot, or the NoOp that stands for the function's input control): the executor runs such
// a Const once per iteration (a Keras GRU step runs about 17 of them: slice bounds, split
// dimensions, element shapes, the 1 of a counter's increment). This pass makes each such Const a
// node of the root frame, run once per step, read through an Enter with is_constant (delivered to
// every iteration, as TF1's while_loop delivers a captured tensor):
//   Const(^p1, ..., ^pk) -> consumer   becomes   Const -> Enter(is_constant) -> consumer(^p1...^pk)
// Every consumer waits on the Const's former control inputs (p_i), except those it already reads
// (data or control), so each consumer runs in the same iterations, after the same nodes, with the
// same deadness: a node is dead when any input is, and p_i is dead exactly when the Const was.
//
// A Const is rewritten when
//   - its inputs are control edges (at least one) from nodes of one frame F, F is a loop frame
//     whose Enters read the root frame (not a loop nested in another: its Enter must read the
//     Const from F's parent frame), and the graph's frames are consistent (each node's inputs in
//     one frame, an Exit never out of the root frame);
//   - it is read by at least one data edge and by no control edge, and every reader is an op that
//     is not control flow (Switch, Merge, Enter, Exit, NextIteration, LoopCond: a Merge is live
//     for one live input, so a live constant would change its deadness), _Retval, _Send or _Recv,
//     on the Const's assigned device.
// The Enter is named "<const>/loop_constant" (a "_<n>" suffix when taken), takes the Const's
// devices and F's frame_name and parallel_iterations.
//
// Effects: one node added per Const rewritten, none removed; SOURCE / SINK edges fixed up when
// anything changed. Linear in the graph's size plus its topological sort. Needs exclusive access
// to `graph`.
#ifndef RILL_GRAPH_LOOP_BODY_CONSTANTS_H_
#define RILL_GRAPH_LOOP_BODY_CONSTANTS_H_

#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

// Rewrites every Const described above in place; returns how many were rewritten. Errors:
// Internal when an edge or node cannot be added (a bug).
absl::StatusOr<int> HoistLoopBodyConstants(Graph* graph);

}  // namespace rill

#endif  // RILL_GRAPH_LOOP_BODY_CONSTANTS_H_
