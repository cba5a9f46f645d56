#include "session/kernel_support_memo.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/attr_value_util.h"
#include "proto/node_def.pb.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// CPU runs every node; GPU only nodes whose "T" is a float type. Counts the questions asked.
class CountingKernels final : public KernelAvailability {
 public:
  std::vector<std::string> SupportedDeviceTypes(
      const NodeDef& node, const std::vector<std::string>& device_types) const override {
    ++calls;
    std::vector<std::string> out;
    for (const std::string& type : device_types) {
      auto t = node.attr().find("T");
      const bool gpu_ok = t != node.attr().end() && t->second.value_case() == AttrValue::kType &&
                          t->second.type() == DT_FLOAT;
      if (type == "CPU" || gpu_ok) out.push_back(type);
    }
    return out;
  }
  absl::Status NoKernelError(const NodeDef&, const std::vector<std::string>&) const override {
    return absl::InvalidArgumentError("none");
  }
  mutable int calls = 0;
};

NodeDef Node(const std::string& name, const std::string& op) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  return n;
}

NodeDef Typed(const std::string& name, const std::string& op, DataType t) {
  NodeDef n = Node(name, op);
  SetAttr(&n, "T", t);
  return n;
}

std::string Key(const NodeDef& node) {
  std::string key;
  KernelSupportMemo::KeyOf(node, &key);
  return key;
}

TEST(KernelSupportMemoTest, NodesWithTheSameOpAndTypesShareOneLookup) {
  CountingKernels kernels;
  KernelSupportMemo memo(kernels, {"GPU", "CPU"});
  for (int i = 0; i < 5; ++i) {
    NodeDef n = Typed("n" + std::to_string(i), "Identity", DT_FLOAT);
    n.set_device(i % 2 == 0 ? "/cpu:0" : "/gpu:0");  // the device is not part of the question
    EXPECT_THAT(memo.SupportedDeviceTypes(n), ElementsAre("GPU", "CPU"));
  }
  EXPECT_EQ(kernels.calls, 1);
  EXPECT_THAT(memo.SupportedDeviceTypes(Typed("i", "Identity", DT_INT32)), ElementsAre("CPU"));
  EXPECT_THAT(memo.SupportedDeviceTypes(Typed("s", "Snapshot", DT_FLOAT)),
              ElementsAre("GPU", "CPU"));
  EXPECT_EQ(kernels.calls, 3);
  // Back to an earlier key, then alternating: answered from the memo.
  for (int i = 0; i < 4; ++i) {
    EXPECT_THAT(memo.SupportedDeviceTypes(Typed("f", "Identity", DT_FLOAT)),
                ElementsAre("GPU", "CPU"));
    EXPECT_THAT(memo.SupportedDeviceTypes(Typed("i", "Identity", DT_INT32)), ElementsAre("CPU"));
  }
  EXPECT_EQ(kernels.calls, 3);
  EXPECT_EQ(memo.lookups(), 3);
}

TEST(KernelSupportMemoTest, AnswersStayValidAsTheMemoGrows) {
  CountingKernels kernels;
  KernelSupportMemo memo(kernels, {"GPU", "CPU"});
  const std::vector<std::string>& first = memo.SupportedDeviceTypes(Typed("a", "A", DT_FLOAT));
  for (int i = 0; i < 100; ++i) memo.SupportedDeviceTypes(Node("n", "Op" + std::to_string(i)));
  EXPECT_THAT(first, ElementsAre("GPU", "CPU"));
  EXPECT_EQ(memo.lookups(), 101);
}

TEST(KernelSupportMemoTest, KeyIgnoresAttrOrderAndNonTypeValues) {
  NodeDef a = Node("a", "Const");
  SetAttr(&a, "dtype", DT_FLOAT);
  SetAttr(&a, "value", 1.5f);
  NodeDef b = Node("b", "Const");
  SetAttr(&b, "value", -7.f);
  SetAttr(&b, "dtype", DT_FLOAT);
  EXPECT_EQ(Key(a), Key(b));
  SetAttr(&b, "dtype", DT_DOUBLE);
  EXPECT_NE(Key(a), Key(b));
}

