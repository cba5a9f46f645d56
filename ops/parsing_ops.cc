// Op definitions of the input-parsing ops serving graphs start with: ParseExample(V2) and
// ParseSingleExample (tf.train.Example records), DecodeCSV, SerializeTensor and ParseTensor.
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
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
