// TF_GraphImportGraphDef and its options and results: a serialized GraphDef is renamed (prefix,
// uniquified names), rewired (input mappings, remapped and added control dependencies), given a
// default device, validated together with the graph's existing operations by Rill's importer
// (TensorFlow's error texts, shape inference), and only then added to the graph, so a failed
// import leaves the graph unchanged.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "ops/node_def_util.h"
#include "proto/graph.pb.h"

struct TF_ImportGraphDefOptions {
  std::string prefix;
  std::string default_device;
  bool uniquify_names = false;
  bool uniquify_prefix = false;
  // (source node, source index) -> existing output, in the order given.
  std::vector<std::pair<std::pair<std::string, int>, TF_Output>> input_map;
  std::map<std::string, TF_Operation*> control_remap;
  std::vector<TF_Operation*> control_dependencies;
  std::vector<std::pair<std::string, int>> return_outputs;
  std::vector<std::string> return_operations;
};

struct TF_ImportGraphDefResults {
  std::vector<TF_Output> return_outputs;
  std::vector<TF_Operation*> return_operations;
  std::vector<std::string> missing_names;
  std::vector<const char*> missing_name_ptrs;
  std::vector<int> missing_indexes;
};

namespace rill_c {
namespace {

bool NameTaken(const rill::Graph& g, const std::set<std::string>& new_names,
               const std::string& name) {
  return g.FindNodeId(name) >= 0 || new_names.count(name) > 0;
}

// True when some node of `g` is named `prefix` or starts with "prefix/".
bool PrefixTaken(const rill::Graph& g, const std::string& prefix) {
  for (const rill::Node* n : g.op_nodes()) {
    if (n->name() == prefix || absl::StartsWith(n->name(), prefix + "/")) return true;
  }
  return false;
}

// Renames the nodes of `graph` named in `names` (old -> new) and every input that reads them
// ("name", "name:k", "^name"; an old name holding ':' is matched whole first).
void RenameInputs(const std::map<std::string, std::string>& names, rill::GraphDef* graph) {
  for (rill::NodeDef& n : *graph->mutable_node()) {
    auto own = names.find(n.name());
    if (own != names.end()) n.set_name(own->second);
    for (std::string& input : *n.mutable_input()) {
      const bool control = absl::StartsWith(input, "^");
      const std::string body = control ? input.substr(1) : input;
      const std::string lead = control ? "^" : "";
      auto whole = names.find(body);
      if (whole != names.end()) {
        input = lead + whole->second;
        continue;
      }
      const size_t colon = body.rfind(':');
      if (colon == std::string::npos) continue;
      auto node = names.find(body.substr(0, colon));
      if (node != names.end()) input = absl::StrCat(lead, node->second, body.substr(colon));
    }
  }
}

absl::StatusOr<TF_ImportGraphDefResults*> Import(TF_Graph* graph, const TF_Buffer* buffer,
                                                 const TF_ImportGraphDefOptions& opts)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(graph->mu) {
  rill::GraphDef def;
  if (buffer == nullptr || !rill_c::ParseFromBytes(buffer->data, buffer->length, &def)) {
    return absl::InvalidArgumentError("Invalid GraphDef");
  }
  rill::Graph& g = graph->graph;

  // Names.
  std::string prefix = opts.prefix;
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  // A prefix already in use is replaced only with uniquify_prefix, as in TensorFlow; without it
  // the import goes on and only an imported name that is taken is refused below (TensorFlow
  // checks nothing then and leaves two nodes of one name, which no session can run).
  if (!prefix.empty() && opts.uniquify_prefix && PrefixTaken(g, prefix)) {
    int k = 1;
    while (PrefixTaken(g, absl::StrCat(prefix, "_", k))) ++k;
    prefix = absl::StrCat(prefix, "_", k);
  }
  std::map<std::string, std::string> renamed;
  std::set<std::string> new_names;
  for (const rill::NodeDef& n : def.node()) {
    std::string name = prefix.empty() ? n.name() : absl::StrCat(prefix, "/", n.name());
    if (NameTaken(g, new_names, name)) {
      if (!opts.uniquify_names || !prefix.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node name '", name, "' already exists in the Graph"));
      }
      int k = 1;
      while (NameTaken(g, new_names, absl::StrCat(name, "_", k))) ++k;
      name = absl::StrCat(name, "_", k);
    }
    renamed[n.name()] = name;
    new_names.insert(name);
  }

  // Inputs, control dependencies and devices.
  std::map<std::pair<std::string, int>, TF_Output> input_map;
  for (const auto& [key, dst] : opts.input_map) {
    if (dst.oper == nullptr) return absl::InvalidArgumentError("An input mapping's output is null");
    input_map[key] = dst;
  }
  std::set<std::pair<std::string, int>> used_mappings;
  for (rill::NodeDef& n : *def.mutable_node()) {
    bool reads_imported = false;
    for (std::string& input : *n.mutable_input()) {
      absl::StatusOr<rill::InputName> parsed = rill::ParseInputName(input);
      if (!parsed.ok()) continue;  // the importer reports it
      if (parsed->is_control()) {
        auto remap = opts.control_remap.find(parsed->node);
        if (remap != opts.control_remap.end()) {
          input = absl::StrCat("^", ToNode(remap->second)->name());
        } else if (renamed.count(parsed->node)) {
          input = absl::StrCat("^", renamed[parsed->node]);
          reads_imported = true;
        }
        continue;
      }
      const std::pair<std::string, int> key(parsed->node, parsed->index);
      auto mapped = input_map.find(key);
      if (mapped != input_map.end()) {
        used_mappings.insert(key);
        input = OutputName(mapped->second);
      } else if (renamed.count(parsed->node)) {
        input = parsed->index == 0 ? renamed[parsed->node]
                                   : absl::StrCat(renamed[parsed->node], ":", parsed->index);
        reads_imported = true;
      }
    }
    if (!reads_imported) {
      for (TF_Operation* dep : opts.control_dependencies) {
        if (dep != nullptr) n.add_input(absl::StrCat("^", ToNode(dep)->name()));
      }
    }
    n.set_name(renamed[n.name()]);
    if (n.device().empty()) n.set_device(opts.default_device);
  }

  // Validation of the graph as it would be, by the importer.
  rill::GraphDef combined;
  rill::ExportGraphDef(g, &combined);
  // Existing operations whose names the importer refuses (TF_FinishOperation takes any name, as
  // TensorFlow's) are checked under stand-in names: only the imported names are this import's.
  std::map<std::string, std::string> stand_in;     // existing name -> stand-in
  std::map<std::string, std::string> original_of;  // stand-in -> existing name
  for (const rill::NodeDef& n : combined.node()) {
    if (rill::IsValidNodeName(n.name())) continue;
    std::string name;
    do {
      name = absl::StrCat("_rill_import_stand_in_", stand_in.size() + original_of.size());
    } while (NameTaken(g, new_names, name) || original_of.count(name) > 0);
    stand_in[n.name()] = name;
    original_of[name] = n.name();
  }
  for (const rill::NodeDef& n : def.node()) *combined.add_node() = n;
  if (!stand_in.empty()) RenameInputs(stand_in, &combined);
  std::set<std::string> functions;
  for (const rill::FunctionDef& f : combined.library().function()) {
    functions.insert(f.signature().name());
  }
  for (const rill::FunctionDef& f : def.library().function()) {
    if (functions.insert(f.signature().name()).second)
      *combined.mutable_library()->add_function() = f;
  }
  if (!g.has_versions() && def.has_versions()) *combined.mutable_versions() = def.versions();
  absl::StatusOr<std::unique_ptr<rill::Graph>> checked = rill::ImportGraphDef(combined);
  if (!checked.ok()) return checked.status();

  // Results, checked before the graph changes.
  auto results = std::make_unique<TF_ImportGraphDefResults>();
  std::vector<std::pair<std::string, int>> outputs_to_resolve;
  for (const auto& [name, index] : opts.return_outputs) {
    auto mapped = input_map.find({name, index});
    if (mapped != input_map.end()) continue;
    auto it = renamed.find(name);
    const rill::Node* n = it == renamed.end() ? nullptr : (*checked)->FindNode(it->second);
    if (n == nullptr || index < 0 || index >= n->num_outputs()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Requested return tensor '", name, ":", index, "' not found in graph def"));
    }
  }
  for (const std::string& name : opts.return_operations) {
    if (renamed.find(name) == renamed.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Requested return node '", name, "' not found in graph def"));
    }
  }

  // The import proper: copies of the checked nodes, then their edges.
  std::vector<rill::Node*> added;
  auto roll_back = [&](const absl::Status& s) {
    g.RemoveNodes(added);
    return s;
  };
  for (const rill::NodeDef& n : def.node()) {
    absl::StatusOr<rill::Node*> copy = g.AddNodeCopy(*(*checked)->FindNode(n.name()));
    if (!copy.ok()) return roll_back(copy.status());
    added.push_back(*copy);
  }
  for (rill::Node* node : added) {
    const rill::Node* checked_node = (*checked)->FindNode(node->name());
    for (const rill::Edge* e : checked_node->in_edges()) {
      if (!e->src()->IsOp()) continue;
      auto original = original_of.find(e->src()->name());
      rill::Node* src =
          g.FindNode(original == original_of.end() ? e->src()->name() : original->second);
      if (e->IsControlEdge()) {
        g.AddControlEdge(src, node);
        continue;
      }
      absl::StatusOr<const rill::Edge*> edge =
          g.AddEdge(src, e->src_output(), node, e->dst_input());
      if (!edge.ok()) return roll_back(edge.status());
    }
  }
  if (def.has_library()) *g.mutable_library() = (*checked)->library();
  if (!g.has_versions() && def.has_versions()) *g.mutable_versions() = def.versions();

  for (const auto& [name, index] : opts.return_outputs) {
    auto mapped = input_map.find({name, index});
    if (mapped != input_map.end()) {
      results->return_outputs.push_back(mapped->second);
    } else {
      results->return_outputs.push_back(TF_Output{ToOperation(g.FindNode(renamed[name])), index});
    }
  }
  for (const std::string& name : opts.return_operations) {
    results->return_operations.push_back(ToOperation(g.FindNode(renamed[name])));
  }
  for (const auto& [key, dst] : opts.input_map) {
    if (used_mappings.count(key)) continue;
    results->missing_names.push_back(key.first);
    results->missing_indexes.push_back(key.second);
  }
  for (const std::string& s : results->missing_names) {
    results->missing_name_ptrs.push_back(s.c_str());
  }
  return results.release();
}

}  // namespace

absl::Status ImportNodesLocked(TF_Graph* graph, const rill::GraphDef& nodes) {
  const std::string bytes = nodes.SerializeAsString();
  TF_Buffer buffer{bytes.data(), bytes.size(), nullptr};
  const TF_ImportGraphDefOptions defaults;
  absl::StatusOr<TF_ImportGraphDefResults*> results = Import(graph, &buffer, defaults);
  if (!results.ok()) return results.status();
  delete *results;
  return absl::OkStatus();
}

}  // namespace rill_c

