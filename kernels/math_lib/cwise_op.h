// Elementwise kernels: one kernel template for every binary op (numpy broadcasting) and one for
// every unary op. An op is a functor plus a registration line:
//
//   struct SubFunctor : CwiseFunctorBase {
//     template <typename T> T operator()(T x, T y) const { return WrappingSub(x, y); }
//   };
//   REGISTER_KERNEL(KernelDefBuilder("Sub").Device(kDeviceCpu).TypeConstraint("T", {...}),
//                   BinaryOp<SubFunctor, float, double, int32_t>);
//
// Functors see the *compute type*: half and bfloat16 are computed in float and rounded once when
// stored, as TensorFlow's CPU kernels do. A functor may return bool (comparisons). Hooks from
// CwiseFunctorBase that a functor may replace:
//   absl::Status Init(OpKernelConstruction&)   reads attrs (LeakyRelu's alpha);
//   template <typename T> absl::Status Check(const OpKernelContext&) const
//                                              rejects inputs before computing (integer division
//                                              by zero: InvalidArgument "Integer division by
//                                              zero").
// Loops are plain contiguous loops over raw pointers that the compiler vectorizes (kernel_library
// compiles kernels with the dynamic vectorizer cost model, as -O3 does), run through RunSimd
// (simd_dispatch.h) so they run at the CPU's widest vector width; large ones are split over the
// intra-op threads (OpKernelContext::ParallelFor).
//
// Kernels are immutable after construction; Compute is thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_CWISE_OP_H_
#define RILL_KERNELS_MATH_LIB_CWISE_OP_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/tensor.h"
#include "core/types.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/half_convert.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {

// The type a functor computes in for storage type T.
template <typename T>
struct CwiseComputeType {
  using type = T;
};
template <>
struct CwiseComputeType<half> {
  using type = float;
};
template <>
struct CwiseComputeType<bfloat16> {
  using type = float;
};

struct CwiseFunctorBase {
  // Cycles per element of scalar code, for ParallelFor block sizing: 1 for arithmetic the loops
  // vectorize (then charged as cwise_internal::kCheapVectorCost), more for a functor that calls
  // a library function per element (std::log, std::sin: charged per element).
  static constexpr int64_t kCost = 1;
  // Cycles per 64 elements of the float loop, for functors whose float loop vectorizes although
  // kCost is above 1 (vector_math.h's exp, sigmoid, tanh, erf); 0 when kCost says it all. See
  // cwise_internal::CostPerUnit.
  static constexpr int64_t kVectorCost = 0;
  absl::Status Init(OpKernelConstruction&) { return absl::OkStatus(); }
  template <typename T>
  absl::Status Check(const OpKernelContext&) const {
    return absl::OkStatus();
  }
  // Equal/NotEqual with incompatible_shape_error=false: the scalar answer for operands whose
  // shapes do not broadcast (instead of the "Incompatible shapes" error). -1 = no such answer.
  int IncompatibleShapesResult() const { return -1; }
  // Gradient ops take operands of one shape (ReluGrad...), or of one element count with the
  // output shaped as input 0 (SigmoidGrad...): no broadcasting.
  static constexpr bool kSameShape = false;
  static constexpr bool kSameCount = false;
};

