// PropagateLockFree driven directly on a root iteration: readiness on the last input, values
// moved on their last use and copied before, deadness through data and control edges (an unset
// output, a dead producer, a ControlTrigger), concurrent producers; and RootIterationPool.
#include "session/executor/simple_propagator.h"

#include <atomic>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "session/executor/test_util.h"

namespace rill {
namespace executor_internal {
namespace {

// The frame tag the propagator puts on the nodes it readies: opaque here, never dereferenced.
char root_tag_storage;
FrameState* const kRootTag = reinterpret_cast<FrameState*>(&root_tag_storage);

class SimplePropagatorTest : public ::testing::Test {
 protected:
  void Build(const std::string& text) {
    RILL_ASSERT_OK_AND_ASSIGN(items_, BuildTestItems(text));
    ASSERT_TRUE(items_.simple);
    root_ = std::make_unique<IterationState>(items_.frames[0], 0);
  }
  int Id(const std::string& name) const { return IndexOf(items_, name); }
  const NodeItem& Node(const std::string& name) const { return items_.nodes[Id(name)]; }
  // `name` finished with `outputs` (or dead); the nodes it readied go to `ready_`.
  void Finish(const std::string& name, TensorValueVector outputs, bool is_dead = false) {
    PropagateLockFree(items_.nodes, Node(name), is_dead, outputs, root_.get(), kRootTag, ready_);
    last_outputs_ = std::move(outputs);
  }
  void FinishWith(const std::string& name, int32_t value) {
    TensorValueVector outputs(1);
    outputs[0].tensor = Tensor::Scalar<int32_t>(value);
    Finish(name, std::move(outputs));
  }
  // The nodes readied so far, as (name, dead), in order; empties `ready_`.
  std::vector<std::pair<std::string, bool>> Readied() {
    std::vector<std::pair<std::string, bool>> out;
    while (!ready_.empty()) {
      const TaggedNode t = ready_.pop_front();
      EXPECT_EQ(t.frame, kRootTag);
      EXPECT_EQ(t.iter, 0);
      out.emplace_back(items_.nodes[t.id].kernel->name(), t.is_dead);
    }
    return out;
  }
  const TensorValue& Slot(const std::string& name, int input) const {
    return root_->inputs[Node(name).input_start + input];
  }
  using Ready = std::vector<std::pair<std::string, bool>>;

