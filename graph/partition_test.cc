// Partition tests: the test graphs are GraphDefs whose `device` fields say where each node runs;
// they are imported, partitioned, and the partitions exported and compared field by field.
#include "graph/partition.h"

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

PartitionOptions ByDeviceField() { return PartitionOptions(); }

// Imports `graph`, assigns each node the device its `device` field names, partitions it and
// exports each partition as RunMetadata shows it.
absl::StatusOr<std::map<std::string, GraphDef>> PartitionDefs(const GraphDef& graph,
                                                              const PartitionOptions& options) {
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Graph> g, ImportGraphDef(graph));
  for (Node* n : g->op_nodes()) n->set_assigned_device_name(n->requested_device());
  RILL_ASSIGN_OR_RETURN(auto parts, Partition(*g, options));
  std::map<std::string, GraphDef> out;
  for (const auto& [device, part] : parts) {
    ExportGraphDef(part, ExportOptions{/*assigned_devices=*/true}, &out[device]);
  }
  return out;
}

void ExpectEqual(const GraphDef& got, const std::string& want_text) {
  GraphDef want = Parse(want_text);
  *want.mutable_versions() = got.versions();
  std::string diff;
  google::protobuf::util::MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  EXPECT_TRUE(d.Compare(want, got)) << diff << "\ngot:\n" << got.DebugString();
}

