// Recurrent loops the loop-frame passes' unit tests share (graph/lstm_sequence_fusion_test.cc,
// graph/recurrent_sequence_fusion_test.cc): a Keras-like GRU and LSTM layer in TF1 loop form over
// x [4, 2, 3] (x_t read from a TensorList at t, h' written into a list), with options that give
// the shapes each pass must take or leave, and a TF1 dynamic_rnn-like loop over TensorArrays.
// Test-only; each call builds a new graph.
#ifndef RILL_GRAPH_RECURRENT_TEST_GRAPHS_H_
#define RILL_GRAPH_RECURRENT_TEST_GRAPHS_H_

#include <cstdint>
#include <vector>

#include "graph/builder/ops.h"

namespace rill {
namespace recurrent_test {

inline std::vector<float> Ramp(int64_t n, float start, float step) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

struct GruOptions {
  bool other_op = false;   // h' goes through a Softmax (not a step op) before the list
  bool in_branch = false;  // x comes through a Switch: the loop's inputs may be dead
};

// A Keras-like GRU (reset_after) with 5 units: a loop counter i < max and a time step t < steps,
// the bias [2, 15] split and squeezed inside the step (as Keras 3 freezes it), h' written at t.
inline Scope KerasGru(const GruOptions& o) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  if (o.in_branch) {
    x = ops::Switch(root.WithOpName("branch"), x, ops::Placeholder(root.WithOpName("p"), DT_BOOL))
            .output_true;
  }
  Output steps = ops::Placeholder(root.WithOpName("steps"), DT_INT32);
  Output max = ops::Placeholder(root.WithOpName("max"), DT_INT32);
  Output es = ops::Const(root.WithOpName("es"), {2, 3});
  Output list = ops::TensorListFromTensor(root.WithOpName("unstack"), x, es);
  Output out0 = ops::TensorListReserve(root.WithOpName("reserve"), ops::Const(root, -1),
                                       ops::Const(root, 4), DT_FLOAT);
  Output w =
      ops::Const<float>(root.WithOpName("w"), Ramp(3 * 15, 0.037f, -0.1f), TensorShape({3, 15}));
  Output u =
      ops::Const<float>(root.WithOpName("u"), Ramp(5 * 15, -0.013f, 0.08f), TensorShape({5, 15}));
  Output b = ops::Const<float>(root.WithOpName("b"), Ramp(30, 0.05f, -0.05f), TensorShape({2, 15}));
  Output zeros =
      ops::Const<float>(root.WithOpName("zeros"), std::vector<float>(10, 0.f), TensorShape({2, 5}));
  std::vector<Output> vars = {ops::Const(root, 0), ops::Const(root, 0), out0, zeros};
  const int n = static_cast<int>(vars.size());
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), vars,
      [&](const Scope& s, const std::vector<Output>& v) {
        return ops::LogicalAnd(s, ops::Less(s, v[0], v[n]), ops::Less(s, v[1], v[n + 1]));
      },
      [&](const Scope& s, const std::vector<Output>& v) {
        Output xt = ops::TensorListGetItem(s.WithOpName("get"), v[n + 2], v[1], v[n + 3], DT_FLOAT);
        std::vector<Output> bias = ops::Split(s, ops::Const(s, 0), v[n + 6], 2);
        Output xp = ops::BiasAdd(s, ops::MatMul(s.WithOpName("mm_x"), xt, v[n + 4]),
                                 ops::Squeeze(s, bias[0]));
        Output hu = ops::MatMul(s.WithOpName("mm_h"), v[3], v[n + 5]);
        Output hh = ops::AddV2(s, hu, ops::Squeeze(s, bias[1]));
        std::vector<Output> xs = ops::Split(s, ops::Const(s, 1), xp, 3);
        std::vector<Output> hs = ops::Split(s, ops::Const(s, 1), hh, 3);
        Output z = ops::Sigmoid(s, ops::AddV2(s, xs[0], hs[0]));
        Output r = ops::Sigmoid(s, ops::AddV2(s, xs[1], hs[1]));
        Output c = ops::Tanh(s, ops::AddV2(s, xs[2], ops::Mul(s, r, hs[2])));
        Output h = ops::AddV2(s.WithOpName("h_next"), ops::Mul(s, z, v[3]),
                              ops::Mul(s, ops::Sub(s, ops::Const(s, 1.f), z), c));
        Output item = o.other_op ? ops::Softmax(s, h) : h;
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)),
                                   ops::Add(s, v[1], ops::Const(s, 1)),
                                   ops::TensorListSetItem(s, v[2], v[1], item), h};
      },
      ops::WhileLoopAttrs().Invariants({max, steps, list, es, w, u, b}));
  ops::TensorListStack(root.WithOpName("hs"), out[2], ops::Const(root, {2, 5}), DT_FLOAT);
  ops::Identity(root.WithOpName("h"), out[3]);
  return root;
}

