// Op definitions of ops that rearrange elements without computing on them: DepthToSpace,
// SpaceToDepth, Roll, ReverseSequence, and the banded / diagonal matrix ops MatrixBandPart,
// MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3. Signatures read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py).
//
// Shape functions never fail: the kernels report bad values with TensorFlow's texts. Shapes that
// depend on input values (MatrixDiagV3's rows and columns, MatrixDiagPartV3's diagonals) are
// unknown.
#include <cstdint>
#include <string>
#include <vector>

#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace rill {
namespace {

// DepthToSpace / SpaceToDepth (NHWC): [N, H*b, W*b, C/(b*b)] and [N, H/b, W/b, C*b*b], dims
// unknown where the input's are or where they do not divide.
absl::Status DepthSpaceShape(ShapeInferenceContext& c, bool to_space) {
  const PartialTensorShape& in = c.input(0);
  int64_t b = 0;
  std::string format = "NHWC";
  (void)GetNodeAttr(c.node(), "data_format", &format);
  if (in.rank() != 4 || !GetNodeAttr(c.node(), "block_size", &b).ok() || b < 2 ||
      format != "NHWC") {
    c.set_output(0, in.rank() == 4 ? PartialTensorShape({-1, -1, -1, -1}) : PartialTensorShape());
    return absl::OkStatus();
  }
  std::vector<int64_t> d = in.dims();
  auto grow = [b](int64_t v) { return v < 0 ? v : v * b; };
  auto shrink = [](int64_t v, int64_t by) { return v < 0 || v % by != 0 ? -1 : v / by; };
  if (to_space) {
    c.set_output(0, PartialTensorShape({d[0], grow(d[1]), grow(d[2]), shrink(d[3], b * b)}));
  } else {
    c.set_output(0, PartialTensorShape(
                        {d[0], shrink(d[1], b), shrink(d[2], b), d[3] < 0 ? -1 : d[3] * b * b}));
  }
  return absl::OkStatus();
}

REGISTER_OP("DepthToSpace")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("block_size: int >= 2")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = \"NHWC\"")
    .SetShapeFn([](ShapeInferenceContext& c) { return DepthSpaceShape(c, true); });

REGISTER_OP("SpaceToDepth")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("block_size: int >= 2")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = \"NHWC\"")
    .SetShapeFn([](ShapeInferenceContext& c) { return DepthSpaceShape(c, false); });

REGISTER_OP("Roll")
    .Input("input: T")
    .Input("shift: Tshift")
    .Input("axis: Taxis")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tshift: {int32, int64}")
    .Attr("Taxis: {int32, int64}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ReverseSequence")
    .Input("input: T")
    .Input("seq_lengths: Tlen")
    .Output("output: T")
    .Attr("seq_dim: int")
    .Attr("batch_dim: int = 0")
    .Attr("T: type")
    .Attr("Tlen: {int32, int64} = int64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("MatrixBandPart")
    .Input("input: T")
    .Input("num_lower: Tindex")
    .Input("num_upper: Tindex")
    .Output("band: T")
    .Attr("T: type")
    .Attr("Tindex: {int32, int64} = int64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("MatrixDiagV3")
    .Input("diagonal: T")
    .Input("k: int32")
    .Input("num_rows: int32")
    .Input("num_cols: int32")
    .Input("padding_value: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = \"RIGHT_LEFT\"")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("MatrixDiagPartV3")
    .Input("input: T")
    .Input("k: int32")
    .Input("padding_value: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = \"RIGHT_LEFT\"")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("MatrixSetDiagV3")
    .Input("input: T")
    .Input("diagonal: T")
    .Input("k: int32")
    .Output("output: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = \"RIGHT_LEFT\"")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
