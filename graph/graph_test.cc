#include "graph/graph.h"

#include <array>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

NodeDef Def(const std::string& text) {
  NodeDef def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &def)) << text;
  return def;
}

NodeDef ConstDef(const std::string& name, DataType dt = DT_FLOAT) {
  NodeDef def;
  def.set_name(name);
  def.set_op("Const");
  SetAttr(&def, "dtype", dt);
  AttrValue value;
  value.mutable_tensor()->set_dtype(dt);
  (*def.mutable_attr())["value"] = value;
  return def;
}

NodeDef IdentityDef(const std::string& name, DataType dt = DT_FLOAT) {
  NodeDef def;
  def.set_name(name);
  def.set_op("Identity");
  SetAttr(&def, "T", dt);
  return def;
}

std::vector<std::string> Names(const Graph& g) {
  std::vector<std::string> out;
  for (const Node* n : g.op_nodes()) out.push_back(n->name());
  return out;
}

TEST(GraphTest, NewGraphHasSourceAndSink) {
  Graph g;
  EXPECT_EQ(g.num_nodes(), 2);
  EXPECT_EQ(g.num_op_nodes(), 0);
  EXPECT_EQ(g.source_node()->id(), 0);
  EXPECT_EQ(g.sink_node()->id(), 1);
  EXPECT_TRUE(g.source_node()->IsSource());
  EXPECT_TRUE(g.sink_node()->IsSink());
  EXPECT_EQ(g.source_node()->name(), "_SOURCE");
  EXPECT_EQ(g.sink_node()->name(), "_SINK");
  EXPECT_FALSE(g.source_node()->IsOp());
  EXPECT_EQ(g.FindNode("_SOURCE"), nullptr);
}

TEST(GraphTest, AddNodeFillsDefaultsAndTypes) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * m, g.AddNode(Def(R"pb(
    name: "m"
    op: "MatMul"
    input: "a"
    input: "b"
    device: "/cpu:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  )pb")));
  EXPECT_EQ(m->id(), 2);
  EXPECT_EQ(m->name(), "m");
  EXPECT_EQ(m->op(), "MatMul");
  EXPECT_FALSE(m->is_unknown_op());
  ASSERT_NE(m->op_def(), nullptr);
  EXPECT_EQ(m->op_def()->name(), "MatMul");
  EXPECT_EQ(m->requested_device(), "/cpu:0");
  EXPECT_EQ(m->def().input_size(), 0);  // edges are the inputs
  EXPECT_EQ(m->def().attr().count("transpose_a"), 1);
  EXPECT_THAT(m->input_types(), ElementsAre(DT_FLOAT, DT_FLOAT));
  EXPECT_THAT(m->output_types(), ElementsAre(DT_FLOAT));
  EXPECT_EQ(g.FindNode("m"), m);
  EXPECT_EQ(g.FindNodeId("m"), 2);
  EXPECT_EQ(g.FindNodeById(2), m);
}

