// TF1 while loops on a real GPU: the loop's control flow (Enter, Merge, Switch, LoopCond,
// NextIteration, Exit) and its body (MatMul, BiasAdd, Tanh) placed on GPU:0 by TensorFlow's default
// placement, with the int32 counter and the condition on the host, compared with a CPU-only run;
// and a loop as Keras' LSTM layer writes it (its steps read from a TensorList, its outputs written
// to one, a condition of two int32 comparisons joined by LogicalAnd), wholly on GPU:0 too. Where
// the loops are placed and partitioned is planned without a GPU (a CUDA build); without a CUDA GPU
// the runs skip, printing why ("skipped: no GPU found (...)").
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/gpu/cuda_probe.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "graph/graph_def_import.h"
#include "graph/partition.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "session/placer.h"
#include "session/session.h"

namespace rill {
namespace {

#define RILL_REQUIRE_GPU()                                                                   \
  do {                                                                                       \
    std::string why;                                                                         \
    if (CudaDeviceCount(&why) == 0) GTEST_SKIP() << "skipped: no GPU found (" << why << ")"; \
  } while (0)

// x = tanh(x @ w + b), `steps` times (n fed), as tf.while_loop writes it: the counter's step is
// a Const inside the body (its control input from the loop's pivot).
GraphDef RecurrentLoop() {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, PartialTensorShape({8, 16}));
  Output w = ops::Placeholder(root.WithOpName("w"), DT_FLOAT, PartialTensorShape({16, 16}));
  Output b = ops::Placeholder(root.WithOpName("b"), DT_FLOAT, PartialTensorShape({16}));
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32, PartialTensorShape({}));
  Output zero = ops::Const(root.WithOpName("zero"), 0);
  ops::WhileLoopAttrs attrs;
  attrs.invariants = {n, w, b};
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {zero, x},
      [](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [](const Scope& s, const std::vector<Output>& v) {
        Output h = ops::Tanh(s, ops::BiasAdd(s, ops::MatMul(s, v[1], v[3]), v[4]));
        return std::vector<Output>{ops::AddV2(s, v[0], ops::Const(s.WithOpName("one"), 1)), h};
      },
      attrs);
  ops::Identity(root.WithOpName("steps"), out[0]);
  ops::Identity(root.WithOpName("y"), out[1]);
  GraphDef graph;
  EXPECT_THAT(root.ToGraphDef(&graph), IsOk());
  return graph;
}

constexpr int kBatch = 4, kFeatures = 6, kUnits = 8;

// h = tanh(x[t] @ wx + h @ wh) over the time-major x [T, kBatch, kFeatures] (T fed as n), each h
// written to a list stacked into y [T, kBatch, kUnits], as Keras' LSTM layer writes its loop:
// loop variables counter, time, h, the output list and the input list; condition
// counter < n && time < n.
GraphDef ListLoop() {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output wx = ops::Placeholder(root.WithOpName("wx"), DT_FLOAT);
  Output wh = ops::Placeholder(root.WithOpName("wh"), DT_FLOAT);
  Output h0 = ops::Placeholder(root.WithOpName("h0"), DT_FLOAT);
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output steps =
      ops::TensorListFromTensor(root.WithOpName("steps"), x, ops::Const(root, {kBatch, kFeatures}));
  Output outs = ops::TensorListReserve(root.WithOpName("outs"), ops::Const(root, {kBatch, kUnits}),
                                       n, DT_FLOAT);
  Output zero = ops::Const(root.WithOpName("zero"), 0);
  ops::WhileLoopAttrs attrs;
  attrs.invariants = {n, wx, wh};
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {zero, zero, h0, outs, steps},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::LogicalAnd(s, ops::Less(s, v[0], v[5]), ops::Less(s, v[1], v[5]));
      },
      [](const Scope& s, const std::vector<Output>& v) {
        Output x_t =
            ops::TensorListGetItem(s, v[4], v[1], ops::Const(s, {kBatch, kFeatures}), DT_FLOAT);
        Output h =
            ops::Tanh(s, ops::AddV2(s, ops::MatMul(s, x_t, v[6]), ops::MatMul(s, v[2], v[7])));
        Output one = ops::Const(s.WithOpName("one"), 1);
        return std::vector<Output>{ops::AddV2(s, v[0], one), ops::AddV2(s, v[1], one), h,
                                   ops::TensorListSetItem(s, v[3], v[1], h), v[4]};
      },
      attrs);
  ops::Identity(root.WithOpName("h"), out[2]);
  ops::TensorListStack(root.WithOpName("y"), out[3], ops::Const(root, {kBatch, kUnits}), DT_FLOAT);
  GraphDef graph;
  EXPECT_THAT(root.ToGraphDef(&graph), IsOk());
  return graph;
}

