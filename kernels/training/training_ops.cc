// The optimizer steps of TF1 training graphs on the CPU, in their ref (ApplyX: var and slots are
// Ref(T) inputs, updated in place, `out` forwards var's ref) and resource (ResourceApplyX: handles;
// every update writes fresh buffers, as Rill's resource variables do) forms, with TensorFlow's
// update rules written in TensorFlow's operation order (so float rounding matches):
//   GradientDescent  var -= delta * alpha
//   Momentum         accum = accum * momentum + grad;
//                    var -= nesterov ? grad * lr + accum * momentum * lr : accum * lr
//   Adam             alpha = lr * sqrt(1 - beta2_power) / (1 - beta1_power);
//                    m += (grad - m) * (1 - beta1); v += (grad^2 - v) * (1 - beta2);
//                    var -= nesterov ? ((grad * (1 - beta1) + beta1 * m) * alpha) / (sqrt(v) + eps)
//                                    : (m * alpha) / (sqrt(v) + eps)
//   RMSProp          ms += (grad^2 - ms) * (1 - rho); mom = mom * momentum + (grad * lr) /
//                    sqrt(ms + eps); var -= mom
//   Adagrad          accum += grad^2 (when update_slots); var -= grad * lr / sqrt(accum)
//   AdagradV2        the same with var -= grad * lr / (sqrt(accum) + epsilon)
//   Adadelta         accum = accum * rho + grad^2 * (1 - rho);
//                    update = sqrt(accum_update + eps) / sqrt(accum + eps) * grad;
//                    var -= update * lr; accum_update = accum_update * rho + update^2 * (1 - rho)
//   ProximalGradientDescent  prox = var - delta * alpha; var = l1 > 0 ? sign(prox) *
//                    max(|prox| - alpha * l1, 0) / (1 + l2 * alpha) : prox / (1 + l2 * alpha)
//   AddSign          m = m * beta + grad * (1 - beta);
//                    var -= lr * (alpha + sign_decay * sign(grad) * sign(m)) * grad
//   PowerSign        m as AddSign; var -= lr * exp(logbase * sign_decay * sign(grad) * sign(m)) *
//                    grad
//   CenteredRMSProp  ms and mg (grad's running mean) as RMSProp's ms; mom = mom * momentum +
//                    (grad * lr) / sqrt(ms - mg^2 + eps); var -= mom
//   AdaMax           m as Adam's; v = max(beta2 * v, |grad|);
//                    var -= lr / (1 - beta1_power) * (m / (v + eps))
//   KerasMomentum    accum = accum * momentum - grad * lr;
//                    var += nesterov ? accum * momentum - grad * lr : accum   (resource only)
//   Ftrl, FtrlV2     shrunk = grad (+ 2 * l2_shrinkage * var for V2); n = accum + grad^2;
//                    sigma = n^-lr_power - accum^-lr_power (sqrt for lr_power -0.5);
//                    linear += shrunk - sigma / lr * var  (by_lr: shrunk * lr - sigma * var);
//                    var = |linear| > l1 ? (l1 * sign(linear) - linear) / (n^-lr_power / lr +
//                    2 * l2) : 0  (by_lr: l1 * lr, n^-lr_power + 2 * l2 * lr); accum = n
//   AdamWithAmsgrad  Adam with vhat = max(vhat, v) in place of v in the step   (resource only)
// For float, double and half (half computed in float per step; ProximalGradientDescent float and
// double only, as TensorFlow's CPU).
// Errors (TensorFlow's texts): FailedPrecondition "Attempting to use uninitialized value w" (ref)
// or "Error while reading resource variable w from Container: localhost. ..." (resource);
// InvalidArgument "lr is not a scalar: [2]", "var and accum do not have the same shape[2] [3]".
//
// Thread safety: Compute runs concurrently with other steps; the variables' mutexes are held
// (in slot order) for the whole update, whatever use_locking says, so an update is never torn.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

// One optimizer: its variable slots, its scalar hyperparameters (then `grad`, last), and the
// per-element rule over compute-type values (C is float for half).
struct Optimizer {
  std::vector<const char*> slots;   // "var" first
  std::vector<const char*> params;  // scalars, in input order
  const char* grad = "grad";        // the gradient's input name (GradientDescent: "delta")
  int grad_position = -1;           // input index among the non-slot inputs (-1: last)
};