TEST(GraphTest, AddNodeErrors) {
  Graph g;
  RILL_ASSERT_OK(g.AddNode(ConstDef("a")).status());
  EXPECT_THAT(g.AddNode(ConstDef("a")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Node 'a' is not unique")));
  EXPECT_THAT(g.AddNode(ConstDef("")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty name")));
  EXPECT_THAT(g.AddNode(Def(R"pb(name: "m" op: "MatMul")pb")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("NodeDef missing attr 'T'"), HasSubstr("{{node m}}"))));
  EXPECT_THAT(g.AddNode(Def(R"pb(name: "m"
                                 op: "MatMul"
                                 attr {
                                   key: "T"
                                   value { type: DT_BOOL }
                                 })pb")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("is not in the list of allowed values")));
  EXPECT_EQ(g.num_op_nodes(), 1);
}

TEST(GraphTest, RefusedNodeLeavesItsNameFree) {
  Graph g;
  EXPECT_THAT(g.AddNode(Def(R"pb(name: "m" op: "MatMul")pb")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("NodeDef missing attr 'T'")));
  EXPECT_EQ(g.FindNode("m"), nullptr);
  RILL_ASSERT_OK_AND_ASSIGN(Node * m, g.AddNode(IdentityDef("m")));
  EXPECT_EQ(g.FindNode("m"), m);
  EXPECT_EQ(m->id(), 2);
  EXPECT_EQ(g.num_node_ids(), 3);
}

TEST(GraphTest, ReserveKeepsIdsAndNames) {
  Graph g;
  g.Reserve(100, 200);
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  Node* last = a;
  for (int n = 0; n < 150; ++n) {  // past the reservation
    RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef(absl::StrCat("i", n))));
    RILL_ASSERT_OK(g.AddEdge(last, 0, i, 0).status());
    last = i;
  }
  EXPECT_EQ(a->id(), 2);
  EXPECT_EQ(g.FindNode("i149")->id(), 152);
  EXPECT_EQ(g.FindNode("i149")->input_node(0), g.FindNode("i148"));
  EXPECT_EQ(g.FindNode("i0")->input_node(0), a);
  EXPECT_EQ(g.num_op_nodes(), 151);
  EXPECT_EQ(g.num_edges(), 150);
}

TEST(GraphTest, RemovingMostNodesKeepsTheOthersByName) {
  Graph g;
  std::vector<Node*> removed;
  for (int n = 0; n < 10; ++n) {
    RILL_ASSERT_OK_AND_ASSIGN(Node * c, g.AddNode(ConstDef(absl::StrCat("c", n))));
    if (n != 3 && n != 7) removed.push_back(c);
  }
  g.RemoveNodes(removed);
  EXPECT_THAT(Names(g), ElementsAre("c3", "c7"));
  EXPECT_EQ(g.FindNode("c3")->id(), 5);
  EXPECT_EQ(g.FindNode("c7")->id(), 9);
  EXPECT_EQ(g.FindNode("c0"), nullptr);
  EXPECT_EQ(g.FindNode("c9"), nullptr);
  // A removed name may be used again; a kept one may not.
  RILL_ASSERT_OK_AND_ASSIGN(Node * again, g.AddNode(ConstDef("c0")));
  EXPECT_EQ(g.FindNode("c0"), again);
  EXPECT_THAT(g.AddNode(ConstDef("c7")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Node 'c7' is not unique")));
}

TEST(GraphTest, UnknownOpGrowsWithItsEdges) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * u, g.AddNode(Def(R"pb(name: "u" op: "NoSuchOp")pb")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  EXPECT_TRUE(u->is_unknown_op());
  EXPECT_EQ(u->op_def(), nullptr);
  EXPECT_EQ(u->num_outputs(), 0);
  RILL_ASSERT_OK(g.AddEdge(a, 0, u, 0).status());
  RILL_ASSERT_OK(g.AddEdge(u, 2, i, 0).status());
  EXPECT_THAT(u->input_types(), ElementsAre(DT_FLOAT));
  EXPECT_THAT(u->output_types(), ElementsAre(DT_INVALID, DT_INVALID, DT_INVALID));
  EXPECT_EQ(u->num_inputs(), 1);
  EXPECT_EQ(u->num_outputs(), 3);
}

TEST(GraphTest, DtypeListsAreSharedAndCopiedBeforeAWrite) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(IdentityDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * b, g.AddNode(IdentityDef("b")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * c, g.AddNode(IdentityDef("c", DT_INT32)));
  // Nodes added one after another with equal lists share them.
  EXPECT_EQ(&a->input_types(), &b->input_types());
  EXPECT_EQ(&a->output_types(), &b->output_types());
  EXPECT_THAT(c->input_types(), ElementsAre(DT_INT32));
  EXPECT_THAT(b->output_types(), ElementsAre(DT_FLOAT));
  // An unknown op's lists grow as edges are added, in its graph only; the other nodes' and the
  // copy's lists stay as they were.
  RILL_ASSERT_OK_AND_ASSIGN(Node * u, g.AddNode(Def(R"pb(name: "u" op: "NoSuchOp")pb")));
  RILL_ASSERT_OK(g.AddEdge(a, 0, u, 0).status());
  Graph copy = g;
  RILL_ASSERT_OK(g.AddEdge(c, 0, u, 1).status());
  RILL_ASSERT_OK(g.AddEdge(u, 1, b, 0).status());
  EXPECT_THAT(u->input_types(), ElementsAre(DT_FLOAT, DT_INT32));
  EXPECT_THAT(u->output_types(), ElementsAre(DT_INVALID, DT_INVALID));
  EXPECT_THAT(copy.FindNode("u")->input_types(), ElementsAre(DT_FLOAT));
  EXPECT_TRUE(copy.FindNode("u")->output_types().empty());
  EXPECT_EQ(u->num_inputs(), 2);
  EXPECT_EQ(u->num_outputs(), 2);
  EXPECT_EQ(copy.FindNode("u")->num_inputs(), 1);
  EXPECT_EQ(copy.FindNode("u")->num_outputs(), 0);
  EXPECT_THAT(a->input_types(), ElementsAre(DT_FLOAT));
  EXPECT_THAT(c->input_types(), ElementsAre(DT_INT32));
  EXPECT_TRUE(g.source_node()->input_types().empty());
}

TEST(GraphTest, AddEdgeChecksSlotsAndTypes) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * n, g.AddNode(ConstDef("n", DT_INT32)));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  EXPECT_THAT(g.AddEdge(a, 1, i, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Node 'i': Connecting to invalid output 1 of source node a "
                                 "which has 1 outputs.")));
  EXPECT_THAT(g.AddEdge(a, 0, i, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("invalid input 1")));
  EXPECT_THAT(g.AddEdge(n, 0, i, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input 0 of node i was passed int32 from n:0 incompatible "
                                 "with expected float.")));
  RILL_ASSERT_OK_AND_ASSIGN(const Edge* e, g.AddEdge(a, 0, i, 0));
  EXPECT_EQ(e->src(), a);
  EXPECT_EQ(e->dst(), i);
  EXPECT_EQ(e->src_output(), 0);
  EXPECT_EQ(e->dst_input(), 0);
  EXPECT_FALSE(e->IsControlEdge());
  EXPECT_EQ(e->DebugString(), "a:0 -> i:0");
  EXPECT_EQ(i->input_edge(0), e);
  EXPECT_EQ(i->input_node(0), a);
  EXPECT_EQ(i->input_edge(1), nullptr);
  EXPECT_THAT(g.AddEdge(a, 0, i, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("already connected")));
}

TEST(GraphTest, RefOutputFeedsNonRefInputButNotTheReverse) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * v, g.AddNode(Def(R"pb(
    name: "v"
    op: "VariableV2"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape {} }
    })pb")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * c, g.AddNode(ConstDef("c")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * assign, g.AddNode(Def(R"pb(
    name: "assign"
    op: "Assign"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    })pb")));
  EXPECT_THAT(v->output_types(), ElementsAre(DT_FLOAT_REF));
  RILL_EXPECT_OK(g.AddEdge(v, 0, i, 0).status());
  EXPECT_THAT(g.AddEdge(c, 0, assign, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input 0 of node assign was passed float from c:0 "
                                 "incompatible with expected float_ref.")));
  RILL_EXPECT_OK(g.AddEdge(v, 0, assign, 0).status());
  RILL_EXPECT_OK(g.AddEdge(c, 0, assign, 1).status());
}

