// Sparse-tensor ops on the CPU. A sparse tensor is (indices [nnz, rank] int64, values [nnz],
// dense_shape [rank] int64):
//
//   SparseToDense(sparse_indices, output_shape, sparse_values, default_value, validate_indices):
//     a dense tensor of default_value with the values (or one scalar value) at the indices
//     (a matrix, a vector of 1-D indices, or one scalar index); with validate_indices the indices
//     must be in bounds, sorted and unique.
//   SparseTensorDenseMatMul(a_indices, a_values, a_shape, b, adjoint_a, adjoint_b): the dense
//     product op(A) op(B) of a sparse matrix A and a dense B; repeated entries add.
//   SparseReduceSum(input_indices, input_values, input_shape, reduction_axes, keep_dims): the
//     dense sum over the axes (none: the dense tensor itself). SparseReduceMax: the largest
//     entry instead (positions without entries are 0; a NaN entry stays the maximum until an
//     entry after it in row-major order is compared, as TensorFlow's kernel).
//   SparseAdd(a..., b..., thresh): the merge of two sparse tensors of one shape, walking both
//     index lists in order and adding entries at equal indices; sums with |sum| < thresh are
//     dropped (entries of only one operand are kept, as TensorFlow's kernel does).
//   SparseReorder(input_indices, input_values, input_shape): indices sorted in row-major order
//     (stable), with their values.
//   SparseReshape(input_indices, input_shape, new_shape): the indices of the same dense positions
//     in new_shape (one -1 dim is inferred).
//   SparseFillEmptyRows(indices, values, dense_shape, default_value): entries grouped by row
//     (stable), with [r, 0, ...] = default_value for each empty row r, the empty-row flags and
//     where each input entry went.
//
// Errors are TensorFlow's texts: "indices[1] = [3,0] is out of bounds: need 0 <= index < [3,4]",
// "indices[1] = [0,1] is out of order. Many sparse ops require sorted indices.", "indices[1] =
// [0,1] is repeated", "k (4) from index[0,1] out of bounds (>=4)", "Invalid reduction dimension
// 3, for input with 3 dimensions.", "Obtained a write index of 3 which is outside of bounds of
// [0, 3)" (Internal, as TensorFlow's), "Operands' shapes do not match: got 5 and 6 for dimension
// 1", and the input-shape texts beside each check. Integers wrap; SparseReduceSum sums half in
// float; SparseTensorDenseMatMul accumulates in the output's type.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/sparse_tensor_checks.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

using cwise_internal::Load;
using cwise_internal::Store;

std::string ShapeString(const TensorShape& s) { return s.DebugString(); }

// "[a,b]" of row n of a [nnz, rank] index list.
std::string IndexString(const std::vector<int64_t>& idx, int64_t n, int64_t rank) {
  return absl::StrCat("[", absl::StrJoin(idx.begin() + n * rank, idx.begin() + (n + 1) * rank, ","),
                      "]");
}

// Lexicographic comparison of rows a and b: -1, 0 or 1.
int CompareRows(const int64_t* a, const int64_t* b, int64_t rank) {
  for (int64_t d = 0; d < rank; ++d) {
    if (a[d] != b[d]) return a[d] < b[d] ? -1 : 1;
  }
  return 0;
}

template <typename Fn>
absl::Status VisitAllTypes(const OpKernel& k, DataType dt, Fn&& fn) {
  return VisitKernelTypes<float, double, half, int32_t, int64_t, uint8_t, int8_t, int16_t, bool>(
      k, dt, std::forward<Fn>(fn));
}

// --- SparseToDense -------------------------------------------------------------------------

// out[0, n) = value, in blocks over the intra-op threads; all-zero bytes by memset, others at the
// CPU's vector width (RunSimd).
template <typename T>
void FillParallel(const OpKernelContext& ctx, const T& value, int64_t n, T* out) {
  constexpr int64_t kBlock = 16384;
  bool zero_bytes = false;
  if constexpr (std::is_trivially_copyable_v<T>) {
    const T zero{};
    zero_bytes = std::memcmp(&value, &zero, sizeof(T)) == 0;
  }
  ctx.ParallelFor((n + kBlock - 1) / kBlock, kBlock, [&](int64_t begin, int64_t end) {
    T* first = out + begin * kBlock;
    T* last = out + std::min(n, end * kBlock);
    if constexpr (std::is_trivially_copyable_v<T>) {
      if (zero_bytes) {
        std::memset(static_cast<void*>(first), 0, (last - first) * sizeof(T));
        return;
      }
    }
    cwise_internal::RunSimdFor<T>([&] { std::fill(first, last, value); });
  });
}