template <typename C>
struct Hyper {
  std::vector<C> p;  // the scalar hyperparameters, in Optimizer::params order
  bool nesterov = false;
  bool update_slots = true;
  bool multiply_linear_by_lr = false;  // Ftrl
};

// The rules, one element at a time: s[0] is var, s[1..] the slots.
template <typename C>
void GradientDescentStep(C* s, C g, const Hyper<C>& h) {
  s[0] -= g * h.p[0];
}

template <typename C>
void MomentumStep(C* s, C g, const Hyper<C>& h) {
  const C lr = h.p[0], momentum = h.p[1];
  s[1] = s[1] * momentum + g;
  s[0] -= h.nesterov ? g * lr + s[1] * momentum * lr : s[1] * lr;
}

// Adam's moments, m (s[1]) and v (s[2]), updated; returns the step size alpha.
template <typename C>
C AdamMoments(C* s, C g, const Hyper<C>& h) {
  const C beta1_power = h.p[0], beta2_power = h.p[1], lr = h.p[2], beta1 = h.p[3], beta2 = h.p[4];
  s[1] += (g - s[1]) * (C(1) - beta1);
  s[2] += (g * g - s[2]) * (C(1) - beta2);
  return lr * std::sqrt(C(1) - beta2_power) / (C(1) - beta1_power);
}

template <typename C>
void AdamStep(C* s, C g, const Hyper<C>& h) {
  const C beta1 = h.p[3], epsilon = h.p[5];
  const C alpha = AdamMoments(s, g, h);
  s[0] -= h.nesterov ? ((g * (C(1) - beta1) + beta1 * s[1]) * alpha) / (std::sqrt(s[2]) + epsilon)
                     : (s[1] * alpha) / (std::sqrt(s[2]) + epsilon);
}

template <typename C>
void RMSPropStep(C* s, C g, const Hyper<C>& h) {
  const C lr = h.p[0], rho = h.p[1], momentum = h.p[2], epsilon = h.p[3];
  s[1] += (g * g - s[1]) * (C(1) - rho);
  s[2] = s[2] * momentum + (g * lr) / std::sqrt(s[1] + epsilon);
  s[0] -= s[2];
}

template <typename C>
void AdagradStep(C* s, C g, const Hyper<C>& h) {
  if (h.update_slots) s[1] += g * g;
  s[0] -= g * h.p[0] * (C(1) / std::sqrt(s[1]));
}

template <typename C>
void AdadeltaStep(C* s, C g, const Hyper<C>& h) {
  const C lr = h.p[0], rho = h.p[1], epsilon = h.p[2];
  s[1] = s[1] * rho + g * g * (C(1) - rho);
  const C update = std::sqrt(s[2] + epsilon) * (C(1) / std::sqrt(s[1] + epsilon)) * g;
  s[0] -= update * lr;
  s[2] = s[2] * rho + update * update * (C(1) - rho);
}

template <typename C>
C Sign(C x) {
  return x > C(0) ? C(1) : x < C(0) ? C(-1) : C(0);
}

template <typename C>
void ProximalGradientDescentStep(C* s, C g, const Hyper<C>& h) {
  const C alpha = h.p[0], l1 = h.p[1], l2 = h.p[2];
  const C prox = s[0] - g * alpha;
  s[0] = l1 > C(0) ? Sign(prox) * std::max(std::abs(prox) - alpha * l1, C(0)) / (C(1) + l2 * alpha)
                   : prox / (C(1) + l2 * alpha);
}

template <typename C>
void AddSignStep(C* s, C g, const Hyper<C>& h) {
  const C lr = h.p[0], alpha = h.p[1], sign_decay = h.p[2], beta = h.p[3];
  s[1] = s[1] * beta + g * (C(1) - beta);
  s[0] -= lr * (alpha + sign_decay * (Sign(g) * Sign(s[1]))) * g;
}

template <typename C>
void PowerSignStep(C* s, C g, const Hyper<C>& h) {
  const C lr = h.p[0], logbase = h.p[1], sign_decay = h.p[2], beta = h.p[3];
  s[1] = s[1] * beta + g * (C(1) - beta);
  s[0] -= lr * std::exp(logbase * sign_decay * (Sign(g) * Sign(s[1]))) * g;
}