TEST(GraphTest, ControlEdgesAreDeduplicated) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * b, g.AddNode(ConstDef("b")));
  const Edge* e = g.AddControlEdge(a, b);
  EXPECT_TRUE(e->IsControlEdge());
  EXPECT_EQ(e->src_output(), kControlSlot);
  EXPECT_EQ(e->dst_input(), kControlSlot);
  EXPECT_EQ(e->DebugString(), "a -> ^b");
  EXPECT_EQ(g.AddControlEdge(a, b), e);
  EXPECT_EQ(g.num_edges(), 1);
  EXPECT_EQ(b->input_edge(0), nullptr);
}

TEST(GraphTest, RemoveEdgeAndNode) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * j, g.AddNode(IdentityDef("j")));
  RILL_ASSERT_OK_AND_ASSIGN(const Edge* ai, g.AddEdge(a, 0, i, 0));
  RILL_ASSERT_OK(g.AddEdge(i, 0, j, 0).status());
  g.AddControlEdge(a, j);
  EXPECT_EQ(g.num_edges(), 3);
  g.RemoveEdge(ai);
  EXPECT_EQ(g.num_edges(), 2);
  EXPECT_EQ(i->input_edge(0), nullptr);
  EXPECT_EQ(a->out_edges().size(), 1u);
  RILL_ASSERT_OK(g.AddEdge(a, 0, i, 0).status());  // rewire

  g.RemoveNode(i);
  EXPECT_EQ(g.FindNode("i"), nullptr);
  EXPECT_EQ(g.FindNodeById(3), nullptr);
  EXPECT_EQ(g.num_op_nodes(), 2);
  EXPECT_EQ(g.num_node_ids(), 5);
  EXPECT_EQ(g.num_edges(), 1);  // only a -> ^j
  EXPECT_EQ(j->input_edge(0), nullptr);
  EXPECT_THAT(Names(g), ElementsAre("a", "j"));
  // Ids are never reused; the name is free again.
  RILL_ASSERT_OK_AND_ASSIGN(Node * i2, g.AddNode(IdentityDef("i")));
  EXPECT_EQ(i2->id(), 5);
  EXPECT_THAT(Names(g), ElementsAre("a", "j", "i"));
}

