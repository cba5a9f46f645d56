// Select and SelectV2 on the CPU: out = condition ? t : e, elementwise.
//   Select (TF1 tf.where): a scalar condition picks a whole operand; a vector condition with
//     higher-rank operands picks rows (condition[i] selects t[i, ...] or e[i, ...]); otherwise
//     all three shapes must be equal.
//   SelectV2 (tf.where in TF2): condition, t and e broadcast together (numpy rules).
// Errors are InvalidArgument with TensorFlow's texts: "Inputs to operation out of type Select must
// have the same size and shape.  Input 0: [2,3] != input 2: [3,2]", "Number of batches of 'then'
// must match size of 'cond', but saw: 2 vs. 3", "'then' and 'else' must have the same size.  but
// received: [2] vs. [3]", "condition [2,3], then [3,2], and else [2,3] must be broadcastable".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_SELECT_TYPES                                                                        \
  half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool, std::string, complex64, \
      complex128

class SelectOp final : public OpKernel {
 public:
  explicit SelectOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& cond = ctx.input(0);
    const Tensor& t = ctx.input(1);
    const Tensor& e = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(SelectMode mode,
                          SelectModeOf(cond.shape(), t.shape(), e.shape(), name(), type_string()));
    if (mode == SelectMode::kScalar) {  // picks a whole operand: no copy
      ctx.set_output(0, cond.flat<bool>()[0] ? t : e);
      return absl::OkStatus();
    }
    if (mode == SelectMode::kRows) return SelectRows(ctx, cond, t, e);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, t.shape()));
    return VisitKernelTypes<RILL_SELECT_TYPES>(*this, t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const bool* c = cond.flat<bool>().data();
      const T* a = t.flat<T>().data();
      const T* b = e.flat<T>().data();
      T* z = out->flat<T>().data();
      ctx.ParallelFor(out->NumElements(), 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) z[i] = c[i] ? a[i] : b[i];
      });
      return absl::OkStatus();
    });
  }
  bool IsExpensive() const override { return false; }

 private:
  // A vector condition over the first dimension of t and e (shapes checked by SelectModeOf).
  absl::Status SelectRows(OpKernelContext& ctx, const Tensor& cond, const Tensor& t,
                          const Tensor& e) const {
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, t.shape()));
    const int64_t rows = cond.NumElements();
    if (rows == 0) return absl::OkStatus();
    const int64_t row = t.NumElements() / rows;
    return VisitKernelTypes<RILL_SELECT_TYPES>(*this, t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const bool* c = cond.flat<bool>().data();
      const T* a = t.flat<T>().data();
      const T* b = e.flat<T>().data();
      T* z = out->flat<T>().data();
      for (int64_t r = 0; r < rows; ++r) {
        const T* from = (c[r] ? a : b) + r * row;
        std::copy(from, from + row, z + r * row);
      }
      return absl::OkStatus();
    });
  }
};

class SelectV2Op final : public OpKernel {
 public:
  explicit SelectV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& cond = ctx.input(0);
    const Tensor& t = ctx.input(1);
    const Tensor& e = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, SelectV2ShapeOf(cond.shape(), t.shape(), e.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<RILL_SELECT_TYPES>(*this, t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const bool* c = cond.flat<bool>().data();
      const T* a = t.flat<T>().data();
      const T* b = e.flat<T>().data();
      T* z = out->flat<T>().data();
      if (out->shape().rank() == 0) {
        z[0] = c[0] ? a[0] : b[0];
        return absl::OkStatus();
      }
      ForEachBroadcastRowN<3>({&cond.shape(), &t.shape(), &e.shape()}, out->shape(),
                              [&](int64_t o, const std::array<int64_t, 3>& off, int64_t inner,
                                  const std::array<int64_t, 3>& s) {
                                for (int64_t j = 0; j < inner; ++j) {
                                  z[o + j] = c[off[0] + j * s[0]] ? a[off[1] + j * s[1]]
                                                                  : b[off[2] + j * s[2]];
                                }
                              });
      return absl::OkStatus();
    });
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("Select")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SELECT_TYPES>()),
                SelectOp);
REGISTER_KERNEL(KernelDefBuilder("SelectV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SELECT_TYPES>()),
                SelectV2Op);

}  // namespace
}  // namespace rill
