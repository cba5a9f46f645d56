// ReverseV2 on the CPU: the input with the listed axes (negative count from the end) reversed;
// Reverse: the dims flagged true in its bool vector `dims` reversed.
// Moves elements only, so one path per element size serves every storable dtype
// (kernels/framework/layout_util.h); runs along an unreversed last dim are copied whole. No axes
// forwards the input. Errors are InvalidArgument with TensorFlow's texts: "'axis'[0] = 2 is out of
// valid range [0, 1" (sic), "axis 0 specified more than once.", "'axis' must be 1-D, not [2,1]";
// Reverse "'dims' must be 1-dimension, not 2", "'dims' must have the same number of values as
// 'input' has dimensions. 'input' has 2'dims' has 3 values" (sic), "Invalid input first dimension.
// Found 0." (an empty first dim); Unimplemented "reverse is not implemented for tensors of rank
// > 8.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

// Copies `in` (dims) to `out` with the dims marked in `reversed` reversed: walks the output in
// order with an odometer over the outer dims, copying (or reversing) the last dim per row.
template <typename T>
void ReverseInto(const T* in, const std::vector<int64_t>& dims, const std::vector<bool>& reversed,
                 T* out) {
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> stride(rank, 1);
  for (int d = rank - 2; d >= 0; --d) stride[d] = stride[d + 1] * dims[d + 1];
  const int64_t inner = dims[rank - 1];
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  std::vector<int64_t> idx(rank, 0);
  for (int64_t o = 0; o < total; o += inner) {
    int64_t src = 0;
    for (int d = 0; d + 1 < rank; ++d) {
      src += (reversed[d] ? dims[d] - 1 - idx[d] : idx[d]) * stride[d];
    }
    if (reversed[rank - 1]) {
      std::reverse_copy(in + src, in + src + inner, out + o);
    } else {
      std::copy(in + src, in + src + inner, out + o);
    }
    for (int d = rank - 2; d >= 0; --d) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
  }
}

// Sets output 0 to `in` with the dims marked in `reversed` reversed (the input itself when none
// is).
absl::Status ReverseMarked(OpKernelContext& ctx, const Tensor& in,
                           const std::vector<bool>& reversed) {
  if (std::none_of(reversed.begin(), reversed.end(), [](bool r) { return r; })) {
    ctx.set_output(0, in);
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
  if (in.NumElements() == 0) return absl::OkStatus();
  const std::vector<int64_t> dims(in.shape().dims().begin(), in.shape().dims().end());
  return VisitElementType(in.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    ReverseInto(ElementsOf<T>(in), dims, reversed, ElementsOf<T>(*out));
    return absl::OkStatus();
  });
}

class ReverseV2Op final : public OpKernel {
 public:
  explicit ReverseV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(std::vector<bool> reversed, ReversedDimsOf(in.shape(), ctx.input(1)));
    return ReverseMarked(ctx, in, reversed);
  }
};

// Reverse: `dims` holds one bool per input dim, true where that dim is reversed. A scalar input
// is forwarded whatever `dims` is, as in TensorFlow.
class ReverseOp final : public OpKernel {
 public:
  explicit ReverseOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& dims_t = ctx.input(1);
    const int rank = in.shape().rank();
    if (rank > 0 && in.shape().dim(0) == 0) {
      return absl::InvalidArgumentError("Invalid input first dimension. Found 0.");
    }
    if (rank == 0) {
      ctx.set_output(0, in);
      return absl::OkStatus();
    }
    if (dims_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("'dims' must be 1-dimension, not ", dims_t.shape().rank()));
    }
    if (dims_t.NumElements() != rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'dims' must have the same number of values as 'input' has dimensions. 'input' has ",
          rank, "'dims' has ", dims_t.NumElements(), " values"));
    }
    if (rank > 8) {
      return absl::UnimplementedError("reverse is not implemented for tensors of rank > 8.");
    }
    const bool* flags = dims_t.flat<bool>().data();
    return ReverseMarked(ctx, in, std::vector<bool>(flags, flags + rank));
  }
};

REGISTER_KERNEL(KernelDefBuilder("ReverseV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tidx", {DT_INT32, DT_INT64}),
                ReverseV2Op);
REGISTER_KERNEL(KernelDefBuilder("Reverse").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                ReverseOp);

}  // namespace
}  // namespace rill
