// MatrixBandPart, MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3, their V1 forms, Diag and
// DiagPart on the CPU, over the
// innermost two dims [M, N] of a batch of matrices. Elements move by size (VisitElementType).
//
// Diagonal d is the elements [r, r + d] (d > 0 above the main diagonal); it has
// len(d) = min(M + min(0, d), N - max(0, d)) elements. k is one diagonal or a range [k0, k1];
// a range is stored as rows k1, k1 - 1, ..., k0 (row k1 - d) of max_len elements, the longest
// diagonal's length. A shorter diagonal is aligned in its row by `align` (superdiagonals, d >= 0,
// by its first word; subdiagonals by its second): LEFT fills the row from the start, RIGHT ends
// it at the end; the rest of the row is padding_value.
//
//   MatrixBandPart: elements with r - c <= num_lower and c - r <= num_upper kept (negative: no
//     bound), the others zero.
//   MatrixDiagPartV3: input [..., M, N] -> the diagonals k ([..., num_diags, max_len], or
//     [..., max_len] for one).
//   MatrixDiagV3: the diagonals -> [..., num_rows, num_cols] matrices (padding_value elsewhere);
//     num_rows / num_cols -1 are inferred from the diagonals.
//   MatrixSetDiagV3: input with the diagonals k replaced.
//   MatrixDiag, MatrixDiagPart, MatrixSetDiag (the V1 forms): the main diagonal only (k = 0), zero
//     padding, square MatrixDiag outputs.
//   Diag: a rank-r tensor D -> the rank-2r tensor with D on its diagonal (out[i, i] = D[i] for
//     multi-indices i); DiagPart: the inverse, from a rank-2r input whose halves match.
//
// Errors (TensorFlow's texts): InvalidArgument "input must be at least 2-dim, received shape:
// [5]", "diagonal must be at least 1-dim, received shape: []", "diag_index must be a scalar or
// vector, received shape: [1,1]", "Expected diag_index to have at least 1 element",
// "diag_index must have only one or two elements, received 3 elements.", "lower_diag_index must
// not be larger than upper_diag_index: 2 > 1", "lower_diag_index is out of bound: -4. It must be
// between -4 and 5" (MatrixDiagPartV3; MatrixSetDiagV3 without the period), "upper_diag_index is
// out of bound: 5 It must be between -4 and 5", "num_rows must be a scalar", "padding_value must
// be a scalar", "The number of diagonals provided in the input does not match the
// lower_diag_index and upper_diag_index range.", "The number of rows is too small.", "The number
// of columns is too small.", "The number of rows or columns is not consistent with the specified
// d_lower, d_upper, and diagonal.", "The number of diagonals provided in `diag` is not consistent
// with `lower_diag_index` and `upper_diag_index`", "Either first dimensions of diagonal don't
// match input.shape[:-2], or diagonal.shape[:-1] is not equal to the longests diagonal in range
// [lower_diag_index:upper_diag_index].\nInput shape: ...", MatrixBandPart "num_lower must be
// scalar, got shape [1]", "num_lower must be negative or less or equal to number of rows (4) got:
// 5", "num_upper must be negative or less or equal to number of columns (5) got: 6", Diag "Input
// must be at least rank 1, got 0", DiagPart "The rank of the tensor should be    even and
// positive, got shape [3]" (42 spaces in the gap), "Invalid shape [2,3]: dimensions 0 and 1 do not
// match.".
//
// Thread safety: Compute is const and keeps no state; concurrent steps are safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"

namespace rill {
namespace {

std::vector<DataType> MatrixTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32,     DT_INT64,     DT_UINT8,
          DT_INT8,  DT_INT16,  DT_BOOL, DT_COMPLEX64, DT_COMPLEX128};
}

int64_t DiagLen(int64_t d, int64_t rows, int64_t cols) {
  return std::max<int64_t>(
      0, std::min(rows + std::min<int64_t>(0, d), cols - std::max<int64_t>(0, d)));
}

// The longest of diagonals k0..k1 of an M x N matrix.
int64_t MaxDiagLen(int64_t k0, int64_t k1, int64_t rows, int64_t cols) {
  return std::max<int64_t>(
      0, std::min(rows + std::min<int64_t>(k1, 0), cols - std::max<int64_t>(k0, 0)));
}

