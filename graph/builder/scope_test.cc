#include "graph/builder/scope.h"

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// The graph's nodes as "name" strings, in build order.
std::vector<std::string> Names(const Scope& scope) {
  GraphDef g;
  EXPECT_THAT(scope.ToGraphDef(&g), IsOk());
  std::vector<std::string> names;
  for (const NodeDef& n : g.node()) names.push_back(n.name());
  return names;
}

NodeDef Node(const Scope& scope, const std::string& name) {
  GraphDef g;
  EXPECT_THAT(scope.ToGraphDef(&g), IsOk());
  for (const NodeDef& n : g.node()) {
    if (n.name() == name) return n;
  }
  ADD_FAILURE() << "no node " << name;
  return NodeDef();
}

std::vector<std::string> Inputs(const NodeDef& n) { return {n.input().begin(), n.input().end()}; }

std::vector<std::string> Class(const NodeDef& n) {
  auto it = n.attr().find("_class");
  if (it == n.attr().end()) return {};
  return {it->second.list().s().begin(), it->second.list().s().end()};
}

Output Scalar(const Scope& s) { return ops::Const(s, 1.f); }

// --- Names
// ----------------------------------------------------------------------------------------

TEST(ScopeNamesTest, DefaultNamesAreTheOpTypeWithTensorFlowSuffixes) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root);
  Output b = Scalar(root);
  ops::MatMul(root, ops::Const(root, {{1.f}}), ops::Const(root, {{1.f}}));
  ops::Identity(root, a);
  ops::Identity(root, b);
  EXPECT_THAT(Names(root), ElementsAre("Const", "Const_1", "Const_2", "Const_3", "MatMul",
                                       "Identity", "Identity_1"));
  EXPECT_EQ(a.node(), "Const");
  EXPECT_EQ(b.node(), "Const_1");
}

TEST(ScopeNamesTest, WithOpNameIsSuffixedWhenTaken) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a"));
  Output a1 = Scalar(root.WithOpName("a"));
  Output a1_again = Scalar(root.WithOpName("a_1"));  // "a_1" is taken: TensorFlow gives a_1_1
  Output a2 = Scalar(root.WithOpName("a"));
  EXPECT_EQ(a.node(), "a");
  EXPECT_EQ(a1.node(), "a_1");
  EXPECT_EQ(a1_again.node(), "a_1_1");
  EXPECT_EQ(a2.node(), "a_2");
}

TEST(ScopeNamesTest, NamesCompareCaseInsensitivelyAsInTensorFlow) {
  Scope root = Scope::NewRootScope();
  Output x = Scalar(root.WithOpName("MatMul"));
  Output y = Scalar(root.WithOpName("matmul"));
  EXPECT_EQ(x.node(), "MatMul");
  EXPECT_EQ(y.node(), "matmul_1");
}

TEST(ScopeNamesTest, SubScopesPrefixNamesAndAreUniqueThemselves) {
  Scope root = Scope::NewRootScope();
  Scope t0 = root.NewSubScope("tower_0");
  Scope t0_again = root.NewSubScope("tower_0");
  Scope inner = t0.NewSubScope("inner");
  EXPECT_EQ(t0.name_scope(), "tower_0");
  EXPECT_EQ(t0_again.name_scope(), "tower_0_1");
  EXPECT_EQ(inner.name_scope(), "tower_0/inner");
  EXPECT_EQ(Scalar(t0).node(), "tower_0/Const");
  EXPECT_EQ(Scalar(t0).node(), "tower_0/Const_1");
  EXPECT_EQ(Scalar(t0_again).node(), "tower_0_1/Const");
  EXPECT_EQ(Scalar(inner.WithOpName("x")).node(), "tower_0/inner/x");
  EXPECT_EQ(Scalar(root).node(), "Const");
  EXPECT_EQ(root.NewSubScope("").name_scope(), "");
  EXPECT_EQ(t0.NewSubScope("").name_scope(), "tower_0");
}

TEST(ScopeNamesTest, NodesAndNameScopesShareOneNamespace) {
  Scope root = Scope::NewRootScope();
  Output w = Scalar(root.WithOpName("w"));
  EXPECT_EQ(root.NewSubScope("w").name_scope(), "w_1");
  Scope s = root.NewSubScope("s");
  EXPECT_EQ(Scalar(root.WithOpName("s")).node(), "s_1");
}

