// session_runner: runs a graph file with a config file from the command line, in one Session.
// See args.h (or --help) for the interface. Fetched values print like numpy; errors go to stderr
// as "<Code>: <message>" with a non-zero exit status.
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "core/bounded_file.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "core/thread_pool.h"
#include "distributed/cluster_spec.h"
#include "distributed/grpc_status.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "graph/graph_file.h"
#include "session/saved_model_loader.h"
#include "session/session.h"
#include "tools/npy/npy.h"
#include "tools/session_runner/args.h"
#include "tools/session_runner/chrome_trace.h"
#include "tools/session_runner/memory_report.h"
#include "tools/session_runner/numpy_format.h"
#include "tools/session_runner/omp_wait_policy.h"

namespace rill {
namespace {

std::string NumpyDtypeName(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
      return "float32";
    case DT_DOUBLE:
      return "float64";
    case DT_HALF:
      return "float16";
    case DT_STRING:
      return "bytes";
    default:
      return DataTypeString(dt);
  }
}

// Collects the first error. The parser runs with unknown fields allowed so that fields of the
// messages Rill keeps as empty shells (proto/opaque.proto: RewriterConfig, RPCOptions, ...), which
// TensorFlow's ConfigProto text may set, are skipped as TensorFlow would read and Rill ignore
// them; an unknown field anywhere else (a typo) is still an error.
class ConfigErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (first.empty())
      first = absl::StrCat("line ", line + 1, ", column ", column + 1, ": ", message);
  }
  void AddWarning(int line, int column, const std::string& message) override {
    // protobuf's text: Message type "rill.RewriterConfig" has no field named "x".
    constexpr absl::string_view kPrefix = "Message type \"";
    if (absl::StartsWith(message, kPrefix)) {
      const std::string type(
          message.substr(kPrefix.size(), message.find('"', kPrefix.size()) - kPrefix.size()));
      const google::protobuf::Descriptor* d =
          google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(type);
      if (d != nullptr && d->file()->name() == "proto/opaque.proto") return;
    }
    AddError(line, column, message);
  }
  std::string first;
};

constexpr uint64_t kMaxConfigBytes = 16 << 20;
constexpr uint64_t kMaxGraphBytes = kMaxProtoBytes;

absl::StatusOr<ConfigProto> ReadConfig(const std::string& path) {
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) return absl::NotFoundError(absl::StrCat("config file ", path, " cannot be read"));
  }
  RILL_ASSIGN_OR_RETURN(
      const std::string text,
      ReadBoundedFile("--config", path, kMaxConfigBytes, "a ConfigProto text file is small"));
  ConfigProto config;
  google::protobuf::TextFormat::Parser parser;
  ConfigErrors errors;
  parser.RecordErrorsTo(&errors);
  parser.AllowUnknownField(true);
  if (!parser.ParseFromString(text, &config) || !errors.first.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("config file ", path, " is not a text ConfigProto: ", errors.first));
  }
  return config;
}

std::string FileNameFor(const std::string& tensor) {
  return absl::StrReplaceAll(tensor, {{"/", "_"}, {":", "_"}});
}

void PrintDevices(const Session& session) {
  int gpus = 0;
  for (const DeviceAttributes& d : session.ListDevices()) gpus += d.device_type() == "GPU";
  std::printf("Num GPUs Available: %d\n", gpus);
  for (const DeviceAttributes& d : session.ListDevices()) {
    std::printf("%s (%s) memory_limit: %lld%s%s\n", d.name().c_str(), d.device_type().c_str(),
                static_cast<long long>(d.memory_limit()),
                d.physical_device_desc().empty() ? "" : " ", d.physical_device_desc().c_str());
  }
}

