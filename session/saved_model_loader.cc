#include "session/saved_model_loader.h"

#include <filesystem>
#include <string>
#include <utility>
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

// TensorFlow's GetAssetFileDefs: the MetaGraphDef's asset_file_def, or (TF1 exports) the
// AssetFileDefs packed as Any in the "saved_model_assets" collection.
absl::StatusOr<std::vector<AssetFileDef>> AssetFileDefs(const MetaGraphDef& meta) {
  std::vector<AssetFileDef> assets(meta.asset_file_def().begin(), meta.asset_file_def().end());
  if (!assets.empty()) return assets;
  auto c = meta.collection_def().find("saved_model_assets");
  if (c == meta.collection_def().end()) return assets;
  for (const auto& any : c->second.any_list().value()) {
    AssetFileDef asset;
    if (!asset.ParseFromString(any.value())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unable to unpack a tensorflow.AssetFileDef from the saved_model_assets "
                       "collection (type ",
                       any.type_url(), ")"));
    }
    assets.push_back(std::move(asset));
  }
  return assets;
}

// TensorFlow's AddAssetsTensorsToInputs: each asset tensor fed the asset's path inside this
// export (<export_dir>/assets/<filename>), not the path it held when the model was written.
std::vector<std::pair<std::string, Tensor>> AssetFeeds(const std::string& export_dir,
                                                       const std::vector<AssetFileDef>& assets) {
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const AssetFileDef& a : assets) {
    feeds.emplace_back(a.tensor_info().name(),
                       Tensor::Scalar<std::string>(
                           (std::filesystem::path(export_dir) / "assets" / a.filename()).string()));
  }
  return feeds;
}

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
                               const std::string& filename_tensor, const std::string& prefix,
                               std::vector<std::pair<std::string, Tensor>> extra_feeds) {
  std::vector<Tensor> out;
  extra_feeds.insert(extra_feeds.begin(), {filename_tensor, Tensor::Scalar<std::string>(prefix)});
  absl::Status s = session.Run(extra_feeds, {}, {NodeName(restore_op)}, &out);
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
  RILL_ASSIGN_OR_RETURN(const std::vector<AssetFileDef> assets, AssetFileDefs(m.meta_graph));
  const std::string variables =
      (std::filesystem::path(export_dir) / "variables" / "variables").string();
  const SaverDef& saver = m.meta_graph.saver_def();
  std::error_code ec;
  if (!saver.restore_op_name().empty() && std::filesystem::exists(variables + ".index", ec)) {
    RILL_RETURN_IF_ERROR(RestoreCheckpoint(*m.session, saver.restore_op_name(),
                                           saver.filename_tensor_name(), variables,
                                           AssetFeeds(export_dir, assets)));
  }
  const std::string init = InitOp(m.meta_graph);
  if (!init.empty()) {
    std::vector<Tensor> out;
    absl::Status s = m.session->Run(AssetFeeds(export_dir, assets), {}, {NodeName(init)}, &out);
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat("SavedModel ", export_dir, ": init op ", init,
                                                 " failed: ", s.message()));
    }
  }
  return m;
}

}  // namespace rill
