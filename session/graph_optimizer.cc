#include "session/graph_optimizer.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "graph/graph.h"
#include "graph/graph_def_import.h"
#include "kernels/kernel_registry.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

bool IsControlFlow(const std::string& op) {
  static const auto* ops = new absl::flat_hash_set<std::string>{
      "Switch", "RefSwitch", "Merge",         "RefMerge",         "Enter",    "RefEnter",
      "Exit",   "RefExit",   "NextIteration", "RefNextIteration", "LoopCond", "ControlTrigger"};
  return ops->contains(op);
}

// Never folded or merged: runtime plumbing and nodes whose every run matters.
bool IsPinned(const NodeDef& n, const OpDef& op) {
  return op.is_stateful() || IsControlFlow(n.op()) || absl::StartsWith(n.op(), "_") ||
         n.op() == "Placeholder" || n.op() == "PlaceholderWithDefault";
}

std::string TensorString(const std::string& node, int index) {
  return index == 0 ? node : absl::StrCat(node, ":", index);
}

class Optimizer {
 public:
  Optimizer(const GraphOptimizerOptions& options, GraphDef* graph,
            absl::flat_hash_map<std::string, std::string>* devices, GraphOptimizerStats* stats)
      : options_(options), graph_(graph), devices_(devices), stats_(stats) {}

  absl::Status Run() {
    for (const NodeDef& n : graph_->node()) {
      if (IsControlFlow(n.op())) return absl::OkStatus();  // see the header
    }
    if (options_.remove_identities) RemoveIdentities();
    if (options_.constant_folding && options_.cpu != nullptr) RILL_RETURN_IF_ERROR(Fold());
    if (options_.common_subexpression_elimination) RILL_RETURN_IF_ERROR(Cse());
    if (options_.fusion) {
      if (options_.constant_folding) {
        FoldBatchNorms();
        FoldChannelScaleAndShift();
      }
      Fuse();
      MarkConstantWeights();
    }
    return absl::OkStatus();
  }

 private:
  // --- indexes ------------------------------------------------------------------------------

  void Reindex() {
    index_.clear();
    consumers_.clear();
    for (int i = 0; i < graph_->node_size(); ++i) index_[graph_->node(i).name()] = i;
    for (int i = 0; i < graph_->node_size(); ++i) {
      const NodeDef& n = graph_->node(i);
      for (int k = 0; k < n.input_size(); ++k) {
        absl::StatusOr<InputName> in = ParseInputName(n.input(k));
        if (in.ok()) consumers_[in->node].push_back({i, k});
      }
    }
  }
  NodeDef* Find(const std::string& name) {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : graph_->mutable_node(it->second);
  }
  const OpDef* OpOf(const NodeDef& n) const {
    const OpRegistration* reg = OpRegistry::Global()->LookUp(n.op());
    return reg == nullptr ? nullptr : &reg->op_def;
  }
  // Consumers of `name`: (node index, input position), data and control.
  const std::vector<std::pair<int, int>>& Uses(const std::string& name) {
    static const std::vector<std::pair<int, int>> kNone;
    auto it = consumers_.find(name);
    return it == consumers_.end() ? kNone : it->second;
  }
  bool HasControlConsumers(const std::string& name) {
    for (const auto& [i, k] : Uses(name)) {
      if (absl::StartsWith(graph_->node(i).input(k), "^")) return true;
    }
    return false;
  }
  // The one data consumer of `name` (any output), or -1 when there are none, several, or
  // control consumers.
  int SoleConsumer(const std::string& name) {
    const auto& uses = Uses(name);
    if (uses.size() != 1 ||
        absl::StartsWith(graph_->node(uses[0].first).input(uses[0].second), "^")) {
      return -1;
    }
    return uses[0].first;
  }
  bool HasControlInputs(const NodeDef& n) const {
    for (const std::string& in : n.input()) {
      if (absl::StartsWith(in, "^")) return true;
    }
    return false;
  }
  const std::string& DeviceOf(const std::string& name) { return (*devices_)[name]; }
  bool OnCpu(const std::string& name) {
    const std::string& d = DeviceOf(name);
    return absl::StrContains(d, "CPU") || absl::StrContains(d, "cpu");
  }