TEST(ScopeNamesTest, SubScopeDropsTheOpName) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(Scalar(root.WithOpName("a").NewSubScope("t")).node(), "t/Const");
}

TEST(ScopeNamesTest, ExactOpNameNamesTheNodeAfterItsScope) {
  // tf.Variable(name="w"): the name scope "w", then the variable op named exactly "w".
  Scope root = Scope::NewRootScope();
  Scope ws = root.NewSubScope("w");
  Output init = Scalar(ws.WithOpName("initial_value"));
  Output w = ops::Variable(root.WithExactOpName(ws.name_scope()),
                           PartialTensorShape(std::vector<int64_t>{}), DT_FLOAT);
  EXPECT_EQ(init.node(), "w/initial_value");
  EXPECT_EQ(w.node(), "w");
  EXPECT_EQ(Scalar(root.WithOpName("w")).node(), "w_1");
}

TEST(ScopeNamesTest, ExactOpNameOfAnExistingNodeIsAnError) {
  Scope root = Scope::NewRootScope();
  Scalar(root.WithOpName("w"));
  Output again = Scalar(root.WithExactOpName("w"));
  EXPECT_FALSE(again.valid());
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "Duplicate node name in graph: 'w'"));
}

TEST(ScopeNamesTest, InvalidNodeName) {
  Scope root = Scope::NewRootScope();
  Scalar(root.WithOpName("bad name"));
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "'bad name' is not a valid node name"));
}

TEST(ScopeNamesTest, NodeNamesMustStartWithALetterDigitOrDot) {
  Scope root = Scope::NewRootScope();
  Scalar(root.WithOpName("_x"));
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "'_x' is not a valid node name"));
}

TEST(ScopeNamesTest, InvalidScopeName) {
  Scope root = Scope::NewRootScope();
  root.NewSubScope("tower 0");
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "'tower 0' is not a valid scope name"));
}

// --- Devices
// --------------------------------------------------------------------------------------

TEST(ScopeDeviceTest, DevicesAreWrittenInCanonicalForm) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/gpu:2")).node()).device(), "/device:GPU:2");
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/cpu:0")).node()).device(), "/device:CPU:0");
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/CPU:0")).node()).device(), "/device:CPU:0");
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/device:GPU:2")).node()).device(), "/device:GPU:2");
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/task:1/job:ps")).node()).device(),
            "/job:ps/task:1");
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/device:GPU")).node()).device(), "/device:GPU:*");
  EXPECT_EQ(Node(root, Scalar(root).node()).device(), "");
}

TEST(ScopeDeviceTest, NestedRequestsMergeWithTheInnerWinning) {
  Scope root = Scope::NewRootScope();
  Scope ps = root.WithDevice("/job:ps/task:0");
  EXPECT_EQ(Node(root, Scalar(ps.WithDevice("/gpu:1")).node()).device(),
            "/job:ps/task:0/device:GPU:1");
  EXPECT_EQ(Node(root, Scalar(ps.WithDevice("/task:3")).node()).device(), "/job:ps/task:3");
  // Fields are merged one by one: a type without an index keeps the outer index.
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/gpu:1").WithDevice("/device:CPU")).node()).device(),
            "/device:CPU:1");
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/gpu:1").WithDevice("/cpu:0")).node()).device(),
            "/device:CPU:0");
}

TEST(ScopeDeviceTest, EmptyDeviceClearsEveryRequest) {
  Scope root = Scope::NewRootScope();
  Scope gpu = root.WithDevice("/gpu:0").WithDeviceFunction(
      [](const NodeDef&) { return std::string("/gpu:1"); });
  EXPECT_EQ(Node(root, Scalar(gpu.WithDevice("")).node()).device(), "");
  EXPECT_EQ(Node(root, Scalar(gpu.WithDevice("").WithDevice("/cpu:0")).node()).device(),
            "/device:CPU:0");
}

TEST(ScopeDeviceTest, MalformedDeviceIsReportedNamingTheNode) {
  Scope root = Scope::NewRootScope();
  Scope bad = root.WithDevice("/gpu:x");
  EXPECT_THAT(root.status(), IsOk());  // nothing built with it yet
  Output c = Scalar(bad.WithOpName("c"));
  EXPECT_FALSE(c.valid());
  EXPECT_THAT(root.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      "Node 'c' (Const): Malformed device specification '/gpu:x'"));
}

