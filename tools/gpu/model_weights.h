// Seeded random values for whole-model checks (tools/gpu/gpu_model_check): the float Consts whose
// values tools/gpu/make_model_graphs.py stripped, and the inputs.
//
// A stripped Const keeps its dtype and shape but has no values (no tensor_content, no float_val)
// and more than one element (a scalar without values is TensorFlow's zero and stays so). Its
// values are drawn by what consumes it, found through ops that pass values on (Identity, Enter,
// Reshape, Cast, ...), never by its name:
//   - FusedBatchNorm*'s scale and variance, a variance (x + eps into Rsqrt/Sqrt, or straight into
//     Rsqrt/Sqrt/Log/Reciprocal) and a scale (Mul by an Rsqrt): uniform [0.5, 1.5];
//   - FusedBatchNorm*'s offset and mean, and other vectors (biases, shifts): uniform +-0.1;
//   - a DepthwiseConv2dNative filter [H, W, C, M]: +-sqrt(3 / (H*W)) (each output sums H*W terms);
//   - a GatherV2 table (embeddings): +-0.05;
//   - other weights: +-sqrt(3 / fan_in), fan_in the product of all dims but the last.
// Each Const's values come from its own generator, seeded by the seed and the node's name, so they
// do not depend on the graph's node order. Pure functions; thread-safe.
#ifndef RILL_TOOLS_GPU_MODEL_WEIGHTS_H_
#define RILL_TOOLS_GPU_MODEL_WEIGHTS_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "core/tensor.h"
#include "proto/graph.pb.h"

namespace rill {

// How one stripped Const is filled: uniform in [lo, hi]; `rule` names the rule in reports.
struct WeightInit {
  double lo = 0;
  double hi = 0;
  std::string rule;
};

// True for a float Const with more than one element and no values.
bool IsStrippedConst(const NodeDef& node);

// The rule for the stripped Const `name` of `graph` (InvalidArgument when it is not one).
absl::StatusOr<WeightInit> ChooseWeightInit(const GraphDef& graph, const std::string& name);

// Fills every stripped Const of `graph` in place (tensor_content, little-endian floats); returns
// how many were filled under each rule.
absl::StatusOr<std::map<std::string, int>> FillStrippedConsts(GraphDef* graph, uint64_t seed);

// The generator seed of node `name` under `seed` (FNV-1a of the name mixed with the seed).
uint64_t NodeSeed(const std::string& name, uint64_t seed);

// A host tensor of `dtype` and `shape` with seeded values: floating types uniform [-1, 1],
// integers uniform in [0, int_max), bool fair coins. Unimplemented naming the dtype otherwise.
absl::StatusOr<Tensor> RandomTensor(DataType dtype, const TensorShape& shape, uint64_t seed,
                                    int64_t int_max);

}  // namespace rill

#endif  // RILL_TOOLS_GPU_MODEL_WEIGHTS_H_
