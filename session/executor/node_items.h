// The immutable half of an executor: what BuildNodeItems computes once from a partition Graph and
// every step then only reads.
//
// - NodeItem, per node: its kernel and the facts about it a step consults on every run (expensive,
//   async, its control-flow role, whether its inputs need checking), where its inputs sit in its
//   frame's per-iteration slot buffer, its out-edges (per output, and flattened into FlatEdges,
//   which both propagators walk) and its initial count of pending inputs.
// - FrameInfo, per static frame (the root frame, and one per while loop: an Enter's frame_name):
//   its parent, its number of nodes and input slots, its Enter count and its nodes' initial
//   pending counts. Frame assignment is TensorFlow's BuildControlFlowInfo walk from the roots.
// - NodeItems, the whole partition: nodes by executor index (the partition's op nodes in id
//   order, numbered densely), frames ([0] = root), the roots, and the partition-wide facts that
//   pick a propagator (`simple`) and a way to start a step (`has_loops`,
//   `expensive_fed_by_roots`).
//
// Contract: BuildNodeItems reads the Graph only during the call. Errors name the node: NotFound
// for an unknown op (TensorFlow's "Op type not registered" text), InvalidArgument for an
// unconnected input ("Incomplete graph"), an input count the op does not expect, a kernel that
// cannot be built, an Enter whose parallel_iterations is outside int32, an Exit outside every
// loop, a node
// reached from two frames or a frame entered from two enclosing frames; Unimplemented for a
// _Send/_Recv inside a loop frame (a loop body split across devices).
//
// Threading: NodeItems never changes after BuildNodeItems returns, except each expensive node's
// running cost estimate (relaxed atomics); any number of concurrent steps read it without locks.
#ifndef RILL_SESSION_EXECUTOR_NODE_ITEMS_H_
#define RILL_SESSION_EXECUTOR_NODE_ITEMS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/device.h"
#include "graph/graph.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "session/executor/cost_estimate.h"

namespace rill {
namespace executor_internal {

// An Enter's parallel_iterations above this, or below 1 (unbounded in TensorFlow), is treated as
// this many. It bounds the live
// iterations of one loop frame instance, and each frame instance keeps a ring of that many
// iteration slots (FrameState): beyond a thousand iterations in flight nothing runs faster, while
// the ring would still cost memory per frame instance of every step.
inline constexpr int64_t kMaxParallelIterations = 1024;

// A Merge's pending count is 1 + kMergeControlInputStep * (control in-edges). Bit 0
// (kMergeNoLiveInputBit) says no live data input has arrived yet: only the first live input is
// used, and it clears the bit. Each control input counts 2, so arriving control inputs never
// touch bit 0. The Merge is ready when the count is 0 (a live input and every control input), or
// 1 with all data inputs dead (then it is dead).
inline constexpr int kMergeNoLiveInputBit = 1;
inline constexpr int kMergeControlInputStep = 2;

// One out-edge of a node's output (or, in NodeItem::control_out, its control edges).
struct OutEdge {
  int dst;
  int dst_slot;  // -1 for control edges
};

// An out-edge as both propagators walk it: everything they need about the consumer precomputed,
// so propagation reads the producer's edges in one flat array (each output's data edges in order,
// then the control edges) and never the consumer's NodeItem.
struct FlatEdge {
  int dst;
  int dst_local;       // the consumer's pending / dead counter in its frame's iteration
  int dst_slot;        // data input of the consumer; -1 for a control edge
  int input_slot;      // the consumer's input slot in its frame's per-iteration buffer (data edges)
  int output;          // the producer's output; -1 for a control edge
  int dst_num_inputs;  // the consumer's data inputs (a Merge is dead when all of them are)
  bool last_use;       // the output's last data edge: its value may be moved, not copied
  bool dst_is_control_trigger;
  bool dst_is_merge;
};

struct NodeItem {
  std::unique_ptr<OpKernel> kernel;
  int frame = 0;        // the static frame the node runs in (0 = root)
  int local_id = 0;     // index among its frame's nodes (pending counts)
  int input_start = 0;  // first input slot in its frame's per-iteration buffer
  int num_inputs = 0;
  int num_outputs = 0;
  // In-edges; a Merge's is 1 + kMergeControlInputStep * control in-edges (see
  // kMergeNoLiveInputBit).
  int initial_pending = 0;
  std::vector<std::vector<OutEdge>> out_edges;  // per output slot
  std::vector<int> control_out;
  std::vector<FlatEdge> flat_out;  // out_edges and control_out, flattened
  std::vector<bool> input_is_ref;
  std::vector<int> input_src;  // producer node index per data input (for messages)
  bool allows_uninitialized_input = false;
  bool is_expensive = false;  // kernel->IsExpensive(), read once at creation
  // Of an expensive node: its measured Compute time, which decides whether handing it to another
  // thread pays (HandOffCandidate). Written by the threads that run it, through `mutable`: it is
  // the one part of NodeItems steps change (cost_estimate.h).
  mutable executor_internal::CostEstimate cost;
  bool is_async = false;  // kernel->IsAsync()
  // Whether a ready, live node's input slot may be empty in a simple partition: only a ref input
  // or a producer with a ref output (an uninitialized variable) can leave one so.
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
  // What its CPU kernel does when it only moves a value (executor.cc may then move it itself
  // without running the kernel): kInput0, input 0 to output 0 (Identity, Enter, Exit,
  // NextIteration, LoopCond and their Ref forms); kSwitch, input 0 to output 1 when the scalar
  // predicate (input 1) is true, else to output 0; kMerge, the live input to output 0 and its
  // index to output 1.
  enum class Forwarding : uint8_t { kNone, kInput0, kSwitch, kMerge };
  Forwarding forwarding = Forwarding::kNone;
  int child_frame = -1;         // Enter: the static frame it enters
  int parallel_iterations = 1;  // Enter: its frame's limit of live iterations
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

struct NodeItems {
  std::vector<NodeItem> nodes;    // by executor index
  std::vector<FrameInfo> frames;  // [0] = root
  std::vector<int> roots;         // nodes with no in-edges (Merges excepted), in index order
  bool has_loops = false;         // some node is an Enter
  bool has_async = false;         // some kernel is async (its completion may come on any thread)
  // No Merge and no loop: every node runs once in the root frame, so pending counts and dead
  // flags are updated with atomics and no lock (simple_propagator.h). Deadness still flows (a
  // dead _Recv, a Switch whose Merge is in another partition).
  bool simple = true;
  // Expensive nodes whose every input comes from a root: ready as soon as the roots ran
  // (dispatch.h's wide start rule reads it).
  int expensive_fed_by_roots = 0;
};

// Builds kernels for every node of `partition` on `device` (not owned) and compiles the nodes
// and frames as above. Errors: see the file comment.
absl::StatusOr<NodeItems> BuildNodeItems(const Graph& partition, Device* device,
                                         const KernelRegistry& registry);

// Appends TensorFlow's node trailer ("\n\t [[{{node X}}]]") to an error, keeping its code.
absl::Status WithNode(const absl::Status& s, const std::string& node);

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_NODE_ITEMS_H_
