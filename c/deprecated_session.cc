// The session API from before TF_Graph: TF_NewDeprecatedSession, TF_ExtendGraph with serialized
// GraphDefs, TF_Run with tensor and operation names (it takes ownership of its inputs, whatever
// happens), partial runs by name (TF_PRunSetup, TF_PRun: as prun.cc's, over the GraphDefs the
// session was extended with), close, delete, device lists and TF_Reset.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "graph/graph_def_import.h"
#include "proto/graph.pb.h"

struct TF_DeprecatedSession {
  std::unique_ptr<rill::Session> session;
  rill::Mutex mu;
  // Every node the session was extended with (partial runs look for stateful operations here).
  rill::GraphDef graph ABSL_GUARDED_BY(mu);
  std::map<std::string, std::unique_ptr<rill_c::PartialRun>> partial_runs ABSL_GUARDED_BY(mu);
  int64_t next_partial_run ABSL_GUARDED_BY(mu) = 0;
};

namespace rill_c {
namespace {

absl::Status Run(TF_DeprecatedSession* s, const TF_Buffer* run_options, const char** input_names,
                 TF_Tensor** inputs, int ninputs, const char** output_names, TF_Tensor** outputs,
                 int noutputs, const char** target_oper_names, int ntargets,
                 TF_Buffer* run_metadata) {
  if (s == nullptr) return absl::InvalidArgumentError("The session is null");
  if (ninputs < 0 || noutputs < 0 || ntargets < 0 ||
      (ninputs > 0 && (input_names == nullptr || inputs == nullptr)) ||
      (noutputs > 0 && (output_names == nullptr || outputs == nullptr)) ||
      (ntargets > 0 && target_oper_names == nullptr)) {
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
    if (input_names[i] == nullptr) return absl::InvalidArgumentError("An input name is null");
    absl::StatusOr<rill::Tensor> t = ToRillTensor(inputs[i]);
    if (!t.ok()) return t.status();
    feeds.emplace_back(input_names[i], *std::move(t));
  }
  std::vector<std::string> fetches, targets;
  for (int i = 0; i < noutputs; ++i) {
    if (output_names[i] == nullptr) return absl::InvalidArgumentError("An output name is null");
    fetches.push_back(output_names[i]);
  }
  for (int i = 0; i < ntargets; ++i) {
    if (target_oper_names[i] == nullptr) {
      return absl::InvalidArgumentError("A target name is null");
    }
    targets.push_back(target_oper_names[i]);
  }
  std::vector<rill::Tensor> results;
  rill::RunMetadata metadata;
  absl::Status st = s->session->Run(options, feeds, fetches, targets, &results,
                                    run_metadata == nullptr ? nullptr : &metadata);
  if (!st.ok()) return st;
  for (int i = 0; i < noutputs; ++i) outputs[i] = FromRillTensor(results[i]);
  if (run_metadata != nullptr) return SerializeToBuffer(metadata, run_metadata);
  return absl::OkStatus();
}

// "x" -> "x:0"; tensor names as the session spells them.
std::string TensorName(const char* name) {
  const std::string n(name);
  return n.find(':') == std::string::npos ? n + ":0" : n;
}

absl::StatusOr<std::string> PartialRunSetup(TF_DeprecatedSession* s, const char** input_names,
                                            int ninputs, const char** output_names, int noutputs,
                                            const char** target_names, int ntargets) {
  if (s == nullptr) return absl::InvalidArgumentError("The session is null");
  if (ninputs < 0 || noutputs < 0 || ntargets < 0 || (ninputs > 0 && input_names == nullptr) ||
      (noutputs > 0 && output_names == nullptr) || (ntargets > 0 && target_names == nullptr)) {
    return absl::InvalidArgumentError("An array of inputs, outputs or targets is null");
  }
  auto run = std::make_unique<PartialRun>();
  std::vector<std::string> roots;
  for (int i = 0; i < ninputs; ++i) {
    if (input_names[i] == nullptr) return absl::InvalidArgumentError("An input name is null");
    run->feeds.insert(TensorName(input_names[i]));
  }
  for (int i = 0; i < noutputs; ++i) {
    if (output_names[i] == nullptr) return absl::InvalidArgumentError("An output name is null");
    run->fetches.insert(TensorName(output_names[i]));
    roots.push_back(TensorName(output_names[i]));
  }
  for (int i = 0; i < ntargets; ++i) {
    if (target_names[i] == nullptr) return absl::InvalidArgumentError("A target name is null");
    run->targets.insert(target_names[i]);
    roots.push_back(std::string(target_names[i]) + ":0");
  }
  rill::MutexLock lock(&s->mu);
  absl::StatusOr<std::unique_ptr<rill::Graph>> g = rill::ImportGraphDef(s->graph);
  if (!g.ok()) return g.status();
  std::vector<const rill::Node*> nodes;
  for (const std::string& root : roots) {
    const rill::Node* n = (*g)->FindNode(root.substr(0, root.rfind(':')));
    if (n == nullptr) {
      return absl::NotFoundError(absl::StrCat("'", root, "' is not in the session's graph"));
    }
    nodes.push_back(n);
  }
  const rill::Node* stateful = FirstStatefulNeeded(**g, run->feeds, nodes);
  if (stateful != nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("Partial runs that need a stateful operation are not implemented in Rill: '",
                     stateful->name(), "' (", stateful->op(), ") would run again at each TF_PRun"));
  }
  const std::string handle = absl::StrCat("rill_partial_run_", s->next_partial_run++);
  s->partial_runs[handle] = std::move(run);
  return handle;
}

absl::Status PartialRunStep(TF_DeprecatedSession* s, const char* handle, const char** input_names,
                            TF_Tensor** inputs, int ninputs, const char** output_names,
                            TF_Tensor** outputs, int noutputs, const char** target_names,
                            int ntargets) {
  if (s == nullptr || handle == nullptr) {
    return absl::InvalidArgumentError("The session or the handle is null");
  }
  if (ninputs < 0 || noutputs < 0 || ntargets < 0 ||
      (ninputs > 0 && (input_names == nullptr || inputs == nullptr)) ||
      (noutputs > 0 && (output_names == nullptr || outputs == nullptr)) ||
      (ntargets > 0 && target_names == nullptr)) {
    return absl::InvalidArgumentError("An array of inputs, outputs or targets is null");
  }
  std::vector<std::pair<std::string, const TF_Tensor*>> feeds;
  for (int i = 0; i < ninputs; ++i) {
    if (input_names[i] == nullptr) return absl::InvalidArgumentError("An input name is null");
    feeds.emplace_back(TensorName(input_names[i]), inputs[i]);
  }
  std::vector<std::string> fetches, targets;
  for (int i = 0; i < noutputs; ++i) {
    if (output_names[i] == nullptr) return absl::InvalidArgumentError("An output name is null");
    fetches.push_back(TensorName(output_names[i]));
  }
  for (int i = 0; i < ntargets; ++i) {
    if (target_names[i] == nullptr) return absl::InvalidArgumentError("A target name is null");
    targets.push_back(target_names[i]);
  }
  rill::MutexLock lock(&s->mu);
  auto it = s->partial_runs.find(handle);
  if (it == s->partial_runs.end()) {
    return absl::InvalidArgumentError("Must run 'setup' before performing partial runs!");
  }
  std::vector<rill::Tensor> results;
  bool done = false;
  absl::Status st = PartialRunStepNamed(
      *it->second, feeds, fetches, targets,
      [s](const std::vector<std::pair<std::string, rill::Tensor>>& f,
          const std::vector<std::string>& o, const std::vector<std::string>& t,
          std::vector<rill::Tensor>* r) { return s->session->Run(f, o, t, r); },
      &results, &done);
  if (!st.ok()) return st;
  for (size_t i = 0; i < results.size(); ++i) outputs[i] = FromRillTensor(results[i]);
  if (done) s->partial_runs.erase(it);
  return absl::OkStatus();
}

}  // namespace
}  // namespace rill_c

