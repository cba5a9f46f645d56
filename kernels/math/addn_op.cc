// AddN on the CPU: the elementwise sum of N same-shaped tensors (no broadcasting), added in input
// order with Add's arithmetic (integers wrap). Inputs of different shapes are InvalidArgument with
// TensorFlow's text "Inputs to operation <node> of type AddN must have the same size and shape.
// Input 0: [2] != input 1: [3]". Cheap per element: a
// tile of the output stays in L1 while the inputs stream through it, four per pass; large sums are
// split over the intra-op threads.
#include <algorithm>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math/add_op.h"

namespace rill {
namespace {

// Elements summed per tile: the tile of the output stays in L1 while every input's matching tile
// streams through it once.
constexpr int64_t kTile = 2048;

// z[begin, end) = x[0] + x[1] + ... + x[n-1], added left to right per element (the same rounding
// as one input at a time), four inputs per pass over a tile. z may be x[0] (forwarded) only when
// no other input is x[0]'s buffer.
template <typename T>
void SumRange(T* z, const T* const* x, int n, int64_t begin, int64_t end) {
  for (int64_t t0 = begin; t0 < end; t0 += kTile) {
    const int64_t t1 = std::min(end, t0 + kTile);
    if (z != x[0]) std::copy(x[0] + t0, x[0] + t1, z + t0);
    int i = 1;
    for (; i + 3 < n; i += 4) {
      const T* __restrict a = x[i];
      const T* __restrict b = x[i + 1];
      const T* __restrict c = x[i + 2];
      const T* __restrict d = x[i + 3];
      T* __restrict out = z;
      for (int64_t j = t0; j < t1; ++j) {
        out[j] = AddValues(AddValues(AddValues(AddValues(out[j], a[j]), b[j]), c[j]), d[j]);
      }
    }
    for (; i < n; ++i) {
      const T* __restrict a = x[i];
      T* __restrict out = z;
      for (int64_t j = t0; j < t1; ++j) out[j] = AddValues(out[j], a[j]);
    }
  }
}

class AddNOp final : public OpKernel {
 public:
  explicit AddNOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = ctx.num_inputs();
    const TensorShape& shape = ctx.input(0).shape();
    const DataType dtype = ctx.input(0).dtype();
    for (int i = 1; i < n; ++i) {
      if (ctx.input(i).shape() != shape) {
        return absl::InvalidArgumentError(
            absl::StrCat("Inputs to operation ", name(), " of type ", type_string(),
                         " must have the same size and shape.  Input 0: ", shape.DebugString(),
                         " != input ", i, ": ", ctx.input(i).shape().DebugString()));
      }
    }
    // Input 0's buffer becomes the output only when no other input shares it: later passes over
    // a tile read inputs an earlier pass would have overwritten (AddN(x, x, x)).
    bool aliased = false;
    for (int i = 1; i < n; ++i) aliased |= ctx.input(i).SharesBufferWith(ctx.input(0));
    RILL_ASSIGN_OR_RETURN(Tensor * out, aliased
                                            ? ctx.allocate_output(0, shape)
                                            : ctx.forward_input_or_allocate_output({0}, 0, shape));
    return VisitDataType(dtype, [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
        return absl::InvalidArgumentError(absl::StrCat(
            "AddN node ", name(), " has no CPU implementation for ", DataTypeString(dtype)));
      } else {
        absl::InlinedVector<const T*, 16> x(n);
        for (int i = 0; i < n; ++i) x[i] = ctx.input(i).template flat<T>().data();
        T* z = out->flat<T>().data();
        ctx.ParallelFor(shape.num_elements(), /*cost_per_unit=*/n,
                        [&](int64_t begin, int64_t end) { SumRange(z, x.data(), n, begin, end); });
        return absl::OkStatus();
      }
    });
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("AddN")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_UINT8, DT_INT8, DT_INT16,
                                          DT_INT32, DT_INT64, DT_COMPLEX64, DT_COMPLEX128}),
                AddNOp);
// AccumulateNV2: AddN whose inputs may arrive at different times (TensorFlow rewrites it into
// an accumulator variable); the sum is the same.
REGISTER_KERNEL(KernelDefBuilder("AccumulateNV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_UINT8, DT_INT8, DT_INT16,
                                          DT_INT32, DT_INT64}),
                AddNOp);

}  // namespace
}  // namespace rill
