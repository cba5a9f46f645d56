#include "ops/window_geometry.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace rill {

Padding PaddingFromString(absl::string_view padding) {
  if (padding == "SAME") return Padding::kSame;
  if (padding == "EXPLICIT") return Padding::kExplicit;
  return Padding::kValid;
}

absl::StatusOr<Window> ComputeWindow(int64_t in, int64_t filter, int64_t stride, int64_t dilation,
                                     Padding padding, int64_t explicit_before,
                                     int64_t explicit_after) {
  if (stride <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("Stride must be > 0, but got ", stride));
  }
  if (dilation < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Dilation rate must be >= 1, but got ", dilation));
  }
  const int64_t effective = (filter - 1) * dilation + 1;
  Window w;
  switch (padding) {
    case Padding::kValid:
    case Padding::kExplicit: {
      const int64_t before = padding == Padding::kExplicit ? explicit_before : 0;
      const int64_t after = padding == Padding::kExplicit ? explicit_after : 0;
      w.out = (in + before + after - effective + stride) / stride;
      w.pad_before = before;
      break;
    }
    case Padding::kSame: {
      w.out = (in + stride - 1) / stride;
      const int64_t needed = std::max<int64_t>(0, (w.out - 1) * stride + effective - in);
      w.pad_before = needed / 2;
      break;
    }
  }
  if (w.out < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Computed output size would be negative: ", w.out, " [input_size: ", in,
                     ", effective_filter_size: ", effective, ", stride: ", stride, "]"));
  }
  return w;
}

absl::Status CheckWindowFits(int64_t in, int64_t filter, int64_t stride, int64_t dilation,
                             Padding padding, int64_t explicit_before, int64_t explicit_after) {
  if (padding == Padding::kSame || stride <= 0 || dilation < 1 || filter < 1) {
    return absl::OkStatus();
  }
  int64_t effective = 0, padded = in;
  if (__builtin_mul_overflow(filter - 1, dilation, &effective) ||
      __builtin_add_overflow(effective, 1, &effective)) {
    return absl::OkStatus();
  }
  if (padding == Padding::kExplicit && (__builtin_add_overflow(padded, explicit_before, &padded) ||
                                        __builtin_add_overflow(padded, explicit_after, &padded))) {
    return absl::OkStatus();
  }
  if (padded >= effective) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Negative dimension size caused by subtracting ", effective, " from ", padded));
}

}  // namespace rill
