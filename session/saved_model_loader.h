// Loading a SavedModel (TensorFlow's `saved_model.pb` + `variables/`) into a Session, as
// TensorFlow's LoadSavedModel does: choose the MetaGraphDef by tag set, create the session with
// its graph, run the saver's restore op with the variables path fed to its filename tensor, then
// the init op (the "__saved_model_init_op" signature, or the saved_model_main_op /
// legacy_init_op collection). Both runs feed each asset's tensor (asset_file_def, or TF1's
// saved_model_assets collection) the asset's path under <export_dir>/assets/, so a vocabulary
// file is read from the export wherever it was written. Signatures map input/output keys to
// tensor names.
//
//   RILL_ASSIGN_OR_RETURN(LoadedSavedModel m, LoadSavedModel(options, "/models/mlp", "serve"));
//   RILL_ASSIGN_OR_RETURN(SignatureDef sig, m.Signature("serving_default"));
//   m.session->Run({{sig.inputs().at("x").name(), x}}, {sig.outputs().at("y").name()}, {}, &out);
//
// Errors: TensorFlow's NotFound texts for a missing saved_model.pb or tag set; the restore's own
// errors (core/io/tensor_bundle.h) annotated with the variables path; NotFound "Could not find
// SignatureDef with key: 'x'. Available keys: ..." for an unknown signature.
#ifndef RILL_SESSION_SAVED_MODEL_LOADER_H_
#define RILL_SESSION_SAVED_MODEL_LOADER_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "proto/meta_graph.pb.h"
#include "session/session.h"

namespace rill {

struct LoadedSavedModel {
  std::unique_ptr<Session> session;
  MetaGraphDef meta_graph;
  // The signature named `key`; NotFound listing the available keys otherwise.
  absl::StatusOr<SignatureDef> Signature(const std::string& key) const;
};

absl::StatusOr<LoadedSavedModel> LoadSavedModel(const SessionOptions& options,
                                                const std::string& export_dir,
                                                const std::string& tag_set = "serve");

// Runs `restore_op` with `filename_tensor` fed `prefix` (a TF1 Saver's save/restore_all and
// save/Const:0, or a SaverDef's), and `extra_feeds` (a SavedModel's asset paths). Errors are
// annotated with the checkpoint prefix.
absl::Status RestoreCheckpoint(Session& session, const std::string& restore_op,
                               const std::string& filename_tensor, const std::string& prefix,
                               std::vector<std::pair<std::string, Tensor>> extra_feeds = {});

}  // namespace rill

#endif  // RILL_SESSION_SAVED_MODEL_LOADER_H_
