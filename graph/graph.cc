#include "graph/graph.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "absl/container/node_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// A ref output may feed a non-ref input of the same base type; a non-ref output never feeds a
// ref input. DT_INVALID (an unknown op's slot) matches anything.
bool TypesCompatible(DataType produced, DataType expected) {
  if (produced == DT_INVALID || expected == DT_INVALID) return true;
  if (produced == expected) return true;
  return IsRefType(produced) && !IsRefType(expected) && BaseType(produced) == expected;
}

// How many nodes ahead the loops that copy or release nodes' properties prefetch them.
constexpr size_t kPrefetchAhead = 16;

// Brings the reference counts of `props` into the cache for writing, ahead of the copy or release
// that changes them. A graph's Properties blocks are spread over its whole heap (hundreds of
// megabytes at a million nodes), and the locked increment or decrement of a count that misses
// the cache waits for memory with no other access overlapping it, so a loop copying a large
// graph waited on memory once per node. libstdc++'s make_shared keeps the counts in the 8 bytes
// before the object; a prefetch never faults, so another layout would only lose the gain.
void PrefetchUseCount(const void* props) {
  __builtin_prefetch(reinterpret_cast<const char*>(props) - 8, /*rw=*/1);
}

}  // namespace

// --------------------------------------------------------------------------------------------
// Edge

std::string Edge::DebugString() const {
  if (IsControlEdge()) return absl::StrCat(src_->name(), " -> ^", dst_->name());
  return absl::StrCat(src_->name(), ":", src_output_, " -> ", dst_->name(), ":", dst_input_);
}

// --------------------------------------------------------------------------------------------
// Node

// Nodes lie in blocks in id order; passes scan them by id, so a node's size is what such a scan
// reads per node (two cache lines).
static_assert(sizeof(Node) <= 128, "Node outgrew two cache lines");

const Edge* Node::input_edge(int i) const {
  if (i < 0 || i >= static_cast<int>(data_in_.size())) return nullptr;
  return data_in_[i];
}

Node* Node::input_node(int i) const {
  const Edge* e = input_edge(i);
  return e == nullptr ? nullptr : e->src();
}

namespace {

bool SameShapes(const std::vector<PartialTensorShape>& a,
                const std::vector<PartialTensorShape>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].unknown_rank() != b[i].unknown_rank() || a[i].dims() != b[i].dims()) return false;
  }
  return true;
}

// `types` as a list to store in a node's properties: `*last` (the list this thread stored before
// at the same place) when equal, so that runs of nodes with the same dtypes share one list.
// Long lists are not shared, so that a thread keeps no large list alive.
std::shared_ptr<DataTypeVector> SharedTypes(DataTypeVector types,
                                            std::shared_ptr<DataTypeVector>* last) {
  constexpr size_t kMaxShared = 8;
  if (types.size() > kMaxShared) return std::make_shared<DataTypeVector>(std::move(types));
  if (*last == nullptr || **last != types)
    *last = std::make_shared<DataTypeVector>(std::move(types));
  return *last;
}

// `types`, written in place when no other holder has it, else first copied.
DataTypeVector& Unshared(std::shared_ptr<DataTypeVector>& types) {
  if (types.use_count() > 1) types = std::make_shared<DataTypeVector>(*types);
  return *types;
}

// Lists with more outputs than this are never shared by set_output_shapes (a thread would keep
// the last one alive, and comparing long lists costs more than it saves).
constexpr size_t kMaxSharedOutputs = 8;

}  // namespace

const std::vector<PartialTensorShape>& Node::output_shapes() const {
  static const auto* const kNone = new std::vector<PartialTensorShape>();
  return output_shapes_ != nullptr ? *output_shapes_ : *kNone;
}

