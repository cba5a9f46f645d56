#include "session/run_graph.h"

#include <algorithm>
#include <deque>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/op_classes.h"
#include "graph/unregistered_ops.h"
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

namespace {

// A feed or fetch "n:i" resolved to its node and output. NotFound `missing` when the graph has
// no node n; the registry's NotFound when n's op is unknown (its outputs cannot be known).
struct Endpoint {
  Node* node;
  int index;
};

absl::StatusOr<Endpoint> FindEndpoint(Graph& g, const std::string& tensor,
                                      const std::string& missing) {
  RILL_ASSIGN_OR_RETURN(InputName in, ParseInputName(tensor));
  Node* node = g.FindNode(in.node);
  if (node == nullptr) return absl::NotFoundError(missing);
  if (node->is_unknown_op()) {
    return UnregisteredOpError(g, node->op());
  }
  return Endpoint{node, in.index};
}

// Adds a node of `op` with attrs T and index, assigned to `device`.
absl::StatusOr<Node*> AddIndexedNode(Graph& g, const std::string& name, const std::string& op,
                                     DataType type, int64_t index, const std::string& device) {
  NodeDef def;
  def.set_name(name);
  def.set_op(op);
  SetAttr(&def, "T", type);
  SetAttr(&def, "index", index);
  RILL_ASSIGN_OR_RETURN(Node * node, g.AddNode(std::move(def)));
  node->set_assigned_device_name(device);
  return node;
}

}  // namespace

