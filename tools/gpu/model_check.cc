#include "tools/gpu/model_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/gpu/cuda_probe.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/function_lowering.h"
#include "graph/graph_def_import.h"
#include "kernels/framework/kernel_registry.h"
#include "session/placement_log.h"
#include "session/placer.h"
#include "session/session.h"
#include "tools/gpu/model_weights.h"

namespace rill {
namespace {

absl::Status WithModel(const std::string& model, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat("model ", model, ": ", s.message()));
}

std::string TensorName(const std::string& name) {
  return name.find(':') == std::string::npos ? name + ":0" : name;
}

double ValueAt(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_FLOAT:
      return t.flat<float>()[i];
    case DT_DOUBLE:
      return t.flat<double>()[i];
    case DT_INT32:
      return t.flat<int32_t>()[i];
    case DT_INT64:
      return static_cast<double>(t.flat<int64_t>()[i]);
    case DT_BOOL:
      return t.flat<bool>()[i] ? 1 : 0;
    default:
      return std::nan("");
  }
}

absl::StatusOr<std::unique_ptr<Session>> NewSession(const GraphDef& graph, bool gpu,
                                                    int intra_op_threads) {
  SessionOptions options;
  if (!gpu) (*options.config.mutable_device_count())["GPU"] = 0;
  if (intra_op_threads > 0) options.config.set_intra_op_parallelism_threads(intra_op_threads);
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::New(options));
  RILL_RETURN_IF_ERROR(session->Create(graph));
  return session;
}

// Runs once for the outputs, then `runs` timed runs; returns the median in milliseconds.
absl::StatusOr<double> RunAndTime(Session& session,
                                  const std::vector<std::pair<std::string, Tensor>>& feeds,
                                  const std::vector<std::string>& fetches, int runs,
                                  std::vector<Tensor>* outputs) {
  RILL_RETURN_IF_ERROR(session.Run(feeds, fetches, {}, outputs));
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    std::vector<Tensor> ignored;
    const auto start = std::chrono::steady_clock::now();
    RILL_RETURN_IF_ERROR(session.Run(feeds, fetches, {}, &ignored));
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  if (ms.empty()) return 0.0;
  std::sort(ms.begin(), ms.end());
  return ms.size() % 2 == 1 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
}

}  // namespace

absl::StatusOr<std::vector<InputSpec>> ParseInputSpecs(const std::string& text) {
  std::vector<InputSpec> out;
  for (absl::string_view part : absl::StrSplit(text, ';', absl::SkipWhitespace())) {
    const size_t colon = part.rfind(':');
    if (colon == absl::string_view::npos || colon == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input '", part, "' needs NAME:DIMS (e.g. x:-1,224,224,3; x: for a scalar)"));
    }
    InputSpec spec;
    spec.name = std::string(part.substr(0, colon));
    for (absl::string_view d :
         absl::StrSplit(part.substr(colon + 1), ',', absl::SkipWhitespace())) {
      int64_t dim;
      if (!absl::SimpleAtoi(d, &dim) || dim < -1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "input '", spec.name, "': dim '", d, "' is not a size (-1 for the batch, or >= 0)"));
      }
      spec.dims.push_back(dim);
    }
    out.push_back(std::move(spec));
  }
  if (out.empty()) return absl::InvalidArgumentError("no inputs named (NAME:DIMS[;NAME:DIMS])");
  return out;
}

absl::StatusOr<std::vector<ModelSpec>> ParseManifest(const std::string& text,
                                                     const std::string& dir) {
  std::vector<ModelSpec> out;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipWhitespace());
    if (fields.size() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("manifest line ", line_number, " has ", fields.size(),
                       " fields; expected: name graph_file input:dims[;input:dims] "
                       "output[,output]"));
    }
    ModelSpec spec;
    spec.name = fields[0];
    spec.graph = dir.empty() ? fields[1] : absl::StrCat(dir, "/", fields[1]);
    absl::StatusOr<std::vector<InputSpec>> inputs = ParseInputSpecs(fields[2]);
    if (!inputs.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("manifest line ", line_number, ": ", inputs.status().message()));
    }
    spec.inputs = *std::move(inputs);
    spec.outputs = absl::StrSplit(fields[3], ',', absl::SkipEmpty());
    out.push_back(std::move(spec));
  }
  if (out.empty()) return absl::InvalidArgumentError("the manifest lists no model");
  return out;
}