void Node::set_output_shapes(std::vector<PartialTensorShape> shapes) {
  if (shapes.empty()) {
    output_shapes_.reset();
    return;
  }
  if (shapes.size() > kMaxSharedOutputs) {
    output_shapes_ = std::make_shared<const std::vector<PartialTensorShape>>(std::move(shapes));
    return;
  }
  // The list this thread stored last; a node given an equal one shares it.
  thread_local std::shared_ptr<const std::vector<PartialTensorShape>> last;
  if (last == nullptr || !SameShapes(*last, shapes)) {
    last = std::make_shared<const std::vector<PartialTensorShape>>(std::move(shapes));
  }
  output_shapes_ = last;
}

namespace {

// The interned device names; they live as long as the process. Passes assign runs of nodes the
// same device, so each thread remembers the last name it interned and skips the lock for it.
const std::string* InternDeviceName(absl::string_view name) {
  thread_local const std::string* last = nullptr;
  if (last != nullptr && *last == name) return last;
  static Mutex mu;
  static auto* names = new absl::node_hash_set<std::string>();
  MutexLock lock(&mu);
  last = &*names->emplace(name).first;
  return last;
}

const std::string* EmptyDeviceName() {
  static const std::string* const empty = InternDeviceName("");
  return empty;
}

}  // namespace

Node::Node() : assigned_device_(EmptyDeviceName()) {}

void Node::set_assigned_device_name(absl::string_view device) {
  assigned_device_ = InternDeviceName(device);
}

std::shared_ptr<DataTypeVector> Node::EmptyTypes() {
  static const auto* const kEmpty =
      new std::shared_ptr<DataTypeVector>(std::make_shared<DataTypeVector>());
  return *kEmpty;
}

void Node::SetProps(std::shared_ptr<Properties> props) {
  props_ = std::move(props);
  op_class_ = props_->op_class;
  unknown_op_ = props_->op_def == nullptr;
  SyncCounts();
}

void Node::SyncCounts() {
  num_inputs_ = static_cast<int>(props_->input_types->size());
  num_outputs_ = static_cast<int>(props_->output_types->size());
}

Node::Properties* Node::MutableProps() {
  if (props_.use_count() > 1) props_ = std::make_shared<Properties>(*props_);
  return props_.get();
}

void Node::set_requested_device(const std::string& device) {
  if (device == requested_device()) return;
  MutableProps()->def.set_device(device);
}

void Node::AddAttr(const std::string& name, const AttrValue& value) {
  (*MutableProps()->def.mutable_attr())[name] = value;
}

void Node::ClearAttr(const std::string& name) {
  if (props_->def.attr().count(name) == 0) return;
  MutableProps()->def.mutable_attr()->erase(name);
}

// --------------------------------------------------------------------------------------------
// Graph

Graph::Graph() {
  // SOURCE and SINK are NoOps whose properties every graph shares.
  auto no_op = [](const std::string& name) {
    auto props = std::make_shared<Node::Properties>();
    props->def.set_name(name);
    props->def.set_op("NoOp");
    const OpRegistration* reg = OpRegistry::Global()->LookUp("NoOp");
    props->op_def = reg == nullptr ? nullptr : &reg->op_def;
    return props;
  };
  static const auto* const kSource = new std::shared_ptr<Node::Properties>(no_op("_SOURCE"));
  static const auto* const kSink = new std::shared_ptr<Node::Properties>(no_op("_SINK"));
  NewNode(*kSource);
  NewNode(*kSink);
}

Graph::Graph(const Graph& other) { CopyFrom(other); }

Graph& Graph::operator=(const Graph& other) {
  if (this != &other) CopyFrom(other);
  return *this;
}

// The moves leave `other` empty (no nodes, no pool blocks): only destroyed or assigned to.
Graph::Graph(Graph&& other) noexcept = default;
Graph& Graph::operator=(Graph&& other) noexcept = default;
Graph::~Graph() = default;

