// _Send/_Recv and their host-memory forms _HostSend/_HostRecv on the CPU: move one tensor between
// partitions of a step through the step's Rendezvous. The key is TensorFlow's
//   "<send_device>;<send_device_incarnation hex>;<recv_device>;<tensor_name>;0:0"
// built once from the attrs when the kernel is constructed. _Send never blocks (Send's error, e.g.
// the rendezvous' abort status or FailedPrecondition for a duplicate key, fails the node). _Recv
// is asynchronous: it completes when the value arrives, or fails with the rendezvous' abort status
// when the step fails elsewhere. Both cheap. Deadness (TF1 control flow) is passed on Send; Rill's
// OpKernelContext has no dead outputs yet, so _Recv ignores it.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"
#include "kernels/runtime/sendrecv_key.h"

namespace rill {
namespace {

class SendOp final : public OpKernel {
 public:
  explicit SendOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::StatusOr<std::string> key = RendezvousKeyFromAttrs(ctx);
    if (key.ok()) key_ = *std::move(key);
    ctx.SetStatus(key.status());
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    if (ctx.rendezvous() == nullptr) {
      return absl::InternalError(
          absl::StrCat(type_string(), " node ", name(), " run without a rendezvous"));
    }
    return ctx.rendezvous()->Send(key_, ctx.input(0), ctx.is_input_dead());
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string key_;
};

class RecvOp final : public AsyncOpKernel {
 public:
  explicit RecvOp(OpKernelConstruction& ctx) : AsyncOpKernel(ctx) {
    absl::StatusOr<std::string> key = RendezvousKeyFromAttrs(ctx);
    if (key.ok()) key_ = *std::move(key);
    ctx.SetStatus(key.status());
  }
  // `ctx` must stay alive until `done` runs (the executor keeps it).
  void ComputeAsync(OpKernelContext& ctx, DoneCallback done) const override {
    if (ctx.rendezvous() == nullptr) {
      done(absl::InternalError(
          absl::StrCat(type_string(), " node ", name(), " run without a rendezvous")));
      return;
    }
    OpKernelContext* c = &ctx;
    ctx.rendezvous()->RecvAsync(
        key_,
        [c, done = std::move(done)](const absl::Status& s, const Tensor& value, bool is_dead) {
          if (s.ok() && !is_dead) c->set_output(0, value);
          done(s);
        });
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string key_;
};

REGISTER_KERNEL(KernelDefBuilder("_Send")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", WithQuantizedTypes(PassThroughTypes())),
                SendOp);
REGISTER_KERNEL(KernelDefBuilder("_Recv")
                    .Device(kDeviceCpu)
                    .TypeConstraint("tensor_type", WithQuantizedTypes(PassThroughTypes())),
                RecvOp);
REGISTER_KERNEL(KernelDefBuilder("_HostSend")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", WithQuantizedTypes(PassThroughTypes())),
                SendOp);
REGISTER_KERNEL(KernelDefBuilder("_HostRecv")
                    .Device(kDeviceCpu)
                    .TypeConstraint("tensor_type", WithQuantizedTypes(PassThroughTypes())),
                RecvOp);

}  // namespace
}  // namespace rill
