#include "session/graph_optimizer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/device_name.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "core/types.h"
#include "graph/control_flow_identities.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "graph/gru_cell_fusion.h"
#include "graph/loop_body_constants.h"
#include "graph/loop_input_projection.h"
#include "graph/loop_invariants.h"
#include "graph/lstm_cell_fusion.h"
#include "graph/lstm_sequence_fusion.h"
#include "graph/op_classes.h"
#include "graph/pass_edits.h"
#include "graph/recurrent_sequence_fusion.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"
#include "session/atrous_fold.h"
#include "session/pad_fold.h"

namespace rill {
namespace {

// Never folded or merged: runtime plumbing and nodes whose every run matters.
// REQUIRES: a known op.
bool IsPinned(const Node& n) {
  return n.op_def()->is_stateful() || IsControlFlow(n.op_class()) ||
         absl::StartsWith(n.op(), "_") || IsAnyPlaceholder(n.op_class());
}

std::string TensorString(const std::string& node, int index) {
  return index == 0 ? node : absl::StrCat(node, ":", index);
}

// SOURCE's and SINK's implicit control edges are neither inputs nor uses.
bool HasControlInputs(const Node& n) {
  for (const Edge* e : n.in_edges()) {
    if (e->IsControlEdge() && e->src()->IsOp()) return true;
  }
  return false;
}
bool HasControlConsumers(const Node& n) {
  for (const Edge* e : n.out_edges()) {
    if (e->IsControlEdge() && e->dst()->IsOp()) return true;
  }
  return false;
}
bool HasDataConsumers(const Node& n) {
  for (const Edge* e : n.out_edges()) {
    if (!e->IsControlEdge() && e->dst()->IsOp()) return true;
  }
  return false;
}
bool HasUses(const Node& n) {
  for (const Edge* e : n.out_edges()) {
    if (e->dst()->IsOp()) return true;
  }
  return false;
}
// The one data consumer of `n` (any output), or nullptr when there are none, several, or
// control consumers.
Node* SoleConsumer(const Node& n) {
  const Edge* only = nullptr;
  for (const Edge* e : n.out_edges()) {
    if (!e->dst()->IsOp()) continue;
    if (only != nullptr) return nullptr;
    only = e;
  }
  return only == nullptr || only->IsControlEdge() ? nullptr : only->dst();
}
// Ids of the op nodes `n` waits for by a control edge, in edge order.
std::vector<int> ControlInputIds(const Node& n) {
  std::vector<int> ids;
  for (const Edge* e : n.in_edges()) {
    if (e->IsControlEdge() && e->src()->IsOp()) ids.push_back(e->src()->id());
  }
  return ids;
}
// The control inputs of every node in `replaced` (null entries skipped), each source once, in
// source-name order: what the one node replacing them must wait for.
template <typename Nodes>
std::vector<int> ControlInputsOfAll(const Nodes& replaced) {
  std::map<std::string, int> control;
  for (const Node* n : replaced) {
    if (n == nullptr) continue;
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge() && e->src()->IsOp()) control.emplace(e->src()->name(), e->src()->id());
    }
  }
  std::vector<int> ids;
  ids.reserve(control.size());
  for (const auto& [name, id] : control) ids.push_back(id);
  return ids;
}
std::vector<int> ControlInputsOfAll(std::initializer_list<const Node*> replaced) {
  return ControlInputsOfAll<std::initializer_list<const Node*>>(replaced);
}
bool SameDevice(const Node& a, const Node& b) {
  return a.assigned_device_name() == b.assigned_device_name();
}

// The Const tensor feeding input `k` of `n`, if it is one (output 0 of a Const without control
// inputs).
std::optional<Tensor> ConstInput(const Node& n, int k) {
  const Edge* e = n.input_edge(k);
  if (e == nullptr) return std::nullopt;
  const Node& src = *e->src();
  if (!IsConstant(src.op_class()) || HasControlInputs(src) || e->src_output() != 0) {
    return std::nullopt;
  }
  absl::StatusOr<Tensor> t = TensorFromProto(src.def().attr().at("value").tensor());
  if (!t.ok()) return std::nullopt;
  return *std::move(t);
}

// Makes `n` a Const holding `value`: op, attrs and inputs replaced, every other field kept.
void MakeConst(NodeDef* n, const Tensor& value) {
  n->set_op("Const");
  n->clear_input();
  n->mutable_attr()->clear();
  SetAttr(n, "dtype", value.dtype());
  TensorToProto(value, (*n->mutable_attr())["value"].mutable_tensor());
}

// Makes `n` a BiasAdd (NHWC, float): op and attrs replaced, every other field kept.
void MakeBiasAdd(NodeDef* n) {
  n->set_op("BiasAdd");
  n->clear_input();
  n->mutable_attr()->clear();
  SetAttr(n, "T", DT_FLOAT);
  SetAttr(n, "data_format", "NHWC");
}

// Whether every value is finite (no inf, no NaN).
bool AllFinite(absl::Span<const float> values) {
  for (float x : values) {
    if (!std::isfinite(x)) return false;
  }
  return true;
}
bool AllFinite(const Tensor& t) {
  return AllFinite(absl::MakeConstSpan(t.flat<float>().data(), t.NumElements()));
}

std::vector<PartialTensorShape> ShapesOf(const Tensor& value) {
  const auto dims = value.shape().dims();
  return {PartialTensorShape(std::vector<int64_t>(dims.begin(), dims.end()))};
}

// Const values as constant folding reads them, each small value parsed once: Consts of a graph
// often repeat one scalar (0, 1, an axis; 100,000 Consts of 1 summed by an AddN), and each parse
// allocates a tensor. A TensorProto of at most kMaxSharedBytes serialized is looked up by its
// bytes (equal bytes are equal protos, which parse to equal values; the Tensors share one
// buffer, which no kernel writes: an input is written in place only when nothing else holds it);
// larger ones are parsed at each use.
class ConstValues {
 public:
  static constexpr size_t kMaxSharedBytes = 64;

  // The value of `proto`, or none when TensorFromProto refuses it.
  std::optional<Tensor> Parse(const TensorProto& proto) {
    if (proto.ByteSizeLong() > kMaxSharedBytes) return ParseOnce(proto);
    bytes_.clear();
    proto.SerializeToString(&bytes_);
    auto [it, added] = values_.try_emplace(bytes_);
    if (added) it->second = ParseOnce(proto);
    return it->second;
  }

 private:
  static std::optional<Tensor> ParseOnce(const TensorProto& proto) {
    absl::StatusOr<Tensor> t = TensorFromProto(proto);
    if (!t.ok()) return std::nullopt;
    return *std::move(t);
  }

  std::string bytes_;  // reused: no allocation per lookup
  absl::flat_hash_map<std::string, std::optional<Tensor>> values_;
};

class Optimizer {
 public:
  Optimizer(const GraphOptimizerOptions& options, Graph* graph, GraphOptimizerStats* stats)
      : options_(options), graph_(graph), stats_(stats) {}

  absl::Status Run() {
    for (const Node* n : graph_->op_nodes()) {
      if (IsControlFlow(n->op_class())) {  // the marking alone: see the header
        if (options_.loop_invariants) {
          RILL_ASSIGN_OR_RETURN(const int made, MakeLoopInvariantsConstant(graph_));
          stats_->loop_invariants_made_constant += made;
        }
        if (options_.remove_identities) {
          RILL_ASSIGN_OR_RETURN(const int removed, RemoveControlFlowIdentities(graph_));
          stats_->identities_removed += removed;
        }
        if (options_.loop_invariants) {
          RILL_RETURN_IF_ERROR(HoistLoopBodyConstants(graph_).status());
        }
        if (options_.fusion) {
          // A recurrent step's input products, one product before the loop (changes the
          // GEMM's row count, so rounding may differ: a fusion).
          if (options_.loop_input_projection) {
            RILL_RETURN_IF_ERROR(HoistLoopInputProjections(graph_).status());
          }
          RILL_ASSIGN_OR_RETURN(const int cells, FuseLstmCells(graph_));
          stats_->fusions += cells;
          RILL_ASSIGN_OR_RETURN(const int gru_cells, FuseGruCells(graph_));
          stats_->fusions += gru_cells;
          RILL_ASSIGN_OR_RETURN(const int gru_updates, FuseGruUpdates(graph_));
          stats_->fusions += gru_updates;
          // Whole LSTM loop frames around a fused cell, and the other recurrent loop frames
          // (GRU, SimpleRNN), one node each; again while either fuses one (a layer reading
          // another's loop fuses once that one is a plain node).
          for (int fused = 1; fused > 0;) {
            RILL_ASSIGN_OR_RETURN(const int sequences, FuseLstmSequences(graph_));
            RILL_ASSIGN_OR_RETURN(const int recurrent, FuseRecurrentSequences(graph_));
            fused = sequences + recurrent;
            stats_->fusions += fused;
          }
          MarkConstantWeights();
        }
        return absl::OkStatus();
      }
    }
    position_.resize(graph_->num_node_ids());
    for (int id = 0; id < graph_->num_node_ids(); ++id) position_[id] = id;
    next_position_ = graph_->num_node_ids();
    if (options_.remove_identities) RILL_RETURN_IF_ERROR(RemoveIdentities());
    if (options_.constant_folding && options_.cpu != nullptr) RILL_RETURN_IF_ERROR(Fold());
    if (options_.common_subexpression_elimination) RILL_RETURN_IF_ERROR(Cse());
    if (options_.fusion) {
      RILL_RETURN_IF_ERROR(FoldAtrousConvolutions());
      if (options_.constant_folding) {
        RILL_RETURN_IF_ERROR(FoldBatchNorms());
        RILL_RETURN_IF_ERROR(FoldChannelScaleAndShift());
      }
      RILL_RETURN_IF_ERROR(Fuse());
      RILL_RETURN_IF_ERROR(FuseGatedActivations());
      RILL_RETURN_IF_ERROR(FuseResidualAdds());
      RILL_RETURN_IF_ERROR(FuseLayerNorms());
      RILL_RETURN_IF_ERROR(FuseGelus());
      RILL_RETURN_IF_ERROR(FuseScaleShifts());
      RILL_RETURN_IF_ERROR(FoldPadsIntoConvolutions());
      MarkConstantWeights();
    }
    // Nodes left without inputs or consumers by the rewrites, and the new Consts.
    graph_->FixupSourceAndSinkEdges();
    return absl::OkStatus();
  }

 private:
  // --- order ------------------------------------------------------------------------------
  //
  // Every node has a position: its id for the nodes of the input graph; a node put in place of
  // another takes that one's position, and a new node goes after all others. Passes visit nodes
  // in position order (and break topological ties by it), so which node of several equal ones
  // survives CSE and the numbering of created nodes do not depend on the ids rewrites give.

  int64_t Position(const Node* n) const { return position_[n->id()]; }
  void SetPosition(const Node* n, int64_t position) {
    if (n->id() >= static_cast<int>(position_.size())) position_.resize(graph_->num_node_ids());
    position_[n->id()] = position;
  }
  bool Before(const Node* a, const Node* b) const { return Position(a) < Position(b); }

  std::vector<Node*> NodesInOrder() {
    std::vector<Node*> nodes;
    nodes.reserve(graph_->num_op_nodes());
    for (Node* n : graph_->op_nodes()) nodes.push_back(n);
    // Id order is position order until a rewrite puts a node in another's place: most graphs
    // are in order already, which one pass checks (positions are unique, so the order is the same
    // either way).
    auto before = [this](const Node* a, const Node* b) { return Before(a, b); };
    if (!std::is_sorted(nodes.begin(), nodes.end(), before)) {
      std::sort(nodes.begin(), nodes.end(), before);
    }
    return nodes;
  }

  // Op nodes in an order where every node comes after its inputs (data and control): Kahn's
  // algorithm with ready nodes, and each node's consumers, taken in position order.
  std::vector<Node*> TopologicalOrder() {
    std::vector<int> pending(graph_->num_node_ids(), 0);
    std::vector<Node*> ready;  // a queue: taken from ready[next]
    ready.reserve(graph_->num_op_nodes());
    size_t next = 0;
    for (Node* n : NodesInOrder()) {
      for (const Edge* e : n->in_edges()) {
        if (e->src()->IsOp()) ++pending[n->id()];
      }
      if (pending[n->id()] == 0) ready.push_back(n);
    }
    std::vector<Node*> order;
    order.reserve(graph_->num_op_nodes());
    std::vector<Node*> consumers;
    while (next < ready.size()) {
      Node* n = ready[next++];
      order.push_back(n);
      consumers.clear();
      for (const Edge* e : n->out_edges()) {
        if (e->dst()->IsOp()) consumers.push_back(e->dst());
      }
      std::stable_sort(consumers.begin(), consumers.end(),
                       [this](const Node* a, const Node* b) { return Before(a, b); });
      for (Node* c : consumers) {
        if (--pending[c->id()] == 0) ready.push_back(c);
      }
    }
    return order;
  }

