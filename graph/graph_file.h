// Reading and writing GraphDef files. The format is detected by content, not by extension (real
// files are misnamed): a SavedModel's saved_model.pb, a binary GraphDef, or a text GraphDef.
//
//   RILL_ASSIGN_OR_RETURN(GraphDef g, ReadGraphDefFile("model/saved_model.pb", "serve"));
//
// Errors: NotFound naming the path when it cannot be read; NotFound listing the tag sets present
// when a SavedModel has no MetaGraphDef with the requested tags; InvalidArgument "<path> is neither
// a binary nor a text GraphDef (...)" with the text parser's line and column otherwise.
// Pure functions apart from the file system; thread-safe.
#ifndef RILL_GRAPH_GRAPH_FILE_H_
#define RILL_GRAPH_GRAPH_FILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "proto/graph.pb.h"

namespace rill {

// `tag_set` is comma-separated ("serve" or "serve,gpu"); it matters only for SavedModels.
absl::StatusOr<GraphDef> ReadGraphDefFile(const std::string& path,
                                          const std::string& tag_set = "serve");
// Parses bytes already in memory; `name` is used in messages.
absl::StatusOr<GraphDef> ParseGraphDefBytes(const std::string& bytes, const std::string& name,
                                            const std::string& tag_set = "serve");
absl::Status WriteGraphDefFile(const std::string& path, const GraphDef& graph, bool as_text);

}  // namespace rill

#endif  // RILL_GRAPH_GRAPH_FILE_H_