TEST(GraphTest, FixupSourceAndSinkEdges) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  RILL_ASSERT_OK(g.AddEdge(a, 0, i, 0).status());
  g.FixupSourceAndSinkEdges();
  ASSERT_EQ(a->in_edges().size(), 1u);
  EXPECT_EQ(a->in_edges()[0]->src(), g.source_node());
  ASSERT_EQ(i->out_edges().size(), 1u);
  EXPECT_EQ(i->out_edges()[0]->dst(), g.sink_node());
  EXPECT_EQ(g.num_edges(), 3);
  g.FixupSourceAndSinkEdges();  // idempotent
  EXPECT_EQ(g.num_edges(), 3);
}

TEST(GraphTest, CopiesAreIndependent) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  RILL_ASSERT_OK(g.AddEdge(a, 0, i, 0).status());
  g.mutable_versions()->set_producer(27);
  g.mutable_library()->add_function()->mutable_signature()->set_name("f");

  Graph copy = g;
  EXPECT_EQ(copy.num_op_nodes(), 2);
  Node* ca = copy.FindNode("a");
  Node* ci = copy.FindNode("i");
  ASSERT_NE(ca, nullptr);
  EXPECT_NE(ca, a);
  EXPECT_EQ(&ca->def(), &a->def());  // shared until written
  ASSERT_NE(ci->input_edge(0), nullptr);
  EXPECT_EQ(ci->input_edge(0)->src(), ca);
  EXPECT_EQ(copy.versions().producer(), 27);
  EXPECT_EQ(copy.library().function_size(), 1);

  ci->set_requested_device("/cpu:1");
  ca->AddAttr("_class", AttrValue());
  copy.mutable_library()->clear_function();
  copy.RemoveNode(copy.FindNode("i"));
  EXPECT_EQ(i->requested_device(), "");
  EXPECT_EQ(a->def().attr().count("_class"), 0);
  EXPECT_EQ(g.library().function_size(), 1);
  EXPECT_EQ(g.num_op_nodes(), 2);
  EXPECT_EQ(i->input_node(0), a);

  Graph assigned;
  assigned = copy;
  EXPECT_THAT(Names(assigned), ElementsAre("a"));
  EXPECT_EQ(assigned.FindNode("a")->def().attr().count("_class"), 1);
  Graph moved = std::move(assigned);
  EXPECT_THAT(Names(moved), ElementsAre("a"));
}

