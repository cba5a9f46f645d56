#include "session/run_graph.h"

#include <memory>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "google/protobuf/text_format.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr char kClient[] = "/job:localhost/replica:0/task:0/device:CPU:0";

// x (Placeholder) and y (Const) feed s = x + y; t waits on x by a control edge; u is unused.
constexpr char kGraph[] = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "y"
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
          tensor_shape {}
          float_val: 2
        }
      }
    }
  }
  node {
    name: "s"
    op: "Add"
    input: "x"
    input: "y"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node { name: "t" op: "NoOp" input: "^x" }
  node {
    name: "u"
    op: "Neg"
    input: "y"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
)pb";

std::unique_ptr<Graph> Import(const std::string& text) {
  GraphDef def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &def));
  absl::StatusOr<std::unique_ptr<Graph>> g = ImportGraphDef(def);
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

std::vector<std::string> Inputs(const Graph& g, const std::string& node) {
  NodeDef def = NodeDefWithInputs(*g.FindNode(node));
  return std::vector<std::string>(def.input().begin(), def.input().end());
}

std::vector<std::string> Names(const Graph& g) {
  std::vector<std::string> out;
  for (const Node* n : g.op_nodes()) out.push_back(n->name());
  return out;
}

TEST(RunGraphTest, FeedsBecomeArgsFetchesRetvalsAndTheRestIsPruned) {
  std::unique_ptr<Graph> g = Import(kGraph);
  RILL_ASSERT_OK_AND_ASSIGN(RunGraph run, BuildRunGraph(*g, {"x"}, {"s:0", "s"}, {"t"}, kClient));
  EXPECT_THAT(run.feeds, ElementsAre("x:0"));
  EXPECT_THAT(run.feed_types, ElementsAre(DT_FLOAT));
  EXPECT_THAT(run.fetches, ElementsAre("s:0"));  // distinct
  EXPECT_THAT(run.arg_nodes, ElementsAre("_arg_x_0_0"));
  EXPECT_THAT(run.retval_nodes, ElementsAre("_retval_s_0_0"));
  // The fed Placeholder is pruned: its data and control consumers read the _Arg; u is unused.
  EXPECT_THAT(Names(run.graph), UnorderedElementsAre("y", "s", "t", "_arg_x_0_0", "_retval_s_0_0"));
  EXPECT_THAT(Inputs(run.graph, "s"), ElementsAre("_arg_x_0_0", "y"));
  EXPECT_THAT(Inputs(run.graph, "t"), ElementsAre("^_arg_x_0_0"));
  EXPECT_THAT(Inputs(run.graph, "_retval_s_0_0"), ElementsAre("s"));
  EXPECT_EQ(run.graph.FindNode("_arg_x_0_0")->assigned_device_name(), kClient);
  EXPECT_EQ(run.graph.FindNode("_retval_s_0_0")->assigned_device_name(), kClient);
  // Kept nodes keep their ids; the session's graph is untouched.
  EXPECT_EQ(run.graph.FindNode("s")->id(), g->FindNode("s")->id());
  EXPECT_EQ(g->num_op_nodes(), 5);
  EXPECT_THAT(Inputs(*g, "s"), ElementsAre("x", "y"));
}

TEST(RunGraphTest, FeedingANonPlaceholderKeepsItsControlConsumers) {
  std::unique_ptr<Graph> g = Import(kGraph);
  RILL_ASSERT_OK_AND_ASSIGN(RunGraph run, BuildRunGraph(*g, {"y:0"}, {"u"}, {}));
  EXPECT_THAT(Inputs(run.graph, "u"), ElementsAre("_arg_y_0_0"));
  EXPECT_THAT(Names(run.graph), UnorderedElementsAre("u", "_arg_y_0_0", "_retval_u_0_0"));
}

TEST(RunGraphTest, ArgsAndRetvalsAreNumberedBySortedFeedsAndFetchOrder) {
  std::unique_ptr<Graph> g = Import(kGraph);
  RILL_ASSERT_OK_AND_ASSIGN(RunGraph run, BuildRunGraph(*g, {"y", "x"}, {"u", "s"}, {}));
  EXPECT_THAT(run.arg_nodes, ElementsAre("_arg_x_0_0", "_arg_y_0_1"));
  EXPECT_THAT(run.retval_nodes, ElementsAre("_retval_u_0_0", "_retval_s_0_1"));
  EXPECT_THAT(Inputs(run.graph, "s"), ElementsAre("_arg_x_0_0", "_arg_y_0_1"));
}

