// Einsum on the CPU for one or two operands, e.g. "ij,jk->ik", "bij,bjk->bik", "ij->ji",
// "bhqd,bhkd->bhqk", "...ij,...jk->...ik", "ij->i". The equation needs "->". Plan:
//   1. labels of an operand that appear nowhere else (not the other operand, not the output) are
//      summed out first (the operand is transposed so they come last, then rows are summed);
//   2. two operands: labels in both and in the output are batch (B), in both but not the output
//      are contracted (K), the rest are free (X from the first, Y from the second). The operands
//      are transposed to [B, X, K] and [B, K, Y] and multiplied per batch with
//      kernels/math_lib/gemm.h; an ellipsis stands for unnamed batch dims that broadcast (size 1
//      against size n);
//   3. the result, ordered [B, X, Y], is transposed into the output's label order.
// Errors are InvalidArgument: "Expecting exactly one '->' in einsum equation: ij,jk", "Expecting
// 2 input subscripts in einsum equation 'ij->i' but got 1", "Expected input 0 to have rank 2 but
// got: 3", "Expected dimension 3 at axis 1 of the input shaped [2,3] but got dimension 4" (a label
// whose sizes disagree), "Output subscript contains label 'z' not present in the input
// subscripts"; Unimplemented for a label repeated within one operand (diagonals).
//
// Kernels are immutable after construction (the equation is parsed once); Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/gemm.h"
#include "kernels/math_lib/transpose_functor.h"

namespace rill {
namespace {

#define RILL_EINSUM_TYPES half, float, double, int32_t, int64_t

// One operand's (or the output's) subscripts: letters, and where the ellipsis sits (-1: none).
struct Subscripts {
  std::string labels;    // without the ellipsis
  int ellipsis_at = -1;  // index into labels where "..." stands
};

absl::StatusOr<Subscripts> ParseSubscripts(absl::string_view s, absl::string_view equation) {
  Subscripts out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (out.ellipsis_at >= 0 || s.substr(i, 3) != "...") {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid ellipsis in einsum equation: ", equation));
      }
      out.ellipsis_at = static_cast<int>(out.labels.size());
      i += 2;
    } else if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')) {
      out.labels.push_back(s[i]);
    } else if (s[i] != ' ') {
      return absl::InvalidArgumentError(absl::StrCat("Invalid character '", std::string(1, s[i]),
                                                     "' in einsum equation: ", equation));
    }
  }
  return out;
}

// Internal label of ellipsis dim k counted from the right (they broadcast like numpy dims).
char EllipsisLabel(int k) { return static_cast<char>(1 + k); }

// The full label list of an operand of rank `rank` (the ellipsis expanded to rank - labels dims).
absl::StatusOr<std::string> Expand(const Subscripts& s, int rank, int input_index) {
  const int named = static_cast<int>(s.labels.size());
  if (s.ellipsis_at < 0 ? rank != named : rank < named) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expected input ", input_index, " to have rank ", named, " but got: ", rank));
  }
  if (s.ellipsis_at < 0) return s.labels;
  const int e = rank - named;
  std::string out = s.labels.substr(0, s.ellipsis_at);
  for (int k = e - 1; k >= 0; --k) out.push_back(EllipsisLabel(k));
  out += s.labels.substr(s.ellipsis_at);
  return out;
}

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

