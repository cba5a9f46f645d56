// RaggedTensorToSparse on the CPU (RaggedTensor.to_sparse()): the SparseTensor of a ragged
// tensor given as nested row splits (outermost first) and values [nvals, inner...]. Indices
// list every value element in row-major order (row, the position in each ragged level, then the
// inner coordinates); values are the flat values; dense_shape is [rows, each ragged level's
// longest row, inner dims...].
//
// Errors (TensorFlow's texts): "ragged splits may not be empty.", "First value of ragged splits
// must be 0.", "Ragged splits should be non decreasing, but we got 2 followed by 1", "Final
// value of ragged splits must match the length the corresponding ragged values.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/array/ragged_ops_util.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"

namespace rill {
namespace {

constexpr char kFinalValue[] =
    "Final value of ragged splits must match the length the corresponding ragged values.";

absl::Status Validate(const std::vector<std::vector<int64_t>>& splits, const Tensor& values) {
  for (size_t i = 0; i < splits.size(); ++i) {
    const std::vector<int64_t>& s = splits[i];
    if (s.empty()) return absl::InvalidArgumentError("ragged splits may not be empty.");
    if (s[0] != 0) return absl::InvalidArgumentError("First value of ragged splits must be 0.");
    for (size_t j = 1; j < s.size(); ++j) {
      if (s[j] < s[j - 1]) {
        return absl::InvalidArgumentError(
            absl::StrCat("Ragged splits should be non decreasing, but we got ", s[j - 1],
                         " followed by ", s[j]));
      }
    }
    if (i > 0 && static_cast<int64_t>(s.size()) != splits[i - 1].back() + 1) {
      return absl::InvalidArgumentError(kFinalValue);
    }
  }
  if (values.shape().rank() == 0 || values.shape().dim(0) != splits.back().back()) {
    return absl::InvalidArgumentError(kFinalValue);
  }
  return absl::OkStatus();
}

class RaggedTensorToSparseOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int k = ctx.num_inputs() - 1;
    const Tensor& values = ctx.input(k);
    std::vector<std::vector<int64_t>> splits;
    for (int i = 0; i < k; ++i) splits.push_back(ragged::Splits(ctx.input(i)));
    RILL_RETURN_IF_ERROR(Validate(splits, values));

    const int value_rank = values.shape().rank();
    const int64_t width = k + value_rank;  // the index length
    int64_t inner = 1;                     // elements per value row
    for (int d = 1; d < value_rank; ++d) inner *= values.shape().dim(d);
    const int64_t nvals = splits.back().back() * inner;
    RILL_ASSIGN_OR_RETURN(Tensor * indices_out,
                          ctx.allocate_output(0, TensorShape({nvals, width})));
    int64_t* out = indices_out->flat<int64_t>().data();
    std::vector<int64_t> prefix(static_cast<size_t>(k) + 1);
    // Walks row `row` of level `level`, prefix[0..level] already set.
    std::function<void(int, int64_t)> walk = [&](int level, int64_t row) {
      const std::vector<int64_t>& s = splits[level];
      for (int64_t j = s[row]; j < s[row + 1]; ++j) {
        prefix[level + 1] = j - s[row];
        if (level + 1 < k) {
          walk(level + 1, j);
          continue;
        }
        for (int64_t e = 0; e < inner; ++e) {  // the inner coordinates of element e, row-major
          out = std::copy(prefix.begin(), prefix.end(), out);
          int64_t rest = e;
          for (int d = value_rank - 1; d >= 1; --d) {
            out[d - 1] = rest % values.shape().dim(d);
            rest /= values.shape().dim(d);
          }
          out += value_rank - 1;
        }
      }
    };
    const int64_t rows = static_cast<int64_t>(splits[0].size()) - 1;
    for (int64_t r = 0; r < rows; ++r) {
      prefix[0] = r;
      walk(0, r);
    }

    RILL_ASSIGN_OR_RETURN(Tensor * values_out,
                          ctx.allocate_output(1, TensorShape({values.NumElements()})));
    RILL_RETURN_IF_ERROR(VisitElementType(values.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      std::copy_n(ElementsOf<T>(values), values.NumElements(), ElementsOf<T>(*values_out));
      return absl::OkStatus();
    }));

    RILL_ASSIGN_OR_RETURN(Tensor * shape_out, ctx.allocate_output(2, TensorShape({width})));
    int64_t* shape = shape_out->flat<int64_t>().data();
    shape[0] = rows;
    for (int level = 0; level < k; ++level) {
      int64_t longest = 0;
      for (size_t i = 1; i < splits[level].size(); ++i) {
        longest = std::max(longest, splits[level][i] - splits[level][i - 1]);
      }
      shape[level + 1] = longest;
    }
    for (int d = 1; d < value_rank; ++d) shape[k + d] = values.shape().dim(d);
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("RaggedTensorToSparse")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_BOOL, DT_STRING})
                    .TypeConstraint("Tsplits", {DT_INT32, DT_INT64}),
                RaggedTensorToSparseOp);

}  // namespace
}  // namespace rill