// h = tanh(h @ w) until step n or a finished flag, a bool loop variable set once i >= k (as a
// decoder's): while i < n && !finished: finished = finished || i >= k.
GraphDef FlagLoop() {
  Scope root = Scope::NewRootScope();
  Output h0 = ops::Placeholder(root.WithOpName("h0"), DT_FLOAT);
  Output w = ops::Placeholder(root.WithOpName("w"), DT_FLOAT);
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output k = ops::Placeholder(root.WithOpName("k"), DT_INT32);
  ops::WhileLoopAttrs attrs;
  attrs.invariants = {n, k, w};
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"),
      {ops::Const(root.WithOpName("zero"), 0), ops::Const(root.WithOpName("no"), false), h0},
      [](const Scope& s, const std::vector<Output>& v) {
        return ops::LogicalAnd(s, ops::Less(s, v[0], v[3]), ops::LogicalNot(s, v[1]));
      },
      [](const Scope& s, const std::vector<Output>& v) {
        Output finished = ops::LogicalOr(s, v[1], ops::GreaterEqual(s, v[0], v[4]));
        return std::vector<Output>{ops::AddV2(s, v[0], ops::Const(s.WithOpName("one"), 1)),
                                   finished, ops::Tanh(s, ops::MatMul(s, v[2], v[5]))};
      },
      attrs);
  ops::Identity(root.WithOpName("steps"), out[0]);
  ops::Identity(root.WithOpName("finished"), out[1]);
  ops::Identity(root.WithOpName("h"), out[2]);
  GraphDef graph;
  EXPECT_THAT(root.ToGraphDef(&graph), IsOk());
  return graph;
}

Tensor Random(const TensorShape& shape, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  Tensor t = *Tensor::Allocate(CpuAllocator::Default(), DT_FLOAT, shape);
  for (float& v : t.flat<float>()) v = dist(rng);
  return t;
}

struct LoopRun {
  std::vector<Tensor> out;
  std::string placement;
};

absl::StatusOr<LoopRun> RunGraph(const GraphDef& graph, bool gpu,
                                 const std::vector<std::pair<std::string, Tensor>>& feeds,
                                 const std::vector<std::string>& fetch) {
  SessionOptions options;
  if (!gpu) (*options.config.mutable_device_count())["GPU"] = 0;
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::New(options));
  RILL_RETURN_IF_ERROR(session->Create(graph));
  LoopRun run;
  run.placement = session->PlacementLog();
  RILL_RETURN_IF_ERROR(session->Run(feeds, fetch, {}, &run.out));
  return run;
}

absl::StatusOr<LoopRun> RunLoop(bool gpu, int steps) {
  return RunGraph(RecurrentLoop(), gpu,
                  {{"x", Random(TensorShape({8, 16}), 1)},
                   {"w", Random(TensorShape({16, 16}), 2)},
                   {"b", Random(TensorShape({16}), 3)},
                   {"n", Tensor::Scalar<int32_t>(steps)}},
                  {"steps", "y"});
}

