// Rill. Building blocks the gradient functions share (graph/gradients/*_grad.cc): reducing a
// broadcast gradient back to an operand's shape, the kept-dims shape of a reduction, scalars of
// an operand's dtype, and the conjugate of complex operands.
#ifndef RILL_GRAPH_GRADIENTS_GRAD_HELPERS_H_
#define RILL_GRAPH_GRADIENTS_GRAD_HELPERS_H_

#include "graph/builder/scope.h"

namespace rill {
namespace grad {

// The gradients of a broadcasting binary op's operands: `gx` and `gy` (each of the broadcast
// output's shape) summed over the broadcast dimensions (BroadcastGradientArgs) and reshaped to
// x's and y's shapes. Either may be invalid (skipped).
struct BinaryGrads {
  Output gx, gy;
};
BinaryGrads ReduceBroadcast(const Scope& scope, const Output& x, const Output& y, const Output& gx,
                            const Output& gy);

// The shape of a reduction of a tensor of shape `input_shape` over `axes` with keep_dims: the
// reduced dimensions become 1 (TensorFlow's reduced_shape, through DynamicStitch).
Output ReducedShape(const Scope& scope, const Output& input_shape, const Output& axes);

// A scalar constant `value` of `like`'s (base) dtype.
Output ScalarLike(const Scope& scope, double value, const Output& like);

// conj(x) for complex x, x otherwise.
Output MaybeConj(const Scope& scope, const Output& x);

}  // namespace grad
}  // namespace rill

#endif  // RILL_GRAPH_GRADIENTS_GRAD_HELPERS_H_
