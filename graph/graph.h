// Graph: the in-memory dataflow graph every pass after import works on (placer, pruning,
// partitioning, executors). TensorFlow's Graph, minus placement.
//
//   RILL_ASSIGN_OR_RETURN(Node* a, graph.AddNode(const_def));
//   RILL_ASSIGN_OR_RETURN(Node* m, graph.AddNode(matmul_def));   // def.input() is ignored
//   RILL_RETURN_IF_ERROR(graph.AddEdge(a, 0, m, 0).status());
//   graph.AddControlEdge(init, m);
//   for (const Node* n : graph.op_nodes()) { ... n->in_edges() ... }
//
// Nodes have stable int ids: SOURCE is id 0 and SINK id 1 (as in TensorFlow), op nodes follow in
// the order they were added; a removed node's id is never reused, so num_node_ids() bounds every
// id and arrays indexed by id stay valid across removals. Each op node holds its NodeDef (attr
// defaults filled from the op registry, `input` always empty: the edges are the inputs), its OpDef
// (nullptr for an op the registry does not know: such a node is kept so that runs that never need
// it work), the dtypes of its data inputs and outputs, its op class (graph/op_classes.h), the
// device the GraphDef requested and the device it was assigned (set by the session from the
// placer's result; empty before placement). The passes after placement (run-graph rewrite,
// optimizer, partition, executor) read and keep the assigned device on the nodes they make.
//
// Edges: a data edge joins output `src_output` of `src` to input `dst_input` of `dst`; a control
// edge has src_output == dst_input == kControlSlot. Every data input has at most one edge.
// Cost: AddNode, AddEdge and input_edge() are O(1) (amortized); AddControlEdge is O(the smaller of
// src's out-degree and dst's in-degree); RemoveEdge is O(the degrees of its ends); RemoveNodes
// removes any number of nodes in time linear in their edges and their neighbours' degrees, so
// passes that prune or rewrite stay linear in the graph's size.
// FixupSourceAndSinkEdges() adds TensorFlow's implicit control edges SOURCE -> (nodes without
// inputs) and (nodes without outputs) -> SINK; ImportGraphDef calls it, and a rewrite that removes
// nodes may call it again.
//
// Unknown ops: their input and output counts grow with the edges added to them (an output's count
// is one more than the largest index any consumer uses); an output's dtype is DT_INVALID and an
// input's is its producer's output dtype. No dtype check is made on their edges.
//
// Ownership: the Graph owns its nodes and edges; Node* and const Edge* stay valid until that node
// or edge is removed or the Graph is destroyed. Nodes and edges are stored in blocks of many:
// building or copying a graph makes a few large allocations rather than one per node and per edge,
// and passes walking nodes in id order read adjacent memory. A removed node's edge lists are freed
// at once, its slot with the Graph. Copying a Graph is cheap: node properties (NodeDef, OpDef
// pointer, dtypes) are shared copy-on-write between copies, so a copy for a per-run rewrite does
// not duplicate large Const values; edges are rebuilt. Thread safety: const methods may be called
// from several threads at once; any mutation needs exclusive access to that Graph (copies are
// independent of each other).
#ifndef RILL_GRAPH_GRAPH_H_
#define RILL_GRAPH_GRAPH_H_

#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/partial_tensor_shape.h"
#include "graph/name_index.h"
#include "graph/op_classes.h"
#include "ops/node_def_util.h"
#include "proto/attr_value.pb.h"
#include "proto/function.pb.h"
#include "proto/graph_debug_info.pb.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"
#include "proto/versions.pb.h"

namespace rill {

// The slot number of both ends of a control edge.
inline constexpr int kControlSlot = -1;

class Graph;
class Node;

// One edge. Immutable: rewire by RemoveEdge + AddEdge.
class Edge {
 public:
  int id() const { return id_; }
  Node* src() const { return src_; }
  Node* dst() const { return dst_; }
  int src_output() const { return src_output_; }
  int dst_input() const { return dst_input_; }
  bool IsControlEdge() const { return src_output_ == kControlSlot; }
  // "a:0 -> b:1" or "a -> ^b".
  std::string DebugString() const;

