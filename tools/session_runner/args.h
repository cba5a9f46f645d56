// Command line of session_runner:
//
//   session_runner --graph=FILE [--config=FILE] [OPTIONS] RUN [--then RUN]...
//   session_runner --saved_model_dir=DIR [--signature_def=KEY] [OPTIONS] [RUN [--then RUN]...]
//   RUN := [--feed=NAME[:I]=FILE.npy]... [--fetch=NAME[:I]]... [--target=NAME]... [--repeat=N]
//
// ParseArgs turns argv into RunnerArgs; InvalidArgument names the flag that is wrong ("unknown
// flag --fetc", "--repeat needs a positive integer, got 'x'"). Pure function; thread-safe.
#ifndef RILL_TOOLS_SESSION_RUNNER_ARGS_H_
#define RILL_TOOLS_SESSION_RUNNER_ARGS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace rill {

struct RunSpec {
  std::vector<std::pair<std::string, std::string>> feeds;  // tensor name, .npy path
  std::vector<std::string> fetches;
  std::vector<std::string> targets;
  int repeat = 1;
};

struct RunnerArgs {
  std::string graph;
  std::string saved_model_dir;                    // instead of --graph: load, restore, init
  std::string signature_def = "serving_default";  // names feeds/fetches by its keys
  std::string checkpoint;                         // with --graph: restore this prefix first
  std::string save_checkpoint;                    // with --graph: save to this prefix at the end
  std::string config;
  std::string session_target;  // grpc://host:port (SessionOptions.target)
  std::string cluster_spec;    // job|host:port;host:port,... (ConfigProto.cluster_def)
  std::string tls_ca_file;     // TLS to the cluster's tasks, verified with this CA
  std::string tag_set = "serve";
  bool log_device_placement = false;
  bool allow_soft_placement = false;  // only applied when set_allow_soft_placement
  bool set_allow_soft_placement = false;
  bool list_devices = false;
  bool clear_devices = false;
  bool no_feed_shape_check = false;
  bool explain_placement = false;
  bool explain_all = false;
  bool benchmark = false;
  bool memory_stats = false;
  int warmup = 0;
  bool help = false;
  std::string output_dir;
  std::string trace;
  std::string dump_partitions;
  std::vector<RunSpec> runs;
};

absl::StatusOr<RunnerArgs> ParseArgs(const std::vector<std::string>& argv);
// The --help text.
std::string Usage();

}  // namespace rill

#endif  // RILL_TOOLS_SESSION_RUNNER_ARGS_H_
