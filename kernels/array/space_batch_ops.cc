// SpaceToBatchND, BatchToSpaceND, SpaceToBatch and BatchToSpace on the CPU.
//
// SpaceToBatchND: input [B, S1..SM, R...], block_shape [M], paddings [M, 2]. The block dims are
// zero-padded to P_k = pad_start_k + S_k + pad_end_k (each divisible by block_k) and split into
// blocks: output [B * prod(block), P1/b1, ..., PM/bM, R...] with
//   out[(o * B) + n, i1..iM, r] = padded[n, i1*b1 + o1, ..., iM*bM + oM, r]
// where o = (o1..oM) is the offset inside a block, numbered row-major (oM fastest).
// BatchToSpaceND is its inverse followed by cropping: input [B, S1..SM, R...], output
// [B / prod(block), S1*b1 - crops_1, ..., R...].
// SpaceToBatch / BatchToSpace are the 4-D forms with block_shape [block_size, block_size].
//
// Elements move by size: each output row of the trailing dims R is one copy (or zeros where
// the window falls into the padding). Output batches are split over the intra-op threads.
//
// Errors (TensorFlow's texts): InvalidArgument "input rank should be >= 3 instead of 2",
// "All values in block_shape must be positive, got value, 0 at index 0.", "Paddings must be
// non-negative", "padded_shape[0]=4 is not divisible by block_shape[0]=3", "Product of block
// sizes must be positive, got 0", "Crops must be non-negative", "Input batch dimension (8) is
// not divisible by product of block sizes (6)", "cropped_shape[0]=-1 must be non-negative",
// (4-D forms) "Input rank should be: 4instead of: 3"; shapes TensorFlow's shape function
// rejects: "block_shape must be 1-D: [2,1]", "paddings should have shape [2, 2] instead of
// [3,2]" ("crops ..."), and sizes that overflow int64.
//
// Thread safety: Compute is const and keeps no state; concurrent steps are safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"

namespace rill {
namespace {

// A space <-> batch rearrangement: the space side [batch_space, space dims..., inner] and the
// batch side [batch_space * prod(block), batch dims..., inner], with the space position of
// batch-side index i_k at block offset o_k being i_k * block_k + o_k - before_k.
struct BlockGeometry {
  int64_t space_batch = 0;
  std::vector<int64_t> space_dims, batch_dims, block, before;
  int64_t inner = 1;  // elements of the trailing dims R
  int64_t blocks = 1;
};

// Copies between the space-side buffer and the batch-side buffer; to_batch: space -> batch
// (positions outside the space side are zeroed), else batch -> space (positions outside the
// space side are skipped).
template <typename T>
void Rearrange(OpKernelContext& ctx, const BlockGeometry& g, bool to_batch, T* space, T* batch) {
  const int m = static_cast<int>(g.block.size());
  std::vector<int64_t> space_strides(m), batch_rows(m + 1, 1);
  int64_t space_rows = 1, batch_positions = 1;
  for (int k = m - 1; k >= 0; --k) {
    space_strides[k] = space_rows;
    space_rows *= g.space_dims[k];
    batch_positions *= g.batch_dims[k];
  }
  const int64_t batch_count = g.space_batch * g.blocks;
  ctx.ParallelFor(batch_count, batch_positions * g.inner, [&](int64_t b0, int64_t b1) {
    std::vector<int64_t> offset(m), index(m);
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t n = b % g.space_batch;
      int64_t o = b / g.space_batch;
      for (int k = m - 1; k >= 0; --k) {
        offset[k] = o % g.block[k];
        o /= g.block[k];
      }
      std::fill(index.begin(), index.end(), 0);
      T* batch_row = batch + b * batch_positions * g.inner;
      T* space_base = space + n * space_rows * g.inner;
      for (int64_t p = 0; p < batch_positions; ++p, batch_row += g.inner) {
        int64_t row = 0;
        bool inside = true;
        for (int k = 0; k < m; ++k) {
          const int64_t s = index[k] * g.block[k] + offset[k] - g.before[k];
          if (s < 0 || s >= g.space_dims[k]) {
            inside = false;
            break;
          }
          row += s * space_strides[k];
        }
        if (inside) {
          T* space_row = space_base + row * g.inner;
          if (to_batch) {
            std::copy_n(space_row, g.inner, batch_row);
          } else {
            std::copy_n(batch_row, g.inner, space_row);
          }
        } else if (to_batch) {
          std::fill_n(batch_row, g.inner, T{});
        }
        for (int k = m - 1; k >= 0; --k) {  // odometer over the batch-side block dims
          if (++index[k] < g.batch_dims[k]) break;
          index[k] = 0;
        }
      }
    }
  });
}

// The block sizes and the [M, 2] amounts (paddings or crops) after checking their shapes
// against the input.
absl::Status ReadBlockInputs(const Tensor& input, const Tensor& block_shape, const Tensor& amounts,
                             const char* amounts_name, std::vector<int64_t>* block,
                             std::vector<int64_t>* pairs) {
  if (block_shape.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("block_shape must be 1-D: ", block_shape.shape().DebugString()));
  }
  const int64_t m = block_shape.NumElements();
  if (input.shape().rank() < 1 + m) {
    return absl::InvalidArgumentError(
        absl::StrCat("input rank should be >= ", 1 + m, " instead of ", input.shape().rank()));
  }
  const TensorShape& as = amounts.shape();
  if (as.rank() != 2 || as.dim(0) != m || as.dim(1) != 2) {
    return absl::InvalidArgumentError(absl::StrCat(amounts_name, " should have shape [", m,
                                                   ", 2] instead of ", as.DebugString()));
  }
  *block = IndexValues(block_shape);
  *pairs = IndexValues(amounts);
  return absl::OkStatus();
}

