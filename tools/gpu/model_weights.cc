#include "tools/gpu/model_weights.h"

#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/allocator.h"
#include "core/status_macros.h"
#include "core/types.h"

namespace rill {
namespace {

// Ops whose output is their input's values (same or reshaped, or cast): a Const's real consumers
// are found through them (Keras's batch norm reshapes its vectors before the arithmetic).
bool IsPassThrough(const std::string& op) {
  static const std::set<std::string>* const kOps = new std::set<std::string>{
      "Identity", "Snapshot",      "StopGradient", "Enter",   "RefEnter",   "Switch", "Merge",
      "Exit",     "NextIteration", "Reshape",      "Squeeze", "ExpandDims", "Cast"};
  return kOps->count(op) > 0;
}

// The node name of a data input ("n:1" -> "n"); empty for a control input.
std::string ProducerOf(const std::string& input) {
  if (!input.empty() && input[0] == '^') return "";
  return input.substr(0, input.find(':'));
}

class GraphIndex {
 public:
  explicit GraphIndex(const GraphDef& graph) {
    for (const NodeDef& n : graph.node()) {
      nodes_[n.name()] = &n;
      for (int i = 0; i < n.input_size(); ++i) {
        const std::string producer = ProducerOf(n.input(i));
        if (!producer.empty()) uses_[producer].push_back({&n, i});
      }
    }
  }
  const NodeDef* Find(const std::string& name) const {
    auto it = nodes_.find(name);
    return it == nodes_.end() ? nullptr : it->second;
  }
  // The uses of `name`'s outputs by ops that are not pass-through (through those that are).
  std::vector<std::pair<const NodeDef*, int>> RealUses(const std::string& name) const {
    std::vector<std::pair<const NodeDef*, int>> out;
    std::vector<std::string> todo = {name};
    std::set<std::string> seen = {name};
    while (!todo.empty()) {
      const std::string at = todo.back();
      todo.pop_back();
      auto it = uses_.find(at);
      if (it == uses_.end()) continue;
      for (const auto& use : it->second) {
        if (IsPassThrough(use.first->op())) {
          if (seen.insert(use.first->name()).second) todo.push_back(use.first->name());
        } else {
          out.push_back(use);
        }
      }
    }
    return out;
  }
  // The op that produces `input`, looking back through pass-through ops (first data input).
  std::string SourceOp(const std::string& input) const {
    const NodeDef* n = Find(ProducerOf(input));
    for (int hops = 0; n != nullptr && IsPassThrough(n->op()) && n->input_size() > 0 && hops < 64;
         ++hops) {
      n = Find(ProducerOf(n->input(0)));
    }
    return n == nullptr ? "" : n->op();
  }

