// Each rewrite of the graph optimizer on graphs built with the builder API: the rewritten graph
// (nodes, inputs, attrs) and, through a Session with the optimizer on and off, the same outputs.
// Graphs are written as GraphDefs, imported with every node placed on the test CPU (unless a test
// places them itself), optimized as a Graph and exported; nodes are looked up by name (the export
// writes them in id order, and a rewritten node is a new node).
#include "session/graph_optimizer.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "core/tensor_proto.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/graph.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_test_util.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "session/session.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

const NodeDef* Find(const GraphDef& g, const std::string& name) {
  for (const NodeDef& n : g.node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

std::vector<std::string> Inputs(const GraphDef& g, const std::string& name) {
  const NodeDef* n = Find(g, name);
  if (n == nullptr) return {"<no node " + name + ">"};
  return {n->input().begin(), n->input().end()};
}

struct Optimized {
  GraphDef graph;
  GraphOptimizerStats stats;
};

// Imports `graph_def`, places every node on the test CPU, optimizes and exports.
Optimized OptimizeGraphDef(const GraphDef& graph_def, GraphOptimizerOptions options = {}) {
  Optimized out;
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(graph_def);
  EXPECT_THAT(graph.status(), IsOk());
  if (!graph.ok()) return out;
  for (Node* n : (*graph)->op_nodes()) n->set_assigned_device_name(kTestCpuDevice);
  std::unique_ptr<Device> cpu = NewCpuDevice(kTestCpuDevice);
  options.cpu = cpu.get();
  EXPECT_THAT(OptimizeGraph(options, graph->get(), &out.stats), IsOk());
  for (const Node* n : (*graph)->op_nodes()) {
    EXPECT_EQ(n->assigned_device_name(), kTestCpuDevice) << "no device for " << n->name();
  }
  ExportGraphDef(**graph, &out.graph);
  return out;
}

Optimized Optimize(const Scope& root, GraphOptimizerOptions options = {}) {
  GraphDef graph_def;
  EXPECT_THAT(root.ToGraphDef(&graph_def), IsOk());
  return OptimizeGraphDef(graph_def, options);
}

// The Run statuses of `graph` with the optimizer on and off.
std::vector<absl::Status> RunStatuses(const GraphDef& graph,
                                      const std::vector<std::pair<std::string, Tensor>>& feeds,
                                      const std::vector<std::string>& fetches) {
  std::vector<absl::Status> out;
  for (bool on : {true, false}) {
    SessionOptions options;
    if (!on) {
      options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
          OptimizerOptions::L0);
    }
    auto s = Session::New(options);
    EXPECT_THAT(s.status(), IsOk());
    if (!s.ok()) return out;
    EXPECT_THAT((*s)->Create(graph), IsOk());
    std::vector<Tensor> fetched;
    out.push_back((*s)->Run(feeds, fetches, {}, &fetched));
  }
  return out;
}

// Runs `graph` with the optimizer on and off; the outputs must be equal (within `tol`).
void ExpectSameOutputs(const GraphDef& graph,
                       const std::vector<std::pair<std::string, Tensor>>& feeds,
                       const std::vector<std::string>& fetches, float tol = 0) {
  std::vector<std::vector<Tensor>> results;
  for (bool on : {true, false}) {
    SessionOptions options;
    if (!on) {
      options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
          OptimizerOptions::L0);
    }
    auto s = Session::New(options);
    ASSERT_THAT(s.status(), IsOk());
    ASSERT_THAT((*s)->Create(graph), IsOk());
    std::vector<Tensor> out;
    ASSERT_THAT((*s)->Run(feeds, fetches, {}, &out), IsOk());
    results.push_back(out);
  }
  for (size_t f = 0; f < fetches.size(); ++f) {
    const Tensor& a = results[0][f];
    const Tensor& b = results[1][f];
    ASSERT_EQ(a.shape().DebugString(), b.shape().DebugString()) << fetches[f];
    for (int64_t i = 0; i < a.NumElements(); ++i) {
      const float x = a.flat<float>()[i], y = b.flat<float>()[i];
      if (std::isfinite(x) && std::isfinite(y)) {
        EXPECT_NEAR(x, y, tol) << fetches[f] << "[" << i << "]";
      } else if (std::isnan(x) || std::isnan(y)) {  // a NaN only where the other has one
        EXPECT_TRUE(std::isnan(x) && std::isnan(y))
            << fetches[f] << "[" << i << "]: " << x << " vs " << y;
      } else {  // inf only where the other has the same inf
        EXPECT_EQ(x, y) << fetches[f] << "[" << i << "]";
      }
    }
  }
}

TEST(GraphOptimizerTest, RemovesIdentitiesNobodyNeeds) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output id = ops::Identity(root.WithOpName("id"), x);
  Output stop = ops::StopGradient(root.WithOpName("stop"), id);
  Output neg = ops::Neg(root.WithOpName("neg"), stop);
  // An Identity something waits on by a control edge goes too: the waiter waits on its input.
  Output gate = ops::Identity(root.WithOpName("gate"), x);
  ops::Neg(root.WithOpName("after").WithControlDependencies({gate}), x);
  // One with a control input of its own stays (it sequences its consumers after `neg`).
  Output ordered = ops::Identity(root.WithOpName("ordered").WithControlDependencies({neg}), x);
  ops::Neg(root.WithOpName("after_ordered"), ordered);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.identities_removed, 3);
  EXPECT_THAT(Inputs(o.graph, "neg"), ElementsAre("x"));
  EXPECT_EQ(Find(o.graph, "id"), nullptr);
  EXPECT_EQ(Find(o.graph, "gate"), nullptr);
  EXPECT_THAT(Inputs(o.graph, "after"), ElementsAre("x", "^x"));
  EXPECT_NE(Find(o.graph, "ordered"), nullptr);
}

// Identities stored after their consumers (a GraphDef not in creation order): each consumer
// ends up on the chain's source, control edges included.
TEST(GraphOptimizerTest, RemovesIdentityChainsStoredOutOfOrder) {
  GraphDef g;
  ASSERT_TRUE(
      google::protobuf::TextFormat::ParseFromString(R"pb(
                                                      node {
                                                        name: "z"
                                                        op: "Identity"
                                                        input: "y"
                                                        attr {
                                                          key: "T"
                                                          value { type: DT_FLOAT }
                                                        }
                                                      }
                                                      node {
                                                        name: "d"
                                                        op: "Neg"
                                                        input: "z"
                                                        attr {
                                                          key: "T"
                                                          value { type: DT_FLOAT }
                                                        }
                                                      }
                                                      node {
                                                        name: "y"
                                                        op: "Identity"
                                                        input: "x"
                                                        attr {
                                                          key: "T"
                                                          value { type: DT_FLOAT }
                                                        }
                                                      }
                                                      node { name: "c" op: "NoOp" input: "^y" }
                                                      node {
                                                        name: "x"
                                                        op: "Placeholder"
                                                        attr {
                                                          key: "dtype"
                                                          value { type: DT_FLOAT }
                                                        }
                                                      }
                                                    )pb",
                                                    &g));
  Optimized o = OptimizeGraphDef(g);
  EXPECT_EQ(o.stats.identities_removed, 2);
  EXPECT_THAT(Inputs(o.graph, "d"), ElementsAre("x"));
  EXPECT_THAT(Inputs(o.graph, "c"), ElementsAre("^x"));
  EXPECT_EQ(Find(o.graph, "y"), nullptr);
  EXPECT_EQ(Find(o.graph, "z"), nullptr);
}

// Keras's frozen graphs read big weights through an Identity that a NoOp waits on: once it is
// gone the product's weights come straight from the Const and are marked constant.
TEST(GraphOptimizerTest, IdentityWaitedOnByNoOpStillLeavesConstantWeights) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}});
  Output read = ops::Identity(root.WithOpName("read"), w);
  ops::MatMul(root.WithOpName("mm"), x, read);
  ops::NoOp(root.WithOpName("deps").WithControlDependencies({read}));
  Optimized o = Optimize(root);
  EXPECT_EQ(Find(o.graph, "read"), nullptr);
  EXPECT_THAT(Inputs(o.graph, "mm"), ElementsAre("x", "w"));
  EXPECT_THAT(Inputs(o.graph, "deps"), ElementsAre("^w"));
  ASSERT_NE(Find(o.graph, "mm"), nullptr);
  EXPECT_EQ(Find(o.graph, "mm")->attr().count("_rill_constant_weights"), 1u);
}

// Once a filter is folded into its convolution, the original Const is only waited on (Keras's
// NoOp): it is dropped, so the executor does not keep its value; the waiter loses the edge. A
// Const with a control input of its own stays (waiting for it waits for that input).
TEST(GraphOptimizerTest, ConstsOnlyWaitedOnAreDropped) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}});
  Output neg = ops::Neg(root.WithOpName("neg"), x);
  Output ordered = ops::Const(root.WithOpName("ordered").WithControlDependencies({neg}), 1.f);
  ops::NoOp(root.WithOpName("deps").WithControlDependencies({w, ordered}));
  ops::Abs(root.WithOpName("after").WithControlDependencies({w}), x);
  Optimized o = Optimize(root);
  EXPECT_EQ(Find(o.graph, "w"), nullptr);
  EXPECT_THAT(Inputs(o.graph, "deps"), ElementsAre("^ordered"));
  EXPECT_THAT(Inputs(o.graph, "after"), ElementsAre("x"));
  EXPECT_THAT(Inputs(o.graph, "ordered"), ElementsAre("^neg"));
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original, {{"x:0", Tensor::FromVector<float>({1.f, -2.f}, TensorShape({2}))}},
                    {"after:0"});
}

// A recurrent layer's weights enter its while loop through a constant Enter (and often an
// Identity): the MatMul in the loop body still gets packed weights.
TEST(GraphOptimizerTest, ConstantWeightsAreFoundThroughEnterAndIdentity) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}});
  ops::EnterAttrs constant;
  constant.is_constant = true;
  Output x_in = ops::Enter(root.WithOpName("x_in"), x, "loop");
  Output w_in = ops::Enter(root.WithOpName("w_in"), w, "loop", constant);
  ops::MatMul(root.WithOpName("mm"), x_in, ops::Identity(root.WithOpName("read"), w_in));
  ops::MatMul(root.WithOpName("mm_x"), x_in, x_in);  // weights from a Placeholder: not marked
  Optimized o = Optimize(root);
  ASSERT_NE(Find(o.graph, "mm"), nullptr);
  EXPECT_EQ(Find(o.graph, "mm")->attr().count("_rill_constant_weights"), 1u);
  ASSERT_NE(Find(o.graph, "mm_x"), nullptr);
  EXPECT_EQ(Find(o.graph, "mm_x")->attr().count("_rill_constant_weights"), 0u);
}

// Keras's EinsumDense multiplies activations by its kernel, reshaped to a matrix, with
// BatchMatMulV2: once the Reshape is folded the product's weights are a Const and are marked.
TEST(GraphOptimizerTest, BatchMatMulOfReshapedConstWeightsIsMarked) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const(root.WithOpName("w"), {{{1.f, 2.f}}, {{3.f, 4.f}}});
  Output matrix = ops::Reshape(root.WithOpName("matrix"), w, ops::Const(root, {2, 2}));
  ops::BatchMatMulV2(root.WithOpName("bmm"), x, matrix);
  ops::BatchMatMulV2(root.WithOpName("bmm_x"), x, x);  // weights from a Placeholder: not marked
  Optimized o = Optimize(root);
  ASSERT_NE(Find(o.graph, "bmm"), nullptr);
  EXPECT_EQ(Find(o.graph, "bmm")->attr().count("_rill_constant_weights"), 1u);
  ASSERT_NE(Find(o.graph, "bmm_x"), nullptr);
  EXPECT_EQ(Find(o.graph, "bmm_x")->attr().count("_rill_constant_weights"), 0u);
}

// A kernel that takes host memory outside the allocator and cannot get it.
REGISTER_OP("OptimizerTestBadAlloc").Input("a: float").Output("out: float");
class OptimizerTestBadAllocOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext&) const override { throw std::bad_alloc(); }
};
REGISTER_KERNEL(KernelDefBuilder("OptimizerTestBadAlloc").Device(kDeviceCpu),
                OptimizerTestBadAllocOp);

TEST(GraphOptimizerTest, AFoldOutOfHostMemoryLeavesTheNodeToFailAtRunTime) {
  Scope root = Scope::NewRootScope();
  Operation big = OpBuilder(root.WithOpName("big"), "OptimizerTestBadAlloc")
                      .Input(ops::Const(root.WithOpName("c"), {1.f, 2.f}))
                      .Finalize();
  ops::Identity(root.WithOpName("out"), big.output(0));
  GraphDef graph;
  ASSERT_THAT(root.ToGraphDef(&graph), IsOk());
  Optimized o = OptimizeGraphDef(graph);
  ASSERT_NE(Find(o.graph, "big"), nullptr);
  EXPECT_EQ(Find(o.graph, "big")->op(), "OptimizerTestBadAlloc");
  EXPECT_THAT(Inputs(o.graph, "big"), ElementsAre("c"));
  for (const absl::Status& s : RunStatuses(graph, {}, {"out:0"})) {
    EXPECT_THAT(s, StatusIs(absl::StatusCode::kResourceExhausted,
                            ::testing::HasSubstr("OOM in OptimizerTestBadAlloc")));
  }
}

TEST(GraphOptimizerTest, FoldsConstantsAndShapeChains) {
  Scope root = Scope::NewRootScope();
  Output sum = ops::Add(root.WithOpName("sum"), ops::Const(root.WithOpName("a"), {1.f, 2.f}),
                        ops::Const(root.WithOpName("b"), {10.f, 20.f}));
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({2, 3}));
  ops::Mul(root.WithOpName("scaled"), x, ops::Const(root, 2.f));
  // Shape -> StridedSlice -> Pack, foldable because x's shape is known.
  Output shape = ops::Shape(root.WithOpName("shape"), x);
  Output rows = ops::StridedSlice(root.WithOpName("rows"), shape, ops::Const(root, {0}),
                                  ops::Const(root, {1}), ops::Const(root, {1}),
                                  ops::StridedSliceMasks{0, 0, 0, 0, 1});
  Output packed_out = ops::Pack(root.WithOpName("packed"), {rows, ops::Const(root, 7)});
  ops::Add(root.WithOpName("use_packed"), packed_out,
           ops::Placeholder(root.WithOpName("k"), DT_INT32));
  ops::Mul(root.WithOpName("use"), sum, ops::Placeholder(root.WithOpName("z"), DT_FLOAT));
  Optimized o = Optimize(root);
  const NodeDef* folded = Find(o.graph, "sum");
  ASSERT_NE(folded, nullptr);
  EXPECT_EQ(folded->op(), "Const");
  EXPECT_THAT(Inputs(o.graph, "sum"), IsEmpty());
  EXPECT_EQ(Find(o.graph, "a"), nullptr);  // read by nothing any more
  ASSERT_NE(Find(o.graph, "packed"), nullptr);
  EXPECT_EQ(Find(o.graph, "packed")->op(), "Const");
  RILL_ASSERT_OK_AND_ASSIGN(Tensor packed,
                            TensorFromProto(Find(o.graph, "packed")->attr().at("value").tensor()));
  ExpectTensorEqual(packed, Tensor::FromVector<int32_t>({2, 7}, TensorShape({2})));
  EXPECT_EQ(Find(o.graph, "scaled")->op(), "Mul");  // reads a placeholder: stays
  EXPECT_GE(o.stats.nodes_folded, 4);
}

TEST(GraphOptimizerTest, MergesCommonSubexpressionsIncludingCommutedOnes) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT);
  // Mul is commutative (Add is not: it also concatenates strings).
  Output a1 = ops::Mul(root.WithOpName("a1"), x, y);
  Output a2 = ops::Mul(root.WithOpName("a2"), y, x);
  Output s1 = ops::Sub(root.WithOpName("s1"), x, y);
  Output s2 = ops::Sub(root.WithOpName("s2"), y, x);  // not commutative: stays
  ops::AddN(root.WithOpName("total"), {a1, a2, s1, s2});
  GraphOptimizerOptions options;
  options.fusion = false;
  Optimized o = Optimize(root, options);
  EXPECT_EQ(o.stats.nodes_merged, 1);
  EXPECT_THAT(Inputs(o.graph, "total"), ElementsAre("a1", "a1", "s1", "s2"));
}

TEST(GraphOptimizerTest, FusesMatMulBiasAddRelu) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const(root.WithOpName("w"), {{1.f, -2.f}, {3.f, 4.f}, {-5.f, 6.f}});
  Output b = ops::Const(root.WithOpName("b"), {0.5f, -100.f});
  Output mm = ops::MatMul(root.WithOpName("mm"), x, w);
  Output ba = ops::BiasAdd(root.WithOpName("ba"), mm, b);
  ops::Relu(root.WithOpName("relu"), ba);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.fusions, 1);
  const NodeDef* fused = Find(o.graph, "relu");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedMatMul");
  EXPECT_THAT(Inputs(o.graph, "relu"), ElementsAre("x", "w", "b"));
  EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd", "Relu"));
  EXPECT_EQ(Find(o.graph, "mm"), nullptr);
  EXPECT_EQ(Find(o.graph, "ba"), nullptr);
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original,
                    {{"x:0", Tensor::FromVector<float>({1, 2, 3, -1, 0, 2}, TensorShape({2, 3}))}},
                    {"relu:0", "ba:0"});
}

TEST(GraphOptimizerTest, FoldsBatchNormIntoConvAndFusesBiasRelu) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  std::vector<float> filter(3 * 3 * 2 * 4);
  for (size_t i = 0; i < filter.size(); ++i) filter[i] = 0.1f * static_cast<float>(i % 7) - 0.3f;
  Output w = ops::Const<float>(root.WithOpName("w"), filter, TensorShape({3, 3, 2, 4}));
  Output conv = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
  std::vector<Output> bn = ops::FusedBatchNormV3(
      root.WithOpName("bn"), conv, ops::Const(root, {1.f, 2.f, 0.5f, -1.f}),
      ops::Const(root, {0.1f, 0.f, -0.2f, 0.3f}), ops::Const(root, {0.5f, -0.5f, 0.f, 1.f}),
      ops::Const(root, {1.f, 4.f, 0.25f, 2.f}), ops::FusedBatchNormAttrs().IsTraining(false));
  ops::Relu(root.WithOpName("relu"), bn[0]);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.batch_norms_folded, 1);
  EXPECT_EQ(Find(o.graph, "relu")->op(), "_FusedConv2D");
  EXPECT_EQ(Find(o.graph, "bn"), nullptr);
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  std::vector<float> input(1 * 5 * 5 * 2);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i % 5) - 2.f;
  ExpectSameOutputs(original,
                    {{"x:0", Tensor::FromVector<float>(input, TensorShape({1, 5, 5, 2}))}},
                    {"relu:0"}, 1e-5f);
}