  // Rewrites every data use of name:port to `replacement`, and control uses of `name` to
  // ^node(replacement) when `control_too`.
  void ReplaceUses(const std::string& name, int port, const std::string& replacement,
                   bool control_too) {
    for (const auto& [i, k] : Uses(name)) {
      std::string* in = graph_->mutable_node(i)->mutable_input(k);
      if (absl::StartsWith(*in, "^")) {
        if (control_too) {
          absl::StatusOr<InputName> r = ParseInputName(replacement);
          if (r.ok()) *in = "^" + r->node;
        }
        continue;
      }
      absl::StatusOr<InputName> parsed = ParseInputName(*in);
      if (parsed.ok() && parsed->index == port) *in = replacement;
    }
  }

  void RemoveNodes(const absl::flat_hash_set<std::string>& dead) {
    if (dead.empty()) return;
    google::protobuf::RepeatedPtrField<NodeDef> kept;
    for (NodeDef& n : *graph_->mutable_node()) {
      if (!dead.contains(n.name())) *kept.Add() = std::move(n);
    }
    graph_->mutable_node()->Swap(&kept);
    // Drop duplicate control inputs a rewrite may have made.
    for (NodeDef& n : *graph_->mutable_node()) {
      std::set<std::string> seen;
      google::protobuf::RepeatedPtrField<std::string> inputs;
      for (const std::string& in : n.input()) {
        if (absl::StartsWith(in, "^") && !seen.insert(in).second) continue;
        *inputs.Add() = in;
      }
      n.mutable_input()->Swap(&inputs);
    }
    Reindex();
  }

  // Node indices in an order where every node comes after its inputs.
  std::vector<int> TopologicalOrder() {
    const int n = graph_->node_size();
    std::vector<int> pending(n, 0);
    for (int i = 0; i < n; ++i) {
      for (const std::string& in : graph_->node(i).input()) {
        absl::StatusOr<InputName> p = ParseInputName(in);
        if (p.ok() && index_.contains(p->node)) ++pending[i];
      }
    }
    std::deque<int> ready;
    for (int i = 0; i < n; ++i) {
      if (pending[i] == 0) ready.push_back(i);
    }
    std::vector<int> order;
    while (!ready.empty()) {
      const int i = ready.front();
      ready.pop_front();
      order.push_back(i);
      for (const auto& [c, k] : Uses(graph_->node(i).name())) {
        if (--pending[c] == 0) ready.push_back(c);
      }
    }
    return order;
  }

  // --- identity removal ---------------------------------------------------------------------

  // In topological order: a node's inputs are settled (an Identity among them already removed
  // and the node rewired past it) before the node is looked at, so the consumer lists built by
  // Reindex() stay right for every node still to come (in stored order, z = Identity(y) stored
  // before y = Identity(x) left z's consumer reading the removed y).
  void RemoveIdentities() {
    Reindex();
    absl::flat_hash_set<std::string> dead;
    for (int index : TopologicalOrder()) {
      const NodeDef& n = graph_->node(index);
      if (n.op() != "Identity" && n.op() != "StopGradient" && n.op() != "PreventGradient") {
        continue;
      }
      if (n.input_size() != 1 || absl::StartsWith(n.input(0), "^")) continue;
      absl::StatusOr<InputName> in = ParseInputName(n.input(0));
      if (!in.ok() || dead.contains(in->node)) continue;
      NodeDef* src = Find(in->node);
      if (src == nullptr || DeviceOf(src->name()) != DeviceOf(n.name())) continue;
      // Nodes that wait for the Identity (a control edge) wait for its input instead: it runs
      // when its one input is ready and does nothing else (Keras's frozen graphs keep a NoOp
      // waiting on every weight's ReadVariableOp Identity, which hid the weights' Const from
      // MarkConstantWeights).
      const OpDef* op = OpOf(*src);
      DataTypeVector ins, outs;
      if (op == nullptr || !InOutTypesForNode(*src, *op, &ins, &outs).ok() ||
          in->index >= static_cast<int>(outs.size()) || IsRefType(outs[in->index])) {
        continue;
      }
      ReplaceUses(n.name(), 0, n.input(0), /*control_too=*/true);
      dead.insert(n.name());
      ++stats_->identities_removed;
    }
    RemoveNodes(dead);
  }

  // --- constant folding ---------------------------------------------------------------------

  static bool IsConst(const NodeDef& n) { return n.op() == "Const"; }