absl::Status MultiplyChecked(int64_t a, int64_t b, int64_t* out) {
  if (__builtin_mul_overflow(a, b, out)) {
    return absl::InvalidArgumentError(absl::StrCat("size ", a, " * ", b, " overflows int64"));
  }
  return absl::OkStatus();
}

absl::Status SpaceToBatch(OpKernelContext& ctx, const Tensor& input,
                          const std::vector<int64_t>& block, const std::vector<int64_t>& pads) {
  const int m = static_cast<int>(block.size());
  for (int k = 0; k < m; ++k) {
    if (block[k] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("All values in block_shape must be positive, got value, ", block[k],
                       " at index ", k, "."));
    }
  }
  for (int64_t p : pads) {
    if (p < 0) return absl::InvalidArgumentError("Paddings must be non-negative");
  }
  const TensorShape& in = input.shape();
  BlockGeometry g;
  g.space_batch = in.dim(0);
  g.block = block;
  std::vector<int64_t> out_dims = {0};
  for (int k = 0; k < m; ++k) {
    int64_t padded;
    if (__builtin_add_overflow(pads[2 * k], in.dim(k + 1), &padded) ||
        __builtin_add_overflow(padded, pads[2 * k + 1], &padded)) {
      return absl::InvalidArgumentError(absl::StrCat("padded_shape[", k, "] overflows int64"));
    }
    if (padded % block[k] != 0) {
      return absl::InvalidArgumentError(absl::StrCat("padded_shape[", k, "]=", padded,
                                                     " is not divisible by block_shape[", k,
                                                     "]=", block[k]));
    }
    g.space_dims.push_back(in.dim(k + 1));
    g.batch_dims.push_back(padded / block[k]);
    g.before.push_back(pads[2 * k]);
    out_dims.push_back(padded / block[k]);
    RILL_RETURN_IF_ERROR(MultiplyChecked(g.blocks, block[k], &g.blocks));
  }
  RILL_RETURN_IF_ERROR(MultiplyChecked(g.space_batch, g.blocks, &out_dims[0]));
  for (int d = m + 1; d < in.rank(); ++d) {
    out_dims.push_back(in.dim(d));
    g.inner *= in.dim(d);
  }
  RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
  if (m == 0) {  // nothing to move
    ctx.set_output(0, input);
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
  if (out->NumElements() == 0) return absl::OkStatus();
  return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    Rearrange<T>(ctx, g, /*to_batch=*/true, ElementsOf<T>(input), ElementsOf<T>(*out));
    return absl::OkStatus();
  });
}

