// RaggedGather on the CPU (tf.gather on a RaggedTensor, ragged embedding lookups): the rows
// `indices` names of a ragged tensor given as nested row splits (outermost first) and flat
// values. Indices of rank k > 1 add k - 1 uniform outer levels (splits 0, d, 2d, ...), so the
// output has OUTPUT_RAGGED_RANK = PARAMS_RAGGED_RANK + k - 1 splits tensors.
//
// Errors (TensorFlow's texts, in its order): "indices[0,1] = -1 is not in [0, 3)", "params.rank
// must be nonzero", "Ragged splits may not be empty", "Ragged splits must be non-negative",
// "Ragged splits must not point past values", "Ragged splits must be sorted". Where TensorFlow
// reads past its inputs (an outer splits tensor whose last value reaches the inner splits'
// length) or aborts (OUTPUT_RAGGED_RANK not PARAMS_RAGGED_RANK + k - 1), Rill fails instead.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/array/ragged_ops_util.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"

namespace rill {
namespace {

absl::Status ValidateSplits(const std::vector<std::vector<int64_t>>& splits, int64_t num_values) {
  for (size_t dim = 0; dim < splits.size(); ++dim) {
    const std::vector<int64_t>& s = splits[dim];
    // An outer level's splits index the next level's rows (one fewer than its splits).
    const int64_t last =
        dim + 1 == splits.size() ? num_values : static_cast<int64_t>(splits[dim + 1].size()) - 1;
    if (s.empty()) return absl::InvalidArgumentError("Ragged splits may not be empty");
    if (s[0] < 0) return absl::InvalidArgumentError("Ragged splits must be non-negative");
    if (s.back() > last) {
      return absl::InvalidArgumentError("Ragged splits must not point past values");
    }
    for (size_t i = 1; i < s.size(); ++i) {
      if (s[i - 1] > s[i]) return absl::InvalidArgumentError("Ragged splits must be sorted");
    }
  }
  return absl::OkStatus();
}

class RaggedGatherOp final : public OpKernel {
 public:
  explicit RaggedGatherOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("PARAMS_RAGGED_RANK", &params_ragged_rank_));
    ctx.SetStatus(ctx.GetAttr("OUTPUT_RAGGED_RANK", &output_ragged_rank_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int k = static_cast<int>(params_ragged_rank_);
    const Tensor& values = ctx.input(k);
    const Tensor& indices_t = ctx.input(k + 1);
    if (output_ragged_rank_ != params_ragged_rank_ + indices_t.shape().rank() - 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "OUTPUT_RAGGED_RANK (", output_ragged_rank_, ") must be PARAMS_RAGGED_RANK (",
          params_ragged_rank_, ") + the rank of indices (", indices_t.shape().rank(), ") - 1"));
    }
    const int64_t num_params = ctx.input(0).NumElements() - 1;
    const std::vector<int64_t> indices = IndexValues(indices_t);
    for (size_t i = 0; i < indices.size(); ++i) {
      if (indices[i] < 0 || indices[i] >= num_params) {
        return absl::InvalidArgumentError(
            absl::StrCat("indices", IndexCoordinates(indices_t.shape(), static_cast<int64_t>(i)),
                         " = ", indices[i], " is not in [0, ", num_params, ")"));
      }
    }
    if (values.shape().rank() == 0) {
      return absl::InvalidArgumentError("params.rank must be nonzero");
    }
    std::vector<std::vector<int64_t>> splits;
    for (int i = 0; i < k; ++i) splits.push_back(ragged::Splits(ctx.input(i)));
    RILL_RETURN_IF_ERROR(ValidateSplits(splits, values.shape().dim(0)));

    const int index_rank = indices_t.shape().rank();
    std::vector<std::vector<int64_t>> out(static_cast<size_t>(output_ragged_rank_), {0});
    int64_t rows = 1;
    for (int d = 0; d + 1 < index_rank; ++d) {
      rows *= indices_t.shape().dim(d);
      const int64_t width = indices_t.shape().dim(d + 1);
      for (int64_t i = 1; i <= rows; ++i) out[d].push_back(i * width);
    }
    std::vector<std::pair<int64_t, int64_t>> slices;  // value rows to copy, in order
    int64_t num_out = 0;
    for (int64_t index : indices) {
      int64_t start = index, limit = index + 1;
      for (int dim = 0; dim < k; ++dim) {
        const std::vector<int64_t>& s = splits[dim];
        const int out_dim = dim + index_rank - 1;
        if (out_dim >= 0) {
          const int64_t delta = out[out_dim].back() - s[start];
          for (int64_t j = start; j < limit; ++j) out[out_dim].push_back(s[j + 1] + delta);
        }
        start = s[start];
        limit = s[limit];
      }
      if (limit != start) {
        slices.emplace_back(start, limit);
        num_out += limit - start;
      }
    }
    for (size_t d = 0; d < out.size(); ++d) {
      RILL_ASSIGN_OR_RETURN(
          Tensor * t, ctx.allocate_output(static_cast<int>(d),
                                          TensorShape({static_cast<int64_t>(out[d].size())})));
      ragged::WriteSplits(out[d], t);
    }
    std::vector<int64_t> dims(values.shape().dims().begin(), values.shape().dims().end());
    dims[0] = num_out;
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out_values,
                          ctx.allocate_output(static_cast<int>(out.size()), out_shape));
    const int64_t row_size =
        values.NumElements() == 0 ? 0 : values.NumElements() / values.shape().dim(0);
    return VisitElementType(values.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* src = ElementsOf<T>(values);
      T* dst = ElementsOf<T>(*out_values);
      for (const auto& [begin, end] : slices) {
        dst = std::copy(src + begin * row_size, src + end * row_size, dst);
      }
      return absl::OkStatus();
    });
  }

 private:
  int64_t params_ragged_rank_ = 1;
  int64_t output_ragged_rank_ = 0;
};

REGISTER_KERNEL(KernelDefBuilder("RaggedGather")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tvalues", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                                DT_UINT8, DT_INT8, DT_INT16, DT_BOOL, DT_STRING})
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64})
                    .TypeConstraint("Tsplits", {DT_INT32, DT_INT64}),
                RaggedGatherOp);

}  // namespace
}  // namespace rill