TEST(ScopeDeviceTest, DeviceFunctionPlacesVariablesOnTheCpuAndTheRestOnTheGpu) {
  // Seed 004's assign_to_device, in a few lines.
  DeviceFunction assign_to_device = [](const NodeDef& node) -> std::string {
    if (node.op() == "Variable" || node.op() == "VariableV2") return "/device:CPU:0";
    return "/device:GPU:0";
  };
  Scope root = Scope::NewRootScope();
  Scope scope = root.WithDeviceFunction(assign_to_device);
  Output w = ops::Variable(scope.WithOpName("w"), PartialTensorShape({2}), DT_FLOAT);
  Output b = ops::Identity(scope, w);
  EXPECT_EQ(Node(root, "w").device(), "/device:CPU:0");
  EXPECT_EQ(Node(root, b.node()).device(), "/device:GPU:0");
}

TEST(ScopeDeviceTest, DeviceFunctionSeesTheNodeAndInnerRequests) {
  std::vector<NodeDef> seen;
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a"));
  Scope scope = root.WithDeviceFunction([&seen](const NodeDef& node) {
    seen.push_back(node);
    return node.device().empty() ? "/gpu:0" : node.device();  // returned verbatim
  });
  ops::Identity(scope.WithOpName("i"), a);
  ops::Identity(scope.WithDevice("/cpu:1").WithOpName("j"), a);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].name(), "i");
  EXPECT_EQ(seen[0].op(), "Identity");
  EXPECT_THAT(Inputs(seen[0]), ElementsAre("a"));
  EXPECT_EQ(seen[0].attr().at("T").type(), DT_FLOAT);
  EXPECT_EQ(seen[0].device(), "");
  EXPECT_EQ(seen[1].device(), "/device:CPU:1");
  EXPECT_EQ(Node(root, "i").device(), "/gpu:0");
  EXPECT_EQ(Node(root, "j").device(), "/device:CPU:1");
}

TEST(ScopeDeviceTest, OuterRequestsMergeUnderADeviceFunction) {
  Scope root = Scope::NewRootScope();
  Scope scope = root.WithDevice("/job:worker").WithDeviceFunction([](const NodeDef&) {
    return std::string("/gpu:0");
  });
  EXPECT_EQ(Node(root, Scalar(scope).node()).device(), "/job:worker/device:GPU:0");
}

// --- Colocation
// -----------------------------------------------------------------------------------

TEST(ScopeColocationTest, ColocateWithWritesClassAndTakesTheDevice) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a").WithDevice("/gpu:2"));
  Output i = ops::Identity(root.ColocateWith(a), a);
  NodeDef n = Node(root, i.node());
  EXPECT_THAT(Class(n), ElementsAre("loc:@a"));
  EXPECT_EQ(n.device(), "/device:GPU:2");
}

TEST(ScopeColocationTest, ColocateWithDropsEarlierDeviceRequestsButNotLaterOnes) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a"));  // no device
  EXPECT_EQ(Node(root, Scalar(root.WithDevice("/gpu:0").ColocateWith(a)).node()).device(), "");
  EXPECT_EQ(Node(root, Scalar(root.ColocateWith(a).WithDevice("/gpu:1")).node()).device(),
            "/device:GPU:1");
  // A target's device wins over later requests.
  Output b = Scalar(root.WithOpName("b").WithDevice("/cpu:0"));
  EXPECT_EQ(Node(root, Scalar(root.ColocateWith(b).WithDevice("/gpu:1")).node()).device(),
            "/device:CPU:0");
}

TEST(ScopeColocationTest, GroupsAreInheritedMergedAndSorted) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a"));
  Output b = Scalar(root.WithOpName("b").ColocateWith(a));  // in a's group
  Output z = Scalar(root.WithOpName("z"));
  Output c = Scalar(root.WithOpName("c").ColocateWith(z).ColocateWith(b));
  EXPECT_THAT(Class(Node(root, "b")), ElementsAre("loc:@a"));
  EXPECT_THAT(Class(Node(root, "c")), ElementsAre("loc:@a", "loc:@z"));
  EXPECT_THAT(Class(Node(root, Scalar(root.ColocateWith(a).ClearColocation()).node())), IsEmpty());
}

