#include "session/placement_log.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/graph.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kGpu0[] = "/job:localhost/replica:0/task:0/device:GPU:0";
constexpr char kGpu1[] = "/job:localhost/replica:0/task:0/device:GPU:1";

DeviceAttributes Attributes(const std::string& name, const std::string& type,
                            const std::string& desc) {
  DeviceAttributes a;
  a.set_name(name);
  a.set_device_type(type);
  a.set_physical_device_desc(desc);
  return a;
}

// Tests write GraphDefs (a boundary, as a session's graph is) and explain the Graph that
// ImportGraphDef makes of them.
std::unique_ptr<Graph> Import(const GraphDef& g) {
  ImportOptions options;
  options.infer_shapes = false;
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(g, options);
  EXPECT_THAT(graph, IsOk());
  return graph.ok() ? *std::move(graph) : std::make_unique<Graph>();
}

// One GraphDef node in text format.
std::string NodeText(const std::string& name, const std::string& op,
                     const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string text = absl::StrCat("node { name: '", name, "' op: '", op, "' ");
  for (const std::string& input : inputs) absl::StrAppend(&text, "input: '", input, "' ");
  return absl::StrCat(text, attrs, " } ");
}

std::unique_ptr<Graph> Parse(const std::vector<std::string>& nodes) {
  const std::string text = absl::StrJoin(nodes, "");
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return Import(g);
}

// Attrs that make valid NodeDefs of a float Const and of a float op with a `T` attr.
const char kFloatConstAttrs[] =
    "attr { key: 'dtype' value { type: DT_FLOAT } } "
    "attr { key: 'value' value { tensor { dtype: DT_FLOAT } } }";
const char kFloatT[] = "attr { key: 'T' value { type: DT_FLOAT } }";

// The seed's graph: a, b -> MatMul; plus an unknown op reading MatMul.
std::unique_ptr<Graph> SeedGraph() {
  return Parse({NodeText("a", "Const", {}, kFloatConstAttrs),
                NodeText("b", "Const", {}, kFloatConstAttrs),
                NodeText("MatMul", "MatMul", {"a", "b"}, kFloatT),
                NodeText("mystery", "RillNoSuchOp", {"MatMul", "^a"})});
}

// Places the node `name` of `g` on `device` ("" leaves it unplaced) for `reason`.
void Set(const Graph& g, const std::string& name, const std::string& device,
         const std::string& reason, Placement* p) {
  int index = -1;
  if (!device.empty()) {
    auto it = std::find(p->devices.begin(), p->devices.end(), device);
    index = static_cast<int>(it - p->devices.begin());
    if (it == p->devices.end()) p->devices.push_back(device);
  }
  PlacementEditor(p).Set(g.FindNodeId(name), index, reason);
}

// As the placer places SeedGraph() with one GPU.
Placement SeedPlacement(const Graph& g) {
  Placement p;
  Set(g, "a", kGpu0, "follows its consumer MatMul", &p);
  Set(g, "b", kGpu0, "follows its consumer MatMul", &p);
  Set(g, "MatMul", kGpu0, "default: highest-priority device with a kernel (GPU > CPU)", &p);
  Set(g, "mystery", "", "unplaced: op 'RillNoSuchOp' is not registered", &p);
  p.order = {g.FindNodeId("MatMul"), g.FindNodeId("a"), g.FindNodeId("b")};
  return p;
}

TEST(DeviceMappingTextTest, ListsDevicesWithAPhysicalDescription) {
  EXPECT_EQ(DeviceMappingText({Attributes(kCpu0, "CPU", ""),
                               Attributes(kGpu0, "GPU",
                                          "device: 0, name: Tesla K40c, pci bus id: "
                                          "0000:05:00.0, compute capability: 3.5"),
                               Attributes(kGpu1, "GPU",
                                          "device: 1, name: Tesla K40c, pci bus id: "
                                          "0000:06:00.0, compute capability: 3.5")}),
            "Device mapping:\n"
            "/job:localhost/replica:0/task:0/device:GPU:0 -> device: 0, name: Tesla K40c, pci "
            "bus id: 0000:05:00.0, compute capability: 3.5\n"
            "/job:localhost/replica:0/task:0/device:GPU:1 -> device: 1, name: Tesla K40c, pci "
            "bus id: 0000:06:00.0, compute capability: 3.5\n");
}

TEST(DeviceMappingTextTest, CpuOnlyHasNoKnownDevices) {
  EXPECT_EQ(DeviceMappingText({Attributes(kCpu0, "CPU", "")}),
            "Device mapping: no known devices.\n");
  EXPECT_EQ(DeviceMappingText({}), "Device mapping: no known devices.\n");
}

TEST(PlacementLogLinesTest, TensorFlowsFormatAndOrderWithoutUnplacedNodes) {
  const std::unique_ptr<Graph> g = SeedGraph();
  EXPECT_EQ(PlacementLogLines(*g, SeedPlacement(*g)),
            "MatMul: (MatMul): /job:localhost/replica:0/task:0/device:GPU:0\n"
            "a: (Const): /job:localhost/replica:0/task:0/device:GPU:0\n"
            "b: (Const): /job:localhost/replica:0/task:0/device:GPU:0\n");
}

