// The scans on the CPU (Cumsum and Cumprod also on complex64 and complex128): Cumsum (running
// sums), Cumprod (running products) and CumulativeLogsumexp (running log(sum(exp))), along one axis
// (input 1, a scalar; negative counts from the end), with the `exclusive` (each result leaves out
// its own element, starting from 0, 1 or -inf) and `reverse` (the scan runs from the end) attrs.
// Integers wrap; half and bfloat16 round every partial result to their type, as TensorFlow's Eigen
// scan does, so long half scans give TensorFlow's numbers. Logsumexp combines a and b as max +
// log1p(exp(min - max)), -inf being its identity (so logsumexp(inf, inf) is NaN, as in TensorFlow);
// a NaN element is read as TensorFlow's std::max / std::min read it (see LogSumExpCombiner): a scan
// that starts with NaN gives -inf there, and a NaN after a finite running result adds log(2) to it.
// Errors are InvalidArgument with TensorFlow's texts: "ScanOp: axis must be a scalar, not [2]",
// "ScanOp: Expected scan axis in the range [-3, 3), but got 3" (the axis after adding the rank to a
// negative one, as TensorFlow prints it).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_SCAN_TYPES                                                                          \
  half, bfloat16, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, \
      uint64_t, complex64, complex128

#define RILL_LOGSUMEXP_TYPES half, float, double

// The scans' combiners, in the compute type C (float for half).
struct SumCombiner {
  template <typename C>
  static C Identity() {
    return C(0);
  }
  template <typename C>
  static C Combine(C acc, C x) {
    return cwise_math::WrapAdd(acc, x);
  }
};
struct ProdCombiner {
  template <typename C>
  static C Identity() {
    return C(1);
  }
  template <typename C>
  static C Combine(C acc, C x) {
    return cwise_math::WrapMul(acc, x);
  }
};
struct LogSumExpCombiner {
  template <typename C>
  static C Identity() {
    return -std::numeric_limits<C>::infinity();
  }
  // a is the running result, b the next element. TensorFlow's reducer: hi = max(a, b) and lo =
  // min(a, b) as std::max / std::min pick (a unless the comparison holds, so a NaN b yields a
  // twice and adds log(2); a NaN a stays NaN), -inf when hi is below the lowest finite value.
  template <typename C>
  static C Combine(C a, C b) {
    const C hi = a < b ? b : a;
    const C lo = b < a ? b : a;
    if (hi < std::numeric_limits<C>::lowest()) return hi;
    return hi + std::log1p(std::exp(lo - hi));
  }
};

// Scans every (outer, inner) line of length axis_size, rounding each partial result to T.
template <typename Combiner, typename T>
void ScanLines(const T* x, int64_t outer, int64_t axis_size, int64_t inner, bool exclusive,
               bool reverse, T* z) {
  using C = typename CwiseComputeType<T>::type;
  using cwise_internal::Load;
  using cwise_internal::Store;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * axis_size * inner + i;
      T acc = Store<T>(Combiner::template Identity<C>());
      for (int64_t k = 0; k < axis_size; ++k) {
        const int64_t a = reverse ? axis_size - 1 - k : k;
        const int64_t at = base + a * inner;
        const T next = Store<T>(Combiner::template Combine<C>(Load(acc), Load(x[at])));
        z[at] = exclusive ? acc : next;
        acc = next;
      }
    }
  }
}

template <typename Combiner, typename... Ts>
class ScanOp final : public OpKernel {
 public:
  explicit ScanOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
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
    return VisitKernelTypes<Ts...>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      ScanLines<Combiner, T>(in.flat<T>().data(), outer, shape.dim(axis), inner, exclusive_,
                             reverse_, out->flat<T>().data());
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
                ScanOp<SumCombiner, RILL_SCAN_TYPES>);
REGISTER_KERNEL(KernelDefBuilder("Cumprod")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_SCAN_TYPES>())
                    .TypeConstraint("Tidx", {DT_INT32, DT_INT64}),
                ScanOp<ProdCombiner, RILL_SCAN_TYPES>);
REGISTER_KERNEL(KernelDefBuilder("CumulativeLogsumexp")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_LOGSUMEXP_TYPES>())
                    .TypeConstraint("Tidx", {DT_INT32, DT_INT64}),
                ScanOp<LogSumExpCombiner, RILL_LOGSUMEXP_TYPES>);

}  // namespace
}  // namespace rill
