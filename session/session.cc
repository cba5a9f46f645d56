#include "session/session.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "core/denormal.h"
#include "core/device_name.h"
#include "core/gpu/cuda_probe.h"
#include "core/mutex.h"
#include "core/partial_tensor_shape.h"
#include "core/status_macros.h"
#include "core/thread_pool.h"
#include "graph/function_lowering.h"
#include "graph/graph.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "graph/op_classes.h"
#include "graph/partition.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "session/device_mgr.h"
#include "session/executor.h"
#include "session/graph_optimizer.h"
#include "session/heap_trim.h"
#include "session/local_rendezvous.h"
#include "session/placement_log.h"
#include "session/placer.h"
#include "session/run_graph.h"
#include "session/thread_limits.h"

namespace rill {
namespace {

std::atomic<int64_t> g_step_id{1};

// Feeds and fetches of one step, indexed like the run graph's _Arg/_Retval nodes.
class StepCallFrame final : public CallFrame {
 public:
  StepCallFrame(std::vector<Tensor> args, int num_retvals)
      : args_(std::move(args)), retvals_(num_retvals) {}
  absl::StatusOr<Tensor> GetArg(int index) const override {
    if (index < 0 || index >= static_cast<int>(args_.size())) {
      return absl::InvalidArgumentError(absl::StrCat("Arg index ", index, " out of range"));
    }
    return args_[index];
  }
  absl::Status SetRetval(int index, const Tensor& value) override {
    rill::MutexLock lock(&mu_);
    if (index < 0 || index >= static_cast<int>(retvals_.size())) {
      return absl::InvalidArgumentError(absl::StrCat("Retval index ", index, " out of range"));
    }
    if (retvals_[index].IsInitialized()) {
      return absl::InvalidArgumentError(absl::StrCat("Retval[", index, "] has already been set."));
    }
    retvals_[index] = value;
    return absl::OkStatus();
  }
  std::vector<Tensor> TakeRetvals() {
    rill::MutexLock lock(&mu_);
    return std::move(retvals_);
  }

 private:
  const std::vector<Tensor> args_;
  rill::Mutex mu_;
  std::vector<Tensor> retvals_ ABSL_GUARDED_BY(mu_);
};

// Everything cached for one Run signature.
struct RunState {
  RunGraph run;
  std::vector<PartialTensorShape> feed_shapes;  // declared Placeholder shape per feed
  std::vector<std::unique_ptr<Executor>> executors;
  // Exported only when a Run asks for partition_graphs; empty with
  // experimental.disable_output_partition_graphs.
  std::vector<Graph> partitions;
};

}  // namespace

namespace {

// The pools of sessions that do not ask for their own (use_per_session_threads false, TensorFlow's
// default): one process-wide pool per (kind, size), made by the first session that needs it and
// never destroyed, so sessions that come and go (servers, tests, the fuzzers) do not start and join
// threads each time. Unlike TensorFlow's single global pool sized by the first session, a session
// asking for a different size gets a pool of that size. Thread-safe.
absl::StatusOr<ThreadPool*> SharedThreadPool(const std::string& name, int threads) {
  static Mutex mu;
  static auto* pools = new std::map<std::pair<std::string, int>, std::unique_ptr<ThreadPool>>();
  MutexLock lock(&mu);
  auto it = pools->find({name, threads});
  if (it != pools->end()) return it->second.get();
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<ThreadPool> pool, ThreadPool::Create(name, threads));
  return ((*pools)[{name, threads}] = std::move(pool)).get();
}

}  // namespace

class SessionImpl {
 public:
  SessionImpl(SessionOptions options, std::unique_ptr<DeviceMgr> devices)
      : options_(std::move(options)), devices_(std::move(devices)) {
    int threads = options_.config.inter_op_parallelism_threads();
    if (threads <= 0) threads = DefaultNumThreads();
    int intra = options_.config.intra_op_parallelism_threads();
    if (intra <= 0) intra = DefaultNumThreads();
    // intra_op_parallelism_threads counts the thread running the kernel, which works on blocks
    // of its own ParallelFor beside intra - 1 OpenMP workers (the team oneDNN and Gemm use; no
    // pool of Rill's own: a second set of threads beside a busy caller would put intra + 1
    // threads on intra cores; docs/architecture.md, "Threading").
    intra_op_threads_ = intra;
    inter_op_threads_ = threads;
  }

