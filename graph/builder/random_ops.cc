#include "graph/builder/random_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output FloatRandom(const Scope& scope, const char* op, const Output& shape, DataType dtype,
                   Seeds seeds) {
  return OpBuilder(scope, op)
      .Input(shape)
      .Attr("dtype", dtype)
      .Attr("seed", seeds.seed)
      .Attr("seed2", seeds.seed2)
      .Finalize()
      .output(0);
}

}  // namespace

Output RandomUniform(const Scope& scope, const Output& shape, DataType dtype, Seeds seeds) {
  return FloatRandom(scope, "RandomUniform", shape, dtype, seeds);
}
Output RandomStandardNormal(const Scope& scope, const Output& shape, DataType dtype, Seeds seeds) {
  return FloatRandom(scope, "RandomStandardNormal", shape, dtype, seeds);
}
Output TruncatedNormal(const Scope& scope, const Output& shape, DataType dtype, Seeds seeds) {
  return FloatRandom(scope, "TruncatedNormal", shape, dtype, seeds);
}
Output RandomUniformInt(const Scope& scope, const Output& shape, const Output& minval,
                        const Output& maxval, Seeds seeds) {
  return OpBuilder(scope, "RandomUniformInt")
      .Input(shape)
      .Input(minval)
      .Input(maxval)
      .Attr("seed", seeds.seed)
      .Attr("seed2", seeds.seed2)
      .Finalize()
      .output(0);
}

Output RandomShuffle(const Scope& scope, const Output& value, Seeds seeds) {
  return OpBuilder(scope, "RandomShuffle")
      .Input(value)
      .Attr("seed", seeds.seed)
      .Attr("seed2", seeds.seed2)
      .Finalize()
      .output(0);
}
Output Multinomial(const Scope& scope, const Output& logits, const Output& num_samples, Seeds seeds,
                   DataType output_dtype) {
  return OpBuilder(scope, "Multinomial")
      .Input(logits)
      .Input(num_samples)
      .Attr("seed", seeds.seed)
      .Attr("seed2", seeds.seed2)
      .Attr("output_dtype", output_dtype)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
