// Op definition of CTCGreedyDecoder. Signature read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py).
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

}  // namespace
}  // namespace rill
