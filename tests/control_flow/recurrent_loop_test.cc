// A Keras-style LSTM loop (a step counter and bound, x_t read from a TensorList, the gate
// products, h' written into a list) end to end through a Session with the graph optimizer on,
// where the whole frame runs as one _RillLstmSequence node (graph/lstm_sequence_fusion.h), and
// off (opt_level L0: the loop's nodes one by one): outputs bit for bit equal, non-finite inputs
// included, and a step's error the same.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

std::vector<float> Ramp(int64_t n, float start, float step) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

// x [4, 2, 3] unstacked into a list; 5 units; i < max and t < steps; h' written at t.
GraphDef KerasLstm() {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output steps = ops::Placeholder(root.WithOpName("steps"), DT_INT32,
                                  PartialTensorShape(std::vector<int64_t>{}));
  Output max = ops::Const(root.WithOpName("max"), 100);
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
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), ops::Const(root, 0), out0, zeros, zeros},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::LogicalAnd(s, ops::Less(s, v[0], v[5]), ops::Less(s, v[1], v[6]));
      },
      [](const Scope& s, const std::vector<Output>& v) {
        Output xt = ops::TensorListGetItem(s, v[7], v[1], v[8], DT_FLOAT);
        Output z = ops::BiasAdd(
            s, ops::AddV2(s, ops::MatMul(s, xt, v[9]), ops::MatMul(s, v[3], v[10])), v[11]);
        std::vector<Output> p = ops::Split(s, ops::Const(s, 1), z, 4);
        Output c = ops::AddV2(s, ops::Mul(s, ops::Sigmoid(s, p[1]), v[4]),
                              ops::Mul(s, ops::Sigmoid(s, p[0]), ops::Tanh(s, p[2])));
        Output h = ops::Mul(s, ops::Sigmoid(s, p[3]), ops::Tanh(s, c));
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)),
                                   ops::Add(s, v[1], ops::Const(s, 1)),
                                   ops::TensorListSetItem(s, v[2], v[1], h), h, c};
      },
      ops::WhileLoopAttrs().Invariants({max, steps, list, es, w, u, b}));
  ops::TensorListStack(root.WithOpName("hs"), out[2], ops::Const(root, {2, 5}), DT_FLOAT);
  ops::Identity(root.WithOpName("h"), out[3]);
  ops::Identity(root.WithOpName("c"), out[4]);
  GraphDef g;
  EXPECT_THAT(root.ToGraphDef(&g), IsOk());
  return g;
}

struct Result {
  absl::Status status;
  std::vector<Tensor> out;
  int sequences = 0;  // _RillLstmSequence nodes in the partitions run
};

Result RunLoop(const GraphDef& g, bool optimize, const Tensor& x, int32_t steps) {
  SessionOptions options;
  if (!optimize) {
    options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
        OptimizerOptions::L0);
  }
  Result r;
  absl::StatusOr<std::unique_ptr<Session>> s = Session::New(options);
  EXPECT_THAT(s.status(), IsOk());
  EXPECT_THAT((*s)->Create(g), IsOk());
  RunOptions run_options;
  run_options.set_output_partition_graphs(true);
  RunMetadata metadata;
  r.status = (*s)->Run(run_options, {{"x:0", x}, {"steps:0", Tensor::Scalar<int32_t>(steps)}},
                       {"hs:0", "h:0", "c:0"}, {}, &r.out, &metadata);
  for (const GraphDef& part : metadata.partition_graphs()) {
    for (const NodeDef& n : part.node()) r.sequences += n.op() == "_RillLstmSequence";
  }
  return r;
}

void ExpectBitEqual(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.shape().DebugString(), b.shape().DebugString());
  for (int64_t i = 0; i < a.NumElements(); ++i) {
    const float x = a.flat<float>()[i], y = b.flat<float>()[i];
    if (std::isnan(x) || std::isnan(y)) {
      EXPECT_TRUE(std::isnan(x) && std::isnan(y)) << i << ": " << x << " vs " << y;
    } else {
      EXPECT_EQ(x, y) << i;
    }
  }
}

TEST(RecurrentLoopTest, TheFusedLoopGivesTheLoopsOutputsBitForBit) {
  const GraphDef g = KerasLstm();
  std::vector<float> v = Ramp(4 * 2 * 3, -1.7f, 0.173f);
  std::vector<float> poisoned = v;
  poisoned[7] = NAN;
  poisoned[14] = INFINITY;
  poisoned[20] = -INFINITY;
  for (const std::vector<float>& values : {v, poisoned}) {
    const Tensor x = Tensor::FromVector<float>(values, TensorShape({4, 2, 3}));
    for (int32_t steps : {0, 1, 4}) {
      SCOPED_TRACE(steps);
      const Result on = RunLoop(g, true, x, steps);
      const Result off = RunLoop(g, false, x, steps);
      ASSERT_THAT(on.status, IsOk());
      ASSERT_THAT(off.status, IsOk());
      EXPECT_EQ(on.sequences, 1);
      EXPECT_EQ(off.sequences, 0);
      for (size_t k = 0; k < on.out.size(); ++k) {
        ExpectBitEqual(on.out[k], off.out[k]);
      }
    }
  }
}

TEST(RecurrentLoopTest, AStepsErrorIsTheLoopsError) {
  const GraphDef g = KerasLstm();
  const Tensor x = Tensor::FromVector<float>(Ramp(24, 0.f, 0.1f), TensorShape({4, 2, 3}));
  // Step 4 reads past the 4 elements of the list.
  const Result on = RunLoop(g, true, x, 6);
  const Result off = RunLoop(g, false, x, 6);
  ASSERT_FALSE(off.status.ok());
  // The same code and message, naming the loop's own TensorListGetItem.
  EXPECT_EQ(on.status, off.status);
  EXPECT_THAT(off.status.message(), ::testing::HasSubstr("Trying to access element 4"));
  EXPECT_THAT(std::string(off.status.message()),
              ::testing::EndsWith("[[{{node while/TensorListGetItem}}]]"));
}

}  // namespace
}  // namespace rill
