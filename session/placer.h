// The placer: chooses a device for every op node of a Graph (graph/graph.h), following
// TensorFlow's rules (tf_runtime_spec.md §1.5, §2), and records the rule that chose each device,
// which TensorFlow never tells.
//
//   PlacerOptions options;
//   options.allow_soft_placement = config.allow_soft_placement();
//   RILL_ASSIGN_OR_RETURN(Placement p, Place(*graph, device_mgr->DeviceNames(),
//                                            *KernelRegistry::Global(), options));
//   const int id = graph->FindNodeId("MatMul");
//   p.device(id);  // "/job:localhost/replica:0/task:0/device:GPU:0"
//   p.reason(id);  // "default: highest-priority device with a kernel (GPU > CPU)"
//   p.reason(graph->FindNodeId("a"));  // "follows its consumer MatMul"
//   ApplyPlacement(p, graph.get());    // graph->FindNode("MatMul")->assigned_device_name()
//
// What it does, in TensorFlow 2's order (colocation_graph.cc, placer.cc):
//  1. Every node with a registered op gets the device types present in `devices` that have a
//     kernel for its NodeDef (op + type constraints), and its requested device (the node's
//     requested_device(): full, partial or legacy "/gpu:1"). A request on a node with no inputs
//     and one ref or DT_RESOURCE output (VariableV2, VarHandleOp) is a *resource device*: soft
//     placement only moves it when nothing else works.
//  2. Reference and DT_RESOURCE edges put producer and consumer in one colocation group; when
//     their requests conflict the consumer's is overridden by the producer's.
//  3. `_class: ["loc:@x"]` puts the node in x's group (every node is in the group of its own
//     name). Requests merge (MergeDeviceNames); supported device types intersect. A conflict is an
//     error unless allow_soft_placement, which then drops that colocation (or, for a type/id
//     conflict, the conflicting part of the request).
//  4. First pass, in graph order (TensorFlow's node-id order: repeatedly the lowest-id node all of
//     whose inputs come earlier; ImportGraphDef gives ids in GraphDef order): a node that is not
//     a generator (no inputs, one non-ref output) takes the best candidate of its group: devices
//     matching the group's request that have a kernel, GPU before CPU, then by name as a string.
//     Shape/Size/Rank follow their input's device when allowed. The node's whole group is then
//     pinned to that device.
//  5. Second pass: generators (Const, Placeholder, VarHandleOp...) take their consumers' device
//     when all consumers agree and it is among their candidates, else their best candidate.
//  6. Rill's own rule, not TensorFlow's: a while loop whose nodes landed on several devices moves
//     wholly to the CPU when it can (session/loop_placement.h), since Rill's executor runs a loop
//     on one device.
// Soft placement: a group whose request matches no device with a kernel falls back to the best
// device that matches the request without its type and id. Nodes whose op is not registered are
// left unplaced (device "") and never fail placement; runs that need them report
// `unplaced_status`. With `previous`, stateful nodes keep the device they had there.
//
// Errors: InvalidArgument with TensorFlow's texts (spec §2.5), followed by one line of Rill's own
// starting "\nRill: " that says what to change:
//   "Cannot assign a device for operation X: {{node X}} was explicitly assigned to /device:GPU:2
//    but available devices are [ /job:localhost/replica:0/task:0/device:CPU:0 ]. Make sure the
//    device specification refers to a valid device.\n\t [[X]]"
//   "Cannot assign a device for operation X: Could not satisfy explicit device specification
//    '/device:GPU:0' because no supported kernel for GPU devices is available.<debug info>"
//   "Cannot assign a device for operation X: Could not satisfy explicit device specification ''
//    because the node {{colocation_node X}} was colocated with a group of nodes that required
//    incompatible device '/device:CPU:1'. ..."
//   "Cannot colocate nodes {{colocation_node a}} and {{colocation_node b}}: Cannot merge devices
//    with incompatible types: ..." ("... because no device type supports both of those nodes")
//   "Cannot place the graph because a reference or resource edge connects colocation groups with
//    incompatible resource devices: ..."
//   "No OpKernel was registered to support Op 'X' used by {{node n}} ..." (KernelAvailability's
//    NoKernelError) for a node no present device type can run, soft placement or not;
//   "Malformed device specification '<d>' in node: ..." for a request that does not parse.
// FailedPrecondition "No devices are registered" for an empty `devices`. Internal for a
// `previous` device that is no longer present or cannot run the node.
//
// Thread safety: Place is a pure function of its arguments (it reads OpRegistry::Global()).
#ifndef RILL_SESSION_PLACER_H_
#define RILL_SESSION_PLACER_H_

#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graph/graph.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {

struct PlacerOptions {
  // ConfigProto.allow_soft_placement: a request that no device with a kernel matches falls back
  // to the best device with a kernel instead of failing. Default off, as in TensorFlow's Session.
  bool allow_soft_placement = false;
  // ConfigProto.log_device_placement: also record TensorFlow's INFO notes (a reference edge
  // overriding a request, soft placement ignoring a colocation) in Placement::notes. Place never
  // prints; the session prints PlacementLogLines and the notes.
  bool log_device_placement = false;
  // False in builds without CUDA: an explicit GPU request matching no device then gets
  // TensorFlow's extra sentence "The requested device appears to be a GPU, but CUDA is not
  // enabled."
  bool cuda_enabled = true;
};

