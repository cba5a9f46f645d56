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

}  // namespace ops
}  // namespace rill