class SparseToDenseOp final : public OpKernel {
 public:
  explicit SparseToDenseOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("validate_indices", &validate_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& shape = ctx.input(1);
    const Tensor& values = ctx.input(2);
    const Tensor& def = ctx.input(3);
    if (indices.shape().rank() > 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("sparse_indices should be a scalar, vector, or matrix, got shape ",
                       ShapeString(indices.shape())));
    }
    const int64_t nnz = indices.shape().rank() > 0 ? indices.shape().dim(0) : 1;
    const int64_t rank = indices.shape().rank() > 1 ? indices.shape().dim(1) : 1;
    if (shape.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("output_shape must be rank 1, got shape ", ShapeString(shape.shape())));
    }
    if (shape.NumElements() != rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("output_shape has incorrect number of elements: ", shape.NumElements(),
                       " should be: ", rank));
    }
    if (!(values.shape().rank() == 0 ||
          (values.shape().rank() == 1 && values.NumElements() == nnz))) {
      return absl::InvalidArgumentError(absl::StrCat("sparse_values has incorrect shape ",
                                                     ShapeString(values.shape()),
                                                     ", should be [] or [", nnz, "]"));
    }
    if (def.shape().rank() != 0) {
      return absl::InvalidArgumentError("default_value should be a scalar.");
    }
    const std::vector<int64_t> dims = IndexValues(shape);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    // Each value's offset into the output, row-major. int64 indices are read in place.
    std::vector<int64_t> idx_copy;
    if (indices.dtype() != DT_INT64) idx_copy = IndexValues(indices);
    const int64_t* idx =
        indices.dtype() == DT_INT64 ? indices.flat<int64_t>().data() : idx_copy.data();
    std::vector<int64_t> offsets(static_cast<size_t>(nnz));
    if (!RowOffsets(idx, nnz, rank, dims, validate_, offsets.data())) {
      const absl::Status error = FirstIndexError(IndexValues(indices), nnz, rank, dims, out_shape);
      if (!error.ok()) return error;
      return absl::InternalError(absl::StrCat("SparseToDense node ", name(),
                                              ": the index checks disagree on sparse_indices"));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    return VisitAllTypes(*this, values.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* o = out->flat<T>().data();
      FillParallel(ctx, def.flat<T>()[0], out->NumElements(), o);
      const T* v = values.flat<T>().data();
      if (values.shape().rank() == 0) {
        for (int64_t n = 0; n < nnz; ++n) o[offsets[n]] = v[0];
      } else {
        for (int64_t n = 0; n < nnz; ++n) o[offsets[n]] = v[n];
      }
      return absl::OkStatus();
    });
  }

 private:
  // offsets[n] = row n's row-major offset into dims; true when every row is in bounds and, when
  // `increasing`, the rows are strictly increasing (for rows in bounds, row order is offset
  // order). False leaves offsets unspecified: FirstIndexError names the problem. Branch-free per
  // row (unsigned arithmetic: a negative or too large index fails the bound and its offset's
  // overflow is harmless).
  static bool RowOffsets(const int64_t* idx, int64_t nnz, int64_t rank,
                         const std::vector<int64_t>& dims, bool increasing, int64_t* offsets) {
    bool ok = true;
    if (rank == 2) {
      const uint64_t rows = static_cast<uint64_t>(dims[0]), cols = static_cast<uint64_t>(dims[1]);
      for (int64_t n = 0; n < nnz; ++n) {
        const uint64_t r = static_cast<uint64_t>(idx[2 * n]);
        const uint64_t c = static_cast<uint64_t>(idx[2 * n + 1]);
        ok &= (r < rows) & (c < cols);
        offsets[n] = static_cast<int64_t>(r * cols + c);
      }
    } else {
      for (int64_t n = 0; n < nnz; ++n) {
        uint64_t at = 0;
        for (int64_t d = 0; d < rank; ++d) {
          const uint64_t v = static_cast<uint64_t>(idx[n * rank + d]);
          const uint64_t dim = static_cast<uint64_t>(dims[d]);
          ok &= v < dim;
          at = at * dim + v;
        }
        offsets[n] = static_cast<int64_t>(at);
      }
    }
    if (ok && increasing) {
      for (int64_t n = 1; n < nnz; ++n) ok &= offsets[n - 1] < offsets[n];
    }
    return ok;
  }

  // The error of the first row out of bounds, out of order or repeated (the last two only when
  // validating): bounds first, then order against the previous row, as TensorFlow's validation
  // reports. OK when there is none.
  absl::Status FirstIndexError(const std::vector<int64_t>& idx, int64_t nnz, int64_t rank,
                               const std::vector<int64_t>& dims,
                               const TensorShape& out_shape) const {
    for (int64_t n = 0; n < nnz; ++n) {
      const int64_t* row = idx.data() + n * rank;
      bool in_bounds = true;
      for (int64_t d = 0; d < rank; ++d) in_bounds &= row[d] >= 0 && row[d] < dims[d];
      if (!in_bounds) {
        if (!validate_) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Indices are not valid (out of bounds).  Shape: ", ShapeString(out_shape)));
        }
        return absl::InvalidArgumentError(
            absl::StrCat("indices[", n, "] = ", IndexString(idx, n, rank),
                         " is out of bounds: need 0 <= index < ", ShapeString(out_shape)));
      }
      if (validate_ && n > 0) {
        const int cmp = CompareRows(row - rank, row, rank);
        if (cmp > 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("indices[", n, "] = ", IndexString(idx, n, rank),
                           " is out of order. Many sparse ops require sorted indices.\n    Use "
                           "`tf.sparse.reorder` to create a correctly ordered copy.\n\n"));
        }
        if (cmp == 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("indices[", n, "] = ", IndexString(idx, n, rank), " is repeated"));
        }
      }
    }
    return absl::OkStatus();
  }

  bool validate_ = true;
};

