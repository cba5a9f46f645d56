// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits on the CPU, per row of
// [batch, classes] logits, with the max subtracted first (numerically stable):
//   loss[b] = log(sum_j exp(x[b,j] - max)) - sum_j labels[b,j] * (x[b,j] - max) (dense labels;
//     a sparse label l is the one-hot row e_l), backprop[b,j] = softmax(x)[b,j] - labels[b,j].
// Dense logits and labels broadcast to a matrix (numpy rules). half is computed in float.
// Errors are InvalidArgument with TensorFlow's texts: "logits and labels must be broadcastable:
// logits_size=[2,3] labels_size=[3,3]", "logits and labels must be either 2-dimensional, or
// broadcasted to be 2-dimensional", "logits must be 2-D, but got shape [3]", "labels must be
// 1-D, but got shape [2,1]", "logits and labels must have the same first dimension, got logits
// shape [2,3] and labels shape [3]", "Must have at least one class, but got logits shape [2,0]",
// "Received a label value of 5 which is outside the valid range of [0, 3).  Label values: 0 5".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_XENT_TYPES half, float, double

// One row: `label(j)` gives the label weight of class j. Writes loss and the backprop row.
template <typename T, typename LabelFn>
void XentRow(const T* x, int64_t n, LabelFn label, T* loss, T* backprop) {
  using cwise_internal::Load;
  using cwise_internal::Store;
  using C = decltype(Load(x[0]));
  C max = Load(x[0]);
  for (int64_t j = 1; j < n; ++j) max = std::max(max, Load(x[j]));
  C sum = 0;
  for (int64_t j = 0; j < n; ++j) sum += std::exp(Load(x[j]) - max);
  const C log_sum = std::log(sum);
  C l = 0;
  for (int64_t j = 0; j < n; ++j) {
    const C shifted = Load(x[j]) - max;
    const C y = label(j);
    l += y * (log_sum - shifted);
    backprop[j] = Store<T>(std::exp(shifted) / sum - y);
  }
  *loss = Store<T>(l);
}

class SoftmaxXentOp final : public OpKernel {
 public:
  explicit SoftmaxXentOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    Tensor logits = ctx.input(0);
    Tensor labels = ctx.input(1);
    TensorShape shape = logits.shape();
    if (logits.shape() != labels.shape()) {
      absl::StatusOr<TensorShape> b = BroadcastShapes(logits.shape(), labels.shape());
      if (!b.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "logits and labels must be broadcastable: logits_size=", logits.shape().DebugString(),
            " labels_size=", labels.shape().DebugString()));
      }
      shape = *b;
    }
    if (shape.rank() != 2) {
      return absl::InvalidArgumentError(
          "logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional");
    }
    const int64_t rows = shape.dim(0), n = shape.dim(1);
    RILL_ASSIGN_OR_RETURN(Tensor * loss, ctx.allocate_output(0, TensorShape({rows})));
    RILL_ASSIGN_OR_RETURN(Tensor * backprop, ctx.allocate_output(1, shape));
    if (rows == 0) return absl::OkStatus();
    return VisitKernelTypes<RILL_XENT_TYPES>(*this, logits.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      RILL_ASSIGN_OR_RETURN(Tensor x, Broadcast<T>(ctx, logits, shape));
      RILL_ASSIGN_OR_RETURN(Tensor y, Broadcast<T>(ctx, labels, shape));
      const T* xp = x.flat<T>().data();
      const T* yp = y.flat<T>().data();
      T* lp = loss->flat<T>().data();
      T* bp = backprop->flat<T>().data();
      if (n == 0) {
        std::fill(lp, lp + rows, cwise_internal::Store<T>(0));
        return absl::OkStatus();
      }
      ctx.ParallelFor(rows, n * 30, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const T* yr = yp + r * n;
          XentRow(
              xp + r * n, n, [&](int64_t j) { return cwise_internal::Load(yr[j]); }, lp + r,
              bp + r * n);
        }
      });
      return absl::OkStatus();
    });
  }

 private:
  // `t` expanded to `shape` (itself when it already has it).
  template <typename T>
  static absl::StatusOr<Tensor> Broadcast(OpKernelContext& ctx, const Tensor& t,
                                          const TensorShape& shape) {
    if (t.shape() == shape) return t;
    RILL_ASSIGN_OR_RETURN(Tensor out, ctx.allocate_temp(t.dtype(), shape));
    const T* a = t.flat<T>().data();
    T* z = out.flat<T>().data();
    ForEachBroadcastRow(t.shape(), t.shape(), shape,
                        [&](int64_t o, int64_t oa, int64_t, int64_t inner, int64_t sa, int64_t) {
                          for (int64_t j = 0; j < inner; ++j) z[o + j] = a[oa + j * sa];
                        });
    return out;
  }
};

class SparseSoftmaxXentOp final : public OpKernel {
 public:
  explicit SparseSoftmaxXentOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& logits = ctx.input(0);
    const Tensor& labels = ctx.input(1);
    const TensorShape& ls = logits.shape();
    if (ls.rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("logits must be 2-D, but got shape ", ls.DebugString()));
    }
    if (labels.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("labels must be 1-D, but got shape ", labels.shape().DebugString()));
    }
    if (ls.dim(0) != labels.shape().dim(0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("logits and labels must have the same first dimension, got logits shape ",
                       ls.DebugString(), " and labels shape ", labels.shape().DebugString()));
    }
    if (ls.dim(1) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Must have at least one class, but got logits shape ", ls.DebugString()));
    }
    const std::vector<int64_t> label = IndexValues(labels);
    const int64_t rows = ls.dim(0), n = ls.dim(1);
    for (int64_t l : label) {
      if (l < 0 || l >= n) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Received a label value of ", l, " which is outside the valid range of [0, ", n,
            ").  Label values: ", absl::StrJoin(label, " ")));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * loss, ctx.allocate_output(0, TensorShape({rows})));
    RILL_ASSIGN_OR_RETURN(Tensor * backprop, ctx.allocate_output(1, ls));
    if (rows == 0) return absl::OkStatus();
    return VisitKernelTypes<RILL_XENT_TYPES>(*this, logits.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = decltype(cwise_internal::Load(T()));
      const T* xp = logits.flat<T>().data();
      T* lp = loss->flat<T>().data();
      T* bp = backprop->flat<T>().data();
      ctx.ParallelFor(rows, n * 30, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          XentRow(
              xp + r * n, n, [&](int64_t j) { return C(j == label[r] ? 1 : 0); }, lp + r,
              bp + r * n);
        }
      });
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("SoftmaxCrossEntropyWithLogits")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_XENT_TYPES>()),
                SoftmaxXentOp);
REGISTER_KERNEL(KernelDefBuilder("SparseSoftmaxCrossEntropyWithLogits")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_XENT_TYPES>())
                    .TypeConstraint("Tlabels", {DT_INT32, DT_INT64}),
                SparseSoftmaxXentOp);

}  // namespace
}  // namespace rill
