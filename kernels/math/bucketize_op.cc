// Bucketize on the CPU: for each input value, the number of `boundaries` (a sorted list(float)
// attr) less than or equal to it (std::upper_bound, comparing in C++'s common type of T and
// float, as TensorFlow's kernel does). Output int32 of the input's shape.
// Errors: InvalidArgument "Expected sorted boundaries" when the kernel is made.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

#define RILL_BUCKETIZE_TYPES float, double, int32_t, int64_t

class BucketizeOp final : public OpKernel {
 public:
  explicit BucketizeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const AttrValue* attr = FindNodeAttr(ctx.def(), "boundaries");
    if (attr == nullptr) {
      ctx.SetStatus(absl::InvalidArgumentError("Bucketize needs the boundaries attr"));
      return;
    }
    boundaries_.assign(attr->list().f().begin(), attr->list().f().end());
    if (!std::is_sorted(boundaries_.begin(), boundaries_.end())) {
      ctx.SetStatus(absl::InvalidArgumentError("Expected sorted boundaries"));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    return VisitKernelTypes<RILL_BUCKETIZE_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = in.flat<T>().data();
      int32_t* y = out->flat<int32_t>().data();
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        y[i] = static_cast<int32_t>(std::upper_bound(boundaries_.begin(), boundaries_.end(), x[i]) -
                                    boundaries_.begin());
      }
      return absl::OkStatus();
    });
  }

 private:
  std::vector<float> boundaries_;
};

REGISTER_KERNEL(KernelDefBuilder("Bucketize")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_BUCKETIZE_TYPES>()),
                BucketizeOp);

}  // namespace
}  // namespace rill
