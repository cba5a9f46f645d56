// Wrappers of the ragged, bincount-of-ragged and Unicode ops (text pipelines), and of
// SelfAdjointEigV2, DynamicPartition, MulNoNan, ImageProjectiveTransformV2 / V3 and
// PopulationCount. Ragged tensors are their row splits (outermost first) and flat values, as the
// ops take them. Included by graph/builder/ops.h.
#ifndef RILL_GRAPH_BUILDER_RAGGED_TEXT_OPS_H_
#define RILL_GRAPH_BUILDER_RAGGED_TEXT_OPS_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/types.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// Per-row counts [rows, size] of the values of a ragged batch (weights may be empty).
Output RaggedBincount(const Scope& scope, const Input& splits, const Input& values,
                      const Input& size, const Input& weights, bool binary_output = false);
// The same for a SparseTensor (rows by the first index; [size] for a 1-D dense shape).
Output SparseBincount(const Scope& scope, const Input& indices, const Input& values,
                      const Input& dense_shape, const Input& size, const Input& weights,
                      bool binary_output = false);
// tf.sparse.bincount: {output_indices, output_values, output_dense_shape}, the per-row counts (or
// weight sums; 1 with binary_output) of the values in [0, maxlength) as a sparse tensor of
// [rows, size] ([size] for a vector or 1-D sparse input); -1 leaves minlength / maxlength unset.
// weights may be empty; its dtype is the output's.
std::vector<Output> DenseCountSparseOutput(const Scope& scope, const Input& values,
                                           const Input& weights, bool binary_output,
                                           int64_t minlength = -1, int64_t maxlength = -1);
std::vector<Output> SparseCountSparseOutput(const Scope& scope, const Input& indices,
                                            const Input& values, const Input& dense_shape,
                                            const Input& weights, bool binary_output,
                                            int64_t minlength = -1, int64_t maxlength = -1);
std::vector<Output> RaggedCountSparseOutput(const Scope& scope, const Input& splits,
                                            const Input& values, const Input& weights,
                                            bool binary_output, int64_t minlength = -1,
                                            int64_t maxlength = -1);
// {rt_nested_splits, rt_dense_values}.
std::vector<Output> RaggedRange(const Scope& scope, const Input& starts, const Input& limits,
                                const Input& deltas, DataType tsplits = DT_INT64);
// {output_nested_splits..., output_dense_values}: output_ragged_rank splits tensors.
std::vector<Output> RaggedGather(const Scope& scope, absl::Span<const Output> params_nested_splits,
                                 const Input& params_dense_values, const Input& indices,
                                 int output_ragged_rank);
// {sparse_indices, sparse_values, sparse_dense_shape}.
std::vector<Output> RaggedTensorToSparse(const Scope& scope,
                                         absl::Span<const Output> rt_nested_splits,
                                         const Input& rt_dense_values);
// {row_splits, char_values} (and char_to_byte_starts with offsets).
std::vector<Output> UnicodeDecode(const Scope& scope, const Input& input,
                                  absl::string_view input_encoding,
                                  absl::string_view errors = "replace");
std::vector<Output> UnicodeDecodeWithOffsets(const Scope& scope, const Input& input,
                                             absl::string_view input_encoding,
                                             absl::string_view errors = "replace");
Output UnicodeEncode(const Scope& scope, const Input& input_values, const Input& input_splits,
                     absl::string_view output_encoding, absl::string_view errors = "replace");
// ICU's script number of each int32 code point (-1 for non-code points).
Output UnicodeScript(const Scope& scope, const Input& input);
Output UnicodeTranscode(const Scope& scope, const Input& input, absl::string_view input_encoding,
                        absl::string_view output_encoding, absl::string_view errors = "replace");
// {e, v}: eigenvalues ascending and (with compute_v) eigenvectors as columns.
std::vector<Output> SelfAdjointEigV2(const Scope& scope, const Input& input, bool compute_v = true);
// num_partitions outputs.
std::vector<Output> DynamicPartition(const Scope& scope, const Input& data, const Input& partitions,
                                     int num_partitions);
Output MulNoNan(const Scope& scope, const Input& x, const Input& y);
// The set bits of each integer element (uint8).
Output PopulationCount(const Scope& scope, const Input& x);
Output ImageProjectiveTransformV3(const Scope& scope, const Input& images, const Input& transforms,
                                  const Input& output_shape, const Input& fill_value,
                                  absl::string_view interpolation,
                                  absl::string_view fill_mode = "CONSTANT");
// V3 without fill_value: points outside the image read 0.
Output ImageProjectiveTransformV2(const Scope& scope, const Input& images, const Input& transforms,
                                  const Input& output_shape, absl::string_view interpolation,
                                  absl::string_view fill_mode = "CONSTANT");

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_RAGGED_TEXT_OPS_H_