template <typename C>
void CenteredRMSPropStep(C* s, C g, const Hyper<C>& h) {
  const C lr = h.p[0], rho = h.p[1], momentum = h.p[2], epsilon = h.p[3];
  s[2] += (g * g - s[2]) * (C(1) - rho);
  s[1] += (g - s[1]) * (C(1) - rho);
  s[3] = s[3] * momentum + (g * lr) / std::sqrt((s[2] - s[1] * s[1]) + epsilon);
  s[0] -= s[3];
}

template <typename C>
void AdagradV2Step(C* s, C g, const Hyper<C>& h) {
  if (h.update_slots) s[1] += g * g;
  s[0] -= g * h.p[0] / (std::sqrt(s[1]) + h.p[1]);
}

template <typename C>
void AdaMaxStep(C* s, C g, const Hyper<C>& h) {
  const C beta1_power = h.p[0], lr = h.p[1], beta1 = h.p[2], beta2 = h.p[3], epsilon = h.p[4];
  s[1] += (g - s[1]) * (C(1) - beta1);
  s[2] = std::max(beta2 * s[2], std::abs(g));
  s[0] -= lr / (C(1) - beta1_power) * (s[1] / (s[2] + epsilon));
}

template <typename C>
void KerasMomentumStep(C* s, C g, const Hyper<C>& h) {
  const C lr = h.p[0], momentum = h.p[1];
  s[1] = s[1] * momentum - g * lr;
  s[0] += h.nesterov ? s[1] * momentum - g * lr : s[1];
}

template <typename C>
void AdamWithAmsgradStep(C* s, C g, const Hyper<C>& h) {
  const C alpha = AdamMoments(s, g, h);
  s[3] = std::max(s[3], s[2]);
  s[0] -= (s[1] * alpha) / (std::sqrt(s[3]) + h.p[5]);
}

// Ftrl and FtrlV2 (p: lr, l1, l2, [l2_shrinkage,] lr_power); s: var, accum, linear.
template <typename C>
void FtrlStep(C* s, C g, const Hyper<C>& h) {
  const bool v2 = h.p.size() == 5;
  const C lr = h.p[0], l1 = h.p[1], l2 = h.p[2], lr_power = h.p.back();
  const C shrunk = v2 ? g + C(2) * h.p[3] * s[0] : g;
  const C new_accum = s[1] + g * g;
  auto power = [&](C a) { return lr_power == C(-0.5) ? std::sqrt(a) : std::pow(a, -lr_power); };
  const C sigma = power(new_accum) - power(s[1]);
  const bool by_lr = h.multiply_linear_by_lr;
  s[2] += by_lr ? shrunk * lr - sigma * s[0] : shrunk - sigma / lr * s[0];
  const C l1_limit = by_lr ? l1 * lr : l1;
  const C x = l1_limit * Sign(s[2]) - s[2];
  const C y = by_lr ? power(new_accum) + C(2) * l2 * lr : power(new_accum) / lr + C(2) * l2;
  s[0] = std::abs(s[2]) > l1_limit ? x / y : C(0);
  s[1] += g * g;
}

enum class Rule {
  kGradientDescent,
  kMomentum,
  kAdam,
  kRMSProp,
  kAdagrad,
  kAdadelta,
  kProximalGradientDescent,
  kAddSign,
  kPowerSign,
  kCenteredRMSProp,
  kAdagradV2,
  kAdaMax,
  kKerasMomentum,
  kAdamWithAmsgrad,
  kFtrl,
  kFtrlV2,
};

