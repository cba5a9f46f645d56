// Op definitions of the segment reductions: SegmentSum/Mean/Max/Min/Prod, UnsortedSegmentSum/
// Max/Min/Prod, SparseSegmentSum/Mean/SqrtN (and WithNumSegments). Signatures read from
// TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

// [unknown] + the data's dims after the first (the row count comes from the ids' values).
absl::Status SegmentShape(ShapeInferenceContext& c) {
  const PartialTensorShape& data = c.input(0);
  if (data.unknown_rank() || data.rank() < 1) return absl::OkStatus();
  std::vector<int64_t> dims = data.dims();
  dims[0] = -1;
  c.set_output(0, PartialTensorShape(std::move(dims)));
  return absl::OkStatus();
}

absl::Status SparseSegmentShape(ShapeInferenceContext& c) { return SegmentShape(c); }

// [num_segments] + the data's dims after the ids' rank, when both ranks are known.
absl::Status UnsortedSegmentShape(ShapeInferenceContext& c) {
  const PartialTensorShape& data = c.input(0);
  const PartialTensorShape& ids = c.input(1);
  if (data.unknown_rank() || ids.unknown_rank() || ids.rank() > data.rank()) {
    return absl::OkStatus();
  }
  std::vector<int64_t> num;
  const int64_t rows =
      c.ConstantIndexValues(2, &num) && num.size() == 1 && num[0] >= 0 ? num[0] : -1;
  std::vector<int64_t> dims = {rows};
  for (int d = ids.rank(); d < data.rank(); ++d) dims.push_back(data.dims()[d]);
  c.set_output(0, PartialTensorShape(std::move(dims)));
  return absl::OkStatus();
}

REGISTER_OP("SegmentSum")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentShape);

REGISTER_OP("SegmentMean")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentShape);

REGISTER_OP("SegmentMax")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentShape);

REGISTER_OP("SegmentMin")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentShape);

REGISTER_OP("SegmentProd")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentShape);

REGISTER_OP("UnsortedSegmentSum")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = int32")
    .SetShapeFn(UnsortedSegmentShape);

REGISTER_OP("UnsortedSegmentMax")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("Tindices: {int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = int32")
    .SetShapeFn(UnsortedSegmentShape);

REGISTER_OP("UnsortedSegmentMin")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("Tindices: {int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = int32")
    .SetShapeFn(UnsortedSegmentShape);

REGISTER_OP("UnsortedSegmentProd")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tindices: {int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = int32")
    .SetShapeFn(UnsortedSegmentShape);

REGISTER_OP("SparseSegmentSum")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr("Tsegmentids: {int32, int64} = int32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentShape);

REGISTER_OP("SparseSegmentMean")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr("Tsegmentids: {int32, int64} = int32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentShape);

REGISTER_OP("SparseSegmentSqrtN")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr("Tsegmentids: {int32, int64} = int32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentShape);

// [num_segments] + the data's dims after the first.
absl::Status SparseSegmentNumShape(ShapeInferenceContext& c) {
  const PartialTensorShape& data = c.input(0);
  if (data.unknown_rank() || data.rank() < 1) return absl::OkStatus();
  std::vector<int64_t> num;
  std::vector<int64_t> dims = data.dims();
  dims[0] = c.ConstantIndexValues(3, &num) && num.size() == 1 && num[0] >= 0 ? num[0] : -1;
  c.set_output(0, PartialTensorShape(std::move(dims)));
  return absl::OkStatus();
}

REGISTER_OP("SparseSegmentSumWithNumSegments")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr("Tnumsegments: {int32, int64} = int32")
    .Attr("Tsegmentids: {int32, int64} = int32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentNumShape);

REGISTER_OP("SparseSegmentMeanWithNumSegments")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr("Tnumsegments: {int32, int64} = int32")
    .Attr("Tsegmentids: {int32, int64} = int32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentNumShape);

REGISTER_OP("SparseSegmentSqrtNWithNumSegments")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr("Tnumsegments: {int32, int64} = int32")
    .Attr("Tsegmentids: {int32, int64} = int32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentNumShape);

}  // namespace
}  // namespace rill
