// Dispatch rules on a fake step: cheap nodes inline, expensive ones to the runner only with
// expensive company, dead ones inline, the lookahead bound, chunked hand-off and its splitting,
// runner_threads == 1 in place (on the runner's thread and on a caller starting the step inline),
// nodes made ready following the same rules, and the ways a step starts (cheap roots on the
// caller, expensive roots one closure each, loops and wide starts wholly on the runner; with a
// one-thread runner wholly on the caller, or wholly on the runner for loops and expensive roots).
// The runner queues closures; the tests run them to see what each did.
#include "session/executor/dispatch.h"

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include "core/denormal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace executor_internal {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

using FakeRunner = std::function<void(std::function<void()>)>;

class FakeStep {
 public:
  // Nodes 0..n-1, each expensive or not.
  explicit FakeStep(const std::vector<bool>& expensive) {
    items_.nodes.resize(expensive.size());
    for (size_t i = 0; i < expensive.size(); ++i) items_.nodes[i].is_expensive = expensive[i];
    runner_ = [this](std::function<void()> fn) { handed_.push_back(std::move(fn)); };
  }

  // The Step interface dispatch.h uses.
  const NodeItems& items() const { return items_; }
  const FakeRunner& runner() const { return runner_; }
  int runner_threads() const { return runner_threads_; }
  void Process(const TaggedNode& t, ReadyQueue& ready) {
    processed_.push_back(
        {t.id, closure_, t_in_runner_closure, ReadFloatMode() & kFlushDenormalBits});
    auto it = successors_.find(t.id);
    if (it == successors_.end()) return;
    for (int next : it->second) ready.push_back({next, nullptr, 0, false});
  }

  // Runs the closures handed to the runner, oldest first, until none is left (closures they
  // hand over run too). Each gets a number, from 1, that Process records.
  void RunHanded() {
    for (size_t i = 0; i < handed_.size(); ++i) {
      closure_ = static_cast<int>(i) + 1;
      std::function<void()> fn = std::move(handed_[i]);
      fn();
    }
    closure_ = 0;
  }

  struct Processed {
    int id;
    int closure;  // 0: the thread that called RunReady / StartStep; i: the i-th closure handed
    bool in_runner_closure;
    FloatMode flush_bits;  // the thread's FTZ/DAZ bits while the node ran
  };
  // Node ids Process saw, in order, in closure `closure`.
  std::vector<int> ProcessedIn(int closure) const {
    std::vector<int> ids;
    for (const Processed& p : processed_) {
      if (p.closure == closure) ids.push_back(p.id);
    }
    return ids;
  }
  const std::vector<Processed>& processed() const { return processed_; }
  size_t closures() const { return handed_.size(); }

  NodeItems items_;
  FakeRunner runner_;
  int runner_threads_ = 4;
  std::map<int, std::vector<int>> successors_;  // what Process makes ready

 private:
  std::vector<std::function<void()>> handed_;
  std::vector<Processed> processed_;
  int closure_ = 0;
};

ReadyQueue Queue(const std::vector<int>& ids, const std::vector<int>& dead = {}) {
  ReadyQueue q;
  for (int id : ids) {
    q.push_back({id, nullptr, 0, std::find(dead.begin(), dead.end(), id) != dead.end()});
  }
  return q;
}

std::vector<int> Range(int from, int to) {
  std::vector<int> ids;
  for (int i = from; i < to; ++i) ids.push_back(i);
  return ids;
}

TEST(DispatchRulesTest, HandOffSizes) {
  EXPECT_TRUE(QueueHandOff(1).dispatch);
  EXPECT_EQ(QueueHandOff(2 * kDispatchChunk - 1).take, 0u);  // alone
  EXPECT_EQ(QueueHandOff(2 * kDispatchChunk).take, kDispatchChunk);
  EXPECT_EQ(QueueHandOff(101).take, 50u);
  EXPECT_FALSE(ChunkHandOff(2 * kMinChunk - 1).dispatch);
  EXPECT_TRUE(ChunkHandOff(2 * kMinChunk).dispatch);
  EXPECT_EQ(ChunkHandOff(2 * kMinChunk).take, kMinChunk);
}

