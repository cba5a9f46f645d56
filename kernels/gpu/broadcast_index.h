// The index arithmetic of broadcasting CUDA kernels (binary ops, comparisons, SelectV2), built on
// the host: per output dim its size and each operand's stride (0 along a dim the operand
// broadcasts), operands right-aligned against the output. Unimplemented past kMaxRank dims.
// Pure; thread-safe.
#ifndef RILL_KERNELS_GPU_BROADCAST_INDEX_H_
#define RILL_KERNELS_GPU_BROADCAST_INDEX_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/tensor_shape.h"
#include "kernels/gpu/gpu_launchers.h"

namespace rill {
namespace gpu_broadcast {

// out_dims = out's dims; strides[k][d] = operand k's stride along output dim d. REQUIRES: every
// operand broadcasts to `out`.
template <int N>
absl::Status FillBroadcast(const TensorShape* const (&operands)[N], const TensorShape& out,
                           int64_t* out_dims, int64_t (*strides)[gpu_kernels::kMaxRank]) {
  const int rank = out.rank();
  if (rank > gpu_kernels::kMaxRank) {
    return absl::UnimplementedError(absl::StrCat("Broadcasting on the GPU supports up to ",
                                                 gpu_kernels::kMaxRank, " dimensions, got ",
                                                 out.DebugString()));
  }
  for (int k = 0; k < N; ++k) {
    const TensorShape& in = *operands[k];
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int id = d - (rank - in.rank());
      const int64_t dim = id >= 0 ? in.dim(id) : 1;
      strides[k][d] = dim == 1 ? 0 : stride;
      stride *= dim;
    }
  }
  for (int d = 0; d < rank; ++d) out_dims[d] = out.dim(d);
  return absl::OkStatus();
}

// The index of out = a (op) b for out's shape.
inline absl::StatusOr<gpu_kernels::BroadcastIndex> MakeBroadcastIndex(const TensorShape& a,
                                                                      const TensorShape& b,
                                                                      const TensorShape& out) {
  gpu_kernels::BroadcastIndex index;
  int64_t strides[2][gpu_kernels::kMaxRank] = {};
  const TensorShape* const operands[2] = {&a, &b};
  absl::Status s = FillBroadcast<2>(operands, out, index.out_dims, strides);
  if (!s.ok()) return s;
  index.rank = out.rank();
  for (int d = 0; d < index.rank; ++d) {
    index.a_strides[d] = strides[0][d];
    index.b_strides[d] = strides[1][d];
  }
  return index;
}

}  // namespace gpu_broadcast
}  // namespace rill

#endif  // RILL_KERNELS_GPU_BROADCAST_INDEX_H_
