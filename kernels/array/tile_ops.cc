// Tile and BroadcastTo on the CPU: both repeat the input along each dimension.
//   Tile(input, multiples): output dim d = input dim d * multiples[d].
//   BroadcastTo(input, shape): numpy broadcasting of input to `shape` (input dims of 1 repeat,
//     missing leading dims are added); the same as Tile of the rank-padded input.
// One copy routine serves both: the input block is written once per output block and then
// duplicated with contiguous copies, so the cost is one pass over the output. Errors are
// InvalidArgument with TensorFlow's texts: "Expected multiples argument to be a vector of length 2
// but got length 3", "Expected multiples[0] >= 0, but got -1", "Rank of input (3) must be no
// greater than rank of output shape (2).", "Incompatible shapes: [2] vs. [3]", "Unable to broadcast
// tensor of shape [2] to tensor of shape [1]"; an output dim past int64 is "Encountered overflow
// when multiplying dimension 0 of size 3 by multiples[0] = ..." (Rill's words), an output past
// memory the allocator's ResourceExhausted.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// The types TensorFlow 2.21's CPU kernels take: Tile every one but uint16, BroadcastTo all (the
// copy loops visit the union).
#define RILL_TILE_TYPES                                                                          \
  half, bfloat16, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, \
      uint64_t, bool, complex64, complex128, std::string

// Writes the tiling of `in` (dims in_dims) repeated `multiples` times per dim into `out`. REQUIRES:
// in_dims and multiples have the same size and no output dim is 0.
template <typename T>
class Tiler {
 public:
  Tiler(const std::vector<int64_t>& in_dims, const std::vector<int64_t>& multiples)
      : in_dims_(in_dims), multiples_(multiples) {
    const int rank = static_cast<int>(in_dims.size());
    in_stride_.assign(rank, 1);
    out_stride_.assign(rank, 1);
    for (int d = rank - 2; d >= 0; --d) {
      in_stride_[d] = in_stride_[d + 1] * in_dims[d + 1];
      out_stride_[d] = out_stride_[d + 1] * in_dims[d + 1] * multiples[d + 1];
    }
  }

  void Run(const T* in, T* out) const {
    if (in_dims_.empty()) {
      out[0] = in[0];
      return;
    }
    TileDim(0, in, out);
  }

 private:
  // Fills the output block of dim d (in_dims[d] * multiples[d] slices of out_stride[d]).
  void TileDim(int d, const T* in, T* out) const {
    const int64_t n = in_dims_[d];
    if (d + 1 == static_cast<int>(in_dims_.size())) {
      std::copy(in, in + n, out);
    } else {
      for (int64_t i = 0; i < n; ++i)
        TileDim(d + 1, in + i * in_stride_[d], out + i * out_stride_[d]);
    }
    const int64_t block = n * out_stride_[d];
    for (int64_t m = 1; m < multiples_[d]; ++m) std::copy(out, out + block, out + m * block);
  }

  std::vector<int64_t> in_dims_;
  std::vector<int64_t> multiples_;
  std::vector<int64_t> in_stride_;
  std::vector<int64_t> out_stride_;
};

// Allocates output 0 with `out_shape` and fills it with `in` (dims in_dims) tiled by multiples.
absl::Status TileInto(OpKernelContext& ctx, const OpKernel& kernel, const Tensor& in,
                      const std::vector<int64_t>& in_dims, const std::vector<int64_t>& multiples,
                      const TensorShape& out_shape) {
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
  if (out->NumElements() == 0) return absl::OkStatus();
  return VisitKernelTypes<RILL_TILE_TYPES>(kernel, in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tiler<T>(in_dims, multiples).Run(in.flat<T>().data(), out->flat<T>().data());
    return absl::OkStatus();
  });
}

class TileOp final : public OpKernel {
 public:
  explicit TileOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(TilePlan plan, TilePlanOf(in.shape(), ctx.input(1)));
    const std::vector<int64_t> in_dims(in.shape().dims().begin(), in.shape().dims().end());
    return TileInto(ctx, *this, in, in_dims, plan.multiples, plan.out_shape);
  }
  bool IsExpensive() const override { return false; }
};

class BroadcastToOp final : public OpKernel {
 public:
  explicit BroadcastToOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& shape_t = ctx.input(1);
    if (shape_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape must be a vector, got shape ", shape_t.shape().DebugString()));
    }
    const std::vector<int64_t> target = IndexValues(shape_t);
    for (size_t d = 0; d < target.size(); ++d) {
      if (target[d] < 0) {
        return absl::InvalidArgumentError(absl::StrCat("Dimension ", target[d], " must be >= 0"));
      }
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(target));
    const int rank = out_shape.rank();
    const int in_rank = in.shape().rank();
    if (in_rank > rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("Rank of input (", in_rank,
                       ") must be no greater than rank of output shape (", rank, ")."));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape broadcast, BroadcastShapes(in.shape(), out_shape));
    if (broadcast != out_shape) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unable to broadcast tensor of shape ", in.shape().DebugString(),
                       " to tensor of shape ", out_shape.DebugString()));
    }
    if (in.shape() == out_shape) {
      ctx.set_output(0, in);
      return absl::OkStatus();
    }
    std::vector<int64_t> in_dims(rank, 1);
    std::vector<int64_t> multiples(rank, 1);
    for (int d = 0; d < rank; ++d) {
      if (d >= rank - in_rank) in_dims[d] = in.shape().dim(d - (rank - in_rank));
      if (in_dims[d] != target[d]) multiples[d] = target[d];  // in_dims[d] is 1 here
    }
    return TileInto(ctx, *this, in, in_dims, multiples, out_shape);
  }
  bool IsExpensive() const override { return false; }
};

const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};

// Tile's types: RILL_TILE_TYPES less uint16.
std::vector<DataType> TileTypes() {
  std::vector<DataType> types = DataTypesOf<RILL_TILE_TYPES>();
  types.erase(std::find(types.begin(), types.end(), DT_UINT16));
  return types;
}

REGISTER_KERNEL(KernelDefBuilder("Tile")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", TileTypes())
                    .TypeConstraint("Tmultiples", kIndexTypes),
                TileOp);
REGISTER_KERNEL(KernelDefBuilder("BroadcastTo")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_TILE_TYPES>())
                    .TypeConstraint("Tidx", kIndexTypes),
                BroadcastToOp);

}  // namespace
}  // namespace rill
