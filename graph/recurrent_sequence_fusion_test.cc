#include "graph/recurrent_sequence_fusion.h"

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
#include "proto/node_def.pb.h"

namespace rill {
namespace {

using ::testing::ElementsAre;

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";

using recurrent_test::KerasGru;
using recurrent_test::KerasLstm;
using recurrent_test::Ramp;
using LoopOptions = recurrent_test::GruOptions;

// The graph optimizer's loop passes before this one.
absl::Status Prepare(Graph* g) {
  RILL_RETURN_IF_ERROR(MakeLoopInvariantsConstant(g).status());
  RILL_RETURN_IF_ERROR(RemoveControlFlowIdentities(g).status());
  return HoistLoopBodyConstants(g).status();
}

absl::StatusOr<int> Fuse(Graph* g) {
  RILL_RETURN_IF_ERROR(Prepare(g));
  return FuseRecurrentSequences(g);
}

int Count(const Graph& g, const std::string& op) {
  int n = 0;
  for (const Node* node : g.op_nodes()) n += node->op() == op;
  return n;
}

const Node* Sequence(const Graph& g) {
  for (const Node* n : g.op_nodes()) {
    if (n->op() == "_RillRecurrentSequence") return n;
  }
  return nullptr;
}

TEST(RecurrentSequenceFusionTest, TheWholeFrameBecomesOneNode) {
  std::unique_ptr<Graph> g = ImportForPassTest(KerasGru({}), kCpu);
  {
    auto r = Fuse(g.get());
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(*r, 1);
  }
  for (const char* op : {"Enter", "Merge", "Switch", "NextIteration", "Exit", "LoopCond", "MatMul",
                         "Split", "TensorListGetItem", "TensorListSetItem", "Sigmoid"}) {
    EXPECT_EQ(Count(*g, op), 0) << op;
  }
  const Node* seq = Sequence(*g);
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->assigned_device_name(), kCpu);
  const auto& attr = seq->def().attr();
  // Inputs: the four variables' initial values, then the loop constants as first read (the
  // body's hoisted Consts among them).
  std::vector<std::string> in = InputsOf(*g, seq->name());
  ASSERT_GE(in.size(), 4u + 7u);
  EXPECT_EQ(in[2], "reserve:0");
  EXPECT_EQ(in[3], "zeros:0");
  for (const char* c : {"max:0", "steps:0", "unstack:0", "es:0", "w:0", "u:0", "b:0"}) {
    EXPECT_THAT(std::vector<std::string>(in.begin() + 4, in.end()), ::testing::Contains(c));
  }
  EXPECT_EQ(attr.at("Tvars").list().type_size(), 4);
  EXPECT_EQ(attr.at("Tconsts").list().type_size(), static_cast<int>(in.size()) - 4);
  // The condition's nodes first: two Less and the LogicalAnd.
  EXPECT_EQ(attr.at("num_cond").i(), 3);
  std::vector<std::string> ops;
  int constant_weights = 0;
  for (const std::string& bytes : attr.at("step").list().s()) {
    NodeDef def;
    ASSERT_TRUE(def.ParseFromString(bytes));
    ops.push_back(def.op());
    if (def.op() == "MatMul") {
      EXPECT_TRUE(def.attr().contains("_rill_constant_weights")) << def.name();
      ++constant_weights;
    }
  }
  EXPECT_EQ(constant_weights, 2);
  EXPECT_EQ(ops[2], "LogicalAnd");
  EXPECT_EQ(attr.at("cond").s(), "s:2:0");
  EXPECT_EQ(attr.at("next").list().s_size(), 4);
  // The Exits' readers read the node's outputs.
  EXPECT_THAT(InputsOf(*g, "hs"), ::testing::Contains(seq->name() + ":2"));
  EXPECT_THAT(InputsOf(*g, "h"), ElementsAre(seq->name() + ":3"));
}

// Each condition that makes the pass leave the loop alone.
TEST(RecurrentSequenceFusionTest, LoopsOfAnyOtherShapeStay) {
  struct Case {
    const char* what;
    LoopOptions options;
  };
  std::vector<Case> cases(2);
  cases[0] = {"an op that is not a step op", {}};
  cases[0].options.other_op = true;
  cases[1] = {"inputs that may be dead", {}};
  cases[1].options.in_branch = true;
  for (const Case& c : cases) {
    std::unique_ptr<Graph> g = ImportForPassTest(KerasGru(c.options), kCpu);
    EXPECT_THAT(Fuse(g.get()), IsOkAndHolds(0)) << c.what;
    EXPECT_EQ(Count(*g, "LoopCond"), 1) << c.what;
  }
}

TEST(RecurrentSequenceFusionTest, ALoopNotWhollyOnTheCpuStays) {
  std::unique_ptr<Graph> g = ImportForPassTest(KerasGru({}), kCpu);
  ASSERT_THAT(Prepare(g.get()), IsOk());
  Node* get = g->FindNode("while/get");
  ASSERT_NE(get, nullptr);
  get->set_assigned_device_name(kGpu);
  EXPECT_THAT(FuseRecurrentSequences(g.get()), IsOkAndHolds(0));
  get->set_assigned_device_name(kCpu);  // the device was the reason
  EXPECT_THAT(FuseRecurrentSequences(g.get()), IsOkAndHolds(1));
}

// A loop without a product (a counter and an elementwise accumulator) is not a recurrent layer.
TEST(RecurrentSequenceFusionTest, ALoopWithoutAProductStays) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output w = ops::Placeholder(root.WithOpName("w"), DT_FLOAT);
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), {ops::Const(root, 0), ops::Const(root, 1.f)},
      [&](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [&](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)), ops::Mul(s, v[1], v[3])};
      },
      ops::WhileLoopAttrs().Invariants({n, w}));
  ops::Identity(root.WithOpName("acc"), out[1]);
  std::unique_ptr<Graph> g = ImportForPassTest(root, kCpu);
  EXPECT_THAT(Fuse(g.get()), IsOkAndHolds(0));
  EXPECT_EQ(Count(*g, "LoopCond"), 1);
}