// Each node's in-edges, out-edges and inputs, as (edge id, src id, src output, dst id, dst input).
std::vector<std::vector<std::array<int, 5>>> EdgeLists(const Graph& g) {
  auto row = [](const Edge* e) -> std::array<int, 5> {
    if (e == nullptr) return {-1, -1, -1, -1, -1};
    return {e->id(), e->src()->id(), e->src_output(), e->dst()->id(), e->dst_input()};
  };
  std::vector<std::vector<std::array<int, 5>>> out;
  for (const Node* n : g.nodes()) {
    std::vector<std::array<int, 5>> rows = {{n->id(), -2, -2, -2, -2}};
    for (const Edge* e : n->in_edges()) rows.push_back(row(e));
    for (const Edge* e : n->out_edges()) rows.push_back(row(e));
    for (int k = 0; k < n->num_inputs(); ++k) rows.push_back(row(n->input_edge(k)));
    out.push_back(rows);
  }
  return out;
}

// A copy has the same node and edge ids (removed ones included), each node's edges in the same
// order, edges to later and earlier nodes, control edges, and its edges belong to the copy.
TEST(GraphTest, ACopyHasTheSameEdgesInTheSameOrder) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * gone, g.AddNode(IdentityDef("gone")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * j, g.AddNode(IdentityDef("j")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * b, g.AddNode(ConstDef("b")));
  RILL_ASSERT_OK(g.AddEdge(a, 0, gone, 0).status());
  RILL_ASSERT_OK(g.AddEdge(b, 0, j, 0).status());  // from a later node
  RILL_ASSERT_OK(g.AddEdge(a, 0, i, 0).status());
  g.AddControlEdge(j, i);  // to an earlier node
  g.AddControlEdge(b, a);
  g.AddControlEdge(gone, j);
  g.AddControlEdge(i, b);
  g.RemoveNode(gone);  // holes in the node and edge ids
  g.FixupSourceAndSinkEdges();
  const Graph copy = g;
  EXPECT_EQ(copy.num_node_ids(), g.num_node_ids());
  EXPECT_EQ(copy.num_edge_ids(), g.num_edge_ids());
  EXPECT_EQ(copy.num_edges(), g.num_edges());
  EXPECT_EQ(EdgeLists(copy), EdgeLists(g));
  for (const Node* n : copy.nodes()) {
    EXPECT_EQ(n, copy.FindNodeById(n->id()));
    for (const Edge* e : n->in_edges()) EXPECT_EQ(e->dst(), n);
    for (const Edge* e : n->out_edges()) EXPECT_EQ(e->src(), n);
  }
  std::vector<int> ids;
  for (const Edge* e : copy.edges()) {
    ids.push_back(e->id());
    EXPECT_EQ(e->src(), copy.FindNodeById(e->src()->id()));
    EXPECT_EQ(e->dst(), copy.FindNodeById(e->dst()->id()));
  }
  std::vector<int> original;
  for (const Edge* e : g.edges()) original.push_back(e->id());
  EXPECT_EQ(ids, original);
  EXPECT_EQ(copy.FindNode("gone"), nullptr);
}

