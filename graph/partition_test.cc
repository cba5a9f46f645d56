// Partition tests: expected partitions written out as GraphDefs and compared field by field.
#include "graph/partition.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
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

// The test graphs carry each node's target device in its `device` field.
PartitionOptions ByDeviceField() {
  PartitionOptions o;
  o.device_of = [](const NodeDef& n) { return n.device(); };
  return o;
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
    node { name: 'a' op: 'Const' device: ')", kCpu0, R"('
           attr { key: 'dtype' value { type: DT_FLOAT } }
           attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
    node { name: 'x' op: 'Identity' input: 'a' device: ')", kCpu1, R"('
           attr { key: 'T' value { type: DT_FLOAT } } }
    node { name: 'y' op: 'Identity' input: 'a' device: ')", kCpu1, R"('
           attr { key: 'T' value { type: DT_FLOAT } } }
  )"));
  RILL_ASSERT_OK_AND_ASSIGN(auto parts, Partition(g, ByDeviceField()));
  ASSERT_EQ(parts.size(), 2u);
  const std::string send_recv_attrs = absl::StrCat(
      "attr { key: 'tensor_name' value { s: 'edge_0_a' } } "
      "attr { key: 'send_device' value { s: '", kCpu0, "' } } "
      "attr { key: 'send_device_incarnation' value { i: 1 } } "
      "attr { key: 'recv_device' value { s: '", kCpu1, "' } } "
      "attr { key: 'client_terminated' value { b: false } } ");
  ExpectEqual(parts[kCpu0], absl::StrCat(
      "node { name: 'a' op: 'Const' device: '", kCpu0, "' "
      "attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }"
      "node { name: 'a/_0' op: '_Send' input: 'a' device: '", kCpu0, "' "
      "attr { key: 'T' value { type: DT_FLOAT } } ", send_recv_attrs, "}"));
  ExpectEqual(parts[kCpu1], absl::StrCat(
      "node { name: 'a/_1' op: '_Recv' device: '", kCpu1, "' "
      "attr { key: 'tensor_type' value { type: DT_FLOAT } } ", send_recv_attrs, "}"
      "node { name: 'x' op: 'Identity' input: 'a/_1' device: '", kCpu1, "' "
      "attr { key: 'T' value { type: DT_FLOAT } } }"
      "node { name: 'y' op: 'Identity' input: 'a/_1' device: '", kCpu1, "' "
      "attr { key: 'T' value { type: DT_FLOAT } } }"));
}

TEST(PartitionTest, CrossDeviceControlEdgeIsCarriedByADummyTensor) {
  GraphDef g = Parse(absl::StrCat(
      "node { name: 'n' op: 'NoOp' device: '", kCpu0, "' }"
      "node { name: 'm' op: 'NoOp' input: '^n' device: '", kCpu1, "' }"));
  RILL_ASSERT_OK_AND_ASSIGN(auto parts, Partition(g, ByDeviceField()));
  const std::string attrs = absl::StrCat(
      "attr { key: 'tensor_name' value { s: 'edge_0_n' } } "
      "attr { key: 'send_device' value { s: '", kCpu0, "' } } "
      "attr { key: 'send_device_incarnation' value { i: 1 } } "
      "attr { key: 'recv_device' value { s: '", kCpu1, "' } } "
      "attr { key: 'client_terminated' value { b: false } } ");
  ExpectEqual(parts[kCpu0], absl::StrCat(
      "node { name: 'n' op: 'NoOp' device: '", kCpu0, "' }"
      "node { name: 'n/ctrl/_0' op: 'Const' input: '^n' device: '", kCpu0, "' "
      "attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 0 } } } } } }"
      "node { name: 'n/_1' op: '_Send' input: 'n/ctrl/_0' device: '", kCpu0, "' "
      "attr { key: 'T' value { type: DT_FLOAT } } ", attrs, "}"));
  ExpectEqual(parts[kCpu1], absl::StrCat(
      "node { name: 'n/_2' op: '_Recv' device: '", kCpu1, "' "
      "attr { key: 'tensor_type' value { type: DT_FLOAT } } ", attrs, "}"
      "node { name: 'n/_3' op: 'Identity' input: 'n/_2' device: '", kCpu1, "' "
      "attr { key: 'T' value { type: DT_FLOAT } } }"
      "node { name: 'm' op: 'NoOp' input: '^n/_3' device: '", kCpu1, "' }"));
}

TEST(PartitionTest, SameDeviceEdgesStayPlainAndCounterIsShared) {
  GraphDef g = Parse(absl::StrCat(
      "node { name: 'a' op: 'NoOp' device: '", kCpu0, "' }"
      "node { name: 'b' op: 'NoOp' input: '^a' device: '", kCpu0, "' }"));
  int64_t counter = 7;
  PartitionOptions o = ByDeviceField();
  o.name_counter = &counter;
  RILL_ASSERT_OK_AND_ASSIGN(auto parts, Partition(g, o));
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[kCpu0].node(1).input(0), "^a");
  EXPECT_EQ(counter, 7);
}

TEST(PartitionTest, MissingDeviceOrInputIsInvalidArgument) {
  EXPECT_THAT(Partition(Parse("node { name: 'a' op: 'NoOp' }"), ByDeviceField()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'a' has no assigned device; cannot partition"));
  EXPECT_THAT(Partition(Parse(absl::StrCat("node { name: 'a' op: 'NoOp' input: '^q' device: '",
                                           kCpu0, "' }")),
                        ByDeviceField()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incomplete graph, missing input '^q' for a"));
}

}  // namespace
}  // namespace rill