template <typename T>
T* Graph::Pool<T>::Take(int live) {
  if (blocks.empty() || used == size) {
    size = std::clamp(live, kMinBlock, kMaxBlock);
    blocks.push_back(std::unique_ptr<T[]>(new T[size]));
    used = 0;
  }
  return &blocks.back()[used++];
}

template <typename T>
void Graph::Pool<T>::Reserve(int count) {
  if (size - used >= count || count == 0) return;
  // At most kMaxBlock slots: a larger block comes from mmap (glibc maps blocks above its 32 MiB
  // threshold) and is faulted in page by page again in every copy; Take adds blocks as needed.
  size = std::min(count, kMaxBlock);
  blocks.push_back(std::unique_ptr<T[]>(new T[size]));
  used = 0;
}

template <typename T>
void Graph::Pool<T>::Clear() {
  blocks.clear();
  used = size = 0;
}

void Graph::CopyFrom(const Graph& other) {
  nodes_.clear();
  edges_.clear();
  node_pool_.Clear();
  edge_pool_.Clear();
  nodes_.resize(other.nodes_.size(), nullptr);
  edges_.resize(other.edges_.size(), nullptr);
  node_pool_.Reserve(other.num_nodes_);
  edge_pool_.Reserve(other.num_edges_);
  // Every node's slot first (reading only other's id table), so that one pass over other's nodes
  // can then copy each node and its edges, both ends' copies known: each node of `other` is read
  // once and each copy written once, in id order. An edge is copied where it is first seen (in
  // its source's out-edges or its destination's in-edges) and found by id at its other end.
  for (size_t i = 0; i < other.nodes_.size(); ++i) {
    if (other.nodes_[i] != nullptr) nodes_[i] = node_pool_.Take(other.num_nodes_);
  }
  auto copy_edge = [&](const Edge* o) -> const Edge* {
    Edge*& e = edges_[o->id_];
    if (e == nullptr) {
      e = edge_pool_.Take(other.num_edges_);
      e->id_ = o->id_;
      e->src_ = nodes_[o->src_->id_];
      e->dst_ = nodes_[o->dst_->id_];
      e->src_output_ = o->src_output_;
      e->dst_input_ = o->dst_input_;
    }
    return e;
  };
  for (size_t i = 0; i < other.nodes_.size(); ++i) {
    if (i + kPrefetchAhead < other.nodes_.size()) {
      const Node* ahead = other.nodes_[i + kPrefetchAhead];
      if (ahead != nullptr) PrefetchUseCount(ahead->props_.get());
    }
    const Node* o = other.nodes_[i];
    if (o == nullptr) continue;
    Node* n = nodes_[i];
    n->id_ = o->id_;
    n->op_class_ = o->op_class_;
    n->unknown_op_ = o->unknown_op_;
    n->num_inputs_ = o->num_inputs_;
    n->num_outputs_ = o->num_outputs_;
    n->props_ = o->props_;
    n->output_shapes_ = o->output_shapes_;
    n->assigned_device_ = o->assigned_device_;
    n->in_edges_.reserve(o->in_edges_.size());
    for (const Edge* e : o->in_edges_) n->in_edges_.push_back(copy_edge(e));
    n->out_edges_.reserve(o->out_edges_.size());
    for (const Edge* e : o->out_edges_) n->out_edges_.push_back(copy_edge(e));
    n->data_in_.resize(o->data_in_.size(), nullptr);
    for (size_t k = 0; k < o->data_in_.size(); ++k) {
      if (o->data_in_[k] != nullptr) n->data_in_[k] = edges_[o->data_in_[k]->id_];
    }
  }
  num_nodes_ = other.num_nodes_;
  num_edges_ = other.num_edges_;
  name_index_ = other.name_index_;
  versions_ = other.versions_;
  has_versions_ = other.has_versions_;
  legacy_version_ = other.legacy_version_;
  library_ = other.library_;
  debug_info_ = other.debug_info_;
}

