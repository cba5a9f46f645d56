// Executor: runs one partition (a Graph whose nodes all live on one device) for one step at a
// time, many steps concurrently. Kernels are built once at creation (attrs validated then) and
// nodes precompiled into flat arrays: per node its kernel, where its inputs sit in one flat input
// buffer, its out-edges and its count of pending inputs. A step keeps per-step state only (input
// buffers, pending counts), so a Run never touches another's.
//
//   RILL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> ex,
//                         Executor::Create(partition, device, *KernelRegistry::Global()));
//   Executor::Args args; args.rendezvous = &rendezvous; args.cancellation = &cm; ...
//   absl::Status s = ex->Run(args);
//
// Scheduling: a ready queue; cheap kernels (IsExpensive() false) run inline on the thread that made
// them ready, expensive ones go to `Args::runner` (the inter-op pool); async kernels (_Recv) call
// back. The first error cancels the step (CancellationManager) and aborts the rendezvous so no
// Recv waits forever; the error names the node as TensorFlow does ("[[{{node X}}]]").
//
// TF1 control flow (spec §6.2), as TensorFlow's executor does it:
// - Deadness: Switch leaves its untaken output unset, which is a dead input for its consumers. A
//   node with any dead input (data or control) does not run; its outputs are dead. Merge runs once
//   any data input is live (and its control inputs have arrived), and is dead only when all its
//   data inputs are. _Send/_Recv run even when dead and carry the bit across partitions.
//   ControlTrigger is never dead.
// - Frames: every node statically belongs to one frame (the root frame, or the loop an Enter's
//   frame_name opens; nested loops nest frames). At run time a frame instance exists per (parent
//   frame instance, parent iteration), with up to parallel_iterations live iterations, each with
//   its own input slots and pending counts. Enter delivers into iteration 0 of its child frame
//   (is_constant: into every iteration, as a loop invariant), NextIteration into the next
//   iteration (deferred while parallel_iterations are live; a dead NextIteration ends the loop),
//   Exit into the parent's iteration (a dead Exit only when the frame is done). Iterations are
//   freed as soon as they and all earlier ones are done, so a loop's memory does not grow with its
//   trip count.
// - Partitions without Merge or loops propagate lock-free (atomic pending counts); the others
//   take their frame instance's lock once per finished node.
// - A step ends when no node is ready or running. If then a node was never ready (a cycle, a Merge
//   with no live input, a loop frame left unfinished) the step fails with Internal.
// Loops whose body spans partitions (a _Send/_Recv inside a loop frame) are Unimplemented.
//
// Thread-safe: Run/RunAsync may be called concurrently for different steps.
#ifndef RILL_SESSION_EXECUTOR_H_
#define RILL_SESSION_EXECUTOR_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cancellation.h"
#include "core/device.h"
#include "core/mutex.h"
#include "core/rendezvous.h"
#include "core/thread_pool.h"
#include "graph/graph.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "proto/step_stats.pb.h"

namespace rill {

// Runs a closure somewhere (a thread pool, or inline).
using Runner = std::function<void(std::function<void()>)>;

class Executor {
 public:
  struct Args {
    int64_t step_id = 0;
    Rendezvous* rendezvous = nullptr;             // Not owned.
    CancellationManager* cancellation = nullptr;  // Not owned.
    CallFrame* call_frame = nullptr;              // Not owned; may be null.
    ResourceMgr* step_resources = nullptr;        // Not owned; this step's (TensorArrays)
    Runner runner;                                // null = run everything inline
    // Threads behind `runner` (0: unknown). With one, a node handed to it from one of its own
    // closures would only queue behind this thread, so ready nodes run where they became ready.
    int runner_threads = 0;
    int intra_op_threads = 1;  // threads one kernel may use, the caller included (1: inline)
    DeviceStepStats* stats = nullptr;  // Not owned; filled when non-null.
  };

  // Builds kernels for every node on `device` (not owned; must outlive the executor).
  // NotFound for unknown ops (TensorFlow's "Op type not registered" text), InvalidArgument for
  // missing inputs ("Incomplete graph") or a node no kernel supports.
  // The partition is only read during the call.
  static absl::StatusOr<std::unique_ptr<Executor>> Create(const Graph& partition, Device* device,
                                                          const KernelRegistry& registry);
  ~Executor();

  // Runs one step; `done` is called exactly once with the step's status.
  void RunAsync(const Args& args, std::function<void(absl::Status)> done) const;
  // Blocking form of RunAsync.
  absl::Status Run(const Args& args) const;

  Device* device() const { return device_; }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }

