// Op definitions of the string and check ops: StringJoin, AsString, StringFormat, PrintV2, Print,
// Assert, DynamicStitch (the gradients' index merge) and DynamicPartition. Signatures read from
// TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include <algorithm>
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

// StringJoin: the shape of the non-scalar inputs (a scalar when all are scalars).
absl::Status StringJoinShape(ShapeInferenceContext& c) {
  PartialTensorShape out(std::vector<int64_t>{});
  for (int i = 0; i < c.num_inputs(); ++i) {
    const PartialTensorShape& s = c.input(i);
    if (s.unknown_rank()) return absl::OkStatus();
    if (s.rank() > 0) out = s;
  }
  c.set_output(0, out);
  return absl::OkStatus();
}

// All values of index input i when known: a constant of any rank, or a partial value with no
// unknown element (such as Range over Size(Shape(x)) of a known-rank x).
bool KnownIndices(const ShapeInferenceContext& c, int i, std::vector<int64_t>* values) {
  if (c.input_tensor(i) != nullptr) return c.ConstantIndexValues(i, values);
  int64_t scalar;
  if (c.ScalarIndexValue(i, &scalar)) {
    *values = {scalar};
    return true;
  }
  if (!c.PartialIndexValues(i, values)) return false;
  for (int64_t v : *values) {
    if (v < 0) return false;
  }
  return true;
}

// DynamicStitch: [max index + 1 when every index is known, else unknown] followed by the data's
// dims after their indices' (merged over the inputs), as TensorFlow's shape function. Inputs that
// disagree are the kernel's to report: the shape is then unknown.
absl::Status DynamicStitchShape(ShapeInferenceContext& c) {
  const int n = c.num_inputs() / 2;
  bool all_known = true;
  int64_t max_index = -1;
  PartialTensorShape rest;  // unknown rank until an input says more
  for (int i = 0; i < n; ++i) {
    std::vector<int64_t> values;
    if (KnownIndices(c, i, &values)) {
      for (int64_t v : values) max_index = std::max(max_index, v);
    } else {
      all_known = false;
    }
    const PartialTensorShape& idx = c.input(i);
    const PartialTensorShape& data = c.input(n + i);
    if (idx.unknown_rank() || data.unknown_rank()) continue;
    if (data.rank() < idx.rank()) return absl::OkStatus();
    PartialTensorShape tail(
        std::vector<int64_t>(data.dims().begin() + idx.rank(), data.dims().end()));
    absl::StatusOr<PartialTensorShape> merged =
        shape_fns::MergeShapes(c, rest, tail, "data dims after the indices'");
    if (!merged.ok()) return absl::OkStatus();
    rest = *std::move(merged);
  }
  if (rest.unknown_rank()) return absl::OkStatus();
  std::vector<int64_t> out = {all_known ? max_index + 1 : -1};
  out.insert(out.end(), rest.dims().begin(), rest.dims().end());
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

REGISTER_OP("StringJoin")
    .Input("inputs: N * string")
    .Output("output: string")
    .Attr("N: int >= 0")
    .Attr("separator: string = \"\"")
    .SetShapeFn(StringJoinShape);

REGISTER_OP("StaticRegexFullMatch")
    .Input("input: string")
    .Output("output: bool")
    .Attr("pattern: string")
    .SetShapeFn(shape_fns::Unchanged)
    .Doc("Whether each string matches the regular expression `pattern` as a whole.");

REGISTER_OP("AsString")
    .Input("input: T")
    .Output("output: string")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64, complex64, complex128, bool, variant, string}")
    .Attr("precision: int = -1")
    .Attr("scientific: bool = false")
    .Attr("shortest: bool = false")
    .Attr("width: int = -1")
    .Attr("fill: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StringFormat")
    .Input("inputs: T")
    .Output("output: string")
    .Attr("T: list(type) >= 0")
    .Attr("template: string = \"%s\"")
    .Attr("placeholder: string = \"%s\"")
    .Attr("summarize: int = 3")
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("PrintV2")
    .Input("input: string")
    .Attr("output_stream: string = \"stderr\"")
    .Attr("end: string = \"\n\"")  // a newline, as TensorFlow's default
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("Print")
    .Input("input: T")
    .Input("data: U")
    .Output("output: T")
    .Attr("T: type")
    .Attr("U: list(type) >= 0")
    .Attr("message: string = \"\"")
    .Attr("first_n: int = -1")
    .Attr("summarize: int = 3")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Assert")
    .Input("condition: bool")
    .Input("data: T")
    .Attr("T: list(type) >= 1")
    .Attr("summarize: int = 3")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("DynamicStitch")
    .Input("indices: N * int32")
    .Input("data: N * T")
    .Output("merged: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicStitchShape);

// DynamicPartition: num_partitions outputs of [?] + data's dims after partitions' rank, when
// both ranks are known; unknown otherwise.
absl::Status DynamicPartitionShape(ShapeInferenceContext& c) {
  const PartialTensorShape& data = c.input(0);
  const PartialTensorShape& partitions = c.input(1);
  if (data.unknown_rank() || partitions.unknown_rank() || data.rank() < partitions.rank()) {
    return absl::OkStatus();
  }
  std::vector<int64_t> dims = {-1};
  for (int d = partitions.rank(); d < data.rank(); ++d) dims.push_back(data.dims()[d]);
  for (int i = 0; i < c.num_outputs(); ++i) c.set_output(i, PartialTensorShape(dims));
  return absl::OkStatus();
}

REGISTER_OP("DynamicPartition")
    .Input("data: T")
    .Input("partitions: int32")
    .Output("outputs: num_partitions * T")
    .Attr("num_partitions: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicPartitionShape);

}  // namespace
}  // namespace rill
