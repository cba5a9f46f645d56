// EditDistance on the CPU (tf.edit_distance): two sparse tensors of rank R >= 2 (indices, values,
// shape), each read as sequences: a run of consecutive entries whose first R - 1 indices agree is
// one sequence, its values in the order given (not sorted; the last index is not read). The output
// has shape max(hypothesis_shape, truth_shape) over the first R - 1 dims, zeros where neither has
// a sequence. The runs of the two are merged as TensorFlow's kernel merges them (lexicographic
// order of their group indices): a pair with equal groups gets the Levenshtein distance (divided
// by the truth's length with normalize); a hypothesis alone its length (Inf with normalize when
// nonzero); a truth alone its length (1 with normalize). A group met twice overwrites. Values are
// compared with ==, so NaN differs from NaN and -0 equals 0. Errors are TensorFlow's texts: the
// shape checks (InvalidArgument "hypothesis_indices should be a matrix, but got shape: [2]", ...),
// "Got output shape [2,0] which has 0 elements", and Internal "Got an inner product 5 which would
// require writing to outside of the buffer for the output tensor (max elements 2)" for a group
// outside the output.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

template <typename T>
bool Same(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return static_cast<float>(a) == static_cast<float>(b);
  } else {
    return a == b;
  }
}

// Levenshtein distance between a[0, n) and b[0, m): unit cost insertions, deletions and
// substitutions.
template <typename T>
int64_t Levenshtein(const T* a, int64_t n, const T* b, int64_t m) {
  if (n == 0) return m;
  if (m == 0) return n;
  std::vector<int64_t> row(m + 1);
  for (int64_t j = 0; j <= m; ++j) row[j] = j;
  for (int64_t i = 1; i <= n; ++i) {
    int64_t diagonal = row[0];
    row[0] = i;
    for (int64_t j = 1; j <= m; ++j) {
      const int64_t above = row[j];
      const int64_t substitute = diagonal + (Same(a[i - 1], b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[m];
}

// TensorFlow's ValidateShapes, in its order.
absl::Status ValidateShapes(const Tensor& hi, const Tensor& hv, const Tensor& hs, const Tensor& ti,
                            const Tensor& tv, const Tensor& ts) {
  auto shape = [](const Tensor& t) { return t.shape().DebugString(); };
  if (hi.shape().rank() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("hypothesis_indices should be a matrix, but got shape: ", shape(hi)));
  }
  if (ti.shape().rank() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("truth_indices should be a matrix, but got shape: ", shape(ti)));
  }
  if (hv.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("hypothesis_values should be a vector, but got shape: ", shape(hv)));
  }
  if (tv.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("truth_values should be a vector, but got shape: ", shape(tv)));
  }
  if (hs.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("hypothesis_shape should be a vector, but got shape: ", shape(hs)));
  }
  if (ts.shape().rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("truth_shape should be a vector, but got shape: ", shape(ts)));
  }
  if (hv.NumElements() != hi.shape().dim(0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Expected hypothesis_values.NumElements == #rows(hypothesis_indices), their shapes are: ",
        shape(hv), " and ", shape(hi)));
  }
  if (hs.NumElements() != hi.shape().dim(1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Expected hypothesis_shape.NumElements == #cols(hypothesis_indices), their shapes are: ",
        shape(hs), " and ", shape(hi)));
  }
  if (ts.NumElements() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("Input SparseTensors must have rank at least 2, but truth_shape rank is: ",
                     ts.NumElements()));
  }
  if (tv.NumElements() != ti.shape().dim(0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Expected truth_values.NumElements == #rows(truth_indices), their shapes are: ", shape(tv),
        " and ", shape(ti)));
  }
  if (ts.NumElements() != ti.shape().dim(1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Expected truth_shape.NumElements == #cols(truth_indices), their shapes are: ", shape(ts),
        " and ", shape(ti)));
  }
  if (ts.NumElements() != hs.NumElements()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Expected truth and hypothesis to have matching ranks, but their shapes are: ", shape(ts),
        " and ", shape(hs)));
  }
  return absl::OkStatus();
}

// One sparse operand as runs of entries with equal group indices (the first R - 1).
struct Runs {
  const int64_t* indices;  // [n, rank]
  int64_t n, rank;
  // The run starting at entry `start`: its end.
  int64_t End(int64_t start) const {
    int64_t end = start + 1;
    while (end < n && std::equal(indices + end * rank, indices + end * rank + rank - 1,
                                 indices + start * rank)) {
      ++end;
    }
    return end;
  }
  const int64_t* Group(int64_t entry) const { return indices + entry * rank; }
};

