// Writes the seed examples' graphs, built with the builder API (examples/seed_graphs.cc), as text
// GraphDefs: <out_dir>/<name>.pbtxt for matmul, manual_placement, soft_placement, multi_tower_gpu,
// multi_tower_cpu, four_replicas_cpu, device_function and training_loop.
//
//   bazel run //examples:build_seed_graphs              # rewrites examples/graphs/ in the checkout
//   bazel run //examples:build_seed_graphs -- /tmp/out  # or anywhere else
//
// Exits 1 with the error on stderr when a graph fails to build or a file cannot be written.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "examples/seed_graphs.h"

int main(int argc, char** argv) {
  std::string out_dir;
  if (argc > 2) {
    std::cerr << "usage: build_seed_graphs [OUT_DIR]\n";
    return 2;
  }
  if (argc == 2) {
    out_dir = argv[1];
  } else if (const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY")) {
    out_dir = std::string(workspace) + "/examples/graphs";  // under `bazel run`
  } else {
    out_dir = "examples/graphs";
  }
  for (const rill::examples::SeedGraph& seed : rill::examples::SeedGraphs()) {
    absl::StatusOr<rill::GraphDef> graph = seed.build();
    if (!graph.ok()) {
      std::cerr << seed.name << ": " << graph.status() << "\n";
      return 1;
    }
    const std::string path = out_dir + "/" + seed.name + ".pbtxt";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << rill::examples::FormatGraphDef(*graph);
    out.close();
    if (!out) {
      std::cerr << "cannot write " << path << "\n";
      return 1;
    }
    std::cout << "wrote " << path << " (" << graph->node_size() << " nodes)\n";
  }
  return 0;
}
