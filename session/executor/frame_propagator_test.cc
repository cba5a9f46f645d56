// FramePropagator driven directly: a single-threaded driver pops ready nodes, computes what each
// op would output on int32 scalars (without kernels) and calls Propagate, holding back chosen
// nodes to pin the interleavings. Covers Merge and Switch deadness, loop frames and their
// iterations, the parallel_iterations limit, a freed iteration reused by a later one, loop
// invariants (constant Enter) arriving early and late, nested loops, a loop in an untaken
// branch, an output moved into its last consumer, and the lock-free mode of a one-thread step.
#include "session/executor/frame_propagator.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/attr_value_util.h"
#include "session/executor/test_util.h"

namespace rill {
namespace executor_internal {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// One node the driver ran.
struct Ran {
  std::string name;
  int64_t iter;
  bool dead;
  FrameState* frame;
  std::vector<std::optional<int32_t>> inputs;  // nullopt: an empty slot
  const IterationState* iteration = nullptr;   // where its inputs were (live runs)
};

class FrameDriver {
 public:
  // `one_thread`: the propagator of a step on one thread, which takes no locks.
  explicit FrameDriver(const NodeItems& items, bool one_thread = false)
      : items_(items), prop_(items, nullptr, one_thread) {
    prop_.ScheduleRoots(ready_);
  }

  // Runs ready nodes until none is left but the ones `hold` keeps back (they go to held()).
  void RunAll(const std::function<bool(const std::string&)>& hold = nullptr) {
    while (!ready_.empty()) {
      const TaggedNode t = ready_.pop_front();
      if (hold && hold(items_.nodes[t.id].kernel->name())) {
        held_.push_back(t);
      } else {
        Run(t);
      }
    }
  }
  // Runs the oldest held node.
  void RunOldestHeld() {
    ASSERT_FALSE(held_.empty());
    const TaggedNode t = held_.front();
    held_.erase(held_.begin());
    Run(t);
  }

  const std::vector<TaggedNode>& held() const { return held_; }
  const std::vector<Ran>& ran() const { return ran_; }
  FramePropagator& propagator() { return prop_; }
  // The most live iterations seen in any instance of frame `name`.
  int max_live(const std::string& name) const {
    auto it = max_live_.find(name);
    return it == max_live_.end() ? 0 : it->second;
  }
  // What the live runs of `name` received as input 0, in order.
  std::vector<int32_t> Received(const std::string& name) const {
    std::vector<int32_t> out;
    for (const Ran& r : ran_) {
      if (r.name == name && !r.dead && !r.inputs.empty() && r.inputs[0].has_value()) {
        out.push_back(*r.inputs[0]);
      }
    }
    return out;
  }
  std::vector<const Ran*> Runs(const std::string& name) const {
    std::vector<const Ran*> out;
    for (const Ran& r : ran_) {
      if (r.name == name) out.push_back(&r);
    }
    return out;
  }
  // Every node left the step: nothing ready or held, no loop frame left, the root iteration
  // has nothing outstanding.
  void ExpectDone() {
    EXPECT_TRUE(ready_.empty());
    EXPECT_TRUE(held_.empty());
    EXPECT_EQ(prop_.LiveChildFrames(), 0u);
    FrameState* root = prop_.root();
    rill::MutexLock lock(&root->mu);
    EXPECT_EQ(root->GetIteration(0)->outstanding_ops, 0);
    EXPECT_EQ(root->GetIteration(0)->outstanding_frame_count, 0);
  }

