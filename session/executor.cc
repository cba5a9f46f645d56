#include "session/executor.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "graph/graph_def_export.h"
#include "graph/op_classes.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// Set while this thread runs a closure an executor handed to its runner (a pool thread).
thread_local bool t_in_runner_closure = false;

// Marks the scope of such a closure (closures may nest when a runner runs them inline).
class RunnerClosureScope {
 public:
  RunnerClosureScope() : outer_(t_in_runner_closure) { t_in_runner_closure = true; }
  ~RunnerClosureScope() { t_in_runner_closure = outer_; }

 private:
  const bool outer_;
};

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Appends TensorFlow's node trailer to an error, keeping its code.
absl::Status WithNode(const absl::Status& s, const std::string& node) {
  return absl::Status(s.code(), absl::StrCat(s.message(), "\n\t [[{{node ", node, "}}]]"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Executor>> Executor::Create(const Graph& partition, Device* device,
                                                           const KernelRegistry& registry) {
  std::unique_ptr<Executor> ex(new Executor(device));
  // Executor nodes are the partition's op nodes in id order, numbered densely.
  std::vector<const Node*> graph_nodes;
  graph_nodes.reserve(partition.num_op_nodes());
  std::vector<int> index(partition.num_node_ids(), -1);
  for (const Node* node : partition.op_nodes()) {
    index[node->id()] = static_cast<int>(graph_nodes.size());
    graph_nodes.push_back(node);
  }
  const int n = static_cast<int>(graph_nodes.size());
  ex->nodes_.resize(n);
  for (int i = 0; i < n; ++i) {
    const Node& node = *graph_nodes[i];
    if (node.is_unknown_op()) {
      RILL_RETURN_IF_ERROR(OpRegistry::Global()->LookUpOrError(node.op()).status());
    }
    const OpDef& op_def = *node.op_def();
    // Kernels see the NodeDef with its input list, as TensorFlow's do (some name their inputs'
    // producers in messages).
    const NodeDef def = NodeDefWithInputs(node);
    absl::StatusOr<std::unique_ptr<OpKernel>> kernel = registry.CreateKernel(def, op_def, device);
    if (!kernel.ok()) return WithNode(kernel.status(), node.name());
    NodeItem& item = ex->nodes_[i];
    item.kernel = *std::move(kernel);
    item.num_outputs = static_cast<int>(item.kernel->output_types().size());
    item.out_edges.resize(item.num_outputs);
    item.allows_uninitialized_input = op_def.allows_uninitialized_input();
    item.is_expensive = item.kernel->IsExpensive();
    item.is_async = item.kernel->IsAsync();
    if (device->device_type() != kDeviceCpu) {
      std::vector<bool> host_inputs, host_outputs;
      RILL_RETURN_IF_ERROR(WithNode(
          registry.HostMemoryArgs(def, op_def, device->device_type(), &host_inputs, &host_outputs),
          node.name()));
      if (std::find(host_outputs.begin(), host_outputs.end(), true) != host_outputs.end()) {
        item.host_outputs = std::move(host_outputs);
      }
    }
    const OpClass op_class = node.op_class();
    item.copies_ref_inputs = IsRetval(op_class);
    item.is_merge = IsMerge(op_class);
    item.is_enter = IsEnter(op_class);
    item.is_exit = IsExit(op_class);
    item.is_next_iteration = IsNextIteration(op_class);
    item.is_control_trigger = IsControlTrigger(op_class);
    item.is_transfer = IsTransfer(op_class);
    item.may_leave_output = MayLeaveOutputUnset(op_class);
    if (item.is_enter) {
      int64_t parallel = 10;
      RILL_RETURN_IF_ERROR(GetNodeAttr(node.def(), "is_constant", &item.is_constant_enter));
      RILL_RETURN_IF_ERROR(GetNodeAttr(node.def(), "parallel_iterations", &parallel));
      if (parallel < 1) {
        return absl::InvalidArgumentError(absl::StrCat("Enter node ", node.name(),
                                                       " has parallel_iterations ", parallel,
                                                       "; it must be at least 1"));
      }
      item.parallel_iterations =
          static_cast<int>(std::min<int64_t>(parallel, kMaxParallelIterations));
      ex->has_loops_ = true;
    }
  }
  std::vector<int> num_control_in(n, 0);
  for (int i = 0; i < n; ++i) {
    const Node& node = *graph_nodes[i];
    NodeItem& item = ex->nodes_[i];
    const DataTypeVector& types = item.kernel->input_types();
    if (node.num_inputs() != static_cast<int>(types.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Node '", node.name(), "' has ", node.num_inputs(),
                       " data inputs but its op expects ", types.size()));
    }
    for (int slot = 0; slot < node.num_inputs(); ++slot) {
      const rill::Edge* e = node.input_edge(slot);
      if (e == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat("Incomplete graph, input ", slot, " of ",
                                                       node.name(), " is not connected"));
      }
      const int src_index = index[e->src()->id()];
      NodeItem& src = ex->nodes_[src_index];
      if (e->src_output() >= src.num_outputs) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node '", node.name(), "' input ", slot, " names output ", e->src_output(),
                         " but '", e->src()->name(), "' has ", src.num_outputs));
      }
      ++item.initial_pending;
      src.out_edges[e->src_output()].push_back({i, slot});
      item.input_src.push_back(src_index);
      item.input_is_ref.push_back(IsRefType(types[slot]));
      item.check_inputs |= item.input_is_ref.back();
      for (DataType type : src.kernel->output_types()) item.check_inputs |= IsRefType(type);
    }
    for (const rill::Edge* e : node.in_edges()) {
      if (!e->IsControlEdge() || !e->src()->IsOp()) continue;
      ++item.initial_pending;
      ex->nodes_[index[e->src()->id()]].control_out.push_back(i);
      ++num_control_in[i];
    }
    item.num_inputs = node.num_inputs();
    if (item.is_merge) item.initial_pending = 1 + 2 * num_control_in[i];
    if (item.is_merge || item.is_enter || item.is_exit || item.is_next_iteration) {
      ex->simple_ = false;
    }
    if (item.initial_pending == 0 && !item.is_merge) ex->roots_.push_back(i);
  }
  // Expensive nodes whose every input comes from a root: ready as soon as the roots ran.
  int expensive_after_roots = 0;
  for (int i = 0; i < n; ++i) {
    const NodeItem& item = ex->nodes_[i];
    if (!item.is_expensive || item.initial_pending == 0) continue;
    bool fed_by_roots = true;
    for (const rill::Edge* e : graph_nodes[i]->in_edges()) {
      if (e->src()->IsOp()) fed_by_roots &= ex->nodes_[index[e->src()->id()]].initial_pending == 0;
    }
    expensive_after_roots += fed_by_roots;
  }
  ex->wide_start_ = expensive_after_roots >= kWideStartNodes;
  RILL_RETURN_IF_ERROR(ex->BuildFrames(graph_nodes));
  return ex;
}

