// Op definitions of the stateful random ops: RandomUniform, RandomStandardNormal, TruncatedNormal,
// RandomUniformInt. Signatures read from TensorFlow's registry (tools/tfgen/dump_op_specs.py).
// The output shape is the `shape` input's value: known when it is a constant.
#include <algorithm>
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

absl::Status RandomShape(ShapeInferenceContext& c) {
  std::vector<int64_t> dims;
  if (c.ConstantIndexValues(0, &dims) &&
      std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d >= 0; })) {
    c.set_output(0, PartialTensorShape(std::move(dims)));
    return absl::OkStatus();
  }
  const PartialTensorShape& shape = c.input(0);
  if (shape.rank() == 1 && shape.dims()[0] >= 0) {
    c.set_output(0, PartialTensorShape(std::vector<int64_t>(shape.dims()[0], -1)));
  }
  return absl::OkStatus();
}

#define RILL_RANDOM_FLOAT_OP(name)                    \
  REGISTER_OP(name)                                   \
      .Input("shape: T")                              \
      .Output("output: dtype")                        \
      .Attr("seed: int = 0")                          \
      .Attr("seed2: int = 0")                         \
      .Attr("dtype: {half, bfloat16, float, double}") \
      .Attr("T: {int32, int64}")                      \
      .SetIsStateful()                                \
      .SetShapeFn(RandomShape)

RILL_RANDOM_FLOAT_OP("RandomUniform");
RILL_RANDOM_FLOAT_OP("RandomStandardNormal");
RILL_RANDOM_FLOAT_OP("TruncatedNormal");

REGISTER_OP("RandomUniformInt")
    .Input("shape: T")
    .Input("minval: Tout")
    .Input("maxval: Tout")
    .Output("output: Tout")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("Tout: {int32, int64}")
    .Attr("T: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(RandomShape);

}  // namespace
}  // namespace rill