// --- SparseTensorDenseMatMul ---------------------------------------------------------------

class SparseDenseMatMulOp final : public OpKernel {
 public:
  explicit SparseDenseMatMulOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("adjoint_a", &adjoint_a_));
    ctx.SetStatus(ctx.GetAttr("adjoint_b", &adjoint_b_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& ai = ctx.input(0);
    const Tensor& av = ctx.input(1);
    const Tensor& as = ctx.input(2);
    const Tensor& b = ctx.input(3);
    if (ai.shape().rank() != 2) {
      return absl::InvalidArgumentError("Tensor 'a_indices' is not a matrix");
    }
    if (av.shape().rank() != 1) {
      return absl::InvalidArgumentError("Tensor 'a_values' is not a vector");
    }
    if (as.shape().rank() != 1) {
      return absl::InvalidArgumentError("Tensor 'a_shape' is not a vector");
    }
    if (as.NumElements() != 2) {
      return absl::InvalidArgumentError("Tensor 'a_shape' must have 2 elements");
    }
    if (b.shape().rank() != 2) return absl::InvalidArgumentError("Tensor 'b' is not a matrix");
    const int64_t nnz = av.NumElements();
    if (ai.shape().dim(0) != nnz) {
      return absl::InvalidArgumentError(
          "Number of rows of a_indices does not match number of entries in a_values");
    }
    if (ai.shape().dim(1) != as.NumElements()) {
      return absl::InvalidArgumentError(
          "Number of columns of a_indices does not match number of entries in a_shape");
    }
    const std::vector<int64_t> shape = IndexValues(as);
    const int64_t outer_left = adjoint_a_ ? shape[1] : shape[0];
    const int64_t inner_left = adjoint_a_ ? shape[0] : shape[1];
    const int64_t outer_right = adjoint_b_ ? b.shape().dim(0) : b.shape().dim(1);
    const int64_t inner_right = adjoint_b_ ? b.shape().dim(1) : b.shape().dim(0);
    if (inner_left != inner_right) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Cannot multiply A and B because inner dimension does not match: ", inner_left, " vs. ",
          inner_right, ".  Did you forget a transpose?  Dimensions of A: [", shape[0], ", ",
          shape[1], ").  Dimensions of B: ", ShapeString(b.shape())));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims({outer_left, outer_right}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out_shape.num_elements() == 0) return absl::OkStatus();
    const std::vector<int64_t> idx = IndexValues(ai);
    const int mcol = adjoint_a_ ? 1 : 0;
    const int kcol = 1 - mcol;
    return VisitKernelTypes<float, double, half, int32_t>(*this, b.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = decltype(Load(T()));
      const int64_t n_cols = outer_right;
      T* o = out->flat<T>().data();  // sums in T, as TensorFlow does
      std::fill(o, o + out_shape.num_elements(), Store<T>(C(0)));
      const T* bv = b.flat<T>().data();
      const T* v = av.flat<T>().data();
      const int64_t bcols = b.shape().dim(1);
      if (b.NumElements() > 0) {
        for (int64_t i = 0; i < nnz; ++i) {
          const int64_t m = idx[i * 2 + mcol];
          const int64_t k = idx[i * 2 + kcol];
          if (k < 0 || k >= inner_left) {
            return absl::InvalidArgumentError(absl::StrCat("k (", k, ") from index[", i, ",", kcol,
                                                           "] out of bounds (>=", inner_left, ")"));
          }
          if (m < 0 || m >= outer_left) {
            return absl::InvalidArgumentError(absl::StrCat("m (", m, ") from index[", i, ",", mcol,
                                                           "] out of bounds (>=", outer_left, ")"));
          }
          const C a = Load(v[i]);
          T* row = o + m * n_cols;
          for (int64_t n = 0; n < n_cols; ++n) {
            const C x = Load(adjoint_b_ ? bv[n * bcols + k] : bv[k * bcols + n]);
            row[n] = Store<T>(cwise_math::WrapAdd(Load(row[n]), cwise_math::WrapMul(a, x)));
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  bool adjoint_a_ = false;
  bool adjoint_b_ = false;
};

// --- SparseTensor validation shared by SparseReduceSum -------------------------------------

absl::Status CheckSparseTensor(const Tensor& indices, const Tensor& values, int64_t rank) {
  if (indices.shape().rank() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("indices must be a matrix, but got: ", ShapeString(indices.shape())));
  }
  if (values.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("vals must be a vec, but got: ", ShapeString(values.shape())));
  }
  if (indices.shape().dim(0) != values.shape().dim(0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("indices and values rows (indexing dimension) must match. (indices = ",
                     indices.shape().dim(0), ", values = ", values.shape().dim(0), ")"));
  }
  if (indices.shape().dim(1) != rank) {
    return absl::InvalidArgumentError("Order length must be SparseTensor rank.");
  }
  return absl::OkStatus();
}

// SparseReduceSum (kMax false) and SparseReduceMax (kMax true).
template <bool kMax>
class SparseReduceOp final : public OpKernel {
 public:
  explicit SparseReduceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("keep_dims", &keep_dims_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& values = ctx.input(1);
    const Tensor& shape_t = ctx.input(2);
    const Tensor& axes_t = ctx.input(3);
    if (shape_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected input_shape to be a vector; got shape: ", ShapeString(shape_t.shape())));
    }
    if (axes_t.shape().rank() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected reduction_axes to be a scalar or a vector; got shape: ",
                       ShapeString(axes_t.shape())));
    }
    const std::vector<int64_t> dims = IndexValues(shape_t);
    const int64_t rank = static_cast<int64_t>(dims.size());
    RILL_RETURN_IF_ERROR(TensorShape::FromDims(dims).status());
    RILL_RETURN_IF_ERROR(CheckSparseTensor(indices, values, rank));
    std::vector<bool> reduced(static_cast<size_t>(rank), false);
    for (int64_t axis : IndexValues(axes_t)) {
      if (axis < -rank || axis >= rank) {
        return absl::InvalidArgumentError(absl::StrCat("Invalid reduction dimension ", axis,
                                                       ", for input with ", rank, " dimensions."));
      }
      reduced[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = true;
    }
    std::vector<int64_t> out_dims;
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d]) {
        kept.push_back(d);
        out_dims.push_back(dims[d]);
      } else if (keep_dims_) {
        out_dims.push_back(1);
      }
    }
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const std::vector<int64_t> idx = IndexValues(indices);
    const int64_t nnz = indices.shape().dim(0);
    const int64_t size = out_shape.num_elements();
    // Entries in row-major order of (kept dims, reduced dims), as TensorFlow groups them.
    std::vector<int64_t> order(static_cast<size_t>(nnz));
    std::iota(order.begin(), order.end(), 0);
    std::vector<int64_t> perm = kept;
    for (int64_t d = 0; d < rank; ++d) {
      if (reduced[d]) perm.push_back(d);
    }
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      for (int64_t d : perm) {
        if (idx[a * rank + d] != idx[b * rank + d]) return idx[a * rank + d] < idx[b * rank + d];
      }
      return false;
    });
    return VisitKernelTypes<float, double, half, int32_t, int64_t, uint8_t, int8_t, int16_t>(
        *this, values.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          using C = decltype(Load(T()));
          // Entries are sorted by the kept dims, so each output element's entries are
          // consecutive: each run is summed (or its maximum taken), then written; elements
          // without entries are 0.
          T* o = out->flat<T>().data();
          std::fill(o, o + size, Store<T>(C(0)));
          const T* v = values.flat<T>().data();
          int64_t run_at = -1;
          C run = C(0);
          for (int64_t n : order) {
            uint64_t linear = 0;  // wraps like TensorFlow's arithmetic, without signed overflow
            for (int64_t d : kept) {
              linear = linear * static_cast<uint64_t>(dims[d]) +
                       static_cast<uint64_t>(idx[n * rank + d]);
            }
            const int64_t at = static_cast<int64_t>(linear);
            if (at < 0 || at >= size) {
              return absl::InternalError(absl::StrCat("Obtained a write index of ", at,
                                                      " which is outside of bounds of [0, ", size,
                                                      ")"));
            }
            const C x = Load(v[n]);
            if (at != run_at) {
              if (run_at >= 0) o[run_at] = Store<T>(run);
              run_at = at;
              run = kMax ? x : C(0);
              if (kMax) continue;
            }
            if constexpr (kMax) {
              run = x < run ? run : x;  // a NaN entry is kept until a later one replaces it
            } else {
              run = cwise_math::WrapAdd(run, x);
            }
          }
          if (run_at >= 0) o[run_at] = Store<T>(run);
          return absl::OkStatus();
        });
  }

 private:
  bool keep_dims_ = false;
};

