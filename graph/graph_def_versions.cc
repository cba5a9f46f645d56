#include "graph/graph_def_versions.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/types.h"
#include "google/protobuf/util/message_differencer.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// "float" for a fixed dtype, the attr's name for a typed or listed arg ("T", "N*T", "Tlist").
std::string ArgTypeText(const OpDef::ArgDef& arg) {
  std::string type = !arg.type_list_attr().empty() ? arg.type_list_attr()
                     : !arg.type_attr().empty()    ? arg.type_attr()
                                                   : DataTypeString(arg.type());
  if (!arg.number_attr().empty()) type = absl::StrCat(arg.number_attr(), "*", type);
  return type;
}

std::string SignatureText(const OpDef& sig) {
  auto args = [](const auto& list) {
    std::vector<std::string> parts;
    for (const OpDef::ArgDef& a : list)
      parts.push_back(absl::StrCat(a.name(), ":", ArgTypeText(a)));
    return absl::StrJoin(parts, ", ");
  };
  return absl::StrCat("Op<name=", sig.name(), "; signature=", args(sig.input_arg()), " -> ",
                      args(sig.output_arg()), ">");
}

}  // namespace

absl::Status CheckGraphDefVersions(const VersionDef& versions) {
  if (versions.producer() < kGraphDefVersionMinProducer) {
    return absl::InvalidArgumentError(absl::StrCat(
        "GraphDef producer version ", versions.producer(), " below min producer ",
        kGraphDefVersionMinProducer, " supported by Rill.  Please regenerate your graph."));
  }
  if (versions.min_consumer() > kGraphDefVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        "GraphDef min consumer version ", versions.min_consumer(), " above current version ",
        kGraphDefVersion, " for Rill.  Please upgrade Rill."));
  }
  for (int bad : versions.bad_consumers()) {
    if (bad == kGraphDefVersion) {
      return absl::InvalidArgumentError(
          absl::StrCat("GraphDef disallows consumer version ", bad, ".  Please upgrade Rill."));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckFunctionLibrary(const FunctionDefLibrary& library) {
  absl::flat_hash_map<std::string, const FunctionDef*> seen;
  for (const FunctionDef& f : library.function()) {
    const std::string& name = f.signature().name();
    if (OpRegistry::Global()->LookUp(name) != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Cannot add function '", name, "' because an op with the same name already exists."));
    }
    auto [it, inserted] = seen.emplace(name, &f);
    if (!inserted && !google::protobuf::util::MessageDifferencer::Equals(*it->second, f)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Cannot add function '", name,
                       "' because a different function with the same name already exists."));
    }
  }
  // TensorFlow's FunctionLibraryDefinition keeps one gradient per function: a second GradientDef
  // naming another gradient function is refused (the same one again is accepted).
  absl::flat_hash_map<std::string, std::string> gradients;
  for (const GradientDef& g : library.gradient()) {
    auto [it, inserted] = gradients.emplace(g.function_name(), g.gradient_func());
    if (!inserted && it->second != g.gradient_func()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Cannot assign gradient function '", g.gradient_func(), "' to '", g.function_name(),
          "' because it already has gradient function '", it->second, "'"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckFunctionCallInputs(const NodeDef& node, const FunctionDef& function) {
  const OpDef& sig = function.signature();
  for (const OpDef::ArgDef& arg : sig.input_arg()) {
    // A list arg's length comes from the call's attrs: checked when the function is inlined.
    if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) return absl::OkStatus();
  }
  int data_inputs = 0;
  for (const std::string& input : node.input()) {
    if (!input.empty() && input[0] != '^') ++data_inputs;
  }
  if (data_inputs == sig.input_arg_size()) return absl::OkStatus();
  std::vector<std::string> expected;
  for (const OpDef::ArgDef& arg : sig.input_arg()) expected.push_back(ArgTypeText(arg));
  return absl::InvalidArgumentError(absl::StrCat(
      "NodeDef expected inputs '", absl::StrJoin(expected, ", "), "' do not match ", data_inputs,
      " inputs specified; ", SignatureText(sig), "; NodeDef: {{node ", node.name(), "}}"));
}

}  // namespace rill