  // Starts (or finds) the inter-op pool and prints the device mapping: ResourceExhausted when
  // the process cannot start the threads the config asks for (ThreadPool::Create).
  absl::Status Start() {
    const auto& pool_options = options_.config.session_inter_op_thread_pool();
    if (pool_options.empty()) {
      if (options_.config.use_per_session_threads()) {
        RILL_ASSIGN_OR_RETURN(pool_, OwnedPool("inter_op", inter_op_threads_));
      } else {
        RILL_ASSIGN_OR_RETURN(pool_, SharedThreadPool("rill_inter_op", inter_op_threads_));
      }
      pools_.push_back(pool_);
    } else {
      // TensorFlow's session_inter_op_thread_pool: one pool per entry, chosen per step by
      // RunOptions.inter_op_thread_pool; a pool with a global_name is shared by every session
      // naming it with the same size.
      for (const ThreadPoolOptionProto& p : pool_options) {
        const int threads = p.num_threads() > 0 ? p.num_threads() : DefaultNumThreads();
        ThreadPool* pool = nullptr;
        if (p.global_name().empty()) {
          // Threads "rill_inter_op_<entry>": which pool ran a step shows in a thread's name.
          RILL_ASSIGN_OR_RETURN(pool, OwnedPool(absl::StrCat("inter_op_", pools_.size()), threads));
        } else {
          RILL_ASSIGN_OR_RETURN(pool, SharedThreadPool(p.global_name(), threads));
        }
        pools_.push_back(pool);
      }
      pool_ = pools_[0];
    }
    // TensorFlow 2's DirectSession logs the device mapping (stderr); the per-node placement
    // lines go to stdout.
    if (options_.config.log_device_placement()) {
      std::fputs(DeviceMappingText(ListDevices()).c_str(), stderr);
    }
    return absl::OkStatus();
  }

  ~SessionImpl() { Close().IgnoreError(); }