absl::Status Executor::BuildFrames(const std::vector<const Node*>& graph_nodes) {
  const int n = static_cast<int>(nodes_.size());
  frames_.push_back(FrameInfo{});
  absl::flat_hash_map<std::string, int> frame_by_name;
  bool has_transfer = false;
  for (const NodeItem& item : nodes_) has_transfer |= item.is_transfer;
  std::vector<bool> visited(n, false);
  std::deque<int> queue;
  for (int r : roots_) {
    visited[r] = true;
    queue.push_back(r);
  }
  while (!queue.empty()) {
    const int id = queue.front();
    queue.pop_front();
    const NodeItem& item = nodes_[id];
    const Node& node = *graph_nodes[id];
    // The frame the node's consumers run in.
    int out_frame = item.frame;
    if (item.is_enter) {
      std::string name;
      RILL_RETURN_IF_ERROR(GetNodeAttr(node.def(), "frame_name", &name));
      auto [it, added] = frame_by_name.emplace(name, static_cast<int>(frames_.size()));
      if (added) {
        FrameInfo info;
        info.name = name;
        info.parent = item.frame;
        frames_.push_back(std::move(info));
      } else if (frames_[it->second].parent != item.frame) {
        return absl::InvalidArgumentError(
            absl::StrCat("Enter node ", node.name(), " enters frame '", name, "' from frame '",
                         frames_[item.frame].name, "', but other Enter nodes enter it from '",
                         frames_[frames_[it->second].parent].name,
                         "'; every Enter of a loop must sit in the same enclosing frame"));
      }
      out_frame = it->second;
      nodes_[id].child_frame = out_frame;
      ++frames_[out_frame].num_enters;
    } else if (item.is_exit) {
      if (item.frame == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Exit node ", node.name(),
            " is not inside a while loop (no Enter node leads to it); an Exit must follow the "
            "loop's Switch"));
      }
      out_frame = frames_[item.frame].parent;
    }
    auto visit = [&](int dst) -> absl::Status {
      if (!visited[dst]) {
        visited[dst] = true;
        nodes_[dst].frame = out_frame;
        queue.push_back(dst);
      } else if (nodes_[dst].frame != out_frame) {
        const std::string what =
            absl::StrCat("Node ", graph_nodes[dst]->name(), " has inputs from frame '",
                         frames_[nodes_[dst].frame].name, "' and from frame '",
                         frames_[out_frame].name, "' (via ", node.name(), ")");
        if (has_transfer) {
          // A _Recv has no inputs, so a loop body cut by the partitioner looks like this.
          return absl::UnimplementedError(absl::StrCat(
              what,
              ": a while loop's body is split across devices here, and loops whose body "
              "spans devices are not supported yet: place the whole loop on one device"));
        }
        return absl::InvalidArgumentError(absl::StrCat(
            what, "; a tensor enters a loop only through Enter and leaves it only through Exit"));
      }
      return absl::OkStatus();
    };
    for (const auto& edges : item.out_edges) {
      for (const Edge& e : edges) RILL_RETURN_IF_ERROR(visit(e.dst));
    }
    for (int dst : item.control_out) RILL_RETURN_IF_ERROR(visit(dst));
  }
  for (int i = 0; i < n; ++i) {
    NodeItem& item = nodes_[i];
    FrameInfo& frame = frames_[item.frame];
    if (item.frame != 0 && item.is_transfer) {
      return absl::UnimplementedError(absl::StrCat(
          "Node ", item.kernel->name(), " (", item.kernel->type_string(),
          ") moves a tensor between devices inside while loop '", frame.name,
          "'; loops whose body spans devices are not supported yet: place the whole loop on "
          "one device"));
    }
    item.local_id = frame.num_nodes++;
    item.input_start = frame.total_inputs;
    frame.total_inputs += item.num_inputs;
    frame.initial_pending.push_back(item.initial_pending);
  }
  if (!simple_) return absl::OkStatus();
  for (NodeItem& item : nodes_) {
    for (int o = 0; o < item.num_outputs; ++o) {
      const std::vector<Edge>& edges = item.out_edges[o];
      for (size_t e = 0; e < edges.size(); ++e) {
        const NodeItem& dst = nodes_[edges[e].dst];
        item.flat_out.push_back(FlatEdge{edges[e].dst, dst.local_id, edges[e].dst_slot,
                                         dst.input_start + edges[e].dst_slot, o,
                                         e + 1 == edges.size(), dst.is_control_trigger});
      }
    }
    for (int d : item.control_out) {
      const NodeItem& dst = nodes_[d];
      item.flat_out.push_back(FlatEdge{d, dst.local_id, -1, -1, -1, false, dst.is_control_trigger});
    }
  }
  return absl::OkStatus();
}

