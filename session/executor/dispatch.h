// Scheduling and dispatch: where each ready node of a step runs, the calling thread, the thread
// that made it ready, or the inter-op pool behind the step's runner.
//
// Rules (each a function below, used by RunReady and StartStep):
// - Inline vs runner (MayHandOff, AnotherExpensiveIsReady): cheap nodes (OpKernel::IsExpensive()
//   false, or measured faster than a hand-off: HandOffCandidate), dead nodes, and every node of a
//   step without a runner run inline, on the thread that made them ready. An expensive live node
//   goes to the runner only when another live expensive node is ready in the same queue; with cheap
//   company it runs here, so a chain (a CNN's layers) stays on one thread and its OpenMP team, and
//   the node this thread keeps is the last one.
// - runner_threads == 1 in place (MayHandOff, OneThreadScope): a step whose runner has one thread
//   (inter_op_parallelism_threads = 1) runs on one thread at a time where it can. On the runner's
//   only thread a node handed to the runner would only queue behind the thread handing it over,
//   and on the caller that started the step inline a hand-off would put a second thread to work
//   beside it (and a wake-up per run), so on both every ready node runs in place. An async
//   kernel's completion arriving on one of them waits for its loop (below) and runs there too;
//   one arriving on any other thread (a device's or a network's) follows the rules above, so
//   expensive work leaves that thread for the runner.
// - Chunked dispatch (QueueHandOff, ChunkHandOff): when many expensive nodes are ready they go
//   in chunks, not one closure per node: with at least 2 * kDispatchChunk others queued, the
//   node and half of the others go in one closure; a chunk is split in half again on its thread
//   down to kMinChunk nodes, and the rest runs there. The nodes a chunk makes ready follow the
//   rules above.
// - Start with one runner thread (StartStep, StartsWhollyOnTheRunner): a partition with loops
//   (which may run until a timeout cancels it) or an expensive root (a kernel that may block until
//   cancelled) starts wholly on the runner, one closure; any other starts wholly on the caller,
//   wide or not, and the caller runs the whole step unless an async kernel's completion arrives
//   elsewhere. Timeouts still apply: the caller's Run counts a step that ends past its deadline
//   as DeadlineExceeded, and cancellation stops every node not yet started (Process).
// - Start (StartStep, StartsOnRunner): the caller of RunAsync waits for the step with a timeout
//   and must never block inside a kernel, so expensive roots go to the runner and cheap ones run
//   on the caller. A partition with loops may run as long as its loop does (or forever, until a
//   timeout cancels it), so all of it goes to the runner. So does a partition that starts wide
//   (kWideStartNodes): run on the caller, its cheap roots' outputs would be made on the caller's
//   core and read on the pool's. Cheap roots with cheap consumers (a partition's _Recvs), or a
//   chain behind many Consts (a CNN: only its first convolution is ready after the roots), start
//   on the caller without a thread hop.
// - Deferred completions (DeferCompletion, DeferredCompletions): an async kernel's completion
//   arriving on a thread inside RunReady (a _Recv completed by a _Send run here) waits for the
//   outermost RunReady of this thread, which runs it after its current node: no recursion per
//   cross-device edge, and no thread hop.
// - Float mode (ScopedFlushDenormal, core/denormal.h): RunReady and StartStep run kernels with
//   subnormals flushed to zero (FTZ/DAZ), as TensorFlow's executor does, on whatever thread runs
//   them (the caller of Run, a pool thread, the thread completing an async kernel); each gives its
//   thread's previous mode back when it returns, so Session::Run leaves the caller's as it was.
//
// Contract: RunReady and StartStep work on a `Step` that provides
//   const NodeItems& items() const;       // the executor's nodes (outlive the step)
//   const R& runner() const;              // a callable taking std::function<void()>; false: none
//   int runner_threads() const;           // Executor::Args::runner_threads
//   void Process(const TaggedNode&, ReadyQueue&);  // runs one node; pushes the nodes it readied
// and call Process exactly once per node they were given. Neither touches the step after it
// may have finished: a node handed to the runner may end the step, and the step then deletes
// itself, so StartStep reads the executor's state and the runner into locals first, and RunReady
// hands over at most half of a queue it keeps working on.
//
// Threading: RunReady runs on any thread, on a queue that thread owns; the closures it hands to
// the runner own theirs. Runner closures mark their scope (RunnerClosureScope), and so does a
// caller starting a one-thread step inline (OneThreadScope), so the runner_threads == 1 rule
// knows when it is on the thread running the step.
#ifndef RILL_SESSION_EXECUTOR_DISPATCH_H_
#define RILL_SESSION_EXECUTOR_DISPATCH_H_

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "core/denormal.h"
#include "session/executor/node_items.h"
#include "session/executor/ready_queue.h"

