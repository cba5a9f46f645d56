#include "graph/lstm_sequence_fusion.h"

#include <memory>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/control_flow_identities.h"
#include "graph/graph.h"
#include "graph/loop_body_constants.h"
#include "graph/loop_invariants.h"
#include "graph/lstm_cell_fusion.h"
#include "graph/pass_test_util.h"
#include "graph/recurrent_test_graphs.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";

using recurrent_test::KerasLstm;
using LoopOptions = recurrent_test::LstmOptions;

// The graph optimizer's loop passes before this one.
absl::Status Prepare(Graph* g) {
  RILL_RETURN_IF_ERROR(MakeLoopInvariantsConstant(g).status());
  RILL_RETURN_IF_ERROR(RemoveControlFlowIdentities(g).status());
  RILL_RETURN_IF_ERROR(HoistLoopBodyConstants(g).status());
  return FuseLstmCells(g).status();
}

absl::StatusOr<int> Fuse(Graph* g) {
  RILL_RETURN_IF_ERROR(Prepare(g));
  return FuseLstmSequences(g);
}

int Count(const Graph& g, const std::string& op) {
  int n = 0;
  for (const Node* node : g.op_nodes()) n += node->op() == op;
  return n;
}

const Node* Sequence(const Graph& g) {
  for (const Node* n : g.op_nodes()) {
    if (n->op() == "_RillLstmSequence") return n;
  }
  return nullptr;
}

TEST(LstmSequenceFusionTest, TheWholeFrameBecomesOneNode) {
  std::unique_ptr<Graph> g = ImportForPassTest(KerasLstm({}), kCpu);
  {
    auto r = Fuse(g.get());
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(*r, 1);
  }
  for (const char* op : {"Enter", "Merge", "Switch", "NextIteration", "Exit", "LoopCond",
                         "_RillLstmCell", "MatMul", "TensorListGetItem", "TensorListSetItem"}) {
    EXPECT_EQ(Count(*g, op), 0) << op;
  }
  const Node* seq = Sequence(*g);
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->assigned_device_name(), kCpu);
  const auto& attr = seq->def().attr();
  EXPECT_EQ(attr.at("num_counters").i(), 2);
  EXPECT_THAT(std::vector<int64_t>(attr.at("bound_counters").list().i().begin(),
                                   attr.at("bound_counters").list().i().end()),
              ElementsAre(0, 1));
  EXPECT_EQ(attr.at("read_counter").i(), 1);
  EXPECT_EQ(attr.at("write_counter").i(), 1);
  EXPECT_TRUE(attr.at("project_input").b());
  EXPECT_TRUE(attr.at("constant_kernel").b());
  EXPECT_TRUE(attr.at("constant_recurrent_kernel").b());
  EXPECT_TRUE(attr.at("input_first").b());
  // Inputs: the counters' and bounds' initial values, the lists, h, c, W, U, b.
  std::vector<std::string> in = InputsOf(*g, seq->name());
  ASSERT_EQ(in.size(), 12u);
  EXPECT_EQ(in[2], "max:0");
  EXPECT_EQ(in[3], "steps:0");
  EXPECT_EQ(in[4], "unstack:0");
  EXPECT_EQ(in[5], "es:0");
  EXPECT_EQ(in[6], "reserve:0");
  EXPECT_EQ(in[7], "zeros:0");
  EXPECT_EQ(in[8], "zeros:0");
  EXPECT_EQ(in[9], "w:0");
  EXPECT_EQ(in[10], "u:0");
  EXPECT_EQ(in[11], "b:0");
  // The Exits' readers read the node's outputs: the list, h, c after the two counters.
  EXPECT_THAT(InputsOf(*g, "hs"), ::testing::Contains(seq->name() + ":2"));
  EXPECT_THAT(InputsOf(*g, "h"), ElementsAre(seq->name() + ":3"));
  EXPECT_THAT(InputsOf(*g, "c"), ElementsAre(seq->name() + ":4"));
}

TEST(LstmSequenceFusionTest, AConstWriteIndexBecomesAnAttr) {
  LoopOptions o;
  o.write_at_zero = true;
  std::unique_ptr<Graph> g = ImportForPassTest(KerasLstm(o), kCpu);
  {
    auto r = Fuse(g.get());
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(*r, 1);
  }
  const Node* seq = Sequence(*g);
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->def().attr().at("write_counter").i(), -1);
  EXPECT_EQ(seq->def().attr().at("write_index").i(), 0);
}

// Each condition that makes the pass leave the loop alone.
TEST(LstmSequenceFusionTest, LoopsOfAnyOtherShapeStay) {
  struct Case {
    const char* what;
    LoopOptions options;
  };
  std::vector<Case> cases(5);
  cases[0] = {"another op in the step", {}};
  cases[0].options.extra_op = true;
  cases[1] = {"an intermediate value carried out", {}};
  cases[1].options.z_carried = true;
  cases[2] = {"inputs that may be dead", {}};
  cases[2].options.in_branch = true;
  cases[3] = {"gates not fused into a cell", {}};
  cases[3].options.no_cell = true;
  cases[4] = {"a counter not proven a scalar", {}};
  cases[4].options.unknown_counter_shape = true;
  for (const Case& c : cases) {
    std::unique_ptr<Graph> g = ImportForPassTest(KerasLstm(c.options), kCpu);
    EXPECT_THAT(Fuse(g.get()), IsOkAndHolds(0)) << c.what;
    EXPECT_EQ(Count(*g, "LoopCond"), 1) << c.what;
  }
}

TEST(LstmSequenceFusionTest, ALoopNotWhollyOnTheCpuStays) {
  std::unique_ptr<Graph> g = ImportForPassTest(KerasLstm({}), kCpu);
  ASSERT_THAT(Prepare(g.get()), IsOk());
  Node* get = nullptr;
  for (Node* n : g->op_nodes()) {
    if (n->op() == "TensorListGetItem") get = n;
  }
  ASSERT_NE(get, nullptr);
  get->set_assigned_device_name(kGpu);
  EXPECT_THAT(FuseLstmSequences(g.get()), IsOkAndHolds(0));
  get->set_assigned_device_name(kCpu);  // the device was the reason
  EXPECT_THAT(FuseLstmSequences(g.get()), IsOkAndHolds(1));
}

}  // namespace
}  // namespace rill
