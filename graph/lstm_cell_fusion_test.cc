#include "graph/lstm_cell_fusion.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/graph.h"
#include "graph/graph_def_import.h"
#include "graph/pass_test_util.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";

std::unique_ptr<Graph> Import(const Scope& root) { return ImportForPassTest(root, kCpu); }

struct CellOptions {
  bool z_from_placeholder = false;  // z's rank not proven
  bool f_read_twice = false;        // Sigmoid(f) also read by a Neg
  bool relu_for_g = false;          // Relu instead of Tanh(g)
  bool check_before_h = false;      // Tanh(c') waits on a reader of c' (as an Assert on it)
  bool axis_waits = false;          // the axis Const waits on a pivot (a TF1 loop body's Const)
  bool axis_enter = false;          // ... and reaches the Split through an Enter
  bool c_first = false;             // c * Sigmoid(f)
};

// One cell on z = x w + b and c, both fed; c' and h read by Identity nodes.
Scope Cell(const CellOptions& o) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output c = ops::Placeholder(root.WithOpName("c"), DT_FLOAT);
  Output z = o.z_from_placeholder
                 ? x
                 : ops::BiasAdd(root.WithOpName("z"),
                                ops::MatMul(root, x, ops::Placeholder(root, DT_FLOAT)),
                                ops::Placeholder(root, DT_FLOAT));
  const Scope axis_scope =
      o.axis_waits ? root.WithControlDependencies({ops::Identity(root.WithOpName("pivot"), x)})
                   : root;
  Output axis = ops::Const(axis_scope.WithOpName("axis"), -1);
  if (o.axis_enter) axis = ops::Enter(root.WithOpName("axis_enter"), axis, "loop");
  std::vector<Output> p = ops::Split(root.WithOpName("split"), axis, z, 4);
  Output f = ops::Sigmoid(root.WithOpName("f"), p[1]);
  if (o.f_read_twice) ops::Neg(root.WithOpName("neg"), f);
  Output g = o.relu_for_g ? ops::Relu(root, p[2]) : ops::Tanh(root.WithOpName("g"), p[2]);
  Output next_c =
      ops::AddV2(root.WithOpName("next_c"), o.c_first ? ops::Mul(root, c, f) : ops::Mul(root, f, c),
                 ops::Mul(root.WithControlDependencies({c}), ops::Sigmoid(root, p[0]), g));
  const Scope tanh_scope =
      o.check_before_h ? root.WithControlDependencies({ops::Neg(root.WithOpName("check"), next_c)})
                       : root;
  Output h =
      ops::Mul(root.WithOpName("h"), ops::Sigmoid(root, p[3]), ops::Tanh(tanh_scope, next_c));
  ops::Identity(root.WithOpName("c_out"), next_c);
  ops::Identity(root.WithOpName("h_out"), h);
  return root;
}

TEST(LstmCellFusionTest, TheTenGateNodesBecomeOneCell) {
  std::unique_ptr<Graph> g = Import(Cell({}));
  const int nodes = g->num_op_nodes();
  ASSERT_THAT(FuseLstmCells(g.get()), IsOkAndHolds(1));
  EXPECT_EQ(g->num_op_nodes(), nodes - 10 + 1);
  const Node* cell = g->FindNode("split/lstm_cell");
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(cell->op(), "_RillLstmCell");
  EXPECT_EQ(cell->assigned_device_name(), kCpu);
  const auto& order = cell->def().attr().at("gate_order").list().i();
  EXPECT_THAT(std::vector<int64_t>(order.begin(), order.end()), ElementsAre(0, 1, 2, 3));
  // z and c; the control input of the i * g Mul.
  EXPECT_THAT(InputsOf(*g, cell->name()), UnorderedElementsAre("z:0", "c:0", "^c"));
  EXPECT_THAT(InputsOf(*g, "c_out"), ElementsAre("split/lstm_cell:0"));
  EXPECT_THAT(InputsOf(*g, "h_out"), ElementsAre("split/lstm_cell:1"));
  EXPECT_THAT(FuseLstmCells(g.get()), IsOkAndHolds(0));
}

