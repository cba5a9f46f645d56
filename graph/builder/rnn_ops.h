// Builder wrappers for TensorFlow's fused recurrent cells (tf.contrib.rnn's LSTMBlockFusedCell,
// LSTMBlockCell and GRUBlockCell; TensorFlow's C++ API names). Included by graph/builder/ops.h.
//
//   std::vector<Output> lstm = ops::BlockLSTM(root, seq_len_max, x, cs, h, w, wci, wcf, wco, b);
//   Output h_seq = lstm[6];
//
// The LSTM wrappers return i, cs, f, o, ci, co, h; GRUBlockCell returns r, u, c, h. Errors are
// recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_RNN_OPS_H_
#define RILL_GRAPH_BUILDER_RNN_OPS_H_

#include <vector>

#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

std::vector<Output> BlockLSTM(const Scope& scope, const Input& seq_len_max, const Input& x,
                              const Input& cs_prev, const Input& h_prev, const Input& w,
                              const Input& wci, const Input& wcf, const Input& wco, const Input& b,
                              float forget_bias = 1.0f, float cell_clip = 3.0f,
                              bool use_peephole = false);
std::vector<Output> BlockLSTMV2(const Scope& scope, const Input& seq_len_max, const Input& x,
                                const Input& cs_prev, const Input& h_prev, const Input& w,
                                const Input& wci, const Input& wcf, const Input& wco,
                                const Input& b, float cell_clip = 0.0f, bool use_peephole = false);
std::vector<Output> LSTMBlockCell(const Scope& scope, const Input& x, const Input& cs_prev,
                                  const Input& h_prev, const Input& w, const Input& wci,
                                  const Input& wcf, const Input& wco, const Input& b,
                                  float forget_bias = 1.0f, float cell_clip = 3.0f,
                                  bool use_peephole = false);
std::vector<Output> GRUBlockCell(const Scope& scope, const Input& x, const Input& h_prev,
                                 const Input& w_ru, const Input& w_c, const Input& b_ru,
                                 const Input& b_c);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_RNN_OPS_H_