absl::Status BatchToSpace(OpKernelContext& ctx, const Tensor& input,
                          const std::vector<int64_t>& block, const std::vector<int64_t>& crops) {
  const int m = static_cast<int>(block.size());
  for (int64_t c : crops) {
    if (c < 0) return absl::InvalidArgumentError("Crops must be non-negative");
  }
  int64_t product = 1;
  for (int k = 0; k < m; ++k) {
    if (__builtin_mul_overflow(product, block[k], &product)) {
      return absl::InvalidArgumentError("Product of block sizes overflows int64");
    }
  }
  if (product <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Product of block sizes must be positive, got ", product));
  }
  const TensorShape& in = input.shape();
  if (in.dim(0) % product != 0) {
    return absl::InvalidArgumentError(absl::StrCat("Input batch dimension (", in.dim(0),
                                                   ") is not divisible by product of block sizes (",
                                                   product, ")"));
  }
  BlockGeometry g;
  g.space_batch = in.dim(0) / product;
  g.blocks = product;
  g.block = block;
  std::vector<int64_t> out_dims = {g.space_batch};
  for (int k = 0; k < m; ++k) {
    int64_t full, cropped;
    if (__builtin_mul_overflow(in.dim(k + 1), block[k], &full) ||
        __builtin_sub_overflow(full, crops[2 * k], &cropped) ||
        __builtin_sub_overflow(cropped, crops[2 * k + 1], &cropped)) {
      return absl::InvalidArgumentError(absl::StrCat("cropped_shape[", k, "] overflows int64"));
    }
    if (cropped < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("cropped_shape[", k, "]=", cropped, " must be non-negative"));
    }
    g.space_dims.push_back(cropped);
    g.batch_dims.push_back(in.dim(k + 1));
    g.before.push_back(crops[2 * k]);
    out_dims.push_back(cropped);
  }
  for (int d = m + 1; d < in.rank(); ++d) {
    out_dims.push_back(in.dim(d));
    g.inner *= in.dim(d);
  }
  RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
  if (m == 0) {
    ctx.set_output(0, input);
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
  if (out->NumElements() == 0 || input.NumElements() == 0) return absl::OkStatus();
  return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    // Every output element is written: the batch side covers the cropped space exactly.
    Rearrange<T>(ctx, g, /*to_batch=*/false, ElementsOf<T>(*out), ElementsOf<T>(input));
    return absl::OkStatus();
  });
}

class SpaceToBatchNdOp final : public OpKernel {
 public:
  explicit SpaceToBatchNdOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    std::vector<int64_t> block, pads;
    RILL_RETURN_IF_ERROR(
        ReadBlockInputs(ctx.input(0), ctx.input(1), ctx.input(2), "paddings", &block, &pads));
    return SpaceToBatch(ctx, ctx.input(0), block, pads);
  }
};

class BatchToSpaceNdOp final : public OpKernel {
 public:
  explicit BatchToSpaceNdOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    std::vector<int64_t> block, crops;
    RILL_RETURN_IF_ERROR(
        ReadBlockInputs(ctx.input(0), ctx.input(1), ctx.input(2), "crops", &block, &crops));
    return BatchToSpace(ctx, ctx.input(0), block, crops);
  }
};

// SpaceToBatch / BatchToSpace: 4-D input, block_size attr (>= 2, checked by the op def).
class SpaceBatch4dOp final : public OpKernel {
 public:
  explicit SpaceBatch4dOp(OpKernelConstruction& ctx)
      : OpKernel(ctx), to_batch_(ctx.def().op() == "SpaceToBatch") {
    ctx.SetStatus(ctx.GetAttr("block_size", &block_size_));
    if (block_size_ < 2) {
      ctx.SetStatus(absl::InvalidArgumentError(absl::StrCat(
          "Value for attr 'block_size' of ", block_size_, " must be at least minimum 2")));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& amounts = ctx.input(1);
    if (input.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input rank should be: 4instead of: ", input.shape().rank()));
    }
    const TensorShape& as = amounts.shape();
    const char* name = to_batch_ ? "paddings" : "crops";
    if (as.rank() != 2 || as.dim(0) != 2 || as.dim(1) != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " should have shape [2, 2] instead of ", as.DebugString()));
    }
    const std::vector<int64_t> block = {block_size_, block_size_};
    const std::vector<int64_t> values = IndexValues(amounts);
    return to_batch_ ? SpaceToBatch(ctx, input, block, values)
                     : BatchToSpace(ctx, input, block, values);
  }

 private:
  const bool to_batch_;
  int64_t block_size_ = 2;
};

// TensorFlow's CPU kernels: the real number types.
std::vector<DataType> SpaceBatchTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64, DT_UINT8, DT_INT8, DT_INT16};
}

REGISTER_KERNEL(KernelDefBuilder("SpaceToBatchND")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", SpaceBatchTypes())
                    .HostMemory("block_shape")
                    .HostMemory("paddings"),
                SpaceToBatchNdOp);
REGISTER_KERNEL(KernelDefBuilder("BatchToSpaceND")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", SpaceBatchTypes())
                    .HostMemory("block_shape")
                    .HostMemory("crops"),
                BatchToSpaceNdOp);
REGISTER_KERNEL(KernelDefBuilder("SpaceToBatch")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", SpaceBatchTypes())
                    .HostMemory("paddings"),
                SpaceBatch4dOp);
REGISTER_KERNEL(KernelDefBuilder("BatchToSpace")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", SpaceBatchTypes())
                    .HostMemory("crops"),
                SpaceBatch4dOp);

}  // namespace
}  // namespace rill
