// Running a fused loop's step kernels inside one kernel's Compute (_RillRecurrentSequence and
// _RillLstmSequence, kernels/nn/): the step nodes' kernels are built once from NodeDefs at the
// fused kernel's construction, and each run passes them the fused node's step context (device,
// step id, rendezvous, cancellation, call frame, step resources, intra-op threads) as the
// executor would have passed it to the loop's own nodes.
//
//   RILL_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> k, CreateStepKernel(def, ctx.device()));
//   StepKernelRunner runner(ctx);                     // in Compute
//   RILL_RETURN_IF_ERROR(runner.Cancelled());         // before each step
//   RILL_ASSIGN_OR_RETURN(TensorValueVector out, runner.Run(*k, std::move(inputs), 1));
//
// CreateStepKernel is thread-safe; a StepKernelRunner belongs to one Compute call (one thread).
#ifndef RILL_KERNELS_FRAMEWORK_STEP_KERNELS_H_
#define RILL_KERNELS_FRAMEWORK_STEP_KERNELS_H_

#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/cancellation.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {

// The kernel of `def` on `device`: its op looked up (NotFound for an op not registered), the
// op's attr defaults added, the NodeDef validated against the OpDef and the kernel created; each
// error as the registry, ValidateNodeDef or CreateKernel gives it.
inline absl::StatusOr<std::unique_ptr<OpKernel>> CreateStepKernel(NodeDef def, Device* device) {
  RILL_ASSIGN_OR_RETURN(const OpRegistration* reg, OpRegistry::Global()->LookUpOrError(def.op()));
  AddDefaultsToNodeDef(reg->op_def, &def);
  RILL_RETURN_IF_ERROR(ValidateNodeDef(def, reg->op_def));
  return KernelRegistry::Global()->CreateKernel(def, reg->op_def, device);
}

class StepKernelRunner {
 public:
  // `ctx` is the fused kernel's context; it must outlive the runner.
  explicit StepKernelRunner(OpKernelContext& ctx) : cancellation_(ctx.cancellation()) {
    params_.device = ctx.device();
    params_.step_id = ctx.step_id();
    params_.rendezvous = ctx.rendezvous();
    params_.cancellation = ctx.cancellation();
    params_.call_frame = ctx.call_frame();
    params_.step_resources = ctx.step_resources();
    params_.intra_op_threads = ctx.intra_op_threads();
  }

  // Runs `kernel` on `inputs` (moved in, so an elementwise kernel or TensorListSetItem may reuse
  // a buffer nothing else holds, as the executor lets it); its `num_outputs` outputs, or its
  // error unchanged.
  absl::StatusOr<TensorValueVector> Run(const OpKernel& kernel, TensorValueVector inputs,
                                        int num_outputs) {
    params_.kernel = &kernel;
    params_.inputs = inputs;
    OpKernelContext sub(&params_, num_outputs);
    RILL_RETURN_IF_ERROR(kernel.Compute(sub));
    return std::move(sub.outputs());
  }

  // As Run, reading `inputs` in place (the caller's vector stays their only holder, so a kernel
  // may still reuse a buffer nothing else holds) and leaving the outputs in *outputs (its old
  // contents dropped): no vector moves in or out, for a loop that runs many small kernels.
  absl::Status RunInto(const OpKernel& kernel, absl::Span<const TensorValue> inputs,
                       int num_outputs, TensorValueVector* outputs) {
    params_.kernel = &kernel;
    params_.inputs = inputs;
    OpKernelContext sub(&params_, num_outputs);
    RILL_RETURN_IF_ERROR(kernel.Compute(sub));
    *outputs = std::move(sub.outputs());
    return absl::OkStatus();
  }

  // OK, or the step's cancellation status once a timeout, Close or another partition's error
  // cancelled it ("Step was cancelled" when the cancellation carries none): a fused loop checks
  // it before each step, as the executor stops an unfused loop before its next node.
  absl::Status Cancelled() const {
    if (cancellation_ == nullptr || !cancellation_->IsCancelled()) return absl::OkStatus();
    const absl::Status why = cancellation_->status();
    return why.ok() ? absl::CancelledError("Step was cancelled") : why;
  }

 private:
  OpKernelContext::Params params_;
  CancellationManager* const cancellation_;
};

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_STEP_KERNELS_H_