  NodeItems items_;
  std::unique_ptr<IterationState> root_;
  ReadyQueue ready_;
  TensorValueVector last_outputs_;
};

TEST_F(SimplePropagatorTest, AConsumerIsReadyWhenItsLastInputArrives) {
  Build(absl::StrCat(NodeText("x", "PartTestSource"), NodeText("y", "PartTestSource"),
                     NodeText("z", "PartTestBinary", {"x", "y"})));
  FinishWith("x", 1);
  EXPECT_TRUE(Readied().empty());
  EXPECT_EQ(root_->pending[Node("z").local_id].load(), 1);
  FinishWith("y", 2);
  EXPECT_EQ(Readied(), (Ready{{"z", false}}));
  EXPECT_EQ(Slot("z", 0).tensor.flat<int32_t>()[0], 1);
  EXPECT_EQ(Slot("z", 1).tensor.flat<int32_t>()[0], 2);
}

TEST_F(SimplePropagatorTest, AValueIsCopiedToEarlierConsumersAndMovedToTheLast) {
  Build(absl::StrCat(NodeText("x", "PartTestSource"), NodeText("y", "PartTestUnary", {"x"}),
                     NodeText("z", "PartTestUnary", {"x"})));
  TensorValueVector outputs(1);
  outputs[0].tensor = Tensor::Scalar<int32_t>(4);
  const Tensor original = outputs[0].tensor;
  Finish("x", std::move(outputs));
  EXPECT_EQ(Readied(), (Ready{{"y", false}, {"z", false}}));
  EXPECT_TRUE(Slot("y", 0).tensor.SharesBufferWith(original));
  EXPECT_TRUE(Slot("z", 0).tensor.SharesBufferWith(original));
  EXPECT_FALSE(last_outputs_[0].tensor.IsInitialized());  // moved into z's slot
}

TEST_F(SimplePropagatorTest, ARefIsNeverMovedAndReachesARefInputAsARef) {
  Build(absl::StrCat(NodeText("var", "PartTestRefSource"),
                     NodeText("reader", "PartTestRefReader", {"var"})));
  Tensor variable = Tensor::Scalar<int32_t>(9);
  rill::SharedMutex mu;
  TensorValueVector outputs(1);
  outputs[0].ref = &variable;
  outputs[0].ref_mu = &mu;
  Finish("var", std::move(outputs));
  EXPECT_EQ(Readied(), (Ready{{"reader", false}}));
  EXPECT_EQ(Slot("reader", 0).ref, &variable);
  EXPECT_EQ(last_outputs_[0].ref, &variable);
}

TEST_F(SimplePropagatorTest, AnUnsetOutputMakesItsConsumerDead) {
  // A _Recv whose value was dead (or a Switch whose Merge is in another partition) leaves its
  // output unset: its consumers are dead, its control consumers are not.
  Build(absl::StrCat(NodeText("recv", "_Recv", {},
                              absl::StrCat("attr { key: 'tensor_type' value { type: DT_INT32 } } ",
                                           TransferAttrs("t"))),
                     NodeText("use", "PartTestUnary", {"recv"}),
                     NodeText("after", "NoOp", {"^recv"})));
  Finish("recv", TensorValueVector(1));
  EXPECT_EQ(Readied(), (Ready{{"use", true}, {"after", false}}));
  EXPECT_EQ(root_->dead_count[Node("use").local_id].load(), 1);
  EXPECT_FALSE(Slot("use", 0).tensor.IsInitialized());
}

TEST_F(SimplePropagatorTest, FewerOutputsThanEdgesMeansDead) {
  Build(absl::StrCat(NodeText("x", "PartTestSource"), NodeText("use", "PartTestUnary", {"x"})));
  Finish("x", TensorValueVector());
  EXPECT_EQ(Readied(), (Ready{{"use", true}}));
}

TEST_F(SimplePropagatorTest, ADeadProducerKillsDataAndControlConsumersButNotAControlTrigger) {
  Build(absl::StrCat(NodeText("x", "PartTestSource"), NodeText("y", "PartTestUnary", {"x"}),
                     NodeText("c", "NoOp", {"^x"}), NodeText("trig", "ControlTrigger", {"^x"})));
  TensorValueVector outputs(1);
  outputs[0].tensor = Tensor::Scalar<int32_t>(1);  // ignored: the producer is dead
  Finish("x", std::move(outputs), /*is_dead=*/true);
  EXPECT_EQ(Readied(), (Ready{{"y", true}, {"c", true}, {"trig", false}}));
  EXPECT_FALSE(Slot("y", 0).tensor.IsInitialized());
}

TEST_F(SimplePropagatorTest, OneDeadInputAmongLiveOnesMakesTheConsumerDead) {
  Build(absl::StrCat(NodeText("x", "PartTestSource"), NodeText("y", "PartTestSource"),
                     NodeText("z", "PartTestBinary", {"x", "y"})));
  Finish("x", TensorValueVector(1));  // unset: dead
  FinishWith("y", 2);
  EXPECT_EQ(Readied(), (Ready{{"z", true}}));
}

TEST_F(SimplePropagatorTest, ConcurrentProducersReadyTheConsumerExactlyOnce) {
  constexpr int kProducers = 64;
  constexpr int kThreads = 8;
  std::string text;
  std::vector<std::string> controls;
  for (int p = 0; p < kProducers; ++p) {
    absl::StrAppend(&text, NodeText(absl::StrCat("p", p), "PartTestSource"));
    controls.push_back(absl::StrCat("^p", p));
  }
  absl::StrAppend(&text, NodeText("sink", "NoOp", controls));
  Build(text);
  for (int round = 0; round < 200; ++round) {
    root_->Reset(items_.frames[0], 0);
    const int dead_producer = round % 2 == 0 ? round % kProducers : -1;
    std::atomic<int> readied{0}, readied_dead{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        ReadyQueue ready;
        for (int p = t; p < kProducers; p += kThreads) {
          TensorValueVector outputs(1);
          outputs[0].tensor = Tensor::Scalar<int32_t>(p);
          PropagateLockFree(items_.nodes, items_.nodes[Id(absl::StrCat("p", p))],
                            p == dead_producer, outputs, root_.get(), kRootTag, ready);
        }
        while (!ready.empty()) {
          readied_dead += ready.pop_front().is_dead;
          ++readied;
        }
      });
    }
    for (std::thread& t : threads) t.join();
    ASSERT_EQ(readied.load(), 1) << "round " << round;
    EXPECT_EQ(readied_dead.load(), dead_producer >= 0 ? 1 : 0) << "round " << round;
  }
}

TEST(RootIterationPoolTest, GivesBackResetIterationsAndKeepsAFew) {
  FrameInfo root;
  root.num_nodes = 1;
  root.total_inputs = 1;
  root.initial_pending = {1};
  RootIterationPool pool;
  EXPECT_EQ(pool.Take(), nullptr);
  auto used = std::make_unique<IterationState>(root, 0);
  used->inputs[0].tensor = Tensor::Scalar<int32_t>(1);
  used->pending[0].store(0);
  IterationState* raw = used.get();
  pool.Give(std::move(used), root);
  std::unique_ptr<IterationState> again = pool.Take();
  ASSERT_EQ(again.get(), raw);
  EXPECT_FALSE(again->inputs[0].tensor.IsInitialized());
  EXPECT_EQ(again->pending[0].load(), 1);
  EXPECT_EQ(pool.Take(), nullptr);
  for (size_t i = 0; i < RootIterationPool::kMaxSpare + 2; ++i) {
    pool.Give(std::make_unique<IterationState>(root, 0), root);
  }
  EXPECT_EQ(pool.size(), RootIterationPool::kMaxSpare);
}

}  // namespace
}  // namespace executor_internal
}  // namespace rill
