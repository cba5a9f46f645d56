#include "tools/gpu/model_weights.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

// Clears the values of Const `name` as make_model_graphs.py does.
void Strip(GraphDef* graph, const std::string& name) {
  for (NodeDef& n : *graph->mutable_node()) {
    if (n.name() != name) continue;
    TensorProto* t = (*n.mutable_attr())["value"].mutable_tensor();
    t->clear_float_val();
    t->clear_tensor_content();
  }
}

const NodeDef& NodeNamed(const GraphDef& graph, const std::string& name) {
  for (const NodeDef& n : graph.node()) {
    if (n.name() == name) return n;
  }
  static const NodeDef* const kNone = new NodeDef;
  return *kNone;
}

std::vector<float> ValuesOf(const GraphDef& graph, const std::string& name) {
  const std::string& bytes = NodeNamed(graph, name).attr().at("value").tensor().tensor_content();
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

// A tiny model with one weight of each kind, every Const stripped but the epsilon and the scalar
// zero (which has no values, as TensorFlow writes a zero scalar).
GraphDef TinyModel() {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({-1, 4, 4, 3}));
  Output conv_w = ops::Const(root.WithOpName("conv_w"), 0.f, {2, 2, 3, 4});
  Output conv = ops::Conv2D(root, x, ops::Identity(root, conv_w), {1, 1, 1, 1}, "SAME");
  Output bn_scale = ops::Const(root.WithOpName("bn_scale"), 0.f, {4});
  Output bn_offset = ops::Const(root.WithOpName("bn_offset"), 0.f, {4});
  Output bn_mean = ops::Const(root.WithOpName("bn_mean"), 0.f, {4});
  Output bn_var = ops::Const(root.WithOpName("bn_var"), 0.f, {4});
  Output bn = ops::FusedBatchNormV3(root, conv, bn_scale, bn_offset, bn_mean, bn_var)[0];
  Output dw_w = ops::Const(root.WithOpName("dw_w"), 0.f, {3, 3, 4, 1});
  Output dw = ops::DepthwiseConv2dNative(root, bn, dw_w, {1, 1, 1, 1}, "SAME");
  // Keras 3's batch norm: (x - mean) * rsqrt(variance + eps) * gamma + beta.
  Output variance = ops::Const(root.WithOpName("variance"), 0.f, {4});
  Output eps = ops::Const(root.WithOpName("eps"), 1e-3f);
  Output rsqrt = ops::Rsqrt(root, ops::AddV2(root, ops::Identity(root, variance), eps));
  Output gamma = ops::Const(root.WithOpName("gamma"), 0.f, {4});
  Output beta = ops::Const(root.WithOpName("beta"), 0.f, {4});
  Output zero = ops::Const(root.WithOpName("zero"), 0.f);
  Output normed = ops::AddV2(root, ops::Mul(root, dw, ops::Mul(root, rsqrt, gamma)), beta);
  Output table = ops::Const(root.WithOpName("table"), 0.f, {10, 4});
  Output ids = ops::Placeholder(root.WithOpName("ids"), DT_INT32, PartialTensorShape({-1}));
  Output rows = ops::GatherV2(root, table, ids, ops::Const(root, 0));
  Output dense_w = ops::Const(root.WithOpName("dense_w"), 0.f, {4, 2});
  Output dense = ops::MatMul(root.WithOpName("dense"), rows, dense_w);
  ops::AddV2(root.WithOpName("out"), ops::Mean(root, normed, ops::Const(root, {0, 1, 2})),
             ops::AddV2(root, ops::Mean(root, dense, ops::Const(root, 1)), zero));
  GraphDef graph;
  EXPECT_THAT(root.ToGraphDef(&graph), IsOk());
  for (const char* name : {"conv_w", "bn_scale", "bn_offset", "bn_mean", "bn_var", "dw_w",
                           "variance", "gamma", "beta", "table", "dense_w", "zero"}) {
    Strip(&graph, name);
  }
  return graph;
}

TEST(ModelWeightsTest, StrippedConstsAreFloatConstsWithoutValuesAndMoreThanOneElement) {
  GraphDef graph = TinyModel();
  EXPECT_TRUE(IsStrippedConst(NodeNamed(graph, "conv_w")));
  EXPECT_FALSE(IsStrippedConst(NodeNamed(graph, "eps")));   // has its value
  EXPECT_FALSE(IsStrippedConst(NodeNamed(graph, "zero")));  // TensorFlow's zero scalar
  EXPECT_FALSE(IsStrippedConst(NodeNamed(graph, "x")));
}

