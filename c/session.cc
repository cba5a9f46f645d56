// TF_SessionOptions, TF_Session (creation, runs, close, delete), device lists and SavedModel
// loading. A session gives the graph's operations to its rill::Session lazily: each run first
// extends the session with the operations added since the last one (node ids only grow), so
// operations added after TF_NewSession are seen by later runs, as in TensorFlow.
#include "session/session.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "c/c_api_internal.h"
#include "graph/graph_def_export.h"
#include "proto/config.pb.h"
#include "proto/device_attributes.pb.h"
#include "proto/meta_graph.pb.h"
#include "session/saved_model_loader.h"

namespace rill_c {

absl::Status CheckTarget(const std::string& target) {
  if (target.empty() || target == "local") return absl::OkStatus();
  return absl::NotFoundError(
      absl::StrCat("No session factory registered for the given session options: {target: \"",
                   target, "\"} Registered factories are {DIRECT_SESSION}."));
}

namespace {

// Gives the session the operations added to its graph since the last call.
absl::Status ExtendSession(TF_Session* s) {
  rill::MutexLock session_lock(&s->mu);
  rill::GraphDef addition;
  int ids = 0;
  {
    rill::MutexLock graph_lock(&s->graph->mu);
    const rill::Graph& g = s->graph->graph;
    ids = g.num_node_ids();
    if (ids <= s->extended_ids) return absl::OkStatus();
    if (s->extended_ids == 0) {
      rill::ExportGraphDef(g, &addition);
    } else {
      for (int id = s->extended_ids; id < ids; ++id) {
        const rill::Node* node = g.FindNodeById(id);
        if (node != nullptr) *addition.add_node() = rill::NodeDefWithInputs(*node);
      }
    }
  }
  absl::Status st = s->session->Extend(addition);
  if (st.ok()) s->extended_ids = ids;
  return st;
}

}  // namespace

absl::Status RunNamed(TF_Session* s, const rill::RunOptions& options,
                      const std::vector<std::pair<std::string, rill::Tensor>>& feeds,
                      const std::vector<std::string>& fetches,
                      const std::vector<std::string>& targets, std::vector<rill::Tensor>* outputs,
                      rill::RunMetadata* metadata) {
  absl::Status extended = ExtendSession(s);
  if (!extended.ok()) return extended;
  return s->session->Run(options, feeds, fetches, targets, outputs, metadata);
}

namespace {

absl::Status Register(TF_Graph* graph) {
  rill::MutexLock lock(&graph->mu);
  ++graph->num_sessions;
  return absl::OkStatus();
}

absl::Status RunSession(TF_Session* s, const TF_Buffer* run_options, const TF_Output* inputs,
                        TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                        TF_Tensor** output_values, int noutputs,
                        const TF_Operation* const* target_opers, int ntargets,
                        TF_Buffer* run_metadata) {
  if (s == nullptr) return absl::InvalidArgumentError("The session is null");
  if (ninputs < 0 || noutputs < 0 || ntargets < 0) {
    return absl::InvalidArgumentError("Negative number of inputs, outputs or targets");
  }
  if ((ninputs > 0 && (inputs == nullptr || input_values == nullptr)) ||
      (noutputs > 0 && (outputs == nullptr || output_values == nullptr)) ||
      (ntargets > 0 && target_opers == nullptr)) {
    return absl::InvalidArgumentError("An array of inputs, outputs or targets is null");
  }
  rill::RunOptions options;
  if (run_options != nullptr &&
      !rill_c::ParseFromBytes(run_options->data, run_options->length, &options)) {
    return absl::InvalidArgumentError("Unparseable RunOptions proto");
  }
  if (run_metadata != nullptr && run_metadata->data != nullptr) {
    return absl::InvalidArgumentError("Passing non-empty run_metadata is invalid.");
  }
  std::vector<std::pair<std::string, rill::Tensor>> feeds;
  for (int i = 0; i < ninputs; ++i) {
    if (inputs[i].oper == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("Input ", i, " names a null operation"));
    }
    absl::StatusOr<rill::Tensor> t = ToRillTensor(input_values[i]);
    if (!t.ok()) {
      return absl::Status(t.status().code(), absl::StrCat("Input ", i, " (", OutputName(inputs[i]),
                                                          "): ", t.status().message()));
    }
    feeds.emplace_back(OutputName(inputs[i]), *std::move(t));
  }
  std::vector<std::string> fetches;
  for (int i = 0; i < noutputs; ++i) {
    if (outputs[i].oper == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("Output ", i, " names a null operation"));
    }
    fetches.push_back(OutputName(outputs[i]));
  }
  std::vector<std::string> targets;
  for (int i = 0; i < ntargets; ++i) {
    if (target_opers[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("Target ", i, " is a null operation"));
    }
    targets.push_back(ToNode(target_opers[i])->name());
  }
  std::vector<rill::Tensor> results;
  rill::RunMetadata metadata;
  absl::Status st = RunNamed(s, options, feeds, fetches, targets, &results,
                             run_metadata == nullptr ? nullptr : &metadata);
  if (!st.ok()) return st;
  if (results.size() != fetches.size()) {
    return absl::InternalError(absl::StrCat("The run returned ", results.size(), " tensors for ",
                                            fetches.size(), " outputs"));
  }
  for (int i = 0; i < noutputs; ++i) output_values[i] = FromRillTensor(results[i]);
  if (run_metadata != nullptr) return SerializeToBuffer(metadata, run_metadata);
  return absl::OkStatus();
}

}  // namespace
}  // namespace rill_c