 private:
  friend class Graph;
  Edge() = default;
  int id_ = -1;
  Node* src_ = nullptr;
  Node* dst_ = nullptr;
  int src_output_ = kControlSlot;
  int dst_input_ = kControlSlot;
};

class Node {
 public:
  int id() const { return id_; }
  const std::string& name() const { return props_->def.name(); }
  const std::string& op() const { return props_->def.op(); }
  // Attrs (defaults filled), device, experimental_debug_info, ...; `input` is always empty.
  const NodeDef& def() const { return props_->def; }
  // nullptr when the op is not registered (see is_unknown_op()).
  const OpDef* op_def() const { return props_->op_def; }
  // True for an op the registry does not know. SOURCE and SINK are known (NoOp).
  bool is_unknown_op() const { return unknown_op_; }
  bool IsSource() const { return id_ == 0; }
  bool IsSink() const { return id_ == 1; }
  // True for every node but SOURCE and SINK.
  bool IsOp() const { return id_ > 1; }
  // What kind of op this is for the passes and the executor (graph/op_classes.h).
  OpClass op_class() const { return op_class_; }
  // The device the GraphDef asked for ("" when none); not where the node is placed.
  const std::string& requested_device() const { return props_->def.device(); }
  // The full name of the device the node runs on ("" until the session applies a placement).
  // Device names are interned (a process-wide set of the distinct names, which a process has
  // few of), so nodes and their copies hold a pointer, not a string each.
  const std::string& assigned_device_name() const { return *assigned_device_; }
  void set_assigned_device_name(absl::string_view device);

  const DataTypeVector& input_types() const { return *props_->input_types; }
  const DataTypeVector& output_types() const { return *props_->output_types; }
  int num_inputs() const { return num_inputs_; }
  int num_outputs() const { return num_outputs_; }
  DataType input_type(int i) const { return (*props_->input_types)[i]; }
  DataType output_type(int i) const { return (*props_->output_types)[i]; }

  // A node's edges: the first two are stored in the Node itself (most nodes have one or two
  // inputs and consumers), so a node allocates its lists only beyond that.
  using EdgeList = absl::InlinedVector<const Edge*, 2>;
  // Edges in the order they were added (for an imported node: the GraphDef's input order).
  const EdgeList& in_edges() const { return in_edges_; }
  const EdgeList& out_edges() const { return out_edges_; }
  // The data edge into input `i`; nullptr when `i` is out of range or not connected. O(1).
  const Edge* input_edge(int i) const;
  // The producer feeding input `i`; nullptr as for input_edge().
  Node* input_node(int i) const;

  // Output shapes from shape inference (ImportGraphDef with infer_shapes); empty when inference
  // did not run on this node, else one entry per output (unknown rank where nothing is known).
  // Nodes hold their shapes by shared pointer to an immutable list: a graph's copies share them,
  // and set_output_shapes gives a node the list the previous call on this thread stored when the
  // two are equal (runs of nodes with the same shapes, as a graph's nodes in order often are),
  // so most nodes hold a pointer and no list of their own.
  const std::vector<PartialTensorShape>& output_shapes() const;
  void set_output_shapes(std::vector<PartialTensorShape> shapes);

  // Mutators for rewrites. They must not change what the node's dtypes depend on (type attrs,
  // number attrs); build a new node for that.
  void set_requested_device(const std::string& device);
  void AddAttr(const std::string& name, const AttrValue& value);
  void ClearAttr(const std::string& name);

