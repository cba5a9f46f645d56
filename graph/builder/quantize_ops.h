// Fake quantization and quantize-dequantize wrappers (kernels/nn/fake_quant_ops.cc): the nodes
// quantization-aware training and tf.quantization leave in a frozen graph. Attrs take
// TensorFlow's defaults.
#ifndef RILL_GRAPH_BUILDER_QUANTIZE_OPS_H_
#define RILL_GRAPH_BUILDER_QUANTIZE_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// Clamps to [min, max] (attrs), rounds to one of 2^num_bits levels and maps back.
Output FakeQuantWithMinMaxArgs(const Scope& scope, const Input& inputs, float min = -6.0f,
                               float max = 6.0f, int64_t num_bits = 8, bool narrow_range = false);
// The same with min and max as scalar tensors, or per last-dim channel (vectors).
Output FakeQuantWithMinMaxVars(const Scope& scope, const Input& inputs, const Input& min,
                               const Input& max, int64_t num_bits = 8, bool narrow_range = false);
Output FakeQuantWithMinMaxVarsPerChannel(const Scope& scope, const Input& inputs, const Input& min,
                                         const Input& max, int64_t num_bits = 8,
                                         bool narrow_range = false);
// Quantizes to num_bits and back over [input_min, input_max] (range_given) or the input's own
// range; axis -1 is per tensor, else per slice along axis.
Output QuantizeAndDequantizeV2(const Scope& scope, const Input& input, const Input& input_min,
                               const Input& input_max, bool signed_input = true,
                               int64_t num_bits = 8, bool range_given = false,
                               const char* round_mode = "HALF_TO_EVEN", bool narrow_range = false,
                               int64_t axis = -1);
Output QuantizeAndDequantizeV4(const Scope& scope, const Input& input, const Input& input_min,
                               const Input& input_max, bool signed_input = true,
                               int64_t num_bits = 8, bool range_given = false,
                               const char* round_mode = "HALF_TO_EVEN", bool narrow_range = false,
                               int64_t axis = -1);

// Gradient ops (what the gradients of the ops above build): the incoming gradient passed where
// the input lies in the (nudged) range, and for Vars/VarsPerChannel the sums of what falls below
// and above it (the gradients of min and max).
Output FakeQuantWithMinMaxArgsGradient(const Scope& scope, const Input& gradients,
                                       const Input& inputs, float min = -6.0f, float max = 6.0f,
                                       int64_t num_bits = 8, bool narrow_range = false);
struct FakeQuantGradientOutputs {
  Output backprops_wrt_input, backprop_wrt_min, backprop_wrt_max;
};
FakeQuantGradientOutputs FakeQuantWithMinMaxVarsGradient(const Scope& scope, const Input& gradients,
                                                         const Input& inputs, const Input& min,
                                                         const Input& max, int64_t num_bits = 8,
                                                         bool narrow_range = false);
FakeQuantGradientOutputs FakeQuantWithMinMaxVarsPerChannelGradient(
    const Scope& scope, const Input& gradients, const Input& inputs, const Input& min,
    const Input& max, int64_t num_bits = 8, bool narrow_range = false);
// QuantizeAndDequantizeV4's gradient: `gradients` where input_min <= input <= input_max, zeros
// for the range.
struct QuantizeAndDequantizeV4GradOutputs {
  Output input_backprop, input_min_backprop, input_max_backprop;
};
QuantizeAndDequantizeV4GradOutputs QuantizeAndDequantizeV4Grad(
    const Scope& scope, const Input& gradients, const Input& input, const Input& input_min,
    const Input& input_max, int64_t axis = -1);

// QuantizeAndDequantizeV3: as V2 with num_bits an int32 input and round_mode HALF_TO_EVEN.
Output QuantizeAndDequantizeV3(const Scope& scope, const Input& input, const Input& input_min,
                               const Input& input_max, const Input& num_bits,
                               bool signed_input = true, bool range_given = true,
                               bool narrow_range = false, int64_t axis = -1);