// The diagonal range k: (k0, k1).
absl::Status ReadDiagIndex(const Tensor& k, int64_t* k0, int64_t* k1) {
  if (k.shape().rank() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "diag_index must be a scalar or vector, received shape: ", k.shape().DebugString()));
  }
  if (k.NumElements() == 0) {
    return absl::InvalidArgumentError("Expected diag_index to have at least 1 element");
  }
  if (k.NumElements() > 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "diag_index must have only one or two elements, received ", k.NumElements(), " elements."));
  }
  const std::vector<int64_t> v = IndexValues(k);
  *k0 = v[0];
  *k1 = v.back();
  if (*k0 > *k1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "lower_diag_index must not be larger than upper_diag_index: ", *k0, " > ", *k1));
  }
  return absl::OkStatus();
}

// Both diagonals inside an M x N matrix: -M < k < N (k = 0 always allowed).
absl::Status CheckDiagBounds(int64_t k0, int64_t k1, int64_t rows, int64_t cols,
                             const char* lower_separator) {
  auto inside = [&](int64_t k) { return (-rows < k && k < cols) || k == 0; };
  if (!inside(k0)) {
    return absl::InvalidArgumentError(absl::StrCat("lower_diag_index is out of bound: ", k0,
                                                   lower_separator, " It must be between ", -rows,
                                                   " and ", cols));
  }
  if (!inside(k1)) {
    return absl::InvalidArgumentError(absl::StrCat("upper_diag_index is out of bound: ", k1,
                                                   " It must be between ", -rows, " and ", cols));
  }
  return absl::OkStatus();
}

// align: whether superdiagonals (d >= 0) and subdiagonals are left-aligned in their rows.
class DiagOpBase : public OpKernel {
 public:
  explicit DiagOpBase(OpKernelConstruction& ctx) : OpKernel(ctx) {
    // The V2 ops, which have no align attr, pack every diagonal LEFT_LEFT.
    std::string align = absl::EndsWith(ctx.def().op(), "V2") ? "LEFT_LEFT" : "RIGHT_LEFT";
    (void)ctx.GetAttr("align", &align);
    left_super_ = absl::StartsWith(align, "LEFT");
    left_sub_ = absl::EndsWith(align, "LEFT");
  }

 protected:
  // Where diagonal d's first element sits in its row of max_len.
  int64_t Offset(int64_t d, int64_t len, int64_t max_len) const {
    const bool left = d >= 0 ? left_super_ : left_sub_;
    return left ? 0 : max_len - len;
  }

  bool left_super_ = false, left_sub_ = true;
};

// Calls fn(TypeTag<T>{}) with T the element-size type of `dt`.
template <typename F>
absl::Status Visit(DataType dt, F&& f) {
  return VisitElementType(dt, std::forward<F>(f));
}

class MatrixDiagPartOp final : public DiagOpBase {
 public:
  using DiagOpBase::DiagOpBase;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    // MatrixDiagPart (V1) has no k or padding_value: the main diagonal, zero padding.
    const Tensor* padding = ctx.num_inputs() > 1 ? &ctx.input(2) : nullptr;
    const TensorShape& s = input.shape();
    if (s.rank() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be at least 2-dim, received shape: ", s.DebugString()));
    }
    if (padding != nullptr && padding->shape().rank() != 0) {
      return absl::InvalidArgumentError("padding_value must be a scalar");
    }
    int64_t k0 = 0, k1 = 0;
    if (padding != nullptr) RILL_RETURN_IF_ERROR(ReadDiagIndex(ctx.input(1), &k0, &k1));
    const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
    RILL_RETURN_IF_ERROR(CheckDiagBounds(k0, k1, rows, cols, "."));
    const int64_t num_diags = k1 - k0 + 1;
    const int64_t max_len = MaxDiagLen(k0, k1, rows, cols);
    std::vector<int64_t> out_dims(s.dims().begin(), s.dims().end() - 2);
    if (num_diags > 1) out_dims.push_back(num_diags);
    out_dims.push_back(max_len);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t batches = out->NumElements() / (num_diags * max_len);
    return Visit(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* in = ElementsOf<T>(input);
      T* o = ElementsOf<T>(*out);
      const T pad = padding != nullptr ? ElementsOf<T>(*padding)[0] : T{};
      for (int64_t b = 0; b < batches; ++b) {
        const T* m = in + b * rows * cols;
        for (int64_t d = k1; d >= k0; --d) {
          T* row = o + (b * num_diags + (k1 - d)) * max_len;
          const int64_t len = DiagLen(d, rows, cols), off = Offset(d, len, max_len);
          const int64_t r0 = std::max<int64_t>(0, -d);
          for (int64_t n = 0; n < max_len; ++n) {
            const int64_t i = n - off;
            row[n] = i >= 0 && i < len ? m[(r0 + i) * cols + r0 + i + d] : pad;
          }
        }
      }
      return absl::OkStatus();
    });
  }
};

