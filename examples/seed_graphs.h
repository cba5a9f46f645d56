// Rill. The seed documents' example graphs, built with the builder API (graph/builder/), one
// function per scenario, each the C++ twin of the TensorFlow code the seed shows (quoted in
// seed_graphs.cc). //examples:build_seed_graphs writes them to examples/graphs/; the session tests
// and CLI goldens run those files; graph/builder/seed_graphs_test.cc compares them field by field
// with what TensorFlow writes for the same code (examples/tf_reference/).
//
//   for (const SeedGraph& seed : SeedGraphs()) {
//     RILL_ASSIGN_OR_RETURN(GraphDef graph, seed.build());
//     ... FormatGraphDef(graph) ...
//   }
//
// Every function is pure (builds a fresh graph) and thread-safe.
#ifndef RILL_EXAMPLES_SEED_GRAPHS_H_
#define RILL_EXAMPLES_SEED_GRAPHS_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graph/builder/scope.h"
#include "proto/graph.pb.h"

namespace rill {
namespace examples {

struct SeedGraph {
  std::string name;  // file stem: examples/graphs/<name>.pbtxt
  std::function<absl::StatusOr<GraphDef>()> build;
};

// Every scenario, in a fixed order: matmul, manual_placement, soft_placement, multi_tower_gpu,
// multi_tower_cpu, four_replicas_cpu, device_function, training_loop.
const std::vector<SeedGraph>& SeedGraphs();

// Seed 004's assign_to_device: a device function putting Variable / VariableV2 /
// AutoReloadVariable nodes on `ps_device` and every other node on `device`.
DeviceFunction AssignToDevice(std::string device, std::string ps_device = "/device:CPU:0");

// What tf.compat.v1.Variable(initial_value, name=name, use_resource=False) builds: in the name
// scope `name` ("w"), the VariableV2 node "w" itself (shape and dtype of the initial value),
// "w/Assign" (the initializer, colocated with w) and "w/read" (an Identity colocated with w).
// `initial_value` is called with the variable's name scope, so that a Const it builds there is
// "w/initial_value" as TensorFlow names a Python value; it may also return an Output built
// before. Errors are recorded in `scope` (invalid Outputs are returned then).
struct RefVariable {
  Output variable;     // "w", a float_ref
  Output initializer;  // "w/Assign"
  Output snapshot;     // "w/read"
};
RefVariable MakeRefVariable(const Scope& scope, absl::string_view name,
                            const std::function<Output(const Scope&)>& initial_value);

// A text GraphDef that reads well in a diff: one `node { ... }` block per node with name, op,
// inputs and device on their own lines, then each attr on one line, sorted by key; then any other
// GraphDef field in protobuf's text format. Parses back to `graph`.
std::string FormatGraphDef(const GraphDef& graph);

}  // namespace examples
}  // namespace rill

#endif  // RILL_EXAMPLES_SEED_GRAPHS_H_
