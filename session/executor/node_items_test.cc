// BuildNodeItems: per-node flags, pending counts, roots, flattened out-edges, frame assignment
// and layout, the wide-start count, and the errors that name the node.
#include "session/executor/node_items.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "session/executor/test_util.h"

namespace rill {
namespace executor_internal {
namespace {

using ::testing::HasSubstr;

const NodeItem& Item(const NodeItems& items, const std::string& name) {
  const int i = IndexOf(items, name);
  EXPECT_GE(i, 0) << name;
  return items.nodes[i < 0 ? 0 : i];
}

TEST(NodeItemsTest, FlagsFollowTheOpClassAndTheKernel) {
  const std::string text = absl::StrCat(
      NodeText("src", "PartTestSource"), NodeText("heavy", "PartTestHeavy", {"src"}),
      NodeText("async", "PartTestAsync", {"src"}), NodeText("pred", "PartTestBool"),
      NodeText("sw", "Switch", {"src", "pred"}), NodeText("m", "Merge", {"sw:0", "sw:1"}),
      NodeText("trig", "ControlTrigger", {"^m"}),
      NodeText("recv", "_Recv", {},
               absl::StrCat("attr { key: 'tensor_type' value { type: DT_INT32 } } ",
                            TransferAttrs("t"))),
      NodeText("send", "_Send", {"recv"}, TransferAttrs("u")),
      NodeText("ret", "_Retval", {"heavy"}, "attr { key: 'index' value { i: 0 } }"),
      NodeText("var", "PartTestRefSource"), NodeText("init", "PartTestRefInit", {"var"}),
      LoopText("l", "L", "src", "src", "src"));
  RILL_ASSERT_OK_AND_ASSIGN(NodeItems items, BuildTestItems(text));
  EXPECT_FALSE(Item(items, "src").is_expensive);
  EXPECT_TRUE(Item(items, "heavy").is_expensive);
  EXPECT_TRUE(Item(items, "async").is_async);
  EXPECT_FALSE(Item(items, "heavy").is_async);
  EXPECT_TRUE(Item(items, "sw").may_leave_output);
  EXPECT_TRUE(Item(items, "m").is_merge);
  EXPECT_TRUE(Item(items, "trig").is_control_trigger);
  EXPECT_TRUE(Item(items, "recv").is_transfer);
  EXPECT_TRUE(Item(items, "recv").may_leave_output);
  EXPECT_TRUE(Item(items, "send").is_transfer);
  EXPECT_FALSE(Item(items, "send").may_leave_output);
  EXPECT_TRUE(Item(items, "ret").copies_ref_inputs);
  EXPECT_FALSE(Item(items, "heavy").copies_ref_inputs);
  EXPECT_TRUE(Item(items, "init").allows_uninitialized_input);
  EXPECT_TRUE(Item(items, "l/enter").is_enter);
  EXPECT_FALSE(Item(items, "l/enter").is_constant_enter);
  EXPECT_TRUE(Item(items, "l/limit_enter").is_constant_enter);
  EXPECT_TRUE(Item(items, "l/exit").is_exit);
  EXPECT_TRUE(Item(items, "l/next").is_next_iteration);
  for (const char* name : {"l/enter", "l/limit_enter", "l/exit", "l/next", "l/cond", "l/body"}) {
    EXPECT_EQ(Item(items, name).forwarding, NodeItem::Forwarding::kInput0) << name;
  }
  EXPECT_EQ(Item(items, "sw").forwarding, NodeItem::Forwarding::kSwitch);
  EXPECT_EQ(Item(items, "l/switch").forwarding, NodeItem::Forwarding::kSwitch);
  EXPECT_EQ(Item(items, "m").forwarding, NodeItem::Forwarding::kMerge);
  EXPECT_EQ(Item(items, "l/merge").forwarding, NodeItem::Forwarding::kMerge);
  for (const char* name : {"src", "heavy", "async", "trig", "recv", "send", "ret", "init"}) {
    EXPECT_EQ(Item(items, name).forwarding, NodeItem::Forwarding::kNone) << name;
  }
  EXPECT_EQ(Item(items, "sw").num_inputs, 2);
  EXPECT_EQ(Item(items, "sw").num_outputs, 2);
  EXPECT_EQ(Item(items, "send").num_outputs, 0);
  EXPECT_TRUE(Item(items, "send").host_outputs.empty());  // CPU: every output in host memory
  EXPECT_TRUE(items.has_loops);
  EXPECT_TRUE(items.has_async);  // PartTestAsync
  EXPECT_FALSE(items.simple);
}

TEST(NodeItemsTest, PendingCountsCountDataAndControlInEdgesAndMergeKeepsABit) {
  const std::string text = absl::StrCat(
      NodeText("a", "PartTestSource"), NodeText("b", "PartTestSource"),
      NodeText("d", "PartTestSource"), NodeText("c", "PartTestBinary", {"a", "b", "^d"}),
      NodeText("m", "Merge", {"a", "b", "^c", "^d"}));
  RILL_ASSERT_OK_AND_ASSIGN(NodeItems items, BuildTestItems(text));
  EXPECT_EQ(Item(items, "a").initial_pending, 0);
  EXPECT_EQ(Item(items, "c").initial_pending, 3);
  // A Merge waits for one live data input (bit 0) and counts each control input twice.
  EXPECT_EQ(Item(items, "m").initial_pending, kMergeNoLiveInputBit + 2 * kMergeControlInputStep);
  EXPECT_EQ(items.roots,
            (std::vector<int>{IndexOf(items, "a"), IndexOf(items, "b"), IndexOf(items, "d")}));
  EXPECT_EQ(Item(items, "d").control_out,
            (std::vector<int>{IndexOf(items, "c"), IndexOf(items, "m")}));
  ASSERT_EQ(Item(items, "a").out_edges.size(), 1u);
  EXPECT_EQ(Item(items, "a").out_edges[0].size(), 2u);
  EXPECT_EQ(Item(items, "c").input_src,
            (std::vector<int>{IndexOf(items, "a"), IndexOf(items, "b")}));
  EXPECT_FALSE(items.simple);  // a Merge
  EXPECT_FALSE(items.has_loops);
  EXPECT_FALSE(items.has_async);
  // Flattened in every partition, with what the frame propagator's Merge rules need.
  const std::vector<FlatEdge>& a_out = Item(items, "a").flat_out;
  ASSERT_EQ(a_out.size(), 2u);
  EXPECT_EQ(a_out[0].dst, IndexOf(items, "c"));
  EXPECT_FALSE(a_out[0].dst_is_merge);
  EXPECT_EQ(a_out[0].dst_num_inputs, 2);
  EXPECT_FALSE(a_out[0].last_use);
  EXPECT_EQ(a_out[1].dst, IndexOf(items, "m"));
  EXPECT_TRUE(a_out[1].dst_is_merge);
  EXPECT_EQ(a_out[1].dst_num_inputs, 2);
  EXPECT_EQ(a_out[1].input_slot, Item(items, "m").input_start);
  EXPECT_TRUE(a_out[1].last_use);
  const std::vector<FlatEdge>& d_out = Item(items, "d").flat_out;
  ASSERT_EQ(d_out.size(), 2u);
  EXPECT_EQ(d_out[1].dst, IndexOf(items, "m"));
  EXPECT_EQ(d_out[1].output, -1);
  EXPECT_TRUE(d_out[1].dst_is_merge);
}

TEST(NodeItemsTest, SimplePartitionFlattensEachOutputsEdgesThenControlEdges) {
  const std::string text = absl::StrCat(
      NodeText("x", "PartTestSource"), NodeText("y", "PartTestUnary", {"x"}),
      NodeText("z", "PartTestBinary", {"x", "y"}), NodeText("t", "PartTestTwoOut", {"z"}),
      NodeText("s1", "PartTestSink", {"t:1"}), NodeText("s0", "PartTestSink", {"t:0"}),
      NodeText("trig", "ControlTrigger", {"^x"}));
  RILL_ASSERT_OK_AND_ASSIGN(NodeItems items, BuildTestItems(text));
  ASSERT_TRUE(items.simple);
  ASSERT_EQ(items.frames.size(), 1u);
  const int y = IndexOf(items, "y"), z = IndexOf(items, "z"), trig = IndexOf(items, "trig");
  // Input slots are laid out by node index: x has none, y one, z two.
  EXPECT_EQ(items.nodes[y].input_start, 0);
  EXPECT_EQ(items.nodes[z].input_start, 1);
  const std::vector<FlatEdge>& x_out = Item(items, "x").flat_out;
  ASSERT_EQ(x_out.size(), 3u);
  EXPECT_EQ(x_out[0].dst, y);
  EXPECT_EQ(x_out[0].dst_local, items.nodes[y].local_id);
  EXPECT_EQ(x_out[0].dst_slot, 0);
  EXPECT_EQ(x_out[0].input_slot, 0);
  EXPECT_EQ(x_out[0].output, 0);
  EXPECT_FALSE(x_out[0].last_use);
  EXPECT_EQ(x_out[1].dst, z);
  EXPECT_EQ(x_out[1].input_slot, 1);
  EXPECT_TRUE(x_out[1].last_use);  // the output's last data edge may move the value
  EXPECT_EQ(x_out[2].dst, trig);   // control edges come last and carry no value
  EXPECT_EQ(x_out[2].output, -1);
  EXPECT_EQ(x_out[2].dst_slot, -1);
  EXPECT_TRUE(x_out[2].dst_is_control_trigger);
  EXPECT_FALSE(x_out[2].last_use);
  const std::vector<FlatEdge>& y_out = Item(items, "y").flat_out;
  ASSERT_EQ(y_out.size(), 1u);
  EXPECT_EQ(y_out[0].dst_slot, 1);
  EXPECT_EQ(y_out[0].input_slot, 2);
  // Each output of a node with two: its own edges, in output order.
  const std::vector<FlatEdge>& t_out = Item(items, "t").flat_out;
  ASSERT_EQ(t_out.size(), 2u);
  EXPECT_EQ(t_out[0].output, 0);
  EXPECT_EQ(t_out[0].dst, IndexOf(items, "s0"));
  EXPECT_EQ(t_out[1].output, 1);
  EXPECT_EQ(t_out[1].dst, IndexOf(items, "s1"));
  EXPECT_TRUE(t_out[0].last_use && t_out[1].last_use);
  EXPECT_EQ(items.frames[0].total_inputs, 6);
  EXPECT_EQ(items.frames[0].num_nodes, 7);
}

TEST(NodeItemsTest, InputsAreCheckedOnlyWhereARefCanLeaveASlotEmpty) {
  const std::string text = absl::StrCat(
      NodeText("src", "PartTestSource"), NodeText("plain", "PartTestUnary", {"src"}),
      NodeText("var", "PartTestRefSource"), NodeText("reader", "PartTestRefReader", {"var"}),
      NodeText("var2", "PartTestRefSource"), NodeText("deref", "PartTestUnary", {"var2"}));
  RILL_ASSERT_OK_AND_ASSIGN(NodeItems items, BuildTestItems(text));
  EXPECT_FALSE(Item(items, "plain").check_inputs);
  EXPECT_TRUE(Item(items, "reader").check_inputs);  // a ref input
  EXPECT_EQ(Item(items, "reader").input_is_ref, std::vector<bool>{true});
  EXPECT_TRUE(Item(items, "deref").check_inputs);  // a producer with a ref output
  EXPECT_EQ(Item(items, "deref").input_is_ref, std::vector<bool>{false});
}

TEST(NodeItemsTest, NestedLoopsGetNestedFramesWithTheirOwnSlotLayout) {
  const std::string text = absl::StrCat(
      NodeText("zero", "PartTestSource"), NodeText("two", "PartTestSource"),
      NodeText("three", "PartTestSource"), NodeText("one", "PartTestSource"),
      LoopText("o", "O", "zero", "two", "one", 4),
      NodeText("o/inner_limit", "Enter", {"three"}, EnterAttrs("O", true, 4)),
      LoopText("i", "I", "o/body", "o/inner_limit", "o/step_enter", 2),
      NodeText("i/use", "PartTestSink", {"i/body"}), NodeText("o/use", "PartTestSink", {"i/exit"}));
  RILL_ASSERT_OK_AND_ASSIGN(NodeItems items, BuildTestItems(text));
  EXPECT_TRUE(items.has_loops);
  EXPECT_FALSE(items.simple);
  ASSERT_EQ(items.frames.size(), 3u);
  EXPECT_EQ(items.frames[0].name, "");
  EXPECT_EQ(items.frames[1].name, "O");
  EXPECT_EQ(items.frames[1].parent, 0);
  EXPECT_EQ(items.frames[2].name, "I");
  EXPECT_EQ(items.frames[2].parent, 1);
  EXPECT_EQ(items.frames[1].num_enters, 4);  // enter, limit, step and the inner loop's limit
  EXPECT_EQ(items.frames[2].num_enters, 3);
  // An Enter runs in its parent frame and opens its child; an Exit runs in the loop and feeds
  // the parent.
  EXPECT_EQ(Item(items, "o/enter").frame, 0);
  EXPECT_EQ(Item(items, "o/enter").child_frame, 1);
  EXPECT_EQ(Item(items, "o/enter").parallel_iterations, 4);
  EXPECT_EQ(Item(items, "o/merge").frame, 1);
  EXPECT_EQ(Item(items, "o/exit").frame, 1);
  EXPECT_EQ(Item(items, "i/enter").frame, 1);
  EXPECT_EQ(Item(items, "i/enter").child_frame, 2);
  EXPECT_EQ(Item(items, "i/enter").parallel_iterations, 2);
  EXPECT_EQ(Item(items, "i/use").frame, 2);
  EXPECT_EQ(Item(items, "i/exit").frame, 2);
  EXPECT_EQ(Item(items, "o/use").frame, 1);
  // Per frame: local ids 0..n-1 in index order, input slots one after the other, and the
  // initial pending counts by local id.
  for (size_t f = 0; f < items.frames.size(); ++f) {
    int next_local = 0, next_input = 0;
    for (const NodeItem& item : items.nodes) {
      if (item.frame != static_cast<int>(f)) continue;
      EXPECT_EQ(item.local_id, next_local++) << item.kernel->name();
      EXPECT_EQ(item.input_start, next_input) << item.kernel->name();
      next_input += item.num_inputs;
      EXPECT_EQ(items.frames[f].initial_pending[item.local_id], item.initial_pending);
    }
    EXPECT_EQ(items.frames[f].num_nodes, next_local);
    EXPECT_EQ(items.frames[f].total_inputs, next_input);
  }
  // A flattened edge names its consumer's slot in the consumer's frame: an Enter's in the loop
  // it enters, an Exit's in the enclosing loop.
  for (const char* name : {"i/enter", "i/exit", "o/enter"}) {
    const NodeItem& item = Item(items, name);
    ASSERT_FALSE(item.flat_out.empty()) << name;
    for (const FlatEdge& e : item.flat_out) {
      const NodeItem& dst = items.nodes[e.dst];
      EXPECT_EQ(e.dst_local, dst.local_id) << name;
      EXPECT_EQ(e.input_slot, dst.input_start + e.dst_slot) << name;
      EXPECT_EQ(e.dst_is_merge, dst.is_merge) << name;
    }
  }
  EXPECT_TRUE(Item(items, "i/enter").flat_out[0].dst_is_merge);
  EXPECT_EQ(items.nodes[Item(items, "i/exit").flat_out[0].dst].frame, 1);
}

// Below 1 TensorFlow's executor never holds an iteration back (it waits only while the live
// iterations equal the limit), so 0 and negative limits run unbounded: here, at the cap.
TEST(NodeItemsTest, ParallelIterationsAreClampedAndBelowOneUnbounded) {
  auto loop = [](int parallel) {
    return absl::StrCat(NodeText("src", "PartTestSource"),
                        LoopText("l", "L", "src", "src", "src", parallel));
  };
  RILL_ASSERT_OK_AND_ASSIGN(NodeItems items, BuildTestItems(loop(5000)));
  EXPECT_EQ(Item(items, "l/enter").parallel_iterations, kMaxParallelIterations);
  RILL_ASSERT_OK_AND_ASSIGN(items, BuildTestItems(loop(1)));
  EXPECT_EQ(Item(items, "l/enter").parallel_iterations, 1);
  for (int parallel : {0, -1, -2147483647 - 1}) {
    RILL_ASSERT_OK_AND_ASSIGN(items, BuildTestItems(loop(parallel)));
    EXPECT_EQ(Item(items, "l/enter").parallel_iterations, kMaxParallelIterations) << parallel;
  }
}

TEST(NodeItemsTest, AnEnterWithoutAFrameNameIsRefused) {
  EXPECT_THAT(BuildTestItems(absl::StrCat(NodeText("src", "PartTestSource"),
                                          LoopText("l", "", "src", "src", "src", 1))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The Enter node l/enter must have a frame name; give it its loop's name"));
}

TEST(NodeItemsTest, CountsExpensiveNodesFedByRootsAlone) {
  const std::string text = absl::StrCat(
      NodeText("r1", "PartTestSource"), NodeText("r2", "PartTestHeavySource"),
      NodeText("h1", "PartTestHeavy", {"r1"}),         // counted
      NodeText("h2", "PartTestHeavy", {"r2"}),         // counted: an expensive root feeds it
      NodeText("h3", "PartTestHeavy", {"h1"}),         // fed by a non-root
      NodeText("h4", "PartTestHeavy", {"r1", "^h1"}),  // a control edge from a non-root
      NodeText("u", "PartTestUnary", {"r1"}));         // cheap
  RILL_ASSERT_OK_AND_ASSIGN(NodeItems items, BuildTestItems(text));
  EXPECT_EQ(items.expensive_fed_by_roots, 2);
  EXPECT_TRUE(items.simple);
  EXPECT_FALSE(items.has_loops);
}

TEST(NodeItemsTest, UnknownOpsAndMissingKernelsNameTheNode) {
  EXPECT_THAT(
      BuildTestItems("node { name: 'q' op: 'NoSuchOp' }"),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("Op type not registered 'NoSuchOp'")));
  // Add is a known op without a kernel in the test registry.
  const absl::StatusOr<NodeItems> no_kernel = BuildTestItems(absl::StrCat(
      NodeText("src", "PartTestSource"),
      NodeText("add", "Add", {"src", "src"}, "attr { key: 'T' value { type: DT_INT32 } }")));
  EXPECT_FALSE(no_kernel.ok());
  EXPECT_THAT(no_kernel.status().message(), HasSubstr("\n\t [[{{node add}}]]"));
}

TEST(NodeItemsTest, AnUnconnectedInputIsAnIncompleteGraph) {
  Graph unconnected;
  NodeDef add;
  add.set_name("s");
  add.set_op("PartTestBinary");
  RILL_ASSERT_OK(unconnected.AddNode(add).status());
  EXPECT_THAT(BuildNodeItems(unconnected, TestCpu(), PartTestKernels()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incomplete graph, input 0 of s is not connected"));
}

TEST(NodeItemsTest, FrameErrorsNameTheNodeAndTheFrames) {
  const std::string src = NodeText("src", "PartTestSource");
  EXPECT_THAT(BuildTestItems(absl::StrCat(src, NodeText("e", "Exit", {"src"}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Exit node e is not inside a while loop")));
  // A value that skips the Enter.
  const std::string loop = absl::StrCat(src, LoopText("l", "L", "src", "src", "src"));
  EXPECT_THAT(
      BuildTestItems(absl::StrCat(loop, NodeText("mix", "PartTestBinary", {"l/body", "src"}))),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("a tensor enters a loop only through Enter and leaves it only through "
                         "Exit")));
  // The same with a _Recv in the partition: a loop body cut by the partitioner.
  const std::string recv = NodeText(
      "recv", "_Recv", {},
      absl::StrCat("attr { key: 'tensor_type' value { type: DT_INT32 } } ", TransferAttrs("t")));
  EXPECT_THAT(BuildTestItems(
                  absl::StrCat(loop, recv, NodeText("mix", "PartTestBinary", {"l/body", "recv"}))),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("a while loop's body is split across devices here")));
  // A transfer inside a loop frame.
  EXPECT_THAT(
      BuildTestItems(absl::StrCat(loop, NodeText("send", "_Send", {"l/body"}, TransferAttrs("u")))),
      StatusIs(absl::StatusCode::kUnimplemented,
               HasSubstr("Node send (_Send) moves a tensor between devices inside while "
                         "loop 'L'")));
  // One frame entered from two enclosing frames.
  EXPECT_THAT(
      BuildTestItems(absl::StrCat(loop, NodeText("x_root", "Enter", {"src"}, EnterAttrs("X")),
                                  NodeText("x_loop", "Enter", {"l/body"}, EnterAttrs("X")))),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("every Enter of a loop must sit in the same enclosing frame")));
}

TEST(NodeItemsTest, WithNodeAppendsTensorFlowsTrailerAndKeepsTheCode) {
  EXPECT_THAT(WithNode(absl::InvalidArgumentError("bad value"), "n"),
              StatusIs(absl::StatusCode::kInvalidArgument, "bad value\n\t [[{{node n}}]]"));
}

}  // namespace
}  // namespace executor_internal
}  // namespace rill
