#include "distributed/grpc_session.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device_name.h"
#include "core/mutex.h"
#include "core/partial_tensor_shape.h"
#include "core/rendezvous.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "distributed/cluster_spec.h"
#include "distributed/worker_client.h"
#include "graph/function_lowering.h"
#include "graph/graph_def_export.h"
#include "graph/graph_def_import.h"
#include "graph/op_classes.h"
#include "graph/partition.h"
#include "graph/unregistered_ops.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "session/placement_log.h"
#include "session/placer.h"
#include "session/run_graph.h"

namespace rill {
namespace distributed {
namespace {

constexpr absl::Duration kDefaultRunTimeout = absl::Hours(1);

int64_t NewStepId() {
  static rill::Mutex mu;
  static std::mt19937_64 rng{std::random_device{}()};
  rill::MutexLock lock(&mu);
  return static_cast<int64_t>(rng() >> 1);
}

struct Task {
  std::string job;
  int index = 0;
  std::string name;  // /job:worker/replica:0/task:1
  std::unique_ptr<WorkerClient> client;
  std::vector<DeviceAttributes> devices;  // from GetStatus
};

// One partition of a run signature, registered on its task.
struct RemotePartition {
  Task* task = nullptr;
  std::string device;
  GraphDef graph;
  std::string handle;
  std::vector<std::pair<std::string, int>> feed_keys;  // rendezvous key, feed index
  std::vector<std::string> fetch_keys;
};

struct RunState {
  RunGraph run;
  std::vector<PartialTensorShape> feed_shapes;  // declared Placeholder shape per feed
  std::vector<RemotePartition> partitions;
  std::map<std::string, int> fetch_index_of_key;
};

// "task name" of a full device name: "/job:worker/replica:0/task:1".
std::string TaskOfDevice(const std::string& device) {
  absl::StatusOr<DeviceName> d = ParseDeviceName(device);
  if (!d.ok()) return "";
  return TaskName(d->job, d->task);
}

}  // namespace

class GrpcSession final : public SessionBackend {
 public:
  explicit GrpcSession(SessionOptions options) : options_(std::move(options)) {}
  ~GrpcSession() override { Close().IgnoreError(); }

  absl::Status Init() {
    cluster_ = options_.config.cluster_def();
    std::string target_address;
    if (!options_.target.empty()) {
      if (!absl::StartsWith(options_.target, "grpc://")) {
        return absl::InvalidArgumentError(
            absl::StrCat("Session target '", options_.target,
                         "' is not supported; Rill takes \"\" (this process) or grpc://host:port"));
      }
      target_address = options_.target.substr(7);
      RILL_RETURN_IF_ERROR(ValidateHostPort(
          target_address, absl::StrCat("the session target '", options_.target, "'")));
      if (cluster_.job_size() == 0) {
        // A lone server: the cluster is that task, as job "worker" until its devices name the
        // job and task it was started as (AdoptLoneServerTaskLocked).
        lone_server_ = true;
        JobDef* job = cluster_.add_job();
        job->set_name("worker");
        (*job->mutable_tasks())[0] = target_address;
      }
    }
    RILL_RETURN_IF_ERROR(ValidateClusterDef(cluster_, "the cluster_def"));
    for (const TaskRef& t : ListTasks(cluster_)) {
      auto task = std::make_unique<Task>();
      task->job = t.job;
      task->index = t.task;
      task->name = TaskName(t.job, t.task);
      task->client = std::make_unique<WorkerClient>(t.job, t.task, t.address);
      if (target_task_.empty() && (target_address.empty() || t.address == target_address)) {
        target_task_ = task->name;
      }
      tasks_[task->name] = std::move(task);
    }
    if (target_task_.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Session target ", options_.target,
                       " is not a task of the cluster_def; give the address of one of its tasks"));
    }
    session_handle_ = absl::StrCat("rill_session_", NewStepId());
    {
      rill::MutexLock lock(&mu_);
      if (lone_server_) RILL_RETURN_IF_ERROR(AdoptLoneServerTaskLocked());
      RILL_RETURN_IF_ERROR(ConnectLocked());
    }
    if (options_.config.log_device_placement()) {
      // The "Device mapping:" block goes to stderr, as in the local session.
      std::fputs(DeviceMappingText(ListDevices()).c_str(), stderr);
    }
    return absl::OkStatus();
  }