  // --- batched rewrites -------------------------------------------------------------------
  //
  // A pass decides on the graph as it was when the pass began (the scale-and-shift pass's later
  // rounds also see its earlier rounds' rewrites, through its own state) and records its rewrites
  // here; Commit() applies them with one RemoveNodes, so a pass stays linear however many nodes it
  // rewrites.

  // A node put in place of `old_id` under the same name: built from `def`, it takes the old
  // node's assigned device, position and consumers (data edges from the same outputs, control
  // edges), and the inputs listed here.
  struct Replacement {
    int old_id = -1;
    NodeDef def;
    std::vector<std::pair<int, int>> inputs;  // (producer id, output) by input index
    std::vector<int> control_inputs;          // producer ids
    std::vector<PartialTensorShape> shapes;
  };
  // An edge to add; a control edge has src_output == dst_input == kControlSlot.
  struct PendingEdge {
    int src_id;
    int src_output;
    int dst_id;
    int dst_input;
  };

  // (producer id, output) of data input `k` of `n`. REQUIRES: connected.
  static std::pair<int, int> Source(const Node& n, int k) {
    const Edge* e = n.input_edge(k);
    return {e->src()->id(), e->src_output()};
  }

  // Removes dead_ and the nodes replacements_ replace, adds the replacements and edges_ (ids of
  // replaced nodes stand for their replacements).
  absl::Status Commit() {
    struct Use {
      int dst_id;
      int src_output;
      int dst_input;
    };
    if (dead_.empty() && replacements_.empty() && edges_.empty()) return absl::OkStatus();
    std::vector<Node*> remove = std::move(dead_);
    dead_.clear();
    // By node id (the ids the rewrites name are all below this bound).
    const int num_ids = graph_->num_node_ids();
    std::vector<bool> gone(num_ids, false);
    for (const Node* n : remove) gone[n->id()] = true;
    std::vector<std::vector<Use>> uses(replacements_.size());
    std::vector<std::string> devices(replacements_.size());
    std::vector<int64_t> positions(replacements_.size());
    for (size_t r = 0; r < replacements_.size(); ++r) {
      Node* old = graph_->FindNodeById(replacements_[r].old_id);
      for (const Edge* e : old->out_edges()) {
        if (e->dst()->IsOp()) uses[r].push_back({e->dst()->id(), e->src_output(), e->dst_input()});
      }
      devices[r] = old->assigned_device_name();
      positions[r] = Position(old);
      remove.push_back(old);
      gone[old->id()] = true;
    }
    if (!remove.empty()) graph_->RemoveNodes(remove);
    // Old id -> replacement; left empty without replacements (identity removal), so that a pass
    // removing a million nodes does not clear a million entries it never reads.
    std::vector<Node*> replaced(replacements_.empty() ? 0 : num_ids, nullptr);
    for (size_t r = 0; r < replacements_.size(); ++r) {
      absl::StatusOr<Node*> n = graph_->AddNode(std::move(replacements_[r].def));
      if (!n.ok()) return Bug(n.status());
      (*n)->set_assigned_device_name(std::move(devices[r]));
      (*n)->set_output_shapes(std::move(replacements_[r].shapes));
      SetPosition(*n, positions[r]);
      replaced[replacements_[r].old_id] = *n;
    }
    auto resolve = [&](int id) -> Node* {
      if (!replaced.empty() && replaced[id] != nullptr) return replaced[id];
      return gone[id] ? nullptr : graph_->FindNodeById(id);
    };
    auto add = [&](const PendingEdge& edge) -> absl::Status {
      Node* src = resolve(edge.src_id);
      Node* dst = resolve(edge.dst_id);
      if (src == nullptr || dst == nullptr) {
        return absl::InternalError("graph optimizer: an edge to or from a removed node");
      }
      if (edge.src_output == kControlSlot) {
        graph_->AddControlEdge(src, dst);
        return absl::OkStatus();
      }
      absl::Status s = graph_->AddEdge(src, edge.src_output, dst, edge.dst_input).status();
      return s.ok() ? s : Bug(s);
    };
    for (const Replacement& r : replacements_) {
      for (size_t k = 0; k < r.inputs.size(); ++k) {
        RILL_RETURN_IF_ERROR(
            add({r.inputs[k].first, r.inputs[k].second, r.old_id, static_cast<int>(k)}));
      }
      for (int c : r.control_inputs) {
        RILL_RETURN_IF_ERROR(add({c, kControlSlot, r.old_id, kControlSlot}));
      }
    }
    for (size_t r = 0; r < replacements_.size(); ++r) {
      for (const Use& u : uses[r]) {
        // A removed consumer needs nothing; a replaced one got its inputs above.
        if (gone[u.dst_id]) continue;
        RILL_RETURN_IF_ERROR(add({replacements_[r].old_id, u.src_output, u.dst_id, u.dst_input}));
      }
    }
    for (const PendingEdge& e : edges_) RILL_RETURN_IF_ERROR(add(e));
    replacements_.clear();
    edges_.clear();
    return absl::OkStatus();
  }

  static absl::Status Bug(const absl::Status& s) {
    return absl::InternalError(absl::StrCat("graph optimizer: ", s.message()));
  }

  // Adds a Const `name` holding `value` on `device`, after every other node.
  absl::StatusOr<Node*> AddConst(const std::string& name, const Tensor& value,
                                 const std::string& device) {
    NodeDef def;
    def.set_name(name);
    MakeConst(&def, value);
    absl::StatusOr<Node*> n = graph_->AddNode(std::move(def));
    if (!n.ok()) return Bug(n.status());
    (*n)->set_assigned_device_name(device);
    (*n)->set_output_shapes(ShapesOf(value));
    SetPosition(*n, next_position_++);
    return *n;
  }

  // Consts nothing reads any more (inputs of folded nodes, replaced filters) are dropped. A Const
  // without control inputs whose consumers only wait for it (control edges) goes too: it is ready
  // when the step starts, so waiting for it orders nothing, and keeping it would keep its value
  // alive in the executor (Keras's frozen graphs keep a NoOp waiting on every weight, whose
  // original Const is unread once folded into its convolution).
  void PruneUnreadConsts() {
    std::vector<Node*> dead;
    for (Node* n : graph_->op_nodes()) {
      if (!IsConstant(n->op_class())) continue;
      if (!HasUses(*n) || (!HasDataConsumers(*n) && !HasControlInputs(*n))) dead.push_back(n);
    }
    if (!dead.empty()) graph_->RemoveNodes(dead);
  }

  // Whether `n`'s device can run `fused` (a node made to replace `n` and its neighbours): always
  // on a CPU; elsewhere when options_.kernels has a kernel for it on the device's type.
  bool CanRun(const Node& n, const NodeDef& fused) {
    if (OnCpu(n)) return true;
    if (options_.kernels == nullptr) return false;
    absl::StatusOr<DeviceName> parsed = ParseDeviceName(n.assigned_device_name());
    if (!parsed.ok() || !parsed->has_type) return false;
    return !options_.kernels->SupportedDeviceTypes(fused, {parsed->type}).empty();
  }

  // True when `n`'s assigned device is a CPU.
  bool OnCpu(const Node& n) {
    const std::string& device = n.assigned_device_name();
    auto [it, added] = on_cpu_.try_emplace(device, false);
    if (added) {
      absl::StatusOr<DeviceName> parsed = ParseDeviceName(device);
      it->second = parsed.ok() && parsed->has_type && parsed->type == kDeviceCpu;
    }
    return it->second;
  }

  // --- identity removal ---------------------------------------------------------------------

  // The data input each data output of `n` passes on unchanged, when `n` only forwards its
  // inputs: Identity-like nodes (output 0 is input 0), IdentityN (output k is input k; Keras's
  // custom gradients leave them in frozen graphs) and a float Mul by a scalar Const 1 read only by
  // arithmetic (output 0 is the other input: x * 1 == x for every x, inf and NaN included, and a
  // subnormal reads as 0 in the readers as the Mul's flushed result did; Keras 3's swish
  // multiplies by its beta of 1 before the sigmoid). Empty when `n` does something else or has
  // control inputs.
  // Inline for up to two inputs: called on every node.
  using Forwarded = absl::InlinedVector<int, 2>;

  // Whether every data reader of `n` does arithmetic on the tensor `n` gives it, which reads a
  // subnormal as 0 under the flush-to-zero modes kernels run in (core/denormal.h). x * 1 is x
  // except there: TensorFlow's Mul flushes a subnormal x to 0, and a fetch, an Identity, a
  // Reshape or a comparison of the forwarded x would see the subnormal itself.
  static bool OnlyArithmeticReaders(const Node& n) {
    static const auto* kArithmetic = new absl::flat_hash_set<std::string>{
        "Mul", "Add", "AddV2", "Sub", "RealDiv", "Sigmoid", "BiasAdd"};
    for (const Edge* e : n.out_edges()) {
      if (!e->IsControlEdge() && e->dst()->IsOp() && !kArithmetic->contains(e->dst()->op())) {
        return false;
      }
    }
    return true;
  }

  static Forwarded ForwardedInputs(const Node& n) {
    if (HasControlInputs(n) || n.is_unknown_op()) return {};
    if (IsIdentity(n.op_class())) return n.num_inputs() == 1 ? Forwarded{0} : Forwarded{};
    if (n.op() == "IdentityN") {
      Forwarded all(n.num_inputs());
      for (int k = 0; k < n.num_inputs(); ++k) all[k] = k;
      return all;
    }
    if (n.op() == "Mul" && n.num_inputs() == 2 && OnlyArithmeticReaders(n)) {
      for (int k = 0; k < 2; ++k) {
        std::optional<Tensor> c = ConstInput(n, k);
        if (!c || c->shape().rank() != 0) continue;
        const bool one = (c->dtype() == DT_FLOAT && c->flat<float>()[0] == 1.f) ||
                         (c->dtype() == DT_DOUBLE && c->flat<double>()[0] == 1.0);
        if (one) return {1 - k};
      }
    }
    return {};
  }

