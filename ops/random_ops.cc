// Op definitions of the stateful random ops (RandomUniform, RandomStandardNormal, TruncatedNormal,
// RandomUniformInt, RandomShuffle, Multinomial) and the stateless ones (StatelessRandom*).
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py). The output shape is
// the `shape` input's value (ShapeFromShapeTensor: known in part when built from shapes).
#include <algorithm>
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

absl::Status RandomShape(ShapeInferenceContext& c) {
  c.set_output(0, c.ShapeFromShapeTensor(0));
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

REGISTER_OP("RandomShuffle")
    .Input("value: T")
    .Output("output: T")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);

// Multinomial: [batch, num_samples (when constant)].
absl::Status MultinomialShape(ShapeInferenceContext& c) {
  const PartialTensorShape& logits = c.input(0);
  std::vector<int64_t> n;
  const int64_t samples = c.ConstantIndexValues(1, &n) && n.size() == 1 && n[0] >= 0 ? n[0] : -1;
  c.set_output(0, PartialTensorShape({logits.rank() == 2 ? logits.dims()[0] : -1, samples}));
  return absl::OkStatus();
}

REGISTER_OP("Multinomial")
    .Input("logits: T")
    .Input("num_samples: int32")
    .Output("output: output_dtype")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("output_dtype: {int32, int64} = int64")
    .SetIsStateful()
    .SetShapeFn(MultinomialShape);

REGISTER_OP("StatelessMultinomial")
    .Input("logits: T")
    .Input("num_samples: int32")
    .Input("seed: Tseed")
    .Output("output: output_dtype")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .Attr("Tseed: {int32, int64} = int64")
    .Attr("output_dtype: {int32, int64} = int64")
    .SetShapeFn(MultinomialShape);

REGISTER_OP("StatelessShuffle")
    .Input("value: T")
    .Input("key: uint64")
    .Input("counter: uint64")
    .Input("alg: int32")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

// Stateless random ops (kernels/random/stateless_random_ops.cc): V1 take a seed pair, V2 a
// key/counter/alg triple; the output shape is the `shape` input's value, as above.
#define RILL_STATELESS_FLOAT_OP(name)                         \
  REGISTER_OP(name)                                           \
      .Input("shape: T")                                      \
      .Input("seed: Tseed")                                   \
      .Output("output: dtype")                                \
      .Attr("dtype: {half, bfloat16, float, double} = float") \
      .Attr("T: {int32, int64} = int32")                      \
      .Attr("Tseed: {int32, int64} = int64")                  \
      .SetShapeFn(RandomShape)

RILL_STATELESS_FLOAT_OP("StatelessRandomUniform");
RILL_STATELESS_FLOAT_OP("StatelessRandomNormal");
RILL_STATELESS_FLOAT_OP("StatelessTruncatedNormal");

REGISTER_OP("StatelessRandomBinomial")
    .Input("shape: S")
    .Input("seed: Tseed")
    .Input("counts: T")
    .Input("probs: T")
    .Output("output: dtype")
    .Attr("S: {int32, int64}")
    .Attr("Tseed: {int32, int64} = int64")
    .Attr("T: {half, float, double, int32, int64} = double")
    .Attr("dtype: {half, float, double, int32, int64} = int64")
    .SetShapeFn(RandomShape);

REGISTER_OP("StatelessParameterizedTruncatedNormal")
    .Input("shape: S")
    .Input("seed: Tseed")
    .Input("means: dtype")
    .Input("stddevs: dtype")
    .Input("minvals: dtype")
    .Input("maxvals: dtype")
    .Output("output: dtype")
    .Attr("S: {int32, int64}")
    .Attr("Tseed: {int32, int64} = int64")
    .Attr("dtype: {half, float, double}")
    .SetShapeFn(RandomShape);

REGISTER_OP("StatelessRandomPoisson")
    .Input("shape: T")
    .Input("seed: Tseed")
    .Input("lam: Rtype")
    .Output("output: dtype")
    .Attr("Rtype: {half, float, double, int32, int64}")
    .Attr("dtype: {half, float, double, int32, int64}")
    .Attr("T: {int32, int64}")
    .Attr("Tseed: {int32, int64} = int64")
    .SetShapeFn(RandomShape);

REGISTER_OP("StatelessRandomGammaV2")
    .Input("shape: T")
    .Input("seed: Tseed")
    .Input("alpha: dtype")
    .Output("output: dtype")
    .Attr("dtype: {half, float, double}")
    .Attr("T: {int32, int64}")
    .Attr("Tseed: {int32, int64} = int64")
    .SetShapeFn(RandomShape);

REGISTER_OP("StatelessRandomGammaV3")
    .Input("shape: shape_dtype")
    .Input("key: uint64")
    .Input("counter: uint64")
    .Input("alg: int32")
    .Input("alpha: dtype")
    .Output("output: dtype")
    .Attr("dtype: {half, float, double}")
    .Attr("shape_dtype: {int32, int64} = int32")
    .SetShapeFn(RandomShape);

REGISTER_OP("StatelessRandomUniformInt")
    .Input("shape: T")
    .Input("seed: Tseed")
    .Input("minval: dtype")
    .Input("maxval: dtype")
    .Output("output: dtype")
    .Attr("dtype: {int32, int64}")
    .Attr("T: {int32, int64}")
    .Attr("Tseed: {int32, int64} = int64")
    .SetShapeFn(RandomShape);

#define RILL_STATELESS_FLOAT_V2_OP(name)                      \
  REGISTER_OP(name)                                           \
      .Input("shape: Tshape")                                 \
      .Input("key: uint64")                                   \
      .Input("counter: uint64")                               \
      .Input("alg: int32")                                    \
      .Output("output: dtype")                                \
      .Attr("dtype: {half, bfloat16, float, double} = float") \
      .Attr("Tshape: {int32, int64} = int32")                 \
      .SetShapeFn(RandomShape)

RILL_STATELESS_FLOAT_V2_OP("StatelessRandomUniformV2");
RILL_STATELESS_FLOAT_V2_OP("StatelessRandomNormalV2");
RILL_STATELESS_FLOAT_V2_OP("StatelessTruncatedNormalV2");

REGISTER_OP("StatelessRandomUniformIntV2")
    .Input("shape: Tshape")
    .Input("key: uint64")
    .Input("counter: uint64")
    .Input("alg: int32")
    .Input("minval: dtype")
    .Input("maxval: dtype")
    .Output("output: dtype")
    .Attr("dtype: {int32, int64, uint32, uint64}")
    .Attr("Tshape: {int32, int64} = int32")
    .SetShapeFn(RandomShape);

// key [1], counter [2] (and alg, a scalar).
absl::Status KeyCounterShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape({1}));
  c.set_output(1, PartialTensorShape({2}));
  if (c.num_outputs() > 2) c.set_output(2, PartialTensorShape(std::vector<int64_t>{}));
  return absl::OkStatus();
}

REGISTER_OP("StatelessRandomGetKeyCounter")
    .Input("seed: Tseed")
    .Output("key: uint64")
    .Output("counter: uint64")
    .Attr("Tseed: {int32, int64} = int64")
    .SetShapeFn(KeyCounterShape);

REGISTER_OP("StatelessRandomGetKeyCounterAlg")
    .Input("seed: Tseed")
    .Output("key: uint64")
    .Output("counter: uint64")
    .Output("alg: int32")
    .Attr("Tseed: {int32, int64} = int64")
    .SetShapeFn(KeyCounterShape);

REGISTER_OP("StatelessRandomGetAlg")
    .Output("alg: int32")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

}  // namespace
}  // namespace rill