class MatrixDiagOp final : public DiagOpBase {
 public:
  using DiagOpBase::DiagOpBase;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& diag = ctx.input(0);
    const TensorShape& s = diag.shape();
    if (s.rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("diagonal must be at least 1-dim, received shape: ", s.DebugString()));
    }
    // MatrixDiag (V1) has only the diagonal: k = 0, square matrices, zero padding.
    const bool v1 = ctx.num_inputs() == 1;
    int64_t k0 = 0, k1 = 0, rows = -1, cols = -1;
    if (!v1) {
      RILL_RETURN_IF_ERROR(ReadDiagIndex(ctx.input(1), &k0, &k1));
      const char* names[] = {"num_rows", "num_cols", "padding_value"};
      for (int i = 2; i <= 4; ++i) {
        if (ctx.input(i).shape().rank() != 0) {
          return absl::InvalidArgumentError(absl::StrCat(names[i - 2], " must be a scalar"));
        }
      }
      rows = IndexValues(ctx.input(2))[0];
      cols = IndexValues(ctx.input(3))[0];
    }
    const int64_t num_diags = k1 - k0 + 1;
    if (num_diags > 1 && (s.rank() < 2 || s.dim(s.rank() - 2) != num_diags)) {
      return absl::InvalidArgumentError(
          "The number of diagonals provided in the input does not match the lower_diag_index "
          "and upper_diag_index range.");
    }
    const int64_t max_len = s.dim(s.rank() - 1);
    const int64_t min_rows = max_len - std::min<int64_t>(k1, 0);
    const int64_t min_cols = max_len + std::max<int64_t>(k0, 0);
    if (rows == -1 && cols == -1) {
      rows = cols = std::max(min_rows, min_cols);
    } else if (rows == -1) {
      rows = min_rows;
    } else if (cols == -1) {
      cols = min_cols;
    }
    if (rows < min_rows) return absl::InvalidArgumentError("The number of rows is too small.");
    if (cols < min_cols) return absl::InvalidArgumentError("The number of columns is too small.");
    if (rows != min_rows && cols != min_cols) {
      return absl::InvalidArgumentError(
          "The number of rows or columns is not consistent with the specified d_lower, d_upper, "
          "and diagonal.");
    }
    std::vector<int64_t> out_dims(s.dims().begin(), s.dims().end() - (num_diags > 1 ? 2 : 1));
    out_dims.push_back(rows);
    out_dims.push_back(cols);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t batches = out->NumElements() / (rows * cols);
    return Visit(diag.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* in = ElementsOf<T>(diag);
      T* o = ElementsOf<T>(*out);
      const T pad = v1 ? T{} : ElementsOf<T>(ctx.input(4))[0];
      std::fill_n(o, out->NumElements(), pad);
      for (int64_t b = 0; b < batches; ++b) {
        T* m = o + b * rows * cols;
        for (int64_t d = k0; d <= k1; ++d) {
          const T* row = in + (b * num_diags + (k1 - d)) * max_len;
          const int64_t len = DiagLen(d, rows, cols), off = Offset(d, len, max_len);
          const int64_t r0 = std::max<int64_t>(0, -d);
          for (int64_t i = 0; i < len; ++i) {
            const int64_t n = i + off;
            if (n >= 0 && n < max_len) m[(r0 + i) * cols + r0 + i + d] = row[n];
          }
        }
      }
      return absl::OkStatus();
    });
  }
};

