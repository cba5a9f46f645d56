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
#ifndef RILL_KERNELS_LAYOUT_UTIL_H_
#define RILL_KERNELS_LAYOUT_UTIL_H_

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
      return absl::UnimplementedError("no storage type for dtype " +
                                      DataTypeString(dt));
  }
}

// The elements of `t` viewed as T. REQUIRES: T has the size of t's elements
// (VisitElementType).
template <typename T>
T* ElementsOf(const Tensor& t) {
  return static_cast<T*>(t.raw_data());
}

// Row-major strides of `dims` (in elements).
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

}  // namespace rill

#endif  // RILL_KERNELS_LAYOUT_UTIL_H_
