// Gradients of the ops of ops/array_ops.cc: shape and layout ops, slicing and indexing, plumbing
// (Identity-like), segment, scatter and sparse ops. Formulas are TensorFlow's; see grad_registry.h
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

// Ops no gradient flows through (TensorFlow's NotDifferentiable).
RILL_REGISTER_NO_GRADIENT("StopGradient");
RILL_REGISTER_NO_GRADIENT("Shape");
RILL_REGISTER_NO_GRADIENT("ShapeN");
RILL_REGISTER_NO_GRADIENT("Size");
RILL_REGISTER_NO_GRADIENT("Rank");
RILL_REGISTER_NO_GRADIENT("Const");
RILL_REGISTER_NO_GRADIENT("ZerosLike");
RILL_REGISTER_NO_GRADIENT("OnesLike");
RILL_REGISTER_NO_GRADIENT("BroadcastGradientArgs");
RILL_REGISTER_NO_GRADIENT("InvertPermutation");
RILL_REGISTER_NO_GRADIENT("Range");

}  // namespace
}  // namespace rill
