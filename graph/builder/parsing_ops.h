// Builder wrappers for the input parsers of serving graphs (TensorFlow's C++ API names):
// tf.train.Example records (ParseExampleV2, ParseExample, ParseSingleExample),
// tf.train.SequenceExample records (ParseSequenceExample, ParseSequenceExampleV2,
// ParseSingleSequenceExample), CSV lines and
// serialized tensors, WAV files. Included by graph/builder/ops.h.
//
//   std::vector<Output> parsed = ops::ParseExampleV2(root, serialized, {}, {}, {"age"}, {},
//       {ops::Const(root, {40.f})}, 0, {}, {}, {}, {PartialTensorShape({1})});
//
// The Example parsers return their outputs in TensorFlow's order: sparse indices, values and
// shapes (one each per sparse key), dense values, then ragged values and row splits.
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_PARSING_OPS_H_
#define RILL_GRAPH_BUILDER_PARSING_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "core/types.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// sparse_keys, dense_keys and ragged_keys are string vectors; names is empty or one per record.
std::vector<Output> ParseExampleV2(const Scope& scope, const Input& serialized, const Input& names,
                                   const Input& sparse_keys, const Input& dense_keys,
                                   const Input& ragged_keys,
                                   absl::Span<const Output> dense_defaults, int64_t num_sparse,
                                   const std::vector<DataType>& sparse_types,
                                   const std::vector<DataType>& ragged_value_types,
                                   const std::vector<DataType>& ragged_split_types,
                                   const std::vector<PartialTensorShape>& dense_shapes);
// The TF1 form: one scalar string input per key, `serialized` a vector.
std::vector<Output> ParseExample(const Scope& scope, const Input& serialized, const Input& names,
                                 absl::Span<const Output> sparse_keys,
                                 absl::Span<const Output> dense_keys,
                                 absl::Span<const Output> dense_defaults,
                                 const std::vector<DataType>& sparse_types,
                                 const std::vector<PartialTensorShape>& dense_shapes);
// One scalar record; the keys are attrs.
std::vector<Output> ParseSingleExample(const Scope& scope, const Input& serialized,
                                       absl::Span<const Output> dense_defaults,
                                       const std::vector<std::string>& sparse_keys,
                                       const std::vector<std::string>& dense_keys,
                                       const std::vector<DataType>& sparse_types,
                                       const std::vector<PartialTensorShape>& dense_shapes);

// tf.train.SequenceExample records (`serialized` a vector). Outputs: context sparse indices,
// values, shapes; context dense values; feature-list sparse indices, values, shapes; feature-list
// dense values and lengths. The keys, and the dense feature lists a record may lack, are attrs.
struct SequenceExampleSpec {
  std::vector<std::string> context_sparse_keys, context_dense_keys;
  std::vector<DataType> context_sparse_types;
  std::vector<PartialTensorShape> context_dense_shapes;
  std::vector<std::string> feature_list_sparse_keys, feature_list_dense_keys;
  std::vector<DataType> feature_list_sparse_types, feature_list_dense_types;
  std::vector<PartialTensorShape> feature_list_dense_shapes;
  std::vector<std::string> feature_list_dense_missing_assumed_empty;
};
std::vector<Output> ParseSequenceExample(const Scope& scope, const Input& serialized,
                                         const Input& debug_name,
                                         absl::Span<const Output> context_dense_defaults,
                                         const SequenceExampleSpec& spec);
// The V2 form: keys are string vector inputs, `serialized` a scalar or a vector,
// `missing_assumed_empty` a bool per feature-list dense key; context ragged values and splits
// follow the context dense values, and feature-list ragged values, outer and inner splits come
// last.
struct SequenceExampleV2Types {
  std::vector<DataType> context_sparse_types, context_ragged_value_types,
      context_ragged_split_types;
  std::vector<PartialTensorShape> context_dense_shapes;
  std::vector<DataType> feature_list_sparse_types, feature_list_dense_types,
      feature_list_ragged_value_types, feature_list_ragged_split_types;
  std::vector<PartialTensorShape> feature_list_dense_shapes;
};
std::vector<Output> ParseSequenceExampleV2(
    const Scope& scope, const Input& serialized, const Input& debug_name,
    const Input& context_sparse_keys, const Input& context_dense_keys,
    const Input& context_ragged_keys, const Input& feature_list_sparse_keys,
    const Input& feature_list_dense_keys, const Input& feature_list_ragged_keys,
    const Input& missing_assumed_empty, absl::Span<const Output> context_dense_defaults,
    const SequenceExampleV2Types& types);
// One scalar record (TF1's tf.io.parse_single_sequence_example): keys are scalar string inputs
// (the keys and types of `spec`), `missing_assumed_empty` a string vector of feature-list dense
// keys a record may lack, `debug_name` a scalar. Outputs as ParseSequenceExample's, without
// the feature-list dense lengths.
std::vector<Output> ParseSingleSequenceExample(const Scope& scope, const Input& serialized,
                                               const Input& missing_assumed_empty,
                                               absl::Span<const Output> context_dense_defaults,
                                               const Input& debug_name,
                                               const SequenceExampleSpec& spec);

// One output per column, each records' shape; record_defaults[i] is empty (a required column) or
// one value of the column's type.
std::vector<Output> DecodeCSV(const Scope& scope, const Input& records,
                              absl::Span<const Output> record_defaults,
                              absl::string_view field_delim = ",", bool use_quote_delim = true,
                              absl::string_view na_value = "",
                              const std::vector<int64_t>& select_cols = {});

// A tensor as the bytes of its TensorProto, and back.
Output SerializeTensor(const Scope& scope, const Input& tensor);
Output ParseTensor(const Scope& scope, const Input& serialized, DataType out_type);

// A 16-bit PCM WAV file to [samples, channels] float audio and its sample rate (-1: as in the
// file), and back.
std::vector<Output> DecodeWav(const Scope& scope, const Input& contents,
                              int64_t desired_channels = -1, int64_t desired_samples = -1);
Output EncodeWav(const Scope& scope, const Input& audio, const Input& sample_rate);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_PARSING_OPS_H_