const Optimizer& OptimizerFor(Rule rule) {
  static const Optimizer kGd{{"var"}, {"alpha"}, "delta"};
  static const Optimizer kMomentum{{"var", "accum"}, {"lr", "momentum"}, "grad", 1};
  static const Optimizer kAdam{{"var", "m", "v"},
                               {"beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"}};
  static const Optimizer kRms{{"var", "ms", "mom"}, {"lr", "rho", "momentum", "epsilon"}};
  static const Optimizer kAdagrad{{"var", "accum"}, {"lr"}};
  static const Optimizer kAdadelta{{"var", "accum", "accum_update"}, {"lr", "rho", "epsilon"}};
  static const Optimizer kProximalGd{{"var"}, {"alpha", "l1", "l2"}, "delta"};
  static const Optimizer kAddSign{{"var", "m"}, {"lr", "alpha", "sign_decay", "beta"}};
  static const Optimizer kPowerSign{{"var", "m"}, {"lr", "logbase", "sign_decay", "beta"}};
  static const Optimizer kCenteredRms{{"var", "mg", "ms", "mom"},
                                      {"lr", "rho", "momentum", "epsilon"}};
  static const Optimizer kAdagradV2{{"var", "accum"}, {"lr", "epsilon"}};
  static const Optimizer kAdaMax{{"var", "m", "v"},
                                 {"beta1_power", "lr", "beta1", "beta2", "epsilon"}};
  static const Optimizer kFtrl{
      {"var", "accum", "linear"}, {"lr", "l1", "l2", "lr_power"}, "grad", 0};
  static const Optimizer kFtrlV2{
      {"var", "accum", "linear"}, {"lr", "l1", "l2", "l2_shrinkage", "lr_power"}, "grad", 0};
  static const Optimizer kAmsgrad{
      {"var", "m", "v", "vhat"}, {"beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"}};
  switch (rule) {
    case Rule::kGradientDescent:
      return kGd;
    case Rule::kMomentum:
      return kMomentum;
    case Rule::kAdam:
      return kAdam;
    case Rule::kRMSProp:
      return kRms;
    case Rule::kAdagrad:
      return kAdagrad;
    case Rule::kAdadelta:
      return kAdadelta;
    case Rule::kProximalGradientDescent:
      return kProximalGd;
    case Rule::kAddSign:
      return kAddSign;
    case Rule::kPowerSign:
      return kPowerSign;
    case Rule::kCenteredRMSProp:
      return kCenteredRms;
    case Rule::kAdagradV2:
      return kAdagradV2;
    case Rule::kAdaMax:
      return kAdaMax;
    case Rule::kKerasMomentum:
      return kMomentum;  // the same inputs
    case Rule::kFtrl:
      return kFtrl;
    case Rule::kFtrlV2:
      return kFtrlV2;
    case Rule::kAdamWithAmsgrad:
      break;
  }
  return kAmsgrad;
}

template <typename C>
void Step(Rule rule, C* s, C g, const Hyper<C>& h) {
  switch (rule) {
    case Rule::kGradientDescent:
      return GradientDescentStep(s, g, h);
    case Rule::kMomentum:
      return MomentumStep(s, g, h);
    case Rule::kAdam:
      return AdamStep(s, g, h);
    case Rule::kRMSProp:
      return RMSPropStep(s, g, h);
    case Rule::kAdagrad:
      return AdagradStep(s, g, h);
    case Rule::kAdadelta:
      return AdadeltaStep(s, g, h);
    case Rule::kProximalGradientDescent:
      return ProximalGradientDescentStep(s, g, h);
    case Rule::kAddSign:
      return AddSignStep(s, g, h);
    case Rule::kPowerSign:
      return PowerSignStep(s, g, h);
    case Rule::kCenteredRMSProp:
      return CenteredRMSPropStep(s, g, h);
    case Rule::kAdagradV2:
      return AdagradV2Step(s, g, h);
    case Rule::kAdaMax:
      return AdaMaxStep(s, g, h);
    case Rule::kKerasMomentum:
      return KerasMomentumStep(s, g, h);
    case Rule::kAdamWithAmsgrad:
      return AdamWithAmsgradStep(s, g, h);
    case Rule::kFtrl:
    case Rule::kFtrlV2:
      return FtrlStep(s, g, h);
  }
}

// Applies the rule to every element. REQUIRES: all slots and grad have one shape and dtype T.
template <typename T>
void ApplyRule(Rule rule, const std::vector<Tensor*>& slots, const Tensor& grad,
               const Hyper<typename CwiseComputeType<T>::type>& h) {
  using C = typename CwiseComputeType<T>::type;
  std::vector<T*> data;
  for (Tensor* t : slots) data.push_back(t->flat<T>().data());
  const T* g = grad.flat<T>().data();
  C s[4];
  for (int64_t i = 0; i < grad.NumElements(); ++i) {
    for (size_t k = 0; k < data.size(); ++k) s[k] = cwise_internal::Load(data[k][i]);
    Step<C>(rule, s, cwise_internal::Load(g[i]), h);
    for (size_t k = 0; k < data.size(); ++k) data[k][i] = cwise_internal::Store<T>(s[k]);
  }
}

