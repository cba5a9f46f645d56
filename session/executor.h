// Executor: runs one partition (a GraphDef whose nodes all live on one device) for one step at a
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
// TF1 control flow (dead tensors, frames) extends this by adding an is_dead bit to TensorValue
// propagation and a frame/iteration key to the pending counts; the scheduler loop stays as is.
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
#include "core/rendezvous.h"
#include "core/thread_pool.h"
#include "kernels/kernel_registry.h"
#include "kernels/op_kernel.h"
#include "proto/graph.pb.h"
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
    Runner runner;                                // null = run everything inline
    ThreadPool* intra_op_pool = nullptr;          // Not owned; kernels' ParallelFor (null: inline)
    DeviceStepStats* stats = nullptr;             // Not owned; filled when non-null.
  };

  // Builds kernels for every node on `device` (not owned; must outlive the executor).
  // NotFound for unknown ops (TensorFlow's "Op type not registered" text), InvalidArgument for
  // missing inputs ("Incomplete graph") or a node no kernel supports.
  static absl::StatusOr<std::unique_ptr<Executor>> Create(const GraphDef& partition,
                                                          Device* device,
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
  struct NodeItem {
    std::unique_ptr<OpKernel> kernel;
    int input_start = 0;
    int num_inputs = 0;
    int num_outputs = 0;
    int initial_pending = 0;
    std::vector<std::vector<Edge>> out_edges;  // per output slot
    std::vector<int> control_out;
    std::vector<bool> input_is_ref;
    std::vector<int> input_src;  // producer node index per data input (for messages)
    bool allows_uninitialized_input = false;
    bool copies_ref_inputs = false;  // _Retval: a fetched variable is a snapshot, not an alias
  };
  class StepState;
  friend class StepState;

  explicit Executor(Device* device) : device_(device) {}

  Device* const device_;  // Not owned.
  std::vector<NodeItem> nodes_;
  std::vector<int> roots_;
  int total_inputs_ = 0;
};

}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_H_
