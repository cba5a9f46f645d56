// Graphs whose size sets the depth of the executor's work: a chain of 100,000 Adds alternating
// between two CPU devices (100,000 _Send/_Recv pairs, each _Recv completed by a _Send on the same
// thread) must finish with the right value, not overflow the stack; the same chain in an untaken
// Switch branch (deadness carried across every edge) too; and 100,000 nested loop frames end and
// are freed without a recursion as deep.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

NodeDef* AddNode(GraphDef& g, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& device) {
  NodeDef* n = g.add_node();
  n->set_name(name);
  n->set_op(op);
  n->set_device(device);
  for (const std::string& in : inputs) n->add_input(in);
  (*n->mutable_attr())["T"].set_type(DT_FLOAT);
  return n;
}

NodeDef* AddConst(GraphDef& g, const std::string& name, float value, const std::string& device) {
  NodeDef* n = AddNode(g, name, "Const", {}, device);
  n->mutable_attr()->erase("T");
  (*n->mutable_attr())["dtype"].set_type(DT_FLOAT);
  TensorProto* t = (*n->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(DT_FLOAT);
  t->mutable_tensor_shape();
  t->add_float_val(value);
  return n;
}

// c (0.5, on CPU:1) + 1 + 1 + ... (`edges` Adds, the k-th on CPU:(k + 1) % 2): every Add reads
// its input from the other device. The last Add is "y". Both partitions' _Recvs are roots and
// wait before the first value crosses (c's _Send is queued behind CPU:1's _Recvs), so each _Send
// finds its _Recv waiting: the case that used to recurse once per edge.
GraphDef CrossDeviceChain(int edges) {
  GraphDef g;
  AddConst(g, "c", 0.5f, kCpu1);
  AddConst(g, "one0", 1.f, kCpu0);
  AddConst(g, "one1", 1.f, kCpu1);
  std::string prev = "c";
  for (int k = 1; k <= edges; ++k) {
    const int d = (k + 1) % 2;
    const std::string name = k == edges ? "y" : absl::StrCat("add", k);
    AddNode(g, name, "Add", {prev, absl::StrCat("one", d)}, d == 0 ? kCpu0 : kCpu1);
    prev = name;
  }
  return g;
}

// Two CPU devices; the optimizer off, so no pass touches the chain.
SessionOptions TwoCpus(int inter_op_threads) {
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = 2;
  options.config.set_inter_op_parallelism_threads(inter_op_threads);
  options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  return options;
}

TEST(DeepGraphTest, AHundredThousandCrossDeviceEdgesFinishWithTheRightValue) {
  constexpr int kEdges = 100000;
  const GraphDef g = CrossDeviceChain(kEdges);
  for (int threads : {1, 2}) {
    SCOPED_TRACE(absl::StrCat(threads, " inter-op threads"));
    auto s = Session::New(TwoCpus(threads));
    ASSERT_THAT(s.status(), IsOk());
    ASSERT_THAT((*s)->Create(g), IsOk());
    for (int run = 0; run < 2; ++run) {
      std::vector<Tensor> out;
      ASSERT_THAT((*s)->Run({}, {"y:0"}, {}, &out), IsOk());
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].flat<float>()[0], 0.5f + kEdges);
    }
  }
}

TEST(DeepGraphTest, ADeadCrossDeviceChainOfAHundredThousandEdgesFinishes) {
  // Switch(c, false): the true branch (the chain) is dead all along, across every edge; the
  // Merge forwards the false branch once the dead chain has reached it.
  constexpr int kEdges = 100000;
  GraphDef g = CrossDeviceChain(kEdges);
  NodeDef* pred = AddNode(g, "pred", "Const", {}, kCpu1);
  pred->mutable_attr()->erase("T");
  (*pred->mutable_attr())["dtype"].set_type(DT_BOOL);
  TensorProto* t = (*pred->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(DT_BOOL);
  t->mutable_tensor_shape();
  t->add_bool_val(false);
  AddNode(g, "sw", "Switch", {"c", "pred"}, kCpu1);
  // The first Add reads the Switch's true output instead of c.
  for (NodeDef& n : *g.mutable_node()) {
    if (n.name() == "add1") n.set_input(0, "sw:1");
  }
  NodeDef* merge = AddNode(g, "m", "Merge", {"sw:0", "y"}, kCpu1);
  (*merge->mutable_attr())["N"].set_i(2);
  auto s = Session::New(TwoCpus(2));
  ASSERT_THAT(s.status(), IsOk());
  ASSERT_THAT((*s)->Create(g), IsOk());
  std::vector<Tensor> out;
  ASSERT_THAT((*s)->Run({}, {"m:0"}, {}, &out), IsOk());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].flat<float>()[0], 0.5f);
}

TEST(DeepGraphTest, AHundredThousandNestedFramesEndAndAreFreed) {
  // c -> Enter(f1) -> Enter(f2, inside f1) -> ... -> Enter(fN): N nested loop frames. The
  // innermost ends first, and each frame is then done in turn up to the root: freed one after
  // the other, not by a recursion N deep.
  constexpr int kNested = 100000;
  GraphDef g;
  AddConst(g, "c", 0.5f, kCpu0);
  std::string prev = "c";
  for (int k = 1; k <= kNested; ++k) {
    const std::string name = absl::StrCat("enter", k);
    NodeDef* enter = AddNode(g, name, "Enter", {prev}, kCpu0);
    (*enter->mutable_attr())["frame_name"].set_s(absl::StrCat("f", k));
    (*enter->mutable_attr())["is_constant"].set_b(false);
    (*enter->mutable_attr())["parallel_iterations"].set_i(10);
    prev = name;
  }
  auto s = Session::New(TwoCpus(2));
  ASSERT_THAT(s.status(), IsOk());
  ASSERT_THAT((*s)->Create(g), IsOk());
  std::vector<Tensor> out;
  for (int run = 0; run < 2; ++run) {
    EXPECT_THAT((*s)->Run({}, {}, {prev}, &out), IsOk());
  }
}

}  // namespace
}  // namespace rill
