// Op definitions of ops that rearrange elements without computing on them: DepthToSpace,
// SpaceToDepth, Roll, ReverseSequence, and the banded / diagonal matrix ops MatrixBandPart,
// MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3, their V1 forms MatrixDiag, MatrixDiagPart,
// MatrixSetDiag, and Diag, DiagPart. Signatures read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py).
//
// Shape functions never fail: the kernels report bad values with TensorFlow's texts. Shapes that
// depend on input values (MatrixDiagV3's rows and columns, MatrixDiagPartV3's diagonals) are
// unknown.
#include <algorithm>
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
  // A block_size whose products overflow leaves the dims unknown: the kernel reports it.
  int64_t bb = -1;
  if (__builtin_mul_overflow(b, b, &bb)) bb = -1;
  auto grow = [](int64_t v, int64_t by) {
    int64_t r;
    return v < 0 || by < 0 || __builtin_mul_overflow(v, by, &r) ? int64_t{-1} : r;
  };
  auto shrink = [](int64_t v, int64_t by) { return v < 0 || by <= 0 || v % by != 0 ? -1 : v / by; };
  if (to_space) {
    c.set_output(0, PartialTensorShape({d[0], grow(d[1], b), grow(d[2], b), shrink(d[3], bb)}));
  } else {
    c.set_output(0, PartialTensorShape({d[0], shrink(d[1], b), shrink(d[2], b), grow(d[3], bb)}));
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

// MatrixDiag ([..., N] -> [..., N, N]) and Diag (D -> D + D): the input's dims followed by its
// last dim or by all of them again.
absl::Status DiagonalShape(ShapeInferenceContext& c, bool all_dims) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank() || in.rank() < 1) return shape_fns::Unknown(c);
  std::vector<int64_t> dims = in.dims();
  dims.insert(dims.end(), all_dims ? in.dims().begin() : in.dims().end() - 1, in.dims().end());
  c.set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}
absl::Status MatrixDiagShape(ShapeInferenceContext& c) { return DiagonalShape(c, false); }
absl::Status DiagShape(ShapeInferenceContext& c) { return DiagonalShape(c, true); }

// MatrixDiagPart: [..., M, N] -> [..., min(M, N)] (unknown when M or N is).
absl::Status MatrixDiagPartShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank() || in.rank() < 2) return shape_fns::Unknown(c);
  std::vector<int64_t> dims = in.dims();
  const int64_t m = dims[dims.size() - 2], n = dims.back();
  dims.pop_back();
  dims.back() = m < 0 || n < 0 ? -1 : std::min(m, n);
  c.set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

// DiagPart: the first half of an even-rank input (a dim known on either side).
absl::Status DiagPartShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank() || in.rank() % 2 != 0 || in.rank() == 0) return shape_fns::Unknown(c);
  const int half = in.rank() / 2;
  std::vector<int64_t> dims(in.dims().begin(), in.dims().begin() + half);
  for (int i = 0; i < half; ++i) {
    if (dims[i] < 0) dims[i] = in.dims()[i + half];
  }
  c.set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

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

// The V2 forms, before align (every diagonal packed LEFT_LEFT).
REGISTER_OP("MatrixDiagV2")
    .Input("diagonal: T")
    .Input("k: int32")
    .Input("num_rows: int32")
    .Input("num_cols: int32")
    .Input("padding_value: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("MatrixDiagPartV2")
    .Input("input: T")
    .Input("k: int32")
    .Input("padding_value: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("MatrixSetDiagV2")
    .Input("input: T")
    .Input("diagonal: T")
    .Input("k: int32")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("MatrixDiag")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagShape);

REGISTER_OP("MatrixDiagPart")
    .Input("input: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagPartShape);

REGISTER_OP("MatrixSetDiag")
    .Input("input: T")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

// The names TF1 graphs from before the Matrix* ops carry (TensorFlow deprecated them at
// GraphDef version 14 and runs them in older graphs only; Rill runs them in any).
REGISTER_OP("BatchMatrixDiag")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagShape);

REGISTER_OP("BatchMatrixDiagPart")
    .Input("input: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagPartShape);

REGISTER_OP("BatchMatrixSetDiag")
    .Input("input: T")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BatchMatrixBandPart")
    .Input("input: T")
    .Input("num_lower: int64")
    .Input("num_upper: int64")
    .Output("band: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Diag")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetShapeFn(DiagShape);

REGISTER_OP("DiagPart")
    .Input("input: T")
    .Output("diagonal: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetShapeFn(DiagPartShape);

}  // namespace
}  // namespace rill
