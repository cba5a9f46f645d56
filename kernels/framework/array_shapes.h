// The shape checks of the layout ops (Transpose, Slice, ConcatV2/Concat, Pack, Split, SplitV,
// Unpack, Pad/PadV2/MirrorPad, Tile, ReverseV2, GatherV2, Select/SelectV2) that the CPU kernels
// (kernels/array, kernels/math) and the CUDA kernels (kernels/gpu) share: each turns the op's
// input shapes and host-memory arguments into a plan (output shape, normalized axes, offsets) or
// TensorFlow's InvalidArgument, so both devices accept and refuse the same inputs with the same
// words. The texts are listed at each CPU kernel. StridedSlice's plan is strided_slice_spec.h.
//
//   RILL_ASSIGN_OR_RETURN(TransposePlan plan, TransposePlanOf(input.shape(), ctx.input(1)));
//
// Pure; thread-safe. Index tensors are int32 or int64 (the kernels' type constraints).
#ifndef RILL_KERNELS_FRAMEWORK_ARRAY_SHAPES_H_
#define RILL_KERNELS_FRAMEWORK_ARRAY_SHAPES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor.h"
#include "core/tensor_shape.h"

namespace rill {

// Transpose: output dim k is input dim perm[k]; identity when perm is 0..rank-1.
struct TransposePlan {
  std::vector<int> perm;
  TensorShape out_shape;
  bool identity = true;
};
absl::StatusOr<TransposePlan> TransposePlanOf(const TensorShape& in, const Tensor& perm);

// Slice: input[begin_i : begin_i + size_i] per dim (a size of -1 resolved to "to the end").
struct SlicePlan {
  std::vector<int64_t> begin, size;
  TensorShape out_shape;
  bool identity = true;
};
absl::StatusOr<SlicePlan> SlicePlanOf(const TensorShape& in, const Tensor& begin,
                                      const Tensor& size);

// ConcatV2 / Concat (axis_name "axis" / "concat_dim") and Pack: the normalized axis of the output
// and its shape. For Pack the axis is the new dim.
struct ConcatPlan {
  int axis = 0;
  TensorShape out_shape;
};
absl::StatusOr<ConcatPlan> ConcatPlanOf(const std::vector<TensorShape>& values, const Tensor& axis,
                                        const char* axis_name);
absl::StatusOr<ConcatPlan> PackPlanOf(const std::vector<TensorShape>& values, int64_t axis_attr);

// Split (num_split equal pieces along split_dim), SplitV (the sizes in size_splits, one -1 for the
// rest) and Unpack (num slices of 1 along axis, dropped from the outputs).
struct SplitPlan {
  int axis = 0;
  std::vector<int64_t> sizes;
};
absl::StatusOr<SplitPlan> SplitPlanOf(const TensorShape& in, const Tensor& split_dim,
                                      int num_split);
absl::StatusOr<SplitPlan> SplitVPlanOf(const TensorShape& in, const Tensor& size_splits,
                                       const Tensor& split_dim, int num_split);
absl::StatusOr<SplitPlan> UnpackPlanOf(const TensorShape& in, int64_t axis_attr, int num);
// The shape of output i of a split: `in` with sizes[i] along the axis (dropped when drop_axis).
absl::StatusOr<TensorShape> SplitOutputShape(const TensorShape& in, const SplitPlan& plan, int i,
                                             bool drop_axis);

// The (before, after) rows of a [rank, 2] paddings matrix; MirrorPad passes its own rank limit
// and its separator in the "must be the rank of inputs" text.
absl::Status PaddingsOf(const TensorShape& in, const Tensor& paddings, int max_rank,
                        const char* rank_separator, std::vector<int64_t>* before,
                        std::vector<int64_t>* after);
// Pad / PadV2 (constant_values null for Pad): padded output shape.
struct PadPlan {
  std::vector<int64_t> before, after;
  TensorShape out_shape;
};
absl::StatusOr<PadPlan> PadPlanOf(const TensorShape& in, const Tensor& paddings,
                                  const Tensor* constant_values);

// Tile: output dim d = input dim d * multiples[d].
struct TilePlan {
  std::vector<int64_t> multiples;
  TensorShape out_shape;
};
absl::StatusOr<TilePlan> TilePlanOf(const TensorShape& in, const Tensor& multiples);

// ReverseV2: the dims `axis` reverses (negative axes count from the end).
absl::StatusOr<std::vector<bool>> ReversedDimsOf(const TensorShape& in, const Tensor& axis);

// GatherV2 / Gather / ResourceGather: out = params[b..., o..., indices[b..., i...], inner...]
// viewed as [batch, outer, n, inner] over params [batch, outer, gather_dim, inner].
struct GatherPlan {
  int axis = 0;
  int batch_dims = 0;
  TensorShape out_shape;
  int64_t batch = 1, outer = 1, gather_dim = 0, inner = 1, n = 1;
};
// GatherV2's axis input (host memory), which must hold one element.
absl::StatusOr<int64_t> GatherAxisOf(const Tensor& axis);
absl::StatusOr<GatherPlan> GatherPlanOf(const TensorShape& params, const TensorShape& indices,
                                        int64_t axis, int64_t batch_dims_attr);
// TensorFlow's SliceDebugString: the coordinates of flat element `flat` of `shape`, "[1,2]" ("" for
// a scalar shape).
std::string IndexCoordinates(const TensorShape& shape, int64_t flat);
// "indices[1,0] = 7 is not in [0, 3)": index value `value` at flat position i of `indices`.
absl::Status GatherIndexError(const TensorShape& indices, int64_t i, int64_t value,
                              int64_t gather_dim);

// Select (TF1): a scalar condition picks a whole operand, a vector condition with higher-rank
// operands picks rows, otherwise all three shapes are equal. `node` and `op` name the node in
// the shape-mismatch text.
enum class SelectMode { kScalar, kRows, kElementwise };
absl::StatusOr<SelectMode> SelectModeOf(const TensorShape& cond, const TensorShape& t,
                                        const TensorShape& e, const std::string& node,
                                        const std::string& op);
// SelectV2: the broadcast shape of condition, then and else.
absl::StatusOr<TensorShape> SelectV2ShapeOf(const TensorShape& cond, const TensorShape& t,
                                            const TensorShape& e);

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_ARRAY_SHAPES_H_