TEST(ScopeColocationTest, LatestColocationTargetWithADeviceGivesTheDevice) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a").WithDevice("/cpu:1"));
  Output b = Scalar(root.WithOpName("b").WithDevice("/cpu:2"));
  Output n = Scalar(root.ColocateWith(a).ColocateWith(b));
  EXPECT_EQ(Node(root, n.node()).device(), "/device:CPU:2");
}

TEST(ScopeColocationTest, ReferenceInputsColocateWithTheirProducer) {
  // TensorFlow Python colocates Assign & co. with the variable and ignores device requests.
  Scope root = Scope::NewRootScope();
  Output w = ops::Variable(root.WithOpName("w").WithDevice("/cpu:0"),
                           PartialTensorShape(std::vector<int64_t>{}), DT_FLOAT);
  Output one = Scalar(root);
  Output assign = ops::AssignAdd(root.WithDevice("/gpu:0"), w, one);
  NodeDef n = Node(root, assign.node());
  EXPECT_THAT(Class(n), ElementsAre("loc:@w"));
  EXPECT_EQ(n.device(), "/device:CPU:0");
  // Without a device on the variable, the request is still dropped.
  Output v =
      ops::Variable(root.WithOpName("v"), PartialTensorShape(std::vector<int64_t>{}), DT_FLOAT);
  NodeDef m = Node(root, ops::Assign(root.WithDevice("/gpu:0"), v, one).node());
  EXPECT_THAT(Class(m), ElementsAre("loc:@v"));
  EXPECT_EQ(m.device(), "");
}

TEST(ScopeColocationTest, InvalidOperation) {
  Scope root = Scope::NewRootScope();
  root.ColocateWith(Operation());
  EXPECT_THAT(root.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      StartsWith("ColocateWith was given an invalid Operation")));
}

TEST(ScopeColocationTest, UnknownTarget) {
  Scope root = Scope::NewRootScope();
  Scalar(root.WithOpName("x").ColocateWith(Operation("nope")));
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'x' (Const): cannot colocate with 'nope': no node of that name in "
                       "the graph"));
}

// --- Control dependencies
// -------------------------------------------------------------------------

TEST(ScopeControlTest, ControlInputsComeLastSortedAndAccumulate) {
  Scope root = Scope::NewRootScope();
  Output b = Scalar(root.WithOpName("b"));
  Output a = Scalar(root.WithOpName("a"));
  Output c = Scalar(root.WithOpName("c"));
  Scope deps = root.WithControlDependencies({b, a}).WithControlDependencies({c});
  ops::Identity(deps.WithOpName("i"), c);  // c is a data input: no ^c
  ops::NoOp(deps.WithOpName("n"));
  ops::NoOp(deps.WithNoControlDependencies().WithOpName("free"));
  EXPECT_THAT(Inputs(Node(root, "i")), ElementsAre("c", "^a", "^b"));
  EXPECT_THAT(Inputs(Node(root, "n")), ElementsAre("^a", "^b", "^c"));
  EXPECT_THAT(Inputs(Node(root, "free")), IsEmpty());
}

TEST(ScopeControlTest, NodesReadingANodeOfTheSameBlockAreNotGivenTheDepsAgain) {
  // with tf.control_dependencies([x]): c = tf.constant(1.); d = tf.identity(c)  ->  d has no ^x.
  Scope root = Scope::NewRootScope();
  Output x = Scalar(root.WithOpName("x"));
  Scope block = root.WithControlDependencies({x});
  Output c = Scalar(block.WithOpName("c"));
  Output d = ops::Identity(block.WithOpName("d"), c);
  Output e = ops::Identity(root.WithControlDependencies({x}).WithOpName("e"), c);
  EXPECT_THAT(Inputs(Node(root, "c")), ElementsAre("^x"));
  EXPECT_THAT(Inputs(Node(root, "d")), ElementsAre("c"));
  EXPECT_THAT(Inputs(Node(root, "e")), ElementsAre("c", "^x"));  // another block
}

TEST(ScopeControlTest, UnknownControlInput) {
  Scope root = Scope::NewRootScope();
  ops::NoOp(root.WithControlDependencies({Operation("nope")}));
  EXPECT_THAT(root.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      "Node 'NoOp': Unknown input node '^nope'"));
}

TEST(ScopeControlTest, InvalidOperation) {
  Scope root = Scope::NewRootScope();
  root.WithControlDependencies({Operation()});
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("WithControlDependencies was given an invalid Operation at "
                                  "position 0")));
}

// --- Errors
// ---------------------------------------------------------------------------------------