struct LstmOptions {
  bool extra_op = false;               // h' goes through a Relu before the list
  bool z_carried = false;              // a sixth variable carries z out of the loop
  bool in_branch = false;              // x comes through a Switch: the loop's inputs may be dead
  bool write_at_zero = false;          // the list is written at a Const index (Keras's last output)
  bool no_cell = false;                // g = Relu: lstm_cell_fusion leaves the gates alone
  bool unknown_counter_shape = false;  // t starts from a value of unknown shape
  // Keras's masked LSTM: a bool mask [4, 2, 1] ("mask") read from a second list and tiled to
  // [2, 5]; h, c and the list's item are SelectV2(mask, new, old).
  bool masked = false;
};

// A Keras-like LSTM with 5 units: a loop counter i < max and a time step t < steps, h' written at
// t (or 0), h and c carried.
inline Scope KerasLstm(const LstmOptions& o) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  if (o.in_branch) {
    x = ops::Switch(root.WithOpName("branch"), x, ops::Placeholder(root.WithOpName("p"), DT_BOOL))
            .output_true;
  }
  const PartialTensorShape scalar(std::vector<int64_t>{});
  Output steps = ops::Placeholder(root.WithOpName("steps"), DT_INT32);  // any shape
  Output max = ops::Placeholder(root.WithOpName("max"), DT_INT32, scalar);
  Output es = ops::Const(root.WithOpName("es"), {2, 3});
  Output list = ops::TensorListFromTensor(root.WithOpName("unstack"), x, es);
  Output out0 = ops::TensorListReserve(root.WithOpName("reserve"), ops::Const(root, -1),
                                       ops::Const(root, 4), DT_FLOAT);
  Output w =
      ops::Const<float>(root.WithOpName("w"), Ramp(3 * 20, 0.037f, -1.f), TensorShape({3, 20}));
  Output u =
      ops::Const<float>(root.WithOpName("u"), Ramp(5 * 20, -0.013f, 0.8f), TensorShape({5, 20}));
  Output b = ops::Const<float>(root.WithOpName("b"), Ramp(20, 0.05f, -0.5f), TensorShape({20}));
  Output zeros =
      ops::Const<float>(root.WithOpName("zeros"), std::vector<float>(10, 0.f), TensorShape({2, 5}));
  Output t0 = o.unknown_counter_shape ? ops::Placeholder(root.WithOpName("t0"), DT_INT32)
                                      : ops::Const(root, 0);
  std::vector<Output> vars = {ops::Const(root, 0), t0, out0, zeros, zeros};
  if (o.z_carried)
    vars.push_back(ops::Const<float>(root, std::vector<float>(40, 0.f), TensorShape({2, 20})));
  std::vector<Output> invariants = {max, steps, list, es, w, u, b};
  if (o.masked) {
    Output mask = ops::Placeholder(root.WithOpName("mask"), DT_BOOL);
    Output mask_es = ops::Const(root.WithOpName("mask_es"), {2, 1});
    invariants.push_back(ops::TensorListFromTensor(root.WithOpName("mask_list"), mask, mask_es));
    invariants.push_back(mask_es);
  }
  const int n = static_cast<int>(vars.size());
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), vars,
      [&](const Scope& s, const std::vector<Output>& v) {
        return ops::LogicalAnd(s, ops::Less(s, v[0], v[n]), ops::Less(s, v[1], v[n + 1]));
      },
      [&](const Scope& s, const std::vector<Output>& v) {
        Output xt = ops::TensorListGetItem(s, v[n + 2], v[1], v[n + 3], DT_FLOAT);
        Output z = ops::BiasAdd(
            s, ops::AddV2(s, ops::MatMul(s, xt, v[n + 4]), ops::MatMul(s, v[3], v[n + 5])),
            v[n + 6]);
        std::vector<Output> parts = ops::Split(s, ops::Const(s, 1), z, 4);
        Output g = o.no_cell ? ops::Relu(s, parts[2]) : ops::Tanh(s, parts[2]);
        Output c = ops::AddV2(s.WithOpName("c_next"), ops::Mul(s, ops::Sigmoid(s, parts[1]), v[4]),
                              ops::Mul(s, ops::Sigmoid(s, parts[0]), g));
        Output h = ops::Mul(s.WithOpName("h_next"), ops::Sigmoid(s, parts[3]), ops::Tanh(s, c));
        if (o.masked) {
          Output m = ops::Tile(s, ops::TensorListGetItem(s, v[n + 7], v[1], v[n + 8], DT_BOOL),
                               ops::Const(s, {1, 5}));
          h = ops::SelectV2(s.WithOpName("h_masked"), m, h, v[3]);
          c = ops::SelectV2(s.WithOpName("c_masked"), m, c, v[4]);
        }
        Output item = o.extra_op ? ops::Relu(s, h) : h;
        Output index = o.write_at_zero ? ops::Const(s, 0) : v[1];
        std::vector<Output> next = {ops::Add(s, v[0], ops::Const(s, 1)),
                                    ops::Add(s, v[1], ops::Const(s, 1)),
                                    ops::TensorListSetItem(s, v[2], index, item), h, c};
        if (o.z_carried) next.push_back(z);
        return next;
      },
      ops::WhileLoopAttrs().Invariants(invariants));
  ops::TensorListStack(root.WithOpName("hs"), out[2], ops::Const(root, {2, 5}), DT_FLOAT);
  ops::Identity(root.WithOpName("h"), out[3]);
  ops::Identity(root.WithOpName("c"), out[4]);
  if (o.z_carried) ops::Identity(root.WithOpName("z"), out[n - 1]);
  return root;
}

