// ConcatV2 and Concat (join N tensors along an existing axis given as an input: ConcatV2's `axis`
// after the values, Concat's `concat_dim` before them) and Pack
// (stacks N equal-shaped tensors along a new axis given by the `axis` attr).
// Both view each input as [outer, inner_i] (outer = the dims before the axis)
// and copy contiguous rows: output row o is the inputs' rows o, one after
// another. Elements are moved by size, so every storable dtype is served
// (strings are copied as strings).
//
// Errors (InvalidArgument, TensorFlow's texts): ConcatV2 "axis tensor should be
// a scalar integer, but got shape [2]" (Concat: "concat_dim tensor ..."), "ConcatOp : Expected
// concatenating dimensions in the range [-2, 2), but got 2", "ConcatOp : Ranks of all input tensors
// should match: shape[0] = [2,3] vs. shape[1] = [3]", "ConcatOp : Dimension 1 in both shapes must
// be equal: shape[0] = [2,3] vs. shape[1] = [2,2]"; Pack "axis = 3 not in [-3, 3)", "Shapes of all
// inputs must match: values[0].shape = [2,3] != values[1].shape = [3,2]".
//
// ConcatOffset (the offsets Concat's gradient slices at) errors: "Concat dim is out of range: 2
// vs. 2", "input 1 should contain 2 elements, but got 3", "All dimensions except 0 must match.
// Input 1 has shape [2 4] and doesn't match input 0 with shape [2 3].".
//
// Thread safety: Compute is const and keeps no state; concurrent steps are
// safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

// out[o] = concat_i(inputs[i][o]) for o < outer, where input i's rows hold
// inner[i] elements.
absl::Status ConcatRows(const std::vector<Tensor>& inputs, const std::vector<int64_t>& inner,
                        int64_t outer, const Tensor& out) {
  if (out.NumElements() == 0) return absl::OkStatus();
  return VisitElementType(out.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    T* dst = ElementsOf<T>(out);
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t i = 0; i < inputs.size(); ++i) {
        dst = std::copy_n(ElementsOf<T>(inputs[i]) + o * inner[i], inner[i], dst);
      }
    }
    return absl::OkStatus();
  });
}

// kAxisFirst: Concat (the axis input `concat_dim` before the values); otherwise ConcatV2 (`axis`
// after them).
template <bool kAxisFirst>
class ConcatOp final : public OpKernel {
 public:
  explicit ConcatOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = ctx.num_inputs() - 1;
    const int first_value = kAxisFirst ? 1 : 0;
    std::vector<Tensor> values;
    std::vector<TensorShape> shapes;
    for (int i = 0; i < n; ++i) {
      values.push_back(ctx.input(first_value + i));
      shapes.push_back(values.back().shape());
    }
    RILL_ASSIGN_OR_RETURN(ConcatPlan plan, ConcatPlanOf(shapes, ctx.input(kAxisFirst ? 0 : n),
                                                        kAxisFirst ? "concat_dim" : "axis"));
    std::vector<int64_t> inner;
    for (const TensorShape& s : shapes) inner.push_back(DimProduct(s.dims(), plan.axis, s.rank()));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    return ConcatRows(values, inner, DimProduct(shapes[0].dims(), 0, plan.axis), *out);
  }
};