// --- SparseAdd -----------------------------------------------------------------------------

class SparseAddOp final : public OpKernel {
 public:
  explicit SparseAddOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& ai = ctx.input(0);
    const Tensor& av = ctx.input(1);
    const Tensor& as = ctx.input(2);
    const Tensor& bi = ctx.input(3);
    const Tensor& bv = ctx.input(4);
    const Tensor& bs = ctx.input(5);
    const Tensor& thresh = ctx.input(6);
    if (ai.shape().rank() != 2 || bi.shape().rank() != 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input indices should be matrices but received shapes: ", ShapeString(ai.shape()),
          " and ", ShapeString(bi.shape())));
    }
    const int64_t rank = ai.shape().dim(1);
    if (bi.shape().dim(1) != rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input indices must have the same dimension, got ", rank, " and ", bi.shape().dim(1)));
    }
    if (av.shape().rank() != 1 || bv.shape().rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input values should be vectors but received shapes: ", ShapeString(av.shape()), " and ",
          ShapeString(bv.shape())));
    }
    const int64_t an = ai.shape().dim(0);
    const int64_t bn = bi.shape().dim(0);
    if (av.NumElements() != an || bv.NumElements() != bn) {
      return absl::InvalidArgumentError(absl::StrCat("Expected ", an, " and ", bn,
                                                     " non-empty input values, got ",
                                                     av.NumElements(), " and ", bv.NumElements()));
    }
    if (as.shape().rank() != 1 || bs.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input shapes should be a vector but received shapes ",
                       ShapeString(as.shape()), " and ", ShapeString(bs.shape())));
    }
    const std::vector<int64_t> a_dims = IndexValues(as);
    const std::vector<int64_t> b_dims = IndexValues(bs);
    if (static_cast<int64_t>(a_dims.size()) != rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("Second dimension of a_indices and length of a_shape must match, got ", rank,
                       " and ", a_dims.size()));
    }
    if (a_dims.size() != b_dims.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Operands do not have the same ranks; got shapes: [",
                       absl::StrJoin(a_dims, ","), "] and [", absl::StrJoin(b_dims, ","), "]"));
    }
    for (size_t d = 0; d < a_dims.size(); ++d) {
      if (a_dims[d] != b_dims[d]) {
        return absl::InvalidArgumentError(absl::StrCat("Operands' shapes do not match: got ",
                                                       a_dims[d], " and ", b_dims[d],
                                                       " for dimension ", d));
      }
    }
    if (thresh.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The magnitude threshold must be a scalar: got shape ", ShapeString(thresh.shape())));
    }
    if (thresh.dtype() != av.dtype()) {  // TensorFlow registers Treal == T for real T
      return absl::InvalidArgumentError(absl::StrCat(
          "SparseAdd node ", name(), " has no CPU kernel for T=", DataTypeString(av.dtype()),
          ", Treal=", DataTypeString(thresh.dtype())));
    }
    const std::vector<int64_t> aidx = IndexValues(ai);
    const std::vector<int64_t> bidx = IndexValues(bi);
    return VisitKernelTypes<float, double, int32_t, int64_t, int8_t, int16_t>(
        *this, av.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* a = av.flat<T>().data();
          const T* b = bv.flat<T>().data();
          const T th = thresh.flat<T>()[0];
          auto keep = [th](T x) { return th <= (x < T(0) ? T(-x) : x); };  // NaN: dropped
          std::vector<std::pair<const int64_t*, T>> merged;
          merged.reserve(static_cast<size_t>(an + bn));
          int64_t i = 0;
          int64_t j = 0;
          while (i < an && j < bn) {
            const int cmp = CompareRows(&aidx[i * rank], &bidx[j * rank], rank);
            if (cmp < 0) {
              merged.emplace_back(&aidx[i * rank], a[i]);
              ++i;
            } else if (cmp > 0) {
              merged.emplace_back(&bidx[j * rank], b[j]);
              ++j;
            } else {
              const T s = cwise_math::WrapAdd(a[i], b[j]);
              if (keep(s)) merged.emplace_back(&aidx[i * rank], s);
              ++i;
              ++j;
            }
          }
          for (; i < an; ++i) {
            merged.emplace_back(&aidx[i * rank], a[i]);
          }
          for (; j < bn; ++j) {
            merged.emplace_back(&bidx[j * rank], b[j]);
          }
          const int64_t n = static_cast<int64_t>(merged.size());
          RILL_ASSIGN_OR_RETURN(Tensor * oi, ctx.allocate_output(0, TensorShape({n, rank})));
          RILL_ASSIGN_OR_RETURN(Tensor * ov, ctx.allocate_output(1, TensorShape({n})));
          RILL_ASSIGN_OR_RETURN(Tensor * os, ctx.allocate_output(2, as.shape()));
          int64_t* oidx = oi->flat<int64_t>().data();
          T* oval = ov->flat<T>().data();
          for (int64_t k = 0; k < n; ++k) {
            std::copy(merged[k].first, merged[k].first + rank, oidx + k * rank);
            oval[k] = merged[k].second;
          }
          std::copy(a_dims.begin(), a_dims.end(), os->flat<int64_t>().data());
          return absl::OkStatus();
        });
  }
};

