// The loops of the reduction kernels (Sum, Mean, Prod, Max, Min, EuclideanNorm, All, Any) for a
// reducer R (Init / Combine / Finish, and Merge where merging two partial results is not
// Combine; reduction_ops.cc) over accumulator type A:
//
//   CollapseReduction  merges adjacent dims of one kind (reduced or kept) and drops size-1 dims,
//                      so [8, 64, 256] reducing axis 2 is rows [512 kept, 256 reduced].
//   ReduceRows         [rows, k] -> [rows]: each row's k contiguous elements into one.
//   ReduceColumns      [outer, k, inner] -> [outer, inner]: k rows of `inner` elements added
//                      element by element (vectorizes over inner).
//
// A row is combined in kLanes interleaved partial results (element i goes to lane i % kLanes),
// merged pairwise in a fixed order at the end: the vector units add 16 lanes at once, and the
// result does not depend on the vector width or the thread count (TensorFlow's Eigen reductions
// also combine packets of lanes, so float sums round as a tree rather than left to right).
// Rows long enough are cut into fixed-size chunks combined in order, for the same reason.
//
// Pure functions over raw buffers; thread-safe.
#ifndef RILL_KERNELS_MATH_REDUCTION_LOOPS_H_
#define RILL_KERNELS_MATH_REDUCTION_LOOPS_H_

#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/tensor_shape.h"

namespace rill {
namespace reduction_loops {

struct CollapsedDim {
  int64_t size;
  bool reduced;
};

// The dims of `shape` with size-1 dims dropped and neighbours of one kind merged. An empty
// result means one element (every dim is 1).
inline std::vector<CollapsedDim> CollapseReduction(const TensorShape& shape,
                                                   const std::vector<bool>& reduced) {
  std::vector<CollapsedDim> dims;
  for (int d = 0; d < shape.rank(); ++d) {
    if (shape.dim(d) == 1) continue;
    if (!dims.empty() && dims.back().reduced == reduced[d]) {
      dims.back().size *= shape.dim(d);
    } else {
      dims.push_back({shape.dim(d), reduced[d]});
    }
  }
  return dims;
}

constexpr int kLanes = 16;

// Merges two partial results: R::Merge where the reducer has one (EuclideanNorm, whose Combine
// squares its element), R::Combine otherwise.
template <typename R, typename A, typename = void>
struct Merger {
  static A Merge(A a, A b) { return R::template Combine<A>(a, b); }
};
template <typename R, typename A>
struct Merger<R, A, std::void_t<decltype(R::template Merge<A>(A(), A()))>> {
  static A Merge(A a, A b) { return R::template Merge<A>(a, b); }
};

// Combines x[0, k) into one accumulator: kLanes interleaved lanes, merged pairwise, then the
// tail left to right.
template <typename R, typename A, typename T>
A CombineRun(const T* x, int64_t k) {
  A lanes[kLanes];
  for (int l = 0; l < kLanes; ++l) lanes[l] = R::template Init<A>();
  int64_t i = 0;
  for (; i + kLanes <= k; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      lanes[l] = R::template Combine<A>(lanes[l], static_cast<A>(x[i + l]));
    }
  }
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int l = 0; l < width; ++l) lanes[l] = Merger<R, A>::Merge(lanes[l], lanes[l + width]);
  }
  A acc = lanes[0];
  for (; i < k; ++i) acc = R::template Combine<A>(acc, static_cast<A>(x[i]));
  return acc;
}

// Elements of a row combined by one CombineRun; longer rows are cut into chunks of this size,
// combined in order.
constexpr int64_t kChunk = 1 << 15;

// acc = R's combination of row x[0, k), chunk by chunk.
template <typename R, typename A, typename T>
A CombineRow(const T* x, int64_t k) {
  if (k <= kChunk) return CombineRun<R, A>(x, k);
  A acc = CombineRun<R, A>(x, kChunk);
  for (int64_t c = kChunk; c < k; c += kChunk) {
    acc = Merger<R, A>::Merge(acc, CombineRun<R, A>(x + c, k - c < kChunk ? k - c : kChunk));
  }
  return acc;
}

// out[r] = acc of row r, for rows [row_begin, row_end) of `k` elements; Finish is applied by the
// caller.
template <typename R, typename A, typename T>
void ReduceRows(const T* x, int64_t k, int64_t row_begin, int64_t row_end, A* out) {
  for (int64_t r = row_begin; r < row_end; ++r) out[r] = CombineRow<R, A>(x + r * k, k);
}

// acc[o * inner + j] for o in [0, outer) and j in [j_begin, j_end): the combination over the k
// rows of x[o][.][j].
template <typename R, typename A, typename T>
void ReduceColumns(const T* x, int64_t outer, int64_t k, int64_t inner, int64_t j_begin,
                   int64_t j_end, A* acc) {
  for (int64_t o = 0; o < outer; ++o) {
    A* a = acc + o * inner;
    for (int64_t j = j_begin; j < j_end; ++j) a[j] = R::template Init<A>();
    const T* block = x + o * k * inner;
    for (int64_t r = 0; r < k; ++r) {
      const T* row = block + r * inner;
      for (int64_t j = j_begin; j < j_end; ++j) {
        a[j] = R::template Combine<A>(a[j], static_cast<A>(row[j]));
      }
    }
  }
}

}  // namespace reduction_loops
}  // namespace rill

#endif  // RILL_KERNELS_MATH_REDUCTION_LOOPS_H_