// A body value fetched (read by a _Retval, which belongs to the frame it reads from) keeps the
// loop.
TEST(RecurrentSequenceFusionTest, ABodyValueReadByAnOpThatIsNotAStepOpStays) {
  std::unique_ptr<Graph> g = ImportForPassTest(KerasGru({}), kCpu);
  ASSERT_THAT(Prepare(g.get()), IsOk());
  Node* h = g->FindNode("while/h_next");
  ASSERT_NE(h, nullptr);
  NodeDef def;
  def.set_name("fetch");
  def.set_op("_Retval");
  (*def.mutable_attr())["T"].set_type(DT_FLOAT);
  (*def.mutable_attr())["index"].set_i(0);
  auto reader = g->AddNode(def);
  ASSERT_THAT(reader.status(), IsOk());
  (*reader)->set_assigned_device_name(kCpu);
  ASSERT_THAT(g->AddEdge(h, 0, *reader, 0).status(), IsOk());
  EXPECT_THAT(FuseRecurrentSequences(g.get()), IsOkAndHolds(0));
  g->RemoveNode(*reader);  // the reader was the reason
  EXPECT_THAT(FuseRecurrentSequences(g.get()), IsOkAndHolds(1));
}

// A loop in a loop: the outer frame holds the inner one's Enters, the inner one's inputs come
// from the outer body (they may be dead); neither is fused.
TEST(RecurrentSequenceFusionTest, NestedLoopsStay) {
  Scope root = Scope::NewRootScope();
  Output n = ops::Placeholder(root.WithOpName("n"), DT_INT32);
  Output u = ops::Const<float>(root.WithOpName("u"), Ramp(4, -0.5f, 0.25f), TensorShape({2, 2}));
  Output h0 = ops::Const<float>(root.WithOpName("h0"), {1.f, 2.f}, TensorShape({1, 2}));
  auto inner_loop = [&](const Scope& s, const Output& h, const Output& bound, const Output& w) {
    return ops::WhileLoop(
        s.NewSubScope("inner"), {ops::Const(s, 0), h},
        [&](const Scope& c, const std::vector<Output>& v) { return ops::Less(c, v[0], v[2]); },
        [&](const Scope& b, const std::vector<Output>& v) {
          return std::vector<Output>{ops::Add(b, v[0], ops::Const(b, 1)),
                                     ops::Tanh(b, ops::MatMul(b, v[1], v[3]))};
        },
        ops::WhileLoopAttrs().Invariants({bound, w}))[1];
  };
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("outer"), {ops::Const(root, 0), h0},
      [&](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], v[2]); },
      [&](const Scope& s, const std::vector<Output>& v) {
        return std::vector<Output>{ops::Add(s, v[0], ops::Const(s, 1)),
                                   inner_loop(s, ops::MatMul(s, v[1], v[3]), v[2], v[3])};
      },
      ops::WhileLoopAttrs().Invariants({n, u}));
  ops::Identity(root.WithOpName("h"), out[1]);
  std::unique_ptr<Graph> g = ImportForPassTest(root, kCpu);
  EXPECT_THAT(Fuse(g.get()), IsOkAndHolds(0));
  EXPECT_EQ(Count(*g, "LoopCond"), 2);
}

