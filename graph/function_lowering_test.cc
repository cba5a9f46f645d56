#include "graph/function_lowering.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/graph.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

// Pieces of the text-format graphs below.

// attr { key: `key` value { type: `dtype` } }
std::string TypeAttr(const std::string& key, const std::string& dtype = "DT_FLOAT") {
  return "attr { key: '" + key + "' value { type: " + dtype + " } } ";
}

// attr { key: `key` value { list { type: ... } } }, a type per entry of `dtypes`.
std::string TypeListAttr(const std::string& key, const std::vector<std::string>& dtypes) {
  std::string list;
  for (const std::string& t : dtypes) list += "type: " + t + " ";
  return "attr { key: '" + key + "' value { list { " + list + "} } } ";
}

// attr { key: `key` value { `func` } }
std::string FuncAttr(const std::string& key, const std::string& func) {
  return "attr { key: '" + key + "' value { " + func + " } } ";
}

// A Placeholder of `dtype` without a shape.
std::string PlaceholderNode(const std::string& name, const std::string& dtype = "DT_FLOAT") {
  return "node { name: '" + name + "' op: 'Placeholder' " + TypeAttr("dtype", dtype) + "} ";
}

// A scalar float Const `name` of `value`, as a graph's node (field "node") or a function's
// (field "node_def").
std::string ScalarConst(const std::string& field, const std::string& name,
                        const std::string& value) {
  return field + " { name: '" + name + "' op: 'Const' " + TypeAttr("dtype") +
         "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: " +
         value + " } } } } ";
}

// A node (field "node") or a function's node (field "node_def") `name` of the float op `op`
// (attr T = float) reading `inputs`.
std::string FloatNode(const std::string& field, const std::string& name, const std::string& op,
                      const std::vector<std::string>& inputs) {
  std::string text = field + " { name: '" + name + "' op: '" + op + "' ";
  for (const std::string& in : inputs) text += "input: '" + in + "' ";
  return text + TypeAttr("T") + "} ";
}

// add_one with T = float: a call's f, a branch, a loop's body.
constexpr char kAddOneFunc[] =
    "func { name: 'add_one' attr { key: 'T' value { type: DT_FLOAT } } }";

// add_one(x: float) -> y: float, with a constant that has no inputs; forever(x) calls itself.
const std::string& Library() {
  static const std::string* const library = new std::string(
      "library { function { signature { name: 'add_one' input_arg { name: 'x' type: DT_FLOAT } "
      "output_arg { name: 'y' type: DT_FLOAT } } " +
      ScalarConst("node_def", "one", "1") +
      "node_def { name: 'add' op: 'AddV2' input: 'x' input: 'one:output:0' attr { key: 'T' "
      "value { placeholder: 'T' } } } ret { key: 'y' value: 'add:z:0' } } "
      "function { signature { name: 'forever' input_arg { name: 'x' type: DT_FLOAT } "
      "output_arg { name: 'y' type: DT_FLOAT } } node_def { name: 'again' op: 'forever' "
      "input: 'x' } ret { key: 'y' value: 'again:y:0' } } } ");
  return *library;
}

// Imports `g` (inferring shapes), lowers it in place and exports it.
absl::StatusOr<GraphDef> LowerGraphDef(const GraphDef& g, const LoweringOptions& options = {}) {
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Graph> graph, ImportGraphDef(g));
  RILL_RETURN_IF_ERROR(LowerFunctionalOps(graph.get(), options));
  GraphDef out;
  ExportGraphDef(*graph, &out);
  return out;
}

// HasFunctionalOps of the imported `g`.
bool HasFunctionalOpsAfterImport(const GraphDef& g) {
  absl::StatusOr<std::unique_ptr<Graph>> graph = ImportGraphDef(g);
  EXPECT_TRUE(graph.ok()) << graph.status();
  return graph.ok() && HasFunctionalOps(**graph);
}