std::vector<float> Ramp(size_t n, float step, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = step * static_cast<float>(i % 7) + offset;
  return v;
}

Tensor RampInput(const TensorShape& shape) {
  std::vector<float> v(shape.num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 3) % 11) * 0.5f - 2.5f;
  return Tensor::FromVector<float>(v, shape);
}

TEST(GraphOptimizerTest, FoldsBatchNormIntoDepthwiseAndFusesSwish) {
  // depthwise (multiplier 2: 6 output channels) -> FusedBatchNormV3 -> x * Sigmoid(x), as
  // tf.keras leaves a depthwise block frozen: one _FusedDepthwiseConv2dNative with the swish.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  std::vector<float> filter(3 * 3 * 3 * 2);
  for (size_t i = 0; i < filter.size(); ++i) filter[i] = 0.1f * static_cast<float>(i % 7) - 0.3f;
  Output w = ops::Const<float>(root.WithOpName("w"), filter, TensorShape({3, 3, 3, 2}));
  Output dw = ops::DepthwiseConv2dNative(root.WithOpName("dw"), x, w, {1, 1, 1, 1}, "SAME");
  std::vector<Output> bn = ops::FusedBatchNormV3(
      root.WithOpName("bn"), dw, ops::Const(root, {1.f, 2.f, 0.5f, -1.f, 3.f, 0.25f}),
      ops::Const(root, {0.1f, 0.f, -0.2f, 0.3f, 1.f, -1.f}),
      ops::Const(root, {0.5f, -0.5f, 0.f, 1.f, 2.f, -2.f}),
      ops::Const(root, {1.f, 4.f, 0.25f, 2.f, 0.5f, 8.f}),
      ops::FusedBatchNormAttrs().IsTraining(false));
  Output gate = ops::Sigmoid(root.WithOpName("gate"), bn[0]);
  ops::Mul(root.WithOpName("swish"), bn[0], gate);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.batch_norms_folded, 1);
  const NodeDef* fused = Find(o.graph, "swish");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedDepthwiseConv2dNative");
  EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd", "_MklSwish"));
  for (const char* gone : {"dw", "bn", "gate", "w"})
    EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
  // The folded bias is offset - mean * scale / sqrt(var + epsilon) per output channel.
  const NodeDef* bias = Find(o.graph, Inputs(o.graph, "swish")[2]);
  ASSERT_NE(bias, nullptr);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor b, TensorFromProto(bias->attr().at("value").tensor()));
  const float eps = 0.0001f;  // FusedBatchNormV3's default
  const float scale[] = {1.f, 2.f, 0.5f, -1.f, 3.f, 0.25f},
              offset[] = {0.1f, 0.f, -0.2f, 0.3f, 1.f, -1.f};
  const float mean[] = {0.5f, -0.5f, 0.f, 1.f, 2.f, -2.f},
              var[] = {1.f, 4.f, 0.25f, 2.f, 0.5f, 8.f};
  for (int c = 0; c < 6; ++c) {
    EXPECT_EQ(b.flat<float>()[c], offset[c] - mean[c] * (scale[c] / std::sqrt(var[c] + eps))) << c;
  }
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original, {{"x:0", RampInput(TensorShape({2, 5, 4, 3}))}}, {"swish:0"}, 1e-5f);
}

TEST(GraphOptimizerTest, DepthwiseBatchNormsOfAnotherChannelCountStay) {
  // A batch norm over 3 channels after a depthwise convolution of 6 outputs (TensorFlow refuses
  // it when run; the optimizer must leave it to do so).
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const<float>(root.WithOpName("w"), std::vector<float>(3 * 3 * 3 * 2, 0.5f),
                               TensorShape({3, 3, 3, 2}));
  Output dw = ops::DepthwiseConv2dNative(root.WithOpName("dw"), x, w, {1, 1, 1, 1}, "SAME");
  ops::FusedBatchNormV3(root.WithOpName("bn"), dw, ops::Const(root, {1.f, 2.f, 0.5f}),
                        ops::Const(root, {0.f, 0.f, 0.f}), ops::Const(root, {0.f, 0.f, 0.f}),
                        ops::Const(root, {1.f, 1.f, 1.f}),
                        ops::FusedBatchNormAttrs().IsTraining(false));
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.batch_norms_folded, 0);
  EXPECT_EQ(Find(o.graph, "bn")->op(), "FusedBatchNormV3");
  EXPECT_EQ(Find(o.graph, "dw")->op(), "DepthwiseConv2dNative");
}

TEST(GraphOptimizerTest, FoldsKerasBatchNormMulAddIntoConvAndFusesRelu6) {
  // conv -> x * scale -> + shift -> Relu6, as Keras 3's BatchNormalization leaves it frozen.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const<float>(root.WithOpName("w"), Ramp(3 * 3 * 2 * 4, 0.1f, -0.3f),
                               TensorShape({3, 3, 2, 4}));
  Output conv = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
  Output scaled = ops::Mul(root.WithOpName("scale"), conv,
                           ops::Const(root.WithOpName("s"), {2.f, -1.f, 0.5f, 3.f}));
  Output shifted = ops::AddV2(root.WithOpName("shift"),
                              ops::Const(root.WithOpName("t"), {0.25f, 1.f, -0.5f, 2.f}), scaled);
  ops::Relu6(root.WithOpName("relu6"), shifted);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.scale_shifts_folded, 2);
  const NodeDef* fused = Find(o.graph, "relu6");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedConv2D");
  EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd", "Relu6"));
  for (const char* gone : {"conv", "scale", "shift", "w", "s", "t"}) {
    EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
  }
  // The folded bias is the shift (the scale applies to a zero bias).
  const NodeDef* bias = Find(o.graph, Inputs(o.graph, "relu6")[2]);
  ASSERT_NE(bias, nullptr);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor b, TensorFromProto(bias->attr().at("value").tensor()));
  EXPECT_THAT(std::vector<float>(b.flat<float>().data(), b.flat<float>().data() + 4),
              ElementsAre(0.25f, 1.f, -0.5f, 2.f));
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original, {{"x:0", RampInput(TensorShape({1, 5, 5, 2}))}}, {"relu6:0"}, 1e-5f);
}

TEST(GraphOptimizerTest, FoldsScaleThroughABiasIntoADepthwiseFilter) {
  // depthwise (multiplier 2) -> BiasAdd -> Mul -> Add -> Relu: the scale multiplies the filter
  // and the bias; one _FusedDepthwiseConv2dNative remains.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const<float>(root.WithOpName("w"), Ramp(3 * 3 * 3 * 2, 0.2f, -0.5f),
                               TensorShape({3, 3, 3, 2}));
  Output dw = ops::DepthwiseConv2dNative(root.WithOpName("dw"), x, w, {1, 1, 1, 1}, "SAME");
  Output biased =
      ops::BiasAdd(root.WithOpName("ba"), dw, ops::Const(root, {1.f, -1.f, 0.5f, 0.f, 2.f, -3.f}));
  Output scaled = ops::Mul(
      root.WithOpName("scale"),
      ops::Const<float>(root, {0.5f, 2.f, -1.f, 1.f, 3.f, 0.25f}, TensorShape({1, 1, 1, 6})),
      biased);
  Output shifted = ops::AddV2(root.WithOpName("shift"), scaled, ops::Const(root, 0.75f));
  ops::Relu(root.WithOpName("relu"), shifted);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.scale_shifts_folded, 2);
  EXPECT_EQ(Find(o.graph, "relu")->op(), "_FusedDepthwiseConv2dNative");
  EXPECT_THAT(Find(o.graph, "relu")->attr().at("fused_ops").list().s(),
              ElementsAre("BiasAdd", "Relu"));
  const NodeDef* bias = Find(o.graph, Inputs(o.graph, "relu")[2]);
  ASSERT_NE(bias, nullptr);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor b, TensorFromProto(bias->attr().at("value").tensor()));
  // (bias * scale) + 0.75
  EXPECT_THAT(std::vector<float>(b.flat<float>().data(), b.flat<float>().data() + 6),
              ElementsAre(1.25f, -1.25f, 0.25f, 0.75f, 6.75f, 0.f));
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original, {{"x:0", RampInput(TensorShape({2, 5, 4, 3}))}}, {"relu:0"}, 1e-5f);
}

TEST(GraphOptimizerTest, FoldsAScaleIntoMatMulColumns) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output mm = ops::MatMul(root.WithOpName("mm"), x,
                          ops::Const(root, {{1.f, -2.f}, {3.f, 4.f}, {-5.f, 6.f}}));
  Output scaled = ops::Mul(root.WithOpName("scale"), mm, ops::Const(root, {{3.f, -0.5f}}));
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.scale_shifts_folded, 1);
  EXPECT_EQ(Find(o.graph, "scale")->op(), "_FusedMatMul");
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original, {{"x:0", RampInput(TensorShape({4, 3}))}}, {"scale:0"}, 1e-5f);
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A fold may change results by rounding only: a scale whose constants, or whose folded weights,
// are not finite stays a Mul (TensorFlow's inf stays inf, a product of 1e20 stays 1e20).
TEST(GraphOptimizerTest, ScalesThatAreNotFiniteOrOverflowTheWeightsAreNotFoldedIntoMatMul) {
  struct Case {
    const char* what;
    std::vector<float> weights;  // [2, 2]
    std::vector<float> scale;    // [2]
    float input;                 // every element of x [3, 2]
  };
  const Case cases[] = {
      {"inf scale", {1.f, -2.f, 3.f, 4.f}, {kInf, 2.f}, 0.5f},
      {"-inf scale", {1.f, -2.f, 3.f, 4.f}, {2.f, -kInf}, 0.5f},
      {"NaN scale", {1.f, -2.f, 3.f, 4.f}, {kNaN, 1.f}, 0.5f},
      // x * w = 1 per term, times 1e20: TensorFlow gives 2e20; folded, w * s overflows to inf.
      {"weights overflow", {1e20f, 1e20f, 1e20f, 1e20f}, {1e20f, 1e20f}, 1e-20f},
      // An inf weight times a zero scale: NaN folded, 0 * x * inf... kept as the graph says.
      {"inf weight, zero scale", {kInf, 1.f, 1.f, 1.f}, {0.f, 1.f}, 1.f},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    Output mm = ops::MatMul(root.WithOpName("mm"), x,
                            ops::Const<float>(root, c.weights, TensorShape({2, 2})));
    ops::Mul(root.WithOpName("scale"), mm, ops::Const<float>(root, c.scale, TensorShape({2})));
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.scale_shifts_folded, 0);
    EXPECT_EQ(o.stats.folds_skipped_non_finite, 1);
    ASSERT_NE(Find(o.graph, "scale"), nullptr);
    EXPECT_EQ(Find(o.graph, "scale")->op(), "Mul");
    GraphDef original;
    ASSERT_THAT(root.ToGraphDef(&original), IsOk());
    const Tensor input =
        Tensor::FromVector<float>(std::vector<float>(6, c.input), TensorShape({3, 2}));
    ExpectSameOutputs(original, {{"x:0", input}}, {"scale:0"}, 1e-5f);
  }
  // The 1e20 case: TensorFlow's value, not inf.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output mm = ops::MatMul(root.WithOpName("mm"), x,
                          ops::Const<float>(root, {1e20f, 1e20f}, TensorShape({1, 2})));
  ops::Mul(root.WithOpName("scale"), mm, ops::Const(root, {1e20f, 1e20f}));
  GraphDef g;
  ASSERT_THAT(root.ToGraphDef(&g), IsOk());
  auto s = Session::New(SessionOptions());
  ASSERT_THAT(s.status(), IsOk());
  ASSERT_THAT((*s)->Create(g), IsOk());
  std::vector<Tensor> out;
  ASSERT_THAT((*s)->Run({{"x:0", Tensor::FromVector<float>({1e-20f}, TensorShape({1, 1}))}},
                        {"scale:0"}, {}, &out),
              IsOk());
  EXPECT_FLOAT_EQ(out[0].flat<float>()[0], 1e20f);
  EXPECT_FLOAT_EQ(out[0].flat<float>()[1], 1e20f);
}

// Shifts (Add after a product's BiasAdd) that are not finite, or whose sum with the bias
// overflows, stay Adds; a scale that is not finite is not folded into a depthwise filter or
// through a bias either.
TEST(GraphOptimizerTest, ShiftsAndDepthwiseScalesThatAreNotFiniteAreNotFolded) {
  const float kHuge = 3e38f;
  struct Case {
    const char* what;
    float bias, scale, shift;
    int folded;  // scale_shifts_folded
    int skipped;
  };
  const Case cases[] = {
      {"inf shift", 1.f, 2.f, kInf, 1, 1},                   // the scale folds, the shift does not
      {"NaN shift", 1.f, 2.f, kNaN, 1, 1},                   // likewise
      {"bias + shift overflows", kHuge, 0.5f, kHuge, 1, 1},  // a scale of 1 is no Mul to fold
      {"inf scale", 1.f, kInf, 0.5f, 0, 1},  // the Mul stays, so the shift has no bias to join
      {"bias * scale overflows", kHuge, 10.f, 0.5f, 0, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    Output w = ops::Const<float>(root.WithOpName("w"), Ramp(3 * 3 * 2 * 1, 0.2f, -0.5f),
                                 TensorShape({3, 3, 2, 1}));
    Output dw = ops::DepthwiseConv2dNative(root.WithOpName("dw"), x, w, {1, 1, 1, 1}, "SAME");
    Output biased = ops::BiasAdd(root.WithOpName("ba"), dw, ops::Const(root, {c.bias, c.bias}));
    Output scaled = ops::Mul(root.WithOpName("scale"), biased, ops::Const(root, c.scale));
    ops::AddV2(root.WithOpName("shift"), scaled, ops::Const(root, c.shift));
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.scale_shifts_folded, c.folded);
    EXPECT_EQ(o.stats.folds_skipped_non_finite, c.skipped);
    GraphDef original;
    ASSERT_THAT(root.ToGraphDef(&original), IsOk());
    ExpectSameOutputs(original, {{"x:0", RampInput(TensorShape({1, 4, 4, 2}))}}, {"shift:0"},
                      1e-5f);
  }
}

// Batch norms whose constants are not finite, or whose folded filter or bias would not be, stay
// batch norms.
TEST(GraphOptimizerTest, BatchNormsThatAreNotFiniteOrOverflowAreNotFolded) {
  struct Case {
    const char* what;
    float filter, scale, offset, mean, var;
  };
  const Case cases[] = {
      {"inf scale", 0.5f, kInf, 0.f, 0.f, 1.f},
      {"NaN offset", 0.5f, 1.f, kNaN, 0.f, 1.f},
      {"inf mean", 0.5f, 1.f, 0.f, kInf, 1.f},
      {"inf variance", 0.5f, 1.f, 0.f, 0.f, kInf},
      {"filter * scale overflows", 1e20f, 1e20f, 0.f, 0.f, 1.f},
      {"mean * scale overflows", 0.5f, 1e20f, 0.f, 1e20f, 1.f},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    Output w = ops::Const<float>(root.WithOpName("w"), std::vector<float>(2 * 2 * 2 * 2, c.filter),
                                 TensorShape({2, 2, 2, 2}));
    Output conv = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
    std::vector<Output> bn = ops::FusedBatchNormV3(
        root.WithOpName("bn"), conv, ops::Const(root, {c.scale, 1.f}),
        ops::Const(root, {c.offset, 0.f}), ops::Const(root, {c.mean, 0.f}),
        ops::Const(root, {c.var, 1.f}), ops::FusedBatchNormAttrs().IsTraining(false));
    ops::Identity(root.WithOpName("y"), bn[0]);
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.batch_norms_folded, 0);
    EXPECT_EQ(o.stats.folds_skipped_non_finite, 1);
    ASSERT_NE(Find(o.graph, "bn"), nullptr);
    EXPECT_EQ(Find(o.graph, "bn")->op(), "FusedBatchNormV3");
    GraphDef original;
    ASSERT_THAT(root.ToGraphDef(&original), IsOk());
    const Tensor input = Tensor::FromVector<float>(std::vector<float>(1 * 3 * 3 * 2, 1e-20f),
                                                   TensorShape({1, 3, 3, 2}));
    ExpectSameOutputs(original, {{"x:0", input}}, {"y:0"}, 1e-5f);
  }
}

// A transposed convolution (Keras's Conv2DTranspose: Conv2DBackpropInput of a 2x2 stride-2
// SAME filter [3, 3, out_c 4, in_c 2]) and the batch norm after it, as FusedBatchNormV3 or as
// Keras 3's Mul / AddV2. Its filter's output channel is dim 2, so element e belongs to channel
// (e / 2) % 4.
struct TransposedConv {
  Output x, conv;
  std::vector<float> filter = Ramp(3 * 3 * 4 * 2, 0.15f, -0.4f);
};
TransposedConv MakeTransposedConv(const Scope& root) {
  TransposedConv t;
  t.x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const<float>(root.WithOpName("w"), t.filter, TensorShape({3, 3, 4, 2}));
  t.conv = ops::Conv2DBackpropInput(root.WithOpName("conv"), ops::Const(root, {1, 6, 6, 4}), w, t.x,
                                    {1, 2, 2, 1}, "SAME");
  return t;
}

// out_backprop [1, 3, 3, 2] with an inf, a -inf and a NaN among finite values.
Tensor TransposedConvInput() {
  Tensor t = RampInput(TensorShape({1, 3, 3, 2}));
  t.flat<float>()[3] = kInf;
  t.flat<float>()[8] = -kInf;
  t.flat<float>()[13] = kNaN;
  return t;
}

