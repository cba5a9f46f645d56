// Gradients of the ops of ops/nn_ops.cc and ops/image_ops.cc: activations, convolutions, pooling,
// normalization, softmax and losses, resizing. Formulas are TensorFlow's; see grad_registry.h for
// the contract of a gradient function.
#include <vector>

#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_helpers.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

}  // namespace
}  // namespace rill