  absl::Status Create(const GraphDef& graph) override {
    rill::MutexLock lock(&mu_);
    if (closed_) return absl::CancelledError("Session has been closed.");
    if (graph_ != nullptr) {
      return absl::AlreadyExistsError("A Graph has already been created for this session.");
    }
    return ExtendLocked(graph);
  }

  absl::Status Extend(const GraphDef& graph) override {
    rill::MutexLock lock(&mu_);
    if (closed_) return absl::CancelledError("Session has been closed.");
    return ExtendLocked(graph);
  }

  std::vector<DeviceAttributes> ListDevices() const override {
    rill::MutexLock lock(&mu_);
    std::vector<DeviceAttributes> out;
    for (const auto& [name, task] : tasks_) {
      for (const DeviceAttributes& d : task->devices) out.push_back(d);
    }
    return out;
  }

  std::string PlacementLog() const override {
    rill::MutexLock lock(&mu_);
    return graph_ == nullptr ? "" : PlacementLogLines(*graph_, placement_);
  }
  std::string ExplainPlacement(int max_nodes) const override {
    rill::MutexLock lock(&mu_);
    return graph_ == nullptr ? "" : rill::ExplainPlacement(*graph_, placement_, max_nodes);
  }

  absl::Status Close() override {
    std::vector<std::shared_ptr<CancellationManager>> steps;
    std::vector<std::shared_ptr<RunState>> states;
    {
      rill::MutexLock lock(&mu_);
      if (closed_) return absl::OkStatus();
      closed_ = true;
      for (auto& [token, cm] : active_steps_) steps.push_back(cm);
      for (auto& [key, st] : run_states_) states.push_back(st);
      run_states_.clear();
    }
    for (auto& cm : steps) cm->StartCancel(absl::CancelledError("Run call was cancelled"));
    // Best effort: a worker that is down keeps nothing of this session anyway.
    for (auto& st : states) DeregisterAll(*st);
    for (auto& [name, task] : tasks_) {
      tensorflow::DeleteWorkerSessionRequest req;
      req.set_session_handle(session_handle_);
      tensorflow::DeleteWorkerSessionResponse resp;
      task->client->DeleteWorkerSession(req, &resp, absl::Seconds(2)).IgnoreError();
    }
    return absl::OkStatus();
  }

  absl::Status Run(const RunOptions& run_options,
                   const std::vector<std::pair<std::string, Tensor>>& feeds,
                   const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                   std::vector<Tensor>* outputs, RunMetadata* run_metadata) override {
    auto cancel = std::make_shared<CancellationManager>();
    int64_t token;
    {
      rill::MutexLock lock(&mu_);
      if (closed_) return absl::CancelledError("Session has been closed.");
      if (graph_ == nullptr) {
        return absl::InvalidArgumentError("Session was not created with a graph before Run()!");
      }
      token = next_token_++;
      active_steps_[token] = cancel;
    }
    std::vector<std::string> feed_names;
    for (const auto& f : feeds) feed_names.push_back(f.first);
    absl::Status s;
    absl::StatusOr<std::shared_ptr<RunState>> state =
        GetOrCreateRunState(feed_names, fetches, targets);
    if (!state.ok()) {
      s = state.status();
    } else {
      s = RunStep(run_options, **state, feeds, fetches, outputs, run_metadata, cancel.get());
    }
    if (s.code() == absl::StatusCode::kUnavailable || s.code() == absl::StatusCode::kAborted) {
      // A worker went away or restarted: ask every task again before the next run.
      rill::MutexLock lock(&mu_);
      needs_reconnect_ = true;
      run_states_.clear();
    }
    rill::MutexLock lock(&mu_);
    active_steps_.erase(token);
    return s;
  }

