// The MasterService a TensorFlow client talks to (tf.compat.v1.Session("grpc://host:port")):
// CreateSession, ExtendSession, RunStep, CloseSession, ListDevices and Reset, served by
// rill_server beside its WorkerService. Each client session is a Rill Session over the server's
// cluster whose target is this task (distributed/grpc_session.h): unqualified devices run here,
// /job:worker/task:N devices on the other tasks. Errors are TensorFlow's texts where it has one
// ("Session X is not found.", FailedPrecondition "Current version is A but caller expected B.");
// RunStep honours store_errors_in_response_body. Thread-safe.
#ifndef RILL_DISTRIBUTED_MASTER_SERVICE_H_
#define RILL_DISTRIBUTED_MASTER_SERVICE_H_

#include <memory>
#include <string>

#include "grpcpp/grpcpp.h"
#include "proto/cluster.pb.h"

namespace rill {
namespace distributed {

// `own_address` is this task's host:port in `cluster` (the sessions' target).
std::unique_ptr<grpc::Service> NewMasterService(const ClusterDef& cluster,
                                                const std::string& own_address);

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_MASTER_SERVICE_H_
