#include "graph/builder/random_ops.h"

#include <vector>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output FloatRandom(const Scope& scope, const char* op, const Input& shape, DataType dtype,
                   Seeds seeds) {
  return OpBuilder(scope, op)
      .Input(shape)
      .Attr("dtype", dtype)
      .Attr("seed", seeds.seed)
      .Attr("seed2", seeds.seed2)
      .Finalize()
      .output(0);
}

Output StatelessFloat(const Scope& scope, const char* op, std::vector<Output> inputs,
                      DataType dtype) {
  OpBuilder b(scope, op);
  for (const Output& in : inputs) b.Input(in);
  return b.Attr("dtype", dtype).Finalize().output(0);
}

}  // namespace

Output RandomUniform(const Scope& scope, const Input& shape, DataType dtype, Seeds seeds) {
  return FloatRandom(scope, "RandomUniform", shape, dtype, seeds);
}
Output RandomStandardNormal(const Scope& scope, const Input& shape, DataType dtype, Seeds seeds) {
  return FloatRandom(scope, "RandomStandardNormal", shape, dtype, seeds);
}
Output TruncatedNormal(const Scope& scope, const Input& shape, DataType dtype, Seeds seeds) {
  return FloatRandom(scope, "TruncatedNormal", shape, dtype, seeds);
}
Output RandomUniformInt(const Scope& scope, const Input& shape, const Input& minval,
                        const Input& maxval, Seeds seeds) {
  return OpBuilder(scope, "RandomUniformInt")
      .Input(shape)
      .Input(minval)
      .Input(maxval)
      .Attr("seed", seeds.seed)
      .Attr("seed2", seeds.seed2)
      .Finalize()
      .output(0);
}

Output RandomShuffle(const Scope& scope, const Input& value, Seeds seeds) {
  return OpBuilder(scope, "RandomShuffle")
      .Input(value)
      .Attr("seed", seeds.seed)
      .Attr("seed2", seeds.seed2)
      .Finalize()
      .output(0);
}
Output Multinomial(const Scope& scope, const Input& logits, const Input& num_samples, Seeds seeds,
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

Output StatelessRandomUniform(const Scope& scope, const Output& shape, const Output& seed,
                              DataType dtype) {
  return StatelessFloat(scope, "StatelessRandomUniform", {shape, seed}, dtype);
}
Output StatelessRandomNormal(const Scope& scope, const Output& shape, const Output& seed,
                             DataType dtype) {
  return StatelessFloat(scope, "StatelessRandomNormal", {shape, seed}, dtype);
}
Output StatelessTruncatedNormal(const Scope& scope, const Output& shape, const Output& seed,
                                DataType dtype) {
  return StatelessFloat(scope, "StatelessTruncatedNormal", {shape, seed}, dtype);
}
Output StatelessRandomUniformInt(const Scope& scope, const Input& shape, const Input& seed,
                                 const Input& minval, const Input& maxval) {
  return OpBuilder(scope, "StatelessRandomUniformInt")
      .Input(shape)
      .Input(seed)
      .Input(minval)
      .Input(maxval)
      .Finalize()
      .output(0);
}
Output StatelessRandomUniformV2(const Scope& scope, const Output& shape, const Output& key,
                                const Output& counter, const Output& alg, DataType dtype) {
  return StatelessFloat(scope, "StatelessRandomUniformV2", {shape, key, counter, alg}, dtype);
}
Output StatelessRandomNormalV2(const Scope& scope, const Output& shape, const Output& key,
                               const Output& counter, const Output& alg, DataType dtype) {
  return StatelessFloat(scope, "StatelessRandomNormalV2", {shape, key, counter, alg}, dtype);
}
Output StatelessTruncatedNormalV2(const Scope& scope, const Output& shape, const Output& key,
                                  const Output& counter, const Output& alg, DataType dtype) {
  return StatelessFloat(scope, "StatelessTruncatedNormalV2", {shape, key, counter, alg}, dtype);
}
Output StatelessRandomUniformIntV2(const Scope& scope, const Input& shape, const Input& key,
                                   const Input& counter, const Input& alg, const Input& minval,
                                   const Input& maxval) {
  return OpBuilder(scope, "StatelessRandomUniformIntV2")
      .Input(shape)
      .Input(key)
      .Input(counter)
      .Input(alg)
      .Input(minval)
      .Input(maxval)
      .Finalize()
      .output(0);
}
KeyCounterAlg StatelessRandomGetKeyCounter(const Scope& scope, const Output& seed) {
  Operation op = OpBuilder(scope, "StatelessRandomGetKeyCounter").Input(seed).Finalize();
  return {op.output(0), op.output(1), Output()};
}
KeyCounterAlg StatelessRandomGetKeyCounterAlg(const Scope& scope, const Output& seed) {
  Operation op = OpBuilder(scope, "StatelessRandomGetKeyCounterAlg").Input(seed).Finalize();
  return {op.output(0), op.output(1), op.output(2)};
}
Output StatelessRandomGetAlg(const Scope& scope) {
  return OpBuilder(scope, "StatelessRandomGetAlg").Finalize().output(0);
}

Output StatelessMultinomial(const Scope& scope, const Input& logits, const Input& num_samples,
                            const Input& seed, DataType output_dtype) {
  return OpBuilder(scope, "StatelessMultinomial")
      .Input(logits)
      .Input(num_samples)
      .Input(seed)
      .Attr("output_dtype", output_dtype)
      .Finalize()
      .output(0);
}

Output StatelessRandomPoisson(const Scope& scope, const Input& shape, const Input& seed,
                              const Input& lam, DataType dtype) {
  return OpBuilder(scope, "StatelessRandomPoisson")
      .Input(shape)
      .Input(seed)
      .Input(lam)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output StatelessRandomBinomial(const Scope& scope, const Input& shape, const Input& seed,
                               const Input& counts, const Input& probs, DataType dtype) {
  return OpBuilder(scope, "StatelessRandomBinomial")
      .Input(shape)
      .Input(seed)
      .Input(counts)
      .Input(probs)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

Output StatelessParameterizedTruncatedNormal(const Scope& scope, const Input& shape,
                                             const Input& seed, const Input& means,
                                             const Input& stddevs, const Input& minvals,
                                             const Input& maxvals) {
  return OpBuilder(scope, "StatelessParameterizedTruncatedNormal")
      .Input(shape)
      .Input(seed)
      .Input(means)
      .Input(stddevs)
      .Input(minvals)
      .Input(maxvals)
      .Finalize()
      .output(0);
}

Output StatelessRandomGammaV2(const Scope& scope, const Input& shape, const Input& seed,
                              const Input& alpha) {
  return OpBuilder(scope, "StatelessRandomGammaV2")
      .Input(shape)
      .Input(seed)
      .Input(alpha)
      .Finalize()
      .output(0);
}

Output StatelessRandomGammaV3(const Scope& scope, const Input& shape, const Input& key,
                              const Input& counter, const Input& alg, const Input& alpha) {
  return OpBuilder(scope, "StatelessRandomGammaV3")
      .Input(shape)
      .Input(key)
      .Input(counter)
      .Input(alg)
      .Input(alpha)
      .Finalize()
      .output(0);
}

Output StatelessShuffle(const Scope& scope, const Input& value, const Input& key,
                        const Input& counter, const Input& alg) {
  return OpBuilder(scope, "StatelessShuffle")
      .Input(value)
      .Input(key)
      .Input(counter)
      .Input(alg)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
