// Folding an atrous (dilated) convolution as TensorFlow writes it (tf.nn.atrous_conv2d,
// tf.nn.convolution with dilation_rate, a frozen Keras Conv2D(dilation_rate=...)):
//
//   y = SpaceToBatchND(x, block [b_h, b_w], paddings [[p_t, p_b], [p_l, p_r]])
//   z = Conv2D or DepthwiseConv2dNative(y, filter)   (NHWC, VALID, strides 1, dilations 1)
//   o = BatchToSpaceND(z, block, crops [[c_t, c_b], [c_l, c_r]])
//
// into one convolution of x with dilations [1, b_h, b_w, 1] and explicit paddings
// [0, 0, p_t - c_t, p_b - c_b, p_l - c_l, p_r - c_r, 0, 0], the decision the graph optimizer's
// atrous fold makes (session/graph_optimizer.h). Why the two compute the same, along height (width
// alike), with x' = x padded by p_t zeros before and p_b after (P = p_t + H + p_b rows) and
// k_h filter rows:
//   - SpaceToBatchND (P divisible by b_h) gives batch entry i (0 <= i < b_h) the rows
//     y_i[h] = x'[h * b_h + i], P / b_h of them;
//   - the VALID convolution gives Z = P / b_h - k_h + 1 rows, z_i[h] = sum_a y_i[h + a] * w[a] =
//     sum_a x'[(h * b_h + i) + a * b_h] * w[a]: at row r = h * b_h + i of x' a convolution
//     dilated by b_h;
//   - BatchToSpaceND interleaves them back, row r = h * b_h + i for r < Z * b_h, and crops c_t
//     rows before and c_b after: o[q] = sum_a x'[q + c_t + a * b_h] * w[a] for
//     q < Z * b_h - c_t - c_b = P - (k_h - 1) * b_h - c_t - c_b;
//   - the dilated convolution of x with p_t - c_t zeros before and p_b - c_b after has
//     H + p_t - c_t + p_b - c_b - (k_h - 1) * b_h rows, the same count, and row q reads
//     x[q - (p_t - c_t) + a * b_h] = x'[q + c_t + a * b_h], the same taps (zero outside x in
//     both).
// So the fold needs c_t <= p_t and c_b <= p_b (a convolution's explicit padding is not negative),
// and a finite filter (a padded zero times an infinite weight is NaN in the unfolded convolution,
// which the dilated one, skipping padded taps, would not give; the caller checks). Inputs where P
// is not divisible by b_h are SpaceToBatchND's error: the folded convolution carries the block and
// paddings (kSpaceToBatchBlockAttr, kSpaceToBatchPaddingsAttr) and refuses them with the same text
// (kernels/math_lib/conv_window.h). It also carries the crops (kBatchToSpaceCropsAttr), from which
// the kernel recreates the two errors the unfolded graph gives after SpaceToBatchND with the
// unfolded numbers: the VALID convolution's negative size where P / b_h < k_h - 1, and
// BatchToSpaceND's "cropped_shape[0]=-1 must be non-negative" where Z * b_h < c_t + c_b (the
// folded convolution's own output size would be negative in both).
//
//   std::optional<AtrousFold> f = FoldAtrous(block, paddings, crops);  // [2,2], [[2,3],[2,2]],
//   // [[0,1],[0,0]]: f->dilations {1,2,2,1}, f->explicit_paddings {0,0,2,2,2,2,0,0}
//
// Pure functions; thread-safe.
#ifndef RILL_SESSION_ATROUS_FOLD_H_
#define RILL_SESSION_ATROUS_FOLD_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.h"

namespace rill {

// The attrs the folded convolution carries so that it refuses what SpaceToBatchND refused: the
// block [b_h, b_w] and SpaceToBatchND's paddings [p_t, p_b, p_l, p_r] (int lists).
inline constexpr char kSpaceToBatchBlockAttr[] = "_rill_space_to_batch_block";
inline constexpr char kSpaceToBatchPaddingsAttr[] = "_rill_space_to_batch_paddings";
// BatchToSpaceND's crops [c_t, c_b, c_l, c_r] (int list).
inline constexpr char kBatchToSpaceCropsAttr[] = "_rill_batch_to_space_crops";

// The folded convolution's attrs.
struct AtrousFold {
  std::vector<int64_t> dilations;          // [1, b_h, b_w, 1]
  std::vector<int64_t> explicit_paddings;  // 8 values, NHWC; padding "EXPLICIT"
  std::vector<int64_t> block;              // [b_h, b_w]: kSpaceToBatchBlockAttr
  std::vector<int64_t> paddings;           // [p_t, p_b, p_l, p_r]: kSpaceToBatchPaddingsAttr
  std::vector<int64_t> crops;              // [c_t, c_b, c_l, c_r]: kBatchToSpaceCropsAttr
};

// The fold of SpaceToBatchND(x, block_shape, paddings) -> convolution -> BatchToSpaceND(.,
// block_shape, crops) when both use the same block (`block_shape` and `crops_block` equal) and
// the convolution is VALID with strides and dilations 1 (the caller checks its attrs). nullopt
// when it cannot fold: a block_shape that is not int32 / int64 [2] or has a value below 1,
// paddings or crops that are not int32 / int64 [2, 2], a negative padding or crop (the ops' own
// errors), a crop larger than the padding on its side, or a value past int32's range (the
// convolution's attrs are int32 in TensorFlow).
std::optional<AtrousFold> FoldAtrous(const Tensor& block_shape, const Tensor& paddings,
                                     const Tensor& crops_block, const Tensor& crops);

}  // namespace rill

#endif  // RILL_SESSION_ATROUS_FOLD_H_