using rill_c::SetOk;
using rill_c::SetStatus;

extern "C" {

TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void) { return new TF_ImportGraphDefOptions; }

void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts) { delete opts; }

void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* opts, const char* prefix) {
  if (opts != nullptr) opts->prefix = prefix == nullptr ? "" : prefix;
}

void TF_ImportGraphDefOptionsSetDefaultDevice(TF_ImportGraphDefOptions* opts, const char* device) {
  if (opts != nullptr) opts->default_device = device == nullptr ? "" : device;
}

void TF_ImportGraphDefOptionsSetUniquifyNames(TF_ImportGraphDefOptions* opts,
                                              unsigned char uniquify_names) {
  if (opts != nullptr) opts->uniquify_names = uniquify_names != 0;
}

void TF_ImportGraphDefOptionsSetUniquifyPrefix(TF_ImportGraphDefOptions* opts,
                                               unsigned char uniquify_prefix) {
  if (opts != nullptr) opts->uniquify_prefix = uniquify_prefix != 0;
}

void TF_ImportGraphDefOptionsAddInputMapping(TF_ImportGraphDefOptions* opts, const char* src_name,
                                             int src_index, TF_Output dst) {
  if (opts == nullptr || src_name == nullptr) return;
  opts->input_map.push_back({{src_name, src_index}, dst});
}

