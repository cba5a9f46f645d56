#include "tools/session_runner/args.h"

#include <cstdint>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rill {

std::string Usage() {
  return R"(Usage: session_runner --graph=FILE [--config=FILE] [OPTIONS] RUN [--then RUN]...
       session_runner --saved_model_dir=DIR [--tag_set=serve] [--signature_def=KEY] [RUN]...
  RUN := [--feed=NAME[:I]=FILE.npy]... [--fetch=NAME[:I]]... [--target=NAME]... [--repeat=N]

Runs a GraphDef (binary or text, or a SavedModel's saved_model.pb) in one Rill Session.
Runs separated by --then share the session, so variables persist between them.
With --saved_model_dir the SavedModel is loaded as TensorFlow does (variables restored, init op
run); feeds and fetches may then be the signature's input and output keys (as saved_model_cli
run), and a run with no --fetch fetches every output of the signature.

Options:
  --config=FILE             ConfigProto in text format (TensorFlow's field names)
  --session_target=grpc://HOST:PORT
                            run on a cluster (docs/distributed.md): this process is the master,
                            unqualified devices (/cpu:0) go to the task at HOST:PORT
  --cluster_spec=SPEC       the cluster's tasks, as rill_server's flag
                            (worker|127.0.0.1:2222;127.0.0.1:2223); sets the config's cluster_def
  --tls_ca_file=PEM         talk to the cluster's tasks over TLS, verifying them with this CA
  --log_device_placement    print the Device mapping and one line per node with its device
  --allow_soft_placement    fall back to an available device (overrides the config)
  --list_devices            print the devices the session sees, then exit unless runs follow
  --explain_placement       print NAME (OP) -> DEVICE: reason per node, and a per-device summary
  --explain_all             with --explain_placement: list every node even on huge graphs
  --clear_devices           ignore device requests stored in the graph
  --no_feed_shape_check     do not check feeds against Placeholder shapes (TensorFlow's C++ API)
  --tag_set=TAGS            MetaGraphDef to load from a SavedModel (default: serve)
  --saved_model_dir=DIR     load a SavedModel directory instead of --graph
  --signature_def=KEY       the signature whose keys feeds and fetches may use
                            (default: serving_default)
  --checkpoint=PREFIX       with --graph: restore a TF1 Saver checkpoint first, through the
                            graph's save/restore_all with PREFIX fed to save/Const:0
  --save_checkpoint=PREFIX  with --graph: after the last run, save the variables through the
                            graph's TF1 Saver ops (save/control_dependency) to PREFIX
  --output_dir=DIR          write each fetched tensor of the last run fetching it as DIR/<name>.npy
  --trace=FILE.json         Chrome/Perfetto trace of the last run
  --dump_partitions=DIR     write the partition GraphDefs (text) of the last run, one per device
  --benchmark               per run: min, median, p90 and max time of its repetitions, the
                            min and median of their CPU time (every thread of the process) and
                            the page faults they took per repetition
  --memory_stats            after the runs, each device's memory: in use, peak, reserved, limit,
                            largest free block, allocations (GPU allocators are per process)
  --warmup=N                repetitions to run before timing (with --benchmark)
  --help                    this text
)";
}

absl::StatusOr<RunnerArgs> ParseArgs(const std::vector<std::string>& argv) {
  RunnerArgs args;
  args.runs.emplace_back();
  auto value = [](const std::string& arg, absl::string_view flag, std::string* out) {
    const std::string prefix = absl::StrCat(flag, "=");
    if (!absl::StartsWith(arg, prefix)) return false;
    *out = arg.substr(prefix.size());
    return true;
  };
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    std::string v;
    RunSpec& run = args.runs.back();
    if (a == "--then") {
      args.runs.emplace_back();
    } else if (value(a, "--graph", &v)) {
      args.graph = v;
    } else if (value(a, "--saved_model_dir", &v)) {
      args.saved_model_dir = v;
    } else if (value(a, "--signature_def", &v)) {
      args.signature_def = v;
    } else if (value(a, "--checkpoint", &v)) {
      args.checkpoint = v;
    } else if (value(a, "--save_checkpoint", &v)) {
      args.save_checkpoint = v;
    } else if (value(a, "--config", &v)) {
      args.config = v;
    } else if (value(a, "--session_target", &v)) {
      args.session_target = v;
    } else if (value(a, "--cluster_spec", &v)) {
      if (v.empty()) {
        return absl::InvalidArgumentError(
            "--cluster_spec needs the cluster's tasks (as rill_server's flag), got ''");
      }
      args.cluster_spec = v;
    } else if (value(a, "--tls_ca_file", &v)) {
      if (v.empty()) {
        return absl::InvalidArgumentError("--tls_ca_file needs a PEM file, got ''");
      }
      args.tls_ca_file = v;
    } else if (value(a, "--tag_set", &v)) {
      args.tag_set = v;
    } else if (value(a, "--feed", &v)) {
      size_t eq = v.rfind('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--feed wants NAME[:I]=FILE.npy, got '", v, "'"));
      }
      run.feeds.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    } else if (value(a, "--fetch", &v)) {
      if (absl::StartsWith(v, "^")) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--fetch=", v, ": a fetch cannot be a control input '", v, "'; to run node '",
            v.substr(1), "' without fetching a value use --target=", v.substr(1)));
      }
      if (v.empty()) return absl::InvalidArgumentError("--fetch needs a tensor name, got ''");
      run.fetches.push_back(v);
    } else if (value(a, "--target", &v)) {
      run.targets.push_back(v);
    } else if (value(a, "--repeat", &v) || value(a, "--warmup", &v)) {
      int n;
      const bool repeat = absl::StartsWith(a, "--repeat");
      if (!absl::SimpleAtoi(v, &n) || n < (repeat ? 1 : 0)) {
        return absl::InvalidArgumentError(absl::StrCat(
            repeat ? "--repeat needs a positive integer" : "--warmup needs an integer >= 0",
            ", got '", v, "'"));
      }
      (repeat ? run.repeat : args.warmup) = n;
    } else if (value(a, "--output_dir", &v)) {
      args.output_dir = v;
    } else if (value(a, "--trace", &v)) {
      args.trace = v;
    } else if (value(a, "--dump_partitions", &v)) {
      args.dump_partitions = v;
    } else if (a == "--log_device_placement") {
      args.log_device_placement = true;
    } else if (a == "--allow_soft_placement") {
      args.allow_soft_placement = args.set_allow_soft_placement = true;
    } else if (a == "--list_devices") {
      args.list_devices = true;
    } else if (a == "--clear_devices") {
      args.clear_devices = true;
    } else if (a == "--no_feed_shape_check") {
      args.no_feed_shape_check = true;
    } else if (a == "--explain_placement") {
      args.explain_placement = true;
    } else if (a == "--explain_all") {
      args.explain_all = true;
    } else if (a == "--benchmark") {
      args.benchmark = true;
    } else if (a == "--memory_stats") {
      args.memory_stats = true;
    } else if (a == "--help" || a == "-h") {
      args.help = true;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag ", a, " (see --help)"));
    }
  }
  if (!args.help && args.graph.empty() && args.saved_model_dir.empty()) {
    return absl::InvalidArgumentError("--graph=FILE is required (see --help)");
  }
  if (!args.graph.empty() && !args.saved_model_dir.empty()) {
    return absl::InvalidArgumentError("--graph and --saved_model_dir exclude each other");
  }
  if ((!args.checkpoint.empty() || !args.save_checkpoint.empty()) && args.graph.empty()) {
    return absl::InvalidArgumentError(
        "--checkpoint and --save_checkpoint go with --graph (a SavedModel restores its own "
        "variables)");
  }
  // With --benchmark a run repeats warmup + repeat times, which must fit an int.
  for (const RunSpec& run : args.runs) {
    if (args.benchmark && int64_t{run.repeat} + args.warmup > std::numeric_limits<int>::max()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--repeat=", run.repeat, " with --warmup=", args.warmup, " is more than ",
                       std::numeric_limits<int>::max(), " repetitions"));
    }
  }
  // A trailing empty run (no feeds, fetches or targets) is dropped: `--list_devices` alone is fine.
  if (args.runs.size() == 1 && args.runs[0].fetches.empty() && args.runs[0].targets.empty() &&
      args.runs[0].feeds.empty()) {
    args.runs.clear();
  }
  // With a SavedModel a run may fetch nothing explicitly: it then fetches the signature outputs.
  if (!args.saved_model_dir.empty() && args.runs.empty()) args.runs.emplace_back();
  for (size_t r = 0; r < args.runs.size() && args.saved_model_dir.empty(); ++r) {
    if (args.runs[r].fetches.empty() && args.runs[r].targets.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("run ", r, " has no --fetch or --target; each run needs at least one"));
    }
  }
  return args;
}

}  // namespace rill