TEST(GraphOptimizerTest, FoldsBatchNormIntoATransposedConvolutionsFilter) {
  Scope root = Scope::NewRootScope();
  TransposedConv t = MakeTransposedConv(root);
  const float scale[] = {1.f, 2.f, 0.5f, -1.f}, offset[] = {0.1f, 0.f, -0.2f, 0.3f};
  const float mean[] = {0.5f, -0.5f, 0.f, 1.f}, var[] = {1.f, 4.f, 0.25f, 2.f};
  std::vector<Output> bn = ops::FusedBatchNormV3(
      root.WithOpName("bn"), t.conv,
      ops::Const<float>(root, std::vector<float>(scale, scale + 4), TensorShape({4})),
      ops::Const<float>(root, std::vector<float>(offset, offset + 4), TensorShape({4})),
      ops::Const<float>(root, std::vector<float>(mean, mean + 4), TensorShape({4})),
      ops::Const<float>(root, std::vector<float>(var, var + 4), TensorShape({4})),
      ops::FusedBatchNormAttrs().IsTraining(false));
  ops::Relu(root.WithOpName("relu"), bn[0]);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.batch_norms_folded, 1);
  EXPECT_EQ(o.stats.folds_skipped_non_finite, 0);
  ASSERT_NE(Find(o.graph, "bn"), nullptr);
  EXPECT_EQ(Find(o.graph, "bn")->op(), "BiasAdd");
  ASSERT_NE(Find(o.graph, "conv"), nullptr);
  EXPECT_EQ(Find(o.graph, "conv")->op(), "Conv2DBackpropInput");
  // Its filter is a Const: the kernel keeps the filter reordered for oneDNN.
  EXPECT_TRUE(Find(o.graph, "conv")->attr().contains("_rill_constant_weights"));
  // The filter's element [kh, kw, c, k] is scaled by channel c's scale / sqrt(var + eps).
  const std::vector<std::string> conv_inputs = Inputs(o.graph, "conv");
  ASSERT_EQ(conv_inputs.size(), 3u);
  EXPECT_EQ(conv_inputs[2], "x");
  const NodeDef* w = Find(o.graph, conv_inputs[1]);
  ASSERT_NE(w, nullptr);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor folded, TensorFromProto(w->attr().at("value").tensor()));
  ASSERT_EQ(folded.NumElements(), static_cast<int64_t>(t.filter.size()));
  const float eps = 0.0001f;
  for (int64_t e = 0; e < folded.NumElements(); ++e) {
    const int64_t c = e / 2 % 4;
    EXPECT_EQ(folded.flat<float>()[e], t.filter[e] * (scale[c] / std::sqrt(var[c] + eps))) << e;
  }
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original, {{"x:0", TransposedConvInput()}}, {"relu:0"}, 1e-5f);
}

TEST(GraphOptimizerTest, FoldsKerasBatchNormMulAddIntoATransposedConvolution) {
  // conv_transpose -> * scale -> + shift -> LeakyRelu, as DCGAN's generator leaves it frozen:
  // the scale goes into the filter, the Mul and Add become one BiasAdd.
  Scope root = Scope::NewRootScope();
  TransposedConv t = MakeTransposedConv(root);
  const std::vector<float> scale = {2.f, -1.f, 0.5f, 3.f};
  Output scaled =
      ops::Mul(root.WithOpName("scale"), t.conv, ops::Const<float>(root, scale, TensorShape({4})));
  Output shifted =
      ops::AddV2(root.WithOpName("shift"), scaled, ops::Const(root, {0.25f, 1.f, -0.5f, 2.f}));
  ops::LeakyRelu(root.WithOpName("act"), shifted, ops::LeakyReluAttrs().Alpha(0.2f));
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.scale_shifts_folded, 2);
  EXPECT_EQ(Find(o.graph, "scale"), nullptr);
  ASSERT_NE(Find(o.graph, "shift"), nullptr);
  EXPECT_EQ(Find(o.graph, "shift")->op(), "BiasAdd");
  EXPECT_EQ(Inputs(o.graph, "shift")[0], "conv");
  const std::vector<std::string> conv_inputs = Inputs(o.graph, "conv");
  ASSERT_EQ(conv_inputs.size(), 3u);
  EXPECT_EQ(conv_inputs[2], "x");
  const NodeDef* w = Find(o.graph, conv_inputs[1]);
  ASSERT_NE(w, nullptr);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor folded, TensorFromProto(w->attr().at("value").tensor()));
  for (int64_t e = 0; e < folded.NumElements(); ++e) {
    EXPECT_EQ(folded.flat<float>()[e], t.filter[e] * scale[e / 2 % 4]) << e;
  }
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original, {{"x:0", TransposedConvInput()}}, {"act:0"}, 1e-5f);
}

TEST(GraphOptimizerTest, TransposedConvolutionsOfFedFiltersAreNotMarkedConstant) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Placeholder(root.WithOpName("w"), DT_FLOAT);
  ops::Conv2DBackpropInput(root.WithOpName("conv"), ops::Const(root, {1, 6, 6, 4}), w, x,
                           {1, 2, 2, 1}, "SAME");
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.constant_weights_marked, 0);
  EXPECT_FALSE(Find(o.graph, "conv")->attr().contains("_rill_constant_weights"));
}

TEST(GraphOptimizerTest, NonFiniteBatchNormsAfterATransposedConvolutionAreNotFolded) {
  for (const float bad : {kInf, kNaN}) {
    SCOPED_TRACE(bad);
    for (bool keras : {false, true}) {
      Scope root = Scope::NewRootScope();
      TransposedConv t = MakeTransposedConv(root);
      Output y;
      if (keras) {
        y = ops::Mul(root.WithOpName("scale"), t.conv, ops::Const(root, {2.f, bad, 0.5f, 3.f}));
      } else {
        y = ops::FusedBatchNormV3(
            root.WithOpName("bn"), t.conv, ops::Const(root, {1.f, 1.f, bad, 1.f}),
            ops::Const(root, {0.f, 0.f, 0.f, 0.f}), ops::Const(root, {0.f, 0.f, 0.f, 0.f}),
            ops::Const(root, {1.f, 1.f, 1.f, 1.f}),
            ops::FusedBatchNormAttrs().IsTraining(false))[0];
      }
      ops::Identity(root.WithOpName("y"), y);
      Optimized o = Optimize(root);
      EXPECT_EQ(o.stats.batch_norms_folded + o.stats.scale_shifts_folded, 0);
      EXPECT_EQ(o.stats.folds_skipped_non_finite, 1);
      EXPECT_EQ(Inputs(o.graph, "conv")[1], "w");
      GraphDef original;
      ASSERT_THAT(root.ToGraphDef(&original), IsOk());
      ExpectSameOutputs(original, {{"x:0", TransposedConvInput()}}, {"y:0"}, 1e-5f);
    }
  }
}

TEST(GraphOptimizerTest, MatMulsWithConstWeightsAreMarkedAndRunPacked) {
  // dense1 (fused, Const weights 300x260: the packed oneDNN path), dense2 (weights fed: not
  // marked), dense3 (Const weights 260x5: marked, small enough for Gemm).
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output fed_w = ops::Placeholder(root.WithOpName("fed_w"), DT_FLOAT);
  Output w1 = ops::Const<float>(root.WithOpName("w1"), Ramp(300 * 260, 0.01f, -0.03f),
                                TensorShape({300, 260}));
  Output h =
      ops::Relu(root.WithOpName("dense1"),
                ops::BiasAdd(root.WithOpName("b1"), ops::MatMul(root.WithOpName("mm1"), x, w1),
                             ops::Const<float>(root, Ramp(260, 0.5f, -1.f), TensorShape({260}))));
  Output h2 = ops::MatMul(root.WithOpName("dense2"), h, fed_w);
  ops::MatMul(
      root.WithOpName("dense3"), h2,
      ops::Const<float>(root.WithOpName("w3"), Ramp(260 * 5, 0.1f, -0.2f), TensorShape({260, 5})));
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.constant_weights_marked, 2);
  EXPECT_EQ(Find(o.graph, "dense1")->op(), "_FusedMatMul");
  EXPECT_TRUE(Find(o.graph, "dense1")->attr().contains("_rill_constant_weights"));
  EXPECT_FALSE(Find(o.graph, "dense2")->attr().contains("_rill_constant_weights"));
  EXPECT_TRUE(Find(o.graph, "dense3")->attr().contains("_rill_constant_weights"));
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  std::vector<float> fed(260 * 260);
  for (size_t i = 0; i < fed.size(); ++i) fed[i] = (i % 13 == 0) ? 0.05f : -0.001f;
  // Two batch sizes: one packed copy serves both.
  for (int batch : {1, 9}) {
    ExpectSameOutputs(original,
                      {{"x:0", RampInput(TensorShape({batch, 300}))},
                       {"fed_w:0", Tensor::FromVector<float>(fed, TensorShape({260, 260}))}},
                      {"dense1:0", "dense3:0"}, 2e-3f);
  }
}

TEST(GraphOptimizerTest, LoopVariablesCarriedUnchangedBecomeLoopConstants) {
  // while i < n: (n, i) = (n, i + 1): n, a loop variable the body returns unchanged, becomes a
  // constant Enter (graph/loop_invariants.h); loop_invariants off keeps it.
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  ops::WhileLoop(
      root.NewSubScope("while"), {n, ops::Const(root, 0)},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[1], v[0]); },
      [](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{v[0], ops::Add(s, v[1], ops::Const(s, 1))};
      });
  auto merges = [](const GraphDef& g) {
    return absl::c_count_if(g.node(), [](const NodeDef& d) { return d.op() == "Merge"; });
  };
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.loop_invariants_made_constant, 1);
  EXPECT_EQ(merges(o.graph), 1);
  // The counter's Identity after its Switch goes (graph/control_flow_identities.h); n's, which
  // the body's nodes wait on by control edges, stays.
  EXPECT_EQ(o.stats.identities_removed, 1);
  GraphOptimizerOptions off;
  off.loop_invariants = false;
  Optimized kept = Optimize(root, off);
  EXPECT_EQ(kept.stats.loop_invariants_made_constant, 0);
  EXPECT_EQ(merges(kept.graph), 2);
  // The body's Const (the 1 of i + 1, waiting on the pivot) runs once per step, read through a
  // third, constant Enter (graph/loop_body_constants.h); loop_invariants off keeps it in the loop.
  auto count = [](const GraphDef& g, const std::string& op, bool with_inputs) {
    return absl::c_count_if(g.node(), [&](const NodeDef& d) {
      return d.op() == op && (d.input_size() > 0) == with_inputs;
    });
  };
  EXPECT_EQ(count(o.graph, "Const", true), 0);
  EXPECT_EQ(count(o.graph, "Enter", true), 3);
  EXPECT_EQ(count(kept.graph, "Const", true), 1);
  EXPECT_EQ(count(kept.graph, "Enter", true), 2);
  ConfigProto l0;
  l0.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(OptimizerOptions::L0);
  EXPECT_FALSE(GraphOptimizerOptions::FromConfig(l0).loop_invariants);
  EXPECT_TRUE(GraphOptimizerOptions::FromConfig(ConfigProto()).loop_invariants);
}

// The nodes of `g` and the step nodes each _RillRecurrentSequence carries (a recurrent loop frame
// the optimizer made one node: graph/recurrent_sequence_fusion.h).
GraphDef WithSteps(const GraphDef& g) {
  GraphDef out = g;
  for (const NodeDef& d : g.node()) {
    if (d.op() != "_RillRecurrentSequence") continue;
    for (const std::string& bytes : d.attr().at("step").list().s()) {
      if (!out.add_node()->ParseFromString(bytes)) ADD_FAILURE() << d.name();
    }
  }
  return out;
}

TEST(GraphOptimizerTest, ARecurrentStepsInputProductRunsOnceBeforeTheLoopWhenAsked) {
  // acc = 0; for i < n: acc += GetItem(list(x), n - 1 - i) @ w (a reversed read, a Keras RNN's
  // go_backwards): with loop_input_projection the step's MatMul becomes one BatchMatMulV2 of x by
  // w before the loop (graph/loop_input_projection.h), with w's packed weights. The rewritten
  // graph, run as it is, gives the values and errors of the original at 0, 1 and 3 steps, a read
  // past the list and a list that does not match x.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output list = ops::TensorListFromTensor(root.WithOpName("list"), x, ops::Const(root, {-1, 3}));
  Output w = ops::Const(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), ops::Const(root, {{0.f, 0.f}, {0.f, 0.f}})},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [](const Scope& s, const std::vector<Output>& v) {
        Output back = ops::Sub(s, ops::Sub(s, v[2], ops::Const(s, 1)), v[0]);
        Output xt = ops::TensorListGetItem(s, v[4], back, ops::Const(s, {-1, 3}), DT_FLOAT);
        Output y = ops::MatMul(s, xt, ops::Identity(s.WithControlDependencies({v[0]}), v[3]));
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)), ops::Add(s, v[1], y)};
      },
      ops::WhileLoopAttrs().Invariants({n, w, list}));
  ops::Identity(root.WithOpName("acc"), out[1]);
  auto count = [](const GraphDef& g, const std::string& op) {
    return absl::c_count_if(g.node(), [&](const NodeDef& d) { return d.op() == op; });
  };
  EXPECT_EQ(count(WithSteps(Optimize(root).graph), "MatMul"), 1);  // off by default
  GraphOptimizerOptions on;
  on.loop_input_projection = true;
  Optimized o = Optimize(root, on);
  EXPECT_EQ(count(o.graph, "MatMul"), 0);
  ASSERT_EQ(count(o.graph, "BatchMatMulV2"), 1);
  for (const NodeDef& d : o.graph.node()) {
    if (d.op() == "BatchMatMulV2") {
      EXPECT_THAT(d.input(), ElementsAre("x", "w", "^list"));
      EXPECT_TRUE(d.attr().at("_rill_constant_weights").b());
    }
  }

  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  // Runs `g` as it is (optimizer off).
  auto run = [](const GraphDef& g, const Tensor& xs, int steps) -> absl::StatusOr<Tensor> {
    SessionOptions options;
    options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
        OptimizerOptions::L0);
    auto s = Session::New(options);
    RILL_RETURN_IF_ERROR(s.status());
    RILL_RETURN_IF_ERROR((*s)->Create(g));
    std::vector<Tensor> result;
    RILL_RETURN_IF_ERROR(
        (*s)->Run({{"x:0", xs}, {"n:0", Tensor::Scalar<int32_t>(steps)}}, {"acc:0"}, {}, &result));
    return result[0];
  };
  const Tensor xs = Tensor::FromVector<float>(
      {1, 0, -1, 2, 0.5, 0, 0, 1, 0, -2, 1, 3, 4, 0, 0.25, 1, 1, 1}, TensorShape({3, 2, 3}));
  const std::vector<Tensor> expected = {
      Tensor::FromVector<float>({0, 0, 0, 0}, TensorShape({2, 2})),
      Tensor::FromVector<float>({-4, -4, 3.5, 6}, TensorShape({2, 2})),  // x[0] @ w
      Tensor::FromVector<float>({4.25, 9.5, 28.5, 36}, TensorShape({2, 2}))};
  for (int i = 0; i < 3; ++i) {
    const int steps = i == 2 ? 3 : i;
    for (const GraphDef* g : {&original, &o.graph}) {
      absl::StatusOr<Tensor> acc = run(*g, xs, steps);
      ASSERT_THAT(acc.status(), IsOk()) << steps;
      ExpectTensorEqual(*acc, expected[i]);
    }
  }
  const Tensor wide =
      Tensor::FromVector<float>(std::vector<float>(24, 1.f), TensorShape({3, 2, 4}));
  for (const GraphDef* g : {&original, &o.graph}) {
    EXPECT_THAT(
        run(*g, xs, 4).status(),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 ::testing::HasSubstr("Trying to access element 3 in a list with 3 elements.")));
    EXPECT_THAT(
        run(*g, wide, 0).status(),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 ::testing::HasSubstr(
                     "Specified a list with shape [?,3] from a tensor with shape [3,2,4]")));
  }
}

// A Keras-like LSTM over `steps` iterations of the same input x [2, 3], 5 units: z = x W + h U + b,
// its gates in Split order (i, f, g, o) or, with `shuffled`, (g, o, f, i) and c * f for f * c.
Scope LstmLoop(bool shuffled) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output steps = ops::Placeholder(root.WithOpName("steps"), DT_INT32);
  Output w =
      ops::Const<float>(root.WithOpName("w"), Ramp(3 * 20, 0.037f, -1.f), TensorShape({3, 20}));
  Output u =
      ops::Const<float>(root.WithOpName("u"), Ramp(5 * 20, -0.013f, 0.8f), TensorShape({5, 20}));
  Output b = ops::Const<float>(root.WithOpName("b"), Ramp(20, 0.05f, -0.5f), TensorShape({20}));
  Output zeros =
      ops::Const<float>(root.WithOpName("zeros"), std::vector<float>(10, 0.f), TensorShape({2, 5}));
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), zeros, zeros},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[3]); },
      [shuffled](const Scope& s, const std::vector<Output>& v) {
        Output z = ops::BiasAdd(
            s, ops::AddV2(s, ops::MatMul(s, v[4], v[5]), ops::MatMul(s, v[1], v[6])), v[7]);
        std::vector<Output> parts = ops::Split(s, ops::Const(s, 1), z, 4);
        const int i = shuffled ? 3 : 0, f = shuffled ? 2 : 1, g = shuffled ? 0 : 2,
                  o = shuffled ? 1 : 3;
        Output fc = shuffled ? ops::Mul(s, v[2], ops::Sigmoid(s, parts[f]))
                             : ops::Mul(s, ops::Sigmoid(s, parts[f]), v[2]);
        Output c = ops::AddV2(s.WithOpName("c_next"), fc,
                              ops::Mul(s, ops::Sigmoid(s, parts[i]), ops::Tanh(s, parts[g])));
        Output h = ops::Mul(s.WithOpName("h_next"), ops::Sigmoid(s, parts[o]), ops::Tanh(s, c));
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)), h, c};
      },
      ops::WhileLoopAttrs().Invariants({steps, x, w, u, b}));
  ops::Identity(root.WithOpName("h"), out[1]);
  ops::Identity(root.WithOpName("c"), out[2]);
  return root;
}

TEST(GraphOptimizerTest, AnLstmStepsGatesBecomeOneCell) {
  auto count = [](const GraphDef& g, const std::string& op) {
    return absl::c_count_if(g.node(), [&](const NodeDef& d) { return d.op() == op; });
  };
  for (bool shuffled : {false, true}) {
    Scope root = LstmLoop(shuffled);
    // The cell, in the loop's step (the whole loop is one _RillRecurrentSequence).
    const GraphDef all = WithSteps(Optimize(root).graph);
    EXPECT_EQ(count(all, "_RillLstmCell"), 1) << shuffled;
    for (const char* op : {"Split", "Sigmoid", "Tanh", "Mul", "AddV2"}) {
      EXPECT_EQ(count(all, op), op == std::string("AddV2") ? 1 : 0) << op;  // z's sum stays
    }
    for (const NodeDef& d : all.node()) {
      if (d.op() != "_RillLstmCell") continue;
      std::vector<int64_t> order(d.attr().at("gate_order").list().i().begin(),
                                 d.attr().at("gate_order").list().i().end());
      EXPECT_THAT(order, shuffled ? ElementsAre(3, 2, 0, 1) : ElementsAre(0, 1, 2, 3));
    }
    GraphDef g;
    ASSERT_THAT(root.ToGraphDef(&g), IsOk());
    const Tensor x = Tensor::FromVector<float>({0.5, -1, 2, 0.25, 3, -0.75}, TensorShape({2, 3}));
    for (int steps : {0, 1, 7}) {
      ExpectSameOutputs(g, {{"x:0", x}, {"steps:0", Tensor::Scalar<int32_t>(steps)}},
                        {"h:0", "c:0"});
    }
  }
}