namespace rill {
namespace executor_internal {

// A partition with at least this many expensive nodes fed by roots alone (NodeItems::
// expensive_fed_by_roots) starts its step on the runner. It tells a wide partition (hundreds of
// independent products of Consts, whose start fans out over the pool anyway) from a chain behind
// many Consts (a CNN: one or a few expensive nodes ready after the roots), which keeps the
// hop-free start on the caller. The value matches the width at which RunReady hands ready
// expensive nodes over in chunks (2 * kDispatchChunk).
inline constexpr int kWideStartNodes = 32;

// With at least 2 * kDispatchChunk other nodes queued, an expensive node leaves with half of
// them in one closure, which splits its share again (ChunkHandOff): handing out a wide ready set
// costs this thread one closure instead of one per node, and the splitting spreads over the pool
// like a tree. Below that, ready expensive nodes leave one closure each.
inline constexpr size_t kDispatchChunk = 16;

// A chunk is halved again on the thread running it while it holds at least 2 * kMinChunk nodes:
// wide pools still get a share each, and a closure carries at least a few nodes' work for its
// cost.
inline constexpr size_t kMinChunk = 4;

// How far AnotherExpensiveIsReady looks into a queue: a bound on the scan per expensive node.
// A queue at least this long counts as holding another expensive node, since that many ready
// nodes are work enough to share.
inline constexpr size_t kExpensiveLookahead = 64;

// Completions deferred on this thread (DeferCompletion): the queue of the outermost RunReady
// running here, or null when none runs here.
inline thread_local std::vector<std::function<void()>>* t_deferred_completions = nullptr;

// An async kernel's completion (its NodeDone and the nodes it makes ready) that arrives on a
// thread already running a RunReady loop, as a _Recv's does when a _Send on this thread delivers
// its value, is queued for that loop's outermost RunReady instead of running inline: run inline,
// a chain of cross-device edges would nest one loop per edge on this thread's stack (TensorFlow
// never runs such a completion inside the Send either). The outermost loop runs deferred
// completions after each node it processes and before it returns, so the stack stays a few
// loops deep whatever the graph, and no thread hop is added. Returns false (the caller runs `fn`
// itself, now) when no loop runs on this thread.
template <typename Fn>
inline bool DeferCompletion(Fn& fn) {
  if (t_deferred_completions == nullptr) return false;
  t_deferred_completions->emplace_back(std::move(fn));
  return true;
}

// The deferral scope of one RunReady: the outermost one on a thread owns the queue, runs what is
// deferred to it (Drain; last in first out, so a chain keeps the queue at one entry) and closes
// the scope when it returns.
class DeferredCompletions {
 public:
  DeferredCompletions() : owner_(t_deferred_completions == nullptr) {
    if (owner_) t_deferred_completions = &queue_;
  }
  ~DeferredCompletions() {
    if (!owner_) return;
    Drain();
    t_deferred_completions = nullptr;
  }
  DeferredCompletions(const DeferredCompletions&) = delete;
  DeferredCompletions& operator=(const DeferredCompletions&) = delete;

  // Runs the deferred completions, and those they defer, until none is left (owner only).
  void Drain() {
    if (!queue_.empty()) DrainQueue();
  }
  bool owner() const { return owner_; }

 private:
  // Out of line: RunReady's loop pays one test per node.
  [[gnu::noinline]] void DrainQueue() {
    while (!queue_.empty()) {
      std::function<void()> fn = std::move(queue_.back());
      queue_.pop_back();
      fn();
    }
  }