absl::StatusOr<std::vector<InputSpec>> PlaceholderInputs(const GraphDef& graph) {
  std::set<std::string> consumed;
  for (const NodeDef& n : graph.node()) {
    for (const std::string& in : n.input()) {
      if (!in.empty() && in[0] != '^') consumed.insert(in.substr(0, in.find(':')));
    }
  }
  std::vector<InputSpec> out;
  for (const NodeDef& n : graph.node()) {
    if (n.op() != "Placeholder" || consumed.count(n.name()) == 0) continue;
    auto shape = n.attr().find("shape");
    if (shape == n.attr().end() || shape->second.shape().unknown_rank()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Placeholder '", n.name(), "' has an unknown rank; name its dims with --inputs"));
    }
    InputSpec spec{n.name(), {}};
    for (const auto& d : shape->second.shape().dim())
      spec.dims.push_back(d.size() < 0 ? -1 : d.size());
    out.push_back(std::move(spec));
  }
  if (out.empty()) return absl::InvalidArgumentError("the graph has no Placeholder; use --inputs");
  return out;
}

OutputDiff CompareOutputs(const std::string& name, const Tensor& gpu, const Tensor& cpu,
                          double rtol) {
  OutputDiff d;
  d.name = name;
  if (gpu.dtype() != cpu.dtype() || gpu.shape() != cpu.shape()) {
    d.why = absl::StrCat("GPU gave ", DataTypeString(gpu.dtype()), gpu.shape().DebugString(),
                         ", CPU ", DataTypeString(cpu.dtype()), cpu.shape().DebugString());
    return d;
  }
  const DataType t = cpu.dtype();
  if (t != DT_FLOAT && t != DT_DOUBLE && t != DT_INT32 && t != DT_INT64 && t != DT_BOOL) {
    d.why = absl::StrCat("outputs of dtype ", DataTypeString(t), " are not compared");
    return d;
  }
  const bool exact = t != DT_FLOAT && t != DT_DOUBLE;
  int64_t nan_mismatch = -1;
  for (int64_t i = 0; i < cpu.NumElements(); ++i) {
    const double c = ValueAt(cpu, i);
    if (std::isfinite(c)) d.scale = std::max(d.scale, std::fabs(c));
  }
  for (int64_t i = 0; i < cpu.NumElements(); ++i) {
    const double g = ValueAt(gpu, i), c = ValueAt(cpu, i);
    if (std::isnan(c) || std::isnan(g) || std::isinf(c) || std::isinf(g)) {
      if (!(std::isnan(c) && std::isnan(g)) && g != c && nan_mismatch < 0) nan_mismatch = i;
      continue;
    }
    d.max_abs = std::max(d.max_abs, std::fabs(g - c));
  }
  d.max_rel = d.scale > 0 ? d.max_abs / d.scale : (d.max_abs > 0 ? INFINITY : 0);
  if (nan_mismatch >= 0) {
    d.why = absl::StrCat("element ", nan_mismatch, " is ", ValueAt(gpu, nan_mismatch),
                         " on the GPU, ", ValueAt(cpu, nan_mismatch), " on the CPU");
  } else if (exact ? d.max_abs > 0 : d.max_abs > rtol * d.scale) {
    d.why = absl::StrFormat("max abs difference %g over the tolerance %g", d.max_abs,
                            exact ? 0.0 : rtol * d.scale);
  } else {
    d.pass = true;
  }
  return d;
}

PlacementCounts CountPlacement(const std::string& placement_log) {
  PlacementCounts counts;
  for (absl::string_view line : absl::StrSplit(placement_log, '\n', absl::SkipEmpty())) {
    const size_t open = line.find(": (");
    const size_t close = line.find("): ", open == absl::string_view::npos ? 0 : open);
    if (open == absl::string_view::npos || close == absl::string_view::npos) continue;
    const absl::string_view device = line.substr(close + 3);
    if (absl::StrContains(device, "device:GPU:")) {
      ++counts.gpu;
    } else {
      ++counts.cpu;
      ++counts.cpu_ops[std::string(line.substr(open + 3, close - open - 3))];
    }
  }
  return counts;
}

