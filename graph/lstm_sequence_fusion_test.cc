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
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";

std::vector<float> Ramp(int64_t n, float start, float step) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

struct LoopOptions {
  bool extra_op = false;               // h' goes through a Relu before the list
  bool z_carried = false;              // a sixth variable carries z out of the loop
  bool in_branch = false;              // x comes through a Switch: the loop's inputs may be dead
  bool write_at_zero = false;          // the list is written at a Const index (Keras's last output)
  bool no_cell = false;                // g = Relu: lstm_cell_fusion leaves the gates alone
  bool unknown_counter_shape = false;  // t starts from a value of unknown shape
};

// A Keras-like LSTM over x [4, 2, 3] with 5 units: a loop counter i < max and a time step t <
// steps, x_t read from a list at t, h' written into a list at t (or 0), h and c carried.
Scope KerasLstm(const LoopOptions& o) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  if (o.in_branch) {
    x = ops::Switch(root.WithOpName("branch"), x, ops::Placeholder(root.WithOpName("p"), DT_BOOL))
            .output_true;
  }
  const PartialTensorShape scalar(std::vector<int64_t>{});
  Output steps = ops::Placeholder(root.WithOpName("steps"), DT_INT32);  // any shape
  Output max = ops::Placeholder(root.WithOpName("max"), DT_INT32, scalar);
  Output es = ops::Const(root.WithOpName("es"), {2, 3});
  Output list = ops::TensorListFromTensor(root.WithOpName("unstack"), x, es);
  Output out0 = ops::TensorListReserve(root.WithOpName("reserve"), ops::Const(root, -1),
                                       ops::Const(root, 4), DT_FLOAT);
  Output w =
      ops::Const<float>(root.WithOpName("w"), Ramp(3 * 20, 0.037f, -1.f), TensorShape({3, 20}));
  Output u =
      ops::Const<float>(root.WithOpName("u"), Ramp(5 * 20, -0.013f, 0.8f), TensorShape({5, 20}));
  Output b = ops::Const<float>(root.WithOpName("b"), Ramp(20, 0.05f, -0.5f), TensorShape({20}));
  Output zeros =
      ops::Const<float>(root.WithOpName("zeros"), std::vector<float>(10, 0.f), TensorShape({2, 5}));
  Output t0 = o.unknown_counter_shape ? ops::Placeholder(root.WithOpName("t0"), DT_INT32)
                                      : ops::Const(root, 0);
  std::vector<Output> vars = {ops::Const(root, 0), t0, out0, zeros, zeros};
  if (o.z_carried)
    vars.push_back(ops::Const<float>(root, std::vector<float>(40, 0.f), TensorShape({2, 20})));
  const int n = static_cast<int>(vars.size());
  std::vector<Output> out = ops::WhileLoop(
      root.NewSubScope("while"), vars,
      [&](const Scope& s, const std::vector<Output>& v) {
        return ops::LogicalAnd(s, ops::Less(s, v[0], v[n]), ops::Less(s, v[1], v[n + 1]));
      },
      [&](const Scope& s, const std::vector<Output>& v) {
        Output xt = ops::TensorListGetItem(s, v[n + 2], v[1], v[n + 3], DT_FLOAT);
        Output z = ops::BiasAdd(
            s, ops::AddV2(s, ops::MatMul(s, xt, v[n + 4]), ops::MatMul(s, v[3], v[n + 5])),
            v[n + 6]);
        std::vector<Output> parts = ops::Split(s, ops::Const(s, 1), z, 4);
        Output g = o.no_cell ? ops::Relu(s, parts[2]) : ops::Tanh(s, parts[2]);
        Output c = ops::AddV2(s.WithOpName("c_next"), ops::Mul(s, ops::Sigmoid(s, parts[1]), v[4]),
                              ops::Mul(s, ops::Sigmoid(s, parts[0]), g));
        Output h = ops::Mul(s.WithOpName("h_next"), ops::Sigmoid(s, parts[3]), ops::Tanh(s, c));
        Output item = o.extra_op ? ops::Relu(s, h) : h;
        Output index = o.write_at_zero ? ops::Const(s, 0) : v[1];
        std::vector<Output> next = {ops::Add(s, v[0], ops::Const(s, 1)),
                                    ops::Add(s, v[1], ops::Const(s, 1)),
                                    ops::TensorListSetItem(s, v[2], index, item), h, c};
        if (o.z_carried) next.push_back(z);
        return next;
      },
      ops::WhileLoopAttrs().Invariants({max, steps, list, es, w, u, b}));
  ops::TensorListStack(root.WithOpName("hs"), out[2], es, DT_FLOAT);
  ops::Identity(root.WithOpName("h"), out[3]);
  ops::Identity(root.WithOpName("c"), out[4]);
  if (o.z_carried) ops::Identity(root.WithOpName("z"), out[n - 1]);
  return root;
}

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