TEST(PartitionTest, CrossDeviceEdgeBecomesOneSendRecvPairSharedByConsumers) {
  GraphDef g = Parse(absl::StrCat(R"(
    node { name: 'a' op: 'Const' device: ')",
                                  kCpu0, R"('
           attr { key: 'dtype' value { type: DT_FLOAT } }
           attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
    node { name: 'x' op: 'Identity' input: 'a' device: ')",
                                  kCpu1, R"('
           attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'y' op: 'Identity' input: 'a' device: ')",
                                  kCpu1, R"('
           attr { key: 'T' value { type: DT_FLOAT } } }
  )"));
  RILL_ASSERT_OK_AND_ASSIGN(auto parts, PartitionDefs(g, ByDeviceField()));
  ASSERT_EQ(parts.size(), 2u);
  const std::string send_recv_attrs = absl::StrCat(
      "attr { key: 'tensor_name' value { s: 'edge_0_a' } } "
      "attr { key: 'send_device' value { s: '",
      kCpu0,
      "' } } "
      "attr { key: 'send_device_incarnation' value { i: 1 } } "
      "attr { key: 'recv_device' value { s: '",
      kCpu1,
      "' } } "
      "attr { key: 'client_terminated' value { b: false } } ");
  ExpectEqual(parts[kCpu0], absl::StrCat("node { name: 'a' op: 'Const' device: '", kCpu0,
                                         "' "
                                         "attr { key: 'dtype' value { type: DT_FLOAT } } "
                                         "attr { key: 'value' value { tensor { dtype: DT_FLOAT "
                                         "tensor_shape {} float_val: 1 } } } }"
                                         "node { name: 'a/_0' op: '_Send' input: 'a' device: '",
                                         kCpu0,
                                         "' "
                                         "attr { key: 'T' value { type: DT_FLOAT } } ",
                                         send_recv_attrs, "}"));
  ExpectEqual(parts[kCpu1], absl::StrCat("node { name: 'a/_1' op: '_Recv' device: '", kCpu1,
                                         "' "
                                         "attr { key: 'tensor_type' value { type: DT_FLOAT } } ",
                                         send_recv_attrs,
                                         "}"
                                         "node { name: 'x' op: 'Identity' input: 'a/_1' device: '",
                                         kCpu1,
                                         "' "
                                         "attr { key: 'T' value { type: DT_FLOAT } } }"
                                         "node { name: 'y' op: 'Identity' input: 'a/_1' device: '",
                                         kCpu1,
                                         "' "
                                         "attr { key: 'T' value { type: DT_FLOAT } } }"));
}

TEST(PartitionTest, CrossDeviceControlEdgeIsCarriedByADummyTensor) {
  GraphDef g = Parse(absl::StrCat("node { name: 'n' op: 'NoOp' device: '", kCpu0,
                                  "' }"
                                  "node { name: 'm' op: 'NoOp' input: '^n' device: '",
                                  kCpu1, "' }"));
  RILL_ASSERT_OK_AND_ASSIGN(auto parts, PartitionDefs(g, ByDeviceField()));
  const std::string attrs = absl::StrCat(
      "attr { key: 'tensor_name' value { s: 'edge_0_n' } } "
      "attr { key: 'send_device' value { s: '",
      kCpu0,
      "' } } "
      "attr { key: 'send_device_incarnation' value { i: 1 } } "
      "attr { key: 'recv_device' value { s: '",
      kCpu1,
      "' } } "
      "attr { key: 'client_terminated' value { b: false } } ");
  ExpectEqual(parts[kCpu0],
              absl::StrCat("node { name: 'n' op: 'NoOp' device: '", kCpu0,
                           "' }"
                           "node { name: 'n/ctrl/_0' op: 'Const' input: '^n' device: '",
                           kCpu0,
                           "' "
                           "attr { key: 'dtype' value { type: DT_FLOAT } } "
                           "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { "
                           "dim { size: 0 } } } } } }"
                           "node { name: 'n/_1' op: '_Send' input: 'n/ctrl/_0' device: '",
                           kCpu0,
                           "' "
                           "attr { key: 'T' value { type: DT_FLOAT } } ",
                           attrs, "}"));
  ExpectEqual(parts[kCpu1],
              absl::StrCat("node { name: 'n/_2' op: '_Recv' device: '", kCpu1,
                           "' "
                           "attr { key: 'tensor_type' value { type: DT_FLOAT } } ",
                           attrs,
                           "}"
                           "node { name: 'n/_3' op: 'Identity' input: 'n/_2' device: '",
                           kCpu1,
                           "' "
                           "attr { key: 'T' value { type: DT_FLOAT } } }"
                           "node { name: 'm' op: 'NoOp' input: '^n/_3' device: '",
                           kCpu1, "' }"));
}

TEST(PartitionTest, SameDeviceEdgesStayPlainAndCounterIsShared) {
  GraphDef g = Parse(absl::StrCat("node { name: 'a' op: 'NoOp' device: '", kCpu0,
                                  "' }"
                                  "node { name: 'b' op: 'NoOp' input: '^a' device: '",
                                  kCpu0, "' }"));
  int64_t counter = 7;
  PartitionOptions o = ByDeviceField();
  o.name_counter = &counter;
  RILL_ASSERT_OK_AND_ASSIGN(auto parts, PartitionDefs(g, o));
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[kCpu0].node(1).input(0), "^a");
  EXPECT_EQ(counter, 7);
}

TEST(PartitionTest, MissingDeviceIsInvalidArgument) {
  EXPECT_THAT(PartitionDefs(Parse("node { name: 'a' op: 'NoOp' }"), ByDeviceField()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'a' has no assigned device; cannot partition"));
  EXPECT_THAT(PartitionDefs(Parse(absl::StrCat("node { name: 'a' op: 'NoOp' input: '^q' device: '",
                                               kCpu0, "' }")),
                            ByDeviceField()),
              // A Graph cannot hold a missing input: import refuses it before partitioning.
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Unknown input node '^q'")));
}

// Memory types on a non-CPU device, with the expected partitions built by the builder API.
constexpr char kGpu0[] = "/job:localhost/replica:0/task:0/device:GPU:0";

Operation SendNode(const Scope& scope, const std::string& name, const std::string& op,
                   const Output& input, const std::string& tensor_name, const std::string& src,
                   const std::string& dst) {
  return OpBuilder(scope.WithExactOpName(name).WithDevice(src), op)
      .Input(input)
      .Attr("tensor_name", tensor_name)
      .Attr("send_device", src)
      .Attr("send_device_incarnation", int64_t{1})
      .Attr("recv_device", dst)
      .Attr("client_terminated", false)
      .Finalize();
}

Output RecvNode(const Scope& scope, const std::string& name, const std::string& op,
                const std::string& tensor_name, const std::string& src, const std::string& dst) {
  return OpBuilder(scope.WithExactOpName(name).WithDevice(dst), op)
      .Attr("tensor_type", DT_FLOAT)
      .Attr("tensor_name", tensor_name)
      .Attr("send_device", src)
      .Attr("send_device_incarnation", int64_t{1})
      .Attr("recv_device", dst)
      .Attr("client_terminated", false)
      .Finalize()
      .output(0);
}

TEST(PartitionTest, HostMemoryArgumentsUseHostSendAndHostRecv) {
  // `shape` (think Shape on a GPU) produces its output in host memory; `use_host` and `consume`
  // (think Reshape's shape input) want their input in host memory; the rest use device memory.
  Scope root = Scope::NewRootScope();
  Scope gpu = root.WithDevice(kGpu0);
  Scope cpu = root.WithDevice(kCpu0);
  Output a = ops::Const(gpu.WithOpName("a"), 1.f);
  Output shape = ops::Identity(gpu.WithOpName("shape"), a);
  ops::Identity(gpu.WithOpName("use_dev"), shape);
  ops::Identity(gpu.WithOpName("use_host"), shape);
  ops::Identity(cpu.WithOpName("to_cpu"), shape);
  Output c = ops::Const(cpu.WithOpName("c"), 2.f);
  ops::Identity(gpu.WithOpName("consume"), c);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef graph, root.ToGraphDef());

  PartitionOptions options = ByDeviceField();
  std::vector<std::string> asked;
  options.memory_types = [&](const Node& n, const std::string& type, std::vector<bool>* in,
                             std::vector<bool>* out) {
    asked.push_back(n.name() + "@" + type);
    in->assign(n.num_inputs(), n.name() == "use_host" || n.name() == "consume");
    out->assign(1, n.name() == "shape");
    return absl::OkStatus();
  };
  RILL_ASSERT_OK_AND_ASSIGN(auto parts, PartitionDefs(graph, options));
  EXPECT_THAT(asked, ::testing::ElementsAre("a@GPU", "shape@GPU", "use_dev@GPU", "use_host@GPU",
                                            "consume@GPU"));

  Scope want_gpu = Scope::NewRootScope().WithDevice(kGpu0);
  Output want_a = ops::Const(want_gpu.WithOpName("a"), 1.f);
  Output want_shape = ops::Identity(want_gpu.WithOpName("shape"), want_a);
  // Inside GPU:0, host output -> device input: a pair whose Recv waits on its Send.
  Operation send0 =
      SendNode(want_gpu, "shape/_0", "_HostSend", want_shape, "edge_0_shape", kGpu0, kGpu0);
  Output recv1 = RecvNode(want_gpu.WithControlDependencies({send0}), "shape/_1", "_Recv",
                          "edge_0_shape", kGpu0, kGpu0);
  ops::Identity(want_gpu.WithOpName("use_dev"), recv1);
  ops::Identity(want_gpu.WithOpName("use_host"), want_shape);  // host -> host: a plain edge
  SendNode(want_gpu, "shape/_2", "_HostSend", want_shape, "edge_1_shape", kGpu0, kCpu0);
  Output recv5 = RecvNode(want_gpu, "c/_5", "_HostRecv", "edge_2_c", kCpu0, kGpu0);
  ops::Identity(want_gpu.WithOpName("consume"), recv5);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef want_gpu_part, want_gpu.ToGraphDef());

  Scope want_cpu = Scope::NewRootScope().WithDevice(kCpu0);
  Output recv3 = RecvNode(want_cpu, "shape/_3", "_Recv", "edge_1_shape", kGpu0, kCpu0);
  ops::Identity(want_cpu.WithOpName("to_cpu"), recv3);
  Output want_c = ops::Const(want_cpu.WithOpName("c"), 2.f);
  SendNode(want_cpu, "c/_4", "_Send", want_c, "edge_2_c", kCpu0, kGpu0);
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef want_cpu_part, want_cpu.ToGraphDef());

  ASSERT_EQ(parts.size(), 2u);
  ExpectEqual(parts[kGpu0], want_gpu_part.DebugString());
  ExpectEqual(parts[kCpu0], want_cpu_part.DebugString());
}

TEST(PartitionTest, ResourceOutputsOfADeviceAreOnHostWithoutAMemoryTypeFunction) {
  GraphDef g = Parse(absl::StrCat(
      "node { name: 'v' op: 'VarHandleOp' device: '", kGpu0,
      "' "
      "attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'shape' value { shape {} } } }"
      "node { name: 'r' op: 'ReadVariableOp' input: 'v' device: '",
      kCpu0,
      "' "
      "attr { key: 'dtype' value { type: DT_FLOAT } } }"));
  RILL_ASSERT_OK_AND_ASSIGN(auto parts, PartitionDefs(g, ByDeviceField()));
  EXPECT_EQ(parts[kGpu0].node(1).op(), "_HostSend");
  EXPECT_EQ(parts[kCpu0].node(0).op(), "_Recv");
}

TEST(PartitionTest, MemoryTypeErrorsNameTheNode) {
  GraphDef g = Parse(absl::StrCat("node { name: 'n' op: 'NoOp' device: '", kGpu0, "' }"));
  PartitionOptions options = ByDeviceField();
  options.memory_types = [](const Node&, const std::string&, std::vector<bool>*,
                            std::vector<bool>*) { return absl::NotFoundError("no GPU kernel"); };
  EXPECT_THAT(PartitionDefs(g, options),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("memory types of node 'n'")));
}

}  // namespace
}  // namespace rill