struct Executor::IterationState {
  IterationState(const FrameInfo& info, int64_t iteration)
      : iter(iteration),
        inputs(info.total_inputs),
        pending(info.num_nodes),
        dead_count(info.num_nodes) {
    Reset(info, iteration);
  }
  // Back to a fresh iteration: every input slot empty, the initial pending counts, no deadness.
  void Reset(const FrameInfo& info, int64_t iteration) {
    iter = iteration;
    for (TensorValue& v : inputs) {
      if (v.is_ref() || v.tensor.IsInitialized()) v = TensorValue();
    }
    for (int i = 0; i < info.num_nodes; ++i) {
      pending[i].store(info.initial_pending[i], std::memory_order_relaxed);
      dead_count[i].store(0, std::memory_order_relaxed);
    }
    outstanding_ops = 0;
    outstanding_frame_count = 0;
  }
  int64_t iter;
  std::vector<TensorValue> inputs;  // by NodeItem::input_start
  // By NodeItem::local_id. Atomic for the lock-free (simple) propagation; under the frame's
  // lock otherwise, where relaxed loads and stores are plain moves.
  std::vector<std::atomic<int>> pending;
  std::vector<std::atomic<int>> dead_count;
  int outstanding_ops = 0;          // nodes of this iteration ready or running
  int outstanding_frame_count = 0;  // child frame instances not yet done
};

Executor::Executor(Device* device) : device_(device) {}
Executor::~Executor() = default;

// The state of one step: frame instances with their iterations (input slots, pending and dead
// counts), the count of nodes ready or running, and the first error. Deletes itself when the last
// node finishes, after calling `done`.
//
// Locking: each frame instance's `mu` guards its iterations' pending/dead counts, its iteration
// bookkeeping and the writes of its input slots; a node's input slots are read without the lock
// once it is ready (every write happened before, under the lock that made it ready). `frames_mu_`
// guards the map of child frame instances; it is never taken while holding a frame's `mu`.
class Executor::StepState {
 public:
  StepState(const Executor* ex, const Args& args, std::function<void(absl::Status)> done)
      : ex_(ex), args_(args), done_(std::move(done)) {
    base_params_.device = ex->device_;
    base_params_.step_id = args.step_id;
    base_params_.rendezvous = args.rendezvous;
    base_params_.cancellation = args.cancellation;
    base_params_.call_frame = args.call_frame;
    base_params_.step_resources = args.step_resources;
    base_params_.intra_op_threads = args.intra_op_threads;
    std::unique_ptr<IterationState> spare;
    if (ex->simple_) {
      rill::MutexLock lock(&ex->spare_mu_);
      if (!ex->spare_root_iterations_.empty()) {
        spare = std::move(ex->spare_root_iterations_.back());
        ex->spare_root_iterations_.pop_back();
      }
    }
    root_ = std::make_unique<FrameState>(&ex->frames_[0], nullptr, 0, 1, std::move(spare));
  }

  // Gives the root iteration back to the executor for the next step (simple executors only:
  // there the root iteration lives until the step ends).
  ~StepState() {
    if (!ex_->simple_ || root_ == nullptr || root_->iterations[0] == nullptr) return;
    std::unique_ptr<IterationState> spare = std::move(root_->iterations[0]);
    spare->Reset(ex_->frames_[0], 0);
    rill::MutexLock lock(&ex_->spare_mu_);
    if (ex_->spare_root_iterations_.size() < 4) {
      ex_->spare_root_iterations_.push_back(std::move(spare));
    }
  }

  void Start() {
    if (ex_->nodes_.empty()) {
      Finish();
      return;
    }
    ReadyQueue ready;
    {
      rill::MutexLock lock(&root_->mu);
      for (int id : ex_->roots_) ready.push_back({id, root_.get(), 0, false});
      root_->GetIteration(0)->outstanding_ops = static_cast<int>(ready.size());
    }
    outstanding_.store(static_cast<int>(ready.size()), std::memory_order_relaxed);
    // The caller must never block inside a kernel (it waits for the step with a timeout), so
    // expensive roots go to the runner; cheap ones run here. A partition with loops may run
    // for as long as its loop does (or forever, until a timeout cancels it), so all of it goes
    // to the runner. So does a partition that starts wide, many expensive nodes fed by roots
    // alone (the wide graph's 1000 MatMuls of Consts): run here, the cheap roots' outputs were
    // made on the caller's core and read on the pool's. Cheap roots with cheap consumers (a
    // partition's _Recvs), or a chain behind many Consts (a CNN: only its first convolution is
    // ready after the roots), still start here, without a thread hop (a CNN's chain moved to a
    // pool thread ran slower on 2 threads half the time: MobileNetV2 4.7 vs 7.5-8 ms).
    // Locals only after the first hand-off: a scheduled root may finish the step and delete us.
    const Executor* ex = ex_;
    const Runner runner = args_.runner;
    if (runner && (ex->has_loops_ || ex->wide_start_)) {
      runner([this, ready]() mutable {
        RunnerClosureScope scope;
        RunReady(ready);
      });
      return;
    }
    ReadyQueue inline_ready;
    ready.ForEach([&](const TaggedNode& t) {
      if (ex->nodes_[t.id].is_expensive && runner) {
        runner([this, t] {
          RunnerClosureScope scope;
          ReadyQueue more;
          Process(t, more);
          RunReady(more);
        });
      } else {
        inline_ready.push_back(t);
      }
    });
    RunReady(inline_ready);
  }