TEST(DispatchRulesTest, MayHandOffOnlyLiveExpensiveNodesWithARunner) {
  NodeItem cheap, expensive;
  expensive.is_expensive = true;
  const FakeRunner none;
  const FakeRunner some = [](std::function<void()>) {};
  const TaggedNode live{0, nullptr, 0, false}, dead{0, nullptr, 0, true};
  EXPECT_TRUE(MayHandOff(live, expensive, some, 4));
  EXPECT_FALSE(MayHandOff(live, cheap, some, 4));
  EXPECT_FALSE(MayHandOff(dead, expensive, some, 4));
  EXPECT_FALSE(MayHandOff(live, expensive, none, 4));
  // On the runner's only thread a node stays; off it, or with more threads, it may go.
  EXPECT_TRUE(MayHandOff(live, expensive, some, 1));
  RunnerClosureScope scope;
  EXPECT_FALSE(MayHandOff(live, expensive, some, 1));
  EXPECT_TRUE(MayHandOff(live, expensive, some, 0));  // unknown thread count
  EXPECT_TRUE(MayHandOff(live, expensive, some, 2));
}

TEST(DispatchRulesTest, ACallerStartingAOneThreadStepInlineKeepsItsNodes) {
  NodeItem expensive;
  expensive.is_expensive = true;
  const FakeRunner some = [](std::function<void()>) {};
  const TaggedNode live{0, nullptr, 0, false};
  EXPECT_FALSE(t_in_one_thread_start);
  {
    OneThreadScope outer;
    {
      OneThreadScope inner;
      EXPECT_FALSE(MayHandOff(live, expensive, some, 1));
    }
    EXPECT_TRUE(t_in_one_thread_start);
    EXPECT_TRUE(MayHandOff(live, expensive, some, 2));  // only a one-thread runner's steps
  }
  EXPECT_FALSE(t_in_one_thread_start);
  EXPECT_TRUE(MayHandOff(live, expensive, some, 1));
}

TEST(DispatchRulesTest, RunnerClosureScopesNest) {
  EXPECT_FALSE(t_in_runner_closure);
  {
    RunnerClosureScope outer;
    {
      RunnerClosureScope inner;
      EXPECT_TRUE(t_in_runner_closure);
    }
    EXPECT_TRUE(t_in_runner_closure);
  }
  EXPECT_FALSE(t_in_runner_closure);
}

TEST(DispatchRulesTest, AStepRunsOnOneThreadWithoutARunnerOrWithAOneThreadOneAndNoAsyncKernel) {
  NodeItems items;
  EXPECT_TRUE(StepRunsOnOneThread(items, /*has_runner=*/false, 0));
  EXPECT_TRUE(StepRunsOnOneThread(items, /*has_runner=*/false, 4));
  EXPECT_TRUE(StepRunsOnOneThread(items, /*has_runner=*/true, 1));
  EXPECT_FALSE(StepRunsOnOneThread(items, /*has_runner=*/true, 4));
  EXPECT_FALSE(StepRunsOnOneThread(items, /*has_runner=*/true, 0));  // unknown thread count
  // An async kernel's completion may come on any thread: never sure, runner or not.
  items.has_async = true;
  EXPECT_FALSE(StepRunsOnOneThread(items, /*has_runner=*/false, 0));
  EXPECT_FALSE(StepRunsOnOneThread(items, /*has_runner=*/true, 1));
}

TEST(DispatchRulesTest, StartsOnRunnerForLoopsAndWideStarts) {
  NodeItems items;
  EXPECT_FALSE(StartsOnRunner(items, true));
  items.expensive_fed_by_roots = kWideStartNodes - 1;
  EXPECT_FALSE(StartsOnRunner(items, true));
  items.expensive_fed_by_roots = kWideStartNodes;
  EXPECT_TRUE(StartsOnRunner(items, true));
  EXPECT_FALSE(StartsOnRunner(items, false));
  items.expensive_fed_by_roots = 0;
  items.has_loops = true;
  EXPECT_TRUE(StartsOnRunner(items, true));
  EXPECT_FALSE(StartsOnRunner(items, false));
}

TEST(RunReadyTest, CheapNodesRunInlineInOrder) {
  FakeStep step({false, false, false});
  ReadyQueue ready = Queue({0, 1, 2});
  RunReady(step, ready);
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1, 2));
  EXPECT_EQ(step.closures(), 0u);
}

