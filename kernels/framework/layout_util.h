// Helpers for kernels that only move elements (Transpose, Concat, Split, Slice,
// Pad...): one code path per element size instead of per dtype, and strings
// copied as std::string.
//
//   return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
//     using T = typename decltype(tag)::type;   // uint8_t..uint64_t, Bytes16
//     or std::string std::copy_n(ElementsOf<T>(input), n, ElementsOf<T>(*out));
//     return absl::OkStatus();
//   });
//
// T{} is each dtype's zero: all-zero bytes for numbers, bool, half, bfloat16
// and complex; the empty string for strings. Pure functions; thread-safe.
#ifndef RILL_KERNELS_FRAMEWORK_LAYOUT_UTIL_H_
#define RILL_KERNELS_FRAMEWORK_LAYOUT_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/tensor.h"
#include "core/types.h"

namespace rill {

// The storage of a 16-byte element (complex128), copied as a whole.
struct Bytes16 {
  uint64_t lo = 0, hi = 0;
};

// Calls f(TypeTag<T>{}) with a type of the same size as `dt`'s elements
// (std::string for strings). Unimplemented for dtypes without storage.
template <typename F>
absl::Status VisitElementType(DataType dt, F&& f) {
  if (BaseType(dt) == DT_STRING) return f(TypeTag<std::string>{});
  switch (DataTypeSize(dt)) {
    case 1:
      return f(TypeTag<uint8_t>{});
    case 2:
      return f(TypeTag<uint16_t>{});
    case 4:
      return f(TypeTag<uint32_t>{});
    case 8:
      return f(TypeTag<uint64_t>{});
    case 16:
      return f(TypeTag<Bytes16>{});
    default:
      return absl::UnimplementedError("no storage type for dtype " + DataTypeString(dt));
  }
}

// The elements of `t` viewed as T. REQUIRES: T has the size of t's elements
// (VisitElementType).
template <typename T>
T* ElementsOf(const Tensor& t) {
  return static_cast<T*>(t.raw_data());
}

// Row-major strides of `dims` (in elements).
// Copies `n` elements of `src`, from element `src_off`, into `dst` at `dst_off` (same dtype;
// strings as strings). REQUIRES: both ranges in bounds.
inline absl::Status CopyElements(const Tensor& src, int64_t src_off, Tensor* dst, int64_t dst_off,
                                 int64_t n) {
  if (n <= 0) return absl::OkStatus();
  return VisitElementType(src.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    std::copy_n(ElementsOf<T>(src) + src_off, n, ElementsOf<T>(*dst) + dst_off);
    return absl::OkStatus();
  });
}

// Writes each dtype's zero (T{}) into `n` elements of `dst` from element `off`.
inline absl::Status ZeroElements(Tensor* dst, int64_t off, int64_t n) {
  if (n <= 0) return absl::OkStatus();
  return VisitElementType(dst->dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    std::fill_n(ElementsOf<T>(*dst) + off, n, T{});
    return absl::OkStatus();
  });
}

inline std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims[i + 1];
  }
  return strides;
}

// The product of dims[begin, end).
inline int64_t DimProduct(absl::Span<const int64_t> dims, int begin, int end) {
  int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= dims[i];
  return n;
}

// out[j_0, ..., j_{r-1}] = in[begin_0 + j_0 * strides_0, ...] for j < out_dims,
// in row-major order. REQUIRES: every index read lies inside in_dims (callers
// validate), strides non-zero. Trailing dims read whole with stride 1 merge
// into the dim before, and a last dim of stride 1 is copied as one run.
template <typename T>
void StridedCopy(const T* in, absl::Span<const int64_t> in_dims, std::vector<int64_t> begin,
                 std::vector<int64_t> strides, std::vector<int64_t> out_dims, T* out) {
  std::vector<int64_t> dims(in_dims.begin(), in_dims.end());
  int rank = static_cast<int>(dims.size());
  if (rank == 0) {
    *out = *in;
    return;
  }
  while (rank >= 2 && strides[rank - 1] == 1 && strides[rank - 2] == 1 && begin[rank - 1] == 0 &&
         out_dims[rank - 1] == dims[rank - 1]) {
    const int64_t d = dims[rank - 1];
    dims[rank - 2] *= d;
    begin[rank - 2] *= d;
    out_dims[rank - 2] *= d;
    --rank;
  }
  dims.resize(rank);
  const std::vector<int64_t> in_strides = RowMajorStrides(dims);
  int64_t offset = 0;
  std::vector<int64_t> step(rank);
  for (int i = 0; i < rank; ++i) {
    offset += begin[i] * in_strides[i];
    step[i] = strides[i] * in_strides[i];
  }
  const int64_t run = out_dims[rank - 1];
  const int64_t run_step = step[rank - 1];
  int64_t count = 1;
  for (int i = 0; i < rank - 1; ++i) count *= out_dims[i];
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    if (run_step == 1) {
      out = std::copy_n(in + offset, run, out);
    } else {
      for (int64_t j = 0; j < run; ++j) *out++ = in[offset + j * run_step];
    }
    for (int k = rank - 2; k >= 0; --k) {
      offset += step[k];
      if (++index[k] < out_dims[k]) break;
      offset -= step[k] * out_dims[k];
      index[k] = 0;
    }
  }
}

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_LAYOUT_UTIL_H_