 private:
  struct FrameState;

  // A node made ready in a frame instance's iteration.
  struct TaggedNode {
    int id;
    FrameState* frame;
    int64_t iter;
    bool is_dead;
  };

  // The nodes ready to run on this thread, first in first out: a vector and a read index (no
  // allocation once warm, unlike a deque's chunks). Emptying it rewinds it; a long-lived queue
  // drops its consumed front now and then.
  class ReadyQueue {
   public:
    bool empty() const { return head_ == items_.size(); }
    size_t size() const { return items_.size() - head_; }
    void push_back(const TaggedNode& t) { items_.push_back(t); }
    TaggedNode pop_front() {
      TaggedNode t = items_[head_++];
      if (head_ == items_.size()) {
        items_.clear();
        head_ = 0;
      } else if (head_ >= 4096 && head_ * 2 >= items_.size()) {
        items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
      return t;
    }
    // Moves the next `n` nodes to be popped (n <= size()) to the back of `dst`, in order.
    void MoveFrontTo(ReadyQueue& dst, size_t n) {
      dst.items_.insert(dst.items_.end(), items_.begin() + static_cast<std::ptrdiff_t>(head_),
                        items_.begin() + static_cast<std::ptrdiff_t>(head_ + n));
      head_ += n;
      if (head_ == items_.size()) {
        items_.clear();
        head_ = 0;
      }
    }
    // Calls fn on queued nodes in order while it returns true.
    template <typename Fn>
    void ForEachWhile(Fn&& fn) const {
      for (size_t i = head_; i < items_.size() && fn(items_[i]); ++i) {
      }
    }
    // Every queued node, in order (for handing a whole batch over).
    template <typename Fn>
    void ForEach(Fn&& fn) const {
      for (size_t i = head_; i < items_.size(); ++i) fn(items_[i]);
    }

    // Root-frame nodes finished by this queue's thread and not yet added to root_completed_
    // (one atomic add per run of work instead of one per node). NodeDone adds them before any
    // decrement that could end the step, and Process before an async kernel starts (its NodeDone
    // runs elsewhere); a queue's last NodeDone otherwise always makes that decrement, since a
    // node that makes others ready leaves them in this queue.
    int root_completed = 0;

   private:
    std::vector<TaggedNode> items_;
    size_t head_ = 0;
  };

  using IterationState = Executor::IterationState;

  // One instance of a static frame: the root, or a loop for one (parent instance, iteration).
  struct FrameState {
    // `first`: a reset iteration 0 to reuse (null: a new one).
    FrameState(const FrameInfo* frame_info, FrameState* parent_frame, int64_t iteration_of_parent,
               int max_parallel, std::unique_ptr<IterationState> first = nullptr)
        : info(frame_info),
          parent(parent_frame),
          parent_iter(iteration_of_parent),
          max_parallel_iterations(max_parallel),
          num_pending_inputs(frame_info->num_enters),
          iterations(RingSize(max_parallel)),
          ring_mask(static_cast<int64_t>(iterations.size()) - 1) {
      iterations[0] =
          first != nullptr ? std::move(first) : std::make_unique<IterationState>(*info, 0);
    }
    // At least max_parallel + 1 slots, a power of two so a slot is a mask, not a division.
    static size_t RingSize(int max_parallel) {
      size_t n = 1;
      while (n < static_cast<size_t>(max_parallel) + 1) n <<= 1;
      return n;
    }
    // The live iteration `i`, or nullptr once it was freed.
    IterationState* GetIteration(int64_t i) {
      IterationState* s = iterations[i & ring_mask].get();
      return s != nullptr && s->iter == i ? s : nullptr;
    }

    const FrameInfo* const info;
    FrameState* const parent;  // null for the root
    const int64_t parent_iter;
    const int max_parallel_iterations;
    rill::Mutex mu;
    int num_pending_inputs ABSL_GUARDED_BY(mu);       // Enter deliveries still to come
    int64_t iteration_count ABSL_GUARDED_BY(mu) = 0;  // the newest iteration started
    int num_outstanding_iterations ABSL_GUARDED_BY(mu) = 1;
    // A ring of slots; iteration i lives in slot i & ring_mask.
    std::vector<std::unique_ptr<IterationState>> iterations;
    const int64_t ring_mask;
    // NextIteration outputs waiting for a slot (parallel_iterations reached).
    std::vector<std::pair<int, TensorValue>> next_iter_roots ABSL_GUARDED_BY(mu);
    // Constant Enter values, delivered to every iteration: (node, value, dead).
    std::vector<std::tuple<int, TensorValue, bool>> loop_invariants ABSL_GUARDED_BY(mu);
    std::vector<int> dead_exits ABSL_GUARDED_BY(mu);  // delivered when the frame is done
  };

  using FrameKey = std::tuple<const FrameState*, int64_t, int>;

