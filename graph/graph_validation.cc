#include "graph/graph_validation.h"

#include <memory>

#include "core/status_macros.h"
#include "graph/graph.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"

namespace rill {

absl::StatusOr<GraphDef> ValidateGraphDef(const GraphDef& graph, const ValidationOptions& options) {
  ImportOptions import_options;
  import_options.clear_devices = options.clear_devices;
  import_options.infer_shapes = options.infer_shapes;
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Graph> imported, ImportGraphDef(graph, import_options));
  GraphDef out;
  ExportGraphDef(*imported, &out);
  return out;
}

}  // namespace rill