using rill_c::SetOk;
using rill_c::SetStatus;

extern "C" {

TF_SessionOptions* TF_NewSessionOptions(void) { return new TF_SessionOptions; }

void TF_DeleteSessionOptions(TF_SessionOptions* options) { delete options; }

void TF_SetTarget(TF_SessionOptions* options, const char* target) {
  if (options != nullptr) options->target = target == nullptr ? "" : target;
}

void TF_SetConfig(TF_SessionOptions* options, const void* proto, size_t proto_len,
                  TF_Status* status) {
  if (options == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The session options are null"));
  }
  rill::ConfigProto config;
  if (!rill_c::ParseFromBytes(proto, proto_len, &config)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable ConfigProto"));
  }
  options->options.config = std::move(config);
  SetOk(status);
}

TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts, TF_Status* status) {
  if (graph == nullptr || opts == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The graph or the session options are null"));
    return nullptr;
  }
  absl::Status target = rill_c::CheckTarget(opts->target);
  if (!target.ok()) {
    SetStatus(status, target);
    return nullptr;
  }
  absl::StatusOr<std::unique_ptr<rill::Session>> session = rill::Session::New(opts->options);
  if (!session.ok()) {
    SetStatus(status, session.status());
    return nullptr;
  }
  TF_Session* s = new TF_Session;
  s->session = *std::move(session);
  s->graph = graph;
  (void)rill_c::Register(graph);
  SetOk(status);
  return s;
}

void TF_CloseSession(TF_Session* s, TF_Status* status) {
  if (s == nullptr) return SetStatus(status, absl::InvalidArgumentError("The session is null"));
  const absl::Status closed = s->session->Close();
  if (closed.ok()) {
    rill::MutexLock lock(&s->mu);
    s->closed = true;
  }
  SetStatus(status, closed);
}

void TF_DeleteSession(TF_Session* s, TF_Status* status) {
  SetOk(status);
  if (s == nullptr) return;
  TF_Graph* graph = s->graph;
  delete s;
  if (graph != nullptr) {
    {
      rill::MutexLock lock(&graph->mu);
      --graph->num_sessions;
    }
    rill_c::MaybeFreeGraph(graph);
  }
}

void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options, const TF_Output* inputs,
                   TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                   TF_Tensor** output_values, int noutputs, const TF_Operation* const* target_opers,
                   int ntargets, TF_Buffer* run_metadata, TF_Status* status) {
  for (int i = 0; output_values != nullptr && i < noutputs; ++i) output_values[i] = nullptr;
  SetStatus(status,
            rill_c::RunSession(session, run_options, inputs, input_values, ninputs, outputs,
                               output_values, noutputs, target_opers, ntargets, run_metadata));
}

TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status) {
  if (session == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The session is null"));
    return nullptr;
  }
  TF_DeviceList* list = new TF_DeviceList;
  list->devices = session->session->ListDevices();
  SetOk(status);
  return list;
}