// A Keras-like GRU (reset_after) over `steps` iterations of the same input x [2, 3], 5 units:
// x W + b_x split into (z, r, c) blocks, h U + b_h sliced into the same blocks; with `shuffled`
// the blocks are (c, z, r) and the products and sums take their operands the other way round.
Scope GruLoop(bool shuffled) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output steps = ops::Placeholder(root.WithOpName("steps"), DT_INT32);
  Output w =
      ops::Const<float>(root.WithOpName("w"), Ramp(3 * 15, 0.041f, -0.9f), TensorShape({3, 15}));
  Output u =
      ops::Const<float>(root.WithOpName("u"), Ramp(5 * 15, -0.017f, 0.7f), TensorShape({5, 15}));
  Output bx = ops::Const<float>(root.WithOpName("bx"), Ramp(15, 0.05f, -0.4f), TensorShape({15}));
  Output bh = ops::Const<float>(root.WithOpName("bh"), Ramp(15, -0.03f, 0.2f), TensorShape({15}));
  Output zeros =
      ops::Const<float>(root.WithOpName("zeros"), std::vector<float>(10, 0.f), TensorShape({2, 5}));
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), zeros},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [shuffled](const Scope& s, const std::vector<Output>& v) {
        Output xp = ops::BiasAdd(s, ops::MatMul(s, v[3], v[4]), v[6]);
        Output hp = ops::AddV2(s, ops::MatMul(s, v[1], v[5]), v[7]);
        std::vector<Output> xs = ops::Split(s, ops::Const(s, -1), xp, 3);
        const int zb = shuffled ? 1 : 0, rb = shuffled ? 2 : 1, cb = shuffled ? 0 : 2;
        auto block = [&](int b) {
          ops::StridedSliceMasks m;
          m.begin = b == 0 ? 3 : 1;
          m.end = b == 2 ? 3 : 1;
          return ops::StridedSlice(s, hp, ops::Const(s, {0, 5 * b}),
                                   ops::Const(s, {0, b == 2 ? 0 : 5 * (b + 1)}),
                                   ops::Const(s, {1, 1}), m);
        };
        auto add = [&](Output a, Output b) {
          return shuffled ? ops::AddV2(s, b, a) : ops::AddV2(s, a, b);
        };
        auto mul = [&](Output a, Output b) {
          return shuffled ? ops::Mul(s, b, a) : ops::Mul(s, a, b);
        };
        Output z = ops::Sigmoid(s, add(xs[zb], block(zb)));
        Output r = ops::Sigmoid(s, add(xs[rb], block(rb)));
        Output c = ops::Tanh(s, add(xs[cb], mul(r, block(cb))));
        Output h = add(mul(z, v[1]), mul(ops::Sub(s, ops::Const(s, 1.f), z), c));
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)), h};
      },
      ops::WhileLoopAttrs().Invariants({steps, x, w, u, bx, bh}));
  ops::Identity(root.WithOpName("h"), out[1]);
  return root;
}

TEST(GraphOptimizerTest, AGruStepsGatesBecomeOneCell) {
  auto count = [](const GraphDef& g, const std::string& op) {
    return absl::c_count_if(g.node(), [&](const NodeDef& d) { return d.op() == op; });
  };
  for (bool shuffled : {false, true}) {
    Scope root = GruLoop(shuffled);
    // The cell, in the loop's step (the whole loop is one _RillRecurrentSequence).
    const GraphDef all = WithSteps(Optimize(root).graph);
    EXPECT_EQ(count(all, "_RillGruCell"), 1) << shuffled;
    for (const char* op : {"Split", "StridedSlice", "Sigmoid", "Tanh", "Mul", "Sub"}) {
      EXPECT_EQ(count(all, op), 0) << op;
    }
    EXPECT_EQ(count(all, "AddV2"), 1);  // hh's bias stays
    for (const NodeDef& d : all.node()) {
      if (d.op() != "_RillGruCell") continue;
      std::vector<int64_t> order(d.attr().at("gate_order").list().i().begin(),
                                 d.attr().at("gate_order").list().i().end());
      EXPECT_THAT(order, shuffled ? ElementsAre(1, 2, 0) : ElementsAre(0, 1, 2));
    }
    GraphDef g;
    ASSERT_THAT(root.ToGraphDef(&g), IsOk());
    const Tensor x = Tensor::FromVector<float>({0.5, -1, 2, 0.25, 3, -0.75}, TensorShape({2, 3}));
    for (int steps : {0, 1, 7}) {
      ExpectSameOutputs(g, {{"x:0", x}, {"steps:0", Tensor::Scalar<int32_t>(steps)}}, {"h:0"});
    }
  }
}

// TF1's GRUCell over `steps` iterations of x [2, 3], 5 units: the gates Sigmoid(concat(x, h) W_g
// + b_g) split into r and u, c = Tanh(concat(x, r * h) W_c + b_c), h' = u * h + (1 - u) * c.
Scope Tf1GruLoop() {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output steps = ops::Placeholder(root.WithOpName("steps"), DT_INT32);
  Output wg =
      ops::Const<float>(root.WithOpName("wg"), Ramp(8 * 10, 0.043f, -0.8f), TensorShape({8, 10}));
  Output wc =
      ops::Const<float>(root.WithOpName("wc"), Ramp(8 * 5, -0.029f, 0.6f), TensorShape({8, 5}));
  Output bg = ops::Const<float>(root.WithOpName("bg"), Ramp(10, 0.05f, 0.1f), TensorShape({10}));
  Output bc = ops::Const<float>(root.WithOpName("bc"), Ramp(5, -0.02f, 0.f), TensorShape({5}));
  Output zeros =
      ops::Const<float>(root.WithOpName("zeros"), std::vector<float>(10, 0.f), TensorShape({2, 5}));
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), zeros},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [](const Scope& s, const std::vector<Output>& v) {
        Output gates = ops::Sigmoid(
            s, ops::BiasAdd(s, ops::MatMul(s, ops::Concat(s, ops::Const(s, 1), {v[3], v[1]}), v[4]),
                            v[6]));
        std::vector<Output> ru = ops::Split(s, ops::Const(s, 1), gates, 2);
        Output c = ops::Tanh(
            s, ops::BiasAdd(
                   s,
                   ops::MatMul(
                       s, ops::Concat(s, ops::Const(s, 1), {v[3], ops::Mul(s, ru[0], v[1])}), v[5]),
                   v[7]));
        Output h = ops::AddV2(s, ops::Mul(s, ru[1], v[1]),
                              ops::Mul(s, ops::Sub(s, ops::Const(s, 1.f), ru[1]), c));
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)), h};
      },
      ops::WhileLoopAttrs().Invariants({steps, x, wg, wc, bg, bc}));
  ops::Identity(root.WithOpName("h"), out[1]);
  return root;
}

TEST(GraphOptimizerTest, ATf1GruCellsUpdateBecomesOneNode) {
  auto count = [](const GraphDef& g, const std::string& op) {
    return absl::c_count_if(g.node(), [&](const NodeDef& d) { return d.op() == op; });
  };
  Scope root = Tf1GruLoop();
  Optimized o = Optimize(root);
  EXPECT_EQ(count(o.graph, "_RillGruUpdate"), 1);
  EXPECT_EQ(count(o.graph, "_RillGruCell"), 0);
  for (const char* op : {"Tanh", "Sub", "AddV2"}) EXPECT_EQ(count(o.graph, op), 0) << op;
  EXPECT_EQ(count(o.graph, "Mul"), 1);  // r * h, read by the candidate's product
  GraphDef g;
  ASSERT_THAT(root.ToGraphDef(&g), IsOk());
  const Tensor x = Tensor::FromVector<float>({0.5, -1, 2, 0.25, 3, -0.75}, TensorShape({2, 3}));
  for (int steps : {0, 1, 7}) {
    ExpectSameOutputs(g, {{"x:0", x}, {"steps:0", Tensor::Scalar<int32_t>(steps)}}, {"h:0"});
  }
}

TEST(GraphOptimizerTest, AFusedGruCellsErrorNamesTheUsersNode) {
  // x of 3 rows against the state's 2: x W + b_x and h U + b_h do not broadcast in the gates'
  // Adds. The fused cell reports z's Add (the unfused graph the first of the z and r Adds its
  // executor runs: the same text, naming one of the user's Adds), its shapes in that Add's order:
  // the shuffled graph's Adds take hh's block first ("[2,5] vs. [3,5]"), optimized or not.
  for (bool shuffled : {false, true}) {
    SCOPED_TRACE(shuffled);
    GraphDef g;
    ASSERT_THAT(GruLoop(shuffled).ToGraphDef(&g), IsOk());
    // z's Add: the AddV2 reading the Split output of z's block (1 shuffled, 0 otherwise).
    const NodeDef* split = nullptr;
    for (const NodeDef& d : g.node()) {
      if (d.op() == "Split") split = &d;
    }
    ASSERT_NE(split, nullptr);
    const std::string z_block = shuffled ? absl::StrCat(split->name(), ":1") : split->name();
    std::string z_add;
    for (const NodeDef& d : g.node()) {
      if (d.op() == "AddV2" && absl::c_linear_search(d.input(), z_block)) z_add = d.name();
    }
    ASSERT_FALSE(z_add.empty());
    const Tensor x = Tensor::FromVector<float>(Ramp(9, -1.f, 0.25f), TensorShape({3, 3}));
    std::vector<absl::Status> s =
        RunStatuses(g, {{"x:0", x}, {"steps:0", Tensor::Scalar<int32_t>(2)}}, {"h:0"});
    ASSERT_EQ(s.size(), 2u);
    EXPECT_THAT(s[0], StatusIs(absl::StatusCode::kInvalidArgument,
                               absl::StrCat("Incompatible shapes: ",
                                            shuffled ? "[2,5] vs. [3,5]" : "[3,5] vs. [2,5]",
                                            "\n\t [[{{node ", z_add, "}}]]")));
    EXPECT_THAT(
        s[1],
        StatusIs(absl::StatusCode::kInvalidArgument,
                 ::testing::StartsWith(absl::StrCat(
                     "Incompatible shapes: ", shuffled ? "[2,5] vs. [3,5]" : "[3,5] vs. [2,5]",
                     "\n\t [[{{node while/"))));
  }
}

TEST(GraphOptimizerTest, ScalesThatAreNotPerChannelConstantsAreLeftAlone) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT);
  Output w = ops::Const<float>(root.WithOpName("w"), Ramp(2 * 2 * 2 * 3, 0.1f, -0.3f),
                               TensorShape({2, 2, 2, 3}));
  // A fed scale; a constant that broadcasts over more than the channels; a conv read twice.
  ops::Mul(root.WithOpName("fed"), ops::Conv2D(root.WithOpName("c1"), x, w, {1, 1, 1, 1}, "SAME"),
           y);
  ops::Mul(root.WithOpName("wide"), ops::Conv2D(root.WithOpName("c2"), x, w, {1, 1, 1, 1}, "SAME"),
           ops::Const<float>(root, Ramp(2 * 3, 1.f, 0.5f), TensorShape({2, 1, 1, 3})));
  Output c3 = ops::Conv2D(root.WithOpName("c3"), x, w, {1, 1, 1, 1}, "SAME");
  ops::Mul(root.WithOpName("shared"), c3, ops::Const(root, {1.f, 2.f, 3.f}));
  ops::Neg(root.WithOpName("other_reader"), c3);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.scale_shifts_folded, 0);
  for (const char* kept : {"fed", "wide", "shared"}) EXPECT_EQ(Find(o.graph, kept)->op(), "Mul");
}

TEST(GraphOptimizerTest, FetchedIntermediatesAreNotFusedAway) {
  // Fetching mm keeps it: BiasAdd + Relu alone cannot fuse, and values stay right.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output mm = ops::MatMul(root.WithOpName("mm"), x, ops::Const(root, {{1.f, 2.f}, {3.f, 4.f}}));
  ops::Relu(root.WithOpName("relu"),
            ops::BiasAdd(root.WithOpName("ba"), mm, ops::Const(root, {-3.f, 1.f})));
  GraphDef g;
  ASSERT_THAT(root.ToGraphDef(&g), IsOk());
  ExpectSameOutputs(g, {{"x:0", Tensor::FromVector<float>({1, -1, 2, 0.5}, TensorShape({2, 2}))}},
                    {"mm:0", "relu:0"});
}

// Kernels a test device type offers: `ops` on "GPU", nothing else.
class GpuKernelsFor final : public KernelAvailability {
 public:
  explicit GpuKernelsFor(std::vector<std::string> ops) : ops_(std::move(ops)) {}
  std::vector<std::string> SupportedDeviceTypes(
      const NodeDef& node, const std::vector<std::string>& device_types) const override {
    std::vector<std::string> out;
    for (const std::string& t : device_types) {
      if (t == "GPU" && absl::c_linear_search(ops_, node.op())) out.push_back(t);
    }
    return out;
  }
  absl::Status NoKernelError(const NodeDef& node, const std::vector<std::string>&) const override {
    return absl::InvalidArgumentError(node.op());
  }

 private:
  std::vector<std::string> ops_;
};

// A fusion is made on a GPU exactly when the session's kernels run the fused op there.
TEST(GraphOptimizerTest, FusesOnAGpuOnlyWhenItHasTheFusedKernel) {
  const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output mm = ops::MatMul(root.WithOpName("mm"), x, ops::Const(root.WithOpName("w"), {{1.f}}));
  Output ba = ops::BiasAdd(root.WithOpName("ba"), mm, ops::Const(root.WithOpName("b"), {0.5f}));
  ops::Relu6(root.WithOpName("act"), ba);
  GraphDef graph_def;
  ASSERT_THAT(root.ToGraphDef(&graph_def), IsOk());
  for (const bool has_kernel : {false, true}) {
    SCOPED_TRACE(has_kernel);
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(graph_def));
    for (Node* n : graph->op_nodes()) n->set_assigned_device_name(kGpu0);
    GpuKernelsFor kernels(has_kernel ? std::vector<std::string>{"_FusedMatMul"}
                                     : std::vector<std::string>{"MatMul"});
    GraphOptimizerOptions options;
    options.kernels = &kernels;
    GraphOptimizerStats stats;
    ASSERT_THAT(OptimizeGraph(options, graph.get(), &stats), IsOk());
    EXPECT_EQ(stats.fusions, has_kernel ? 1 : 0);
    const Node* act = graph->FindNode("act");
    ASSERT_NE(act, nullptr);
    EXPECT_EQ(act->op(), has_kernel ? "_FusedMatMul" : "Relu6");
    EXPECT_EQ(act->assigned_device_name(), kGpu0);
  }
}

// Constants fold on a GPU when it has a Const kernel for the value's dtype (evaluated by the CPU's
// kernels), and stay otherwise.
TEST(GraphOptimizerTest, FoldsOnAGpuOnlyWhenItHasAConstKernel) {
  const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output scale = ops::Rsqrt(root.WithOpName("scale"), ops::Const(root.WithOpName("v"), {4.f}));
  ops::Mul(root.WithOpName("y"), x, scale);
  GraphDef graph_def;
  ASSERT_THAT(root.ToGraphDef(&graph_def), IsOk());
  std::unique_ptr<Device> cpu = NewCpuDevice(kTestCpuDevice);
  for (const bool has_const : {false, true}) {
    SCOPED_TRACE(has_const);
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(graph_def));
    for (Node* n : graph->op_nodes()) n->set_assigned_device_name(kGpu0);
    GpuKernelsFor kernels(has_const ? std::vector<std::string>{"Const", "Rsqrt", "Mul"}
                                    : std::vector<std::string>{"Rsqrt", "Mul"});
    GraphOptimizerOptions options;
    options.cpu = cpu.get();
    options.kernels = &kernels;
    GraphOptimizerStats stats;
    ASSERT_THAT(OptimizeGraph(options, graph.get(), &stats), IsOk());
    const Node* folded = graph->FindNode("scale");
    ASSERT_NE(folded, nullptr);
    EXPECT_EQ(folded->op(), has_const ? "Const" : "Rsqrt");
    EXPECT_EQ(folded->assigned_device_name(), kGpu0);
    if (has_const) {
      RILL_ASSERT_OK_AND_ASSIGN(Tensor value,
                                TensorFromProto(folded->def().attr().at("value").tensor()));
      EXPECT_EQ(value.flat<float>()[0], 0.5f);
    }
  }
}

// Devices are compared by type (parsed), and what the optimizer creates stays on the device of
// what it replaces: a second CPU fuses and folds like the first, a GPU's product is left alone.
TEST(GraphOptimizerTest, NewNodesKeepTheDevicesOfTheNodesTheyReplace) {
  const std::string kCpu1 = "/job:localhost/replica:0/task:0/device:CPU:1";
  const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  for (const char* tower : {"cpu1", "gpu0"}) {
    Scope t = root.NewSubScope(tower);
    Output mm = ops::MatMul(t.WithOpName("mm"), x, ops::Const(t.WithOpName("w"), {{1.f}, {2.f}}));
    Output ba = ops::BiasAdd(t.WithOpName("ba"), mm, ops::Const(t.WithOpName("b"), {0.5f}));
    ops::Relu(t.WithOpName("relu"), ba);
  }
  std::vector<float> filter(2 * 2 * 1 * 2, 0.5f);
  Output conv =
      ops::Conv2D(root.WithOpName("conv"), ops::Placeholder(root.WithOpName("img"), DT_FLOAT),
                  ops::Const<float>(root.WithOpName("f"), filter, TensorShape({2, 2, 1, 2})),
                  {1, 1, 1, 1}, "SAME");
  ops::FusedBatchNormV3(root.WithOpName("bn"), conv, ops::Const(root, {1.f, 2.f}),
                        ops::Const(root, {0.f, 1.f}), ops::Const(root, {0.f, 0.f}),
                        ops::Const(root, {1.f, 1.f}), ops::FusedBatchNormAttrs().IsTraining(false));
  GraphDef graph_def;
  ASSERT_THAT(root.ToGraphDef(&graph_def), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(graph_def));
  for (Node* n : graph->op_nodes()) {
    n->set_assigned_device_name(absl::StartsWith(n->name(), "gpu0/") ? kGpu0 : kCpu1);
  }
  std::unique_ptr<Device> cpu = NewCpuDevice(kTestCpuDevice);
  GraphOptimizerOptions options;
  options.cpu = cpu.get();
  GraphOptimizerStats stats;
  ASSERT_THAT(OptimizeGraph(options, graph.get(), &stats), IsOk());
  EXPECT_EQ(stats.batch_norms_folded, 1);
  EXPECT_EQ(stats.fusions, 2);  // cpu1's MatMul and the folded batch norm's conv
  const Node* fused = graph->FindNode("cpu1/relu");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedMatMul");
  EXPECT_EQ(fused->assigned_device_name(), kCpu1);
  EXPECT_EQ(fused->def().attr().count("_rill_constant_weights"), 1u);
  EXPECT_EQ(graph->FindNode("gpu0/mm")->op(), "MatMul");
  // Marked on every device: the GPU's kernels keep their own copies of constant weights too.
  EXPECT_EQ(graph->FindNode("gpu0/mm")->def().attr().count("_rill_constant_weights"), 1u);
  EXPECT_EQ(graph->FindNode("gpu0/relu")->op(), "Relu");
  for (const char* name : {"bn", "conv/folded_filter_0", "bn/folded_bias_0"}) {
    const Node* n = graph->FindNode(name);
    ASSERT_NE(n, nullptr) << name;
    EXPECT_EQ(n->assigned_device_name(), kCpu1) << name;
  }
  EXPECT_EQ(graph->FindNode("bn")->op(), "_FusedConv2D");
  // New Consts carry their value's shape.
  EXPECT_EQ(graph->FindNode("bn/folded_bias_0")->output_shapes().at(0).DebugString(), "[2]");
  for (const Node* n : graph->op_nodes()) {
    EXPECT_FALSE(n->assigned_device_name().empty()) << n->name();
  }
}