absl::StatusOr<PlacementCounts> PlanGpuPlacement(const GraphDef& graph_def) {
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Graph> graph, ImportGraphDef(graph_def));
  RILL_RETURN_IF_ERROR(LowerFunctionalOps(graph.get()));
  RILL_ASSIGN_OR_RETURN(Placement placement, Place(*graph,
                                                   {"/job:localhost/replica:0/task:0/device:CPU:0",
                                                    "/job:localhost/replica:0/task:0/device:GPU:0"},
                                                   *KernelRegistry::Global(), PlacerOptions()));
  PlacementCounts counts = CountPlacement(PlacementLogLines(*graph, placement));
  for (const Node* n : graph->op_nodes()) {
    if (absl::StartsWith(placement.reason(n->id()), "while loop ")) ++counts.loop_nodes_moved;
  }
  return counts;
}

absl::StatusOr<ModelReport> CheckModel(const std::string& name, GraphDef graph,
                                       const std::vector<InputSpec>& inputs,
                                       const std::vector<std::string>& outputs,
                                       const CheckOptions& options) {
  ModelReport report;
  report.name = name;
  if (outputs.empty()) return absl::InvalidArgumentError("model " + name + ": no outputs named");
  absl::StatusOr<std::map<std::string, int>> filled = FillStrippedConsts(&graph, options.seed);
  if (!filled.ok()) return WithModel(name, filled.status());
  report.filled = *std::move(filled);

  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const InputSpec& in : inputs) {
    const NodeDef* node = nullptr;
    for (const NodeDef& n : graph.node()) {
      if (n.name() == in.name) node = &n;
    }
    if (node == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("model ", name, ": input '", in.name, "' is not a node of the graph"));
    }
    auto dtype = node->attr().find("dtype");
    if (dtype == node->attr().end()) {
      return absl::InvalidArgumentError(absl::StrCat("model ", name, ": input '", in.name, "' (",
                                                     node->op(), ") has no dtype attr"));
    }
    std::vector<int64_t> dims = in.dims;
    for (int64_t& d : dims) {
      if (d < 0) d = options.batch;
    }
    absl::StatusOr<TensorShape> shape = TensorShape::FromDims(dims);
    if (!shape.ok()) return WithModel(name, shape.status());
    absl::StatusOr<Tensor> value = RandomTensor(dtype->second.type(), *shape,
                                                NodeSeed(in.name, options.seed), options.int_max);
    if (!value.ok()) return WithModel(name, value.status());
    feeds.push_back({TensorName(in.name), *std::move(value)});
  }
  std::vector<std::string> fetches;
  for (const std::string& o : outputs) fetches.push_back(TensorName(o));

  std::vector<Tensor> gpu_out;
  report.gpu_ran = options.use_gpu && CudaDeviceCount(&report.no_gpu_reason) > 0;
  if (!options.use_gpu) report.no_gpu_reason = "CPU-only run (--cpu_only)";
  if (report.gpu_ran) {
    // A failed GPU pass is the check's finding, not an error of the tool: the report keeps the
    // placement and the CPU pass.
    absl::StatusOr<std::unique_ptr<Session>> gpu = NewSession(graph, true, 0);
    // (A StatusOr is never built from an OK status: Debian's Abseil aborts on that.)
    absl::StatusOr<double> ms = absl::UnknownError("no GPU session");
    if (gpu.ok()) {
      report.placement = CountPlacement((*gpu)->PlacementLog());
      ms = RunAndTime(**gpu, feeds, fetches, options.runs, &gpu_out);
    } else {
      ms = gpu.status();
    }
    if (ms.ok()) {
      report.gpu_median_ms = *ms;
    } else {
      report.gpu_error = ms.status().ToString();
    }
  }
  absl::StatusOr<std::unique_ptr<Session>> cpu = NewSession(graph, false, options.intra_op_threads);
  if (!cpu.ok()) return WithModel(name, cpu.status());
  if (!report.gpu_ran) {
    report.placement = CountPlacement((*cpu)->PlacementLog());
    absl::StatusOr<PlacementCounts> planned = PlanGpuPlacement(graph);
    if (!planned.ok()) return WithModel(name, planned.status());
    report.planned = *std::move(planned);
  }
  std::vector<Tensor> cpu_out;
  absl::StatusOr<double> ms = RunAndTime(**cpu, feeds, fetches, options.runs, &cpu_out);
  if (!ms.ok()) return WithModel(name, ms.status());
  report.cpu_median_ms = *ms;

  for (size_t i = 0; i < fetches.size(); ++i) {
    const Tensor& t = cpu_out[i];
    double scale = 0;
    int64_t not_finite = 0;
    for (int64_t j = 0; j < t.NumElements(); ++j) {
      const double v = ValueAt(t, j);
      if (std::isfinite(v)) {
        scale = std::max(scale, std::fabs(v));
      } else {
        ++not_finite;
      }
    }
    report.cpu_outputs.push_back(absl::StrFormat("%s %s%s max |x| %.4g, %d not finite", fetches[i],
                                                 DataTypeString(t.dtype()), t.shape().DebugString(),
                                                 scale, not_finite));
  }
  report.pass = report.gpu_error.empty();
  if (report.gpu_ran && report.gpu_error.empty()) {
    for (size_t i = 0; i < fetches.size(); ++i) {
      report.diffs.push_back(CompareOutputs(fetches[i], gpu_out[i], cpu_out[i], options.rtol));
      report.pass = report.pass && report.diffs.back().pass;
    }
  }
  return report;
}

