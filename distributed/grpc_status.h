// Conversions between absl::Status and grpc::Status (the codes have the same numbers), and the
// channel arguments every Rill channel and server uses: messages of any size (TensorFlow sets
// its gRPC limits to unlimited too, so 100 MB tensors pass). Pure functions.
#ifndef RILL_DISTRIBUTED_GRPC_STATUS_H_
#define RILL_DISTRIBUTED_GRPC_STATUS_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "grpcpp/grpcpp.h"

namespace rill {
namespace distributed {

absl::Status FromGrpcStatus(const grpc::Status& s);
grpc::Status ToGrpcStatus(const absl::Status& s);

// Transport settings of Rill's channels and servers for large tensors (see grpc_status.cc).
void SetTransportArgs(grpc::ChannelArguments* args);
void SetTransportArgs(grpc::ServerBuilder* builder);

// TLS for the channels and servers this process makes from now on (gRPC SSL credentials): the
// PEM files of the certificate authority that signed the servers' certificates (what channels
// verify) and, for a server, its certificate and key. Empty names: plaintext (the default).
// InvalidArgument naming a file that cannot be read, or a certificate without its key.
absl::Status SetProcessTls(const std::string& ca_file, const std::string& cert_file,
                           const std::string& key_file);
std::shared_ptr<grpc::ServerCredentials> ServerCredentials();

// A channel to "host:port" with unlimited message sizes (TLS after SetProcessTls).
std::shared_ptr<grpc::Channel> NewChannel(const std::string& address);

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_GRPC_STATUS_H_
