#include "ops/window_geometry.h"

#include <algorithm>
#include <limits>

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
  // In 128 bits: attrs and explicit paddings at the int64 extremes overflow int64 here.
  using Wide = __int128;
  const Wide effective = (Wide{filter} - 1) * dilation + 1;
  Wide out = 0, pad_before = 0;
  switch (padding) {
    case Padding::kValid:
    case Padding::kExplicit: {
      const Wide before = padding == Padding::kExplicit ? explicit_before : 0;
      const Wide after = padding == Padding::kExplicit ? explicit_after : 0;
      out = (Wide{in} + before + after - effective + stride) / stride;
      pad_before = before;
      break;
    }
    case Padding::kSame: {
      out = (Wide{in} + stride - 1) / stride;
      const Wide needed = std::max<Wide>(0, (out - 1) * stride + effective - in);
      pad_before = needed / 2;
      break;
    }
  }
  const Wide max = std::numeric_limits<int64_t>::max(), min = std::numeric_limits<int64_t>::min();
  if (out > max || pad_before > max || pad_before < min || effective > max) {
    return absl::InvalidArgumentError(absl::StrCat("Window of filter size ", filter, ", dilation ",
                                                   dilation, " and stride ", stride,
                                                   " over input size ", in, " overflows int64"));
  }
  Window w;
  w.out = static_cast<int64_t>(out);
  w.pad_before = static_cast<int64_t>(pad_before);
  if (w.out < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Computed output size would be negative: ", w.out, " [input_size: ", in,
        ", effective_filter_size: ", static_cast<int64_t>(effective), ", stride: ", stride, "]"));
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