// The step ops of each fused node, in step order.
std::vector<std::string> StepOps(const Node& seq) {
  std::vector<std::string> ops;
  for (const std::string& bytes : seq.def().attr().at("step").list().s()) {
    NodeDef def;
    EXPECT_TRUE(def.ParseFromString(bytes));
    ops.push_back(def.op());
  }
  return ops;
}

// LSTM frames: the LSTM pass's when it takes them (run first), this pass's otherwise (a masked
// LSTM, or a step with another op), the fused cell a step node.
TEST(RecurrentSequenceFusionTest, LstmFramesTheLstmPassLeavesAreFusedHere) {
  struct Case {
    const char* what;
    recurrent_test::LstmOptions options;
    const char* fused_op;
  };
  std::vector<Case> cases(3);
  cases[0] = {"a plain LSTM", {}, "_RillLstmSequence"};
  cases[1] = {"a masked LSTM", {}, "_RillRecurrentSequence"};
  cases[1].options.masked = true;
  cases[2] = {"an LSTM with a Relu in its step", {}, "_RillRecurrentSequence"};
  cases[2].options.extra_op = true;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    std::unique_ptr<Graph> g = ImportForPassTest(KerasLstm(c.options), kCpu);
    ASSERT_THAT(Prepare(g.get()), IsOk());
    ASSERT_THAT(FuseLstmCells(g.get()), IsOkAndHolds(1));
    EXPECT_THAT(FuseRecurrentSequences(g.get()), IsOkAndHolds(1));
    EXPECT_EQ(Count(*g, "LoopCond"), 0);
    EXPECT_EQ(Count(*g, c.fused_op), 1);
    EXPECT_EQ(Count(*g, "_RillLstmCell"), 0);
    const Node* seq = Sequence(*g);
    if (seq == nullptr) continue;
    EXPECT_THAT(StepOps(*seq), ::testing::Contains("_RillLstmCell"));
    if (c.options.masked) {
      EXPECT_THAT(InputsOf(*g, seq->name()), ::testing::Contains("mask_list:0"));
    }
    EXPECT_THAT(InputsOf(*g, "h"), ElementsAre(seq->name() + ":3"));
    EXPECT_THAT(InputsOf(*g, "c"), ElementsAre(seq->name() + ":4"));
  }
}

// TF1 dynamic_rnn: the arrays' handles and the input array's flow are loop constants, the output
// array's flow a variable written through TensorArrayWriteV3.
TEST(RecurrentSequenceFusionTest, ATf1TensorArrayLoopBecomesOneNode) {
  std::unique_ptr<Graph> g = ImportForPassTest(recurrent_test::Tf1TensorArrayRnn(), kCpu);
  EXPECT_THAT(Fuse(g.get()), IsOkAndHolds(1));
  for (const char* op : {"Enter", "Merge", "Switch", "NextIteration", "Exit", "LoopCond",
                         "TensorArrayReadV3", "TensorArrayWriteV3"}) {
    EXPECT_EQ(Count(*g, op), 0) << op;
  }
  const Node* seq = Sequence(*g);
  ASSERT_NE(seq, nullptr);
  EXPECT_THAT(StepOps(*seq), ::testing::IsSupersetOf(
                                 {"TensorArrayReadV3", "TensorArrayWriteV3", "MatMul", "Tanh"}));
  std::vector<std::string> in = InputsOf(*g, seq->name());
  ASSERT_GE(in.size(), 3u);
  EXPECT_EQ(in[1], "out_ta:1");  // the output array's flow, a loop variable
  for (const char* c : {"x_ta:0", "scatter:0", "out_ta:0", "steps:0"}) {
    EXPECT_THAT(in, ::testing::Contains(c));
  }
  EXPECT_THAT(InputsOf(*g, "hs"), ::testing::Contains(seq->name() + ":1"));
  EXPECT_THAT(InputsOf(*g, "h"), ElementsAre(seq->name() + ":2"));
}

}  // namespace
}  // namespace rill
