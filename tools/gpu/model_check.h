// Whole-model GPU checks (tools/gpu/gpu_model_check): one frozen graph run once with the GPU
// (TensorFlow's default placement: every node with a GPU kernel on GPU:0) and once CPU-only (a
// second session whose ConfigProto has device_count {"GPU": 0}), the outputs compared and each
// pass timed.
//
// Two sessions with different GPU options in one process are fine here: GPU memory options are
// per process (core/gpu/gpu_process_state.h) but a session with device_count GPU 0 plans no GPU
// device and asks for no GPU allocator, so it never conflicts with the GPU session's.
//
//   RILL_ASSIGN_OR_RETURN(ModelReport r, CheckModel(graph, inputs, {"Identity"}, options));
//   std::cout << FormatReport(r);
//
// Errors are absl::Status naming the model, node, flag or line at fault. Thread-compatible.
#ifndef RILL_TOOLS_GPU_MODEL_CHECK_H_
#define RILL_TOOLS_GPU_MODEL_CHECK_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor.h"
#include "proto/graph.pb.h"

namespace rill {

// A fed input: name and dims, -1 for the batch (CheckOptions::batch).
struct InputSpec {
  std::string name;
  std::vector<int64_t> dims;
};

// One line of a manifest (tools/gpu/models/manifest.txt, written by make_model_graphs.py):
//   name graph_file input:dims[;input:dims] output[,output]
struct ModelSpec {
  std::string name;
  std::string graph;  // the path, relative to the manifest's folder made absolute by ParseManifest
  std::vector<InputSpec> inputs;
  std::vector<std::string> outputs;
};

// "x:-1,224,224,3;y:" (a scalar) -> specs. InvalidArgument naming the part that is wrong.
absl::StatusOr<std::vector<InputSpec>> ParseInputSpecs(const std::string& text);
// The models of a manifest's text; `dir` is prefixed to each graph file. '#' lines and blank
// lines are skipped; InvalidArgument naming the line otherwise.
absl::StatusOr<std::vector<ModelSpec>> ParseManifest(const std::string& text,
                                                     const std::string& dir);
// Every Placeholder of `graph` that a node consumes (Keras's lowered loops leave unconnected
// ones), with its declared shape (unknown dims -1). InvalidArgument for a Placeholder of unknown
// rank (name its shape with --inputs).
absl::StatusOr<std::vector<InputSpec>> PlaceholderInputs(const GraphDef& graph);

// One output's comparison. scale: the CPU output's largest finite magnitude; max_rel: max_abs
// over scale (0 when both are 0). pass: same dtype and shape, NaN where the CPU has NaN, and
// max_abs <= rtol * scale (integers and bools: equal).
struct OutputDiff {
  std::string name;
  double max_abs = 0;
  double max_rel = 0;
  double scale = 0;
  bool pass = false;
  std::string why;  // set when !pass: what differs
};
OutputDiff CompareOutputs(const std::string& name, const Tensor& gpu, const Tensor& cpu,
                          double rtol);

// Nodes per device type from a session's placement log (Session::PlacementLog), and the op
// types of the nodes that stayed on the CPU, with their counts.
struct PlacementCounts {
  int gpu = 0;
  int cpu = 0;
  std::map<std::string, int> cpu_ops;
  int loop_nodes_moved = 0;  // PlanGpuPlacement: nodes of while loops moved to the CPU
};
PlacementCounts CountPlacement(const std::string& placement_log);

// The placement a machine with one CUDA GPU gives `graph` (default placement over CPU:0 and
// GPU:0 with every registered kernel, CUDA ones included), computed without a GPU: the GPU
// kernels' to-do list on any machine. Import, lowering and placement errors name the model.
absl::StatusOr<PlacementCounts> PlanGpuPlacement(const GraphDef& graph);

struct CheckOptions {
  int64_t batch = 1;         // for -1 input dims
  uint64_t seed = 0;         // inputs and stripped weights
  double rtol = 1e-4;        // float tolerance relative to each output's largest magnitude
  int runs = 10;             // timed runs per device (after the compared first run)
  int64_t int_max = 100;     // integer inputs are uniform in [0, int_max)
  bool use_gpu = true;       // false: the CPU pass only (no GPU session)
  int intra_op_threads = 0;  // the CPU session's (0: TensorFlow's default)
};

struct ModelReport {
  std::string name;
  bool gpu_ran = false;
  std::string no_gpu_reason;          // when !gpu_ran
  std::string gpu_error;              // when the GPU session failed to build or run (then !pass)
  PlacementCounts placement;          // of the GPU session (CPU session's when !gpu_ran)
  PlacementCounts planned;            // when !gpu_ran: PlanGpuPlacement's
  std::map<std::string, int> filled;  // stripped Consts filled, per rule
  std::vector<OutputDiff> diffs;      // empty when !gpu_ran
  // Each CPU output: "Identity:0 float[1,1000] max |x| 0.0123, 0 not finite" (a sanity check
  // that the random weights give finite, non-zero outputs).
  std::vector<std::string> cpu_outputs;
  double gpu_median_ms = 0;
  double cpu_median_ms = 0;
  bool pass = false;  // the GPU pass ran and every output passed (true with no GPU pass)
};

// Fills the stripped Consts and the inputs, runs and compares. A GPU pass that fails (a session
// error, a run error) is the check's finding: gpu_error, pass false, the CPU pass still runs.
// Errors (bad inputs, the CPU pass failing) name the model.
absl::StatusOr<ModelReport> CheckModel(const std::string& name, GraphDef graph,
                                       const std::vector<InputSpec>& inputs,
                                       const std::vector<std::string>& outputs,
                                       const CheckOptions& options);
// The report as text: placement, CPU-only op types, fills, each output's difference with
// PASS/FAIL, the median times.
std::string FormatReport(const ModelReport& report, double rtol);

}  // namespace rill

#endif  // RILL_TOOLS_GPU_MODEL_CHECK_H_