// Fetches h and y.
absl::StatusOr<LoopRun> RunListLoop(bool gpu, int steps) {
  return RunGraph(ListLoop(), gpu,
                  {{"x", Random(TensorShape({steps, kBatch, kFeatures}), 1)},
                   {"wx", Random(TensorShape({kFeatures, kUnits}), 2)},
                   {"wh", Random(TensorShape({kUnits, kUnits}), 3)},
                   {"h0", Random(TensorShape({kBatch, kUnits}), 4)},
                   {"n", Tensor::Scalar<int32_t>(steps)}},
                  {"h", "y"});
}

// Fetches steps, finished and h.
absl::StatusOr<LoopRun> RunFlagLoop(bool gpu, int n, int k) {
  return RunGraph(FlagLoop(), gpu,
                  {{"h0", Random(TensorShape({4, 8}), 1)},
                   {"w", Random(TensorShape({8, 8}), 2)},
                   {"n", Tensor::Scalar<int32_t>(n)},
                   {"k", Tensor::Scalar<int32_t>(k)}},
                  {"steps", "finished", "h"});
}

void ExpectNear(const Tensor& gpu, const Tensor& cpu) {
  ASSERT_EQ(gpu.shape(), cpu.shape());
  for (int64_t i = 0; i < cpu.NumElements(); ++i) {
    const float g = gpu.flat<float>()[i], c = cpu.flat<float>()[i];
    ASSERT_NEAR(g, c, 1e-5f * std::max(1.f, std::fabs(c))) << "element " << i;
  }
}

// The device of each op type's nodes in a placement log ("name: (Op): device").
std::vector<std::string> DevicesOf(const std::string& log, const std::string& op) {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(log, '\n', absl::SkipEmpty())) {
    if (absl::StrContains(line, ": (" + op + "): ")) {
      out.push_back(std::string(line.substr(line.rfind("device:") + 7)));
    }
  }
  return out;
}

TEST(GpuControlFlowTest, WhileLoopBodyAndControlFlowRunOnTheGpu) {
  RILL_REQUIRE_GPU();
  for (int steps : {0, 1, 25}) {
    absl::StatusOr<LoopRun> gpu = RunLoop(true, steps);
    ASSERT_THAT(gpu.status(), IsOk()) << "steps " << steps;
    absl::StatusOr<LoopRun> cpu = RunLoop(false, steps);
    ASSERT_THAT(cpu.status(), IsOk());
    for (const char* op : {"Enter", "Merge", "Switch", "LoopCond", "NextIteration", "Exit", "Less",
                           "Const", "MatMul", "BiasAdd", "Tanh"}) {
      const std::vector<std::string> devices = DevicesOf(gpu->placement, op);
      ASSERT_FALSE(devices.empty()) << op;
      for (const std::string& d : devices) EXPECT_EQ(d, "GPU:0") << op;
    }
    EXPECT_EQ(gpu->out[0].flat<int32_t>()[0], steps);
    ASSERT_EQ(gpu->out[1].shape(), cpu->out[1].shape());
    for (int64_t i = 0; i < cpu->out[1].NumElements(); ++i) {
      const float g = gpu->out[1].flat<float>()[i], c = cpu->out[1].flat<float>()[i];
      ASSERT_NEAR(g, c, 1e-5f * std::max(1.f, std::fabs(c)))
          << "steps " << steps << " element " << i;
    }
  }
}