 private:
  friend class Graph;
  struct Properties {
    NodeDef def;
    const OpDef* op_def = nullptr;  // Not owned (the op registry's, which lives forever).
    // Never null. Nodes with equal lists may share one (Graph::AddNode gives a node the lists of
    // the node it added before when they are equal); a list is written only where no other
    // holder has it (Graph::AddEdge growing an unknown op's slots).
    std::shared_ptr<DataTypeVector> input_types = EmptyTypes();
    std::shared_ptr<DataTypeVector> output_types = EmptyTypes();
    OpClass op_class = OpClass::kOther;
  };
  Node();
  static std::shared_ptr<DataTypeVector> EmptyTypes();
  // Copy-on-write access to the shared properties.
  Properties* MutableProps();
  // Sets props_ and the fields below that repeat what it holds.
  void SetProps(std::shared_ptr<Properties> props);
  // Copies the input and output counts from props_ (after an unknown op's slots grow).
  void SyncCounts();

  int id_ = -1;
  // What every pass tests per node, copied from props_ by SetProps and SyncCounts (so they equal
  // props_'s at all times): a scan of a graph's nodes in id order reads the nodes' blocks one
  // after another, while each node's props_ is a separate heap block (a cache miss per node once
  // the graph outgrows the cache).
  OpClass op_class_ = OpClass::kOther;
  bool unknown_op_ = true;
  int num_inputs_ = 0;
  int num_outputs_ = 0;
  std::shared_ptr<Properties> props_;
  EdgeList in_edges_;
  EdgeList out_edges_;
  EdgeList data_in_;  // by input index; null where not connected
  std::shared_ptr<const std::vector<PartialTensorShape>> output_shapes_;  // null: none
  const std::string* assigned_device_;                                    // interned; never null
};

class Graph {
 public:
  static constexpr int kSourceId = 0;
  static constexpr int kSinkId = 1;

  // A graph holding only SOURCE ("_SOURCE") and SINK ("_SINK"), both NoOps.
  Graph();
  Graph(const Graph& other);
  Graph& operator=(const Graph& other);
  // A moved-from Graph may only be destroyed or assigned to.
  Graph(Graph&& other) noexcept;
  Graph& operator=(Graph&& other) noexcept;
  ~Graph();

  // Adds an op node. Fills attr defaults from the op registry and checks the attrs (missing, of
  // the wrong kind, not allowed: ValidateNodeDef's InvalidArgument messages) for a known op; an
  // unknown op is kept with no inputs or outputs yet. `def.input()` is ignored and dropped: add
  // the edges. Errors (InvalidArgument naming the node): empty name, a name already in the graph
  // ("Node 'x' is not unique"), bad attrs.
  absl::StatusOr<Node*> AddNode(NodeDef def);
  // Adds a node with the properties of `other` (a node of this or another Graph: NodeDef, op,
  // dtypes and class shared copy-on-write, so nothing is re-validated), its output shapes and
  // assigned device, named `name` (other's name when empty), with no edges. InvalidArgument when
  // the name is already in the graph.
  absl::StatusOr<Node*> AddNodeCopy(const Node& other, const std::string& name = "");

  // Adds a data edge. InvalidArgument naming `dst` when src_output or dst_input is out of range
  // for a known op ("Node 'b': Connecting to invalid output 3 of source node a which has 1
  // outputs."), when input `dst_input` already has an edge, or when the dtypes do not match
  // (TensorFlow's "Input 0 of node b was passed float from a:0 incompatible with expected
  // int32."; a ref output may feed a non-ref input of the same base type, never the reverse).
  // REQUIRES: src and dst are live nodes of this graph.
  absl::StatusOr<const Edge*> AddEdge(Node* src, int src_output, Node* dst, int dst_input);
  // Adds a control edge src -> dst unless one exists (then returns that one).
  // REQUIRES: src and dst are live nodes of this graph.
  const Edge* AddControlEdge(Node* src, Node* dst);
  // REQUIRES: `e` is a live edge of this graph. Invalidates `e`.
  void RemoveEdge(const Edge* e);
  // Removes the node and all its edges, in time linear in its edges and its neighbours' degrees.
  // REQUIRES: a live op node of this graph (not SOURCE/SINK).
  void RemoveNode(Node* node);
  // Removes every node in `nodes` and all their edges, in time linear in the graph's node ids plus
  // those edges and their neighbours' degrees: for removing many nodes at once (RemoveNode one by
  // one is quadratic when many removed nodes share a neighbour, such as SINK).
  // REQUIRES: distinct live op nodes of this graph.
  void RemoveNodes(const std::vector<Node*>& nodes);
  // Makes room for `more_nodes` nodes and `more_edges` edges beyond those present in the id
  // tables and the name index, so that adding them rehashes nothing; for building a graph of
  // known size. (Nodes and edges themselves still come in blocks of at most kMaxBlock.)
  void Reserve(int more_nodes, int more_edges);
  // Adds the control edges SOURCE -> n for every op node n without in-edges and n -> SINK for
  // every op node without out-edges.
  void FixupSourceAndSinkEdges();

