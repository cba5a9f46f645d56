// The CUDA kernels that move elements without arithmetic (the layout ops Transpose, Slice,
// StridedSlice, ConcatV2, Pack, Unpack, Split, SplitV, Pad, Tile, ReverseV2; GatherV2; Select),
// as plain launch functions implemented by copy_ops.cu and gather_select_ops.cu. Elements move by
// size (1, 2, 4 or 8 bytes), so one kernel serves every dtype of that size. Every launcher
// enqueues on `stream` (a cudaStream_t) and returns at once; pointers are device memory.
// Thread-safe (launches on one stream are ordered by the stream).
#ifndef RILL_KERNELS_GPU_COPY_LAUNCHERS_H_
#define RILL_KERNELS_GPU_COPY_LAUNCHERS_H_

#include <cstdint>

#include "kernels/gpu/gpu_launchers.h"

namespace rill {
namespace gpu_kernels {

// One strided copy: element c = (c_0, ..., c_{rank-1}) of the `dims` box is read from
// src[src_base + sum(s_d * src_strides[d])] and written to dst[dst_base + sum(c_d *
// dst_strides[d])] where s_d = c_d, or c_d mod src_mod[d] where src_mod[d] > 0 (Tile). Strides may
// be negative (StridedSlice, ReverseV2). A rank-0 box is one element.
struct StridedCopy {
  int rank = 0;
  int64_t dims[kMaxRank] = {};
  int64_t src_strides[kMaxRank] = {};
  int64_t dst_strides[kMaxRank] = {};
  int64_t src_mod[kMaxRank] = {};
  int64_t src_base = 0, dst_base = 0;
};

// Copies the box of `copy` from src to dst, elements of `element_size` bytes (1, 2, 4 or 8).
// REQUIRES: src and dst do not overlap.
void LaunchStridedCopy(const StridedCopy& copy, int element_size, const void* src, void* dst,
                       void* stream);
// dst[i] = the `element_size` bytes at `value` (host memory, copied into the launch) for i < n.
void LaunchFillBytes(void* dst, const void* value, int element_size, int64_t n, void* stream);

// GatherV2 over params viewed as [batch, outer, gather_dim, inner] and indices as [batch, n]:
// out[b, o, i, k] = params[b, o, indices[b, i], k]; an index outside [0, gather_dim) writes zero
// bytes (TensorFlow's GPU kernel).
// Index is int32_t or int64_t.
template <typename Index>
void LaunchGather(const void* params, const Index* indices, void* out, int element_size,
                  int64_t batch, int64_t outer, int64_t gather_dim, int64_t inner, int64_t n,
                  void* stream);

// Select: out[i] = cond[c(i)] ? t[t(i)] : e[e(i)] where, without `index`, every operand has n
// elements (c(i) = i) or, with `rows` > 0, cond has one element per row of n / rows elements;
// with `index` (SelectV2 broadcasting) the offsets come from coordinates over index->out_dims
// and the three operands' strides.
struct SelectIndex {
  int rank = 0;
  int64_t out_dims[kMaxRank] = {};
  int64_t strides[3][kMaxRank] = {};  // condition, then, else
};
void LaunchSelect(const bool* cond, const void* t, const void* e, void* out, int element_size,
                  int64_t n, int64_t rows, const SelectIndex* index, void* stream);

}  // namespace gpu_kernels
}  // namespace rill

#endif  // RILL_KERNELS_GPU_COPY_LAUNCHERS_H_