// TF1 dynamic_rnn's loop over TensorArrays: x [4, 2, 3] scattered into array "x_ta", a tanh RNN
// of 5 units, t < steps ("steps", int32 scalar), x_t = TensorArrayReadV3(x_ta, t), h' =
// Tanh(x_t W + h U), TensorArrayWriteV3(out_ta, t, h') on the flow variable; after the loop
// "hs" = TensorArrayGatherV3(out_ta, Range(0, steps)) and "h".
inline Scope Tf1TensorArrayRnn() {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output steps = ops::Placeholder(root.WithOpName("steps"), DT_INT32,
                                  PartialTensorShape(std::vector<int64_t>{}));
  ops::TensorArrayOutputs x_ta =
      ops::TensorArrayV3(root.WithOpName("x_ta"), ops::Const(root, 4), DT_FLOAT);
  Output x_flow = ops::TensorArrayScatterV3(root.WithOpName("scatter"), x_ta.handle,
                                            ops::Const(root, {0, 1, 2, 3}), x, x_ta.flow);
  ops::TensorArrayOutputs out_ta =
      ops::TensorArrayV3(root.WithOpName("out_ta"), ops::Const(root, 4), DT_FLOAT);
  Output w =
      ops::Const<float>(root.WithOpName("w"), Ramp(3 * 5, 0.037f, -0.1f), TensorShape({3, 5}));
  Output u =
      ops::Const<float>(root.WithOpName("u"), Ramp(5 * 5, -0.013f, 0.08f), TensorShape({5, 5}));
  Output zeros =
      ops::Const<float>(root.WithOpName("zeros"), std::vector<float>(10, 0.f), TensorShape({2, 5}));
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), out_ta.flow, zeros},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[3]); },
      [](const Scope& s, const std::vector<Output>& v) {
        Output xt = ops::TensorArrayReadV3(s, v[4], v[0], v[5], DT_FLOAT);
        Output h = ops::Tanh(s.WithOpName("h_next"),
                             ops::AddV2(s, ops::MatMul(s, xt, v[6]), ops::MatMul(s, v[2], v[7])));
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)),
                                   ops::TensorArrayWriteV3(s, v[8], v[0], h, v[1]), h};
      },
      ops::WhileLoopAttrs().Invariants({steps, x_ta.handle, x_flow, w, u, out_ta.handle}));
  ops::TensorArrayGatherV3(root.WithOpName("hs"), out_ta.handle,
                           ops::Range(root, ops::Const(root, 0), steps, ops::Const(root, 1)),
                           out[1], DT_FLOAT);
  ops::Identity(root.WithOpName("h"), out[2]);
  return root;
}

}  // namespace recurrent_test
}  // namespace rill

#endif  // RILL_GRAPH_RECURRENT_TEST_GRAPHS_H_
