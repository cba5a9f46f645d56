// _Send/_Recv (and the _HostSend/_HostRecv forms): move a tensor between partitions through the
// step's rendezvous under TensorFlow's key. Send never blocks; Recv is asynchronous and fails with
// the rendezvous' abort status when the step fails elsewhere.
#include "absl/strings/str_cat.h"
#include "kernels/kernel_registry.h"

namespace rill {
namespace {

absl::StatusOr<std::string> KeyFromAttrs(OpKernelConstruction& ctx) {
  std::string send_device, recv_device, tensor_name;
  int64_t incarnation = 0;
  absl::Status s = ctx.GetAttr("send_device", &send_device);
  if (s.ok()) s = ctx.GetAttr("recv_device", &recv_device);
  if (s.ok()) s = ctx.GetAttr("tensor_name", &tensor_name);
  if (s.ok()) s = ctx.GetAttr("send_device_incarnation", &incarnation);
  if (!s.ok()) return s;
  return CreateRendezvousKey(send_device, static_cast<uint64_t>(incarnation), recv_device,
                             tensor_name);
}

class SendOp final : public OpKernel {
 public:
  explicit SendOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::StatusOr<std::string> key = KeyFromAttrs(ctx);
    if (key.ok()) key_ = *key;
    ctx.SetStatus(key.status());
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    if (ctx.rendezvous() == nullptr) return absl::InternalError("_Send run without a rendezvous");
    return ctx.rendezvous()->Send(key_, ctx.input(0), ctx.is_input_dead());
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string key_;
};

class RecvOp final : public AsyncOpKernel {
 public:
  explicit RecvOp(OpKernelConstruction& ctx) : AsyncOpKernel(ctx) {
    absl::StatusOr<std::string> key = KeyFromAttrs(ctx);
    if (key.ok()) key_ = *key;
    ctx.SetStatus(key.status());
  }
  void ComputeAsync(OpKernelContext& ctx, DoneCallback done) const override {
    if (ctx.rendezvous() == nullptr) {
      done(absl::InternalError("_Recv run without a rendezvous"));
      return;
    }
    OpKernelContext* c = &ctx;
    ctx.rendezvous()->RecvAsync(
        key_, [c, done](const absl::Status& s, const Tensor& value, bool /*is_dead*/) {
          if (s.ok()) c->set_output(0, value);
          done(s);
        });
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string key_;
};

REGISTER_KERNEL(KernelDefBuilder("_Send").Device(kDeviceCpu), SendOp);
REGISTER_KERNEL(KernelDefBuilder("_Recv").Device(kDeviceCpu), RecvOp);
REGISTER_KERNEL(KernelDefBuilder("_HostSend").Device(kDeviceCpu), SendOp);
REGISTER_KERNEL(KernelDefBuilder("_HostRecv").Device(kDeviceCpu), RecvOp);

}  // namespace
}  // namespace rill