  // Runs `ready` nodes: cheap ones inline; an expensive one goes to the runner when another
  // expensive node is ready too (this thread keeps the last one). When many are ready they go in
  // chunks, not one closure per node (a wide graph's 1000 ready MatMuls made 999 closures): the
  // node and half of the others once at least 2 * kDispatchChunk are. The first `chunk_nodes` nodes
  // of `ready` are such a chunk: split in half again down to kMinChunk nodes, then run here; the
  // nodes they make ready follow the rules above.
  static constexpr size_t kDispatchChunk = 16;
  static constexpr size_t kMinChunk = 4;

  // Whether `ready` holds another live expensive node (looking at the next 64): only then is
  // handing one to another thread worth it. With cheap company an expensive node runs here, so
  // a chain (a CNN's layers) stays on one thread and its OpenMP team (two teams of two threads
  // on two cores had one spin while the other worked: small CNN batch 1 on 2 threads).
  bool AnotherExpensiveIsReady(const ReadyQueue& ready) const {
    bool found = false;
    size_t looked = 0;
    ready.ForEachWhile([&](const TaggedNode& n) {
      found = !n.is_dead && ex_->nodes_[n.id].is_expensive;
      return !found && ++looked < 64;
    });
    return found || looked >= 64;
  }
  void RunReady(ReadyQueue& ready, size_t chunk_nodes = 0) {
    while (!ready.empty()) {
      const TaggedNode t = ready.pop_front();
      const bool in_chunk = chunk_nodes > 0;
      if (in_chunk) --chunk_nodes;
      const NodeItem& item = ex_->nodes_[t.id];
      // On the runner's only thread, handing a node over would just queue it behind this one.
      const bool expensive = !t.is_dead && item.is_expensive && args_.runner &&
                             !(args_.runner_threads == 1 && t_in_runner_closure);
      const size_t others = ready.size();
      size_t take = 0;  // how many of the following nodes go with t
      bool dispatch = false;
      if (!expensive) {
      } else if (in_chunk) {
        // Halved down to a few nodes per closure, so wide pools still get a share each.
        dispatch = chunk_nodes >= 2 * kMinChunk;
        take = chunk_nodes / 2;
      } else if (others > 0 && AnotherExpensiveIsReady(ready)) {
        dispatch = true;
        take = others >= 2 * kDispatchChunk ? others / 2 : 0;
      }
      if (!dispatch) {
        Process(t, ready);
        continue;
      }
      ReadyQueue chunk;
      chunk.push_back(t);
      ready.MoveFrontTo(chunk, take);
      if (in_chunk) chunk_nodes -= take;
      const size_t handed = take + 1;
      // At least one node stays in `ready` (take is at most half of the others), so this thread
      // goes on and the step cannot finish under it: its queue's root_completed is still to be
      // added by a later NodeDone here.
      args_.runner([this, chunk = std::move(chunk), handed]() mutable {
        RunnerClosureScope scope;
        RunReady(chunk, /*chunk_nodes=*/handed > 1 ? handed : 0);
      });
    }
  }

  void Process(const TaggedNode& t, ReadyQueue& ready) {
    const NodeItem& item = ex_->nodes_[t.id];
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
    if (!t.is_dead && (item.check_inputs || !ex_->simple_)) {
      for (int i = 0; i < item.num_inputs; ++i) {
        const TensorValue& v = first_input[i];
        if (item.is_merge && !v.is_ref() && !v.tensor.IsInitialized()) continue;  // dead input
        const bool initialized = v.is_ref() ? v.Get().IsInitialized() : v.tensor.IsInitialized();
        if (initialized || (v.is_ref() && item.allows_uninitialized_input)) continue;
        const std::string& src = ex_->nodes_[item.input_src[i]].kernel->name();
        bool from_variable = v.is_ref() || item.input_is_ref[i];
        for (DataType type : ex_->nodes_[item.input_src[i]].kernel->output_types()) {
          from_variable |= IsRefType(type);
        }
        absl::Status s =
            from_variable
                ? absl::FailedPreconditionError(
                      absl::StrCat("Attempting to use uninitialized value ", src))
                : absl::InternalError(absl::StrCat("Input ", i, " of node ", item.kernel->name(),
                                                   " from ", src, " has no value"));
        NodeDone(t, WithNode(s, item.kernel->name()), nullptr, ready);
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
            ReadyQueue more;
            if (args_.stats != nullptr) Record(t.id, start, *call->ctx, call->inputs);
            call->inputs.clear();  // released before NodeDone may report the step done
            NodeDone(t, s, &*call->ctx, more);
            RunReady(more);
          });
      return;
    }
    OpKernelContext::Params params = base_params_;
    params.kernel = item.kernel.get();
    params.is_input_dead = t.is_dead;
    params.host_outputs = item.host_outputs.empty() ? nullptr : &item.host_outputs;
    if (ex_->simple_) {
      // Partitions without loops or Merge: a node's input slots are written before it becomes
      // ready and by nobody while it runs, so the kernel reads them in place; they are emptied
      // right after it (before NodeDone may report the step done), ready for the next step.
      params.inputs = absl::MakeConstSpan(first_input, item.num_inputs);
      OpKernelContext ctx(&params, item.num_outputs);
      absl::Status s = item.kernel->Compute(ctx);
      if (args_.stats != nullptr) Record(t.id, start, ctx, params.inputs);
      for (int i = 0; i < item.num_inputs; ++i) {
        TensorValue& slot = first_input[i];
        slot.tensor.Clear();  // drops the reference here
        slot.ref = nullptr;
        slot.ref_mu = nullptr;
      }
      NodeDone(t, s, &ctx, ready);
      return;
    }
    // Synchronous kernels: inputs are moved out of the iteration's buffer (each slot is read
    // once) and the context lives on this stack.
    TensorValueVector inputs(std::make_move_iterator(first_input),
                             std::make_move_iterator(first_input + item.num_inputs));
    params.inputs = absl::MakeConstSpan(inputs);
    OpKernelContext ctx(&params, item.num_outputs);
    absl::Status s = item.kernel->Compute(ctx);
    if (args_.stats != nullptr) Record(t.id, start, ctx, inputs);
    inputs.clear();  // released before NodeDone may report the step done
    NodeDone(t, s, &ctx, ready);
  }

