// Op definitions of the lookup tables: HashTableV2, MutableHashTableV2, InitializeTableV2,
// InitializeTableFromTextFileV2, LookupTableImportV2, LookupTableInsertV2, LookupTableFindV2,
// LookupTableSizeV2, LookupTableExportV2. Signatures read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py). Handles are scalars; a lookup has the keys' shape (scalar
// values); exports are vectors.
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

#define RILL_HASH_TABLE_OP(name)                   \
  REGISTER_OP(name)                                \
      .Output("table_handle: resource")            \
      .Attr("container: string = \"\"")            \
      .Attr("shared_name: string = \"\"")          \
      .Attr("use_node_name_sharing: bool = false") \
      .Attr("key_dtype: type")                     \
      .Attr("value_dtype: type")                   \
      .SetIsStateful()                             \
      .SetShapeFn(shape_fns::Scalar)

RILL_HASH_TABLE_OP("HashTableV2");
RILL_HASH_TABLE_OP("MutableHashTableV2");

absl::Status NoOutputs(ShapeInferenceContext&) { return absl::OkStatus(); }

REGISTER_OP("InitializeTableV2")
    .Input("table_handle: resource")
    .Input("keys: Tkey")
    .Input("values: Tval")
    .Attr("Tkey: type")
    .Attr("Tval: type")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

REGISTER_OP("InitializeTableFromTextFileV2")
    .Input("table_handle: resource")
    .Input("filename: string")
    .Attr("key_index: int >= -2")
    .Attr("value_index: int >= -2")
    .Attr("vocab_size: int >= -1 = -1")
    .Attr("delimiter: string = \"\t\"")
    .Attr("offset: int = 0")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

#define RILL_TABLE_UPDATE_OP(name)     \
  REGISTER_OP(name)                    \
      .Input("table_handle: resource") \
      .Input("keys: Tin")              \
      .Input("values: Tout")           \
      .Attr("Tin: type")               \
      .Attr("Tout: type")              \
      .SetIsStateful()                 \
      .SetShapeFn(NoOutputs)

RILL_TABLE_UPDATE_OP("LookupTableImportV2");
RILL_TABLE_UPDATE_OP("LookupTableInsertV2");

// The keys' shape.
absl::Status FindShape(ShapeInferenceContext& c) {
  c.set_output(0, c.input(1));
  return absl::OkStatus();
}

REGISTER_OP("LookupTableFindV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Input("default_value: Tout")
    .Output("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetIsStateful()
    .SetShapeFn(FindShape);

REGISTER_OP("LookupTableSizeV2")
    .Input("table_handle: resource")
    .Output("size: int64")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

absl::Status ExportShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape({-1}));
  c.set_output(1, PartialTensorShape({-1}));
  return absl::OkStatus();
}

REGISTER_OP("LookupTableExportV2")
    .Input("table_handle: resource")
    .Output("keys: Tkeys")
    .Output("values: Tvalues")
    .Attr("Tkeys: type")
    .Attr("Tvalues: type")
    .SetIsStateful()
    .SetShapeFn(ExportShape);

}  // namespace
}  // namespace rill
