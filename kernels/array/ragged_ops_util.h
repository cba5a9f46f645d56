// Row splits of the ragged kernels (RaggedRange, RaggedGather, RaggedTensorToSparse): read as
// int64 whatever their Tsplits, written back in the output's Tsplits. Pure; thread-safe.
#ifndef RILL_KERNELS_ARRAY_RAGGED_OPS_UTIL_H_
#define RILL_KERNELS_ARRAY_RAGGED_OPS_UTIL_H_

#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace rill {
namespace ragged {

inline std::vector<int64_t> Splits(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.NumElements()));
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    out[i] = t.dtype() == DT_INT32 ? t.flat<int32_t>()[i] : t.flat<int64_t>()[i];
  }
  return out;
}

// REQUIRES: out is an int32 or int64 vector of splits.size() elements, every value fits.
inline void WriteSplits(const std::vector<int64_t>& splits, Tensor* out) {
  for (size_t i = 0; i < splits.size(); ++i) {
    if (out->dtype() == DT_INT32) {
      out->flat<int32_t>()[i] = static_cast<int32_t>(splits[i]);
    } else {
      out->flat<int64_t>()[i] = splits[i];
    }
  }
}

}  // namespace ragged
}  // namespace rill

#endif  // RILL_KERNELS_ARRAY_RAGGED_OPS_UTIL_H_
