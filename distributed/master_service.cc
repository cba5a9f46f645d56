#include "distributed/master_service.h"

#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "distributed/grpc_status.h"
#include "distributed/partial_run.h"
#include "distributed/protos/master_service.grpc.pb.h"
#include "session/session.h"

namespace rill {
namespace distributed {
namespace {

struct ClientSession {
  std::unique_ptr<Session> session;
  rill::Mutex mu;  // orders Create/Extend and the version
  bool has_graph ABSL_GUARDED_BY(mu) = false;
  int64_t version ABSL_GUARDED_BY(mu) = 0;
  GraphDef graph ABSL_GUARDED_BY(mu);  // everything Created and Extended (partial runs read it)
  rill::Mutex partial_mu;              // one partial step at a time
  int64_t next_partial ABSL_GUARDED_BY(partial_mu) = 0;
  std::map<std::string, std::unique_ptr<PartialRun>> partial_runs ABSL_GUARDED_BY(partial_mu);
};

class MasterServiceImpl final : public tensorflow::MasterService::Service {
 public:
  MasterServiceImpl(ClusterDef cluster, std::string own_address)
      : cluster_(std::move(cluster)), own_address_(std::move(own_address)) {}

  grpc::Status CreateSession(grpc::ServerContext*, const tensorflow::CreateSessionRequest* req,
                             tensorflow::CreateSessionResponse* resp) override {
    SessionOptions options;
    options.config = req->config();
    if (options.config.cluster_def().job_size() == 0) {
      *options.config.mutable_cluster_def() = cluster_;
    }
    options.target = absl::StrCat("grpc://", own_address_);
    absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
    if (!session.ok()) return ToGrpcStatus(session.status());
    auto entry = std::make_shared<ClientSession>();
    entry->session = std::move(*session);
    if (req->graph_def().node_size() > 0) {
      absl::Status s = entry->session->Create(req->graph_def());
      if (!s.ok()) return ToGrpcStatus(s);
      rill::MutexLock lock(&entry->mu);
      entry->has_graph = true;
      entry->graph = req->graph_def();
    }
    std::string handle;
    {
      rill::MutexLock lock(&mu_);
      handle = absl::StrCat("rill_master_session_", next_++);
      sessions_[handle] = entry;
    }
    resp->set_session_handle(handle);
    resp->set_graph_version(0);
    return grpc::Status::OK;
  }

  grpc::Status ExtendSession(grpc::ServerContext*, const tensorflow::ExtendSessionRequest* req,
                             tensorflow::ExtendSessionResponse* resp) override {
    absl::StatusOr<std::shared_ptr<ClientSession>> entry = Find(req->session_handle());
    if (!entry.ok()) return ToGrpcStatus(entry.status());
    ClientSession& s = **entry;
    rill::MutexLock lock(&s.mu);
    if (req->current_graph_version() != s.version) {
      return ToGrpcStatus(absl::FailedPreconditionError(
          absl::StrCat("Current version is ", s.version, " but caller expected ",
                       req->current_graph_version(), ".")));
    }
    absl::Status st =
        s.has_graph ? s.session->Extend(req->graph_def()) : s.session->Create(req->graph_def());
    if (!st.ok()) return ToGrpcStatus(st);
    s.has_graph = true;
    s.graph.MergeFrom(req->graph_def());
    resp->set_new_graph_version(++s.version);
    return grpc::Status::OK;
  }

  grpc::Status PartialRunSetup(grpc::ServerContext*, const tensorflow::PartialRunSetupRequest* req,
                               tensorflow::PartialRunSetupResponse* resp) override {
    absl::StatusOr<std::shared_ptr<ClientSession>> entry = Find(req->session_handle());
    if (!entry.ok()) return ToGrpcStatus(entry.status());
    ClientSession& s = **entry;
    GraphDef graph;
    {
      rill::MutexLock lock(&s.mu);
      graph = s.graph;
    }
    auto run = std::make_unique<PartialRun>(
        std::move(graph), std::vector<std::string>(req->feed().begin(), req->feed().end()),
        std::vector<std::string>(req->fetch().begin(), req->fetch().end()),
        std::vector<std::string>(req->target().begin(), req->target().end()));
    rill::MutexLock lock(&s.partial_mu);
    const std::string handle = absl::StrCat("rill_partial_run_", s.next_partial++);
    s.partial_runs[handle] = std::move(run);
    resp->set_partial_run_handle(handle);
    return grpc::Status::OK;
  }

  grpc::Status RunStep(grpc::ServerContext*, const tensorflow::RunStepRequest* req,
                       tensorflow::RunStepResponse* resp) override {
    absl::Status s = RunStepImpl(*req, resp);
    if (!s.ok() && req->store_errors_in_response_body()) {
      resp->set_status_code(static_cast<int>(s.code()));
      resp->set_status_error_message(std::string(s.message()));
      return grpc::Status::OK;
    }
    return ToGrpcStatus(s);
  }

  grpc::Status CloseSession(grpc::ServerContext*, const tensorflow::CloseSessionRequest* req,
                            tensorflow::CloseSessionResponse*) override {
    std::shared_ptr<ClientSession> entry;
    {
      rill::MutexLock lock(&mu_);
      auto it = sessions_.find(req->session_handle());
      if (it == sessions_.end()) return ToGrpcStatus(NotFound(req->session_handle()));
      entry = it->second;
      sessions_.erase(it);
    }
    return ToGrpcStatus(entry->session->Close());
  }

