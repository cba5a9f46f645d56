#include "tools/gpu/model_check.h"

#include <string>
#include <vector>

#include "core/gpu/cuda_probe.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "graph/graph_file.h"
#include "gtest/gtest.h"
#include "tools/gpu/model_weights.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(ModelCheckTest, ParsesInputSpecs) {
  absl::StatusOr<std::vector<InputSpec>> specs = ParseInputSpecs("x:-1,224,224,3;flag:");
  ASSERT_THAT(specs.status(), IsOk());
  ASSERT_EQ(specs->size(), 2u);
  EXPECT_EQ((*specs)[0].name, "x");
  EXPECT_EQ((*specs)[0].dims, (std::vector<int64_t>{-1, 224, 224, 3}));
  EXPECT_EQ((*specs)[1].name, "flag");
  EXPECT_TRUE((*specs)[1].dims.empty());
  EXPECT_THAT(ParseInputSpecs("x").status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("input 'x' needs NAME:DIMS")));
  EXPECT_THAT(
      ParseInputSpecs("x:2,-3").status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("input 'x': dim '-3' is not a size")));
}

TEST(ModelCheckTest, ParsesManifest) {
  absl::StatusOr<std::vector<ModelSpec>> models = ParseManifest(
      "# comment\n\nresnet50 resnet50.pb x:-1,224,224,3 Identity\nlstm l.pb x:-1,20 a,b\n",
      "tools/gpu/models");
  ASSERT_THAT(models.status(), IsOk());
  ASSERT_EQ(models->size(), 2u);
  EXPECT_EQ((*models)[0].name, "resnet50");
  EXPECT_EQ((*models)[0].graph, "tools/gpu/models/resnet50.pb");
  EXPECT_EQ((*models)[1].outputs, (std::vector<std::string>{"a", "b"}));
  EXPECT_THAT(
      ParseManifest("a b.pb x:1\n", "").status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("manifest line 1 has 3 fields")));
  EXPECT_THAT(ParseManifest("# nothing\n", "").status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("lists no model")));
}

TEST(ModelCheckTest, ComparesRelativeToTheLargestMagnitude) {
  const Tensor cpu = Tensor::FromVector<double>({1, -2, 0.5}, TensorShape({3}));
  OutputDiff same = CompareOutputs("y:0", cpu, cpu, 1e-4);
  EXPECT_TRUE(same.pass);
  EXPECT_EQ(same.max_abs, 0);
  EXPECT_EQ(same.scale, 2);

  const Tensor close = Tensor::FromVector<double>({1, -2, 0.5001}, TensorShape({3}));
  OutputDiff near = CompareOutputs("y:0", close, cpu, 1e-4);
  EXPECT_TRUE(near.pass);
  EXPECT_NEAR(near.max_abs, 1e-4, 1e-12);
  EXPECT_NEAR(near.max_rel, 5e-5, 1e-12);

  const Tensor far = Tensor::FromVector<double>({1, -2.001, 0.5}, TensorShape({3}));
  OutputDiff off = CompareOutputs("y:0", far, cpu, 1e-4);
  EXPECT_FALSE(off.pass);
  EXPECT_THAT(off.why, HasSubstr("max abs difference 0.001 over the tolerance 0.0002"));

  const Tensor nan = Tensor::FromVector<double>({1, NAN, 0.5}, TensorShape({3}));
  EXPECT_THAT(CompareOutputs("y:0", nan, cpu, 1e-4).why,
              HasSubstr("element 1 is nan on the GPU, -2 on the CPU"));
  EXPECT_TRUE(CompareOutputs("y:0", nan, nan, 1e-4).pass);

  const Tensor wide = Tensor::FromVector<double>({1, -2, 0.5, 0}, TensorShape({4}));
  EXPECT_THAT(CompareOutputs("y:0", wide, cpu, 1e-4).why,
              HasSubstr("GPU gave double[4], CPU double[3]"));
  const Tensor ints = Tensor::FromVector<int32_t>({1, 2}, TensorShape({2}));
  const Tensor ints2 = Tensor::FromVector<int32_t>({1, 3}, TensorShape({2}));
  EXPECT_FALSE(CompareOutputs("i:0", ints2, ints, 1).pass);  // integers compare exactly
  EXPECT_TRUE(CompareOutputs("i:0", ints, ints, 0).pass);
}

TEST(ModelCheckTest, CountsPlacementFromTheLog) {
  PlacementCounts c = CountPlacement(
      "a: (Conv2D): /job:localhost/replica:0/task:0/device:GPU:0\n"
      "b: (Shape): /job:localhost/replica:0/task:0/device:CPU:0\n"
      "c: (Shape): /job:localhost/replica:0/task:0/device:CPU:0\n"
      "d: (StridedSlice): /job:localhost/replica:0/task:0/device:CPU:0\n"
      "Device mapping: no known devices.\n");
  EXPECT_EQ(c.gpu, 1);
  EXPECT_EQ(c.cpu, 3);
  EXPECT_EQ(c.cpu_ops, (std::map<std::string, int>{{"Shape", 2}, {"StridedSlice", 1}}));
}

