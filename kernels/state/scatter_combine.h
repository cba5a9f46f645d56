// How a scatter combines a target element `a` with an update `b`, shared by the variable scatters
// (kernels/state/scatter_update.h) and ScatterNd / TensorScatter*
// (kernels/array/scatter_nd_ops.cc):
//
//   dst[i] = ScatterCombine<T>(ScatterOp::kAdd, dst[i], src[i]);
//
// Integers wrap on overflow and divide truncating (MIN / -1 wraps to MIN; the caller refuses a
// zero divisor); half and bfloat16 compute in float; kMax / kMin propagate NaN. Also ScatterNd's
// shape check (CheckScatterNdShapes). Pure.
#ifndef RILL_KERNELS_STATE_SCATTER_COMBINE_H_
#define RILL_KERNELS_STATE_SCATTER_COMBINE_H_

#include <algorithm>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "core/tensor_shape.h"
#include "core/types.h"

namespace rill {

enum class ScatterOp { kUpdate, kAdd, kSub, kMul, kDiv, kMax, kMin };

namespace scatter_internal {
template <typename T>
constexpr bool kIsComplex = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;

template <typename T>
constexpr bool kIsArithmetic = !std::is_same_v<T, bool> && !std::is_same_v<T, std::string>;
}  // namespace scatter_internal

// a (op) b, in T's compute type. bool: kUpdate gives b, every other op a || b (ScatterNd's sum
// of bools); string: b. No kMax / kMin for complex (no kernel registers them).
template <typename T>
T ScatterCombine(ScatterOp op, const T& a, const T& b) {
  if constexpr (std::is_same_v<T, bool>) {
    return op == ScatterOp::kUpdate ? b : (a || b);
  } else if constexpr (!scatter_internal::kIsArithmetic<T>) {
    return b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const U x = static_cast<U>(a), y = static_cast<U>(b);
    switch (op) {
      case ScatterOp::kAdd:
        return static_cast<T>(static_cast<U>(x + y));
      case ScatterOp::kSub:
        return static_cast<T>(static_cast<U>(x - y));
      case ScatterOp::kMul: {  // in unsigned int at least: a uint16 product would overflow int
        using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
        return static_cast<T>(static_cast<U>(static_cast<W>(x) * static_cast<W>(y)));
      }
      case ScatterOp::kDiv:  // b != 0 checked by the caller; MIN / -1 wraps to MIN
        if constexpr (std::is_signed_v<T>) {
          if (b == T(-1)) return static_cast<T>(static_cast<U>(U(0) - x));
        }
        return static_cast<T>(a / b);
      case ScatterOp::kMax:
        return std::max(a, b);
      case ScatterOp::kMin:
        return std::min(a, b);
      case ScatterOp::kUpdate:
        break;
    }
    return b;
  } else {
    using C = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;
    const C x = static_cast<C>(a), y = static_cast<C>(b);
    switch (op) {
      case ScatterOp::kAdd:
        return static_cast<T>(x + y);
      case ScatterOp::kSub:
        return static_cast<T>(x - y);
      case ScatterOp::kMul:
        return static_cast<T>(x * y);
      case ScatterOp::kDiv:
        return static_cast<T>(x / y);
      case ScatterOp::kMax:
      case ScatterOp::kMin:
        if constexpr (!scatter_internal::kIsComplex<T>) {
          if (x != x || y != y) return static_cast<T>(x + y);  // NaN propagates
          return static_cast<T>(op == ScatterOp::kMax ? std::max(x, y) : std::min(x, y));
        }
        break;
      case ScatterOp::kUpdate:
        break;
    }
    return b;
  }
}

// ScatterNd's shape rule (ScatterNd, ScatterNdAdd & co.): updates must be indices.shape[:-1] +
// target[K:], K = indices.shape[-1]. InvalidArgument with TensorFlow's texts, rank mismatches
// first: "Dimensions [0,1) of indices[shape=[2,1]] must match dimensions [0,1) of
// updates[shape=[3]]", "Dimensions [1,2) of input[shape=[3,2]] must match dimensions [1,2) of
// updates[shape=[2,3]]". REQUIRES: indices has rank 1 or more.
inline absl::Status CheckScatterNdShapes(const TensorShape& indices, const TensorShape& updates,
                                         absl::Span<const int64_t> target) {
  const int batch_dim = indices.rank() - 1;
  const int64_t k = indices.dim(batch_dim);
  const int64_t target_rank = static_cast<int64_t>(target.size());
  auto outer_error = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("Dimensions [0,", batch_dim, ") of indices[shape=", indices.DebugString(),
                     "] must match dimensions [0,", batch_dim,
                     ") of updates[shape=", updates.DebugString(), "]"));
  };
  auto inner_error = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("Dimensions [", k, ",", target_rank, ") of input[shape=[",
                     absl::StrJoin(target, ","), "]] must match dimensions [", batch_dim, ",",
                     updates.rank(), ") of updates[shape=", updates.DebugString(), "]"));
  };
  if (updates.rank() < batch_dim) return outer_error();
  if (k > target_rank || updates.rank() - batch_dim != target_rank - k) return inner_error();
  for (int d = 0; d < batch_dim; ++d) {
    if (updates.dim(d) != indices.dim(d)) return outer_error();
  }
  for (int64_t d = 0; d < target_rank - k; ++d) {
    if (updates.dim(static_cast<int>(batch_dim + d)) != target[k + d]) return inner_error();
  }
  return absl::OkStatus();
}

}  // namespace rill

#endif  // RILL_KERNELS_STATE_SCATTER_COMBINE_H_
