// Reductions on the CPU over the axes given by input 1 (int32 or int64, a scalar or a vector;
// negative axes count from the end; repeated axes count once; an empty list reduces nothing):
// Sum, Mean, Prod, Max, Min, EuclideanNorm, All, Any, with keep_dims (complex64 and complex128
// for Sum, Mean, Prod and EuclideanNorm). half Sum and Mean and
// bfloat16 Prod over contiguous reduced dims combine in their own type in TensorFlow's order
// (half_sums.h); other half and bfloat16 reductions accumulate in float (bfloat16 Sum, as
// TensorFlow's does); integers wrap. Empty reductions give the identity (0, 1, lowest, highest,
// true, false); Mean of nothing is 0/0 (NaN for floats, 0 for integers and complex). Errors:
// InvalidArgument "Invalid reduction dimension (3 for input with 2 dimension(s)" (TensorFlow's
// text, including its unclosed parenthesis).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math/half_sums.h"
#include "kernels/math/reduction_loops.h"
#include "kernels/math/reduction_plan.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// Accumulator type: float for half, the type itself otherwise; Mean (kWide) accumulates
// integers narrower than 64 bits in int64, as TensorFlow's mean of [100, 100] int8 is 100.
template <typename R, typename T>
using Acc = std::conditional_t<R::kWide && cwise_math::kIsInt<T> && (sizeof(T) < 8), int64_t,
                               typename CwiseComputeType<T>::type>;

struct SumReducer {
  static constexpr bool kWide = false;
  template <typename A>
  static A Init() {
    return A(0);
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return cwise_math::WrapAdd(acc, x);
  }
  template <typename A>
  static A Finish(A acc, int64_t) {
    return acc;
  }
};
struct MeanReducer : SumReducer {
  static constexpr bool kWide = true;
  template <typename A>
  static A Finish(A acc, int64_t count) {
    if constexpr (cwise_math::kIsInt<A>) {
      return count == 0 ? A(0) : static_cast<A>(acc / static_cast<A>(count));
    } else if constexpr (cwise_math::kIsComplex<A>) {
      // TensorFlow's complex division by (count, 0): (a c + b d) / c^2 and (b c - a d) / c^2,
      // without C's recovery of infinities from NaN; the mean of nothing is 0.
      using P = typename A::value_type;
      if (count == 0) return A(0);
      const P c = static_cast<P>(count), zero = P(0), d = c * c;
      return A((acc.real() * c + acc.imag() * zero) / d, (acc.imag() * c - acc.real() * zero) / d);
    } else {
      return acc / static_cast<A>(count);
    }
  }
};
struct ProdReducer {
  static constexpr bool kWide = false;
  template <typename A>
  static A Init() {
    return A(1);
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return cwise_math::WrapMul(acc, x);
  }
  template <typename A>
  static A Finish(A acc, int64_t) {
    return acc;
  }
};
struct MaxReducer {
  static constexpr bool kWide = false;
  template <typename A>
  static A Init() {
    return std::numeric_limits<A>::has_infinity ? -std::numeric_limits<A>::infinity()
                                                : std::numeric_limits<A>::lowest();
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return cwise_math::Max(acc, x);
  }
  template <typename A>
  static A Finish(A acc, int64_t) {
    return acc;
  }
};
struct MinReducer {
  static constexpr bool kWide = false;
  template <typename A>
  static A Init() {
    return std::numeric_limits<A>::has_infinity ? std::numeric_limits<A>::infinity()
                                                : std::numeric_limits<A>::max();
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return cwise_math::Min(acc, x);
  }
  template <typename A>
  static A Finish(A acc, int64_t) {
    return acc;
  }
};
// sqrt(sum(x * x)); complex elements add x * conj(x), so the result is real (as a complex).
// Integers square and sum in T (wrapping) and truncate the root; a sum that
// wrapped negative gives what TensorFlow's conversion of the NaN root gives on x86: the lowest
// 32-bit (64-bit for int64) integer, wrapped to T (0 for int8 and int16).
struct EuclideanNormReducer {
  static constexpr bool kWide = false;
  template <typename A>
  static A Init() {
    return A(0);
  }
  template <typename A>
  static A Combine(A acc, A x) {
    if constexpr (cwise_math::kIsComplex<A>) {
      // x * conj(x) by the plain formula (as TensorFlow's), so NaN parts stay NaN.
      const auto a = x.real(), b = x.imag();
      return acc + A(a * a + b * b, b * a - a * b);
    } else {
      return cwise_math::WrapAdd(acc, cwise_math::WrapMul(x, x));
    }
  }
  template <typename A>
  static A Merge(A a, A b) {
    return cwise_math::WrapAdd(a, b);
  }
  template <typename A>
  static A Finish(A acc, int64_t) {
    if constexpr (cwise_math::kIsInt<A>) {
      if (std::is_signed_v<A> && acc < A(0)) {
        using Wide = std::conditional_t<sizeof(A) == 8, int64_t, int32_t>;
        return static_cast<A>(std::numeric_limits<Wide>::min());
      }
      return static_cast<A>(std::sqrt(static_cast<double>(acc)));
    } else {
      return std::sqrt(acc);
    }
  }
};
struct AllReducer {
  static constexpr bool kWide = false;
  template <typename A>
  static A Init() {
    return true;
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return acc && x;
  }
  template <typename A>
  static A Finish(A acc, int64_t) {
    return acc;
  }
};
struct AnyReducer {
  static constexpr bool kWide = false;
  template <typename A>
  static A Init() {
    return false;
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return acc || x;
  }
  template <typename A>
  static A Finish(A acc, int64_t) {
    return acc;
  }
};