const NodeDef* Find(const GraphDef& g, const std::string& name) {
  for (const NodeDef& n : g.node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

std::vector<std::string> Inputs(const GraphDef& g, const std::string& name) {
  const NodeDef* n = Find(g, name);
  if (n == nullptr) return {"<no node " + name + ">"};
  return {n->input().begin(), n->input().end()};
}

// A PartitionedCall (or StatefulPartitionedCall) `name` of `func` reading `inputs` (control
// inputs included), with the Tin and Tout lists, on `device` when not empty.
std::string CallNode(const std::string& name, const std::string& op, const std::string& func,
                     const std::vector<std::string>& inputs, const std::vector<std::string>& tin,
                     const std::vector<std::string>& tout, const std::string& device = "") {
  std::string text = "node { name: '" + name + "' op: '" + op + "' ";
  for (const std::string& in : inputs) text += "input: '" + in + "' ";
  if (!device.empty()) text += "device: '" + device + "' ";
  return text + FuncAttr("f", func) + TypeListAttr("Tin", tin) + TypeListAttr("Tout", tout) + "} ";
}

TEST(FunctionLoweringTest, PartitionedCallIsInlinedUnderItsName) {
  GraphDef g = Parse(Library() + PlaceholderNode("a") + "node { name: 'gate' op: 'NoOp' } " +
                     CallNode("call", "PartitionedCall", kAddOneFunc, {"a", "^gate"}, {"DT_FLOAT"},
                              {"DT_FLOAT"}, "/cpu:0") +
                     FloatNode("node", "use", "Identity", {"call"}));
  EXPECT_TRUE(HasFunctionalOpsAfterImport(g));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerGraphDef(g));
  EXPECT_FALSE(HasFunctionalOpsAfterImport(out));
  EXPECT_THAT(Inputs(out, "call/input_control_node"), ElementsAre("^a", "^gate"));
  EXPECT_THAT(Inputs(out, "call/one"), ElementsAre("^call/input_control_node"));
  EXPECT_THAT(Inputs(out, "call/add"), ElementsAre("a", "call/one"));
  EXPECT_EQ(Find(out, "call/add")->attr().at("T").type(), DT_FLOAT);  // placeholder bound
  EXPECT_EQ(Find(out, "call/add")->device(), "/cpu:0");
  EXPECT_EQ(Find(out, "call")->op(), "IdentityN");
  EXPECT_THAT(Inputs(out, "call"), ElementsAre("call/add"));
  EXPECT_THAT(Inputs(out, "use"), ElementsAre("call"));
}

TEST(FunctionLoweringTest, IfBecomesSwitchesBranchesAndMerges) {
  GraphDef g = Parse(Library() + PlaceholderNode("p", "DT_INT32") + PlaceholderNode("a") +
                     "node { name: 'if' op: 'StatelessIf' input: 'p' input: 'a' " +
                     TypeAttr("Tcond", "DT_INT32") + TypeListAttr("Tin", {"DT_FLOAT"}) +
                     TypeListAttr("Tout", {"DT_FLOAT"}) + FuncAttr("then_branch", kAddOneFunc) +
                     FuncAttr("else_branch", kAddOneFunc) + "}");
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerGraphDef(g));
  EXPECT_EQ(Find(out, "if/pred")->op(), "ToBool");
  EXPECT_THAT(Inputs(out, "if/pred"), ElementsAre("p"));
  EXPECT_THAT(Inputs(out, "if/input_0"), ElementsAre("a", "if/pred"));
  EXPECT_THAT(Inputs(out, "if/then/add"), ElementsAre("if/input_0:1", "if/then/one"));
  EXPECT_THAT(Inputs(out, "if/then/one"), ElementsAre("^if/switch_t"));
  EXPECT_THAT(Inputs(out, "if/else/add"), ElementsAre("if/input_0", "if/else/one"));
  EXPECT_THAT(Inputs(out, "if/output_0"), ElementsAre("if/else/add", "if/then/add"));
  EXPECT_THAT(Inputs(out, "if"), ElementsAre("if/output_0", "^if/branch_executed"));
}

// A Case over three add_one branches, after a control input: the index (gated by the control
// input) goes through one _SwitchN on itself for the pivots and one per input, the branches hang
// on the pivots and each output merges all branches'.
// A Case (or StatelessCase) `name` on index i and input a with float Tin and Tout, after the
// inputs in `more_inputs`; `branches` is the branch list's text (func { ... } per branch), left
// out when empty.
std::string CaseNode(const std::string& op, const std::string& more_inputs,
                     const std::string& branches) {
  return "node { name: 'case' op: '" + op + "' input: 'i' input: 'a' " + more_inputs +
         TypeListAttr("Tin", {"DT_FLOAT"}) + TypeListAttr("Tout", {"DT_FLOAT"}) +
         (branches.empty() ? "" : "attr { key: 'branches' value { list { " + branches + "} } } ") +
         "} ";
}

TEST(FunctionLoweringTest, CaseBecomesSwitchNsBranchesAndMerges) {
  GraphDef g = Parse(
      Library() + PlaceholderNode("i", "DT_INT32") + PlaceholderNode("a") +
      "node { name: 'before' op: 'NoOp' } " +
      CaseNode("Case", "input: '^before' ", std::string(kAddOneFunc) + kAddOneFunc + kAddOneFunc) +
      FloatNode("node", "y", "Neg", {"case"}));
  EXPECT_TRUE(HasFunctionalOpsAfterImport(g));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerGraphDef(g));
  EXPECT_THAT(Inputs(out, "case/index"), ElementsAre("i", "^before"));
  EXPECT_EQ(Find(out, "case/branch_index")->op(), "_SwitchN");
  EXPECT_EQ(Find(out, "case/branch_index")->attr().at("num_outs").i(), 3);
  EXPECT_THAT(Inputs(out, "case/branch_index"), ElementsAre("case/index", "case/index"));
  EXPECT_THAT(Inputs(out, "case/pivot_0"), ElementsAre("case/branch_index"));
  EXPECT_THAT(Inputs(out, "case/pivot_2"), ElementsAre("case/branch_index:2"));
  EXPECT_THAT(Inputs(out, "case/input_0"), ElementsAre("a", "case/index"));
  EXPECT_THAT(Inputs(out, "case/branch_1/add"), ElementsAre("case/input_0:1", "case/branch_1/one"));
  EXPECT_THAT(Inputs(out, "case/branch_1/one"), ElementsAre("^case/pivot_1"));
  EXPECT_THAT(Inputs(out, "case/output_0"),
              ElementsAre("case/branch_0/add", "case/branch_1/add", "case/branch_2/add"));
  EXPECT_EQ(Find(out, "case/output_0")->attr().at("N").i(), 3);
  EXPECT_THAT(Inputs(out, "case/branch_executed"),
              ElementsAre("case/branch_0_done", "case/branch_1_done", "case/branch_2_done"));
  EXPECT_THAT(Inputs(out, "case"), ElementsAre("case/output_0", "^case/branch_executed"));
  EXPECT_EQ(Find(out, "case")->op(), "IdentityN");
  EXPECT_THAT(Inputs(out, "y"), ElementsAre("case"));
}