  // A pool only this session uses (kept in owned_pools_); its threads are "rill_<name>".
  absl::StatusOr<ThreadPool*> OwnedPool(const std::string& name, int threads) {
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<ThreadPool> pool, ThreadPool::Create(name, threads));
    owned_pools_.push_back(std::move(pool));
    return owned_pools_.back().get();
  }

  std::vector<DeviceAttributes> ListDevices() const {
    std::vector<DeviceAttributes> out;
    for (const auto& d : devices_->devices()) out.push_back(d->attributes());
    return out;
  }

  std::vector<DeviceMemoryStats> MemoryStats() const {
    std::vector<DeviceMemoryStats> out;
    for (const auto& d : devices_->devices()) {
      out.push_back({d->name(), d->allocator()->Name(), d->allocator()->GetStats()});
    }
    return out;
  }

  absl::Status Create(const GraphDef& graph) {
    rill::MutexLock lock(&mu_);
    if (closed_) return absl::CancelledError("Session has been closed.");
    if (has_graph_) {
      return absl::AlreadyExistsError("A Graph has already been created for this session.");
    }
    return ExtendLocked(graph);
  }

  absl::Status Extend(const GraphDef& graph) {
    rill::MutexLock lock(&mu_);
    if (closed_) return absl::CancelledError("Session has been closed.");
    return ExtendLocked(graph);
  }

  absl::Status Run(const RunOptions& run_options,
                   const std::vector<std::pair<std::string, Tensor>>& feeds,
                   const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                   std::vector<Tensor>* outputs, RunMetadata* run_metadata) {
    std::shared_ptr<RunState> state;
    std::shared_ptr<CancellationManager> step_cancel = std::make_shared<CancellationManager>();
    int64_t step_token;
    {
      rill::MutexLock lock(&mu_);
      if (closed_) return absl::CancelledError("Session has been closed.");
      if (!has_graph_) {
        return absl::InvalidArgumentError("Session was not created with a graph before Run()!");
      }
      step_token = next_step_token_++;
      active_steps_[step_token] = step_cancel;
    }
    auto unregister = [&] {
      rill::MutexLock lock(&mu_);
      active_steps_.erase(step_token);
    };
    std::vector<std::string> feed_names;
    for (const auto& f : feeds) feed_names.push_back(f.first);
    absl::StatusOr<std::shared_ptr<RunState>> got =
        GetOrCreateRunState(feed_names, fetches, targets);
    if (!got.ok()) {
      unregister();
      return got.status();
    }
    state = *got;
    absl::Status s =
        RunStep(run_options, *state, feeds, fetches, outputs, run_metadata, step_cancel.get());
    unregister();
    return s;
  }

  absl::Status Close() {
    std::vector<std::shared_ptr<CancellationManager>> steps;
    {
      rill::MutexLock lock(&mu_);
      if (closed_) return absl::OkStatus();
      closed_ = true;
      for (auto& [token, cm] : active_steps_) steps.push_back(cm);
    }
    for (auto& cm : steps) cm->StartCancel(absl::CancelledError("Run call was cancelled"));
    ReleaseAllocatorBlockCache();
    return absl::OkStatus();
  }

  std::string PlacementLog() const {
    rill::MutexLock lock(&mu_);
    return graph_ == nullptr ? "" : PlacementLogLines(*graph_, placement_);
  }
  std::string Explain(int max_nodes) const {
    rill::MutexLock lock(&mu_);
    return graph_ == nullptr ? "" : ExplainPlacement(*graph_, placement_, max_nodes);
  }

 private:
  absl::Status ExtendLocked(const GraphDef& addition) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    // The session's graph grows at the GraphDef boundary: what it holds, exported, plus the
    // addition, imported (validated) as one graph.
    std::unique_ptr<Graph> graph;
    if (!has_graph_) {
      RILL_ASSIGN_OR_RETURN(graph, ImportGraphDef(addition));
    } else {
      GraphDef merged;
      ExportGraphDef(*graph_, &merged);
      for (const NodeDef& n : addition.node()) *merged.add_node() = n;
      RILL_ASSIGN_OR_RETURN(graph, ImportGraphDef(std::move(merged)));
    }
    // Calls, If and While become inlined bodies and TF1 control flow before placement.
    RILL_RETURN_IF_ERROR(LowerFunctionalOps(graph.get()));
    PlacerOptions placer_options;
    placer_options.allow_soft_placement = options_.config.allow_soft_placement();
    placer_options.log_device_placement = options_.config.log_device_placement();
    // Without real GPUs, requests for GPUs get TensorFlow's CPU-only-build sentence, and CUDA
    // kernels are hidden from the placer (simulated GPUs in tests cannot run them).
    const bool cuda = devices_->gpus_run_cuda_kernels();
    placer_options.cuda_enabled = cuda;
    const KernelAvailability& kernels =
        cuda ? static_cast<const KernelAvailability&>(*KernelRegistry::Global())
             : KernelRegistry::Global()->WithoutCudaKernels();
    RILL_ASSIGN_OR_RETURN(Placement placement,
                          Place(*graph, devices_->DeviceNames(), kernels, placer_options,
                                has_graph_ ? graph_.get() : nullptr));
    for (const std::string& note : placement.notes) std::fprintf(stderr, "%s\n", note.c_str());
    if (options_.config.log_device_placement()) {
      std::fputs(PlacementLogLines(*graph, placement).c_str(), stdout);
      std::fflush(stdout);
    }
    ApplyPlacement(placement, graph.get());
    graph_ = std::shared_ptr<const Graph>(std::move(graph));
    placement_ = std::move(placement);
    has_graph_ = true;
    run_states_.clear();
    trim_pending_.store(true, std::memory_order_relaxed);
    return absl::OkStatus();
  }

  absl::StatusOr<std::shared_ptr<RunState>> GetOrCreateRunState(
      const std::vector<std::string>& feeds, const std::vector<std::string>& fetches,
      const std::vector<std::string>& targets) {
    const std::string key =
        absl::StrCat(absl::StrJoin(feeds, ","), "->", absl::StrJoin(fetches, ","), "/",
                     absl::StrJoin(targets, ","));
    std::shared_ptr<const Graph> graph;
    {
      rill::MutexLock lock(&mu_);
      auto it = run_states_.find(key);
      if (it != run_states_.end()) return it->second;
      graph = graph_;
    }
    // The first signature built after a Create/Extend frees what creation made (folded values,
    // decoded Consts) while building NodeDefs and kernels: CpuAllocator keeps none of it
    // (session/heap_trim.h).
    ScopedAllocatorBlockCacheBypass bypass(trim_pending_.load(std::memory_order_relaxed));
    auto state = std::make_shared<RunState>();
    RILL_ASSIGN_OR_RETURN(state->run, BuildRunGraph(*graph, feeds, fetches, targets,
                                                    devices_->client_device()->name()));
    state->feed_shapes = DeclaredFeedShapes(*graph, state->run);
    // Every node the run needs must have been placed; unknown ops fail only here.
    RILL_RETURN_IF_ERROR(CheckEveryNodePlaced(state->run));
    // The graph optimizer (constant folding, CSE, identity removal, fusions) rewrites the run
    // graph once per signature; the nodes it makes take the devices of the nodes they replace.
    GraphOptimizerOptions gopts = GraphOptimizerOptions::FromConfig(options_.config);
    gopts.cpu = devices_->client_device();
    gopts.kernels = devices_->gpus_run_cuda_kernels()
                        ? static_cast<const KernelAvailability*>(KernelRegistry::Global())
                        : &KernelRegistry::Global()->WithoutCudaKernels();
    {
      // Constant folding runs kernels: in the float mode the step's kernels run in (subnormals
      // flushed, core/denormal.h), so a folded value is the one the step would compute.
      ScopedFlushDenormal flush;
      RILL_RETURN_IF_ERROR(OptimizeGraph(gopts, &state->run.graph));
    }
    PartitionOptions popts;
    int64_t counter;
    {
      rill::MutexLock lock(&mu_);
      counter = name_counter_;
    }
    popts.name_counter = &counter;
    // Host-memory arguments of device kernels (HostMemory args, int32, strings, resources) get
    // _HostSend/_HostRecv; asked only for nodes on non-CPU devices.
    popts.memory_types = [](const Node& n, const std::string& device_type,
                            std::vector<bool>* host_inputs, std::vector<bool>* host_outputs) {
      if (n.is_unknown_op()) return OpRegistry::Global()->LookUpOrError(n.op()).status();
      return KernelRegistry::Global()->HostMemoryArgs(n.def(), *n.op_def(), device_type,
                                                      host_inputs, host_outputs);
    };
    RILL_ASSIGN_OR_RETURN(auto parts, Partition(state->run.graph, popts));
    // The executors hold what they run (kernels, Const values decoded): the run graph is not read
    // again, and the partitions only for RunMetadata.partition_graphs, which
    // experimental.disable_output_partition_graphs turns off (as in TensorFlow) to free the
    // NodeDefs the optimizer made, a folded model's weights among them.
    state->run.graph = Graph();
    const bool keep_partitions = !options_.config.experimental().disable_output_partition_graphs();
    for (auto& [device_name, part] : parts) {
      Device* device = devices_->Find(device_name);
      if (device == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Creating a partition for ", device_name,
            " which doesn't exist in the list of available devices. Available devices: ",
            absl::StrJoin(devices_->DeviceNames(), ",")));
      }
      RILL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> ex,
                            Executor::Create(part, device, *KernelRegistry::Global()));
      state->executors.push_back(std::move(ex));
      if (keep_partitions) {
        state->partitions.push_back(std::move(part));
      } else {
        part = Graph();  // its NodeDefs go before the next partition's kernels are built
      }
    }
    parts.clear();
    // What was freed above leaves holes in the heap that stay resident: give their pages back,
    // once per Create/Extend, for the first signature built after it (the one that frees a
    // model's folded copies); session/heap_trim.h says why not at every signature.
    if (trim_pending_.exchange(false, std::memory_order_relaxed)) TrimHeap();
    rill::MutexLock lock(&mu_);
    name_counter_ = std::max(name_counter_, counter);
    auto [it, inserted] = run_states_.emplace(key, state);
    return it->second;  // if another thread raced, the first entry wins
  }

  absl::Status RunStep(const RunOptions& run_options, const RunState& state,
                       const std::vector<std::pair<std::string, Tensor>>& feeds,
                       const std::vector<std::string>& fetches, std::vector<Tensor>* outputs,
                       RunMetadata* run_metadata, CancellationManager* cancel) {
    // -1 is TensorFlow's "the caller's thread": Rill runs that step on the first pool, which
    // gives the same results.
    const int pool_index = run_options.inter_op_thread_pool();
    if (pool_index < -1 || pool_index >= static_cast<int>(pools_.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid inter_op_thread_pool: ", pool_index, " (this session has ", pools_.size(),
          " inter-op pool", pools_.size() == 1 ? "" : "s",
          ", from ConfigProto.session_inter_op_thread_pool; use -1 to ", pools_.size() - 1, ")"));
    }
    if (run_options.output_partition_graphs() &&
        options_.config.experimental().disable_output_partition_graphs()) {
      return absl::InvalidArgumentError(
          "RunOptions.output_partition_graphs() is not supported when "
          "disable_output_partition_graphs is true.");
    }
    // Order feed values like the _Arg indices and check their dtypes and shapes.
    std::vector<Tensor> args(state.run.feeds.size());
    for (const auto& [name, value] : feeds) {
      const std::string c = CanonicalTensorName(name);
      const size_t k = std::lower_bound(state.run.feeds.begin(), state.run.feeds.end(), c) -
                       state.run.feeds.begin();
      if (value.dtype() != state.run.feed_types[k]) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expects arg[", k, "] to be ", DataTypeString(state.run.feed_types[k]),
                         " but ", DataTypeString(value.dtype()), " is provided"));
      }
      if (options_.check_feed_shapes && !state.feed_shapes[k].IsCompatibleWith(value.shape())) {
        return absl::InvalidArgumentError(
            absl::StrCat("Cannot feed value of shape ", value.shape().DebugString(), " for Tensor ",
                         c, ", which has shape ", state.feed_shapes[k].DebugString(),
                         " (Rill checks feeds against the Placeholder's shape; turn this off with "
                         "SessionOptions.check_feed_shapes = false)"));
      }
      args[k] = value;
    }
    StepCallFrame frame(std::move(args), static_cast<int>(state.run.fetches.size()));
    LocalRendezvous rendezvous;
    ResourceMgr step_resources;  // outlives the executors: Run waits for them to drain
    const bool trace = run_options.trace_level() > RunOptions::NO_TRACE;
    std::vector<DeviceStepStats> stats(state.executors.size());

    rill::Mutex mu;
    rill::CondVar all_done_cv;  // signalled when pending reaches 0
    absl::Status step_status;
    int pending = static_cast<int>(state.executors.size());
    Executor::Args ex_args;
    ex_args.step_id = g_step_id.fetch_add(1);
    ex_args.rendezvous = &rendezvous;
    ex_args.cancellation = cancel;
    ex_args.call_frame = &frame;
    ex_args.step_resources = &step_resources;
    ThreadPool* pool = pools_[std::max(pool_index, 0)];
    ex_args.runner = [pool](std::function<void()> fn) { pool->Schedule(std::move(fn)); };
    ex_args.intra_op_threads = intra_op_threads_;
    ex_args.runner_threads = pool->NumThreads();
    const int64_t timeout_ms = run_options.timeout_in_ms() > 0
                                   ? run_options.timeout_in_ms()
                                   : options_.config.operation_timeout_in_ms();
    // The deadline counts from here, and a step still running at the deadline is
    // DeadlineExceeded however it ends, as in TensorFlow (whose RunAsync only schedules).
    // Without a deadline RunAsync may run kernels on this thread before it returns (cheap ones,
    // and one made ready last). With one, the executors start on the pool, so that this thread
    // is free to cancel the step at the deadline: a kernel ready at the start that runs until
    // cancelled (a whole fused loop, an endless while loop's one node) would otherwise run here
    // with nobody left to cancel it.
    // A Run called from one of the pool's own threads starts inline as before (it must not wait
    // for a thread it occupies).
    const bool start_on_pool = timeout_ms > 0 && pool->CurrentThreadId() < 0;
    const absl::Time deadline =
        timeout_ms > 0 ? absl::Now() + absl::Milliseconds(timeout_ms) : absl::InfiniteFuture();
    absl::Time finished_at = absl::InfinitePast();  // when pending reached 0 (with a deadline)
    auto executor_done = [&](absl::Status s) {
      rill::MutexLock lock(&mu);
      if (!s.ok() && step_status.ok()) {
        step_status = s;
        rendezvous.Abort(s);
      }
      if (--pending == 0) {
        if (timeout_ms > 0) finished_at = absl::Now();
        all_done_cv.SignalAll();
      }
    };
    for (size_t i = 0; i < state.executors.size(); ++i) {
      Executor::Args a = ex_args;
      if (trace) {
        stats[i].set_device(state.executors[i]->device()->name());
        a.stats = &stats[i];
      }
      const Executor* executor = state.executors[i].get();
      if (start_on_pool) {
        pool->Schedule([executor, a, &executor_done] { executor->RunAsync(a, executor_done); });
      } else {
        executor->RunAsync(a, executor_done);
      }
    }
    {
      rill::MutexLock lock(&mu);
      bool finished = true;
      if (timeout_ms > 0) {
        while (pending > 0) {
          const absl::Duration left = deadline - absl::Now();
          if (left <= absl::ZeroDuration()) break;
          all_done_cv.WaitWithTimeout(&mu, left);
        }
        // By when the step ended, not when this thread looked: executors that finished inline
        // past the deadline are DeadlineExceeded, a step that ended in time is not.
        finished = pending == 0 && finished_at <= deadline;
      } else {
        while (pending > 0) all_done_cv.Wait(&mu);
      }
      if (!finished) {
        absl::Status timeout = absl::DeadlineExceededError("Timed out waiting for notification");
        mu.Unlock();
        cancel->StartCancel(timeout);
        rendezvous.Abort(timeout);
        mu.Lock();
        while (pending > 0) all_done_cv.Wait(&mu);
        step_status = timeout;
      }
    }
    // As TensorFlow's sync_on_finish (its default): the run returns once the GPUs have finished
    // what it enqueued, so the caller may reuse fed buffers, and a GPU's asynchronous error fails
    // this run rather than a later one. A no-op for CPUs. Skipped after a timeout, which must
    // return now (the next run's work queues behind what is left).
    if (step_status.code() != absl::StatusCode::kDeadlineExceeded) {
      for (const auto& ex : state.executors) {
        absl::Status synced = ex->device()->Sync();
        if (!synced.ok() && step_status.ok()) step_status = synced;
      }
    }
    if (!step_status.ok()) {
      if (cancel->IsCancelled() && cancel->status().code() == absl::StatusCode::kCancelled) {
        return absl::CancelledError("Run call was cancelled");
      }
      return step_status;
    }
    std::vector<Tensor> retvals = frame.TakeRetvals();
    outputs->clear();
    for (const std::string& f : fetches) {
      const std::string c = CanonicalTensorName(f);
      const size_t k = std::find(state.run.fetches.begin(), state.run.fetches.end(), c) -
                       state.run.fetches.begin();
      if (!retvals[k].IsInitialized()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Retval[", k, "] does not have value (fetch '", c,
            "' is dead: it depends on an untaken branch of a Switch; fetch the Merge after it "
            "instead)"));
      }
      outputs->push_back(retvals[k]);
    }
    if (run_metadata != nullptr) {
      if (run_options.output_partition_graphs()) {
        for (const Graph& p : state.partitions) {
          ExportGraphDef(p, ExportOptions{/*assigned_devices=*/true},
                         run_metadata->add_partition_graphs());
        }
      }
      if (trace) {
        for (auto& s : stats) *run_metadata->mutable_step_stats()->add_dev_stats() = std::move(s);
      }
    }
    return absl::OkStatus();
  }

  const SessionOptions options_;
  const std::unique_ptr<DeviceMgr> devices_;
  // Pools only this session uses (use_per_session_threads, session_inter_op_thread_pool entries
  // without a global_name); the others are SharedThreadPool's.
  std::vector<std::unique_ptr<ThreadPool>> owned_pools_;
  std::vector<ThreadPool*> pools_;  // RunOptions.inter_op_thread_pool indexes it (set by Start)
  ThreadPool* pool_ = nullptr;      // pools_[0]: inter-op, runs expensive kernels (set by Start)
  int intra_op_threads_ = 1;        // threads one kernel may use, its own included
  int inter_op_threads_ = 1;        // the inter-op size the config asks for (Start)

  mutable rill::Mutex mu_;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool has_graph_ ABSL_GUARDED_BY(mu_) = false;
  // Lowered, validated and placed (each node's assigned device set); replaced whole by Extend,
  // so a Run that copied the pointer keeps a consistent graph.
  std::shared_ptr<const Graph> graph_ ABSL_GUARDED_BY(mu_);
  Placement placement_ ABSL_GUARDED_BY(mu_);
  int64_t name_counter_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, std::shared_ptr<RunState>> run_states_ ABSL_GUARDED_BY(mu_);
  // Set by Create/Extend; the next run state built trims the heap (malloc_trim) and clears it.
  std::atomic<bool> trim_pending_{false};
  int64_t next_step_token_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<int64_t, std::shared_ptr<CancellationManager>> active_steps_ ABSL_GUARDED_BY(mu_);
};

