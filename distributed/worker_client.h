// WorkerClient: calls one task's WorkerService (TensorFlow's method paths) over one gRPC channel,
// every call with a deadline, so no call waits for ever on a dead or stuck worker. Errors name the
// task and its address; a task that cannot be reached is Unavailable with what to do:
//   "Task /job:worker/replica:0/task:1 (127.0.0.1:2223) is unavailable: <gRPC's reason>. Start
//    its server (rill_server --job_name=worker --task_id=1 ...) or fix its address in the
//    cluster spec, then run again."
// Thread-safe: calls may run concurrently.
#ifndef RILL_DISTRIBUTED_WORKER_CLIENT_H_
#define RILL_DISTRIBUTED_WORKER_CLIENT_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "core/cancellation.h"
#include "core/tensor.h"
#include "distributed/protos/worker_service.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"

namespace rill {
namespace distributed {

class WorkerClient {
 public:
  // `task` is "/job:worker/replica:0/task:1", `address` "host:port". The channel connects lazily.
  WorkerClient(std::string job, int task_index, std::string address);

  const std::string& task() const { return task_; }
  const std::string& address() const { return address_; }

  absl::Status GetStatus(const tensorflow::GetStatusRequest& req,
                         tensorflow::GetStatusResponse* resp, absl::Duration timeout);
  absl::Status CreateWorkerSession(const tensorflow::CreateWorkerSessionRequest& req,
                                   tensorflow::CreateWorkerSessionResponse* resp,
                                   absl::Duration timeout);
  absl::Status DeleteWorkerSession(const tensorflow::DeleteWorkerSessionRequest& req,
                                   tensorflow::DeleteWorkerSessionResponse* resp,
                                   absl::Duration timeout);
  absl::Status RegisterGraph(const tensorflow::RegisterGraphRequest& req,
                             tensorflow::RegisterGraphResponse* resp, absl::Duration timeout);
  absl::Status DeregisterGraph(const tensorflow::DeregisterGraphRequest& req,
                               tensorflow::DeregisterGraphResponse* resp, absl::Duration timeout);
  // `cancel` (may be null): StartCancel cancels the call.
  absl::Status RunGraph(const tensorflow::RunGraphRequest& req, tensorflow::RunGraphResponse* resp,
                        absl::Duration timeout, CancellationManager* cancel);
  absl::Status CleanupGraph(const tensorflow::CleanupGraphRequest& req,
                            tensorflow::CleanupGraphResponse* resp, absl::Duration timeout);
  // The response is decoded from gRPC's bytes straight into `value` (tensor_coding.h).
  absl::Status RecvTensor(const tensorflow::RecvTensorRequest& req, Tensor* value, bool* is_dead,
                          absl::Duration timeout, CancellationManager* cancel);
  // RecvTensor without a waiting thread: `done` runs once on one of gRPC's threads, with the
  // status, the tensor and its deadness. `cancel` (may be null) must outlive the call.
  using RecvDone = std::function<void(const absl::Status&, const Tensor&, bool)>;
  void RecvTensorAsync(const tensorflow::RecvTensorRequest& req, absl::Duration timeout,
                       CancellationManager* cancel, RecvDone done);

 private:
  // Adds the task to a failed call's status (Unavailable gets what to do).
  absl::Status Annotate(const char* method, const grpc::Status& s) const;

  const std::string job_;
  const int task_index_;
  const std::string task_;
  const std::string address_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<tensorflow::WorkerService::Stub> stub_;
  std::unique_ptr<grpc::GenericStub> generic_stub_;  // RecvTensorAsync's raw call
  grpc::internal::RpcMethod recv_tensor_method_;     // RecvTensor with a raw response
};

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_WORKER_CLIENT_H_