class MatrixSetDiagOp final : public DiagOpBase {
 public:
  using DiagOpBase::DiagOpBase;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& diag = ctx.input(1);
    const TensorShape& s = input.shape();
    if (s.rank() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be at least 2-dim, received shape: ", s.DebugString()));
    }
    int64_t k0 = 0, k1 = 0;  // MatrixSetDiag (V1) has no k: the main diagonal
    if (ctx.num_inputs() > 2) RILL_RETURN_IF_ERROR(ReadDiagIndex(ctx.input(2), &k0, &k1));
    const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
    RILL_RETURN_IF_ERROR(CheckDiagBounds(k0, k1, rows, cols, ""));
    const int64_t num_diags = k1 - k0 + 1;
    const TensorShape& ds = diag.shape();
    if (num_diags > 1 && (ds.rank() < 2 || ds.dim(ds.rank() - 2) != num_diags)) {
      return absl::InvalidArgumentError(
          "The number of diagonals provided in `diag` is not consistent with `lower_diag_index` "
          "and `upper_diag_index`");
    }
    const int64_t max_len = MaxDiagLen(k0, k1, rows, cols);
    std::vector<int64_t> expected(s.dims().begin(), s.dims().end() - 2);
    if (num_diags > 1) expected.push_back(num_diags);
    expected.push_back(max_len);
    if (ds.dims() != absl::MakeConstSpan(expected)) {
      RILL_ASSIGN_OR_RETURN(TensorShape want, TensorShape::FromDims(expected));
      return absl::InvalidArgumentError(
          absl::StrCat("Either first dimensions of diagonal don't match input.shape[:-2], or "
                       "diagonal.shape[:-1] is not equal to the longests diagonal in range "
                       "[lower_diag_index:upper_diag_index].\nInput shape: ",
                       s.DebugString(), "\nDiagonal shape: ", ds.DebugString(),
                       "\nExpected diagonal shape: ", want.DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, s));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t batches = input.NumElements() / (rows * cols);
    return Visit(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* in = ElementsOf<T>(diag);
      T* o = ElementsOf<T>(*out);
      std::copy_n(ElementsOf<T>(input), input.NumElements(), o);
      for (int64_t b = 0; b < batches; ++b) {
        T* m = o + b * rows * cols;
        for (int64_t d = k0; d <= k1; ++d) {
          const T* row = in + (b * num_diags + (k1 - d)) * max_len;
          const int64_t len = DiagLen(d, rows, cols), off = Offset(d, len, max_len);
          const int64_t r0 = std::max<int64_t>(0, -d);
          for (int64_t i = 0; i < len; ++i) m[(r0 + i) * cols + r0 + i + d] = row[i + off];
        }
      }
      return absl::OkStatus();
    });
  }
};

// Diag: out has dims D + D; out[i, i] = D[i] (flat: out[i * (n + 1)], n = |D|), zero elsewhere.
class DiagOp final : public OpKernel {
 public:
  explicit DiagOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& diag = ctx.input(0);
    const TensorShape& s = diag.shape();
    if (s.rank() == 0) {
      return absl::InvalidArgumentError("Input must be at least rank 1, got 0");
    }
    std::vector<int64_t> out_dims(s.dims().begin(), s.dims().end());
    out_dims.insert(out_dims.end(), s.dims().begin(), s.dims().end());
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t n = diag.NumElements();
    return Visit(diag.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      T* o = ElementsOf<T>(*out);
      std::fill_n(o, out->NumElements(), T{});
      const T* in = ElementsOf<T>(diag);
      for (int64_t i = 0; i < n; ++i) o[i * (n + 1)] = in[i];
      return absl::OkStatus();
    });
  }
};

// DiagPart: the inverse of Diag.
class DiagPartOp final : public OpKernel {
 public:
  explicit DiagPartOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const TensorShape& s = input.shape();
    const int half = s.rank() / 2;
    if (s.rank() % 2 != 0) {
      // TensorFlow's text has a run of 42 spaces inside it (a continued string literal).
      return absl::InvalidArgumentError(
          absl::StrCat("The rank of the tensor should be", std::string(42, ' '),
                       "even and positive, got shape ", s.DebugString()));
    }
    for (int i = 0; i < half; ++i) {
      if (s.dim(i) != s.dim(i + half)) {
        return absl::InvalidArgumentError(absl::StrCat("Invalid shape ", s.DebugString(),
                                                       ": dimensions ", i, " and ", i + half,
                                                       " do not match."));
      }
    }
    const std::vector<int64_t> out_dims(s.dims().begin(), s.dims().begin() + half);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t n = out->NumElements();
    return Visit(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* in = ElementsOf<T>(input);
      T* o = ElementsOf<T>(*out);
      for (int64_t i = 0; i < n; ++i) o[i] = in[i * (n + 1)];
      return absl::OkStatus();
    });
  }
};