// x [-1, 3] -> MatMul by a stripped [3, 4] weight -> Relu -> Mean over axis 1.
GraphDef TinyModel() {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({-1, 3}));
  ops::Placeholder(root.WithOpName("unused"), DT_FLOAT);  // not fed: nothing consumes it
  Output w = ops::Const(root.WithOpName("w"), 0.f, {3, 4});
  ops::Mean(root.WithOpName("y"), ops::Relu(root, ops::MatMul(root, x, w)), ops::Const(root, 1));
  GraphDef graph;
  EXPECT_THAT(root.ToGraphDef(&graph), IsOk());
  for (NodeDef& n : *graph.mutable_node()) {
    if (n.name() == "w") (*n.mutable_attr())["value"].mutable_tensor()->clear_float_val();
  }
  return graph;
}

TEST(ModelCheckTest, CpuOnlyRunFillsFeedsAndTimes) {
  CheckOptions options;
  options.use_gpu = false;
  options.batch = 5;
  options.runs = 3;
  absl::StatusOr<std::vector<InputSpec>> inputs = PlaceholderInputs(TinyModel());
  ASSERT_THAT(inputs.status(), IsOk());
  ASSERT_EQ(inputs->size(), 1u);
  EXPECT_EQ((*inputs)[0].dims, (std::vector<int64_t>{-1, 3}));
  absl::StatusOr<ModelReport> r = CheckModel("tiny", TinyModel(), *inputs, {"y"}, options);
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_FALSE(r->gpu_ran);
  EXPECT_EQ(r->no_gpu_reason, "CPU-only run (--cpu_only)");
  EXPECT_TRUE(r->pass);
  EXPECT_EQ(r->filled, (std::map<std::string, int>{{"weight (fan_in)", 1}}));
  EXPECT_EQ(r->placement.gpu, 0);
  EXPECT_EQ(r->placement.cpu_ops.at("MatMul"), 1);
  EXPECT_GT(r->cpu_median_ms, 0);
  ASSERT_EQ(r->cpu_outputs.size(), 1u);
  EXPECT_THAT(r->cpu_outputs[0], HasSubstr("y:0 float[5] max |x| "));
  EXPECT_THAT(r->cpu_outputs[0], HasSubstr(", 0 not finite"));
  EXPECT_THAT(FormatReport(*r, 1e-4), HasSubstr("RESULT CPU-ONLY (nothing compared)"));
  // The placement a GPU machine would give, planned here: MatMul, Relu and Mean have CUDA
  // kernels in a CUDA build, and the Consts follow them (the int32 axis in host memory); the
  // Placeholders stay on the CPU.
  EXPECT_THAT(FormatReport(*r, 1e-4),
              HasSubstr("placement with a GPU (planned here, CUDA kernels included): "));
  if (BuiltWithCuda()) {
    EXPECT_EQ(r->planned.gpu, 5);  // w, MatMul, Relu, the axis, Mean
    EXPECT_EQ(r->planned.cpu_ops, (std::map<std::string, int>{{"Placeholder", 2}}));
  } else {
    EXPECT_EQ(r->planned.gpu, 0);
  }

  EXPECT_THAT(CheckModel("tiny", TinyModel(), {{"nope", {1}}}, {"y"}, options).status(),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("model tiny: input 'nope' is not a node of the graph")));
  EXPECT_THAT(CheckModel("tiny", TinyModel(), *inputs, {"missing"}, options).status(),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("model tiny: ")));
}

// With a GPU: the GPU session (default placement) and the CPU-only session in one process, and
// their outputs agree.
TEST(ModelCheckTest, GpuAndCpuSessionsInOneProcessAgree) {
  std::string why;
  if (CudaDeviceCount(&why) == 0) GTEST_SKIP() << "skipped: no GPU found (" << why << ")";
  CheckOptions options;
  options.batch = 8;
  options.runs = 2;
  absl::StatusOr<ModelReport> r = CheckModel("tiny", TinyModel(), {{"x", {-1, 3}}}, {"y"}, options);
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_TRUE(r->gpu_ran);
  EXPECT_GT(r->placement.gpu, 0);  // MatMul has a CUDA kernel
  ASSERT_EQ(r->diffs.size(), 1u);
  EXPECT_TRUE(r->diffs[0].pass) << r->diffs[0].why;
}

// The Keras LSTM classifier's while loop (TensorList steps and outputs, its MatMul cell, its
// condition of int32 comparisons joined by LogicalAnd) planned wholly on the GPU: no node moved to
// the CPU, no loop op left there (a CUDA build; no GPU needed).
TEST(ModelCheckTest, KerasLstmLoopIsPlannedWhollyOnTheGpu) {
  if (!BuiltWithCuda()) GTEST_SKIP() << "skipped: built without CUDA (no GPU kernels)";
  absl::StatusOr<GraphDef> graph = ReadGraphDefFile("tools/gpu/models/lstm_classifier.pb");
  ASSERT_THAT(graph.status(), IsOk());
  ASSERT_THAT(FillStrippedConsts(&*graph, 1).status(), IsOk());
  absl::StatusOr<PlacementCounts> planned = PlanGpuPlacement(*graph);
  ASSERT_THAT(planned.status(), IsOk());
  EXPECT_EQ(planned->loop_nodes_moved, 0);
  EXPECT_GT(planned->gpu, 150);
  for (const char* op :
       {"Enter", "Merge", "Switch", "NextIteration", "Exit", "LoopCond", "Less", "LogicalAnd",
        "Identity", "MatMul", "Sigmoid", "Tanh", "Split", "TensorListFromTensor",
        "TensorListReserve", "TensorListGetItem", "TensorListSetItem", "TensorListStack"}) {
    EXPECT_EQ(planned->cpu_ops.count(op), 0u) << op << " on the CPU";
  }
}

}  // namespace
}  // namespace rill