using rill_c::SetOk;
using rill_c::SetStatus;

extern "C" {

TF_DeprecatedSession* TF_NewDeprecatedSession(const TF_SessionOptions* opts, TF_Status* status) {
  if (opts == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The session options are null"));
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
  SetOk(status);
  return new TF_DeprecatedSession{*std::move(session)};
}

void TF_CloseDeprecatedSession(TF_DeprecatedSession* s, TF_Status* status) {
  if (s == nullptr) return SetStatus(status, absl::InvalidArgumentError("The session is null"));
  SetStatus(status, s->session->Close());
}

void TF_DeleteDeprecatedSession(TF_DeprecatedSession* s, TF_Status* status) {
  SetOk(status);
  delete s;
}

void TF_Reset(const TF_SessionOptions* opt, const char**, int, TF_Status* status) {
  // Rill's sessions own their devices and resources, so no state outlives a session.
  if (opt == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The session options are null"));
  }
  SetStatus(status, rill_c::CheckTarget(opt->target));
}

void TF_ExtendGraph(TF_DeprecatedSession* s, const void* proto, size_t proto_len,
                    TF_Status* status) {
  if (s == nullptr) return SetStatus(status, absl::InvalidArgumentError("The session is null"));
  rill::GraphDef def;
  if (!rill_c::ParseFromBytes(proto, proto_len, &def)) {
    return SetStatus(status, absl::InvalidArgumentError("Invalid GraphDef"));
  }
  absl::Status st = s->session->Extend(def);
  if (st.ok()) {
    rill::MutexLock lock(&s->mu);
    if (s->graph.node_size() == 0 && def.has_library()) *s->graph.mutable_library() = def.library();
    if (!s->graph.has_versions() && def.has_versions()) {
      *s->graph.mutable_versions() = def.versions();
    }
    for (const rill::NodeDef& n : def.node()) *s->graph.add_node() = n;
  }
  SetStatus(status, st);
}

void TF_Run(TF_DeprecatedSession* s, const TF_Buffer* run_options, const char** input_names,
            TF_Tensor** inputs, int ninputs, const char** output_names, TF_Tensor** outputs,
            int noutputs, const char** target_oper_names, int ntargets, TF_Buffer* run_metadata,
            TF_Status* status) {
  for (int i = 0; outputs != nullptr && i < noutputs; ++i) outputs[i] = nullptr;
  SetStatus(status, rill_c::Run(s, run_options, input_names, inputs, ninputs, output_names, outputs,
                                noutputs, target_oper_names, ntargets, run_metadata));
  // The inputs are the implementation's in every case.
  for (int i = 0; inputs != nullptr && i < ninputs; ++i) TF_DeleteTensor(inputs[i]);
}

void TF_PRunSetup(TF_DeprecatedSession* s, const char** input_names, int ninputs,
                  const char** output_names, int noutputs, const char** target_oper_names,
                  int ntargets, const char** handle, TF_Status* status) {
  if (handle != nullptr) *handle = nullptr;
  if (handle == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The handle pointer is null"));
  }
  absl::StatusOr<std::string> made = rill_c::PartialRunSetup(s, input_names, ninputs, output_names,
                                                             noutputs, target_oper_names, ntargets);
  if (!made.ok()) return SetStatus(status, made.status());
  *handle = rill_c::CopyString(*made);
  SetOk(status);
}

void TF_PRun(TF_DeprecatedSession* s, const char* handle, const char** input_names,
             TF_Tensor** inputs, int ninputs, const char** output_names, TF_Tensor** outputs,
             int noutputs, const char** target_oper_names, int ntargets, TF_Status* status) {
  for (int i = 0; outputs != nullptr && i < noutputs; ++i) outputs[i] = nullptr;
  SetStatus(status, rill_c::PartialRunStep(s, handle, input_names, inputs, ninputs, output_names,
                                           outputs, noutputs, target_oper_names, ntargets));
  // The inputs are the implementation's in every case.
  for (int i = 0; inputs != nullptr && i < ninputs; ++i) TF_DeleteTensor(inputs[i]);
}

TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* s, TF_Status* status) {
  if (s == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The session is null"));
    return nullptr;
  }
  SetOk(status);
  return new TF_DeviceList{s->session->ListDevices()};
}

}  // extern "C"
