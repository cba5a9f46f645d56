// Rill. Building GraphDefs in C++: Scope, Output and Operation, in the spirit of TensorFlow's C++
// Scope API, with TensorFlow Python's naming, device and colocation rules so that a graph written
// here is the GraphDef TensorFlow 1.x would write for the same code.
//
//   Scope root = Scope::NewRootScope();
//   Output a = ops::Const(root.WithOpName("a"), {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
//   Output b = ops::Const(root.WithOpName("b"), {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
//   Output c = ops::MatMul(root, a, b);                       // node "MatMul"
//   Scope tower = root.NewSubScope("tower_0").WithDevice("/gpu:0");
//   Output d = ops::MatMul(tower, a, b);                      // "tower_0/MatMul" on /device:GPU:0
//   GraphDef graph;
//   RILL_RETURN_IF_ERROR(root.ToGraphDef(&graph));            // the first build error, if any
//
// A Scope is a small value: the graph being built (shared by every scope derived from the same
// root) plus the settings that apply to the nodes made with it: name scope, op name, device
// requests, colocation and control dependencies. The With*/New* methods return a new Scope and
// leave the receiver unchanged. Nodes are built by the ops:: wrappers (graph/builder/ops.h) or by
// OpBuilder (graph/builder/op_builder.h).
//
// Names (TensorFlow Python's rules): a node is named "<name scope>/<op name>", where the op name is
// WithOpName's or, by default, the op type ("Const", "MatMul"). A name already in use gets the
// first free suffix "_1", "_2", ... (compared case-insensitively, as TensorFlow does): the second
// "MatMul" is "MatMul_1". Name scopes and node names share one namespace: NewSubScope("w") after a
// node "w" gives the scope "w_1". WithExactOpName bypasses the suffixing (TensorFlow's
// `name="w/"`).
//
// Devices: WithDevice("/gpu:2") requests a device for every node built with the scope, written in
// TensorFlow's canonical form ("/device:GPU:2"); nested requests merge field by field, the inner
// winning ("/job:ps" then "/gpu:0" gives "/job:ps/device:GPU:0"). WithDeviceFunction installs a
// callable that picks the device string per node and is written verbatim. ColocateWith(x) writes
// `_class: "loc:@x"`, takes x's device when x has one, and (as TensorFlow's colocate_with) drops
// the device requests made before it. A node with a reference input (Assign, AssignAdd, ...) is
// colocated with that input's producer, as TensorFlow Python does.
//
// Errors: the first error of building (unknown op, wrong input count, dtype mismatch, attr not
// allowed, malformed device, duplicate name, shape contradiction) is kept in the graph's shared
// status, naming the node; later builds do nothing and return invalid Outputs. status() and
// ToGraphDef() report it once.
//
// Thread safety: Scope, Output and Operation are values (thread-compatible). Scopes sharing a graph
// may build nodes from several threads; the shared state is locked, and names are assigned in call
// order. Device functions run under that lock and must not call back into the Scope.
#ifndef RILL_GRAPH_BUILDER_SCOPE_H_
#define RILL_GRAPH_BUILDER_SCOPE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "proto/graph.pb.h"
#include "proto/node_def.pb.h"
#include "proto/types.pb.h"

namespace rill {

class OpBuilder;

// One output of a node: the node's name, the output index and its dtype (a ref dtype for
// reference outputs such as VariableV2's). A default-constructed Output is invalid; failed builds
// return one.
//
// Outputs made by a Scope remember which graph (root scope) built them: using one in another graph
// (as an input, control dependency, colocation target or UpdateInput argument) is InvalidArgument
// "... belongs to another graph ...", never a silent link to whatever node has the same name
// there. Outputs made by hand from a node name (the constructor below) have no graph and are
// looked up by name.
class Output {
 public:
  Output() = default;
  Output(std::string node, int index, DataType dtype)
      : node_(std::move(node)), index_(index), dtype_(dtype) {}

