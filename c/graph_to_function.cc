// TF_GraphToFunction and TF_GraphToFunctionWithControlOutputs: a FunctionDef from operations of a
// graph. The body is the operations given (or, with num_opers == -1, every operation except those
// producing the inputs); inputs become input args named after their operations (lower case,
// other characters '_', made unique), body edges become "node:out_arg:index" references, and the
// outputs (and control outputs) become the function's returns.
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "proto/function.pb.h"

namespace rill_c {
namespace {

std::string Normalized(const std::string& name) {
  std::string out;
  for (char c : name) {
    out.push_back(std::isalnum(static_cast<unsigned char>(c))
                      ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                      : '_');
  }
  return out.empty() ? "arg" : out;
}

std::string Unique(const std::string& base, std::set<std::string>* used) {
  std::string name = base;
  for (int k = 1; used->count(name); ++k) name = absl::StrCat(base, "_", k);
  used->insert(name);
  return name;
}

// The output argument of `node` holding output `index`, and the index within it.
absl::StatusOr<std::pair<std::string, int>> OutputArg(const rill::Graph& g, const rill::Node& node,
                                                      int index) {
  const rill::OpDef* op_def = node.op_def();
  if (op_def == nullptr) {
    if (const rill::FunctionDef* f = FindFunction(g, node.op()); f != nullptr) {
      op_def = &f->signature();
    } else if (IsFunctionalOp(node.op())) {
      return std::make_pair(std::string("output"), index);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("Operation '", node.name(), "' has an unknown op type '", node.op(), "'"));
    }
  }
  int first = 0;
  for (const rill::OpDef::ArgDef& arg : op_def->output_arg()) {
    int count = 1;
    if (!arg.number_attr().empty()) {
      auto it = node.def().attr().find(arg.number_attr());
      count = it == node.def().attr().end() ? 0 : static_cast<int>(it->second.i());
    } else if (!arg.type_list_attr().empty()) {
      auto it = node.def().attr().find(arg.type_list_attr());
      count = it == node.def().attr().end() ? 0 : it->second.list().type_size();
    }
    if (index < first + count) return std::make_pair(arg.name(), index - first);
    first += count;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("Operation '", node.name(), "' has no output ", index));
}

uint64_t Fnv1a(const std::string& bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string DeterministicBytes(const rill::FunctionDef& f) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    f.SerializeToCodedStream(&coded);
  }
  return bytes;
}

}  // namespace

