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

Output ApplyAdadelta(const Scope& scope, const Output& var, const Output& accum,
                     const Output& accum_update, const Output& lr, const Output& rho,
                     const Output& epsilon, const Output& grad) {
  return Step(scope, false, "Adadelta", {var, accum, accum_update, lr, rho, epsilon, grad})
      .output(0);
}
Output ApplyProximalGradientDescent(const Scope& scope, const Output& var, const Output& alpha,
                                    const Output& l1, const Output& l2, const Output& delta) {
  return Step(scope, false, "ProximalGradientDescent", {var, alpha, l1, l2, delta}).output(0);
}
Output ApplyAddSign(const Scope& scope, const Output& var, const Output& m, const Output& lr,
                    const Output& alpha, const Output& sign_decay, const Output& beta,
                    const Output& grad) {
  return Step(scope, false, "AddSign", {var, m, lr, alpha, sign_decay, beta, grad}).output(0);
}
Output ApplyPowerSign(const Scope& scope, const Output& var, const Output& m, const Output& lr,
                      const Output& logbase, const Output& sign_decay, const Output& beta,
                      const Output& grad) {
  return Step(scope, false, "PowerSign", {var, m, lr, logbase, sign_decay, beta, grad}).output(0);
}
Output ApplyCenteredRMSProp(const Scope& scope, const Output& var, const Output& mg,
                            const Output& ms, const Output& mom, const Output& lr,
                            const Output& rho, const Output& momentum, const Output& epsilon,
                            const Output& grad) {
  return Step(scope, false, "CenteredRMSProp", {var, mg, ms, mom, lr, rho, momentum, epsilon, grad})
      .output(0);
}
Output ApplyAdagradV2(const Scope& scope, const Output& var, const Output& accum, const Output& lr,
                      const Output& epsilon, const Output& grad, bool update_slots) {
  return Step(scope, false, "AdagradV2", {var, accum, lr, epsilon, grad},
              {{"update_slots", update_slots}})
      .output(0);
}
Output ApplyAdaMax(const Scope& scope, const Output& var, const Output& m, const Output& v,
                   const Output& beta1_power, const Output& lr, const Output& beta1,
                   const Output& beta2, const Output& epsilon, const Output& grad) {
  return Step(scope, false, "AdaMax", {var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad})
      .output(0);
}
Operation ResourceApplyAdadelta(const Scope& scope, const Output& var, const Output& accum,
                                const Output& accum_update, const Output& lr, const Output& rho,
                                const Output& epsilon, const Output& grad) {
  return Step(scope, true, "Adadelta", {var, accum, accum_update, lr, rho, epsilon, grad});
}
Operation ResourceApplyProximalGradientDescent(const Scope& scope, const Output& var,
                                               const Output& alpha, const Output& l1,
                                               const Output& l2, const Output& delta) {
  return Step(scope, true, "ProximalGradientDescent", {var, alpha, l1, l2, delta});
}
Operation ResourceApplyAddSign(const Scope& scope, const Output& var, const Output& m,
                               const Output& lr, const Output& alpha, const Output& sign_decay,
                               const Output& beta, const Output& grad) {
  return Step(scope, true, "AddSign", {var, m, lr, alpha, sign_decay, beta, grad});
}
Operation ResourceApplyPowerSign(const Scope& scope, const Output& var, const Output& m,
                                 const Output& lr, const Output& logbase, const Output& sign_decay,
                                 const Output& beta, const Output& grad) {
  return Step(scope, true, "PowerSign", {var, m, lr, logbase, sign_decay, beta, grad});
}
Operation ResourceApplyCenteredRMSProp(const Scope& scope, const Output& var, const Output& mg,
                                       const Output& ms, const Output& mom, const Output& lr,
                                       const Output& rho, const Output& momentum,
                                       const Output& epsilon, const Output& grad) {
  return Step(scope, true, "CenteredRMSProp", {var, mg, ms, mom, lr, rho, momentum, epsilon, grad});
}
Operation ResourceApplyAdagradV2(const Scope& scope, const Output& var, const Output& accum,
                                 const Output& lr, const Output& epsilon, const Output& grad,
                                 bool update_slots) {
  return Step(scope, true, "AdagradV2", {var, accum, lr, epsilon, grad},
              {{"update_slots", update_slots}});
}
Operation ResourceApplyAdaMax(const Scope& scope, const Output& var, const Output& m,
                              const Output& v, const Output& beta1_power, const Output& lr,
                              const Output& beta1, const Output& beta2, const Output& epsilon,
                              const Output& grad) {
  return Step(scope, true, "AdaMax", {var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad});
}
Operation ResourceApplyKerasMomentum(const Scope& scope, const Output& var, const Output& accum,
                                     const Output& lr, const Output& grad, const Output& momentum,
                                     bool use_nesterov) {
  return Step(scope, true, "KerasMomentum", {var, accum, lr, grad, momentum},
              {{"use_nesterov", use_nesterov}});
}
Operation ResourceApplyAdamWithAmsgrad(const Scope& scope, const Output& var, const Output& m,
                                       const Output& v, const Output& vhat, const AdamParams& p,
                                       const Output& grad) {
  return Step(
      scope, true, "AdamWithAmsgrad",
      {var, m, v, vhat, p.beta1_power, p.beta2_power, p.lr, p.beta1, p.beta2, p.epsilon, grad});
}

Output ApplyFtrl(const Scope& scope, const Output& var, const Output& accum, const Output& linear,
                 const Output& grad, const Output& lr, const Output& l1, const Output& l2,
                 const Output& lr_power, bool multiply_linear_by_lr) {
  return Step(scope, false, "Ftrl", {var, accum, linear, grad, lr, l1, l2, lr_power},
              {{"multiply_linear_by_lr", multiply_linear_by_lr}})
      .output(0);
}
Output ApplyFtrlV2(const Scope& scope, const Output& var, const Output& accum, const Output& linear,
                   const Output& grad, const Output& lr, const Output& l1, const Output& l2,
                   const Output& l2_shrinkage, const Output& lr_power, bool multiply_linear_by_lr) {
  return Step(scope, false, "FtrlV2",
              {var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power},
              {{"multiply_linear_by_lr", multiply_linear_by_lr}})
      .output(0);
}
Operation ResourceApplyFtrl(const Scope& scope, const Output& var, const Output& accum,
                            const Output& linear, const Output& grad, const Output& lr,
                            const Output& l1, const Output& l2, const Output& lr_power,
                            bool multiply_linear_by_lr) {
  return Step(scope, true, "Ftrl", {var, accum, linear, grad, lr, l1, l2, lr_power},
              {{"multiply_linear_by_lr", multiply_linear_by_lr}});
}
Operation ResourceApplyFtrlV2(const Scope& scope, const Output& var, const Output& accum,
                              const Output& linear, const Output& grad, const Output& lr,
                              const Output& l1, const Output& l2, const Output& l2_shrinkage,
                              const Output& lr_power, bool multiply_linear_by_lr) {
  return Step(scope, true, "FtrlV2", {var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power},
              {{"multiply_linear_by_lr", multiply_linear_by_lr}});
}

}  // namespace ops
}  // namespace rill