  grpc::Status ListDevices(grpc::ServerContext*, const tensorflow::ListDevicesRequest* req,
                           tensorflow::ListDevicesResponse* resp) override {
    std::vector<DeviceAttributes> devices;
    if (!req->session_handle().empty()) {
      absl::StatusOr<std::shared_ptr<ClientSession>> entry = Find(req->session_handle());
      if (!entry.ok()) return ToGrpcStatus(entry.status());
      devices = (*entry)->session->ListDevices();
    } else {
      SessionOptions options;
      *options.config.mutable_cluster_def() = cluster_;
      options.target = absl::StrCat("grpc://", own_address_);
      absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
      if (!session.ok()) return ToGrpcStatus(session.status());
      devices = (*session)->ListDevices();
    }
    // This task's devices are "local", the other tasks' "remote".
    for (const DeviceAttributes& d : devices) {
      const bool local =
          own_task_prefix_.empty() ? false : d.name().rfind(own_task_prefix_, 0) == 0;
      *(local ? resp->add_local_device() : resp->add_remote_device()) = d;
    }
    return grpc::Status::OK;
  }

  grpc::Status Reset(grpc::ServerContext*, const tensorflow::ResetRequest*,
                     tensorflow::ResetResponse*) override {
    // TensorFlow's Reset closes every session of this master (and clears containers, which
    // Rill's workers keep per device).
    std::map<std::string, std::shared_ptr<ClientSession>> sessions;
    {
      rill::MutexLock lock(&mu_);
      sessions.swap(sessions_);
    }
    for (auto& [handle, entry] : sessions) entry->session->Close().IgnoreError();
    return grpc::Status::OK;
  }

  void set_own_task_prefix(std::string prefix) { own_task_prefix_ = std::move(prefix); }

 private:
  static absl::Status NotFound(const std::string& handle) {
    return absl::AbortedError(absl::StrCat("Session ", handle, " is not found."));
  }

  absl::StatusOr<std::shared_ptr<ClientSession>> Find(const std::string& handle) {
    rill::MutexLock lock(&mu_);
    auto it = sessions_.find(handle);
    if (it == sessions_.end()) return NotFound(handle);
    return it->second;
  }

  absl::Status RunStepImpl(const tensorflow::RunStepRequest& req,
                           tensorflow::RunStepResponse* resp) {
    absl::StatusOr<std::shared_ptr<ClientSession>> entry = Find(req.session_handle());
    if (!entry.ok()) return entry.status();
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const tensorflow::NamedTensorProto& f : req.feed()) {
      absl::StatusOr<Tensor> t = TensorFromProto(f.tensor());
      if (!t.ok()) return t.status();
      feeds.emplace_back(f.name(), *std::move(t));
    }
    std::vector<std::string> fetches(req.fetch().begin(), req.fetch().end());
    std::vector<std::string> targets(req.target().begin(), req.target().end());
    std::vector<Tensor> outputs;
    if (!req.partial_run_handle().empty()) {
      ClientSession& s = **entry;
      rill::MutexLock lock(&s.partial_mu);
      auto it = s.partial_runs.find(req.partial_run_handle());
      if (it == s.partial_runs.end()) {
        return absl::InvalidArgumentError("Must run 'setup' before performing partial runs!");
      }
      if (!targets.empty()) {
        return absl::InvalidArgumentError(
            "A partial_run call names no targets; give them to partial_run_setup");
      }
      RILL_ASSIGN_OR_RETURN(PartialRun::Step step, it->second->Plan(feeds, fetches));
      RILL_RETURN_IF_ERROR(s.session->Run(req.options(), step.feeds, step.fetches, step.targets,
                                          &outputs, resp->mutable_metadata()));
      it->second->Ran(step, outputs);
      if (it->second->complete()) s.partial_runs.erase(it);
    } else {
      RILL_RETURN_IF_ERROR((*entry)->session->Run(req.options(), feeds, fetches, targets, &outputs,
                                                  resp->mutable_metadata()));
    }
    for (size_t i = 0; i < fetches.size() && i < outputs.size(); ++i) {
      tensorflow::NamedTensorProto* t = resp->add_tensor();
      t->set_name(fetches[i]);
      TensorToProto(outputs[i], t->mutable_tensor());
    }
    return absl::OkStatus();
  }

  const ClusterDef cluster_;
  const std::string own_address_;
  std::string own_task_prefix_;
  rill::Mutex mu_;
  int64_t next_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, std::shared_ptr<ClientSession>> sessions_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

std::unique_ptr<grpc::Service> NewMasterService(const ClusterDef& cluster,
                                                const std::string& own_address) {
  auto service = std::make_unique<MasterServiceImpl>(cluster, own_address);
  for (const JobDef& job : cluster.job()) {
    for (const auto& [index, address] : job.tasks()) {
      if (address == own_address) {
        service->set_own_task_prefix(
            absl::StrCat("/job:", job.name(), "/replica:0/task:", index, "/"));
      }
    }
  }
  return service;
}

}  // namespace distributed
}  // namespace rill
