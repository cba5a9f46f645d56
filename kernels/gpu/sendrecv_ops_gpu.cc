// _Send/_Recv on a GPU: the GPU side of a cross-device edge makes the copy, asynchronously, so
// no thread waits for the GPU.
//   _Send GPU -> CPU: the tensor is copied into pinned host memory on the device-to-host stream
//     (after the compute work that made it); the waiter thread hands the host tensor to the
//     rendezvous when the copy is done, and the node completes then.
//   _Send GPU -> GPU: the device tensor goes to the rendezvous once the compute stream has made
//     it (the receiving GPU copies it).
//   _Recv CPU -> GPU: the host tensor is staged in pinned memory and copied on the host-to-device
//     stream; the compute stream waits for the copy, so the node completes at once.
//   _Recv GPU -> GPU: a peer copy on the device-to-device stream, the compute stream waiting
//     for it.
// _HostSend/_HostRecv on a GPU carry host-memory tensors (shape arguments, int32 axes) and
// behave as on the CPU; a receive whose sender's tensor lives in the other memory (a _Send of a
// device tensor to a _HostRecv on the same GPU, or a _HostSend to a _Recv) copies it across.
// Errors: the rendezvous' abort status; Internal with CUDA's error.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/device_name.h"
#include "core/gpu/cuda_stream.h"
#include "core/gpu/gpu_device.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"
#include "kernels/runtime/sendrecv_key.h"

namespace rill {
namespace {

// The GpuDevice of the node, the key, and whether the other side of the edge is a GPU.
struct EdgeInfo {
  GpuDevice* gpu = nullptr;
  std::string key;
  bool peer_is_gpu = false;
};

void InitEdge(OpKernelConstruction& ctx, const char* peer_attr, EdgeInfo* edge) {
  edge->gpu = AsGpuDevice(ctx.device());
  if (edge->gpu == nullptr) {
    ctx.SetStatus(absl::FailedPreconditionError(
        absl::StrCat(ctx.def().op(), " node ", ctx.def().name(), " needs a CUDA GPU; ",
                     ctx.device()->name(), " is simulated")));
    return;
  }
  absl::StatusOr<std::string> key = RendezvousKeyFromAttrs(ctx);
  ctx.SetStatus(key.status());
  if (key.ok()) edge->key = *std::move(key);
  std::string peer;
  ctx.SetStatus(ctx.GetAttr(peer_attr, &peer));
  absl::StatusOr<DeviceName> parsed = ParseDeviceName(peer);
  edge->peer_is_gpu = parsed.ok() && parsed->type == kDeviceGpu;
}

class SendGpuOp final : public AsyncOpKernel {
 public:
  explicit SendGpuOp(OpKernelConstruction& ctx) : AsyncOpKernel(ctx) {
    InitEdge(ctx, "recv_device", &edge_);
    host_memory_ = ctx.def().op() == "_HostSend";
  }
  void ComputeAsync(OpKernelContext& ctx, DoneCallback done) const override {
    Rendezvous* rendezvous = ctx.rendezvous();
    if (rendezvous == nullptr) {
      done(absl::InternalError(
          absl::StrCat(type_string(), " node ", name(), " run without a rendezvous")));
      return;
    }
    const Tensor& value = ctx.input(0);
    const bool is_dead = ctx.is_input_dead();
    if (host_memory_ || is_dead || !value.IsInitialized()) {
      done(rendezvous->Send(edge_.key, value, is_dead));
      return;
    }
    if (edge_.peer_is_gpu) {
      edge_.gpu->ThenExecute(edge_.gpu->compute_stream(),
                             [rendezvous, key = edge_.key, value, done](absl::Status s) {
                               if (s.ok()) s = rendezvous->Send(key, value, false);
                               done(s);
                             });
      return;
    }
    edge_.gpu->CopyDeviceToHost(value,
                                [rendezvous, key = edge_.key, done](absl::StatusOr<Tensor> host) {
                                  if (!host.ok()) {
                                    done(host.status());
                                    return;
                                  }
                                  done(rendezvous->Send(key, *host, false));
                                });
  }
  bool IsExpensive() const override { return false; }