TEST(ScopeErrorTest, UnknownOp) {
  Scope root = Scope::NewRootScope();
  Operation op = OpBuilder(root, "Frobnicate").Finalize();
  EXPECT_FALSE(op.valid());
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kNotFound,
                       StartsWith("Node 'Frobnicate' (Frobnicate): Op type not registered "
                                  "'Frobnicate' in binary running on Rill.")));
}

TEST(ScopeErrorTest, WrongInputCount) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root);
  OpBuilder(root, "MatMul").Input(a).Finalize();
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("Node 'MatMul' (MatMul): NodeDef expected inputs 'float, "
                                  "float' do not match 1 inputs specified")));
}

TEST(ScopeErrorTest, DtypeMismatchBetweenProducerAndConsumer) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root.WithOpName("a"), {{1.f}});
  Output b = ops::Const(root.WithOpName("b"), {{1}});
  Output c = ops::MatMul(root, a, b);
  EXPECT_FALSE(c.valid());
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Input 1 of node MatMul was passed int32 from b:0 incompatible with "
                       "expected float."));
}

TEST(ScopeErrorTest, NonReferenceIntoAReferenceInput) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a"));
  ops::Assign(root, a, a);
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Input 0 of node Assign was passed float from a:0 incompatible with "
                       "expected float_ref."));
}

TEST(ScopeErrorTest, AttrNotAllowed) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root);
  OpBuilder(root, "Identity").Input(a).Attr("colour", "blue").Finalize();
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("Node 'Identity' (Identity): NodeDef mentions attr 'colour' "
                                  "not in Op<name=Identity;")));
}

TEST(ScopeErrorTest, AttrValueNotAllowed) {
  Scope root = Scope::NewRootScope();
  Output s = ops::Const(root, std::string("x"));
  ops::MatMul(root, s, s);
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("Node 'MatMul' (MatMul): Value for attr 'T' of string is not in "
                                  "the list of allowed values:")));
}

TEST(ScopeErrorTest, ShapeContradiction) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  ops::MatMul(root, a, a);
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Dimensions must be equal, but are 3 and 2 for node 'MatMul' (op MatMul: "
                       "inner dimensions of MatMul)"));
}

TEST(ScopeErrorTest, InputFromAnotherGraph) {
  Scope one = Scope::NewRootScope();
  Scope two = Scope::NewRootScope();
  Output x = Scalar(one.WithOpName("x"));
  ops::Identity(two, x);
  EXPECT_THAT(two.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'Identity' (Identity): input 0 ('x:0') belongs to another graph "
                       "(made from another root scope); build it in this scope's graph, or import "
                       "that graph with Scope::ImportGraphDef and use Scope::GetOperation"));
  EXPECT_THAT(one.status(), IsOk());
}

TEST(ScopeErrorTest, OutputIndexOutOfRange) {
  Scope root = Scope::NewRootScope();
  Scalar(root.WithOpName("a"));
  ops::Identity(root, Output("a", 3, DT_FLOAT));
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Node 'Identity': Connecting to invalid output 3 of source node a which "
                       "has 1 outputs."));
}

TEST(ScopeErrorTest, InvalidOutputAsInput) {
  Scope root = Scope::NewRootScope();
  ops::Identity(root, Output());
  EXPECT_THAT(root.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("Node 'Identity' (Identity): input 0 is an invalid Output")));
}

TEST(ScopeErrorTest, OnlyTheFirstErrorIsReportedAndLaterBuildsDoNothing) {
  Scope root = Scope::NewRootScope();
  Output a = Scalar(root.WithOpName("a"));
  OpBuilder(root.WithOpName("first"), "Frobnicate").Finalize();
  Output later = ops::Identity(root, a);
  ops::MatMul(root, a, Output());
  EXPECT_FALSE(later.valid());
  EXPECT_THAT(root.status(), StatusIs(absl::StatusCode::kNotFound, StartsWith("Node 'first'")));
  // Every scope of the graph sees it, and ToGraphDef reports it without touching the output.
  EXPECT_THAT(root.NewSubScope("t").status(),
              StatusIs(absl::StatusCode::kNotFound, StartsWith("Node 'first'")));
  GraphDef g;
  g.add_node()->set_name("untouched");
  EXPECT_THAT(root.ToGraphDef(&g),
              StatusIs(absl::StatusCode::kNotFound, StartsWith("Node 'first'")));
  ASSERT_EQ(g.node_size(), 1);
  EXPECT_EQ(g.node(0).name(), "untouched");
  EXPECT_THAT(root.ToGraphDef(), StatusIs(absl::StatusCode::kNotFound, StartsWith("Node 'first'")));
}