  // Step stats of one node (FULL_TRACE): timing, and what it allocated: one NodeOutput per
  // output it made (dtype, shape, bytes, allocator) and an AllocatorMemoryUsed for the device's
  // allocator (bytes this node's outputs hold, the allocator's bytes in use afterwards).
  // REQUIRES: args_.stats (callers test it, so a step without stats pays no call).
  void Record(int id, int64_t start, OpKernelContext& ctx, absl::Span<const TensorValue> inputs) {
    const int64_t end = NowMicros();
    const OpKernel& kernel = *ex_->nodes_[id].kernel;
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

  // Propagates the node's outputs (`ctx` null: all dead) unless `s` failed or the step already
  // failed, then marks the node finished.
  void NodeDone(const TaggedNode& t, absl::Status s, OpKernelContext* ctx, ReadyQueue& ready) {
    const NodeItem& item = ex_->nodes_[t.id];
    const size_t ready_before = ready.size();
    if (!s.ok()) {
      Fail(absl::StrContains(s.message(), "{{node ") ? s : WithNode(s, item.kernel->name()));
    } else if (ok() && ctx == nullptr) {  // dead, or not run: every output is dead
      TensorValueVector dead_outputs(item.num_outputs);
      const bool is_dead = !item.is_control_trigger;
      Propagate(t, is_dead, dead_outputs, ready);
    } else if (ok()) {
      TensorValueVector& outputs = ctx->outputs();
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
        Propagate(t, t.is_dead && !item.is_control_trigger, outputs, ready);
      }
    }
    // Outputs nobody consumed (a target's) are freed now: once the count below reaches zero the
    // caller may read memory stats, while this node's context can still be alive on its thread.
    if (ctx != nullptr) ctx->outputs().clear();
    if (t.frame == root_.get()) ++ready.root_completed;
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

  // Moves the finished node's outputs to their consumers in the right frame and iteration and
  // updates the iteration and frame bookkeeping (TensorFlow's PropagateOutputs).
  void Propagate(const TaggedNode& t, bool is_dead, TensorValueVector& outputs, ReadyQueue& ready) {
    const NodeItem& item = ex_->nodes_[t.id];
    if (ex_->simple_) {  // no frames, no Enter / Exit / NextIteration
      ActivateNodesLockFree(item, is_dead, outputs, ready);
      return;
    }
    FrameState* frame = t.frame;
    bool frame_done = false;
    if (item.is_enter) {
      FrameState* child = FindOrCreateChildFrame(frame, t.iter, item);
      bool child_done = false;
      {
        rill::MutexLock lock(&child->mu);
        if (item.is_constant_enter) {
          AddLoopInvariant(child, t.id, outputs[0], is_dead, ready);
        } else {
          ActivateNodes(item, is_dead, child, 0, outputs, ready);
        }
        if (--child->num_pending_inputs == 0) child_done = CleanupIterations(child, 0, ready);
      }
      if (child_done) DeleteFrame(child, ready);
      rill::MutexLock lock(&frame->mu);
      frame_done = DecrementOutstandingOps(frame, t.iter, ready);
    } else if (item.is_exit) {
      if (!is_dead) {
        rill::MutexLock lock(&frame->parent->mu);
        ActivateNodes(item, false, frame->parent, frame->parent_iter, outputs, ready);
      }
      rill::MutexLock lock(&frame->mu);
      // A dead Exit of the newest iteration is passed on when the frame is done (the loop may
      // be in an untaken branch); those of earlier iterations are just the loop going on.
      if (is_dead && t.iter == frame->iteration_count) frame->dead_exits.push_back(t.id);
      frame_done = DecrementOutstandingOps(frame, t.iter, ready);
    } else if (item.is_next_iteration) {
      rill::MutexLock lock(&frame->mu);
      if (is_dead) {
        // The loop ends here: deadness does not flow into the next iteration.
      } else if (t.iter == frame->iteration_count &&
                 frame->num_outstanding_iterations == frame->max_parallel_iterations) {
        frame->next_iter_roots.emplace_back(t.id, std::move(outputs[0]));
      } else {
        if (t.iter == frame->iteration_count) StartIteration(frame, ready);
        ActivateNodes(item, false, frame, t.iter + 1, outputs, ready);
      }
      frame_done = DecrementOutstandingOps(frame, t.iter, ready);
    } else {
      rill::MutexLock lock(&frame->mu);
      ActivateNodes(item, is_dead, frame, t.iter, outputs, ready);
      frame_done = DecrementOutstandingOps(frame, t.iter, ready);
    }
    if (frame_done) DeleteFrame(frame, ready);
  }

  // ActivateNodes for partitions without Merge or loops: everything is in the root frame's
  // iteration 0; a consumer's dead flag is raised before its pending count drops, so the thread
  // that takes the count to zero sees it. Walks the node's flattened edges (FlatEdge).
  void ActivateNodesLockFree(const NodeItem& item, bool is_dead, TensorValueVector& outputs,
                             ReadyQueue& ready) {
    IterationState* state = root_->GetIteration(0);
    TensorValue* inputs = state->inputs.data();
    const int num_values = static_cast<int>(outputs.size());
    for (const FlatEdge& e : item.flat_out) {
      if (e.output < 0) {  // a control edge carries deadness only
        if (is_dead) state->dead_count[e.dst_local].fetch_add(1, std::memory_order_relaxed);
      } else {
        TensorValue* out = e.output < num_values ? &outputs[e.output] : nullptr;
        if (!is_dead && out != nullptr && (out->is_ref() || out->tensor.IsInitialized())) {
          TensorValue* slot = inputs + e.input_slot;
          if (e.last_use && !out->is_ref()) {
            *slot = std::move(*out);
          } else {
            Deliver(*out, ex_->nodes_[e.dst], e.dst_slot, slot);
          }
        } else {
          state->dead_count[e.dst_local].fetch_add(1, std::memory_order_relaxed);
        }
      }
      if (state->pending[e.dst_local].fetch_sub(1, std::memory_order_acq_rel) == 1) {
        const bool dst_dead = !e.dst_is_control_trigger &&
                              state->dead_count[e.dst_local].load(std::memory_order_relaxed) > 0;
        ready.push_back({e.dst, root_.get(), 0, dst_dead});  // counted by NodeDone
      }
    }
  }

  // Delivers a finished node's outputs to its consumers in (frame, iter) and queues those that
  // became ready (TensorFlow's ActivateNodes, including its Merge rules).
  void ActivateNodes(const NodeItem& item, bool is_dead, FrameState* frame, int64_t iter,
                     TensorValueVector& outputs, ReadyQueue& ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    IterationState* state = frame->GetIteration(iter);
    auto activate = [&](int dst_id, int dst_slot, const TensorValue* out) {
      const NodeItem& dst = ex_->nodes_[dst_id];
      // Under the frame's lock: plain reads and writes of the atomics.
      int pending = state->pending[dst.local_id].load(std::memory_order_relaxed);
      int dead_count = state->dead_count[dst.local_id].load(std::memory_order_relaxed);
      const bool is_control = dst_slot < 0;
      const bool has_value = !is_control && !is_dead && out != nullptr &&
                             (out->is_ref() || out->tensor.IsInitialized());
      bool dst_dead = false;
      bool dst_ready = false;
      bool need_input = has_value;
      if (dst.is_merge) {
        if (is_control) {
          pending -= 2;
          dst_dead = dead_count == dst.num_inputs;
          dst_ready = pending == 0 || (pending == 1 && dst_dead);
        } else if (has_value) {
          // Bit 0 of a Merge's count says no live input has arrived yet: only the first live
          // input is used, and it makes the Merge ready once the control inputs are in.
          need_input = (pending & 1) == 1;
          dst_ready = pending == 1;
          pending &= ~1;
        } else {
          ++dead_count;
          // A dead Enter kills the loop's Merge at once: its NextIteration never comes.
          dst_dead = dead_count == dst.num_inputs || item.is_enter;
          dst_ready = pending == 1 && dst_dead;
        }
      } else {
        if (is_dead || (!is_control && !has_value)) ++dead_count;
        dst_dead = dead_count > 0;
        dst_ready = --pending == 0;
      }
      state->pending[dst.local_id].store(pending, std::memory_order_relaxed);
      state->dead_count[dst.local_id].store(dead_count, std::memory_order_relaxed);
      if (need_input) Deliver(*out, dst, dst_slot, &state->inputs[dst.input_start + dst_slot]);
      if (dst_ready) {
        if (dst.is_control_trigger) dst_dead = false;
        ready.push_back({dst_id, frame, iter, dst_dead});  // counted by NodeDone
        ++state->outstanding_ops;
      }
    };
    for (int o = 0; o < item.num_outputs; ++o) {
      const TensorValue* out = o < static_cast<int>(outputs.size()) ? &outputs[o] : nullptr;
      for (const Edge& e : item.out_edges[o]) activate(e.dst, e.dst_slot, out);
    }
    for (int dst : item.control_out) activate(dst, -1, nullptr);
  }

  // Writes one output into a consumer's input slot.
  static void Deliver(const TensorValue& out, const NodeItem& dst, int dst_slot,
                      TensorValue* slot) {
    if (out.is_ref() && !dst.input_is_ref[dst_slot]) {
      // A ref read by a non-ref consumer: read the value (a copy for fetches, so later in-place
      // updates of the variable do not change what the caller got).
      slot->tensor = out.Get();
      if (dst.copies_ref_inputs && slot->tensor.IsInitialized()) {
        absl::StatusOr<Tensor> copy = slot->tensor.DeepCopy();
        if (copy.ok()) slot->tensor = *std::move(copy);
      }
      slot->ref = nullptr;
      slot->ref_mu = nullptr;
    } else {
      *slot = out;
    }
  }

  FrameState* FindOrCreateChildFrame(FrameState* parent, int64_t parent_iter,
                                     const NodeItem& enter) {
    const FrameKey key(parent, parent_iter, enter.child_frame);
    {
      rill::MutexLock lock(&frames_mu_);
      auto it = child_frames_.find(key);
      if (it != child_frames_.end()) return it->second.get();
    }
    auto created = std::make_unique<FrameState>(&ex_->frames_[enter.child_frame], parent,
                                                parent_iter, enter.parallel_iterations);
    FrameState* raw = created.get();
    {
      rill::MutexLock lock(&frames_mu_);
      auto [it, added] = child_frames_.emplace(key, std::move(created));
      if (!added) return it->second.get();  // another Enter of the same loop was first
    }
    rill::MutexLock lock(&parent->mu);
    ++parent->GetIteration(parent_iter)->outstanding_frame_count;
    return raw;
  }

  // Records a loop invariant and delivers it to every live iteration.
  void AddLoopInvariant(FrameState* frame, int id, const TensorValue& value, bool is_dead,
                        ReadyQueue& ready) ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    frame->loop_invariants.emplace_back(id, value, is_dead);
    TensorValueVector outputs{value};
    for (int64_t i = frame->iteration_count - frame->num_outstanding_iterations + 1;
         i <= frame->iteration_count; ++i) {
      if (i >= 0 && frame->GetIteration(i) != nullptr) {
        ActivateNodes(ex_->nodes_[id], is_dead, frame, i, outputs, ready);
      }
    }
  }