  const bool owner_;
  std::vector<std::function<void()>> queue_;
};

// Hides the enclosing loop's deferral queue for a scope (Executor::RunAsync): a step started
// inside a kernel (a nested executor waiting for its step) must run its own deferred completions
// before the kernel waits, not leave them to a loop that resumes only after the kernel.
class DeferralIsolation {
 public:
  DeferralIsolation() : outer_(t_deferred_completions) { t_deferred_completions = nullptr; }
  ~DeferralIsolation() { t_deferred_completions = outer_; }
  DeferralIsolation(const DeferralIsolation&) = delete;
  DeferralIsolation& operator=(const DeferralIsolation&) = delete;

 private:
  std::vector<std::function<void()>>* const outer_;
};

// Set while this thread runs a closure a step handed to its runner (a pool thread).
inline thread_local bool t_in_runner_closure = false;

// Marks the scope of such a closure (closures may nest when a runner runs them inline).
class RunnerClosureScope {
 public:
  RunnerClosureScope() : outer_(t_in_runner_closure) { t_in_runner_closure = true; }
  ~RunnerClosureScope() { t_in_runner_closure = outer_; }
  RunnerClosureScope(const RunnerClosureScope&) = delete;
  RunnerClosureScope& operator=(const RunnerClosureScope&) = delete;

 private:
  const bool outer_;
};

// Set while this thread runs, inline from StartStep, a step whose runner has one thread.
inline thread_local bool t_in_one_thread_start = false;

// Marks that scope (steps started inside a kernel nest it).
class OneThreadScope {
 public:
  OneThreadScope() : outer_(t_in_one_thread_start) { t_in_one_thread_start = true; }
  ~OneThreadScope() { t_in_one_thread_start = outer_; }
  OneThreadScope(const OneThreadScope&) = delete;
  OneThreadScope& operator=(const OneThreadScope&) = delete;