 private:
  absl::flat_hash_map<std::string, const NodeDef*> nodes_;
  absl::flat_hash_map<std::string, std::vector<std::pair<const NodeDef*, int>>> uses_;
};

bool IsRootOp(const std::string& op) {
  return op == "Rsqrt" || op == "Sqrt" || op == "Log" || op == "Reciprocal";
}

WeightInit Positive(const std::string& rule) { return {0.5, 1.5, rule}; }
WeightInit Small(const std::string& rule) { return {-0.1, 0.1, rule}; }
WeightInit Symmetric(double bound, const std::string& rule) { return {-bound, bound, rule}; }

// The rule of the first use that has one; nullopt-like empty rule when none does.
WeightInit RuleOfUses(const GraphIndex& index, const std::string& name,
                      const std::vector<int64_t>& dims) {
  for (const auto& [user, port] : index.RealUses(name)) {
    const std::string& op = user->op();
    if (op.rfind("FusedBatchNorm", 0) == 0 && op.find("Grad") == std::string::npos) {
      if (port == 1 || port == 4) return Positive("batch norm scale/variance");
      if (port == 2 || port == 3) return Small("batch norm offset/mean");
    }
    if (IsRootOp(op)) return Positive("variance");
    if (op == "Add" || op == "AddV2") {
      for (const auto& [next, unused] : index.RealUses(user->name())) {
        if (IsRootOp(next->op())) return Positive("variance (plus epsilon)");
      }
    }
    if (op == "Mul" && user->input_size() == 2 &&
        index.SourceOp(user->input(1 - port)) == "Rsqrt") {
      return Positive("scale (times rsqrt)");
    }
    if (op == "DepthwiseConv2dNative" && port == 1 && dims.size() == 4) {
      return Symmetric(std::sqrt(3.0 / static_cast<double>(dims[0] * dims[1])), "depthwise filter");
    }
    if ((op == "GatherV2" || op == "Gather" || op == "ResourceGather") && port == 0) {
      return Symmetric(0.05, "gather table");
    }
  }
  return {};
}

}  // namespace

bool IsStrippedConst(const NodeDef& node) {
  if (node.op() != "Const") return false;
  auto dtype = node.attr().find("dtype");
  auto value = node.attr().find("value");
  if (dtype == node.attr().end() || value == node.attr().end()) return false;
  if (dtype->second.type() != DT_FLOAT || !value->second.has_tensor()) return false;
  const TensorProto& t = value->second.tensor();
  if (!t.tensor_content().empty() || t.float_val_size() > 0) return false;
  if (t.tensor_shape().unknown_rank()) return false;
  int64_t count = 1;
  for (const auto& d : t.tensor_shape().dim()) {
    if (d.size() < 0) return false;
    count *= d.size();
  }
  return count > 1;
}

absl::StatusOr<WeightInit> ChooseWeightInit(const GraphDef& graph, const std::string& name) {
  GraphIndex index(graph);
  const NodeDef* node = index.Find(name);
  if (node == nullptr || !IsStrippedConst(*node)) {
    return absl::InvalidArgumentError(
        absl::StrCat("node '", name, "' is not a float Const without values"));
  }
  std::vector<int64_t> dims;
  for (const auto& d : node->attr().at("value").tensor().tensor_shape().dim()) {
    dims.push_back(d.size());
  }
  WeightInit init = RuleOfUses(index, name, dims);
  if (!init.rule.empty()) return init;
  if (dims.size() <= 1) return Small("vector");
  int64_t fan_in = 1;
  for (size_t i = 0; i + 1 < dims.size(); ++i) fan_in *= dims[i];
  return Symmetric(std::sqrt(3.0 / static_cast<double>(std::max<int64_t>(fan_in, 1))),
                   "weight (fan_in)");
}

uint64_t NodeSeed(const std::string& name, uint64_t seed) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h ^ (seed * 0x9E3779B97F4A7C15ull);
}

absl::StatusOr<std::map<std::string, int>> FillStrippedConsts(GraphDef* graph, uint64_t seed) {
  std::map<std::string, int> counts;
  std::vector<std::pair<int, WeightInit>> plan;
  for (int i = 0; i < graph->node_size(); ++i) {
    if (!IsStrippedConst(graph->node(i))) continue;
    RILL_ASSIGN_OR_RETURN(WeightInit init, ChooseWeightInit(*graph, graph->node(i).name()));
    plan.push_back({i, std::move(init)});
  }
  for (const auto& [i, init] : plan) {
    TensorProto* t = (*graph->mutable_node(i)->mutable_attr())["value"].mutable_tensor();
    int64_t count = 1;
    for (const auto& d : t->tensor_shape().dim()) count *= d.size();
    std::vector<float> values(static_cast<size_t>(count));
    std::mt19937_64 rng(NodeSeed(graph->node(i).name(), seed));
    for (float& v : values) {
      const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
      v = static_cast<float>(init.lo + (init.hi - init.lo) * u);
    }
    t->set_tensor_content(
        std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
    ++counts[init.rule];
  }
  return counts;
}

absl::StatusOr<Tensor> RandomTensor(DataType dtype, const TensorShape& shape, uint64_t seed,
                                    int64_t int_max) {
  RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(CpuAllocator::Default(), dtype, shape));
  std::mt19937_64 rng(seed);
  auto unit = [&rng] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  const int64_t n = shape.num_elements();
  const uint64_t range = static_cast<uint64_t>(std::max<int64_t>(int_max, 1));
  switch (dtype) {
    case DT_FLOAT:
      for (int64_t i = 0; i < n; ++i) t.flat<float>()[i] = static_cast<float>(2 * unit() - 1);
      break;
    case DT_DOUBLE:
      for (int64_t i = 0; i < n; ++i) t.flat<double>()[i] = 2 * unit() - 1;
      break;
    case DT_INT32:
      for (int64_t i = 0; i < n; ++i) t.flat<int32_t>()[i] = static_cast<int32_t>(rng() % range);
      break;
    case DT_INT64:
      for (int64_t i = 0; i < n; ++i) t.flat<int64_t>()[i] = static_cast<int64_t>(rng() % range);
      break;
    case DT_BOOL:
      for (int64_t i = 0; i < n; ++i) t.flat<bool>()[i] = (rng() & 1) != 0;
      break;
    default:
      return absl::UnimplementedError(absl::StrCat("no random values for an input of dtype ",
                                                   DataTypeString(dtype),
                                                   " (float, double, int32, int64, bool)"));
  }
  return t;
}

}  // namespace rill