void TF_ImportGraphDefOptionsRemapControlDependency(TF_ImportGraphDefOptions* opts,
                                                    const char* src_name, TF_Operation* dst) {
  if (opts == nullptr || src_name == nullptr || dst == nullptr) return;
  opts->control_remap[src_name] = dst;
}

void TF_ImportGraphDefOptionsAddControlDependency(TF_ImportGraphDefOptions* opts,
                                                  TF_Operation* oper) {
  if (opts != nullptr && oper != nullptr) opts->control_dependencies.push_back(oper);
}

void TF_ImportGraphDefOptionsAddReturnOutput(TF_ImportGraphDefOptions* opts, const char* oper_name,
                                             int index) {
  if (opts != nullptr && oper_name != nullptr) opts->return_outputs.push_back({oper_name, index});
}

int TF_ImportGraphDefOptionsNumReturnOutputs(const TF_ImportGraphDefOptions* opts) {
  return opts == nullptr ? 0 : static_cast<int>(opts->return_outputs.size());
}

void TF_ImportGraphDefOptionsAddReturnOperation(TF_ImportGraphDefOptions* opts,
                                                const char* oper_name) {
  if (opts != nullptr && oper_name != nullptr) opts->return_operations.push_back(oper_name);
}

int TF_ImportGraphDefOptionsNumReturnOperations(const TF_ImportGraphDefOptions* opts) {
  return opts == nullptr ? 0 : static_cast<int>(opts->return_operations.size());
}

