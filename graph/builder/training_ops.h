// Builder wrappers for the optimizer steps (TensorFlow's C++ API names). Included by
// graph/builder/ops.h. The ref forms take the variable's and slots' ref outputs (VariableV2) and
// return the updated variable's ref; the resource forms take VarHandleOp handles and return the
// step's Operation (no outputs) for control edges.
//
//   Output step = ops::ApplyGradientDescent(root, w, ops::Const(root, 0.1f), grad_w);
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_TRAINING_OPS_H_
#define RILL_GRAPH_BUILDER_TRAINING_OPS_H_

#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output ApplyGradientDescent(const Scope& scope, const Output& var, const Output& alpha,
                            const Output& delta);
Output ApplyMomentum(const Scope& scope, const Output& var, const Output& accum, const Output& lr,
                     const Output& grad, const Output& momentum, bool use_nesterov = false);
struct AdamParams {
  Output beta1_power, beta2_power, lr, beta1, beta2, epsilon;
};
Output ApplyAdam(const Scope& scope, const Output& var, const Output& m, const Output& v,
                 const AdamParams& p, const Output& grad, bool use_nesterov = false);
Output ApplyRMSProp(const Scope& scope, const Output& var, const Output& ms, const Output& mom,
                    const Output& lr, const Output& rho, const Output& momentum,
                    const Output& epsilon, const Output& grad);
Output ApplyAdagrad(const Scope& scope, const Output& var, const Output& accum, const Output& lr,
                    const Output& grad, bool update_slots = true);

Operation ResourceApplyGradientDescent(const Scope& scope, const Output& var, const Output& alpha,
                                       const Output& delta);
Operation ResourceApplyMomentum(const Scope& scope, const Output& var, const Output& accum,
                                const Output& lr, const Output& grad, const Output& momentum,
                                bool use_nesterov = false);
Operation ResourceApplyAdam(const Scope& scope, const Output& var, const Output& m, const Output& v,
                            const AdamParams& p, const Output& grad, bool use_nesterov = false);
Operation ResourceApplyRMSProp(const Scope& scope, const Output& var, const Output& ms,
                               const Output& mom, const Output& lr, const Output& rho,
                               const Output& momentum, const Output& epsilon, const Output& grad);
Operation ResourceApplyAdagrad(const Scope& scope, const Output& var, const Output& accum,
                               const Output& lr, const Output& grad, bool update_slots = true);

// Adadelta, proximal gradient descent, AddSign, PowerSign, centered RMSProp, Adagrad with epsilon
// and AdaMax, in TensorFlow's input order; Keras' momentum and AMSGrad Adam (resource only).
Output ApplyAdadelta(const Scope& scope, const Output& var, const Output& accum,
                     const Output& accum_update, const Output& lr, const Output& rho,
                     const Output& epsilon, const Output& grad);
Output ApplyProximalGradientDescent(const Scope& scope, const Output& var, const Output& alpha,
                                    const Output& l1, const Output& l2, const Output& delta);
Output ApplyAddSign(const Scope& scope, const Output& var, const Output& m, const Output& lr,
                    const Output& alpha, const Output& sign_decay, const Output& beta,
                    const Output& grad);
Output ApplyPowerSign(const Scope& scope, const Output& var, const Output& m, const Output& lr,
                      const Output& logbase, const Output& sign_decay, const Output& beta,
                      const Output& grad);
Output ApplyCenteredRMSProp(const Scope& scope, const Output& var, const Output& mg,
                            const Output& ms, const Output& mom, const Output& lr,
                            const Output& rho, const Output& momentum, const Output& epsilon,
                            const Output& grad);
Output ApplyAdagradV2(const Scope& scope, const Output& var, const Output& accum, const Output& lr,
                      const Output& epsilon, const Output& grad, bool update_slots = true);
Output ApplyAdaMax(const Scope& scope, const Output& var, const Output& m, const Output& v,
                   const Output& beta1_power, const Output& lr, const Output& beta1,
                   const Output& beta2, const Output& epsilon, const Output& grad);
Operation ResourceApplyAdadelta(const Scope& scope, const Output& var, const Output& accum,
                                const Output& accum_update, const Output& lr, const Output& rho,
                                const Output& epsilon, const Output& grad);
Operation ResourceApplyProximalGradientDescent(const Scope& scope, const Output& var,
                                               const Output& alpha, const Output& l1,
                                               const Output& l2, const Output& delta);
Operation ResourceApplyAddSign(const Scope& scope, const Output& var, const Output& m,
                               const Output& lr, const Output& alpha, const Output& sign_decay,
                               const Output& beta, const Output& grad);
Operation ResourceApplyPowerSign(const Scope& scope, const Output& var, const Output& m,
                                 const Output& lr, const Output& logbase, const Output& sign_decay,
                                 const Output& beta, const Output& grad);
Operation ResourceApplyCenteredRMSProp(const Scope& scope, const Output& var, const Output& mg,
                                       const Output& ms, const Output& mom, const Output& lr,
                                       const Output& rho, const Output& momentum,
                                       const Output& epsilon, const Output& grad);
Operation ResourceApplyAdagradV2(const Scope& scope, const Output& var, const Output& accum,
                                 const Output& lr, const Output& epsilon, const Output& grad,
                                 bool update_slots = true);
Operation ResourceApplyAdaMax(const Scope& scope, const Output& var, const Output& m,
                              const Output& v, const Output& beta1_power, const Output& lr,
                              const Output& beta1, const Output& beta2, const Output& epsilon,
                              const Output& grad);
Operation ResourceApplyKerasMomentum(const Scope& scope, const Output& var, const Output& accum,
                                     const Output& lr, const Output& grad, const Output& momentum,
                                     bool use_nesterov = false);
Operation ResourceApplyAdamWithAmsgrad(const Scope& scope, const Output& var, const Output& m,
                                       const Output& v, const Output& vhat, const AdamParams& p,
                                       const Output& grad);

// FTRL-proximal, with V2's L2 shrinkage (TensorFlow's input order: grad before lr).
Output ApplyFtrl(const Scope& scope, const Output& var, const Output& accum, const Output& linear,
                 const Output& grad, const Output& lr, const Output& l1, const Output& l2,
                 const Output& lr_power, bool multiply_linear_by_lr = false);
Output ApplyFtrlV2(const Scope& scope, const Output& var, const Output& accum, const Output& linear,
                   const Output& grad, const Output& lr, const Output& l1, const Output& l2,
                   const Output& l2_shrinkage, const Output& lr_power,
                   bool multiply_linear_by_lr = false);
Operation ResourceApplyFtrl(const Scope& scope, const Output& var, const Output& accum,
                            const Output& linear, const Output& grad, const Output& lr,
                            const Output& l1, const Output& l2, const Output& lr_power,
                            bool multiply_linear_by_lr = false);
Operation ResourceApplyFtrlV2(const Scope& scope, const Output& var, const Output& accum,
                              const Output& linear, const Output& grad, const Output& lr,
                              const Output& l1, const Output& l2, const Output& l2_shrinkage,
                              const Output& lr_power, bool multiply_linear_by_lr = false);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_TRAINING_OPS_H_
