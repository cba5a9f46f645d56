#include "graph/graph_file.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "proto/saved_model.pb.h"

namespace rill {
namespace {

class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (text.empty()) text = absl::StrCat("line ", line + 1, ", column ", column + 1, ": ", message);
  }
  std::string text;
};

std::string Tags(const MetaGraphDef& m) {
  std::vector<std::string> tags(m.meta_info_def().tags().begin(), m.meta_info_def().tags().end());
  std::sort(tags.begin(), tags.end());
  return absl::StrJoin(tags, ",");
}

}  // namespace

absl::StatusOr<GraphDef> ParseGraphDefBytes(const std::string& bytes, const std::string& name,
                                            const std::string& tag_set) {
  // A SavedModel: meta_graphs (field 2) holding a graph_def; a GraphDef never parses into one with
  // meta graphs present, since GraphDef's field 2 (library) does not hold MetaGraphDefs.
  SavedModel saved;
  if (!bytes.empty() && saved.ParseFromString(bytes) && saved.meta_graphs_size() > 0 &&
      saved.meta_graphs(0).has_graph_def()) {
    std::vector<std::string> wanted = absl::StrSplit(tag_set, ',', absl::SkipEmpty());
    std::sort(wanted.begin(), wanted.end());
    const std::string want = absl::StrJoin(wanted, ",");
    std::vector<std::string> present;
    for (const MetaGraphDef& m : saved.meta_graphs()) {
      if (Tags(m) == want) return m.graph_def();
      present.push_back(absl::StrCat("[", Tags(m), "]"));
    }
    return absl::NotFoundError(absl::StrCat("SavedModel ", name,
                                            " has no MetaGraphDef with tag set [", want,
                                            "]; tag sets present: ", absl::StrJoin(present, " ")));
  }
  GraphDef graph;
  if (!bytes.empty() && graph.ParseFromString(bytes)) return graph;
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  graph.Clear();
  if (parser.ParseFromString(bytes, &graph)) return graph;
  return absl::InvalidArgumentError(absl::StrCat(
      name, " is neither a binary nor a text GraphDef (nor a SavedModel): as text, ",
      errors.text.empty() ? "it does not parse" : errors.text));
}

absl::StatusOr<GraphDef> ReadGraphDefFile(const std::string& path, const std::string& tag_set) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("graph file ", path, " cannot be read"));
  std::stringstream bytes;
  bytes << in.rdbuf();
  return ParseGraphDefBytes(bytes.str(), path, tag_set);
}

absl::Status WriteGraphDefFile(const std::string& path, const GraphDef& graph, bool as_text) {
  std::string bytes;
  if (as_text) {
    google::protobuf::TextFormat::PrintToString(graph, &bytes);
  } else if (!graph.SerializeToString(&bytes)) {
    return absl::InternalError(absl::StrCat("cannot serialize the graph for ", path));
  }
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace rill