// The GraphDef of --graph: a SavedModel directory as ReadGraphDefFile reads it, a file read with
// protobuf's 2 GB bound (ReadGraphDefFile's own messages for files that cannot be opened).
absl::StatusOr<GraphDef> ReadGraph(const std::string& path, const std::string& tag_set) {
  std::error_code ec;
  std::string file = path;
  if (std::filesystem::is_directory(path, ec)) {
    file = (std::filesystem::path(path) / "saved_model.pb").string();
    if (!std::filesystem::exists(file, ec)) return ReadGraphDefFile(path, tag_set);
  }
  if (!std::ifstream(file, std::ios::binary)) return ReadGraphDefFile(path, tag_set);
  RILL_ASSIGN_OR_RETURN(const std::string bytes, ReadBoundedFile("--graph", file, kMaxGraphBytes,
                                                                 "protobuf's limit on a GraphDef"));
  return ParseGraphDefBytes(bytes, file, tag_set);
}

// Creates `dir` (and its parents) for `flag`; an existing non-directory is InvalidArgument.
absl::Status MakeDirectory(absl::string_view flag, const std::string& dir) {
  std::error_code create_ec, ec;
  std::filesystem::create_directories(dir, create_ec);
  if (std::filesystem::is_directory(dir, ec)) return absl::OkStatus();
  if (std::filesystem::exists(dir, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(flag, "=", dir, ": is not a directory"));
  }
  return absl::NotFoundError(
      absl::StrCat(flag, "=", dir, ": cannot create the directory",
                   create_ec ? absl::StrCat(": ", create_ec.message()) : ""));
}

// Before any run: a `dir` that exists and is not a directory is refused up front.
absl::Status CheckDirectoryFlag(absl::string_view flag, const std::string& dir) {
  std::error_code ec;
  if (dir.empty() || !std::filesystem::exists(dir, ec) || std::filesystem::is_directory(dir, ec)) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(flag, "=", dir, ": is not a directory"));
}

// A TF1 Saver's nodes (tf.train.Saver names them save/...), checked before --checkpoint restores
// or --save_checkpoint saves so a graph without one gets a message saying so.
absl::Status CheckSaver(const GraphDef& graph, absl::string_view flag, absl::string_view op_node) {
  bool has_const = false, has_op = false;
  for (const NodeDef& n : graph.node()) {
    has_const |= n.name() == "save/Const";
    has_op |= n.name() == op_node;
  }
  if (has_const && has_op) return absl::OkStatus();
  const std::string missing =
      !has_const && !has_op
          ? "it has neither"
          : absl::StrCat("but ", has_const ? op_node : "save/Const", " is missing");
  return absl::InvalidArgumentError(
      absl::StrCat(flag,
                   " needs a graph with a tf.train.Saver (a TF1 Saver's nodes), and this "
                   "graph has none: expected nodes save/Const (the checkpoint prefix) and ",
                   op_node, ", ", missing));
}

std::string Micros(double us) { return absl::StrFormat("%.2f us", us); }

// CPU time of the whole process (every thread) in microseconds. On a shared machine a run's
// wall time also counts the time other processes held its core; its CPU time does not.
double ProcessCpuMicros() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

// Page faults the process has taken (minor and major, every thread). --benchmark reports those of
// its timed repetitions per repetition: memory a run touches that the kernel must map in again
// (buffers the C library returned to it, or new ones), a per-run cost (docs/memory.md).
int64_t ProcessPageFaults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<int64_t>(u.ru_minflt) + u.ru_majflt;
}

// `name` as a tensor name: a signature key is replaced by its tensor.
std::string Resolve(const std::string& name,
                    const google::protobuf::Map<std::string, TensorInfo>& keys) {
  auto it = keys.find(name);
  return it == keys.end() ? name : it->second.name();
}

// The quantized dtype of each Placeholder (or signature input) that has one: a .npy file holds
// a quantized tensor as its plain integers (as numpy holds what session.run returns), so a feed
// of the matching integer dtype is retagged, as TensorFlow's session.run converts a numpy feed.
using QuantizedFeeds = std::map<std::string, DataType>;

void AddQuantizedPlaceholders(const GraphDef& graph, QuantizedFeeds* out) {
  for (const NodeDef& n : graph.node()) {
    auto dtype = n.attr().find("dtype");
    if (n.op() == "Placeholder" && dtype != n.attr().end() &&
        IsQuantizedDataType(dtype->second.type())) {
      (*out)[n.name()] = dtype->second.type();
      (*out)[n.name() + ":0"] = dtype->second.type();
    }
  }
}