class MatrixBandPartOp final : public OpKernel {
 public:
  explicit MatrixBandPartOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const TensorShape& s = input.shape();
    if (s.rank() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be at least 2-dim, received shape: ", s.DebugString()));
    }
    const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
    int64_t bounds[2];
    const char* names[] = {"num_lower", "num_upper"};
    for (int i = 0; i < 2; ++i) {
      const Tensor& t = ctx.input(1 + i);
      if (t.shape().rank() != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(names[i], " must be scalar, got shape ", t.shape().DebugString()));
      }
      bounds[i] = IndexValues(t)[0];
    }
    if (bounds[0] > rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("num_lower must be negative or less or equal to number of rows (", rows,
                       ") got: ", bounds[0]));
    }
    if (bounds[1] > cols) {
      return absl::InvalidArgumentError(
          absl::StrCat("num_upper must be negative or less or equal to number of columns (", cols,
                       ") got: ", bounds[1]));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, s));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t lower = bounds[0] < 0 ? rows : bounds[0];
    const int64_t upper = bounds[1] < 0 ? cols : bounds[1];
    const int64_t batches = input.NumElements() / (rows * cols);
    return Visit(input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* in = ElementsOf<T>(input);
      T* o = ElementsOf<T>(*out);
      for (int64_t b = 0; b < batches; ++b) {
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t off = (b * rows + r) * cols;
          // Kept: columns [r - lower, r + upper] inside [0, cols).
          const int64_t c0 = std::clamp<int64_t>(r - lower, 0, cols);
          const int64_t c1 = std::clamp<int64_t>(r + upper + 1, c0, cols);
          std::fill(o + off, o + off + c0, T{});
          std::copy(in + off + c0, in + off + c1, o + off + c0);
          std::fill(o + off + c1, o + off + cols, T{});
        }
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("MatrixBandPart")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", MatrixTypes())
                    .HostMemory("num_lower")
                    .HostMemory("num_upper"),
                MatrixBandPartOp);
REGISTER_KERNEL(KernelDefBuilder("MatrixDiagV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", MatrixTypes())
                    .HostMemory("k")
                    .HostMemory("num_rows")
                    .HostMemory("num_cols")
                    .HostMemory("padding_value"),
                MatrixDiagOp);
REGISTER_KERNEL(KernelDefBuilder("MatrixDiagPartV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", MatrixTypes())
                    .HostMemory("k")
                    .HostMemory("padding_value"),
                MatrixDiagPartOp);
REGISTER_KERNEL(KernelDefBuilder("MatrixSetDiagV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", MatrixTypes())
                    .HostMemory("k"),
                MatrixSetDiagOp);
REGISTER_KERNEL(
    KernelDefBuilder("MatrixDiag").Device(kDeviceCpu).TypeConstraint("T", MatrixTypes()),
    MatrixDiagOp);
REGISTER_KERNEL(
    KernelDefBuilder("MatrixDiagPart").Device(kDeviceCpu).TypeConstraint("T", MatrixTypes()),
    MatrixDiagPartOp);
REGISTER_KERNEL(
    KernelDefBuilder("MatrixSetDiag").Device(kDeviceCpu).TypeConstraint("T", MatrixTypes()),
    MatrixSetDiagOp);
REGISTER_KERNEL(KernelDefBuilder("MatrixDiagV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", MatrixTypes())
                    .HostMemory("k")
                    .HostMemory("num_rows")
                    .HostMemory("num_cols")
                    .HostMemory("padding_value"),
                MatrixDiagOp);
REGISTER_KERNEL(KernelDefBuilder("MatrixDiagPartV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", MatrixTypes())
                    .HostMemory("k")
                    .HostMemory("padding_value"),
                MatrixDiagPartOp);
REGISTER_KERNEL(KernelDefBuilder("MatrixSetDiagV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", MatrixTypes())
                    .HostMemory("k"),
                MatrixSetDiagOp);
// The names TF1 graphs from before the Matrix* ops carry.
REGISTER_KERNEL(
    KernelDefBuilder("BatchMatrixDiag").Device(kDeviceCpu).TypeConstraint("T", MatrixTypes()),
    MatrixDiagOp);
REGISTER_KERNEL(
    KernelDefBuilder("BatchMatrixDiagPart").Device(kDeviceCpu).TypeConstraint("T", MatrixTypes()),
    MatrixDiagPartOp);
REGISTER_KERNEL(
    KernelDefBuilder("BatchMatrixSetDiag").Device(kDeviceCpu).TypeConstraint("T", MatrixTypes()),
    MatrixSetDiagOp);
// TensorFlow has no bool kernel for the old name.
REGISTER_KERNEL(KernelDefBuilder("BatchMatrixBandPart")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16})
                    .HostMemory("num_lower")
                    .HostMemory("num_upper"),
                MatrixBandPartOp);
// TensorFlow's CPU types for Diag and DiagPart, less bfloat16 (no recorded cases for it).
REGISTER_KERNEL(KernelDefBuilder("Diag")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64,
                                          DT_COMPLEX64, DT_COMPLEX128}),
                DiagOp);
REGISTER_KERNEL(KernelDefBuilder("DiagPart")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64,
                                          DT_COMPLEX64, DT_COMPLEX128}),
                DiagPartOp);

}  // namespace
}  // namespace rill