namespace {

// A limit that keeps a mistyped or hostile config from making a process of a million devices;
// threads per pool are bounded by session/thread_limits.h.
constexpr int kMaxCpuDevices = 1024;

// InvalidArgument naming the field and what to change; OK for a usable config.
absl::Status ValidateSessionConfig(const ConfigProto& config) {
  RILL_RETURN_IF_ERROR(CheckThreadsPerPool("ConfigProto.inter_op_parallelism_threads",
                                           config.inter_op_parallelism_threads()));
  RILL_RETURN_IF_ERROR(CheckThreadsPerPool("ConfigProto.intra_op_parallelism_threads",
                                           config.intra_op_parallelism_threads()));
  for (const ThreadPoolOptionProto& p : config.session_inter_op_thread_pool()) {
    RILL_RETURN_IF_ERROR(CheckThreadsPerPool("ConfigProto.session_inter_op_thread_pool num_threads",
                                             p.num_threads()));
  }
  // TensorFlow's executor factories; Rill runs every type with its one executor.
  const std::string& executor_type = config.experimental().executor_type();
  if (!executor_type.empty() && executor_type != "DEFAULT" &&
      executor_type != "SINGLE_THREADED_EXECUTOR") {
    return absl::NotFoundError(
        absl::StrCat("No executor factory registered for the given executor type: ", executor_type,
                     " Registered factories are {, DEFAULT, SINGLE_THREADED_EXECUTOR}. (set "
                     "ConfigProto.experimental.executor_type to one of them, or leave it empty)"));
  }
  // TensorFlow's DeviceFactory::AddDevices parses every filter as a full or local device name.
  for (const std::string& filter : config.device_filters()) {
    if (!ParseFullOrLocalDeviceName(filter).ok()) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid device filter: ", filter));
    }
  }
  // TensorFlow's DirectSession refuses a negative session_metadata version.
  if (config.experimental().has_session_metadata() &&
      config.experimental().session_metadata().version() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Session version shouldn't be negative: ",
                     config.experimental().session_metadata().ShortDebugString()));
  }
  auto cpus = config.device_count().find(kDeviceCpu);
  if (cpus != config.device_count().end() && cpus->second > kMaxCpuDevices) {
    return absl::InvalidArgumentError(absl::StrCat("ConfigProto.device_count[\"CPU\"] is ",
                                                   cpus->second, "; Rill allows at most ",
                                                   kMaxCpuDevices, " CPU devices per session"));
  }
  return absl::OkStatus();
}

}  // namespace

