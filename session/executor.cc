// Executor (executor.h) and its step: StepState runs the nodes dispatch.h schedules (Process: the
// async, simple and frame paths), reports each done (NodeDone), propagates through the simple or
// the frame propagator, and ends the step with its first error or an Internal error for nodes
// never ready. Threading: see StepState below; Create is single-threaded, RunAsync and Run may be
// called concurrently.
#include "session/executor.h"

#include <atomic>
#include <chrono>
#include <new>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "session/executor/dispatch.h"
#include "session/executor/frame_propagator.h"
#include "session/executor/input_slots.h"
#include "session/executor/ready_queue.h"

namespace rill {
namespace executor_internal {
namespace {

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// The state of one step: its frame instances (FramePropagator, whose root frame's iteration 0
// simple partitions propagate into without a lock), the count of nodes ready or running, and the
// first error. Runs nodes as dispatch.h schedules them (Process), propagates what they made
// (NodeDone), and deletes itself when the last node finishes, after calling `done`.
//
// Threading: Process and NodeDone run on any thread of the step, for different nodes; the
// counters are atomics, the status and step stats are under stats_mu_, and the propagators
// synchronize the slots and pending counts (see their headers).
class StepState {
 public:
  StepState(const Executor* ex, const Executor::Args& args, std::function<void(absl::Status)> done)
      : ex_(ex),
        args_(args),
        done_(std::move(done)),
        frames_(
            ex->items_, ex->items_.simple ? ex->spare_root_iterations_.Take() : nullptr,
            StepRunsOnOneThread(ex->items_, static_cast<bool>(args.runner), args.runner_threads)) {
    base_params_.device = ex->device_;
    base_params_.step_id = args.step_id;
    base_params_.rendezvous = args.rendezvous;
    base_params_.cancellation = args.cancellation;
    base_params_.call_frame = args.call_frame;
    base_params_.step_resources = args.step_resources;
    base_params_.intra_op_threads = args.intra_op_threads;
  }

  // Gives the root iteration back to the executor for the next step (simple executors only:
  // there the root iteration lives until the step ends).
  ~StepState() {
    FrameState* root = frames_.root();
    if (!ex_->items_.simple || root->iterations[0] == nullptr) return;
    ex_->spare_root_iterations_.Give(std::move(root->iterations[0]), ex_->items_.frames[0]);
  }

  void Start() {
    if (ex_->items_.nodes.empty()) {
      Finish();
      return;
    }
    ReadyQueue ready;
    const int roots = frames_.ScheduleRoots(ready);
    outstanding_.store(roots, std::memory_order_relaxed);
    // A step started inside a kernel runs its deferred completions itself (dispatch.h).
    DeferralIsolation isolation;
    StartStep(*this, std::move(ready));
  }

  // What dispatch.h's RunReady and StartStep need of a step.
  const NodeItems& items() const { return ex_->items_; }
  const Runner& runner() const { return args_.runner; }
  int runner_threads() const { return args_.runner_threads; }