// half Sum and Mean over [outer, k, inner] in TensorFlow's order and half rounding
// (kernels/math/half_sums.h); Mean divides the half sum by the count rounded to half, as
// TensorFlow's Mean (a Sum, then a division in T). Rows or column groups split over the threads.
template <typename R>
void HalfSumOrMean(const OpKernelContext& ctx, const Tensor& in, int64_t outer, int64_t k,
                   int64_t inner, int64_t count, Tensor* out) {
  const half* x = in.flat<half>().data();
  half* z = out->flat<half>().data();
  if (inner == 1) {
    ctx.ParallelFor(outer, k, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) z[b] = half_sums::HalfRowSum(x + b * k, b * k, k);
    });
  } else {
    half_sums::HalfColumnSums(x, outer, k, inner, z);
  }
  if (std::is_same_v<R, MeanReducer>) {
    const float divisor = static_cast<float>(half(static_cast<float>(count)));
    for (int64_t o = 0; o < outer * inner; ++o) z[o] = half(static_cast<float>(z[o]) / divisor);
  }
}

// bfloat16 Prod over [outer, k, inner], multiplying in bfloat16 in TensorFlow's order
// (kernels/math/half_sums.h). Rows split over the threads.
void Bfloat16Prod(const OpKernelContext& ctx, const Tensor& in, int64_t outer, int64_t k,
                  int64_t inner, Tensor* out) {
  const bfloat16* x = in.flat<bfloat16>().data();
  bfloat16* z = out->flat<bfloat16>().data();
  if (inner == 1) {
    ctx.ParallelFor(outer, k, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        z[b] = half_sums::RowReduce<half_sums::Mul>(x + b * k, b * k, k);
      }
    });
  } else {
    half_sums::ColumnReduce<half_sums::Mul>(x, outer, k, inner, z);
  }
}

// bfloat16 Prod over reduced dims that are not contiguous, in TensorFlow's order: collapsed dims
// [r0, k, r1] multiply in Eigen's generic order (r1 outer, r0 inner) one element at a time; any
// other pattern is transposed so the reduced dims come last (kept and reduced dims each in their
// order) and each row multiplied as RowReduce does.
void Bfloat16ProdStrided(const Tensor& in, const std::vector<reduction_loops::CollapsedDim>& dims,
                         Tensor* out) {
  const bfloat16* x = in.flat<bfloat16>().data();
  bfloat16* z = out->flat<bfloat16>().data();
  using half_sums::Combine;
  using half_sums::Mul;
  if (dims.size() == 3 && dims[0].reduced) {
    const int64_t r0 = dims[0].size, k = dims[1].size, r1 = dims[2].size;
    for (int64_t c = 0; c < k; ++c) {
      bfloat16 acc(1.0f);
      for (int64_t j1 = 0; j1 < r1; ++j1) {
        for (int64_t j0 = 0; j0 < r0; ++j0) acc = Combine<Mul>(acc, x[(j0 * k + c) * r1 + j1]);
      }
      z[c] = acc;
    }
    return;
  }
  const int n = static_cast<int>(dims.size());
  std::vector<int64_t> stride(n, 1);
  for (int d = n - 2; d >= 0; --d) stride[d] = stride[d + 1] * dims[d + 1].size;
  std::vector<int> kept, reduced;
  for (int d = 0; d < n; ++d) (dims[d].reduced ? reduced : kept).push_back(d);
  // Offsets of one output's elements, in the row-major order of the reduced dims.
  std::vector<int64_t> offsets{0};
  for (int d : reduced) {
    std::vector<int64_t> next;
    for (int64_t base : offsets) {
      for (int64_t j = 0; j < dims[d].size; ++j) next.push_back(base + j * stride[d]);
    }
    offsets = std::move(next);
  }
  const int64_t count = static_cast<int64_t>(offsets.size());
  std::vector<bfloat16> row(count);
  std::vector<int64_t> idx(kept.size(), 0);
  const int64_t n_out = out->NumElements();
  for (int64_t o = 0; o < n_out; ++o) {
    int64_t base = 0;
    for (size_t q = 0; q < kept.size(); ++q) base += idx[q] * stride[kept[q]];
    for (int64_t j = 0; j < count; ++j) row[j] = x[base + offsets[j]];
    z[o] = half_sums::RowReduce<Mul>(row.data(), o * count, count);
    for (int q = static_cast<int>(kept.size()) - 1; q >= 0; --q) {
      if (++idx[q] < dims[kept[q]].size) break;
      idx[q] = 0;
    }
  }
}

