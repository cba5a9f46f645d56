#include "session/pad_fold.h"

#include <limits>

namespace rill {
namespace {

// The [4, 2] amounts of `paddings`, or nullopt for another shape or dtype.
std::optional<std::vector<int64_t>> Amounts(const Tensor& paddings) {
  if (paddings.shape().rank() != 2 || paddings.shape().dim(0) != 4 ||
      paddings.shape().dim(1) != 2) {
    return std::nullopt;
  }
  std::vector<int64_t> out(8);
  if (paddings.dtype() == DT_INT32) {
    for (int i = 0; i < 8; ++i) out[i] = paddings.flat<int32_t>()[i];
  } else if (paddings.dtype() == DT_INT64) {
    for (int i = 0; i < 8; ++i) out[i] = paddings.flat<int64_t>()[i];
  } else {
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<std::vector<int64_t>> FoldedExplicitPaddings(
    const Tensor& paddings, const std::string& padding,
    absl::Span<const int64_t> explicit_paddings) {
  std::optional<std::vector<int64_t>> pads = Amounts(paddings);
  if (!pads) return std::nullopt;
  std::vector<int64_t> conv(8, 0);
  if (padding == "EXPLICIT") {
    if (explicit_paddings.size() != 8) return std::nullopt;
    conv.assign(explicit_paddings.begin(), explicit_paddings.end());
  } else if (padding != "VALID" || !explicit_paddings.empty()) {
    return std::nullopt;
  }
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  for (int i = 0; i < 8; ++i) {
    const bool spatial = i >= 2 && i < 6;  // height and width, NHWC
    if ((*pads)[i] < 0 || conv[i] < 0) return std::nullopt;
    if (!spatial && ((*pads)[i] != 0 || conv[i] != 0)) return std::nullopt;
    if ((*pads)[i] > kMax || conv[i] > kMax - (*pads)[i]) return std::nullopt;
    (*pads)[i] += conv[i];
  }
  return pads;
}

bool PadsWithZeros(const std::string& op, const std::optional<Tensor>& constant_values) {
  if (op == "Pad") return true;
  if (op != "PadV2" || !constant_values || constant_values->dtype() != DT_FLOAT ||
      constant_values->shape().rank() != 0) {
    return false;
  }
  return constant_values->flat<float>()[0] == 0.f;
}

}  // namespace rill