Node* Graph::NewNode(std::shared_ptr<Node::Properties> props) {
  Node* node = node_pool_.Take(num_nodes_);
  node->id_ = static_cast<int>(nodes_.size());
  node->SetProps(std::move(props));
  nodes_.push_back(node);
  ++num_nodes_;
  return node;
}

void Graph::ReleaseNode(Node* node) {
  nodes_[node->id()] = nullptr;
  node->props_.reset();
  Node::EdgeList().swap(node->in_edges_);
  Node::EdgeList().swap(node->out_edges_);
  Node::EdgeList().swap(node->data_in_);
  node->output_shapes_.reset();
  --num_nodes_;
}

const Edge* Graph::NewEdge(Node* src, int src_output, Node* dst, int dst_input) {
  Edge* edge = edge_pool_.Take(num_edges_);
  edge->id_ = static_cast<int>(edges_.size());
  edge->src_ = src;
  edge->dst_ = dst;
  edge->src_output_ = src_output;
  edge->dst_input_ = dst_input;
  const Edge* raw = edge;
  edges_.push_back(edge);
  src->out_edges_.push_back(raw);
  dst->in_edges_.push_back(raw);
  if (dst_input >= 0) {
    if (dst_input >= static_cast<int>(dst->data_in_.size())) {
      dst->data_in_.resize(dst_input + 1, nullptr);
    }
    dst->data_in_[dst_input] = raw;
  }
  ++num_edges_;
  return raw;
}

absl::StatusOr<Node*> Graph::AddNode(NodeDef def) {
  if (def.name().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("A node (op '", def.op(), "') has an empty name"));
  }
  auto not_unique = [&] {
    return absl::InvalidArgumentError(absl::StrCat("Node '", def.name(), "' is not unique"));
  };
  auto props = std::make_shared<Node::Properties>();
  props->op_class = ClassifyOp(def.op());
  def.clear_input();
  // The last op found on this thread, kept for the next node with the same op (registrations are
  // never removed or replaced; an op not found is looked up again, as it may be registered later).
  thread_local const OpRegistration* last_reg = nullptr;
  if (last_reg == nullptr || def.op() != last_reg->op_def.name()) {
    last_reg = OpRegistry::Global()->LookUp(def.op());
  }
  const OpRegistration* reg = last_reg;
  if (reg != nullptr) {
    AddDefaultsToNodeDef(reg->op_def, &def);
    // ValidateNodeDef's checks but the input list's: a node's inputs are its edges.
    DataTypeVector inputs, outputs;
    absl::Status s = ValidateNodeDefAttrs(def, reg->op_def);
    if (s.ok()) s = InOutTypesForNode(def, reg->op_def, &inputs, &outputs);
    if (!s.ok()) return name_index_.Find(def.name(), node_names()) >= 0 ? not_unique() : s;
    props->op_def = &reg->op_def;
    thread_local std::shared_ptr<DataTypeVector> last_inputs, last_outputs;
    props->input_types = SharedTypes(std::move(inputs), &last_inputs);
    props->output_types = SharedTypes(std::move(outputs), &last_outputs);
  }
  // One probe of the name index both checks the name and adds it, under the id NewNode gives.
  const int id = static_cast<int>(nodes_.size());
  if (!name_index_.Insert(def.name(), id, node_names()).second) return not_unique();
  props->def = std::move(def);
  Node* node = NewNode(std::move(props));
  return node;
}

void Graph::Reserve(int more_nodes, int more_edges) {
  nodes_.reserve(nodes_.size() + more_nodes);
  edges_.reserve(edges_.size() + more_edges);
  name_index_.Reserve(name_index_.size() + more_nodes);
}

