// Gather, GatherV2 and GatherNd on the CPU. They move elements only, so one path per element size
// serves every storable dtype (kernels/framework/layout_util.h); rows are copied whole.
//   GatherV2(params, indices, axis; batch_dims): out = params[b..., o..., indices[b..., i...],
//     inner...], shape params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:];
//     Gather is GatherV2 with axis 0 and no batch dims.
//   GatherNd(params, indices): the last indices dim (K) indexes the first K params dims; shape
//     indices.shape[:-1] + params.shape[K:].
//   ResourceGather(resource, indices; batch_dims) is GatherV2 along axis batch_dims, and
//     ResourceGatherNd is GatherNd, of a snapshot of the resource variable (NotFound "Resource
//     localhost/v does not exist." before its first AssignVariableOp; kernels/state/variable.h).
// Out-of-range indices are errors (as on TensorFlow's CPU) unless the output is empty; GatherNd of
// empty params refuses any slot ("Requested more than 0 entries, but params is empty.  Params
// shape: [3,0]"). Errors are InvalidArgument with
// TensorFlow's texts: "indices[1] = 3 is not in [0, 3)", "Expected axis in the range [-2, 2),
// but got 2", "indices[1] = [3, 0] does not index into param shape [3,4], node name: out",
// "index innermost dimension length must be <= params rank; saw: 3 vs. 2", "params must be at
// least a vector", "indices must be at least a vector", "batch_dims (2) must be less than or
// equal to rank(indices) (1)", "params.shape[0]: 2 should be equal to indices.shape[0]: 3".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

// out[b, o, i, :] = params[b, o, index[b, i], :] over [batch, outer, gather_dim, inner] params and
// [batch, n] indices (already checked to be in range).
template <typename T>
void GatherRows(const T* params, const std::vector<int64_t>& index, int64_t batch, int64_t outer,
                int64_t gather_dim, int64_t inner, int64_t n, T* out) {
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      const T* src = params + (b * outer + o) * gather_dim * inner;
      for (int64_t i = 0; i < n; ++i) {
        const T* row = src + index[b * n + i] * inner;
        out = std::copy(row, row + inner, out);
      }
    }
  }
}

// The params of a gather: input 0, or for the Resource forms a snapshot of the variable it names.
absl::StatusOr<Tensor> GatherParams(OpKernelContext& ctx, bool resource) {
  if (!resource) return ctx.input(0);
  ResourceHandle handle;
  return SnapshotResourceVar(*ctx.device()->resource_manager(), ctx.input(0), &handle);
}

class GatherOp final : public OpKernel {
 public:
  explicit GatherOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    has_axis_ = ctx.def().op() == "GatherV2";
    resource_ = ctx.def().op() == "ResourceGather";
    if (has_axis_ || resource_) ctx.SetStatus(ctx.GetAttr("batch_dims", &batch_dims_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const Tensor params, GatherParams(ctx, resource_));
    const Tensor& indices = ctx.input(1);
    const TensorShape& ps = params.shape();
    const TensorShape& is = indices.shape();
    int64_t axis = 0;
    if (has_axis_) {
      RILL_ASSIGN_OR_RETURN(axis, GatherAxisOf(ctx.input(2)));
    } else if (resource_) {
      axis = batch_dims_ < 0 ? batch_dims_ + indices.shape().rank() : batch_dims_;
    }
    RILL_ASSIGN_OR_RETURN(GatherPlan plan, GatherPlanOf(ps, is, axis, batch_dims_));
    const int64_t gather_dim = plan.gather_dim;
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, plan.out_shape));
    // An empty output reads nothing, so Gather and GatherV2 do not check its indices (as in
    // TensorFlow, which gathers [3, 0] params at index -1 into an empty [1, 0]); ResourceGather
    // checks every index, as TensorFlow's does.
    if (out->NumElements() == 0 && !resource_) return absl::OkStatus();
    const std::vector<int64_t> index = IndexValues(indices);
    for (size_t i = 0; i < index.size(); ++i) {
      if (index[i] < 0 || index[i] >= gather_dim) {
        return GatherIndexError(is, static_cast<int64_t>(i), index[i], gather_dim);
      }
    }
    const int64_t batch = plan.batch, outer = plan.outer, inner = plan.inner, n = plan.n;
    return VisitElementType(params.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      GatherRows(ElementsOf<T>(params), index, batch, outer, gather_dim, inner, n,
                 ElementsOf<T>(*out));
      return absl::OkStatus();
    });
  }

 private:
  bool has_axis_ = false;
  bool resource_ = false;
  int64_t batch_dims_ = 0;
};

