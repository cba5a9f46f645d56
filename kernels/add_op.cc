// Add and AddV2 on the CPU with numpy broadcasting, for every dtype their OpDefs allow (Add also
// concatenates strings). Fast paths: equal element counts (same shape up to leading 1s) and a
// one-element operand; otherwise an odometer over the outer output dims with a strided inner
// loop. The same-shape path runs in parallel on the session's intra-op pool. Incompatible shapes are InvalidArgument "Incompatible shapes: [2] vs. [3]". Cheap.
#include "kernels/add_op.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/kernel_registry.h"

namespace rill {

absl::StatusOr<TensorShape> BroadcastShapes(const TensorShape& a, const TensorShape& b) {
  const int rank = std::max(a.rank(), b.rank());
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.rank() - rank + i, ib = b.rank() - rank + i;
    const int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    if (da != db && da != 1 && db != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Incompatible shapes: ", a.DebugString(), " vs. ", b.DebugString()));
    }
    dims[i] = da == 1 ? db : da;
  }
  return TensorShape::FromDims(dims);
}

namespace {

// Per output dim, the stride of an input in elements (0 where the input is broadcast).
std::vector<int64_t> BroadcastStrides(const TensorShape& in, const TensorShape& out) {
  const int rank = out.rank();
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const int i = in.rank() - rank + d;
    const int64_t dim = i >= 0 ? in.dim(i) : 1;
    strides[d] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
  return strides;
}

template <typename T>
void AddBroadcast(const OpKernelContext& ctx, const Tensor& a, const Tensor& b, Tensor* out) {
  const T* x = a.flat<T>().data();
  const T* y = b.flat<T>().data();
  T* z = out->flat<T>().data();
  const TensorShape& shape = out->shape();
  const int64_t n = shape.num_elements();
  if (a.NumElements() == n && b.NumElements() == n) {
    // Large same-shape adds are split over the intra-op pool (inline when small or no pool).
    ctx.ParallelFor(n, /*cost_per_unit=*/2, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) z[i] = AddValues(x[i], y[i]);
    });
    return;
  }
  if (b.NumElements() == 1) {
    for (int64_t i = 0; i < n; ++i) z[i] = AddValues(x[i], y[0]);
    return;
  }
  if (a.NumElements() == 1) {
    for (int64_t i = 0; i < n; ++i) z[i] = AddValues(x[0], y[i]);
    return;
  }
  const int rank = shape.rank();  // >= 1 here
  const std::vector<int64_t> sa = BroadcastStrides(a.shape(), shape);
  const std::vector<int64_t> sb = BroadcastStrides(b.shape(), shape);
  const int64_t inner = shape.dim(rank - 1);
  const int64_t ia = sa[rank - 1], ib = sb[rank - 1];
  std::vector<int64_t> idx(rank - 1, 0);
  int64_t oa = 0, ob = 0;
  for (int64_t o = 0; o < n; o += inner) {
    for (int64_t j = 0; j < inner; ++j) z[o + j] = AddValues(x[oa + j * ia], y[ob + j * ib]);
    for (int d = rank - 2; d >= 0; --d) {  // advance the odometer over the outer dims
      ++idx[d];
      oa += sa[d];
      ob += sb[d];
      if (idx[d] < shape.dim(d)) break;
      oa -= sa[d] * idx[d];
      ob -= sb[d] * idx[d];
      idx[d] = 0;
    }
  }
}

class AddOp final : public OpKernel {
 public:
  explicit AddOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor a = ctx.input(0);
    const Tensor b = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, BroadcastShapes(a.shape(), b.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (shape.num_elements() == 0) return absl::OkStatus();
    return VisitDataType(a.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool>) {
        return absl::InvalidArgumentError(
            absl::StrCat(type_string(), " node ", name(), " has no CPU implementation for bool"));
      } else {
        AddBroadcast<T>(ctx, a, b, out);
        return absl::OkStatus();
      }
    });
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("Add")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_UINT8,
                                          DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_COMPLEX64,
                                          DT_COMPLEX128, DT_STRING}),
                AddOp);
REGISTER_KERNEL(KernelDefBuilder("AddV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_UINT8,
                                          DT_UINT16, DT_UINT32, DT_UINT64, DT_INT8, DT_INT16,
                                          DT_INT32, DT_INT64, DT_COMPLEX64, DT_COMPLEX128}),
                AddOp);

}  // namespace
}  // namespace rill
