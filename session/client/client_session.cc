#include "session/client/client_session.h"

#include <functional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "proto/graph.pb.h"

namespace rill {

size_t OutputHash::operator()(const Output& output) const {
  return std::hash<std::string>()(output.node()) * 31 + static_cast<size_t>(output.index());
}

struct ClientSession::State {
  explicit State(const Scope& s) : scope(s) {}

  Scope scope;
  std::unique_ptr<Session> session;
  absl::Status init_status;  // why `session` could not be made
  rill::Mutex mu;
  int nodes_sent ABSL_GUARDED_BY(mu) = 0;  // nodes of scope's graph the session has
  bool created ABSL_GUARDED_BY(mu) = false;

  // Hands the nodes built since the last call to the session: Create the first time, Extend
  // after.
  absl::Status SendNewNodes() {
    RILL_RETURN_IF_ERROR(scope.status());
    rill::MutexLock lock(&mu);
    if (created && scope.NodeCount() == nodes_sent) return absl::OkStatus();
    GraphDef graph;
    RILL_RETURN_IF_ERROR(scope.ToGraphDef(&graph));
    if (!created) {
      RILL_RETURN_IF_ERROR(session->Create(graph));
      created = true;
      nodes_sent = graph.node_size();
      return absl::OkStatus();
    }
    GraphDef added;
    *added.mutable_versions() = graph.versions();
    for (int i = nodes_sent; i < graph.node_size(); ++i) *added.add_node() = graph.node(i);
    RILL_RETURN_IF_ERROR(session->Extend(added));
    nodes_sent = graph.node_size();
    return absl::OkStatus();
  }

  // InvalidArgument when `id` is another graph's (0, a handle made by hand, is looked up by
  // name).
  absl::Status CheckOwned(uint64_t id, const std::string& what, const std::string& name) const {
    if (id == 0 || id == scope.graph_id()) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat("ClientSession: ", what, " '", name,
                     "' belongs to another graph (made from another root scope than the one "
                     "this session runs); build it in this session's scope"));
  }
};

namespace {

SessionOptions WithTarget(const std::string& target) {
  SessionOptions options;
  options.target = target;
  return options;
}

}  // namespace

ClientSession::ClientSession(const Scope& scope) : ClientSession(scope, SessionOptions()) {}

ClientSession::ClientSession(const Scope& scope, const std::string& target)
    : ClientSession(scope, WithTarget(target)) {}

ClientSession::ClientSession(const Scope& scope, const SessionOptions& options)
    : state_(std::make_unique<State>(scope)) {
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
  if (session.ok()) {
    state_->session = *std::move(session);
  } else {
    state_->init_status = session.status();
  }
}

ClientSession::~ClientSession() = default;

Session* ClientSession::session() const { return state_->session.get(); }

absl::Status ClientSession::status() const { return state_->init_status; }

absl::Status ClientSession::Run(const std::vector<Output>& fetch_outputs,
                                std::vector<Tensor>* outputs) const {
  return Run(FeedType{}, fetch_outputs, {}, outputs);
}

absl::Status ClientSession::Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                                std::vector<Tensor>* outputs) const {
  return Run(inputs, fetch_outputs, {}, outputs);
}

absl::Status ClientSession::Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                                const std::vector<Operation>& run_outputs,
                                std::vector<Tensor>* outputs) const {
  return Run(RunOptions(), inputs, fetch_outputs, run_outputs, outputs, nullptr);
}

absl::Status ClientSession::Run(const RunOptions& run_options, const FeedType& inputs,
                                const std::vector<Output>& fetch_outputs,
                                const std::vector<Operation>& run_outputs,
                                std::vector<Tensor>* outputs, RunMetadata* run_metadata) const {
  State& st = *state_;
  RILL_RETURN_IF_ERROR(st.init_status);
  if (outputs == nullptr && !fetch_outputs.empty()) {
    return absl::InvalidArgumentError("ClientSession::Run: outputs is null but there are fetches");
  }
  std::vector<std::pair<std::string, Tensor>> feeds;
  feeds.reserve(inputs.size());
  for (const auto& [output, value] : inputs) {
    if (!output.valid()) {
      return absl::InvalidArgumentError(
          "ClientSession::Run: a feed key is an invalid Output (default-constructed, or from a "
          "node that failed to build)");
    }
    RILL_RETURN_IF_ERROR(st.CheckOwned(output.graph_id(), "feed", output.TensorName()));
    if (!value.status().ok()) {
      return absl::InvalidArgumentError(absl::StrCat("ClientSession::Run: the value fed to '",
                                                     output.TensorName(),
                                                     "' is malformed: ", value.status().message()));
    }
    feeds.emplace_back(output.TensorName(), value.tensor());
  }
  std::vector<std::string> fetches;
  fetches.reserve(fetch_outputs.size());
  for (size_t i = 0; i < fetch_outputs.size(); ++i) {
    const Output& fetch = fetch_outputs[i];
    if (!fetch.valid()) {
      return absl::InvalidArgumentError(
          absl::StrCat("ClientSession::Run: fetch ", i,
                       " is an invalid Output (default-constructed, or from a node that failed "
                       "to build)"));
    }
    RILL_RETURN_IF_ERROR(st.CheckOwned(fetch.graph_id(), "fetch", fetch.TensorName()));
    fetches.push_back(fetch.TensorName());
  }
  std::vector<std::string> targets;
  targets.reserve(run_outputs.size());
  for (size_t i = 0; i < run_outputs.size(); ++i) {
    const Operation& target = run_outputs[i];
    if (!target.valid()) {
      return absl::InvalidArgumentError(
          absl::StrCat("ClientSession::Run: run_outputs ", i,
                       " is an invalid Operation (default-constructed, or from a node that "
                       "failed to build)"));
    }
    RILL_RETURN_IF_ERROR(st.CheckOwned(target.graph_id(), "target", target.name()));
    targets.push_back(target.name());
  }
  RILL_RETURN_IF_ERROR(st.SendNewNodes());
  return st.session->Run(run_options, feeds, fetches, targets, outputs, run_metadata);
}

}  // namespace rill
