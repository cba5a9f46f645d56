// A TF1 while loop on a real GPU: the loop's control flow (Enter, Merge, Switch, LoopCond,
// NextIteration, Exit) and its body (MatMul, BiasAdd, Tanh) placed on GPU:0 by TensorFlow's default
// placement, with the int32 counter and the condition on the host, compared with a CPU-only run.
// Without a CUDA GPU every test skips, printing why ("skipped: no GPU found (...)").
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
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

absl::StatusOr<LoopRun> RunLoop(bool gpu, int steps) {
  SessionOptions options;
  if (!gpu) (*options.config.mutable_device_count())["GPU"] = 0;
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::New(options));
  RILL_RETURN_IF_ERROR(session->Create(RecurrentLoop()));
  LoopRun run;
  run.placement = session->PlacementLog();
  RILL_RETURN_IF_ERROR(session->Run({{"x", Random(TensorShape({8, 16}), 1)},
                                     {"w", Random(TensorShape({16, 16}), 2)},
                                     {"b", Random(TensorShape({16}), 3)},
                                     {"n", Tensor::Scalar<int32_t>(steps)}},
                                    {"steps", "y"}, {}, &run.out));
  return run;
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

// Where a GPU machine puts the loop, planned here (a CUDA build needs no GPU for placement and
// partitioning): every node of the loop on GPU:0, and no transfer inside the loop's frame (Rill's
// executor refuses those), only into its Enters and out of its Exits.
TEST(GpuControlFlowTest, LoopPlacesAndPartitionsWhollyOnTheGpu) {
  if (!BuiltWithCuda()) GTEST_SKIP() << "skipped: built without CUDA (no GPU kernels)";
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(RecurrentLoop());
  ASSERT_THAT(graph.status(), IsOk());
  const std::string cpu = "/job:localhost/replica:0/task:0/device:CPU:0";
  const std::string gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
  absl::StatusOr<Placement> placement =
      Place(**graph, {cpu, gpu}, *KernelRegistry::Global(), PlacerOptions());
  ASSERT_THAT(placement.status(), IsOk());
  for (Node* n : (*graph)->op_nodes()) {
    const std::string& device = placement->nodes.at(n->name()).device;
    if (absl::StartsWith(n->name(), "while/")) {
      EXPECT_EQ(device, gpu) << n->name() << " (" << n->op() << ")";
    }
    n->set_assigned_device_name(device);
  }
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

// Graphs without a GPU keep every node on the CPU (the GPU kernels need CUDA): the same loop runs.
TEST(GpuControlFlowTest, CpuOnlySessionRunsTheLoop) {
  absl::StatusOr<LoopRun> cpu = RunLoop(false, 3);
  ASSERT_THAT(cpu.status(), IsOk());
  EXPECT_EQ(cpu->out[0].flat<int32_t>()[0], 3);
  EXPECT_TRUE(DevicesOf(cpu->placement, "Merge").size() >= 2);
  for (const std::string& d : DevicesOf(cpu->placement, "Merge")) EXPECT_EQ(d, "CPU:0");
}

}  // namespace
}  // namespace rill
