#include "graph/builder/parsing_ops.h"

#include "absl/strings/str_cat.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "proto/attr_value.pb.h"

namespace rill {
namespace ops {
namespace {

AttrValue ShapeList(const std::vector<PartialTensorShape>& shapes) {
  AttrValue v;
  AttrValue::ListValue* list = v.mutable_list();
  for (const PartialTensorShape& s : shapes) s.AsProto(list->add_shape());
  return v;
}

std::vector<Output> Outputs(const Operation& node) {
  std::vector<Output> out;
  for (int i = 0; i < node.num_outputs(); ++i) out.push_back(node.output(i));
  return out;
}

}  // namespace

std::vector<Output> ParseExampleV2(const Scope& scope, const Input& serialized, const Input& names,
                                   const Input& sparse_keys, const Input& dense_keys,
                                   const Input& ragged_keys,
                                   absl::Span<const Output> dense_defaults, int64_t num_sparse,
                                   const std::vector<DataType>& sparse_types,
                                   const std::vector<DataType>& ragged_value_types,
                                   const std::vector<DataType>& ragged_split_types,
                                   const std::vector<PartialTensorShape>& dense_shapes) {
  return Outputs(OpBuilder(scope, "ParseExampleV2")
                     .Input(serialized)
                     .Input(names)
                     .Input(sparse_keys)
                     .Input(dense_keys)
                     .Input(ragged_keys)
                     .InputList(dense_defaults)
                     .Attr("num_sparse", num_sparse)
                     .Attr("sparse_types", sparse_types)
                     .Attr("ragged_value_types", ragged_value_types)
                     .Attr("ragged_split_types", ragged_split_types)
                     .Attr("dense_shapes", ShapeList(dense_shapes))
                     .Finalize());
}

std::vector<Output> ParseExample(const Scope& scope, const Input& serialized, const Input& names,
                                 absl::Span<const Output> sparse_keys,
                                 absl::Span<const Output> dense_keys,
                                 absl::Span<const Output> dense_defaults,
                                 const std::vector<DataType>& sparse_types,
                                 const std::vector<PartialTensorShape>& dense_shapes) {
  return Outputs(OpBuilder(scope, "ParseExample")
                     .Input(serialized)
                     .Input(names)
                     .InputList(sparse_keys)
                     .InputList(dense_keys)
                     .InputList(dense_defaults)
                     .Attr("sparse_types", sparse_types)
                     .Attr("dense_shapes", ShapeList(dense_shapes))
                     .Finalize());
}

std::vector<Output> ParseSingleExample(const Scope& scope, const Input& serialized,
                                       absl::Span<const Output> dense_defaults,
                                       const std::vector<std::string>& sparse_keys,
                                       const std::vector<std::string>& dense_keys,
                                       const std::vector<DataType>& sparse_types,
                                       const std::vector<PartialTensorShape>& dense_shapes) {
  return Outputs(OpBuilder(scope, "ParseSingleExample")
                     .Input(serialized)
                     .InputList(dense_defaults)
                     .Attr("num_sparse", static_cast<int64_t>(sparse_keys.size()))
                     .Attr("sparse_keys", sparse_keys)
                     .Attr("dense_keys", dense_keys)
                     .Attr("sparse_types", sparse_types)
                     .Attr("dense_shapes", ShapeList(dense_shapes))
                     .Finalize());
}

std::vector<Output> ParseSequenceExample(const Scope& scope, const Input& serialized,
                                         const Input& debug_name,
                                         absl::Span<const Output> context_dense_defaults,
                                         const SequenceExampleSpec& spec) {
  return Outputs(
      OpBuilder(scope, "ParseSequenceExample")
          .Input(serialized)
          .Input(debug_name)
          .InputList(context_dense_defaults)
          .Attr("feature_list_dense_missing_assumed_empty",
                spec.feature_list_dense_missing_assumed_empty)
          .Attr("context_sparse_keys", spec.context_sparse_keys)
          .Attr("context_dense_keys", spec.context_dense_keys)
          .Attr("feature_list_sparse_keys", spec.feature_list_sparse_keys)
          .Attr("feature_list_dense_keys", spec.feature_list_dense_keys)
          .Attr("Ncontext_sparse", static_cast<int64_t>(spec.context_sparse_keys.size()))
          .Attr("Ncontext_dense", static_cast<int64_t>(spec.context_dense_keys.size()))
          .Attr("Nfeature_list_sparse", static_cast<int64_t>(spec.feature_list_sparse_keys.size()))
          .Attr("Nfeature_list_dense", static_cast<int64_t>(spec.feature_list_dense_keys.size()))
          .Attr("context_sparse_types", spec.context_sparse_types)
          .Attr("feature_list_dense_types", spec.feature_list_dense_types)
          .Attr("context_dense_shapes", ShapeList(spec.context_dense_shapes))
          .Attr("feature_list_sparse_types", spec.feature_list_sparse_types)
          .Attr("feature_list_dense_shapes", ShapeList(spec.feature_list_dense_shapes))
          .Finalize());
}

std::vector<Output> ParseSequenceExampleV2(
    const Scope& scope, const Input& serialized, const Input& debug_name,
    const Input& context_sparse_keys, const Input& context_dense_keys,
    const Input& context_ragged_keys, const Input& feature_list_sparse_keys,
    const Input& feature_list_dense_keys, const Input& feature_list_ragged_keys,
    const Input& missing_assumed_empty, absl::Span<const Output> context_dense_defaults,
    const SequenceExampleV2Types& types) {
  return Outputs(
      OpBuilder(scope, "ParseSequenceExampleV2")
          .Input(serialized)
          .Input(debug_name)
          .Input(context_sparse_keys)
          .Input(context_dense_keys)
          .Input(context_ragged_keys)
          .Input(feature_list_sparse_keys)
          .Input(feature_list_dense_keys)
          .Input(feature_list_ragged_keys)
          .Input(missing_assumed_empty)
          .InputList(context_dense_defaults)
          .Attr("Ncontext_sparse", static_cast<int64_t>(types.context_sparse_types.size()))
          .Attr("context_sparse_types", types.context_sparse_types)
          .Attr("context_ragged_value_types", types.context_ragged_value_types)
          .Attr("context_ragged_split_types", types.context_ragged_split_types)
          .Attr("context_dense_shapes", ShapeList(types.context_dense_shapes))
          .Attr("Nfeature_list_sparse",
                static_cast<int64_t>(types.feature_list_sparse_types.size()))
          .Attr("Nfeature_list_dense", static_cast<int64_t>(types.feature_list_dense_types.size()))
          .Attr("feature_list_dense_types", types.feature_list_dense_types)
          .Attr("feature_list_sparse_types", types.feature_list_sparse_types)
          .Attr("feature_list_ragged_value_types", types.feature_list_ragged_value_types)
          .Attr("feature_list_ragged_split_types", types.feature_list_ragged_split_types)
          .Attr("feature_list_dense_shapes", ShapeList(types.feature_list_dense_shapes))
          .Finalize());
}

std::vector<Output> ParseSingleSequenceExample(const Scope& scope, const Input& serialized,
                                               const Input& missing_assumed_empty,
                                               absl::Span<const Output> context_dense_defaults,
                                               const Input& debug_name,
                                               const SequenceExampleSpec& spec) {
  auto keys = [&](const std::vector<std::string>& names, const char* what) {
    std::vector<Output> out;
    for (size_t i = 0; i < names.size(); ++i) {
      out.push_back(Const(scope.WithOpName(absl::StrCat(what, i)), Initializer(names[i])));
    }
    return out;
  };
  return Outputs(OpBuilder(scope, "ParseSingleSequenceExample")
                     .Input(serialized)
                     .Input(missing_assumed_empty)
                     .InputList(keys(spec.context_sparse_keys, "context_sparse_key"))
                     .InputList(keys(spec.context_dense_keys, "context_dense_key"))
                     .InputList(keys(spec.feature_list_sparse_keys, "feature_list_sparse_key"))
                     .InputList(keys(spec.feature_list_dense_keys, "feature_list_dense_key"))
                     .InputList(context_dense_defaults)
                     .Input(debug_name)
                     .Attr("context_sparse_types", spec.context_sparse_types)
                     .Attr("feature_list_dense_types", spec.feature_list_dense_types)
                     .Attr("context_dense_shapes", ShapeList(spec.context_dense_shapes))
                     .Attr("feature_list_sparse_types", spec.feature_list_sparse_types)
                     .Attr("feature_list_dense_shapes", ShapeList(spec.feature_list_dense_shapes))
                     .Finalize());
}

std::vector<Output> DecodeCSV(const Scope& scope, const Input& records,
                              absl::Span<const Output> record_defaults,
                              absl::string_view field_delim, bool use_quote_delim,
                              absl::string_view na_value, const std::vector<int64_t>& select_cols) {
  return Outputs(OpBuilder(scope, "DecodeCSV")
                     .Input(records)
                     .InputList(record_defaults)
                     .Attr("field_delim", field_delim)
                     .Attr("use_quote_delim", use_quote_delim)
                     .Attr("na_value", na_value)
                     .Attr("select_cols", select_cols)
                     .Finalize());
}

Output SerializeTensor(const Scope& scope, const Input& tensor) {
  return OpBuilder(scope, "SerializeTensor").Input(tensor).Finalize().output(0);
}

Output ParseTensor(const Scope& scope, const Input& serialized, DataType out_type) {
  return OpBuilder(scope, "ParseTensor")
      .Input(serialized)
      .Attr("out_type", out_type)
      .Finalize()
      .output(0);
}

std::vector<Output> DecodeWav(const Scope& scope, const Input& contents, int64_t desired_channels,
                              int64_t desired_samples) {
  return Outputs(OpBuilder(scope, "DecodeWav")
                     .Input(contents)
                     .Attr("desired_channels", desired_channels)
                     .Attr("desired_samples", desired_samples)
                     .Finalize());
}

Output EncodeWav(const Scope& scope, const Input& audio, const Input& sample_rate) {
  return OpBuilder(scope, "EncodeWav").Input(audio).Input(sample_rate).Finalize().output(0);
}

}  // namespace ops
}  // namespace rill
