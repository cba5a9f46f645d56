// Partial runs (TF_SessionPRunSetup, TF_SessionPRun, TF_DeletePRunHandle) over Rill's Session,
// which has no partial-run executor: each TF_SessionPRun runs the subgraph its fetches need with
// every tensor fed so far. That recomputes the stateless operations earlier calls ran, which
// gives the same values; setups whose fetches or targets need a stateful operation (variables,
// random ops, queues) would see it run again, so they are refused (TF_UNIMPLEMENTED) instead.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"

namespace rill_c {

const rill::Node* FirstStatefulNeeded(const rill::Graph& g, const std::set<std::string>& feeds,
                                      const std::vector<const rill::Node*>& roots) {
  std::vector<const rill::Node*> stack = roots;
  std::vector<bool> seen(g.num_node_ids(), false);
  while (!stack.empty()) {
    const rill::Node* n = stack.back();
    stack.pop_back();
    if (seen[n->id()]) continue;
    seen[n->id()] = true;
    if (n->op_def() != nullptr && n->op_def()->is_stateful()) return n;
    for (const rill::Edge* e : n->in_edges()) {
      if (!e->src()->IsOp()) continue;
      if (!e->IsControlEdge() &&
          feeds.count(absl::StrCat(e->src()->name(), ":", e->src_output()))) {
        continue;
      }
      stack.push_back(e->src());
    }
  }
  return nullptr;
}

absl::Status PartialRunStepNamed(
    PartialRun& run, const std::vector<std::pair<std::string, const TF_Tensor*>>& inputs,
    const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
    const PartialRunner& runner, std::vector<rill::Tensor>* results, bool* done) {
  std::vector<std::pair<std::string, rill::Tensor>> new_feeds;
  for (const auto& [name, value] : inputs) {
    if (!run.feeds.count(name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("The feed ", name, " was not specified in partial_run_setup."));
    }
    for (const auto& [fed, fed_value] : run.fed) {
      if (fed == name) {
        return absl::InvalidArgumentError(
            absl::StrCat("The feed ", name, " has already been fed."));
      }
    }
    absl::StatusOr<rill::Tensor> t = ToRillTensor(value);
    if (!t.ok()) return t.status();
    new_feeds.emplace_back(name, *std::move(t));
  }
  for (const std::string& name : fetches) {
    if (!run.fetches.count(name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("The fetch ", name, " was not specified in partial_run_setup."));
    }
    if (run.fetched.count(name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("The fetch ", name, " has already been fetched."));
    }
  }
  for (const std::string& name : targets) {
    if (!run.targets.count(name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("The target ", name, " was not specified in partial_run_setup."));
    }
  }
  std::vector<std::pair<std::string, rill::Tensor>> feeds = run.fed;
  feeds.insert(feeds.end(), new_feeds.begin(), new_feeds.end());
  results->clear();
  if (!fetches.empty() || !targets.empty()) {
    absl::Status st = runner(feeds, fetches, targets, results);
    if (!st.ok()) return st;
  }
  run.fed = std::move(feeds);
  run.fetched.insert(fetches.begin(), fetches.end());
  // Done once everything declared was fetched: its fed tensors can be released.
  *done = !run.fetches.empty() && run.fetched.size() == run.fetches.size();
  return absl::OkStatus();
}

char* CopyString(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

namespace {

absl::StatusOr<std::string> Setup(TF_Session* s, const TF_Output* inputs, int ninputs,
                                  const TF_Output* outputs, int noutputs,
                                  const TF_Operation* const* targets, int ntargets) {
  if (s == nullptr) return absl::InvalidArgumentError("The session is null");
  {
    rill::MutexLock lock(&s->mu);
    if (s->closed) return absl::CancelledError("Session has been closed.");
  }
  if (ninputs < 0 || noutputs < 0 || ntargets < 0 || (ninputs > 0 && inputs == nullptr) ||
      (noutputs > 0 && outputs == nullptr) || (ntargets > 0 && targets == nullptr)) {
    return absl::InvalidArgumentError("An array of inputs, outputs or targets is null");
  }
  auto run = std::make_unique<PartialRun>();
  std::vector<const rill::Node*> roots;
  for (int i = 0; i < ninputs; ++i) {
    if (inputs[i].oper == nullptr) return absl::InvalidArgumentError("An input is null");
    run->feeds.insert(OutputName(inputs[i]));
  }
  for (int i = 0; i < noutputs; ++i) {
    if (outputs[i].oper == nullptr) return absl::InvalidArgumentError("An output is null");
    run->fetches.insert(OutputName(outputs[i]));
    roots.push_back(ToNode(outputs[i].oper));
  }
  for (int i = 0; i < ntargets; ++i) {
    if (targets[i] == nullptr) return absl::InvalidArgumentError("A target is null");
    run->targets.insert(ToNode(targets[i])->name());
    roots.push_back(ToNode(targets[i]));
  }
  {
    rill::MutexLock lock(&s->graph->mu);
    const rill::Node* stateful = FirstStatefulNeeded(s->graph->graph, run->feeds, roots);
    if (stateful != nullptr) {
      return absl::UnimplementedError(absl::StrCat(
          "Partial runs that need a stateful operation are not implemented in Rill: '",
          stateful->name(), "' (", stateful->op(), ") would run again at each TF_SessionPRun"));
    }
  }
  rill::MutexLock lock(&s->prun_mu);
  const std::string handle = absl::StrCat("rill_partial_run_", s->next_partial_run++);
  s->partial_runs[handle] = std::move(run);
  return handle;
}

absl::Status PartialRunStep(TF_Session* s, const char* handle, const TF_Output* inputs,
                            TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                            TF_Tensor** output_values, int noutputs,
                            const TF_Operation* const* targets, int ntargets) {
  if (s == nullptr || handle == nullptr) {
    return absl::InvalidArgumentError("The session or the handle is null");
  }
  if (ninputs < 0 || noutputs < 0 || ntargets < 0 ||
      (ninputs > 0 && (inputs == nullptr || input_values == nullptr)) ||
      (noutputs > 0 && (outputs == nullptr || output_values == nullptr)) ||
      (ntargets > 0 && targets == nullptr)) {
    return absl::InvalidArgumentError("An array of inputs, outputs or targets is null");
  }
  std::vector<std::pair<std::string, const TF_Tensor*>> feeds;
  for (int i = 0; i < ninputs; ++i) {
    if (inputs[i].oper == nullptr) return absl::InvalidArgumentError("An input is null");
    feeds.emplace_back(OutputName(inputs[i]), input_values[i]);
  }
  std::vector<std::string> fetches;
  for (int i = 0; i < noutputs; ++i) {
    if (outputs[i].oper == nullptr) return absl::InvalidArgumentError("An output is null");
    fetches.push_back(OutputName(outputs[i]));
  }
  std::vector<std::string> target_names;
  for (int i = 0; i < ntargets; ++i) {
    if (targets[i] == nullptr) return absl::InvalidArgumentError("A target is null");
    target_names.push_back(ToNode(targets[i])->name());
  }
  rill::MutexLock lock(&s->prun_mu);  // one step of a partial run at a time
  auto it = s->partial_runs.find(handle);
  if (it == s->partial_runs.end()) {
    return absl::InvalidArgumentError("Must run 'setup' before performing partial runs!");
  }
  std::vector<rill::Tensor> results;
  bool done = false;
  absl::Status st = PartialRunStepNamed(
      *it->second, feeds, fetches, target_names,
      [s](const std::vector<std::pair<std::string, rill::Tensor>>& f,
          const std::vector<std::string>& o, const std::vector<std::string>& t,
          std::vector<rill::Tensor>* r) {
        return RunNamed(s, rill::RunOptions(), f, o, t, r, nullptr);
      },
      &results, &done);
  if (!st.ok()) return st;
  for (size_t i = 0; i < results.size(); ++i) output_values[i] = FromRillTensor(results[i]);
  if (done) s->partial_runs.erase(it);
  return absl::OkStatus();
}

}  // namespace
}  // namespace rill_c

extern "C" {

void TF_SessionPRunSetup(TF_Session* session, const TF_Output* inputs, int ninputs,
                         const TF_Output* outputs, int noutputs,
                         const TF_Operation* const* target_opers, int ntargets, const char** handle,
                         TF_Status* status) {
  if (handle != nullptr) *handle = nullptr;
  if (handle == nullptr) {
    return rill_c::SetStatus(status, absl::InvalidArgumentError("The handle pointer is null"));
  }
  absl::StatusOr<std::string> made =
      rill_c::Setup(session, inputs, ninputs, outputs, noutputs, target_opers, ntargets);
  if (!made.ok()) return rill_c::SetStatus(status, made.status());
  *handle = rill_c::CopyString(*made);
  rill_c::SetOk(status);
}

void TF_SessionPRun(TF_Session* session, const char* handle, const TF_Output* inputs,
                    TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                    TF_Tensor** output_values, int noutputs,
                    const TF_Operation* const* target_opers, int ntargets, TF_Status* status) {
  for (int i = 0; output_values != nullptr && i < noutputs; ++i) output_values[i] = nullptr;
  rill_c::SetStatus(status,
                    rill_c::PartialRunStep(session, handle, inputs, input_values, ninputs, outputs,
                                           output_values, noutputs, target_opers, ntargets));
}

void TF_DeletePRunHandle(const char* handle) { std::free(const_cast<char*>(handle)); }

}  // extern "C"