namespace cwise_internal {

// Converts a functor result to the output's storage type.
template <typename Out, typename R>
Out Store(R r) {
  if constexpr (std::is_same_v<Out, half> || std::is_same_v<Out, bfloat16>) {
    return Out(static_cast<float>(r));
  } else {
    return static_cast<Out>(r);
  }
}

template <typename T>
typename CwiseComputeType<T>::type Load(const T& v) {
  return static_cast<typename CwiseComputeType<T>::type>(v);
}

// Types whose loops RunSimd clones: numbers the vector units hold. The rest (bool, complex,
// strings) run the baseline loop; cloning them would only grow the binary.
template <typename T>
inline constexpr bool kSimdType = (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) ||
                                  std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

// Elements per ParallelFor unit of the elementwise loops: 64 for the types the loops vectorize
// (whole vectors at every width), one element otherwise.
template <typename T>
inline constexpr int64_t kParallelUnit = kSimdType<T> ? 64 : 1;

// Cycles per 64 elements of a vectorized loop of cheap arithmetic (add, multiply, compare,
// Relu) on 4-byte elements with the operands in L3, less in L1 and L2, more from memory (the
// measurements and their command: docs/performance.md, "Elementwise split costs").
inline constexpr int64_t kCheapVectorCost = 9;

// What a functor F's loop over one ParallelFor unit of T costs, in cycles: its measured vector
// cost (kVectorCost) for float, half and bfloat16 (computed in float); kCheapVectorCost, scaled
// by the element size, for cheap arithmetic the loops vectorize; kCost per element for the rest
// (a library call per element, and types the loops do not vectorize). A loop splits over the
// intra-op threads only when this cost times its units passes kMinOpenMpSplitCost
// (OpKernelContext), work that outlasts waking a sleeping OpenMP worker (the size each op class
// splits from: docs/performance.md, "Elementwise split costs").
template <typename F, typename T>
constexpr int64_t CostPerUnit() {
  if constexpr (!kSimdType<T>) {
    return F::kCost;
  } else if constexpr (F::kVectorCost > 0 &&
                       std::is_same_v<typename CwiseComputeType<T>::type, float>) {
    return F::kVectorCost;
  } else if constexpr (F::kCost <= 1) {
    return kCheapVectorCost * std::max<int64_t>(sizeof(T), 4) / 4;
  } else {
    return F::kCost * kParallelUnit<T>;
  }
}

// fn(begin, end) over [0, n) through ctx.ParallelFor, in blocks of whole kParallelUnit<T> units
// (the last one ends at n), costed at cost_per_unit cycles per unit (CostPerUnit).
template <typename T, typename Fn>
void ParallelForElements(const OpKernelContext& ctx, int64_t n, int64_t cost_per_unit, Fn&& fn) {
  constexpr int64_t u = kParallelUnit<T>;
  ctx.ParallelFor((n + u - 1) / u, cost_per_unit,
                  [&](int64_t begin, int64_t end) { fn(begin * u, std::min(n, end * u)); });
}

// body() through RunSimd for the types that gain from it, directly otherwise.
template <typename T, typename Body>
void RunSimdFor(const Body& body) {
  if constexpr (kSimdType<T>) {
    RunSimd(body);
  } else {
    body();
  }
}

}  // namespace cwise_internal

// Calls fn(TypeTag<T>{}) for the T among the kernel's storage types Ts whose DataType is `dtype`
// and returns its status; InvalidArgument "<Op> node <name> has no CPU kernel for <dtype>" when
// none is (the registration's type constraint normally prevents that).
template <typename... Ts, typename Fn>
absl::Status VisitKernelTypes(const OpKernel& kernel, DataType dtype, Fn&& fn) {
  absl::Status status;
  const bool found =
      ((dtype == DataTypeToEnum<Ts>::value ? (status = fn(TypeTag<Ts>{}), true) : false) || ...);
  if (found) return status;
  return absl::InvalidArgumentError(absl::StrCat(kernel.type_string(), " node ", kernel.name(),
                                                 " has no CPU kernel for ", DataTypeString(dtype)));
}

template <typename F, typename T>
using CwiseBinaryResult =
    std::conditional_t<std::is_same_v<decltype(std::declval<const F&>()(
                                          std::declval<typename CwiseComputeType<T>::type>(),
                                          std::declval<typename CwiseComputeType<T>::type>())),
                                      bool>,
                       bool, T>;