TEST(GraphTest, OutputShapesAreSharedWhenEqual) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(IdentityDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * b, g.AddNode(IdentityDef("b")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * c, g.AddNode(IdentityDef("c")));
  EXPECT_TRUE(a->output_shapes().empty());
  a->set_output_shapes({PartialTensorShape({2, -1})});
  b->set_output_shapes({PartialTensorShape({2, -1})});  // equal: a's list
  c->set_output_shapes({PartialTensorShape({2, 3})});   // another list
  EXPECT_EQ(&a->output_shapes(), &b->output_shapes());
  EXPECT_NE(&a->output_shapes(), &c->output_shapes());
  ASSERT_EQ(b->output_shapes().size(), 1u);
  EXPECT_EQ(b->output_shapes()[0].DebugString(), "[2,?]");
  EXPECT_EQ(c->output_shapes()[0].DebugString(), "[2,3]");
  // Unknown rank and rank 0 differ; so do lists of different lengths.
  a->set_output_shapes({PartialTensorShape()});
  b->set_output_shapes({PartialTensorShape(std::vector<int64_t>{})});
  c->set_output_shapes({PartialTensorShape(), PartialTensorShape()});
  EXPECT_TRUE(a->output_shapes()[0].unknown_rank());
  EXPECT_EQ(b->output_shapes()[0].DebugString(), "[]");
  EXPECT_EQ(c->output_shapes().size(), 2u);
  // A copy shares its nodes' lists; setting a node's shapes in one graph leaves the other's.
  Graph copy = g;
  EXPECT_EQ(&copy.FindNode("c")->output_shapes(), &c->output_shapes());
  copy.FindNode("c")->set_output_shapes({});
  EXPECT_TRUE(copy.FindNode("c")->output_shapes().empty());
  EXPECT_EQ(c->output_shapes().size(), 2u);
  // Many outputs: stored, not shared.
  std::vector<PartialTensorShape> many(20, PartialTensorShape({1}));
  a->set_output_shapes(many);
  b->set_output_shapes(many);
  EXPECT_NE(&a->output_shapes(), &b->output_shapes());
  EXPECT_EQ(b->output_shapes().size(), 20u);
}

TEST(GraphTest, NodeAttrMutators) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  AttrValue loc;
  loc.mutable_list()->add_s("loc:@b");
  a->AddAttr("_class", loc);
  EXPECT_EQ(a->def().attr().at("_class").list().s(0), "loc:@b");
  a->ClearAttr("_class");
  EXPECT_EQ(a->def().attr().count("_class"), 0);
  a->set_requested_device("/gpu:0");
  EXPECT_EQ(a->requested_device(), "/gpu:0");
}

TEST(GraphTest, EdgesListsLiveEdges) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * b, g.AddNode(ConstDef("b")));
  const Edge* e1 = g.AddControlEdge(a, b);
  const Edge* e2 = g.AddControlEdge(b, g.sink_node());
  g.RemoveEdge(e1);
  EXPECT_THAT(g.edges(), ElementsAre(e2));
  EXPECT_EQ(g.num_edge_ids(), 2);
}

TEST(GraphTest, TopologicalOrder) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * j, g.AddNode(IdentityDef("j")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK(g.AddEdge(a, 0, i, 0).status());
  RILL_ASSERT_OK(g.AddEdge(i, 0, j, 0).status());
  g.FixupSourceAndSinkEdges();
  const Graph& cg = g;
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<const Node*> order, TopologicalOrder(cg));
  EXPECT_THAT(order, ElementsAre(a, i, j));
  g.AddControlEdge(j, i);
  EXPECT_THAT(TopologicalOrder(g),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("cycle that does not pass through NextIteration"),
                             HasSubstr("j -> i -> j"), HasSubstr("2 nodes in a cycle"))));
}