// Shape folding uses shapes inferred on the graph it is given, not those its nodes carry: a feed's
// _Arg has an unknown shape, so a Shape of what depends on it stays even when a stale shape says
// [2, 3]; shapes missing altogether are inferred.
TEST(GraphOptimizerTest, ShapesAreInferredOnTheGraphItIsGiven) {
  GraphDef g;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      R"pb(
        node {
          name: "arg"
          op: "_Arg"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
          attr {
            key: "index"
            value { i: 0 }
          }
        }
        node {
          name: "neg"
          op: "Neg"
          input: "arg"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
        }
        node {
          name: "fed_shape"
          op: "Shape"
          input: "neg"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
        }
        node {
          name: "x"
          op: "Placeholder"
          attr {
            key: "dtype"
            value { type: DT_FLOAT }
          }
          attr {
            key: "shape"
            value {
              shape {
                dim { size: 4 }
                dim { size: 5 }
              }
            }
          }
        }
        node {
          name: "x_size"
          op: "Size"
          input: "x"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
        }
        node {
          name: "fetch_size"
          op: "_Retval"
          input: "x_size"
          attr {
            key: "T"
            value { type: DT_INT32 }
          }
          attr {
            key: "index"
            value { i: 0 }
          }
        }
      )pb",
      &g));
  ImportOptions no_shapes;
  no_shapes.infer_shapes = false;
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(g, no_shapes));
  for (Node* n : graph->op_nodes()) n->set_assigned_device_name(kTestCpuDevice);
  graph->FindNode("neg")->set_output_shapes({PartialTensorShape({2, 3})});  // stale
  std::unique_ptr<Device> cpu = NewCpuDevice(kTestCpuDevice);
  GraphOptimizerOptions options;
  options.cpu = cpu.get();
  GraphOptimizerStats stats;
  ASSERT_THAT(OptimizeGraph(options, graph.get(), &stats), IsOk());
  EXPECT_EQ(stats.nodes_folded, 1);
  EXPECT_EQ(graph->FindNode("fed_shape")->op(), "Shape");
  const Node* size = graph->FindNode("x_size");
  ASSERT_NE(size, nullptr);
  ASSERT_EQ(size->op(), "Const");
  RILL_ASSERT_OK_AND_ASSIGN(Tensor value, TensorFromProto(size->def().attr().at("value").tensor()));
  ExpectTensorEqual(value, Tensor::Scalar<int32_t>(20));
}

// Only Shape / Size / Rank folding and the layer-norm fusion's Mean read the shapes folding
// infers: without such a node the nodes keep the shapes they carry (a stale one stays), with a
// Mean anywhere in the graph every node's shapes are inferred afresh (the _Arg's unknown shape
// reaches neg).
TEST(GraphOptimizerTest, ShapesAreInferredOnlyWhenARewriteReadsThem) {
  for (const bool with_mean : {false, true}) {
    SCOPED_TRACE(with_mean ? "with a Mean" : "without");
    GraphDef g;
    auto add = [&](const std::string& name, const std::string& op,
                   std::vector<std::string> inputs) {
      NodeDef* n = g.add_node();
      n->set_name(name);
      n->set_op(op);
      for (const std::string& in : inputs) n->add_input(in);
      SetAttr(n, "T", DT_FLOAT);
      return n;
    };
    SetAttr(add("arg", "_Arg", {}), "index", 0);
    add("neg", "Neg", {"arg"});
    SetAttr(add("fetch", "_Retval", {"neg"}), "index", 0);
    if (with_mean) {
      NodeDef* axis = g.add_node();
      axis->set_name("axis");
      axis->set_op("Placeholder");
      SetAttr(axis, "dtype", DT_INT32);
      add("mean", "Mean", {"arg", "axis"});
      SetAttr(add("fetch_mean", "_Retval", {"mean"}), "index", 1);
    }
    ImportOptions no_shapes;
    no_shapes.infer_shapes = false;
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(g, no_shapes));
    for (Node* n : graph->op_nodes()) n->set_assigned_device_name(kTestCpuDevice);
    graph->FindNode("neg")->set_output_shapes({PartialTensorShape({2, 3})});  // stale
    std::unique_ptr<Device> cpu = NewCpuDevice(kTestCpuDevice);
    GraphOptimizerOptions options;
    options.cpu = cpu.get();
    ASSERT_THAT(OptimizeGraph(options, graph.get()), IsOk());
    const std::vector<PartialTensorShape>& shapes = graph->FindNode("neg")->output_shapes();
    ASSERT_EQ(shapes.size(), 1u);
    EXPECT_EQ(shapes[0].DebugString(), with_mean ? "<unknown>" : "[2,3]");
  }
}

// Folding reads Consts of equal small values once and shares the parsed value between its reads;
// values that differ in any bit (-0 and 0, 1 as float, double and int32) stay apart, and values
// past the shared size (32 floats) are parsed at each read.
TEST(GraphOptimizerTest, FoldsConstsOfEqualAndDistinctValues) {
  Scope root = Scope::NewRootScope();
  // Each sum is read by a Mul with a placeholder, so that its folded Const stays.
  auto sum = [&](const std::string& name, std::vector<Output> inputs, DataType t) {
    ops::Mul(root.WithOpName(name + "_use"),
             ops::AddN(root.WithOpName(name), absl::MakeConstSpan(inputs)),
             ops::Placeholder(root.WithOpName(name + "_x"), t));
  };
  sum("f",
      {ops::Const(root, 1.f), ops::Const(root, 1.f), ops::Const(root, 2.5f), ops::Const(root, 1.f)},
      DT_FLOAT);
  sum("d", {ops::Const(root, 1.0), ops::Const(root, 1.0)}, DT_DOUBLE);
  sum("i", {ops::Const(root, 1), ops::Const(root, 1), ops::Const(root, 7)}, DT_INT32);
  sum("neg_zero", {ops::Const(root, -0.f), ops::Const(root, -0.f)}, DT_FLOAT);
  sum("zero", {ops::Const(root, -0.f), ops::Const(root, 0.f)}, DT_FLOAT);
  const std::vector<float> ramp = Ramp(32, 0.5f, -3.f);
  Output big = ops::Const<float>(root.WithOpName("big"), ramp, TensorShape({32}));
  Output big_again = ops::Const<float>(root.WithOpName("big_again"), ramp, TensorShape({32}));
  sum("big_sum", {big, big_again, big}, DT_FLOAT);
  Optimized o = Optimize(root);
  auto value = [&](const std::string& name) -> Tensor {
    const NodeDef* n = Find(o.graph, name);
    EXPECT_NE(n, nullptr) << name;
    if (n == nullptr) return Tensor();
    EXPECT_EQ(n->op(), "Const") << name;
    absl::StatusOr<Tensor> t = TensorFromProto(n->attr().at("value").tensor());
    EXPECT_THAT(t.status(), IsOk());
    return t.ok() ? *t : Tensor();
  };
  ExpectTensorEqual(value("f"), Tensor::Scalar<float>(5.5f));
  ExpectTensorEqual(value("d"), Tensor::Scalar<double>(2.0));
  ExpectTensorEqual(value("i"), Tensor::Scalar<int32_t>(9));
  EXPECT_TRUE(std::signbit(value("neg_zero").flat<float>()[0]));
  EXPECT_FALSE(std::signbit(value("zero").flat<float>()[0]));
  std::vector<float> tripled(ramp.size());
  for (size_t k = 0; k < ramp.size(); ++k) tripled[k] = ramp[k] + ramp[k] + ramp[k];
  ExpectTensorEqual(value("big_sum"), Tensor::FromVector<float>(tripled, TensorShape({32})));
  EXPECT_EQ(o.stats.nodes_folded, 6);
}

// conv (3x3 SAME, 2 -> 4 channels) -> BiasAdd -> AddV2 with a residual r [-> act].
GraphDef ResidualAddGraph(bool residual_first, const std::string& act) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output r = ops::Placeholder(root.WithOpName("r"), DT_FLOAT);
  Output w = ops::Const<float>(root.WithOpName("w"), Ramp(3 * 3 * 2 * 4, 0.1f, -0.3f),
                               TensorShape({3, 3, 2, 4}));
  Output conv = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
  Output ba = ops::BiasAdd(root.WithOpName("ba"), conv,
                           ops::Const(root.WithOpName("b"), {0.25f, -1.f, 3.f, 0.f}));
  Output sum = residual_first ? ops::AddV2(root.WithOpName("add"), r, ba)
                              : ops::AddV2(root.WithOpName("add"), ba, r);
  if (act == "Relu") ops::Relu(root.WithOpName("act"), sum);
  if (act == "Relu6") ops::Relu6(root.WithOpName("act"), sum);
  GraphDef g;
  EXPECT_THAT(root.ToGraphDef(&g), IsOk());
  return g;
}

// x and r with inf, -inf, NaN and sums that overflow.
Tensor ResidualInput(const TensorShape& shape, int salt) {
  Tensor t = RampInput(shape);
  float* v = t.flat<float>().data();
  const float special[] = {kInf, -kInf, kNaN, 3e38f, -3e38f};
  for (int64_t i = salt; i < t.NumElements(); i += 13) v[i] = special[(i / 13) % 5];
  return t;
}

// conv (3x3 SAME, 2 -> 4 channels) [-> FusedBatchNormV3] -> BiasAdd -> LeakyRelu(alpha), or
// the same after a DepthwiseConv2dNative (2 -> 4 channels, multiplier 2).
GraphDef LeakyReluGraph(const std::string& conv_op, float alpha) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  const TensorShape filter_shape =
      conv_op == "Conv2D" ? TensorShape({3, 3, 2, 4}) : TensorShape({3, 3, 2, 2});
  Output w = ops::Const<float>(root.WithOpName("w"), Ramp(filter_shape.num_elements(), 0.1f, -0.3f),
                               filter_shape);
  Output conv =
      conv_op == "Conv2D"
          ? ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME")
          : ops::DepthwiseConv2dNative(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
  Output ba = ops::BiasAdd(root.WithOpName("ba"), conv,
                           ops::Const(root.WithOpName("b"), {0.25f, -1.f, 3.f, 0.f}));
  ops::LeakyRelu(root.WithOpName("act"), ba, ops::LeakyReluAttrs().Alpha(alpha));
  GraphDef g;
  EXPECT_THAT(root.ToGraphDef(&g), IsOk());
  return g;
}

TEST(GraphOptimizerTest, FusesConvBiasAddLeakyReluGivingTheSameResultsBitForBit) {
  const Tensor x = ResidualInput(TensorShape({1, 5, 6, 2}), 4);  // inf, -inf and NaN among them
  for (float alpha : {0.2f, 0.f, 1.5f}) {
    SCOPED_TRACE(absl::StrCat("alpha ", alpha));
    const GraphDef g = LeakyReluGraph("Conv2D", alpha);
    Optimized o = OptimizeGraphDef(g);
    EXPECT_EQ(o.stats.fusions, 1);
    // x, w, b and the fused node: Conv2D and BiasAdd are gone.
    EXPECT_EQ(o.graph.node_size(), g.node_size() - 2);
    const NodeDef* fused = Find(o.graph, "act");
    ASSERT_NE(fused, nullptr);
    EXPECT_EQ(fused->op(), "_FusedConv2D");
    EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd", "LeakyRelu"));
    EXPECT_EQ(fused->attr().at("leakyrelu_alpha").f(), alpha);
    EXPECT_EQ(fused->attr().at("num_args").i(), 1);
    EXPECT_THAT(Inputs(o.graph, "act"), ElementsAre("x", "w", "b"));
    for (const char* gone : {"conv", "ba"}) EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
    ExpectSameOutputs(g, {{"x:0", x}}, {"act:0"});
  }
}

// _FusedDepthwiseConv2dNative has no LeakyRelu: the BiasAdd alone is fused and LeakyRelu stays.
TEST(GraphOptimizerTest, LeavesLeakyReluAfterADepthwiseConvolution) {
  const GraphDef g = LeakyReluGraph("DepthwiseConv2dNative", 0.2f);
  Optimized o = OptimizeGraphDef(g);
  EXPECT_EQ(o.stats.fusions, 1);
  EXPECT_EQ(o.graph.node_size(), g.node_size() - 1);
  EXPECT_EQ(Find(o.graph, "act")->op(), "LeakyRelu");
  const NodeDef* fused = Find(o.graph, "ba");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedDepthwiseConv2dNative");
  EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd"));
  ExpectSameOutputs(g, {{"x:0", ResidualInput(TensorShape({1, 5, 6, 2}), 4)}}, {"act:0"});
}

TEST(GraphOptimizerTest, FusesAResidualAddIntoTheConvolutionGivingTheSameResultsBitForBit) {
  for (bool residual_first : {false, true}) {
    for (const std::string act : {"", "Relu", "Relu6"}) {
      SCOPED_TRACE(absl::StrCat(residual_first ? "AddV2(r, conv) " : "AddV2(conv, r) ", act));
      const GraphDef g = ResidualAddGraph(residual_first, act);
      Optimized o = OptimizeGraphDef(g);
      EXPECT_EQ(o.stats.residual_adds_fused, 1);
      const std::string last = act.empty() ? "add" : "act";
      const NodeDef* fused = Find(o.graph, last);
      ASSERT_NE(fused, nullptr);
      EXPECT_EQ(fused->op(), "_FusedConv2D");
      std::vector<std::string> ops = {"BiasAdd", "Add"};
      if (!act.empty()) ops.push_back(act);
      EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ::testing::ElementsAreArray(ops));
      EXPECT_EQ(fused->attr().at("num_args").i(), 2);
      EXPECT_THAT(Inputs(o.graph, last), ElementsAre("x", "w", "b", "r"));
      for (const char* gone : {"conv", "ba"}) EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
      if (!act.empty()) {
        EXPECT_EQ(Find(o.graph, "add"), nullptr);
      }
      const Tensor x = ResidualInput(TensorShape({1, 5, 6, 2}), 4);
      // The residual of the output's shape (summed into by oneDNN), then broadcast ones (a row
      // of channels; a batch of 2 against the convolution's 1).
      for (const TensorShape& rs :
           {TensorShape({1, 5, 6, 4}), TensorShape({4}), TensorShape({2, 1, 6, 4})}) {
        SCOPED_TRACE(rs.DebugString());
        ExpectSameOutputs(g, {{"x:0", x}, {"r:0", ResidualInput(rs, 2)}}, {last + ":0"});
      }
    }
  }
}

// The addend is the convolution's own input, or a Const: its buffer is read, never written.
TEST(GraphOptimizerTest, AResidualAddendThatIsTheConvolutionsInputOrAConstStaysIntact) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto conv = [&](const std::string& name, float b) {  // distinct filters: CSE keeps both
    Output w = ops::Const<float>(root.WithOpName(name + "_w"), {1.f, -1.f, 0.5f, b},
                                 TensorShape({1, 1, 2, 2}));
    return ops::BiasAdd(root.WithOpName(name + "_ba"),
                        ops::Conv2D(root.WithOpName(name), x, w, {1, 1, 1, 1}, "SAME"),
                        ops::Const(root.WithOpName(name + "_b"), {b, -0.25f}));
  };
  ops::AddV2(root.WithOpName("plus_x"), conv("c1", 0.5f), x);
  Output k = ops::Const<float>(root.WithOpName("k"), {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f},
                               TensorShape({1, 2, 2, 2}));
  ops::AddV2(root.WithOpName("plus_k"), k, conv("c2", 1.5f));
  ops::Identity(root.WithOpName("x_after"), x);
  ops::Identity(root.WithOpName("k_after"), k);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.residual_adds_fused, 2);
  GraphDef g;
  ASSERT_THAT(root.ToGraphDef(&g), IsOk());
  ExpectSameOutputs(g, {{"x:0", ResidualInput(TensorShape({1, 2, 2, 2}), 1)}},
                    {"plus_x:0", "plus_k:0", "x_after:0", "k_after:0"});
}

TEST(GraphOptimizerTest, ResidualAddsWhosePiecesAreReadElsewhereAreNotFused) {
  {  // the biased convolution also read by another node
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    Output w = ops::Const<float>(root.WithOpName("w"), {1.f, -1.f}, TensorShape({1, 1, 2, 1}));
    Output ba = ops::BiasAdd(root.WithOpName("ba"),
                             ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME"),
                             ops::Const(root.WithOpName("b"), {1.f}));
    ops::AddV2(root.WithOpName("add"), ba, x);
    ops::Neg(root.WithOpName("neg"), ba);
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.residual_adds_fused, 0);
    EXPECT_EQ(Find(o.graph, "add")->op(), "AddV2");
  }
  {  // a convolution with its own Relu, and a sum of the convolution with itself
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    Output w = ops::Const<float>(root.WithOpName("w"), {1.f, -1.f}, TensorShape({1, 1, 2, 1}));
    Output relu =
        ops::Relu(root.WithOpName("relu"),
                  ops::BiasAdd(root.WithOpName("ba"),
                               ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME"),
                               ops::Const(root.WithOpName("b"), {1.f})));
    ops::AddV2(root.WithOpName("add"), relu, x);
    Output ba2 = ops::BiasAdd(root.WithOpName("ba2"),
                              ops::Conv2D(root.WithOpName("conv2"), x, w, {1, 1, 1, 1}, "SAME"),
                              ops::Const(root.WithOpName("b2"), {2.f}));
    ops::AddV2(root.WithOpName("twice"), ba2, ba2);
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.residual_adds_fused, 0);
    EXPECT_EQ(Find(o.graph, "add")->op(), "AddV2");
    EXPECT_EQ(Find(o.graph, "twice")->op(), "AddV2");
  }
  {  // a sum also read by another node keeps its Relu apart
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    Output w = ops::Const<float>(root.WithOpName("w"), {1.f, -1.f}, TensorShape({1, 1, 2, 1}));
    Output ba = ops::BiasAdd(root.WithOpName("ba"),
                             ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME"),
                             ops::Const(root.WithOpName("b"), {1.f}));
    Output r = ops::Placeholder(root.WithOpName("r"), DT_FLOAT);
    Output sum = ops::AddV2(root.WithOpName("add"), ba, r);
    ops::Relu(root.WithOpName("relu"), sum);
    ops::Neg(root.WithOpName("neg"), sum);
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.residual_adds_fused, 1);
    const NodeDef* fused = Find(o.graph, "add");
    ASSERT_NE(fused, nullptr);
    EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd", "Add"));
    EXPECT_THAT(Inputs(o.graph, "relu"), ElementsAre("add"));
    GraphDef g;
    ASSERT_THAT(root.ToGraphDef(&g), IsOk());
    ExpectSameOutputs(g,
                      {{"x:0", ResidualInput(TensorShape({1, 3, 3, 2}), 1)},
                       {"r:0", ResidualInput(TensorShape({1, 3, 3, 1}), 3)}},
                      {"relu:0", "neg:0"});
  }
}

