#include "session/run_graph.h"

#include <algorithm>
#include <deque>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

std::string Sanitize(const std::string& name) {
  std::string out = name;
  std::replace(out.begin(), out.end(), '/', '_');
  return out;
}

}  // namespace

std::string CanonicalTensorName(const std::string& name) {
  if (!name.empty() && name[0] == '^') return name;
  absl::StatusOr<InputName> in = ParseInputName(name);
  if (!in.ok()) return name;
  return absl::StrCat(in->node, ":", in->index);
}

absl::StatusOr<RunGraph> BuildRunGraph(const GraphDef& graph,
                                       const std::vector<std::string>& feeds_in,
                                       const std::vector<std::string>& fetches_in,
                                       const std::vector<std::string>& targets) {
  if (fetches_in.empty() && targets.empty()) {
    return absl::InvalidArgumentError("Must specify at least one target to fetch or execute.");
  }
  absl::flat_hash_map<std::string, int> by_name;
  for (int i = 0; i < graph.node_size(); ++i) by_name[graph.node(i).name()] = i;

  RunGraph run;
  std::set<std::string> feed_set;
  for (const std::string& f : feeds_in) {
    std::string c = CanonicalTensorName(f);
    if (!feed_set.insert(c).second) {
      return absl::InvalidArgumentError(absl::StrCat("Endpoint \"", c, "\" fed more than once."));
    }
  }
  run.feeds.assign(feed_set.begin(), feed_set.end());
  for (const std::string& f : fetches_in) {
    std::string c = CanonicalTensorName(f);
    if (feed_set.count(c)) {
      return absl::InvalidArgumentError(absl::StrCat(c, " is both fed and fetched."));
    }
    if (std::find(run.fetches.begin(), run.fetches.end(), c) == run.fetches.end()) {
      run.fetches.push_back(c);
    }
  }
  std::string missing_targets;
  for (const std::string& t : targets) {
    if (!by_name.count(t)) absl::StrAppend(&missing_targets, t, " ");
  }
  if (!missing_targets.empty()) {
    return absl::NotFoundError(
        absl::StrCat("PruneForTargets: Some target nodes not found: ", missing_targets));
  }

  GraphDef g = graph;
  // Feeds: add _Arg nodes and redirect consumers.
  absl::flat_hash_map<std::string, std::string> redirect;  // "n:i" -> arg node
  for (size_t k = 0; k < run.feeds.size(); ++k) {
    RILL_ASSIGN_OR_RETURN(InputName in, ParseInputName(run.feeds[k]));
    auto it = by_name.find(in.node);
    if (it == by_name.end()) {
      return absl::NotFoundError(
          absl::StrCat("FeedInputs: unable to find feed output ", run.feeds[k]));
    }
    RILL_ASSIGN_OR_RETURN(DataTypeVector outs, OutputTypesForNode(graph.node(it->second)));
    if (in.index >= static_cast<int>(outs.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("FeedInputs: ", run.feeds[k], " should have output index < ", outs.size()));
    }
    NodeDef* arg = g.add_node();
    arg->set_name(absl::StrCat("_arg_", Sanitize(in.node), "_", in.index, "_", k));
    arg->set_op("_Arg");
    SetAttr(arg, "T", BaseType(outs[in.index]));
    SetAttr(arg, "index", static_cast<int64_t>(k));
    run.feed_types.push_back(BaseType(outs[in.index]));
    run.arg_nodes.push_back(arg->name());
    redirect[run.feeds[k]] = arg->name();
    // As TensorFlow: a fed Placeholder's control consumers wait for the feed instead, so the
    // Placeholder itself (which would fail unfed) is pruned.
    const std::string& op = graph.node(it->second).op();
    if (op == "Placeholder" || op == "PlaceholderV2") {
      redirect["^" + in.node] = "^" + arg->name();
    }
  }
  if (!redirect.empty()) {
    for (NodeDef& n : *g.mutable_node()) {
      for (std::string& input : *n.mutable_input()) {
        if (input.empty()) continue;
        auto r = redirect.find(input[0] == '^' ? input : CanonicalTensorName(input));
        if (r != redirect.end()) input = r->second;
      }
    }
  }
  // Fetches: add _Retval nodes.
  for (size_t k = 0; k < run.fetches.size(); ++k) {
    RILL_ASSIGN_OR_RETURN(InputName in, ParseInputName(run.fetches[k]));
    auto it = by_name.find(in.node);
    if (it == by_name.end()) {
      return absl::NotFoundError(absl::StrCat("FetchOutputs node ", run.fetches[k], ": not found"));
    }
    RILL_ASSIGN_OR_RETURN(DataTypeVector outs, OutputTypesForNode(graph.node(it->second)));
    if (outs.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tried to fetch data for '", run.fetches[k],
          "', which produces no output.  To run to a node but not fetch any data, pass '",
          run.fetches[k],
          "' as an argument to the 'target_node_names' argument of the Session::Run API."));
    }
    if (in.index >= static_cast<int>(outs.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "FetchOutputs ", run.fetches[k], ": output index too large, must be < ", outs.size()));
    }
    NodeDef* ret = g.add_node();
    ret->set_name(absl::StrCat("_retval_", Sanitize(in.node), "_", in.index, "_", k));
    ret->set_op("_Retval");
    auto fed = redirect.find(run.fetches[k]);
    ret->add_input(fed != redirect.end()
                       ? fed->second
                       : (in.index == 0 ? in.node : absl::StrCat(in.node, ":", in.index)));
    SetAttr(ret, "T", BaseType(outs[in.index]));
    SetAttr(ret, "index", static_cast<int64_t>(k));
    run.retval_nodes.push_back(ret->name());
  }
  // Prune to what the retvals and targets need.
  absl::flat_hash_map<std::string, int> index;
  for (int i = 0; i < g.node_size(); ++i) index[g.node(i).name()] = i;
  std::vector<bool> keep(g.node_size(), false);
  std::deque<int> work;
  auto visit = [&](const std::string& name) -> absl::Status {
    auto it = index.find(name);
    if (it == index.end()) {
      return absl::InvalidArgumentError(absl::StrCat("Graph refers to missing node '", name, "'"));
    }
    if (!keep[it->second]) {
      keep[it->second] = true;
      work.push_back(it->second);
    }
    return absl::OkStatus();
  };
  for (const std::string& r : run.retval_nodes) RILL_RETURN_IF_ERROR(visit(r));
  for (const std::string& t : targets) RILL_RETURN_IF_ERROR(visit(t));
  for (const std::string& a : run.arg_nodes) RILL_RETURN_IF_ERROR(visit(a));
  while (!work.empty()) {
    const NodeDef& n = g.node(work.front());
    work.pop_front();
    for (const std::string& input : n.input()) {
      RILL_ASSIGN_OR_RETURN(InputName in, ParseInputName(input));
      RILL_RETURN_IF_ERROR(visit(in.node));
    }
  }
  *run.graph.mutable_versions() = g.versions();
  *run.graph.mutable_library() = g.library();
  for (int i = 0; i < g.node_size(); ++i) {
    if (keep[i]) *run.graph.add_node() = g.node(i);
  }
  return run;
}

}  // namespace rill
