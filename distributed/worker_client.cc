#include "distributed/worker_client.h"

#include <chrono>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "distributed/cluster_spec.h"
#include "distributed/grpc_status.h"
#include "distributed/shm_offer.h"
#include "distributed/shm_segments.h"
#include "distributed/tensor_coding.h"
#include "grpcpp/impl/client_unary_call.h"

namespace rill {
namespace distributed {
namespace {

void SetDeadline(grpc::ClientContext* ctx, absl::Duration timeout) {
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::milliseconds(absl::ToInt64Milliseconds(timeout)));
}

// Offers a same-host segment with the request (distributed/shm_offer.h); null when none is.
std::unique_ptr<ShmLease> OfferSegment(grpc::ClientContext* ctx) {
  std::unique_ptr<ShmLease> lease = ShmSegments::Default()->Acquire();
  if (lease != nullptr) ctx->AddMetadata(kShmOfferKey, lease->offer());
  return lease;
}

// A completed RecvTensor's tensor: from the offered segment when the sender's trailer says it
// wrote it there (the message then holds the dtype and shape only), else from the message.
absl::Status DecodeResponse(const grpc::ClientContext& ctx, const grpc::ByteBuffer& bytes,
                            ShmLease* lease, Tensor* value, bool* is_dead) {
  if (lease != nullptr) {
    const auto& trailer = ctx.GetServerTrailingMetadata();
    if (trailer.find(kShmBytesKey) == trailer.end()) {
      lease->Keep();
    } else {
      grpc::ByteBuffer copy(bytes);
      tensorflow::RecvTensorResponse header;
      if (!grpc::SerializationTraits<tensorflow::RecvTensorResponse>::Deserialize(&copy, &header)
               .ok()) {
        return absl::InvalidArgumentError("Malformed RecvTensorResponse: bad header");
      }
      RILL_ASSIGN_OR_RETURN(TensorShape shape,
                            TensorShape::FromProto(header.tensor().tensor_shape()));
      RILL_ASSIGN_OR_RETURN(*value,
                            lease->Take(static_cast<DataType>(header.tensor().dtype()), shape));
      *is_dead = header.is_dead();
      return absl::OkStatus();
    }
  }
  return DecodeRecvTensorResponse(bytes, value, is_dead);
}

}  // namespace

WorkerClient::WorkerClient(std::string job, int task_index, std::string address)
    : job_(std::move(job)),
      task_index_(task_index),
      task_(TaskName(job_, task_index)),
      address_(std::move(address)),
      channel_(NewChannel(address_)),
      stub_(tensorflow::WorkerService::NewStub(channel_)),
      generic_stub_(std::make_unique<grpc::GenericStub>(channel_)),
      recv_tensor_method_("/tensorflow.WorkerService/RecvTensor",
                          grpc::internal::RpcMethod::NORMAL_RPC, channel_) {}

absl::Status WorkerClient::Annotate(const char* method, const grpc::Status& s) const {
  if (s.ok()) return absl::OkStatus();
  // A worker passing on another task's failure (its RecvTensor from that task) already names it.
  if (absl::StartsWith(s.error_message(), "Task /job:") ||
      absl::StrContains(s.error_message(), " on task /job:")) {
    return FromGrpcStatus(s);
  }
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
    return absl::UnavailableError(absl::StrCat(
        "Task ", task_, " (", address_, ") is unavailable: ", s.error_message(),
        ". Start its server (rill_server --cluster_spec=... --job_name=", job_,
        " --task_id=", task_index_, ") or fix its address in the cluster spec, then run again."));
  }
  if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    return absl::DeadlineExceededError(absl::StrCat(
        method, " on task ", task_, " (", address_, ") timed out: ", s.error_message(),
        ". The worker may be overloaded or stuck; raise operation_timeout_in_ms or restart it."));
  }
  // The worker's own error: its text unchanged (it names the node), the task after it.
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      absl::StrCat(s.error_message(), " (on task ", task_, ")"));
}

