// gpu_model_check: runs frozen models once with the GPU and once CPU-only and compares them
// (tools/gpu/model_check.h). Usage:
//
//   gpu_model_check --manifest=tools/gpu/models/manifest.txt [--models=resnet50,lstm_classifier]
//   gpu_model_check --graph=FILE --outputs=NAME[,NAME] [--inputs=NAME:DIMS[;NAME:DIMS]]
//   options: --batch=N (1) --seed=N (0) --rtol=X (1e-4) --runs=N (10) --int_max=N (100)
//            --threads=N (the CPU session's intra-op threads) --cpu_only
//
// Without --inputs every Placeholder is fed, with its declared shape (unknown dims: --batch).
// Exit status: 0 when every model ran and passed (or ran CPU-only), 1 when an output differs
// beyond the tolerance, 2 for bad flags, files or a model that failed to run.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"
#include "graph/graph_file.h"
#include "tools/gpu/model_check.h"

namespace rill {
namespace {

struct Flags {
  std::string manifest;
  std::vector<std::string> models;
  std::string graph;
  std::string inputs;
  std::vector<std::string> outputs;
  CheckOptions check;
};

template <typename T>
absl::Status ParseNumber(const std::string& flag, const std::string& value, T min, T* out) {
  if (!absl::SimpleAtoi(value, out) || *out < min) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, " needs an integer >= ", min, ", got '", value, "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Flags> ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
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

absl::StatusOr<std::vector<ModelSpec>> ModelsOf(const Flags& f) {
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

int Main(int argc, char** argv) {
  absl::StatusOr<Flags> flags = ParseFlags(argc, argv);
  absl::StatusOr<std::vector<ModelSpec>> models =
      flags.ok() ? ModelsOf(*flags) : absl::StatusOr<std::vector<ModelSpec>>(flags.status());
  if (!models.ok()) {
    std::cerr << "gpu_model_check: " << models.status() << "\n";
    return 2;
  }
  int rc = 0;
  for (const ModelSpec& m : *models) {
    absl::StatusOr<GraphDef> graph = ReadGraphDefFile(m.graph);
    absl::StatusOr<std::vector<InputSpec>> inputs = m.inputs;
    if (graph.ok() && inputs->empty()) inputs = PlaceholderInputs(*graph);
    absl::StatusOr<ModelReport> report =
        !graph.ok()    ? absl::StatusOr<ModelReport>(graph.status())
        : !inputs.ok() ? absl::StatusOr<ModelReport>(inputs.status())
                       : CheckModel(m.name, *std::move(graph), *inputs, m.outputs, flags->check);
    if (!report.ok()) {
      std::cout << "== " << m.name << "\nERROR " << report.status() << "\n";
      rc = 2;
      continue;
    }
    std::cout << FormatReport(*report, flags->check.rtol) << std::flush;
    if (!report->pass && rc == 0) rc = 1;
  }
  return rc;
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) { return rill::Main(argc, argv); }
