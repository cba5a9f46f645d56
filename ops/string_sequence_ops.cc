// Op definitions of UnsortedSegmentJoin and StringNGrams (tf.strings.reduce_join over a ragged
// axis, tf.strings.ngrams). Signatures read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py).
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

// [num_segments] + inputs' dims after segment_ids' rank, when the ranks and num_segments are
// known; else unknown.
absl::Status UnsortedSegmentJoinShape(ShapeInferenceContext& c) {
  const PartialTensorShape& inputs = c.input(0);
  const PartialTensorShape& ids = c.input(1);
  std::vector<int64_t> num;
  if (inputs.unknown_rank() || ids.unknown_rank() || ids.rank() > inputs.rank()) {
    return absl::OkStatus();
  }
  std::vector<int64_t> dims = {c.ConstantIndexValues(2, &num) && num.size() == 1 ? num[0] : -1};
  for (int i = ids.rank(); i < inputs.rank(); ++i) dims.push_back(inputs.dims()[i]);
  c.set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

REGISTER_OP("UnsortedSegmentJoin")
    .Input("inputs: string")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: string")
    .Attr("separator: string = \"\"")
    .Attr("Tindices: {int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = int32")
    .SetShapeFn(UnsortedSegmentJoinShape);

// ngrams: a vector; ngrams_splits: data_splits' shape.
absl::Status StringNGramsShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{-1}));
  c.set_output(1, c.input(1));
  return absl::OkStatus();
}

REGISTER_OP("StringNGrams")
    .Input("data: string")
    .Input("data_splits: Tsplits")
    .Output("ngrams: string")
    .Output("ngrams_splits: Tsplits")
    .Attr("separator: string")
    .Attr("ngram_widths: list(int) >= 0")
    .Attr("left_pad: string")
    .Attr("right_pad: string")
    .Attr("pad_width: int")
    .Attr("preserve_short_sequences: bool")
    .Attr("Tsplits: {int32, int64} = int64")
    .SetShapeFn(StringNGramsShape);

}  // namespace
}  // namespace rill
