#include "graph/gru_cell_fusion.h"

#include <array>
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
constexpr int kUnits = 4;

std::unique_ptr<Graph> Import(const Scope& root) { return ImportForPassTest(root, kCpu); }

Output Weights(const Scope& s, int64_t rows, int64_t cols) {
  return ops::Const<float>(s, std::vector<float>(rows * cols, 0.5f), TensorShape({rows, cols}));
}

struct CellOptions {
  std::array<int, 3> blocks = {0, 1, 2};  // the column blocks of z, r and c
  bool x_unknown_width = false;           // x a Placeholder: its width not proven
  bool z_read_twice = false;              // Sigmoid(z) also read by a Neg
  bool r_slice_off = false;               // r's slice takes z's block
  bool sub_from_two = false;              // 2 - z
  bool h_not_the_products = false;        // z * h2 where hh is h U
  bool tanh_control_out = false;          // Tanh(c) also gates a NoOp
  bool control_on_sub = false;            // 1 - z waits on x (fused: the cell waits on it)
  bool one_waits = false;                 // the 1 of 1 - z waits on a pivot (a loop body's Const)
  bool operands_swapped = false;          // z's Add takes hh's block first, z * h is h * z
};

// One Keras GRU step (reset_after) on fed x_t and h; h' read by an Identity.
Scope Cell(const CellOptions& o) {
  Scope root = Scope::NewRootScope();
  Output xt = ops::Placeholder(root.WithOpName("xt"), DT_FLOAT);
  Output h = ops::Placeholder(root.WithOpName("h"), DT_FLOAT);
  Output x =
      o.x_unknown_width
          ? xt
          : ops::BiasAdd(root.WithOpName("x"), ops::MatMul(root, xt, Weights(root, 3, 3 * kUnits)),
                         ops::Const<float>(root, std::vector<float>(3 * kUnits, 0.1f),
                                           TensorShape({3 * kUnits})));
  Output hh = ops::AddV2(
      root.WithOpName("hh"), ops::MatMul(root, h, Weights(root, kUnits, 3 * kUnits)),
      ops::Const<float>(root, std::vector<float>(3 * kUnits, -0.1f), TensorShape({3 * kUnits})));
  std::vector<Output> xs =
      ops::Split(root.WithOpName("split"), ops::Const(root.WithOpName("axis"), -1), x, 3);
  auto slice = [&](int block) {
    const int begin = block * kUnits, end = block == 2 ? 0 : (block + 1) * kUnits;
    ops::StridedSliceMasks m;
    m.begin = block == 0 ? 3 : 1;
    m.end = block == 2 ? 3 : 1;
    return ops::StridedSlice(root, hh, ops::Const(root, {0, begin}), ops::Const(root, {0, end}),
                             ops::Const(root, {1, 1}), m);
  };
  const int zb = o.blocks[0], rb = o.blocks[1], cb = o.blocks[2];
  Output z =
      ops::Sigmoid(root.WithOpName("z"), o.operands_swapped ? ops::AddV2(root, slice(zb), xs[zb])
                                                            : ops::AddV2(root, xs[zb], slice(zb)));
  if (o.z_read_twice) ops::Neg(root.WithOpName("neg"), z);
  Output r =
      ops::Sigmoid(root.WithOpName("r"), ops::AddV2(root, xs[rb], slice(o.r_slice_off ? zb : rb)));
  Output c =
      ops::Tanh(root.WithOpName("c"), ops::AddV2(root, xs[cb], ops::Mul(root, r, slice(cb))));
  if (o.tanh_control_out) ops::NoOp(root.WithOpName("after_c").WithControlDependencies({c}));
  Output state = o.h_not_the_products ? ops::Placeholder(root.WithOpName("h2"), DT_FLOAT) : h;
  const Scope sub_scope = o.control_on_sub ? root.WithControlDependencies({xt}) : root;
  const Scope one_scope =
      o.one_waits
          ? root.WithControlDependencies({ops::Placeholder(root.WithOpName("pivot"), DT_FLOAT)})
          : root;
  Output keep =
      ops::Sub(sub_scope.WithOpName("keep"), ops::Const(one_scope, o.sub_from_two ? 2.f : 1.f), z);
  Output next = ops::AddV2(root.WithOpName("next"),
                           o.operands_swapped ? ops::Mul(root, state, z) : ops::Mul(root, z, state),
                           ops::Mul(root, keep, c));
  ops::Identity(root.WithOpName("h_out"), next);
  return root;
}