absl::StatusOr<RunGraph> BuildRunGraph(const Graph& graph, const std::vector<std::string>& feeds_in,
                                       const std::vector<std::string>& fetches_in,
                                       const std::vector<std::string>& targets,
                                       const std::string& client_device) {
  if (fetches_in.empty() && targets.empty()) {
    return absl::InvalidArgumentError("Must specify at least one target to fetch or execute.");
  }
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
    if (graph.FindNode(t) == nullptr) absl::StrAppend(&missing_targets, t, " ");
  }
  if (!missing_targets.empty()) {
    return absl::NotFoundError(
        absl::StrCat("PruneForTargets: Some target nodes not found: ", missing_targets));
  }

  Graph& g = run.graph;
  g = graph;
  // Feeds: add _Arg nodes and move the fed output's consumers onto them.
  absl::flat_hash_map<std::string, Node*> fed_by;  // canonical "n:i" -> its _Arg
  for (size_t k = 0; k < run.feeds.size(); ++k) {
    RILL_ASSIGN_OR_RETURN(
        Endpoint in,
        FindEndpoint(g, run.feeds[k],
                     absl::StrCat("FeedInputs: unable to find feed output ", run.feeds[k])));
    if (in.index < 0) {  // "^x": a control input has no value
      return absl::InvalidArgumentError(absl::StrCat("FeedInputs: '", run.feeds[k],
                                                     "' names a control input, not a tensor; feed ",
                                                     in.node->name(), ":0"));
    }
    if (in.index >= in.node->num_outputs()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "FeedInputs: ", run.feeds[k], " should have output index < ", in.node->num_outputs()));
    }
    const DataType type = BaseType(in.node->output_type(in.index));
    RILL_ASSIGN_OR_RETURN(
        Node * arg,
        AddIndexedNode(g, absl::StrCat("_arg_", Sanitize(in.node->name()), "_", in.index, "_", k),
                       "_Arg", type, static_cast<int64_t>(k), client_device));
    run.feed_types.push_back(type);
    run.arg_nodes.push_back(arg->name());
    fed_by[run.feeds[k]] = arg;
    // As TensorFlow: a fed Placeholder's control consumers wait for the feed instead, so the
    // Placeholder itself (which would fail unfed) is pruned.
    const bool move_control = IsPlaceholder(in.node->op_class());
    std::vector<const Edge*> moved;
    for (const Edge* e : in.node->out_edges()) {
      if (e->IsControlEdge() ? move_control && e->dst()->IsOp() : e->src_output() == in.index) {
        moved.push_back(e);
      }
    }
    for (const Edge* e : moved) {
      Node* dst = e->dst();
      const int dst_input = e->dst_input();
      g.RemoveEdge(e);
      if (dst_input == kControlSlot) {
        g.AddControlEdge(arg, dst);
      } else {
        RILL_RETURN_IF_ERROR(g.AddEdge(arg, 0, dst, dst_input).status());
      }
    }
  }
  // Fetches: add _Retval nodes.
  for (size_t k = 0; k < run.fetches.size(); ++k) {
    RILL_ASSIGN_OR_RETURN(Endpoint in, FindEndpoint(g, run.fetches[k],
                                                    absl::StrCat("FetchOutputs node ",
                                                                 run.fetches[k], ": not found")));
    if (in.index < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "FetchOutputs: '", run.fetches[k], "' names a control input, not a tensor; fetch ",
          in.node->name(), ":0, or pass ", in.node->name(),
          " as a target to run it without fetching a value"));
    }
    if (in.node->num_outputs() == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tried to fetch data for '", run.fetches[k],
          "', which produces no output.  To run to a node but not fetch any data, pass '",
          run.fetches[k],
          "' as an argument to the 'target_node_names' argument of the Session::Run API."));
    }
    if (in.index >= in.node->num_outputs()) {
      return absl::InvalidArgumentError(absl::StrCat("FetchOutputs ", run.fetches[k],
                                                     ": output index too large, must be < ",
                                                     in.node->num_outputs()));
    }
    RILL_ASSIGN_OR_RETURN(
        Node * ret,
        AddIndexedNode(g,
                       absl::StrCat("_retval_", Sanitize(in.node->name()), "_", in.index, "_", k),
                       "_Retval", BaseType(in.node->output_type(in.index)), static_cast<int64_t>(k),
                       client_device));
    run.retval_nodes.push_back(ret->name());
    // A fetch of a fed tensor is refused above, so the producer is never an _Arg here.
    RILL_RETURN_IF_ERROR(g.AddEdge(in.node, in.index, ret, 0).status());
  }
  // Prune to what the retvals, targets and args need.
  std::vector<bool> keep(g.num_node_ids(), false);
  std::vector<Node*> work;
  auto visit = [&](Node* n) {
    if (n->IsOp() && !keep[n->id()]) {
      keep[n->id()] = true;
      work.push_back(n);
    }
  };
  for (const std::string& r : run.retval_nodes) visit(g.FindNode(r));
  for (const std::string& t : targets) visit(g.FindNode(t));
  for (const std::string& a : run.arg_nodes) visit(g.FindNode(a));
  while (!work.empty()) {
    Node* n = work.back();
    work.pop_back();
    for (const Edge* e : n->in_edges()) visit(e->src());
  }
  std::vector<Node*> pruned;
  for (Node* n : g.op_nodes()) {
    if (!keep[n->id()]) pruned.push_back(n);
  }
  g.RemoveNodes(pruned);
  g.FixupSourceAndSinkEdges();
  return run;
}

std::vector<PartialTensorShape> DeclaredFeedShapes(const Graph& graph, const RunGraph& run) {
  std::vector<PartialTensorShape> shapes;
  for (const std::string& f : run.feeds) {
    PartialTensorShape shape;
    const Node* n = graph.FindNode(f.substr(0, f.rfind(':')));
    TensorShapeProto proto;
    if (n != nullptr && IsPlaceholder(n->op_class()) &&
        GetNodeAttr(n->def(), "shape", &proto).ok()) {
      absl::StatusOr<PartialTensorShape> p = PartialTensorShape::FromProto(proto);
      if (p.ok()) shape = *p;
    }
    shapes.push_back(shape);
  }
  return shapes;
}

absl::Status CheckEveryNodePlaced(const RunGraph& run) {
  for (const Node* n : run.graph.op_nodes()) {
    if (n->assigned_device_name().empty()) {
      RILL_RETURN_IF_ERROR(OpRegistry::Global()->LookUpOrError(n->op()).status());
      return absl::InternalError(absl::StrCat("Node ", n->name(), " was not placed"));
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