TEST(GraphTest, NodesCarryTheirOpClassAndAssignedDevice) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * c, g.AddNode(ConstDef("c")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  EXPECT_EQ(c->op_class(), OpClass::kConst);
  EXPECT_EQ(i->op_class(), OpClass::kIdentity);
  EXPECT_EQ(g.source_node()->op_class(), OpClass::kOther);
  EXPECT_EQ(c->assigned_device_name(), "");
  c->set_assigned_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
  Graph copy = g;
  EXPECT_EQ(copy.FindNode("c")->assigned_device_name(),
            "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(copy.FindNode("i")->assigned_device_name(), "");
}

TEST(GraphTest, AddNodeCopySharesPropertiesUnderANewName) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * c, g.AddNode(ConstDef("c")));
  c->set_assigned_device_name("/device:CPU:1");
  Graph other;
  RILL_ASSERT_OK_AND_ASSIGN(Node * same, other.AddNodeCopy(*c));
  EXPECT_EQ(same->name(), "c");
  EXPECT_EQ(same->op_class(), OpClass::kConst);
  EXPECT_EQ(same->assigned_device_name(), "/device:CPU:1");
  EXPECT_EQ(same->output_type(0), DT_FLOAT);
  RILL_ASSERT_OK_AND_ASSIGN(Node * renamed, other.AddNodeCopy(*c, "c2"));
  EXPECT_EQ(renamed->name(), "c2");
  EXPECT_EQ(other.FindNode("c2"), renamed);
  EXPECT_EQ(c->name(), "c");  // the source keeps its name
  EXPECT_THAT(other.AddNodeCopy(*c),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Node 'c' is not unique")));
}

TEST(GraphTest, InputEdgeFollowsAddAndRemove) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  EXPECT_EQ(i->input_edge(0), nullptr);
  RILL_ASSERT_OK_AND_ASSIGN(const Edge* e, g.AddEdge(a, 0, i, 0));
  EXPECT_EQ(i->input_edge(0), e);
  EXPECT_EQ(i->input_node(0), a);
  EXPECT_EQ(i->input_edge(1), nullptr);
  EXPECT_EQ(i->input_edge(-1), nullptr);
  g.RemoveEdge(e);
  EXPECT_EQ(i->input_edge(0), nullptr);
  RILL_ASSERT_OK_AND_ASSIGN(const Edge* again, g.AddEdge(a, 0, i, 0));
  EXPECT_EQ(i->input_edge(0), again);
}

TEST(GraphTest, ControlEdgesAreNotDuplicatedFromEitherSide) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * b, g.AddNode(ConstDef("b")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * c, g.AddNode(ConstDef("c")));
  const Edge* ab = g.AddControlEdge(a, b);
  g.AddControlEdge(a, c);
  // a has the longer out-list, b the shorter in-list; both directions find the edge.
  EXPECT_EQ(g.AddControlEdge(a, b), ab);
  g.AddControlEdge(c, b);
  g.AddControlEdge(g.source_node(), b);
  EXPECT_EQ(g.AddControlEdge(a, b), ab);
  EXPECT_EQ(g.num_edges(), 4);
}

TEST(GraphTest, RemoveNodesDropsEveryEdgeOnce) {
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * a, g.AddNode(ConstDef("a")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef("i")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * j, g.AddNode(IdentityDef("j")));
  RILL_ASSERT_OK_AND_ASSIGN(Node * k, g.AddNode(IdentityDef("k")));
  RILL_ASSERT_OK(g.AddEdge(a, 0, i, 0).status());
  RILL_ASSERT_OK(g.AddEdge(i, 0, j, 0).status());  // between two removed nodes
  RILL_ASSERT_OK(g.AddEdge(j, 0, k, 0).status());
  g.AddControlEdge(i, k);
  g.FixupSourceAndSinkEdges();  // SOURCE -> a, k -> SINK
  ASSERT_EQ(g.num_edges(), 6);
  g.RemoveNodes({i, j});
  EXPECT_EQ(g.num_op_nodes(), 2);
  EXPECT_EQ(g.num_edges(), 2);
  EXPECT_EQ(g.FindNode("i"), nullptr);
  EXPECT_EQ(g.FindNode("j"), nullptr);
  EXPECT_TRUE(a->out_edges().empty());
  ASSERT_EQ(k->in_edges().size(), 0u);
  EXPECT_EQ(k->input_edge(0), nullptr);
  EXPECT_EQ(g.edges().size(), 2u);
  // The freed input can be connected again.
  RILL_ASSERT_OK(g.AddEdge(a, 0, k, 0).status());
  EXPECT_EQ(k->input_node(0), a);
}

