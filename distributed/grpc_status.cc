#include "distributed/grpc_status.h"

#include <utility>

namespace rill {
namespace distributed {

absl::Status FromGrpcStatus(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), s.error_message());
}

grpc::Status ToGrpcStatus(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()), std::string(s.message()));
}

namespace {

// For 100 MB tensors over one connection (tools/bench/recv_tensor_bench, loopback, medians of 15
// fetches, a shared 2-core machine): gRPC's defaults ~46 ms; a fixed 256 MiB stream window
// without BDP probing, 16 MiB frames and reads of up to 16 MiB ~31-37 ms. The window is per
// stream: a receiver may buffer that much of one tensor before the consumer reads it.
constexpr std::pair<const char*, int> kTransportArgs[] = {
    {GRPC_ARG_HTTP2_BDP_PROBE, 0},
    {GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 256 << 20},
    {GRPC_ARG_HTTP2_MAX_FRAME_SIZE, (16 << 20) - 1},
    {GRPC_ARG_TCP_MIN_READ_CHUNK_SIZE, 1 << 20},
    {GRPC_ARG_TCP_MAX_READ_CHUNK_SIZE, 16 << 20},
};

}  // namespace

void SetTransportArgs(grpc::ChannelArguments* args) {
  for (const auto& [k, v] : kTransportArgs) args->SetInt(k, v);
}

void SetTransportArgs(grpc::ServerBuilder* builder) {
  for (const auto& [k, v] : kTransportArgs) builder->AddChannelArgument(k, v);
}

std::shared_ptr<grpc::Channel> NewChannel(const std::string& address) {
  grpc::ChannelArguments args;
  SetTransportArgs(&args);
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  // A dead peer is noticed by the call's deadline, not after minutes of reconnect backoff.
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

}  // namespace distributed
}  // namespace rill