 private:
  const bool outer_;
};

// Whether every node of a step whose partition is `items` runs on one thread, one after another,
// so that its frames need no locks (FramePropagator's `one_thread`): with no runner every node
// runs on the thread that made it ready, and with a one-thread runner the rules above keep every
// node on the thread running the step; an async kernel's completion may arrive on another thread,
// so a partition with one is never sure to.
inline bool StepRunsOnOneThread(const NodeItems& items, bool has_runner, int runner_threads) {
  return (!has_runner || runner_threads == 1) && !items.has_async;
}

// Whether a step whose partition is `items` hands its whole start (every root) to its runner.
inline bool StartsOnRunner(const NodeItems& items, bool has_runner) {
  return has_runner && (items.has_loops || items.expensive_fed_by_roots >= kWideStartNodes);
}

// Whether a node counts as expensive for dispatch: its kernel says so and, once measured, it
// takes longer than handing it over costs (cost_estimate.h).
inline bool HandOffCandidate(const NodeItem& item) {
  return item.is_expensive && item.cost.WorthHandingOff();
}

// Whether ready node `t` (`item`) may run on another thread than the one that made it ready:
// live, expensive (HandOffCandidate), a runner to take it, and, with a one-thread runner, not on
// the thread running the step (the runner's, or the caller that started it inline).
template <typename R>
inline bool MayHandOff(const TaggedNode& t, const NodeItem& item, const R& runner,
                       int runner_threads) {
  return !t.is_dead && HandOffCandidate(item) && runner &&
         !(runner_threads == 1 && (t_in_runner_closure || t_in_one_thread_start));
}

// Whether `ready` holds another live expensive node, looking at its first kExpensiveLookahead
// (a queue that long counts as holding one).
inline bool AnotherExpensiveIsReady(const ReadyQueue& ready, const std::vector<NodeItem>& nodes) {
  bool found = false;
  size_t looked = 0;
  ready.ForEachWhile([&](const TaggedNode& n) {
    found = !n.is_dead && HandOffCandidate(nodes[n.id]);
    return !found && ++looked < kExpensiveLookahead;
  });
  return found || looked >= kExpensiveLookahead;
}

// What happens to a node that may be handed off: whether it goes to the runner, and how many of
// the nodes queued after it go with it.
struct HandOff {
  bool dispatch = false;
  size_t take = 0;
};

// A node popped from a plain queue with `others` nodes still queued (another expensive among
// them): it goes, alone or with half of the others once they are 2 * kDispatchChunk or more.
inline HandOff QueueHandOff(size_t others) {
  return {true, others >= 2 * kDispatchChunk ? others / 2 : 0};
}

// A node popped from a chunk with `chunk_left` of the chunk's nodes still after it: it goes with
// half of them while they are at least 2 * kMinChunk; smaller chunks run where they are.
inline HandOff ChunkHandOff(size_t chunk_left) {
  return {chunk_left >= 2 * kMinChunk, chunk_left / 2};
}

// Runs `ready`'s nodes by the rules above until it is empty. The first `chunk_nodes` nodes of
// `ready` are a chunk handed over together (0: none).
template <typename Step>
void RunReady(Step& step, ReadyQueue& ready, size_t chunk_nodes = 0) {
  ScopedFlushDenormal flush;
  DeferredCompletions deferred;
  const bool drains = deferred.owner();
  while (!ready.empty()) {
    const TaggedNode t = ready.pop_front();
    const bool in_chunk = chunk_nodes > 0;
    if (in_chunk) --chunk_nodes;
    const NodeItem& item = step.items().nodes[t.id];
    const bool expensive = MayHandOff(t, item, step.runner(), step.runner_threads());
    const size_t others = ready.size();
    HandOff hand_off;
    if (!expensive) {
    } else if (in_chunk) {
      hand_off = ChunkHandOff(chunk_nodes);
    } else if (others > 0 && AnotherExpensiveIsReady(ready, step.items().nodes)) {
      hand_off = QueueHandOff(others);
    }
    if (!hand_off.dispatch) {
      step.Process(t, ready);
      // Another step's nodes (or this one's): they never touch `step` or `ready`.
      if (drains) deferred.Drain();
      continue;
    }
    ReadyQueue chunk;
    chunk.push_back(t);
    ready.MoveFrontTo(chunk, hand_off.take);
    if (in_chunk) chunk_nodes -= hand_off.take;
    const size_t handed = hand_off.take + 1;
    // At least one node stays in `ready` (take is at most half of the others), so this thread
    // goes on and the step cannot finish under it: its queue's root_completed is still to be
    // added by a later node finishing here.
    step.runner()([s = &step, chunk = std::move(chunk), handed]() mutable {
      RunnerClosureScope scope;
      RunReady(*s, chunk, /*chunk_nodes=*/handed > 1 ? handed : 0);
    });
  }
}

// Whether a step with a one-thread runner whose roots are `ready` starts wholly on the runner:
// loops, or an expensive root.
inline bool StartsWhollyOnTheRunner(const NodeItems& items, const ReadyQueue& ready) {
  if (items.has_loops) return true;
  bool expensive_root = false;
  ready.ForEachWhile([&](const TaggedNode& t) {
    expensive_root = HandOffCandidate(items.nodes[t.id]);
    return !expensive_root;
  });
  return expensive_root;
}

// Starts a step whose roots are `ready` (already counted as outstanding by the step): with a
// one-thread runner wholly on the runner or wholly here (StartsWhollyOnTheRunner); otherwise all
// on the runner (StartsOnRunner), or each expensive root on the runner and the cheap ones here.
template <typename Step>
void StartStep(Step& step, ReadyQueue ready) {
  // Locals only after the first hand-off: a scheduled root may finish the step and delete it.
  const NodeItems& items = step.items();
  const auto runner = step.runner();
  if (runner && step.runner_threads() == 1) {
    if (StartsWhollyOnTheRunner(items, ready)) {
      runner([s = &step, ready]() mutable {
        RunnerClosureScope scope;
        RunReady(*s, ready);
      });
      return;
    }
    OneThreadScope scope;
    RunReady(step, ready);
    return;
  }
  if (StartsOnRunner(items, static_cast<bool>(runner))) {
    runner([s = &step, ready]() mutable {
      RunnerClosureScope scope;
      RunReady(*s, ready);
    });
    return;
  }
  ReadyQueue inline_ready;
  ready.ForEach([&](const TaggedNode& t) {
    if (HandOffCandidate(items.nodes[t.id]) && runner) {
      runner([s = &step, t] {
        RunnerClosureScope scope;
        ScopedFlushDenormal flush;
        ReadyQueue more;
        s->Process(t, more);
        RunReady(*s, more);
      });
    } else {
      inline_ready.push_back(t);
    }
  });
  RunReady(step, inline_ready);
}

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_DISPATCH_H_