SessionBackendFactory& RemoteSessionFactory() {
  static SessionBackendFactory factory = nullptr;
  return factory;
}

void RegisterRemoteSessionFactory(SessionBackendFactory factory) {
  RemoteSessionFactory() = factory;
}

absl::StatusOr<std::unique_ptr<Session>> Session::New(const SessionOptions& options) {
  RILL_RETURN_IF_ERROR(ValidateSessionConfig(options.config));
  if (options.config.cluster_def().job_size() > 0 || !options.target.empty()) {
    if (RemoteSessionFactory() == nullptr) {
      return absl::UnimplementedError(
          "This session has a cluster_def or a grpc:// target, but the program was built "
          "without the distributed runtime; link //distributed:grpc_session");
    }
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<SessionBackend> remote, RemoteSessionFactory()(options));
    return std::unique_ptr<Session>(new Session(std::move(remote)));
  }
  std::unique_ptr<DeviceMgr> devices;
  if (options.gpus.has_value()) {
    RILL_ASSIGN_OR_RETURN(
        devices, DeviceMgr::Create(options.config, *options.gpus, options.gpu_process_state));
  } else {
    // Discovered once: the CUDA driver's view does not change while the process lives.
    static const std::vector<PhysicalGpu>* const discovered =
        new std::vector<PhysicalGpu>(DiscoverCudaGpus());
    RILL_ASSIGN_OR_RETURN(devices, DeviceMgr::Create(options.config, *discovered,
                                                     options.gpu_process_state != nullptr
                                                         ? options.gpu_process_state
                                                         : GpuProcessState::Global()));
  }
  auto impl = std::make_unique<SessionImpl>(options, std::move(devices));
  RILL_RETURN_IF_ERROR(impl->Start());
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