class EinsumOp final : public OpKernel {
 public:
  explicit EinsumOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string equation;
    ctx.SetStatus(ctx.GetAttr("equation", &equation));
    int64_t n = 0;
    ctx.SetStatus(ctx.GetAttr("N", &n));
    if (ctx.status().ok()) ctx.SetStatus(Parse(equation, static_cast<int>(n)));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const DataType dtype = ctx.input(0).dtype();
    return VisitKernelTypes<RILL_EINSUM_TYPES>(
        *this, dtype, [&](auto tag) { return Run<typename decltype(tag)::type>(ctx); });
  }

 private:
  absl::Status Parse(const std::string& equation, int n) {
    std::vector<std::string> sides = absl::StrSplit(equation, "->");
    if (sides.size() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expecting exactly one '->' in einsum equation: ", equation));
    }
    std::vector<std::string> ins = absl::StrSplit(sides[0], ',');
    if (static_cast<int>(ins.size()) != n || n > 2) {
      return absl::InvalidArgumentError(absl::StrCat("Expecting ", n,
                                                     " input subscripts in einsum equation '",
                                                     equation, "' but got ", ins.size()));
    }
    for (const std::string& in : ins) {
      RILL_ASSIGN_OR_RETURN(Subscripts s, ParseSubscripts(in, equation));
      for (size_t i = 0; i < s.labels.size(); ++i) {
        if (s.labels.find(s.labels[i], i + 1) != std::string::npos) {
          return absl::UnimplementedError(absl::StrCat(
              "Einsum with a label repeated within one operand (a diagonal) is not supported: ",
              equation));
        }
      }
      inputs_.push_back(s);
    }
    RILL_ASSIGN_OR_RETURN(output_, ParseSubscripts(sides[1], equation));
    for (char l : output_.labels) {
      bool found = false;
      for (const Subscripts& s : inputs_) found |= s.labels.find(l) != std::string::npos;
      if (!found) {
        return absl::InvalidArgumentError(absl::StrCat("Output subscript contains label '",
                                                       std::string(1, l),
                                                       "' not present in the input subscripts"));
      }
    }
    return absl::OkStatus();
  }

  template <typename T>
  absl::Status Run(OpKernelContext& ctx) const {
    const int n = static_cast<int>(inputs_.size());
    std::vector<Labeled> ops(n);
    std::map<char, int64_t> size;  // named labels must agree; ellipsis dims broadcast
    int ellipsis_rank = 0;
    for (int i = 0; i < n; ++i) {
      ops[i].t = ctx.input(i);
      const TensorShape& shape = ops[i].t.shape();
      RILL_ASSIGN_OR_RETURN(ops[i].labels, Expand(inputs_[i], shape.rank(), i));
      for (int d = 0; d < shape.rank(); ++d) {
        const char l = ops[i].labels[d];
        if (l < ' ') {
          ellipsis_rank = std::max(ellipsis_rank, static_cast<int>(l));
          int64_t& s = size[l];
          s = std::max(s, shape.dim(d));
          continue;
        }
        auto [it, inserted] = size.emplace(l, shape.dim(d));
        if (!inserted && it->second != shape.dim(d)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Expected dimension ", it->second, " at axis ", d, " of the input shaped ",
              shape.DebugString(), " but got dimension ", shape.dim(d)));
        }
      }
    }
    // The output's labels, the ellipsis expanded to every ellipsis dim.
    std::string out_labels = output_.labels;
    if (output_.ellipsis_at >= 0) {
      std::string e;
      for (int k = ellipsis_rank - 1; k >= 0; --k) e.push_back(EllipsisLabel(k));
      out_labels.insert(output_.ellipsis_at, e);
    }
    std::vector<int64_t> out_dims;
    for (char l : out_labels) out_dims.push_back(size[l]);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    auto in_labels = [&](int i, char l) { return ops[i].labels.find(l) != std::string::npos; };
    auto in_output = [&](char l) { return out_labels.find(l) != std::string::npos; };

    if (n == 1) {
      RILL_ASSIGN_OR_RETURN(Labeled r, SumAndPermute<T>(ctx, ops[0], out_labels));
      ctx.set_output(0, r.t);
      return absl::OkStatus();
    }
    // Batch, contracted and free labels, in the order they appear.
    std::string batch, contract, free_x, free_y;
    for (char l : ops[0].labels) {
      if (in_labels(1, l)) {
        (in_output(l) ? batch : contract).push_back(l);
      } else if (in_output(l)) {
        free_x.push_back(l);
      }
    }
    for (char l : ops[1].labels) {
      if (!in_labels(0, l) && in_output(l)) free_y.push_back(l);
    }
    // (An ellipsis dim of only one operand is free: it passes through to the output.)
    RILL_ASSIGN_OR_RETURN(Labeled x, SumAndPermute<T>(ctx, ops[0], batch + free_x + contract));
    RILL_ASSIGN_OR_RETURN(Labeled y, SumAndPermute<T>(ctx, ops[1], batch + contract + free_y));
    auto product = [&](const Labeled& t, const std::string& labels) {
      int64_t p = 1;
      for (char l : labels) p *= t.t.shape().dim(static_cast<int>(t.labels.find(l)));
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
    for (int64_t b = 0; b < batches; ++b) {
      RILL_RETURN_IF_ERROR(
          Gemm<T>(d, xp + xo[b] * d.m * d.k, yp + yo[b] * d.k * d.n, pp + b * d.m * d.n));
    }
    RILL_ASSIGN_OR_RETURN(Labeled r, SumAndPermute<T>(ctx, prod, out_labels));
    RILL_ASSIGN_OR_RETURN(Tensor out, r.t.Reshaped(out_shape));
    ctx.set_output(0, out);
    return absl::OkStatus();
  }

  std::vector<Subscripts> inputs_;
  Subscripts output_;
};

REGISTER_KERNEL(KernelDefBuilder("Einsum")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_EINSUM_TYPES>()),
                EinsumOp);

}  // namespace
}  // namespace rill
