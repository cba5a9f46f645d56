#include "graph/graph_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/bounded_file.h"
#include "core/errno_status.h"
#include "core/status_macros.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/message.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "proto/meta_graph.pb.h"
#include "proto/node_def.pb.h"
#include "proto/saved_model.pb.h"

namespace rill {
namespace {

using ::google::protobuf::FieldDescriptor;
using ::google::protobuf::Message;
using ::google::protobuf::Reflection;

class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (text.empty())
      text = absl::StrCat("line ", line + 1, ", column ", column + 1, ": ", message);
  }
  std::string text;
};

// True when `m` and every message inside it parsed with no field its descriptor lacks. The
// messages of proto/opaque.proto are empty shells whose payload is all unknown fields by design.
bool HasNoUnknownFields(const Message& m) {
  if (m.GetDescriptor()->file()->name() == "proto/opaque.proto") return true;
  const Reflection* r = m.GetReflection();
  if (!r->GetUnknownFields(m).empty()) return false;
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  const auto* node = dynamic_cast<const NodeDef*>(&m);
  for (const FieldDescriptor* f : fields) {
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (node != nullptr && f->number() == NodeDef::kAttrFieldNumber) {
      // Through the map itself: reflection reads a map field through a repeated copy of its
      // entries that stays with the message, for a Const a second copy of its value.
      for (const auto& [name, value] : node->attr()) {
        if (!HasNoUnknownFields(value)) return false;
      }
      continue;
    }
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i) {
        if (!HasNoUnknownFields(r->GetRepeatedMessage(m, f, i))) return false;
      }
    } else if (!HasNoUnknownFields(r->GetMessage(m, f))) {
      return false;
    }
  }
  return true;
}

bool ParseBinaryStrict(const std::string& bytes, Message* m) {
  return m->ParseFromString(bytes) && HasNoUnknownFields(*m);
}

// "a,b" -> sorted unique {"a","b"}.
std::vector<std::string> TagSet(absl::string_view tags) {
  std::vector<std::string> out;
  for (absl::string_view t : absl::StrSplit(tags, ',', absl::SkipWhitespace())) {
    out.emplace_back(absl::StripAsciiWhitespace(t));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

absl::StatusOr<const MetaGraphDef*> ChooseMetaGraphDef(const SavedModel& saved,
                                                       const std::string& name,
                                                       const std::string& tag_set) {
  const std::vector<std::string> wanted = TagSet(tag_set);
  std::vector<std::string> present;
  for (const MetaGraphDef& m : saved.meta_graphs()) {
    const std::vector<std::string> tags = TagSet(absl::StrJoin(m.meta_info_def().tags(), ","));
    if (tags == wanted) return &m;
    present.push_back(absl::StrCat("[", absl::StrJoin(tags, ","), "]"));
  }
  return absl::NotFoundError(
      absl::StrCat("MetaGraphDef associated with tags '", absl::StrJoin(wanted, ","),
                   "' could not be found in SavedModel ", name, ", with available tags '",
                   absl::StrJoin(present, " "), "'"));
}

absl::StatusOr<GraphDef> ChooseMetaGraph(const SavedModel& saved, const std::string& name,
                                         const std::string& tag_set) {
  RILL_ASSIGN_OR_RETURN(const MetaGraphDef* m, ChooseMetaGraphDef(saved, name, tag_set));
  return m->graph_def();
}

bool HasNamedNodes(const GraphDef& g) {
  if (g.node_size() == 0) return false;
  for (const NodeDef& n : g.node()) {
    if (n.name().empty() || n.op().empty()) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<GraphDef> ParseGraphDefBytes(const std::string& bytes, const std::string& name,
                                            const std::string& tag_set) {
  const std::string tried =
      "tried: binary SavedModel, MetaGraphDef and GraphDef; text GraphDef, SavedModel and "
      "MetaGraphDef";
  if (absl::StripAsciiWhitespace(bytes).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " is neither a binary nor a text GraphDef (", tried, "): the file is ",
                     bytes.empty() ? "empty" : "blank"));
  }
  // Speculative parses fail often (a SavedModel's strings are not UTF-8 as a GraphDef's are);
  // protobuf's error log lines about them would only mislead.
  google::protobuf::LogSilencer quiet;
  // Binary, strictly. Each failed parse is freed before the next: a GraphDef read as a SavedModel
  // keeps all its bytes as unknown fields, a second copy of a model's weights beside the third
  // the GraphDef parse makes.
  {
    SavedModel saved;
    if (ParseBinaryStrict(bytes, &saved) && saved.meta_graphs_size() > 0) {
      return ChooseMetaGraph(saved, name, tag_set);
    }
  }
  {
    MetaGraphDef meta;
    if (ParseBinaryStrict(bytes, &meta) && meta.has_meta_info_def() && meta.has_graph_def()) {
      return std::move(*meta.mutable_graph_def());
    }
  }
  {
    GraphDef graph;
    if (ParseBinaryStrict(bytes, &graph)) return graph;
  }
  // Text.
  FirstError graph_errors;
  {
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&graph_errors);
    GraphDef graph;
    if (parser.ParseFromString(bytes, &graph)) return graph;
  }
  {
    // Rill keeps some SavedModel parts (SavedObjectGraph, ...) as empty shells, so their text
    // fields are unknown here; the meta_graphs / graph_def checks keep this from accepting junk.
    FirstError ignored;
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&ignored);
    parser.AllowUnknownField(true);
    SavedModel saved;
    if (parser.ParseFromString(bytes, &saved) && saved.meta_graphs_size() > 0) {
      return ChooseMetaGraph(saved, name, tag_set);
    }
    MetaGraphDef meta;
    if (parser.ParseFromString(bytes, &meta) && meta.has_graph_def()) return meta.graph_def();
  }
  // Binary with fields Rill does not know (a newer TensorFlow).
  {
    GraphDef graph;
    if (graph.ParseFromString(bytes) && HasNamedNodes(graph)) return graph;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      name, " is neither a binary nor a text GraphDef (", tried, "; as binary it does not parse",
      " as any of them; as a text GraphDef it fails at ",
      graph_errors.text.empty() ? "an unknown place" : graph_errors.text, ")"));
}