TEST(GruCellFusionTest, TheFifteenGateNodesBecomeOneCell) {
  for (const std::array<int, 3>& blocks : {std::array<int, 3>{0, 1, 2}, {2, 0, 1}}) {
    CellOptions o;
    o.blocks = blocks;
    o.control_on_sub = true;
    std::unique_ptr<Graph> g = Import(Cell(o));
    const int nodes = g->num_op_nodes();
    ASSERT_THAT(FuseGruCells(g.get()), IsOkAndHolds(1));
    // With them the Consts only they read: the axis, nine slice bounds and the 1.
    EXPECT_EQ(g->num_op_nodes(), nodes - 15 - 11 + 1);
    EXPECT_EQ(g->FindNode("axis"), nullptr);
    const Node* cell = g->FindNode("split/gru_cell");
    ASSERT_NE(cell, nullptr);
    EXPECT_EQ(cell->op(), "_RillGruCell");
    EXPECT_EQ(cell->assigned_device_name(), kCpu);
    EXPECT_EQ(cell->def().attr().at("units").i(), kUnits);
    const auto& order = cell->def().attr().at("gate_order").list().i();
    EXPECT_THAT(std::vector<int64_t>(order.begin(), order.end()),
                ElementsAre(blocks[0], blocks[1], blocks[2]));
    // x, hh and h; the control input of 1 - z.
    EXPECT_THAT(InputsOf(*g, cell->name()), UnorderedElementsAre("x:0", "hh:0", "h:0", "^xt"));
    EXPECT_THAT(InputsOf(*g, "h_out"), ElementsAre("split/gru_cell:0"));
    for (const char* gone : {"split", "z", "r", "c", "keep", "next"}) {
      EXPECT_EQ(g->FindNode(gone), nullptr) << gone;
    }
    EXPECT_THAT(FuseGruCells(g.get()), IsOkAndHolds(0));
  }
}

// An Add or Mul taking its operands the other way round is listed in
// _rill_error_operands_swapped, so the kernel's broadcast errors name the shapes in its order.
TEST(GruCellFusionTest, OperandsTakenTheOtherWayRoundAreListed) {
  for (bool swapped : {false, true}) {
    CellOptions o;
    o.operands_swapped = swapped;
    std::unique_ptr<Graph> g = Import(Cell(o));
    ASSERT_THAT(FuseGruCells(g.get()), IsOkAndHolds(1));
    const Node* cell = g->FindNode("split/gru_cell");
    ASSERT_NE(cell, nullptr);
    const auto& attrs = cell->def().attr();
    if (!swapped) {
      EXPECT_EQ(attrs.count("_rill_error_operands_swapped"), 0u);
      continue;
    }
    const auto& list = attrs.at("_rill_error_operands_swapped").list().i();
    EXPECT_THAT(std::vector<int64_t>(list.begin(), list.end()), ElementsAre(1, 2));
  }
}

// The fused cell no longer reads the 1 of 1 - z: it waits on what that Const waited on, so it is
// dead when the unfused Sub was.
TEST(GruCellFusionTest, TheCellWaitsOnWhatItsDroppedConstantsWaitOn) {
  CellOptions o;
  o.one_waits = true;
  std::unique_ptr<Graph> g = Import(Cell(o));
  ASSERT_THAT(FuseGruCells(g.get()), IsOkAndHolds(1));
  EXPECT_THAT(InputsOf(*g, "split/gru_cell"), UnorderedElementsAre("x:0", "hh:0", "h:0", "^pivot"));
}

TEST(GruCellFusionTest, UnprovenShapesOtherReadersOrArithmeticAreLeftAlone) {
  for (int k = 0; k < 6; ++k) {
    CellOptions o;
    if (k == 0) o.x_unknown_width = true;
    if (k == 1) o.z_read_twice = true;
    if (k == 2) o.r_slice_off = true;
    if (k == 3) o.sub_from_two = true;
    if (k == 4) o.h_not_the_products = true;
    if (k == 5) o.tanh_control_out = true;
    std::unique_ptr<Graph> g = Import(Cell(o));
    const int nodes = g->num_op_nodes();
    EXPECT_THAT(FuseGruCells(g.get()), IsOkAndHolds(0)) << k;
    EXPECT_EQ(g->num_op_nodes(), nodes) << k;
    EXPECT_NE(g->FindNode("split"), nullptr) << k;
  }
}

struct UpdateOptions {
  bool sub_from_two = false;        // 2 - z
  bool tanh_read_twice = false;     // Tanh(c) also read by a Neg
  bool product_read_twice = false;  // z * h also read by a Neg
  bool control_out = false;         // (1 - z) * c also gates a NoOp
  bool operands_swapped = false;    // u * h, Tanh(c) * (1 - u), the second product first
};

