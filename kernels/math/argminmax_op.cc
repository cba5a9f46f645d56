// ArgMax and ArgMin on the CPU: the index of the largest (smallest) element along one axis (input
// 1, a scalar; negative counts from the end), as int32 or int64 (output_type). Ties give the first
// index. NaN never wins a comparison, so it is skipped, as in TensorFlow's Eigen reducer (an
// all-NaN slice gives 0). bool compares false < true; half compares as float. Errors are
// InvalidArgument with TensorFlow's texts: "dim must be a scalar, but received tensor of shape:
// [2]", "Expected dimension in the range [-2, 2), but got 2", "Reduction axis 0 is empty in shape
// [0,3]".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_ARG_TYPES                                                                           \
  half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, \
      bool

struct Greater {
  template <typename C>
  bool operator()(C a, C b) const {
    return a > b;
  }
};
struct Less {
  template <typename C>
  bool operator()(C a, C b) const {
    return a < b;
  }
};

// For each (outer, inner) position, the index along the middle axis of the best element.
template <typename T, typename Better, typename Index>
void ArgReduce(const T* x, int64_t outer, int64_t axis_size, int64_t inner, Index* out) {
  using cwise_internal::Load;
  using C = decltype(Load(x[0]));
  const Better better;
  for (int64_t o = 0; o < outer; ++o) {
    const T* slab = x + o * axis_size * inner;
    for (int64_t i = 0; i < inner; ++i) {
      int64_t best_index = 0;
      C best = Load(slab[i]);
      bool have = best == best;  // false while only NaN has been seen
      for (int64_t a = 1; a < axis_size; ++a) {
        const C v = Load(slab[a * inner + i]);
        if (!(v == v)) continue;
        if (!have || better(v, best)) {
          best = v;
          best_index = a;
          have = true;
        }
      }
      out[o * inner + i] = static_cast<Index>(best_index);
    }
  }
}

template <typename Better>
class ArgOp final : public OpKernel {
 public:
  explicit ArgOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& dim = ctx.input(1);
    if (dim.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dim must be a scalar, but received tensor of shape: ", dim.shape().DebugString()));
    }
    const int64_t requested = IndexValues(dim)[0];
    const TensorShape& shape = in.shape();
    const int rank = shape.rank();
    const int64_t axis = requested < 0 ? requested + rank : requested;
    if (axis < 0 || axis >= rank) {
      return absl::InvalidArgumentError(absl::StrCat("Expected dimension in the range [", -rank,
                                                     ", ", rank, "), but got ", requested));
    }
    if (shape.dim(axis) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Reduction axis ", requested, " is empty in shape ", shape.DebugString()));
    }
    std::vector<int64_t> out_dims;
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < rank; ++d) {
      if (d == axis) continue;
      out_dims.push_back(shape.dim(d));
      (d < axis ? outer : inner) *= shape.dim(d);
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<RILL_ARG_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = in.flat<T>().data();
      if (out->dtype() == DT_INT32) {
        ArgReduce<T, Better>(x, outer, shape.dim(axis), inner, out->flat<int32_t>().data());
      } else {
        ArgReduce<T, Better>(x, outer, shape.dim(axis), inner, out->flat<int64_t>().data());
      }
      return absl::OkStatus();
    });
  }
};

#define REGISTER_ARG_OP(op, Better)                                         \
  REGISTER_KERNEL(KernelDefBuilder(op)                                      \
                      .Device(kDeviceCpu)                                   \
                      .TypeConstraint("T", DataTypesOf<RILL_ARG_TYPES>())   \
                      .TypeConstraint("Tidx", {DT_INT32, DT_INT64})         \
                      .TypeConstraint("output_type", {DT_INT32, DT_INT64}), \
                  ArgOp<Better>)

REGISTER_ARG_OP("ArgMax", Greater);
REGISTER_ARG_OP("ArgMin", Less);

}  // namespace
}  // namespace rill
