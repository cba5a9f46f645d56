// Folding a zero Pad into the convolution that reads it, the decision the graph optimizer's pad
// fold makes (session/graph_optimizer.h): Pad(x, paddings) read by Conv2D or
// DepthwiseConv2dNative (NHWC, padding VALID or EXPLICIT) computes what the convolution computes
// on x with the Pad's height and width amounts added to its explicit padding, as TensorFlow's and
// ONNX Runtime's optimizers fold it. A padded tap adds 0 * w to its window's sum, which leaves the
// sum unchanged when w is finite (the optimizer folds only under finite constant filters: 0 * inf
// is NaN). The convolution then reads x in place instead of a padded copy of it.
//
//   std::optional<std::vector<int64_t>> pads =
//       FoldedExplicitPaddings(paddings, "VALID", {});  // paddings [[0,0],[0,1],[0,1],[0,0]]
//   // pads == {0, 0, 0, 1, 0, 1, 0, 0}: set padding "EXPLICIT", explicit_paddings *pads
//
// Pure functions; thread-safe.
#ifndef RILL_SESSION_PAD_FOLD_H_
#define RILL_SESSION_PAD_FOLD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "core/tensor.h"

namespace rill {

// The explicit_paddings (8 values: before and after for batch, height, width and channels, NHWC)
// of a convolution whose `padding` is "VALID" or "EXPLICIT" (with `explicit_paddings`, 8 values)
// after the Pad by `paddings` (an int32 or int64 [4, 2] tensor) before it is folded into it.
// nullopt when it cannot fold: paddings of another shape or dtype, a nonzero amount on the batch
// or channel dim (the convolution pads height and width only), a negative amount (Pad would crop
// there), SAME padding (its amounts depend on the padded size), explicit_paddings that the
// convolution itself would refuse (not 8 values, negative, or on the batch or channel dims), or an
// amount past int32's range.
std::optional<std::vector<int64_t>> FoldedExplicitPaddings(
    const Tensor& paddings, const std::string& padding,
    absl::Span<const int64_t> explicit_paddings);

// Whether a Pad of op `op` fills with zeros: "Pad" always; "PadV2" when `constant_values` is a
// float scalar equal to 0 (either sign). Never "MirrorPad" (it copies the input's edges).
bool PadsWithZeros(const std::string& op, const std::optional<Tensor>& constant_values);

}  // namespace rill

#endif  // RILL_SESSION_PAD_FOLD_H_