TEST(RunReadyTest, WithoutARunnerEverythingRunsInline) {
  FakeStep step({true, true, true});
  step.runner_ = nullptr;
  ReadyQueue ready = Queue({0, 1, 2});
  RunReady(step, ready);
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1, 2));
  EXPECT_EQ(step.closures(), 0u);
}

TEST(RunReadyTest, AnExpensiveNodeWithOnlyCheapCompanyStaysHere) {
  FakeStep step({true, false, false});
  ReadyQueue ready = Queue({0, 1, 2});
  RunReady(step, ready);
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1, 2));
  EXPECT_EQ(step.closures(), 0u);
}

TEST(RunReadyTest, AnExpensiveNodeLeavesWhenAnotherIsReadyAndTheLastStays) {
  FakeStep step({true, true, true});
  ReadyQueue ready = Queue({0, 1, 2});
  RunReady(step, ready);
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(2));
  ASSERT_EQ(step.closures(), 2u);
  step.RunHanded();
  EXPECT_THAT(step.ProcessedIn(1), ElementsAre(0));
  EXPECT_THAT(step.ProcessedIn(2), ElementsAre(1));
  for (const FakeStep::Processed& p : step.processed()) {
    EXPECT_EQ(p.in_runner_closure, p.closure != 0) << p.id;
  }
}

TEST(RunReadyTest, ExpensiveNodesMeasuredFasterThanAHandOffStayHere) {
  // A recurrent step's two small MatMuls: expensive kernels, measured at a few microseconds.
  FakeStep step({true, true, true});
  step.items_.nodes[0].cost.Record(3000);
  step.items_.nodes[1].cost.Record(CostEstimate::kHandOffMinNs - 1);
  ReadyQueue ready = Queue({0, 1, 2});
  RunReady(step, ready);
  // Node 2 is unmeasured but has no expensive company left: everything runs here.
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1, 2));
  EXPECT_EQ(step.closures(), 0u);
}

TEST(RunReadyTest, AMeasuredSlowNodeStillLeavesWithExpensiveCompany) {
  FakeStep step({true, true});
  step.items_.nodes[0].cost.Record(CostEstimate::kHandOffMinNs);
  step.items_.nodes[1].cost.Record(5 * CostEstimate::kHandOffMinNs);
  ReadyQueue ready = Queue({0, 1});
  RunReady(step, ready);
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(1));
  ASSERT_EQ(step.closures(), 1u);
  step.RunHanded();
  EXPECT_THAT(step.ProcessedIn(1), ElementsAre(0));
}

TEST(StartStepTest, RootsMeasuredCheapStartOnTheCaller) {
  FakeStep step({true, true});
  step.items_.nodes[0].cost.Record(1000);
  StartStep(step, Queue({0, 1}));
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0));
  ASSERT_EQ(step.closures(), 1u);
  step.RunHanded();
  EXPECT_THAT(step.ProcessedIn(1), ElementsAre(1));
}

TEST(RunReadyTest, DeadNodesStayAndDoNotCountAsExpensiveCompany) {
  FakeStep step({true, true, true});
  ReadyQueue ready = Queue({0, 1, 2}, /*dead=*/{1, 2});
  RunReady(step, ready);
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1, 2));
  EXPECT_EQ(step.closures(), 0u);
}

TEST(RunReadyTest, TheLookaheadForExpensiveCompanyIsBounded) {
  // An expensive node followed by kExpensiveLookahead - 1 cheap ones and no other expensive
  // one stays; a queue of kExpensiveLookahead others is company enough.
  std::vector<bool> expensive(1 + kExpensiveLookahead, false);
  expensive[0] = true;
  {
    FakeStep step(expensive);
    ReadyQueue ready = Queue(Range(0, kExpensiveLookahead));
    RunReady(step, ready);
    EXPECT_EQ(step.closures(), 0u);
  }
  {
    FakeStep step(expensive);
    ReadyQueue ready = Queue(Range(0, kExpensiveLookahead + 1));
    RunReady(step, ready);
    EXPECT_EQ(step.closures(), 1u);
    EXPECT_THAT(step.ProcessedIn(0), ::testing::Not(::testing::Contains(0)));
  }
  {
    // An expensive node just inside the window is found.
    std::vector<bool> far(1 + kExpensiveLookahead, false);
    far[0] = far[kExpensiveLookahead - 1] = true;
    FakeStep step(far);
    ReadyQueue ready = Queue(Range(0, kExpensiveLookahead));
    RunReady(step, ready);
    EXPECT_EQ(step.closures(), 1u);
  }
}