 private:
  // A grpc:// target without a cluster_def may be a server started as any task (a ps, worker
  // task 1): the cluster becomes the one task its devices name. Devices that name no job and task
  // keep the assumed /job:worker/task:0, which ConnectLocked then checks.
  absl::Status AdoptLoneServerTaskLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const Task& assumed = *tasks_.begin()->second;
    tensorflow::GetStatusRequest req;
    tensorflow::GetStatusResponse resp;
    RILL_RETURN_IF_ERROR(assumed.client->GetStatus(req, &resp, kControlTimeout));
    if (resp.device_attributes_size() == 0) return absl::OkStatus();
    absl::StatusOr<DeviceName> served = ParseDeviceName(resp.device_attributes(0).name());
    if (!served.ok() || !served->has_job || !served->has_task) return absl::OkStatus();
    if (served->job == assumed.job && served->task == assumed.index) return absl::OkStatus();
    const std::string address = assumed.client->address();
    cluster_.Clear();
    JobDef* job = cluster_.add_job();
    job->set_name(served->job);
    (*job->mutable_tasks())[served->task] = address;
    RILL_RETURN_IF_ERROR(ValidateClusterDef(cluster_, "the cluster of the session target"));
    auto task = std::make_unique<Task>();
    task->job = served->job;
    task->index = served->task;
    task->name = TaskName(served->job, served->task);
    task->client = std::make_unique<WorkerClient>(served->job, served->task, address);
    target_task_ = task->name;
    tasks_.clear();
    tasks_[task->name] = std::move(task);
    return absl::OkStatus();
  }

  // GetStatus and CreateWorkerSession on every task.
  absl::Status ConnectLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (auto& [name, task] : tasks_) {
      tensorflow::GetStatusRequest req;
      tensorflow::GetStatusResponse resp;
      RILL_RETURN_IF_ERROR(task->client->GetStatus(req, &resp, kControlTimeout));
      task->devices.assign(resp.device_attributes().begin(), resp.device_attributes().end());
      // A server answers with its own devices' names: one started as another task (a
      // cluster_def giving this task another task's address, or a sparse or shifted index)
      // would get partitions the rendezvous routes elsewhere.
      for (const DeviceAttributes& d : task->devices) {
        if (!absl::StartsWith(d.name(), absl::StrCat(task->name, "/"))) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Task ", task->name, " (", task->client->address(), ") is served by a server of ",
              "another task: its device is ", d.name(),
              ". Give each task of the cluster_def the address of the server started with its "
              "job and task index (rill_server --job_name=",
              task->job, " --task_id=", task->index, ")"));
        }
      }
      tensorflow::CreateWorkerSessionRequest create;
      create.set_session_handle(session_handle_);
      tensorflow::ServerDef* def = create.mutable_server_def();
      *def->mutable_cluster() = cluster_;
      def->set_job_name(task->job);
      def->set_task_index(task->index);
      def->set_protocol("grpc");
      *def->mutable_default_session_config() = options_.config;
      def->mutable_default_session_config()->clear_cluster_def();
      tensorflow::CreateWorkerSessionResponse created;
      RILL_RETURN_IF_ERROR(task->client->CreateWorkerSession(create, &created, kControlTimeout));
    }
    incarnations_.clear();
    for (auto& [name, task] : tasks_) {
      for (const DeviceAttributes& d : task->devices) incarnations_[d.name()] = d.incarnation();
    }
    needs_reconnect_ = false;
    return absl::OkStatus();
  }

  std::vector<std::string> DeviceNamesLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    std::vector<std::string> out;
    // The target task's devices first: the placer's default among equals.
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& [name, task] : tasks_) {
        if ((name == target_task_) != (pass == 0)) continue;
        for (const DeviceAttributes& d : task->devices) out.push_back(d.name());
      }
    }
    return out;
  }

  std::string ClientDeviceLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return absl::StrCat(target_task_, "/device:CPU:0");
  }

  absl::Status ExtendLocked(const GraphDef& addition) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    std::unique_ptr<Graph> graph;
    if (graph_ == nullptr) {
      RILL_ASSIGN_OR_RETURN(graph, ImportGraphDef(addition));
    } else {
      GraphDef merged;
      ExportGraphDef(*graph_, &merged);
      for (const NodeDef& n : addition.node()) *merged.add_node() = n;
      RILL_ASSIGN_OR_RETURN(graph, ImportGraphDef(std::move(merged)));
    }
    RILL_RETURN_IF_ERROR(LowerFunctionalOps(graph.get()));
    // TensorFlow's master refuses a graph with an op it does not register when the session is
    // created or extended (NotFound), where Rill's local session only fails the runs that need
    // the node: a remote client learns of it at CreateSession, not at its first RunStep.
    for (const Node* n : graph->op_nodes()) {
      if (n->is_unknown_op()) return UnregisteredOpError(*graph, n->op());
    }
    // Requests without a job go to the target task, as for a TensorFlow client whose target is
    // that task's server.
    absl::StatusOr<DeviceName> target = ParseDeviceName(target_task_);
    for (Node* n : graph->op_nodes()) {
      absl::StatusOr<DeviceName> want = ParseDeviceName(n->requested_device());
      if (!want.ok() || want->has_job) continue;  // a bad string is the placer's error
      want->has_job = true;
      want->job = target->job;
      want->has_replica = true;
      want->replica = 0;
      want->has_task = true;
      want->task = target->task;
      n->set_requested_device(DeviceNameToString(*want));
    }
    PlacerOptions placer_options;
    placer_options.allow_soft_placement = options_.config.allow_soft_placement();
    placer_options.log_device_placement = options_.config.log_device_placement();
    placer_options.cuda_enabled = false;
    RILL_ASSIGN_OR_RETURN(Placement placement, Place(*graph, DeviceNamesLocked(),
                                                     KernelRegistry::Global()->WithoutCudaKernels(),
                                                     placer_options, graph_.get()));
    for (const std::string& note : placement.notes) std::fprintf(stderr, "%s\n", note.c_str());
    if (options_.config.log_device_placement()) {
      std::fputs(PlacementLogLines(*graph, placement).c_str(), stdout);
      std::fflush(stdout);
    }
    ApplyPlacement(placement, graph.get());
    graph_ = std::shared_ptr<const Graph>(std::move(graph));
    placement_ = std::move(placement);
    for (auto& [key, st] : run_states_) DeregisterAll(*st);
    run_states_.clear();
    return absl::OkStatus();
  }

  void DeregisterAll(const RunState& st) {
    for (const RemotePartition& p : st.partitions) {
      if (p.handle.empty()) continue;
      tensorflow::DeregisterGraphRequest req;
      req.set_session_handle(session_handle_);
      req.set_create_worker_session_called(true);
      req.set_graph_handle(p.handle);
      tensorflow::DeregisterGraphResponse resp;
      p.task->client->DeregisterGraph(req, &resp, absl::Seconds(2)).IgnoreError();
    }
  }

  absl::StatusOr<std::shared_ptr<RunState>> GetOrCreateRunState(
      const std::vector<std::string>& feeds, const std::vector<std::string>& fetches,
      const std::vector<std::string>& targets) {
    const std::string key =
        absl::StrCat(absl::StrJoin(feeds, ","), "->", absl::StrJoin(fetches, ","), "/",
                     absl::StrJoin(targets, ","));
    // Built under the lock: registration talks to the workers, and a signature is built once.
    rill::MutexLock lock(&mu_);
    if (needs_reconnect_) RILL_RETURN_IF_ERROR(ConnectLocked());
    auto it = run_states_.find(key);
    if (it != run_states_.end()) return it->second;
    auto state = std::make_shared<RunState>();
    const std::string client = ClientDeviceLocked();
    RILL_ASSIGN_OR_RETURN(state->run, BuildRunGraph(*graph_, feeds, fetches, targets, client));
    state->feed_shapes = DeclaredFeedShapes(*graph_, state->run);
    // Every node the run needs must have been placed; unknown ops fail only here.
    RILL_RETURN_IF_ERROR(CheckEveryNodePlaced(state->run));
    PartitionOptions popts;
    popts.name_counter = &name_counter_;
    std::map<std::string, uint64_t> incarnations = incarnations_;
    popts.incarnation_of = [incarnations](const std::string& device) {
      auto i = incarnations.find(device);
      return static_cast<int64_t>(i == incarnations.end() ? 1 : i->second);
    };
    RILL_ASSIGN_OR_RETURN(auto parts, Partition(state->run.graph, popts));
    const uint64_t client_incarnation = incarnations_[client];
    for (size_t i = 0; i < state->run.fetches.size(); ++i) {
      state->fetch_index_of_key[CreateRendezvousKey(client, client_incarnation, client,
                                                    state->run.fetches[i])] = static_cast<int>(i);
    }
    for (auto& [device, part] : parts) {
      RemotePartition rp;
      rp.device = device;
      auto t = tasks_.find(TaskOfDevice(device));
      if (t == tasks_.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Creating a partition for ", device,
                         " which doesn't exist in the list of available devices. Available "
                         "devices: ",
                         absl::StrJoin(DeviceNamesLocked(), ",")));
      }
      rp.task = t->second.get();
      ExportGraphDef(part, ExportOptions{/*assigned_devices=*/true}, &rp.graph);
      *rp.graph.mutable_versions() = graph_->versions();
      // _Arg/_Retval become TensorFlow's client-terminated _Recv/_Send on the client device,
      // fed and fetched through RunGraph's send and recv_key.
      for (NodeDef& n : *rp.graph.mutable_node()) {
        const bool arg = n.op() == "_Arg", ret = n.op() == "_Retval";
        if (!arg && !ret) continue;
        int64_t index = n.attr().at("index").i();
        DataType type = n.attr().at("T").type();
        const std::string& tensor = arg ? state->run.feeds[index] : state->run.fetches[index];
        n.set_op(arg ? "_Recv" : "_Send");
        n.mutable_attr()->erase("index");
        if (arg) {
          n.mutable_attr()->erase("T");
          SetAttr(&n, "tensor_type", type);
        }
        SetAttr(&n, "tensor_name", tensor);
        SetAttr(&n, "send_device", client);
        SetAttr(&n, "send_device_incarnation", static_cast<int64_t>(client_incarnation));
        SetAttr(&n, "recv_device", client);
        SetAttr(&n, "client_terminated", true);
        const std::string key = CreateRendezvousKey(client, client_incarnation, client, tensor);
        if (arg) {
          rp.feed_keys.push_back({key, static_cast<int>(index)});
        } else {
          rp.fetch_keys.push_back(key);
        }
      }
      tensorflow::RegisterGraphRequest req;
      req.set_session_handle(session_handle_);
      req.set_create_worker_session_called(true);
      *req.mutable_graph_def() = rp.graph;
      *req.mutable_graph_options() = options_.config.graph_options();
      tensorflow::RegisterGraphResponse resp;
      absl::Status registered = rp.task->client->RegisterGraph(req, &resp, kControlTimeout);
      if (!registered.ok()) {
        DeregisterAll(*state);
        return registered;
      }
      rp.handle = resp.graph_handle();
      state->partitions.push_back(std::move(rp));
    }
    run_states_[key] = state;
    return state;
  }

  absl::Status RunStep(const RunOptions& run_options, const RunState& state,
                       const std::vector<std::pair<std::string, Tensor>>& feeds,
                       const std::vector<std::string>& fetches, std::vector<Tensor>* outputs,
                       RunMetadata* run_metadata, CancellationManager* cancel) {
    std::vector<const Tensor*> args(state.run.feeds.size(), nullptr);
    for (const auto& [name, value] : feeds) {
      const std::string c = CanonicalTensorName(name);
      const size_t k = std::lower_bound(state.run.feeds.begin(), state.run.feeds.end(), c) -
                       state.run.feeds.begin();
      if (value.dtype() != state.run.feed_types[k]) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expects arg[", k, "] to be ", DataTypeString(state.run.feed_types[k]),
                         " but ", DataTypeString(value.dtype()), " is provided"));
      }
      if (options_.check_feed_shapes && !state.feed_shapes[k].IsCompatibleWith(value.shape())) {
        return absl::InvalidArgumentError(
            absl::StrCat("Cannot feed value of shape ", value.shape().DebugString(), " for Tensor ",
                         c, ", which has shape ", state.feed_shapes[k].DebugString(),
                         " (Rill checks feeds against the Placeholder's shape; turn this off with "
                         "SessionOptions.check_feed_shapes = false)"));
      }
      args[k] = &value;
    }
    int64_t timeout_ms = run_options.timeout_in_ms() > 0
                             ? run_options.timeout_in_ms()
                             : options_.config.operation_timeout_in_ms();
    const absl::Duration timeout =
        timeout_ms > 0 ? absl::Milliseconds(timeout_ms) : kDefaultRunTimeout;
    const int64_t step_id = NewStepId();
    const size_t n = state.partitions.size();
    std::vector<tensorflow::RunGraphResponse> responses(n);
    std::vector<absl::Status> statuses(n);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < n; ++i) {
      threads.emplace_back([&, i] {
        const RemotePartition& p = state.partitions[i];
        tensorflow::RunGraphRequest req;
        req.set_session_handle(session_handle_);
        req.set_create_worker_session_called(true);
        req.set_graph_handle(p.handle);
        req.set_step_id(step_id);
        for (const auto& [key, index] : p.feed_keys) {
          tensorflow::NamedTensorProto* send = req.add_send();
          send->set_name(key);
          TensorToProto(*args[index], send->mutable_tensor());
        }
        for (const std::string& key : p.fetch_keys) req.add_recv_key(key);
        statuses[i] = p.task->client->RunGraph(req, &responses[i], timeout, cancel);
        if (statuses[i].ok() && responses[i].status_code() != 0) {
          statuses[i] = absl::Status(static_cast<absl::StatusCode>(responses[i].status_code()),
                                     responses[i].status_error_message());
        }
        if (!statuses[i].ok()) cancel->StartCancel(statuses[i]);
      });
    }
    for (std::thread& t : threads) t.join();
    // Every task forgets the step (its rendezvous, waiting RecvTensors) whatever happened.
    std::vector<std::thread> cleanups;
    for (size_t i = 0; i < n; ++i) {
      cleanups.emplace_back([&, i] {
        tensorflow::CleanupGraphRequest req;
        req.set_step_id(step_id);
        tensorflow::CleanupGraphResponse resp;
        state.partitions[i].task->client->CleanupGraph(req, &resp, absl::Seconds(2)).IgnoreError();
      });
    }
    for (std::thread& t : cleanups) t.join();
    // The first error that is not a consequence of cancelling the others.
    absl::Status first;
    for (const absl::Status& s : statuses) {
      if (s.ok()) continue;
      if (first.ok() || (first.code() == absl::StatusCode::kCancelled &&
                         s.code() != absl::StatusCode::kCancelled)) {
        first = s;
      }
    }
    if (!first.ok()) {
      if (cancel->IsCancelled() && cancel->status().code() == absl::StatusCode::kCancelled) {
        return absl::CancelledError("Run call was cancelled");  // Close(), as the local session
      }
      if (first.code() == absl::StatusCode::kAborted) {
        return absl::AbortedError(absl::StrCat(
            first.message(), "; the session registers its graphs again on the next run"));
      }
      return first;
    }
    std::vector<Tensor> retvals(state.run.fetches.size());
    for (const tensorflow::RunGraphResponse& r : responses) {
      for (const tensorflow::NamedTensorProto& t : r.recv()) {
        auto k = state.fetch_index_of_key.find(t.name());
        if (k == state.fetch_index_of_key.end() || !t.has_tensor()) continue;
        RILL_ASSIGN_OR_RETURN(retvals[k->second], TensorFromProto(t.tensor()));
      }
    }
    outputs->clear();
    for (const std::string& f : fetches) {
      const std::string c = CanonicalTensorName(f);
      const size_t k = std::find(state.run.fetches.begin(), state.run.fetches.end(), c) -
                       state.run.fetches.begin();
      if (!retvals[k].IsInitialized()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Retval[", k, "] does not have value (fetch '", c, "')"));
      }
      outputs->push_back(retvals[k]);
    }
    if (run_metadata != nullptr && run_options.output_partition_graphs()) {
      for (const RemotePartition& p : state.partitions) {
        *run_metadata->add_partition_graphs() = p.graph;
      }
    }
    return absl::OkStatus();
  }

  const SessionOptions options_;
  ClusterDef cluster_;
  std::string target_task_;
  bool lone_server_ = false;  // a grpc:// target without a cluster_def (set in Init)
  std::string session_handle_;
  std::map<std::string, std::unique_ptr<Task>> tasks_;  // by task name; fixed after Init

  mutable rill::Mutex mu_;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool needs_reconnect_ ABSL_GUARDED_BY(mu_) = false;
  std::map<std::string, uint64_t> incarnations_ ABSL_GUARDED_BY(mu_);
  std::shared_ptr<const Graph> graph_ ABSL_GUARDED_BY(mu_);
  Placement placement_ ABSL_GUARDED_BY(mu_);
  int64_t name_counter_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, std::shared_ptr<RunState>> run_states_ ABSL_GUARDED_BY(mu_);
  int64_t next_token_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<int64_t, std::shared_ptr<CancellationManager>> active_steps_ ABSL_GUARDED_BY(mu_);
};

absl::StatusOr<std::unique_ptr<SessionBackend>> NewGrpcSession(const SessionOptions& options) {
  auto session = std::make_unique<GrpcSession>(options);
  RILL_RETURN_IF_ERROR(session->Init());
  return std::unique_ptr<SessionBackend>(std::move(session));
}

namespace {
// Session::New hands cluster configs here whenever this library is linked.
const bool registered = [] {
  RegisterRemoteSessionFactory(&NewGrpcSession);
  return true;
}();
}  // namespace

}  // namespace distributed
}  // namespace rill
