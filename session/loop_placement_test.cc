#include "session/loop_placement.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kXpu[] = "/job:localhost/replica:0/task:0/device:XPU:0";

// Kernels of a test device type, for their memory types only (never run): as on a GPU, Less
// computes an int32 comparison in host memory, LoopCond and Switch's pred are in host memory,
// LogicalNot takes its bool in device memory.
class NeverRunKernel : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext&) const override {
    return absl::InternalError("a placement test kernel ran");
  }
};
REGISTER_KERNEL(KernelDefBuilder("Less")
                    .Device("XPU")
                    .TypeConstraint("T", {DT_INT32})
                    .HostMemory("x")
                    .HostMemory("y")
                    .HostMemory("z"),
                NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("LoopCond").Device("XPU").HostMemory("input").HostMemory("output"),
                NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("Switch").Device("XPU").HostMemory("pred"), NeverRunKernel);
// The loop's other ops, with every argument in device memory but int32 (always on the host).
REGISTER_KERNEL(KernelDefBuilder("Enter").Device("XPU"), NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("Merge").Device("XPU"), NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("Identity").Device("XPU"), NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("NextIteration").Device("XPU"), NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("Exit").Device("XPU"), NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("MatMul").Device("XPU"), NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("Tanh").Device("XPU"), NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("AddV2").Device("XPU"), NeverRunKernel);
REGISTER_KERNEL(KernelDefBuilder("LogicalNot").Device("XPU"), NeverRunKernel);
constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";

// Every op has a CPU kernel except those named in `gpu_only`.
class FakeKernels : public KernelAvailability {
 public:
  explicit FakeKernels(std::vector<std::string> gpu_only = {}) : gpu_only_(std::move(gpu_only)) {}
  std::vector<std::string> SupportedDeviceTypes(
      const NodeDef& node, const std::vector<std::string>& types) const override {
    for (const std::string& op : gpu_only_) {
      if (node.op() == op) return {};
    }
    return types;
  }
  absl::Status NoKernelError(const NodeDef&, const std::vector<std::string>&) const override {
    return absl::InvalidArgumentError("no kernel");
  }

 private:
  std::vector<std::string> gpu_only_;
};

// w (a Const that followed its consumer) and x enter a loop: x = tanh(x @ w), n times (while
// !(i >= n) with `negate`: a LogicalNot between the comparison and LoopCond).
std::unique_ptr<Graph> LoopGraph(const std::string& matmul_device = "", bool negate = false) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output w = ops::Const(root.WithOpName("w"), {{1.f}});
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output one = ops::Const(root.WithOpName("one"), 1);
  ops::WhileLoopAttrs attrs;
  attrs.invariants = {n, w, one};
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("loop"), {ops::Const(root.WithOpName("zero"), 0), x},
      [negate](const Scope& s, const std::vector<Output>& v) {
        return negate ? ops::LogicalNot(s, ops::Less(s, v[2], v[0])) : ops::Less(s, v[0], v[2]);
      },
      [&](const Scope& s, const std::vector<Output>& v) {
        Output h =
            ops::Tanh(s, ops::MatMul(s.WithOpName("matmul").WithDevice(matmul_device), v[1], v[3]));
        return std::vector<Output>{ops::AddV2(s, v[0], v[4]), h};
      },
      attrs);
  ops::Identity(root.WithOpName("y"), out[1]);
  GraphDef def;
  EXPECT_THAT(root.ToGraphDef(&def), IsOk());
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(def);
  EXPECT_THAT(graph.status(), IsOk());
  return *std::move(graph);
}

// Every node on the CPU (device 0) but those named, which are on `other` (device 1, the GPU).
Placement PlaceOnCpuBut(const Graph& graph, const std::vector<std::string>& on_gpu,
                        const std::string& other = kGpu) {
  Placement p;
  p.devices = {kCpu, other};
  PlacementEditor editor(&p);
  for (const Node* n : graph.op_nodes()) {
    bool gpu = false;
    for (const std::string& g : on_gpu) gpu = gpu || absl::StrContains(n->name(), g);
    editor.Set(n->id(), gpu ? 1 : 0, gpu ? "follows its consumer loop/Enter_1" : "default");
    p.order.push_back(n->id());
  }
  return p;
}

// The device and reason of the node named `name` in `p`, a placement of `graph`.
std::string Device(const Placement& p, const Graph& graph, const std::string& name) {
  return p.device(graph.FindNodeId(name));
}
std::string Reason(const Placement& p, const Graph& graph, const std::string& name) {
  return p.reason(graph.FindNodeId(name));
}

