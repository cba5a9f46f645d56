#include "distributed/grpc_status.h"

#include <cstdint>
#include <fstream>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/bounded_file.h"
#include "core/mutex.h"
#include "core/status_macros.h"

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

namespace {

struct Tls {
  std::string ca, cert, key;
};

rill::Mutex& TlsMutex() {
  static rill::Mutex* mu = new rill::Mutex();
  return *mu;
}

Tls& ProcessTls() {
  static Tls* tls = new Tls();
  return *tls;
}

// PEM files hold a few certificates; a CA bundle of every public root is ~200 KB.
constexpr uint64_t kMaxPemBytes = 16 << 20;

absl::StatusOr<std::string> ReadPem(const std::string& what, const std::string& path) {
  const absl::Status unreadable = absl::InvalidArgumentError(
      absl::StrCat("Cannot read the ", what, " file ", path, "; give a readable PEM file"));
  if (!std::ifstream(path, std::ios::binary)) return unreadable;
  // Read with a bound: the path may name a directory, a device (/dev/zero) or a huge file.
  absl::StatusOr<std::string> text =
      ReadBoundedFile("", path, kMaxPemBytes, "a PEM file holds a few certificates");
  if (!text.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("The ", what, " file ", text.status().message(),
                                                   "; give a readable PEM file"));
  }
  if (text->empty()) return unreadable;
  // A PEM file holds "-----BEGIN <label>-----" blocks; anything else would only fail at the first
  // connection, far from the flag that named it.
  if (text->find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("The ", what, " file ", path,
                                                   " holds no PEM block ('-----BEGIN ...'); give "
                                                   "a PEM file"));
  }
  return text;
}

}  // namespace

absl::Status SetProcessTls(const std::string& ca_file, const std::string& cert_file,
                           const std::string& key_file) {
  if (cert_file.empty() != key_file.empty()) {
    return absl::InvalidArgumentError(
        "A TLS certificate needs its key and a key its certificate; give both or neither");
  }
  Tls tls;
  if (!ca_file.empty()) {
    RILL_ASSIGN_OR_RETURN(tls.ca, ReadPem("CA certificate", ca_file));
  }
  if (!cert_file.empty()) {
    RILL_ASSIGN_OR_RETURN(tls.cert, ReadPem("certificate", cert_file));
  }
  if (!key_file.empty()) {
    RILL_ASSIGN_OR_RETURN(tls.key, ReadPem("key", key_file));
  }
  rill::MutexLock lock(&TlsMutex());
  ProcessTls() = std::move(tls);
  return absl::OkStatus();
}

std::shared_ptr<grpc::ServerCredentials> ServerCredentials() {
  rill::MutexLock lock(&TlsMutex());
  const Tls& tls = ProcessTls();
  if (tls.cert.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options;
  options.pem_root_certs = tls.ca;
  options.pem_key_cert_pairs.push_back({tls.key, tls.cert});
  return grpc::SslServerCredentials(options);
}

std::shared_ptr<grpc::Channel> NewChannel(const std::string& address) {
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  {
    rill::MutexLock lock(&TlsMutex());
    const Tls& tls = ProcessTls();
    if (tls.ca.empty()) {
      credentials = grpc::InsecureChannelCredentials();
    } else {
      grpc::SslCredentialsOptions options;
      options.pem_root_certs = tls.ca;
      credentials = grpc::SslCredentials(options);
    }
  }
  grpc::ChannelArguments args;
  SetTransportArgs(&args);
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  // A dead peer is noticed by the call's deadline, not after minutes of reconnect backoff.
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  // gRPC also takes this as the time one connection attempt (TCP and HTTP/2's SETTINGS) may
  // take: a refused connection still fails at once, but a loaded peer gets 5 s to answer.
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 5000);
  return grpc::CreateCustomChannel(address, credentials, args);
}

}  // namespace distributed
}  // namespace rill