TEST(RunReadyTest, ManyExpensiveNodesLeaveInChunksSplitDownToAFew) {
  constexpr int kNodes = 40;  // more than 2 * kDispatchChunk
  FakeStep step(std::vector<bool>(kNodes, true));
  ReadyQueue ready = Queue(Range(0, kNodes));
  RunReady(step, ready);
  // Node 0 leaves with half of the 39 others (a chunk of 20); the 19 left are fewer than
  // 2 * kDispatchChunk, so each leaves alone but the last, which stays.
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(kNodes - 1));
  ASSERT_EQ(step.closures(), 1u + 19u);
  step.RunHanded();
  // The chunk of 20 splits: 0..9 (which splits again: 0..4, and 5..9 runs there), 10..14, and
  // 15..19 runs where the chunk ran.
  EXPECT_THAT(step.ProcessedIn(1), ElementsAre(15, 16, 17, 18, 19));
  for (int single = 2; single <= 20; ++single) {
    EXPECT_THAT(step.ProcessedIn(single), ElementsAre(20 + single - 2));
  }
  EXPECT_THAT(step.ProcessedIn(21), ElementsAre(5, 6, 7, 8, 9));
  EXPECT_THAT(step.ProcessedIn(22), ElementsAre(10, 11, 12, 13, 14));
  EXPECT_THAT(step.ProcessedIn(23), ElementsAre(0, 1, 2, 3, 4));
  EXPECT_EQ(step.closures(), 23u);
  EXPECT_EQ(step.processed().size(), static_cast<size_t>(kNodes));  // each node once
}

TEST(RunReadyTest, OnTheRunnersOnlyThreadNodesRunInPlace) {
  FakeStep step({true, true, true});
  step.runner_threads_ = 1;
  {
    RunnerClosureScope on_the_runner;
    ReadyQueue ready = Queue({0, 1, 2});
    RunReady(step, ready);
  }
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1, 2));
  EXPECT_EQ(step.closures(), 0u);
  // From another thread (the caller), the runner still takes them.
  ReadyQueue ready = Queue({0, 1});
  RunReady(step, ready);
  EXPECT_EQ(step.closures(), 1u);
}

TEST(RunReadyTest, NodesMadeReadyFollowTheSameRules) {
  FakeStep step({false, true, true, false});
  step.successors_[0] = {1, 2, 3};
  ReadyQueue ready = Queue({0});
  RunReady(step, ready);
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 2, 3));
  ASSERT_EQ(step.closures(), 1u);
  step.RunHanded();
  EXPECT_THAT(step.ProcessedIn(1), ElementsAre(1));
}

TEST(StartStepTest, CheapRootsStartOnTheCaller) {
  FakeStep step({false, false, true});
  step.items_.roots = {0, 1};
  step.successors_[0] = {2};
  StartStep(step, Queue({0, 1}));
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1, 2));
  EXPECT_EQ(step.closures(), 0u);
}

TEST(StartStepTest, ExpensiveRootsGoToTheRunnerOneClosureEach) {
  FakeStep step({false, true, true, false});
  step.successors_[1] = {3};
  StartStep(step, Queue({0, 1, 2}));
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0));
  ASSERT_EQ(step.closures(), 2u);
  step.RunHanded();
  EXPECT_THAT(step.ProcessedIn(1), ElementsAre(1, 3));  // and what it made ready, there
  EXPECT_THAT(step.ProcessedIn(2), ElementsAre(2));
}

TEST(StartStepTest, NodesRunWithSubnormalsFlushedAndTheCallerKeepsItsMode) {
  if (!FlushDenormals()) GTEST_SKIP() << "RILL_KEEP_DENORMALS is set";
  const FloatMode outer = ReadFloatMode();
  WriteFloatMode(outer & ~kFlushDenormalBits);
  // Cheap roots on the caller, an expensive root in a closure, and a chunk handed from RunReady.
  FakeStep step({false, true, false, true, true, true});
  step.successors_[0] = {3, 4, 5};
  StartStep(step, Queue({0, 1, 2}));
  const FloatMode after_start = ReadFloatMode() & kFlushDenormalBits;
  step.RunHanded();
  const FloatMode after_closures = ReadFloatMode() & kFlushDenormalBits;
  WriteFloatMode(outer);
  EXPECT_EQ(after_start, 0u);
  EXPECT_EQ(after_closures, 0u);
  ASSERT_EQ(step.processed().size(), 6u);
  EXPECT_GE(step.closures(), 2u);
  for (const FakeStep::Processed& p : step.processed()) {
    EXPECT_EQ(p.flush_bits, kFlushDenormalBits) << "node " << p.id << " closure " << p.closure;
  }
}

