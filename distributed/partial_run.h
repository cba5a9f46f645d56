// PartialRun: TensorFlow's partial runs (sess.partial_run_setup / sess.partial_run; the
// MasterService's PartialRunSetup and RunStep with partial_run_handle) for a Session that runs
// whole steps. Each partial step runs as a step of its own, fed with every feed given so far
// and every value fetched so far, so what earlier steps computed and returned is not computed
// again. Nodes an earlier step ran and this one needs again (not cut off by a fed value) run
// again: harmless for pure ops and variable reads, so any other stateful op in that overlap
// (an Assign, a random op, a queue) is refused with FailedPrecondition naming it rather than
// run twice. Setup's targets run with the step that fetches the last fetch (the first step
// when there are none). Errors use TensorFlow's texts ("Fetch x:0 was not specified in
// partial_run_setup.", "The feed a:0 has already been fed.", ...). Not thread-safe: the owner
// serializes its steps.
#ifndef RILL_DISTRIBUTED_PARTIAL_RUN_H_
#define RILL_DISTRIBUTED_PARTIAL_RUN_H_

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor.h"
#include "proto/graph.pb.h"

namespace rill {
namespace distributed {

class PartialRun {
 public:
  // `graph`: the session's whole graph (used to find which nodes a step runs).
  PartialRun(GraphDef graph, const std::vector<std::string>& feeds,
             const std::vector<std::string>& fetches, const std::vector<std::string>& targets);

  // One step's Session::Run arguments.
  struct Step {
    std::vector<std::pair<std::string, Tensor>> feeds;
    std::vector<std::string> fetches;
    std::vector<std::string> targets;
  };
  // InvalidArgument (TensorFlow's texts) for feeds or fetches not in the setup or given twice;
  // FailedPrecondition for a stateful node this step would run again.
  absl::StatusOr<Step> Plan(const std::vector<std::pair<std::string, Tensor>>& feeds,
                            const std::vector<std::string>& fetches);
  // Records a planned step that ran: its fetched values, the nodes it ran.
  void Ran(const Step& step, const std::vector<Tensor>& outputs);
  // Every fetch fetched (and the targets run).
  bool complete() const { return fetched_.size() == fetches_.size() && targets_done_; }

 private:
  // Nodes running `fetches` and `targets` with `fed` tensors given runs.
  std::set<std::string> NodesRun(const std::vector<std::string>& fetches,
                                 const std::vector<std::string>& targets,
                                 const std::set<std::string>& fed) const;

  GraphDef graph_;
  std::map<std::string, int> nodes_;  // name -> index in graph_
  std::set<std::string> feeds_, fetches_;
  std::vector<std::string> targets_;
  bool targets_done_ = false;
  std::map<std::string, Tensor> fed_;  // every feed so far and every fetched value
  std::set<std::string> fetched_;
  std::set<std::string> ran_;          // nodes earlier steps ran
  std::set<std::string> planned_ran_;  // nodes the planned step runs
};

// "x" -> "x:0"; "x:1" and "^x" unchanged.
std::string CanonicalTensorName(const std::string& name);

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_PARTIAL_RUN_H_
