#include "graph/builder/training_ops.h"

#include <string>
#include <vector>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

// "Apply<name>" or "ResourceApply<name>" over `inputs`, with `attrs` (bool attrs only).
Operation Step(const Scope& scope, bool resource, const char* name,
               const std::vector<Output>& inputs,
               const std::vector<std::pair<const char*, bool>>& attrs = {}) {
  OpBuilder b(scope, std::string(resource ? "ResourceApply" : "Apply") + name);
  for (const Output& in : inputs) b.Input(in);
  for (const auto& [attr, value] : attrs) b.Attr(attr, value);
  return b.Finalize();
}

std::vector<Output> AdamInputs(const Output& var, const Output& m, const Output& v,
                               const AdamParams& p, const Output& grad) {
  return {var, m, v, p.beta1_power, p.beta2_power, p.lr, p.beta1, p.beta2, p.epsilon, grad};
}

}  // namespace

Output ApplyGradientDescent(const Scope& scope, const Output& var, const Output& alpha,
                            const Output& delta) {
  return Step(scope, false, "GradientDescent", {var, alpha, delta}).output(0);
}
Output ApplyMomentum(const Scope& scope, const Output& var, const Output& accum, const Output& lr,
                     const Output& grad, const Output& momentum, bool use_nesterov) {
  return Step(scope, false, "Momentum", {var, accum, lr, grad, momentum},
              {{"use_nesterov", use_nesterov}})
      .output(0);
}
Output ApplyAdam(const Scope& scope, const Output& var, const Output& m, const Output& v,
                 const AdamParams& p, const Output& grad, bool use_nesterov) {
  return Step(scope, false, "Adam", AdamInputs(var, m, v, p, grad),
              {{"use_nesterov", use_nesterov}})
      .output(0);
}
Output ApplyRMSProp(const Scope& scope, const Output& var, const Output& ms, const Output& mom,
                    const Output& lr, const Output& rho, const Output& momentum,
                    const Output& epsilon, const Output& grad) {
  return Step(scope, false, "RMSProp", {var, ms, mom, lr, rho, momentum, epsilon, grad}).output(0);
}
Output ApplyAdagrad(const Scope& scope, const Output& var, const Output& accum, const Output& lr,
                    const Output& grad, bool update_slots) {
  return Step(scope, false, "Adagrad", {var, accum, lr, grad}, {{"update_slots", update_slots}})
      .output(0);
}

Operation ResourceApplyGradientDescent(const Scope& scope, const Output& var, const Output& alpha,
                                       const Output& delta) {
  return Step(scope, true, "GradientDescent", {var, alpha, delta});
}
Operation ResourceApplyMomentum(const Scope& scope, const Output& var, const Output& accum,
                                const Output& lr, const Output& grad, const Output& momentum,
                                bool use_nesterov) {
  return Step(scope, true, "Momentum", {var, accum, lr, grad, momentum},
              {{"use_nesterov", use_nesterov}});
}
Operation ResourceApplyAdam(const Scope& scope, const Output& var, const Output& m, const Output& v,
                            const AdamParams& p, const Output& grad, bool use_nesterov) {
  return Step(scope, true, "Adam", AdamInputs(var, m, v, p, grad),
              {{"use_nesterov", use_nesterov}});
}
Operation ResourceApplyRMSProp(const Scope& scope, const Output& var, const Output& ms,
                               const Output& mom, const Output& lr, const Output& rho,
                               const Output& momentum, const Output& epsilon, const Output& grad) {
  return Step(scope, true, "RMSProp", {var, ms, mom, lr, rho, momentum, epsilon, grad});
}
Operation ResourceApplyAdagrad(const Scope& scope, const Output& var, const Output& accum,
                               const Output& lr, const Output& grad, bool update_slots) {
  return Step(scope, true, "Adagrad", {var, accum, lr, grad}, {{"update_slots", update_slots}});
}

}  // namespace ops
}  // namespace rill