// out[o] = Finish(Combine over the input elements that map to o). Reductions whose collapsed
// shape is [outer, k, inner] (reduced dims contiguous; the common case) run reduction_loops's
// vectorized row or column loops split over the intra-op threads; the rest walk the input once in
// order with an odometer that tracks the output offset (reduced dims have output stride 0).
template <typename R, typename T>
void Reduce(const OpKernelContext& ctx, const Tensor& in, const ReductionPlan& plan, Tensor* out) {
  using A = Acc<R, T>;
  const int64_t n_out = out->NumElements();
  // Not std::vector: vector<bool> has no element references.
  std::unique_ptr<A[]> acc(new A[n_out > 0 ? n_out : 1]);
  const T* x = in.flat<T>().data();
  const int64_t n = in.NumElements();
  T* z = out->flat<T>().data();
  auto finish = [&] {
    for (int64_t o = 0; o < n_out; ++o) {
      z[o] = cwise_internal::Store<T>(R::template Finish<A>(acc[o], plan.count));
    }
  };
  if (n > 0 && n_out > 0) {
    const std::vector<reduction_loops::CollapsedDim> dims =
        reduction_loops::CollapseReduction(in.shape(), plan.reduced);
    int64_t outer = 1, k = 1, inner = 1;
    size_t d = 0;
    if (d < dims.size() && !dims[d].reduced) outer = dims[d++].size;
    if (d < dims.size() && dims[d].reduced) k = dims[d++].size;
    if (d < dims.size() && !dims[d].reduced) inner = dims[d++].size;
    if (d == dims.size() && std::is_same_v<T, half> &&
        (std::is_same_v<R, SumReducer> || std::is_same_v<R, MeanReducer>)) {
      HalfSumOrMean<R>(ctx, in, outer, k, inner, plan.count, out);
      return;
    }
    if (std::is_same_v<T, bfloat16> && std::is_same_v<R, ProdReducer>) {
      if (d == dims.size()) {
        Bfloat16Prod(ctx, in, outer, k, inner, out);
      } else {
        Bfloat16ProdStrided(in, dims, out);
      }
      return;
    }
    if (d == dims.size()) {
      A* a = acc.get();
      // The loops vectorize as the elementwise ops' cheap loops do, and cost what they cost.
      auto cost = [](int64_t elements) {
        return std::max<int64_t>(elements * cwise_internal::CostPerUnit<CwiseFunctorBase, T>() /
                                     cwise_internal::kParallelUnit<T>,
                                 1);
      };
      if (inner == 1) {
        ctx.ParallelFor(outer, cost(k), [&](int64_t begin, int64_t end) {
          cwise_internal::RunSimdFor<T>(
              [&] { reduction_loops::ReduceRows<R, A>(x, k, begin, end, a); });
        });
      } else {
        ctx.ParallelFor(inner, cost(outer * k), [&](int64_t begin, int64_t end) {
          cwise_internal::RunSimdFor<T>(
              [&] { reduction_loops::ReduceColumns<R, A>(x, outer, k, inner, begin, end, a); });
        });
      }
      finish();
      return;
    }
  }
  for (int64_t o = 0; o < n_out; ++o) acc[o] = R::template Init<A>();
  const TensorShape& shape = in.shape();
  const int rank = shape.rank();
  std::vector<int64_t> out_stride(rank, 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (!plan.reduced[d]) {
      out_stride[d] = stride;
      stride *= shape.dim(d);
    }
  }
  if (rank > 0 && n > 0) {
    std::vector<int64_t> idx(rank, 0);
    int64_t o = 0;
    const int64_t inner = shape.dim(rank - 1);
    const int64_t inner_stride = out_stride[rank - 1];
    for (int64_t i = 0; i < n; i += inner) {
      for (int64_t j = 0; j < inner; ++j) {
        A& a = acc[o + j * inner_stride];
        a = R::template Combine<A>(a, static_cast<A>(x[i + j]));
      }
      for (int d = rank - 2; d >= 0; --d) {
        ++idx[d];
        o += out_stride[d];
        if (idx[d] < shape.dim(d)) break;
        o -= out_stride[d] * idx[d];
        idx[d] = 0;
      }
    }
  } else if (rank == 0) {
    acc[0] = R::template Combine<A>(acc[0], static_cast<A>(x[0]));
  }
  finish();
}