// --- SparseReorder -------------------------------------------------------------------------

class SparseReorderOp final : public OpKernel {
 public:
  explicit SparseReorderOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& values = ctx.input(1);
    const Tensor& shape = ctx.input(2);
    RILL_RETURN_IF_ERROR(CheckSparseTensorStructure(indices, values, shape));
    const int64_t nnz = indices.shape().dim(0);
    const int64_t rank = indices.shape().dim(1);
    const std::vector<int64_t> idx = IndexValues(indices);
    std::vector<int64_t> order(static_cast<size_t>(nnz));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return CompareRows(&idx[a * rank], &idx[b * rank], rank) < 0;
    });
    RILL_ASSIGN_OR_RETURN(Tensor * oi, ctx.allocate_output(0, indices.shape()));
    RILL_ASSIGN_OR_RETURN(Tensor * ov, ctx.allocate_output(1, values.shape()));
    int64_t* o = oi->flat<int64_t>().data();
    for (int64_t k = 0; k < nnz; ++k) {
      std::copy(&idx[order[k] * rank], &idx[order[k] * rank] + rank, o + k * rank);
    }
    return VisitAllTypes(*this, values.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto v = values.flat<T>();
      auto w = ov->flat<T>();
      for (int64_t k = 0; k < nnz; ++k) w[k] = v[order[k]];
      return absl::OkStatus();
    });
  }
};