TEST(LoopPlacementTest, MovesASplitLoopAndItsFollowingGeneratorsToTheCpu) {
  std::unique_ptr<Graph> graph = LoopGraph();
  // The MatMul, and w's Enter with w itself, went to the GPU; the rest of the loop to the CPU.
  Placement p = PlaceOnCpuBut(*graph, {"matmul"});
  const std::string w_enter = graph->FindNode("loop/matmul")->input_node(1)->name();
  const int enter_id = graph->FindNodeId(w_enter);
  PlacementEditor editor(&p);
  editor.Set(enter_id, 1, p.reason(enter_id));
  editor.Set(graph->FindNodeId("w"), 1, "follows its consumer " + w_enter);
  absl::StatusOr<std::vector<std::string>> moved = KeepLoopsOnOneDevice(*graph, FakeKernels(), &p);
  ASSERT_THAT(moved.status(), IsOk());
  ASSERT_EQ(moved->size(), 1u);
  for (const Node* n : graph->op_nodes()) EXPECT_EQ(p.device(n->id()), kCpu) << n->name();
  EXPECT_EQ(Reason(p, *graph, "loop/matmul"),
            "while loop '" + (*moved)[0] +
                "' on the CPU: its nodes were placed on several devices, and a loop runs in one "
                "partition without transfers");
  EXPECT_EQ(Reason(p, *graph, "w"),
            "follows its consumer " + w_enter + " (its loop moved to the CPU)");
}

TEST(LoopPlacementTest, LeavesLoopsOnOneDeviceAlone) {
  std::unique_ptr<Graph> graph = LoopGraph();
  Placement p = PlaceOnCpuBut(*graph, {"loop/"});  // the whole loop on the GPU
  absl::StatusOr<std::vector<std::string>> moved = KeepLoopsOnOneDevice(*graph, FakeKernels(), &p);
  ASSERT_THAT(moved.status(), IsOk());
  EXPECT_THAT(*moved, IsEmpty());
  EXPECT_EQ(Device(p, *graph, "loop/matmul"), kGpu);
}

TEST(LoopPlacementTest, MovesALoopWhoseTensorWouldCrossBetweenHostAndDeviceMemory) {
  {
    // Less's host bool into LoopCond's host input: the loop stays on the device.
    std::unique_ptr<Graph> graph = LoopGraph();
    Placement p = PlaceOnCpuBut(*graph, {"loop/"}, kXpu);
    absl::StatusOr<std::vector<std::string>> moved =
        KeepLoopsOnOneDevice(*graph, FakeKernels(), &p);
    ASSERT_THAT(moved.status(), IsOk());
    EXPECT_THAT(*moved, IsEmpty());
    EXPECT_EQ(Device(p, *graph, "loop/matmul"), kXpu);
  }
  {
    // Less's host bool into LogicalNot's device input (no XPU kernel: device memory).
    std::unique_ptr<Graph> graph = LoopGraph("", /*negate=*/true);
    Placement p = PlaceOnCpuBut(*graph, {"loop/"}, kXpu);
    absl::StatusOr<std::vector<std::string>> moved =
        KeepLoopsOnOneDevice(*graph, FakeKernels(), &p);
    ASSERT_THAT(moved.status(), IsOk());
    ASSERT_EQ(moved->size(), 1u);
    EXPECT_EQ(Device(p, *graph, "loop/matmul"), kCpu);
    EXPECT_THAT(Reason(p, *graph, "loop/matmul"),
                ::testing::HasSubstr("' on the CPU: its tensor from loop/Less:0 into "
                                     "loop/LogicalNot:0 would move between host and device memory, "
                                     "and a loop runs in one partition without transfers"));
  }
}

TEST(LoopPlacementTest, KeepsSplitLoopsThatCannotMove) {
  {
    std::unique_ptr<Graph> graph = LoopGraph("/device:GPU:0");  // a request inside the loop
    Placement p = PlaceOnCpuBut(*graph, {"matmul"});
    absl::StatusOr<std::vector<std::string>> moved =
        KeepLoopsOnOneDevice(*graph, FakeKernels(), &p);
    ASSERT_THAT(moved.status(), IsOk());
    EXPECT_THAT(*moved, IsEmpty());
    EXPECT_EQ(Device(p, *graph, "loop/matmul"), kGpu);
  }
  {
    std::unique_ptr<Graph> graph = LoopGraph();  // a node without a CPU kernel
    Placement p = PlaceOnCpuBut(*graph, {"matmul"});
    absl::StatusOr<std::vector<std::string>> moved =
        KeepLoopsOnOneDevice(*graph, FakeKernels({"MatMul"}), &p);
    ASSERT_THAT(moved.status(), IsOk());
    EXPECT_THAT(*moved, IsEmpty());
    EXPECT_EQ(Device(p, *graph, "loop/matmul"), kGpu);
  }
}

}  // namespace
}  // namespace rill
