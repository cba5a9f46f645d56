#include "graph/gradients/grad_helpers.h"

#include "core/tensor.h"
#include "core/types.h"
#include "graph/builder/ops.h"

namespace rill {
namespace grad {

BinaryGrads ReduceBroadcast(const Scope& scope, const Output& x, const Output& y, const Output& gx,
                            const Output& gy) {
  Output sx = ops::Shape(scope, x);
  Output sy = ops::Shape(scope, y);
  auto r = ops::BroadcastGradientArgs(scope, sx, sy);
  BinaryGrads out;
  if (gx.valid()) out.gx = ops::Reshape(scope, ops::Sum(scope, gx, r.r0), sx);
  if (gy.valid()) out.gy = ops::Reshape(scope, ops::Sum(scope, gy, r.r1), sy);
  return out;
}

Output ReducedShape(const Scope& scope, const Output& input_shape, const Output& axes) {
  Output rank = ops::Size(scope, input_shape);
  Output positive =
      ops::FloorMod(scope, ops::AddV2(scope, ops::Cast(scope, axes, DT_INT32), rank), rank);
  Output ones = ops::Fill(scope, ops::Shape(scope, positive), ops::Const(scope, 1));
  Output all = ops::Range(scope, ops::Const(scope, 0), rank, ops::Const(scope, 1));
  return ops::DynamicStitch(scope, {all, positive}, {input_shape, ones});
}

Output ScalarLike(const Scope& scope, double value, const Output& like) {
  return ops::Cast(scope, ops::Const(scope, value), BaseType(like.dtype()));
}

Output MaybeConj(const Scope& scope, const Output& x) {
  const DataType t = BaseType(x.dtype());
  if (t == DT_COMPLEX64 || t == DT_COMPLEX128) return ops::Conj(scope, x);
  return x;
}

}  // namespace grad
}  // namespace rill
