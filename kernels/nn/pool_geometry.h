// The geometry of MaxPool / MaxPoolV2 / AvgPool and their gradients over NHWC tensors, read from
// attrs (or run-time inputs) and checked with TensorFlow's texts, for the kernels of every device:
// InvalidArgument "Default MaxPoolingOp only supports NHWC on device type CPU", "Sliding window
// ksize field must specify 4 dimensions", "Sliding window stride field must specify 4
// dimensions", "Sliding window ksize for dimension 1 was zero.", "tensor_in must be
// 4-dimensional", "explicit_paddings attribute must contain 8 values, but got: 4", "All
// explicit_paddings must be non-negative", the window errors of ops/window_geometry.h;
// Unimplemented "Pooling is not yet supported on the batch dimension.", "MaxPooling supports
// exactly one of pooling across depth or pooling across width/height.", "Depthwise max pooling
// requires the depth window to evenly divide the input depth", "Depthwise max pooling requires
// the depth window to equal the depth stride". Pure functions; thread-safe.
#ifndef RILL_KERNELS_NN_POOL_GEOMETRY_H_
#define RILL_KERNELS_NN_POOL_GEOMETRY_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "kernels/framework/op_kernel.h"
#include "ops/window_geometry.h"

namespace rill {

// The geometry of one NHWC pooling: spatial (k_d 1) or across depth (k_h = k_w = 1).
struct PoolGeometry {
  int64_t batch = 0, in_h = 0, in_w = 0, depth = 0;
  int64_t k_h = 1, k_w = 1, k_d = 1;
  int64_t stride_h = 1, stride_w = 1;
  int64_t out_h = 0, out_w = 0, out_d = 0;
  int64_t pad_h = 0, pad_w = 0;  // padding before the first window
};

// The attrs (or run-time inputs) of a pooling node.
struct PoolSpec {
  std::vector<int64_t> ksize, strides;
  Padding padding = Padding::kValid;
  std::vector<int64_t> explicit_paddings;  // 8 values for EXPLICIT, else empty
};

// Checks ksize and strides as TensorFlow's pooling constructors do.
absl::Status CheckKsizeAndStrides(const PoolSpec& s);

// The geometry of pooling an NHWC input of `shape` by `s`.
absl::StatusOr<PoolGeometry> NhwcPoolGeometry(const PoolSpec& s, const TensorShape& shape);

// Reads data_format (NHWC only: "Default <kernel_name> only supports NHWC on device type
// <device_type>") and padding; with `attr_windows` also ksize, strides and explicit_paddings.
absl::StatusOr<PoolSpec> ParsePoolAttrs(const OpKernelConstruction& ctx, const char* kernel_name,
                                        const char* device_type, bool attr_windows);

}  // namespace rill

#endif  // RILL_KERNELS_NN_POOL_GEOMETRY_H_
