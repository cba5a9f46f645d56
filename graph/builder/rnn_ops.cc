#include "graph/builder/rnn_ops.h"

#include <functional>
#include <initializer_list>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

// Adds `inputs` to `op` in order, builds it and returns all its outputs.
std::vector<Output> Build(OpBuilder& op,
                          std::initializer_list<std::reference_wrapper<const Input>> inputs) {
  for (const Input& input : inputs) op.Input(input);
  const Operation node = op.Finalize();
  std::vector<Output> out;
  for (int i = 0; i < node.num_outputs(); ++i) out.push_back(node.output(i));
  return out;
}

}  // namespace

std::vector<Output> BlockLSTM(const Scope& scope, const Input& seq_len_max, const Input& x,
                              const Input& cs_prev, const Input& h_prev, const Input& w,
                              const Input& wci, const Input& wcf, const Input& wco, const Input& b,
                              float forget_bias, float cell_clip, bool use_peephole) {
  OpBuilder op(scope, "BlockLSTM");
  op.Attr("forget_bias", forget_bias)
      .Attr("cell_clip", cell_clip)
      .Attr("use_peephole", use_peephole);
  return Build(op, {seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b});
}

std::vector<Output> BlockLSTMV2(const Scope& scope, const Input& seq_len_max, const Input& x,
                                const Input& cs_prev, const Input& h_prev, const Input& w,
                                const Input& wci, const Input& wcf, const Input& wco,
                                const Input& b, float cell_clip, bool use_peephole) {
  OpBuilder op(scope, "BlockLSTMV2");
  op.Attr("cell_clip", cell_clip).Attr("use_peephole", use_peephole);
  return Build(op, {seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b});
}

std::vector<Output> LSTMBlockCell(const Scope& scope, const Input& x, const Input& cs_prev,
                                  const Input& h_prev, const Input& w, const Input& wci,
                                  const Input& wcf, const Input& wco, const Input& b,
                                  float forget_bias, float cell_clip, bool use_peephole) {
  OpBuilder op(scope, "LSTMBlockCell");
  op.Attr("forget_bias", forget_bias)
      .Attr("cell_clip", cell_clip)
      .Attr("use_peephole", use_peephole);
  return Build(op, {x, cs_prev, h_prev, w, wci, wcf, wco, b});
}

std::vector<Output> GRUBlockCell(const Scope& scope, const Input& x, const Input& h_prev,
                                 const Input& w_ru, const Input& w_c, const Input& b_ru,
                                 const Input& b_c) {
  OpBuilder op(scope, "GRUBlockCell");
  return Build(op, {x, h_prev, w_ru, w_c, b_ru, b_c});
}

}  // namespace ops
}  // namespace rill