class GatherNdOp final : public OpKernel {
 public:
  explicit GatherNdOp(OpKernelConstruction& ctx)
      : OpKernel(ctx), resource_(ctx.def().op() == "ResourceGatherNd") {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const Tensor params, GatherParams(ctx, resource_));
    const Tensor& indices = ctx.input(1);
    const TensorShape& ps = params.shape();
    const TensorShape& is = indices.shape();
    if (ps.rank() < 1) return absl::InvalidArgumentError("params must be at least a vector");
    if (is.rank() < 1) return absl::InvalidArgumentError("indices must be at least a vector");
    const int64_t depth = is.dim(is.rank() - 1);
    if (depth > ps.rank()) {
      return absl::InvalidArgumentError(
          absl::StrCat("index innermost dimension length must be <= params rank; saw: ", depth,
                       " vs. ", ps.rank()));
    }
    std::vector<int64_t> out_dims(is.dims().begin(), is.dims().end() - 1);
    out_dims.insert(out_dims.end(), ps.dims().begin() + depth, ps.dims().end());
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(TensorShape slots,
                          TensorShape::FromDims(is.dims().subspan(0, is.rank() - 1)));
    const int64_t inner = Product(ps.dims().subspan(depth));
    const std::vector<int64_t> index = IndexValues(indices);
    const int64_t n = slots.num_elements();
    // TensorFlow refuses any slot of empty params, even one whose slice would be empty.
    if (n > 0 && params.NumElements() == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Requested more than 0 entries, but params is empty.  Params shape: ", ps.DebugString()));
    }
    std::vector<int64_t> offsets(n);
    for (int64_t i = 0; i < n; ++i) {
      int64_t offset = 0;
      bool ok = true;
      for (int64_t k = 0; k < depth; ++k) {
        const int64_t v = index[i * depth + k];
        ok &= v >= 0 && v < ps.dim(static_cast<int>(k));
        offset = offset * ps.dim(static_cast<int>(k)) + v;
      }
      if (!ok) {
        std::vector<int64_t> bad(index.begin() + i * depth, index.begin() + (i + 1) * depth);
        return absl::InvalidArgumentError(absl::StrCat(
            "indices", IndexCoordinates(slots, i), " = [", absl::StrJoin(bad, ", "),
            "] does not index into param shape ", ps.DebugString(), ", node name: ", name()));
      }
      offsets[i] = offset;
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitElementType(params.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      // Each slot is a gather of row `offsets[i]` of params viewed as [rows, inner].
      GatherRows(ElementsOf<T>(params), offsets, 1, 1, 0, inner, n, ElementsOf<T>(*out));
      return absl::OkStatus();
    });
  }

 private:
  const bool resource_;
};

const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};

REGISTER_KERNEL(KernelDefBuilder("Gather")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tparams", StorableTypes())
                    .TypeConstraint("Tindices", kIndexTypes),
                GatherOp);
REGISTER_KERNEL(KernelDefBuilder("GatherV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tparams", StorableTypes())
                    .TypeConstraint("Tindices", kIndexTypes)
                    .TypeConstraint("Taxis", kIndexTypes)
                    .HostMemory("axis"),
                GatherOp);
// int32 params and indices on a GPU (shape arithmetic) live in host memory: this host code serves
// them, as TensorFlow's int32 GPU kernel; real GPUs only.
REGISTER_KERNEL(KernelDefBuilder("GatherV2")
                    .Device(kDeviceGpu)
                    .NeedsCuda()
                    .TypeConstraint("Tparams", {DT_INT32})
                    .TypeConstraint("Tindices", {DT_INT32})
                    .TypeConstraint("Taxis", {DT_INT32}),
                GatherOp);
REGISTER_KERNEL(KernelDefBuilder("GatherNd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tparams", StorableTypes())
                    .TypeConstraint("Tindices", kIndexTypes),
                GatherNdOp);
// The dtypes the conformance recorder covers (resource variables of the other storable dtypes
// are rare; their gathers move bytes the same way).
const std::vector<DataType> kResourceTypes = {DT_FLOAT, DT_DOUBLE,    DT_HALF,      DT_INT32,
                                              DT_INT64, DT_UINT8,     DT_INT8,      DT_INT16,
                                              DT_BOOL,  DT_COMPLEX64, DT_COMPLEX128};
REGISTER_KERNEL(KernelDefBuilder("ResourceGather")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", kResourceTypes)
                    .TypeConstraint("Tindices", kIndexTypes),
                GatherOp);
REGISTER_KERNEL(KernelDefBuilder("ResourceGatherNd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", kResourceTypes)
                    .TypeConstraint("Tindices", kIndexTypes),
                GatherNdOp);

}  // namespace
}  // namespace rill