  const std::string& node() const { return node_; }
  int index() const { return index_; }
  DataType dtype() const { return dtype_; }
  bool valid() const { return !node_.empty(); }
  // The id of the graph that built it (unique per NewRootScope in the process); 0 when made by
  // hand.
  uint64_t graph_id() const { return graph_id_; }
  // How a NodeDef lists it as an input: "node" for output 0, "node:3" otherwise.
  std::string InputString() const;
  // "node:index", the name a Session fetches ("MatMul:0").
  std::string TensorName() const;

 private:
  friend class Operation;
  std::string node_;
  int index_ = 0;
  DataType dtype_ = DT_INVALID;
  uint64_t graph_id_ = 0;
};

// A node of the graph being built, by name, with its output dtypes. What wrappers of ops without
// outputs (NoOp, AssignVariableOp) return; an Output converts to the Operation that produced it, so
// either can be passed to ColocateWith and WithControlDependencies. Default-constructed: invalid.
class Operation {
 public:
  Operation() = default;
  // Names an existing node (e.g. of a graph built elsewhere); output types unknown.
  explicit Operation(std::string name, std::vector<DataType> output_types = {})
      : name_(std::move(name)), output_types_(std::move(output_types)) {}
  Operation(const Output& output)  // NOLINT: implicit on purpose
      : name_(output.node()), graph_id_(output.graph_id_) {}

  const std::string& name() const { return name_; }
  bool valid() const { return !name_.empty(); }
  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  // As Output::graph_id.
  uint64_t graph_id() const { return graph_id_; }
  // Output `i`; an invalid Output when this is invalid or `i` is out of range.
  Output output(int i) const;

 private:
  friend class Scope;
  std::string name_;
  std::vector<DataType> output_types_;
  uint64_t graph_id_ = 0;
};

// Picks the device of a node from its NodeDef (name, op, inputs, attrs with defaults, and the
// device requested by scopes nested inside this function's). Returns a device string ("" for
// none), written to the node verbatim.
using DeviceFunction = std::function<std::string(const NodeDef& node)>;

class Scope {
 public:
  // A new, empty graph. Copies and derived scopes share it.
  static Scope NewRootScope();

  // A name scope for the nodes built with the result: "tower_0" in the root, "tower_0/inner"
  // inside it. The name is made unique like an op name ("tower_0_1" the second time). "" returns
  // this scope's name scope unchanged. A name that is not a valid scope name (letters, digits and
  // "_.-/>") records InvalidArgument "'x y' is not a valid scope name".
  Scope NewSubScope(absl::string_view child_scope_name) const;
  // Names the nodes built with the result "<name scope>/<op_name>", suffixed when in use.
  Scope WithOpName(absl::string_view op_name) const;
  // Names the next node exactly `full_name` (no name scope, no suffix), as TensorFlow Python does
  // for a name ending in "/"; e.g. the variable op "w" whose helpers live in the name scope "w"
  // (NewSubScope("w")). A node of that name already existing is InvalidArgument "Duplicate node
  // name in graph: 'w'" when the node is built.
  Scope WithExactOpName(absl::string_view full_name) const;

  // Requests `device` ("/gpu:2", "/job:ps/task:0", "/device:CPU:0") for the nodes built with the
  // result, canonicalized ("/gpu:2" is written "/device:GPU:2") and merged with the requests of
  // enclosing scopes (set fields of the inner request win). "" clears every device request and
  // device function. A malformed string is InvalidArgument "Malformed device specification" when a
  // node is built with it.
  Scope WithDevice(absl::string_view device) const;
  // Lets `fn` choose the device of each node built with the result. Requests made by scopes
  // derived from the result are applied first and visible to `fn` in NodeDef.device; `fn`'s
  // result replaces them. Enclosing requests then merge under it as above.
  Scope WithDeviceFunction(DeviceFunction fn) const;
  // Colocates the nodes built with the result with `op` (an Operation or Output): their `_class`
  // attr lists op's colocation groups (its own `_class` entries, or "loc:@<op>"), merged with any
  // earlier ColocateWith; their device becomes op's requested device when op has one (the latest
  // ColocateWith's first). Device requests made before this call are dropped (later ones stay).
  Scope ColocateWith(const Operation& op) const;
  // Drops every ColocateWith constraint.
  Scope ClearColocation() const;
  // Adds control inputs "^dep" on `deps` to the nodes built with the result, as TensorFlow's
  // control_dependencies: nested calls accumulate; a node that already reads a dep as data input
  // or reads a node built under the same call is not given it again; control inputs are written
  // sorted by name, after the data inputs.
  Scope WithControlDependencies(absl::Span<const Operation> deps) const;
  // Drops every control dependency (TensorFlow's control_dependencies(None)).
  Scope WithNoControlDependencies() const;

