// Einsum on the CPU for one or two operands, e.g. "ij,jk->ik", "bij,bjk->bik", "ij->ji",
// "bhqd,bhkd->bhqk", "...ij,...jk->...ik", "ij->i". The equation needs "->". Plan:
//   1. labels of an operand that appear nowhere else (not the other operand, not the output) are
//      summed out first (the operand is transposed so they come last, then rows are summed);
//   2. two operands: labels in both and in the output are batch (B), in both but not the output
//      are contracted (K), the rest are free (X from the first, Y from the second). When in
//      each operand its free labels and the K labels each stand together, one group innermost,
//      both are read in place as batches of strided matrices (attention's "aecd,abcd->acbe":
//      no copy; the operands swap when that orders the product as the output). Otherwise they
//      are transposed to [B, X, K] and [B, K, Y]. They are multiplied per batch with
//      kernels/math_lib/gemm.h (batches of small products spread over the intra-op threads, one
//      product per thread); an ellipsis stands for unnamed batch dims that broadcast (size 1
//      against size n); half products of two or more rows and columns are added in
//      TensorFlow's order, in half (kernels/math/half_gemm.h), the operands never swapped;
//   3. the result, ordered [B, X, Y], is transposed into the output's label order.
// Errors are InvalidArgument: "Expecting exactly one '->' in einsum equation: ij,jk", "Expecting
// 2 input subscripts in einsum equation 'ij->i' but got 1", "Expected input 0 to have rank 2 but
// got: 3", "Expected dimension 3 at axis 1 of the input shaped [2,3] but got dimension 4" (a label
// whose sizes disagree), "Output subscript contains label 'z' not present in the input
// subscripts". A label repeated within one operand ("ii->i", "bii->b": diagonals, traces) first
// replaces the operand by its diagonal; one repeated in the output ("ij,jk->ii") places the result
// on the output's diagonal. The equation and the label classes are
// kernels/math_lib/einsum_spec.h, shared with the CUDA kernel (which refuses diagonals).
//
// Kernels are immutable after construction (the equation is parsed once); Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math/half_gemm.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/einsum_spec.h"
#include "kernels/math_lib/gemm.h"
#include "kernels/math_lib/gemm_batches.h"
#include "kernels/math_lib/transpose_functor.h"

