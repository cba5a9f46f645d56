#include "distributed/partial_run.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ops/op_registry.h"

namespace rill {
namespace distributed {
namespace {

std::string NodeOf(const std::string& tensor) {
  const std::string name = tensor[0] == '^' ? tensor.substr(1) : tensor;
  return name.substr(0, name.find(':'));
}

// Stateful ops that give the same result when run again in a later step: variables and their
// reads.
bool RerunIsHarmless(const std::string& op) {
  static const std::set<std::string>* ops = new std::set<std::string>(
      {"VariableV2", "Variable", "VarHandleOp", "ReadVariableOp", "VarIsInitializedOp",
       "IsVariableInitialized", "Placeholder", "PlaceholderV2", "PlaceholderWithDefault"});
  return ops->count(op) > 0;
}

bool IsStateful(const std::string& op) {
  const OpRegistration* reg = OpRegistry::Global()->LookUp(op);
  return reg == nullptr || reg->op_def.is_stateful();
}

}  // namespace

std::string CanonicalTensorName(const std::string& name) {
  if (name.empty() || name[0] == '^' || name.find(':') != std::string::npos) return name;
  return name + ":0";
}

PartialRun::PartialRun(GraphDef graph, const std::vector<std::string>& feeds,
                       const std::vector<std::string>& fetches,
                       const std::vector<std::string>& targets)
    : graph_(std::move(graph)), targets_(targets), targets_done_(targets.empty()) {
  for (int i = 0; i < graph_.node_size(); ++i) nodes_[graph_.node(i).name()] = i;
  for (const std::string& f : feeds) feeds_.insert(CanonicalTensorName(f));
  for (const std::string& f : fetches) fetches_.insert(CanonicalTensorName(f));
}

std::set<std::string> PartialRun::NodesRun(const std::vector<std::string>& fetches,
                                           const std::vector<std::string>& targets,
                                           const std::set<std::string>& fed) const {
  std::set<std::string> seen;
  std::vector<std::string> stack;
  for (const std::string& f : fetches) {
    if (!fed.count(CanonicalTensorName(f))) stack.push_back(NodeOf(f));
  }
  for (const std::string& t : targets) stack.push_back(NodeOf(t));
  while (!stack.empty()) {
    const std::string name = stack.back();
    stack.pop_back();
    if (!seen.insert(name).second) continue;
    auto it = nodes_.find(name);
    if (it == nodes_.end()) continue;  // the Session reports unknown names
    for (const std::string& input : graph_.node(it->second).input()) {
      if (input[0] != '^' && fed.count(CanonicalTensorName(input))) continue;
      stack.push_back(NodeOf(input));
    }
  }
  return seen;
}

absl::StatusOr<PartialRun::Step> PartialRun::Plan(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetches) {
  Step step;
  std::set<std::string> fed;
  for (const auto& [name, value] : fed_) {
    step.feeds.emplace_back(name, value);
    fed.insert(name);
  }
  for (const auto& [name, value] : feeds) {
    const std::string canonical = CanonicalTensorName(name);
    if (!feeds_.count(canonical)) {
      return absl::InvalidArgumentError(
          absl::StrCat("The feed ", name, " was not specified in partial_run_setup."));
    }
    if (fed.count(canonical)) {
      return absl::InvalidArgumentError(absl::StrCat("The feed ", name, " has already been fed."));
    }
    step.feeds.emplace_back(canonical, value);
    fed.insert(canonical);
  }
  std::set<std::string> fetching;
  for (const std::string& name : fetches) {
    const std::string canonical = CanonicalTensorName(name);
    if (!fetches_.count(canonical)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Fetch ", name, " was not specified in partial_run_setup."));
    }
    if (fetched_.count(canonical) || !fetching.insert(canonical).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("The tensor ", name, " has already been fetched."));
    }
    step.fetches.push_back(name);
  }
  if (!targets_done_ && fetched_.size() + fetching.size() == fetches_.size()) {
    step.targets = targets_;
  }
  planned_ran_ = NodesRun(step.fetches, step.targets, fed);
  for (const std::string& name : planned_ran_) {
    if (!ran_.count(name)) continue;
    auto it = nodes_.find(name);
    if (it == nodes_.end()) continue;
    const std::string& op = graph_.node(it->second).op();
    if (IsStateful(op) && !RerunIsHarmless(op)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "This partial_run call needs node '", name, "' (", op,
          "), which an earlier call of the same partial run already ran; Rill's master runs each "
          "partial_run call as a step of its own and would run this stateful node again. Fetch "
          "what depends on it in the call that first runs it, or fetch its outputs there so that "
          "later calls are fed with them."));
    }
  }
  return step;
}

void PartialRun::Ran(const Step& step, const std::vector<Tensor>& outputs) {
  for (const auto& [name, value] : step.feeds) fed_.emplace(name, value);
  for (size_t i = 0; i < step.fetches.size() && i < outputs.size(); ++i) {
    const std::string canonical = CanonicalTensorName(step.fetches[i]);
    fetched_.insert(canonical);
    auto it = nodes_.find(NodeOf(canonical));
    // A variable's output is read again rather than fed (refs are not fed).
    if (it != nodes_.end() && RerunIsHarmless(graph_.node(it->second).op())) continue;
    fed_.emplace(canonical, outputs[i]);
  }
  ran_.insert(planned_ran_.begin(), planned_ran_.end());
  if (!step.targets.empty()) targets_done_ = true;
}

}  // namespace distributed
}  // namespace rill