// --- SparseReshape -------------------------------------------------------------------------

class SparseReshapeOp final : public OpKernel {
 public:
  explicit SparseReshapeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& in_shape_t = ctx.input(1);
    const Tensor& new_shape_t = ctx.input(2);
    if (indices.shape().rank() != 2) return absl::InvalidArgumentError("Input must be a matrix.");
    if (in_shape_t.shape().rank() != 1) {
      return absl::InvalidArgumentError("Input shape must be a vector.");
    }
    if (new_shape_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Target shape should be a vector but received shape ", ShapeString(new_shape_t.shape())));
    }
    const int64_t nnz = indices.shape().dim(0);
    const int64_t in_rank = indices.shape().dim(1);
    if (in_shape_t.NumElements() != in_rank) {
      return absl::InvalidArgumentError("Input tensor rank must match input shape length.");
    }
    const std::vector<int64_t> in_dims = IndexValues(in_shape_t);
    RILL_ASSIGN_OR_RETURN(TensorShape in_shape, TensorShape::FromDims(in_dims));
    const int64_t dense_size = in_shape.num_elements();
    std::vector<int64_t> out_dims = IndexValues(new_shape_t);
    const int64_t out_rank = static_cast<int64_t>(out_dims.size());
    int64_t unknown = -1;
    int64_t product = 1;
    for (int64_t d = 0; d < out_rank; ++d) {
      if (out_dims[d] == -1) {
        if (unknown != -1) {
          return absl::InvalidArgumentError(
              absl::StrCat("only one output dimension may be -1, not both ", unknown, " and ", d));
        }
        unknown = d;
        out_dims[d] = 1;
      } else if (out_dims[d] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("size ", d, " must be non-negative, not ", out_dims[d]));
      } else {
        if (out_dims[d] > 0 && product > std::numeric_limits<int64_t>::max() / out_dims[d]) {
          return absl::InvalidArgumentError("Reshape's new shape has too many elements.");
        }
        product *= out_dims[d];
      }
    }
    auto dims_string = [](const std::vector<int64_t>& v) {
      return absl::StrCat("[", absl::StrJoin(v, ","), "]");
    };
    if (unknown != -1) {
      if (product <= 0) {
        return absl::InvalidArgumentError(
            "reshape cannot infer the missing input size for an empty tensor unless all "
            "specified input sizes are non-zero");
      }
      const int64_t missing = dense_size / product;
      if (missing * product != dense_size) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input to reshape is a SparseTensor with ", dense_size,
            " dense values, but the requested shape requires a multiple of ", product,
            ". input_shape=", ShapeString(in_shape), " output_shape=", dims_string(out_dims)));
      }
      out_dims[unknown] = missing;
      product *= missing;
    }
    if (product != dense_size) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input to reshape is a tensor with ", dense_size,
          " dense values, but the requested shape has ", product,
          ". input_shape=", ShapeString(in_shape), " output_shape=", dims_string(out_dims)));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * oi, ctx.allocate_output(0, TensorShape({nnz, out_rank})));
    RILL_ASSIGN_OR_RETURN(Tensor * os, ctx.allocate_output(1, TensorShape({out_rank})));
    std::copy(out_dims.begin(), out_dims.end(), os->flat<int64_t>().data());
    const std::vector<int64_t> idx = IndexValues(indices);
    int64_t* o = oi->flat<int64_t>().data();
    if (in_dims == out_dims) {  // unchanged, as TensorFlow passes them through
      std::copy(idx.begin(), idx.end(), o);
      return absl::OkStatus();
    }
    // An index cannot name a position of an empty shape (TensorFlow's check and text).
    if (nnz > 0 && dense_size == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input tensor has ", nnz, " non zero elements but input shape (", ShapeString(in_shape),
          ") or output shape (", dims_string(out_dims), ") is empty"));
    }
    // Row-major strides of the input and output shapes; each index goes through its linear
    // position (wrapping arithmetic: indices are not validated, as in TensorFlow).
    std::vector<uint64_t> in_strides(static_cast<size_t>(in_rank), 1);
    for (int64_t d = in_rank - 2; d >= 0; --d) {
      in_strides[d] = in_strides[d + 1] * static_cast<uint64_t>(in_dims[d + 1]);
    }
    std::vector<int64_t> out_strides(static_cast<size_t>(out_rank), 1);
    for (int64_t d = out_rank - 2; d >= 0; --d)
      out_strides[d] = out_strides[d + 1] * out_dims[d + 1];
    for (int64_t n = 0; n < nnz; ++n) {
      uint64_t linear = 0;
      for (int64_t d = 0; d < in_rank; ++d) {
        linear += static_cast<uint64_t>(idx[n * in_rank + d]) * in_strides[d];
      }
      int64_t id = static_cast<int64_t>(linear);
      for (int64_t d = 0; d < out_rank; ++d) {
        if (out_strides[d] == 0) {
          o[n * out_rank + d] = 0;
          continue;
        }
        o[n * out_rank + d] = id / out_strides[d];
        id %= out_strides[d];
      }
    }
    return absl::OkStatus();
  }
};

