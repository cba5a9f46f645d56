// DepthToSpace, SpaceToDepth (NHWC), Roll and ReverseSequence on the CPU. Elements move by size
// (VisitElementType); each kernel copies contiguous runs.
//
//   DepthToSpace: [N, H, W, C] -> [N, H*b, W*b, C/(b*b)],
//     out[n, h*b + i, w*b + j, c] = in[n, h, w, (i*b + j) * C/(b*b) + c]; SpaceToDepth inverts it.
//   Roll: out[..., (i_a + shift_a) mod dim_a, ...] = in[..., i_a, ...], the shifts of an axis
//     named more than once added; an int64 shift is taken modulo 2^32 as a signed int32, as
//     TensorFlow's kernel does.
//   ReverseSequence: along seq_dim, the first seq_lengths[b] elements of batch b (index b along
//     batch_dim) reversed, the rest copied.
//
// Errors (TensorFlow's texts): InvalidArgument DepthToSpace "Input rank should be: 4 instead of:
// 3", "Input depth dimension 8 should be divisible by: 9"; SpaceToDepth "Input rank should be 4
// instead of 3", "Image width 6 and height 4 should be divisible by block_size: 3"; Roll "input
// must be 1-D or higher", "shift must be a scalar or a 1-D vector. Found: [1,1]", "axis must be a
// scalar or a 1-D vector. Found: [1,1]", "shift and axis must have the same size", "axis 4 is out
// of range"; ReverseSequence "Invalid seq_dim -1", "Invalid batch_dim -1", "seq_lengths must be
// 1-dim, not 2", "batch_dim == seq_dim == 0", "seq_dim must be < input rank ( 3 vs. 3)",
// "batch_dim must be < input rank ( 3 vs. 3)", "Length of seq_lengths != input.dims(0), (2 vs.
// 3)", "seq_lens(1) < 0", "seq_lens(1) > input.dims(1)". DepthToSpace / SpaceToDepth with
// data_format NCHW: InvalidArgument (TensorFlow has no CPU kernel for it).
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

// The dtypes TensorFlow's CPU kernels have that the recorded cases cover.
std::vector<DataType> RearrangeTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64, DT_UINT8, DT_INT8, DT_INT16, DT_BOOL};
}