TEST(ModelWeightsTest, RulesFollowTheConsumers) {
  GraphDef graph = TinyModel();
  struct Case {
    const char* name;
    double lo, hi;
    const char* rule;
  };
  const Case cases[] = {
      {"conv_w", -std::sqrt(3.0 / 12), std::sqrt(3.0 / 12), "weight (fan_in)"},
      {"bn_scale", 0.5, 1.5, "batch norm scale/variance"},
      {"bn_var", 0.5, 1.5, "batch norm scale/variance"},
      {"bn_offset", -0.1, 0.1, "batch norm offset/mean"},
      {"bn_mean", -0.1, 0.1, "batch norm offset/mean"},
      {"dw_w", -std::sqrt(3.0 / 9), std::sqrt(3.0 / 9), "depthwise filter"},
      {"variance", 0.5, 1.5, "variance (plus epsilon)"},
      {"gamma", 0.5, 1.5, "scale (times rsqrt)"},
      {"beta", -0.1, 0.1, "vector"},
      {"table", -0.05, 0.05, "gather table"},
      {"dense_w", -std::sqrt(3.0 / 4), std::sqrt(3.0 / 4), "weight (fan_in)"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<WeightInit> init = ChooseWeightInit(graph, c.name);
    ASSERT_THAT(init.status(), IsOk()) << c.name;
    EXPECT_EQ(init->rule, c.rule) << c.name;
    EXPECT_DOUBLE_EQ(init->lo, c.lo) << c.name;
    EXPECT_DOUBLE_EQ(init->hi, c.hi) << c.name;
  }
  EXPECT_THAT(ChooseWeightInit(graph, "eps").status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("node 'eps' is not a float Const without values")));
}

TEST(ModelWeightsTest, FillsEveryStrippedConstInRangeDeterministically) {
  GraphDef graph = TinyModel();
  absl::StatusOr<std::map<std::string, int>> counts = FillStrippedConsts(&graph, 7);
  ASSERT_THAT(counts.status(), IsOk());
  const std::map<std::string, int> expected = {{"batch norm offset/mean", 2},
                                               {"batch norm scale/variance", 2},
                                               {"depthwise filter", 1},
                                               {"gather table", 1},
                                               {"scale (times rsqrt)", 1},
                                               {"variance (plus epsilon)", 1},
                                               {"vector", 1},
                                               {"weight (fan_in)", 2}};
  EXPECT_EQ(*counts, expected);
  const std::vector<float> conv_w = ValuesOf(graph, "conv_w");
  ASSERT_EQ(conv_w.size(), 48u);
  for (float v : conv_w) EXPECT_LE(std::fabs(v), std::sqrt(3.0 / 12));
  for (float v : ValuesOf(graph, "bn_var")) {
    EXPECT_GE(v, 0.5f);
    EXPECT_LE(v, 1.5f);
  }
  EXPECT_TRUE(NodeNamed(graph, "zero").attr().at("value").tensor().tensor_content().empty());
  EXPECT_FALSE(IsStrippedConst(NodeNamed(graph, "conv_w")));

  // The same seed gives the same values whatever the node order; another seed others.
  GraphDef reversed = TinyModel();
  std::reverse(reversed.mutable_node()->begin(), reversed.mutable_node()->end());
  ASSERT_THAT(FillStrippedConsts(&reversed, 7).status(), IsOk());
  EXPECT_EQ(ValuesOf(reversed, "conv_w"), conv_w);
  GraphDef other = TinyModel();
  ASSERT_THAT(FillStrippedConsts(&other, 8).status(), IsOk());
  EXPECT_NE(ValuesOf(other, "conv_w"), conv_w);
}

TEST(ModelWeightsTest, RandomInputsByDtype) {
  absl::StatusOr<Tensor> f = RandomTensor(DT_FLOAT, TensorShape({100}), 1, 5);
  ASSERT_THAT(f.status(), IsOk());
  for (float v : f->flat<float>()) EXPECT_LE(std::fabs(v), 1.f);
  absl::StatusOr<Tensor> i = RandomTensor(DT_INT32, TensorShape({100}), 1, 5);
  ASSERT_THAT(i.status(), IsOk());
  for (int32_t v : i->flat<int32_t>()) {
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 5);
  }
  EXPECT_THAT(RandomTensor(DT_STRING, TensorShape({2}), 1, 5).status(),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("no random values for an input of dtype string")));
}

}  // namespace
}  // namespace rill