namespace rill {
namespace {

#define RILL_EINSUM_TYPES half, float, double, int32_t, int64_t, complex64, complex128

// A tensor with a label per dim.
struct Labeled {
  Tensor t;
  std::string labels;
};

// Sums `in` over the dims whose labels are not in `keep`, and permutes the kept ones into the
// order of `order` (a string of labels, each kept label exactly once).
template <typename T>
absl::StatusOr<Labeled> SumAndPermute(OpKernelContext& ctx, const Labeled& in,
                                      const std::string& order) {
  const int rank = static_cast<int>(in.labels.size());
  std::vector<int> perm;
  std::vector<int64_t> dims;
  for (char l : order) {
    const int d = static_cast<int>(in.labels.find(l));
    perm.push_back(d);
    dims.push_back(in.t.shape().dim(d));
  }
  int64_t summed = 1;
  for (int d = 0; d < rank; ++d) {
    if (order.find(in.labels[d]) == std::string::npos) {
      perm.push_back(d);
      summed *= in.t.shape().dim(d);
    }
  }
  Labeled out{in.t, order};
  bool identity = true;
  for (int d = 0; d < rank; ++d) identity &= perm[d] == d;
  Tensor permuted = in.t;
  if (!identity) {
    std::vector<int64_t> pdims;
    for (int d : perm) pdims.push_back(in.t.shape().dim(d));
    RILL_ASSIGN_OR_RETURN(TensorShape ps, TensorShape::FromDims(pdims));
    RILL_ASSIGN_OR_RETURN(permuted, ctx.allocate_temp(in.t.dtype(), ps));
    RILL_RETURN_IF_ERROR(TransposeInto(in.t, perm, &permuted));
  }
  RILL_ASSIGN_OR_RETURN(TensorShape kept_shape, TensorShape::FromDims(dims));
  if (summed == 1) {
    RILL_ASSIGN_OR_RETURN(out.t, permuted.Reshaped(kept_shape));
    return out;
  }
  RILL_ASSIGN_OR_RETURN(out.t, ctx.allocate_temp(in.t.dtype(), kept_shape));
  using cwise_internal::Load;
  const T* x = permuted.flat<T>().data();
  T* z = out.t.flat<T>().data();
  for (int64_t i = 0; i < kept_shape.num_elements(); ++i) {
    decltype(Load(x[0])) acc = 0;
    for (int64_t j = 0; j < summed; ++j) acc += Load(x[i * summed + j]);
    z[i] = cwise_internal::Store<T>(acc);
  }
  return out;
}

// TensorFlow reads an Einsum operand transposed in place (BatchMatMul's trans_x / trans_y)
// when its labels stand as batch, contracted, free; otherwise it transposes the operand into
// batch, free, contracted first. Summed-out labels are not counted.
bool ContractBeforeFree(const EinsumLabels& l, const std::string& operand) {
  int last = 0;
  for (char c : operand) {
    const int key = l.batch.find(c) != std::string::npos                 ? 0
                    : l.contract.find(c) != std::string::npos            ? 1
                    : (l.free_x + l.free_y).find(c) != std::string::npos ? 2
                                                                         : -1;
    if (key < 0) continue;
    if (key < last) return false;
    last = key;
  }
  return true;
}

// The half product path TensorFlow takes for operands labelled x_labels (the first) and y_labels
// (kernels/math/half_gemm.h).
HalfMatMulPath HalfPath(const EinsumLabels& l, const std::string& x_labels,
                        const std::string& y_labels, int64_t batches, const GemmDims& d) {
  return TensorFlowHalfMatMulPath(batches, d.m, d.n, d.k, ContractBeforeFree(l, x_labels),
                                  !ContractBeforeFree(l, y_labels));
}

// An operand read in place as a batch of matrices: its `rows` labels and its `cols` labels each
// stand consecutively, in the group's order, one group as the operand's last dims (stride 1),
// the other collapsing to one dim of stride `ld`; the batch labels may stand anywhere else.
struct StridedMatrices {
  bool transposed = false;            // the rows group is the innermost: stored cols x rows
  int64_t ld = 0;                     // stride of the outer group's last dim (Gemm's lda / ldb)
  std::vector<int64_t> batch_stride;  // per batch label; 0 where the operand's dim is 1
};

// The view of operand `t` (one label per dim) as matrices [rows, cols] per batch, or nullopt
// when it needs a copy first (a group split by other dims, neither group innermost, a label
// to be summed out, an empty group).
std::optional<StridedMatrices> StridedView(const Tensor& t, const std::string& labels,
                                           const std::string& batch, const std::string& rows,
                                           const std::string& cols) {
  if (rows.empty() || cols.empty() || labels.size() != batch.size() + rows.size() + cols.size()) {
    return std::nullopt;
  }
  const int rank = static_cast<int>(labels.size());
  std::vector<int64_t> stride(rank);
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    stride[d] = s;
    s *= t.shape().dim(d);
  }
  // Labels are unique within an operand, so a group found as a substring is consecutive there.
  const size_t r = labels.find(rows), c = labels.find(cols);
  if (r == std::string::npos || c == std::string::npos) return std::nullopt;
  StridedMatrices v;
  if (c + cols.size() == labels.size()) {
    v.ld = stride[r + rows.size() - 1];
  } else if (r + rows.size() == labels.size()) {
    v.transposed = true;
    v.ld = stride[c + cols.size() - 1];
  } else {
    return std::nullopt;
  }
  for (char l : batch) {
    const int d = static_cast<int>(labels.find(l));
    v.batch_stride.push_back(t.shape().dim(d) == 1 ? 0 : stride[d]);
  }
  return v;
}

// The diagonal of `in` over its repeated labels: one dim per distinct label, in first-occurrence
// order, element (u) = in at the coordinates each dim's label gives.
template <typename T>
absl::StatusOr<Labeled> Diagonal(OpKernelContext& ctx, const Labeled& in) {
  const int rank = static_cast<int>(in.labels.size());
  Labeled out;
  std::vector<int64_t> dims;
  std::vector<int64_t> stride(rank, 0);  // per output dim: the input offset of one step
  std::vector<int64_t> in_stride(rank, 1);
  for (int d = rank - 2; d >= 0; --d) in_stride[d] = in_stride[d + 1] * in.t.shape().dim(d + 1);
  for (int d = 0; d < rank; ++d) {
    size_t u = out.labels.find(in.labels[d]);
    if (u == std::string::npos) {
      u = out.labels.size();
      out.labels.push_back(in.labels[d]);
      dims.push_back(in.t.shape().dim(d));
    }
    stride[u] += in_stride[d];
  }
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
  RILL_ASSIGN_OR_RETURN(out.t, ctx.allocate_temp(in.t.dtype(), shape));
  const int urank = static_cast<int>(dims.size());
  const T* src = in.t.flat<T>().data();
  T* dst = out.t.flat<T>().data();
  std::vector<int64_t> at(urank, 0);
  int64_t offset = 0;
  for (int64_t k = 0; k < shape.num_elements(); ++k) {
    dst[k] = src[offset];
    for (int d = urank - 1; d >= 0; --d) {  // the next coordinate, last dim fastest
      offset += stride[d];
      if (++at[d] < dims[d]) break;
      offset -= stride[d] * dims[d];
      at[d] = 0;
    }
  }
  return out;
}

class EinsumOp final : public OpKernel {
 public:
  explicit EinsumOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string equation;
    ctx.SetStatus(ctx.GetAttr("equation", &equation));
    int64_t n = 0;
    ctx.SetStatus(ctx.GetAttr("N", &n));
    if (!ctx.status().ok()) return;
    absl::StatusOr<EinsumEquation> eq =
        ParseEinsumEquation(equation, static_cast<int>(n), /*allow_diagonals=*/true);
    if (!eq.ok()) {
      ctx.SetStatus(eq.status());
      return;
    }
    equation_ = *std::move(eq);
    // A label repeated in the output ("ij,jk->ii") puts the result on that diagonal, zeros
    // elsewhere (TensorFlow's inflation): computed for the output's distinct labels, then placed.
    const EinsumSubscripts distinct = EinsumWithoutDiagonals(equation_.output);
    if (distinct.labels.size() != equation_.output.labels.size()) {
      inflated_ = equation_;
      equation_.output = distinct;
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const DataType dtype = ctx.input(0).dtype();
    RILL_RETURN_IF_ERROR(VisitKernelTypes<RILL_EINSUM_TYPES>(
        *this, dtype, [&](auto tag) { return Run<typename decltype(tag)::type>(ctx); }));
    return inflated_ ? Inflate(ctx) : absl::OkStatus();
  }