TEST(GraphTest, ManyNodesToOneSinkStayLinear) {
  // 200,000 control edges into SINK and their bulk removal: quadratic code would take minutes.
  Graph g;
  std::vector<Node*> nodes;
  for (int n = 0; n < 200000; ++n) {
    RILL_ASSERT_OK_AND_ASSIGN(Node * c, g.AddNode(ConstDef(absl::StrCat("c", n))));
    nodes.push_back(c);
  }
  g.FixupSourceAndSinkEdges();
  EXPECT_EQ(g.sink_node()->in_edges().size(), 200000u);
  nodes.resize(150000);
  g.RemoveNodes(nodes);
  EXPECT_EQ(g.sink_node()->in_edges().size(), 50000u);
  EXPECT_EQ(g.source_node()->out_edges().size(), 50000u);
  EXPECT_EQ(g.num_edges(), 100000);
}

TEST(GraphTest, NodesAndEdgesStayPutAcrossStorageBlocks) {
  // A chain of 10,000 Identities spans several storage blocks: the first node and edge keep their
  // addresses while the graph grows, a copy of it is whole, and removal empties only the nodes
  // removed.
  Graph g;
  RILL_ASSERT_OK_AND_ASSIGN(Node * first, g.AddNode(ConstDef("c")));
  Node* last = first;
  const Edge* first_edge = nullptr;
  for (int n = 0; n < 10000; ++n) {
    RILL_ASSERT_OK_AND_ASSIGN(Node * i, g.AddNode(IdentityDef(absl::StrCat("i", n))));
    RILL_ASSERT_OK_AND_ASSIGN(const Edge* e, g.AddEdge(last, 0, i, 0));
    if (first_edge == nullptr) first_edge = e;
    last = i;
  }
  EXPECT_EQ(g.FindNode("c"), first);
  EXPECT_EQ(g.FindNode("i0")->input_edge(0), first_edge);
  EXPECT_EQ(first_edge->src(), first);
  EXPECT_EQ(g.FindNode("i9999")->input_node(0), g.FindNode("i9998"));

  Graph copy = g;
  EXPECT_EQ(copy.num_op_nodes(), 10001);
  EXPECT_EQ(copy.num_edges(), 10000);
  EXPECT_EQ(copy.FindNode("i5000")->input_node(0), copy.FindNode("i4999"));
  std::vector<Node*> odd;
  for (int n = 1; n < 10000; n += 2) odd.push_back(copy.FindNode(absl::StrCat("i", n)));
  copy.RemoveNodes(odd);
  EXPECT_EQ(copy.num_op_nodes(), 5001);
  EXPECT_EQ(copy.num_edges(), 1);  // c -> i0
  EXPECT_EQ(copy.FindNode("i1"), nullptr);
  EXPECT_TRUE(copy.FindNode("i2")->in_edges().empty());
  EXPECT_EQ(g.num_op_nodes(), 10001);
  EXPECT_EQ(g.FindNode("i2")->input_node(0), g.FindNode("i1"));

  Graph moved = std::move(copy);
  RILL_ASSERT_OK_AND_ASSIGN(Node * extra, moved.AddNode(IdentityDef("extra")));
  RILL_ASSERT_OK(moved.AddEdge(moved.FindNode("i0"), 0, extra, 0).status());
  EXPECT_EQ(moved.num_op_nodes(), 5002);
  EXPECT_EQ(extra->id(), 10003);  // ids are never reused
  EXPECT_EQ(moved.FindNode("extra")->input_node(0), moved.FindNode("i0"));
}

}  // namespace
}  // namespace rill
