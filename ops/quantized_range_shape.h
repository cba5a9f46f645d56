// The float range operands and outputs of the eight-bit ops of quantize_nodes graphs
// (QuantizedConv2D, QuantizedMatMul, QuantizedBiasAdd, QuantizedMaxPool / AvgPool,
// QuantizedConcat): TensorFlow's shape functions require each range input to be a scalar and make
// outputs 1 and 2 (the result's range) scalars. Used by the shape functions beside the float ops
// they wrap.
#ifndef RILL_OPS_QUANTIZED_RANGE_SHAPE_H_
#define RILL_OPS_QUANTIZED_RANGE_SHAPE_H_

#include <cstdint>
#include <vector>

#include "core/status_macros.h"
#include "ops/op_registry.h"

namespace rill {

// Inputs [first, end) must be rank 0 where their rank is known; outputs 1 and 2 are scalars.
inline absl::Status QuantizedRangeShapes(ShapeInferenceContext& c, int first, int end) {
  for (int i = first; i < end; ++i) RILL_RETURN_IF_ERROR(c.WithRank(i, 0));
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
  c.set_output(2, PartialTensorShape(std::vector<int64_t>{}));
  return absl::OkStatus();
}

}  // namespace rill

#endif  // RILL_OPS_QUANTIZED_RANGE_SHAPE_H_