  // Runs one ready node and reports it done. Three paths: a forwarding node in an untraced step
  // (moves its value without a kernel); an async kernel (its inputs and context on the heap,
  // done later elsewhere); a synchronous kernel (reads its input slots in place).
  void Process(const TaggedNode& t, ReadyQueue& ready) {
    const NodeItem& item = ex_->items_.nodes[t.id];
    // A cancelled step (timeout, Close, another partition's error) stops scheduling work, so
    // even a loop that would never end drains.
    if (ok() && args_.cancellation != nullptr && args_.cancellation->IsCancelled()) {
      absl::Status why = args_.cancellation->status();
      Fail(why.ok() ? absl::CancelledError("Step was cancelled") : why);
    }
    if (!ok()) {
      NodeDone(t, absl::OkStatus(), nullptr, ready);
      return;
    }
    if (t.is_dead && !item.is_transfer) {
      // A dead node does not run: its outputs are dead.
      NodeDone(t, absl::OkStatus(), nullptr, ready);
      return;
    }
    IterationState* iter = t.frame->GetIteration(t.iter);
    TensorValue* first_input = iter->inputs.data() + item.input_start;
    if (!t.is_dead && (item.check_inputs || !ex_->items_.simple)) {
      const int missing = FirstMissingInput(item, first_input);
      if (missing >= 0) {
        NodeDone(t, MissingInputError(ex_->items_.nodes, item, missing, first_input[missing]),
                 nullptr, ready);
        return;
      }
    }
    if (!t.is_dead && item.check_inputs) ReadRefInputs(item, first_input);
    if (item.forwarding != NodeItem::Forwarding::kNone && !t.is_dead && args_.stats == nullptr) {
      // Identity, Enter, Exit, NextIteration, LoopCond, Switch and Merge (most of a loop's nodes):
      // the value moves from the input slot to the output as their kernels would move it,
      // without a kernel context or a call. Traced steps run the kernels, so every node keeps
      // its timing.
      TensorValueVector outputs(item.num_outputs);
      if (ForwardWithoutKernel(item, first_input, outputs)) {
        ForwardDone(t, item, outputs, ready);
        return;
      }
    }
    const int64_t start = args_.stats ? NowMicros() : 0;
    if (item.is_async) {
      // Its NodeDone runs elsewhere, and this queue may have no other: what it counted goes in
      // now, before the step can end without this thread.
      FlushRootCompleted(ready);
      // The context, its parameters and its inputs must outlive ComputeAsync: on the heap.
      struct AsyncCall {
        TensorValueVector inputs;
        OpKernelContext::Params params;
        std::optional<OpKernelContext> ctx;
      };
      auto call = std::make_shared<AsyncCall>();
      call->inputs.assign(first_input, first_input + item.num_inputs);
      call->params = base_params_;
      call->params.kernel = item.kernel.get();
      call->params.inputs = absl::MakeConstSpan(call->inputs);
      call->params.is_input_dead = t.is_dead;
      call->params.host_outputs = item.host_outputs.empty() ? nullptr : &item.host_outputs;
      call->ctx.emplace(&call->params, item.num_outputs);
      static_cast<const AsyncOpKernel*>(item.kernel.get())
          ->ComputeAsync(*call->ctx, [this, t, call, start](absl::Status s) {
            auto complete = [this, t, call, start, s = std::move(s)] {
              ReadyQueue more;
              if (args_.stats != nullptr) Record(t.id, start, *call->ctx, call->inputs);
              call->inputs.clear();  // released before NodeDone may report the step done
              NodeDone(t, s, &call->ctx->outputs(), more);
              RunReady(*this, more);
            };
            // On a thread already running nodes (a _Send here delivered the value), the
            // completion waits for that loop: inline, a chain of cross-device edges would recurse
            // once per edge (dispatch.h).
            if (!DeferCompletion(complete)) complete();
          });
      return;
    }
    OpKernelContext::Params params = base_params_;
    params.kernel = item.kernel.get();
    params.is_input_dead = t.is_dead;
    params.host_outputs = item.host_outputs.empty() ? nullptr : &item.host_outputs;
    // A node's input slots are written before it becomes ready and by nobody while it runs (a
    // Merge takes only its first live input; its iteration is not freed or reset while one of
    // its nodes runs), so the kernel reads them in place; they are emptied right after it
    // (before NodeDone may report the step done), ready for the next step or iteration.
    params.inputs = absl::MakeConstSpan(first_input, item.num_inputs);
    OpKernelContext ctx(&params, item.num_outputs);
    absl::Status s = ComputeAndMeasure(item, ctx);
    if (args_.stats != nullptr) Record(t.id, start, ctx, params.inputs);
    for (int i = 0; i < item.num_inputs; ++i) {
      TensorValue& slot = first_input[i];
      slot.tensor.Clear();  // drops the reference here
      slot.ref = nullptr;
      slot.ref_mu = nullptr;
    }
    NodeDone(t, s, &ctx.outputs(), ready);
  }

