// Loop variables that a TF1 while loop carries unchanged become loop constants.
//
// TensorFlow's lowering of a functional While (a model frozen with lower_control_flow, as
// convert_variables_to_constants_v2 does by default) gives every loop variable an Enter, a Merge,
// a Switch, the body's Identity, a NextIteration and an Exit, also for the tensors the body only
// reads (a Keras recurrent layer's step limit and input TensorList). Each such variable costs a
// Merge, a NextIteration and the Identity nodes of its pass-through in every iteration. A variable
// is carried unchanged when
//   Merge(Enter(x), NextIteration(Identity*(Switch(Merge, LoopCond):1)))
// (any number of Identity-class nodes, with or without control inputs, between the Switch's true
// output and the NextIteration). Such a variable is rewritten to what TF1's while_loop makes of a
// captured tensor: its Enter gets is_constant (x is delivered to every iteration), the Merge's
// consumers (the Switch, the condition, control edges) read the Enter, the Switch stays (now on
// the constant Enter) so the body's reads are live exactly while the loop goes on and the Exit
// fires with the loop's last iteration, and the Merge, the NextIteration and the pass-through
// Identity nodes read by nothing else are removed.
//
// Exactness: the rewrite keeps every value, and every node's deadness in every iteration, when
// nothing in the loop's frame can be dead while the loop goes on. A frame is rewritten only when
//   - each of its Enters reads tensors (and control inputs) that are never dead: no Switch (or
//     other control-flow op, or _Recv) among their ancestors, so the loop is not in a branch
//     and is not nested in another loop;
//   - its nodes (reached forward from its Enters, up to and including its Exits) hold no
//     control-flow op but the loop's own: one LoopCond, Switches on it, the variables' Merges of
//     an Enter and a NextIteration, NextIterations into those Merges, Exits, plain Enters of this
//     frame; no nested loop, no conditional, no _Retval / _Arg / _Send / _Recv, no Ref variant;
//   - at least one of its variables is not carried unchanged (a loop of invariants alone keeps its
//     structure);
//   - the variable's Enter, Merge, Switch and NextIteration are on one device, its Merge has no
//     control inputs and its value_index output is read by nothing.
// Then every node of the frame is live in an iteration exactly when the loop's condition held,
// as a loop constant read through the Switch is.
//
// Effects: node ids of the removed nodes are freed; no node is added; SOURCE / SINK edges are
// fixed up when anything changed. Linear in the graph's size. Needs exclusive access to `graph`.
#ifndef RILL_GRAPH_LOOP_INVARIANTS_H_
#define RILL_GRAPH_LOOP_INVARIANTS_H_

#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

// Rewrites every loop variable carried unchanged (see above) in place; returns how many were
// rewritten. Errors: Internal when an edge cannot be rewired (a bug).
absl::StatusOr<int> MakeLoopInvariantsConstant(Graph* graph);

}  // namespace rill

#endif  // RILL_GRAPH_LOOP_INVARIANTS_H_
