// Pad (pads with zeros: T{}, "" for strings), PadV2 (pads with the scalar
// constant_values) and MirrorPad (pads with the input mirrored at each edge:
// REFLECT leaves out the edge element, SYMMETRIC repeats it). paddings is an
// [rank, 2] matrix of (before, after) counts. Elements move by size (every
// storable dtype; strings copied as strings): Pad/PadV2 copy the input in
// contiguous blocks and fill the gaps between them, writing each output
// element once; MirrorPad maps every output index to its
// source. When nothing is padded the input's buffer is forwarded.
//
// Errors (TensorFlow's texts): InvalidArgument "paddings must be a matrix with
// 2 columns: [2]", "The first dimension of paddings must be the rank of
// inputs[1,2] [3,4]" (MirrorPad: "...inputs[1, 2], [3,4]"), "Paddings must be
// non-negative: -1 0" (MirrorPad: "paddings must be ..."), "constant_values
// must be a scalar. Found: [2]", MirrorPad "paddings must be less than the
// dimension size: 3, 0 not less than 3" (REFLECT) and "paddings must be no
// greater than the dimension size: 5, 0 greater than 4" (SYMMETRIC);
// Unimplemented "inputs rank not in [0,8]: 9" (MirrorPad: [0,5]).
//
// Thread safety: Compute is const and keeps no state; concurrent steps are
// safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

// Sets output 0 to the input under `dims` when no element is added; returns
// whether it did.
absl::StatusOr<bool> ForwardIfUnpadded(OpKernelContext& ctx, const Tensor& input,
                                       const std::vector<int64_t>& dims) {
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
  if (shape.num_elements() != input.NumElements()) return false;
  RILL_ASSIGN_OR_RETURN(Tensor out, input.Reshaped(shape));
  ctx.set_output(0, std::move(out));
  return true;
}

class PadOp final : public OpKernel {
 public:
  explicit PadOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const bool has_constant = ctx.num_inputs() == 3;
    RILL_ASSIGN_OR_RETURN(PadPlan plan, PadPlanOf(input.shape(), ctx.input(1),
                                                  has_constant ? &ctx.input(2) : nullptr));
    const std::vector<int64_t>& before = plan.before;
    const TensorShape& shape = input.shape();
    const int rank = shape.rank();
    const std::vector<int64_t> out_dims(plan.out_shape.dims().begin(), plan.out_shape.dims().end());
    RILL_ASSIGN_OR_RETURN(bool forwarded, ForwardIfUnpadded(ctx, input, out_dims));
    if (forwarded) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T value = has_constant ? ElementsOf<T>(ctx.input(2))[0] : T{};
      T* dst = ElementsOf<T>(*out);
      const int64_t total = out->NumElements();
      if (input.NumElements() == 0) {
        std::fill_n(dst, total, value);
        return absl::OkStatus();
      }
      // The input is copied in blocks: the dims from the innermost padded one
      // `p` on are contiguous in the input and in the output (the dims after
      // `p` are not padded), so a block is one input slice along p and its
      // inner dims; an odometer walks the dims before p. Blocks come in
      // increasing output order, so the padding between them is filled as
      // the walk passes it and every output element is written once (NHWC's
      // height and width pads copy whole rows of width x channels).
      int p = rank - 1;
      while (p > 0 && before[p] == 0 && out_dims[p] == shape.dim(p)) --p;
      const std::vector<int64_t> out_strides = RowMajorStrides(out_dims);
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) offset += before[d] * out_strides[d];
      int64_t block = 1;
      for (int d = std::max(p, 0); d < rank; ++d) block *= shape.dim(d);
      const int64_t blocks = input.NumElements() / block;
      const T* src = ElementsOf<T>(input);
      std::vector<int64_t> index(rank, 0);
      int64_t filled = 0;  // output elements [0, filled) are written
      for (int64_t b = 0; b < blocks; ++b) {
        std::fill(dst + filled, dst + offset, value);
        std::copy_n(src + b * block, block, dst + offset);
        filled = offset + block;
        for (int k = p - 1; k >= 0; --k) {
          offset += out_strides[k];
          if (++index[k] < shape.dim(k)) break;
          offset -= out_strides[k] * shape.dim(k);
          index[k] = 0;
        }
      }
      std::fill(dst + filled, dst + total, value);
      return absl::OkStatus();
    });
  }
};

