// Operations the op registry does not declare but a graph can run: calls of the graph's library
// functions (op type = function name) and the functional ops If/StatelessIf, Case/StatelessCase,
// While/StatelessWhile, PartitionedCall/StatefulPartitionedCall, which the session inlines. Rill's
// graph keeps such nodes as unknown ops, whose output count grows with their consumers; the C API
// records the outputs they declare (the function's signature, or Tout / T) so that
// TF_OperationNumOutputs, TF_OperationOutputType and TF_FinishOperation's input checks see them as
// TensorFlow does.
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "graph/op_classes.h"

namespace rill_c {
namespace {

rill::Mutex declared_mu;
absl::flat_hash_map<const rill::Node*, std::vector<rill::DataType>>& Declared() {
  static auto* declared = new absl::flat_hash_map<const rill::Node*, std::vector<rill::DataType>>;
  return *declared;
}

absl::StatusOr<std::vector<rill::DataType>> ListAttr(const rill::NodeDef& def,
                                                     const std::string& name) {
  auto it = def.attr().find(name);
  if (it == def.attr().end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node '", def.name(), "' (", def.op(), ") has no attr '", name, "'"));
  }
  std::vector<rill::DataType> types;
  for (int t : it->second.list().type()) types.push_back(static_cast<rill::DataType>(t));
  return types;
}

}  // namespace

const rill::FunctionDef* FindFunction(const rill::Graph& g, const std::string& name) {
  for (const rill::FunctionDef& f : g.library().function()) {
    if (f.signature().name() == name) return &f;
  }
  return nullptr;
}

bool IsFunctionalOp(const std::string& op) {
  const rill::OpClass c = rill::ClassifyOp(op);
  return c == rill::OpClass::kFunctionalIf || c == rill::OpClass::kFunctionalCase ||
         c == rill::OpClass::kFunctionalWhile || c == rill::OpClass::kFunctionCall;
}

absl::StatusOr<std::vector<rill::DataType>> FunctionalOutputTypes(const rill::Graph& g,
                                                                  const rill::NodeDef& def) {
  if (const rill::FunctionDef* f = FindFunction(g, def.op()); f != nullptr) {
    std::vector<rill::DataType> types;
    for (const rill::OpDef::ArgDef& arg : f->signature().output_arg()) {
      if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) {
        return absl::UnimplementedError(
            absl::StrCat("Function '", def.op(),
                         "' has a list output; building calls of it is not "
                         "implemented in Rill"));
      }
      rill::DataType t = arg.type();
      if (!arg.type_attr().empty()) {
        auto it = def.attr().find(arg.type_attr());
        t = it == def.attr().end() ? rill::DT_INVALID : it->second.type();
      }
      types.push_back(t);
    }
    return types;
  }
  switch (rill::ClassifyOp(def.op())) {
    case rill::OpClass::kFunctionalIf:
    case rill::OpClass::kFunctionalCase:
    case rill::OpClass::kFunctionCall:
      return ListAttr(def, "Tout");
    case rill::OpClass::kFunctionalWhile:
      return ListAttr(def, "T");
    default:
      return absl::NotFoundError(absl::StrCat("'", def.op(), "' is not a functional op"));
  }
}

void RecordDeclaredOutputs(const rill::Node* node, std::vector<rill::DataType> types) {
  rill::MutexLock lock(&declared_mu);
  Declared()[node] = std::move(types);
}

std::optional<std::vector<rill::DataType>> DeclaredOutputs(const rill::Node* node) {
  rill::MutexLock lock(&declared_mu);
  auto it = Declared().find(node);
  if (it == Declared().end()) return std::nullopt;
  return it->second;
}

void ForgetDeclaredOutputs(const rill::Graph& g) {
  rill::MutexLock lock(&declared_mu);
  if (Declared().empty()) return;
  for (const rill::Node* n : g.op_nodes()) Declared().erase(n);
}

namespace {

// The outputs an imported call or functional op declares by its Tout (T for While) attr. Such a
// node is not a registered op in Rill, so the graph gives it only the outputs edges consume: a
// SavedModel's serving StatefulPartitionedCall, whose outputs a session fetches and no node
// reads, had none (BART's TF2 models: TF_GraphGetTensorNumDims of StatefulPartitionedCall:4 was
// "has 0 outputs"), where TensorFlow's op definition gives it one per Tout entry.
std::optional<std::vector<rill::DataType>> AttrOutputs(const rill::Node* node) {
  if (!node->is_unknown_op()) return std::nullopt;
  const char* attr = nullptr;
  switch (node->op_class()) {
    case rill::OpClass::kFunctionalIf:
    case rill::OpClass::kFunctionalCase:
    case rill::OpClass::kFunctionCall:
      attr = "Tout";
      break;
    case rill::OpClass::kFunctionalWhile:
      attr = "T";
      break;
    default:
      return std::nullopt;
  }
  auto it = node->def().attr().find(attr);
  if (it == node->def().attr().end() || !it->second.has_list()) return std::nullopt;
  std::vector<rill::DataType> types;
  for (int t : it->second.list().type()) types.push_back(static_cast<rill::DataType>(t));
  // Edges past the attr's list (a malformed node) keep the graph's count.
  if (static_cast<int>(types.size()) < node->num_outputs()) return std::nullopt;
  return types;
}

}  // namespace

int NumOutputs(const rill::Node* node) {
  std::optional<std::vector<rill::DataType>> declared = DeclaredOutputs(node);
  if (!declared) declared = AttrOutputs(node);
  return declared ? static_cast<int>(declared->size()) : node->num_outputs();
}

rill::DataType OutputType(const rill::Node* node, int index) {
  std::optional<std::vector<rill::DataType>> declared = DeclaredOutputs(node);
  if (!declared) declared = AttrOutputs(node);
  if (declared) {
    return index >= 0 && index < static_cast<int>(declared->size()) ? (*declared)[index]
                                                                    : rill::DT_INVALID;
  }
  return index >= 0 && index < node->num_outputs() ? node->output_type(index) : rill::DT_INVALID;
}

}  // namespace rill_c
