// The sweep's case generator and runner on known ops; the whole sweep runs in op_sweep_all_test.
#include "tests/reliability/op_sweep.h"

#include <string>

#include "absl/strings/match.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace op_sweep {
namespace {

using ::testing::HasSubstr;

const SweepCase* Find(const std::vector<SweepCase>& cases, const std::string& label) {
  for (const SweepCase& c : cases) {
    if (c.label == label) return &c;
  }
  return nullptr;
}

const NodeDef* Node(const GraphDef& g, const std::string& name) {
  for (const NodeDef& n : g.node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

TEST(OpSweepTest, AddGetsConstInputsForEachKernelType) {
  std::string skipped;
  const std::vector<SweepCase> cases = SweepCasesForOp("AddV2", &skipped);
  EXPECT_EQ(skipped, "");
  const SweepCase* c = Find(cases, "T=float inputs=matrix");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->deterministic);
  const NodeDef* x = Node(c->graph, "x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->op(), "AddV2");
  ASSERT_EQ(x->input_size(), 2);
  EXPECT_EQ(x->input(0), "in_x_0");
  EXPECT_EQ(x->input(1), "in_y_0");
  const NodeDef* in = Node(c->graph, "in_x_0");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->op(), "Const");
  EXPECT_EQ(in->attr().at("value").tensor().float_val_size(), 6);
  EXPECT_NE(Find(cases, "T=int32 inputs=extremes"), nullptr);
}

TEST(OpSweepTest, RunningAnAdditionGivesItsSum) {
  std::string skipped;
  const std::vector<SweepCase> cases = SweepCasesForOp("AddV2", &skipped);
  const SweepCase* c = Find(cases, "T=float inputs=vector");
  ASSERT_NE(c, nullptr);
  const SweepResult r = RunSweepCase(*c, 5000);
  RILL_ASSERT_OK(r.create);
  RILL_ASSERT_OK(r.run);
  EXPECT_EQ(r.defect, "");
  ASSERT_EQ(r.outputs.size(), 1u);
  ASSERT_EQ(r.outputs[0].NumElements(), 3);
  EXPECT_EQ(r.outputs[0].flat<float>()[0], 2.0f);
  EXPECT_EQ(r.outputs[0].flat<float>()[1], 4.0f);
  EXPECT_EQ(r.outputs[0].flat<float>()[2], 0.0f);
}

TEST(OpSweepTest, HostileAttrsComeOneAtATime) {
  std::string skipped;
  const std::vector<SweepCase> cases = SweepCasesForOp("DepthToSpace", &skipped);
  const SweepCase* c = Find(cases, "T=float inputs=rank4 block_size=1099511627776");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(Node(c->graph, "x")->attr().at("block_size").i(), int64_t{1} << 40);
  // block_size * block_size overflowed to 0 in the shape function, which divided by it.
  const SweepResult r = RunSweepCase(*c, 5000);
  RILL_ASSERT_OK(r.create);
  EXPECT_THAT(r.run, StatusIs(absl::StatusCode::kInvalidArgument,
                              HasSubstr("block_size 1099511627776 makes the dims of")));
  EXPECT_EQ(r.defect, "");
}

TEST(OpSweepTest, IntAttrsTakeInt64ExtremesAndTypeAttrsInvalidCodes) {
  std::string skipped;
  std::vector<SweepCase> cases = SweepCasesForOp("AudioSpectrogram", &skipped);
  const SweepCase* c = Find(cases, " inputs=matrix window_size=9223372036854775807");
  ASSERT_NE(c, nullptr);
  // The shape function's power of two at least window_size overflowed and never ended.
  SweepResult r = RunSweepCase(*c, 5000);
  RILL_ASSERT_OK(r.create);
  EXPECT_THAT(r.run, StatusIs(absl::StatusCode::kInvalidArgument,
                              HasSubstr("Spectrogram initialization failed for window size "
                                        "9223372036854775807 and stride")));
  EXPECT_EQ(r.defect, "");

  cases = SweepCasesForOp("AddV2", &skipped);
  c = Find(cases, "T=float inputs=scalar T=1000");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(Node(c->graph, "x")->attr().at("T").type(), 1000);
  EXPECT_EQ(Node(c->graph, "in_x_0")->attr().at("dtype").type(), DT_FLOAT);
  r = RunSweepCase(*c, 5000);
  EXPECT_THAT(r.create, StatusIs(absl::StatusCode::kInvalidArgument,
                                 HasSubstr("AttrValue has invalid DataType enum: 1000")));
  EXPECT_EQ(r.defect, "");
}

TEST(OpSweepTest, ReferenceResourceAndVariantInputsGetProducers) {
  std::string skipped;
  std::vector<SweepCase> cases = SweepCasesForOp("Assign", &skipped);
  const SweepCase* c = Find(cases, "T=float inputs=matrix");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(Node(c->graph, "in_ref_0")->op(), "VariableV2");
  EXPECT_EQ(Node(c->graph, "in_ref_0/assign")->op(), "Assign");
  EXPECT_EQ(Node(c->graph, "x")->input(2), "^in_ref_0/assign");

  cases = SweepCasesForOp("ReadVariableOp", &skipped);
  c = Find(cases, "dtype=float inputs=matrix");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(Node(c->graph, "in_resource_0")->op(), "VarHandleOp");
  const SweepResult read = RunSweepCase(*c, 5000);
  RILL_ASSERT_OK(read.run);
  ASSERT_EQ(read.outputs.size(), 1u);
  EXPECT_EQ(read.outputs[0].shape().DebugString(), "[2,3]");

  cases = SweepCasesForOp("TensorListLength", &skipped);
  c = Find(cases, " inputs=rank3");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(Node(c->graph, "in_input_handle_0")->op(), "TensorListFromTensor");
  const SweepResult length = RunSweepCase(*c, 5000);
  RILL_ASSERT_OK(length.run);
  ASSERT_EQ(length.outputs.size(), 1u);
  EXPECT_EQ(length.outputs[0].flat<int32_t>()[0], 2);
}

TEST(OpSweepTest, UnknownOpsAreSkippedWithTheReason) {
  std::string skipped;
  EXPECT_TRUE(SweepCasesForOp("NoSuchOp", &skipped).empty());
  EXPECT_EQ(skipped, "not registered");
}

}  // namespace
}  // namespace op_sweep
}  // namespace rill