// A TF1 GRUCell's update: u * h + (1 - u) * Tanh(c), u a Split output of a Sigmoid, c fed; the
// Sub waits on c.
Scope Update(const UpdateOptions& o) {
  Scope root = Scope::NewRootScope();
  Output gates = ops::Placeholder(root.WithOpName("gates"), DT_FLOAT);
  Output c = ops::Placeholder(root.WithOpName("c"), DT_FLOAT);
  Output h = ops::Placeholder(root.WithOpName("h"), DT_FLOAT);
  std::vector<Output> ru = ops::Split(root.WithOpName("ru"), ops::Const(root, 1),
                                      ops::Sigmoid(root.WithOpName("value"), gates), 2);
  ops::Mul(root.WithOpName("r_state"), ru[0], h);
  Output t = ops::Tanh(root.WithOpName("t"), c);
  if (o.tanh_read_twice) ops::Neg(root.WithOpName("neg"), t);
  Output keep = ops::Sub(root.WithOpName("keep").WithControlDependencies({c}),
                         ops::Const(root.WithOpName("one"), o.sub_from_two ? 2.f : 1.f), ru[1]);
  Output kc = o.operands_swapped ? ops::Mul(root.WithOpName("kc"), t, keep)
                                 : ops::Mul(root.WithOpName("kc"), keep, t);
  if (o.control_out) ops::NoOp(root.WithOpName("after").WithControlDependencies({kc}));
  Output uh = o.operands_swapped ? ops::Mul(root.WithOpName("uh"), ru[1], h)
                                 : ops::Mul(root.WithOpName("uh"), h, ru[1]);
  if (o.product_read_twice) ops::Neg(root.WithOpName("neg2"), uh);
  ops::Identity(root.WithOpName("h_out"), o.operands_swapped
                                              ? ops::AddV2(root.WithOpName("next"), kc, uh)
                                              : ops::AddV2(root.WithOpName("next"), uh, kc));
  return root;
}

TEST(GruUpdateFusionTest, TheFiveUpdateNodesBecomeOne) {
  std::unique_ptr<Graph> g = Import(Update({}));
  const int nodes = g->num_op_nodes();
  ASSERT_THAT(FuseGruUpdates(g.get()), IsOkAndHolds(1));
  EXPECT_EQ(g->num_op_nodes(), nodes - 5 - 1 + 1);  // the 1 goes with them
  const Node* u = g->FindNode("t/gru_update");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->op(), "_RillGruUpdate");
  EXPECT_EQ(u->assigned_device_name(), kCpu);
  EXPECT_THAT(InputsOf(*g, u->name()), UnorderedElementsAre("ru:1", "c:0", "h:0", "^c"));
  EXPECT_THAT(InputsOf(*g, "h_out"), ElementsAre("t/gru_update:0"));
  for (const char* gone : {"t", "keep", "kc", "uh", "next", "one"}) {
    EXPECT_EQ(g->FindNode(gone), nullptr) << gone;
  }
  EXPECT_NE(g->FindNode("r_state"), nullptr);
  EXPECT_THAT(FuseGruUpdates(g.get()), IsOkAndHolds(0));
}

// The kernel's errors name each node's operands in its order: h * u (the default graph), or
// u * h, Tanh(c) * (1 - u) and kc + uh.
TEST(GruUpdateFusionTest, OperandsTakenTheOtherWayRoundAreListed) {
  for (bool swapped : {false, true}) {
    UpdateOptions o;
    o.operands_swapped = swapped;
    std::unique_ptr<Graph> g = Import(Update(o));
    ASSERT_THAT(FuseGruUpdates(g.get()), IsOkAndHolds(1));
    const Node* u = g->FindNode("t/gru_update");
    ASSERT_NE(u, nullptr);
    const auto& list = u->def().attr().at("_rill_error_operands_swapped").list().i();
    const std::vector<int64_t> want =
        swapped ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{0};
    EXPECT_EQ(std::vector<int64_t>(list.begin(), list.end()), want);
  }
}

TEST(GruUpdateFusionTest, OtherArithmeticOrReadersAreLeftAlone) {
  for (int k = 0; k < 4; ++k) {
    UpdateOptions o;
    if (k == 0) o.sub_from_two = true;
    if (k == 1) o.tanh_read_twice = true;
    if (k == 2) o.product_read_twice = true;
    if (k == 3) o.control_out = true;
    std::unique_ptr<Graph> g = Import(Update(o));
    const int nodes = g->num_op_nodes();
    EXPECT_THAT(FuseGruUpdates(g.get()), IsOkAndHolds(0)) << k;
    EXPECT_EQ(g->num_op_nodes(), nodes) << k;
  }
}

TEST(GruUpdateFusionTest, AKerasCellIsFusedWhole) {
  std::unique_ptr<Graph> g = Import(Cell({}));
  ASSERT_THAT(FuseGruCells(g.get()), IsOkAndHolds(1));
  EXPECT_THAT(FuseGruUpdates(g.get()), IsOkAndHolds(0));
  // Its shapes unproven, the cell's update alone is fused.
  CellOptions o;
  o.x_unknown_width = true;
  g = Import(Cell(o));
  ASSERT_THAT(FuseGruCells(g.get()), IsOkAndHolds(0));
  EXPECT_THAT(FuseGruUpdates(g.get()), IsOkAndHolds(1));
  EXPECT_NE(g->FindNode("c/gru_update"), nullptr);
}

}  // namespace
}  // namespace rill