absl::StatusOr<const Edge*> Graph::AddEdge(Node* src, int src_output, Node* dst, int dst_input) {
  if (src_output < 0 || (src_output >= src->num_outputs() && !src->is_unknown_op())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Node '", dst->name(), "': Connecting to invalid output ", src_output, " of source node ",
        src->name(), " which has ", src->num_outputs(), " outputs."));
  }
  if (dst_input < 0 || (dst_input >= dst->num_inputs() && !dst->is_unknown_op())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Node '", dst->name(), "': Connecting to invalid input ", dst_input,
        " of destination node ", dst->name(), " which has ", dst->num_inputs(), " inputs."));
  }
  if (const Edge* existing = dst->input_edge(dst_input); existing != nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node '", dst->name(), "': input ", dst_input, " is already connected to ",
                     existing->src()->name(), ":", existing->src_output()));
  }
  if (src_output >= src->num_outputs()) {
    Unshared(src->MutableProps()->output_types).resize(src_output + 1, DT_INVALID);
    src->SyncCounts();
  }
  const DataType produced = src->output_type(src_output);
  if (dst_input >= dst->num_inputs()) {
    Unshared(dst->MutableProps()->input_types).resize(dst_input + 1, DT_INVALID);
    dst->SyncCounts();
  }
  if (dst->is_unknown_op()) {
    // Nothing to check against: the input takes its producer's dtype.
    if (dst->input_type(dst_input) != produced) {
      Unshared(dst->MutableProps()->input_types)[dst_input] = produced;
    }
  }
  const DataType expected = dst->input_type(dst_input);
  if (!TypesCompatible(produced, expected)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Input ", dst_input, " of node ", dst->name(), " was passed ",
                     DataTypeString(produced), " from ", src->name(), ":", src_output,
                     " incompatible with expected ", DataTypeString(expected), "."));
  }
  return NewEdge(src, src_output, dst, dst_input);
}

absl::StatusOr<Node*> Graph::AddNodeCopy(const Node& other, const std::string& name) {
  const std::string& new_name = name.empty() ? other.name() : name;
  if (name_index_.Find(new_name, node_names()) >= 0) {
    return absl::InvalidArgumentError(absl::StrCat("Node '", new_name, "' is not unique"));
  }
  std::shared_ptr<Node::Properties> props = other.props_;
  if (new_name != other.name()) {
    props = std::make_shared<Node::Properties>(*props);
    props->def.set_name(new_name);
  }
  Node* node = NewNode(std::move(props));
  node->output_shapes_ = other.output_shapes_;
  node->assigned_device_ = other.assigned_device_;
  name_index_.Insert(node->name(), node->id(), node_names());
  return node;
}

const Edge* Graph::AddControlEdge(Node* src, Node* dst) {
  // Look for an existing edge on the shorter side: n nodes joined to one (SINK) stay linear.
  if (src->out_edges_.size() < dst->in_edges_.size()) {
    for (const Edge* e : src->out_edges_) {
      if (e->IsControlEdge() && e->dst() == dst) return e;
    }
  } else {
    for (const Edge* e : dst->in_edges_) {
      if (e->IsControlEdge() && e->src() == src) return e;
    }
  }
  return NewEdge(src, kControlSlot, dst, kControlSlot);
}

namespace {

// Erases `e` from `edges`, searching from the end (rewrites mostly remove recent edges).
void EraseEdge(Node::EdgeList& edges, const Edge* e) {
  auto it = std::find(edges.rbegin(), edges.rend(), e);
  edges.erase(std::next(it).base());
}

}  // namespace

void Graph::RemoveEdge(const Edge* e) {
  EraseEdge(e->src()->out_edges_, e);
  EraseEdge(e->dst()->in_edges_, e);
  if (!e->IsControlEdge()) e->dst()->data_in_[e->dst_input()] = nullptr;
  edges_[e->id()] = nullptr;
  --num_edges_;
}

void Graph::RemoveNode(Node* node) {
  while (!node->in_edges_.empty()) RemoveEdge(node->in_edges_.back());
  while (!node->out_edges_.empty()) RemoveEdge(node->out_edges_.back());
  name_index_.Erase(node->name(), node_names());
  ReleaseNode(node);
}