  // In topological order, so that a forwarder's inputs are settled (a forwarder among its
  // producers already removed, `source` naming where it reads from) before it is looked at.
  absl::Status RemoveIdentities() {
    // The (node, output) each output of a removed node forwards: output k of node `id` is
    // sources[first[id] + k], for k < count[id] (0 for nodes kept). By id, not hashed: a graph of
    // a million Identities makes a million lookups.
    const int num_ids = graph_->num_node_ids();
    std::vector<std::pair<Node*, int>> sources;
    std::vector<int> first(num_ids, 0), count(num_ids, 0);
    absl::InlinedVector<std::pair<Node*, int>, 2> from;
    for (Node* n : TopologicalOrder()) {
      const Forwarded forwarded = ForwardedInputs(*n);
      if (forwarded.empty()) continue;
      from.clear();
      for (int k : forwarded) {
        const Edge* in = n->input_edge(k);
        if (in == nullptr) break;
        Node* src = in->src();
        int port = in->src_output();
        if (port < count[src->id()]) std::tie(src, port) = sources[first[src->id()] + port];
        // Only a non-ref output: an Identity is where a ref becomes a value.
        if (!SameDevice(*src, *n) || src->is_unknown_op() || port >= src->num_outputs() ||
            IsRefType(src->output_type(port))) {
          break;
        }
        from.emplace_back(src, port);
      }
      if (from.size() != forwarded.size()) continue;
      first[n->id()] = static_cast<int>(sources.size());
      count[n->id()] = static_cast<int>(from.size());
      sources.insert(sources.end(), from.begin(), from.end());
      dead_.push_back(n);
      ++stats_->identities_removed;
    }
    // Data consumers read the source. Nodes that wait for a removed node (a control edge) wait
    // for its sources instead: it runs when its inputs are ready and does nothing else (Keras's
    // frozen graphs keep a NoOp waiting on every weight's ReadVariableOp Identity, which hid the
    // weights' Const from MarkConstantWeights).
    for (const Node* n : dead_) {
      for (const Edge* e : n->out_edges()) {
        const Node* dst = e->dst();
        if (!dst->IsOp() || count[dst->id()] > 0) continue;
        if (e->IsControlEdge()) {
          absl::flat_hash_set<int> waited;
          for (int k = 0; k < count[n->id()]; ++k) {
            const Node* src = sources[first[n->id()] + k].first;
            if (waited.insert(src->id()).second) {
              edges_.push_back({src->id(), kControlSlot, dst->id(), kControlSlot});
            }
          }
        } else {
          const auto [src, port] = sources[first[n->id()] + e->src_output()];
          edges_.push_back({src->id(), port, dst->id(), e->dst_input()});
        }
      }
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // --- constant folding ---------------------------------------------------------------------

  absl::StatusOr<std::vector<Tensor>> Evaluate(const Node& node,
                                               const std::vector<Tensor>& inputs) {
    // The NodeDef with its input list: a few kernels (StringFormat) count their inputs there.
    const NodeDef def = NodeDefWithInputs(node);
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> kernel, KernelRegistry::Global()->CreateKernel(
                                                                def, *node.op_def(), options_.cpu));
    if (kernel->IsAsync()) return absl::UnimplementedError("async kernel");
    std::vector<TensorValue> values(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) values[i].tensor = inputs[i];
    OpKernelContext::Params params;
    params.device = options_.cpu;
    params.kernel = kernel.get();
    params.inputs = absl::MakeConstSpan(values);
    OpKernelContext ctx(&params, static_cast<int>(kernel->output_types().size()));
    // Host memory a kernel takes outside the allocator fails the fold, as the executor fails
    // the node (ResourceExhausted): the node stays and reports at run time.
    absl::Status computed;
    try {
      computed = kernel->Compute(ctx);
    } catch (const std::bad_alloc&) {
      computed = absl::ResourceExhaustedError("constant folding: out of host memory");
    }
    RILL_RETURN_IF_ERROR(computed);
    std::vector<Tensor> out;
    for (const TensorValue& v : ctx.outputs()) {
      if (v.is_ref() || !v.tensor.IsInitialized()) return absl::UnimplementedError("no value");
      out.push_back(v.tensor);
    }
    return out;
  }

  // True when an input or a consumer of `n` is on another device: folding it would move work
  // the user placed (the seed examples' towers) off its device, so Rill keeps it.
  static bool CrossesDevices(const Node& n) {
    for (const Edge* e : n.in_edges()) {
      if (e->src()->IsOp() && !SameDevice(*e->src(), n)) return true;
    }
    for (const Edge* e : n.out_edges()) {
      if (e->dst()->IsOp() && !SameDevice(*e->dst(), n)) return true;
    }
    return false;
  }

  // Shape, Size or Rank of a tensor of fully known shape `shape`, as `n` would compute it; none
  // when the kernel would fail instead (an element count past int64, or a value past an int32
  // out_type: no tensor of that shape can exist, so the producer fails at run time, and folding
  // would replace its error with an overflowed or truncated value).
  static std::optional<Tensor> ShapeMetadataValue(const Node& n, const PartialTensorShape& shape) {
    DataType out_type = DT_INT32;
    if (n.def().attr().contains("out_type")) out_type = n.def().attr().at("out_type").type();
    const std::vector<int64_t>& dims = shape.dims();
    Tensor value;
    int64_t count = 1;
    for (int64_t d : dims) {
      if (__builtin_mul_overflow(count, d, &count)) return std::nullopt;
    }
    const int64_t scalar = n.op() == "Size" ? count : static_cast<int64_t>(dims.size());
    if (out_type != DT_INT64) {
      constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
      if (scalar > kInt32Max) return std::nullopt;
      for (int64_t d : dims) {
        if (n.op() == "Shape" && d > kInt32Max) return std::nullopt;
      }
    }
    if (n.op() == "Shape") {
      value = Tensor(out_type, TensorShape({static_cast<int64_t>(dims.size())}));
      for (size_t d = 0; d < dims.size(); ++d) {
        if (out_type == DT_INT64) {
          value.flat<int64_t>()[d] = dims[d];
        } else {
          value.flat<int32_t>()[d] = static_cast<int32_t>(dims[d]);
        }
      }
    } else if (out_type == DT_INT64) {
      value = Tensor::Scalar<int64_t>(scalar);
    } else {
      value = Tensor::Scalar<int32_t>(static_cast<int32_t>(scalar));
    }
    return value;
  }

  // Whether a rewrite of this run reads the shapes Fold infers: Shape / Size / Rank folding, and
  // the layer-norm fusion's Mean over the last axis (MeanOverLastAxis). Every other rewrite only
  // copies a node's shapes to the node it makes, and nothing after the optimizer reads them.
  bool ReadsInferredShapes() const {
    for (const Node* n : graph_->op_nodes()) {
      if (IsShapeMetadata(n->op_class())) return true;
      // The op name only of nodes that may be a Mean (input and axes): it is read from the
      // node's NodeDef, a separate block per node.
      if (n->op_class() == OpClass::kOther && n->num_inputs() == 2 && n->op() == "Mean") {
        return true;
      }
    }
    return false;
  }

  // Folded nodes become Consts when the pass commits; until then their consumers read the Const
  // NodeDef waiting in replacements_ (`folded` indexes it by node id), and Shape / Size / Rank
  // read the shapes inferred for the original node.
  absl::Status Fold() {
    // Shapes inferred on this graph (see the header): none when inference fails. Only Shape /
    // Size / Rank folding and the layer-norm fusion's axis read them, so a graph without those
    // nodes keeps the shapes it carries (a second inference costs as much as the import's).
    const bool shapes_known = ReadsInferredShapes() && InferShapes(graph_).ok();
    absl::flat_hash_map<int, size_t> folded;
    ConstValues small_values;
    auto fold = [&](Node* n, const Tensor& value) {
      folded[n->id()] = replacements_.size();
      Replacement& r = replacements_.emplace_back();
      r.old_id = n->id();
      r.def = n->def();
      MakeConst(&r.def, value);
      r.shapes = ShapesOf(value);
      ++stats_->nodes_folded;
    };
    // The value of a data edge from output 0 of a Const (or of a node folded into one) without
    // control inputs.
    auto const_value = [&](const Edge* e) -> std::optional<Tensor> {
      const Node& src = *e->src();
      const NodeDef* def = nullptr;
      if (auto it = folded.find(src.id()); it != folded.end()) {
        def = &replacements_[it->second].def;
      } else if (IsConstant(src.op_class()) && !HasControlInputs(src)) {
        def = &src.def();
      }
      if (def == nullptr || e->src_output() != 0) return std::nullopt;
      return small_values.Parse(def->attr().at("value").tensor());
    };
    for (Node* n : TopologicalOrder()) {
      if (IsConstant(n->op_class()) || HasControlInputs(*n)) continue;
      if (n->is_unknown_op() || IsPinned(*n) || n->op_def()->output_arg_size() == 0) continue;
      if (CrossesDevices(*n)) continue;
      // Off the CPU a node folds when its device has a Const kernel for the value (evaluated by
      // the CPU's kernels, as TensorFlow's constant folding does): a GPU's batch-norm arithmetic
      // on constants folds, and then into its convolutions.
      auto device_holds = [&](const Tensor& value) {
        if (OnCpu(*n)) return true;
        NodeDef c;
        c.set_op("Const");
        SetAttr(&c, "dtype", value.dtype());
        return CanRun(*n, c);
      };
      // Shape, Size and Rank of a fully known shape.
      if (shapes_known && IsShapeMetadata(n->op_class()) && n->num_inputs() == 1 &&
          n->input_edge(0) != nullptr) {
        const Edge* in = n->input_edge(0);
        const std::vector<PartialTensorShape>& shapes = in->src()->output_shapes();
        if (in->src_output() < static_cast<int>(shapes.size()) &&
            shapes[in->src_output()].IsFullyDefined()) {
          std::optional<Tensor> v = ShapeMetadataValue(*n, shapes[in->src_output()]);
          if (v && device_holds(*v)) fold(n, *std::move(v));
          continue;
        }
      }
      if (n->num_inputs() == 0) continue;  // e.g. a random op (stateful anyway) or a source
      std::vector<Tensor> inputs;
      inputs.reserve(n->num_inputs());
      bool all_const = true;
      for (int k = 0; k < n->num_inputs() && all_const; ++k) {
        const Edge* e = n->input_edge(k);
        std::optional<Tensor> t = e != nullptr ? const_value(e) : std::nullopt;
        if (t) {
          inputs.push_back(*std::move(t));
        } else {
          all_const = false;
        }
      }
      if (!all_const) continue;
      absl::StatusOr<std::vector<Tensor>> out = Evaluate(*n, inputs);
      if (!out.ok() || out->size() != 1 ||
          static_cast<int64_t>((*out)[0].TotalBytes()) > options_.max_folded_bytes ||
          (*out)[0].dtype() == DT_VARIANT || !device_holds((*out)[0])) {
        continue;  // multi-output nodes and failures stay; failures report at run time
      }
      fold(n, (*out)[0]);
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // --- common-subexpression elimination -----------------------------------------------------

  // A duplicate's consumers read the node it merges into when the pass commits; until then
  // `merged` names that node wherever the duplicate is an input.
  absl::Status Cse() {
    absl::flat_hash_map<std::string, Node*> seen;  // key -> first node with it
    absl::flat_hash_map<int, Node*> merged;        // duplicate id -> the node it merges into
    auto name_of = [&](const Node* n) -> const std::string& {
      auto it = merged.find(n->id());
      return it == merged.end() ? n->name() : it->second->name();
    };
    for (Node* n : TopologicalOrder()) {
      if (n->is_unknown_op() || IsPinned(*n)) continue;
      std::vector<std::string> data, control;
      for (int k = 0; k < n->num_inputs(); ++k) {
        const Edge* e = n->input_edge(k);
        if (e != nullptr) data.push_back(TensorString(name_of(e->src()), e->src_output()));
      }
      for (const Edge* e : n->in_edges()) {
        if (e->IsControlEdge() && e->src()->IsOp()) control.push_back("^" + name_of(e->src()));
      }
      if (n->op_def()->is_commutative()) std::sort(data.begin(), data.end());
      std::sort(control.begin(), control.end());
      std::string key = absl::StrCat(n->op(), "|", n->assigned_device_name(), "|");
      for (const std::string& in : data) absl::StrAppend(&key, in, ",");
      absl::StrAppend(&key, "|");
      for (const std::string& in : control) absl::StrAppend(&key, in, ",");
      std::map<std::string, std::string> attrs;
      for (const auto& [k, v] : n->def().attr()) attrs[k] = v.SerializeAsString();
      for (const auto& [k, v] : attrs) absl::StrAppend(&key, "|", k, "=", v);
      auto [it, added] = seen.emplace(std::move(key), n);
      if (added) continue;
      merged[n->id()] = it->second;
      dead_.push_back(n);
      ++stats_->nodes_merged;
    }
    // A duplicate's uses read the first one (every output port, and control uses).
    for (const Node* dup : dead_) {
      const Node* keep = merged.at(dup->id());
      for (const Edge* e : dup->out_edges()) {
        const Node* dst = e->dst();
        if (!dst->IsOp() || merged.contains(dst->id())) continue;
        if (e->IsControlEdge()) {
          edges_.push_back({keep->id(), kControlSlot, dst->id(), kControlSlot});
        } else {
          edges_.push_back({keep->id(), e->src_output(), dst->id(), e->dst_input()});
        }
      }
    }
    return Commit();
  }

  // --- Conv2D / DepthwiseConv2dNative / Conv2DBackpropInput + FusedBatchNorm folding ---------
  //
  // An inference FusedBatchNorm reading a convolution with a Const filter: the filter takes the
  // per-channel scale and the batch norm becomes a BiasAdd, which Fuse() then joins to the
  // convolution (with a Relu, or with a swish gate after it). For a depthwise filter [h, w, in_c,
  // multiplier] the channels are its flattened last two dims (output c * multiplier + m), so
  // element e of either filter belongs to channel e % channels. A transposed convolution's
  // (Conv2DBackpropInput's) filter is [h, w, out_c, in_c]: element e belongs to output channel
  // (e / in_c) % out_c (FilterChannels), and its BiasAdd stays a node of its own.

  // How a product's filter elements map to its output channels: element e of the flat filter
  // belongs to channel (e / inner) % channels.
  struct FilterChannels {
    int64_t channels = 0;
    int64_t inner = 1;
    int64_t Of(int64_t e) const { return e / inner % channels; }
  };

  // The output channels of a Conv2D, DepthwiseConv2dNative or Conv2DBackpropInput filter of
  // rank 4 (HWIO, HW-in-multiplier, HW-out-in).
  static FilterChannels ChannelsOfFilter(const std::string& op, const TensorShape& fs) {
    if (op == "Conv2D") return {fs.dim(3), 1};
    if (op == "DepthwiseConv2dNative") return {fs.dim(2) * fs.dim(3), 1};
    return {fs.dim(2), fs.dim(3)};  // Conv2DBackpropInput
  }

  // The data inputs of `n` with input 1 (the filter of a convolution or of a transposed one)
  // read from `filter_node` instead.
  static std::vector<std::pair<int, int>> WithFilter(const Node& n, int filter_node) {
    std::vector<std::pair<int, int>> inputs;
    for (int k = 0; k < n.num_inputs(); ++k) {
      inputs.push_back(k == 1 ? std::make_pair(filter_node, 0) : Source(n, k));
    }
    return inputs;
  }

  absl::Status FoldBatchNorms() {
    int created = 0;
    for (Node* bn : NodesInOrder()) {
      if (bn->op() != "FusedBatchNorm" && bn->op() != "FusedBatchNormV2" &&
          bn->op() != "FusedBatchNormV3") {
        continue;
      }
      bool training = true;
      std::string format = "NHWC";
      float epsilon = 0.0001f;
      if (!GetNodeAttr(bn->def(), "is_training", &training).ok() || training) continue;
      (void)GetNodeAttr(bn->def(), "data_format", &format);
      (void)GetNodeAttr(bn->def(), "epsilon", &epsilon);
      if (format != "NHWC" || HasControlInputs(*bn) || HasControlConsumers(*bn)) continue;
      // Only output 0 may be read.
      bool other_outputs = false;
      for (const Edge* e : bn->out_edges()) {
        if (e->dst()->IsOp() && e->src_output() != 0) other_outputs = true;
      }
      if (other_outputs) continue;
      const Edge* x = bn->input_edge(0);
      Node* conv = x != nullptr && x->src_output() == 0 ? x->src() : nullptr;
      if (conv == nullptr ||
          (conv->op() != "Conv2D" && conv->op() != "DepthwiseConv2dNative" &&
           conv->op() != "Conv2DBackpropInput") ||
          SoleConsumer(*conv) != bn || HasControlInputs(*conv) || !SameDevice(*conv, *bn)) {
        continue;
      }
      std::string conv_format = "NHWC";
      (void)GetNodeAttr(conv->def(), "data_format", &conv_format);
      std::optional<Tensor> filter = ConstInput(*conv, 1);
      std::optional<Tensor> scale = ConstInput(*bn, 1), offset = ConstInput(*bn, 2),
                            mean = ConstInput(*bn, 3), var = ConstInput(*bn, 4);
      if (conv_format != "NHWC" || !filter || !scale || !offset || !mean || !var ||
          filter->dtype() != DT_FLOAT || filter->shape().rank() != 4 ||
          scale->dtype() != DT_FLOAT) {
        continue;
      }
      const FilterChannels layout = ChannelsOfFilter(conv->op(), filter->shape());
      const int64_t channels = layout.channels;
      if (scale->NumElements() != channels || offset->NumElements() != channels ||
          mean->NumElements() != channels || var->NumElements() != channels) {
        continue;
      }
      // w' = w * s, b = offset - mean * s, with s = scale / sqrt(var + epsilon) per channel.
      // Kept unfolded when a constant or a folded value is not finite: folding may change the
      // result by rounding only, and inf or NaN weights would turn an inf or a huge value the
      // batch norm makes into NaN, or a finite one into inf.
      if (!AllFinite(*scale) || !AllFinite(*offset) || !AllFinite(*mean) || !AllFinite(*var) ||
          !std::isfinite(epsilon)) {
        ++stats_->folds_skipped_non_finite;
        continue;
      }
      Tensor w(DT_FLOAT, filter->shape());
      Tensor b(DT_FLOAT, TensorShape({channels}));
      std::vector<float> s(channels);
      for (int64_t c = 0; c < channels; ++c) {
        s[c] = scale->flat<float>()[c] / std::sqrt(var->flat<float>()[c] + epsilon);
        b.flat<float>()[c] = offset->flat<float>()[c] - mean->flat<float>()[c] * s[c];
      }
      for (int64_t e = 0; e < filter->NumElements(); ++e) {
        w.flat<float>()[e] = filter->flat<float>()[e] * s[layout.Of(e)];
      }
      if (!AllFinite(s) || !AllFinite(w) || !AllFinite(b)) {
        ++stats_->folds_skipped_non_finite;
        continue;
      }
      const std::string& device = bn->assigned_device_name();
      const std::string w_name = absl::StrCat(conv->name(), "/folded_filter_", created);
      const std::string b_name = absl::StrCat(bn->name(), "/folded_bias_", created);
      ++created;
      RILL_ASSIGN_OR_RETURN(Node * w_node, AddConst(w_name, w, device));
      RILL_ASSIGN_OR_RETURN(Node * b_node, AddConst(b_name, b, device));
      // The convolution reads the folded filter.
      Replacement& rc = replacements_.emplace_back();
      rc.old_id = conv->id();
      rc.def = conv->def();
      rc.inputs = WithFilter(*conv, w_node->id());
      rc.shapes = conv->output_shapes();
      // The batch norm becomes a BiasAdd of the same name.
      Replacement& rb = replacements_.emplace_back();
      rb.old_id = bn->id();
      rb.def = bn->def();
      MakeBiasAdd(&rb.def);
      rb.inputs = {{conv->id(), 0}, {b_node->id(), 0}};
      if (!bn->output_shapes().empty()) rb.shapes = {bn->output_shapes()[0]};
      ++stats_->batch_norms_folded;
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // --- per-channel scale and shift after a product ---------------------------------------
  //
  // Inference batch norm as Keras 3 and tf.nn.batch_normalization write it, once constants are
  // folded: product -> [BiasAdd(const)] -> Mul(const per channel) -> Add(const per channel).
  //   Mul: the scale goes into the product's filter (and a BiasAdd's bias before it); the Mul
  //        becomes a BiasAdd (a zero bias when there was none).
  //   Add/AddV2 after such a BiasAdd, or right after a product: one BiasAdd with the sum.
  // Fuse() then makes _Fused* kernels of the BiasAdds. Rounds repeat until nothing changes, each
  // seeing the rewrites of the rounds before it and none of its own (a node rewritten in a round
  // is not looked at again in that round). The graph changes once, when the pass commits: until
  // then a round reads the earlier rounds' rewrites from a ScaleShiftState. A round after the
  // first looks only at the readers of the nodes the round before rewrote (nothing around any
  // other node changed), so the pass is linear however many rounds a chain of Muls and Adds takes.

  // A Mul / Add rewritten into BiasAdd(input, bias) in an earlier round.
  struct FoldedBiasAdd {
    std::pair<int, int> input;  // (producer id, output)
    Tensor bias;
    int bias_node = -1;
    std::vector<int> control_inputs;
  };
  struct ScaleShiftState {
    absl::flat_hash_map<int, FoldedBiasAdd> folded;  // by the Mul / Add's id
    // A BiasAdd (a real one, or a folded Mul / Add) -> the node that took it over; that node
    // now reads what the BiasAdd read.
    absl::flat_hash_map<int, int> absorbed;
    absl::flat_hash_map<int, std::pair<int, Tensor>> filters;  // product id -> (Const id, value)
  };

  // The one data consumer of `n` in the state's graph.
  Node* ConsumerIn(ScaleShiftState& state, const Node& n) {
    Node* c = SoleConsumer(n);
    if (c == nullptr) return nullptr;
    std::vector<int> path;
    for (auto it = state.absorbed.find(c->id()); it != state.absorbed.end();
         it = state.absorbed.find(c->id())) {
      path.push_back(c->id());
      c = graph_->FindNodeById(it->second);
    }
    for (int id : path) state.absorbed[id] = c->id();  // shortcut the chain for the next time
    return c;
  }

  // A product whose output channel c depends linearly on the filter's channel c only: Conv2D,
  // DepthwiseConv2dNative (NHWC; for depthwise the channel is the filter's flattened last two
  // dims), Conv2DBackpropInput (NHWC; the filter's dim 2) and MatMul without transpose_b, with a
  // float Const filter. In the filter's flat layout element e belongs to channel e % channels,
  // (e / in_c) % out_c for Conv2DBackpropInput (`inner`).
  struct ScalableProduct {
    Node* node = nullptr;
    Tensor filter;
    int64_t channels = 0;
    int64_t inner = 1;
    int rank = 0;  // of the product's output
  };

  // The product producing `input` (output 0) if it is scalable and `consumer` is its one reader
  // on its device.
  std::optional<ScalableProduct> ProductFeeding(ScaleShiftState& state,
                                                const std::pair<int, int>& input,
                                                const Node& consumer) {
    if (input.second != 0) return std::nullopt;
    Node* p = graph_->FindNodeById(input.first);
    if (ConsumerIn(state, *p) != &consumer || !SameDevice(*p, consumer)) return std::nullopt;
    std::string format = "NHWC";
    (void)GetNodeAttr(p->def(), "data_format", &format);
    bool transpose_b = false;
    (void)GetNodeAttr(p->def(), "transpose_b", &transpose_b);
    std::optional<Tensor> filter;
    if (auto it = state.filters.find(p->id()); it != state.filters.end()) {
      filter = it->second.second;
    } else {
      filter = ConstInput(*p, 1);
    }
    if (!filter || filter->dtype() != DT_FLOAT) return std::nullopt;
    const TensorShape& fs = filter->shape();
    ScalableProduct out;
    if ((p->op() == "Conv2D" || p->op() == "DepthwiseConv2dNative" ||
         p->op() == "Conv2DBackpropInput") &&
        format == "NHWC" && fs.rank() == 4) {
      const FilterChannels layout = ChannelsOfFilter(p->op(), fs);
      out.channels = layout.channels;
      out.inner = layout.inner;
      out.rank = 4;
    } else if (p->op() == "MatMul" && !transpose_b && fs.rank() == 2) {
      out.channels = fs.dim(1);
      out.rank = 2;
    } else {
      return std::nullopt;
    }
    out.node = p;
    out.filter = *std::move(filter);
    return out;
  }

  // The float Const at input k of `n` as one value per channel, when it broadcasts along the last
  // dim only and does not raise the rank past `max_rank`: a scalar, [C] or [1, ..., 1, C].
  static std::optional<std::vector<float>> ChannelVector(const Node& n, int k, int64_t channels,
                                                         int max_rank) {
    std::optional<Tensor> t = ConstInput(n, k);
    if (!t || t->dtype() != DT_FLOAT || t->shape().rank() > max_rank) return std::nullopt;
    const TensorShape& s = t->shape();
    for (int d = 0; d + 1 < s.rank(); ++d) {
      if (s.dim(d) != 1) return std::nullopt;
    }
    const int64_t size = t->NumElements();
    if (size != 1 && size != channels) return std::nullopt;
    std::vector<float> v(channels);
    for (int64_t c = 0; c < channels; ++c) v[c] = t->flat<float>()[size == 1 ? 0 : c];
    return v;
  }

  // A BiasAdd (NHWC, float) with a Const bias that only `consumer` reads, on its device: a real
  // one or a folded Mul / Add.
  struct BiasAddView {
    Node* node = nullptr;
    std::pair<int, int> input;
    Tensor bias;
    std::vector<int> control_inputs;
  };
  std::optional<BiasAddView> BiasAddFeeding(ScaleShiftState& state, const Edge* input,
                                            const Node& consumer) {
    if (input == nullptr || input->IsControlEdge() || input->src_output() != 0) {
      return std::nullopt;
    }
    Node* b = input->src();
    BiasAddView view;
    view.node = b;
    if (auto it = state.folded.find(b->id()); it != state.folded.end()) {
      view.input = it->second.input;
      view.bias = it->second.bias;
      view.control_inputs = it->second.control_inputs;
    } else {
      std::string format = "NHWC";
      DataType type = DT_INVALID;
      if (b->op() != "BiasAdd") return std::nullopt;
      (void)GetNodeAttr(b->def(), "data_format", &format);
      (void)GetNodeAttr(b->def(), "T", &type);
      std::optional<Tensor> bias = ConstInput(*b, 1);
      if (format != "NHWC" || type != DT_FLOAT || !bias) return std::nullopt;
      view.input = Source(*b, 0);
      view.bias = *std::move(bias);
      view.control_inputs = ControlInputIds(*b);
    }
    if (ConsumerIn(state, *b) != &consumer || !SameDevice(*b, consumer)) return std::nullopt;
    return view;
  }

  absl::Status FoldChannelScaleAndShift() {
    ScaleShiftState state;
    int created = 0;
    std::vector<Node*> candidates = NodesInOrder();
    while (!candidates.empty()) {
      // This round's rewrites, applied to `state` when the round ends.
      ScaleShiftState round;
      absl::flat_hash_set<int> touched;
      std::vector<Node*> rewritten;
      for (Node* n : candidates) {
        DataType type = DT_INVALID;
        (void)GetNodeAttr(n->def(), "T", &type);
        const bool is_mul = n->op() == "Mul";
        if ((!is_mul && n->op() != "Add" && n->op() != "AddV2") || type != DT_FLOAT ||
            state.folded.contains(n->id()) || touched.contains(n->id()) || n->num_inputs() < 2) {
          continue;
        }
        for (int side = 0; side < 2; ++side) {
          const Edge* x = n->input_edge(side);
          std::optional<BiasAddView> bias_add = BiasAddFeeding(state, x, *n);
          const std::pair<int, int> product_input =
              bias_add ? bias_add->input : std::make_pair(x->src()->id(), x->src_output());
          std::optional<ScalableProduct> product =
              ProductFeeding(state, product_input, bias_add ? *bias_add->node : *n);
          if (!product && !(bias_add && !is_mul)) continue;
          const int64_t channels = product ? product->channels : bias_add->bias.NumElements();
          // Without a product the rank is unknown: only a [C] vector keeps the shape.
          std::optional<std::vector<float>> v =
              ChannelVector(*n, 1 - side, channels, product ? product->rank : 1);
          if (!v) continue;
          // Folding may change the result by rounding only: a non-finite scale or shift, or
          // folded weights or bias that overflow (checked below), keep the graph as it is.
          if (!AllFinite(*v)) {
            ++stats_->folds_skipped_non_finite;
            continue;
          }
          bool involved_touched = bias_add && touched.contains(bias_add->node->id());
          if (product && touched.contains(product->node->id())) involved_touched = true;
          if (involved_touched) continue;
          std::vector<float> bias(channels, 0.f);
          if (bias_add) {
            if (bias_add->bias.NumElements() != channels) continue;
            const float* b = bias_add->bias.flat<float>().data();
            std::copy(b, b + channels, bias.begin());
          }
          if (is_mul) {
            Tensor w(DT_FLOAT, product->filter.shape());
            const float* src = product->filter.flat<float>().data();
            float* dst = w.flat<float>().data();
            const FilterChannels layout{channels, product->inner};
            for (int64_t e = 0; e < w.NumElements(); ++e) dst[e] = src[e] * (*v)[layout.Of(e)];
            for (int64_t c = 0; c < channels; ++c) bias[c] *= (*v)[c];
            if (!AllFinite(w) || !AllFinite(bias)) {
              ++stats_->folds_skipped_non_finite;
              continue;
            }
            const Node& p = *product->node;
            // The product reads the scaled filter.
            RILL_ASSIGN_OR_RETURN(Node * w_node,
                                  AddConst(absl::StrCat(p.name(), "/scaled_filter_", created), w,
                                           p.assigned_device_name()));
            round.filters[p.id()] = {w_node->id(), std::move(w)};
          } else {
            for (int64_t c = 0; c < channels; ++c) bias[c] += (*v)[c];
            if (!AllFinite(bias)) {
              ++stats_->folds_skipped_non_finite;
              continue;
            }
          }
          Tensor bias_value(DT_FLOAT, TensorShape({channels}));
          std::copy(bias.begin(), bias.end(), bias_value.flat<float>().data());
          RILL_ASSIGN_OR_RETURN(
              Node * b_node, AddConst(absl::StrCat(n->name(), "/folded_bias_", created), bias_value,
                                      n->assigned_device_name()));
          ++created;
          // n becomes BiasAdd(product input, bias), keeping its name, device and control inputs;
          // it also waits for what a BiasAdd it replaces waited for (that BiasAdd had n as its
          // one reader).
          FoldedBiasAdd& f = round.folded[n->id()];
          f.input = product_input;
          f.bias = std::move(bias_value);
          f.bias_node = b_node->id();
          f.control_inputs = ControlInputIds(*n);
          if (bias_add) {
            for (int c : bias_add->control_inputs) f.control_inputs.push_back(c);
            round.absorbed[bias_add->node->id()] = n->id();
            touched.insert(bias_add->node->id());
          }
          touched.insert(n->id());
          if (product) touched.insert(product->node->id());
          rewritten.push_back(n);
          ++stats_->scale_shifts_folded;
          break;
        }
      }
      for (auto& [id, f] : round.folded) state.folded[id] = std::move(f);
      for (const auto& [id, by] : round.absorbed) state.absorbed[id] = by;
      for (auto& [id, filter] : round.filters) state.filters[id] = std::move(filter);
      // The next round: the readers of the new BiasAdds, in position order.
      absl::flat_hash_set<int> next;
      candidates.clear();
      for (const Node* n : rewritten) {
        for (const Edge* e : n->out_edges()) {
          if (e->dst()->IsOp() && next.insert(e->dst()->id()).second) {
            candidates.push_back(e->dst());
          }
        }
      }
      std::sort(candidates.begin(), candidates.end(),
                [this](const Node* a, const Node* b) { return Before(a, b); });
    }
    // The graph of the last state: taken-over BiasAdds go, folded Muls / Adds become BiasAdds,
    // scaled products read their last filter.
    for (const auto& [id, by] : state.absorbed) dead_.push_back(graph_->FindNodeById(id));
    for (const Node* n : NodesInOrder()) {
      if (auto it = state.folded.find(n->id());
          it != state.folded.end() && !state.absorbed.contains(n->id())) {
        Replacement& r = replacements_.emplace_back();
        r.old_id = n->id();
        r.def = n->def();
        MakeBiasAdd(&r.def);
        r.inputs = {it->second.input, {it->second.bias_node, 0}};
        r.control_inputs = it->second.control_inputs;
        r.shapes = n->output_shapes();
      } else if (auto f = state.filters.find(n->id()); f != state.filters.end()) {
        Replacement& r = replacements_.emplace_back();
        r.old_id = n->id();
        r.def = n->def();
        r.inputs = WithFilter(*n, f->second.first);
        r.control_inputs = ControlInputIds(*n);
        r.shapes = n->output_shapes();
      }
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // --- fusions ------------------------------------------------------------------------------

  // `producer`'s attrs that the fused op `fused_op` has (and internal `_` attrs).
  static void CopyFusableAttrs(const Node& producer, const std::string& fused_op, NodeDef* fused) {
    const OpRegistration* reg = OpRegistry::Global()->LookUp(fused_op);
    for (const auto& [name, value] : producer.def().attr()) {
      bool declared = absl::StartsWith(name, "_");
      for (int a = 0; !declared && reg != nullptr && a < reg->op_def.attr_size(); ++a) {
        declared = reg->op_def.attr(a).name() == name;
      }
      if (declared) (*fused->mutable_attr())[name] = value;
    }
  }

  absl::Status Fuse() {
    for (Node* bias_add : NodesInOrder()) {
      if (bias_add->op() != "BiasAdd") continue;
      std::string format = "NHWC";
      (void)GetNodeAttr(bias_add->def(), "data_format", &format);
      DataType type = DT_INVALID;
      (void)GetNodeAttr(bias_add->def(), "T", &type);
      if (format != "NHWC" || (type != DT_FLOAT && type != DT_DOUBLE)) continue;
      const Edge* x = bias_add->input_edge(0);
      Node* producer = x != nullptr && x->src_output() == 0 ? x->src() : nullptr;
      if (producer == nullptr || (producer->op() != "MatMul" && producer->op() != "Conv2D" &&
                                  producer->op() != "DepthwiseConv2dNative")) {
        continue;
      }
      if (SoleConsumer(*producer) != bias_add || !SameDevice(*producer, *bias_add)) continue;
      if (producer->op() != "MatMul") {
        std::string conv_format = "NHWC";
        (void)GetNodeAttr(producer->def(), "data_format", &conv_format);
        if (conv_format != "NHWC") continue;
      }
      // An activation that only reads this BiasAdd.
      Node* activation = nullptr;
      if (Node* a = SoleConsumer(*bias_add); a != nullptr) {
        if ((a->op() == "Relu" || a->op() == "Relu6") && a->num_inputs() >= 1 &&
            SameDevice(*a, *bias_add)) {
          activation = a;
        }
        // LeakyRelu: the CPU _FusedConv2D only (TensorFlow's remapper's form, its slope as
        // leakyrelu_alpha).
        if (a->op() == "LeakyRelu" && producer->op() == "Conv2D" && OnCpu(*producer) &&
            a->num_inputs() >= 1 && SameDevice(*a, *bias_add)) {
          activation = a;
        }
      }
      // The fused node takes the name (and so the consumers) of the last node it replaces.
      Node* last = activation != nullptr ? activation : bias_add;
      NodeDef fused;
      fused.set_name(last->name());
      fused.set_op(absl::StrCat("_Fused", producer->op()));
      fused.set_device(last->requested_device());
      CopyFusableAttrs(*producer, fused.op(), &fused);
      SetAttr(&fused, "T", type);
      SetAttr(&fused, "num_args", int64_t{1});
      std::vector<std::string> ops = {"BiasAdd"};
      if (activation != nullptr) ops.push_back(activation->op());
      SetAttr(&fused, "fused_ops", ops);
      if (activation != nullptr && activation->op() == "LeakyRelu") {
        float alpha = 0.2f;
        (void)GetNodeAttr(activation->def(), "alpha", &alpha);
        SetAttr(&fused, "leakyrelu_alpha", alpha);
      }
      if (!CanRun(*producer, fused)) continue;
      Replacement& r = replacements_.emplace_back();
      r.old_id = last->id();
      r.def = std::move(fused);
      r.inputs = {Source(*producer, 0), Source(*producer, 1), Source(*bias_add, 1)};
      r.control_inputs =
          ControlInputsOfAll({producer, bias_add, activation});  // of all the nodes it replaces
      r.shapes = last->output_shapes();
      dead_.push_back(producer);
      if (bias_add != last) dead_.push_back(bias_add);
      ++stats_->fusions;
    }
    return Commit();
  }

  // Whether data input `k` of `n` is a float scalar Const equal to `value`.
  static bool IsScalarConstInput(const Node& n, int k, float value) {
    std::optional<Tensor> c = ConstInput(n, k);
    return c && c->dtype() == DT_FLOAT && c->shape().rank() == 0 && c->flat<float>()[0] == value;
  }

  // The nodes of a gate x -> g(x) starting at `first` (a reader of x = `f`) whose last node is
  // read only by `mul`, with the fused_ops name of x * g(x), or an empty list:
  //   swish:      Sigmoid(x)                              -> "_MklSwish"
  //   hard swish: RealDiv(Relu6(Add[V2](x, 3)), 6)         -> "_FusedHardSwish"
  // (TensorFlow's names; Keras writes both this way). Every node reads only the one before it.
  static std::vector<Node*> ActivationGate(const Node* f, Node* first, const Node* mul,
                                           std::string* name) {
    auto only_reader_is = [](const Node* n, const Node* next) {
      return SoleConsumer(*n) == next && SameDevice(*n, *next);
    };
    if (first->op() == "Sigmoid" && only_reader_is(first, mul)) {
      *name = "_MklSwish";
      return {first};
    }
    if ((first->op() == "AddV2" || first->op() == "Add") && first->num_inputs() == 2) {
      const int x = first->input_edge(0) != nullptr && first->input_edge(0)->src() == f ? 0 : 1;
      if (!IsScalarConstInput(*first, 1 - x, 3.f)) return {};
      Node* relu6 = SoleConsumer(*first);
      if (relu6 == nullptr || relu6->op() != "Relu6" || !SameDevice(*first, *relu6)) return {};
      Node* div = SoleConsumer(*relu6);
      if (div == nullptr || div->op() != "RealDiv" || div->input_edge(0) == nullptr ||
          div->input_edge(0)->src() != relu6 || !IsScalarConstInput(*div, 1, 6.f) ||
          !SameDevice(*relu6, *div) || !only_reader_is(div, mul)) {
        return {};
      }
      *name = "_FusedHardSwish";
      return {first, relu6, div};
    }
    return {};
  }

  // Gated activations after a fused convolution: F = _FusedConv2D or _FusedDepthwiseConv2dNative
  // with fused_ops ["BiasAdd"] (float), read only by a gate g (ActivationGate: sigmoid, or hard
  // sigmoid) and by Mul(F, g(F)) (either order) -> one node with fused_ops ["BiasAdd", "_MklSwish"]
  // or ["BiasAdd", "_FusedHardSwish"] in the Mul's place and name. The kernels compute the
  // activation in their epilogue, in the unfused kernels' order of operations, or as oneDNN's
  // eltwise post-op, so it costs no pass over memory of its own.
  absl::Status FuseGatedActivations() {
    for (Node* f : NodesInOrder()) {
      if (f->op() != "_FusedConv2D" && f->op() != "_FusedDepthwiseConv2dNative") continue;
      std::vector<std::string> ops;
      DataType type = DT_INVALID;
      if (!GetNodeAttr(f->def(), "fused_ops", &ops).ok() ||
          ops != std::vector<std::string>{"BiasAdd"} || !GetNodeAttr(f->def(), "T", &type).ok() ||
          type != DT_FLOAT || !OnCpu(*f)) {
        continue;
      }
      std::vector<Node*> readers;
      bool plain = true;
      for (const Edge* e : f->out_edges()) {
        if (!e->dst()->IsOp()) continue;
        plain = plain && !e->IsControlEdge() && e->src_output() == 0 && SameDevice(*f, *e->dst());
        readers.push_back(e->dst());
      }
      if (!plain || readers.size() != 2) continue;
      std::string activation;
      std::vector<Node*> gate;
      Node* mul = nullptr;
      for (int m = 0; m < 2 && gate.empty(); ++m) {
        mul = readers[m];
        if (mul->op() != "Mul" || mul->num_inputs() != 2) continue;
        gate = ActivationGate(f, readers[1 - m], mul, &activation);
      }
      if (gate.empty()) continue;
      const Edge* a = mul->input_edge(0);
      const Edge* b = mul->input_edge(1);
      if (a == nullptr || b == nullptr || a->src_output() != 0 || b->src_output() != 0 ||
          !((a->src() == f && b->src() == gate.back()) ||
            (a->src() == gate.back() && b->src() == f))) {
        continue;
      }
      Replacement& r = replacements_.emplace_back();
      r.old_id = mul->id();
      r.def = f->def();
      r.def.set_name(mul->name());
      r.def.set_device(mul->requested_device());
      SetAttr(&r.def, "fused_ops", std::vector<std::string>{"BiasAdd", activation});
      for (int k = 0; k < f->num_inputs(); ++k) r.inputs.push_back(Source(*f, k));
      std::vector<const Node*> replaced = {f, mul};
      replaced.insert(replaced.end(), gate.begin(), gate.end());
      r.control_inputs = ControlInputsOfAll(replaced);  // of all the nodes it replaces
      r.shapes = mul->output_shapes();
      dead_.push_back(f);
      for (Node* g : gate) dead_.push_back(g);
      ++stats_->fusions;
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // --- residual sums -------------------------------------------------------------------------

  // A residual sum after a convolution, as TensorFlow's remapper fuses it for oneDNN: F =
  // _FusedConv2D with fused_ops ["BiasAdd"] (float, on a CPU) read only by A = Add / AddV2(F, r)
  // (either order; r any other float tensor on A's device), optionally followed by a Relu / Relu6
  // that alone reads A -> _FusedConv2D(input, filter, bias, r) with fused_ops ["BiasAdd", "Add"
  // [, "Relu" | "Relu6"]] and num_args 2, in the last node's place and name. The kernel sums the
  // convolution into a copy of r (oneDNN's sum post-op, no pass of its own) in the unfused
  // nodes' order of operations, and broadcasts an r of another shape as AddV2 does (shapes are
  // often unknown here: a feed's shape is not). Where both operands qualify, input 0 is fused.
  absl::Status FuseResidualAdds() {
    auto float_op = [](const Node& n) {
      DataType type = DT_INVALID;
      return GetNodeAttr(n.def(), "T", &type).ok() && type == DT_FLOAT;
    };
    for (Node* add : NodesInOrder()) {
      if ((add->op() != "AddV2" && add->op() != "Add") || add->num_inputs() != 2 ||
          !float_op(*add) || !OnCpu(*add)) {
        continue;
      }
      const Edge* in[2] = {add->input_edge(0), add->input_edge(1)};
      if (in[0] == nullptr || in[1] == nullptr) continue;
      Node* f = nullptr;
      int other = -1;
      for (int k = 0; k < 2 && f == nullptr; ++k) {
        Node* c = in[k]->src();
        std::vector<std::string> ops;
        if (c->op() == "_FusedConv2D" && in[k]->src_output() == 0 && SoleConsumer(*c) == add &&
            in[1 - k]->src() != c && SameDevice(*c, *add) && float_op(*c) &&
            GetNodeAttr(c->def(), "fused_ops", &ops).ok() &&
            ops == std::vector<std::string>{"BiasAdd"}) {
          f = c;
          other = 1 - k;
        }
      }
      if (f == nullptr) continue;
      Node* activation = SoleConsumer(*add);
      if (activation == nullptr || (activation->op() != "Relu" && activation->op() != "Relu6") ||
          !SameDevice(*activation, *add) || !float_op(*activation)) {
        activation = nullptr;
      }
      Node* last = activation != nullptr ? activation : add;
      std::vector<std::string> ops = {"BiasAdd", "Add"};
      if (activation != nullptr) ops.push_back(activation->op());
      Replacement& r = replacements_.emplace_back();
      r.old_id = last->id();
      r.def = f->def();
      r.def.set_name(last->name());
      r.def.set_device(last->requested_device());
      SetAttr(&r.def, "fused_ops", ops);
      SetAttr(&r.def, "num_args", int64_t{2});
      for (int k = 0; k < f->num_inputs(); ++k) r.inputs.push_back(Source(*f, k));
      r.inputs.push_back(Source(*add, other));
      r.control_inputs = ControlInputsOfAll({f, add, activation});  // of all the nodes it replaces
      r.shapes = last->output_shapes();
      dead_.push_back(f);
      if (add != last) dead_.push_back(add);
      ++stats_->residual_adds_fused;
    }
    return Commit();
  }

  // --- scale and shift ----------------------------------------------------------------------

  // An inference batch norm that no product precedes (ResNet v2's and DenseNet's pre-activation
  // batch norms), as Keras and tf.nn.batch_normalization leave it once constants are folded:
  // m = Mul(x, S) -> a = Add / AddV2(m, B) [-> Relu | Relu6], operands in either order, S and B
  // float Consts with only their last dim above 1 (ChannelConst), float on a CPU, m read only by
  // a and a only by the activation taken -> _RillScaleShift(x, S, B, activation) in the last
  // node's place and name (kernels/nn/scale_shift_op.cc: the unfused nodes' operations in their
  // order, bit for bit, in one pass). Runs after the folds into products, so what remains has no
  // product before it.
  absl::Status FuseScaleShifts() {
    auto float_op = [](const Node& n) {
      DataType type = DT_INVALID;
      return GetNodeAttr(n.def(), "T", &type).ok() && type == DT_FLOAT;
    };
    for (Node* mul : NodesInOrder()) {
      if (mul->op() != "Mul" || mul->num_inputs() != 2 || !float_op(*mul) || !OnCpu(*mul)) {
        continue;
      }
      const int sk = ChannelConst(*mul, 1) ? 1 : (ChannelConst(*mul, 0) ? 0 : -1);
      if (sk < 0 || mul->input_edge(1 - sk) == nullptr || ConstInput(*mul, 1 - sk)) continue;
      Node* add = SoleConsumer(*mul);
      if (add == nullptr || (add->op() != "AddV2" && add->op() != "Add") ||
          add->num_inputs() != 2 || !SameDevice(*mul, *add) || !float_op(*add)) {
        continue;
      }
      const Edge* a0 = add->input_edge(0);
      const Edge* a1 = add->input_edge(1);
      if (a0 == nullptr || a1 == nullptr) continue;
      const int mk = a0->src() == mul ? 0 : 1;
      if (add->input_edge(mk)->src() != mul || add->input_edge(mk)->src_output() != 0 ||
          !ChannelConst(*add, 1 - mk)) {
        continue;
      }
      Node* activation = SoleConsumer(*add);
      if (activation == nullptr || (activation->op() != "Relu" && activation->op() != "Relu6") ||
          !SameDevice(*activation, *add) || !float_op(*activation)) {
        activation = nullptr;
      }
      Node* last = activation != nullptr ? activation : add;
      Replacement& r = replacements_.emplace_back();
      r.old_id = last->id();
      r.def.set_name(last->name());
      r.def.set_op("_RillScaleShift");
      r.def.set_device(last->requested_device());
      SetAttr(&r.def, "T", DT_FLOAT);
      SetAttr(&r.def, "activation", activation != nullptr ? activation->op() : "Identity");
      if (!CanRun(*last, r.def)) {
        replacements_.pop_back();
        continue;
      }
      r.inputs = {Source(*mul, 1 - sk), Source(*mul, sk), Source(*add, 1 - mk)};
      r.control_inputs =
          ControlInputsOfAll({mul, add, activation});  // of all the nodes it replaces
      r.shapes = last->output_shapes();
      dead_.push_back(mul);
      if (add != last) dead_.push_back(add);
      ++stats_->scale_shifts_fused;
    }
    return Commit();
  }

  // --- layer normalization ------------------------------------------------------------------

  // The node at data input `k` of `n` when it reads that node's output 0, else nullptr.
  static Node* InputNode(const Node& n, int k) {
    const Edge* e = n.input_edge(k);
    return e != nullptr && e->src_output() == 0 ? e->src() : nullptr;
  }

  // Whether data inputs `k` of `a` and `j` of `b` read the same tensor.
  static bool SameInput(const Node& a, int k, const Node& b, int j) {
    const Edge* x = a.input_edge(k);
    const Edge* y = b.input_edge(j);
    return x != nullptr && y != nullptr && x->src() == y->src() &&
           x->src_output() == y->src_output();
  }

  // Whether every consumer of `n` is a data edge from output 0 to a node in `readers`, each of
  // them once, on `n`'s device.
  static bool ReadOnlyBy(const Node& n, std::initializer_list<const Node*> readers) {
    size_t count = 0;
    for (const Edge* e : n.out_edges()) {
      if (!e->dst()->IsOp()) continue;
      if (e->IsControlEdge() || e->src_output() != 0 || !SameDevice(n, *e->dst()) ||
          absl::c_find(readers, e->dst()) == readers.end()) {
        return false;
      }
      ++count;
    }
    return count == readers.size();
  }

  static bool FloatNode(const Node& n) {
    DataType type = DT_INVALID;
    return GetNodeAttr(n.def(), "T", &type).ok() && type == DT_FLOAT;
  }

  // A Mean over the last axis of its float input with keep_dims: the axis a Const -1 (or the
  // input's last axis where its rank is known).
  static bool MeanOverLastAxis(const Node& n) {
    bool keep_dims = false;
    if (n.op() != "Mean" || !FloatNode(n) || !GetNodeAttr(n.def(), "keep_dims", &keep_dims).ok() ||
        !keep_dims || n.input_edge(0) == nullptr) {
      return false;
    }
    std::optional<Tensor> axes = ConstInput(n, 1);
    if (!axes || axes->NumElements() != 1 || axes->shape().rank() > 1) return false;
    int64_t axis = 0;
    if (axes->dtype() == DT_INT32) {
      axis = axes->flat<int32_t>()[0];
    } else if (axes->dtype() == DT_INT64) {
      axis = axes->flat<int64_t>()[0];
    } else {
      return false;
    }
    if (axis == -1) return true;
    const Edge* in = n.input_edge(0);
    const std::vector<PartialTensorShape>& shapes = in->src()->output_shapes();
    return in->src_output() < static_cast<int>(shapes.size()) &&
           shapes[in->src_output()].rank() >= 1 && axis == shapes[in->src_output()].rank() - 1;
  }

  // The float Const at input k of `n` when it has only its last dim above 1 (a scalar, [C] or
  // [1, ..., 1, C]): what the fused kernel takes as scale or offset.
  static std::optional<Tensor> ChannelConst(const Node& n, int k) {
    std::optional<Tensor> t = ConstInput(n, k);
    if (!t || t->dtype() != DT_FLOAT) return std::nullopt;
    for (int d = 0; d + 1 < t->shape().rank(); ++d) {
      if (t->shape().dim(d) != 1) return std::nullopt;
    }
    return t;
  }

  // Layer normalization over the last axis as Keras's LayerNormalization writes it, and as
  // tf.nn.moments + tf.nn.batch_normalization write it, once identities are removed and
  // constants folded, over a float x on a CPU:
  //   m = Mean(x, -1, keep_dims)        v = Mean(SquaredDifference(x, m), -1, keep_dims)
  //   inv = Rsqrt(v + eps) [* gamma]
  //   shift = (-m) * inv [+ beta]   or   beta - m * inv   or   -(m * inv)
  //   y = x * inv + shift
  // (operands of Mul, Add, AddV2 and SquaredDifference in either order), eps a float scalar Const,
  // gamma and beta float Consts with only their last dim above 1 -> y = _MklLayerNorm(x, gamma,
  // beta, epsilon = eps), which computes the same operations in the same order
  // (kernels/nn/layer_norm_op.cc: bit for bit the unfused results). Every node from m to y is
  // read only inside the pattern and on y's device; a missing gamma or beta becomes a scalar
  // Const 1 or -0 ("<y>/scale", "<y>/offset"; adding -0 leaves every value as it is, -0 too).
  absl::Status FuseLayerNorms() {
    auto is_add = [](const Node* n) {
      return n != nullptr && (n->op() == "AddV2" || n->op() == "Add") && n->num_inputs() == 2;
    };
    auto is_op = [](const Node* n, const char* op) {
      return n != nullptr && n->op() == op && n->num_inputs() >= 1;
    };
    for (Node* rsqrt : NodesInOrder()) {
      if (rsqrt->op() != "Rsqrt" || !FloatNode(*rsqrt) || !OnCpu(*rsqrt)) continue;
      // v + eps
      Node* add_eps = InputNode(*rsqrt, 0);
      if (!is_add(add_eps) || !FloatNode(*add_eps)) continue;
      std::optional<Tensor> eps;
      Node* var = nullptr;
      for (int k = 0; k < 2 && var == nullptr; ++k) {
        eps = ConstInput(*add_eps, 1 - k);
        if (eps && eps->dtype() == DT_FLOAT && eps->shape().rank() == 0)
          var = InputNode(*add_eps, k);
      }
      if (var == nullptr || !MeanOverLastAxis(*var)) continue;
      Node* sd = InputNode(*var, 0);
      if (!is_op(sd, "SquaredDifference") || sd->num_inputs() != 2 || !FloatNode(*sd)) continue;
      Node* mean = nullptr;
      int x_of_sd = -1;
      for (int k = 0; k < 2 && mean == nullptr; ++k) {
        Node* m = InputNode(*sd, k);
        if (m != nullptr && MeanOverLastAxis(*m) && SameInput(*m, 0, *sd, 1 - k)) {
          mean = m;
          x_of_sd = 1 - k;
        }
      }
      if (mean == nullptr) continue;
      // inv = rsqrt [* gamma]
      Node* inv = rsqrt;
      Node* gamma_mul = nullptr;
      std::optional<Tensor> gamma;
      if (Node* g = SoleConsumer(*rsqrt); is_op(g, "Mul") && g->num_inputs() == 2) {
        const int other = InputNode(*g, 0) == rsqrt ? 1 : 0;
        gamma = ChannelConst(*g, other);
        if (gamma && InputNode(*g, 1 - other) == rsqrt) {
          gamma_mul = g;
          inv = g;
        } else {
          gamma.reset();
        }
      }
      // inv's two readers: x * inv, and m * inv or Neg(m) * inv.
      std::vector<Node*> inv_readers;
      for (const Edge* e : inv->out_edges()) {
        if (e->dst()->IsOp()) inv_readers.push_back(e->dst());
      }
      if (inv_readers.size() != 2) continue;
      Node* scaled_x = nullptr;
      Node* scaled_mean = nullptr;
      Node* neg = nullptr;
      for (int i = 0; i < 2; ++i) {
        Node* p = inv_readers[i];
        if (!is_op(p, "Mul") || p->num_inputs() != 2) continue;
        const int other = InputNode(*p, 0) == inv ? 1 : 0;
        if (InputNode(*p, 1 - other) != inv) continue;
        if (SameInput(*p, other, *sd, x_of_sd)) {
          scaled_x = p;
        } else if (InputNode(*p, other) == mean) {
          scaled_mean = p;
        } else if (Node* n = InputNode(*p, other); is_op(n, "Neg") && InputNode(*n, 0) == mean) {
          scaled_mean = p;
          neg = n;
        }
      }
      if (scaled_x == nullptr || scaled_mean == nullptr) continue;
      // shift: scaled_mean [+ beta] after a Neg of m; beta - scaled_mean or -scaled_mean without.
      Node* shift = scaled_mean;
      Node* shift_op = nullptr;
      std::optional<Tensor> beta;
      Node* after = SoleConsumer(*scaled_mean);
      if (after == nullptr) continue;
      if (neg != nullptr) {
        // An Add of a Const is beta's; any other reader is y itself (no beta).
        if (is_add(after)) {
          const int other = InputNode(*after, 0) == scaled_mean ? 1 : 0;
          beta = ChannelConst(*after, other);
          if (beta && InputNode(*after, 1 - other) == scaled_mean) {
            shift_op = after;
          } else {
            beta.reset();
          }
        }
      } else if (after->op() == "Sub" && after->num_inputs() == 2 &&
                 InputNode(*after, 1) == scaled_mean) {
        beta = ChannelConst(*after, 0);
        if (!beta) continue;
        shift_op = after;
      } else if (is_op(after, "Neg")) {
        shift_op = after;
      } else {
        continue;
      }
      if (shift_op != nullptr) shift = shift_op;
      Node* y = SoleConsumer(*shift);
      if (!is_add(y) || SoleConsumer(*scaled_x) != y ||
          !((InputNode(*y, 0) == scaled_x && InputNode(*y, 1) == shift) ||
            (InputNode(*y, 0) == shift && InputNode(*y, 1) == scaled_x))) {
        continue;
      }
      // Each node read only inside the pattern, all float on one CPU device.
      std::vector<Node*> nodes = {mean, sd, var, add_eps, rsqrt, scaled_x, scaled_mean, y};
      for (Node* n : {gamma_mul, neg, shift_op}) {
        if (n != nullptr) nodes.push_back(n);
      }
      bool ok = ReadOnlyBy(*mean, {sd, neg != nullptr ? neg : scaled_mean}) &&
                ReadOnlyBy(*sd, {var}) && ReadOnlyBy(*var, {add_eps}) &&
                ReadOnlyBy(*add_eps, {rsqrt}) && ReadOnlyBy(*inv, {scaled_x, scaled_mean}) &&
                (gamma_mul == nullptr || ReadOnlyBy(*rsqrt, {gamma_mul})) &&
                (neg == nullptr || ReadOnlyBy(*neg, {scaled_mean})) && ReadOnlyBy(*scaled_x, {y}) &&
                (shift_op == nullptr || ReadOnlyBy(*scaled_mean, {shift_op}));
      for (const Node* n : nodes) ok = ok && FloatNode(*n) && SameDevice(*n, *y);
      if (!ok) continue;
      auto param = [&](const std::optional<Tensor>& value, float fill, const char* suffix,
                       const Node& reader, int k) -> absl::StatusOr<std::pair<int, int>> {
        if (value) return Source(reader, k);
        RILL_ASSIGN_OR_RETURN(
            Node * c, AddConst(absl::StrCat(y->name(), "/", suffix), Tensor::Scalar<float>(fill),
                               y->assigned_device_name()));
        return std::make_pair(c->id(), 0);
      };
      auto slot = [](const Node* n, const Node* not_this) {
        return n == nullptr ? 0 : (InputNode(*n, 0) == not_this ? 1 : 0);
      };
      RILL_ASSIGN_OR_RETURN(const auto scale_in,
                            param(gamma, 1.f, "scale", gamma_mul != nullptr ? *gamma_mul : *y,
                                  slot(gamma_mul, rsqrt)));
      const int beta_slot =
          shift_op != nullptr && shift_op->op() == "Sub" ? 0 : slot(shift_op, scaled_mean);
      RILL_ASSIGN_OR_RETURN(
          const auto offset_in,
          param(beta, -0.f, "offset", shift_op != nullptr ? *shift_op : *y, beta_slot));
      Replacement& r = replacements_.emplace_back();
      r.old_id = y->id();
      r.def.set_name(y->name());
      r.def.set_op("_MklLayerNorm");
      r.def.set_device(y->requested_device());
      SetAttr(&r.def, "T", DT_FLOAT);
      SetAttr(&r.def, "epsilon", eps->flat<float>()[0]);
      r.inputs = {Source(*sd, x_of_sd), scale_in, offset_in};
      r.control_inputs = ControlInputsOfAll(nodes);  // of all the nodes it replaces
      r.shapes = y->output_shapes();
      for (Node* n : nodes) {
        if (n != y) dead_.push_back(n);
      }
      ++stats_->layer_norms_fused;
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // --- GELU ---------------------------------------------------------------------------------

  // The data input of binary `n` other than a float scalar Const equal to `value`: its index, or
  // -1 when neither input is that Const.
  static int OtherThanScalar(const Node& n, float value) {
    if (n.num_inputs() != 2) return -1;
    for (int k = 0; k < 2; ++k) {
      if (IsScalarConstInput(n, k, value)) return 1 - k;
    }
    return -1;
  }

  // The gate g(x) of GELU's (0.5 * x) * g(x), x being data input `xk` of `half`, starting at
  // `gate`: its nodes (each read only by the one after it; `gate` read only by its Mul) appended
  // to `nodes` and its form named, or false.
  //   "erf":  AddV2(1, Erf(Mul(x, 0.70710677)))
  //   "erfc": Erfc(Mul(Neg(x), 0.70710677))
  //   "tanh": AddV2(1, Tanh(Mul(0.7978846, AddV2(x, Mul(0.044715, Pow(x, 3))))))
  // (operands of Mul and AddV2 / Add in either order; TensorFlow's float constants).
  static bool GeluGate(const Node& half, int xk, Node* gate, std::vector<Node*>* nodes,
                       std::string* form) {
    auto is_x = [&](const Node& n, int k) { return k >= 0 && SameInput(n, k, half, xk); };
    auto chain = [](std::initializer_list<std::pair<Node*, const char*>> links) {
      for (const auto& [n, op] : links) {
        if (n == nullptr || n->op() != op || !FloatNode(*n)) return false;
      }
      return true;
    };
    auto is_add = [](const Node* n) {
      return n != nullptr && (n->op() == "AddV2" || n->op() == "Add") && FloatNode(*n);
    };
    std::vector<Node*> found;
    if (gate->op() == "Erfc") {
      Node* m = InputNode(*gate, 0);
      if (!chain({{m, "Mul"}})) return false;
      const int k = OtherThanScalar(*m, 0.70710677f);
      Node* neg = k < 0 ? nullptr : InputNode(*m, k);
      if (!chain({{neg, "Neg"}}) || !is_x(*neg, 0)) return false;
      found = {gate, m, neg};
      *form = "erfc";
    } else if (is_add(gate)) {
      const int k1 = OtherThanScalar(*gate, 1.f);
      Node* t = k1 < 0 ? nullptr : InputNode(*gate, k1);
      if (t == nullptr || !FloatNode(*t)) return false;
      if (t->op() == "Erf") {
        Node* m = InputNode(*t, 0);
        if (!chain({{m, "Mul"}}) || !is_x(*m, OtherThanScalar(*m, 0.70710677f))) return false;
        found = {gate, t, m};
        *form = "erf";
      } else if (t->op() == "Tanh") {
        Node* m2 = InputNode(*t, 0);
        if (!chain({{m2, "Mul"}})) return false;
        const int k2 = OtherThanScalar(*m2, 0.7978846f);
        Node* add = k2 < 0 ? nullptr : InputNode(*m2, k2);
        if (!is_add(add) || add->num_inputs() != 2) return false;
        const int xa = is_x(*add, 0) ? 0 : (is_x(*add, 1) ? 1 : -1);
        Node* m1 = xa < 0 ? nullptr : InputNode(*add, 1 - xa);
        if (!chain({{m1, "Mul"}})) return false;
        const int k3 = OtherThanScalar(*m1, 0.044715f);
        Node* pow = k3 < 0 ? nullptr : InputNode(*m1, k3);
        if (!chain({{pow, "Pow"}}) || pow->num_inputs() != 2 || !is_x(*pow, 0) ||
            !IsScalarConstInput(*pow, 1, 3.f)) {
          return false;
        }
        found = {gate, t, m2, add, m1, pow};
        *form = "tanh";
      } else {
        return false;
      }
    } else {
      return false;
    }
    // Each read only by the node before it in `found` (the gate by the final Mul, checked by
    // the caller).
    for (size_t i = 1; i < found.size(); ++i) {
      if (SoleConsumer(*found[i]) != found[i - 1] || !SameDevice(*found[i], *found[i - 1])) {
        return false;
      }
    }
    nodes->insert(nodes->end(), found.begin(), found.end());
    return true;
  }

  // GELU as tf.nn.gelu, Keras's gelu (exact, Erfc; approximate, Tanh and Pow) and an exact GELU
  // written with Erf write it: y = Mul(Mul(0.5, x), g(x)) (GeluGate), float on a CPU, every node
  // but y read only inside the pattern -> y = _RillGelu(x, form) (kernels/nn/gelu_op.cc: the
  // same operations in the same order, bit for bit the unfused results, in one pass).
  absl::Status FuseGelus() {
    for (Node* y : NodesInOrder()) {
      if (y->op() != "Mul" || y->num_inputs() != 2 || !FloatNode(*y) || !OnCpu(*y)) continue;
      for (int h = 0; h < 2; ++h) {
        Node* half = InputNode(*y, h);
        Node* gate = InputNode(*y, 1 - h);
        if (half == nullptr || gate == nullptr || half->op() != "Mul" || !FloatNode(*half)) {
          continue;
        }
        const int xk = OtherThanScalar(*half, 0.5f);
        if (xk < 0 || SoleConsumer(*half) != y || SoleConsumer(*gate) != y ||
            !SameDevice(*half, *y) || !SameDevice(*gate, *y)) {
          continue;
        }
        std::vector<Node*> nodes = {half};
        std::string form;
        if (!GeluGate(*half, xk, gate, &nodes, &form)) continue;
        Replacement& r = replacements_.emplace_back();
        r.old_id = y->id();
        r.def.set_name(y->name());
        r.def.set_op("_RillGelu");
        r.def.set_device(y->requested_device());
        SetAttr(&r.def, "T", DT_FLOAT);
        SetAttr(&r.def, "form", form);
        r.inputs = {Source(*half, xk)};
        nodes.push_back(y);
        r.control_inputs = ControlInputsOfAll(nodes);  // of all the nodes it replaces
        r.shapes = y->output_shapes();
        nodes.pop_back();
        for (Node* n : nodes) dead_.push_back(n);
        ++stats_->gelus_fused;
        break;
      }
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // --- atrous convolutions ------------------------------------------------------------------

  // SpaceToBatchND -> Conv2D / DepthwiseConv2dNative -> BatchToSpaceND (an atrous convolution as
  // TensorFlow writes it) becomes one dilated convolution of SpaceToBatchND's input with explicit
  // padding (session/atrous_fold.h), under the convolution's name, read by BatchToSpaceND's
  // readers; the batch norm fold and the fusions then apply to it. Only for a float NHWC
  // convolution with padding VALID, strides and dilations 1 and a finite float Const filter
  // (padded zeros times an infinite weight are NaN in the unfolded graph), Const block shapes,
  // paddings and crops, the three nodes on one CPU device without control edges, and each
  // intermediate tensor read by the next node alone.
  absl::Status FoldAtrousConvolutions() {
    for (Node* conv : NodesInOrder()) {
      if ((conv->op() != "Conv2D" && conv->op() != "DepthwiseConv2dNative") || !OnCpu(*conv) ||
          HasControlInputs(*conv)) {
        continue;
      }
      const Edge* in = conv->input_edge(0);
      Node* b2s = SoleConsumer(*conv);
      if (in == nullptr || in->src_output() != 0 || b2s == nullptr ||
          b2s->op() != "BatchToSpaceND" || b2s->input_edge(0) == nullptr ||
          b2s->input_edge(0)->src() != conv || b2s->input_edge(0)->src_output() != 0) {
        continue;
      }
      Node* s2b = in->src();
      if (s2b->op() != "SpaceToBatchND" || SoleConsumer(*s2b) != conv || HasControlInputs(*s2b) ||
          HasControlInputs(*b2s) || HasControlConsumers(*b2s) || !SameDevice(*s2b, *conv) ||
          !SameDevice(*b2s, *conv) || s2b->input_edge(0) == nullptr) {
        continue;
      }
      DataType type = DT_INVALID;
      std::string format = "NHWC", padding;
      std::vector<int64_t> strides, dilations = {1, 1, 1, 1}, explicit_paddings;
      (void)GetNodeAttr(conv->def(), "data_format", &format);
      (void)GetNodeAttr(conv->def(), "dilations", &dilations);
      (void)GetNodeAttr(conv->def(), "explicit_paddings", &explicit_paddings);
      const std::vector<int64_t> ones = {1, 1, 1, 1};
      if (!GetNodeAttr(conv->def(), "T", &type).ok() || type != DT_FLOAT || format != "NHWC" ||
          !GetNodeAttr(conv->def(), "padding", &padding).ok() || padding != "VALID" ||
          !GetNodeAttr(conv->def(), "strides", &strides).ok() || strides != ones ||
          dilations != ones || !explicit_paddings.empty()) {
        continue;
      }
      std::optional<Tensor> filter = ConstInput(*conv, 1);
      if (!filter || filter->dtype() != DT_FLOAT || filter->shape().rank() != 4 ||
          !AllFinite(*filter)) {
        continue;
      }
      std::optional<Tensor> block = ConstInput(*s2b, 1), paddings = ConstInput(*s2b, 2),
                            crops_block = ConstInput(*b2s, 1), crops = ConstInput(*b2s, 2);
      if (!block || !paddings || !crops_block || !crops) continue;
      std::optional<AtrousFold> fold = FoldAtrous(*block, *paddings, *crops_block, *crops);
      if (!fold) continue;
      Replacement& r = replacements_.emplace_back();
      r.old_id = conv->id();
      r.def = conv->def();
      SetAttr(&r.def, "dilations", fold->dilations);
      SetAttr(&r.def, "padding", "EXPLICIT");
      SetAttr(&r.def, "explicit_paddings", fold->explicit_paddings);
      SetAttr(&r.def, kSpaceToBatchBlockAttr, fold->block);
      SetAttr(&r.def, kSpaceToBatchPaddingsAttr, fold->paddings);
      SetAttr(&r.def, kBatchToSpaceCropsAttr, fold->crops);
      SetAttr(&r.def, kErrorNodesAttr,
              std::vector<std::string>{s2b->name(), conv->name(), b2s->name()});
      r.inputs = {Source(*s2b, 0), Source(*conv, 1)};
      r.shapes = b2s->output_shapes();
      for (const Edge* e : b2s->out_edges()) {
        if (e->dst()->IsOp()) edges_.push_back({conv->id(), 0, e->dst()->id(), e->dst_input()});
      }
      dead_.push_back(s2b);
      dead_.push_back(b2s);
      ++stats_->atrous_convolutions_folded;
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // --- zero Pad before a convolution ---------------------------------------------------------

  // A float NHWC Conv2D, DepthwiseConv2dNative or their _Fused forms on a CPU, with padding VALID
  // or EXPLICIT and a finite float Const filter, reading a Pad / PadV2 (constant 0) of its own
  // device without control inputs, whose paddings are a Const that pads height and width only,
  // reads the Pad's input instead, with the amounts added to its explicit padding
  // (session/pad_fold.h; Keras's ZeroPadding2D before a strided convolution). A Pad nothing else
  // reads goes. Convolutions whose filter is not finite keep the Pad: a padded zero times an
  // infinite weight is NaN, which the folded convolution, skipping padded taps, would not give.
  absl::Status FoldPadsIntoConvolutions() {
    static const auto* kConvs = new absl::flat_hash_set<std::string>{
        "Conv2D", "_FusedConv2D", "DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative"};
    absl::flat_hash_map<int, int> folded_readers;  // Pad id -> convolutions folded over it
    std::vector<Node*> pads;
    for (Node* conv : NodesInOrder()) {
      // A folded atrous convolution checks its own input's size against SpaceToBatchND's block:
      // it keeps reading the Pad.
      if (!kConvs->contains(conv->op()) || !OnCpu(*conv) ||
          conv->def().attr().count(kSpaceToBatchBlockAttr) > 0) {
        continue;
      }
      DataType type = DT_INVALID;
      std::string format = "NHWC", padding;
      std::vector<int64_t> explicit_paddings;
      (void)GetNodeAttr(conv->def(), "data_format", &format);
      (void)GetNodeAttr(conv->def(), "explicit_paddings", &explicit_paddings);
      if (!GetNodeAttr(conv->def(), "T", &type).ok() || type != DT_FLOAT || format != "NHWC" ||
          !GetNodeAttr(conv->def(), "padding", &padding).ok()) {
        continue;
      }
      const Edge* in = conv->input_edge(0);
      if (in == nullptr || in->src_output() != 0) continue;
      Node* pad = in->src();
      if ((pad->op() != "Pad" && pad->op() != "PadV2") || !SameDevice(*pad, *conv) ||
          HasControlInputs(*pad) || pad->input_edge(0) == nullptr) {
        continue;
      }
      DataType pad_type = DT_INVALID;
      if (!GetNodeAttr(pad->def(), "T", &pad_type).ok() || pad_type != DT_FLOAT ||
          !PadsWithZeros(pad->op(), pad->op() == "PadV2" ? ConstInput(*pad, 2) : std::nullopt)) {
        continue;
      }
      std::optional<Tensor> paddings = ConstInput(*pad, 1);
      std::optional<Tensor> filter = ConstInput(*conv, 1);
      if (!paddings || !filter || filter->dtype() != DT_FLOAT || !AllFinite(*filter)) continue;
      std::optional<std::vector<int64_t>> folded =
          FoldedExplicitPaddings(*paddings, padding, explicit_paddings);
      if (!folded) continue;
      Replacement& r = replacements_.emplace_back();
      r.old_id = conv->id();
      r.def = conv->def();
      SetAttr(&r.def, "padding", "EXPLICIT");
      SetAttr(&r.def, "explicit_paddings", *folded);
      r.inputs.push_back(Source(*pad, 0));
      for (int k = 1; k < conv->num_inputs(); ++k) r.inputs.push_back(Source(*conv, k));
      r.control_inputs = ControlInputIds(*conv);
      r.shapes = conv->output_shapes();
      if (folded_readers[pad->id()]++ == 0) pads.push_back(pad);
      ++stats_->pads_folded;
    }
    for (Node* pad : pads) {
      int readers = 0;
      for (const Edge* e : pad->out_edges()) readers += e->dst()->IsOp() ? 1 : 0;
      if (readers == folded_readers[pad->id()]) dead_.push_back(pad);
    }
    RILL_RETURN_IF_ERROR(Commit());
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // MatMuls, BatchMatMulV2 / V3, convolutions (plain and fused) and Conv2DBackpropInput on the
  // CPU whose weights (input 1) are a Const's tensor get `_rill_constant_weights`: their kernel may
  // then keep a packed copy of the weights (kernels/math_lib/onednn_common.h). The Const may be
  // reached through Identity and Enter nodes, which pass its buffer on unchanged (a recurrent
  // layer's weights enter its while loop that way). Nothing else can write a Const's tensor
  // (in-place kernels never take a buffer a Const kernel still holds).
  void MarkConstantWeights() {
    static const auto* kOps = new absl::flat_hash_set<std::string>{
        "MatMul",        "_FusedMatMul",          "Conv2D",
        "_FusedConv2D",  "DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative",
        "BatchMatMulV2", "BatchMatMulV3",         "Conv2DBackpropInput"};
    AttrValue yes;
    yes.set_b(true);
    for (Node* n : graph_->op_nodes()) {
      if (!kOps->contains(n->op())) continue;
      const Edge* w = n->input_edge(1);
      // Bounded walk: a chain of forwarding nodes longer than this is not worth following.
      for (int hops = 0; w != nullptr && w->src_output() == 0 && hops < 16; ++hops) {
        const OpClass c = w->src()->op_class();
        if (!IsIdentity(c) && !IsEnter(c)) break;
        w = w->src()->input_edge(0);
      }
      if (w == nullptr || w->src_output() != 0) continue;
      if (IsConstant(w->src()->op_class()) && SameDevice(*w->src(), *n)) {
        n->AddAttr("_rill_constant_weights", yes);
        ++stats_->constant_weights_marked;
      }
    }
  }

  const GraphOptimizerOptions& options_;
  Graph* graph_;
  GraphOptimizerStats* stats_;
  std::vector<int64_t> position_;  // by node id
  int64_t next_position_ = 0;
  absl::flat_hash_map<std::string, bool> on_cpu_;  // device name -> OnCpu
  // The rewrites the current pass has recorded (see Commit()).
  std::vector<Node*> dead_;
  std::vector<Replacement> replacements_;
  std::vector<PendingEdge> edges_;
};

}  // namespace

GraphOptimizerOptions GraphOptimizerOptions::FromConfig(const ConfigProto& config) {
  const OptimizerOptions& o = config.graph_options().optimizer_options();
  GraphOptimizerOptions out;
  const bool on = o.opt_level() != OptimizerOptions::L0;
  out.remove_identities = on;
  out.loop_invariants = on;
  out.fusion = on;
  out.constant_folding = on || o.do_constant_folding();
  out.common_subexpression_elimination = on || o.do_common_subexpression_elimination();
  if (o.max_folded_constant_in_bytes() > 0) {
    out.max_folded_bytes = o.max_folded_constant_in_bytes();
  }
  return out;
}

absl::Status OptimizeGraph(const GraphOptimizerOptions& options, Graph* graph,
                           GraphOptimizerStats* stats) {
  GraphOptimizerStats local;
  return Optimizer(options, graph, stats != nullptr ? stats : &local).Run();
}

}  // namespace rill