namespace {

void AppendPlacement(const std::string& title, const PlacementCounts& p, std::string* out) {
  absl::StrAppend(out, title, ": ", p.gpu, " nodes on GPU, ", p.cpu, " on CPU");
  if (p.loop_nodes_moved > 0) {
    absl::StrAppend(out, " (", p.loop_nodes_moved, " of them in while loops moved to the CPU)");
  }
  absl::StrAppend(out, "\n");
  if (p.cpu_ops.empty()) return;
  std::vector<std::pair<int, std::string>> ops;
  for (const auto& [op, n] : p.cpu_ops) ops.push_back({-n, op});
  std::sort(ops.begin(), ops.end());
  absl::StrAppend(out, "  on CPU:");
  for (const auto& [n, op] : ops) absl::StrAppend(out, " ", op, " ", -n);
  absl::StrAppend(out, "\n");
}

}  // namespace

std::string FormatReport(const ModelReport& r, double rtol) {
  std::string out = absl::StrCat("== ", r.name, "\n");
  if (r.gpu_ran) {
    AppendPlacement("placement", r.placement, &out);
    if (!r.gpu_error.empty()) absl::StrAppend(&out, "GPU run failed: ", r.gpu_error, "\n");
  } else {
    absl::StrAppend(&out, "GPU pass skipped: ", r.no_gpu_reason, "\n");
    AppendPlacement("placement with a GPU (planned here, CUDA kernels included)", r.planned, &out);
  }
  absl::StrAppend(&out, "stripped Consts filled:");
  if (r.filled.empty()) absl::StrAppend(&out, " none");
  for (const auto& [rule, n] : r.filled) absl::StrAppend(&out, " ", rule, " ", n, ";");
  absl::StrAppend(&out, "\n");
  for (const std::string& o : r.cpu_outputs) absl::StrAppend(&out, "CPU output ", o, "\n");
  for (const OutputDiff& d : r.diffs) {
    absl::StrAppend(&out, absl::StrFormat("output %s: max abs %.3g, max rel %.3g (scale %.3g, "
                                          "tolerance %g) %s",
                                          d.name, d.max_abs, d.max_rel, d.scale, rtol,
                                          d.pass ? "PASS" : "FAIL"));
    if (!d.pass) absl::StrAppend(&out, ": ", d.why);
    absl::StrAppend(&out, "\n");
  }
  if (r.gpu_ran && r.gpu_error.empty()) {
    absl::StrAppend(&out, absl::StrFormat("median GPU %.3f ms, ", r.gpu_median_ms));
  }
  absl::StrAppend(&out, absl::StrFormat("median CPU %.3f ms\n", r.cpu_median_ms));
  absl::StrAppend(&out, r.gpu_ran ? (r.pass ? "RESULT PASS\n" : "RESULT FAIL\n")
                                  : "RESULT CPU-ONLY (nothing compared)\n");
  return out;
}

}  // namespace rill
