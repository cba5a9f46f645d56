#include "session/atrous_fold.h"

#include <limits>

namespace rill {
namespace {

// The values of an int32 / int64 tensor of shape `dims`, or nullopt for another dtype or shape.
std::optional<std::vector<int64_t>> Values(const Tensor& t, std::initializer_list<int64_t> dims) {
  if (t.shape().rank() != static_cast<int>(dims.size())) return std::nullopt;
  int d = 0;
  for (int64_t size : dims) {
    if (t.shape().dim(d++) != size) return std::nullopt;
  }
  std::vector<int64_t> out(t.NumElements());
  if (t.dtype() == DT_INT32) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = t.flat<int32_t>()[i];
  } else if (t.dtype() == DT_INT64) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = t.flat<int64_t>()[i];
  } else {
    return std::nullopt;
  }
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  for (int64_t v : out) {
    if (v < 0 || v > kMax) return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<AtrousFold> FoldAtrous(const Tensor& block_shape, const Tensor& paddings,
                                     const Tensor& crops_block, const Tensor& crops) {
  std::optional<std::vector<int64_t>> block = Values(block_shape, {2});
  std::optional<std::vector<int64_t>> block2 = Values(crops_block, {2});
  std::optional<std::vector<int64_t>> pads = Values(paddings, {2, 2});
  std::optional<std::vector<int64_t>> cuts = Values(crops, {2, 2});
  if (!block || !block2 || !pads || !cuts || *block != *block2) return std::nullopt;
  if ((*block)[0] < 1 || (*block)[1] < 1) return std::nullopt;
  AtrousFold f;
  f.dilations = {1, (*block)[0], (*block)[1], 1};
  f.explicit_paddings = {0, 0};
  for (int i = 0; i < 4; ++i) {
    if ((*cuts)[i] > (*pads)[i]) return std::nullopt;
    f.explicit_paddings.push_back((*pads)[i] - (*cuts)[i]);
  }
  f.explicit_paddings.insert(f.explicit_paddings.end(), {0, 0});
  f.block = *block;
  f.paddings = *pads;
  f.crops = *cuts;
  return f;
}

}  // namespace rill