  absl::StatusOr<std::vector<Tensor>> Evaluate(const NodeDef& node,
                                               const std::vector<Tensor>& inputs) {
    RILL_ASSIGN_OR_RETURN(const OpRegistration* reg,
                          OpRegistry::Global()->LookUpOrError(node.op()));
    NodeDef filled = node;
    AddDefaultsToNodeDef(reg->op_def, &filled);
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> kernel, KernelRegistry::Global()->CreateKernel(
                                                                filled, reg->op_def, options_.cpu));
    if (kernel->IsAsync()) return absl::UnimplementedError("async kernel");
    std::vector<TensorValue> values(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) values[i].tensor = inputs[i];
    OpKernelContext::Params params;
    params.device = options_.cpu;
    params.kernel = kernel.get();
    params.inputs = absl::MakeConstSpan(values);
    OpKernelContext ctx(&params, static_cast<int>(kernel->output_types().size()));
    RILL_RETURN_IF_ERROR(kernel->Compute(ctx));
    std::vector<Tensor> out;
    for (const TensorValue& v : ctx.outputs()) {
      if (v.is_ref() || !v.tensor.IsInitialized()) return absl::UnimplementedError("no value");
      out.push_back(v.tensor);
    }
    return out;
  }

  // True when an input or a consumer of `n` is on another device: folding it would move work
  // the user placed (the seed examples' towers) off its device, so Rill keeps it.
  bool CrossesDevices(const NodeDef& n) {
    const std::string& device = DeviceOf(n.name());
    for (const std::string& in : n.input()) {
      absl::StatusOr<InputName> p = ParseInputName(in);
      if (p.ok() && DeviceOf(p->node) != device) return true;
    }
    for (const auto& [i, k] : Uses(n.name())) {
      if (DeviceOf(graph_->node(i).name()) != device) return true;
    }
    return false;
  }

  // Turns `n` into a Const holding `value` (keeping its name, device and consumers).
  static void MakeConst(NodeDef* n, const Tensor& value) {
    n->set_op("Const");
    n->clear_input();
    n->mutable_attr()->clear();
    SetAttr(n, "dtype", value.dtype());
    TensorToProto(value, (*n->mutable_attr())["value"].mutable_tensor());
  }

  absl::Status Fold() {
    Reindex();
    // Shapes from shape inference (Const values included), for Shape / Size / Rank.
    std::map<std::string, PartialTensorShape> shapes;
    ImportOptions import_options;
    absl::StatusOr<std::unique_ptr<Graph>> imported = ImportGraphDef(*graph_, import_options);
    if (imported.ok()) {
      for (const Node* node : (*imported)->op_nodes()) {
        for (size_t k = 0; k < node->output_shapes().size(); ++k) {
          shapes[TensorString(node->name(), static_cast<int>(k))] = node->output_shapes()[k];
        }
      }
    }
    for (int i : TopologicalOrder()) {
      NodeDef* n = graph_->mutable_node(i);
      if (IsConst(*n) || HasControlInputs(*n)) continue;
      const OpDef* op = OpOf(*n);
      if (op == nullptr || IsPinned(*n, *op) || op->output_arg_size() == 0) continue;
      if (!OnCpu(n->name()) || CrossesDevices(*n)) continue;
      // Shape, Size and Rank of a fully known shape.
      if ((n->op() == "Shape" || n->op() == "Size" || n->op() == "Rank") && n->input_size() == 1) {
        auto s = shapes.find(n->input(0));
        if (s == shapes.end()) {
          absl::StatusOr<InputName> p = ParseInputName(n->input(0));
          if (p.ok()) s = shapes.find(TensorString(p->node, p->index));
        }
        if (s != shapes.end() && s->second.IsFullyDefined()) {
          DataType out_type = DT_INT32;
          if (n->attr().contains("out_type")) out_type = n->attr().at("out_type").type();
          const std::vector<int64_t>& dims = s->second.dims();
          Tensor value;
          int64_t count = 1;
          for (int64_t d : dims) count *= d;
          const int64_t scalar = n->op() == "Size" ? count : static_cast<int64_t>(dims.size());
          if (n->op() == "Shape") {
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
          MakeConst(n, value);
          ++stats_->nodes_folded;
          continue;
        }
      }
      if (n->input_size() == 0) continue;  // e.g. a random op (stateful anyway) or a source
      std::vector<Tensor> inputs;
      bool all_const = true;
      for (const std::string& in : n->input()) {
        absl::StatusOr<InputName> p = ParseInputName(in);
        const NodeDef* src = p.ok() ? Find(p->node) : nullptr;
        if (src == nullptr || !IsConst(*src) || HasControlInputs(*src) || p->index != 0) {
          all_const = false;
          break;
        }
        absl::StatusOr<Tensor> t = TensorFromProto(src->attr().at("value").tensor());
        if (!t.ok()) {
          all_const = false;
          break;
        }
        inputs.push_back(*std::move(t));
      }
      if (!all_const) continue;
      absl::StatusOr<std::vector<Tensor>> out = Evaluate(*n, inputs);
      if (!out.ok() || out->size() != 1 ||
          static_cast<int64_t>((*out)[0].TotalBytes()) > options_.max_folded_bytes ||
          (*out)[0].dtype() == DT_VARIANT) {
        continue;  // multi-output nodes and failures stay; failures report at run time
      }
      MakeConst(n, (*out)[0]);
      ++stats_->nodes_folded;
    }
    PruneUnreadConsts();
    return absl::OkStatus();
  }

  // Consts nothing reads any more (inputs of folded nodes, replaced filters) are dropped.
  void PruneUnreadConsts() {
    Reindex();
    absl::flat_hash_set<std::string> dead;
    for (const NodeDef& n : graph_->node()) {
      if (IsConst(n) && Uses(n.name()).empty()) dead.insert(n.name());
    }
    RemoveNodes(dead);
  }

  // --- common-subexpression elimination -----------------------------------------------------

  absl::Status Cse() {
    Reindex();
    std::map<std::string, std::string> seen;  // key -> node name
    absl::flat_hash_set<std::string> dead;
    for (int i : TopologicalOrder()) {
      NodeDef* n = graph_->mutable_node(i);
      const OpDef* op = OpOf(*n);
      if (op == nullptr || IsPinned(*n, *op)) continue;
      std::vector<std::string> data, control;
      for (const std::string& in : n->input()) {
        (absl::StartsWith(in, "^") ? control : data).push_back(in);
      }
      if (op->is_commutative()) std::sort(data.begin(), data.end());
      std::sort(control.begin(), control.end());
      std::string key = absl::StrCat(n->op(), "|", DeviceOf(n->name()), "|");
      for (const std::string& in : data) absl::StrAppend(&key, in, ",");
      absl::StrAppend(&key, "|");
      for (const std::string& in : control) absl::StrAppend(&key, in, ",");
      std::map<std::string, std::string> attrs;
      for (const auto& [k, v] : n->attr()) attrs[k] = v.SerializeAsString();
      for (const auto& [k, v] : attrs) absl::StrAppend(&key, "|", k, "=", v);
      auto [it, added] = seen.emplace(key, n->name());
      if (added) continue;
      // A duplicate: its uses read the first one (every output port, and control uses).
      DataTypeVector ins, outs;
      if (!InOutTypesForNode(*n, *op, &ins, &outs).ok()) continue;
      const std::string dup = n->name();
      for (int port = 0; port < static_cast<int>(outs.size()); ++port) {
        ReplaceUses(dup, port, TensorString(it->second, port), /*control_too=*/port == 0);
      }
      if (outs.empty()) ReplaceUses(dup, 0, it->second, /*control_too=*/true);
      dead.insert(dup);
      ++stats_->nodes_merged;
    }
    RemoveNodes(dead);
    return absl::OkStatus();
  }

  // --- Conv2D + FusedBatchNorm folding ------------------------------------------------------

  // The Const tensor feeding input `k` of `n`, if it is one (no control inputs).
  std::optional<Tensor> ConstInput(const NodeDef& n, int k) {
    if (k >= n.input_size()) return std::nullopt;
    absl::StatusOr<InputName> p = ParseInputName(n.input(k));
    const NodeDef* src = p.ok() ? Find(p->node) : nullptr;
    if (src == nullptr || !IsConst(*src) || HasControlInputs(*src) || p->index != 0) {
      return std::nullopt;
    }
    absl::StatusOr<Tensor> t = TensorFromProto(src->attr().at("value").tensor());
    if (!t.ok()) return std::nullopt;
    return *std::move(t);
  }

  void FoldBatchNorms() {
    Reindex();
    int created = 0;
    std::vector<NodeDef> added;
    for (int i = 0; i < graph_->node_size(); ++i) {
      NodeDef* bn = graph_->mutable_node(i);
      if (bn->op() != "FusedBatchNorm" && bn->op() != "FusedBatchNormV2" &&
          bn->op() != "FusedBatchNormV3") {
        continue;
      }
      bool training = true;
      std::string format = "NHWC";
      float epsilon = 0.0001f;
      if (!GetNodeAttr(*bn, "is_training", &training).ok() || training) continue;
      (void)GetNodeAttr(*bn, "data_format", &format);
      (void)GetNodeAttr(*bn, "epsilon", &epsilon);
      if (format != "NHWC" || HasControlInputs(*bn) || HasControlConsumers(bn->name())) continue;
      // Only output 0 may be read.
      bool other_outputs = false;
      for (const auto& [c, k] : Uses(bn->name())) {
        absl::StatusOr<InputName> p = ParseInputName(graph_->node(c).input(k));
        if (!p.ok() || p->index != 0) other_outputs = true;
      }
      if (other_outputs) continue;
      absl::StatusOr<InputName> x = ParseInputName(bn->input(0));
      NodeDef* conv = x.ok() && x->index == 0 ? Find(x->node) : nullptr;
      if (conv == nullptr || conv->op() != "Conv2D" || SoleConsumer(conv->name()) != i ||
          HasControlInputs(*conv) || DeviceOf(conv->name()) != DeviceOf(bn->name())) {
        continue;
      }
      std::string conv_format = "NHWC";
      (void)GetNodeAttr(*conv, "data_format", &conv_format);
      std::optional<Tensor> filter = ConstInput(*conv, 1);
      std::optional<Tensor> scale = ConstInput(*bn, 1), offset = ConstInput(*bn, 2),
                            mean = ConstInput(*bn, 3), var = ConstInput(*bn, 4);
      if (conv_format != "NHWC" || !filter || !scale || !offset || !mean || !var ||
          filter->dtype() != DT_FLOAT || filter->shape().rank() != 4 ||
          scale->dtype() != DT_FLOAT) {
        continue;
      }
      const int64_t channels = filter->shape().dim(3);
      if (scale->NumElements() != channels || offset->NumElements() != channels ||
          mean->NumElements() != channels || var->NumElements() != channels) {
        continue;
      }
      // w' = w * s, b = offset - mean * s, with s = scale / sqrt(var + epsilon) per channel.
      Tensor w(DT_FLOAT, filter->shape());
      Tensor b(DT_FLOAT, TensorShape({channels}));
      std::vector<float> s(channels);
      for (int64_t c = 0; c < channels; ++c) {
        s[c] = scale->flat<float>()[c] / std::sqrt(var->flat<float>()[c] + epsilon);
        b.flat<float>()[c] = offset->flat<float>()[c] - mean->flat<float>()[c] * s[c];
      }
      for (int64_t e = 0; e < filter->NumElements(); ++e) {
        w.flat<float>()[e] = filter->flat<float>()[e] * s[e % channels];
      }
      const std::string device = DeviceOf(bn->name());
      const std::string w_name = absl::StrCat(conv->name(), "/folded_filter_", created);
      const std::string b_name = absl::StrCat(bn->name(), "/folded_bias_", created);
      ++created;
      for (const auto& [name, value] :
           {std::pair<std::string, Tensor>{w_name, w}, std::pair<std::string, Tensor>{b_name, b}}) {
        NodeDef& c = added.emplace_back();
        c.set_name(name);
        MakeConst(&c, value);
        (*devices_)[name] = device;
      }
      conv->set_input(1, w_name);
      // The batch norm becomes a BiasAdd of the same name.
      const std::string conv_out = bn->input(0);
      bn->set_op("BiasAdd");
      bn->clear_input();
      bn->add_input(conv_out);
      bn->add_input(b_name);
      bn->mutable_attr()->clear();
      SetAttr(bn, "T", DT_FLOAT);
      SetAttr(bn, "data_format", "NHWC");
      ++stats_->batch_norms_folded;
    }
    for (NodeDef& n : added) *graph_->add_node() = std::move(n);
    PruneUnreadConsts();
  }

  // --- per-channel scale and shift after a product ---------------------------------------

  // A product whose output channel c depends linearly on the filter's channel c only: Conv2D and
  // DepthwiseConv2dNative (NHWC; for depthwise the channel is the filter's flattened last two
  // dims) and MatMul without transpose_b, with a float Const filter. In the filter's flat layout
  // element e belongs to channel e % channels for all three.
  struct ScalableProduct {
    NodeDef* node = nullptr;
    Tensor filter;
    int64_t channels = 0;
    int rank = 0;  // of the product's output
  };

  // The product producing `input` (output 0) if it is scalable and `consumer` is its one reader
  // on its device.
  std::optional<ScalableProduct> ProductFeeding(const std::string& input, const NodeDef& consumer) {
    absl::StatusOr<InputName> x = ParseInputName(input);
    if (!x.ok() || x->index != 0 || absl::StartsWith(input, "^")) return std::nullopt;
    NodeDef* p = Find(x->node);
    if (p == nullptr || SoleConsumer(p->name()) < 0 ||
        graph_->node(SoleConsumer(p->name())).name() != consumer.name() ||
        DeviceOf(p->name()) != DeviceOf(consumer.name())) {
      return std::nullopt;
    }
    std::string format = "NHWC";
    (void)GetNodeAttr(*p, "data_format", &format);
    bool transpose_b = false;
    (void)GetNodeAttr(*p, "transpose_b", &transpose_b);
    std::optional<Tensor> filter = ConstInput(*p, 1);
    if (!filter || filter->dtype() != DT_FLOAT) return std::nullopt;
    const TensorShape& fs = filter->shape();
    ScalableProduct out;
    if ((p->op() == "Conv2D" || p->op() == "DepthwiseConv2dNative") && format == "NHWC" &&
        fs.rank() == 4) {
      out.channels = p->op() == "Conv2D" ? fs.dim(3) : fs.dim(2) * fs.dim(3);
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
  std::optional<std::vector<float>> ChannelVector(const NodeDef& n, int k, int64_t channels,
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

  // A BiasAdd (NHWC, float) with a Const bias that only `consumer` reads, on its device.
  NodeDef* BiasAddFeeding(const std::string& input, const NodeDef& consumer) {
    absl::StatusOr<InputName> x = ParseInputName(input);
    if (!x.ok() || x->index != 0 || absl::StartsWith(input, "^")) return nullptr;
    NodeDef* b = Find(x->node);
    std::string format = "NHWC";
    DataType type = DT_INVALID;
    if (b == nullptr || b->op() != "BiasAdd") return nullptr;
    (void)GetNodeAttr(*b, "data_format", &format);
    (void)GetNodeAttr(*b, "T", &type);
    const int sole = SoleConsumer(b->name());
    if (format != "NHWC" || type != DT_FLOAT || sole < 0 ||
        graph_->node(sole).name() != consumer.name() ||
        DeviceOf(b->name()) != DeviceOf(consumer.name()) || !ConstInput(*b, 1)) {
      return nullptr;
    }
    return b;
  }

  // Adds a Const holding `values` as a [C] vector on `device`; returns its name.
  std::string AddVectorConst(const std::string& name, const std::vector<float>& values,
                             const std::string& device, std::vector<NodeDef>* added) {
    Tensor t(DT_FLOAT, TensorShape({static_cast<int64_t>(values.size())}));
    std::copy(values.begin(), values.end(), t.flat<float>().data());
    NodeDef& c = added->emplace_back();
    c.set_name(name);
    MakeConst(&c, t);
    (*devices_)[name] = device;
    return name;
  }

  // Turns `n` into BiasAdd(x, bias) (NHWC, float), keeping its name, device and control inputs.
  void MakeBiasAdd(NodeDef* n, const std::string& x, const std::string& bias) {
    std::vector<std::string> control;
    for (const std::string& in : n->input()) {
      if (absl::StartsWith(in, "^")) control.push_back(in);
    }
    n->set_op("BiasAdd");
    n->clear_input();
    n->add_input(x);
    n->add_input(bias);
    for (const std::string& c : control) n->add_input(c);
    n->mutable_attr()->clear();
    SetAttr(n, "T", DT_FLOAT);
    SetAttr(n, "data_format", "NHWC");
  }

  // Inference batch norm as Keras 3 and tf.nn.batch_normalization write it, once constants are
  // folded: product -> [BiasAdd(const)] -> Mul(const per channel) -> Add(const per channel).
  //   Mul: the scale goes into the product's filter (and a BiasAdd's bias before it); the Mul
  //        becomes a BiasAdd (a zero bias when there was none).
  //   Add/AddV2 after such a BiasAdd, or right after a product: one BiasAdd with the sum.
  // Fuse() then makes _Fused* kernels of the BiasAdds. Rounds repeat until nothing changes; a
  // node rewritten in a round is not looked at again in that round (the indexes are stale).
  void FoldChannelScaleAndShift() {
    int created = 0;
    for (bool changed = true; changed;) {
      changed = false;
      Reindex();
      absl::flat_hash_set<std::string> touched, dead;
      std::vector<NodeDef> added;
      for (int i = 0; i < graph_->node_size(); ++i) {
        NodeDef* n = graph_->mutable_node(i);
        DataType type = DT_INVALID;
        (void)GetNodeAttr(*n, "T", &type);
        const bool is_mul = n->op() == "Mul";
        if ((!is_mul && n->op() != "Add" && n->op() != "AddV2") || type != DT_FLOAT ||
            touched.contains(n->name()) || n->input_size() < 2) {
          continue;
        }
        for (int side = 0; side < 2; ++side) {
          const std::string x = n->input(side);
          NodeDef* bias_add = BiasAddFeeding(x, *n);
          const std::string product_input = bias_add != nullptr ? bias_add->input(0) : x;
          std::optional<ScalableProduct> product =
              ProductFeeding(product_input, bias_add != nullptr ? *bias_add : *n);
          if (!product && !(bias_add != nullptr && !is_mul)) continue;
          const int64_t channels =
              product ? product->channels : ConstInput(*bias_add, 1)->NumElements();
          // Without a product the rank is unknown: only a [C] vector keeps the shape.
          std::optional<std::vector<float>> v =
              ChannelVector(*n, 1 - side, channels, product ? product->rank : 1);
          if (!v) continue;
          bool involved_touched = bias_add != nullptr && touched.contains(bias_add->name());
          if (product && touched.contains(product->node->name())) involved_touched = true;
          if (involved_touched) continue;
          const std::string device = DeviceOf(n->name());
          std::vector<float> bias(channels, 0.f);
          if (bias_add != nullptr) {
            Tensor b = *ConstInput(*bias_add, 1);
            if (b.NumElements() != channels) continue;
            std::copy(b.flat<float>().data(), b.flat<float>().data() + channels, bias.begin());
          }
          if (is_mul) {
            Tensor w(DT_FLOAT, product->filter.shape());
            const float* src = product->filter.flat<float>().data();
            float* dst = w.flat<float>().data();
            for (int64_t e = 0; e < w.NumElements(); ++e) dst[e] = src[e] * (*v)[e % channels];
            for (int64_t c = 0; c < channels; ++c) bias[c] *= (*v)[c];
            const std::string w_name =
                absl::StrCat(product->node->name(), "/scaled_filter_", created);
            NodeDef& wc = added.emplace_back();
            wc.set_name(w_name);
            MakeConst(&wc, w);
            (*devices_)[w_name] = DeviceOf(product->node->name());
            product->node->set_input(1, w_name);
          } else {
            for (int64_t c = 0; c < channels; ++c) bias[c] += (*v)[c];
          }
          const std::string b_name = AddVectorConst(
              absl::StrCat(n->name(), "/folded_bias_", created), bias, device, &added);
          ++created;
          if (bias_add != nullptr) {
            // n reads the product directly; the BiasAdd it replaces had n as its one reader.
            for (const std::string& in : bias_add->input()) {
              if (absl::StartsWith(in, "^")) n->add_input(in);
            }
            dead.insert(bias_add->name());
            touched.insert(bias_add->name());
          }
          MakeBiasAdd(n, product_input, b_name);
          touched.insert(n->name());
          if (product) touched.insert(product->node->name());
          ++stats_->scale_shifts_folded;
          changed = true;
          break;
        }
      }
      for (NodeDef& c : added) *graph_->add_node() = std::move(c);
      RemoveNodes(dead);
    }
    PruneUnreadConsts();
  }

  // --- fusions ------------------------------------------------------------------------------

  void Fuse() {
    Reindex();
    absl::flat_hash_set<std::string> dead;
    for (int i = 0; i < graph_->node_size(); ++i) {
      NodeDef* bias_add = graph_->mutable_node(i);
      if (bias_add->op() != "BiasAdd" || dead.contains(bias_add->name())) continue;
      std::string format = "NHWC";
      (void)GetNodeAttr(*bias_add, "data_format", &format);
      DataType type = DT_INVALID;
      (void)GetNodeAttr(*bias_add, "T", &type);
      if (format != "NHWC" || (type != DT_FLOAT && type != DT_DOUBLE)) continue;
      absl::StatusOr<InputName> x = ParseInputName(bias_add->input(0));
      NodeDef* producer = x.ok() && x->index == 0 ? Find(x->node) : nullptr;
      if (producer == nullptr || (producer->op() != "MatMul" && producer->op() != "Conv2D" &&
                                  producer->op() != "DepthwiseConv2dNative")) {
        continue;
      }
      if (SoleConsumer(producer->name()) != i || !OnCpu(producer->name()) ||
          DeviceOf(producer->name()) != DeviceOf(bias_add->name())) {
        continue;
      }
      if (producer->op() != "MatMul") {
        std::string conv_format = "NHWC";
        (void)GetNodeAttr(*producer, "data_format", &conv_format);
        if (conv_format != "NHWC") continue;
      }
      // An activation that only reads this BiasAdd.
      NodeDef* activation = nullptr;
      const int next = SoleConsumer(bias_add->name());
      if (next >= 0) {
        NodeDef* a = graph_->mutable_node(next);
        if ((a->op() == "Relu" || a->op() == "Relu6") && a->input_size() >= 1 &&
            DeviceOf(a->name()) == DeviceOf(bias_add->name())) {
          activation = a;
        }
      }
      // The fused node takes the name (and so the consumers) of the last node it replaces.
      NodeDef* last = activation != nullptr ? activation : bias_add;
      NodeDef fused;
      fused.set_name(last->name());
      fused.set_op(absl::StrCat("_Fused", producer->op()));
      fused.set_device(last->device());
      fused.add_input(producer->input(0));
      fused.add_input(producer->input(1));
      fused.add_input(bias_add->input(1));
      std::set<std::string> control;
      for (const NodeDef* n :
           {static_cast<const NodeDef*>(producer), static_cast<const NodeDef*>(bias_add),
            static_cast<const NodeDef*>(activation)}) {
        if (n == nullptr) continue;
        for (const std::string& in : n->input()) {
          if (absl::StartsWith(in, "^")) control.insert(in);
        }
      }
      for (const std::string& c : control) fused.add_input(c);
      *fused.mutable_attr() = producer->attr();
      SetAttr(&fused, "T", type);
      SetAttr(&fused, "num_args", int64_t{1});
      std::vector<std::string> ops = {"BiasAdd"};
      if (activation != nullptr) ops.push_back(activation->op());
      SetAttr(&fused, "fused_ops", ops);
      for (NodeDef* n : {producer, bias_add, activation}) {
        if (n != nullptr && n != last) dead.insert(n->name());
      }
      *last = std::move(fused);
      ++stats_->fusions;
    }
    RemoveNodes(dead);
  }

  // MatMuls and convolutions (plain and fused) on the CPU whose weights (input 1) come straight
  // from a Const get `_rill_constant_weights`: their kernel may then keep a packed copy of the
  // weights (kernels/onednn_common.h). Nothing else can write a Const's tensor (in-place kernels
  // never take a buffer a Const kernel still holds).
  void MarkConstantWeights() {
    Reindex();
    for (NodeDef& n : *graph_->mutable_node()) {
      static const auto* kOps = new absl::flat_hash_set<std::string>{
          "MatMul",       "_FusedMatMul",          "Conv2D",
          "_FusedConv2D", "DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative"};
      if (!kOps->contains(n.op()) || n.input_size() < 2 || !OnCpu(n.name())) {
        continue;
      }
      absl::StatusOr<InputName> w = ParseInputName(n.input(1));
      const NodeDef* src = w.ok() && w->index == 0 ? Find(w->node) : nullptr;
      if (src != nullptr && IsConst(*src) && DeviceOf(src->name()) == DeviceOf(n.name())) {
        SetAttr(&n, "_rill_constant_weights", true);
        ++stats_->constant_weights_marked;
      }
    }
  }

  const GraphOptimizerOptions& options_;
  GraphDef* graph_;
  absl::flat_hash_map<std::string, std::string>* devices_;
  GraphOptimizerStats* stats_;
  absl::flat_hash_map<std::string, int> index_;
  absl::flat_hash_map<std::string, std::vector<std::pair<int, int>>> consumers_;
};

}  // namespace

GraphOptimizerOptions GraphOptimizerOptions::FromConfig(const ConfigProto& config) {
  const OptimizerOptions& o = config.graph_options().optimizer_options();
  GraphOptimizerOptions out;
  const bool on = o.opt_level() != OptimizerOptions::L0;
  out.remove_identities = on;
  out.fusion = on;
  out.constant_folding = on || o.do_constant_folding();
  out.common_subexpression_elimination = on || o.do_common_subexpression_elimination();
  if (o.max_folded_constant_in_bytes() > 0) {
    out.max_folded_bytes = o.max_folded_constant_in_bytes();
  }
  return out;
}

absl::Status OptimizeGraph(const GraphOptimizerOptions& options, GraphDef* graph,
                           absl::flat_hash_map<std::string, std::string>* devices,
                           GraphOptimizerStats* stats) {
  GraphOptimizerStats local;
  return Optimizer(options, graph, devices, stats != nullptr ? stats : &local).Run();
}

}  // namespace rill
