// Op definitions of the input-parsing ops serving graphs start with: ParseExample(V2) and
// ParseSingleExample (tf.train.Example records), ParseSequenceExample(V2) and
// ParseSingleSequenceExample (tf.train.SequenceExample records), DecodeCSV, SerializeTensor and
// ParseTensor. Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include <cstdint>
#include <string>
#include <vector>

#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

int64_t ListAttrSize(const NodeDef& node, const char* name) {
  const AttrValue* v = FindNodeAttr(node, name);
  if (v == nullptr) return 0;
  const AttrValue::ListValue& l = v->list();
  return l.type_size() + l.shape_size() + l.s_size() + l.i_size();
}

// Output shapes of the Example parsers, for `batch` the shape of `serialized` (unknown rank
// when not known). Outputs in order: sparse indices, values, shapes; dense values; ragged values
// and row splits. The kernel checks every value; nothing here fails.
absl::Status ExampleOutputs(ShapeInferenceContext& c, const PartialTensorShape& batch,
                            const char* num_sparse_attr) {
  int64_t num_sparse = 0;
  if (!GetNodeAttr(c.node(), num_sparse_attr, &num_sparse).ok() || num_sparse < 0) {
    return absl::OkStatus();
  }
  const int64_t num_dense = ListAttrSize(c.node(), "Tdense");
  const int64_t num_ragged = ListAttrSize(c.node(), "ragged_value_types");
  if (3 * num_sparse + num_dense + 2 * num_ragged != c.num_outputs()) return absl::OkStatus();
  const int64_t index_columns = batch.unknown_rank() ? -1 : batch.rank() + 1;
  int o = 0;
  for (int64_t i = 0; i < num_sparse; ++i)
    c.set_output(o++, PartialTensorShape({-1, index_columns}));
  for (int64_t i = 0; i < num_sparse; ++i) c.set_output(o++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < num_sparse; ++i) c.set_output(o++, PartialTensorShape({index_columns}));
  const AttrValue* shapes = FindNodeAttr(c.node(), "dense_shapes");
  for (int64_t i = 0; i < num_dense; ++i, ++o) {
    if (batch.unknown_rank() || shapes == nullptr || i >= shapes->list().shape_size()) continue;
    absl::StatusOr<PartialTensorShape> dense =
        PartialTensorShape::FromProto(shapes->list().shape(i));
    if (!dense.ok() || dense->unknown_rank()) continue;
    std::vector<int64_t> dims = batch.dims();
    dims.insert(dims.end(), dense->dims().begin(), dense->dims().end());
    c.set_output(o, PartialTensorShape(std::move(dims)));
  }
  for (int64_t i = 0; i < num_ragged; ++i) c.set_output(o++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < num_ragged; ++i) c.set_output(o++, PartialTensorShape({-1}));
  return absl::OkStatus();
}

absl::Status ParseExampleV2Shape(ShapeInferenceContext& c) {
  return ExampleOutputs(c, c.input(0), "num_sparse");
}

absl::Status ParseExampleShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  const int64_t rows = !in.unknown_rank() && in.rank() == 1 ? in.dims()[0] : -1;
  return ExampleOutputs(c, PartialTensorShape({rows}), "Nsparse");
}

absl::Status ParseSingleExampleShape(ShapeInferenceContext& c) {
  return ExampleOutputs(c, PartialTensorShape({}), "num_sparse");
}