TEST(StartStepTest, ExpensiveRootsStartOnTheCallerWithoutARunner) {
  FakeStep step({true, true});
  step.runner_ = nullptr;
  StartStep(step, Queue({0, 1}));
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1));
}

TEST(StartStepTest, APartitionWithLoopsStartsWhollyOnTheRunner) {
  FakeStep step({false, false});
  step.items_.has_loops = true;
  StartStep(step, Queue({0, 1}));
  EXPECT_TRUE(step.processed().empty());
  ASSERT_EQ(step.closures(), 1u);
  step.RunHanded();
  EXPECT_THAT(step.ProcessedIn(1), ElementsAre(0, 1));
}

TEST(StartStepTest, AWideStartStartsWhollyOnTheRunner) {
  // kWideStartNodes expensive nodes fed by the roots alone: the whole start leaves.
  FakeStep wide(std::vector<bool>(2, false));
  wide.items_.expensive_fed_by_roots = kWideStartNodes;
  StartStep(wide, Queue({0, 1}));
  EXPECT_TRUE(wide.processed().empty());
  EXPECT_EQ(wide.closures(), 1u);
  // One fewer: the cheap roots start on the caller.
  FakeStep narrow(std::vector<bool>(2, false));
  narrow.items_.expensive_fed_by_roots = kWideStartNodes - 1;
  StartStep(narrow, Queue({0, 1}));
  EXPECT_THAT(narrow.ProcessedIn(0), ElementsAre(0, 1));
  EXPECT_EQ(narrow.closures(), 0u);
}

TEST(StartStepTest, AOneThreadStepWithCheapRootsRunsWhollyOnTheCaller) {
  // Expensive nodes with expensive company, and a wide start: all here, no closure.
  FakeStep step({false, true, true, true});
  step.runner_threads_ = 1;
  step.items_.expensive_fed_by_roots = kWideStartNodes;
  step.successors_[0] = {1, 2};
  step.successors_[1] = {3};
  StartStep(step, Queue({0}));
  EXPECT_THAT(step.ProcessedIn(0), ElementsAre(0, 1, 2, 3));
  EXPECT_EQ(step.closures(), 0u);
  for (const auto& p : step.processed()) EXPECT_FALSE(p.in_runner_closure) << p.id;
  EXPECT_FALSE(t_in_one_thread_start);  // the scope ended with the start
}

TEST(StartStepTest, AOneThreadStepWithLoopsOrAnExpensiveRootStartsWhollyOnTheRunner) {
  FakeStep loops({false, false, true, true});
  loops.runner_threads_ = 1;
  loops.items_.has_loops = true;
  loops.successors_[0] = {2, 3};
  StartStep(loops, Queue({0, 1}));
  EXPECT_TRUE(loops.processed().empty());
  ASSERT_EQ(loops.closures(), 1u);
  loops.RunHanded();
  EXPECT_THAT(loops.ProcessedIn(1), ElementsAre(0, 1, 2, 3));  // in place on the runner
  EXPECT_EQ(loops.closures(), 1u);
  // A cheap root beside an expensive one: both go, in one closure.
  FakeStep root({false, true, true});
  root.runner_threads_ = 1;
  root.successors_[1] = {2};
  StartStep(root, Queue({0, 1}));
  EXPECT_TRUE(root.processed().empty());
  ASSERT_EQ(root.closures(), 1u);
  root.RunHanded();
  EXPECT_THAT(root.ProcessedIn(1), ElementsAre(0, 1, 2));
  // Measured cheaper than a hand-off, the expensive root starts here with the rest.
  FakeStep measured({false, true, true});
  measured.runner_threads_ = 1;
  measured.items_.nodes[1].cost.Record(1);
  measured.successors_[1] = {2};
  ASSERT_FALSE(HandOffCandidate(measured.items_.nodes[1]));
  StartStep(measured, Queue({0, 1}));
  EXPECT_THAT(measured.ProcessedIn(0), ElementsAre(0, 1, 2));
  EXPECT_EQ(measured.closures(), 0u);
}

