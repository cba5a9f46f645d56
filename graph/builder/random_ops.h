// Builder wrappers for the seeded random ops (TensorFlow's C++ API names). Included by
// graph/builder/ops.h. `seed` and `seed2` are TensorFlow's attrs (the graph-level and op-level
// seeds its Python layer writes); both 0 means a fresh random stream per kernel.
//
//   Output w = ops::TruncatedNormal(root, ops::Const(root, {784, 512}), DT_FLOAT, {42, 1});
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_RANDOM_OPS_H_
#define RILL_GRAPH_BUILDER_RANDOM_OPS_H_

#include <cstdint>

#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

struct Seeds {
  int64_t seed = 0, seed2 = 0;
};
Output RandomUniform(const Scope& scope, const Input& shape, DataType dtype, Seeds seeds = {});
Output RandomStandardNormal(const Scope& scope, const Input& shape, DataType dtype,
                            Seeds seeds = {});
Output TruncatedNormal(const Scope& scope, const Input& shape, DataType dtype, Seeds seeds = {});
Output RandomUniformInt(const Scope& scope, const Input& shape, const Input& minval,
                        const Input& maxval, Seeds seeds = {});
// The first dimension in a random order.
Output RandomShuffle(const Scope& scope, const Input& value, Seeds seeds = {});
// num_samples class indices per row of logits [batch, classes].
Output Multinomial(const Scope& scope, const Input& logits, const Input& num_samples,
                   Seeds seeds = {}, DataType output_dtype = DT_INT64);

// Stateless random ops: the values are a function of the inputs alone. V1 take `seed`, an int32 or
// int64 [2]; V2 take the uint64 `key` [1] and `counter` [2] and the int32 `alg` (1 Philox, 3 auto)
// that StatelessRandomGetKeyCounterAlg makes from such a seed.
//
//   Output x = ops::StatelessRandomNormal(root, ops::Const(root, {2, 3}),
//                                         ops::Const(root, std::vector<int64_t>{1, 2}));
Output StatelessRandomUniform(const Scope& scope, const Output& shape, const Output& seed,
                              DataType dtype = DT_FLOAT);
Output StatelessRandomNormal(const Scope& scope, const Output& shape, const Output& seed,
                             DataType dtype = DT_FLOAT);
Output StatelessTruncatedNormal(const Scope& scope, const Output& shape, const Output& seed,
                                DataType dtype = DT_FLOAT);
Output StatelessRandomUniformInt(const Scope& scope, const Input& shape, const Input& seed,
                                 const Input& minval, const Input& maxval);
Output StatelessRandomUniformV2(const Scope& scope, const Output& shape, const Output& key,
                                const Output& counter, const Output& alg,
                                DataType dtype = DT_FLOAT);
Output StatelessRandomNormalV2(const Scope& scope, const Output& shape, const Output& key,
                               const Output& counter, const Output& alg, DataType dtype = DT_FLOAT);
Output StatelessTruncatedNormalV2(const Scope& scope, const Output& shape, const Output& key,
                                  const Output& counter, const Output& alg,
                                  DataType dtype = DT_FLOAT);
Output StatelessRandomUniformIntV2(const Scope& scope, const Input& shape, const Input& key,
                                   const Input& counter, const Input& alg, const Input& minval,
                                   const Input& maxval);
struct KeyCounterAlg {
  Output key, counter, alg;  // alg: invalid (no node) from StatelessRandomGetKeyCounter
};
KeyCounterAlg StatelessRandomGetKeyCounter(const Scope& scope, const Output& seed);
KeyCounterAlg StatelessRandomGetKeyCounterAlg(const Scope& scope, const Output& seed);
Output StatelessRandomGetAlg(const Scope& scope);

// StatelessMultinomial: num_samples class indices per row of `logits`, from a [2] seed.
Output StatelessMultinomial(const Scope& scope, const Input& logits, const Input& num_samples,
                            const Input& seed, DataType output_dtype = DT_INT64);
// StatelessRandomPoisson: samples of `dtype` with rates `lam` (broadcast to `shape`).
Output StatelessRandomPoisson(const Scope& scope, const Input& shape, const Input& seed,
                              const Input& lam, DataType dtype);
// StatelessRandomBinomial: samples of `dtype` from Binomial(counts, probs) (broadcast together,
// then to `shape`).
Output StatelessRandomBinomial(const Scope& scope, const Input& shape, const Input& seed,
                               const Input& counts, const Input& probs, DataType dtype = DT_INT64);
// StatelessParameterizedTruncatedNormal: normals of `means` and `stddevs` truncated to
// [minvals, maxvals] (the four broadcast together, then to `shape`); dtype the parameters'.
Output StatelessParameterizedTruncatedNormal(const Scope& scope, const Input& shape,
                                             const Input& seed, const Input& means,
                                             const Input& stddevs, const Input& minvals,
                                             const Input& maxvals);
// StatelessRandomGammaV2: Gamma(alpha, 1) samples (alpha broadcast to `shape`; dtype alpha's).
Output StatelessRandomGammaV2(const Scope& scope, const Input& shape, const Input& seed,
                              const Input& alpha);
// StatelessRandomGammaV3: the same from a key, counter and algorithm.
Output StatelessRandomGammaV3(const Scope& scope, const Input& shape, const Input& key,
                              const Input& counter, const Input& alg, const Input& alpha);
// StatelessShuffle: `value` shuffled along its first dim, from a key, counter and algorithm.
Output StatelessShuffle(const Scope& scope, const Input& value, const Input& key,
                        const Input& counter, const Input& alg);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_RANDOM_OPS_H_
