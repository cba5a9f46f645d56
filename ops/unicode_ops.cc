// Op definitions of UnicodeDecode, UnicodeDecodeWithOffsets, UnicodeEncode and
// UnicodeTranscode (tf.strings.unicode_decode / unicode_split / unicode_encode /
// unicode_transcode). Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

// row_splits [n + 1] where every dim of the input is known; the other outputs vectors.
absl::Status UnicodeDecodeShape(ShapeInferenceContext& c) {
  const PartialTensorShape& input = c.input(0);
  int64_t n = input.unknown_rank() ? -1 : 1;
  for (int i = 0; n >= 0 && i < input.rank(); ++i) {
    n = input.dims()[i] < 0 ? -1 : n * input.dims()[i];
  }
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{n < 0 ? -1 : n + 1}));
  for (int i = 1; i < c.num_outputs(); ++i) {
    c.set_output(i, PartialTensorShape(std::vector<int64_t>{-1}));
  }
  return absl::OkStatus();
}

// [rows]: one less than the splits' length when it is known.
absl::Status UnicodeEncodeShape(ShapeInferenceContext& c) {
  const PartialTensorShape& splits = c.input(1);
  int64_t rows = -1;
  if (!splits.unknown_rank() && splits.rank() == 1 && splits.dims()[0] > 0) {
    rows = splits.dims()[0] - 1;
  }
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{rows}));
  return absl::OkStatus();
}

REGISTER_OP("UnicodeScript")
    .Input("input: int32")
    .Output("output: int32")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("UnicodeDecode")
    .Input("input: string")
    .Output("row_splits: Tsplits")
    .Output("char_values: int32")
    .Attr("input_encoding: string")
    .Attr("errors: {'strict', 'replace', 'ignore'} = \"replace\"")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .Attr("Tsplits: {int32, int64} = int64")
    .SetShapeFn(UnicodeDecodeShape);

REGISTER_OP("UnicodeDecodeWithOffsets")
    .Input("input: string")
    .Output("row_splits: Tsplits")
    .Output("char_values: int32")
    .Output("char_to_byte_starts: int64")
    .Attr("input_encoding: string")
    .Attr("errors: {'strict', 'replace', 'ignore'} = \"replace\"")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .Attr("Tsplits: {int32, int64} = int64")
    .SetShapeFn(UnicodeDecodeShape);

REGISTER_OP("UnicodeEncode")
    .Input("input_values: int32")
    .Input("input_splits: Tsplits")
    .Output("output: string")
    .Attr("errors: {'ignore', 'replace', 'strict'} = \"replace\"")
    .Attr("output_encoding: {'UTF-8', 'UTF-16-BE', 'UTF-32-BE'}")
    .Attr("replacement_char: int = 65533")
    .Attr("Tsplits: {int32, int64} = int64")
    .SetShapeFn(UnicodeEncodeShape);

REGISTER_OP("UnicodeTranscode")
    .Input("input: string")
    .Output("output: string")
    .Attr("input_encoding: string")
    .Attr("output_encoding: {'UTF-8', 'UTF-16-BE', 'UTF-32-BE'}")
    .Attr("errors: {'strict', 'replace', 'ignore'} = \"replace\"")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