// Branches returning different numbers of outputs, and a Case without branches, are refused
// naming the node.
TEST(FunctionLoweringTest, CaseBranchesMustAgree) {
  const std::string head = Library() + PlaceholderNode("i", "DT_INT32") + PlaceholderNode("a");
  GraphDef g = Parse(
      head + CaseNode("StatelessCase", "", std::string(kAddOneFunc) + "func { name: 'two' } "));
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      R"pb(
        signature {
          name: "two"
          input_arg { name: "x" type: DT_FLOAT }
          output_arg { name: "y" type: DT_FLOAT }
          output_arg { name: "z" type: DT_FLOAT }
        }
        ret { key: "y" value: "x" }
        ret { key: "z" value: "x" }
      )pb",
      g.mutable_library()->add_function()));
  EXPECT_THAT(LowerGraphDef(g).status().message(),
              HasSubstr("Node 'case' (StatelessCase): branch 0 'add_one' returns 1 outputs but "
                        "branch 1 'two' returns 2"));
  GraphDef none = Parse(head + CaseNode("Case", "", ""));
  EXPECT_THAT(LowerGraphDef(none).status().message(),
              HasSubstr("Node 'case' (Case): has no branches"));
}

// Tin and Tout that do not match a branch's signature are refused as TensorFlow refuses them
// (the readers of the Case or If were typed by Tout): Tout int32 over float branches, two
// outputs where the branches return one, an int32 Tin over a float argument.
TEST(FunctionLoweringTest, CaseAndIfBranchesMustMatchTinAndTout) {
  const std::string head = Library() + PlaceholderNode("i", "DT_INT32") + PlaceholderNode("a");
  const std::string branches = std::string(kAddOneFunc) + kAddOneFunc;
  auto with_types = [&](const std::string& op, const std::string& tin, const std::string& tout) {
    std::string text = head + CaseNode(op, "", branches);
    const std::string float_tin = TypeListAttr("Tin", {"DT_FLOAT"});
    const std::string float_tout = TypeListAttr("Tout", {"DT_FLOAT"});
    text.replace(text.find(float_tin), float_tin.size(), tin);
    text.replace(text.find(float_tout), float_tout.size(), tout);
    return Parse(text);
  };
  EXPECT_THAT(LowerGraphDef(with_types("StatelessCase", TypeListAttr("Tin", {"DT_FLOAT"}),
                                       TypeListAttr("Tout", {"DT_INT32"})))
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Node 'case' (StatelessCase): Tout [int32] does not match the "
                                 "outputs of function 'add_one' [float]")));
  EXPECT_THAT(LowerGraphDef(with_types("Case", TypeListAttr("Tin", {"DT_FLOAT"}),
                                       TypeListAttr("Tout", {"DT_FLOAT", "DT_FLOAT"})))
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Node 'case' (Case): Tout [float, float] does not match the "
                                 "outputs of function 'add_one' [float]")));
  EXPECT_THAT(LowerGraphDef(with_types("Case", TypeListAttr("Tin", {"DT_INT32"}),
                                       TypeListAttr("Tout", {"DT_FLOAT"})))
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input 0 of node case was passed float from a:0 incompatible "
                                 "with expected int32.")));
  GraphDef bad_if = Parse(
      Library() + PlaceholderNode("p", "DT_INT32") + PlaceholderNode("a") +
      "node { name: 'if' op: 'StatelessIf' input: 'p' input: 'a' " + TypeAttr("Tcond", "DT_INT32") +
      TypeListAttr("Tin", {"DT_FLOAT"}) + TypeListAttr("Tout", {"DT_INT32"}) +
      FuncAttr("then_branch", kAddOneFunc) + FuncAttr("else_branch", kAddOneFunc) + "}");
  EXPECT_THAT(LowerGraphDef(bad_if).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Node 'if' (StatelessIf): Tout [int32] does not match the "
                                 "outputs of function 'add_one' [float]")));
}

// A function `name` of float inputs `args` returning c = x < 10: a While condition.
std::string BelowTen(const std::string& name, const std::vector<std::string>& args) {
  std::string text = "function { signature { name: '" + name + "' ";
  for (const std::string& arg : args) text += "input_arg { name: '" + arg + "' type: DT_FLOAT } ";
  return text + "output_arg { name: 'c' type: DT_BOOL } } " + ScalarConst("node_def", "ten", "10") +
         FloatNode("node_def", "less", "Less", {"x", "ten:output:0"}) +
         "ret { key: 'c' value: 'less:z:0' } } ";
}

// below_ten(x) = x < 10.
const std::string& BelowTenLibrary() {
  static const std::string* const library =
      new std::string("library { " + BelowTen("below_ten", {"x"}) + "} ");
  return *library;
}

