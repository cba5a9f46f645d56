// An LSTM step's gate arithmetic fused into one _RillLstmCell node (kernels/nn/lstm_cell_op.cc).
//
// Keras's LSTMCell (TF2 While and its TF1 lowering alike) computes, per step, from the gate
// pre-activations z = x W + h U + b ([B, 4U]) and the carried state c:
//   i, f, g, o = Split(axis, z)             (4 ways; axis a Const 1 or -1, maybe entered)
//   c' = Sigmoid(f) * c + Sigmoid(i) * Tanh(g)
//   h  = Sigmoid(o) * Tanh(c')
// ten nodes the executor schedules one by one in every iteration. This pass replaces them by
// _RillLstmCell(z, c) -> (c', h) with attr gate_order (which Split output plays which gate, read
// from the graph's structure), so the readers of c' (the AddV2) and of h (the last Mul) read the
// fused node's outputs 0 and 1.
//
// A Split is rewritten when
//   - it is "Split" of float into 4 along a Const (through Enter / Identity nodes) 1 or -1, and z
//     is rank 2 by construction: a MatMul, or BiasAdd / Add / AddV2 of such (so Split's axis is
//     z's last);
//   - its outputs are read, one each, by three Sigmoids and a Tanh, each read once; the Tanh (g)
//     and one Sigmoid (i) by one Mul, another Sigmoid (f) by a Mul with some c, both Muls by one
//     Add / AddV2 (c'), which a Tanh reads, which the last Sigmoid (o) multiplies in one Mul (h);
//     every node but c' and h read by nothing else, no control edges out of any of them;
//   - every one of them is float and on one CPU device.
// Exactness: the kernel rounds each operation as the unfused kernels do, with Mul's broadcasting
// of c, so values and errors are the original's; the fused node waits on every control input of
// the nodes it replaces, and is dead when z or c is, as each of them was.
//
// Effects: one node added and ten removed per cell; SOURCE / SINK edges fixed up when anything
// changed. Linear in the graph's size. Needs exclusive access to `graph`.
#ifndef RILL_GRAPH_LSTM_CELL_FUSION_H_
#define RILL_GRAPH_LSTM_CELL_FUSION_H_

#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

// Fuses every cell described above in place; returns how many were fused. Errors: Internal when
// a node or edge cannot be added (a bug).
absl::StatusOr<int> FuseLstmCells(Graph* graph);

}  // namespace rill

#endif  // RILL_GRAPH_LSTM_CELL_FUSION_H_