TEST(GraphOptimizerTest, FusesAPreActivationBatchNormGivingTheSameResultsBitForBit) {
  // x * scale + shift [-> act] by per-channel Consts with no product before it, as Keras leaves
  // ResNet v2's pre-activation batch norms.
  for (bool row4 : {false, true}) {
    for (bool swapped : {false, true}) {
      for (const std::string act : {"", "Relu", "Relu6"}) {
        SCOPED_TRACE(absl::StrCat(row4 ? "[1,1,1,C] " : "[C] ", swapped ? "swapped " : "", act));
        Scope root = Scope::NewRootScope();
        Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
        const TensorShape cs = row4 ? TensorShape({1, 1, 1, 4}) : TensorShape({4});
        Output sc = ops::Const<float>(root.WithOpName("s"), {2.f, -1.5f, 1e30f, 0.3f}, cs);
        Output sh = ops::Const<float>(root.WithOpName("t"), {0.25f, 1.f, -3e38f, -0.f}, cs);
        Output m = swapped ? ops::Mul(root.WithOpName("mul"), sc, x)
                           : ops::Mul(root.WithOpName("mul"), x, sc);
        Output a = swapped ? ops::AddV2(root.WithOpName("add"), m, sh)
                           : ops::AddV2(root.WithOpName("add"), sh, m);
        if (act == "Relu") ops::Relu(root.WithOpName("act"), a);
        if (act == "Relu6") ops::Relu6(root.WithOpName("act"), a);
        Optimized o = Optimize(root);
        EXPECT_EQ(o.stats.scale_shifts_fused, 1);
        const std::string last = act.empty() ? "add" : "act";
        const NodeDef* fused = Find(o.graph, last);
        ASSERT_NE(fused, nullptr);
        EXPECT_EQ(fused->op(), "_RillScaleShift");
        EXPECT_EQ(fused->attr().at("activation").s(), act.empty() ? "Identity" : act);
        EXPECT_THAT(Inputs(o.graph, last), ElementsAre("x", "s", "t"));
        EXPECT_EQ(Find(o.graph, "mul"), nullptr);
        GraphDef g;
        ASSERT_THAT(root.ToGraphDef(&g), IsOk());
        ExpectSameOutputs(g, {{"x:0", ResidualInput(TensorShape({1, 3, 5, 4}), 1)}}, {last + ":0"});
      }
    }
  }
}

TEST(GraphOptimizerTest, ScaleShiftsReadElsewhereOrNotByConstantsAreNotFused) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT);
  Output sc = ops::Const(root.WithOpName("s"), {2.f, -1.5f});
  Output sh = ops::Const(root.WithOpName("t"), {0.25f, 1.f});
  Output m1 = ops::Mul(root.WithOpName("m1"), x, sc);  // also read by n1
  ops::AddV2(root.WithOpName("a1"), m1, sh);
  ops::Neg(root.WithOpName("n1"), m1);
  ops::AddV2(root.WithOpName("a2"), ops::Mul(root.WithOpName("m2"), x, sc), y);  // shift not const
  ops::AddV2(root.WithOpName("a3"), ops::Mul(root.WithOpName("m3"), x, y), sh);  // scale not const
  Output m4 = ops::Const<float>(root.WithOpName("s4"), {1.f, 2.f, 3.f, 4.f}, TensorShape({2, 2}));
  ops::AddV2(root.WithOpName("a4"), ops::Mul(root.WithOpName("m4"), x, m4), sh);  // not a row
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.scale_shifts_fused, 0);
  for (const char* add : {"a1", "a2", "a3", "a4"}) EXPECT_EQ(Find(o.graph, add)->op(), "AddV2");
}

// Inputs for the swish tests: through the filters below they give conv outputs of +inf, -inf,
// NaN, values where the sigmoid saturates or underflows (+-100, +-1000) and ordinary ones.
Tensor NonFiniteSwishInput() {
  return Tensor::FromVector<float>({kInf, 1.f, kNaN, 0.f, 100.f, 0.f, -1000.f, 0.f, 0.5f, -0.25f,
                                    -3.f, 2.f, 1e30f, -1e30f, 7.f, 0.1f},
                                   TensorShape({1, 2, 4, 2}));
}

TEST(GraphOptimizerTest, FusesSwishIntoConvAndDepthwise) {
  for (bool depthwise : {false, true}) {
    for (bool sigmoid_first : {false, true}) {
      SCOPED_TRACE(absl::StrCat(depthwise ? "depthwise" : "conv",
                                sigmoid_first ? ", Mul(sigmoid, x)" : ", Mul(x, sigmoid)"));
      Scope root = Scope::NewRootScope();
      Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
      Output product;
      if (depthwise) {
        Output w = ops::Const<float>(root.WithOpName("w"), {1.f, -1.f}, TensorShape({1, 1, 2, 1}));
        product = ops::DepthwiseConv2dNative(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
      } else {
        // out0 = x0 + 0.5 x1, out1 = -x0 + 2 x1: +inf and -inf from one inf input.
        Output w = ops::Const<float>(root.WithOpName("w"), {1.f, -1.f, 0.5f, 2.f},
                                     TensorShape({1, 1, 2, 2}));
        product = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
      }
      Output ba = ops::BiasAdd(root.WithOpName("ba"), product,
                               ops::Const(root.WithOpName("b"), {0.f, 0.f}));
      Output sig = ops::Sigmoid(root.WithOpName("sig"), ba);
      Output swish = sigmoid_first ? ops::Mul(root.WithOpName("swish"), sig, ba)
                                   : ops::Mul(root.WithOpName("swish"), ba, sig);
      ops::Neg(root.WithOpName("out"), swish);
      Optimized o = Optimize(root);
      EXPECT_EQ(o.stats.fusions, 2);  // the BiasAdd, then the swish
      const NodeDef* fused = Find(o.graph, "swish");
      ASSERT_NE(fused, nullptr);
      EXPECT_EQ(fused->op(), depthwise ? "_FusedDepthwiseConv2dNative" : "_FusedConv2D");
      EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd", "_MklSwish"));
      EXPECT_THAT(Inputs(o.graph, "swish"), ElementsAre("x", "w", "b"));
      EXPECT_THAT(Inputs(o.graph, "out"), ElementsAre("swish"));
      for (const char* gone : {"conv", "ba", "sig"}) EXPECT_EQ(Find(o.graph, gone), nullptr);
      GraphDef original;
      ASSERT_THAT(root.ToGraphDef(&original), IsOk());
      ExpectSameOutputs(original, {{"x:0", NonFiniteSwishInput()}}, {"out:0"}, 1e-5f);
    }
  }
}

TEST(GraphOptimizerTest, FusesKerasHardSwishIntoConvAndDepthwise) {
  // x * (Relu6(x + 3) / 6), as Keras's hard_swish freezes.
  for (bool depthwise : {false, true}) {
    SCOPED_TRACE(depthwise ? "depthwise" : "conv");
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    Output product;
    if (depthwise) {
      Output w = ops::Const<float>(root.WithOpName("w"), {1.f, -1.f}, TensorShape({1, 1, 2, 1}));
      product = ops::DepthwiseConv2dNative(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
    } else {
      Output w = ops::Const<float>(root.WithOpName("w"), {1.f, -1.f, 0.5f, 2.f},
                                   TensorShape({1, 1, 2, 2}));
      product = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
    }
    Output ba =
        ops::BiasAdd(root.WithOpName("ba"), product, ops::Const(root.WithOpName("b"), {0.f, 0.f}));
    Output shifted = ops::AddV2(root.WithOpName("add"), ba, ops::Const(root, 3.f));
    Output relu6 = ops::Relu6(root.WithOpName("relu6"), shifted);
    Output gate = ops::RealDiv(root.WithOpName("div"), relu6, ops::Const(root, 6.f));
    Output hard_swish = ops::Mul(root.WithOpName("hard_swish"), ba, gate);
    ops::Neg(root.WithOpName("out"), hard_swish);
    Optimized o = Optimize(root);
    const NodeDef* fused = Find(o.graph, "hard_swish");
    ASSERT_NE(fused, nullptr);
    EXPECT_EQ(fused->op(), depthwise ? "_FusedDepthwiseConv2dNative" : "_FusedConv2D");
    EXPECT_THAT(fused->attr().at("fused_ops").list().s(),
                ElementsAre("BiasAdd", "_FusedHardSwish"));
    EXPECT_THAT(Inputs(o.graph, "hard_swish"), ElementsAre("x", "w", "b"));
    for (const char* gone : {"conv", "ba", "add", "relu6", "div"}) {
      EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
    }
    GraphDef original;
    ASSERT_THAT(root.ToGraphDef(&original), IsOk());
    // The swish inputs, and values at and around the bends at -3 and 3.
    ExpectSameOutputs(original, {{"x:0", NonFiniteSwishInput()}}, {"out:0"}, 1e-5f);
    ExpectSameOutputs(
        original,
        {{"x:0", Tensor::FromVector<float>({-3.f, 3.f, -2.9f, 2.9f, -3.1f, 3.1f, 0.f, -0.f},
                                           TensorShape({1, 2, 2, 2}))}},
        {"out:0"}, 1e-5f);
  }
}

TEST(GraphOptimizerTest, HardSwishWithOtherConstantsIsNotFused) {
  // Relu6(x + 2) / 6 is not the hard sigmoid: left alone.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w =
      ops::Const<float>(root.WithOpName("w"), {1.f, -1.f, 0.5f, 2.f}, TensorShape({1, 1, 2, 2}));
  Output conv = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
  Output ba = ops::BiasAdd(root.WithOpName("ba"), conv, ops::Const(root, {0.f, 0.f}));
  Output shifted = ops::AddV2(root.WithOpName("add"), ba, ops::Const(root, 2.f));
  Output gate = ops::RealDiv(root.WithOpName("div"), ops::Relu6(root.WithOpName("relu6"), shifted),
                             ops::Const(root, 6.f));
  ops::Mul(root.WithOpName("hard_swish"), ba, gate);
  Optimized o = Optimize(root);
  EXPECT_EQ(Find(o.graph, "hard_swish")->op(), "Mul");
  EXPECT_EQ(Find(o.graph, "relu6")->op(), "Relu6");
}

TEST(GraphOptimizerTest, SwishWhoseInputIsReadElsewhereIsNotFused) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w =
      ops::Const<float>(root.WithOpName("w"), {1.f, -1.f, 0.5f, 2.f}, TensorShape({1, 1, 2, 2}));
  Output conv = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
  Output ba = ops::BiasAdd(root.WithOpName("ba"), conv, ops::Const(root, {0.f, 0.f}));
  Output sig = ops::Sigmoid(root.WithOpName("sig"), ba);
  Output swish = ops::Mul(root.WithOpName("swish"), ba, sig);
  ops::AddV2(root.WithOpName("residual"), swish, ba);  // the pre-activation is read again
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.fusions, 1);
  EXPECT_THAT(Find(o.graph, "ba")->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd"));
  EXPECT_EQ(Find(o.graph, "sig")->op(), "Sigmoid");
  EXPECT_EQ(Find(o.graph, "swish")->op(), "Mul");
}

TEST(GraphOptimizerTest, KerasSwishWithBetaOneAndIdentityNFusesIntoTheConv) {
  // Keras 3's swish as tf.nn.silu freezes it: mul = x * beta (a scalar 1), Sigmoid(mul),
  // x * Sigmoid, and an IdentityN (its custom gradient) passing the result, x and beta on.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w =
      ops::Const<float>(root.WithOpName("w"), {1.f, -1.f, 0.5f, 2.f}, TensorShape({1, 1, 2, 2}));
  Output conv = ops::Conv2D(root.WithOpName("conv"), x, w, {1, 1, 1, 1}, "SAME");
  Output ba =
      ops::BiasAdd(root.WithOpName("ba"), conv, ops::Const(root.WithOpName("b"), {0.25f, -0.5f}));
  Output beta = ops::Const(root.WithOpName("beta"), 1.f);
  Output scaled = ops::Mul(root.WithOpName("mul"), ba, beta);
  Output sig = ops::Sigmoid(root.WithOpName("sig"), scaled);
  Output swish = ops::Mul(root.WithOpName("mul_1"), ba, sig);
  std::vector<Output> id = ops::IdentityN(root.WithOpName("idn"), {swish, ba, beta});
  ops::Neg(root.WithOpName("out"), id[0]);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.identities_removed, 2);  // the Mul by one and the IdentityN
  const NodeDef* fused = Find(o.graph, "mul_1");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedConv2D");
  EXPECT_THAT(fused->attr().at("fused_ops").list().s(), ElementsAre("BiasAdd", "_MklSwish"));
  EXPECT_THAT(Inputs(o.graph, "out"), ElementsAre("mul_1"));
  for (const char* gone : {"conv", "ba", "mul", "sig", "idn", "beta"}) {
    EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
  }
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(original, {{"x:0", NonFiniteSwishInput()}}, {"out:0"}, 1e-5f);
}

TEST(GraphOptimizerTest, OnlyAMulByAScalarOneIsRemoved) {
  // By 2, and by a [1] one (it can change the result's rank), the Mul stays.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  ops::Mul(root.WithOpName("by_two"), x, ops::Const(root, 2.f));
  ops::Mul(root.WithOpName("by_vector_one"), x, ops::Const(root, {1.f}));
  Output one = ops::Mul(root.WithOpName("by_one"), ops::Const(root, 1.f), x);
  ops::Sigmoid(root.WithOpName("out"), one);
  Optimized o = Optimize(root);
  EXPECT_EQ(o.stats.identities_removed, 1);
  EXPECT_EQ(Find(o.graph, "by_one"), nullptr);
  EXPECT_THAT(Inputs(o.graph, "out"), ElementsAre("x"));
  EXPECT_EQ(Find(o.graph, "by_two")->op(), "Mul");
  EXPECT_EQ(Find(o.graph, "by_vector_one")->op(), "Mul");
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  ExpectSameOutputs(
      original,
      {{"x:0", Tensor::FromVector<float>({kInf, -kInf, kNaN, -0.f, 3e38f}, TensorShape({5}))}},
      {"out:0", "by_two:0"});
}

TEST(GraphOptimizerTest, AMulByOneReadOtherwiseThanByArithmeticStays) {
  // Kernels flush subnormals (core/denormal.h): x * 1 is 0 for a subnormal x, as in TensorFlow,
  // where a fetch, an Identity or a Neg of x itself would see the subnormal (crafted round 10).
  // Read by arithmetic only (a Sigmoid, an AddV2), the Mul goes: those read a subnormal as 0.
  // Each Mul reads its own input (CSE would merge equal ones).
  Scope root = Scope::NewRootScope();
  auto by_one = [&](const char* name) {
    Output x = ops::Placeholder(root.WithOpName(absl::StrCat(name, "_x")), DT_FLOAT);
    return ops::Mul(root.WithOpName(name), x, ops::Const(root, 1.f));
  };
  Output fetched = by_one("fetched");
  ops::Identity(root.WithOpName("id"), by_one("read_by_identity"));
  ops::Neg(root.WithOpName("neg"), by_one("read_by_neg"));
  Output both = by_one("read_by_sigmoid_and_neg");
  ops::Sigmoid(root.WithOpName("sig"), both);
  ops::Neg(root.WithOpName("neg_2"), both);
  Output arithmetic = by_one("arithmetic");
  ops::AddV2(root.WithOpName("sum"), ops::Sigmoid(root.WithOpName("sig_2"), arithmetic),
             arithmetic);
  Optimized o = Optimize(root);
  // "arithmetic", the Identity and "fetched", which nothing reads here (a session's fetch reads it)
  EXPECT_EQ(o.stats.identities_removed, 3);
  for (const char* kept : {"read_by_identity", "read_by_neg", "read_by_sigmoid_and_neg"}) {
    ASSERT_NE(Find(o.graph, kept), nullptr) << kept;
    EXPECT_EQ(Find(o.graph, kept)->op(), "Mul") << kept;
  }
  EXPECT_EQ(Find(o.graph, "arithmetic"), nullptr);
  EXPECT_THAT(Inputs(o.graph, "sig_2"), ElementsAre("arithmetic_x"));
  GraphDef original;
  ASSERT_THAT(root.ToGraphDef(&original), IsOk());
  const Tensor subnormal =
      Tensor::FromVector<float>({1e-40f, -2e-39f, 1.f, -0.f, kNaN}, TensorShape({5}));
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const char* name :
       {"fetched", "read_by_identity", "read_by_neg", "read_by_sigmoid_and_neg", "arithmetic"}) {
    feeds.push_back({absl::StrCat(name, "_x:0"), subnormal});
  }
  ExpectSameOutputs(original, feeds, {"fetched:0", "id:0", "neg:0", "neg_2:0", "sum:0"});
}

// A convolution reading Pad(x, paddings): the kinds of convolution the pad fold sees, each with
// dyadic inputs and weights, so every window sum is exact and the folded and unfolded graphs
// must agree bit for bit.
struct PadConvCase {
  std::string op;  // Conv2D or DepthwiseConv2dNative
  bool bias_relu = false;
  std::vector<int64_t> strides = {1, 2, 2, 1};
  std::string padding = "VALID";
};

