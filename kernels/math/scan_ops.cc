// Cumsum on the CPU: running sums along one axis (input 1, a scalar; negative counts from the end),
// with the `exclusive` (each sum leaves out its own element, starting from 0) and `reverse` (sums
// run from the end) attrs. Integers wrap; half rounds every partial sum to half, as TensorFlow's
// Eigen scan does, so long half sums give TensorFlow's numbers. Errors are InvalidArgument with
// TensorFlow's texts: "ScanOp: axis must be a scalar, not [2]", "ScanOp: Expected scan axis in the
// range [-3, 3), but got 3" (the axis after adding the rank to a negative one, as TensorFlow prints
// it).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_SCAN_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

template <typename T>
T AddStored(T acc, T x) {
  using cwise_internal::Load;
  return cwise_internal::Store<T>(cwise_math::WrapAdd(Load(acc), Load(x)));
}

// Scans every (outer, inner) line of length axis_size.
template <typename T>
void CumsumLines(const T* x, int64_t outer, int64_t axis_size, int64_t inner, bool exclusive,
                 bool reverse, T* z) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * axis_size * inner + i;
      T acc = cwise_internal::Store<T>(0);
      for (int64_t k = 0; k < axis_size; ++k) {
        const int64_t a = reverse ? axis_size - 1 - k : k;
        const int64_t at = base + a * inner;
        if (exclusive) {
          z[at] = acc;
          acc = AddStored(acc, x[at]);
        } else {
          acc = AddStored(acc, x[at]);
          z[at] = acc;
        }
      }
    }
  }
}

class CumsumOp final : public OpKernel {
 public:
  explicit CumsumOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("exclusive", &exclusive_));
    ctx.SetStatus(ctx.GetAttr("reverse", &reverse_));  // keeps the first error
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& axis_t = ctx.input(1);
    if (axis_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("ScanOp: axis must be a scalar, not ", axis_t.shape().DebugString()));
    }
    const TensorShape& shape = in.shape();
    const int rank = shape.rank();
    const int64_t requested = IndexValues(axis_t)[0];
    const int64_t axis = requested < 0 ? requested + rank : requested;
    if (axis < 0 || axis >= rank) {
      return absl::InvalidArgumentError(absl::StrCat("ScanOp: Expected scan axis in the range [",
                                                     -rank, ", ", rank, "), but got ", axis));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < rank; ++d) {
      if (d < axis) outer *= shape.dim(d);
      if (d > axis) inner *= shape.dim(d);
    }
    return VisitKernelTypes<RILL_SCAN_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      CumsumLines<T>(in.flat<T>().data(), outer, shape.dim(axis), inner, exclusive_, reverse_,
                     out->flat<T>().data());
      return absl::OkStatus();
    });
  }

 private:
  bool exclusive_ = false;
  bool reverse_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("Cumsum")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SCAN_TYPES>())
                    .TypeConstraint("Tidx", {DT_INT32, DT_INT64}),
                CumsumOp);

}  // namespace
}  // namespace rill
