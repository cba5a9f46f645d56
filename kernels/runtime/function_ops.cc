// _Arg and _Retval on the CPU: the nodes a Session's feeds and fetches become. _Arg outputs the
// step's CallFrame argument `index`; _Retval stores its input as return value `index`. Errors
// come from the CallFrame (InvalidArgument for a bad index, a missing feed or a second SetRetval);
// a run without a call frame is Internal (an executor bug). Both cheap.
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

class ArgOp final : public OpKernel {
 public:
  explicit ArgOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("index", &index_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    if (ctx.call_frame() == nullptr) {
      return absl::InternalError(absl::StrCat("_Arg node ", name(), " run without a call frame"));
    }
    absl::StatusOr<Tensor> t = ctx.call_frame()->GetArg(static_cast<int>(index_));
    if (!t.ok()) return t.status();
    ctx.set_output(0, *std::move(t));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  int64_t index_ = 0;
};

class RetvalOp final : public OpKernel {
 public:
  explicit RetvalOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("index", &index_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    if (ctx.call_frame() == nullptr) {
      return absl::InternalError(
          absl::StrCat("_Retval node ", name(), " run without a call frame"));
    }
    return ctx.call_frame()->SetRetval(static_cast<int>(index_), ctx.input(0));
  }
  bool IsExpensive() const override { return false; }

 private:
  int64_t index_ = 0;
};

REGISTER_KERNEL(KernelDefBuilder("_Arg")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", WithQuantizedTypes(PassThroughTypes())),
                ArgOp);
REGISTER_KERNEL(KernelDefBuilder("_Retval")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", WithQuantizedTypes(PassThroughTypes())),
                RetvalOp);

}  // namespace
}  // namespace rill