  // Fetches the memory that looking up or adding `name` reads first, without waiting: a hint for
  // code about to look up or add many names, called a few names ahead (ImportGraphDef).
  void PrefetchName(absl::string_view name) const { name_index_.Prefetch(name); }
  // -1 / nullptr when no live op node has that name (SOURCE and SINK are not found by name).
  int FindNodeId(absl::string_view name) const;
  Node* FindNode(absl::string_view name);
  const Node* FindNode(absl::string_view name) const;
  // nullptr for a removed node. REQUIRES: 0 <= id < num_node_ids().
  Node* FindNodeById(int id) { return nodes_[id]; }
  const Node* FindNodeById(int id) const { return nodes_[id]; }
  Node* source_node() { return nodes_[kSourceId]; }
  const Node* source_node() const { return nodes_[kSourceId]; }
  Node* sink_node() { return nodes_[kSinkId]; }
  const Node* sink_node() const { return nodes_[kSinkId]; }

  // One more than the largest id ever given (removed ids included).
  int num_node_ids() const { return static_cast<int>(nodes_.size()); }
  // Live nodes, SOURCE and SINK included.
  int num_nodes() const { return num_nodes_; }
  // Live nodes other than SOURCE and SINK.
  int num_op_nodes() const { return num_nodes_ - 2; }
  int num_edge_ids() const { return static_cast<int>(edges_.size()); }
  int num_edges() const { return num_edges_; }

  // Iteration over live nodes in id order (removed ones skipped).
  template <typename NodeT>
  class NodeIterator;
  template <typename NodeT>
  class NodeRange;
  NodeRange<Node> nodes();
  NodeRange<const Node> nodes() const;
  // As nodes(), without SOURCE and SINK.
  NodeRange<Node> op_nodes();
  NodeRange<const Node> op_nodes() const;
  // Live edges in id order.
  std::vector<const Edge*> edges() const;

  // GraphDef-level data, kept verbatim for export.
  const VersionDef& versions() const { return versions_; }
  VersionDef* mutable_versions() {
    has_versions_ = true;
    return &versions_;
  }
  // GraphDef's deprecated `version` field (3).
  int legacy_version() const { return legacy_version_; }
  void set_legacy_version(int v) { legacy_version_ = v; }
  const FunctionDefLibrary& library() const;
  FunctionDefLibrary* mutable_library();  // copy-on-write
  const GraphDebugInfo& debug_info() const;
  GraphDebugInfo* mutable_debug_info();  // copy-on-write
  // Whether the GraphDef had `library` / `debug_info` set (so an empty one round-trips).
  bool has_library() const { return library_ != nullptr; }
  bool has_debug_info() const { return debug_info_ != nullptr; }
  bool has_versions() const { return has_versions_; }
  void set_has_versions(bool b) { has_versions_ = b; }

 private:
  // Slots for nodes or edges, handed out in order. Take starts a block as large as the graph so
  // far (`live`, within [kMinBlock, kMaxBlock]) when the current one is full; Reserve starts one
  // of exactly `count` slots, at most kMaxBlock, unless that many are free (a copy of a graph of
  // known size).
  template <typename T>
  struct Pool {
    std::vector<std::unique_ptr<T[]>> blocks;
    int used = 0;  // slots taken in blocks.back()
    int size = 0;  // slots in blocks.back()
    T* Take(int live);
    void Reserve(int count);
    void Clear();
  };
  static constexpr int kMinBlock = 16;
  static constexpr int kMaxBlock = 4096;

