// Rill. ClientSession: runs the graph a Scope is building, fed and fetched by the Scope's own
// Output and Operation handles, in the manner of TensorFlow's C++ ClientSession.
//
//   Scope root = Scope::NewRootScope();
//   Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
//   Output y = ops::Mul(root, x, ops::Const(root, 2.f));
//   ClientSession session(root);
//   std::vector<Tensor> out;
//   RILL_RETURN_IF_ERROR(session.Run({{x, {1.f, 2.f}}}, {y}, &out));   // out[0]: [2 4]
//
// The graph may keep growing after the session is made: each Run first adds the nodes built
// since the previous Run to the session (Session::Extend), as TensorFlow's ClientSession does.
//
// Errors are returned, never fatal: a Session that could not be made (bad config, unknown
// target) is reported by every Run; the Scope's first build error is reported by Run before
// anything runs; a feed, fetch or target handle made by another root scope is InvalidArgument
// "... belongs to another graph ..." (it would otherwise name whatever node of this graph has the
// same name); the Session's own errors (TensorFlow's texts) pass through unchanged.
//
// Thread safety: Run may be called from several threads at once, also while other threads build
// nodes in the Scope.
#ifndef RILL_SESSION_CLIENT_CLIENT_SESSION_H_
#define RILL_SESSION_CLIENT_CLIENT_SESSION_H_

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "core/tensor.h"
#include "graph/builder/initializer.h"
#include "graph/builder/scope.h"
#include "proto/config.pb.h"
#include "session/session.h"

namespace rill {

// Hash and equality of Outputs by (node, index): the keys of ClientSession::FeedType.
struct OutputHash {
  size_t operator()(const Output& output) const;
};
struct OutputEqual {
  bool operator()(const Output& a, const Output& b) const {
    return a.index() == b.index() && a.node() == b.node() && a.graph_id() == b.graph_id();
  }
};

class ClientSession {
 public:
  // What to feed: each Output (usually a Placeholder's) and its value, as a Tensor or a literal
  // ({1.f, 2.f}, {{1, 2}, {3, 4}}, "text").
  using FeedType = std::unordered_map<Output, Initializer, OutputHash, OutputEqual>;

  // A session in this process with the default options.
  explicit ClientSession(const Scope& scope);
  // A session for `target`: "" (this process) or "grpc://host:port" (docs/distributed.md).
  ClientSession(const Scope& scope, const std::string& target);
  ClientSession(const Scope& scope, const SessionOptions& options);
  ~ClientSession();
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  // Evaluates `fetch_outputs` into `outputs` (one Tensor each, in order).
  absl::Status Run(const std::vector<Output>& fetch_outputs, std::vector<Tensor>* outputs) const;
  // The same with `inputs` fed.
  absl::Status Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                   std::vector<Tensor>* outputs) const;
  // The same, also running `run_outputs` (e.g. an initializer or train op) for their effects.
  absl::Status Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                   const std::vector<Operation>& run_outputs, std::vector<Tensor>* outputs) const;
  // The same with RunOptions (trace level, timeout) and, when `run_metadata` is not null, the
  // step's stats and partition graphs.
  absl::Status Run(const RunOptions& run_options, const FeedType& inputs,
                   const std::vector<Output>& fetch_outputs,
                   const std::vector<Operation>& run_outputs, std::vector<Tensor>* outputs,
                   RunMetadata* run_metadata) const;

  // The Session underneath (null when it could not be made: see status()), for what this class
  // does not wrap (ListDevices, PlacementLog, Close).
  Session* session() const;
  // OK, or why the Session could not be made.
  absl::Status status() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rill

#endif  // RILL_SESSION_CLIENT_CLIENT_SESSION_H_
