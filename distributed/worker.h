// Worker: the state and logic of one task of a cluster serving TensorFlow's WorkerService
// (transport-free; grpc_worker_service.h puts it on gRPC). The task has one CPU device,
// /job:<job>/replica:0/task:<task>/device:CPU:0, with a fresh incarnation per process, so a
// master can tell a restarted worker from the one it registered graphs with.
//
//  - Sessions: CreateWorkerSession/DeleteWorkerSession by handle; the handle "" (a master that did
//    not call CreateWorkerSession) is always there. Graphs registered in a session go with it.
//  - RegisterGraph: the master's partition for this task (nodes placed on this task's device),
//    imported, validated and turned into an executor; its handle is returned.
//  - RunGraph: one step of a registered graph: the request's `send` tensors enter the step's
//    rendezvous, the executor runs (cancelled when the call is cancelled or its deadline passes),
//    then the `recv_key` tensors are returned. Steps are keyed by step_id and live until
//    CleanupGraph(step_id).
//  - RecvTensor: serves a tensor of a step's rendezvous to another task, waiting for it up to the
//    call's deadline. A key naming an older incarnation of this device is TensorFlow's Aborted
//    "RecvTensor expects a different device incarnation ...".
// Errors are TensorFlow's texts where it has one ("Graph handle is not found: h. Possibly, this
// worker just restarted." is Aborted). Thread-safe; calls may run concurrently.
#ifndef RILL_DISTRIBUTED_WORKER_H_
#define RILL_DISTRIBUTED_WORKER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/device.h"
#include "core/mutex.h"
#include "core/thread_pool.h"
#include "distributed/protos/worker.pb.h"
#include "distributed/worker_client.h"
#include "distributed/worker_rendezvous.h"
#include "proto/cluster.pb.h"

namespace rill {
namespace distributed {

struct WorkerOptions {
  std::string job = "worker";
  int task = 0;
  ClusterDef cluster;        // where the other tasks are (RecvTensor from them)
  int inter_op_threads = 0;  // 0: one per core
  int intra_op_threads = 0;  // 0: one per core
};

class Worker {
 public:
  // InvalidArgument when the cluster has no such task.
  static absl::StatusOr<std::unique_ptr<Worker>> Create(const WorkerOptions& options);
  ~Worker();

  const std::string& device_name() const { return device_->name(); }
  uint64_t incarnation() const { return device_->attributes().incarnation(); }

  absl::Status GetStatus(const tensorflow::GetStatusRequest& req,
                         tensorflow::GetStatusResponse* resp);
  absl::Status CreateWorkerSession(const tensorflow::CreateWorkerSessionRequest& req,
                                   tensorflow::CreateWorkerSessionResponse* resp);
  absl::Status DeleteWorkerSession(const tensorflow::DeleteWorkerSessionRequest& req,
                                   tensorflow::DeleteWorkerSessionResponse* resp);
  absl::Status RegisterGraph(const tensorflow::RegisterGraphRequest& req,
                             tensorflow::RegisterGraphResponse* resp);
  absl::Status DeregisterGraph(const tensorflow::DeregisterGraphRequest& req,
                               tensorflow::DeregisterGraphResponse* resp);
  // `is_cancelled` (may be null) is polled while the step runs; `deadline` ends it with
  // DeadlineExceeded.
  absl::Status RunGraph(const tensorflow::RunGraphRequest& req, tensorflow::RunGraphResponse* resp,
                        absl::Time deadline, const std::function<bool()>& is_cancelled);
  absl::Status CleanupGraph(const tensorflow::CleanupGraphRequest& req,
                            tensorflow::CleanupGraphResponse* resp);
  absl::Status RecvTensor(const tensorflow::RecvTensorRequest& req,
                          tensorflow::RecvTensorResponse* resp, absl::Time deadline,
                          const std::function<bool()>& is_cancelled);
  // RecvTensor without a waiting thread: `done` runs once, when the tensor is there, the step
  // is aborted or cleaned up, or at once for a bad key or another incarnation.
  void RecvTensorAsync(const tensorflow::RecvTensorRequest& req, Rendezvous::DoneCallback done);

  // Aborts every step (Unavailable "... is shutting down"); later calls still answer.
  void AbortAllSteps();

 private:
  struct RegisteredGraph;
  struct WorkerSession;
  struct Step;

  Worker(WorkerOptions options, std::unique_ptr<Device> device, std::unique_ptr<ThreadPool> pool);
  std::shared_ptr<Step> GetOrCreateStep(int64_t step_id);
  absl::StatusOr<std::shared_ptr<WorkerSession>> FindSession(const std::string& handle,
                                                             bool create_called);
  WorkerClient* ClientFor(const std::string& job, int task, absl::Status* status);
  void FetchRemote(const std::string& job, int task, int64_t step_id, const std::string& key,
                   CancellationManager* cancel, Rendezvous::DoneCallback done);

  const WorkerOptions options_;
  const std::unique_ptr<Device> device_;
  const std::unique_ptr<ThreadPool> pool_;  // inter-op: expensive kernels, steps after a RecvTensor

  rill::Mutex mu_;
  int64_t next_handle_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, std::shared_ptr<WorkerSession>> sessions_ ABSL_GUARDED_BY(mu_);
  std::map<int64_t, std::shared_ptr<Step>> steps_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::unique_ptr<WorkerClient>> clients_ ABSL_GUARDED_BY(mu_);
};

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_WORKER_H_