// --- SparseFillEmptyRows -------------------------------------------------------------------

class SparseFillEmptyRowsOp final : public OpKernel {
 public:
  explicit SparseFillEmptyRowsOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& values = ctx.input(1);
    const Tensor& shape_t = ctx.input(2);
    const Tensor& def = ctx.input(3);
    if (indices.shape().rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("indices must be a matrix, saw: ", ShapeString(indices.shape())));
    }
    if (values.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("values must be a vector, saw: ", ShapeString(values.shape())));
    }
    if (shape_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("dense_shape must be a vector, saw: ", ShapeString(shape_t.shape())));
    }
    if (def.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("default_value must be a scalar, saw: ", ShapeString(def.shape())));
    }
    if (shape_t.NumElements() == 0) {
      return absl::InvalidArgumentError("Dense shape cannot be empty.");
    }
    const int64_t nnz = indices.shape().dim(0);
    const int64_t rank = indices.shape().dim(1);
    if (values.NumElements() != nnz) {
      return absl::InvalidArgumentError(
          absl::StrCat("The length of `values` (", values.NumElements(),
                       ") must match the first dimension of `indices` (", nnz, ")."));
    }
    if (shape_t.NumElements() != rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("The length of `dense_shape` (", shape_t.NumElements(),
                       ") must match the second dimension of `indices` (", rank, ")."));
    }
    // Every dim, not only the rows counted here: the output is a sparse tensor of this shape.
    for (int64_t d : IndexValues(shape_t)) {
      if (d < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected shape dimensions to be non-negative, got ", d));
      }
    }
    const int64_t rows = IndexValues(shape_t)[0];
    const std::vector<int64_t> idx = IndexValues(indices);
    // Per-row counts and starts sized by dense_shape's value: through the allocator, so a huge
    // row count is ResourceExhausted rather than std::bad_alloc.
    RILL_ASSIGN_OR_RETURN(Tensor count_t, ctx.allocate_temp(DT_INT64, TensorShape({rows})));
    RILL_ASSIGN_OR_RETURN(Tensor start_t, ctx.allocate_temp(DT_INT64, TensorShape({rows + 1})));
    int64_t* count = count_t.flat<int64_t>().data();
    int64_t* start = start_t.flat<int64_t>().data();
    std::fill(count, count + rows, 0);
    for (int64_t i = 0; i < nnz; ++i) {
      const int64_t r = idx[i * rank];
      if (r < 0 || r >= rows) {
        return absl::InvalidArgumentError(
            absl::StrCat("indices(", i, ", 0) is invalid: ", r, " >= ", rows));
      }
      ++count[r];
    }
    // Each row starts at the sum of the sizes of the rows before it; an empty row holds one
    // default entry.
    start[0] = 0;
    for (int64_t r = 0; r < rows; ++r) start[r + 1] = start[r] + std::max<int64_t>(count[r], 1);
    const int64_t total = start[rows];
    RILL_ASSIGN_OR_RETURN(Tensor * oi, ctx.allocate_output(0, TensorShape({total, rank})));
    RILL_ASSIGN_OR_RETURN(Tensor * ov, ctx.allocate_output(1, TensorShape({total})));
    RILL_ASSIGN_OR_RETURN(Tensor * oe, ctx.allocate_output(2, TensorShape({rows})));
    RILL_ASSIGN_OR_RETURN(Tensor * orev, ctx.allocate_output(3, TensorShape({nnz})));
    int64_t* out_idx = oi->flat<int64_t>().data();
    int64_t* rev = orev->flat<int64_t>().data();
    auto empty = oe->flat<bool>();
    RILL_ASSIGN_OR_RETURN(Tensor next_t, ctx.allocate_temp(DT_INT64, TensorShape({rows})));
    int64_t* next = next_t.flat<int64_t>().data();
    std::copy(start, start + rows, next);
    for (int64_t i = 0; i < nnz; ++i) {
      const int64_t at = next[idx[i * rank]]++;
      rev[i] = at;
      std::copy(&idx[i * rank], &idx[i * rank] + rank, out_idx + at * rank);
    }
    for (int64_t r = 0; r < rows; ++r) {
      empty[r] = count[r] == 0;
      if (count[r] == 0) {
        std::fill(out_idx + start[r] * rank, out_idx + (start[r] + 1) * rank, 0);
        out_idx[start[r] * rank] = r;
      }
    }
    return VisitAllTypes(*this, values.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto v = values.flat<T>();
      auto w = ov->flat<T>();
      for (int64_t i = 0; i < nnz; ++i) w[rev[i]] = v[i];
      for (int64_t r = 0; r < rows; ++r) {
        if (count[r] == 0) w[start[r]] = def.flat<T>()[0];
      }
      return absl::OkStatus();
    });
  }
};

