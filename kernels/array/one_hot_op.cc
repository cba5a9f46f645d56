// OneHot on the CPU: out has the indices' shape with a new dim of size `depth` inserted at `axis`
// (-1: last); out[..., d, ...] = on_value where indices[...] == d, else off_value (an index
// outside [0, depth) gives an all-off row).
// Errors are InvalidArgument with TensorFlow's texts: "depth must be non-negative, got: -1",
// "Expected axis to be -1 or between [0, 2).  But received: 3", "depth must be a scalar, but got:
// [2]", "on_value must be a scalar, but got: [2]", "off_value must be a scalar, but got: [2]".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_ONE_HOT_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool

// The index values as int64, for any of OneHot's index dtypes.
std::vector<int64_t> Indices(const Tensor& t) {
  std::vector<int64_t> out(t.NumElements());
  switch (t.dtype()) {
    case DT_UINT8:
      for (size_t i = 0; i < out.size(); ++i) out[i] = t.flat<uint8_t>()[i];
      break;
    case DT_INT8:
      for (size_t i = 0; i < out.size(); ++i) out[i] = t.flat<int8_t>()[i];
      break;
    case DT_INT32:
      for (size_t i = 0; i < out.size(); ++i) out[i] = t.flat<int32_t>()[i];
      break;
    default:
      for (size_t i = 0; i < out.size(); ++i) out[i] = t.flat<int64_t>()[i];
  }
  return out;
}

class OneHotOp final : public OpKernel {
 public:
  explicit OneHotOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("axis", &axis_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& depth_t = ctx.input(1);
    const Tensor& on = ctx.input(2);
    const Tensor& off = ctx.input(3);
    const int rank = indices.shape().rank();
    if (axis_ != -1 && (axis_ < 0 || axis_ > rank)) {
      return absl::InvalidArgumentError(absl::StrCat("Expected axis to be -1 or between [0, ",
                                                     rank + 1, ").  But received: ", axis_));
    }
    const std::pair<const Tensor*, const char*> scalars[] = {
        {&depth_t, "depth"}, {&on, "on_value"}, {&off, "off_value"}};
    for (const auto& [t, what] : scalars) {
      if (t->shape().rank() != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(what, " must be a scalar, but got: ", t->shape().DebugString()));
      }
    }
    const int64_t depth = depth_t.flat<int32_t>()[0];
    if (depth < 0) {
      return absl::InvalidArgumentError(absl::StrCat("depth must be non-negative, got: ", depth));
    }
    const int axis = axis_ == -1 ? rank : static_cast<int>(axis_);
    std::vector<int64_t> dims(indices.shape().dims().begin(), indices.shape().dims().end());
    dims.insert(dims.begin() + axis, depth);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    // indices viewed as [prefix, suffix] around the axis; out as [prefix, depth, suffix].
    int64_t suffix = 1;
    for (int d = axis; d < rank; ++d) suffix *= indices.shape().dim(d);
    const int64_t prefix = indices.NumElements() / suffix;
    const std::vector<int64_t> index = Indices(indices);
    return VisitKernelTypes<RILL_ONE_HOT_TYPES>(*this, out->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T on_v = on.flat<T>()[0], off_v = off.flat<T>()[0];
      T* z = out->flat<T>().data();
      for (int64_t p = 0; p < prefix; ++p) {
        for (int64_t d = 0; d < depth; ++d) {
          for (int64_t s = 0; s < suffix; ++s) {
            z[(p * depth + d) * suffix + s] = index[p * suffix + s] == d ? on_v : off_v;
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  int64_t axis_ = -1;
};

REGISTER_KERNEL(KernelDefBuilder("OneHot")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_ONE_HOT_TYPES>())
                    .TypeConstraint("TI", {DT_UINT8, DT_INT8, DT_INT32, DT_INT64})
                    .HostMemory("depth"),
                OneHotOp);

}  // namespace
}  // namespace rill
