#include "distributed/worker.h"

#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "core/device_name.h"
#include "core/resource_mgr.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "distributed/cluster_spec.h"
#include "distributed/session_resources.h"
#include "distributed/shm_writer.h"
#include "graph/graph_def_import.h"
#include "kernels/framework/kernel_registry.h"
#include "session/executor.h"

namespace rill {
namespace distributed {
namespace {

// How often a waiting call looks at its gRPC cancellation.
constexpr absl::Duration kPollInterval = absl::Milliseconds(20);

// Waits for `done` until `deadline` or `is_cancelled()`; DeadlineExceeded / Cancelled then.
absl::Status WaitFor(absl::Notification& done, absl::Time deadline,
                     const std::function<bool()>& is_cancelled, const std::string& what) {
  while (!done.WaitForNotificationWithTimeout(kPollInterval)) {
    if (is_cancelled && is_cancelled()) {
      return absl::CancelledError(absl::StrCat(what, " was cancelled by its caller"));
    }
    if (absl::Now() >= deadline) {
      return absl::DeadlineExceededError(absl::StrCat(what, " passed its deadline"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

struct Worker::RegisteredGraph {
  std::unique_ptr<Executor> executor;
};

struct Worker::WorkerSession {
  rill::Mutex mu;
  std::map<std::string, std::shared_ptr<RegisteredGraph>> graphs ABSL_GUARDED_BY(mu);
  // The session's private resources in the device's ResourceMgr (session_resources.h), deleted
  // with the session.
  std::set<std::pair<std::string, std::string>> private_resources ABSL_GUARDED_BY(mu);
};

struct Worker::Step {
  explicit Step(int64_t id, const std::string& job, int task, WorkerRendezvous::RemoteRecv remote)
      : rendezvous(id, job, task, std::move(remote)) {}
  WorkerRendezvous rendezvous;
  CancellationManager cancel;
  ResourceMgr resources;
};

absl::StatusOr<std::unique_ptr<Worker>> Worker::Create(const WorkerOptions& options) {
  RILL_RETURN_IF_ERROR(TaskAddress(options.cluster, options.job, options.task).status());
  std::unique_ptr<Device> device =
      NewCpuDevice(absl::StrCat(TaskName(options.job, options.task), "/device:CPU:0"));
  int threads = options.inter_op_threads > 0 ? options.inter_op_threads : DefaultNumThreads();
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<ThreadPool> pool,
                        ThreadPool::Create("rill_worker_inter_op", threads));
  return std::unique_ptr<Worker>(new Worker(options, std::move(device), std::move(pool)));
}

Worker::Worker(WorkerOptions options, std::unique_ptr<Device> device,
               std::unique_ptr<ThreadPool> pool)
    : options_(std::move(options)), device_(std::move(device)), pool_(std::move(pool)) {
  sessions_[""] = std::make_shared<WorkerSession>();
}

Worker::~Worker() { AbortAllSteps(); }

void Worker::AbortAllSteps() {
  std::map<int64_t, std::shared_ptr<Step>> steps;
  {
    rill::MutexLock lock(&mu_);
    steps = steps_;
  }
  absl::Status s = absl::UnavailableError(
      absl::StrCat("Task ", TaskName(options_.job, options_.task), " is shutting down"));
  for (auto& [id, step] : steps) {
    step->cancel.StartCancel(s);
    step->rendezvous.Abort(s);
  }
}

absl::Status Worker::GetStatus(const tensorflow::GetStatusRequest&,
                               tensorflow::GetStatusResponse* resp) {
  *resp->add_device_attributes() = device_->attributes();
  return absl::OkStatus();
}

absl::Status Worker::CreateWorkerSession(const tensorflow::CreateWorkerSessionRequest& req,
                                         tensorflow::CreateWorkerSessionResponse*) {
  if (req.session_handle().empty()) {
    return absl::InvalidArgumentError(
        "CreateWorkerSession needs a session_handle; give the session a unique name");
  }
  // A master that names another task dialed the wrong address for it (its cluster gives this
  // server's address to that task): its partitions would name devices this server does not have.
  // An empty job name (no ServerDef) names no task.
  const tensorflow::ServerDef& def = req.server_def();
  if (!def.job_name().empty() &&
      (def.job_name() != options_.job || def.task_index() != options_.task)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "CreateWorkerSession for task ", TaskName(def.job_name(), def.task_index()),
        " reached the server of task ", TaskName(options_.job, options_.task),
        ". Give that task the address of the server started with its job and task index "
        "(rill_server --job_name=",
        def.job_name(), " --task_id=", def.task_index(), ") in the master's cluster"));
  }
  rill::MutexLock lock(&mu_);
  if (!sessions_.count(req.session_handle())) {
    sessions_[req.session_handle()] = std::make_shared<WorkerSession>();
  }
  return absl::OkStatus();
}

absl::Status Worker::DeleteWorkerSession(const tensorflow::DeleteWorkerSessionRequest& req,
                                         tensorflow::DeleteWorkerSessionResponse*) {
  ShmWriter::Default()->Sweep();
  std::shared_ptr<WorkerSession> session;
  {
    rill::MutexLock lock(&mu_);
    if (req.session_handle().empty()) return absl::OkStatus();
    auto it = sessions_.find(req.session_handle());
    if (it == sessions_.end()) return absl::OkStatus();
    session = it->second;
    sessions_.erase(it);
  }
  rill::MutexLock lock(&session->mu);
  for (const auto& [container, name] : session->private_resources) {
    // NotFound: the session registered the node but never ran it.
    device_->resource_manager()->Delete(container, name).IgnoreError();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<Worker::WorkerSession>> Worker::FindSession(
    const std::string& handle, bool create_called) {
  rill::MutexLock lock(&mu_);
  auto it = sessions_.find(create_called ? handle : "");
  if (it == sessions_.end()) {
    // TensorFlow's text for a session this worker does not know (it restarted, or the master
    // deleted the session).
    return absl::AbortedError(
        absl::StrCat("Session ", handle, " is not found. Possibly, this worker (\"",
                     TaskName(options_.job, options_.task), "\") just restarted."));
  }
  return it->second;
}

absl::Status Worker::RegisterGraph(const tensorflow::RegisterGraphRequest& req,
                                   tensorflow::RegisterGraphResponse* resp) {
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<WorkerSession> session,
                        FindSession(req.session_handle(), req.create_worker_session_called()));
  GraphDef privatized;
  const std::vector<std::pair<std::string, std::string>> private_resources = PrivatizeResourceNames(
      req.create_worker_session_called() ? req.session_handle() : "", req.graph_def(), &privatized);
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Graph> graph,
                        ImportGraphDef(private_resources.empty() ? req.graph_def() : privatized));
  for (Node* n : graph->op_nodes()) {
    absl::StatusOr<DeviceName> want = rill::ParseDeviceName(n->requested_device());
    absl::StatusOr<DeviceName> mine = rill::ParseDeviceName(device_->name());
    if (!want.ok() || !mine.ok() ||
        (!n->requested_device().empty() &&
         !(want->job == mine->job && want->task == mine->task &&
           (!want->has_type || want->type == "CPU") && (!want->has_id || want->id == 0)))) {
      return absl::InvalidArgumentError(
          absl::StrCat("Node ", n->name(), " is placed on '", n->requested_device(),
                       "', which is not a device of this worker (", device_->name(),
                       "); register only the partition placed on this task"));
    }
    n->set_assigned_device_name(device_->name());
  }
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor,
                        Executor::Create(*graph, device_.get(), *KernelRegistry::Global()));
  auto registered = std::make_shared<RegisteredGraph>();
  registered->executor = std::move(executor);
  std::string handle;
  {
    rill::MutexLock lock(&mu_);
    handle = absl::StrCat("graph_", next_handle_++);
  }
  rill::MutexLock lock(&session->mu);
  session->graphs[handle] = std::move(registered);
  session->private_resources.insert(private_resources.begin(), private_resources.end());
  resp->set_graph_handle(handle);
  return absl::OkStatus();
}

absl::Status Worker::DeregisterGraph(const tensorflow::DeregisterGraphRequest& req,
                                     tensorflow::DeregisterGraphResponse*) {
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<WorkerSession> session,
                        FindSession(req.session_handle(), req.create_worker_session_called()));
  rill::MutexLock lock(&session->mu);
  session->graphs.erase(req.graph_handle());
  return absl::OkStatus();
}

std::shared_ptr<Worker::Step> Worker::GetOrCreateStep(int64_t step_id) {
  rill::MutexLock lock(&mu_);
  std::shared_ptr<Step>& step = steps_[step_id];
  if (step == nullptr) {
    step = std::make_shared<Step>(
        step_id, options_.job, options_.task,
        [this](const std::string& job, int task, int64_t id, const std::string& key,
               CancellationManager* cancel, Rendezvous::DoneCallback done) {
          FetchRemote(job, task, id, key, cancel, std::move(done));
        });
  }
  return step;
}

WorkerClient* Worker::ClientFor(const std::string& job, int task, absl::Status* status) {
  const std::string name = TaskName(job, task);
  rill::MutexLock lock(&mu_);
  auto it = clients_.find(name);
  if (it != clients_.end()) return it->second.get();
  absl::StatusOr<std::string> address = TaskAddress(options_.cluster, job, task);
  if (!address.ok()) {
    *status = address.status();
    return nullptr;
  }
  auto client = std::make_unique<WorkerClient>(job, task, *address);
  WorkerClient* out = client.get();
  clients_[name] = std::move(client);
  return out;
}

void Worker::FetchRemote(const std::string& job, int task, int64_t step_id, const std::string& key,
                         CancellationManager* cancel, Rendezvous::DoneCallback done) {
  absl::Status status;
  WorkerClient* client = ClientFor(job, task, &status);
  if (client == nullptr) {
    done(status, Tensor(), false);
    return;
  }
  tensorflow::RecvTensorRequest req;
  req.set_step_id(step_id);
  req.set_rendezvous_key(key);
  // No thread waits: gRPC calls back when the tensor is here. The step's own deadline and
  // cancellation end a wait on a stuck peer; this bound is a backstop for a step without either.
  // The step goes on on the inter-op pool, not on gRPC's thread.
  ThreadPool* pool = pool_.get();
  client->RecvTensorAsync(
      req, absl::Hours(1), cancel,
      [pool, done = std::move(done)](const absl::Status& s, const Tensor& value, bool is_dead) {
        pool->Schedule([done, s, value, is_dead] { done(s, value, is_dead); });
      });
}

absl::Status Worker::RunGraph(const tensorflow::RunGraphRequest& req,
                              tensorflow::RunGraphResponse* resp, absl::Time deadline,
                              const std::function<bool()>& is_cancelled) {
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<WorkerSession> session,
                        FindSession(req.session_handle(), req.create_worker_session_called()));
  std::shared_ptr<RegisteredGraph> graph;
  {
    rill::MutexLock lock(&session->mu);
    auto it = session->graphs.find(req.graph_handle());
    if (it != session->graphs.end()) graph = it->second;
  }
  if (graph == nullptr) {
    return absl::AbortedError(absl::StrCat("Graph handle is not found: ", req.graph_handle(),
                                           ". Possibly, this worker just restarted."));
  }
  std::shared_ptr<Step> step = GetOrCreateStep(req.step_id());
  for (const tensorflow::NamedTensorProto& send : req.send()) {
    RILL_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(send.tensor()));
    RILL_RETURN_IF_ERROR(step->rendezvous.Send(send.name(), t, false));
  }
  Executor::Args args;
  args.step_id = req.step_id();
  args.rendezvous = &step->rendezvous;
  args.cancellation = &step->cancel;
  args.step_resources = &step->resources;
  ThreadPool* pool = pool_.get();
  args.runner = [pool](std::function<void()> fn) { pool->Schedule(std::move(fn)); };
  args.runner_threads = pool->NumThreads();
  args.intra_op_threads =
      options_.intra_op_threads > 0 ? options_.intra_op_threads : DefaultNumThreads();
  absl::Notification done;
  absl::Status run_status;
  graph->executor->RunAsync(args, [&](absl::Status s) {
    run_status = s;
    if (!s.ok()) step->rendezvous.Abort(s);
    done.Notify();
  });
  absl::Status waited = WaitFor(done, deadline, is_cancelled,
                                absl::StrCat("Step ", req.step_id(), " on ", device_->name()));
  if (!waited.ok()) {
    step->cancel.StartCancel(waited);
    step->rendezvous.Abort(waited);
    done.WaitForNotification();  // the executor drains: cancelled kernels and aborted Recvs end
    return waited;
  }
  RILL_RETURN_IF_ERROR(run_status);
  for (const std::string& key : req.recv_key()) {
    absl::Notification got;
    absl::Status s;
    Tensor value;
    step->rendezvous.RecvLocal(key, [&](const absl::Status& st, const Tensor& v, bool) {
      s = st;
      value = v;
      got.Notify();
    });
    // The executor has finished, so every key its client-terminated _Sends produce is there now.
    if (!got.HasBeenNotified()) {
      absl::Status missing = absl::InvalidArgumentError(absl::StrCat(
          "RunGraph: nothing was sent for recv_key ", key, " in step ", req.step_id(), ": graph ",
          req.graph_handle(),
          " has no client-terminated _Send with that key; ask only for the keys it sends"));
      step->rendezvous.Abort(missing);  // fails the waiter, which refers to this frame
      got.WaitForNotification();
      return missing;
    }
    RILL_RETURN_IF_ERROR(s);
    tensorflow::NamedTensorProto* out = resp->add_recv();
    out->set_name(key);
    if (value.IsInitialized()) TensorToProto(value, out->mutable_tensor());
  }
  return absl::OkStatus();
}

absl::Status Worker::CleanupGraph(const tensorflow::CleanupGraphRequest& req,
                                  tensorflow::CleanupGraphResponse*) {
  ShmWriter::Default()->Sweep();  // mappings of receivers that are gone
  std::shared_ptr<Step> step;
  {
    rill::MutexLock lock(&mu_);
    auto it = steps_.find(req.step_id());
    if (it == steps_.end()) return absl::OkStatus();
    step = it->second;
    steps_.erase(it);
  }
  // Anything still waiting in this step (a RecvTensor for a tensor that never came) ends now.
  step->rendezvous.Abort(
      absl::AbortedError(absl::StrCat("Step ", req.step_id(), " was cleaned up")));
  return absl::OkStatus();
}

void Worker::RecvTensorAsync(const tensorflow::RecvTensorRequest& req,
                             Rendezvous::DoneCallback done) {
  absl::StatusOr<ParsedKey> key = ParseRendezvousKey(req.rendezvous_key());
  if (!key.ok()) {
    done(key.status(), Tensor(), false);
    return;
  }
  if (key->send_device != device_->name()) {
    done(absl::InvalidArgumentError(absl::StrCat("RecvTensor for ", req.rendezvous_key(),
                                                 " reached ", device_->name(),
                                                 ", which did not send it")),
         Tensor(), false);
    return;
  }
  if (key->send_incarnation != incarnation()) {
    done(absl::AbortedError(absl::StrCat(
             "RecvTensor expects a different device incarnation: ", key->send_incarnation, " vs. ",
             incarnation(), ". Your worker job (\"", TaskName(options_.job, options_.task),
             "\") was probably restarted. Check your worker job for the reason why it was "
             "restarted.")),
         Tensor(), false);
    return;
  }
  GetOrCreateStep(req.step_id())->rendezvous.RecvLocal(req.rendezvous_key(), std::move(done));
}

absl::Status Worker::RecvTensor(const tensorflow::RecvTensorRequest& req,
                                tensorflow::RecvTensorResponse* resp, absl::Time deadline,
                                const std::function<bool()>& is_cancelled) {
  auto state = std::make_shared<std::tuple<absl::Notification, absl::Status, Tensor, bool>>();
  RecvTensorAsync(req, [state](const absl::Status& s, const Tensor& v, bool dead) {
    std::get<1>(*state) = s;
    std::get<2>(*state) = v;
    std::get<3>(*state) = dead;
    std::get<0>(*state).Notify();
  });
  // On a timeout the waiter stays in the step's table until the step is cleaned up; `state`
  // outlives it.
  RILL_RETURN_IF_ERROR(WaitFor(std::get<0>(*state), deadline, is_cancelled,
                               absl::StrCat("RecvTensor of ", req.rendezvous_key())));
  RILL_RETURN_IF_ERROR(std::get<1>(*state));
  const Tensor& value = std::get<2>(*state);
  if (value.IsInitialized()) TensorToProto(value, resp->mutable_tensor());
  resp->set_is_dead(std::get<3>(*state));
  resp->set_send_start_micros(absl::ToUnixMicros(absl::Now()));
  return absl::OkStatus();
}

}  // namespace distributed
}  // namespace rill