template <Rule kRule, bool kResource>
class ApplyOp final : public OpKernel {
 public:
  explicit ApplyOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (kRule == Rule::kFtrl || kRule == Rule::kFtrlV2) {
      ctx.SetStatus(ctx.GetAttr("multiply_linear_by_lr", &multiply_linear_by_lr_));
    }
    if (kRule == Rule::kMomentum || kRule == Rule::kAdam || kRule == Rule::kKerasMomentum) {
      ctx.SetStatus(ctx.GetAttr("use_nesterov", &nesterov_));
    }
    if (kRule == Rule::kAdagrad || kRule == Rule::kAdagradV2)
      ctx.SetStatus(ctx.GetAttr("update_slots", &update_slots_));
    for (size_t k = 0; k < OptimizerFor(kRule).slots.size(); ++k) {
      const std::string& input = ctx.def().input(static_cast<int>(k));
      slot_sources_.push_back(input.substr(0, input.find(':')));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Optimizer& opt = OptimizerFor(kRule);
    const int n_slots = static_cast<int>(opt.slots.size());
    const int n_params = static_cast<int>(opt.params.size());
    // Non-slot inputs: the params in order, with grad at grad_position (default: last).
    const int grad_index = n_slots + (opt.grad_position >= 0 ? opt.grad_position : n_params);
    std::vector<Tensor> params;
    for (int i = n_slots; i < n_slots + n_params + 1; ++i) {
      if (i != grad_index) params.push_back(ctx.input(i));
    }
    const Tensor& grad = ctx.input(grad_index);
    for (int k = 0; k < n_params; ++k) {
      if (params[k].shape().rank() != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(opt.params[k], " is not a scalar: ", params[k].shape().DebugString()));
      }
    }
    // The variables: their mutexes (locked in slot order) and tensors.
    std::vector<std::shared_ptr<Var>> vars;  // resource form: keeps the Vars alive
    std::vector<rill::SharedMutex*> mutexes;
    std::vector<Tensor*> targets;
    std::vector<ResourceHandle> handles(n_slots);
    for (int k = 0; k < n_slots; ++k) {
      if (kResource) {
        RILL_ASSIGN_OR_RETURN(
            std::shared_ptr<Var> var,
            LookupResourceVar(*ctx.device()->resource_manager(), ctx.input(k), &handles[k]));
        mutexes.push_back(var->mu());
        targets.push_back(var->tensor());
        vars.push_back(std::move(var));
      } else {
        const TensorValue& ref = ctx.input_value(k);
        if (!ref.is_ref()) {
          return absl::InternalError(
              absl::StrCat(type_string(), " node ", name(), " got a non-ref input ", k));
        }
        mutexes.push_back(ref.ref_mu);
        targets.push_back(ref.ref);
      }
    }
    std::vector<std::unique_ptr<rill::WriterMutexLock>> locks;
    for (rill::SharedMutex*& mu : mutexes) {
      if (std::find(mutexes.data(), &mu, mu) != &mu) continue;  // a slot sharing a variable
      locks.push_back(std::make_unique<rill::WriterMutexLock>(mu));
    }
    for (int k = 0; k < n_slots; ++k) {
      if (!targets[k]->IsInitialized()) {
        if (kResource) return UninitializedVariableError(handles[k], absl::OkStatus());
        return absl::FailedPreconditionError(
            absl::StrCat("Attempting to use uninitialized value ", slot_sources_[k]));
      }
      if (k > 0 && targets[k]->shape() != targets[0]->shape()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "var and ", opt.slots[k], " do not have the same shape",
            targets[0]->shape().DebugString(), " ", targets[k]->shape().DebugString()));
      }
    }
    if (grad.shape() != targets[0]->shape()) {
      return absl::InvalidArgumentError(
          absl::StrCat("var and ", opt.grad, " do not have the same shape",
                       targets[0]->shape().DebugString(), " ", grad.shape().DebugString()));
    }
    // Resource variables get fresh buffers (readers hold stable snapshots); ref ones update in
    // place, as TensorFlow's TF1 variables do.
    std::vector<Tensor> fresh;
    if (kResource) {
      for (Tensor* t : targets) {
        RILL_ASSIGN_OR_RETURN(Tensor copy, ctx.allocate_temp(t->dtype(), t->shape()));
        CopyTensorElements(*t, &copy);
        fresh.push_back(std::move(copy));
      }
    }
    std::vector<Tensor*> update;
    for (int k = 0; k < n_slots; ++k) update.push_back(kResource ? &fresh[k] : targets[k]);
    const absl::Status applied =
        VisitKernelTypes<half, float, double>(*this, grad.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          using C = typename CwiseComputeType<T>::type;
          Hyper<C> h;
          for (const Tensor& p : params) h.p.push_back(cwise_internal::Load(p.flat<T>()[0]));
          h.nesterov = nesterov_;
          h.update_slots = update_slots_;
          h.multiply_linear_by_lr = multiply_linear_by_lr_;
          ApplyRule<T>(kRule, update, grad, h);
          return absl::OkStatus();
        });
    if (!applied.ok()) return applied;
    if (kResource) {
      for (int k = 0; k < n_slots; ++k) *targets[k] = std::move(fresh[k]);
    } else {
      ctx.forward_ref_input_to_ref_output(0, 0);
    }
    return absl::OkStatus();
  }

 private:
  bool nesterov_ = false;
  bool update_slots_ = true;
  bool multiply_linear_by_lr_ = false;
  std::vector<std::string> slot_sources_;  // the nodes feeding the slots, for messages
};

