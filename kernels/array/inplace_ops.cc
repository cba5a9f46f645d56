// InplaceAdd, InplaceSub and InplaceUpdate (tf.raw_ops' row updates, which TF1 graphs of
// tf.contrib and the grappler's ParallelConcat rewrite carry): y is a copy of x whose rows i[k]
// get v[k] added, subtracted or written (a repeated row takes every add and the last write).
// Row indices wrap modulo the row count as TensorFlow's kernel takes them. Error texts are
// TensorFlow's.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

enum class Mode { kAdd, kSub, kUpdate };

class InplaceOp final : public OpKernel {
 public:
  explicit InplaceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const std::string& op = ctx.def().op();
    mode_ = op == "InplaceAdd" ? Mode::kAdd : (op == "InplaceSub" ? Mode::kSub : Mode::kUpdate);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& i = ctx.input(1);
    const Tensor& v = ctx.input(2);
    const TensorShape &xs = x.shape(), &vs = v.shape();
    if (xs.rank() != vs.rank()) {
      return absl::InvalidArgumentError(absl::StrCat("x and v shape doesn't match (ranks differ): ",
                                                     xs.DebugString(), " vs. ", vs.DebugString()));
    }
    for (int d = 1; d < xs.rank(); ++d) {
      if (xs.dim(d) != vs.dim(d)) {
        return absl::InvalidArgumentError(absl::StrCat("x and v shape doesn't match at index ", d,
                                                       " : ", xs.DebugString(), " vs. ",
                                                       vs.DebugString()));
      }
    }
    if (i.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("i must be a vector. ", i.shape().DebugString()));
    }
    if (xs.rank() == 0 || i.shape().dim(0) != vs.dim(0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("i and x shape doesn't match at index 0: ", i.shape().DebugString(), " vs. ",
                       vs.DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate_output(0, xs));
    const int64_t rows = xs.dim(0);
    const int64_t width = rows == 0 ? 0 : x.NumElements() / rows;
    const std::vector<int64_t> idx = IndexValues(i);
    if (rows == 0 && !idx.empty()) {
      return absl::InvalidArgumentError("i names rows of an x without rows");
    }
    auto row_of = [&](int64_t k) { return ((idx[k] % rows) + rows) % rows; };
    if (mode_ == Mode::kUpdate) {
      return VisitElementType(x.dtype(), [&](auto tag) -> absl::Status {
        using T = typename decltype(tag)::type;
        const T* xp = static_cast<const T*>(x.raw_data());
        const T* vp = static_cast<const T*>(v.raw_data());
        T* yp = static_cast<T*>(y->raw_data());
        std::copy(xp, xp + x.NumElements(), yp);
        for (size_t k = 0; k < idx.size(); ++k) {
          std::copy(vp + k * width, vp + (k + 1) * width, yp + row_of(k) * width);
        }
        return absl::OkStatus();
      });
    }
    return VisitKernelTypes<half, float, double, int32_t, int64_t, uint8_t, int8_t, int16_t>(
        *this, x.dtype(), [&](auto tag) -> absl::Status {
          using T = typename decltype(tag)::type;
          using cwise_internal::Load;
          using cwise_internal::Store;
          const T* xp = x.flat<T>().data();
          const T* vp = v.flat<T>().data();
          T* yp = y->flat<T>().data();
          std::copy(xp, xp + x.NumElements(), yp);
          for (size_t k = 0; k < idx.size(); ++k) {
            T* row = yp + row_of(k) * width;
            for (int64_t e = 0; e < width; ++e) {
              const auto a = Load(row[e]), b = Load(vp[k * width + e]);
              row[e] = Store<T>(mode_ == Mode::kAdd ? a + b : a - b);
            }
          }
          return absl::OkStatus();
        });
  }

 private:
  Mode mode_ = Mode::kUpdate;
};

std::vector<DataType> ArithmeticTypes() {
  return {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_INT8, DT_INT16};
}

REGISTER_KERNEL(
    KernelDefBuilder("InplaceAdd").Device(kDeviceCpu).TypeConstraint("T", ArithmeticTypes()),
    InplaceOp);
REGISTER_KERNEL(
    KernelDefBuilder("InplaceSub").Device(kDeviceCpu).TypeConstraint("T", ArithmeticTypes()),
    InplaceOp);
REGISTER_KERNEL(KernelDefBuilder("InplaceUpdate")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_BOOL}),
                InplaceOp);

}  // namespace
}  // namespace rill
