// WorkerServer: a Worker served over gRPC as TensorFlow's WorkerService
// (/tensorflow.WorkerService/<Method>), with unlimited message sizes. Each call runs on one of
// gRPC's threads; its deadline and cancellation reach the worker (RunGraph, RecvTensor).
// RunGraph honours store_errors_in_response_body (TensorFlow's masters set it): the error goes in
// status_code/status_error_message and the call itself succeeds.
//
//   RILL_ASSIGN_OR_RETURN(auto server, WorkerServer::Start(options, "0.0.0.0:2222"));
//   server->Shutdown();   // aborts steps in flight, then stops serving
#ifndef RILL_DISTRIBUTED_GRPC_WORKER_SERVICE_H_
#define RILL_DISTRIBUTED_GRPC_WORKER_SERVICE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "distributed/worker.h"
#include "grpcpp/grpcpp.h"

namespace rill {
namespace distributed {

class WorkerServer {
 public:
  // Unavailable naming the address when it cannot be bound (in use, bad host).
  // `extra` (may be null): another service on the same port (rill_server's MasterService).
  static absl::StatusOr<std::unique_ptr<WorkerServer>> Start(
      const WorkerOptions& options, const std::string& listen_address,
      std::unique_ptr<grpc::Service> extra = nullptr);
  ~WorkerServer();

  Worker* worker() { return worker_.get(); }
  // Aborts the steps in flight and stops serving (calls still in flight after 300 ms are
  // cancelled). Idempotent.
  void Shutdown();

 private:
  WorkerServer() = default;
  std::unique_ptr<Worker> worker_;
  std::unique_ptr<grpc::Service> service_;
  std::unique_ptr<grpc::Service> extra_;
  std::unique_ptr<grpc::Server> server_;
  bool shut_down_ = false;
};

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_GRPC_WORKER_SERVICE_H_