void TF_ImportGraphDefResultsReturnOutputs(TF_ImportGraphDefResults* results, int* num_outputs,
                                           TF_Output** outputs) {
  if (results == nullptr) return;
  if (num_outputs != nullptr) *num_outputs = static_cast<int>(results->return_outputs.size());
  if (outputs != nullptr) *outputs = results->return_outputs.data();
}

void TF_ImportGraphDefResultsReturnOperations(TF_ImportGraphDefResults* results, int* num_opers,
                                              TF_Operation*** opers) {
  if (results == nullptr) return;
  if (num_opers != nullptr) *num_opers = static_cast<int>(results->return_operations.size());
  if (opers != nullptr) *opers = results->return_operations.data();
}

void TF_ImportGraphDefResultsMissingUnusedInputMappings(TF_ImportGraphDefResults* results,
                                                        int* num_missing_unused_input_mappings,
                                                        const char*** src_names,
                                                        int** src_indexes) {
  if (results == nullptr) return;
  if (num_missing_unused_input_mappings != nullptr) {
    *num_missing_unused_input_mappings = static_cast<int>(results->missing_names.size());
  }
  if (src_names != nullptr) *src_names = results->missing_name_ptrs.data();
  if (src_indexes != nullptr) *src_indexes = results->missing_indexes.data();
}

void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* results) { delete results; }

TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(TF_Graph* graph,
                                                            const TF_Buffer* graph_def,
                                                            const TF_ImportGraphDefOptions* options,
                                                            TF_Status* status) {
  if (graph == nullptr || graph_def == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The graph or the GraphDef buffer is null"));
    return nullptr;
  }
  const TF_ImportGraphDefOptions defaults;
  rill::MutexLock lock(&graph->mu);
  absl::StatusOr<TF_ImportGraphDefResults*> results =
      rill_c::Import(graph, graph_def, options == nullptr ? defaults : *options);
  if (!results.ok()) {
    SetStatus(status, results.status());
    return nullptr;
  }
  SetOk(status);
  return *results;
}

void TF_GraphImportGraphDefWithReturnOutputs(TF_Graph* graph, const TF_Buffer* graph_def,
                                             const TF_ImportGraphDefOptions* options,
                                             TF_Output* return_outputs, int num_return_outputs,
                                             TF_Status* status) {
  const int expected = TF_ImportGraphDefOptionsNumReturnOutputs(options);
  if (num_return_outputs != expected) {
    return SetStatus(
        status, absl::InvalidArgumentError(absl::StrCat("Expected 'num_return_outputs' to be ",
                                                        expected, ", got ", num_return_outputs)));
  }
  if (num_return_outputs > 0 && return_outputs == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("return_outputs is null"));
  }
  TF_ImportGraphDefResults* results =
      TF_GraphImportGraphDefWithResults(graph, graph_def, options, status);
  if (results == nullptr) return;
  for (int i = 0; i < num_return_outputs; ++i) return_outputs[i] = results->return_outputs[i];
  delete results;
}

void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                            const TF_ImportGraphDefOptions* options, TF_Status* status) {
  delete TF_GraphImportGraphDefWithResults(graph, graph_def, options, status);
}

}  // extern "C"