  // Opens iteration iteration_count + 1 and delivers the loop invariants to it.
  void StartIteration(FrameState* frame, ReadyQueue& ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    const int64_t next = ++frame->iteration_count;
    ++frame->num_outstanding_iterations;
    // Exits found dead in the previous newest iteration were the loop going on, not the loop
    // being dead: only the last iteration's dead Exits are passed on.
    frame->dead_exits.clear();
    frame->iterations[next & frame->ring_mask] =
        std::make_unique<IterationState>(*frame->info, next);
    for (auto& [id, value, dead] : frame->loop_invariants) {
      TensorValueVector outputs{value};
      ActivateNodes(ex_->nodes_[id], dead, frame, next, outputs, ready);
    }
  }

  // One node of (frame, iter) finished; true when that made the whole frame instance done.
  bool DecrementOutstandingOps(FrameState* frame, int64_t iter, ReadyQueue& ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    IterationState* state = frame->GetIteration(iter);
    if (--state->outstanding_ops != 0) return false;
    return CleanupIterations(frame, iter, ready);
  }

  bool IsIterationDone(FrameState* frame, int64_t iter) ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    IterationState* state = frame->GetIteration(iter);
    if (state == nullptr || state->outstanding_ops != 0 || state->outstanding_frame_count != 0) {
      return false;
    }
    // Iteration 0 also waits for every Enter; later ones for the iteration before them.
    return iter == 0 ? frame->num_pending_inputs == 0 : frame->GetIteration(iter - 1) == nullptr;
  }

  // Frees done iterations from `iter` on (starting deferred ones as slots free up); true when
  // the frame instance is done. The root frame is never freed here (the step ends instead).
  bool CleanupIterations(FrameState* frame, int64_t iter, ReadyQueue& ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    if (frame == root_.get()) return false;
    for (int64_t i = iter; i <= frame->iteration_count && IsIterationDone(frame, i); ++i) {
      frame->iterations[i & frame->ring_mask].reset();
      --frame->num_outstanding_iterations;
      if (!frame->next_iter_roots.empty()) {
        StartIteration(frame, ready);
        for (auto& [id, value] : frame->next_iter_roots) {
          TensorValueVector outputs{std::move(value)};
          ActivateNodes(ex_->nodes_[id], false, frame, frame->iteration_count, outputs, ready);
        }
        frame->next_iter_roots.clear();
      }
    }
    return frame->num_pending_inputs == 0 && frame->num_outstanding_iterations == 0;
  }

  // A done frame instance: passes its dead Exits on to the parent iteration, frees it, and
  // frees the parent too when that was the parent's last work.
  void DeleteFrame(FrameState* frame, ReadyQueue& ready) {
    FrameState* parent = frame->parent;
    const int64_t parent_iter = frame->parent_iter;
    std::vector<int> dead_exits;
    {
      rill::MutexLock lock(&frame->mu);
      dead_exits.swap(frame->dead_exits);
    }
    bool parent_done = false;
    {
      rill::MutexLock lock(&parent->mu);
      TensorValueVector none;
      for (int id : dead_exits) {
        ActivateNodes(ex_->nodes_[id], true, parent, parent_iter, none, ready);
      }
      IterationState* state = parent->GetIteration(parent_iter);
      --state->outstanding_frame_count;
      if (state->outstanding_ops == 0 && state->outstanding_frame_count == 0) {
        parent_done = CleanupIterations(parent, parent_iter, ready);
      }
    }
    {
      rill::MutexLock lock(&frames_mu_);
      child_frames_.erase(FrameKey(parent, parent_iter, frame->info - ex_->frames_.data()));
    }
    if (parent_done) DeleteFrame(parent, ready);
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
      const int root_nodes = ex_->frames_[0].num_nodes;
      const int done = root_completed_.load();
      size_t live_frames;
      {
        rill::MutexLock lock(&frames_mu_);
        live_frames = child_frames_.size();
      }
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
  Args args_;
  // What every node's kernel context shares in this step; Process copies it and adds the node's.
  OpKernelContext::Params base_params_;
  std::function<void(absl::Status)> done_;
  std::unique_ptr<FrameState> root_;
  rill::Mutex frames_mu_;
  absl::flat_hash_map<FrameKey, std::unique_ptr<FrameState>> child_frames_
      ABSL_GUARDED_BY(frames_mu_);
  std::atomic<int> outstanding_{0};     // nodes ready or running, in every frame
  std::atomic<int> root_completed_{0};  // root-frame nodes finished
  std::atomic<bool> failed_{false};
  rill::Mutex stats_mu_;  // the step stats and the status
  absl::Status status_ ABSL_GUARDED_BY(stats_mu_);
};

void Executor::RunAsync(const Args& args, std::function<void(absl::Status)> done) const {
  (new StepState(this, args, std::move(done)))->Start();
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
