// Reading and writing GraphDef files. The format is detected by content, never by extension
// (real files are misnamed: binary ".pbtxt", text ".pb"):
//   - a SavedModel (saved_model.pb, or a directory holding one): the MetaGraphDef whose tag set
//     equals `tag_set` (comma-separated, order and repeats ignored), its graph_def;
//   - a MetaGraphDef (as tf.train.export_meta_graph writes): its graph_def;
//   - a binary GraphDef;
//   - the same three in text format (GraphDef first).
// Binary candidates must parse with no field unknown to Rill's protos, so one message is not taken
// for another; a binary GraphDef with unknown fields (from a newer TensorFlow) is still accepted
// when no stricter reading works and it has named nodes.
//
//   RILL_ASSIGN_OR_RETURN(GraphDef g, ReadGraphDefFile("model/saved_model.pb", "serve"));
//
// Errors:
//   - NotFound "Graph file '<path>' not found" (or cannot be read, with the OS's reason);
//   - NotFound "MetaGraphDef associated with tags 'serve,gpu' could not be found in SavedModel
//     <path>, with available tags '[serve] [train]'" (TensorFlow's wording plus the path);
//   - InvalidArgument "<path> is neither a binary nor a text GraphDef (tried: ...)" saying what
//     was tried and where the text parse stopped, also for an empty or blank file;
//   - WriteGraphDefFile: NotFound / PermissionDenied / Internal naming the path and the reason.
// No validation of the graph itself: pass the result to ImportGraphDef.
// Pure functions apart from the file system; thread-safe.
#ifndef RILL_GRAPH_GRAPH_FILE_H_
#define RILL_GRAPH_GRAPH_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"

namespace rill {

absl::StatusOr<GraphDef> ReadGraphDefFile(const std::string& path,
                                          const std::string& tag_set = "serve");
// As ReadGraphDefFile for bytes already in memory; `name` stands for the path in messages.
absl::StatusOr<GraphDef> ParseGraphDefBytes(const std::string& bytes, const std::string& name,
                                            const std::string& tag_set = "serve");
// The MetaGraphDef of the SavedModel in `export_dir` whose tags equal `tag_set` (graph, saver,
// collections, signatures). NotFound as TensorFlow: "SavedModel file does not exist at: DIR/
// {saved_model.pbtxt|saved_model.pb}", or the tag message above.
absl::StatusOr<MetaGraphDef> ReadSavedModelMetaGraph(const std::string& export_dir,
                                                     const std::string& tag_set = "serve");
// Binary (`as_text` false) or text format. Overwrites `path`.
absl::Status WriteGraphDefFile(const std::string& path, const GraphDef& graph, bool as_text);

}  // namespace rill

#endif  // RILL_GRAPH_GRAPH_FILE_H_
