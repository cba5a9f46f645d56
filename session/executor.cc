#include "session/executor.h"

#include <atomic>
#include <chrono>
#include <deque>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "core/status_macros.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

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

absl::StatusOr<std::unique_ptr<Executor>> Executor::Create(const GraphDef& partition,
                                                           Device* device,
                                                           const KernelRegistry& registry) {
  std::unique_ptr<Executor> ex(new Executor(device));
  const int n = partition.node_size();
  absl::flat_hash_map<std::string, int> index;
  for (int i = 0; i < n; ++i) {
    if (!index.emplace(partition.node(i).name(), i).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Duplicate node name '", partition.node(i).name(), "' in partition"));
    }
  }
  ex->nodes_.resize(n);
  for (int i = 0; i < n; ++i) {
    const NodeDef& def = partition.node(i);
    RILL_ASSIGN_OR_RETURN(const OpRegistration* reg,
                          OpRegistry::Global()->LookUpOrError(def.op()));
    NodeDef filled = def;
    AddDefaultsToNodeDef(reg->op_def, &filled);
    absl::StatusOr<std::unique_ptr<OpKernel>> kernel =
        registry.CreateKernel(filled, reg->op_def, device);
    if (!kernel.ok()) return WithNode(kernel.status(), def.name());
    NodeItem& item = ex->nodes_[i];
    item.kernel = *std::move(kernel);
    item.num_outputs = static_cast<int>(item.kernel->output_types().size());
    item.out_edges.resize(item.num_outputs);
    item.allows_uninitialized_input = reg->op_def.allows_uninitialized_input();
    item.copies_ref_inputs = def.op() == "_Retval";
  }
  for (int i = 0; i < n; ++i) {
    const NodeDef& def = partition.node(i);
    NodeItem& item = ex->nodes_[i];
    item.input_start = ex->total_inputs_;
    const DataTypeVector& types = item.kernel->input_types();
    int slot = 0;
    for (const std::string& input : def.input()) {
      RILL_ASSIGN_OR_RETURN(InputName in, ParseInputName(input));
      auto it = index.find(in.node);
      if (it == index.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Incomplete graph, missing input '", input, "' for ", def.name()));
      }
      NodeItem& src = ex->nodes_[it->second];
      ++item.initial_pending;
      if (in.is_control()) {
        src.control_out.push_back(i);
        continue;
      }
      if (in.index >= src.num_outputs) {
        return absl::InvalidArgumentError(absl::StrCat("Node '", def.name(), "' input '", input,
                                                       "' names output ", in.index, " but '",
                                                       in.node, "' has ", src.num_outputs));
      }
      src.out_edges[in.index].push_back({i, slot});
      item.input_src.push_back(it->second);
      item.input_is_ref.push_back(slot < static_cast<int>(types.size()) && IsRefType(types[slot]));
      ++slot;
    }
    if (slot != static_cast<int>(types.size())) {
      return absl::InvalidArgumentError(absl::StrCat("Node '", def.name(), "' has ", slot,
                                                     " data inputs but its op expects ",
                                                     types.size()));
    }
    item.num_inputs = slot;
    ex->total_inputs_ += slot;
    if (item.initial_pending == 0) ex->roots_.push_back(i);
  }
  return ex;
}

Executor::~Executor() = default;

// The state of one step: input buffers, pending counts, the outstanding-node count and the first
// error. Deletes itself when the last node finishes, after calling `done`.
class Executor::StepState {
 public:
  StepState(const Executor* ex, const Args& args, std::function<void(absl::Status)> done)
      : ex_(ex),
        args_(args),
        done_(std::move(done)),
        inputs_(ex->total_inputs_),
        pending_(ex->nodes_.size()) {
    for (size_t i = 0; i < ex->nodes_.size(); ++i) {
      pending_[i].store(ex->nodes_[i].initial_pending, std::memory_order_relaxed);
    }
  }