absl::StatusOr<GraphDef> ReadGraphDefFile(const std::string& path, const std::string& tag_set) {
  std::string file = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    // A SavedModel directory.
    file = (std::filesystem::path(path) / "saved_model.pb").string();
    if (!std::filesystem::exists(file, ec)) {
      return absl::NotFoundError(
          absl::StrCat("Graph file '", path, "' is a directory with no saved_model.pb in it"));
    }
  }
  if (!std::filesystem::exists(file, ec)) {
    return absl::NotFoundError(absl::StrCat("Graph file '", file, "' not found"));
  }
  RILL_ASSIGN_OR_RETURN(const std::string bytes, ReadBoundedFile("", file, kMaxProtoBytes,
                                                                 "protobuf's limit on a GraphDef"));
  return ParseGraphDefBytes(bytes, file, tag_set);
}

absl::StatusOr<MetaGraphDef> ReadSavedModelMetaGraph(const std::string& export_dir,
                                                     const std::string& tag_set) {
  const std::string file = (std::filesystem::path(export_dir) / "saved_model.pb").string();
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    return absl::NotFoundError(absl::StrCat("SavedModel file does not exist at: ", export_dir,
                                            "/{saved_model.pbtxt|saved_model.pb}"));
  }
  if (std::filesystem::is_directory(file, ec)) {
    return absl::FailedPreconditionError(absl::StrCat(file, "; Is a directory"));
  }
  RILL_ASSIGN_OR_RETURN(const std::string bytes,
                        ReadBoundedFile("", file, kMaxProtoBytes, "protobuf's limit on a message"));
  SavedModel saved;
  // Parts of a SavedModel Rill does not model (the object graph) are kept as unknown fields.
  if (!saved.ParseFromString(bytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, " is not a binary SavedModel: it does not parse as one"));
  }
  // None, or none with these tags: NotFound listing the tag sets there are.
  RILL_ASSIGN_OR_RETURN(const MetaGraphDef* m, ChooseMetaGraphDef(saved, file, tag_set));
  return *m;
}

absl::Status WriteGraphDefFile(const std::string& path, const GraphDef& graph, bool as_text) {
  std::string bytes;
  if (as_text) {
    if (!google::protobuf::TextFormat::PrintToString(graph, &bytes)) {
      return absl::InternalError(absl::StrCat("Cannot print the graph as text for ", path));
    }
  } else if (!graph.SerializeToString(&bytes)) {
    return absl::InternalError(absl::StrCat("Cannot serialize the graph for ", path));
  }
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    const int err = errno != 0 ? errno : EIO;
    return absl::Status(ErrnoToCode(err),
                        absl::StrCat("Cannot write graph file '", path, "': ", std::strerror(err)));
  }
  out << bytes;
  out.close();
  if (!out) {
    return absl::InternalError(absl::StrCat("Cannot write graph file '", path, "'"));
  }
  return absl::OkStatus();
}

}  // namespace rill