// c * Sigmoid(f) is listed in _rill_error_operands_swapped: the kernel's broadcast error then
// names c's shape first, as that Mul does.
TEST(LstmCellFusionTest, AMulTakingCFirstIsListedAsSwapped) {
  for (bool c_first : {false, true}) {
    CellOptions o;
    o.c_first = c_first;
    std::unique_ptr<Graph> g = Import(Cell(o));
    ASSERT_THAT(FuseLstmCells(g.get()), IsOkAndHolds(1));
    const Node* cell = g->FindNode("split/lstm_cell");
    ASSERT_NE(cell, nullptr);
    const auto& attrs = cell->def().attr();
    ASSERT_EQ(attrs.count("_rill_error_operands_swapped"), c_first ? 1u : 0u);
    if (c_first) {
      const auto& list = attrs.at("_rill_error_operands_swapped").list().i();
      EXPECT_THAT(std::vector<int64_t>(list.begin(), list.end()), ElementsAre(1));
    }
  }
}

// The Split is dead when its axis is: the cell waits on what the axis Const waits on. Through an
// Enter that wait is in another frame, so the cell is left alone.
TEST(LstmCellFusionTest, TheCellWaitsOnWhatItsAxisWaitsOn) {
  CellOptions o;
  o.axis_waits = true;
  std::unique_ptr<Graph> g = Import(Cell(o));
  ASSERT_THAT(FuseLstmCells(g.get()), IsOkAndHolds(1));
  EXPECT_THAT(InputsOf(*g, "split/lstm_cell"), UnorderedElementsAre("z:0", "c:0", "^c", "^pivot"));

  o.axis_enter = true;
  std::unique_ptr<Graph> entered = Import(Cell(o));
  EXPECT_THAT(FuseLstmCells(entered.get()), IsOkAndHolds(0));
  o.axis_waits = false;
  std::unique_ptr<Graph> plain_enter = Import(Cell(o));
  EXPECT_THAT(FuseLstmCells(plain_enter.get()), IsOkAndHolds(1));
}

TEST(LstmCellFusionTest, UnrolledCellsReadingEachOthersStateAreFusedInTurn) {
  // Two steps of an unrolled LSTM: the second cell's c is the first's c'.
  Scope root = Scope::NewRootScope();
  Output c = ops::Placeholder(root.WithOpName("c0"), DT_FLOAT);
  Output h;
  for (int step = 0; step < 2; ++step) {
    Scope s = root.NewSubScope(absl::StrCat("step", step));
    Output z = ops::MatMul(s, ops::Placeholder(s, DT_FLOAT), ops::Placeholder(s, DT_FLOAT));
    std::vector<Output> p = ops::Split(s.WithOpName("split"), ops::Const(s, 1), z, 4);
    c = ops::AddV2(s, ops::Mul(s, ops::Sigmoid(s, p[1]), c),
                   ops::Mul(s, ops::Sigmoid(s, p[0]), ops::Tanh(s, p[2])));
    h = ops::Mul(s, ops::Sigmoid(s, p[3]), ops::Tanh(s, c));
  }
  ops::Identity(root.WithOpName("c_out"), c);
  ops::Identity(root.WithOpName("h_out"), h);
  std::unique_ptr<Graph> g = Import(root);
  ASSERT_THAT(FuseLstmCells(g.get()), IsOkAndHolds(2));
  const std::vector<std::string> second = InputsOf(*g, "step1/split/lstm_cell");
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[1], "step0/split/lstm_cell:0");
  EXPECT_THAT(InputsOf(*g, "c_out"), ElementsAre("step1/split/lstm_cell:0"));
  EXPECT_THAT(InputsOf(*g, "h_out"), ElementsAre("step1/split/lstm_cell:1"));
}

TEST(LstmCellFusionTest, OtherShapesReadersOrActivationsAreLeftAlone) {
  for (int k = 0; k < 4; ++k) {
    CellOptions o;
    if (k == 0) o.z_from_placeholder = true;
    if (k == 1) o.f_read_twice = true;
    if (k == 2) o.relu_for_g = true;
    if (k == 3) o.check_before_h = true;  // fused, the cell would wait on its own output
    std::unique_ptr<Graph> g = Import(Cell(o));
    EXPECT_THAT(FuseLstmCells(g.get()), IsOkAndHolds(0)) << k;
    EXPECT_NE(g->FindNode("split"), nullptr) << k;
  }
}

}  // namespace
}  // namespace rill