  void Start() {
    if (ex_->nodes_.empty()) {
      Finish();
      return;
    }
    outstanding_.store(static_cast<int>(ex_->roots_.size()), std::memory_order_relaxed);
    // The caller must never block inside a kernel (it waits for the step with a timeout), so
    // expensive roots go to the runner; cheap ones run here.
    // Locals only after the first hand-off: a scheduled root may finish the step and delete us.
    const Executor* ex = ex_;
    const Runner runner = args_.runner;
    std::deque<int> ready;
    for (int id : ex->roots_) {
      if (ex->nodes_[id].kernel->IsExpensive() && runner) {
        runner([this, id] {
          std::deque<int> more;
          Process(id, more);
          RunReady(more);
        });
      } else {
        ready.push_back(id);
      }
    }
    RunReady(ready);
  }

 private:
  // Runs `ready` nodes: cheap ones inline, expensive ones on the runner.
  void RunReady(std::deque<int>& ready) {
    while (!ready.empty()) {
      int id = ready.front();
      ready.pop_front();
      const NodeItem& item = ex_->nodes_[id];
      if (item.kernel->IsExpensive() && args_.runner && !ready.empty()) {
        args_.runner([this, id] {
          std::deque<int> more;
          Process(id, more);
          RunReady(more);
        });
      } else {
        Process(id, ready);
      }
    }
  }

  void Process(int id, std::deque<int>& ready) {
    const NodeItem& item = ex_->nodes_[id];
    if (!ok()) {
      NodeDone(id, absl::OkStatus(), nullptr, ready);
      return;
    }
    for (int i = 0; i < item.num_inputs; ++i) {
      const TensorValue& v = inputs_[item.input_start + i];
      const bool initialized = v.is_ref() ? v.Get().IsInitialized() : v.tensor.IsInitialized();
      if (!initialized && !(v.is_ref() && item.allows_uninitialized_input)) {
        const std::string& src = ex_->nodes_[item.input_src[i]].kernel->name();
        bool from_variable = v.is_ref() || item.input_is_ref[i];
        for (DataType t : ex_->nodes_[item.input_src[i]].kernel->output_types()) {
          from_variable |= IsRefType(t);
        }
        absl::Status s =
            from_variable
                ? absl::FailedPreconditionError(
                      absl::StrCat("Attempting to use uninitialized value ", src))
                : absl::InternalError(absl::StrCat("Input ", i, " of node ",
                                                   item.kernel->name(), " from ", src,
                                                   " has no value"));
        NodeDone(id, WithNode(s, item.kernel->name()), nullptr, ready);
        return;
      }
    }
    OpKernelContext::Params params;
    params.device = ex_->device_;
    params.step_id = args_.step_id;
    params.rendezvous = args_.rendezvous;
    params.cancellation = args_.cancellation;
    params.call_frame = args_.call_frame;
    params.intra_op_pool = args_.intra_op_pool;
    params.kernel = item.kernel.get();
    const int64_t start = args_.stats ? NowMicros() : 0;
    if (item.kernel->IsAsync()) {
      // The context and its inputs must outlive ComputeAsync: keep them on the heap.
      auto inputs = std::make_shared<std::vector<TensorValue>>(
          inputs_.begin() + item.input_start,
          inputs_.begin() + item.input_start + item.num_inputs);
      params.inputs = inputs.get();
      auto ctx = std::make_shared<OpKernelContext>(params, item.num_outputs);
      static_cast<const AsyncOpKernel*>(item.kernel.get())
          ->ComputeAsync(*ctx, [this, id, ctx, inputs, start](absl::Status s) {
            std::deque<int> more;
            Record(id, start);
            NodeDone(id, s, ctx.get(), more);
            RunReady(more);
          });
      return;
    }
    // Synchronous kernels: inputs are moved out of the step's buffer (each slot is read once) and
    // the context lives on this stack.
    std::vector<TensorValue> inputs(
        std::make_move_iterator(inputs_.begin() + item.input_start),
        std::make_move_iterator(inputs_.begin() + item.input_start + item.num_inputs));
    params.inputs = &inputs;
    OpKernelContext ctx_storage(params, item.num_outputs);
    OpKernelContext* ctx = &ctx_storage;
    absl::Status s = item.kernel->Compute(*ctx);
    Record(id, start);
    NodeDone(id, s, ctx, ready);
  }