void Graph::RemoveNodes(const std::vector<Node*>& nodes) {
  std::vector<bool> removed(nodes_.size(), false);
  for (Node* n : nodes) removed[n->id()] = true;
  // Every surviving neighbour drops its edges to removed nodes in one pass over its lists.
  std::vector<Node*> touched;
  std::vector<bool> is_touched(nodes_.size(), false);
  auto touch = [&](Node* n) {
    if (!removed[n->id()] && !is_touched[n->id()]) {
      is_touched[n->id()] = true;
      touched.push_back(n);
    }
  };
  for (Node* n : nodes) {
    for (const Edge* e : n->in_edges_) touch(e->src());
    for (const Edge* e : n->out_edges_) touch(e->dst());
  }
  auto ends_removed = [&](const Edge* e) {
    return removed[e->src()->id()] || removed[e->dst()->id()];
  };
  for (Node* n : touched) {
    for (const Edge* e : n->in_edges_) {
      if (ends_removed(e) && !e->IsControlEdge()) n->data_in_[e->dst_input()] = nullptr;
    }
    auto& in = n->in_edges_;
    in.erase(std::remove_if(in.begin(), in.end(), ends_removed), in.end());
    auto& out = n->out_edges_;
    out.erase(std::remove_if(out.begin(), out.end(), ends_removed), out.end());
  }
  // Each edge is freed once: through its consumer's in-list when the consumer goes too, else
  // through its producer's out-list (freed edges are never read again; their slots, and a
  // released node's id, stay readable in the pools). One pass frees a node's edges and releases
  // it, so that a large removal reads each removed node once more, not three times.
  auto free_edge = [&](const Edge* e) {
    edges_[e->id()] = nullptr;
    --num_edges_;
  };
  // Removing most of the graph (the optimizer dropping a chain of Identities) rebuilds the name
  // index from the survivors instead of erasing each name, which would probe the whole large
  // index at random.
  const bool rebuild_index = nodes.size() > name_index_.size() / 2;
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (k + kPrefetchAhead < nodes.size()) {
      PrefetchUseCount(nodes[k + kPrefetchAhead]->props_.get());
    }
    Node* n = nodes[k];
    for (const Edge* e : n->out_edges_) {
      if (!removed[e->dst()->id()]) free_edge(e);
    }
    for (const Edge* e : n->in_edges_) free_edge(e);
    if (!rebuild_index) name_index_.Erase(n->name(), node_names());
    ReleaseNode(n);
  }
  if (rebuild_index) name_index_.Filter([this](int id) { return nodes_[id] != nullptr; });
}

void Graph::FixupSourceAndSinkEdges() {
  Node* source = source_node();
  Node* sink = sink_node();
  for (Node* n : op_nodes()) {
    if (n->in_edges_.empty()) AddControlEdge(source, n);
    if (n->out_edges_.empty()) AddControlEdge(n, sink);
  }
}

int Graph::FindNodeId(absl::string_view name) const { return name_index_.Find(name, node_names()); }

Node* Graph::FindNode(absl::string_view name) {
  const int id = FindNodeId(name);
  return id < 0 ? nullptr : nodes_[id];
}

const Node* Graph::FindNode(absl::string_view name) const {
  const int id = FindNodeId(name);
  return id < 0 ? nullptr : nodes_[id];
}

std::vector<const Edge*> Graph::edges() const {
  std::vector<const Edge*> out;
  out.reserve(num_edges_);
  for (const Edge* e : edges_) {
    if (e != nullptr) out.push_back(e);
  }
  return out;
}

const FunctionDefLibrary& Graph::library() const {
  return library_ != nullptr ? *library_ : FunctionDefLibrary::default_instance();
}