void TF_DeleteDeviceList(TF_DeviceList* list) { delete list; }

int TF_DeviceListCount(const TF_DeviceList* list) {
  return list == nullptr ? 0 : static_cast<int>(list->devices.size());
}

namespace {
const rill::DeviceAttributes* DeviceAt(const TF_DeviceList* list, int index, TF_Status* status) {
  if (list == nullptr || index < 0 || index >= static_cast<int>(list->devices.size())) {
    SetStatus(status, absl::InvalidArgumentError("index out of bounds"));
    return nullptr;
  }
  SetOk(status);
  return &list->devices[index];
}
}  // namespace

const char* TF_DeviceListName(const TF_DeviceList* list, int index, TF_Status* status) {
  const rill::DeviceAttributes* d = DeviceAt(list, index, status);
  return d == nullptr ? nullptr : d->name().c_str();
}

const char* TF_DeviceListType(const TF_DeviceList* list, int index, TF_Status* status) {
  const rill::DeviceAttributes* d = DeviceAt(list, index, status);
  return d == nullptr ? nullptr : d->device_type().c_str();
}

int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index, TF_Status* status) {
  const rill::DeviceAttributes* d = DeviceAt(list, index, status);
  return d == nullptr ? -1 : d->memory_limit();
}

uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index, TF_Status* status) {
  const rill::DeviceAttributes* d = DeviceAt(list, index, status);
  return d == nullptr ? 0 : d->incarnation();
}

TF_Session* TF_LoadSessionFromSavedModel(const TF_SessionOptions* session_options,
                                         const TF_Buffer* run_options, const char* export_dir,
                                         const char* const* tags, int tags_len, TF_Graph* graph,
                                         TF_Buffer* meta_graph_def, TF_Status* status) {
  if (session_options == nullptr || export_dir == nullptr || graph == nullptr ||
      (tags_len > 0 && tags == nullptr) || tags_len < 0) {
    SetStatus(status, absl::InvalidArgumentError(
                          "The session options, export_dir, tags or graph are null"));
    return nullptr;
  }
  {
    rill::MutexLock lock(&graph->mu);
    if (graph->graph.num_op_nodes() > 0) {
      SetStatus(status, absl::InvalidArgumentError(
                            "Passing non-empty graph to TF_LoadSessionFromSavedModel isn't "
                            "supported"));
      return nullptr;
    }
  }
  absl::Status target = rill_c::CheckTarget(session_options->target);
  if (!target.ok()) {
    SetStatus(status, target);
    return nullptr;
  }
  std::vector<std::string> tag_list;
  for (int i = 0; i < tags_len; ++i) {
    if (tags[i] != nullptr) tag_list.push_back(tags[i]);
  }
  absl::StatusOr<rill::LoadedSavedModel> loaded =
      rill::LoadSavedModel(session_options->options, export_dir, absl::StrJoin(tag_list, ","));
  if (!loaded.ok()) {
    SetStatus(status, loaded.status());
    return nullptr;
  }
  const std::string graph_bytes = loaded->meta_graph.graph_def().SerializeAsString();
  TF_Buffer* graph_def = TF_NewBufferFromString(graph_bytes.data(), graph_bytes.size());
  TF_Status imported;
  TF_GraphImportGraphDef(graph, graph_def, nullptr, &imported);
  TF_DeleteBuffer(graph_def);
  if (imported.code != TF_OK) {
    TF_SetStatus(status, imported.code, imported.message.c_str());
    return nullptr;
  }
  if (meta_graph_def != nullptr) {
    absl::Status st = rill_c::SerializeToBuffer(loaded->meta_graph, meta_graph_def);
    if (!st.ok()) {
      SetStatus(status, st);
      return nullptr;
    }
  }
  TF_Session* s = new TF_Session;
  s->session = std::move(loaded->session);
  s->graph = graph;
  {
    // Session before graph, the order ExtendSession takes them in.
    rill::MutexLock session_lock(&s->mu);
    rill::MutexLock lock(&graph->mu);
    ++graph->num_sessions;
    s->extended_ids = graph->graph.num_node_ids();  // the loaded session holds them all
  }
  SetOk(status);
  return s;
}

}  // extern "C"