TEST(FunctionLoweringTest, WhileBecomesAFrame) {
  GraphDef g = Parse(BelowTenLibrary());
  g.MergeFrom(Parse(
      Library() + PlaceholderNode("a") + "node { name: 'w' op: 'While' input: 'a' " +
      TypeListAttr("T", {"DT_FLOAT"}) + "attr { key: 'parallel_iterations' value { i: 3 } } " +
      FuncAttr("cond", "func { name: 'below_ten' }") + FuncAttr("body", kAddOneFunc) + "}"));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerGraphDef(g));
  EXPECT_EQ(Find(out, "w/enter_0")->attr().at("frame_name").s(), "w");
  EXPECT_EQ(Find(out, "w/enter_0")->attr().at("parallel_iterations").i(), 3);
  EXPECT_THAT(Inputs(out, "w/merge_0"), ElementsAre("w/enter_0", "w/next_iteration_0"));
  EXPECT_THAT(Inputs(out, "w/cond/ten"), ElementsAre("^w/merge_0"));
  EXPECT_THAT(Inputs(out, "w/cond/less"), ElementsAre("w/merge_0", "w/cond/ten"));
  EXPECT_THAT(Inputs(out, "w/to_bool"), ElementsAre("w/cond/less"));
  EXPECT_THAT(Inputs(out, "w/switch_0"), ElementsAre("w/merge_0", "w/loop_cond"));
  EXPECT_THAT(Inputs(out, "w/body/one"), ElementsAre("^w/identity_0"));
  EXPECT_THAT(Inputs(out, "w/next_iteration_0"), ElementsAre("w/body/add"));
  EXPECT_THAT(Inputs(out, "w"), ElementsAre("w/exit_0"));
}

// A While over (x, step, z): cond x < 10; body (x + step, Identity(step) after the add, step * 2).
// step is passed through unchanged (through an Identity with a control input, as while_v2 writes
// its outputs); z's next value reads step alone.
const std::string& StepLoop() {
  static const std::string* const text = new std::string(
      "library { " + BelowTen("step_below_ten", {"x", "step", "z"}) +
      "function { signature { name: 'step_body' input_arg { name: 'x' type: DT_FLOAT } "
      "input_arg { name: 'step' type: DT_FLOAT } input_arg { name: 'z' type: DT_FLOAT } "
      "output_arg { name: 'x_next' type: DT_FLOAT } output_arg { name: 'step_next' type: DT_FLOAT "
      "} output_arg { name: 'z_next' type: DT_FLOAT } } " +
      ScalarConst("node_def", "two", "2") + FloatNode("node_def", "add", "AddV2", {"x", "step"}) +
      FloatNode("node_def", "keep", "Identity", {"step", "^add"}) +
      FloatNode("node_def", "twice", "Mul", {"step", "two:output:0"}) +
      "ret { key: 'x_next' value: 'add:z:0' } ret { key: 'step_next' value: 'keep:output:0' } "
      "ret { key: 'z_next' value: 'twice:z:0' } } } " +
      PlaceholderNode("x") + PlaceholderNode("step") + PlaceholderNode("z") +
      "node { name: 'w' op: 'While' input: 'x' input: 'step' input: 'z' " +
      TypeListAttr("T", {"DT_FLOAT", "DT_FLOAT", "DT_FLOAT"}) +
      FuncAttr("cond", "func { name: 'step_below_ten' }") +
      FuncAttr("body", "func { name: 'step_body' }") + "}");
  return *text;
}

// A loop variable the body passes through enters as a constant: no Merge, Switch, NextIteration
// or Exit of its own; the body reads it gated by the pivot (the first other variable's identity),
// the cond reads the Enter, and the While's output is the input once the pivot's Exit ran.
TEST(FunctionLoweringTest, WhileVariablesPassedThroughEnterAsConstants) {
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerGraphDef(Parse(StepLoop())));
  EXPECT_FALSE(Find(out, "w/enter_0")->attr().at("is_constant").b());
  EXPECT_TRUE(Find(out, "w/enter_1")->attr().at("is_constant").b());
  EXPECT_FALSE(Find(out, "w/enter_2")->attr().at("is_constant").b());
  for (const char* gone : {"w/merge_1", "w/switch_1", "w/exit_1", "w/next_iteration_1"}) {
    EXPECT_EQ(Find(out, gone), nullptr) << gone;
  }
  EXPECT_THAT(Inputs(out, "w/merge_2"), ElementsAre("w/enter_2", "w/next_iteration_2"));
  EXPECT_THAT(Inputs(out, "w/identity_1"), ElementsAre("w/enter_1", "^w/identity_0"));
  EXPECT_THAT(Inputs(out, "w/body/add"), ElementsAre("w/identity_0", "w/identity_1"));
  EXPECT_THAT(Inputs(out, "w/body/twice"), ElementsAre("w/identity_1", "w/body/two"));
  EXPECT_THAT(Inputs(out, "w/body/two"), ElementsAre("^w/identity_0"));
  EXPECT_THAT(Inputs(out, "w/next_iteration_2"), ElementsAre("w/body/twice"));
  EXPECT_THAT(Inputs(out, "w/invariant_1"), ElementsAre("step", "^w/exit_0"));
  EXPECT_THAT(Inputs(out, "w"), ElementsAre("w/exit_0", "w/invariant_1", "w/exit_2"));
}