  void Record(int id, int64_t start) {
    if (args_.stats == nullptr) return;
    const int64_t end = NowMicros();
    absl::MutexLock lock(&mu_);
    NodeExecStats* ns = args_.stats->add_node_stats();
    ns->set_node_name(ex_->nodes_[id].kernel->name());
    ns->set_all_start_micros(start);
    ns->set_op_end_rel_micros(end - start);
    ns->set_all_end_rel_micros(end - start);
    ns->set_timeline_label(absl::StrCat(ex_->nodes_[id].kernel->name(), " = ",
                                        ex_->nodes_[id].kernel->type_string(), "()"));
  }

  // Propagates outputs (when `ctx` is set and `s` is OK), then marks the node finished.
  void NodeDone(int id, absl::Status s, OpKernelContext* ctx, std::deque<int>& ready) {
    const NodeItem& item = ex_->nodes_[id];
    if (!s.ok()) {
      Fail(absl::StrContains(s.message(), "{{node ") ? s : WithNode(s, item.kernel->name()));
    } else if (ctx != nullptr && ok()) {
      for (int o = 0; o < item.num_outputs; ++o) {
        const TensorValue& out = ctx->outputs()[o];
        if (!item.out_edges[o].empty() && !out.is_ref() && !out.tensor.IsInitialized()) {
          Fail(WithNode(absl::InternalError(absl::StrCat(
                            "Node ", item.kernel->name(), " did not produce output ", o)),
                        item.kernel->name()));
          break;
        }
        for (const Edge& e : item.out_edges[o]) {
          const NodeItem& dst = ex_->nodes_[e.dst];
          TensorValue& slot = inputs_[dst.input_start + e.dst_slot];
          if (out.is_ref() && !dst.input_is_ref[e.dst_slot]) {
            // A ref read by a non-ref consumer: read the value (a copy for fetches, so later
            // in-place updates of the variable do not change what the caller got).
            slot.tensor = out.Get();
            if (dst.copies_ref_inputs && slot.tensor.IsInitialized()) {
              absl::StatusOr<Tensor> copy = slot.tensor.DeepCopy();
              if (copy.ok()) slot.tensor = *std::move(copy);
            }
            slot.ref = nullptr;
            slot.ref_mu = nullptr;
          } else {
            slot = out;
          }
        }
      }
    }
    if (ok()) {
      for (const auto& edges : item.out_edges) {
        for (const Edge& e : edges) Decrement(e.dst, ready);
      }
      for (int dst : item.control_out) Decrement(dst, ready);
    }
    completed_.fetch_add(1, std::memory_order_relaxed);
    if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) Finish();
  }

  void Decrement(int dst, std::deque<int>& ready) {
    if (pending_[dst].fetch_sub(1, std::memory_order_acq_rel) == 1) {
      outstanding_.fetch_add(1, std::memory_order_relaxed);
      ready.push_back(dst);
    }
  }

  bool ok() const { return !failed_.load(std::memory_order_acquire); }

  void Fail(const absl::Status& s) {
    {
      absl::MutexLock lock(&mu_);
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
      absl::MutexLock lock(&mu_);
      s = status_;
    }
    const int done = completed_.load();
    if (s.ok() && done != static_cast<int>(ex_->nodes_.size())) {
      s = absl::InternalError(absl::StrCat("Executor finished with ",
                                           ex_->nodes_.size() - done,
                                           " nodes never ready (a cycle in the partition?)"));
    }
    auto cb = std::move(done_);
    delete this;
    cb(s);
  }

  const Executor* ex_;
  Args args_;
  std::function<void(absl::Status)> done_;
  std::vector<TensorValue> inputs_;
  std::vector<std::atomic<int>> pending_;
  std::atomic<int> outstanding_{0};
  std::atomic<int> completed_{0};
  std::atomic<bool> failed_{false};
  absl::Mutex mu_;
  absl::Status status_ ABSL_GUARDED_BY(mu_);
};

void Executor::RunAsync(const Args& args, std::function<void(absl::Status)> done) const {
  (new StepState(this, args, std::move(done)))->Start();
}

absl::Status Executor::Run(const Args& args) const {
  absl::Notification n;
  absl::Status result;
  RunAsync(args, [&](absl::Status s) {
    result = std::move(s);
    n.Notify();
  });
  n.WaitForNotification();
  return result;
}

}  // namespace rill
