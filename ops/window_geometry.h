// Sliding-window geometry of the convolution and pooling ops (Conv2D, DepthwiseConv2dNative,
// Conv2DBackpropInput, MaxPool, AvgPool): the output size and the padding before the first window
// for one spatial dimension, by TensorFlow's rules:
//   VALID:    out = (in - effective_filter + stride) / stride, no padding;
//   SAME:     out = ceil(in / stride), pad_before = max(0, (out-1)*stride + effective - in) / 2;
//   EXPLICIT: the given pad_before/pad_after, then as VALID on the padded size,
// where effective_filter = (filter - 1) * dilation + 1. Used by the ops' shape functions and
// their kernels, so both agree.
//
//   RILL_ASSIGN_OR_RETURN(Window w, ComputeWindow(in_h, k_h, stride_h, dilation_h, padding));
//
// Errors (InvalidArgument, TensorFlow's texts): "Stride must be > 0, but got 0", "Dilation rate
// must be >= 1, but got 0", "Computed output size would be negative: -1 [input_size: 2,
// effective_filter_size: 3, stride: 1]". Pure functions; thread-safe.
#ifndef RILL_OPS_WINDOW_GEOMETRY_H_
#define RILL_OPS_WINDOW_GEOMETRY_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {

enum class Padding { kValid, kSame, kExplicit };

// "SAME", "EXPLICIT", anything else VALID (the op def's allowed values are checked already).
Padding PaddingFromString(absl::string_view padding);

struct Window {
  int64_t out = 0;         // output size
  int64_t pad_before = 0;  // padding before the first input element (the first window's start)
};

absl::StatusOr<Window> ComputeWindow(int64_t in, int64_t filter, int64_t stride, int64_t dilation,
                                     Padding padding, int64_t explicit_before = 0,
                                     int64_t explicit_after = 0);

// TensorFlow's shape-function check of a VALID or EXPLICIT window: the padded input must hold one
// effective window, or InvalidArgument "Negative dimension size caused by subtracting 3 from 2"
// (TensorFlow's kernels would give an empty output; its graph construction refuses). OK for SAME,
// and where the stride or dilation is invalid or the sizes overflow (the kernels report those).
absl::Status CheckWindowFits(int64_t in, int64_t filter, int64_t stride, int64_t dilation,
                             Padding padding, int64_t explicit_before = 0,
                             int64_t explicit_after = 0);

}  // namespace rill

#endif  // RILL_OPS_WINDOW_GEOMETRY_H_