 private:
  // What the op makes of int32 scalar inputs (bools as 0 / 1), as its kernel would.
  void Run(const TaggedNode& t) {
    const NodeItem& item = items_.nodes[t.id];
    const std::string& name = item.kernel->name();
    const std::string& op = item.kernel->type_string();
    {
      rill::MutexLock lock(&t.frame->mu);
      int& live = max_live_[t.frame->info->name];
      live = std::max(live, t.frame->num_outstanding_iterations);
    }
    TensorValueVector outputs(item.num_outputs);
    if (t.is_dead && !item.is_transfer) {  // a dead node does not run: its outputs are dead
      ran_.push_back({name, t.iter, true, t.frame, {}});
      prop_.Propagate(t, item, !item.is_control_trigger, outputs, ready_);
      return;
    }
    IterationState* iteration = t.frame->GetIteration(t.iter);
    std::vector<std::optional<int32_t>> in;
    for (int i = 0; i < item.num_inputs; ++i) {
      TensorValue v = std::move(iteration->inputs[item.input_start + i]);
      in.push_back(v.tensor.IsInitialized() ? std::optional<int32_t>(v.tensor.flat<int32_t>()[0])
                                            : std::nullopt);
    }
    auto set = [&](int o, int64_t v) {
      outputs[o].tensor = Tensor::Scalar<int32_t>(static_cast<int32_t>(v));
    };
    if (op == "PartTestSource") {
      int64_t value = 0;
      EXPECT_TRUE(GetNodeAttr(item.kernel->def(), "value", &value).ok());
      set(0, value);
    } else if (op == "PartTestBool") {
      bool value = false;
      EXPECT_TRUE(GetNodeAttr(item.kernel->def(), "value", &value).ok());
      set(0, value);
    } else if (op == "PartTestBinary") {
      set(0, *in[0] + *in[1]);
    } else if (op == "PartTestLess") {
      set(0, *in[0] < *in[1]);
    } else if (op == "Merge") {
      for (int i = 0; i < item.num_inputs; ++i) {
        if (!in[i].has_value()) continue;
        set(0, *in[i]);
        set(1, i);
        break;
      }
    } else if (op == "Switch") {
      set(*in[1] != 0 ? 1 : 0, *in[0]);
    } else if (item.num_inputs == 1 && item.num_outputs == 1) {
      set(0, *in[0]);  // Enter, Exit, NextIteration, LoopCond, Identity, PartTestUnary
    }
    ran_.push_back({name, t.iter, false, t.frame, in});
    prop_.Propagate(t, item, t.is_dead && !item.is_control_trigger, outputs, ready_);
  }