 private:
  struct Edge {
    int dst;
    int dst_slot;  // -1 for control edges
  };
  // An out-edge as the lock-free propagation of a simple partition walks it: everything it
  // needs about the consumer precomputed, the node's edges in one flat array (each output's
  // data edges in order, then the control edges).
  struct FlatEdge {
    int dst;
    int dst_local;   // the consumer's pending / dead counter
    int dst_slot;    // data input of the consumer; -1 for a control edge
    int input_slot;  // the consumer's input slot in the root iteration (data edges)
    int output;      // the producer's output; -1 for a control edge
    bool last_use;   // the output's last data edge: its value may be moved, not copied
    bool dst_is_control_trigger;
  };
  struct NodeItem {
    std::unique_ptr<OpKernel> kernel;
    int frame = 0;        // the static frame the node runs in (0 = root)
    int local_id = 0;     // index among its frame's nodes (pending counts)
    int input_start = 0;  // first input slot in its frame's per-iteration buffer
    int num_inputs = 0;
    int num_outputs = 0;
    int initial_pending = 0;  // in-edges; Merge: 1 + 2 * control in-edges (bit 0: no live input)
    std::vector<std::vector<Edge>> out_edges;  // per output slot
    std::vector<int> control_out;
    std::vector<FlatEdge> flat_out;  // simple partitions: out_edges and control_out, flattened
    std::vector<bool> input_is_ref;
    std::vector<int> input_src;  // producer node index per data input (for messages)
    bool allows_uninitialized_input = false;
    bool is_expensive = false;  // kernel->IsExpensive(), read once at creation
    bool is_async = false;      // kernel->IsAsync()
    // Whether a ready, live node's input slot may be empty in a simple partition: only a ref
    // input or a producer with a ref output (an uninitialized variable) can leave one so.
    bool check_inputs = false;
    bool copies_ref_inputs = false;  // _Retval: a fetched variable is a snapshot, not an alias
    bool is_merge = false;
    bool is_enter = false;
    bool is_constant_enter = false;
    bool is_exit = false;
    bool is_next_iteration = false;
    bool is_control_trigger = false;
    bool is_transfer = false;       // _Send/_Recv: run even when dead, to pass deadness on
    bool may_leave_output = false;  // Switch, _Recv: an unset output is dead, not an error
    int child_frame = -1;           // Enter: the static frame it enters
    int parallel_iterations = 1;    // Enter: its frame's limit of live iterations
    // Per output, whether it lives in host memory on a non-CPU device; empty when none does.
    std::vector<bool> host_outputs;
  };
  struct FrameInfo {
    std::string name;  // frame_name ("" for the root)
    int parent = -1;
    int num_nodes = 0;
    int total_inputs = 0;
    int num_enters = 0;                // Enter nodes feeding one instance of the frame
    std::vector<int> initial_pending;  // by local_id
  };
  class StepState;
  friend class StepState;
  struct IterationState;  // one iteration's input slots and pending/dead counts (executor.cc)

  explicit Executor(Device* device);  // in the .cc, where IterationState is complete
  // Assigns every node its static frame (TensorFlow's BuildControlFlowInfo walk from the roots)
  // and lays out each frame's input slots and pending counts. InvalidArgument for an Exit
  // outside any loop, a node reached from two frames, or a frame entered from two parents.
  // `graph_nodes` are the partition's nodes by executor index.
  absl::Status BuildFrames(const std::vector<const Node*>& graph_nodes);

  Device* const device_;  // Not owned.
  std::vector<NodeItem> nodes_;
  std::vector<FrameInfo> frames_;  // [0] = root
  std::vector<int> roots_;
  bool has_loops_ = false;
  // At least kWideStartNodes expensive nodes are fed by roots alone: a step then starts on the
  // inter-op pool (StepState::Start).
  static constexpr int kWideStartNodes = 32;
  // An Enter's parallel_iterations above this is treated as this many: more live iterations
  // would only cost ring memory per frame instance.
  static constexpr int64_t kMaxParallelIterations = 1024;
  bool wide_start_ = false;
  // No Merge and no loop: every node runs once in the root frame, so pending counts and dead
  // flags are updated with atomics and no lock (TensorFlow's simple propagator). Deadness still
  // flows (a dead _Recv, a Switch whose Merge is in another partition).
  bool simple_ = true;
  // Root iterations of finished steps of a simple executor, emptied and reset, so a step does
  // not allocate and construct its input slots anew (a few per executor: concurrent steps).
  mutable rill::Mutex spare_mu_;
  mutable std::vector<std::unique_ptr<IterationState>> spare_root_iterations_
      ABSL_GUARDED_BY(spare_mu_);
};

}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_H_