TEST(KernelSupportMemoTest, KeySeparatesWhatATypeConstraintReads) {
  const std::string float_t = Key(Typed("n", "Op", DT_FLOAT));
  // Another op, a missing attr, another attr name, another kind, another dtype.
  EXPECT_NE(Key(Typed("n", "Op2", DT_FLOAT)), float_t);
  EXPECT_NE(Key(Node("n", "Op")), float_t);
  NodeDef renamed = Node("n", "Op");
  SetAttr(&renamed, "U", DT_FLOAT);
  EXPECT_NE(Key(renamed), float_t);
  NodeDef as_int = Node("n", "Op");
  SetAttr(&as_int, "T", int64_t{DT_FLOAT});
  EXPECT_NE(Key(as_int), float_t);
  // A dtype value past any valid one does not alias a valid one.
  NodeDef wild = Node("n", "Op");
  (*wild.mutable_attr())["T"].set_type(static_cast<DataType>(DT_FLOAT + (1 << 16)));
  EXPECT_NE(Key(wild), float_t);
  // Type lists: each element counts, and so does the count.
  NodeDef l1 = Node("n", "IdentityN");
  SetAttr(&l1, "T", std::vector<DataType>{DT_FLOAT, DT_INT32});
  NodeDef l2 = Node("n", "IdentityN");
  SetAttr(&l2, "T", std::vector<DataType>{DT_FLOAT, DT_FLOAT});
  NodeDef l3 = Node("n", "IdentityN");
  SetAttr(&l3, "T", std::vector<DataType>{DT_FLOAT});
  EXPECT_NE(Key(l1), Key(l2));
  EXPECT_NE(Key(l2), Key(l3));
  // Op and attr names are length-prefixed: moving bytes between them changes the key.
  NodeDef ab = Node("n", "Ab");
  SetAttr(&ab, "c", DT_FLOAT);
  NodeDef a_bc = Node("n", "A");
  SetAttr(&a_bc, "bc", DT_FLOAT);
  EXPECT_NE(Key(ab), Key(a_bc));
}

TEST(KernelSupportMemoTest, MatchesTheKernelRegistry) {
  // A registry through the memo: the same answers as asked node by node.
  KernelRegistry registry;
  KernelFactory none = [](OpKernelConstruction&) -> absl::StatusOr<std::unique_ptr<OpKernel>> {
    return absl::UnimplementedError("not run");
  };
  ASSERT_TRUE(registry
                  .Register(KernelDefBuilder("Identity")
                                .Device("CPU")
                                .TypeConstraint("T", {DT_FLOAT, DT_STRING})
                                .Build(),
                            none)
                  .ok());
  ASSERT_TRUE(
      registry
          .Register(
              KernelDefBuilder("Identity").Device("GPU").TypeConstraint("T", {DT_FLOAT}).Build(),
              none)
          .ok());
  ASSERT_TRUE(registry
                  .Register(KernelDefBuilder("IdentityN")
                                .Device("GPU")
                                .TypeConstraint("T", {DT_FLOAT, DT_INT32})
                                .Build(),
                            none)
                  .ok());
  ASSERT_TRUE(registry.Register(KernelDefBuilder("NoOp").Device("CPU").Build(), none).ok());
  const std::vector<std::string> types = {"GPU", "CPU"};
  KernelSupportMemo memo(registry, types);
  std::vector<NodeDef> nodes;
  nodes.push_back(Typed("u", "Identity", DT_INVALID));
  nodes.push_back(Typed("n0", "Identity", DT_FLOAT));
  nodes.push_back(Typed("n1", "Identity", DT_STRING));
  nodes.push_back(Node("n2", "NoOp"));
  nodes.push_back(Typed("n3", "Identity", DT_FLOAT));
  nodes.push_back(Typed("n4", "NoSuchOp", DT_FLOAT));
  nodes.push_back(Node("n5", "Identity"));  // no T: no kernel
  for (const std::vector<DataType>& list :
       {std::vector<DataType>{DT_FLOAT, DT_INT32}, std::vector<DataType>{DT_FLOAT, DT_STRING},
        std::vector<DataType>{DT_INT32, DT_FLOAT}}) {
    NodeDef n = Node("l", "IdentityN");
    SetAttr(&n, "T", list);
    nodes.push_back(n);
  }
  for (const NodeDef& n : nodes) {
    EXPECT_EQ(memo.SupportedDeviceTypes(n), registry.SupportedDeviceTypes(n, types)) << n.name();
  }
  EXPECT_THAT(memo.SupportedDeviceTypes(nodes[1]), ElementsAre("GPU", "CPU"));
  EXPECT_THAT(memo.SupportedDeviceTypes(nodes[2]), ElementsAre("CPU"));
  EXPECT_THAT(memo.SupportedDeviceTypes(nodes[7]), ElementsAre("GPU"));
  EXPECT_THAT(memo.SupportedDeviceTypes(nodes[8]), IsEmpty());
  EXPECT_EQ(memo.lookups(), 9);  // n3 asks as n0 did
}

}  // namespace
}  // namespace rill