class DepthSpaceOp final : public OpKernel {
 public:
  explicit DepthSpaceOp(OpKernelConstruction& ctx)
      : OpKernel(ctx), to_space_(ctx.def().op() == "DepthToSpace") {
    ctx.SetStatus(ctx.GetAttr("block_size", &block_));
    if (block_ < 2) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("Value for attr 'block_size' of ", block_, " must be at least minimum 2")));
    }
    std::string format = "NHWC";
    if (ctx.GetAttr("data_format", &format).ok() && format != "NHWC") {
      ctx.SetStatus(absl::InvalidArgumentError(absl::StrCat(
          ctx.def().op(), " on the CPU supports only data_format NHWC, got ", format)));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const TensorShape& s = input.shape();
    const int64_t b = block_;
    if (s.rank() != 4) {
      return absl::InvalidArgumentError(
          to_space_ ? absl::StrCat("Input rank should be: 4 instead of: ", s.rank())
                    : absl::StrCat("Input rank should be 4 instead of ", s.rank()));
    }
    const int64_t n = s.dim(0), h = s.dim(1), w = s.dim(2), c = s.dim(3);
    int64_t bb, grown;
    if (__builtin_mul_overflow(b, b, &bb) || __builtin_mul_overflow(std::max(h, w), b, &grown) ||
        __builtin_mul_overflow(c, bb, &grown)) {
      return absl::InvalidArgumentError(
          absl::StrCat("block_size ", b, " makes the dims of ", s.DebugString(), " overflow"));
    }
    // The space side [n, sh, sw, sc] and the depth side [n, sh/b, sw/b, sc*b*b].
    int64_t sh, sw, sc;
    if (to_space_) {
      if (c % bb != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input depth dimension ", c, " should be divisible by: ", bb));
      }
      sh = h * b;
      sw = w * b;
      sc = c / bb;
    } else {
      if (h % b != 0 || w % b != 0) {
        return absl::InvalidArgumentError(absl::StrCat("Image width ", w, " and height ", h,
                                                       " should be divisible by block_size: ", b));
      }
      sh = h;
      sw = w;
      sc = c;
    }
    RILL_ASSIGN_OR_RETURN(
        TensorShape out_shape,
        TensorShape::FromDims(to_space_ ? std::vector<int64_t>{n, sh, sw, sc}
                                        : std::vector<int64_t>{n, h / b, w / b, c * bb}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      T* space = to_space_ ? ElementsOf<T>(*out) : ElementsOf<T>(input);
      T* depth = to_space_ ? ElementsOf<T>(input) : ElementsOf<T>(*out);
      const int64_t dh = sh / b, dw = sw / b;
      // One run of sc elements per (depth pixel, block offset).
      for (int64_t p = 0; p < n * dh * dw; ++p) {
        const int64_t batch = p / (dh * dw), y = (p / dw) % dh, x = p % dw;
        T* d = depth + p * sc * b * b;
        for (int64_t i = 0; i < b; ++i) {
          for (int64_t j = 0; j < b; ++j) {
            T* sp = space + ((batch * sh + y * b + i) * sw + x * b + j) * sc;
            T* dp = d + (i * b + j) * sc;
            if (to_space_) {
              std::copy_n(dp, sc, sp);
            } else {
              std::copy_n(sp, sc, dp);
            }
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  const bool to_space_;
  int64_t block_ = 2;
};

absl::Status CheckScalarOrVector(const Tensor& t, const char* what) {
  if (t.shape().rank() <= 1) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " must be a scalar or a 1-D vector. Found: ", t.shape().DebugString()));
}

class RollOp final : public OpKernel {
 public:
  explicit RollOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const TensorShape& s = input.shape();
    const int rank = s.rank();
    if (rank < 1) return absl::InvalidArgumentError("input must be 1-D or higher");
    RILL_RETURN_IF_ERROR(CheckScalarOrVector(ctx.input(1), "shift"));
    RILL_RETURN_IF_ERROR(CheckScalarOrVector(ctx.input(2), "axis"));
    const std::vector<int64_t> shifts = IndexValues(ctx.input(1));
    const std::vector<int64_t> axes = IndexValues(ctx.input(2));
    if (shifts.size() != axes.size()) {
      return absl::InvalidArgumentError("shift and axis must have the same size");
    }
    std::vector<int64_t> shift(rank, 0);  // per dim, in [0, dim)
    for (size_t i = 0; i < axes.size(); ++i) {
      const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
      if (a < 0 || a >= rank) {
        return absl::InvalidArgumentError(absl::StrCat("axis ", a, " is out of range"));
      }
      const int64_t dim = s.dim(static_cast<int>(a));
      if (dim == 0) continue;
      // TensorFlow's kernel takes each shift as an int32 (an int64 shift keeps its low 32 bits,
      // two's complement): 2^63 - 1 rolls by -1 and 2^40 by 0 there, so here too.
      const int64_t shift32 = static_cast<int32_t>(static_cast<uint32_t>(shifts[i]));
      shift[a] = ((shift[a] + shift32 % dim) % dim + dim) % dim;
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, s));
    if (input.NumElements() == 0) return absl::OkStatus();
    const std::vector<int64_t> strides = RowMajorStrides(s.dims());
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* src = ElementsOf<T>(input);
      T* dst = ElementsOf<T>(*out);
      const int64_t len = s.dim(rank - 1), last = shift[rank - 1];
      const int64_t rows = input.NumElements() / len;
      std::vector<int64_t> index(rank, 0);
      int64_t out_row = 0;  // the row's offset in the output, its leading dims shifted
      for (int d = 0; d < rank - 1; ++d) out_row += shift[d] * strides[d];
      for (int64_t r = 0; r < rows; ++r) {
        // The row's last-dim rotation is two runs.
        const T* in_row = src + r * len;
        std::copy_n(in_row, len - last, dst + out_row + last);
        std::copy_n(in_row + len - last, last, dst + out_row);
        for (int d = rank - 2; d >= 0; --d) {  // odometer over the input's leading dims
          const int64_t dim = s.dim(d);
          out_row += (index[d] + shift[d] + 1) % dim == 0 ? -(dim - 1) * strides[d] : strides[d];
          if (++index[d] < dim) break;
          index[d] = 0;
        }
      }
      return absl::OkStatus();
    });
  }
};