  // The name scope prefix ("" at the root, "tower_0", "tower_0/inner").
  const std::string& name_scope() const { return name_scope_; }

  // The id its Outputs carry (Output::graph_id), shared by every scope derived from one root.
  uint64_t graph_id() const;
  // How many nodes the graph has so far.
  int NodeCount() const;

  // The first error recorded while building this graph, or OK.
  absl::Status status() const;
  bool ok() const { return status().ok(); }
  // Records `status` unless an error is already recorded; OK is ignored.
  void UpdateStatus(const absl::Status& status) const;

  // Copies the graph built so far into `*graph` (nodes in build order) and returns OK, or returns
  // the first build error and leaves `*graph` unchanged. `graph` is borrowed.
  absl::Status ToGraphDef(GraphDef* graph) const;
  absl::StatusOr<GraphDef> ToGraphDef() const;

  // Rewires data input `input_index` of the already-built `node` to `new_input`, as TensorFlow
  // Python's while_loop closes a loop (the Merge first reads the Enter twice, then input 1 is
  // replaced by the NextIteration). Records and returns InvalidArgument when either node is
  // unknown, the index is out of range, or the dtypes differ; the shapes inferred for `node`
  // are kept.
  absl::Status UpdateInput(const Operation& node, int input_index, const Output& new_input) const;

  // Appends the nodes of `graph` to this graph as they are (names, inputs, attrs, devices kept),
  // with its function library, so that they can be built on (e.g. gradients of an imported
  // model). Output dtypes come from the op registry (or the function a call node names); shapes
  // from the op's shape function where its producers come earlier, unknown otherwise. Records and
  // returns InvalidArgument for a node name already in this graph or an op that is neither
  // registered nor a function of the library ("Node 'x': Op type not registered 'Foo'").
  absl::Status ImportGraphDef(const GraphDef& graph) const;

  // The node named `name` as built (attrs with defaults, device, inputs) and its output dtypes.
  // NotFound "No node named 'x' in the graph" when there is none.
  absl::StatusOr<NodeDef> GetNodeDef(absl::string_view name) const;
  absl::StatusOr<Operation> GetOperation(absl::string_view name) const;

  // The shape shape inference gave `output` when its node was built (unknown dims are -1).
  // NotFound when the node is not in this graph; InvalidArgument for an index out of range.
  absl::StatusOr<PartialTensorShape> GetShape(const Output& output) const;

  // Shared graph state; defined in scope.cc, used by OpBuilder.
  struct Graph;

 private:
  friend class OpBuilder;
  struct DeviceEntry;   // one WithDevice / WithDeviceFunction, in order of the calls
  struct ControlScope;  // one WithControlDependencies call

  explicit Scope(std::shared_ptr<Graph> graph);
  // `op` marked as built by the graph `graph_id` (Output::graph_id).
  static Operation Tagged(Operation op, uint64_t graph_id) {
    op.graph_id_ = graph_id;
    return op;
  }
  // Builds `builder`'s node (OpBuilder::Finalize).
  Operation AddNode(const OpBuilder& builder) const;

  std::shared_ptr<Graph> graph_;
  std::string name_scope_;
  std::string op_name_;      // WithOpName, relative to name_scope_; "" for the op type
  bool exact_name_ = false;  // op_name_ is a full name (WithExactOpName)
  std::vector<std::shared_ptr<const DeviceEntry>> devices_;          // outermost first
  std::vector<std::string> colocate_with_;                           // node names, oldest first
  std::vector<std::shared_ptr<const ControlScope>> control_scopes_;  // outermost first
};

}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_SCOPE_H_