TEST(ScopeErrorTest, UpdateStatusKeepsTheFirstError) {
  Scope root = Scope::NewRootScope();
  root.UpdateStatus(absl::OkStatus());
  EXPECT_THAT(root.status(), IsOk());
  root.UpdateStatus(absl::InternalError("one"));
  root.UpdateStatus(absl::InternalError("two"));
  EXPECT_THAT(root.status(), StatusIs(absl::StatusCode::kInternal, "one"));
}

// --- Outputs, shapes, the GraphDef
// ----------------------------------------------------------------

TEST(ScopeTest, OutputsAndOperations) {
  Scope root = Scope::NewRootScope();
  Output w = ops::Variable(root.WithOpName("w"), PartialTensorShape({2}), DT_FLOAT);
  EXPECT_EQ(w.node(), "w");
  EXPECT_EQ(w.index(), 0);
  EXPECT_EQ(w.dtype(), DT_FLOAT_REF);
  EXPECT_EQ(w.InputString(), "w");
  EXPECT_EQ(w.TensorName(), "w:0");
  EXPECT_EQ(Output("x", 2, DT_INT32).InputString(), "x:2");
  Operation op(w);
  EXPECT_EQ(op.name(), "w");
  std::vector<Output> ids = ops::IdentityN(root, {w, Scalar(root)});
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[1].TensorName(), "IdentityN:1");
  EXPECT_EQ(ids[0].dtype(), DT_FLOAT);
  Operation noop = ops::NoOp(root);
  EXPECT_TRUE(noop.valid());
  EXPECT_EQ(noop.num_outputs(), 0);
  EXPECT_FALSE(noop.output(0).valid());
  EXPECT_FALSE(Operation().valid());
}

TEST(ScopeTest, ShapesAreInferredAsNodesAreBuilt) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  Output p =
      ops::Placeholder(root, DT_FLOAT, ops::PlaceholderAttrs().Shape(PartialTensorShape({-1, 2})));
  Output c = ops::MatMul(root, p, ops::Const(root, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}));
  RILL_ASSERT_OK_AND_ASSIGN(PartialTensorShape sa, root.GetShape(a));
  EXPECT_EQ(sa.DebugString(), "[2,3]");
  RILL_ASSERT_OK_AND_ASSIGN(PartialTensorShape sc, root.GetShape(c));
  EXPECT_EQ(sc.DebugString(), "[?,3]");
  EXPECT_THAT(root.GetShape(Output("nope", 0, DT_FLOAT)),
              StatusIs(absl::StatusCode::kNotFound, "No node named 'nope' in the graph"));
  EXPECT_THAT(
      root.GetShape(Output(a.node(), 1, DT_FLOAT)),
      StatusIs(absl::StatusCode::kInvalidArgument, "Node 'Const' has 1 outputs; no output 1"));
}

TEST(ScopeTest, ToGraphDefGivesTheNodesInBuildOrder) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root.WithOpName("a"), {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  Output b = ops::Const<float>(root.WithOpName("b"), {1, 2, 3, 4, 5, 6}, {3, 2});
  ops::MatMul(root.WithDevice("/gpu:0"), a, b, ops::MatMulAttrs().TransposeB(false));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef got, root.ToGraphDef());
  GraphDef want;
  ASSERT_TRUE(
      google::protobuf::TextFormat::ParseFromString(R"pb(
                                                      node {
                                                        name: "a"
                                                        op: "Const"
                                                        attr {
                                                          key: "dtype"
                                                          value { type: DT_FLOAT }
                                                        }
                                                        attr {
                                                          key: "value"
                                                          value {
                                                            tensor {
                                                              dtype: DT_FLOAT
                                                              tensor_shape {
                                                                dim { size: 2 }
                                                                dim { size: 3 }
                                                              }
                                                              float_val: [ 1, 2, 3, 4, 5, 6 ]
                                                            }
                                                          }
                                                        }
                                                      }
                                                      node {
                                                        name: "b"
                                                        op: "Const"
                                                        attr {
                                                          key: "dtype"
                                                          value { type: DT_FLOAT }
                                                        }
                                                        attr {
                                                          key: "value"
                                                          value {
                                                            tensor {
                                                              dtype: DT_FLOAT
                                                              tensor_shape {
                                                                dim { size: 3 }
                                                                dim { size: 2 }
                                                              }
                                                              float_val: [ 1, 2, 3, 4, 5, 6 ]
                                                            }
                                                          }
                                                        }
                                                      }
                                                      node {
                                                        name: "MatMul"
                                                        op: "MatMul"
                                                        input: "a"
                                                        input: "b"
                                                        device: "/device:GPU:0"
                                                        attr {
                                                          key: "T"
                                                          value { type: DT_FLOAT }
                                                        }
                                                        attr {
                                                          key: "transpose_a"
                                                          value { b: false }
                                                        }
                                                        attr {
                                                          key: "grad_a"
                                                          value { b: false }
                                                        }
                                                        attr {
                                                          key: "grad_b"
                                                          value { b: false }
                                                        }
                                                        attr {
                                                          key: "transpose_b"
                                                          value { b: false }
                                                        }
                                                      }
                                                    )pb",
                                                    &want));
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(got, want)) << got.DebugString();
}