class MirrorPadOp final : public OpKernel {
 public:
  explicit MirrorPadOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string mode;
    ctx.SetStatus(ctx.GetAttr("mode", &mode));
    if (mode == "REFLECT") {
      offset_ = 1;
    } else if (mode == "SYMMETRIC") {
      offset_ = 0;
    } else {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("mode must be either REFLECT or SYMMETRIC, got ", mode)));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    std::vector<int64_t> before, after;
    RILL_RETURN_IF_ERROR(PaddingsOf(input.shape(), ctx.input(1), 5, ", ", &before, &after));
    const TensorShape& shape = input.shape();
    const int rank = shape.rank();
    std::vector<int64_t> out_dims;
    for (int d = 0; d < rank; ++d) {
      const int64_t b = before[d], a = after[d], n = shape.dim(d);
      if (b < 0 || a < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("paddings must be non-negative: ", b, " ", a));
      }
      if (offset_ == 0 && (b > n || a > n)) {
        return absl::InvalidArgumentError(
            absl::StrCat("paddings must be no greater than the dimension size: ", b, ", ", a,
                         " greater than ", n));
      }
      if (offset_ == 1 && (b >= n || a >= n)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "paddings must be less than the dimension size: ", b, ", ", a, " not less than ", n));
      }
      out_dims.push_back(b + n + a);  // b, a <= n: no overflow
    }
    RILL_ASSIGN_OR_RETURN(bool forwarded, ForwardIfUnpadded(ctx, input, out_dims));
    if (forwarded) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    // source[d][j]: the input offset (index times stride) output index j of dim
    // d reads.
    const std::vector<int64_t> in_strides = RowMajorStrides(shape.dims());
    std::vector<std::vector<int64_t>> source(rank);
    for (int d = 0; d < rank; ++d) {
      const int64_t n = shape.dim(d);
      for (int64_t j = 0; j < out_dims[d]; ++j) {
        int64_t i = j - before[d];
        if (i < 0) i = -i - 1 + offset_;
        if (i >= n) i = 2 * n - 1 - offset_ - i;
        source[d].push_back(i * in_strides[d]);
      }
    }
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* src = ElementsOf<T>(input);
      T* dst = ElementsOf<T>(*out);
      const std::vector<int64_t>& last = source[rank - 1];
      const int64_t rows = out->NumElements() / out_dims[rank - 1];
      std::vector<int64_t> index(rank, 0);
      for (int64_t r = 0; r < rows; ++r) {
        int64_t base = 0;
        for (int k = 0; k < rank - 1; ++k) base += source[k][index[k]];
        for (int64_t s : last) *dst++ = src[base + s];
        for (int k = rank - 2; k >= 0; --k) {
          if (++index[k] < out_dims[k]) break;
          index[k] = 0;
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  int64_t offset_ = 0;  // 1 for REFLECT, 0 for SYMMETRIC
};

const std::vector<DataType> kPaddingTypes = {DT_INT32, DT_INT64};

REGISTER_KERNEL(KernelDefBuilder("Pad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tpaddings", kPaddingTypes),
                PadOp);
REGISTER_KERNEL(KernelDefBuilder("PadV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tpaddings", kPaddingTypes),
                PadOp);
REGISTER_KERNEL(KernelDefBuilder("MirrorPad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tpaddings", kPaddingTypes),
                MirrorPadOp);

}  // namespace
}  // namespace rill
