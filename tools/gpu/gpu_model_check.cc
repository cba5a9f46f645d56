// gpu_model_check: runs frozen models once with the GPU and once CPU-only and compares them
// (tools/gpu/model_check.h). Usage:
//
//   gpu_model_check --manifest=tools/gpu/models/manifest.txt [--models=resnet50,lstm_classifier]
//   gpu_model_check --graph=FILE --outputs=NAME[,NAME] [--inputs=NAME:DIMS[;NAME:DIMS]]
//   options: --batch=N (1) --seed=N (0) --rtol=X (1e-4) --runs=N (10) --int_max=N (100)
//            --threads=N (the CPU session's intra-op threads) --cpu_only
//
// Without --inputs every Placeholder is fed, with its declared shape (unknown dims: --batch).
// Exit status: 0 when every model ran and passed (or ran CPU-only), 1 when an output differs
// beyond the tolerance, 2 for bad flags, files or a model that failed to run.
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graph/graph_file.h"
#include "tools/gpu/model_check.h"
#include "tools/gpu/model_check_flags.h"

namespace rill {
namespace {

int Main(int argc, char** argv) {
  absl::StatusOr<ModelCheckFlags> flags =
      ParseModelCheckFlags(std::vector<std::string>(argv + 1, argv + argc));
  absl::StatusOr<std::vector<ModelSpec>> models =
      flags.ok() ? SelectModels(*flags) : absl::StatusOr<std::vector<ModelSpec>>(flags.status());
  if (!models.ok()) {
    std::cerr << "gpu_model_check: " << models.status() << "\n";
    return 2;
  }
  int rc = 0;
  for (const ModelSpec& m : *models) {
    absl::StatusOr<GraphDef> graph = ReadGraphDefFile(m.graph);
    absl::StatusOr<std::vector<InputSpec>> inputs = m.inputs;
    if (graph.ok() && inputs->empty()) inputs = PlaceholderInputs(*graph);
    absl::StatusOr<ModelReport> report =
        !graph.ok()    ? absl::StatusOr<ModelReport>(graph.status())
        : !inputs.ok() ? absl::StatusOr<ModelReport>(inputs.status())
                       : CheckModel(m.name, *std::move(graph), *inputs, m.outputs, flags->check);
    if (!report.ok()) {
      std::cout << "== " << m.name << "\nERROR " << report.status() << "\n";
      rc = 2;
      continue;
    }
    std::cout << FormatReport(*report, flags->check.rtol) << std::flush;
    if (!report->pass && rc == 0) rc = 1;
  }
  return rc;
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) { return rill::Main(argc, argv); }