// x [1, 7, 6, 3] -> pad -> conv (filter 3x3; Conv2D 4 channels, depthwise multiplier 2)
// [-> BiasAdd -> Relu] -> out (Neg). `make_pad` builds the pad of x.
GraphDef PadConvGraph(const PadConvCase& c,
                      const std::function<Output(const Scope&, Output)>& make_pad,
                      float filter_scale = 0.25f) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output padded = make_pad(root, x);
  const bool depthwise = c.op == "DepthwiseConv2dNative";
  const TensorShape filter_shape =
      depthwise ? TensorShape({3, 3, 3, 2}) : TensorShape({3, 3, 3, 4});
  std::vector<float> filter(filter_shape.num_elements());
  for (size_t i = 0; i < filter.size(); ++i) {
    filter[i] = filter_scale * static_cast<float>(static_cast<int>(i % 9) - 4);
  }
  Output w = ops::Const<float>(root.WithOpName("w"), filter, filter_shape);
  Output conv = depthwise ? ops::DepthwiseConv2dNative(root.WithOpName("conv"), padded, w,
                                                       c.strides, c.padding)
                          : ops::Conv2D(root.WithOpName("conv"), padded, w, c.strides, c.padding);
  if (c.bias_relu) {
    Output b = depthwise ? ops::Const(root.WithOpName("b"), {0.5f, -0.5f, 1.f, 0.f, 0.25f, -1.f})
                         : ops::Const(root.WithOpName("b"), {0.5f, -0.5f, 1.f, 0.f});
    conv = ops::Relu(root.WithOpName("relu"), ops::BiasAdd(root.WithOpName("ba"), conv, b));
  }
  ops::Neg(root.WithOpName("out"), conv);
  GraphDef g;
  EXPECT_THAT(root.ToGraphDef(&g), IsOk());
  return g;
}

Output ConstPaddings(const Scope& root, const std::vector<int32_t>& amounts) {
  return ops::Const<int32_t>(root.WithOpName("paddings"), amounts, TensorShape({4, 2}));
}

// The node `out` reads (through Relu when fused).
const NodeDef* ConvOf(const GraphDef& g) {
  const std::vector<std::string> in = Inputs(g, "out");
  return in.size() == 1 ? Find(g, in[0]) : nullptr;
}

void ExpectSameOutputsOnPadInput(const GraphDef& g) {
  // Dyadic values with a -0 and a large one among them.
  std::vector<float> v(1 * 7 * 6 * 3);
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.5f * static_cast<float>((i * 5) % 13) - 3.f;
  v[4] = -0.f;
  v[17] = 1024.f;
  ExpectSameOutputs(g, {{"x:0", Tensor::FromVector<float>(v, TensorShape({1, 7, 6, 3}))}},
                    {"out:0"});
}

TEST(GraphOptimizerTest, FoldsZeroPadIntoConvolutions) {
  for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
    for (bool bias_relu : {false, true}) {
      for (const std::vector<int64_t>& strides :
           {std::vector<int64_t>{1, 1, 1, 1}, std::vector<int64_t>{1, 2, 2, 1}}) {
        SCOPED_TRACE(absl::StrCat(op, bias_relu ? " + bias + relu" : "", ", stride ", strides[1]));
        PadConvCase c{op, bias_relu, strides};
        // Asymmetric, as Keras's correct_pad before a strided convolution.
        GraphDef g = PadConvGraph(c, [](const Scope& root, Output x) {
          return ops::Pad(root.WithOpName("pad"), x, ConstPaddings(root, {0, 0, 0, 1, 2, 1, 0, 0}));
        });
        Optimized o = OptimizeGraphDef(g);
        EXPECT_EQ(o.stats.pads_folded, 1);
        const NodeDef* conv = ConvOf(o.graph);
        ASSERT_NE(conv, nullptr);
        EXPECT_EQ(conv->op(), bias_relu ? absl::StrCat("_Fused", op) : std::string(op));
        EXPECT_EQ(conv->input(0), "x");
        EXPECT_EQ(conv->attr().at("padding").s(), "EXPLICIT");
        EXPECT_THAT(conv->attr().at("explicit_paddings").list().i(),
                    ElementsAre(0, 0, 0, 1, 2, 1, 0, 0));
        EXPECT_EQ(Find(o.graph, "pad"), nullptr);
        EXPECT_EQ(Find(o.graph, "paddings"), nullptr);
        ExpectSameOutputsOnPadInput(g);
      }
    }
  }
}

TEST(GraphOptimizerTest, FoldsPadV2OfZeroAndAddsToExplicitPadding) {
  PadConvCase c{"Conv2D"};
  c.padding = "EXPLICIT";
  GraphDef g = PadConvGraph(c, [](const Scope& root, Output x) {
    return ops::PadV2(root.WithOpName("pad"), x, ConstPaddings(root, {0, 0, 1, 0, 0, 2, 0, 0}),
                      ops::Const(root.WithOpName("zero"), -0.f));
  });
  for (NodeDef& n : *g.mutable_node()) {
    if (n.name() == "conv")
      SetAttr(&n, "explicit_paddings", std::vector<int64_t>{0, 0, 1, 1, 0, 1, 0, 0});
  }
  Optimized o = OptimizeGraphDef(g);
  EXPECT_EQ(o.stats.pads_folded, 1);
  const NodeDef* conv = Find(o.graph, "conv");
  ASSERT_NE(conv, nullptr);
  EXPECT_THAT(Inputs(o.graph, "conv"), ElementsAre("x", "w"));
  EXPECT_THAT(conv->attr().at("explicit_paddings").list().i(), ElementsAre(0, 0, 2, 1, 0, 3, 0, 0));
  ExpectSameOutputsOnPadInput(g);
}

TEST(GraphOptimizerTest, PadsThatAreNotZeroHeightAndWidthPadsStay) {
  struct Case {
    std::string name;
    std::function<Output(const Scope&, Output)> pad;
    std::string padding = "VALID";
  };
  const std::vector<Case> cases = {
      {"batch",
       [](const Scope& r, Output x) {
         return ops::Pad(r.WithOpName("pad"), x, ConstPaddings(r, {1, 0, 1, 1, 1, 1, 0, 0}));
       }},
      {"channels",
       [](const Scope& r, Output x) {
         return ops::Pad(r.WithOpName("pad"), x, ConstPaddings(r, {0, 0, 1, 1, 1, 1, 0, 1}));
       }},
      {"negative",
       [](const Scope& r, Output x) {
         return ops::Pad(r.WithOpName("pad"), x, ConstPaddings(r, {0, 0, -1, 1, 1, 1, 0, 0}));
       }},
      {"constant one",
       [](const Scope& r, Output x) {
         return ops::PadV2(r.WithOpName("pad"), x, ConstPaddings(r, {0, 0, 1, 1, 1, 1, 0, 0}),
                           ops::Const(r.WithOpName("one"), 1.f));
       }},
      {"fed constant",
       [](const Scope& r, Output x) {
         return ops::PadV2(r.WithOpName("pad"), x, ConstPaddings(r, {0, 0, 1, 1, 1, 1, 0, 0}),
                           ops::Placeholder(r.WithOpName("value"), DT_FLOAT));
       }},
      {"mirror",
       [](const Scope& r, Output x) {
         return ops::MirrorPad(r.WithOpName("pad"), x, ConstPaddings(r, {0, 0, 1, 1, 1, 1, 0, 0}),
                               "REFLECT");
       }},
      {"same conv",
       [](const Scope& r, Output x) {
         return ops::Pad(r.WithOpName("pad"), x, ConstPaddings(r, {0, 0, 1, 1, 1, 1, 0, 0}));
       },
       "SAME"},
  };
  for (const Case& k : cases) {
    for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
      SCOPED_TRACE(absl::StrCat(k.name, ", ", op));
      PadConvCase c{op};
      c.strides = {1, 1, 1, 1};
      c.padding = k.padding;
      GraphDef g = PadConvGraph(c, k.pad);
      Optimized o = OptimizeGraphDef(g);
      EXPECT_EQ(o.stats.pads_folded, 0);
      EXPECT_THAT(Inputs(o.graph, "conv"), ElementsAre("pad", "w"));
      EXPECT_NE(Find(o.graph, "pad"), nullptr);
    }
  }
}

TEST(GraphOptimizerTest, PadsBeforeNonFiniteFiltersStay) {
  // 0 * inf is NaN in the padded copy; the folded convolution would skip those taps.
  for (float bad :
       {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
    GraphDef g = PadConvGraph(
        PadConvCase{"DepthwiseConv2dNative"},
        [](const Scope& r, Output x) {
          return ops::Pad(r.WithOpName("pad"), x, ConstPaddings(r, {0, 0, 1, 1, 1, 1, 0, 0}));
        },
        bad);
    Optimized o = OptimizeGraphDef(g);
    EXPECT_EQ(o.stats.pads_folded, 0);
    EXPECT_THAT(Inputs(o.graph, "conv"), ElementsAre("pad", "w"));
    ExpectSameOutputsOnPadInput(g);
  }
}

TEST(GraphOptimizerTest, APadAlsoReadElsewhereFoldsIntoItsConvolutionAndStays) {
  GraphDef g = PadConvGraph(PadConvCase{"Conv2D"}, [](const Scope& r, Output x) {
    Output pad = ops::Pad(r.WithOpName("pad"), x, ConstPaddings(r, {0, 0, 2, 2, 2, 2, 0, 0}));
    ops::Neg(r.WithOpName("other"), pad);
    return pad;
  });
  Optimized o = OptimizeGraphDef(g);
  EXPECT_EQ(o.stats.pads_folded, 1);
  EXPECT_THAT(Inputs(o.graph, "conv"), ElementsAre("x", "w"));
  EXPECT_THAT(Inputs(o.graph, "other"), ElementsAre("pad"));
  ExpectSameOutputsOnPadInput(g);
}

// An atrous convolution as TensorFlow writes it: x [1, H, W, 3] -> SpaceToBatchND(block,
// paddings) -> conv (3x3 VALID; Conv2D 4 channels, depthwise multiplier 2) -> BatchToSpaceND(block,
// crops) [-> FusedBatchNormV3 -> Relu] -> out (Neg). The defaults are tf.nn.atrous_conv2d's at
// rate 2, SAME, on a 7x6 map: paddings [[2, 3], [2, 2]], crops [[0, 1], [0, 0]].
struct AtrousCase {
  std::string op = "Conv2D";
  bool batch_norm = false;
  std::vector<int32_t> block = {2, 2};
  std::vector<int32_t> paddings = {2, 3, 2, 2};
  std::vector<int32_t> crops_block = {2, 2};
  std::vector<int32_t> crops = {0, 1, 0, 0};
  std::string padding = "VALID";
  std::vector<int64_t> strides = {1, 1, 1, 1};
  std::vector<int64_t> dilations = {1, 1, 1, 1};
  float filter_scale = 0.25f;
  bool fed_paddings = false;   // paddings a Placeholder "fed" instead of a Const
  bool control_edge = false;   // BatchToSpaceND waits on the "gate" Placeholder's NoOp
  bool s2b_read_too = false;   // "other" (Neg) reads SpaceToBatchND too
  bool conv_read_too = false;  // "other" (Neg) reads the convolution too
};

GraphDef AtrousGraph(const AtrousCase& c) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output paddings = c.fed_paddings ? ops::Placeholder(root.WithOpName("fed"), DT_INT32)
                                   : ops::Const<int32_t>(root.WithOpName("paddings"), c.paddings,
                                                         TensorShape({2, 2}));
  Output s2b = ops::SpaceToBatchND(
      root.WithOpName("s2b"), x,
      ops::Const<int32_t>(root.WithOpName("block"), c.block, TensorShape({2})), paddings);
  const bool depthwise = c.op == "DepthwiseConv2dNative";
  const TensorShape filter_shape =
      depthwise ? TensorShape({3, 3, 3, 2}) : TensorShape({3, 3, 3, 4});
  std::vector<float> filter(filter_shape.num_elements());
  for (size_t i = 0; i < filter.size(); ++i) {
    filter[i] = c.filter_scale * static_cast<float>(static_cast<int>(i % 9) - 4);
  }
  Output w = ops::Const<float>(root.WithOpName("w"), filter, filter_shape);
  ops::ConvOptions options;
  options.dilations = c.dilations;
  Output conv = depthwise
                    ? ops::DepthwiseConv2dNative(root.WithOpName("conv"), s2b, w, c.strides,
                                                 c.padding, options)
                    : ops::Conv2D(root.WithOpName("conv"), s2b, w, c.strides, c.padding, options);
  if (c.s2b_read_too) ops::Neg(root.WithOpName("other"), s2b);
  if (c.conv_read_too) ops::Neg(root.WithOpName("other"), conv);
  Scope b2s_scope = root.WithOpName("b2s");
  if (c.control_edge) {
    b2s_scope = b2s_scope.WithControlDependencies({ops::NoOp(root.WithOpName("gate"))});
  }
  Output y = ops::BatchToSpaceND(
      b2s_scope, conv,
      ops::Const<int32_t>(root.WithOpName("crops_block"), c.crops_block, TensorShape({2})),
      ops::Const<int32_t>(root.WithOpName("crops"), c.crops, TensorShape({2, 2})));
  if (c.batch_norm) {
    const int channels = depthwise ? 6 : 4;
    std::vector<float> scale(channels), offset(channels), mean(channels), var(channels);
    const TensorShape shape({channels});
    for (int k = 0; k < channels; ++k) {
      scale[k] = 0.5f + 0.25f * k;
      offset[k] = 0.125f * k - 0.25f;
      mean[k] = 0.5f - 0.25f * k;
      var[k] = 1.f + 0.5f * k;
    }
    std::vector<Output> bn = ops::FusedBatchNormV3(
        root.WithOpName("bn"), y, ops::Const<float>(root.WithOpName("scale"), scale, shape),
        ops::Const<float>(root.WithOpName("offset"), offset, shape),
        ops::Const<float>(root.WithOpName("mean"), mean, shape),
        ops::Const<float>(root.WithOpName("var"), var, shape),
        ops::FusedBatchNormAttrs().IsTraining(false));
    y = ops::Relu(root.WithOpName("relu"), bn[0]);
  }
  ops::Neg(root.WithOpName("out"), y);
  GraphDef g;
  EXPECT_THAT(root.ToGraphDef(&g), IsOk());
  return g;
}

// The atrous graph of `op` (a 2x2 block, or `block`) with `paddings` and `crops`.
GraphDef AtrousGraphOf(const char* op, std::vector<int32_t> paddings, std::vector<int32_t> crops,
                       bool batch_norm = false, std::vector<int32_t> block = {2, 2}) {
  AtrousCase c;
  c.op = op;
  c.batch_norm = batch_norm;
  c.block = c.crops_block = std::move(block);
  c.paddings = std::move(paddings);
  c.crops = std::move(crops);
  return AtrousGraph(c);
}

// Dyadic values (sums of products with the dyadic filter are exact) with -0, a large value and,
// with `non_finite`, inf, -inf and NaN among them.
Tensor AtrousInput(int64_t h, int64_t w, bool non_finite) {
  std::vector<float> v(h * w * 3);
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.5f * static_cast<float>((i * 5) % 13) - 3.f;
  // Small maps (the error cases' 1x1 and 2x2) have as few as 3 elements.
  v[4 % v.size()] = -0.f;
  v[17 % v.size()] = 1024.f;
  if (non_finite) {
    v[7 % v.size()] = std::numeric_limits<float>::infinity();
    v[v.size() / 2] = -std::numeric_limits<float>::infinity();
    v[v.size() - 5] = std::numeric_limits<float>::quiet_NaN();
  }
  return Tensor::FromVector<float>(v, TensorShape({1, h, w, 3}));
}

void ExpectSameAtrousOutputs(const GraphDef& g, float tol = 0) {
  for (bool non_finite : {false, true}) {
    SCOPED_TRACE(non_finite ? "non-finite input" : "finite input");
    ExpectSameOutputs(g, {{"x:0", AtrousInput(7, 6, non_finite)}}, {"out:0"}, tol);
  }
}

// The Run statuses of `g` with the optimizer on and off on input x, fetching out:0.
std::vector<absl::Status> RunStatuses(const GraphDef& g, const Tensor& x) {
  return RunStatuses(g, {{"x:0", x}}, {"out:0"});
}

TEST(GraphOptimizerTest, FoldsAtrousConvolutionsIntoDilatedOnes) {
  for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
    SCOPED_TRACE(op);
    AtrousCase c;
    c.op = op;
    GraphDef g = AtrousGraph(c);
    Optimized o = OptimizeGraphDef(g);
    EXPECT_EQ(o.stats.atrous_convolutions_folded, 1);
    const NodeDef* conv = Find(o.graph, "conv");
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(conv->op(), op);
    EXPECT_THAT(Inputs(o.graph, "conv"), ElementsAre("x", "w"));
    EXPECT_THAT(Inputs(o.graph, "out"), ElementsAre("conv"));
    EXPECT_THAT(conv->attr().at("dilations").list().i(), ElementsAre(1, 2, 2, 1));
    EXPECT_EQ(conv->attr().at("padding").s(), "EXPLICIT");
    EXPECT_THAT(conv->attr().at("explicit_paddings").list().i(),
                ElementsAre(0, 0, 2, 2, 2, 2, 0, 0));
    EXPECT_THAT(conv->attr().at("_rill_space_to_batch_block").list().i(), ElementsAre(2, 2));
    EXPECT_THAT(conv->attr().at("_rill_space_to_batch_paddings").list().i(),
                ElementsAre(2, 3, 2, 2));
    for (const char* gone : {"s2b", "b2s", "block", "paddings", "crops", "crops_block"}) {
      EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
    }
    ExpectSameAtrousOutputs(g);
  }
}

TEST(GraphOptimizerTest, AFoldedAtrousConvolutionTakesItsBatchNormAndRelu) {
  for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
    SCOPED_TRACE(op);
    AtrousCase c;
    c.op = op;
    c.batch_norm = true;
    GraphDef g = AtrousGraph(c);
    Optimized o = OptimizeGraphDef(g);
    EXPECT_EQ(o.stats.atrous_convolutions_folded, 1);
    EXPECT_EQ(o.stats.batch_norms_folded, 1);
    const NodeDef* fused = Find(o.graph, "relu");
    ASSERT_NE(fused, nullptr);
    EXPECT_EQ(fused->op(), absl::StrCat("_Fused", op));
    EXPECT_EQ(fused->input(0), "x");
    EXPECT_THAT(fused->attr().at("dilations").list().i(), ElementsAre(1, 2, 2, 1));
    EXPECT_THAT(fused->attr().at("_rill_space_to_batch_block").list().i(), ElementsAre(2, 2));
    EXPECT_EQ(Find(o.graph, "bn"), nullptr);
    // The folded batch norm rounds differently: outputs reach ~800, so 1e-3 is ~1e-6 relative.
    ExpectSameAtrousOutputs(g, 1e-3f);
  }
}