#define RILL_ALL_SPARSE_TYPES float, double, half, int32_t, int64_t, uint8_t, int8_t, int16_t, bool

REGISTER_KERNEL(KernelDefBuilder("SparseToDense")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_ALL_SPARSE_TYPES>())
                    .TypeConstraint("Tindices", DataTypesOf<int32_t, int64_t>()),
                SparseToDenseOp);
REGISTER_KERNEL(KernelDefBuilder("SparseTensorDenseMatMul")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double, half, int32_t>())
                    .TypeConstraint("Tindices", DataTypesOf<int32_t, int64_t>()),
                SparseDenseMatMulOp);
REGISTER_KERNEL(KernelDefBuilder("SparseReduceSum")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double, half, int32_t, int64_t, uint8_t,
                                                     int8_t, int16_t>()),
                SparseReduceOp<false>);
REGISTER_KERNEL(KernelDefBuilder("SparseReduceMax")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double, half, int32_t, int64_t, uint8_t,
                                                     int8_t, int16_t>()),
                SparseReduceOp<true>);
REGISTER_KERNEL(
    KernelDefBuilder("SparseAdd")
        .Device(kDeviceCpu)
        .TypeConstraint("T", DataTypesOf<float, double, int32_t, int64_t, int8_t, int16_t>())
        .TypeConstraint("Treal", DataTypesOf<float, double, int32_t, int64_t, int8_t, int16_t>()),
    SparseAddOp);
REGISTER_KERNEL(KernelDefBuilder("SparseReorder")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_ALL_SPARSE_TYPES>()),
                SparseReorderOp);

REGISTER_KERNEL(KernelDefBuilder("SparseReshape").Device(kDeviceCpu), SparseReshapeOp);
REGISTER_KERNEL(KernelDefBuilder("SparseFillEmptyRows")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_ALL_SPARSE_TYPES>()),
                SparseFillEmptyRowsOp);

}  // namespace
}  // namespace rill