 private:
  // Host memory a kernel takes outside the allocator (string contents, vectors sized by its
  // inputs) that the process cannot get ends the node with ResourceExhausted, as an output the
  // allocator refuses does, instead of ending the process with an uncaught std::bad_alloc.
  static absl::Status ComputeOrOom(const OpKernel& kernel, OpKernelContext& ctx) {
    try {
      return kernel.Compute(ctx);
    } catch (const std::bad_alloc&) {
      return absl::ResourceExhaustedError(
          absl::StrCat("OOM in ", kernel.type_string(),
                       ": the kernel could not allocate the host memory it needs"));
    }
  }

  // What a forwarding node's kernel (NodeItem::forwarding) would output, into `outputs` (sized
  // num_outputs), with its input slots emptied as after a kernel; false, touching nothing, where
  // the kernel must run: a ref (the kernel forwards the reference itself), a Switch predicate
  // that is not a scalar (the kernel's error), a Merge without a live input (likewise).
  static bool ForwardWithoutKernel(const NodeItem& item, TensorValue* inputs,
                                   TensorValueVector& outputs) {
    int from = 0;  // the input that moves
    int to = 0;    // the output it moves to
    switch (item.forwarding) {
      case NodeItem::Forwarding::kNone:
        return false;
      case NodeItem::Forwarding::kInput0:
        break;
      case NodeItem::Forwarding::kSwitch: {
        const TensorValue& pred = inputs[1];
        if (pred.is_ref() || pred.tensor.dtype() != DT_BOOL || pred.tensor.shape().rank() != 0) {
          return false;
        }
        to = pred.tensor.flat<bool>()[0] ? 1 : 0;
        break;
      }
      case NodeItem::Forwarding::kMerge:
        from = -1;
        for (int i = 0; i < item.num_inputs && from < 0; ++i) {
          if (inputs[i].is_ref() || inputs[i].tensor.IsInitialized()) from = i;
        }
        if (from < 0) return false;
        break;
    }
    if (inputs[from].is_ref()) return false;
    // A Merge's value_index, made only when something reads it (an output nobody reads is
    // not checked).
    if (item.forwarding == NodeItem::Forwarding::kMerge && !item.out_edges[1].empty()) {
      outputs[1].tensor = Tensor::Scalar<int32_t>(from);
    }
    outputs[to].tensor = std::move(inputs[from].tensor);
    for (int i = 0; i < item.num_inputs; ++i) inputs[i].tensor.Clear();
    return true;
  }

  // Runs a synchronous kernel; an expensive one's time goes into its cost estimate, which decides
  // whether later runs of it are worth handing to another thread (dispatch.h). Once the estimate
  // is learned and far below that, only some runs are timed (CostEstimate::ShouldMeasure).
  static absl::Status ComputeAndMeasure(const NodeItem& item, OpKernelContext& ctx) {
    if (!item.is_expensive || !item.cost.ShouldMeasure()) return ComputeOrOom(*item.kernel, ctx);
    const auto start = std::chrono::steady_clock::now();
    absl::Status s = ComputeOrOom(*item.kernel, ctx);
    item.cost.Record(std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count());
    return s;
  }

