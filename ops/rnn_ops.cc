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

REGISTER_OP("BlockLSTM")
    .Input("seq_len_max: int64")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Output("i: T")
    .Output("cs: T")
    .Output("f: T")
    .Output("o: T")
    .Output("ci: T")
    .Output("co: T")
    .Output("h: T")
    .Attr("forget_bias: float = 1.0")
    .Attr("cell_clip: float = 3.0")
    .Attr("use_peephole: bool = false")
    .Attr("T: {half, float}")
    .SetShapeFn(BlockLSTMShape);

REGISTER_OP("BlockLSTMV2")
    .Input("seq_len_max: int64")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Output("i: T")
    .Output("cs: T")
    .Output("f: T")
    .Output("o: T")
    .Output("ci: T")
    .Output("co: T")
    .Output("h: T")
    .Attr("cell_clip: float = 0.0")
    .Attr("use_peephole: bool = false")
    .Attr("T: {half, float}")
    .SetShapeFn(BlockLSTMShape);

REGISTER_OP("LSTMBlockCell")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Output("i: T")
    .Output("cs: T")
    .Output("f: T")
    .Output("o: T")
    .Output("ci: T")
    .Output("co: T")
    .Output("h: T")
    .Attr("forget_bias: float = 1.0")
    .Attr("cell_clip: float = 3.0")
    .Attr("use_peephole: bool = false")
    .Attr("T: {half, float}")
    .SetShapeFn(CellShape);

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