namespace cwise_internal {

// The contiguous loops. The output may be one of the inputs (forward_input_or_allocate_output
// writes in place), so the pointers are not restrict-qualified: GCC vectorizes them behind a
// runtime overlap check that lets an exact alias through (z == a still runs the vector loop).
// kStride 0 reads a scalar operand.
//
// half runs in chunks of kHalfChunk elements: the operands are widened to float buffers by F16C
// (half_convert.h), the float loop computes the chunk, and a half result is rounded back by F16C.
// Each element gets the functor's float result rounded once to half, bit for bit what the scalar
// Load / Store give (half -> float is exact; float -> half rounds to nearest even, a NaN to half's
// quiet NaN of its sign).
inline constexpr int64_t kHalfChunk = 256;

// Stores a chunk's float results: rounded to half by F16C, or converted one by one (bool).
template <typename Out, typename R>
void StoreChunk(const R* r, int64_t m, Out* z) {
  if constexpr (std::is_same_v<Out, half> && std::is_same_v<R, float>) {
    FloatToHalf(r, m, z);
  } else {
    for (int64_t j = 0; j < m; ++j) z[j] = Store<Out>(r[j]);
  }
}

template <int kStrideA, int kStrideB, typename Out, typename T, typename F>
void BinaryLoop(const F& f, const T* a, const T* b, Out* z, int64_t begin, int64_t end) {
  if constexpr (std::is_same_v<T, half>) {
    using R = decltype(f(0.0f, 0.0f));
    float xa[kStrideA == 0 ? 1 : kHalfChunk], xb[kStrideB == 0 ? 1 : kHalfChunk];
    R r[kHalfChunk];
    if constexpr (kStrideA == 0) xa[0] = static_cast<float>(a[0]);
    if constexpr (kStrideB == 0) xb[0] = static_cast<float>(b[0]);
    for (int64_t i = begin; i < end; i += kHalfChunk) {
      const int64_t m = std::min(kHalfChunk, end - i);
      if constexpr (kStrideA != 0) HalfToFloat(a + i, m, xa);
      if constexpr (kStrideB != 0) HalfToFloat(b + i, m, xb);
      for (int64_t j = 0; j < m; ++j) r[j] = f(xa[j * kStrideA], xb[j * kStrideB]);
      StoreChunk<Out>(r, m, z + i);
    }
  } else {
    for (int64_t i = begin; i < end; ++i) {
      z[i] = Store<Out>(f(Load(a[i * kStrideA]), Load(b[i * kStrideB])));
    }
  }
}

template <typename Out, typename T, typename F>
void UnaryLoop(const F& f, const T* a, Out* z, int64_t begin, int64_t end) {
  if constexpr (std::is_same_v<T, half>) {
    using R = decltype(f(0.0f));
    float x[kHalfChunk];
    R r[kHalfChunk];
    for (int64_t i = begin; i < end; i += kHalfChunk) {
      const int64_t m = std::min(kHalfChunk, end - i);
      HalfToFloat(a + i, m, x);
      for (int64_t j = 0; j < m; ++j) r[j] = f(x[j]);
      StoreChunk<Out>(r, m, z + i);
    }
  } else {
    for (int64_t i = begin; i < end; ++i) z[i] = Store<Out>(f(Load(a[i])));
  }
}

// A row operand of fewer elements than this, broadcast along every outer dim of a full operand
// (an image's per-channel mean against [N, H, W, 3]), runs tiled (ShortRowLoop): one loop per row
// of 3 would cost more than its arithmetic.
inline constexpr int64_t kShortRow = 64;

// z = f(full, row) (kRowFirst: f(row, full)) over the n elements of `full`, whose last dim is the
// `inner` elements of `row`: the row is repeated into a tile of whole rows of at least kShortRow
// elements, and each tile-long stretch of the output runs as one contiguous loop (n is a multiple
// of inner, so every stretch starts at a row's start). Split over the intra-op threads by
// stretch. REQUIRES: 0 < inner < kShortRow.
template <bool kRowFirst, typename Out, typename T, typename F>
void ShortRowLoop(const OpKernelContext& ctx, const F& f, const T* full, const T* row,
                  int64_t inner, Out* z, int64_t n) {
  T tile[2 * kShortRow];
  const int64_t len = (kShortRow + inner - 1) / inner * inner;  // < 2 * kShortRow
  for (int64_t i = 0; i < len; ++i) tile[i] = row[i % inner];
  const int64_t stretches = (n + len - 1) / len;
  const int64_t stretch_cost = std::max<int64_t>(CostPerUnit<F, T>() * len / kParallelUnit<T>, 1);
  ctx.ParallelFor(stretches, stretch_cost, [&](int64_t begin, int64_t end) {
    RunSimdFor<T>([&] {
      for (int64_t s = begin; s < end; ++s) {
        const int64_t o = s * len;
        const int64_t m = std::min(len, n - o);
        if constexpr (kRowFirst) {
          BinaryLoop<1, 1, Out>(f, tile, full + o, z + o, 0, m);
        } else {
          BinaryLoop<1, 1, Out>(f, full + o, tile, z + o, 0, m);
        }
      }
    });
  });
}

}  // namespace cwise_internal

