// summarize_graph --in_graph=FILE [--tag_set=serve]: prints SummarizeGraph (summarize.h) of a
// graph file (binary, text or SavedModel; see graph/graph_file.h) after validating it.
// summarize_graph --list_ops: prints every registered op with its kernels' device types
// (list_ops.h). A file that
// does not read or a graph that does not validate: "<Code>: <message>" on stderr, exit 1. Ops
// unknown to Rill are listed in the summary, not errors.
#include <cctype>
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "core/status_macros.h"
#include "graph/graph_file.h"
#include "graph/graph_validation.h"
#include "tools/summarize_graph/list_ops.h"
#include "tools/summarize_graph/summarize.h"

namespace {

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "%s: %s\n", rill::StatusCodeName(s.code()).c_str(),
               std::string(s.message()).c_str());
  return 1;
}

constexpr char kUsage[] =
    "usage: summarize_graph --in_graph=FILE [--tag_set=serve] | summarize_graph --list_ops";

}  // namespace

int main(int argc, char** argv) {
  std::string in_graph;
  std::string tag_set = "serve";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (absl::StartsWith(arg, "--in_graph=")) {
      in_graph = arg.substr(11);
    } else if (absl::StartsWith(arg, "--tag_set=")) {
      tag_set = arg.substr(10);
    } else if (arg == "--list_ops") {
      std::fputs(rill::ListRegisteredOps().c_str(), stdout);
      return 0;
    } else if (arg == "--help" || arg == "-h") {
      std::printf("%s\n", kUsage);
      return 0;
    } else {
      return Fail(absl::InvalidArgumentError("unknown argument '" + arg + "'; " + kUsage));
    }
  }
  if (in_graph.empty())
    return Fail(absl::InvalidArgumentError(std::string("--in_graph is required; ") + kUsage));

  absl::StatusOr<rill::GraphDef> graph = rill::ReadGraphDefFile(in_graph, tag_set);
  if (!graph.ok()) return Fail(graph.status());
  absl::StatusOr<rill::GraphDef> validated = rill::ValidateGraphDef(*graph);
  if (!validated.ok()) return Fail(validated.status());
  std::fputs(rill::SummarizeGraph(*validated).c_str(), stdout);
  return 0;
}