TEST(ScopeTest, ScopesOfOneGraphMayBuildFromSeveralThreads) {
  Scope root = Scope::NewRootScope();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&root, t] {
      Scope s = root.WithDevice(absl::StrCat("/cpu:", t));
      for (int i = 0; i < 50; ++i) ops::Identity(s, Scalar(s));
    });
  }
  for (std::thread& t : threads) t.join();
  std::vector<std::string> names = Names(root);
  EXPECT_EQ(names.size(), 400u);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::unique(names.begin(), names.end()), names.end());
}

TEST(ScopeErrorTest, AnOutputOfAnotherRootScopeIsRefusedNotLinkedByName) {
  Scope first = Scope::NewRootScope();
  Output x_first = ops::Const(first.WithOpName("x"), 1.f);
  Scope second = Scope::NewRootScope();
  Output x_second = ops::Const(second.WithOpName("x"), 2.f);  // same name, other graph
  EXPECT_NE(x_first.graph_id(), x_second.graph_id());
  EXPECT_NE(x_first.graph_id(), 0u);
  EXPECT_FALSE(ops::Neg(second, x_first).valid());
  EXPECT_THAT(
      second.status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               ::testing::AllOf(HasSubstr("Node 'Neg' (Neg)"),
                                HasSubstr("input 0 ('x:0') belongs to another graph (made from "
                                          "another root scope)"))));
  EXPECT_TRUE(first.ok());
}

TEST(ScopeErrorTest, ControlDependencyColocationAndShapeOfAnotherGraphAreRefused) {
  Scope first = Scope::NewRootScope();
  Output a = ops::Const(first.WithOpName("a"), 1.f);
  {
    Scope second = Scope::NewRootScope();
    ops::Const(second.WithOpName("a"), 1.f);
    ops::NoOp(second.WithControlDependencies({a}));
    EXPECT_THAT(second.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                          HasSubstr("WithControlDependencies was given 'a', "
                                                    "which belongs to another graph")));
  }
  {
    Scope second = Scope::NewRootScope();
    ops::Const(second.WithOpName("a"), 1.f);
    second.ColocateWith(a);
    EXPECT_THAT(second.status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("ColocateWith was given 'a', which belongs to another graph")));
  }
  {
    Scope second = Scope::NewRootScope();
    ops::Const(second.WithOpName("a"), 1.f);
    EXPECT_THAT(second.GetShape(a).status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                                      HasSubstr("'a:0' belongs to another graph")));
  }
}

TEST(ScopeTest, OutputsOfTheSameGraphAndHandMadeOutputsAreAccepted) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), 1.f);
  Scope sub = root.NewSubScope("sub").WithDevice("/cpu:0");
  EXPECT_TRUE(ops::Neg(sub, x).valid());  // derived scopes share the graph
  absl::StatusOr<Operation> found = root.GetOperation("x");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->output(0).graph_id(), x.graph_id());
  Output by_name("x", 0, DT_FLOAT);  // made by hand: looked up by name
  EXPECT_EQ(by_name.graph_id(), 0u);
  EXPECT_TRUE(ops::Neg(root, by_name).valid());
  EXPECT_TRUE(root.ok());
}

}  // namespace
}  // namespace rill
