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
// The parts, under session/executor/ (each header states its contract and threading):
//   node_items.h         the immutable per-node and per-frame state Create compiles (NodeItems)
//   input_slots.h        one iteration's input slots and pending/dead counts; delivering a value
//   simple_propagator.h  lock-free propagation for partitions without Merge or loops
//   frame_propagator.h   frames, iterations and deadness for TF1 loops and Merge
//   ready_queue.h        the ready nodes of one thread
//   dispatch.h           where a ready node runs: inline, on the runner, in chunks; how a step
//   starts
// This file's step (executor.cc) runs one node (Process), reports it done (NodeDone) and ends the
// step; the per-node path is inline across the parts' headers.
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
#include "graph/graph.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "proto/step_stats.pb.h"
#include "session/executor/node_items.h"
#include "session/executor/simple_propagator.h"

namespace rill {
namespace executor_internal {
class StepState;  // executor.cc
}  // namespace executor_internal

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
  int num_nodes() const { return static_cast<int>(items_.nodes.size()); }

 private:
  friend class executor_internal::StepState;

  Executor(Device* device, executor_internal::NodeItems items);

  Device* const device_;  // Not owned.
  const executor_internal::NodeItems items_;
  // Root iterations of finished steps, reused by the next ones (simple partitions only).
  mutable executor_internal::RootIterationPool spare_root_iterations_;
};

}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_H_