// A step whose every node, like a _Send, completes an async node (a _Recv) of the same or another
// step on this thread; the completion runs the next node, `chain` times in all.
class ChainedCompletionStep {
 public:
  explicit ChainedCompletionStep(int chain) : completions_left_(chain) { items_.nodes.resize(1); }
  const NodeItems& items() const { return items_; }
  const FakeRunner& runner() const { return runner_; }
  int runner_threads() const { return 1; }
  void Process(const TaggedNode&, ReadyQueue&) {
    ++processed_;
    if (completions_left_-- <= 0) return;
    auto complete = [this] {
      ++depth_;
      max_depth_ = std::max(max_depth_, depth_);
      ReadyQueue more;
      more.push_back({0, nullptr, 0, false});
      RunReady(*this, more);
      --depth_;
    };
    if (DeferCompletion(complete)) {
      ++deferred_;
    } else {
      complete();
    }
  }

  int processed_ = 0, deferred_ = 0, depth_ = 0, max_depth_ = 0;

 private:
  NodeItems items_;
  FakeRunner runner_;  // none
  int completions_left_;
};

TEST(DispatchTest, ACompletionArrivingInsideRunReadyRunsAfterTheNodeNotInsideIt) {
  // 100,000 completions chained through one thread: each waits for the outermost RunReady,
  // which runs it after the node that delivered it, so the stack never nests (inline, each
  // would nest one more RunReady).
  constexpr int kChain = 100000;
  EXPECT_EQ(t_deferred_completions, nullptr);
  ChainedCompletionStep step(kChain);
  ReadyQueue ready;
  ready.push_back({0, nullptr, 0, false});
  RunReady(step, ready);
  EXPECT_EQ(step.processed_, kChain + 1);  // all of them, before RunReady returned
  EXPECT_EQ(step.deferred_, kChain);
  EXPECT_EQ(step.max_depth_, 1);
  EXPECT_EQ(t_deferred_completions, nullptr);  // the scope closed with the outermost loop
}

TEST(DispatchTest, ACompletionOutsideAnyRunReadyRunsInline) {
  std::function<void()> fn = [] {};
  EXPECT_FALSE(DeferCompletion(fn));
  ChainedCompletionStep step(1);
  // The first completion comes from outside a loop: it runs at once, and its loop takes none.
  ReadyQueue ready;
  ready.push_back({0, nullptr, 0, false});
  step.Process(ready.pop_front(), ready);
  EXPECT_EQ(step.processed_, 2);
  EXPECT_EQ(step.deferred_, 0);
}

TEST(DispatchTest, AStepStartedInsideALoopRunsItsOwnDeferredCompletions) {
  // A kernel that runs a nested step and waits for it (DeferralIsolation, as RunAsync opens):
  // the nested step's completions run before its RunReady returns, not after the kernel.
  ChainedCompletionStep inner(1000);
  bool inner_done_before_return = false;
  class NestingStep {
   public:
    NestingStep(ChainedCompletionStep& inner, bool& done) : inner_(inner), done_(done) {
      items_.nodes.resize(1);
    }
    const NodeItems& items() const { return items_; }
    const FakeRunner& runner() const { return runner_; }
    int runner_threads() const { return 1; }
    void Process(const TaggedNode&, ReadyQueue&) {
      DeferralIsolation isolation;
      ReadyQueue ready;
      ready.push_back({0, nullptr, 0, false});
      RunReady(inner_, ready);
      done_ = inner_.processed_ == 1001;
    }

   private:
    ChainedCompletionStep& inner_;
    bool& done_;
    NodeItems items_;
    FakeRunner runner_;
  } nesting(inner, inner_done_before_return);
  ReadyQueue ready;
  ready.push_back({0, nullptr, 0, false});
  RunReady(nesting, ready);
  EXPECT_TRUE(inner_done_before_return);
  EXPECT_EQ(inner.max_depth_, 1);
  EXPECT_EQ(t_deferred_completions, nullptr);
}

}  // namespace
}  // namespace executor_internal
}  // namespace rill
