#include "graph/builder/rnn_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

std::vector<Output> Outputs(const Operation& node) {
  std::vector<Output> out;
  for (int i = 0; i < node.num_outputs(); ++i) out.push_back(node.output(i));
  return out;
}

}  // namespace

std::vector<Output> BlockLSTM(const Scope& scope, const Input& seq_len_max, const Input& x,
                              const Input& cs_prev, const Input& h_prev, const Input& w,
                              const Input& wci, const Input& wcf, const Input& wco, const Input& b,
                              float forget_bias, float cell_clip, bool use_peephole) {
  return Outputs(OpBuilder(scope, "BlockLSTM")
                     .Input(seq_len_max)
                     .Input(x)
                     .Input(cs_prev)
                     .Input(h_prev)
                     .Input(w)
                     .Input(wci)
                     .Input(wcf)
                     .Input(wco)
                     .Input(b)
                     .Attr("forget_bias", forget_bias)
                     .Attr("cell_clip", cell_clip)
                     .Attr("use_peephole", use_peephole)
                     .Finalize());
}

std::vector<Output> BlockLSTMV2(const Scope& scope, const Input& seq_len_max, const Input& x,
                                const Input& cs_prev, const Input& h_prev, const Input& w,
                                const Input& wci, const Input& wcf, const Input& wco,
                                const Input& b, float cell_clip, bool use_peephole) {
  return Outputs(OpBuilder(scope, "BlockLSTMV2")
                     .Input(seq_len_max)
                     .Input(x)
                     .Input(cs_prev)
                     .Input(h_prev)
                     .Input(w)
                     .Input(wci)
                     .Input(wcf)
                     .Input(wco)
                     .Input(b)
                     .Attr("cell_clip", cell_clip)
                     .Attr("use_peephole", use_peephole)
                     .Finalize());
}

std::vector<Output> LSTMBlockCell(const Scope& scope, const Input& x, const Input& cs_prev,
                                  const Input& h_prev, const Input& w, const Input& wci,
                                  const Input& wcf, const Input& wco, const Input& b,
                                  float forget_bias, float cell_clip, bool use_peephole) {
  return Outputs(OpBuilder(scope, "LSTMBlockCell")
                     .Input(x)
                     .Input(cs_prev)
                     .Input(h_prev)
                     .Input(w)
                     .Input(wci)
                     .Input(wcf)
                     .Input(wco)
                     .Input(b)
                     .Attr("forget_bias", forget_bias)
                     .Attr("cell_clip", cell_clip)
                     .Attr("use_peephole", use_peephole)
                     .Finalize());
}

std::vector<Output> GRUBlockCell(const Scope& scope, const Input& x, const Input& h_prev,
                                 const Input& w_ru, const Input& w_c, const Input& b_ru,
                                 const Input& b_c) {
  return Outputs(OpBuilder(scope, "GRUBlockCell")
                     .Input(x)
                     .Input(h_prev)
                     .Input(w_ru)
                     .Input(w_c)
                     .Input(b_ru)
                     .Input(b_c)
                     .Finalize());
}

}  // namespace ops
}  // namespace rill