// One node's entry in a Placement: indexes into Placement::devices and Placement::reasons.
struct NodePlacement {
  int device = -1;  // -1: not placed (the op is not registered, or not an op node)
  int reason = -1;  // -1: not an op node of the placed graph (SOURCE, SINK, a removed id)
};

// Reasons, one line each:
//   "explicit request /device:GPU:0"                (the node's own request, as written)
//   "colocated with X (_class loc:@X)"              ("colocated with Y (_class loc:@N on Y)" when
//                                                    Y names this node N)
//   "reference edge from X" / "reference edge to Y"  "resource edge from X" / "resource edge to Y"
//   "soft placement: /device:GPU:2 does not exist"
//   "soft placement: no GPU kernel for these types"
//   "follows its consumer X" ("follows its consumers X, Y"), "follows its input X" (Shape...)
//   "default: highest-priority device with a kernel (GPU > CPU)" (+ "; no GPU kernel for these
//     types" or "; no GPU kernel for colocated node X" when a better device type was present)
//   "stateful: keeps the device it was given when first placed"
//   "unplaced: op 'Foo' is not registered"
// A colocated node whose own request was overridden gets "; its own request R was overridden";
// one whose `_class` colocation soft placement dropped gets "; soft placement ignored _class
// loc:@X".
//
// The result is indexed by the node ids of the placed graph, so it is read with that graph at
// hand (graph.FindNodeId(name) for a name). Nodes share device names and reason texts by index:
// a large graph's placement is 8 bytes per node id and no string per node.
struct Placement {
  // Full device names (Place's `devices`, in its order); NodePlacement::device indexes them.
  std::vector<std::string> devices;
  // Reason texts (see above); NodePlacement::reason indexes them. Nodes with the same words
  // share one entry (PlacementEditor::AddReason).
  std::vector<std::string> reasons;
  // By node id (graph.num_node_ids() entries): every op node of the graph has a reason; those
  // whose op is not registered have no device.
  std::vector<NodePlacement> nodes;
  // Ids of the placed nodes in TensorFlow's log order (spec §3): first-pass nodes in graph order,
  // then the deferred generators. Unplaced nodes are not listed.
  std::vector<int> order;
  // NotFound "Op type not registered 'X' ..." for each unplaced node, by name.
  std::map<std::string, absl::Status> unplaced;
  // TensorFlow's log lines about placement: its INFO lines (a reference edge overriding a
  // request, soft placement dropping a colocation) only with log_device_placement; its WARNING and
  // ERROR lines (soft placement moving a resource, a `_class` that is not a list) always.
  std::vector<std::string> notes;

  // Whether node `id` is an op node of the placed graph (placed or not).
  bool listed(int id) const {
    return id >= 0 && id < static_cast<int>(nodes.size()) && nodes[id].reason >= 0;
  }
  // Node `id`'s full device name; "" when it was not placed.
  const std::string& device(int id) const;
  // Node `id`'s reason; "" when it is not listed.
  const std::string& reason(int id) const;

  // OK when the node `name` of the placed `graph` was placed; the NotFound to report when a run
  // needs an unplaced node; NotFound "Node 'name' is not in the placed graph" for a name the graph
  // did not have.
  absl::Status unplaced_status(const Graph& graph, const std::string& name) const;
};

// Sets nodes' devices and reasons in a Placement, one `reasons` entry per distinct text. It lives
// only while a placement is made or changed (Place, KeepLoopsOnOneDevice), so the Placement a
// session keeps holds no index of its texts. `placement` is not owned and must outlive the
// editor; its `reasons` change only through the editor meanwhile.
class PlacementEditor {
 public:
  // Indexes the texts `placement->reasons` already has.
  explicit PlacementEditor(Placement* placement);
  // The index of `words` in `reasons`, added when no entry has those words.
  int AddReason(std::string words);
  // Sets node `id`'s device (an index into `devices`) and reason (AddReason), growing `nodes`
  // when `id` is past its end.
  void Set(int id, int device, std::string reason);

 private:
  Placement* placement_;
  absl::flat_hash_map<std::string, int> index_;  // reasons' texts -> index
};

// Sets the assigned device (Node::set_assigned_device_name) of every op node of `graph` that
// `placement` lists: the device Place chose, or "" for a node it left unplaced. `placement` is
// Place's result for `graph` (by node id). The other nodes keep their assigned devices.
void ApplyPlacement(const Placement& placement, Graph* graph);

// Places the op nodes of `graph` (as ImportGraphDef makes it: unique names, attr defaults filled,
// edges for the inputs; requested devices are parsed here, so a malformed one set on a node after
// import is reported) on `devices` (full names such as
// "/job:localhost/replica:0/task:0/device:CPU:0", in DeviceMgr order). `kernels` answers which
// device types can run each node's NodeDef. `previous`, when given, is the session's earlier
// graph with the devices its placement assigned (Node::assigned_device_name): a stateful node
// of the same name there keeps its device. The result is by node id of `graph`; Place neither
// reads nor sets `graph`'s assigned devices (the session applies the result). The arguments are
// only read during the call. Time, for a given device list: O(nodes + edges) when the nodes'
// inputs come before them in id order, else O((nodes + edges) log nodes) (TensorFlow's node
// order takes a heap); plus a name lookup in `previous` per stateful node. Errors: see the file
// comment.
absl::StatusOr<Placement> Place(const Graph& graph, const std::vector<std::string>& devices,
                                const KernelAvailability& kernels, const PlacerOptions& options,
                                const Graph* previous = nullptr);

}  // namespace rill

#endif  // RILL_SESSION_PLACER_H_