// With every variable passed through there is no pivot: the loop is lowered in full.
TEST(FunctionLoweringTest, WhileOfInvariantsAloneIsLoweredInFull) {
  GraphDef g = Parse(StepLoop());
  FunctionDef* body = g.mutable_library()->mutable_function(1);
  (*body->mutable_ret())["x_next"] = "x";
  (*body->mutable_ret())["z_next"] = "z:0";
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerGraphDef(g));
  for (const char* name : {"w/enter_0", "w/enter_1", "w/enter_2"}) {
    EXPECT_FALSE(Find(out, name)->attr().at("is_constant").b()) << name;
  }
  EXPECT_THAT(Inputs(out, "w/merge_1"), ElementsAre("w/enter_1", "w/next_iteration_1"));
  EXPECT_THAT(Inputs(out, "w"), ElementsAre("w/exit_0", "w/exit_1", "w/exit_2"));
}

TEST(FunctionLoweringTest, ErrorsNameTheNodeAndTheFunction) {
  EXPECT_THAT(LowerGraphDef(Parse(R"pb(
                node {
                  name: "call"
                  op: "PartitionedCall"
                  attr {
                    key: "f"
                    value { func { name: "missing" } }
                  }
                }
              )pb")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'call' (PartitionedCall): function 'missing' is not in the graph's "
                       "function library"));
  EXPECT_THAT(LowerGraphDef(Parse(Library() + PlaceholderNode("a") +
                                  "node { name: 'call' op: 'add_one' input: 'a' input: 'a' }")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("NodeDef expected inputs 'float' do not match 2 inputs "
                                 "specified; Op<name=add_one; signature=x:float -> y:float>; "
                                 "NodeDef: {{node call}}")));
  EXPECT_THAT(LowerGraphDef(Parse(Library() + PlaceholderNode("a") +
                                  "node { name: 'call' op: 'add_one' input: 'a' }")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("attr 'T' is the placeholder $T, which the call does not set")));
  EXPECT_THAT(LowerGraphDef(Parse(Library() + PlaceholderNode("a") +
                                  "node { name: 'call' op: 'forever' input: 'a' }")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("function calls nest more than 64 deep")));
}

// An unregistered op inside a function body is TensorFlow's NotFound for that op, naming the node
// and the function, as an unregistered op outside functions is.
TEST(FunctionLoweringTest, UnregisteredOpInABodyIsNotFound) {
  EXPECT_THAT(LowerGraphDef(Parse(R"pb(
                                    library {
                                      function {
                                        signature {
                                          name: "uses_missing"
                                          input_arg { name: "x" type: DT_FLOAT }
                                          output_arg { name: "y" type: DT_FLOAT }
                                        }
                                        node_def { name: "n" op: "NoSuchOp" input: "x" }
                                        ret { key: "y" value: "n:z:0" }
                                      }
                                    }
                                  )pb" +
                                  PlaceholderNode("a") + R"pb(
                node { name: "call" op: "uses_missing" input: "a" }
              )pb")),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("Op type not registered 'NoSuchOp' in binary running on Rill. "
                                 "Make sure the Op and Kernel are registered in the binary "
                                 "running in this process. (node 'n' of function "
                                 "'uses_missing')")));
}

// A float Placeholder named `name` of shape `dims`.
std::string Placeholder(const std::string& name, const std::vector<int>& dims) {
  std::string shape;
  for (int d : dims) shape += "dim { size: " + std::to_string(d) + " } ";
  return "node { name: '" + name + "' op: 'Placeholder' " + TypeAttr("dtype") +
         "attr { key: 'shape' value { shape { " + shape + "} } } }";
}

// swap(x, y) -> (a = y, b = x): a body without nodes, returning its arguments.
constexpr char kSwap[] = R"pb(
  library {
    function {
      signature {
        name: "swap"
        input_arg { name: "x" type: DT_FLOAT }
        input_arg { name: "y" type: DT_FLOAT }
        output_arg { name: "a" type: DT_FLOAT }
        output_arg { name: "b" type: DT_FLOAT }
      }
      ret { key: "a" value: "y" }
      ret { key: "b" value: "x" }
    }
  }
)pb";

TEST(FunctionLoweringTest, ConsumersMoveToTheNodeKeepingTheName) {
  GraphDef g = Parse(std::string(kSwap) + Placeholder("p", {2}) + Placeholder("q", {3}) +
                     CallNode("call", "PartitionedCall", "func { name: 'swap' }", {"p", "q"},
                              {"DT_FLOAT", "DT_FLOAT"}, {"DT_FLOAT", "DT_FLOAT"}) +
                     FloatNode("node", "use", "Identity", {"call:1"}) +
                     "node { name: 'after' op: 'NoOp' input: '^call' }");
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(g));
  EXPECT_TRUE(HasFunctionalOps(*graph));
  RILL_ASSERT_OK(LowerFunctionalOps(graph.get()));
  EXPECT_FALSE(HasFunctionalOps(*graph));
  const Node* call = graph->FindNode("call");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->op(), "IdentityN");
  EXPECT_EQ(call->input_node(0)->name(), "q");
  EXPECT_EQ(call->input_node(1)->name(), "p");
  EXPECT_EQ(graph->FindNode("use")->input_node(0), call);
  EXPECT_EQ(graph->FindNode("use")->input_edge(0)->src_output(), 1);
  ASSERT_EQ(call->output_shapes().size(), 2);
  EXPECT_EQ(call->output_shapes()[0].DebugString(), "[3]");
  EXPECT_EQ(graph->FindNode("use")->output_shapes()[0].DebugString(), "[2]");
  // As after an import: every op node has an in-edge and an out-edge (SOURCE / SINK).
  for (const Node* n : graph->op_nodes()) {
    EXPECT_FALSE(n->in_edges().empty()) << n->name();
    EXPECT_FALSE(n->out_edges().empty()) << n->name();
  }
  GraphDef out;
  ExportGraphDef(*graph, &out);
  EXPECT_THAT(Inputs(out, "call/input_control_node"), ElementsAre("^p", "^q"));
  EXPECT_THAT(Inputs(out, "call"), ElementsAre("q", "p"));
  EXPECT_THAT(Inputs(out, "use"), ElementsAre("call:1"));
  EXPECT_THAT(Inputs(out, "after"), ElementsAre("^call"));
}

