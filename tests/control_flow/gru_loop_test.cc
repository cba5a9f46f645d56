// Keras-style GRU loops (reset_after, whose gates _RillGruCell fuses, and reset-before, whose
// update _RillGruUpdate fuses) end to end through a Session with the graph optimizer on, where the
// whole frame runs as one _RillRecurrentSequence node (graph/recurrent_sequence_fusion.h), and
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

// x [4, 2, 3] unstacked into a list; 5 units; i < max and t < steps; h' written at t. The bias
// [2, 15] is split and squeezed inside the step, as Keras 3 freezes it.
GraphDef KerasGru(bool reset_after) {
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
      ops::Const<float>(root.WithOpName("w"), Ramp(3 * 15, 0.037f, -0.1f), TensorShape({3, 15}));
  Output u =
      ops::Const<float>(root.WithOpName("u"), Ramp(5 * 15, -0.013f, 0.08f), TensorShape({5, 15}));
  Output b = ops::Const<float>(root.WithOpName("b"), Ramp(30, 0.05f, -0.05f), TensorShape({2, 15}));
  Output zeros =
      ops::Const<float>(root.WithOpName("zeros"), std::vector<float>(10, 0.f), TensorShape({2, 5}));
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), ops::Const(root, 0), out0, zeros},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::LogicalAnd(s, ops::Less(s, v[0], v[4]), ops::Less(s, v[1], v[5]));
      },
      [&](const Scope& s, const std::vector<Output>& v) {
        Output xt = ops::TensorListGetItem(s, v[6], v[1], v[7], DT_FLOAT);
        std::vector<Output> bias = ops::Split(s, ops::Const(s, 0), v[10], 2);
        Output xp = ops::BiasAdd(s, ops::MatMul(s, xt, v[8]), ops::Squeeze(s, bias[0]));
        std::vector<Output> xs = ops::Split(s, ops::Const(s, 1), xp, 3);
        auto block = [&](const Input& m, int k) {
          return ops::StridedSlice(s, m, ops::Const(s, {0, 5 * k}), ops::Const(s, {0, 5 * k + 5}),
                                   ops::Const(s, {1, 1}), {1, 1});
        };
        Output z, c;
        if (reset_after) {
          Output hh = ops::AddV2(s, ops::MatMul(s, v[3], v[9]), ops::Squeeze(s, bias[1]));
          z = ops::Sigmoid(s, ops::AddV2(s, xs[0], block(hh, 0)));
          Output r = ops::Sigmoid(s, ops::AddV2(s, xs[1], block(hh, 1)));
          c = ops::Tanh(s, ops::AddV2(s, xs[2], ops::Mul(s, r, block(hh, 2))));
        } else {
          // Keras's reset_after=False: r * h goes into the candidate's product.
          z = ops::Sigmoid(s, ops::AddV2(s, xs[0], ops::MatMul(s, v[3], block(v[9], 0))));
          Output r = ops::Sigmoid(s, ops::AddV2(s, xs[1], ops::MatMul(s, v[3], block(v[9], 1))));
          c = ops::Tanh(s,
                        ops::AddV2(s, xs[2], ops::MatMul(s, ops::Mul(s, r, v[3]), block(v[9], 2))));
        }
        Output h =
            ops::AddV2(s, ops::Mul(s, z, v[3]), ops::Mul(s, ops::Sub(s, ops::Const(s, 1.f), z), c));
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)),
                                   ops::Add(s, v[1], ops::Const(s, 1)),
                                   ops::TensorListSetItem(s, v[2], v[1], h), h};
      },
      ops::WhileLoopAttrs().Invariants({max, steps, list, es, w, u, b}));
  ops::TensorListStack(root.WithOpName("hs"), out[2], ops::Const(root, {2, 5}), DT_FLOAT);
  ops::Identity(root.WithOpName("h"), out[3]);
  GraphDef g;
  EXPECT_THAT(root.ToGraphDef(&g), IsOk());
  return g;
}

struct Result {
  absl::Status status;
  std::vector<Tensor> out;
  int sequences = 0;  // _RillRecurrentSequence nodes in the partitions run
  int cells = 0;      // _RillGruCell / _RillGruUpdate step nodes inside them
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
                       {"hs:0", "h:0"}, {}, &r.out, &metadata);
  for (const GraphDef& part : metadata.partition_graphs()) {
    for (const NodeDef& n : part.node()) {
      if (n.op() != "_RillRecurrentSequence") continue;
      ++r.sequences;
      for (const std::string& bytes : n.attr().at("step").list().s()) {
        NodeDef step;
        EXPECT_TRUE(step.ParseFromString(bytes));
        r.cells += step.op() == "_RillGruCell" || step.op() == "_RillGruUpdate";
      }
    }
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

TEST(GruLoopTest, TheFusedLoopGivesTheLoopsOutputsBitForBit) {
  for (bool reset_after : {true, false}) {
    SCOPED_TRACE(reset_after);
    const GraphDef g = KerasGru(reset_after);
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
        EXPECT_EQ(on.cells, 1);
        EXPECT_EQ(off.sequences, 0);
        for (size_t k = 0; k < on.out.size(); ++k) ExpectBitEqual(on.out[k], off.out[k]);
      }
    }
  }
}

TEST(GruLoopTest, AStepsErrorIsTheLoopsError) {
  const GraphDef g = KerasGru(true);
  const Tensor x = Tensor::FromVector<float>(Ramp(24, 0.f, 0.1f), TensorShape({4, 2, 3}));
  // Step 4 reads past the 4 elements of the list.
  const Result on = RunLoop(g, true, x, 6);
  const Result off = RunLoop(g, false, x, 6);
  ASSERT_FALSE(off.status.ok());
  // The same code and message, naming the loop's own TensorListGetItem.
  EXPECT_EQ(on.status, off.status);
  EXPECT_THAT(std::string(off.status.message()),
              ::testing::HasSubstr("Trying to access element 4"));
  EXPECT_THAT(std::string(off.status.message()),
              ::testing::EndsWith("[[{{node while/TensorListGetItem}}]]"));
}

}  // namespace
}  // namespace rill