Session::Session(std::unique_ptr<SessionImpl> impl) : impl_(std::move(impl)) {}
Session::Session(std::unique_ptr<SessionBackend> remote) : remote_(std::move(remote)) {}
Session::~Session() {
  // The executors' tensors freed with the session are kept by CpuAllocator for reuse: give them
  // back once they are freed (session/heap_trim.h).
  const bool local = impl_ != nullptr;
  impl_.reset();
  remote_.reset();
  if (local) ReleaseAllocatorBlockCache();
}
absl::Status Session::Create(const GraphDef& graph) {
  return remote_ ? remote_->Create(graph) : impl_->Create(graph);
}
absl::Status Session::Extend(const GraphDef& graph) {
  return remote_ ? remote_->Extend(graph) : impl_->Extend(graph);
}
absl::Status Session::Run(const RunOptions& run_options,
                          const std::vector<std::pair<std::string, Tensor>>& feeds,
                          const std::vector<std::string>& fetches,
                          const std::vector<std::string>& targets, std::vector<Tensor>* outputs,
                          RunMetadata* run_metadata) {
  // As in TensorFlow, outputs may be null: the run fetches, and the values are dropped.
  std::vector<Tensor> dropped;
  if (outputs == nullptr) outputs = &dropped;
  if (remote_) return remote_->Run(run_options, feeds, fetches, targets, outputs, run_metadata);
  return impl_->Run(run_options, feeds, fetches, targets, outputs, run_metadata);
}
absl::Status Session::Run(const std::vector<std::pair<std::string, Tensor>>& feeds,
                          const std::vector<std::string>& fetches,
                          const std::vector<std::string>& targets, std::vector<Tensor>* outputs) {
  return Run(RunOptions(), feeds, fetches, targets, outputs, nullptr);
}
std::vector<DeviceAttributes> Session::ListDevices() const {
  return remote_ ? remote_->ListDevices() : impl_->ListDevices();
}
// A cluster session reports no memory: its devices' allocators are in other processes.
std::vector<DeviceMemoryStats> Session::MemoryStats() const {
  return remote_ ? std::vector<DeviceMemoryStats>() : impl_->MemoryStats();
}
absl::Status Session::Close() { return remote_ ? remote_->Close() : impl_->Close(); }
std::string Session::PlacementLog() const {
  return remote_ ? remote_->PlacementLog() : impl_->PlacementLog();
}
std::string Session::ExplainPlacement(int max_nodes) const {
  return remote_ ? remote_->ExplainPlacement(max_nodes) : impl_->Explain(max_nodes);
}

}  // namespace rill