#define RILL_WORKER_CALL(Method, Req, Resp)                                             \
  absl::Status WorkerClient::Method(const tensorflow::Req& req, tensorflow::Resp* resp, \
                                    absl::Duration timeout) {                           \
    grpc::ClientContext ctx;                                                            \
    SetDeadline(&ctx, timeout);                                                         \
    return Annotate(#Method, stub_->Method(&ctx, req, resp));                           \
  }

RILL_WORKER_CALL(GetStatus, GetStatusRequest, GetStatusResponse)
RILL_WORKER_CALL(CreateWorkerSession, CreateWorkerSessionRequest, CreateWorkerSessionResponse)
RILL_WORKER_CALL(DeleteWorkerSession, DeleteWorkerSessionRequest, DeleteWorkerSessionResponse)
RILL_WORKER_CALL(RegisterGraph, RegisterGraphRequest, RegisterGraphResponse)
RILL_WORKER_CALL(DeregisterGraph, DeregisterGraphRequest, DeregisterGraphResponse)
RILL_WORKER_CALL(CleanupGraph, CleanupGraphRequest, CleanupGraphResponse)

#undef RILL_WORKER_CALL

absl::Status WorkerClient::RunGraph(const tensorflow::RunGraphRequest& req,
                                    tensorflow::RunGraphResponse* resp, absl::Duration timeout,
                                    CancellationManager* cancel) {
  // Shared with the cancellation callback, which StartCancel may run after this call returned.
  auto ctx = std::make_shared<grpc::ClientContext>();
  SetDeadline(ctx.get(), timeout);
  CancellationToken token = kInvalidCancellationToken;
  if (cancel != nullptr) {
    token = cancel->RegisterCallback([ctx] { ctx->TryCancel(); });
    if (token == kInvalidCancellationToken) return cancel->status();
  }
  grpc::Status s = stub_->RunGraph(ctx.get(), req, resp);
  if (cancel != nullptr) cancel->DeregisterCallback(token);
  return Annotate("RunGraph", s);
}

absl::Status WorkerClient::RecvTensor(const tensorflow::RecvTensorRequest& req, Tensor* value,
                                      bool* is_dead, absl::Duration timeout,
                                      CancellationManager* cancel) {
  // Shared with the cancellation callback, which StartCancel may run after this call returned.
  auto ctx = std::make_shared<grpc::ClientContext>();
  SetDeadline(ctx.get(), timeout);
  CancellationToken token = kInvalidCancellationToken;
  if (cancel != nullptr) {
    token = cancel->RegisterCallback([ctx] { ctx->TryCancel(); });
    if (token == kInvalidCancellationToken) return cancel->status();
  }
  std::unique_ptr<ShmLease> lease = OfferSegment(ctx.get());
  grpc::ByteBuffer bytes;
  grpc::Status s =
      grpc::internal::BlockingUnaryCall<tensorflow::RecvTensorRequest, grpc::ByteBuffer>(
          channel_.get(), recv_tensor_method_, ctx.get(), req, &bytes);
  if (cancel != nullptr) cancel->DeregisterCallback(token);
  RILL_RETURN_IF_ERROR(Annotate("RecvTensor", s));
  absl::Status decoded = DecodeResponse(*ctx, bytes, lease.get(), value, is_dead);
  if (!decoded.ok()) {
    return absl::Status(decoded.code(),
                        absl::StrCat(decoded.message(), " (from task ", task_, ")"));
  }
  return absl::OkStatus();
}

void WorkerClient::RecvTensorAsync(const tensorflow::RecvTensorRequest& req, absl::Duration timeout,
                                   CancellationManager* cancel, RecvDone done) {
  // Lives until gRPC's callback; shared with the cancellation callback.
  struct Call {
    grpc::ClientContext ctx;
    grpc::ByteBuffer request;
    grpc::ByteBuffer response;
    CancellationToken token = kInvalidCancellationToken;
    std::unique_ptr<ShmLease> lease;
  };
  auto call = std::make_shared<Call>();
  SetDeadline(&call->ctx, timeout);
  call->lease = OfferSegment(&call->ctx);
  bool own_buffer = false;
  grpc::Status serialized = grpc::SerializationTraits<tensorflow::RecvTensorRequest>::Serialize(
      req, &call->request, &own_buffer);
  if (!serialized.ok()) {
    done(FromGrpcStatus(serialized), Tensor(), false);
    return;
  }
  if (cancel != nullptr) {
    call->token = cancel->RegisterCallback([call] { call->ctx.TryCancel(); });
    if (call->token == kInvalidCancellationToken) {
      done(cancel->status(), Tensor(), false);
      return;
    }
  }
  generic_stub_->UnaryCall(
      &call->ctx, "/tensorflow.WorkerService/RecvTensor", grpc::StubOptions(), &call->request,
      &call->response, [this, call, cancel, done = std::move(done)](grpc::Status s) {
        if (cancel != nullptr) cancel->DeregisterCallback(call->token);
        absl::Status status = Annotate("RecvTensor", s);
        Tensor value;
        bool is_dead = false;
        if (status.ok()) {
          status = DecodeResponse(call->ctx, call->response, call->lease.get(), &value, &is_dead);
          if (!status.ok()) {
            status = absl::Status(status.code(),
                                  absl::StrCat(status.message(), " (from task ", task_, ")"));
          }
        }
        done(status, status.ok() ? value : Tensor(), status.ok() && is_dead);
      });
}

}  // namespace distributed
}  // namespace rill