 private:
  EdgeInfo edge_;
  bool host_memory_ = false;
};

class RecvGpuOp final : public AsyncOpKernel {
 public:
  explicit RecvGpuOp(OpKernelConstruction& ctx) : AsyncOpKernel(ctx) {
    InitEdge(ctx, "send_device", &edge_);
    host_memory_ = ctx.def().op() == "_HostRecv";
  }
  // `ctx` stays alive until `done` runs (the executor keeps it).
  void ComputeAsync(OpKernelContext& ctx, DoneCallback done) const override {
    if (ctx.rendezvous() == nullptr) {
      done(absl::InternalError(
          absl::StrCat(type_string(), " node ", name(), " run without a rendezvous")));
      return;
    }
    OpKernelContext* c = &ctx;
    ctx.rendezvous()->RecvAsync(
        edge_.key, [this, c, done = std::move(done)](const absl::Status& s, const Tensor& value,
                                                     bool is_dead) {
          if (!s.ok() || is_dead) {
            done(s);
            return;
          }
          Deliver(*c, value, std::move(done));
        });
  }
  bool IsExpensive() const override { return false; }

 private:
  // Makes `value` this node's output in the memory this node's consumers read: host memory for
  // _HostRecv, this GPU's memory for _Recv. Either end of a pair may be a GPU node whose tensor
  // lives in the other memory (an edge inside one GPU whose ends disagree, spec §4.3), so the
  // value's memory is asked of CUDA when the sender is a GPU, and copied across when it differs.
  void Deliver(OpKernelContext& ctx, const Tensor& value, DoneCallback done) const {
    if (!value.IsInitialized() || DataTypeAlwaysOnHost(value.dtype()) ||
        (host_memory_ && value.TotalBytes() == 0)) {
      ctx.set_output(0, value);
      done(absl::OkStatus());
      return;
    }
    int src_platform_id = -1;  // -1: the value is in host memory
    if (edge_.peer_is_gpu && value.TotalBytes() > 0) {
      std::string error;
      if (!gpu_internal::CudaPointerMemory(value.raw_data(), &src_platform_id, &error)) {
        done(edge_.gpu->CudaError(absl::StrCat("finding the memory of ", name(), "'s input"),
                                  error));
        return;
      }
    }
    if (host_memory_) {
      if (src_platform_id < 0) {
        ctx.set_output(0, value);
        done(absl::OkStatus());
        return;
      }
      OpKernelContext* c = &ctx;
      edge_.gpu->CopyDeviceToHost(value, [c, done = std::move(done)](absl::StatusOr<Tensor> host) {
        if (host.ok()) c->set_output(0, *host);
        done(host.status());
      });
      return;
    }
    absl::StatusOr<Tensor*> out = ctx.allocate_output(0, value.shape());
    if (!out.ok() || value.TotalBytes() == 0) {
      done(out.status());
      return;
    }
    // Virtual devices of one GPU copy within it; another GPU's memory is a peer copy.
    done(src_platform_id < 0 ? edge_.gpu->CopyHostToDevice(value, **out)
                             : edge_.gpu->CopyFromPeer(value, src_platform_id, **out));
  }

  EdgeInfo edge_;
  bool host_memory_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("_Send")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", PassThroughTypes()),
                SendGpuOp);
REGISTER_KERNEL(KernelDefBuilder("_Recv")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("tensor_type", PassThroughTypes()),
                RecvGpuOp);
REGISTER_KERNEL(KernelDefBuilder("_HostSend")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("tensor")
                    .TypeConstraint("T", PassThroughTypes()),
                SendGpuOp);
REGISTER_KERNEL(KernelDefBuilder("_HostRecv")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .HostMemory("tensor")
                    .TypeConstraint("tensor_type", PassThroughTypes()),
                RecvGpuOp);

}  // namespace
}  // namespace rill