// Where a GPU machine puts `graph`, planned here (a CUDA build needs no GPU for placement and
// partitioning): every node named by `on_gpu` on GPU:0 (a loop's, none moved to the CPU), and no
// transfer inside the "while/" loop's frame (Rill's executor refuses those), only into its Enters
// and out of its Exits.
void ExpectPlannedWhollyOnTheGpu(const GraphDef& graph_def,
                                 const std::function<bool(const Node&)>& on_gpu) {
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(graph_def);
  ASSERT_THAT(graph.status(), IsOk());
  const std::string cpu = "/job:localhost/replica:0/task:0/device:CPU:0";
  const std::string gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
  absl::StatusOr<Placement> placement =
      Place(**graph, {cpu, gpu}, *KernelRegistry::Global(), PlacerOptions());
  ASSERT_THAT(placement.status(), IsOk());
  int checked = 0;
  for (Node* n : (*graph)->op_nodes()) {
    const std::string& device = placement->device(n->id());
    if (on_gpu(*n)) {
      ++checked;
      EXPECT_EQ(device, gpu) << n->name() << " (" << n->op() << "): " << placement->reason(n->id());
    }
    n->set_assigned_device_name(device);
  }
  EXPECT_GT(checked, 20);
  PartitionOptions options;
  options.memory_types = [](const Node& n, const std::string& device_type,
                            std::vector<bool>* host_inputs, std::vector<bool>* host_outputs) {
    return KernelRegistry::Global()->HostMemoryArgs(n.def(), *n.op_def(), device_type, host_inputs,
                                                    host_outputs);
  };
  absl::StatusOr<std::map<std::string, Graph>> parts = Partition(**graph, options);
  ASSERT_THAT(parts.status(), IsOk());
  ASSERT_EQ(parts->count(gpu), 1u);
  auto inside = [](const Node* n) {
    return absl::StartsWith(n->name(), "while/") && n->op() != "Enter" && n->op() != "Exit";
  };
  int transfers = 0;
  for (const Node* n : parts->at(gpu).op_nodes()) {
    if (!absl::StartsWith(n->op(), "_") || n->op() == "_Arg" || n->op() == "_Retval") continue;
    ++transfers;
    for (const Edge* e : n->in_edges()) EXPECT_FALSE(inside(e->src())) << n->name();
    for (const Edge* e : n->out_edges()) EXPECT_FALSE(inside(e->dst())) << n->name();
  }
  EXPECT_GT(transfers, 0);  // the feeds and fetches cross
}

TEST(GpuControlFlowTest, LoopPlacesAndPartitionsWhollyOnTheGpu) {
  if (!BuiltWithCuda()) GTEST_SKIP() << "skipped: built without CUDA (no GPU kernels)";
  ExpectPlannedWhollyOnTheGpu(RecurrentLoop(),
                              [](const Node& n) { return absl::StartsWith(n.name(), "while/"); });
}

// The LSTM-style loop and its lists: the TensorList handles, indices and shapes in host memory,
// the elements on the GPU, the condition's bools (LogicalAnd of int32 comparisons) on the host.
TEST(GpuControlFlowTest, ListLoopPlacesAndPartitionsWhollyOnTheGpu) {
  if (!BuiltWithCuda()) GTEST_SKIP() << "skipped: built without CUDA (no GPU kernels)";
  ExpectPlannedWhollyOnTheGpu(ListLoop(), [](const Node& n) {
    return absl::StartsWith(n.name(), "while/") || n.name() == "steps" || n.name() == "outs" ||
           n.name() == "y";
  });
}

// A bool loop variable (Enter, Merge, Switch, NextIteration and Exit of bool) stays on the host
// beside the logical ops that make it.
TEST(GpuControlFlowTest, FlagLoopPlacesAndPartitionsWhollyOnTheGpu) {
  if (!BuiltWithCuda()) GTEST_SKIP() << "skipped: built without CUDA (no GPU kernels)";
  ExpectPlannedWhollyOnTheGpu(FlagLoop(),
                              [](const Node& n) { return absl::StartsWith(n.name(), "while/"); });
}