 private:
  // Output 0, computed for the output's distinct labels, spread over the repeated ones: element
  // [.., i, .., i, ..] of the full output is the computed [.., i, ..], the rest zero.
  absl::Status Inflate(OpKernelContext& ctx) const {
    const int n = static_cast<int>(equation_.inputs.size());
    std::vector<TensorShape> shapes;
    for (int i = 0; i < n; ++i) shapes.push_back(ctx.input(i).shape());
    RILL_ASSIGN_OR_RETURN(EinsumLabels full, EinsumLabelsOf(*inflated_, shapes));
    RILL_ASSIGN_OR_RETURN(EinsumLabels distinct, EinsumLabelsOf(equation_, shapes));
    const Tensor computed = ctx.outputs()[0].tensor;
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, full.out_shape));
    const size_t bytes = DataTypeSize(computed.dtype());
    char* dst = static_cast<char*>(out->raw_data());
    std::memset(dst, 0, static_cast<size_t>(out->NumElements()) * bytes);
    const char* src = static_cast<const char*>(computed.raw_data());
    // Strides of the full output summed per distinct label: the computed element at index
    // (.., i_l, ..) lands at sum over l of i_l * stride_l.
    const int rank = full.out_shape.rank();
    std::vector<int64_t> full_strides(rank, 1);
    for (int d = rank - 2; d >= 0; --d) {
      full_strides[d] = full_strides[d + 1] * full.out_shape.dim(d + 1);
    }
    const std::string& labels = distinct.output;
    std::vector<int64_t> stride(labels.size(), 0), dim(labels.size());
    for (size_t k = 0; k < labels.size(); ++k) {
      dim[k] = distinct.out_shape.dim(static_cast<int>(k));
      for (int d = 0; d < rank; ++d) {
        if (full.output[d] == labels[k]) stride[k] += full_strides[d];
      }
    }
    std::vector<int64_t> index(labels.size(), 0);
    const int64_t count = computed.NumElements();
    for (int64_t e = 0; e < count; ++e) {
      int64_t at = 0;
      for (size_t k = 0; k < labels.size(); ++k) at += index[k] * stride[k];
      std::memcpy(dst + at * bytes, src + e * bytes, bytes);
      for (int k = static_cast<int>(labels.size()) - 1; k >= 0; --k) {
        if (++index[k] < dim[k]) break;
        index[k] = 0;
      }
    }
    return absl::OkStatus();
  }

  template <typename T>
  absl::Status Run(OpKernelContext& ctx) const {
    const int n = static_cast<int>(equation_.inputs.size());
    std::vector<TensorShape> shapes;
    for (int i = 0; i < n; ++i) shapes.push_back(ctx.input(i).shape());
    RILL_ASSIGN_OR_RETURN(EinsumLabels labels, EinsumLabelsOf(equation_, shapes));
    std::vector<Labeled> ops(n);
    for (int i = 0; i < n; ++i) ops[i] = Labeled{ctx.input(i), labels.operands[i]};
    // Operands with a repeated label are replaced by their diagonals, and the labels recomputed.
    EinsumEquation diagonal = equation_;
    bool any_diagonal = false;
    for (int i = 0; i < n; ++i) {
      const EinsumSubscripts unique = EinsumWithoutDiagonals(equation_.inputs[i]);
      if (unique.labels.size() == equation_.inputs[i].labels.size()) continue;
      RILL_ASSIGN_OR_RETURN(ops[i], Diagonal<T>(ctx, ops[i]));
      diagonal.inputs[i] = unique;
      shapes[i] = ops[i].t.shape();
      any_diagonal = true;
    }
    if (any_diagonal) {
      RILL_ASSIGN_OR_RETURN(labels, EinsumLabelsOf(diagonal, shapes));
      for (int i = 0; i < n; ++i) ops[i].labels = labels.operands[i];
    }
    const std::string& out_labels = labels.output;
    const TensorShape& out_shape = labels.out_shape;
    std::map<char, int64_t>& size = labels.size;

    if (n == 1) {
      RILL_ASSIGN_OR_RETURN(Labeled r, SumAndPermute<T>(ctx, ops[0], out_labels));
      ctx.set_output(0, r.t);
      return absl::OkStatus();
    }
    const std::string &batch = labels.batch, &contract = labels.contract, &free_x = labels.free_x,
                      &free_y = labels.free_y;
    if (out_shape.num_elements() > 0 && ctx.input(0).NumElements() > 0 &&
        ctx.input(1).NumElements() > 0) {
      // Operands read in place, the product ordered as the output when it can be (operands
      // swapped if that does it): attention's per-head products need no transposes.
      // half keeps TensorFlow's orientation (rows from the first operand), which decides the
      // order of its additions (half_gemm.h).
      const bool swap = !std::is_same_v<T, half> && batch + free_y + free_x == out_labels &&
                        batch + free_x + free_y != out_labels;
      for (bool swapped : {swap, !swap}) {
        const Labeled& a = ops[swapped ? 1 : 0];
        const Labeled& b = ops[swapped ? 0 : 1];
        const std::string& rows = swapped ? free_y : free_x;
        const std::string& cols = swapped ? free_x : free_y;
        std::optional<StridedMatrices> va = StridedView(a.t, a.labels, batch, rows, contract);
        std::optional<StridedMatrices> vb = StridedView(b.t, b.labels, batch, contract, cols);
        if (va && vb) {
          return StridedProduct<T>(ctx, labels, a.t, a.labels, *va, b.t, b.labels, *vb, rows, cols);
        }
      }
    }
    // (An ellipsis dim of only one operand is free: it passes through to the output.)
    RILL_ASSIGN_OR_RETURN(Labeled x, SumAndPermute<T>(ctx, ops[0], batch + free_x + contract));
    RILL_ASSIGN_OR_RETURN(Labeled y, SumAndPermute<T>(ctx, ops[1], batch + contract + free_y));
    auto product = [&](const Labeled& t, const std::string& group) {
      int64_t p = 1;
      for (char l : group) p *= t.t.shape().dim(static_cast<int>(t.labels.find(l)));
      return p;
    };
    GemmDims d;
    d.threads = ctx.intra_op_threads();
    d.m = product(x, free_x);
    d.k = product(x, contract);
    d.n = product(y, free_y);
    d.lda = d.k;
    d.ldb = d.n;
    // Batch dims broadcast (ellipsis dims of size 1); named ones are equal.
    std::vector<int64_t> xb, yb, ob;
    for (char l : batch) {
      xb.push_back(x.t.shape().dim(static_cast<int>(x.labels.find(l))));
      yb.push_back(y.t.shape().dim(static_cast<int>(y.labels.find(l))));
      ob.push_back(size[l]);
    }
    RILL_ASSIGN_OR_RETURN(TensorShape xbs, TensorShape::FromDims(xb));
    RILL_ASSIGN_OR_RETURN(TensorShape ybs, TensorShape::FromDims(yb));
    RILL_ASSIGN_OR_RETURN(TensorShape obs, TensorShape::FromDims(ob));
    const int64_t batches = obs.num_elements();
    std::vector<int64_t> xo(batches, 0), yo(batches, 0);
    if (obs.rank() > 0 && batches > 0) {
      int64_t b = 0;
      ForEachBroadcastRow(
          xbs, ybs, obs,
          [&](int64_t, int64_t ox, int64_t oy, int64_t inner, int64_t sx, int64_t sy) {
            for (int64_t j = 0; j < inner; ++j, ++b) {
              xo[b] = ox + j * sx;
              yo[b] = oy + j * sy;
            }
          });
    }
    std::vector<int64_t> prod_dims = ob;
    for (const std::string* group : {&free_x, &free_y}) {
      for (char l : *group) prod_dims.push_back(size[l]);
    }
    RILL_ASSIGN_OR_RETURN(TensorShape prod_shape, TensorShape::FromDims(prod_dims));
    Labeled prod;
    prod.labels = batch + free_x + free_y;
    RILL_ASSIGN_OR_RETURN(prod.t, ctx.allocate_temp(DataTypeToEnum<T>::value, prod_shape));
    const T* xp = x.t.flat<T>().data();
    const T* yp = y.t.flat<T>().data();
    T* pp = prod.t.flat<T>().data();
    const HalfMatMulPath half_path = HalfPath(labels, ops[0].labels, ops[1].labels, batches, d);
    auto batch_product = [&](const GemmDims& dims, int64_t b) {
      if constexpr (std::is_same_v<T, half>) {
        if (half_path != HalfMatMulPath::kFloat) {
          HalfMatMul(half_path, dims.m, dims.n, dims.k, xp + xo[b] * d.m * d.k, d.k, 1,
                     yp + yo[b] * d.k * d.n, d.n, 1, pp + b * d.m * d.n, b * d.m * d.n);
          return absl::OkStatus();
        }
      }
      return Gemm<T>(dims, xp + xo[b] * d.m * d.k, yp + yo[b] * d.k * d.n, pp + b * d.m * d.n);
    };
    RILL_RETURN_IF_ERROR(RunGemmBatches(ctx, d, batches, batch_product));
    RILL_ASSIGN_OR_RETURN(Labeled r, SumAndPermute<T>(ctx, prod, out_labels));
    RILL_ASSIGN_OR_RETURN(Tensor out, r.t.Reshaped(out_shape));
    ctx.set_output(0, out);
    return absl::OkStatus();
  }

  // out = a * b over the batch labels, a and b read in place (StridedView), into a product
  // ordered batch + rows + cols, then permuted into the output's order (no copy when it is).
  template <typename T>
  absl::Status StridedProduct(OpKernelContext& ctx, const EinsumLabels& labels, const Tensor& a,
                              const std::string& a_labels, const StridedMatrices& va,
                              const Tensor& b, const std::string& b_labels,
                              const StridedMatrices& vb, const std::string& rows,
                              const std::string& cols) const {
    const std::map<char, int64_t>& size = labels.size;
    auto extent = [&](const std::string& group) {
      int64_t p = 1;
      for (char l : group) p *= size.at(l);
      return p;
    };
    GemmDims d;
    d.threads = ctx.intra_op_threads();
    d.m = extent(rows);
    d.k = extent(labels.contract);
    d.n = extent(cols);
    d.transpose_a = va.transposed;
    d.lda = va.ld;
    d.transpose_b = vb.transposed;
    d.ldb = vb.ld;
    // Element offsets of each batch's matrices, the batch labels counted as an odometer.
    const std::string& batch = labels.batch;
    std::vector<int64_t> prod_dims;
    for (char l : batch) prod_dims.push_back(size.at(l));
    const int64_t batches = extent(batch);
    std::vector<int64_t> ao(batches, 0), bo(batches, 0), index(batch.size(), 0);
    for (int64_t i = 1; i < batches; ++i) {
      ao[i] = ao[i - 1];
      bo[i] = bo[i - 1];
      for (int j = static_cast<int>(batch.size()) - 1; j >= 0; --j) {
        if (++index[j] < prod_dims[j]) {
          ao[i] += va.batch_stride[j];
          bo[i] += vb.batch_stride[j];
          break;
        }
        ao[i] -= (prod_dims[j] - 1) * va.batch_stride[j];
        bo[i] -= (prod_dims[j] - 1) * vb.batch_stride[j];
        index[j] = 0;
      }
    }
    for (const std::string* group : {&rows, &cols}) {
      for (char l : *group) prod_dims.push_back(size.at(l));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape prod_shape, TensorShape::FromDims(prod_dims));
    Labeled prod;
    prod.labels = batch + rows + cols;
    RILL_ASSIGN_OR_RETURN(prod.t, ctx.allocate_temp(DataTypeToEnum<T>::value, prod_shape));
    const T* ap = a.flat<T>().data();
    const T* bp = b.flat<T>().data();
    T* pp = prod.t.flat<T>().data();
    const HalfMatMulPath half_path = HalfPath(labels, a_labels, b_labels, batches, d);
    auto batch_product = [&](const GemmDims& dims, int64_t i) {
      if constexpr (std::is_same_v<T, half>) {
        if (half_path != HalfMatMulPath::kFloat) {
          // a(r, p) and b(p, c) as Gemm reads them (transposed: stored the other way round).
          const int64_t a_row = dims.transpose_a ? 1 : dims.lda;
          const int64_t a_depth = dims.transpose_a ? dims.lda : 1;
          const int64_t b_depth = dims.transpose_b ? 1 : dims.ldb;
          const int64_t b_col = dims.transpose_b ? dims.ldb : 1;
          HalfMatMul(half_path, dims.m, dims.n, dims.k, ap + ao[i], a_row, a_depth, bp + bo[i],
                     b_depth, b_col, pp + i * d.m * d.n, i * d.m * d.n);
          return absl::OkStatus();
        }
      }
      return Gemm<T>(dims, ap + ao[i], bp + bo[i], pp + i * d.m * d.n);
    };
    RILL_RETURN_IF_ERROR(RunGemmBatches(ctx, d, batches, batch_product));
    RILL_ASSIGN_OR_RETURN(Labeled r, SumAndPermute<T>(ctx, prod, labels.output));
    RILL_ASSIGN_OR_RETURN(Tensor out, r.t.Reshaped(labels.out_shape));
    ctx.set_output(0, out);
    return absl::OkStatus();
  }

  EinsumEquation equation_;  // the output's labels distinct
  // The equation as written when its output repeats a label.
  std::optional<EinsumEquation> inflated_;
};

REGISTER_KERNEL(KernelDefBuilder("Einsum")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_EINSUM_TYPES>()),
                EinsumOp);

}  // namespace
}  // namespace rill
