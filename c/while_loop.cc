// TF_NewWhile, TF_FinishWhile, TF_AbortWhile: a while loop built in two graphs of its own, one
// placeholder per loop variable in each. TF_FinishWhile turns the cond and body graphs into
// functions of the parent graph's library and adds a While operation over the initial values;
// the session lowers it to TensorFlow's loop (Enter, Merge, Switch, NextIteration, Exit).
// Operations of the cond and body graphs may use only their own placeholders and operations.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "proto/attr_value.pb.h"

namespace rill_c {
namespace {

// A graph holding one placeholder per input type, named input_0, input_1, ...
TF_Graph* LoopGraph(TF_Graph* parent, const std::vector<TF_Output>& inputs, TF_Output* args,
                    TF_Status* status) {
  TF_Graph* g = TF_NewGraph();
  g->while_parent = parent;
  g->while_parent_inputs = inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    TF_OperationDescription* desc =
        TF_NewOperation(g, "Placeholder", absl::StrCat("input_", i).c_str());
    TF_SetAttrType(desc, "dtype", TF_OperationOutputType(inputs[i]));
    args[i] = TF_Output{TF_FinishOperation(desc, status), 0};
    if (TF_GetCode(status) != TF_OK) break;
  }
  return g;
}

void FreeLoop(const TF_WhileParams* params) {
  TF_DeleteGraph(params->cond_graph);
  TF_DeleteGraph(params->body_graph);
  delete[] params->cond_inputs;
  delete[] params->body_inputs;
  delete[] params->body_outputs;
}

std::string FreeFunctionName(const rill::Graph& g, const std::string& base) {
  std::string name = base;
  for (int k = 1; FindFunction(g, name) != nullptr; ++k) name = absl::StrCat(base, "_", k);
  return name;
}

absl::StatusOr<rill::FunctionDef> LoopFunction(TF_Graph* g, const std::string& name, int ninputs,
                                               const TF_Output* inputs, int noutputs,
                                               const TF_Output* outputs) {
  rill::MutexLock lock(&g->mu);
  return GraphToFunctionDef(g->graph, name.c_str(), false, -1, nullptr, ninputs, inputs, noutputs,
                            outputs, nullptr, 0, nullptr, nullptr, nullptr);
}

absl::StatusOr<std::vector<TF_Output>> Finish(const TF_WhileParams* params) {
  if (params->name == nullptr || params->name[0] == '\0') {
    return absl::InvalidArgumentError("TF_WhileParams `name` field must be set");
  }
  if (params->cond_output.oper == nullptr) {
    return absl::InvalidArgumentError("TF_WhileParams `cond_output` field isn't set");
  }
  for (int i = 0; i < params->ninputs; ++i) {
    if (params->body_outputs[i].oper == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("TF_WhileParams `body_outputs[", i, "]` field isn't set"));
    }
  }
  TF_Graph* parent = params->cond_graph->while_parent;
  const std::vector<TF_Output>& inputs = params->cond_graph->while_parent_inputs;
  std::string cond_name, body_name;
  {
    rill::MutexLock lock(&parent->mu);
    cond_name = FreeFunctionName(parent->graph, absl::StrCat(params->name, "_cond"));
    body_name = FreeFunctionName(parent->graph, absl::StrCat(params->name, "_body"));
  }
  absl::StatusOr<rill::FunctionDef> cond = LoopFunction(
      params->cond_graph, cond_name, params->ninputs, params->cond_inputs, 1, &params->cond_output);
  if (!cond.ok()) return cond.status();
  absl::StatusOr<rill::FunctionDef> body =
      LoopFunction(params->body_graph, body_name, params->ninputs, params->body_inputs,
                   params->ninputs, params->body_outputs);
  if (!body.ok()) return body.status();

  TF_Function cond_fn{*std::move(cond)};
  TF_Function body_fn{*std::move(body)};
  TF_Status status;
  TF_GraphCopyFunction(parent, &cond_fn, nullptr, &status);
  if (status.code == TF_OK) TF_GraphCopyFunction(parent, &body_fn, nullptr, &status);
  if (status.code != TF_OK)
    return absl::Status(static_cast<absl::StatusCode>(status.code), status.message);
  TF_OperationDescription* desc = TF_NewOperation(parent, "While", params->name);
  TF_AddInputList(desc, inputs.data(), static_cast<int>(inputs.size()));
  TF_SetAttrFuncName(desc, "cond", cond_name.data(), cond_name.size());
  TF_SetAttrFuncName(desc, "body", body_name.data(), body_name.size());
  TF_Operation* loop = TF_FinishOperation(desc, &status);
  if (loop == nullptr) {
    return absl::Status(static_cast<absl::StatusCode>(status.code), status.message);
  }
  std::vector<TF_Output> outputs;
  for (int i = 0; i < params->ninputs; ++i) outputs.push_back(TF_Output{loop, i});
  return outputs;
}

}  // namespace
}  // namespace rill_c

extern "C" {

TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs, int ninputs, TF_Status* status) {
  const TF_WhileParams empty{0,       nullptr, nullptr, TF_Output{nullptr, -1},
                             nullptr, nullptr, nullptr, nullptr};
  if (g == nullptr || ninputs <= 0 || inputs == nullptr) {
    rill_c::SetStatus(
        status, absl::InvalidArgumentError("TF_NewWhile needs a graph and at least one input"));
    return empty;
  }
  std::vector<TF_Output> parent_inputs(inputs, inputs + ninputs);
  for (const TF_Output& in : parent_inputs) {
    if (in.oper == nullptr || TF_OperationOutputType(in) == 0) {
      rill_c::SetStatus(status, absl::InvalidArgumentError("A loop input is not a valid output"));
      return empty;
    }
  }
  TF_Output* cond_inputs = new TF_Output[ninputs];
  TF_Output* body_inputs = new TF_Output[ninputs];
  TF_Output* body_outputs = new TF_Output[ninputs];
  for (int i = 0; i < ninputs; ++i) body_outputs[i] = TF_Output{nullptr, -1};
  TF_Status made;
  TF_Graph* cond_graph = rill_c::LoopGraph(g, parent_inputs, cond_inputs, &made);
  TF_Graph* body_graph = rill_c::LoopGraph(g, parent_inputs, body_inputs, &made);
  const TF_WhileParams params{ninputs,    cond_graph,  cond_inputs,  TF_Output{nullptr, -1},
                              body_graph, body_inputs, body_outputs, nullptr};
  if (made.code != TF_OK) {
    rill_c::FreeLoop(&params);
    TF_SetStatus(status, made.code, made.message.c_str());
    return empty;
  }
  rill_c::SetOk(status);
  return params;
}

void TF_FinishWhile(const TF_WhileParams* params, TF_Status* status, TF_Output* outputs) {
  if (params == nullptr || params->cond_graph == nullptr) {
    return rill_c::SetStatus(status, absl::InvalidArgumentError("The while params are null"));
  }
  absl::StatusOr<std::vector<TF_Output>> made = rill_c::Finish(params);
  rill_c::FreeLoop(params);
  if (!made.ok()) return rill_c::SetStatus(status, made.status());
  for (size_t i = 0; outputs != nullptr && i < made->size(); ++i) outputs[i] = (*made)[i];
  rill_c::SetOk(status);
}

void TF_AbortWhile(const TF_WhileParams* params) {
  if (params != nullptr && params->cond_graph != nullptr) rill_c::FreeLoop(params);
}

}  // extern "C"
