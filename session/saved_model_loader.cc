#include "session/saved_model_loader.h"

#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "graph/graph_file.h"

namespace rill {
namespace {

// The op to run after restoring, or "" when the model has none.
std::string InitOp(const MetaGraphDef& meta) {
  auto sig = meta.signature_def().find("__saved_model_init_op");
  if (sig != meta.signature_def().end()) {
    auto out = sig->second.outputs().find("__saved_model_init_op");
    if (out != sig->second.outputs().end()) return out->second.name();
  }
  for (const char* key : {"saved_model_main_op", "legacy_init_op"}) {
    auto c = meta.collection_def().find(key);
    if (c != meta.collection_def().end() && c->second.node_list().value_size() > 0) {
      return c->second.node_list().value(0);
    }
  }
  return "";
}

std::string NodeName(const std::string& tensor) { return tensor.substr(0, tensor.find(':')); }

}  // namespace

absl::StatusOr<SignatureDef> LoadedSavedModel::Signature(const std::string& key) const {
  auto it = meta_graph.signature_def().find(key);
  if (it != meta_graph.signature_def().end()) return it->second;
  std::vector<std::string> keys;
  for (const auto& [k, v] : meta_graph.signature_def()) {
    if (k != "__saved_model_init_op") keys.push_back(k);
  }
  std::sort(keys.begin(), keys.end());
  return absl::NotFoundError(absl::StrCat("Could not find SignatureDef with key: '", key,
                                          "'. Available keys: [", absl::StrJoin(keys, ", "), "]"));
}

absl::Status RestoreCheckpoint(Session& session, const std::string& restore_op,
                               const std::string& filename_tensor, const std::string& prefix) {
  std::vector<Tensor> out;
  absl::Status s = session.Run({{filename_tensor, Tensor::Scalar<std::string>(prefix)}}, {},
                               {NodeName(restore_op)}, &out);
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat("Restoring checkpoint ", prefix, " with ", restore_op,
                                             " failed: ", s.message()));
}

absl::StatusOr<LoadedSavedModel> LoadSavedModel(const SessionOptions& options,
                                                const std::string& export_dir,
                                                const std::string& tag_set) {
  LoadedSavedModel m;
  RILL_ASSIGN_OR_RETURN(m.meta_graph, ReadSavedModelMetaGraph(export_dir, tag_set));
  RILL_ASSIGN_OR_RETURN(m.session, Session::New(options));
  RILL_RETURN_IF_ERROR(m.session->Create(m.meta_graph.graph_def()));
  const std::string variables =
      (std::filesystem::path(export_dir) / "variables" / "variables").string();
  const SaverDef& saver = m.meta_graph.saver_def();
  std::error_code ec;
  if (!saver.restore_op_name().empty() && std::filesystem::exists(variables + ".index", ec)) {
    RILL_RETURN_IF_ERROR(RestoreCheckpoint(*m.session, saver.restore_op_name(),
                                           saver.filename_tensor_name(), variables));
  }
  const std::string init = InitOp(m.meta_graph);
  if (!init.empty()) {
    std::vector<Tensor> out;
    absl::Status s = m.session->Run({}, {}, {NodeName(init)}, &out);
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat("SavedModel ", export_dir, ": init op ", init,
                                                 " failed: ", s.message()));
    }
  }
  return m;
}

}  // namespace rill
