// Op definitions of CTCGreedyDecoder and CTCBeamSearchDecoder. Signatures read from TensorFlow's
// registry (tests/tfgen/dump_op_specs.py).
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

// The decoded sparse tensor ([?, 2] indices, [?] values, [2] shape) and [batch, 1] log
// probabilities.
absl::Status CTCGreedyDecoderShape(ShapeInferenceContext& c) {
  const PartialTensorShape& inputs = c.input(0);
  const int64_t batch = !inputs.unknown_rank() && inputs.rank() == 3 ? inputs.dims()[1] : -1;
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{-1, 2}));
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{-1}));
  c.set_output(2, PartialTensorShape(std::vector<int64_t>{2}));
  c.set_output(3, PartialTensorShape(std::vector<int64_t>{batch, 1}));
  return absl::OkStatus();
}

REGISTER_OP("CTCGreedyDecoder")
    .Input("inputs: T")
    .Input("sequence_length: int32")
    .Output("decoded_indices: int64")
    .Output("decoded_values: int64")
    .Output("decoded_shape: int64")
    .Output("log_probability: T")
    .Attr("merge_repeated: bool = false")
    .Attr("blank_index: int = -1")
    .Attr("T: {float, double} = float")
    .SetShapeFn(CTCGreedyDecoderShape);

// Per path (top_paths of them) a decoded sparse tensor, as CTCGreedyDecoder's, then
// [batch, top_paths] log probabilities.
absl::Status CTCBeamSearchDecoderShape(ShapeInferenceContext& c) {
  const PartialTensorShape& inputs = c.input(0);
  const PartialTensorShape& lengths = c.input(1);
  int64_t batch = !inputs.unknown_rank() && inputs.rank() == 3 ? inputs.dims()[1] : -1;
  if (batch < 0 && !lengths.unknown_rank() && lengths.rank() == 1) batch = lengths.dims()[0];
  const int top_paths = (c.num_outputs() - 1) / 3;
  for (int p = 0; p < top_paths; ++p) {
    c.set_output(p, PartialTensorShape(std::vector<int64_t>{-1, 2}));
    c.set_output(top_paths + p, PartialTensorShape(std::vector<int64_t>{-1}));
    c.set_output(2 * top_paths + p, PartialTensorShape(std::vector<int64_t>{2}));
  }
  c.set_output(3 * top_paths, PartialTensorShape(std::vector<int64_t>{batch, top_paths}));
  return absl::OkStatus();
}

REGISTER_OP("CTCBeamSearchDecoder")
    .Input("inputs: T")
    .Input("sequence_length: int32")
    .Output("decoded_indices: top_paths * int64")
    .Output("decoded_values: top_paths * int64")
    .Output("decoded_shape: top_paths * int64")
    .Output("log_probability: T")
    .Attr("beam_width: int >= 1")
    .Attr("top_paths: int >= 1")
    .Attr("merge_repeated: bool = true")
    .Attr("T: {float, double} = float")
    .SetShapeFn(CTCBeamSearchDecoderShape);

}  // namespace
}  // namespace rill