Tensor AsFedDtype(Tensor t, const std::string& name, const QuantizedFeeds& quantized) {
  auto it = quantized.find(name);
  if (it == quantized.end() || t.dtype() != QuantizedStorageType(it->second)) return t;
  Tensor q(it->second, t.shape());
  if (t.TotalBytes() > 0) std::memcpy(q.raw_data(), t.raw_data(), t.TotalBytes());
  return q;
}

absl::Status Main(const RunnerArgs& args) {
  RILL_RETURN_IF_ERROR(CheckDirectoryFlag("--output_dir", args.output_dir));
  RILL_RETURN_IF_ERROR(CheckDirectoryFlag("--dump_partitions", args.dump_partitions));
  SessionOptions options;
  if (!args.config.empty()) {
    RILL_ASSIGN_OR_RETURN(options.config, ReadConfig(args.config));
  }
  if (!args.cluster_spec.empty()) {
    RILL_ASSIGN_OR_RETURN(*options.config.mutable_cluster_def(),
                          distributed::ParseClusterSpec(args.cluster_spec));
  }
  options.target = args.session_target;
  if (!args.tls_ca_file.empty()) {
    RILL_RETURN_IF_ERROR(distributed::SetProcessTls(args.tls_ca_file, "", ""));
  }
  if (args.log_device_placement) options.config.set_log_device_placement(true);
  if (args.set_allow_soft_placement) options.config.set_allow_soft_placement(true);
  // A local session keeps its partition graphs only for --dump_partitions: without them it frees
  // the graphs the optimizer made (a folded model's weights) once the executors are built.
  if (args.dump_partitions.empty() && options.target.empty() && !options.config.has_cluster_def()) {
    options.config.mutable_experimental()->set_disable_output_partition_graphs(true);
  }
  options.check_feed_shapes = !args.no_feed_shape_check;
  std::unique_ptr<Session> session;
  SignatureDef signature;  // empty without a SavedModel
  QuantizedFeeds quantized_feeds;
  if (!args.saved_model_dir.empty()) {
    RILL_ASSIGN_OR_RETURN(LoadedSavedModel model,
                          LoadSavedModel(options, args.saved_model_dir, args.tag_set));
    absl::StatusOr<SignatureDef> sig = model.Signature(args.signature_def);
    if (sig.ok()) {
      signature = *std::move(sig);
    } else if (args.signature_def != "serving_default") {
      return sig.status();  // asked for by name
    }
    session = std::move(model.session);
    for (const auto& [key, info] : signature.inputs()) {
      if (IsQuantizedDataType(info.dtype())) quantized_feeds[info.name()] = info.dtype();
    }
    if (args.list_devices) PrintDevices(*session);
  } else {
    RILL_ASSIGN_OR_RETURN(GraphDef graph, ReadGraph(args.graph, args.tag_set));
    if (!args.checkpoint.empty()) {
      RILL_RETURN_IF_ERROR(CheckSaver(graph, "--checkpoint", "save/restore_all"));
    }
    if (!args.save_checkpoint.empty()) {
      RILL_RETURN_IF_ERROR(CheckSaver(graph, "--save_checkpoint", "save/control_dependency"));
    }
    if (args.clear_devices) {
      for (NodeDef& n : *graph.mutable_node()) n.clear_device();
    }
    RILL_ASSIGN_OR_RETURN(session, Session::New(options));
    if (args.list_devices) PrintDevices(*session);
    AddQuantizedPlaceholders(graph, &quantized_feeds);
    RILL_RETURN_IF_ERROR(session->Create(graph));
    if (!args.checkpoint.empty()) {
      // A TF1 Saver's restore: its filename tensor and restore op (Saver.restore).
      RILL_RETURN_IF_ERROR(
          RestoreCheckpoint(*session, "save/restore_all", "save/Const:0", args.checkpoint));
    }
  }
  if (args.explain_placement) {
    std::fputs(session->ExplainPlacement(args.explain_all ? -1 : 200).c_str(), stdout);
  }
  for (size_t r = 0; r < args.runs.size(); ++r) {
    RunSpec spec = args.runs[r];
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const auto& [name, path] : spec.feeds) {
      absl::StatusOr<Tensor> t = ReadNpy(path);
      if (!t.ok()) return AnnotateStatus(t.status(), absl::StrCat("feed ", name));
      const std::string tensor_name = Resolve(name, signature.inputs());
      feeds.emplace_back(tensor_name, AsFedDtype(*std::move(t), tensor_name, quantized_feeds));
    }
    // Signature output keys are printed under their key; a run with nothing to do fetches all.
    std::vector<std::string> shown = spec.fetches;
    if (spec.fetches.empty() && spec.targets.empty()) {
      std::vector<std::string> keys;
      for (const auto& [key, info] : signature.outputs()) keys.push_back(key);
      std::sort(keys.begin(), keys.end());
      if (keys.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("run ", r, " has no --fetch or --target, and signature '",
                         args.signature_def, "' has no outputs to fetch"));
      }
      shown = keys;
    }
    spec.fetches.clear();
    for (const std::string& f : shown) spec.fetches.push_back(Resolve(f, signature.outputs()));
    const bool last = r + 1 == args.runs.size();
    RunOptions run_options;
    if (last && !args.trace.empty()) run_options.set_trace_level(RunOptions::FULL_TRACE);
    if (last && !args.dump_partitions.empty()) run_options.set_output_partition_graphs(true);
    std::vector<Tensor> outputs;
    RunMetadata metadata;
    std::vector<double> times_us, cpu_us;
    const int reps = spec.repeat + (args.benchmark ? args.warmup : 0);
    int64_t faults = 0;
    for (int i = 0; i < reps; ++i) {
      metadata.Clear();
      const int64_t faults_start = args.benchmark ? ProcessPageFaults() : 0;
      const double cpu_start = args.benchmark ? ProcessCpuMicros() : 0;
      auto start = std::chrono::steady_clock::now();
      RILL_RETURN_IF_ERROR(
          session->Run(run_options, feeds, spec.fetches, spec.targets, &outputs, &metadata));
      auto end = std::chrono::steady_clock::now();
      if (i >= reps - spec.repeat) {
        times_us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
        if (args.benchmark) {
          cpu_us.push_back(ProcessCpuMicros() - cpu_start);
          faults += ProcessPageFaults() - faults_start;
        }
      }
    }
    for (size_t f = 0; f < spec.fetches.size(); ++f) {
      const Tensor& t = outputs[f];
      std::string name = shown[f];
      if (name.find(':') == std::string::npos && !signature.outputs().contains(name)) {
        name += ":0";
      }
      std::printf("%s dtype=%s shape=%s\n%s\n", name.c_str(), NumpyDtypeName(t.dtype()).c_str(),
                  t.shape().DebugString().c_str(), FormatLikeNumpy(t).c_str());
      if (!args.output_dir.empty()) {
        RILL_RETURN_IF_ERROR(MakeDirectory("--output_dir", args.output_dir));
        RILL_RETURN_IF_ERROR(
            WriteNpy(absl::StrCat(args.output_dir, "/", FileNameFor(shown[f]), ".npy"), t));
      }
    }
    if (args.benchmark) {
      std::sort(times_us.begin(), times_us.end());
      std::sort(cpu_us.begin(), cpu_us.end());
      const size_t n = times_us.size();
      std::printf(
          "run %zu: %zu reps  min %s  median %s  p90 %s  max %s  cpu min %s  cpu median %s  "
          "page faults/rep %.1f\n",
          r, n, Micros(times_us.front()).c_str(), Micros(times_us[n / 2]).c_str(),
          Micros(times_us[std::min(n - 1, n * 9 / 10)]).c_str(), Micros(times_us.back()).c_str(),
          Micros(cpu_us.front()).c_str(), Micros(cpu_us[n / 2]).c_str(),
          static_cast<double>(faults) / static_cast<double>(n));
    }
    if (last && !args.trace.empty()) {
      errno = 0;
      std::ofstream out(args.trace);
      out << StepStatsToChromeTrace(metadata.step_stats());
      if (!out) {
        const int err = errno;
        std::error_code ec;
        if (std::filesystem::is_directory(args.trace, ec)) {
          return absl::InvalidArgumentError(
              absl::StrCat("--trace=", args.trace, ": is a directory; give a file name"));
        }
        return absl::NotFoundError(absl::StrCat("--trace=", args.trace, ": cannot be written",
                                                err != 0 ? ": " : "",
                                                err != 0 ? std::strerror(err) : ""));
      }
    }
    if (last && !args.dump_partitions.empty()) {
      RILL_RETURN_IF_ERROR(MakeDirectory("--dump_partitions", args.dump_partitions));
      for (const GraphDef& part : metadata.partition_graphs()) {
        const std::string device = part.node_size() ? part.node(0).device() : "empty";
        RILL_RETURN_IF_ERROR(WriteGraphDefFile(
            absl::StrCat(args.dump_partitions, "/", FileNameFor(device), ".pbtxt"), part,
            /*as_text=*/true));
      }
    }
  }
  if (!args.save_checkpoint.empty()) {
    std::vector<Tensor> saved;
    RILL_RETURN_IF_ERROR(
        session->Run({{"save/Const:0", Tensor::Scalar<std::string>(args.save_checkpoint)}},
                     {"save/control_dependency:0"}, {}, &saved));
    // A graph may name any node save/control_dependency: only a string scalar is a prefix.
    if (saved[0].dtype() != DT_STRING || saved[0].NumElements() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--save_checkpoint: save/control_dependency:0 gave a ", DataTypeString(saved[0].dtype()),
          " tensor of shape ", saved[0].shape().DebugString(),
          ", not a string scalar (the checkpoint's prefix, as a tf.train.Saver's gives)"));
    }
    std::printf("saved checkpoint %s\n", saved[0].flat<std::string>()[0].c_str());
  }
  if (args.memory_stats) {
    std::fputs(MemoryReport(session->MemoryStats()).c_str(), stdout);
    std::fputs(ResidentLine(ProcessResidentBytes()).c_str(), stdout);
  }
  std::fflush(stdout);
  return absl::OkStatus();
}