TEST(RunGraphTest, ErrorsUseTensorFlowsTexts) {
  std::unique_ptr<Graph> g = Import(kGraph);
  EXPECT_THAT(BuildRunGraph(*g, {}, {}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Must specify at least one target to fetch or execute."));
  EXPECT_THAT(BuildRunGraph(*g, {"x", "x:0"}, {"s"}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument, "Endpoint \"x:0\" fed more than once."));
  EXPECT_THAT(BuildRunGraph(*g, {"x"}, {"x"}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument, "x:0 is both fed and fetched."));
  EXPECT_THAT(BuildRunGraph(*g, {"q"}, {"s"}, {}),
              StatusIs(absl::StatusCode::kNotFound, "FeedInputs: unable to find feed output q:0"));
  EXPECT_THAT(BuildRunGraph(*g, {}, {"q:1"}, {}),
              StatusIs(absl::StatusCode::kNotFound, "FetchOutputs node q:1: not found"));
  EXPECT_THAT(
      BuildRunGraph(*g, {}, {"s"}, {"nope", "t"}),
      StatusIs(absl::StatusCode::kNotFound, "PruneForTargets: Some target nodes not found: nope "));
  EXPECT_THAT(
      BuildRunGraph(*g, {"y:1"}, {"s"}, {}),
      StatusIs(absl::StatusCode::kInvalidArgument, "FeedInputs: y:1 should have output index < 1"));
  EXPECT_THAT(BuildRunGraph(*g, {}, {"s:3"}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "FetchOutputs s:3: output index too large, must be < 1"));
  EXPECT_THAT(BuildRunGraph(*g, {}, {"t"}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Tried to fetch data for 't:0', which produces no output.")));
}

TEST(RunGraphTest, AControlInputIsNeitherFedNorFetched) {
  // "^x" parses as x's control output (index -1), which has no dtype to read.
  std::unique_ptr<Graph> g = Import(kGraph);
  EXPECT_THAT(BuildRunGraph(*g, {"^x"}, {"s"}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "FeedInputs: '^x' names a control input, not a tensor; feed x:0"));
  EXPECT_THAT(BuildRunGraph(*g, {}, {"^s"}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "FetchOutputs: '^s' names a control input, not a tensor; fetch s:0, or pass "
                       "s as a target to run it without fetching a value"));
}

TEST(RunGraphTest, UnknownOpsFailOnlyWhenFedOrFetched) {
  std::unique_ptr<Graph> g = Import(R"pb(
    node { name: "w" op: "NoSuchOp" }
    node { name: "n" op: "NoOp" }
  )pb");
  RILL_ASSERT_OK_AND_ASSIGN(RunGraph run, BuildRunGraph(*g, {}, {}, {"n"}));
  EXPECT_THAT(Names(run.graph), ElementsAre("n"));
  EXPECT_THAT(
      BuildRunGraph(*g, {}, {"w"}, {}),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("Op type not registered 'NoSuchOp'")));
}

TEST(RunGraphTest, LongChainsAndWideFanInStayLinear) {
  // A 100,000-node chain and a 100,000-input AddN: recursion or quadratic pruning would show.
  GraphDef def;
  NodeDef* c = def.add_node();
  c->set_name("c0");
  c->set_op("Const");
  AttrValue dtype;
  dtype.set_type(DT_FLOAT);
  (*c->mutable_attr())["dtype"] = dtype;
  AttrValue value;
  value.mutable_tensor()->set_dtype(DT_FLOAT);
  value.mutable_tensor()->add_float_val(1);
  (*c->mutable_attr())["value"] = value;
  for (int i = 1; i < 100000; ++i) {
    NodeDef* n = def.add_node();
    n->set_name("c" + std::to_string(i));
    n->set_op("Identity");
    n->add_input("c" + std::to_string(i - 1));
    (*n->mutable_attr())["T"] = dtype;
  }
  NodeDef* sum = def.add_node();
  sum->set_name("sum");
  sum->set_op("AddN");
  for (int i = 0; i < 100000; ++i) sum->add_input("c" + std::to_string(i));
  (*sum->mutable_attr())["T"] = dtype;
  AttrValue n_attr;
  n_attr.set_i(100000);
  (*sum->mutable_attr())["N"] = n_attr;
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Graph> g, ImportGraphDef(def));
  RILL_ASSERT_OK_AND_ASSIGN(RunGraph run, BuildRunGraph(*g, {"c50000"}, {"sum"}, {}));
  // c0..c99999 without the fed c50000, then the _Arg, sum and the _Retval.
  EXPECT_EQ(run.graph.num_op_nodes(), 99999 + 3);
  EXPECT_EQ(run.graph.FindNode("c50000"), nullptr);
  EXPECT_EQ(run.graph.FindNode("sum")->input_node(50000)->name(), "_arg_c50000_0_0");
}

}  // namespace
}  // namespace rill
