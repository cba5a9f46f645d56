// Per-step resources (TensorArrays, stacks): objects that live in the step's ResourceMgr
// (OpKernelContext::step_resources) for one Session::Run and are addressed by a handle tensor
// "<container>/<name>" (Rill's string resource handles, kernels/state/variable.h).
//
//   RILL_ASSIGN_OR_RETURN(Tensor handle, CreateStepResource(ctx, "_stacks", name, stack));
//   RILL_ASSIGN_OR_RETURN(std::shared_ptr<Stack> s, LookupStepResource<Stack>(ctx, "Stack"));
//
// Errors: Internal when the kernel runs without step resources (outside a Session); NotFound
// "<what> <name> does not exist in this step (...)" for a handle from another run or a bad
// one. Thread-safe (ResourceMgr is).
#ifndef RILL_KERNELS_LISTS_STEP_RESOURCE_H_
#define RILL_KERNELS_LISTS_STEP_RESOURCE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/resource_mgr.h"
#include "core/status_macros.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/state/variable.h"

namespace rill {

inline absl::StatusOr<ResourceMgr*> StepResources(OpKernelContext& ctx) {
  if (ctx.step_resources() == nullptr) {
    return absl::InternalError(absl::StrCat(ctx.kernel().type_string(), " node ",
                                            ctx.kernel().name(), " run without step resources"));
  }
  return ctx.step_resources();
}

// Registers `resource` as <container>/<name> in this step and returns its handle tensor.
template <typename T>
absl::StatusOr<Tensor> CreateStepResource(OpKernelContext& ctx, const std::string& container,
                                          const std::string& name, std::shared_ptr<T> resource) {
  RILL_ASSIGN_OR_RETURN(ResourceMgr * step, StepResources(ctx));
  RILL_RETURN_IF_ERROR(step->LookupOrCreate<T>(container, name, [&] { return resource; }).status());
  return MakeResourceHandleTensor(container, name);
}

// The resource input 0 of `ctx` names; `what` ("TensorArray", "Stack") for the message.
template <typename T>
absl::StatusOr<std::shared_ptr<T>> LookupStepResource(OpKernelContext& ctx,
                                                      const std::string& what) {
  RILL_ASSIGN_OR_RETURN(ResourceMgr * step, StepResources(ctx));
  RILL_ASSIGN_OR_RETURN(ResourceHandle h, ResourceHandleFromTensor(ctx.input(0)));
  absl::StatusOr<std::shared_ptr<T>> found = step->Lookup<T>(h.container, h.name);
  if (!found.ok()) {
    return absl::NotFoundError(absl::StrCat(
        what, " ", h.name, " does not exist in this step (", what,
        "s live for one run; it may have been closed, or its handle fed from another run)"));
  }
  return found;
}

}  // namespace rill

#endif  // RILL_KERNELS_LISTS_STEP_RESOURCE_H_
