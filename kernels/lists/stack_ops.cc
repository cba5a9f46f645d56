// TF1 stack kernels on the CPU (ops/stack_ops.cc): a per-step resource
// (OpKernelContext::step_resources) holding tensors last in, first out, addressed by a handle
// "_stacks/<stack_name>_<n>" (Rill's string resource handles, kernels/state/variable.h). Errors are
// TensorFlow's texts (InvalidArgument): "Stack[s_1] is empty when calling Pop().",
// "Stack[s_1] overflowed its max_size (1)". Thread-safe: each stack has a mutex.
#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/resource_mgr.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/lists/step_resource.h"

namespace rill {
namespace {

constexpr char kContainer[] = "_stacks";

class Stack final : public ResourceBase {
 public:
  Stack(std::string name, DataType dtype, int64_t max_size)
      : name_(std::move(name)), dtype_(dtype), max_size_(max_size) {}
  std::string DebugString() const override { return absl::StrCat("Stack[", name_, "]"); }

  absl::Status Push(const Tensor& t) {
    if (t.dtype() != dtype_) {
      return absl::InvalidArgumentError(absl::StrCat("Stack[", name_, "] holds ",
                                                     DataTypeString(dtype_), ", not ",
                                                     DataTypeString(t.dtype())));
    }
    rill::MutexLock lock(&mu_);
    if (max_size_ >= 0 && static_cast<int64_t>(values_.size()) >= max_size_) {
      return absl::InvalidArgumentError(
          absl::StrCat("Stack[", name_, "] overflowed its max_size (", max_size_, ")"));
    }
    values_.push_back(t);
    return absl::OkStatus();
  }
  absl::StatusOr<Tensor> Pop(DataType dtype) {
    if (dtype != dtype_) {
      return absl::InvalidArgumentError(
          absl::StrCat("Stack[", name_, "] holds ", DataTypeString(dtype_),
                       " but the pop asks for ", DataTypeString(dtype)));
    }
    rill::MutexLock lock(&mu_);
    if (values_.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Stack[", name_, "] is empty when calling Pop()."));
    }
    Tensor t = std::move(values_.back());
    values_.pop_back();
    return t;
  }

 private:
  const std::string name_;
  const DataType dtype_;
  const int64_t max_size_;
  rill::Mutex mu_;
  std::vector<Tensor> values_ ABSL_GUARDED_BY(mu_);
};

absl::StatusOr<std::shared_ptr<Stack>> LookupStack(OpKernelContext& ctx) {
  return LookupStepResource<Stack>(ctx, "Stack");
}

class StackOp final : public OpKernel {
 public:
  explicit StackOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s = ctx.GetAttr("elem_type", &dtype_);
    if (s.ok()) s = ctx.GetAttr("stack_name", &stack_name_);
    ctx.SetStatus(s);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& max = ctx.input(0);
    if (max.dtype() != DT_INT32 || max.shape().rank() != 0) {
      return absl::InvalidArgumentError("max_size must be an int32 scalar");
    }
    static std::atomic<int64_t> counter{0};
    const std::string stack = absl::StrCat(stack_name_, "_", counter.fetch_add(1));
    auto created = std::make_shared<Stack>(stack, dtype_, max.flat<int32_t>()[0]);
    RILL_ASSIGN_OR_RETURN(Tensor handle, CreateStepResource(ctx, kContainer, stack, created));
    ctx.set_output(0, std::move(handle));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType dtype_ = DT_INVALID;
  std::string stack_name_;
};

class PushOp final : public OpKernel {
 public:
  explicit PushOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<Stack> stack, LookupStack(ctx));
    const Tensor& t = ctx.input(1);
    RILL_RETURN_IF_ERROR(stack->Push(t));
    ctx.set_output(0, t);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class PopOp final : public OpKernel {
 public:
  explicit PopOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("elem_type", &dtype_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<Stack> stack, LookupStack(ctx));
    RILL_ASSIGN_OR_RETURN(Tensor t, stack->Pop(dtype_));
    ctx.set_output(0, std::move(t));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType dtype_ = DT_INVALID;
};

class CloseOp final : public OpKernel {
 public:
  explicit CloseOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  // The stack is dropped with the step's resources; Close only checks the handle.
  absl::Status Compute(OpKernelContext& ctx) const override { return LookupStack(ctx).status(); }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("StackV2").Device(kDeviceCpu), StackOp);
REGISTER_KERNEL(KernelDefBuilder("StackPushV2").Device(kDeviceCpu), PushOp);
REGISTER_KERNEL(KernelDefBuilder("StackPopV2").Device(kDeviceCpu), PopOp);
REGISTER_KERNEL(KernelDefBuilder("StackCloseV2").Device(kDeviceCpu), CloseOp);

}  // namespace
}  // namespace rill