const std::vector<DataType> kTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE};

#define RILL_REGISTER_APPLY_TYPES(name, rule, types)                                            \
  REGISTER_KERNEL(KernelDefBuilder("Apply" name).Device(kDeviceCpu).TypeConstraint("T", types), \
                  ApplyOp<rule, false>);                                                        \
  REGISTER_KERNEL(                                                                              \
      KernelDefBuilder("ResourceApply" name).Device(kDeviceCpu).TypeConstraint("T", types),     \
      ApplyOp<rule, true>)
#define RILL_REGISTER_APPLY(name, rule) RILL_REGISTER_APPLY_TYPES(name, rule, kTypes)

RILL_REGISTER_APPLY("GradientDescent", Rule::kGradientDescent);
RILL_REGISTER_APPLY("Momentum", Rule::kMomentum);
RILL_REGISTER_APPLY("Adam", Rule::kAdam);
RILL_REGISTER_APPLY("RMSProp", Rule::kRMSProp);
RILL_REGISTER_APPLY("Adagrad", Rule::kAdagrad);
RILL_REGISTER_APPLY("Adadelta", Rule::kAdadelta);
RILL_REGISTER_APPLY("AddSign", Rule::kAddSign);
RILL_REGISTER_APPLY("PowerSign", Rule::kPowerSign);
RILL_REGISTER_APPLY("CenteredRMSProp", Rule::kCenteredRMSProp);
RILL_REGISTER_APPLY("AdagradV2", Rule::kAdagradV2);
RILL_REGISTER_APPLY("AdaMax", Rule::kAdaMax);
RILL_REGISTER_APPLY("Ftrl", Rule::kFtrl);
RILL_REGISTER_APPLY("FtrlV2", Rule::kFtrlV2);
// TensorFlow's CPU has no half proximal gradient descent.
const std::vector<DataType> kFloatDouble = {DT_FLOAT, DT_DOUBLE};
RILL_REGISTER_APPLY_TYPES("ProximalGradientDescent", Rule::kProximalGradientDescent, kFloatDouble);
// Keras' momentum and AMSGrad Adam have only resource forms.
REGISTER_KERNEL(
    KernelDefBuilder("ResourceApplyKerasMomentum").Device(kDeviceCpu).TypeConstraint("T", kTypes),
    ApplyOp<Rule::kKerasMomentum, true>);
REGISTER_KERNEL(
    KernelDefBuilder("ResourceApplyAdamWithAmsgrad").Device(kDeviceCpu).TypeConstraint("T", kTypes),
    ApplyOp<Rule::kAdamWithAmsgrad, true>);

}  // namespace
}  // namespace rill
