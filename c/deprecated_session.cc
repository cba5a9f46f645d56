// The session API from before TF_Graph: TF_NewDeprecatedSession, TF_ExtendGraph with serialized
// GraphDefs, TF_Run with tensor and operation names (it takes ownership of its inputs, whatever
// happens), close, delete, device lists and TF_Reset. Partial runs by name (TF_PRunSetup,
// TF_PRun) are not served (unimplemented.cc).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "proto/graph.pb.h"

struct TF_DeprecatedSession {
  std::unique_ptr<rill::Session> session;
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
      !options.ParseFromArray(run_options->data, static_cast<int>(run_options->length))) {
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
  if ((proto == nullptr && proto_len > 0) ||
      !def.ParseFromArray(proto, static_cast<int>(proto_len))) {
    return SetStatus(status, absl::InvalidArgumentError("Invalid GraphDef"));
  }
  SetStatus(status, s->session->Extend(def));
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

TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* s, TF_Status* status) {
  if (s == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The session is null"));
    return nullptr;
  }
  SetOk(status);
  return new TF_DeviceList{s->session->ListDevices()};
}

}  // extern "C"