// Output shapes of the SequenceExample parsers for `batch` the shape of `serialized` (V2 also
// has the ragged outputs). The kernel checks every value; nothing here fails.
absl::Status SequenceExampleOutputs(ShapeInferenceContext& c, bool v2) {
  const PartialTensorShape& batch = c.input(0);
  int64_t ncs = 0, nfs = 0, nfd = 0;
  if (!GetNodeAttr(c.node(), "Ncontext_sparse", &ncs).ok() ||
      !GetNodeAttr(c.node(), "Nfeature_list_sparse", &nfs).ok() ||
      !GetNodeAttr(c.node(), "Nfeature_list_dense", &nfd).ok()) {
    return absl::OkStatus();
  }
  const int64_t ncd = ListAttrSize(c.node(), "Tcontext_dense");
  const int64_t ncr = v2 ? ListAttrSize(c.node(), "context_ragged_value_types") : 0;
  const int64_t nfr = v2 ? ListAttrSize(c.node(), "feature_list_ragged_value_types") : 0;
  if (3 * ncs + ncd + 2 * ncr + 3 * nfs + 2 * nfd + 3 * nfr != c.num_outputs()) {
    return absl::OkStatus();
  }
  const bool known = !batch.unknown_rank();
  const int64_t rank = known ? batch.rank() : -1;
  auto with_batch = [&](const char* attr, int64_t i, bool steps) {
    const AttrValue* shapes = FindNodeAttr(c.node(), attr);
    if (!known || shapes == nullptr || i >= shapes->list().shape_size()) {
      return PartialTensorShape();
    }
    absl::StatusOr<PartialTensorShape> s = PartialTensorShape::FromProto(shapes->list().shape(i));
    if (!s.ok() || s->unknown_rank()) return PartialTensorShape();
    std::vector<int64_t> dims = batch.dims();
    if (steps) dims.push_back(-1);
    dims.insert(dims.end(), s->dims().begin(), s->dims().end());
    return PartialTensorShape(std::move(dims));
  };
  int o = 0;
  for (int64_t i = 0; i < ncs; ++i)
    c.set_output(o++, PartialTensorShape({-1, known ? rank + 1 : -1}));
  for (int64_t i = 0; i < ncs; ++i) c.set_output(o++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < ncs; ++i) c.set_output(o++, PartialTensorShape({known ? rank + 1 : -1}));
  for (int64_t i = 0; i < ncd; ++i) c.set_output(o++, with_batch("context_dense_shapes", i, false));
  for (int64_t i = 0; i < 2 * ncr; ++i) c.set_output(o++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < nfs; ++i)
    c.set_output(o++, PartialTensorShape({-1, known ? rank + 2 : -1}));
  for (int64_t i = 0; i < nfs; ++i) c.set_output(o++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < nfs; ++i) c.set_output(o++, PartialTensorShape({known ? rank + 2 : -1}));
  for (int64_t i = 0; i < nfd; ++i) {
    c.set_output(o++, with_batch("feature_list_dense_shapes", i, true));
  }
  for (int64_t i = 0; i < nfd; ++i) c.set_output(o++, known ? batch : PartialTensorShape());
  for (int64_t i = 0; i < 3 * nfr; ++i) c.set_output(o++, PartialTensorShape({-1}));
  return absl::OkStatus();
}

// ParseSingleSequenceExample's outputs: context sparse [n, 1], [n], [1]; context dense in their
// shapes; feature-list sparse [n, 2], [n], [2]; feature-list dense [steps, shape...].
absl::Status SingleSequenceExampleShape(ShapeInferenceContext& c) {
  int64_t ncs = 0, nfs = 0, nfd = 0;
  if (!GetNodeAttr(c.node(), "Ncontext_sparse", &ncs).ok() ||
      !GetNodeAttr(c.node(), "Nfeature_list_sparse", &nfs).ok() ||
      !GetNodeAttr(c.node(), "Nfeature_list_dense", &nfd).ok()) {
    return absl::OkStatus();
  }
  const int64_t ncd = ListAttrSize(c.node(), "Tcontext_dense");
  if (3 * ncs + ncd + 3 * nfs + nfd != c.num_outputs()) return absl::OkStatus();
  auto shape = [&](const char* attr, int64_t i, bool steps) {
    const AttrValue* shapes = FindNodeAttr(c.node(), attr);
    if (shapes == nullptr || i >= shapes->list().shape_size()) return PartialTensorShape();
    absl::StatusOr<PartialTensorShape> s = PartialTensorShape::FromProto(shapes->list().shape(i));
    if (!s.ok() || s->unknown_rank()) return PartialTensorShape();
    std::vector<int64_t> dims;
    if (steps) dims.push_back(-1);
    dims.insert(dims.end(), s->dims().begin(), s->dims().end());
    return PartialTensorShape(std::move(dims));
  };
  int o = 0;
  for (int64_t i = 0; i < ncs; ++i) c.set_output(o++, PartialTensorShape({-1, 1}));
  for (int64_t i = 0; i < ncs; ++i) c.set_output(o++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < ncs; ++i) c.set_output(o++, PartialTensorShape({1}));
  for (int64_t i = 0; i < ncd; ++i) c.set_output(o++, shape("context_dense_shapes", i, false));
  for (int64_t i = 0; i < nfs; ++i) c.set_output(o++, PartialTensorShape({-1, 2}));
  for (int64_t i = 0; i < nfs; ++i) c.set_output(o++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < nfs; ++i) c.set_output(o++, PartialTensorShape({2}));
  for (int64_t i = 0; i < nfd; ++i) c.set_output(o++, shape("feature_list_dense_shapes", i, true));
  return absl::OkStatus();
}