class PackOp final : public OpKernel {
 public:
  explicit PackOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("axis", &axis_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = ctx.num_inputs();
    std::vector<Tensor> values;
    std::vector<TensorShape> shapes;
    for (int i = 0; i < n; ++i) {
      values.push_back(ctx.input(i));
      shapes.push_back(values.back().shape());
    }
    RILL_ASSIGN_OR_RETURN(ConcatPlan plan, PackPlanOf(shapes, axis_));
    const TensorShape& shape0 = shapes[0];
    const TensorShape& out_shape = plan.out_shape;
    const int axis = plan.axis;
    if (n == 1) {  // a reshape: share the buffer
      RILL_ASSIGN_OR_RETURN(Tensor out, values[0].Reshaped(out_shape));
      ctx.set_output(0, std::move(out));
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t inner = DimProduct(shape0.dims(), axis, shape0.rank());
    return ConcatRows(values, std::vector<int64_t>(n, inner), DimProduct(shape0.dims(), 0, axis),
                      *out);
  }

 private:
  int64_t axis_ = 0;
};

// ConcatOffset(concat_dim, shapes): where each of N same-rank shapes starts in their concat
// along concat_dim (the offsets there, 0 elsewhere); the other dims must match shape 0's.
class ConcatOffsetOp final : public OpKernel {
 public:
  explicit ConcatOffsetOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& concat_dim = ctx.input(0);
    if (concat_dim.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Concat dim tensor should be a scalar integer, but got shape ",
                       concat_dim.shape().DebugString()));
    }
    const int n = ctx.num_inputs() - 1;
    std::vector<std::vector<int64_t>> shapes;
    for (int i = 0; i < n; ++i) {
      const Tensor& s = ctx.input(1 + i);
      if (s.shape().rank() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "input ", 1 + i, " should be a vector, but got shape ", s.shape().DebugString()));
      }
      shapes.push_back(IndexValues(s));
    }
    const int64_t dims = static_cast<int64_t>(shapes[0].size());
    const int64_t cdim = IndexValues(concat_dim)[0];
    const int64_t axis = cdim < 0 ? cdim + dims : cdim;
    if (axis < 0 || axis >= dims) {
      return absl::InvalidArgumentError(
          absl::StrCat("Concat dim is out of range: ", cdim, " vs. ", dims));
    }
    int64_t offset = 0;
    for (int i = 0; i < n; ++i) {
      const std::vector<int64_t>& s = shapes[i];
      if (static_cast<int64_t>(s.size()) != dims) {
        return absl::InvalidArgumentError(
            absl::StrCat("input ", i, " should contain ", dims, " elements, but got ", s.size()));
      }
      std::vector<int64_t> out(dims, 0);
      for (int64_t j = 0; j < dims; ++j) {
        if (j == axis) {
          out[j] = offset;
          offset += s[j];
        } else if (s[j] != shapes[0][j]) {
          return absl::InvalidArgumentError(
              absl::StrCat("All dimensions except ", axis, " must match. Input ", i, " has shape [",
                           absl::StrJoin(s, " "), "] and doesn't match input 0 with shape [",
                           absl::StrJoin(shapes[0], " "), "]."));
        }
      }
      RILL_ASSIGN_OR_RETURN(Tensor * t, ctx.allocate_output(i, TensorShape({dims})));
      for (int64_t j = 0; j < dims; ++j) {
        if (t->dtype() == DT_INT32) {
          t->flat<int32_t>()[j] = static_cast<int32_t>(out[j]);
        } else {
          t->flat<int64_t>()[j] = out[j];
        }
      }
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("ConcatOffset")
                    .Device(kDeviceCpu)
                    .TypeConstraint("shape_type", {DT_INT32, DT_INT64})
                    .HostMemory("concat_dim")
                    .HostMemory("shape")
                    .HostMemory("offset"),
                ConcatOffsetOp);
REGISTER_KERNEL(KernelDefBuilder("ConcatV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tidx", {DT_INT32, DT_INT64}),
                ConcatOp<false>);
REGISTER_KERNEL(KernelDefBuilder("Concat").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                ConcatOp<true>);
REGISTER_KERNEL(KernelDefBuilder("Pack").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                PackOp);
// int32 on a GPU (shape arithmetic): int32 tensors there live in host memory, so this host code
// serves them, as TensorFlow's int32 GPU kernels; real GPUs only.
REGISTER_KERNEL(KernelDefBuilder("ConcatV2")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("T", {DT_INT32})
                    .TypeConstraint("Tidx", {DT_INT32}),
                ConcatOp<false>);
REGISTER_KERNEL(
    KernelDefBuilder("Pack").Device(kDeviceGpu).NeedsCuda().TypeConstraint("T", {DT_INT32}),
    PackOp);

}  // namespace
}  // namespace rill
