// Transpose: y[i_0, ..., i_{r-1}] = x[...] with y's dim k = x's dim perm[k].
// Moves elements only, so one path per element size serves every storable dtype
// (strings are copied as strings). Size-1 dims are dropped and dims that stay
// adjacent are merged first; a swap of the last two (merged) dims runs as
// cache-blocked matrix transposes, other permutations as a strided loop that
// copies whole rows when the last dim stays last. An identity permutation
// forwards the input.
//
// Errors (InvalidArgument, TensorFlow's texts): perm not a vector ("perm must
// be rank 1, got shape [2,2]"), perm of the wrong size ("transpose expects a
// vector of size 3. But input(1) is a vector of size 2"), an entry out of range
// ("3 is out of range [0 .. 3)") or repeated ("2 is missing from {0,0,1}.").
//
// Thread safety: Compute is const and keeps no state; concurrent steps are
// safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/index_values.h"
#include "kernels/kernel_registry.h"
#include "kernels/layout_util.h"
#include "kernels/type_lists.h"

namespace rill {
namespace {

constexpr int64_t kTile = 32;

// out[b][c][r] = in[b][r][c] for `batch` row-major rows x cols matrices, in
// kTile square tiles.
template <typename T>
void BatchMatrixTranspose(const T* in, T* out, int64_t batch, int64_t rows,
                          int64_t cols) {
  for (int64_t b = 0; b < batch; ++b) {
    const T* src = in + b * rows * cols;
    T* dst = out + b * rows * cols;
    for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
      const int64_t r1 = std::min(rows, r0 + kTile);
      for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
        const int64_t c1 = std::min(cols, c0 + kTile);
        for (int64_t r = r0; r < r1; ++r) {
          for (int64_t c = c0; c < c1; ++c)
            dst[c * rows + r] = src[r * cols + c];
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
void Simplify(absl::Span<const int64_t> in_dims,
              const std::vector<int>& in_perm, std::vector<int64_t>* dims,
              std::vector<int>* perm) {
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
  std::vector<int>
      run_starts;  // in output order: the first input dim of each run
  for (int k = 0; k < kept; ++k) {
    if (k > 0 && kept_perm[k] == kept_perm[k - 1] + 1) continue;
    run_starts.push_back(kept_perm[k]);
  }
  // Merged dims are numbered by input order of their first dim.
  std::vector<int> sorted = run_starts;
  std::sort(sorted.begin(), sorted.end());
  dims->assign(sorted.size(), 1);
  for (size_t m = 0; m < sorted.size(); ++m)
    run_of[sorted[m]] = static_cast<int>(m);
  int current = -1;
  for (int i = 0; i < kept; ++i) {
    if (run_of[i] >= 0) current = run_of[i];
    (*dims)[current] *= kept_dims[i];
  }
  perm->clear();
  for (int start : run_starts) perm->push_back(run_of[start]);
}

class TransposeOp final : public OpKernel {
 public:
  explicit TransposeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor input = ctx.input(0);
    const Tensor perm_tensor = ctx.input(1);
    if (perm_tensor.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("perm must be rank 1, got shape ",
                       perm_tensor.shape().DebugString()));
    }
    const int rank = input.shape().rank();
    const std::vector<int64_t> perm_values = IndexValues(perm_tensor);
    if (static_cast<int64_t>(perm_values.size()) != rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "transpose expects a vector of size ", rank,
          ". But input(1) is a vector of size ", perm_values.size()));
    }
    std::vector<int> perm;
    std::vector<int64_t> out_dims;
    bool identity = true;
    for (int i = 0; i < rank; ++i) {
      const int64_t d = perm_values[i];
      if (d < 0 || d >= rank) {
        return absl::InvalidArgumentError(
            absl::StrCat(d, " is out of range [0 .. ", rank, ")"));
      }
      perm.push_back(static_cast<int>(d));
      out_dims.push_back(input.shape().dim(static_cast<int>(d)));
      identity &= d == i;
    }
    std::vector<bool> seen(rank, false);
    for (int d : perm) seen[d] = true;
    for (int i = 0; i < rank; ++i) {
      if (!seen[i]) {
        return absl::InvalidArgumentError(absl::StrCat(
            i, " is missing from {", absl::StrJoin(perm, ","), "}."));
      }
    }
    if (identity) {
      ctx.set_output(0, input);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
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
};

REGISTER_KERNEL(KernelDefBuilder("Transpose")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", StorableTypes())
                    .TypeConstraint("Tperm", {DT_INT32, DT_INT64}),
                TransposeOp);

}  // namespace
}  // namespace rill
