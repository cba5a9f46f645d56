// The host side of the strided-copy kernel (copy_launchers.h): a box of dims with per-dim source
// and destination strides, merged into the launch's StridedCopy. Dims of size 1 are dropped and
// neighbours contiguous in both tensors merged, so any rank whose merged box has at most kMaxRank
// dims can be copied. Used by the layout ops (shape_ops_gpu.cc) and Einsum's transposes.
// Pure; thread-safe.
#ifndef RILL_KERNELS_GPU_COPY_BOX_H_
#define RILL_KERNELS_GPU_COPY_BOX_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "kernels/gpu/copy_launchers.h"

namespace rill {
namespace gpu_copy {

inline std::vector<int64_t> RowMajor(absl::Span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  return strides;
}

// One strided copy before its dims are merged: per dim its size, source and destination strides
// (row-major over `dims` to start with), and the source's wrap-around (Tile; 0 for none).
struct CopyBox {
  std::vector<int64_t> dims, src_strides, dst_strides, src_mod;
  int64_t src_base = 0, dst_base = 0;
  explicit CopyBox(absl::Span<const int64_t> d)
      : dims(d.begin(), d.end()),
        src_strides(RowMajor(d)),
        dst_strides(RowMajor(d)),
        src_mod(d.size(), 0) {}
};

// Fills *copy with the launch of `box` and returns true, or false when it copies nothing (a dim of
// size 0); Unimplemented when more
// than kMaxRank dims remain after merging.
inline absl::StatusOr<bool> MergeCopyBox(const CopyBox& box, gpu_kernels::StridedCopy* copy) {
  std::vector<int64_t> dims, ss, ds, mod;
  for (size_t d = 0; d < box.dims.size(); ++d) {
    if (box.dims[d] == 0) return false;
    if (box.dims[d] == 1) continue;
    const bool merge = !dims.empty() && mod.back() == 0 && box.src_mod[d] == 0 &&
                       ss.back() == box.src_strides[d] * box.dims[d] &&
                       ds.back() == box.dst_strides[d] * box.dims[d];
    if (merge) {
      dims.back() *= box.dims[d];
      ss.back() = box.src_strides[d];
      ds.back() = box.dst_strides[d];
    } else {
      dims.push_back(box.dims[d]);
      ss.push_back(box.src_strides[d]);
      ds.push_back(box.dst_strides[d]);
      mod.push_back(box.src_mod[d]);
    }
  }
  const int rank = static_cast<int>(dims.size());
  if (rank > gpu_kernels::kMaxRank) {
    return absl::UnimplementedError(absl::StrCat("the GPU copies up to ", gpu_kernels::kMaxRank,
                                                 " dimensions that are not contiguous, got ",
                                                 rank));
  }
  *copy = gpu_kernels::StridedCopy();
  copy->rank = rank;
  copy->src_base = box.src_base;
  copy->dst_base = box.dst_base;
  for (int d = 0; d < rank; ++d) {
    copy->dims[d] = dims[d];
    copy->src_strides[d] = ss[d];
    copy->dst_strides[d] = ds[d];
    copy->src_mod[d] = mod[d];
  }
  return true;
}

}  // namespace gpu_copy
}  // namespace rill

#endif  // RILL_KERNELS_GPU_COPY_BOX_H_