TEST(FunctionLoweringTest, NestedCallsAreLowered) {
  // add_two(x) = add_one(add_one(x)), the calls by function name.
  GraphDef g = Parse(
      "library { function { signature { name: 'add_two' input_arg { name: 'x' type: DT_FLOAT } "
      "output_arg { name: 'y' type: DT_FLOAT } } " +
      FloatNode("node_def", "first", "add_one", {"x"}) +
      FloatNode("node_def", "second", "add_one", {"first:y:0"}) +
      "ret { key: 'y' value: 'second:y:0' } } }");
  g.MergeFrom(
      Parse(Library() + Placeholder("a", {4}) + "node { name: 'call' op: 'add_two' input: 'a' }"));
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(g));
  RILL_ASSERT_OK(LowerFunctionalOps(graph.get()));
  EXPECT_FALSE(HasFunctionalOps(*graph));
  GraphDef out;
  ExportGraphDef(*graph, &out);
  EXPECT_THAT(Inputs(out, "call/first/add"), ElementsAre("a", "call/first/one"));
  EXPECT_THAT(Inputs(out, "call/second/input_control_node"), ElementsAre("^call/first"));
  EXPECT_THAT(Inputs(out, "call/second/add"), ElementsAre("call/first", "call/second/one"));
  EXPECT_THAT(Inputs(out, "call"), ElementsAre("call/second"));
  EXPECT_EQ(graph->FindNode("call")->output_shapes()[0].DebugString(), "[4]");
}

// A call, an If and a While, with consumers, and nodes lowering does not touch.
GraphDef AllKinds() {
  GraphDef g = Parse(BelowTenLibrary());
  g.MergeFrom(
      Parse(Library() + Placeholder("a", {2, 3}) + Placeholder("b", {3, 4}) + Placeholder("c", {}) +
            FloatNode("node", "mm", "MatMul", {"a", "b"}) + PlaceholderNode("p", "DT_BOOL") +
            CallNode("call", "PartitionedCall", kAddOneFunc, {"a"}, {"DT_FLOAT"}, {"DT_FLOAT"}) +
            FloatNode("node", "use", "Identity", {"call"}) +
            "node { name: 'if' op: 'If' input: 'p' input: 'mm' " + TypeAttr("Tcond", "DT_BOOL") +
            TypeListAttr("Tin", {"DT_FLOAT"}) + TypeListAttr("Tout", {"DT_FLOAT"}) +
            FuncAttr("then_branch", kAddOneFunc) + FuncAttr("else_branch", kAddOneFunc) + "} " +
            "node { name: 'w' op: 'While' input: 'c' " + TypeListAttr("T", {"DT_FLOAT"}) +
            FuncAttr("cond", "func { name: 'below_ten' }") + FuncAttr("body", kAddOneFunc) + "} " +
            FloatNode("node", "sum", "AddV2", {"if", "w"})));
  return g;
}

std::map<std::string, std::string> Shapes(const Graph& graph) {
  std::map<std::string, std::string> out;
  for (const Node* n : graph.op_nodes()) {
    std::string s;
    for (const PartialTensorShape& shape : n->output_shapes()) s += shape.DebugString() + ";";
    out[n->name()] = s;
  }
  return out;
}

TEST(FunctionLoweringTest, ShapesAreThoseOfAnImportOfTheLoweredGraph) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(AllKinds()));
  const std::map<std::string, std::string> before = Shapes(*graph);
  RILL_ASSERT_OK(LowerFunctionalOps(graph.get()));
  const std::map<std::string, std::string> after = Shapes(*graph);
  for (const char* untouched : {"a", "b", "c", "p", "mm"}) {
    EXPECT_EQ(after.at(untouched), before.at(untouched)) << untouched;
  }
  EXPECT_EQ(after.at("use"), "[2,3];");  // unknown before: the call's shapes were not known
  EXPECT_EQ(after.at("if"), "[2,4];");

  GraphDef lowered;
  ExportGraphDef(*graph, &lowered);
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> reimported, ImportGraphDef(lowered));
  EXPECT_EQ(after, Shapes(*reimported));
  // InferShapes again changes nothing.
  RILL_ASSERT_OK(InferShapes(graph.get()));
  EXPECT_EQ(Shapes(*graph), after);
}

