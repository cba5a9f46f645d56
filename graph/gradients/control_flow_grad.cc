// Gradients of the ops of ops/control_flow_ops.cc and the variable ops: Switch and Merge (tf.cond),
// TF1 while loops, resource and ref variable reads. Formulas are TensorFlow's; see grad_registry.h
// for the contract of a gradient function.
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
