// Command line of gpu_model_check (tools/gpu/gpu_model_check.cc):
//
//   gpu_model_check --manifest=FILE [--models=NAME[,NAME]] [OPTIONS]
//   gpu_model_check --graph=FILE --outputs=NAME[,NAME] [--inputs=NAME:DIMS[;NAME:DIMS]] [OPTIONS]
//   OPTIONS: --batch=N --seed=N --rtol=X --runs=N --int_max=N --threads=N --cpu_only
//
// ParseModelCheckFlags turns the arguments (without the program name) into flags; InvalidArgument
// names the flag that is wrong. SelectModels reads the manifest (NotFound for a missing file or
// an unknown --models name) or makes the one --graph model. Thread-compatible.
#ifndef RILL_TOOLS_GPU_MODEL_CHECK_FLAGS_H_
#define RILL_TOOLS_GPU_MODEL_CHECK_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/gpu/model_check.h"

namespace rill {

struct ModelCheckFlags {
  std::string manifest;
  std::vector<std::string> models;  // empty: every model of the manifest
  std::string graph;
  std::string inputs;  // with --graph; empty: every consumed Placeholder
  std::vector<std::string> outputs;
  CheckOptions check;
};

absl::StatusOr<ModelCheckFlags> ParseModelCheckFlags(const std::vector<std::string>& args);
absl::StatusOr<std::vector<ModelSpec>> SelectModels(const ModelCheckFlags& flags);

}  // namespace rill

#endif  // RILL_TOOLS_GPU_MODEL_CHECK_FLAGS_H_
