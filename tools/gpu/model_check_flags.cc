#include "tools/gpu/model_check_flags.h"

#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"

namespace rill {
namespace {

template <typename T>
absl::Status ParseNumber(const std::string& flag, const std::string& value, T min, T* out) {
  if (!absl::SimpleAtoi(value, out) || *out < min) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, " needs an integer >= ", min, ", got '", value, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ModelCheckFlags> ParseModelCheckFlags(const std::vector<std::string>& args) {
  ModelCheckFlags f;
  for (const std::string& arg : args) {
    if (!absl::StartsWith(arg, "--")) {
      return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", arg, "'"));
    }
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (key == "cpu_only") {
      if (eq != std::string::npos) {
        return absl::InvalidArgumentError("--cpu_only takes no value");
      }
      f.check.use_gpu = false;
      continue;
    }
    if (eq == std::string::npos || value.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("flag --", key, " needs a value (--", key, "=...) or is unknown"));
    }
    if (key == "manifest") {
      f.manifest = value;
    } else if (key == "models") {
      f.models = absl::StrSplit(value, ',', absl::SkipEmpty());
    } else if (key == "graph") {
      f.graph = value;
    } else if (key == "inputs") {
      f.inputs = value;
    } else if (key == "outputs") {
      f.outputs = absl::StrSplit(value, ',', absl::SkipEmpty());
    } else if (key == "batch") {
      RILL_RETURN_IF_ERROR(ParseNumber<int64_t>(key, value, 1, &f.check.batch));
    } else if (key == "seed") {
      RILL_RETURN_IF_ERROR(ParseNumber<uint64_t>(key, value, 0, &f.check.seed));
    } else if (key == "runs") {
      RILL_RETURN_IF_ERROR(ParseNumber<int>(key, value, 0, &f.check.runs));
    } else if (key == "int_max") {
      RILL_RETURN_IF_ERROR(ParseNumber<int64_t>(key, value, 1, &f.check.int_max));
    } else if (key == "threads") {
      RILL_RETURN_IF_ERROR(ParseNumber<int>(key, value, 0, &f.check.intra_op_threads));
    } else if (key == "rtol") {
      if (!absl::SimpleAtod(value, &f.check.rtol) || !(f.check.rtol >= 0)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--rtol needs a number >= 0, got '", value, "'"));
      }
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", key));
    }
  }
  if (f.manifest.empty() == f.graph.empty()) {
    return absl::InvalidArgumentError("name exactly one of --manifest=FILE and --graph=FILE");
  }
  if (!f.graph.empty() && f.outputs.empty()) {
    return absl::InvalidArgumentError("--graph needs --outputs=NAME[,NAME]");
  }
  if (!f.manifest.empty() && (!f.inputs.empty() || !f.outputs.empty())) {
    return absl::InvalidArgumentError(
        "--inputs and --outputs go with --graph; the manifest names each model's");
  }
  return f;
}

absl::StatusOr<std::vector<ModelSpec>> SelectModels(const ModelCheckFlags& f) {
  if (!f.graph.empty()) {
    ModelSpec spec{f.graph, f.graph, {}, f.outputs};
    if (!f.inputs.empty()) {
      RILL_ASSIGN_OR_RETURN(spec.inputs, ParseInputSpecs(f.inputs));
    }
    return std::vector<ModelSpec>{spec};
  }
  std::ifstream file(f.manifest);
  if (!file) return absl::NotFoundError(absl::StrCat("manifest '", f.manifest, "' not found"));
  std::stringstream text;
  text << file.rdbuf();
  const size_t slash = f.manifest.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : f.manifest.substr(0, slash);
  RILL_ASSIGN_OR_RETURN(std::vector<ModelSpec> all, ParseManifest(text.str(), dir));
  if (f.models.empty()) return all;
  std::vector<ModelSpec> chosen;
  for (const std::string& name : f.models) {
    bool found = false;
    for (const ModelSpec& m : all) {
      if (m.name == name) {
        chosen.push_back(m);
        found = true;
      }
    }
    if (!found) {
      return absl::NotFoundError(
          absl::StrCat("--models: '", name, "' is not in the manifest ", f.manifest));
    }
  }
  return chosen;
}

}  // namespace rill
