// The elements of an int32 or int64 index tensor (axes, shapes, dims inputs) as int64.
//
//   std::vector<int64_t> axes = IndexValues(ctx.input(1));
//
// REQUIRES: t.dtype() is DT_INT32 or DT_INT64 (the kernels' type constraints guarantee it).
// Pure; thread-safe.
#ifndef RILL_KERNELS_FRAMEWORK_INDEX_VALUES_H_
#define RILL_KERNELS_FRAMEWORK_INDEX_VALUES_H_

#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace rill {

inline std::vector<int64_t> IndexValues(const Tensor& t) {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(t.NumElements()));
  if (t.dtype() == DT_INT32) {
    for (int32_t v : t.flat<int32_t>()) out.push_back(v);
  } else {
    for (int64_t v : t.flat<int64_t>()) out.push_back(v);
  }
  return out;
}

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_INDEX_VALUES_H_