// out = f(x, y) with numpy broadcasting; `out` is allocated with the broadcast shape.
template <typename F, typename T>
void CwiseBinary(const OpKernelContext& ctx, const F& f, const Tensor& x, const Tensor& y,
                 Tensor* out) {
  using Out = CwiseBinaryResult<F, T>;
  const T* a = x.flat<T>().data();
  const T* b = y.flat<T>().data();
  Out* z = out->flat<Out>().data();
  const int64_t n = out->NumElements();
  const int64_t cost = cwise_internal::CostPerUnit<F, T>();
  using cwise_internal::BinaryLoop;
  using cwise_internal::Load;
  using cwise_internal::RunSimdFor;
  using cwise_internal::Store;
  if (x.NumElements() == n && y.NumElements() == n) {
    cwise_internal::ParallelForElements<T>(ctx, n, cost, [&](int64_t begin, int64_t end) {
      RunSimdFor<T>([&] { BinaryLoop<1, 1, Out>(f, a, b, z, begin, end); });
    });
    return;
  }
  if (y.NumElements() == 1) {
    cwise_internal::ParallelForElements<T>(ctx, n, cost, [&](int64_t begin, int64_t end) {
      RunSimdFor<T>([&] { BinaryLoop<1, 0, Out>(f, a, b, z, begin, end); });
    });
    return;
  }
  if (x.NumElements() == 1) {
    cwise_internal::ParallelForElements<T>(ctx, n, cost, [&](int64_t begin, int64_t end) {
      RunSimdFor<T>([&] { BinaryLoop<0, 1, Out>(f, a, b, z, begin, end); });
    });
    return;
  }
  const int rank = out->shape().rank();
  const int64_t inner = rank > 0 ? out->shape().dim(rank - 1) : 0;
  if constexpr (cwise_internal::kSimdType<T>) {
    // One operand full, the other one short row along the last dim (every other dim 1).
    auto is_row = [&](const Tensor& t) {
      return t.NumElements() == inner && t.shape().rank() > 0 &&
             t.shape().dim(t.shape().rank() - 1) == inner;
    };
    if (inner > 0 && inner < cwise_internal::kShortRow) {
      if (x.NumElements() == n && is_row(y)) {
        cwise_internal::ShortRowLoop<false, Out>(ctx, f, a, b, inner, z, n);
        return;
      }
      if (y.NumElements() == n && is_row(x)) {
        cwise_internal::ShortRowLoop<true, Out>(ctx, f, b, a, inner, z, n);
        return;
      }
    }
  }
  RunSimdFor<T>([&] {
    ForEachBroadcastRow(
        x.shape(), y.shape(), out->shape(),
        [&](int64_t o, int64_t oa, int64_t ob, int64_t inner, int64_t sa, int64_t sb) {
          if (sa == 1 && sb == 1) {
            BinaryLoop<1, 1, Out>(f, a + oa, b + ob, z + o, 0, inner);
          } else if (sa == 1 && sb == 0) {
            BinaryLoop<1, 0, Out>(f, a + oa, b + ob, z + o, 0, inner);
          } else if (sa == 0 && sb == 1) {
            BinaryLoop<0, 1, Out>(f, a + oa, b + ob, z + o, 0, inner);
          } else {
            for (int64_t j = 0; j < inner; ++j) {
              z[o + j] = Store<Out>(f(Load(a[oa + j * sa]), Load(b[ob + j * sb])));
            }
          }
        });
  });
}

// A binary elementwise kernel for the storage types Ts (the registration's type list).
template <typename F, typename... Ts>
class BinaryOp final : public OpKernel {
 public:
  explicit BinaryOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(functor_.Init(ctx));
    // The typed Run for the declared input type, chosen once: looking it up on every call would
    // add a dtype dispatch to every elementwise node's run.
    if (!input_types().empty()) {
      declared_type_ = BaseType(input_type(0));
      ((declared_type_ == DataTypeToEnum<Ts>::value ? (declared_run_ = &BinaryOp::Run<Ts>, true)
                                                    : false) ||
       ...);
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& y = ctx.input(1);
    // Operands of one shape and the declared type: the common case, kept small (the rest is
    // out of line, so this frame holds no broadcast shape).
    if (x.shape() == y.shape() && x.dtype() == declared_type_ && declared_run_ != nullptr) {
      return (this->*declared_run_)(ctx, x, y, x.shape());
    }
    return ComputeGeneral(ctx, x, y);
  }
  bool IsExpensive() const override { return false; }

 private:
  using RunFn = absl::Status (BinaryOp::*)(OpKernelContext&, const Tensor&, const Tensor&,
                                           const TensorShape&) const;

