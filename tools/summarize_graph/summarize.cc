#include "tools/summarize_graph/summarize.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/partial_tensor_shape.h"
#include "core/tensor.h"
#include "core/tensor_proto.h"
#include "core/types.h"
#include "graph/op_classes.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// "^a" -> "a", "a:1" -> "a".
std::string InputNodeName(absl::string_view input) {
  if (!input.empty() && input[0] == '^') input.remove_prefix(1);
  size_t colon = input.rfind(':');
  if (colon != absl::string_view::npos) input = input.substr(0, colon);
  return std::string(input);
}

std::string PlaceholderDescription(const NodeDef& node) {
  std::string dtype = "?";
  auto it = node.attr().find("dtype");
  if (it != node.attr().end() && it->second.value_case() == AttrValue::kType) {
    dtype = DataTypeString(it->second.type());
  }
  std::string shape = "<unknown>";
  it = node.attr().find("shape");
  if (it != node.attr().end() && it->second.value_case() == AttrValue::kShape) {
    absl::StatusOr<PartialTensorShape> s = PartialTensorShape::FromProto(it->second.shape());
    if (s.ok()) shape = s->DebugString();
  }
  return absl::StrCat(node.name(), " (", dtype, ", ", shape, ")");
}

// Counts, into `unknown`, the nodes whose op Rill cannot run: neither a registered op, nor a
// functional op the session lowers (If, While, PartitionedCall, ...), nor a call of a function in
// `library` by its name.
void CountUnknownOps(const google::protobuf::RepeatedPtrField<NodeDef>& nodes,
                     const std::set<std::string>& library, std::map<std::string, int>* unknown) {
  for (const NodeDef& node : nodes) {
    if (OpRegistry::Global()->LookUp(node.op()) != nullptr) continue;
    if (IsFunctional(ClassifyOp(node.op())) || library.count(node.op())) continue;
    ++(*unknown)[node.op()];
  }
}

}  // namespace

std::string SummarizeGraph(const GraphDef& graph) {
  std::string out;
  absl::StrAppend(&out, "nodes: ", graph.node_size(), "\n");

  std::map<std::string, int> op_counts;
  std::map<std::string, int> unknown_counts;
  std::map<std::string, int> device_counts;
  std::set<std::string> consumed;
  std::vector<std::string> inputs;
  int64_t const_nodes = 0;
  int64_t const_bytes = 0;
  for (const NodeDef& node : graph.node()) {
    ++op_counts[node.op()];
    if (!node.device().empty()) ++device_counts[node.device()];
    for (const std::string& in : node.input()) consumed.insert(InputNodeName(in));
    if (node.op() == "Placeholder") inputs.push_back(PlaceholderDescription(node));
    if (node.op() == "Const") {
      ++const_nodes;
      auto it = node.attr().find("value");
      if (it != node.attr().end() && it->second.value_case() == AttrValue::kTensor) {
        absl::StatusOr<Tensor> t = TensorFromProto(it->second.tensor());
        if (t.ok()) const_bytes += static_cast<int64_t>(t->TotalBytes());
      }
    }
  }

  std::vector<std::pair<std::string, int>> ops(op_counts.begin(), op_counts.end());
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  absl::StrAppend(&out, "ops: ", ops.size(), " types\n");
  for (const auto& [op, n] : ops) absl::StrAppend(&out, "  ", op, " ", n, "\n");

  absl::StrAppend(&out, "inputs: ", inputs.size(), "\n");
  for (const std::string& in : inputs) absl::StrAppend(&out, "  ", in, "\n");

  std::vector<std::string> outputs;
  for (const NodeDef& node : graph.node()) {
    if (consumed.count(node.name()) == 0) {
      outputs.push_back(absl::StrCat(node.name(), " (", node.op(), ")"));
    }
  }
  absl::StrAppend(&out, "outputs: ", outputs.size(), "\n");
  for (const std::string& o : outputs) absl::StrAppend(&out, "  ", o, "\n");

  absl::StrAppend(&out, "devices: ", device_counts.size(), "\n");
  for (const auto& [device, n] : device_counts) absl::StrAppend(&out, "  ", device, " ", n, "\n");

  absl::StrAppend(&out, "constants: ", const_nodes, " Const nodes, ", const_bytes, " bytes\n");

  absl::StrAppend(&out, "functions: ", graph.library().function_size(), "\n");
  for (const FunctionDef& f : graph.library().function()) {
    absl::StrAppend(&out, "  ", f.signature().name(), "\n");
  }

  std::set<std::string> library;
  for (const FunctionDef& f : graph.library().function()) library.insert(f.signature().name());
  CountUnknownOps(graph.node(), library, &unknown_counts);
  for (const FunctionDef& f : graph.library().function()) {
    CountUnknownOps(f.node_def(), library, &unknown_counts);
  }
  std::vector<std::string> unknown;
  for (const auto& [op, n] : unknown_counts) {
    unknown.push_back(absl::StrCat(op, " (", n, n == 1 ? " node)" : " nodes)"));
  }
  absl::StrAppend(&out, "unknown ops: ", unknown.empty() ? "none" : absl::StrJoin(unknown, ", "),
                  "\n");
  return out;
}

}  // namespace rill
