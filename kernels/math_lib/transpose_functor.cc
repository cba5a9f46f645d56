#include "kernels/math_lib/transpose_functor.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/framework/layout_util.h"

namespace rill {
namespace {

constexpr int64_t kTile = 32;

// out[b][c][r] = in[b][r][c] for `batch` row-major rows x cols matrices, in
// kTile square tiles.
template <typename T>
void BatchMatrixTranspose(const T* in, T* out, int64_t batch, int64_t rows, int64_t cols) {
  for (int64_t b = 0; b < batch; ++b) {
    const T* src = in + b * rows * cols;
    T* dst = out + b * rows * cols;
    for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
      const int64_t r1 = std::min(rows, r0 + kTile);
      for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
        const int64_t c1 = std::min(cols, c0 + kTile);
        for (int64_t r = r0; r < r1; ++r) {
          for (int64_t c = c0; c < c1; ++c) dst[c * rows + r] = src[r * cols + c];
        }
      }
    }
  }
}

// The general case: walks y in order, keeping x's offset with an odometer. When
// the last dim stays last, each step copies a whole row of it.
template <typename T>
void StridedTranspose(const T* in, T* out, const std::vector<int64_t>& dims,
                      const std::vector<int>& perm) {
  const std::vector<int64_t> in_strides = RowMajorStrides(dims);
  int rank = static_cast<int>(dims.size());
  int64_t row = 1;
  if (perm[rank - 1] == rank - 1) {
    row = dims[rank - 1];
    --rank;
  }
  std::vector<int64_t> out_dims(rank), strides(rank), index(rank, 0);
  int64_t count = 1;
  for (int k = 0; k < rank; ++k) {
    out_dims[k] = dims[perm[k]];
    strides[k] = in_strides[perm[k]];
    count *= out_dims[k];
  }
  int64_t offset = 0;
  for (int64_t n = 0; n < count; ++n) {
    if (row == 1) {
      *out++ = in[offset];
    } else {
      out = std::copy_n(in + offset, row, out);
    }
    for (int k = rank - 1; k >= 0; --k) {
      offset += strides[k];
      if (++index[k] < out_dims[k]) break;
      offset -= strides[k] * out_dims[k];
      index[k] = 0;
    }
  }
}

// Drops size-1 dims and merges dims that stay adjacent and in order under
// `perm`.
void Simplify(absl::Span<const int64_t> in_dims, const std::vector<int>& in_perm,
              std::vector<int64_t>* dims, std::vector<int>* perm) {
  const int rank = static_cast<int>(in_dims.size());
  std::vector<int> renumber(rank, -1);
  std::vector<int64_t> kept_dims;
  for (int i = 0; i < rank; ++i) {
    if (in_dims[i] != 1) {
      renumber[i] = static_cast<int>(kept_dims.size());
      kept_dims.push_back(in_dims[i]);
    }
  }
  std::vector<int> kept_perm;
  for (int p : in_perm) {
    if (renumber[p] >= 0) kept_perm.push_back(renumber[p]);
  }
  // Runs of consecutive input dims in kept_perm become one dim.
  const int kept = static_cast<int>(kept_perm.size());
  std::vector<int> run_of(kept, -1);  // input dim -> merged dim
  std::vector<int> run_starts;        // in output order: the first input dim of each run
  for (int k = 0; k < kept; ++k) {
    if (k > 0 && kept_perm[k] == kept_perm[k - 1] + 1) continue;
    run_starts.push_back(kept_perm[k]);
  }
  // Merged dims are numbered by input order of their first dim.
  std::vector<int> sorted = run_starts;
  std::sort(sorted.begin(), sorted.end());
  dims->assign(sorted.size(), 1);
  for (size_t m = 0; m < sorted.size(); ++m) run_of[sorted[m]] = static_cast<int>(m);
  int current = -1;
  for (int i = 0; i < kept; ++i) {
    if (run_of[i] >= 0) current = run_of[i];
    (*dims)[current] *= kept_dims[i];
  }
  perm->clear();
  for (int start : run_starts) perm->push_back(run_of[start]);
}

}  // namespace

absl::Status TransposeInto(const Tensor& input, const std::vector<int>& perm, Tensor* out) {
  if (input.NumElements() == 0) return absl::OkStatus();
  std::vector<int64_t> dims;
  std::vector<int> simple_perm;
  Simplify(input.shape().dims(), perm, &dims, &simple_perm);
  return VisitElementType(input.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    const T* in = ElementsOf<T>(input);
    T* dst = ElementsOf<T>(*out);
    const int r = static_cast<int>(dims.size());
    bool in_order = true;
    for (int k = 0; k < r; ++k) in_order &= simple_perm[k] == k;
    if (in_order) {  // only size-1 dims moved
      std::copy_n(in, input.NumElements(), dst);
    } else if (r == 2) {
      BatchMatrixTranspose(in, dst, 1, dims[0], dims[1]);
    } else if (r == 3 && simple_perm == std::vector<int>{0, 2, 1}) {
      BatchMatrixTranspose(in, dst, dims[0], dims[1], dims[2]);
    } else {
      StridedTranspose(in, dst, dims, simple_perm);
    }
    return absl::OkStatus();
  });
}

}  // namespace rill