  // Shapes that differ (checked, or broadcast), or a type other than the declared one.
  __attribute__((noinline)) absl::Status ComputeGeneral(OpKernelContext& ctx, const Tensor& x,
                                                        const Tensor& y) const {
    if (F::kSameShape && x.shape() != y.shape()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Inputs to operation ", name(), " of type ", type_string(),
                       " must have the same size and shape.  Input 0: ", x.shape().DebugString(),
                       " != input 1: ", y.shape().DebugString()));
    }
    if (F::kSameCount && x.NumElements() != y.NumElements()) {
      return absl::InvalidArgumentError(
          absl::StrCat("The two arguments to a cwise op must have same number of elements, got ",
                       x.NumElements(), " and ", y.NumElements()));
    }
    // The output shape: x's when the shapes agree (no copy), else the broadcast one.
    const TensorShape* shape = &x.shape();
    std::optional<TensorShape> broadcast;  // built only when the shapes differ
    if (!F::kSameCount && x.shape() != y.shape()) {
      absl::StatusOr<TensorShape> b = BroadcastShapes(x.shape(), y.shape());
      if (!b.ok()) {
        const int answer = functor_.IncompatibleShapesResult();
        if (answer < 0) return b.status();
        RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape()));
        out->flat<bool>()[0] = answer != 0;
        return absl::OkStatus();
      }
      broadcast = *std::move(b);
      shape = &*broadcast;
    }
    if (x.dtype() == declared_type_ && declared_run_ != nullptr) {
      return (this->*declared_run_)(ctx, x, y, *shape);
    }
    return VisitKernelTypes<Ts...>(*this, x.dtype(), [&](auto tag) {
      return Run<typename decltype(tag)::type>(ctx, x, y, *shape);
    });
  }

  template <typename T>
  absl::Status Run(OpKernelContext& ctx, const Tensor& x, const Tensor& y,
                   const TensorShape& shape) const {
    // Elementwise: out[k] depends on x[k] and y[k] alone, so an input nobody else holds becomes
    // the output (Check reads the inputs before anything is written).
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0, 1}, 0, shape));
    if (shape.num_elements() == 0) return absl::OkStatus();
    RILL_RETURN_IF_ERROR(functor_.template Check<T>(ctx));
    CwiseBinary<F, T>(ctx, functor_, x, y, out);
    return absl::OkStatus();
  }

  F functor_;
  DataType declared_type_ = DT_INVALID;
  RunFn declared_run_ = nullptr;  // Run<T> for declared_type_, or null if no Ts matches
};

// A unary elementwise kernel for the storage types Ts.
template <typename F, typename... Ts>
class UnaryOp final : public OpKernel {
 public:
  explicit UnaryOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(functor_.Init(ctx));
    if (!input_types().empty()) {  // the typed Run for the declared input type, chosen once
      declared_type_ = BaseType(input_type(0));
      ((declared_type_ == DataTypeToEnum<Ts>::value ? (declared_run_ = &UnaryOp::Run<Ts>, true)
                                                    : false) ||
       ...);
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    if (x.dtype() == declared_type_ && declared_run_ != nullptr) {
      return (this->*declared_run_)(ctx, x);
    }
    return VisitKernelTypes<Ts...>(
        *this, x.dtype(), [&](auto tag) { return Run<typename decltype(tag)::type>(ctx, x); });
  }
  bool IsExpensive() const override { return false; }

 private:
  template <typename T>
  absl::Status Run(OpKernelContext& ctx, const Tensor& x) const {
    using C = typename CwiseComputeType<T>::type;
    using R = decltype(std::declval<const F&>()(std::declval<C>()));
    using Out = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, x.shape()));
    const int64_t n = x.NumElements();
    if (n == 0) return absl::OkStatus();
    RILL_RETURN_IF_ERROR(functor_.template Check<T>(ctx));
    const T* a = x.flat<T>().data();
    Out* z = out->flat<Out>().data();
    const F& f = functor_;
    cwise_internal::ParallelForElements<T>(
        ctx, n, cwise_internal::CostPerUnit<F, T>(), [&](int64_t begin, int64_t end) {
          cwise_internal::RunSimdFor<T>(
              [&] { cwise_internal::UnaryLoop<Out>(f, a, z, begin, end); });
        });
    return absl::OkStatus();
  }

  using RunFn = absl::Status (UnaryOp::*)(OpKernelContext&, const Tensor&) const;
  F functor_;
  DataType declared_type_ = DT_INVALID;
  RunFn declared_run_ = nullptr;  // Run<T> for declared_type_, or null if no Ts matches
};

// The DataType enums of the storage types Ts, for a registration's TypeConstraint.
template <typename... Ts>
std::vector<DataType> DataTypesOf() {
  return {DataTypeToEnum<Ts>::value...};
}

// Registers Kernel<Functor, Ts...> for `op` on the CPU with T in Ts (the one place the type list
// is written, so the constraint and the instantiated types cannot disagree).
#define REGISTER_CWISE_CPU(op, Kernel, Functor, ...)                            \
  REGISTER_KERNEL(KernelDefBuilder(op)                                          \
                      .Device(kDeviceCpu)                                       \
                      .TypeConstraint("T", ::rill::DataTypesOf<__VA_ARGS__>()), \
                  Kernel<Functor, __VA_ARGS__>)

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_CWISE_OP_H_