  void CopyFrom(const Graph& other);
  Node* NewNode(std::shared_ptr<Node::Properties> props);
  const Edge* NewEdge(Node* src, int src_output, Node* dst, int dst_input);
  // Frees what a removed node holds (properties, edge lists, shapes); its slot stays in the pool.
  void ReleaseNode(Node* node);

  std::vector<Node*> nodes_;  // by id; null once removed
  std::vector<Edge*> edges_;  // by id; null once removed
  Pool<Node> node_pool_;
  Pool<Edge> edge_pool_;
  int num_nodes_ = 0;
  int num_edges_ = 0;
  // The op nodes' ids by name; the names are read from the nodes through NodeNames.
  struct NodeNames {
    const std::vector<Node*>* nodes;
    absl::string_view operator()(int id) const { return (*nodes)[id]->name(); }
  };
  NodeNames node_names() const { return NodeNames{&nodes_}; }
  NameIndex name_index_;
  VersionDef versions_;
  bool has_versions_ = false;
  int legacy_version_ = 0;
  std::shared_ptr<FunctionDefLibrary> library_;  // null when absent
  std::shared_ptr<GraphDebugInfo> debug_info_;   // null when absent
};

// Topological order of the live op nodes (SOURCE and SINK left out), ignoring the edges out of
// NextIteration / RefNextIteration nodes (a while loop's back edges); deterministic for a given
// graph. InvalidArgument "Graph has a cycle that does not pass through NextIteration: a -> b -> a
// (N nodes in a cycle or depending on one; ...)" when another cycle exists, naming one cycle's
// nodes in edge order starting at the lowest id.
absl::StatusOr<std::vector<Node*>> TopologicalOrder(Graph& graph);
absl::StatusOr<std::vector<const Node*>> TopologicalOrder(const Graph& graph);

// ---------------------------------------------------------------------------------------------
// Implementation details of the node iteration.

template <typename NodeT>
class Graph::NodeIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = NodeT*;
  using difference_type = std::ptrdiff_t;
  using pointer = NodeT**;
  using reference = NodeT*;

  NodeIterator(const std::vector<Node*>* nodes, size_t i) : nodes_(nodes), i_(i) { Skip(); }
  NodeT* operator*() const { return (*nodes_)[i_]; }
  NodeIterator& operator++() {
    ++i_;
    Skip();
    return *this;
  }
  bool operator==(const NodeIterator& o) const { return i_ == o.i_; }
  bool operator!=(const NodeIterator& o) const { return i_ != o.i_; }

 private:
  void Skip() {
    while (i_ < nodes_->size() && (*nodes_)[i_] == nullptr) ++i_;
  }
  const std::vector<Node*>* nodes_;
  size_t i_;
};

template <typename NodeT>
class Graph::NodeRange {
 public:
  NodeRange(const std::vector<Node*>* nodes, size_t first) : nodes_(nodes), first_(first) {}
  NodeIterator<NodeT> begin() const { return NodeIterator<NodeT>(nodes_, first_); }
  NodeIterator<NodeT> end() const { return NodeIterator<NodeT>(nodes_, nodes_->size()); }

 private:
  const std::vector<Node*>* nodes_;
  size_t first_;
};

inline Graph::NodeRange<Node> Graph::nodes() { return NodeRange<Node>(&nodes_, 0); }
inline Graph::NodeRange<const Node> Graph::nodes() const {
  return NodeRange<const Node>(&nodes_, 0);
}
inline Graph::NodeRange<Node> Graph::op_nodes() { return NodeRange<Node>(&nodes_, 2); }
inline Graph::NodeRange<const Node> Graph::op_nodes() const {
  return NodeRange<const Node>(&nodes_, 2);
}

}  // namespace rill

#endif  // RILL_GRAPH_GRAPH_H_
