// Fuzz target: GraphDef parsing and import, binary and text (graph/graph_file.h,
// graph/graph_def_import.h), then session creation (validation, function lowering, placement and
// partitioning). Whatever the bytes, each step returns a status with a message or succeeds; an
// imported graph exports to a GraphDef that imports again.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "graph/graph_file.h"
#include "session/session.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<rill::GraphDef> graph_def = rill::ParseGraphDefBytes(bytes, "fuzz.pb");
  if (!graph_def.ok()) {
    FUZZ_CHECK(graph_def.status().code() == absl::StatusCode::kInvalidArgument ||
               graph_def.status().code() == absl::StatusCode::kNotFound);
    return 0;
  }
  absl::StatusOr<std::unique_ptr<rill::Graph>> graph = rill::ImportGraphDef(*graph_def);
  if (!graph.ok()) {
    FUZZ_CHECK(!graph.status().message().empty());
    return 0;
  }
  rill::GraphDef exported;
  rill::ExportGraphDef(**graph, &exported);
  absl::StatusOr<std::unique_ptr<rill::Graph>> again = rill::ImportGraphDef(exported);
  FUZZ_CHECK(again.ok());

  rill::SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = 2;
  options.config.set_allow_soft_placement(true);
  options.config.set_inter_op_parallelism_threads(1);
  options.config.set_intra_op_parallelism_threads(1);
  absl::StatusOr<std::unique_ptr<rill::Session>> session = rill::Session::New(options);
  FUZZ_CHECK(session.ok());
  absl::Status created = (*session)->Create(*graph_def);
  if (!created.ok()) FUZZ_CHECK(!created.message().empty());
  return 0;
}