FunctionDefLibrary* Graph::mutable_library() {
  if (library_ == nullptr) {
    library_ = std::make_shared<FunctionDefLibrary>();
  } else if (library_.use_count() > 1) {
    library_ = std::make_shared<FunctionDefLibrary>(*library_);
  }
  return library_.get();
}

const GraphDebugInfo& Graph::debug_info() const {
  return debug_info_ != nullptr ? *debug_info_ : GraphDebugInfo::default_instance();
}

GraphDebugInfo* Graph::mutable_debug_info() {
  if (debug_info_ == nullptr) {
    debug_info_ = std::make_shared<GraphDebugInfo>();
  } else if (debug_info_.use_count() > 1) {
    debug_info_ = std::make_shared<GraphDebugInfo>(*debug_info_);
  }
  return debug_info_.get();
}

namespace {

bool IsNextIteration(const Node* n) { return rill::IsNextIteration(n->op_class()); }

}  // namespace

absl::StatusOr<std::vector<Node*>> TopologicalOrder(Graph& graph) {
  std::vector<int> pending(graph.num_node_ids(), 0);
  auto counts = [](const Edge* e) {
    return e->src()->IsOp() && e->dst()->IsOp() && !IsNextIteration(e->src());
  };
  std::deque<Node*> ready;
  for (Node* n : graph.op_nodes()) {
    for (const Edge* e : n->in_edges()) pending[n->id()] += counts(e) ? 1 : 0;
    if (pending[n->id()] == 0) ready.push_back(n);
  }
  std::vector<Node*> order;
  order.reserve(graph.num_op_nodes());
  while (!ready.empty()) {
    Node* n = ready.front();
    ready.pop_front();
    order.push_back(n);
    for (const Edge* e : n->out_edges()) {
      if (counts(e) && --pending[e->dst()->id()] == 0) ready.push_back(e->dst());
    }
  }
  if (static_cast<int>(order.size()) == graph.num_op_nodes()) return order;

  // Every node left has a counted in-edge from another node left: walk such edges backwards
  // from the first one until a node repeats; the walk's tail is a cycle.
  Node* start = nullptr;
  for (Node* n : graph.op_nodes()) {
    if (pending[n->id()] > 0) {
      start = n;
      break;
    }
  }
  std::vector<Node*> walk;
  std::vector<int> position(graph.num_node_ids(), -1);
  Node* n = start;
  while (position[n->id()] < 0) {
    position[n->id()] = static_cast<int>(walk.size());
    walk.push_back(n);
    Node* prev = nullptr;
    for (const Edge* e : n->in_edges()) {
      if (counts(e) && pending[e->src()->id()] > 0) {
        prev = e->src();
        break;
      }
    }
    n = prev;  // never null: see above
  }
  // walk[position[n]..] is the cycle, listed against edge direction: reverse it and start it
  // at its lowest id.
  std::vector<Node*> ring(walk.rbegin(), walk.rend() - position[n->id()]);
  std::rotate(ring.begin(),
              std::min_element(ring.begin(), ring.end(),
                               [](const Node* x, const Node* y) { return x->id() < y->id(); }),
              ring.end());
  std::vector<std::string> cycle;
  for (const Node* c : ring) cycle.push_back(c->name());
  cycle.push_back(cycle.front());
  const int left = graph.num_op_nodes() - static_cast<int>(order.size());
  return absl::InvalidArgumentError(absl::StrCat(
      "Graph has a cycle that does not pass through NextIteration: ", absl::StrJoin(cycle, " -> "),
      " (", left,
      " nodes in a cycle or depending on one; only loops closed by NextIteration are allowed)"));
}

absl::StatusOr<std::vector<const Node*>> TopologicalOrder(const Graph& graph) {
  // The mutable version changes nothing.
  RILL_ASSIGN_OR_RETURN(std::vector<Node*> order, TopologicalOrder(const_cast<Graph&>(graph)));
  return std::vector<const Node*>(order.begin(), order.end());
}

}  // namespace rill