  const NodeItems& items_;
  FramePropagator prop_;
  ReadyQueue ready_;
  std::vector<TaggedNode> held_;
  std::vector<Ran> ran_;
  std::map<std::string, int> max_live_;
};

NodeItems Build(const std::string& text) {
  absl::StatusOr<NodeItems> items = BuildTestItems(text);
  EXPECT_TRUE(items.ok()) << items.status();
  EXPECT_FALSE(items.ok() && items->simple);
  return items.ok() ? *std::move(items) : NodeItems();
}

std::string Source(const std::string& name, int value) {
  return NodeText(name, "PartTestSource", {},
                  absl::StrCat("attr { key: 'value' value { i: ", value, " } }"));
}
std::string Bool(const std::string& name, bool value) {
  return NodeText(
      name, "PartTestBool", {},
      absl::StrCat("attr { key: 'value' value { b: ", value ? "true" : "false", " } }"));
}

TEST(FramePropagatorTest, MergeWaitsForItsControlInputsAndForwardsTheFirstLiveInput) {
  const NodeItems items = Build(absl::StrCat(Source("x", 1), Source("y", 2), Source("c", 0),
                                             NodeText("m", "Merge", {"x", "y", "^c"}),
                                             NodeText("out", "PartTestSink", {"m"})));
  FrameDriver driver(items);
  driver.RunAll([](const std::string& name) { return name == "c"; });
  EXPECT_TRUE(driver.Runs("m").empty());  // both data inputs are in, the control input is not
  driver.RunOldestHeld();
  driver.RunAll();
  ASSERT_EQ(driver.Runs("m").size(), 1u);
  // Only the first live input reached the Merge's slots.
  EXPECT_THAT(driver.Runs("m")[0]->inputs, ElementsAre(std::optional<int32_t>(1), std::nullopt));
  EXPECT_THAT(driver.Received("out"), ElementsAre(1));
  driver.ExpectDone();
}

TEST(FramePropagatorTest, AnOutputsLastConsumerTakesItsValueAndEarlierOnesShareIt) {
  // A Merge makes this a frame partition; `a` feeds u and v: u's slot shares a's buffer, v's
  // (the last edge of the output) takes it, and a's output is left empty.
  const NodeItems items = Build(absl::StrCat(Source("a", 5), NodeText("u", "PartTestUnary", {"a"}),
                                             NodeText("v", "PartTestUnary", {"a"}),
                                             NodeText("m", "Merge", {"u", "v"})));
  FramePropagator prop(items, nullptr);
  ReadyQueue ready;
  ASSERT_EQ(prop.ScheduleRoots(ready), 1);
  const TaggedNode a = ready.pop_front();
  TensorValueVector outputs(1);
  outputs[0].tensor = Tensor::Scalar<int32_t>(5);
  const void* buffer = outputs[0].tensor.raw_data();
  prop.Propagate(a, items.nodes[a.id], /*is_dead=*/false, outputs, ready);
  EXPECT_FALSE(outputs[0].tensor.IsInitialized());
  ASSERT_EQ(ready.size(), 2u);
  IterationState* root = prop.root()->GetIteration(0);
  for (const char* name : {"u", "v"}) {
    const TensorValue& slot = root->inputs[items.nodes[IndexOf(items, name)].input_start];
    ASSERT_TRUE(slot.tensor.IsInitialized()) << name;
    EXPECT_EQ(slot.tensor.raw_data(), buffer) << name;
    EXPECT_EQ(slot.tensor.flat<int32_t>()[0], 5) << name;
  }
}

TEST(FramePropagatorTest, SwitchsUntakenBranchIsDeadDownToTheMergeAndAControlTriggerRuns) {
  const NodeItems items = Build(absl::StrCat(
      Source("v", 5), Bool("p", true), NodeText("sw", "Switch", {"v", "p"}),
      NodeText("f", "PartTestUnary", {"sw:0"}), NodeText("t", "PartTestUnary", {"sw:1"}),
      NodeText("m", "Merge", {"f", "t"}), NodeText("out", "PartTestSink", {"m"}),
      NodeText("after_f", "PartTestSink", {"f"}), NodeText("trig", "ControlTrigger", {"^f"})));
  FrameDriver driver(items);
  driver.RunAll();
  ASSERT_EQ(driver.Runs("f").size(), 1u);
  EXPECT_TRUE(driver.Runs("f")[0]->dead);
  EXPECT_FALSE(driver.Runs("t")[0]->dead);
  EXPECT_THAT(driver.Received("out"), ElementsAre(5));
  EXPECT_TRUE(driver.Runs("after_f")[0]->dead);
  EXPECT_FALSE(driver.Runs("trig")[0]->dead);  // a ControlTrigger is never dead
  driver.ExpectDone();
}

TEST(FramePropagatorTest, AMergeIsDeadOnlyOnceEveryDataInputIsDead) {
  const NodeItems items = Build(absl::StrCat(
      Source("v", 5), Bool("p", true), NodeText("sw", "Switch", {"v", "p"}),
      NodeText("f1", "PartTestUnary", {"sw:0"}), NodeText("f2", "PartTestUnary", {"sw:0"}),
      NodeText("m", "Merge", {"f1", "f2"}), NodeText("out", "PartTestSink", {"m"}),
      NodeText("m_ctl", "Merge", {"f1", "f2", "^v"}),
      NodeText("out_ctl", "PartTestSink", {"m_ctl"})));
  FrameDriver driver(items);
  // Hold f2: with one dead input of two the Merges are not ready yet.
  driver.RunAll([](const std::string& name) { return name == "f2"; });
  EXPECT_TRUE(driver.Runs("m").empty());
  EXPECT_TRUE(driver.Runs("m_ctl").empty());
  driver.RunOldestHeld();
  driver.RunAll();
  ASSERT_EQ(driver.Runs("m").size(), 1u);
  EXPECT_TRUE(driver.Runs("m")[0]->dead);
  EXPECT_TRUE(driver.Runs("out")[0]->dead);
  ASSERT_EQ(driver.Runs("m_ctl").size(), 1u);  // its control input had arrived: dead, ready
  EXPECT_TRUE(driver.Runs("m_ctl")[0]->dead);
  driver.ExpectDone();
}

std::string CountingLoop(int limit, int parallel_iterations) {
  return absl::StrCat(Source("zero", 0), Source("limit", limit), Source("one", 1),
                      LoopText("l", "L", "zero", "limit", "one", parallel_iterations),
                      NodeText("out", "PartTestSink", {"l/exit"}));
}

TEST(FramePropagatorTest, ALoopRunsEachIterationInItsOwnSlotsAndExitsOnce) {
  const NodeItems items =
      Build(absl::StrCat(CountingLoop(3, 10), NodeText("use", "PartTestSink", {"l/body"})));
  FrameDriver driver(items);
  driver.RunAll();
  EXPECT_THAT(driver.Received("use"), ElementsAre(0, 1, 2));
  std::vector<int64_t> iters;
  for (const Ran* r : driver.Runs("use")) {
    if (!r->dead) iters.push_back(r->iter);
  }
  EXPECT_THAT(iters, ElementsAre(0, 1, 2));
  // The Exit runs in every iteration, dead but in the last; only the live value leaves.
  EXPECT_EQ(driver.Runs("l/exit").size(), 4u);
  EXPECT_THAT(driver.Received("out"), ElementsAre(3));
  EXPECT_EQ(driver.Runs("out").size(), 1u);
  // The last iteration's NextIteration is dead: the loop ends there.
  EXPECT_TRUE(driver.Runs("l/next").back()->dead);
  EXPECT_EQ(driver.Runs("l/next").back()->iter, 3);
  driver.ExpectDone();
}

TEST(FramePropagatorTest, AFreedIterationIsReusedForALaterOne) {
  // Two iterations live at most, each held at its sink: finishing iteration 0 frees it, and the
  // deferred iteration 2 starts in the same IterationState (its slots emptied and its pending
  // counts reset: the loop's values come out right).
  const NodeItems items =
      Build(absl::StrCat(CountingLoop(4, 2), Source("k", 10),
                         NodeText("l/k_enter", "Enter", {"k"}, EnterAttrs("L", true, 2)),
                         NodeText("l/use", "PartTestBinary", {"l/body", "l/k_enter"}),
                         NodeText("l/sink", "PartTestSink", {"l/use"})));
  FrameDriver driver(items);
  auto hold_sink = [](const std::string& name) { return name == "l/sink"; };
  driver.RunAll(hold_sink);
  ASSERT_EQ(driver.held().size(), 2u);
  FrameState* frame = driver.held()[0].frame;
  const IterationState* first = nullptr;
  {
    rill::MutexLock lock(&frame->mu);
    first = frame->GetIteration(0);
    EXPECT_EQ(frame->spare_iteration, nullptr);
  }
  driver.RunOldestHeld();  // iteration 0 done: freed, and iteration 2 starts in it
  {
    rill::MutexLock lock(&frame->mu);
    EXPECT_EQ(frame->iteration_count, 2);
    EXPECT_EQ(frame->GetIteration(0), nullptr);
    EXPECT_EQ(frame->GetIteration(2), first);
    EXPECT_EQ(frame->spare_iteration, nullptr);
  }
  driver.RunAll(hold_sink);
  while (!driver.held().empty()) {
    driver.RunOldestHeld();
    driver.RunAll(hold_sink);
  }
  EXPECT_THAT(driver.Received("l/sink"), ElementsAre(10, 11, 12, 13));
  EXPECT_THAT(driver.Received("out"), ElementsAre(4));
  EXPECT_EQ(driver.max_live("L"), 2);
  driver.ExpectDone();
}

TEST(FramePropagatorTest, ParallelIterationsBoundsTheLiveIterations) {
  const NodeItems items =
      Build(absl::StrCat(CountingLoop(6, 2), NodeText("slow", "PartTestSink", {"l/body"})));
  FrameDriver driver(items);
  auto hold_slow = [](const std::string& name) { return name == "slow"; };
  driver.RunAll(hold_slow);
  // Iterations 0 and 1 wait for their slow node; iteration 1's NextIteration waits for a slot.
  ASSERT_EQ(driver.held().size(), 2u);
  EXPECT_EQ(driver.held()[0].iter, 0);
  EXPECT_EQ(driver.held()[1].iter, 1);
  FrameState* frame = driver.held()[0].frame;
  {
    rill::MutexLock lock(&frame->mu);
    EXPECT_EQ(frame->iteration_count, 1);
    EXPECT_EQ(frame->num_outstanding_iterations, 2);
    EXPECT_EQ(frame->next_iter_roots.size(), 1u);
  }
  // Finishing iteration 0 frees its slot, which starts iteration 2 with the deferred value.
  driver.RunOldestHeld();
  driver.RunAll(hold_slow);
  ASSERT_EQ(driver.held().size(), 2u);
  EXPECT_EQ(driver.held()[1].iter, 2);
  while (!driver.held().empty()) {
    driver.RunOldestHeld();
    driver.RunAll(hold_slow);
  }
  EXPECT_EQ(driver.max_live("L"), 2);
  EXPECT_THAT(driver.Received("slow"), ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(driver.Received("out"), ElementsAre(6));
  driver.ExpectDone();
}

TEST(FramePropagatorTest, ALoopInvariantReachesLiveAndLaterIterations) {
  // `k` is held until iterations 0 and 1 run: the invariant reaches both when it arrives
  // (AddLoopInvariant), and each iteration started afterwards (StartIteration).
  const NodeItems items =
      Build(absl::StrCat(CountingLoop(5, 2), Source("k", 10),
                         NodeText("l/k_enter", "Enter", {"k"}, EnterAttrs("L", true, 2)),
                         NodeText("l/use", "PartTestBinary", {"l/body", "l/k_enter"}),
                         NodeText("l/sink", "PartTestSink", {"l/use"})));
  FrameDriver driver(items);
  driver.RunAll([](const std::string& name) { return name == "k"; });
  EXPECT_TRUE(driver.Runs("l/use").empty());
  EXPECT_EQ(driver.max_live("L"), 2);
  driver.RunOldestHeld();
  driver.RunAll();
  EXPECT_THAT(driver.Received("l/sink"), ElementsAre(10, 11, 12, 13, 14));
  EXPECT_THAT(driver.Received("out"), ElementsAre(5));
  EXPECT_EQ(driver.max_live("L"), 2);
  driver.ExpectDone();
}

TEST(FramePropagatorTest, NestedLoopsRunTheInnerLoopOncePerOuterIteration) {
  const NodeItems items =
      Build(absl::StrCat(Source("zero", 0), Source("two", 2), Source("three", 3), Source("one", 1),
                         LoopText("o", "O", "zero", "two", "one"),
                         NodeText("o/izero", "Enter", {"zero"}, EnterAttrs("O", true)),
                         NodeText("o/ilimit", "Enter", {"three"}, EnterAttrs("O", true)),
                         LoopText("i", "I", "o/izero", "o/ilimit", "o/step_enter"),
                         NodeText("i/outer", "Enter", {"o/body"}, EnterAttrs("I", true)),
                         NodeText("i/sum", "PartTestBinary", {"i/body", "i/outer"}),
                         NodeText("i/sink", "PartTestSink", {"i/sum"}),
                         NodeText("o/inner_done", "PartTestSink", {"i/exit"}),
                         NodeText("out", "PartTestSink", {"o/exit"})));
  FrameDriver driver(items);
  driver.RunAll();
  // Inner i in 0..2 plus outer i in 0..1.
  EXPECT_THAT(driver.Received("i/sink"), UnorderedElementsAre(0, 1, 2, 1, 2, 3));
  // One inner frame instance per outer iteration, the last one included: there the outer
  // condition is false and o/body dead, but the inner loop's own Enters are live constants, so
  // it runs and exits live, while everything reading the dead outer value is dead.
  EXPECT_THAT(driver.Received("o/inner_done"), ElementsAre(3, 3, 3));
  EXPECT_THAT(driver.Received("out"), ElementsAre(2));
  std::map<FrameState*, int> live_sums;  // per inner instance
  for (const Ran* r : driver.Runs("i/sum")) live_sums[r->frame] += r->dead ? 0 : 1;
  ASSERT_EQ(live_sums.size(), 3u);
  std::vector<int> counts;
  for (const auto& [frame, live] : live_sums) counts.push_back(live);
  EXPECT_THAT(counts, UnorderedElementsAre(3, 3, 0));
  driver.ExpectDone();
}

TEST(FramePropagatorTest, OnOneThreadLoopsRunAsTheyDoWithLocks) {
  // Nested loops, loop invariants arriving late, two live iterations and a loop in an untaken
  // branch: without its locks (a step on one thread) the propagator runs the same nodes in the
  // same iterations with the same inputs and deadness.
  const NodeItems items = Build(absl::StrCat(
      Source("zero", 0), Source("two", 2), Source("three", 3), Source("one", 1),
      LoopText("o", "O", "zero", "two", "one", 2),
      NodeText("o/izero", "Enter", {"zero"}, EnterAttrs("O", true, 2)),
      NodeText("o/ilimit", "Enter", {"three"}, EnterAttrs("O", true, 2)),
      LoopText("i", "I", "o/izero", "o/ilimit", "o/step_enter", 2),
      NodeText("i/outer", "Enter", {"o/body"}, EnterAttrs("I", true, 2)),
      NodeText("i/sum", "PartTestBinary", {"i/body", "i/outer"}),
      NodeText("i/sink", "PartTestSink", {"i/sum"}),
      NodeText("o/inner_done", "PartTestSink", {"i/exit"}),
      NodeText("out", "PartTestSink", {"o/exit"}), Bool("p", false),
      NodeText("sw", "Switch", {"zero", "p"}), LoopText("d", "D", "sw:1", "three", "one"),
      NodeText("dead_out", "PartTestSink", {"d/exit"})));
  std::vector<std::string> runs[2];
  for (bool one_thread : {false, true}) {
    FrameDriver driver(items, one_thread);
    driver.RunAll([](const std::string& name) { return name == "three"; });
    driver.RunOldestHeld();
    driver.RunAll();
    for (const Ran& r : driver.ran()) {
      std::string inputs;
      for (const std::optional<int32_t>& v : r.inputs) {
        absl::StrAppend(&inputs, v.has_value() ? absl::StrCat(*v) : "-", ",");
      }
      runs[one_thread].push_back(
          absl::StrCat(r.name, "@", r.iter, r.dead ? " dead " : " ", inputs));
    }
    EXPECT_THAT(driver.Received("o/inner_done"), ElementsAre(3, 3, 3)) << one_thread;
    EXPECT_THAT(driver.Received("out"), ElementsAre(2)) << one_thread;
    ASSERT_EQ(driver.Runs("dead_out").size(), 1u);
    EXPECT_TRUE(driver.Runs("dead_out")[0]->dead);
    driver.ExpectDone();
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST(FramePropagatorTest, ALoopInAnUntakenBranchIsDeadAndItsExitIsDeadOnce) {
  const NodeItems items = Build(absl::StrCat(
      Source("zero", 0), Source("limit", 3), Source("one", 1), Bool("p", false),
      NodeText("sw", "Switch", {"zero", "p"}), LoopText("l", "L", "sw:1", "limit", "one"),
      NodeText("out", "PartTestSink", {"l/exit"})));
  FrameDriver driver(items);
  driver.RunAll();
  // The dead Enter kills the loop's Merge at once; the whole body is dead in iteration 0.
  ASSERT_EQ(driver.Runs("l/merge").size(), 1u);
  EXPECT_TRUE(driver.Runs("l/merge")[0]->dead);
  ASSERT_EQ(driver.Runs("out").size(), 1u);
  EXPECT_TRUE(driver.Runs("out")[0]->dead);
  driver.ExpectDone();
}

}  // namespace
}  // namespace executor_internal
}  // namespace rill