class ReverseSequenceOp final : public OpKernel {
 public:
  explicit ReverseSequenceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("seq_dim", &seq_dim_));
    ctx.SetStatus(ctx.GetAttr("batch_dim", &batch_dim_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& lengths = ctx.input(1);
    const TensorShape& s = input.shape();
    if (seq_dim_ < 0) return absl::InvalidArgumentError(absl::StrCat("Invalid seq_dim ", seq_dim_));
    if (batch_dim_ < 0) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid batch_dim ", batch_dim_));
    }
    if (lengths.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("seq_lengths must be 1-dim, not ", lengths.shape().rank()));
    }
    if (batch_dim_ == seq_dim_) {
      return absl::InvalidArgumentError(absl::StrCat("batch_dim == seq_dim == ", seq_dim_));
    }
    if (seq_dim_ >= s.rank()) {
      return absl::InvalidArgumentError(
          absl::StrCat("seq_dim must be < input rank ( ", seq_dim_, " vs. ", s.rank(), ")"));
    }
    if (batch_dim_ >= s.rank()) {
      return absl::InvalidArgumentError(
          absl::StrCat("batch_dim must be < input rank ( ", batch_dim_, " vs. ", s.rank(), ")"));
    }
    const int bd = static_cast<int>(batch_dim_), sd = static_cast<int>(seq_dim_);
    if (lengths.NumElements() != s.dim(bd)) {
      return absl::InvalidArgumentError(absl::StrCat("Length of seq_lengths != input.dims(", bd,
                                                     "), (", lengths.NumElements(), " vs. ",
                                                     s.dim(bd), ")"));
    }
    const std::vector<int64_t> len = IndexValues(lengths);
    for (size_t b = 0; b < len.size(); ++b) {
      if (len[b] < 0) return absl::InvalidArgumentError(absl::StrCat("seq_lens(", b, ") < 0"));
      if (len[b] > s.dim(sd)) {
        return absl::InvalidArgumentError(absl::StrCat("seq_lens(", b, ") > input.dims(", sd, ")"));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, s));
    if (input.NumElements() == 0) return absl::OkStatus();
    // Rows over dims [0, k) (k past both special dims), each a contiguous run of `inner`.
    const int k = std::max(bd, sd) + 1;
    int64_t inner = 1;
    for (int d = k; d < s.rank(); ++d) inner *= s.dim(d);
    const std::vector<int64_t> strides = RowMajorStrides(s.dims());
    const int64_t rows = input.NumElements() / inner;
    return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* src = ElementsOf<T>(input);
      T* dst = ElementsOf<T>(*out);
      std::vector<int64_t> index(k, 0);
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t i = index[sd], n = len[index[bd]];
        const int64_t from = r * inner + (i < n ? (n - 1 - 2 * i) * strides[sd] : 0);
        std::copy_n(src + from, inner, dst + r * inner);
        for (int d = k - 1; d >= 0; --d) {
          if (++index[d] < s.dim(d)) break;
          index[d] = 0;
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  int64_t seq_dim_ = 0, batch_dim_ = 0;
};

REGISTER_KERNEL(
    KernelDefBuilder("DepthToSpace").Device(kDeviceCpu).TypeConstraint("T", RearrangeTypes()),
    DepthSpaceOp);
REGISTER_KERNEL(
    KernelDefBuilder("SpaceToDepth").Device(kDeviceCpu).TypeConstraint("T", RearrangeTypes()),
    DepthSpaceOp);
REGISTER_KERNEL(KernelDefBuilder("Roll")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", RearrangeTypes())
                    .HostMemory("shift")
                    .HostMemory("axis"),
                RollOp);
REGISTER_KERNEL(KernelDefBuilder("ReverseSequence")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", RearrangeTypes())
                    .HostMemory("seq_lengths"),
                ReverseSequenceOp);

}  // namespace
}  // namespace rill
