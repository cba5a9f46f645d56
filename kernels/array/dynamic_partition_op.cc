// DynamicPartition on the CPU (tf.dynamic_partition): output i holds, in order, the slices
// data[j, ...] whose partitions[j] is i (j over partitions' elements in row-major order); its
// shape is [count_i] + data.shape[rank(partitions):]. Moves elements only: one path per element
// size (kernels/framework/layout_util.h).
//
// Errors are InvalidArgument with TensorFlow's texts: "data.shape must start with
// partitions.shape, got data.shape = [3], partitions.shape = [2]", "partitions[1] = 5 is not in
// [0, 2)".
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

namespace rill {
namespace {

class DynamicPartitionOp final : public OpKernel {
 public:
  explicit DynamicPartitionOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("num_partitions", &num_partitions_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& data = ctx.input(0);
    const Tensor& partitions = ctx.input(1);
    const TensorShape& ds = data.shape();
    const TensorShape& ps = partitions.shape();
    bool prefix = ds.rank() >= ps.rank();
    for (int d = 0; prefix && d < ps.rank(); ++d) prefix = ds.dim(d) == ps.dim(d);
    if (!prefix) {
      return absl::InvalidArgumentError(absl::StrCat(
          "data.shape must start with partitions.shape, got data.shape = ", ds.DebugString(),
          ", partitions.shape = ", ps.DebugString()));
    }
    const int32_t* p = partitions.flat<int32_t>().data();
    const int64_t n = partitions.NumElements();
    std::vector<int64_t> counts(static_cast<size_t>(num_partitions_), 0);
    for (int64_t j = 0; j < n; ++j) {
      if (p[j] < 0 || p[j] >= num_partitions_) {
        return absl::InvalidArgumentError(absl::StrCat("partitions", IndexCoordinates(ps, j), " = ",
                                                       p[j], " is not in [0, ", num_partitions_,
                                                       ")"));
      }
      ++counts[p[j]];
    }
    std::vector<int64_t> slice_dims(ds.dims().begin() + ps.rank(), ds.dims().end());
    int64_t slice = 1;
    for (int64_t d : slice_dims) slice *= d;
    std::vector<Tensor*> outs(counts.size());
    for (size_t i = 0; i < counts.size(); ++i) {
      std::vector<int64_t> dims = {counts[i]};
      dims.insert(dims.end(), slice_dims.begin(), slice_dims.end());
      RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
      RILL_ASSIGN_OR_RETURN(outs[i], ctx.allocate_output(static_cast<int>(i), shape));
    }
    return VisitElementType(data.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* src = ElementsOf<T>(data);
      std::vector<T*> dst(outs.size());
      for (size_t i = 0; i < outs.size(); ++i) dst[i] = ElementsOf<T>(*outs[i]);
      for (int64_t j = 0; j < n; ++j) {
        dst[p[j]] = std::copy(src + j * slice, src + (j + 1) * slice, dst[p[j]]);
      }
      return absl::OkStatus();
    });
  }

 private:
  int64_t num_partitions_ = 1;
};

REGISTER_KERNEL(KernelDefBuilder("DynamicPartition")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_BOOL, DT_STRING}),
                DynamicPartitionOp);

}  // namespace
}  // namespace rill