// Every output the shape of `records`.
absl::Status DecodeCSVShape(ShapeInferenceContext& c) {
  for (int o = 0; o < c.num_outputs(); ++o) c.set_output(o, c.input(0));
  return absl::OkStatus();
}

REGISTER_OP("ParseExampleV2")
    .Input("serialized: string")
    .Input("names: string")
    .Input("sparse_keys: string")
    .Input("dense_keys: string")
    .Input("ragged_keys: string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: num_sparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: num_sparse * int64")
    .Output("dense_values: Tdense")
    .Output("ragged_values: ragged_value_types")
    .Output("ragged_row_splits: ragged_split_types")
    .Attr("Tdense: list({float, int64, string}) >= 0")
    .Attr("num_sparse: int >= 0")
    .Attr("sparse_types: list({float, int64, string}) >= 0")
    .Attr("ragged_value_types: list({float, int64, string}) >= 0")
    .Attr("ragged_split_types: list({int32, int64}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseExampleV2Shape);

REGISTER_OP("ParseExample")
    .Input("serialized: string")
    .Input("names: string")
    .Input("sparse_keys: Nsparse * string")
    .Input("dense_keys: Ndense * string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: Nsparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: Nsparse * int64")
    .Output("dense_values: Tdense")
    .Attr("Nsparse: int >= 0")
    .Attr("Ndense: int >= 0")
    .Attr("sparse_types: list({float, int64, string}) >= 0")
    .Attr("Tdense: list({float, int64, string}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseExampleShape);

REGISTER_OP("ParseSingleExample")
    .Input("serialized: string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: num_sparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: num_sparse * int64")
    .Output("dense_values: Tdense")
    .Attr("num_sparse: int >= 0")
    .Attr("sparse_keys: list(string) >= 0")
    .Attr("dense_keys: list(string) >= 0")
    .Attr("sparse_types: list({float, int64, string}) >= 0")
    .Attr("Tdense: list({float, int64, string}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseSingleExampleShape);

REGISTER_OP("ParseSequenceExample")
    .Input("serialized: string")
    .Input("debug_name: string")
    .Input("context_dense_defaults: Tcontext_dense")
    .Output("context_sparse_indices: Ncontext_sparse * int64")
    .Output("context_sparse_values: context_sparse_types")
    .Output("context_sparse_shapes: Ncontext_sparse * int64")
    .Output("context_dense_values: Tcontext_dense")
    .Output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
    .Output("feature_list_sparse_values: feature_list_sparse_types")
    .Output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
    .Output("feature_list_dense_values: feature_list_dense_types")
    .Output("feature_list_dense_lengths: Nfeature_list_dense * int64")
    .Attr("feature_list_dense_missing_assumed_empty: list(string) >= 0")
    .Attr("context_sparse_keys: list(string) >= 0")
    .Attr("context_dense_keys: list(string) >= 0")
    .Attr("feature_list_sparse_keys: list(string) >= 0")
    .Attr("feature_list_dense_keys: list(string) >= 0")
    .Attr("Ncontext_sparse: int >= 0 = 0")
    .Attr("Ncontext_dense: int >= 0 = 0")
    .Attr("Nfeature_list_sparse: int >= 0 = 0")
    .Attr("Nfeature_list_dense: int >= 0 = 0")
    .Attr("context_sparse_types: list({float, int64, string}) >= 0 = []")
    .Attr("Tcontext_dense: list({float, int64, string}) >= 0 = []")
    .Attr("feature_list_dense_types: list({float, int64, string}) >= 0 = []")
    .Attr("context_dense_shapes: list(shape) >= 0 = []")
    .Attr("feature_list_sparse_types: list({float, int64, string}) >= 0 = []")
    .Attr("feature_list_dense_shapes: list(shape) >= 0 = []")
    .SetShapeFn([](ShapeInferenceContext& c) { return SequenceExampleOutputs(c, false); });

REGISTER_OP("ParseSequenceExampleV2")
    .Input("serialized: string")
    .Input("debug_name: string")
    .Input("context_sparse_keys: string")
    .Input("context_dense_keys: string")
    .Input("context_ragged_keys: string")
    .Input("feature_list_sparse_keys: string")
    .Input("feature_list_dense_keys: string")
    .Input("feature_list_ragged_keys: string")
    .Input("feature_list_dense_missing_assumed_empty: bool")
    .Input("context_dense_defaults: Tcontext_dense")
    .Output("context_sparse_indices: Ncontext_sparse * int64")
    .Output("context_sparse_values: context_sparse_types")
    .Output("context_sparse_shapes: Ncontext_sparse * int64")
    .Output("context_dense_values: Tcontext_dense")
    .Output("context_ragged_values: context_ragged_value_types")
    .Output("context_ragged_row_splits: context_ragged_split_types")
    .Output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
    .Output("feature_list_sparse_values: feature_list_sparse_types")
    .Output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
    .Output("feature_list_dense_values: feature_list_dense_types")
    .Output("feature_list_dense_lengths: Nfeature_list_dense * int64")
    .Output("feature_list_ragged_values: feature_list_ragged_value_types")
    .Output("feature_list_ragged_outer_splits: feature_list_ragged_split_types")
    .Output("feature_list_ragged_inner_splits: feature_list_ragged_split_types")
    .Attr("Ncontext_sparse: int >= 0 = 0")
    .Attr("Tcontext_dense: list({float, int64, string}) >= 0 = []")
    .Attr("context_sparse_types: list({float, int64, string}) >= 0 = []")
    .Attr("context_ragged_value_types: list({float, int64, string}) >= 0 = []")
    .Attr("context_ragged_split_types: list({int32, int64}) >= 0 = []")
    .Attr("context_dense_shapes: list(shape) >= 0 = []")
    .Attr("Nfeature_list_sparse: int >= 0 = 0")
    .Attr("Nfeature_list_dense: int >= 0 = 0")
    .Attr("feature_list_dense_types: list({float, int64, string}) >= 0 = []")
    .Attr("feature_list_sparse_types: list({float, int64, string}) >= 0 = []")
    .Attr("feature_list_ragged_value_types: list({float, int64, string}) >= 0 = []")
    .Attr("feature_list_ragged_split_types: list({int32, int64}) >= 0 = []")
    .Attr("feature_list_dense_shapes: list(shape) >= 0 = []")
    .SetShapeFn([](ShapeInferenceContext& c) { return SequenceExampleOutputs(c, true); });

REGISTER_OP("ParseSingleSequenceExample")
    .Input("serialized: string")
    .Input("feature_list_dense_missing_assumed_empty: string")
    .Input("context_sparse_keys: Ncontext_sparse * string")
    .Input("context_dense_keys: Ncontext_dense * string")
    .Input("feature_list_sparse_keys: Nfeature_list_sparse * string")
    .Input("feature_list_dense_keys: Nfeature_list_dense * string")
    .Input("context_dense_defaults: Tcontext_dense")
    .Input("debug_name: string")
    .Output("context_sparse_indices: Ncontext_sparse * int64")
    .Output("context_sparse_values: context_sparse_types")
    .Output("context_sparse_shapes: Ncontext_sparse * int64")
    .Output("context_dense_values: Tcontext_dense")
    .Output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
    .Output("feature_list_sparse_values: feature_list_sparse_types")
    .Output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
    .Output("feature_list_dense_values: feature_list_dense_types")
    .Attr("Ncontext_sparse: int >= 0 = 0")
    .Attr("Ncontext_dense: int >= 0 = 0")
    .Attr("Nfeature_list_sparse: int >= 0 = 0")
    .Attr("Nfeature_list_dense: int >= 0 = 0")
    .Attr("context_sparse_types: list({float, int64, string}) >= 0 = []")
    .Attr("Tcontext_dense: list({float, int64, string}) >= 0 = []")
    .Attr("feature_list_dense_types: list({float, int64, string}) >= 0 = []")
    .Attr("context_dense_shapes: list(shape) >= 0 = []")
    .Attr("feature_list_sparse_types: list({float, int64, string}) >= 0 = []")
    .Attr("feature_list_dense_shapes: list(shape) >= 0 = []")
    .SetShapeFn(SingleSequenceExampleShape);

REGISTER_OP("DecodeCSV")
    .Input("records: string")
    .Input("record_defaults: OUT_TYPE")
    .Output("output: OUT_TYPE")
    .Attr("OUT_TYPE: list({float, double, int32, int64, string}) >= 1")
    .Attr("field_delim: string = \",\"")
    .Attr("use_quote_delim: bool = true")
    .Attr("na_value: string = \"\"")
    .Attr("select_cols: list(int) = []")
    .SetShapeFn(DecodeCSVShape);

REGISTER_OP("SerializeTensor")
    .Input("tensor: T")
    .Output("serialized: string")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("ParseTensor")
    .Input("serialized: string")
    .Output("output: out_type")
    .Attr("out_type: type")
    .SetShapeFn(shape_fns::Unknown);

}  // namespace
}  // namespace rill
