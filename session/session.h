// Session: runs a graph the way TensorFlow 1.x's DirectSession does. Devices come from the
// ConfigProto; the graph is validated on Create and placed once (stateful nodes keep their device
// for the session's life); each Run signature (feeds, fetches, targets) is rewritten with
// _Arg/_Retval nodes, pruned, partitioned per device with _Send/_Recv pairs, and turned into one
// executor per partition, all cached. Variables live in per-device resource managers for the
// session's life, so they survive failed runs.
//
//   SessionOptions options;
//   options.config.mutable_device_count()->insert({"CPU", 3});
//   RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::New(options));
//   RILL_RETURN_IF_ERROR(session->Create(graph_def));
//   std::vector<Tensor> out;
//   RILL_RETURN_IF_ERROR(session->Run({{"x:0", x}}, {"MatMul:0"}, {}, &out));
//
// Errors use TensorFlow's texts (spec §5): unknown feed/fetch/target, fed and fetched, fed twice,
// feed dtype mismatch ("Expects arg[0] to be float but int32 is provided"), unfed placeholder,
// timeouts (DeadlineExceeded), runs after Close (Cancelled "Session has been closed.").
// Thread-safe: Run may be called concurrently from many threads; Close cancels runs in flight.
#ifndef RILL_SESSION_SESSION_H_
#define RILL_SESSION_SESSION_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/allocator.h"
#include "core/gpu/physical_gpu.h"
#include "core/tensor.h"
#include "proto/config.pb.h"
#include "proto/device_attributes.pb.h"
#include "proto/graph.pb.h"

namespace rill {

class GpuProcessState;  // core/gpu/gpu_process_state.h

struct SessionOptions {
  ConfigProto config;
  // Check feeds against a Placeholder's declared shape (-1 dims and unknown rank match anything).
  // TensorFlow's C++ API does not check; Rill does unless this is false.
  bool check_feed_shapes = true;
  // The GPUs the process sees (after CUDA_VISIBLE_DEVICES), from which the ConfigProto's GPU
  // options make GPU devices (session/gpu_device_plan.h). Unset: CUDA discovery (once per
  // process; none without a GPU or driver, never an error). Tests inject fake GPUs here to see
  // placement, ListDevices, the "Device mapping:" log and GPU memory with GPUs present; injected
  // GPUs get simulated memory (core/gpu/gpu_process_state.h).
  std::optional<std::vector<PhysicalGpu>> gpus;
  // Where GPU allocators live (per process, as TensorFlow's). Null: GpuProcessState::Global()
  // for discovered GPUs, and a simulated state private to the session for injected ones. Tests
  // of the per-process rule pass one state to several sessions. Not owned.
  GpuProcessState* gpu_process_state = nullptr;
  // TensorFlow's session target: "" (this process) or "grpc://host:port", the task of
  // ConfigProto.cluster_def that unqualified devices (/cpu:0) resolve to (docs/distributed.md).
  std::string target;
};

// One device's memory as its allocator sees it (Session::MemoryStats).
struct DeviceMemoryStats {
  std::string device;     // full name, /job:localhost/replica:0/task:0/device:GPU:0
  std::string allocator;  // "GPU_0_bfc", "cpu"
  AllocatorStats stats;   // in use, peak, reserved, limit, largest free block, allocations
};

class SessionImpl;

// What a Session does when its devices live in other processes (distributed/grpc_session.h):
// Session::New hands a config with a cluster_def, or a grpc:// target, to the factory registered
// here (by linking //distributed:grpc_session). Same contracts as Session's methods.
class SessionBackend {
 public:
  virtual ~SessionBackend() = default;
  virtual absl::Status Create(const GraphDef& graph) = 0;
  virtual absl::Status Extend(const GraphDef& graph) = 0;
  virtual absl::Status Run(const RunOptions& run_options,
                           const std::vector<std::pair<std::string, Tensor>>& feeds,
                           const std::vector<std::string>& fetches,
                           const std::vector<std::string>& targets, std::vector<Tensor>* outputs,
                           RunMetadata* run_metadata) = 0;
  virtual std::vector<DeviceAttributes> ListDevices() const = 0;
  virtual absl::Status Close() = 0;
  virtual std::string PlacementLog() const = 0;
  virtual std::string ExplainPlacement(int max_nodes) const = 0;
};
using SessionBackendFactory =
    absl::StatusOr<std::unique_ptr<SessionBackend>> (*)(const SessionOptions& options);
// Called once, at static initialization, by the library that provides the backend.
void RegisterRemoteSessionFactory(SessionBackendFactory factory);

class Session {
 public:
  // InvalidArgument/NotFound for a config that names no usable devices (e.g. CPU count 0).
  static absl::StatusOr<std::unique_ptr<Session>> New(const SessionOptions& options);
  ~Session();

  // Validates and places `graph`. AlreadyExists "A Graph has already been created for this
  // session." on a second Create; the validation and placement errors otherwise.
  absl::Status Create(const GraphDef& graph);
  // Adds nodes to the session's graph (new names only); existing nodes keep their placement.
  absl::Status Extend(const GraphDef& graph);

  absl::Status Run(const RunOptions& run_options,
                   const std::vector<std::pair<std::string, Tensor>>& feeds,
                   const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                   std::vector<Tensor>* outputs, RunMetadata* run_metadata);
  absl::Status Run(const std::vector<std::pair<std::string, Tensor>>& feeds,
                   const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                   std::vector<Tensor>* outputs);

  std::vector<DeviceAttributes> ListDevices() const;
  // Memory of every device, in ListDevices order. GPU allocators are per process (shared with
  // other sessions on the same GPU), and every CPU device uses the process's host allocator.
  std::vector<DeviceMemoryStats> MemoryStats() const;
  // Cancels runs in flight and refuses later ones. Idempotent.
  absl::Status Close();

  // The placement log lines and per-node explanations (see session/placement_log.h).
  std::string PlacementLog() const;
  std::string ExplainPlacement(int max_nodes = 200) const;

 private:
  explicit Session(std::unique_ptr<SessionImpl> impl);
  explicit Session(std::unique_ptr<SessionBackend> remote);
  std::unique_ptr<SessionImpl> impl_;
  std::unique_ptr<SessionBackend> remote_;  // set instead of impl_ for a cluster session
};

}  // namespace rill

#endif  // RILL_SESSION_SESSION_H_