TEST(GpuControlFlowTest, FlagLoopRunsOnTheGpuAndMatchesTheCpu) {
  RILL_REQUIRE_GPU();
  // (n, k): stopped by n; by the flag after k + 1 steps; at once (n = 0).
  for (const auto& [n, k, steps] :
       std::vector<std::tuple<int, int, int>>{{5, 100, 5}, {20, 3, 4}, {0, 0, 0}}) {
    SCOPED_TRACE(absl::StrCat("n ", n, " k ", k));
    absl::StatusOr<LoopRun> gpu = RunFlagLoop(true, n, k);
    ASSERT_THAT(gpu.status(), IsOk());
    absl::StatusOr<LoopRun> cpu = RunFlagLoop(false, n, k);
    ASSERT_THAT(cpu.status(), IsOk());
    for (const char* op : {"Enter", "Merge", "Switch", "NextIteration", "Exit", "LogicalAnd",
                           "LogicalOr", "LogicalNot", "MatMul", "Tanh"}) {
      const std::vector<std::string> devices = DevicesOf(gpu->placement, op);
      ASSERT_FALSE(devices.empty()) << op;
      for (const std::string& d : devices) EXPECT_EQ(d, "GPU:0") << op;
    }
    EXPECT_EQ(gpu->out[0].flat<int32_t>()[0], steps);
    EXPECT_EQ(gpu->out[1].flat<bool>()[0], cpu->out[1].flat<bool>()[0]);
    ExpectNear(gpu->out[2], cpu->out[2]);
  }
}

TEST(GpuControlFlowTest, CpuOnlySessionRunsTheFlagLoop) {
  absl::StatusOr<LoopRun> cpu = RunFlagLoop(false, 20, 3);
  ASSERT_THAT(cpu.status(), IsOk());
  EXPECT_EQ(cpu->out[0].flat<int32_t>()[0], 4);
  EXPECT_TRUE(cpu->out[1].flat<bool>()[0]);
}

TEST(GpuControlFlowTest, ListLoopRunsOnTheGpuAndMatchesTheCpu) {
  RILL_REQUIRE_GPU();
  for (int steps : {0, 1, 7}) {
    SCOPED_TRACE(absl::StrCat("steps ", steps));
    absl::StatusOr<LoopRun> gpu = RunListLoop(true, steps);
    ASSERT_THAT(gpu.status(), IsOk());
    absl::StatusOr<LoopRun> cpu = RunListLoop(false, steps);
    ASSERT_THAT(cpu.status(), IsOk());
    for (const char* op :
         {"Enter", "Merge", "Switch", "LoopCond", "NextIteration", "Exit", "Less", "LogicalAnd",
          "TensorListFromTensor", "TensorListReserve", "TensorListGetItem", "TensorListSetItem",
          "TensorListStack", "MatMul", "Tanh"}) {
      const std::vector<std::string> devices = DevicesOf(gpu->placement, op);
      ASSERT_FALSE(devices.empty()) << op;
      for (const std::string& d : devices) EXPECT_EQ(d, "GPU:0") << op;
    }
    ASSERT_EQ(gpu->out[1].shape(), TensorShape({steps, kBatch, kUnits}));
    ExpectNear(gpu->out[0], cpu->out[0]);
    ExpectNear(gpu->out[1], cpu->out[1]);
  }
}

// Graphs without a GPU keep every node on the CPU (the GPU kernels need CUDA): the same loop runs.
TEST(GpuControlFlowTest, CpuOnlySessionRunsTheLoop) {
  absl::StatusOr<LoopRun> cpu = RunLoop(false, 3);
  ASSERT_THAT(cpu.status(), IsOk());
  EXPECT_EQ(cpu->out[0].flat<int32_t>()[0], 3);
  EXPECT_TRUE(DevicesOf(cpu->placement, "Merge").size() >= 2);
  for (const std::string& d : DevicesOf(cpu->placement, "Merge")) EXPECT_EQ(d, "CPU:0");
}

TEST(GpuControlFlowTest, CpuOnlySessionRunsTheListLoop) {
  absl::StatusOr<LoopRun> cpu = RunListLoop(false, 3);
  ASSERT_THAT(cpu.status(), IsOk());
  EXPECT_EQ(cpu->out[1].shape(), TensorShape({3, kBatch, kUnits}));
  // The last step's output is the final h.
  for (int64_t i = 0; i < kBatch * kUnits; ++i) {
    EXPECT_EQ(cpu->out[1].flat<float>()[2 * kBatch * kUnits + i], cpu->out[0].flat<float>()[i]);
  }
}

}  // namespace
}  // namespace rill
