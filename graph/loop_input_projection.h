// A recurrent loop's input projection computed once, before the loop, for every step.
//
// A Keras RNN / LSTM / GRU layer (TF2's While and its TF1 lowering alike) unstacks its input X of
// [T, B, D] into a TensorList, and each step reads x_t = TensorListGetItem(list, t) and multiplies
// it by the layer's kernel W of [D, N]. Done in the loop, that is T products of [B, D] x [D, N],
// each paying a node's scheduling in the loop's frame. This pass computes the T products as one
// [T * B, D] x [D, N] product before the loop (BatchMatMulV2 of X by W, which runs as one GEMM
// when W has no batch dims) and makes the list the loop reads the list of its rows:
//
//   X -> TensorListFromTensor(X, es) -> Enter(const) [-> Switch:1] [-> Identity*] -> GetItem(., i)
//     -> MatMul(., W-chain)
// becomes
//   BatchMatMulV2(X, W, ^TensorListFromTensor) -> TensorListFromTensor(., -1) -> Enter(const) ...
//     -> GetItem(., i, ^W-chain's last node, ^the MatMul's control inputs)
// and the MatMul's readers read the GetItem. Any index works (reversed reads included): element i
// of the new list is element i of the old list times W.
//
// A MatMul is rewritten when
//   - it is "MatMul" of float with transpose_a false, its input 0 is a TensorListGetItem's output
//     read by nothing else (control readers stay on the GetItem), and its control inputs are not
//     Switches;
//   - its input 1 is W through Identity nodes and one constant Enter (is_constant) of the
//     GetItem's frame, W a root-frame float Const of rank 2;
//   - the GetItem's list comes through Identity nodes and at most one Switch's true output (its
//     predicate a LoopCond) from a constant Enter whose input is a TensorListFromTensor of float;
//     each of these nodes feeds the next one alone with data (the Switch's false output may feed
//     Exits whose outputs nothing reads as data);
//   - the TensorListFromTensor's element_shape is a Const [b, D] with D == W's inner dim, and its
//     inputs are never dead (no control-flow op or _Recv among their ancestors: the loop is not in
//     a branch and not nested in another loop);
//   - every node named here is on one CPU device.
// Exactness: TensorListFromTensor checks X against [b, D], so when it succeeds every step's
// MatMul would succeed and so does the product before the loop (which waits on it, so a bad X
// fails with the same error as before); values are the same products, up to the GEMM's rounding
// for a different row count (the rows of one product are independent sums over D). Deadness: the
// GetItem waits on what the MatMul waited on (W's chain, its control inputs), so it is dead
// exactly when the MatMul was; the loop structure (the Enter, Switch, Exit) is unchanged. The
// product computes all T elements even when the loop reads fewer.
//
// Effects: per MatMul rewritten, three nodes added (the product, the new list and its
// element_shape Const) and the MatMul removed; the old list stays (the product waits on it).
// SOURCE / SINK edges fixed up when anything changed. Linear in the graph's size plus its
// topological sort. Needs exclusive access to `graph`.
#ifndef RILL_GRAPH_LOOP_INPUT_PROJECTION_H_
#define RILL_GRAPH_LOOP_INPUT_PROJECTION_H_

#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

// Rewrites every MatMul described above in place; returns how many were rewritten. Errors:
// Internal when a node or edge cannot be added (a bug).
absl::StatusOr<int> HoistLoopInputProjections(Graph* graph);

}  // namespace rill

#endif  // RILL_GRAPH_LOOP_INPUT_PROJECTION_H_