  // Step stats of one node (FULL_TRACE): timing, and what it allocated: one NodeOutput per
  // output it made (dtype, shape, bytes, allocator) and an AllocatorMemoryUsed for the device's
  // allocator (bytes this node's outputs hold, the allocator's bytes in use afterwards).
  // REQUIRES: args_.stats (callers test it, so a step without stats pays no call).
  void Record(int id, int64_t start, OpKernelContext& ctx, absl::Span<const TensorValue> inputs) {
    const int64_t end = NowMicros();
    const OpKernel& kernel = *ex_->items_.nodes[id].kernel;
    Allocator* allocator = ex_->device_->allocator();
    NodeExecStats ns;
    ns.set_node_name(kernel.name());
    ns.set_all_start_micros(start);
    ns.set_op_end_rel_micros(end - start);
    ns.set_all_end_rel_micros(end - start);
    ns.set_timeline_label(absl::StrCat(kernel.name(), " = ", kernel.type_string(), "()"));
    int64_t output_bytes = 0;
    const TensorValueVector& outputs = ctx.outputs();
    for (size_t o = 0; o < outputs.size(); ++o) {
      const Tensor& out = outputs[o].tensor;
      if (outputs[o].is_ref() || !out.IsInitialized()) continue;
      NodeOutput* desc = ns.add_output();
      desc->set_slot(static_cast<int32_t>(o));
      TensorDescription* td = desc->mutable_tensor_description();
      td->set_dtype(out.dtype());
      out.shape().AsProto(td->mutable_shape());
      AllocationDescription* ad = td->mutable_allocation_description();
      ad->set_requested_bytes(static_cast<int64_t>(out.TotalBytes()));
      ad->set_allocator_name(out.allocator() != nullptr ? out.allocator()->Name()
                                                        : allocator->Name());
      ad->set_ptr(reinterpret_cast<uint64_t>(out.raw_data()));
      bool forwarded = false;  // Identity and friends pass an input's buffer on
      for (size_t i = 0; i < inputs.size() && !forwarded; ++i) {
        forwarded = inputs[i].tensor.SharesBufferWith(out);
      }
      if (!forwarded && out.allocator() == allocator) {
        output_bytes += static_cast<int64_t>(out.TotalBytes());
      }
    }
    AllocatorMemoryUsed* memory = ns.add_memory();
    memory->set_allocator_name(allocator->Name());
    memory->set_total_bytes(output_bytes);
    memory->set_live_bytes(output_bytes);
    memory->set_allocator_bytes_in_use(allocator->GetStats().bytes_in_use);
    rill::MutexLock lock(&stats_mu_);
    *args_.stats->add_node_stats() = std::move(ns);
  }

  void FlushRootCompleted(ReadyQueue& ready) {
    if (ready.root_completed == 0) return;
    root_completed_.fetch_add(ready.root_completed, std::memory_order_relaxed);
    ready.root_completed = 0;
  }

  // Propagates the node's outputs (`made` null: all dead) unless `s` failed or the step already
  // failed, then marks the node finished.
  void NodeDone(const TaggedNode& t, absl::Status s, TensorValueVector* made, ReadyQueue& ready) {
    const NodeItem& item = ex_->items_.nodes[t.id];
    const size_t ready_before = ready.size();
    if (!s.ok()) {
      Fail(absl::StrContains(s.message(), "{{node ") ? s : WithNode(s, item.kernel->name()));
    } else if (ok() && made == nullptr) {  // dead, or not run: every output is dead
      TensorValueVector dead_outputs(item.num_outputs);
      const bool is_dead = !item.is_control_trigger;
      Propagate(t, item, is_dead, dead_outputs, ready);
    } else if (ok()) {
      TensorValueVector& outputs = *made;
      for (int o = 0; o < item.num_outputs && !item.may_leave_output; ++o) {
        const TensorValue& out = outputs[o];
        if (!item.out_edges[o].empty() && !out.is_ref() && !out.tensor.IsInitialized()) {
          s = WithNode(absl::InternalError(absl::StrCat("Node ", item.kernel->name(),
                                                        " did not produce output ", o)),
                       item.kernel->name());
          break;
        }
      }
      if (!s.ok()) {
        Fail(s);
      } else {
        Propagate(t, item, t.is_dead && !item.is_control_trigger, outputs, ready);
      }
    }
    // Outputs nobody consumed (a target's) are freed now: once the count below reaches zero the
    // caller may read memory stats, while this node's context can still be alive on its thread.
    if (made != nullptr) made->clear();
    CountDone(t, ready_before, ready);
  }

  // NodeDone of a live forwarding node that moved its value (ForwardWithoutKernel): every output
  // it feeds is set, so no check, only the propagation and the counts.
  void ForwardDone(const TaggedNode& t, const NodeItem& item, TensorValueVector& outputs,
                   ReadyQueue& ready) {
    const size_t ready_before = ready.size();
    if (ok()) Propagate(t, item, /*is_dead=*/false, outputs, ready);
    outputs.clear();
    CountDone(t, ready_before, ready);
  }