template <typename R, typename... Ts>
class ReductionOp final : public OpKernel {
 public:
  explicit ReductionOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("keep_dims", &keep_dims_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& axes = ctx.input(1);
    if (axes.shape().rank() > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "reduction_indices must be a scalar or a vector, got ", axes.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(ReductionPlan plan, PlanReduction(in.shape(), axes, keep_dims_));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.output));
    return VisitKernelTypes<Ts...>(*this, in.dtype(), [&](auto tag) {
      Reduce<R, typename decltype(tag)::type>(ctx, in, plan, out);
      return absl::OkStatus();
    });
  }

 private:
  bool keep_dims_ = false;
};

#define RILL_REDUCE_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

std::vector<DataType> IndexTypes() { return {DT_INT32, DT_INT64}; }

#define REGISTER_REDUCTION(op, Reducer, ...)                           \
  REGISTER_KERNEL(KernelDefBuilder(op)                                 \
                      .Device(kDeviceCpu)                              \
                      .TypeConstraint("T", DataTypesOf<__VA_ARGS__>()) \
                      .TypeConstraint("Tidx", IndexTypes()),           \
                  ReductionOp<Reducer, __VA_ARGS__>)

// Sum, Prod, Max, Min and EuclideanNorm also take the wider unsigned integers (wrapping), Sum,
// Prod, Mean, Max and Min bfloat16 (Mean sums in float, divides and rounds once), and Sum, Mean,
// Prod and EuclideanNorm complex64 and complex128, as TensorFlow's CPU kernels do.
#define RILL_SUM_PROD_TYPES \
  RILL_REDUCE_TYPES, uint16_t, uint32_t, uint64_t, bfloat16, complex64, complex128
REGISTER_REDUCTION("Sum", SumReducer, RILL_SUM_PROD_TYPES);
REGISTER_REDUCTION("Mean", MeanReducer, RILL_REDUCE_TYPES, bfloat16, complex64, complex128);
REGISTER_REDUCTION("Prod", ProdReducer, RILL_SUM_PROD_TYPES);
REGISTER_REDUCTION("Max", MaxReducer, RILL_REDUCE_TYPES, uint16_t, uint32_t, uint64_t, bfloat16);
REGISTER_REDUCTION("Min", MinReducer, RILL_REDUCE_TYPES, uint16_t, uint32_t, uint64_t, bfloat16);
REGISTER_REDUCTION("EuclideanNorm", EuclideanNormReducer, RILL_REDUCE_TYPES, uint16_t, uint32_t,
                   uint64_t, complex64, complex128);
// int32 reductions on a GPU (shape arithmetic: Tensordot's Prod) run here, on the host memory
// int32 tensors live in there, as TensorFlow's int32 GPU kernels; real GPUs only.
#define REGISTER_INT32_ON_GPU(op, Reducer)                 \
  REGISTER_KERNEL(KernelDefBuilder(op)                     \
                      .Device(kDeviceGpu)                  \
                      .NeedsCuda()                         \
                      .TypeConstraint("T", {DT_INT32})     \
                      .TypeConstraint("Tidx", {DT_INT32}), \
                  ReductionOp<Reducer, int32_t>)
REGISTER_INT32_ON_GPU("Sum", SumReducer);
REGISTER_INT32_ON_GPU("Prod", ProdReducer);
REGISTER_INT32_ON_GPU("Max", MaxReducer);
REGISTER_INT32_ON_GPU("Min", MinReducer);
#undef REGISTER_INT32_ON_GPU
REGISTER_KERNEL(KernelDefBuilder("All").Device(kDeviceCpu).TypeConstraint("Tidx", IndexTypes()),
                ReductionOp<AllReducer, bool>);
REGISTER_KERNEL(KernelDefBuilder("Any").Device(kDeviceCpu).TypeConstraint("Tidx", IndexTypes()),
                ReductionOp<AnyReducer, bool>);

}  // namespace
}  // namespace rill
