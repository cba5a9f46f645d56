// A GRU step's gate arithmetic fused into one _RillGruCell node (kernels/nn/gru_cell_op.cc).
//
// Keras's GRUCell with reset_after (the default; TF2 While and its TF1 lowering alike) computes,
// per step, from the projections x = x_t W + b_x ([B, 3U]) and hh = h U + b_h ([B, 3U]) and the
// state h:
//   x_z, x_r, x_c = Split(axis, x)                (3 ways; axis a Const 1 or -1, maybe entered)
//   hh_z, hh_r, hh_c = StridedSlice(hh, [:, a:b])  (three column blocks of U)
//   z = Sigmoid(x_z + hh_z);  r = Sigmoid(x_r + hh_r);  c = Tanh(x_c + r * hh_c)
//   h' = z * h + (1 - z) * c
// fifteen nodes the executor schedules one by one in every iteration. This pass replaces them by
// _RillGruCell(x, hh, h) -> h' with attr gate_order (which block plays z, r and c, read from the
// graph's structure), so the readers of h' read the fused node's output.
//
// A Split is rewritten when
//   - it is "Split" of float into 3 along a Const (through Enter / Identity nodes) 1 or -1;
//   - each output is read once, by an Add / AddV2 whose other input is a StridedSlice of hh (z and
//     r) or a Mul of r by a StridedSlice of hh (c); the three slices read the same hh, take every
//     row ([:, a:b], stride 1, no other masks) and, with hh's width, the column block of the
//     Split output they are added to; the sums read by Sigmoid, Sigmoid, Tanh; z read by a Mul
//     with h and by a Sub from a Const 1 (scalar or all dims 1, through Enter / Identity); the
//     Sub and the Tanh multiplied; both products summed by an Add / AddV2 (h');
//   - shapes are proven (graph/graph_def_import.h's InferShapes, run once when a structure
//     matched): x and hh rank 2 of one known width 3U; h is read at input 0 by a MatMul (not
//     transposed) with a [U, ...] second input ([..., U] transposed) that hh is, or is a bias or
//     sum of, so h is [B, U] whenever the step gets to the cell;
//   - every replaced node is float, on one CPU device, read by nothing else (h' aside), with no
//     control edges out (h' aside).
// Exactness: the kernel rounds each operation as the unfused kernels do, batches broadcasting as
// AddV2 and Mul do, so values and errors are the original's. The fused node waits on every control
// input of the nodes it replaces (none of them can come from a reader of h': that would be a cycle
// in the original graph, and the intermediates have no other readers), and is dead when x, hh, h
// or one of those is, as h' was.
//
// Effects: one node added and fifteen removed per cell, with the Consts, Enters and Identities
// that fed only them (the axis, the slice bounds, the 1); every node's inferred shapes recomputed
// when a structure matched; SOURCE / SINK edges fixed up when anything changed. Linear in the
// graph's size. Needs exclusive access to `graph`.
#ifndef RILL_GRAPH_GRU_CELL_FUSION_H_
#define RILL_GRAPH_GRU_CELL_FUSION_H_

#include "absl/status/statusor.h"
#include "graph/graph.h"

namespace rill {

// Fuses every cell described above in place; returns how many were fused. Errors: Internal when
// a node or edge cannot be added (a bug).
absl::StatusOr<int> FuseGruCells(Graph* graph);

// The update of a GRU whose reset gate acts before the candidate's product (Keras's
// reset_after=False, TF1's GRUCell: r * h goes into that MatMul, so the gates cannot join one
// node), h' = z * h + (1 - z) * Tanh(c): Tanh, Sub, two Muls and the Add become one
// _RillGruUpdate(z, c, h) node. Rewritten when the Tanh is read once, by a Mul with Sub(1, z)
// (1 a float scalar Const, through Enter / Identity nodes), that Sub once by the same Mul, and
// z * h (either order) and that product are summed by an Add / AddV2, each product read by that
// Add alone; every node float, on one CPU device, with no control edges out (h' aside). Any
// shapes: the kernel broadcasts z, c and h as Mul, Sub and AddV2 do (their values and errors).
// Control inputs move to the fused node as above. Run after FuseGruCells (whose cells hold the
// same tail). Returns how many were fused; effects and errors as FuseGruCells's (no shape
// inference).
absl::StatusOr<int> FuseGruUpdates(Graph* graph);

}  // namespace rill

#endif  // RILL_GRAPH_GRU_CELL_FUSION_H_