  // A finished node leaves the step's counts; `ready_before`: the size of `ready` before its
  // outputs were propagated.
  void CountDone(const TaggedNode& t, size_t ready_before, ReadyQueue& ready) {
    if (t.frame == frames_.root()) ++ready.root_completed;
    // This node leaves the outstanding count and the nodes it made ready join it, in one step
    // (none at all for a chain): the count cannot reach zero in between, since this node is
    // still in it until then.
    const int newly_ready = static_cast<int>(ready.size() - ready_before);
    if (newly_ready > 1) {
      outstanding_.fetch_add(newly_ready - 1, std::memory_order_relaxed);
    } else if (newly_ready == 0) {
      FlushRootCompleted(ready);
      if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) Finish();
    }
  }

  // Moves the finished node's outputs to their consumers: lock-free in a simple partition,
  // through the frames otherwise.
  void Propagate(const TaggedNode& t, const NodeItem& item, bool is_dead,
                 TensorValueVector& outputs, ReadyQueue& ready) {
    if (ex_->items_.simple) {  // no frames, no Enter / Exit / NextIteration
      FrameState* root = frames_.root();
      PropagateLockFree(ex_->items_.nodes, item, is_dead, outputs, root->GetIteration(0), root,
                        ready);
      return;
    }
    frames_.Propagate(t, item, is_dead, outputs, ready);
  }

  bool ok() const { return !failed_.load(std::memory_order_acquire); }

  void Fail(const absl::Status& s) {
    {
      rill::MutexLock lock(&stats_mu_);
      if (!status_.ok()) return;
      status_ = s;
      failed_.store(true, std::memory_order_release);
    }
    if (args_.cancellation) args_.cancellation->StartCancel(s);
    if (args_.rendezvous) args_.rendezvous->Abort(s);
  }

  void Finish() {
    absl::Status s;
    {
      rill::MutexLock lock(&stats_mu_);
      s = status_;
    }
    if (s.ok()) {
      const int root_nodes = ex_->items_.frames[0].num_nodes;
      const int done = root_completed_.load();
      const size_t live_frames = frames_.LiveChildFrames();
      if (done != root_nodes || live_frames != 0) {
        s = absl::InternalError(absl::StrCat(
            "Executor finished with ", root_nodes - done, " nodes never ready",
            live_frames != 0 ? absl::StrCat(" and ", live_frames, " while loops unfinished") : "",
            " (a cycle in the partition, or a loop missing its Enter, Merge or NextIteration?)"));
      }
    }
    auto cb = std::move(done_);
    delete this;
    cb(s);
  }

  const Executor* ex_;
  Executor::Args args_;
  // What every node's kernel context shares in this step; Process copies it and adds the node's.
  OpKernelContext::Params base_params_;
  std::function<void(absl::Status)> done_;
  FramePropagator frames_;
  std::atomic<int> outstanding_{0};     // nodes ready or running, in every frame
  std::atomic<int> root_completed_{0};  // root-frame nodes finished
  std::atomic<bool> failed_{false};
  rill::Mutex stats_mu_;  // the step stats and the status
  absl::Status status_ ABSL_GUARDED_BY(stats_mu_);
};

}  // namespace executor_internal

absl::StatusOr<std::unique_ptr<Executor>> Executor::Create(const Graph& partition, Device* device,
                                                           const KernelRegistry& registry) {
  RILL_ASSIGN_OR_RETURN(executor_internal::NodeItems items,
                        executor_internal::BuildNodeItems(partition, device, registry));
  return std::unique_ptr<Executor>(new Executor(device, std::move(items)));
}

Executor::Executor(Device* device, executor_internal::NodeItems items)
    : device_(device), items_(std::move(items)) {}
Executor::~Executor() = default;

void Executor::RunAsync(const Args& args, std::function<void(absl::Status)> done) const {
  (new executor_internal::StepState(this, args, std::move(done)))->Start();
}

absl::Status Executor::Run(const Args& args) const {
  rill::Notification n;
  absl::Status result;
  RunAsync(args, [&](absl::Status s) {
    result = std::move(s);
    n.Notify();
  });
  n.WaitForNotification();
  return result;
}

}  // namespace rill
