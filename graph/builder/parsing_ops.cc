#include "graph/builder/parsing_ops.h"

#include "graph/builder/op_builder.h"
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
