// SparseDenseCwiseMul / Add / Div on the CPU (a SparseTensor times, plus or over a dense tensor:
// tf.sparse.SparseTensor * Tensor, weighted sparse features). Inputs sp_indices [nnz, rank]
// int64, sp_values [nnz], sp_shape [rank] int64 and dense, which broadcasts to sp_shape (never
// the other way: its dims, aligned at the end, are each sp_shape's or 1, and it has at most
// rank dims). Output [nnz]: sp_values[i] op dense at sp_indices[i]. Only the entries present
// are computed (Add does not densify). Integers wrap; half and bfloat16 compute in float and
// round once; integer division truncates (MIN / -1 wraps to MIN, where TensorFlow's process
// dies).
//
// Errors are InvalidArgument with TensorFlow's texts, in its order: "Input sp_indices should be a
// matrix but received shape: [2]", "Inputs sp_values and sp_shape should be vectors but received
// shapes: [1,1] and [2]", "The first dimension of values and indices should match. (2 vs. 1)",
// "Number of dimensions must match second dimension of indices. Got 3 dimensions, indices shape:
// [1,2]", "The shape argument requires at least one element.", "Expected shape dimensions to be
// non-negative, got -3", "SparseDenseBinaryOpShared broadcasts dense to sparse only; got
// incompatible shapes: [2,3] vs. [1,4]", "Only tensors with ranks between 1 and 5 are currently
// supported.  Tensor rank: 6", then per entry in order "Provided indices are out-of-bounds w.r.t.
// dense side with broadcasted shape" and, for Div, "SparseDenseCwiseDiv cannot divide by
// zero,but input dense tensor contains zero " (a zero, or -0, read by an entry; zeros elsewhere
// in dense are fine).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

using cwise_internal::Load;
using cwise_internal::Store;

enum class Kind { kMul, kAdd, kDiv };

class SparseDenseCwiseOp final : public OpKernel {
 public:
  explicit SparseDenseCwiseOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const std::string& op = ctx.def().op();
    kind_ = op == "SparseDenseCwiseMul" ? Kind::kMul
                                        : (op == "SparseDenseCwiseAdd" ? Kind::kAdd : Kind::kDiv);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& values = ctx.input(1);
    const Tensor& shape_t = ctx.input(2);
    const Tensor& dense = ctx.input(3);
    if (indices.shape().rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input sp_indices should be a matrix but received shape: ",
                       indices.shape().DebugString()));
    }
    if (values.shape().rank() != 1 || shape_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Inputs sp_values and sp_shape should be vectors but received shapes: ",
                       values.shape().DebugString(), " and ", shape_t.shape().DebugString()));
    }
    const int64_t nnz = indices.shape().dim(0);
    const int64_t rank = indices.shape().dim(1);
    if (values.shape().dim(0) != nnz) {
      return absl::InvalidArgumentError(
          absl::StrCat("The first dimension of values and indices should match. (",
                       values.shape().dim(0), " vs. ", nnz, ")"));
    }
    if (shape_t.shape().dim(0) != rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Number of dimensions must match second dimension of indices. Got ",
          shape_t.shape().dim(0), " dimensions, indices shape: ", indices.shape().DebugString()));
    }
    if (shape_t.NumElements() == 0) {
      return absl::InvalidArgumentError("The shape argument requires at least one element.");
    }
    const std::vector<int64_t> lhs = IndexValues(shape_t);
    for (int64_t d : lhs) {
      if (d < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected shape dimensions to be non-negative, got ", d));
      }
    }
    RILL_RETURN_IF_ERROR(TensorShape::FromDims(lhs).status());
    const std::vector<int64_t> rhs(dense.shape().dims().begin(), dense.shape().dims().end());
    // Dense broadcasts to the sparse shape: no more dims, and each (aligned at the end) equal to
    // the sparse one or 1 (or the sparse one 1 and dense's 0).
    bool compatible = rhs.size() <= lhs.size();
    for (size_t i = 0; compatible && i < rhs.size(); ++i) {
      const int64_t l = lhs[lhs.size() - 1 - i], r = rhs[rhs.size() - 1 - i];
      compatible = l >= r && (l == r || l == 1 || r == 1);
    }
    if (!compatible) {
      return absl::InvalidArgumentError(absl::StrCat(
          "SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible shapes: [",
          absl::StrJoin(lhs, ","), "] vs. [", absl::StrJoin(rhs, ","), "]"));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({nnz})));
    if (rank > 5) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Only tensors with ranks between 1 and 5 are currently supported.  Tensor rank: ", rank));
    }
    // Per sparse dim d: the broadcast bound, and dense's stride (0 where dense repeats).
    const int64_t lead = rank - static_cast<int64_t>(rhs.size());
    std::vector<int64_t> bound(rank), stride(rank, 0);
    int64_t step = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      const int64_t r = d >= lead ? rhs[d - lead] : 1;
      bound[d] = lhs[d] == r ? r : (lhs[d] == 1 ? r : lhs[d]);
      if (d >= lead) {
        stride[d] = r == 1 ? 0 : step;
        step *= r;
      }
    }
    const std::vector<int64_t> idx = IndexValues(indices);
    return VisitKernelTypes<half, bfloat16, float, double, int8_t, int16_t, int32_t, int64_t,
                            uint8_t, uint16_t, uint32_t, uint64_t>(
        *this, values.dtype(), [&](auto tag) -> absl::Status {
          using T = typename decltype(tag)::type;
          const T* v = values.flat<T>().data();
          const T* b = dense.flat<T>().data();
          T* z = out->flat<T>().data();
          for (int64_t n = 0; n < nnz; ++n) {
            int64_t at = 0;
            for (int64_t d = 0; d < rank; ++d) {
              const int64_t i = idx[n * rank + d];
              if (i < 0 || i >= bound[d]) {
                return absl::InvalidArgumentError(
                    "Provided indices are out-of-bounds w.r.t. dense side with broadcasted "
                    "shape");
              }
              at += i * stride[d];
            }
            const auto x = Load(v[n]);
            const auto y = Load(b[at]);
            switch (kind_) {
              case Kind::kMul:
                z[n] = Store<T>(cwise_math::WrapMul(x, y));
                break;
              case Kind::kAdd:
                z[n] = Store<T>(cwise_math::WrapAdd(x, y));
                break;
              case Kind::kDiv:
                if (y == decltype(y)(0)) {
                  return absl::InvalidArgumentError(
                      "SparseDenseCwiseDiv cannot divide by zero,but input dense tensor contains "
                      "zero ");
                }
                if constexpr (cwise_math::kIsInt<T>) {
                  z[n] = cwise_math::TruncDiv(x, y);
                } else {
                  z[n] = Store<T>(x / y);
                }
                break;
            }
          }
          return absl::OkStatus();
        });
  }

 private:
  Kind kind_ = Kind::kMul;
};

#define RILL_SPARSE_DENSE_TYPES                                                                    \
  DataTypesOf<half, bfloat16, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, \
              uint32_t, uint64_t>()

REGISTER_KERNEL(KernelDefBuilder("SparseDenseCwiseMul")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", RILL_SPARSE_DENSE_TYPES),
                SparseDenseCwiseOp);
REGISTER_KERNEL(KernelDefBuilder("SparseDenseCwiseAdd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", RILL_SPARSE_DENSE_TYPES),
                SparseDenseCwiseOp);
REGISTER_KERNEL(KernelDefBuilder("SparseDenseCwiseDiv")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", RILL_SPARSE_DENSE_TYPES),
                SparseDenseCwiseOp);

#undef RILL_SPARSE_DENSE_TYPES

}  // namespace
}  // namespace rill