class EditDistanceOp final : public OpKernel {
 public:
  explicit EditDistanceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("normalize", &normalize_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor &hi = ctx.input(0), &hv = ctx.input(1), &hs = ctx.input(2);
    const Tensor &ti = ctx.input(3), &tv = ctx.input(4), &ts = ctx.input(5);
    RILL_RETURN_IF_ERROR(ValidateShapes(hi, hv, hs, ti, tv, ts));
    const int64_t rank = ts.NumElements();
    const int64_t* hyp_shape = hs.flat<int64_t>().data();
    const int64_t* truth_shape = ts.flat<int64_t>().data();
    for (const int64_t* dims : {hyp_shape, truth_shape}) {
      for (int64_t d = 0; d < rank; ++d) {
        if (dims[d] < 0) {
          return absl::InvalidArgumentError(absl::StrCat("Dimension ", dims[d], " must be >= 0"));
        }
      }
    }
    std::vector<int64_t> out_dims(rank - 1);
    for (int64_t d = 0; d + 1 < rank; ++d) out_dims[d] = std::max(hyp_shape[d], truth_shape[d]);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims(out_dims));
    if (out_shape.num_elements() == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Got output shape ", out_shape.DebugString(), " which has 0 elements"));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    return VisitDataType(hv.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      return Run<T>(hi, hv, ti, tv, rank, out_dims, out);
    });
  }

 private:
  template <typename T>
  absl::Status Run(const Tensor& hi, const Tensor& hv, const Tensor& ti, const Tensor& tv,
                   int64_t rank, const std::vector<int64_t>& out_dims, Tensor* out) const {
    float* o = out->flat<float>().data();
    const int64_t elements = out->NumElements();
    std::fill(o, o + elements, 0.0f);
    std::vector<int64_t> strides(rank - 1, 1);
    for (int64_t d = rank - 3; d >= 0; --d) strides[d] = strides[d + 1] * out_dims[d + 1];
    const Runs hyp{hi.flat<int64_t>().data(), hi.shape().dim(0), rank};
    const Runs truth{ti.flat<int64_t>().data(), ti.shape().dim(0), rank};
    const T* hvals = hv.flat<T>().data();
    const T* tvals = tv.flat<T>().data();
    // The output element of a group; Internal as TensorFlow when it falls outside.
    auto location = [&](const int64_t* g) -> absl::StatusOr<int64_t> {
      int64_t loc = 0;
      for (int64_t d = 0; d + 1 < rank; ++d) loc += g[d] * strides[d];
      if (loc < 0 || loc >= elements) {
        return absl::InternalError(absl::StrCat(
            "Got an inner product ", loc,
            " which would require writing to outside of the buffer for the output tensor (max "
            "elements ",
            elements, ")"));
      }
      return loc;
    };
    auto hyp_alone = [&](int64_t start, int64_t end) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(int64_t loc, location(hyp.Group(start)));
      const float len = static_cast<float>(end - start);
      o[loc] = normalize_ && len != 0.0f ? std::numeric_limits<float>::infinity() : len;
      return absl::OkStatus();
    };
    auto truth_alone = [&](int64_t start, int64_t end) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(int64_t loc, location(truth.Group(start)));
      o[loc] = normalize_ ? 1.0f : static_cast<float>(end - start);
      return absl::OkStatus();
    };
    int64_t h = 0, t = 0;
    while (h < hyp.n && t < truth.n) {
      const int64_t h_end = hyp.End(h), t_end = truth.End(t);
      const int64_t* gh = hyp.Group(h);
      const int64_t* gt = truth.Group(t);
      if (std::equal(gh, gh + rank - 1, gt)) {
        RILL_ASSIGN_OR_RETURN(int64_t loc, location(gt));
        float d = static_cast<float>(Levenshtein(tvals + t, t_end - t, hvals + h, h_end - h));
        if (normalize_) d /= static_cast<float>(t_end - t);
        o[loc] = d;
        h = h_end;
        t = t_end;
      } else if (std::lexicographical_compare(gh, gh + rank - 1, gt, gt + rank - 1)) {
        RILL_RETURN_IF_ERROR(hyp_alone(h, h_end));  // no truth sequence for this group
        h = h_end;
      } else {
        RILL_RETURN_IF_ERROR(truth_alone(t, t_end));  // no hypothesis sequence
        t = t_end;
      }
    }
    while (h < hyp.n) {
      const int64_t h_end = hyp.End(h);
      RILL_RETURN_IF_ERROR(hyp_alone(h, h_end));
      h = h_end;
    }
    while (t < truth.n) {
      const int64_t t_end = truth.End(t);
      RILL_RETURN_IF_ERROR(truth_alone(t, t_end));
      t = t_end;
    }
    return absl::OkStatus();
  }

  bool normalize_ = true;
};

REGISTER_KERNEL(KernelDefBuilder("EditDistance")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT8, DT_INT16, DT_INT32,
                                          DT_INT64, DT_UINT8, DT_BOOL, DT_STRING, DT_COMPLEX64,
                                          DT_COMPLEX128}),
                EditDistanceOp);

}  // namespace
}  // namespace rill
