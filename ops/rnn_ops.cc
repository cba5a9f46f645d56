// Op definitions of TensorFlow's fused recurrent cells (tf.contrib.rnn's LSTMBlockFusedCell,
// LSTMBlockCell and GRUBlockCell): BlockLSTM, BlockLSTMV2, LSTMBlockCell and GRUBlockCell.
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include <cstdint>
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

int64_t DimOf(const PartialTensorShape& s, int rank, int i) {
  return !s.unknown_rank() && s.rank() == rank ? s.dims()[i] : -1;
}

// Seven outputs [time, batch, cell]: time and batch from x [time, batch, input], cell from
// b [4 * cell].
absl::Status BlockLSTMShape(ShapeInferenceContext& c) {
  const int64_t b = DimOf(c.input(8), 1, 0);
  const std::vector<int64_t> dims{DimOf(c.input(1), 3, 0), DimOf(c.input(1), 3, 1),
                                  b >= 0 && b % 4 == 0 ? b / 4 : -1};
  for (int i = 0; i < c.num_outputs(); ++i) c.set_output(i, PartialTensorShape(dims));
  return absl::OkStatus();
}

// Outputs [batch, cell]: batch from x [batch, input], cell from the previous state
// [batch, cell] (cs_prev for LSTMBlockCell, h_prev for GRUBlockCell).
absl::Status CellShape(ShapeInferenceContext& c) {
  const std::vector<int64_t> dims{DimOf(c.input(0), 2, 0), DimOf(c.input(1), 2, 1)};
  for (int i = 0; i < c.num_outputs(); ++i) c.set_output(i, PartialTensorShape(dims));
  return absl::OkStatus();
}

// The LSTM ops' inputs after BlockLSTM's seq_len_max, and their seven outputs, in TensorFlow's
// order: `name` with seq_len_max first when `sequence`.
OpDefBuilder LstmOp(const char* name, bool sequence) {
  OpDefBuilder op(name);
  if (sequence) op.Input("seq_len_max: int64");
  for (const char* input :
       {"x: T", "cs_prev: T", "h_prev: T", "w: T", "wci: T", "wcf: T", "wco: T", "b: T"}) {
    op.Input(input);
  }
  for (const char* output : {"i: T", "cs: T", "f: T", "o: T", "ci: T", "co: T", "h: T"}) {
    op.Output(output);
  }
  return op;
}

// BlockLSTM and LSTMBlockCell: forget_bias, cell_clip 3, use_peephole, T.
OpDefBuilder LstmWithForgetBias(const char* name, bool sequence) {
  return LstmOp(name, sequence)
      .Attr("forget_bias: float = 1.0")
      .Attr("cell_clip: float = 3.0")
      .Attr("use_peephole: bool = false")
      .Attr("T: {half, float}");
}

const op_registry_internal::OpRegistrar kBlockLstm =
    LstmWithForgetBias("BlockLSTM", /*sequence=*/true).SetShapeFn(BlockLSTMShape);

// BlockLSTMV2 has no forget_bias and clips nothing by default.
const op_registry_internal::OpRegistrar kBlockLstmV2 = LstmOp("BlockLSTMV2", /*sequence=*/true)
                                                           .Attr("cell_clip: float = 0.0")
                                                           .Attr("use_peephole: bool = false")
                                                           .Attr("T: {half, float}")
                                                           .SetShapeFn(BlockLSTMShape);

const op_registry_internal::OpRegistrar kLstmBlockCell =
    LstmWithForgetBias("LSTMBlockCell", /*sequence=*/false).SetShapeFn(CellShape);

REGISTER_OP("GRUBlockCell")
    .Input("x: T")
    .Input("h_prev: T")
    .Input("w_ru: T")
    .Input("w_c: T")
    .Input("b_ru: T")
    .Input("b_c: T")
    .Output("r: T")
    .Output("u: T")
    .Output("c: T")
    .Output("h: T")
    .Attr("T: {float}")
    .SetShapeFn(CellShape);

}  // namespace
}  // namespace rill