absl::StatusOr<rill::FunctionDef> GraphToFunctionDef(
    const rill::Graph& g, const char* fn_name, bool append_hash, int num_opers,
    const TF_Operation* const* opers, int ninputs, const TF_Output* inputs, int noutputs,
    const TF_Output* outputs, const char* const* output_names, int ncontrol_outputs,
    const TF_Operation* const* control_outputs, const char* const* control_output_names,
    const char* description) {
  if (fn_name == nullptr) return absl::InvalidArgumentError("The function name is null");
  if ((ninputs > 0 && inputs == nullptr) || (noutputs > 0 && outputs == nullptr) ||
      (num_opers > 0 && opers == nullptr) || (ncontrol_outputs > 0 && control_outputs == nullptr)) {
    return absl::InvalidArgumentError("An array of operations, inputs or outputs is null");
  }
  rill::FunctionDef f;
  rill::OpDef* sig = f.mutable_signature();
  sig->set_name(fn_name);
  if (description != nullptr) sig->set_description(description);

  // Inputs.
  std::set<std::string> arg_names;
  std::map<std::pair<const rill::Node*, int>, std::string> input_args;
  std::set<const rill::Node*> input_nodes;
  for (int i = 0; i < ninputs; ++i) {
    if (inputs[i].oper == nullptr) return absl::InvalidArgumentError("An input is null");
    const rill::Node* n = ToNode(inputs[i].oper);
    const std::pair<const rill::Node*, int> key(n, inputs[i].index);
    if (input_args.count(key)) {
      return absl::InvalidArgumentError(absl::StrCat("TF_Output ", n->name(), ":", inputs[i].index,
                                                     " appears more than once in the input list"));
    }
    const std::string name = Unique(Normalized(n->name()), &arg_names);
    input_args[key] = name;
    input_nodes.insert(n);
    rill::OpDef::ArgDef* arg = sig->add_input_arg();
    arg->set_name(name);
    arg->set_type(rill::BaseType(OutputType(n, inputs[i].index)));
  }

  // The body.
  std::set<const rill::Node*> body;
  if (num_opers < 0) {
    for (const rill::Node* n : g.op_nodes()) {
      if (!input_nodes.count(n)) body.insert(n);
    }
  } else {
    for (int i = 0; i < num_opers; ++i) {
      if (opers[i] == nullptr) return absl::InvalidArgumentError("A body operation is null");
      body.insert(ToNode(opers[i]));
    }
  }
  auto reference = [&](const rill::Node* src, int index) -> absl::StatusOr<std::string> {
    auto arg = input_args.find({src, index});
    if (arg != input_args.end()) return arg->second;
    if (!body.count(src)) {
      return absl::InvalidArgumentError(
          absl::StrCat("The tensor ", src->name(), ":", index,
                       " is neither produced in the function's body nor one of its inputs"));
    }
    absl::StatusOr<std::pair<std::string, int>> out = OutputArg(g, *src, index);
    if (!out.ok()) return out.status();
    return absl::StrCat(src->name(), ":", out->first, ":", out->second);
  };
  for (int id = 0; id < g.num_node_ids(); ++id) {
    const rill::Node* n = g.FindNodeById(id);
    if (n == nullptr || !body.count(n)) continue;
    rill::NodeDef* def = f.add_node_def();
    *def = n->def();
    def->clear_input();
    std::vector<std::string> data(n->num_inputs());
    std::vector<std::string> control;
    for (const rill::Edge* e : n->in_edges()) {
      if (!e->src()->IsOp()) continue;
      if (e->IsControlEdge()) {
        if (!body.count(e->src())) {
          return absl::InvalidArgumentError(absl::StrCat("The control input ", e->src()->name(),
                                                         " of ", n->name(),
                                                         " is not in the function's body"));
        }
        control.push_back(absl::StrCat("^", e->src()->name()));
        continue;
      }
      absl::StatusOr<std::string> ref = reference(e->src(), e->src_output());
      if (!ref.ok()) return ref.status();
      data[e->dst_input()] = *ref;
    }
    for (const std::string& in : data) def->add_input(in);
    for (const std::string& in : control) def->add_input(in);
  }

  // Outputs and control outputs.
  std::set<std::string> out_names;
  for (int i = 0; i < noutputs; ++i) {
    if (outputs[i].oper == nullptr) return absl::InvalidArgumentError("An output is null");
    const rill::Node* n = ToNode(outputs[i].oper);
    const std::string name = output_names != nullptr && output_names[i] != nullptr
                                 ? Unique(output_names[i], &out_names)
                                 : Unique(Normalized(n->name()), &out_names);
    absl::StatusOr<std::string> ref = reference(n, outputs[i].index);
    if (!ref.ok()) return ref.status();
    rill::OpDef::ArgDef* arg = sig->add_output_arg();
    arg->set_name(name);
    arg->set_type(rill::BaseType(OutputType(n, outputs[i].index)));
    (*f.mutable_ret())[name] = *ref;
  }
  for (int i = 0; i < ncontrol_outputs; ++i) {
    if (control_outputs[i] == nullptr) {
      return absl::InvalidArgumentError("A control output is null");
    }
    const rill::Node* n = ToNode(control_outputs[i]);
    const std::string name = control_output_names != nullptr && control_output_names[i] != nullptr
                                 ? control_output_names[i]
                                 : n->name();
    sig->add_control_output(name);
    (*f.mutable_control_ret())[name] = n->name();
  }
  if (append_hash) {
    sig->set_name(absl::StrCat(fn_name, "_", absl::Hex(Fnv1a(DeterministicBytes(f)))));
  }
  return f;
}

}  // namespace rill_c

extern "C" {

TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names, int ncontrol_outputs,
    const TF_Operation* const* control_outputs, const char* const* control_output_names,
    const TF_FunctionOptions*, const char* description, TF_Status* status) {
  if (fn_body == nullptr) {
    rill_c::SetStatus(status, absl::InvalidArgumentError("The graph is null"));
    return nullptr;
  }
  TF_Graph* g = const_cast<TF_Graph*>(fn_body);
  absl::StatusOr<rill::FunctionDef> f;
  {
    rill::MutexLock lock(&g->mu);
    f = rill_c::GraphToFunctionDef(g->graph, fn_name, append_hash_to_fn_name != 0, num_opers, opers,
                                   ninputs, inputs, noutputs, outputs, output_names,
                                   ncontrol_outputs, control_outputs, control_output_names,
                                   description);
  }
  if (!f.ok()) {
    rill_c::SetStatus(status, f.status());
    return nullptr;
  }
  rill_c::SetOk(status);
  return new TF_Function{*std::move(f)};
}

TF_Function* TF_GraphToFunction(const TF_Graph* fn_body, const char* fn_name,
                                unsigned char append_hash_to_fn_name, int num_opers,
                                const TF_Operation* const* opers, int ninputs,
                                const TF_Output* inputs, int noutputs, const TF_Output* outputs,
                                const char* const* output_names, const TF_FunctionOptions* opts,
                                const char* description, TF_Status* status) {
  return TF_GraphToFunctionWithControlOutputs(
      fn_body, fn_name, append_hash_to_fn_name, num_opers, opers, ninputs, inputs, noutputs,
      outputs, output_names, 0, nullptr, nullptr, opts, description, status);
}

}  // extern "C"