// QuantizeAndDequantize (v1, old TF1 graphs): V2 per tensor with the range in attrs.
Output QuantizeAndDequantize(const Scope& scope, const Input& input, bool signed_input = true,
                             int64_t num_bits = 8, bool range_given = false, float input_min = 0.0f,
                             float input_max = 0.0f);

// Quantizes float `input` to the quantized dtype T (DT_QUINT8, DT_QINT8, ...) over
// [min_range, max_range] (kernels/nn/quantize_op.cc has each mode's formula); also returns the
// range used. axis -1 quantizes per tensor, else per slice along axis.
struct QuantizeV2Outputs {
  Output output, output_min, output_max;
};
QuantizeV2Outputs QuantizeV2(const Scope& scope, const Input& input, const Input& min_range,
                             const Input& max_range, DataType T, const char* mode = "MIN_COMBINED",
                             const char* round_mode = "HALF_AWAY_FROM_ZERO",
                             bool narrow_range = false, int64_t axis = -1,
                             float ensure_minimum_range = 0.01f);
// The quantized `input` back to float (or bfloat16, MIN_COMBINED only) over [min_range,
// max_range].
Output Dequantize(const Scope& scope, const Input& input, const Input& min_range,
                  const Input& max_range, const char* mode = "MIN_COMBINED",
                  bool narrow_range = false, int64_t axis = -1, DataType dtype = DT_FLOAT);

// The kernels of fully quantized (graph_transforms quantize_nodes) graphs: a quantized tensor
// and its float range.
struct QuantizedOutputs {
  Output output, output_min, output_max;
};
// The used range of a qint32 `input` over [input_min, input_max] (the minimum capped at 0).
std::vector<Output> RequantizationRange(const Scope& scope, const Input& input,
                                        const Input& input_min, const Input& input_max);
// A qint32 `input` moved to out_type (DT_QUINT8 or DT_QINT8) over the requested range.
QuantizedOutputs Requantize(const Scope& scope, const Input& input, const Input& input_min,
                            const Input& input_max, const Input& requested_output_min,
                            const Input& requested_output_max, DataType out_type);
QuantizedOutputs QuantizedReshape(const Scope& scope, const Input& tensor, const Input& shape,
                                  const Input& input_min, const Input& input_max);
// Relu (six false) or Relu6 of quantized features; out_type as the input's.
QuantizedOutputs QuantizedRelu(const Scope& scope, const Input& features, const Input& min_features,
                               const Input& max_features, DataType out_type, bool six = false);
// The eight-bit layers (kernels/nn/quantized_conv_ops.cc, quantized_pool_ops.cc,
// quantized_add_concat_ops.cc): quint8 operands, a qint32 product or sum and its range.
QuantizedOutputs QuantizedConv2D(const Scope& scope, const Input& input, const Input& filter,
                                 const Input& min_input, const Input& max_input,
                                 const Input& min_filter, const Input& max_filter,
                                 const std::vector<int64_t>& strides, absl::string_view padding);
QuantizedOutputs QuantizedMatMul(const Scope& scope, const Input& a, const Input& b,
                                 const Input& min_a, const Input& max_a, const Input& min_b,
                                 const Input& max_b, bool transpose_a = false,
                                 bool transpose_b = false);
QuantizedOutputs QuantizedBiasAdd(const Scope& scope, const Input& input, const Input& bias,
                                  const Input& min_input, const Input& max_input,
                                  const Input& min_bias, const Input& max_bias);
// Max (max true) or average pooling of quantized codes; the range passes through.
QuantizedOutputs QuantizedPool(const Scope& scope, const Input& input, const Input& min_input,
                               const Input& max_input, const std::vector<int64_t>& ksize,
                               const std::vector<int64_t>& strides, absl::string_view padding,
                               bool max);
// values along concat_dim in their joint range; mins and maxes one scalar per value.
QuantizedOutputs QuantizedConcat(const Scope& scope, const Input& concat_dim,
                                 absl::Span<const Output> values, absl::Span<const Output> mins,
                                 absl::Span<const Output> maxes);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_QUANTIZE_OPS_H_