TEST(FunctionLoweringTest, ShapeErrorsAreThoseOfAnImportOfTheLoweredGraph) {
  // call's [2,3] cannot multiply a [4,5]; only known once the call is lowered.
  GraphDef g = Parse(Library() + Placeholder("a", {2, 3}) + Placeholder("b", {4, 5}) +
                     FloatNode("node", "call", "add_one", {"a"}) +
                     FloatNode("node", "bad", "MatMul", {"call", "b"}));
  LoweringOptions no_shapes;
  no_shapes.infer_shapes = false;
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef lowered, LowerGraphDef(g, no_shapes));
  const absl::Status expected = ImportGraphDef(lowered).status();
  EXPECT_THAT(expected, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'bad'")));
  EXPECT_EQ(LowerGraphDef(g).status(), expected);
}

TEST(FunctionLoweringTest, MadeNodesAreCheckedAsImportChecksNodes) {
  const std::string add_one_call =
      Library() + Placeholder("a", {}) + FloatNode("node", "call", "add_one", {"a"});
  EXPECT_THAT(LowerGraphDef(Parse(add_one_call + FloatNode("node", "use", "Identity", {"call:3"}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'use': Connecting to invalid output 3 of source node call which has "
                       "1 outputs."));
  EXPECT_THAT(LowerGraphDef(Parse(add_one_call +
                                  "node { name: 'use' op: 'Identity' input: "
                                  "'call' " +
                                  TypeAttr("T", "DT_INT32") + "}")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Input 0 of node use was passed float from call:0 incompatible with "
                       "expected int32."));
  EXPECT_THAT(LowerGraphDef(Parse(
                  Placeholder("a", {}) +
                  "library { function { signature { name: 'bad' input_arg { name: 'x' type: "
                  "DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } } " +
                  FloatNode("node_def", "neg", "Neg", {"x", "x"}) +
                  "ret { key: 'y' value: 'neg:y:0' } } } node { name: 'call' op: 'bad' input: "
                  "'a' }")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("NodeDef expected inputs 'float' do not match 2 inputs "
                                 "specified")));
}

// Lowers the imported `g`, expecting the nesting limit; checks that the lowering stopped early.
void ExpectNestingLimit(const GraphDef& g) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> graph, ImportGraphDef(g));
  EXPECT_THAT(LowerFunctionalOps(graph.get()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("function calls nest more than 64 deep")));
  // Depth first: a few bodies per level, not 2^64 of them.
  EXPECT_LT(graph->num_op_nodes(), 10000);
}

TEST(FunctionLoweringTest, AFunctionCallingItselfFailsFast) {
  ExpectNestingLimit(
      Parse(Library() + Placeholder("a", {}) + "node { name: 'call' op: 'forever' input: 'a' }"));
}

TEST(FunctionLoweringTest, AFunctionCallingItselfTwiceFailsFast) {
  ExpectNestingLimit(Parse(Placeholder("a", {}) + R"pb(
                             library {
                               function {
                                 signature {
                                   name: "twice"
                                   input_arg { name: "x" type: DT_FLOAT }
                                   output_arg { name: "y" type: DT_FLOAT }
                                 }
                                 node_def { name: "left" op: "twice" input: "x" }
                                 node_def { name: "right" op: "twice" input: "left:y:0" }
                                 ret { key: "y" value: "right:y:0" }
                               }
                             }
                           )pb" +
                           CallNode("call", "StatefulPartitionedCall", "func { name: 'twice' }",
                                    {"a"}, {"DT_FLOAT"}, {"DT_FLOAT"})));
}

TEST(FunctionLoweringTest, AnIfWhoseBranchCallsTheEnclosingFunctionFailsFast) {
  // rec(x) = If(x, step, step)(x); step(x) = rec(x): two calls of rec per level.
  ExpectNestingLimit(Parse(
      Placeholder("a", {}) +
      "library { function { signature { name: 'rec' input_arg { name: 'x' type: DT_FLOAT } "
      "output_arg { name: 'y' type: DT_FLOAT } } node_def { name: 'if' op: 'If' input: 'x' "
      "input: 'x' " +
      TypeAttr("Tcond") + TypeListAttr("Tin", {"DT_FLOAT"}) + TypeListAttr("Tout", {"DT_FLOAT"}) +
      FuncAttr("then_branch", "func { name: 'step' }") +
      FuncAttr("else_branch", "func { name: 'step' }") +
      "} ret { key: 'y' value: 'if:output:0' } } function { signature { name: 'step' input_arg "
      "{ name: 'x' type: DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } } node_def { name: "
      "'again' op: 'rec' input: 'x' } ret { key: 'y' value: 'again:y:0' } } } node { name: "
      "'call' op: 'rec' input: 'a' }"));
}

// f0(x) = Identity(x); fk(x) = f(k-1)(f(k-1)(x)): 2^k inlined f0 bodies, nested k deep.
GraphDef FanOut(int k) {
  GraphDef g = Parse(Placeholder("a", {}) +
                     "library { function { signature { name: 'f0' input_arg { name: 'x' type: "
                     "DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } } " +
                     FloatNode("node_def", "id", "Identity", {"x"}) +
                     "ret { key: 'y' value: 'id:output:0' } } }");
  for (int i = 1; i <= k; ++i) {
    const std::string prev = "f" + std::to_string(i - 1);
    FunctionDef* f = g.mutable_library()->add_function();
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(
        "signature { name: 'f" + std::to_string(i) +
            "' input_arg { name: 'x' type: DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } } "
            "node_def { name: 'left' op: '" +
            prev + "' input: 'x' } node_def { name: 'right' op: '" + prev +
            "' input: 'left:y:0' } ret { key: 'y' value: 'right:y:0' }",
        f));
  }
  NodeDef* call = g.add_node();
  call->set_name("call");
  call->set_op("f" + std::to_string(k));
  call->add_input("a");
  return g;
}