TEST(GraphOptimizerTest, FoldedAtrousConvolutionsOfOtherBlocksAndPaddings) {
  struct Case {
    std::vector<int32_t> block, paddings, crops;
    int64_t h, w;
  };
  // Rate 4 on a 5x6 map (SAME: 4 before, 4 + 3 after), a block of 3 by 1, no padding at all,
  // and crops equal to the paddings.
  const std::vector<Case> cases = {{{4, 4}, {4, 7, 4, 6}, {0, 3, 0, 2}, 5, 6},
                                   {{3, 1}, {1, 1, 0, 2}, {0, 0, 0, 0}, 7, 6},
                                   {{2, 2}, {0, 0, 0, 0}, {0, 0, 0, 0}, 8, 6},
                                   {{2, 2}, {1, 1, 2, 2}, {1, 1, 2, 2}, 8, 6}};
  for (const Case& k : cases) {
    for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
      SCOPED_TRACE(absl::StrCat(op, " block ", k.block[0], "x", k.block[1]));
      GraphDef g = AtrousGraphOf(op, k.paddings, k.crops, /*batch_norm=*/false, k.block);
      EXPECT_EQ(OptimizeGraphDef(g).stats.atrous_convolutions_folded, 1);
      for (bool non_finite : {false, true}) {
        ExpectSameOutputs(g, {{"x:0", AtrousInput(k.h, k.w, non_finite)}}, {"out:0"});
      }
    }
  }
}

// An atrous graph's paddings and crops, the map it is fed (h x w) and the error the unfolded
// graph gives for it, naming its node.
struct AtrousErrorCase {
  std::string what;
  std::vector<int32_t> paddings, crops;
  int64_t h, w;
  std::string error;
};

AtrousErrorCase ErrorCase(std::string what, std::vector<int32_t> paddings,
                          std::vector<int32_t> crops, int64_t h, int64_t w, std::string error) {
  return {std::move(what), std::move(paddings), std::move(crops), h, w, std::move(error)};
}

TEST(GraphOptimizerTest, AFoldedAtrousConvolutionKeepsTheUnfoldedGraphsErrors) {
  const std::vector<AtrousErrorCase> cases = {
      ErrorCase("8 + 2 + 3 = 13 rows", {2, 3, 2, 2}, {0, 1, 0, 0}, 8, 6,
                "padded_shape[0]=13 is not divisible by block_shape[0]=2\n\t [[{{node s2b}}]]"),
      ErrorCase("5 + 2 + 2 = 9 columns", {2, 3, 2, 2}, {0, 1, 0, 0}, 7, 5,
                "padded_shape[1]=9 is not divisible by block_shape[1]=2\n\t [[{{node s2b}}]]"),
      // Without padding a 2x2 map gives 1x1 maps, too small for the 3x3 filter.
      ErrorCase("maps smaller than the filter", {0, 0, 0, 0}, {0, 0, 0, 0}, 2, 2,
                "Computed output size would be negative: -1 [input_size: 1, "
                "effective_filter_size: 3, stride: 1]\n\t [[{{node conv}}]]"),
      // A 1x1 map padded to 6x6 convolves to 3x3 maps of 1x1, cropped by 2 + 1 = 3 rows of 2.
      ErrorCase("crops past the rows", {2, 3, 2, 3}, {2, 1, 0, 0}, 1, 1,
                "cropped_shape[0]=-1 must be non-negative\n\t [[{{node b2s}}]]"),
      ErrorCase("crops past the columns", {2, 3, 2, 3}, {0, 0, 2, 1}, 1, 1,
                "cropped_shape[1]=-1 must be non-negative\n\t [[{{node b2s}}]]"),
  };
  for (const AtrousErrorCase& k : cases) {
    for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
      for (bool batch_norm : {false, true}) {
        SCOPED_TRACE(absl::StrCat(k.what, ", ", op, batch_norm ? " with a batch norm" : ""));
        GraphDef g = AtrousGraphOf(op, k.paddings, k.crops, batch_norm);
        ASSERT_EQ(OptimizeGraphDef(g).stats.atrous_convolutions_folded, 1);
        std::vector<absl::Status> s = RunStatuses(g, AtrousInput(k.h, k.w, false));
        ASSERT_EQ(s.size(), 2u);
        EXPECT_THAT(s[1], StatusIs(absl::StatusCode::kInvalidArgument, k.error));
        EXPECT_EQ(s[0], s[1]);
      }
    }
  }
}

TEST(GraphOptimizerTest, AtrousPatternsThatCannotFoldStay) {
  struct Case {
    std::string name;
    std::function<void(AtrousCase*)> change;
  };
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<Case> cases = {
      {"crop past the padding",
       [](AtrousCase* c) {
         c->crops = {0, 4, 0, 0};
       }},
      {"other crop block",
       [](AtrousCase* c) {
         c->crops_block = {2, 1};
       }},
      {"SAME convolution", [](AtrousCase* c) { c->padding = "SAME"; }},
      {"strided convolution",
       [](AtrousCase* c) {
         c->strides = {1, 2, 2, 1};
       }},
      {"dilated convolution",
       [](AtrousCase* c) {
         c->dilations = {1, 2, 2, 1};
       }},
      {"infinite filter", [inf](AtrousCase* c) { c->filter_scale = inf; }},
      {"fed paddings", [](AtrousCase* c) { c->fed_paddings = true; }},
      {"control edge", [](AtrousCase* c) { c->control_edge = true; }},
      {"SpaceToBatchND read elsewhere", [](AtrousCase* c) { c->s2b_read_too = true; }},
      {"convolution read elsewhere", [](AtrousCase* c) { c->conv_read_too = true; }},
  };
  for (const Case& k : cases) {
    for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
      SCOPED_TRACE(absl::StrCat(k.name, ", ", op));
      AtrousCase c;
      c.op = op;
      k.change(&c);
      GraphDef g = AtrousGraph(c);
      Optimized o = OptimizeGraphDef(g);
      EXPECT_EQ(o.stats.atrous_convolutions_folded, 0);
      EXPECT_THAT(Inputs(o.graph, "conv"), ElementsAre("s2b", "w"));
      EXPECT_NE(Find(o.graph, "b2s"), nullptr);
    }
  }
  // The infinite filter's NaNs (padded zeros times inf) stay.
  AtrousCase c;
  c.filter_scale = inf;
  ExpectSameAtrousOutputs(AtrousGraph(c));
}

TEST(GraphOptimizerTest, AtrousPatternsAcrossDevicesStay) {
  GraphDef g = AtrousGraph(AtrousCase{});
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(g);
  ASSERT_THAT(graph.status(), IsOk());
  const std::string other = "/job:localhost/replica:0/task:0/device:CPU:1";
  for (Node* n : (*graph)->op_nodes()) {
    n->set_assigned_device_name(n->name() == "b2s" ? other : kTestCpuDevice);
  }
  std::unique_ptr<Device> cpu = NewCpuDevice(kTestCpuDevice);
  GraphOptimizerOptions options;
  options.cpu = cpu.get();
  GraphOptimizerStats stats;
  ASSERT_THAT(OptimizeGraph(options, graph->get(), &stats), IsOk());
  EXPECT_EQ(stats.atrous_convolutions_folded, 0);
  EXPECT_NE((*graph)->FindNode("s2b"), nullptr);
}

TEST(GraphOptimizerTest, OptLevelL0TurnsItOff) {
  ConfigProto config;
  config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(OptimizerOptions::L0);
  GraphOptimizerOptions off = GraphOptimizerOptions::FromConfig(config);
  EXPECT_FALSE(off.constant_folding || off.common_subexpression_elimination || off.fusion ||
               off.remove_identities);
  config.mutable_graph_options()->mutable_optimizer_options()->set_do_constant_folding(true);
  EXPECT_TRUE(GraphOptimizerOptions::FromConfig(config).constant_folding);
  EXPECT_TRUE(GraphOptimizerOptions::FromConfig(ConfigProto()).fusion);
}

// A layer normalization over the last axis of x as Keras's LayerNormalization writes it
// (keras_form) or as tf.nn.moments + tf.nn.batch_normalization write it; gamma and beta when
// given ([1, 1, C] Consts in Keras's form, [C] in the other).
// Returns its nodes' outputs by name ("y" the result).
std::map<std::string, Output> LayerNormGraph(const Scope& root, const Output& x, int64_t channels,
                                             bool keras_form, bool with_gamma, bool with_beta) {
  std::vector<float> g(channels), b(channels);
  for (int64_t c = 0; c < channels; ++c) {
    g[c] = 0.5f + 0.01f * static_cast<float>(c % 17);
    b[c] = -0.25f + 0.02f * static_cast<float>(c % 11);
  }
  const TensorShape param_shape =
      keras_form ? TensorShape({1, 1, channels}) : TensorShape({channels});
  Output axis = ops::Const(root.WithOpName("axis"), {-1});
  Output mean = ops::Mean(root.WithOpName("mean"), x, axis, /*keep_dims=*/true);
  Output sd = ops::SquaredDifference(root.WithOpName("sd"), x,
                                     ops::StopGradient(root.WithOpName("stop"), mean));
  Output var = ops::Mean(root.WithOpName("var"), sd, axis, /*keep_dims=*/true);
  Output inv = ops::Rsqrt(
      root.WithOpName("rsqrt"),
      ops::AddV2(root.WithOpName("add_eps"), var, ops::Const(root.WithOpName("eps"), 1e-3f)));
  if (with_gamma) {
    inv = ops::Mul(root.WithOpName("inv"), inv,
                   ops::Const<float>(root.WithOpName("gamma"), g, param_shape));
  }
  Output beta = ops::Const<float>(root.WithOpName("beta"), b, param_shape);
  Output shift;
  if (keras_form) {
    shift = ops::Mul(root.WithOpName("scaled_mean"), ops::Neg(root.WithOpName("neg"), mean), inv);
    if (with_beta) shift = ops::AddV2(root.WithOpName("shift"), shift, beta);
  } else {
    Output scaled = ops::Mul(root.WithOpName("scaled_mean"), mean, inv);
    shift = with_beta ? ops::Sub(root.WithOpName("shift"), beta, scaled)
                      : ops::Neg(root.WithOpName("shift"), scaled);
  }
  Output scaled_x = ops::Mul(root.WithOpName("scaled_x"), x, inv);
  return {{"mean", mean},
          {"var", var},
          {"inv", inv},
          {"scaled_x", scaled_x},
          {"y", ops::AddV2(root.WithOpName("y"), scaled_x, shift)}};
}

// [rows, channels] of seeded values in [-4, 4), with infinities, a NaN and values whose squares
// overflow in some rows.
Tensor LayerNormInput(int64_t rows, int64_t channels) {
  Tensor t(DT_FLOAT, TensorShape({rows, channels}));
  uint32_t state = 12345;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    state = state * 1664525u + 1013904223u;
    t.flat<float>()[i] = static_cast<float>(state >> 8) / static_cast<float>(1 << 24) * 8 - 4;
  }
  if (rows >= 4) {
    t.flat<float>()[channels + 3] = kInf;
    t.flat<float>()[2 * channels] = kNaN;
    t.flat<float>()[3 * channels + 1] = 3e38f;
    t.flat<float>()[3 * channels + 2] = -3e38f;
  }
  return t;
}

TEST(GraphOptimizerTest, FusesLayerNormalizationGivingTheSameResultsBitForBit) {
  for (bool keras_form : {true, false}) {
    for (int params = 0; params < 4; ++params) {
      const bool with_gamma = params & 1, with_beta = params & 2;
      // Rows of 300 (16 lanes and a tail) and of 7 (a tail alone).
      for (int64_t channels : {300, 7}) {
        SCOPED_TRACE(absl::StrCat(keras_form ? "Keras" : "tf.nn.batch_normalization",
                                  with_gamma ? ", gamma" : "", with_beta ? ", beta" : "", ", ",
                                  channels, " channels"));
        Scope root = Scope::NewRootScope();
        Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
        ops::Neg(root.WithOpName("out"),
                 LayerNormGraph(root, x, channels, keras_form, with_gamma, with_beta)["y"]);
        Optimized o = Optimize(root);
        EXPECT_EQ(o.stats.layer_norms_fused, 1);
        const NodeDef* ln = Find(o.graph, "y");
        ASSERT_NE(ln, nullptr);
        EXPECT_EQ(ln->op(), "_MklLayerNorm");
        EXPECT_EQ(ln->attr().at("epsilon").f(), 1e-3f);
        EXPECT_THAT(Inputs(o.graph, "y"), ElementsAre("x", with_gamma ? "gamma" : "y/scale",
                                                      with_beta ? "beta" : "y/offset"));
        EXPECT_THAT(Inputs(o.graph, "out"), ElementsAre("y"));
        for (const char* gone : {"mean", "sd", "var", "add_eps", "rsqrt", "inv", "neg",
                                 "scaled_mean", "shift", "scaled_x", "axis", "eps"}) {
          EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
        }
        GraphDef original;
        ASSERT_THAT(root.ToGraphDef(&original), IsOk());
        ExpectSameOutputs(original, {{"x:0", LayerNormInput(6, channels)}}, {"out:0"});
      }
    }
  }
}

TEST(GraphOptimizerTest, LayerNormalizationPiecesReadElsewhereAreNotFused) {
  for (const char* read : {"mean", "var", "inv", "scaled_x"}) {
    SCOPED_TRACE(read);
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    ops::Abs(root.WithOpName("other"),
             LayerNormGraph(root, x, 8, /*keras_form=*/true, true, true)[read]);
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.layer_norms_fused, 0);
    EXPECT_EQ(Find(o.graph, "y")->op(), "AddV2");
  }
  // A Mean over another axis is not a layer normalization.
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  LayerNormGraph(root, x, 8, true, true, true);
  GraphDef g;
  ASSERT_THAT(root.ToGraphDef(&g), IsOk());
  for (NodeDef& n : *g.mutable_node()) {
    if (n.name() == "axis") {
      TensorToProto(Tensor::FromVector<int32_t>({0}, TensorShape({1})),
                    n.mutable_attr()->at("value").mutable_tensor());
    }
  }
  EXPECT_EQ(OptimizeGraphDef(g).stats.layer_norms_fused, 0);
}

// GELU of x in `form` as TensorFlow writes it ("erfc": tf.nn.gelu and Keras's exact gelu;
// "tanh": approximate=True; "erf": an exact GELU written with Erf), with `c` in place of
// 1/sqrt(2) (erf and erfc forms); returns its nodes' outputs by name ("y" the result).
std::map<std::string, Output> GeluGraph(const Scope& root, const Output& x, const std::string& form,
                                        float c = 0.70710677f) {
  Output half = ops::Mul(root.WithOpName("half"), ops::Const(root.WithOpName("c_half"), 0.5f), x);
  std::map<std::string, Output> out = {{"half", half}};
  Output gate;
  if (form == "erfc") {
    Output neg = ops::Neg(root.WithOpName("neg"), x);
    Output scaled = ops::Mul(root.WithOpName("scaled"), neg, ops::Const(root.WithOpName("c"), c));
    gate = ops::Erfc(root.WithOpName("gate"), scaled);
    out["scaled"] = scaled;
  } else if (form == "erf") {
    Output scaled = ops::Mul(root.WithOpName("scaled"), x, ops::Const(root.WithOpName("c"), c));
    Output erf = ops::Erf(root.WithOpName("erf"), scaled);
    gate = ops::AddV2(root.WithOpName("gate"), ops::Const(root.WithOpName("one"), 1.f), erf);
    out["scaled"] = scaled;
  } else {
    Output cube = ops::Pow(root.WithOpName("cube"), x, ops::Const(root.WithOpName("three"), 3.f));
    Output inner = ops::AddV2(
        root.WithOpName("inner"), x,
        ops::Mul(root.WithOpName("m1"), ops::Const(root.WithOpName("c1"), 0.044715f), cube));
    Output scaled =
        ops::Mul(root.WithOpName("scaled"), ops::Const(root.WithOpName("c2"), 0.7978846f), inner);
    Output t = ops::Tanh(root.WithOpName("tanh"), scaled);
    gate = ops::AddV2(root.WithOpName("gate"), ops::Const(root.WithOpName("one"), 1.f), t);
    out["scaled"] = scaled;
  }
  out["gate"] = gate;
  out["y"] = ops::Mul(root.WithOpName("y"), half, gate);
  return out;
}

// Seeded values in [-8, 8) with infinities, NaN, signed zeros and values whose cubes overflow.
Tensor GeluInput() {
  Tensor t(DT_FLOAT, TensorShape({3, 700}));
  uint32_t state = 777;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    state = state * 1664525u + 1013904223u;
    t.flat<float>()[i] = static_cast<float>(state >> 8) / static_cast<float>(1 << 24) * 16 - 8;
  }
  const float special[] = {kInf, -kInf, kNaN, 0.f, -0.f, 1e30f, -1e30f, 3e38f, -3e38f, 1e-40f};
  for (int i = 0; i < 10; ++i) t.flat<float>()[100 * i + 3] = special[i];
  return t;
}

TEST(GraphOptimizerTest, FusesGeluGivingTheSameResultsBitForBit) {
  for (const char* form : {"erf", "erfc", "tanh"}) {
    SCOPED_TRACE(form);
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    ops::Neg(root.WithOpName("out"), GeluGraph(root, x, form)["y"]);
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.gelus_fused, 1);
    const NodeDef* gelu = Find(o.graph, "y");
    ASSERT_NE(gelu, nullptr);
    EXPECT_EQ(gelu->op(), "_RillGelu");
    EXPECT_EQ(gelu->attr().at("form").s(), form);
    EXPECT_THAT(Inputs(o.graph, "y"), ElementsAre("x"));
    for (const char* gone : {"half", "gate", "scaled", "neg", "erf", "cube", "inner", "m1", "tanh",
                             "c_half", "c", "one", "three", "c1", "c2"}) {
      EXPECT_EQ(Find(o.graph, gone), nullptr) << gone;
    }
    GraphDef original;
    ASSERT_THAT(root.ToGraphDef(&original), IsOk());
    ExpectSameOutputs(original, {{"x:0", GeluInput()}}, {"out:0"});
  }
}

TEST(GraphOptimizerTest, GeluWithOtherConstantsOrPiecesReadElsewhereIsNotFused) {
  for (const char* form : {"erf", "erfc"}) {
    SCOPED_TRACE(form);
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    GeluGraph(root, x, form, 0.7f);
    EXPECT_EQ(Optimize(root).stats.gelus_fused, 0);
  }
  for (const char* read : {"half", "scaled", "gate"}) {
    SCOPED_TRACE(read);
    Scope root = Scope::NewRootScope();
    Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
    ops::Abs(root.WithOpName("other"), GeluGraph(root, x, "tanh")[read]);
    Optimized o = Optimize(root);
    EXPECT_EQ(o.stats.gelus_fused, 0);
    EXPECT_EQ(Find(o.graph, "y")->op(), "Mul");
  }
}

}  // namespace
}  // namespace rill
