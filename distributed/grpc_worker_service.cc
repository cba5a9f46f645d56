#include "distributed/grpc_worker_service.h"

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "distributed/grpc_status.h"
#include "distributed/protos/worker_service.grpc.pb.h"
#include "distributed/shm_offer.h"
#include "distributed/shm_writer.h"
#include "distributed/tensor_coding.h"

namespace rill {
namespace distributed {
namespace {

absl::Time DeadlineOf(const grpc::ServerContext* ctx) {
  const auto d = ctx->deadline();
  if (d >= std::chrono::system_clock::time_point::max() - std::chrono::hours(24 * 365)) {
    return absl::InfiniteFuture();
  }
  return absl::FromChrono(d);
}

// The same-host path's message: the tensor's dtype and shape, its bytes being in the segment.
void EncodeShmResponseHeader(const Tensor& value, int64_t send_start_micros,
                             grpc::ByteBuffer* out) {
  tensorflow::RecvTensorResponse resp;
  resp.mutable_tensor()->set_dtype(value.dtype());
  for (int64_t d : value.shape().dims()) {
    resp.mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(d);
  }
  resp.set_send_start_micros(send_start_micros);
  const std::string bytes = resp.SerializeAsString();
  grpc::Slice slice(bytes.data(), bytes.size());
  *out = grpc::ByteBuffer(&slice, 1);
}

// RecvTensor is a raw callback method: no thread waits for the tensor, and the response goes out
// as the tensor's own bytes (tensor_coding.h).
class Service final : public tensorflow::WorkerService::WithRawCallbackMethod_RecvTensor<
                          tensorflow::WorkerService::Service> {
 public:
  explicit Service(Worker* worker) : worker_(worker) {}

#define RILL_SIMPLE_METHOD(Method)                                                  \
  grpc::Status Method(grpc::ServerContext*, const tensorflow::Method##Request* req, \
                      tensorflow::Method##Response* resp) override {                \
    return ToGrpcStatus(worker_->Method(*req, resp));                               \
  }
  RILL_SIMPLE_METHOD(GetStatus)
  RILL_SIMPLE_METHOD(CreateWorkerSession)
  RILL_SIMPLE_METHOD(DeleteWorkerSession)
  RILL_SIMPLE_METHOD(RegisterGraph)
  RILL_SIMPLE_METHOD(DeregisterGraph)
  RILL_SIMPLE_METHOD(CleanupGraph)
#undef RILL_SIMPLE_METHOD

  grpc::Status CleanupAll(grpc::ServerContext*, const tensorflow::CleanupAllRequest*,
                          tensorflow::CleanupAllResponse*) override {
    return grpc::Status::OK;  // Rill's workers keep no containers beyond their sessions
  }

  grpc::Status RunGraph(grpc::ServerContext* ctx, const tensorflow::RunGraphRequest* req,
                        tensorflow::RunGraphResponse* resp) override {
    absl::Status s =
        worker_->RunGraph(*req, resp, DeadlineOf(ctx), [ctx] { return ctx->IsCancelled(); });
    if (!s.ok() && req->store_errors_in_response_body()) {
      resp->set_status_code(static_cast<int>(s.code()));
      resp->set_status_error_message(std::string(s.message()));
      return grpc::Status::OK;
    }
    return ToGrpcStatus(s);
  }

  grpc::ServerUnaryReactor* RecvTensor(grpc::CallbackServerContext* ctx,
                                       const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    tensorflow::RecvTensorRequest req;
    if (!grpc::SerializationTraits<tensorflow::RecvTensorRequest>::Deserialize(
             const_cast<grpc::ByteBuffer*>(request), &req)
             .ok()) {
      reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                   "RecvTensor: malformed RecvTensorRequest"));
      return reactor;
    }
    // A Rill receiver on this host may offer a segment for the bytes (distributed/shm_offer.h).
    std::optional<ShmOffer> offer;
    const auto& metadata = ctx->client_metadata();
    auto it = metadata.find(kShmOfferKey);
    if (it != metadata.end() && GetShmSettings().enabled) {
      offer = ParseShmOffer(std::string(it->second.data(), it->second.size()));
    }
    worker_->RecvTensorAsync(req, [ctx, reactor, response, offer = std::move(offer)](
                                      const absl::Status& s, const Tensor& value, bool is_dead) {
      if (!s.ok()) {
        reactor->Finish(ToGrpcStatus(s));
        return;
      }
      const int64_t now = absl::ToUnixMicros(absl::Now());
      if (offer.has_value() && !is_dead && ShmEligible(value) &&
          ShmWriter::Default()->Write(*offer, value).ok()) {
        EncodeShmResponseHeader(value, now, response);
        ctx->AddTrailingMetadata(kShmBytesKey, std::to_string(value.TotalBytes()));
      } else {
        EncodeRecvTensorResponse(value, is_dead, now, response);
      }
      reactor->Finish(grpc::Status::OK);
    });
    return reactor;
  }

 private:
  Worker* const worker_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<WorkerServer>> WorkerServer::Start(
    const WorkerOptions& options, const std::string& listen_address,
    std::unique_ptr<grpc::Service> extra) {
  std::unique_ptr<WorkerServer> server(new WorkerServer());
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(options);
  if (!worker.ok()) return worker.status();
  server->worker_ = std::move(*worker);
  server->service_ = std::make_unique<Service>(server->worker_.get());
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(listen_address, ServerCredentials(), &port);
  // gRPC sets SO_REUSEPORT by default: a second server on a port in use would bind it too and
  // take half the connections (two processes serving one task). TensorFlow's servers turn it
  // off the same way, so the second one fails to start.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(-1);
  builder.SetMaxSendMessageSize(-1);
  SetTransportArgs(&builder);
  builder.RegisterService(server->service_.get());
  server->extra_ = std::move(extra);
  if (server->extra_ != nullptr) builder.RegisterService(server->extra_.get());
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || port == 0) {
    return absl::UnavailableError(absl::StrCat(
        "Could not start the gRPC server on ", listen_address,
        " (is the port in use by another process?); pick a free port in the cluster spec"));
  }
  return server;
}

void WorkerServer::Shutdown() {
  if (shut_down_ || server_ == nullptr) return;
  shut_down_ = true;
  worker_->AbortAllSteps();
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(300));
  server_->Wait();
}

WorkerServer::~WorkerServer() { Shutdown(); }

}  // namespace distributed
}  // namespace rill