TEST(FunctionLoweringTest, TooManyNodesMadeFailsNamingTheCall) {
  LoweringOptions options;
  options.max_new_nodes = 1000;
  EXPECT_THAT(LowerGraphDef(FanOut(10), options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("Node 'call"),
                             HasSubstr("would add more than 1000 nodes to the graph; reduce the "
                                       "recursion"))));
  // Under the default limit the same graph lowers: 2^10 bodies.
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef out, LowerGraphDef(FanOut(10)));
  EXPECT_FALSE(HasFunctionalOpsAfterImport(out));
  EXPECT_EQ(Find(out, "call")->op(), "IdentityN");
}

}  // namespace
}  // namespace rill

namespace rill {
namespace {

// A PartitionedCall of add_one(x: float) -> float with the given Tin and Tout lists, fed by a
// float placeholder.
GraphDef CallWithTypes(const std::vector<std::string>& tin, const std::vector<std::string>& tout) {
  return Parse(Library() + PlaceholderNode("a") +
               CallNode("call", "PartitionedCall", kAddOneFunc, {"a"}, tin, tout));
}

// The call is not a registered op, so import cannot check its Tin and Tout: the lowering checks
// them against the input edges (import's text) and the function's signature.
TEST(FunctionLoweringTest, CallTypesMustMatchTheEdgesAndTheSignature) {
  RILL_EXPECT_OK(LowerGraphDef(CallWithTypes({"DT_FLOAT"}, {"DT_FLOAT"})).status());
  EXPECT_THAT(LowerGraphDef(CallWithTypes({"DT_INT32"}, {"DT_FLOAT"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'call' (PartitionedCall): Input 0 of node call was passed float from "
                       "a:0 incompatible with expected int32."));
  EXPECT_THAT(LowerGraphDef(CallWithTypes({"DT_FLOAT"}, {})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'call' (PartitionedCall): Tout [] does not match the outputs of "
                       "function 'add_one' [float]"));
  EXPECT_THAT(LowerGraphDef(CallWithTypes({"DT_FLOAT"}, {"DT_FLOAT", "DT_FLOAT"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Tout [float, float] does not match the outputs")));
  EXPECT_THAT(LowerGraphDef(CallWithTypes({"DT_FLOAT", "DT_FLOAT"}, {"DT_FLOAT"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'call' (PartitionedCall): has 1 inputs but Tin lists 2"));
}

// f(x) whose body has `node` (an Identity of x) and returns `ret`; called directly.
GraphDef DirectCall(const std::string& args, const std::string& node, const std::string& ret) {
  const std::string text = "library { function { signature { name: 'f' " + args +
                           " output_arg { name: 'y' type: DT_FLOAT } } node_def { name: '" + node +
                           "' op: 'Identity' input: 'x' " + TypeAttr("T") +
                           "} ret { key: 'y' value: '" + ret + "' } } } " + PlaceholderNode("a") +
                           "node { name: 'call' op: 'f' input: 'a' }";
  return Parse(text);
}

// Arguments and body nodes share one namespace, as in TensorFlow's instantiation: a body node
// named like an argument (which a reference to the name would silently resolve to the argument)
// and a repeated argument are refused.
TEST(FunctionLoweringTest, ArgumentAndNodeNamesAreUnique) {
  const std::string x = "input_arg { name: 'x' type: DT_FLOAT }";
  RILL_EXPECT_OK(LowerGraphDef(DirectCall(x, "i", "i:output:0")).status());
  EXPECT_THAT(LowerGraphDef(DirectCall(x, "x", "x:output:0")).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'call' (f): function 'f': Node 'x' is not unique (an argument or "
                       "another node has that name)"));
  GraphDef twice = DirectCall(x + x, "i", "i:output:0");
  twice.mutable_node(1)->add_input("a");
  EXPECT_THAT(LowerGraphDef(twice).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'call' (f): function 'f': Duplicated arg name: x"));
}

// A control_ret naming no body node is ignored, as TensorFlow's FunctionBody ignores it (it
// collects the body nodes whose names are listed); one naming a body node still orders it.
TEST(FunctionLoweringTest, AControlRetOfNoBodyNodeAddsNoDependency) {
  GraphDef g = DirectCall("input_arg { name: 'x' type: DT_FLOAT }", "i", "i:output:0");
  FunctionDef* f = g.mutable_library()->mutable_function(0);
  f->mutable_signature()->add_control_output("c");
  f->mutable_signature()->add_control_output("d");
  (*f->mutable_control_ret())["c"] = "nope";
  (*f->mutable_control_ret())["d"] = "x";
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef lowered, LowerGraphDef(g));
  EXPECT_FALSE(HasFunctionalOpsAfterImport(lowered));
  (*f->mutable_control_ret())["c"] = "i";
  RILL_ASSERT_OK_AND_ASSIGN(lowered, LowerGraphDef(g));
  bool ordered = false;
  for (const NodeDef& n : lowered.node()) {
    for (const std::string& in : n.input()) ordered |= in == "^call/i";
  }
  EXPECT_TRUE(ordered);
}

}  // namespace
}  // namespace rill