// The intra-op team size the run's session will have: the config's
// intra_op_parallelism_threads, else one per CPU (as Session chooses). Only a regular file is
// read here (a pipe or a process substitution can be read once, by Main); other and unreadable
// configs count as unset here (Main reports their errors).
int IntraOpThreads(const RunnerArgs& args) {
  std::error_code error;
  if (!args.config.empty() && std::filesystem::is_regular_file(args.config, error)) {
    absl::StatusOr<ConfigProto> config = ReadConfig(args.config);
    if (config.ok() && config->intra_op_parallelism_threads() > 0) {
      return config->intra_op_parallelism_threads();
    }
  }
  return DefaultNumThreads();
}

// Prints `CODE: message` on stderr. A message may hold NUL bytes (a CheckNumerics message is the
// node's attr): each prints as a backslash and a 0, so the rest (the node's name) is not cut off.
void PrintStatus(const absl::Status& s) {
  std::string message(s.message());
  std::string escaped;
  for (char c : message) {
    if (c == '\0') {
      escaped += "\\0";
    } else {
      escaped += c;
    }
  }
  std::fprintf(stderr, "%s: %s\n", StatusCodeName(s.code()).c_str(), escaped.c_str());
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  std::vector<std::string> argv_vec(argv, argv + argc);
  absl::StatusOr<rill::RunnerArgs> args = rill::ParseArgs(argv_vec);
  // Before any thread starts: picks libgomp's wait policy for the run's team size and runs the
  // process again with it (no rerun to report bad arguments or print the usage).
  if (args.ok() && !args->help) rill::RerunWithOmpWaitPolicy(rill::IntraOpThreads(*args), argv);
  if (!args.ok()) {
    rill::PrintStatus(args.status());
    return 2;
  }
  if (args->help) {
    std::fputs(rill::Usage().c_str(), stdout);
    return 0;
  }
  absl::Status s = rill::Main(*args);
  if (!s.ok()) {
    std::fflush(stdout);
    rill::PrintStatus(s);
    return 1;
  }
  return 0;
}