TEST(ExplainPlacementTest, OneLinePerNodeThenTheSummary) {
  const std::unique_ptr<Graph> g = SeedGraph();
  EXPECT_EQ(ExplainPlacement(*g, SeedPlacement(*g)),
            "a (Const) -> /job:localhost/replica:0/task:0/device:GPU:0: follows its consumer "
            "MatMul\n"
            "b (Const) -> /job:localhost/replica:0/task:0/device:GPU:0: follows its consumer "
            "MatMul\n"
            "MatMul (MatMul) -> /job:localhost/replica:0/task:0/device:GPU:0: default: "
            "highest-priority device with a kernel (GPU > CPU)\n"
            "mystery (RillNoSuchOp) -> (unplaced): unplaced: op 'RillNoSuchOp' is not "
            "registered\n"
            "Per-device summary:\n"
            "  /job:localhost/replica:0/task:0/device:GPU:0: 3 nodes\n"
            "  (unplaced): 1 node (op not registered; runs that need them fail)\n"
            "  data edges crossing devices: 0\n");
}

TEST(ExplainPlacementTest, CountsDataEdgesCrossingDevicesButNotControlEdges) {
  // Seed 001: a and b on the CPU, MatMul on GPU:0; a control edge from a to c does not count.
  const std::unique_ptr<Graph> g = Parse({NodeText("a", "Const", {}, kFloatConstAttrs),
                                          NodeText("b", "Const", {}, kFloatConstAttrs),
                                          NodeText("MatMul", "MatMul", {"a", "b"}, kFloatT),
                                          NodeText("c", "Identity", {"MatMul", "^a"}, kFloatT)});
  Placement p;
  Set(*g, "a", kCpu0, "explicit request /cpu:0", &p);
  Set(*g, "b", kCpu0, "explicit request /cpu:0", &p);
  Set(*g, "MatMul", kGpu0, "default: highest-priority device with a kernel (GPU > CPU)", &p);
  Set(*g, "c", kCpu0, "explicit request /cpu:0", &p);
  const std::string text = ExplainPlacement(*g, p);
  EXPECT_THAT(text, HasSubstr("Per-device summary:\n"
                              "  /job:localhost/replica:0/task:0/device:CPU:0: 3 nodes\n"
                              "  /job:localhost/replica:0/task:0/device:GPU:0: 1 node\n"
                              "  data edges crossing devices: 3\n"
                              "    /job:localhost/replica:0/task:0/device:CPU:0 -> "
                              "/job:localhost/replica:0/task:0/device:GPU:0: 2\n"
                              "    /job:localhost/replica:0/task:0/device:GPU:0 -> "
                              "/job:localhost/replica:0/task:0/device:CPU:0: 1\n"));
}

// A chain of n Identity nodes on the CPU, the k-th soft-placed. Built as a Graph: the chain's
// head has no input, which an imported GraphDef could not have.
std::unique_ptr<Graph> Chain(int n, int soft_index, Placement* p) {
  auto graph = std::make_unique<Graph>();
  Node* previous = nullptr;
  for (int i = 0; i < n; ++i) {
    NodeDef def;
    def.set_name(absl::StrCat("n", i));
    def.set_op("Identity");
    (*def.mutable_attr())["T"].set_type(DT_FLOAT);
    absl::StatusOr<Node*> node = graph->AddNode(def);
    EXPECT_THAT(node, IsOk());
    if (!node.ok()) break;
    if (previous != nullptr) EXPECT_THAT(graph->AddEdge(previous, 0, *node, 0), IsOk());
    previous = *node;
    p->devices = {kCpu0};
    PlacementEditor(p).Set((*node)->id(), 0,
                           i == soft_index
                               ? "soft placement: /device:GPU:2 does not exist"
                               : "default: highest-priority device with a kernel (GPU > CPU)");
  }
  return graph;
}

TEST(ExplainPlacementTest, CapsTheListingOnBigGraphs) {
  Placement p;
  const std::unique_ptr<Graph> g = Chain(10, /*soft_index=*/7, &p);
  const std::string text = ExplainPlacement(*g, p, /*max_nodes=*/3, /*always_show=*/{"n9"});
  // n9 (asked for), n7 (surprising), then n0 in graph order: three lines in graph order.
  EXPECT_EQ(text.substr(0, text.find("Per-device summary:")),
            "n0 (Identity) -> /job:localhost/replica:0/task:0/device:CPU:0: default: "
            "highest-priority device with a kernel (GPU > CPU)\n"
            "n7 (Identity) -> /job:localhost/replica:0/task:0/device:CPU:0: soft placement: "
            "/device:GPU:2 does not exist\n"
            "n9 (Identity) -> /job:localhost/replica:0/task:0/device:CPU:0: default: "
            "highest-priority device with a kernel (GPU > CPU)\n"
            "... 7 more nodes not shown (10 in all); pass max_nodes = -1 (session_runner "
            "--explain_all) to list every node, or name the nodes to show\n");
  // The summary still counts every node.
  EXPECT_THAT(text, HasSubstr("  /job:localhost/replica:0/task:0/device:CPU:0: 10 nodes\n"));
}

TEST(ExplainPlacementTest, NegativeMaxListsEveryNode) {
  Placement p;
  const std::unique_ptr<Graph> g = Chain(300, /*soft_index=*/-1, &p);
  const std::string all = ExplainPlacement(*g, p, -1);
  EXPECT_THAT(all, HasSubstr("n299 (Identity)"));
  EXPECT_THAT(all, Not(HasSubstr("more nodes not shown")));
  const std::string capped = ExplainPlacement(*g, p);  // default cap: 200
  EXPECT_THAT(capped, HasSubstr("n199 (Identity)"));
  EXPECT_THAT(capped, Not(HasSubstr("n200 (Identity)")));
  EXPECT_THAT(capped, HasSubstr("... 100 more nodes not shown (300 in all)"));
}

}  // namespace
}  // namespace rill
