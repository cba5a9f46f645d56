#include "graph/gradients/optimizer.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/tensor.h"
#include "core/types.h"
#include "graph/builder/ops.h"
#include "graph/gradients/gradients.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

// A node name not yet in the graph: `name`, else name_1, name_2, ...
std::string FreeName(const Scope& scope, const std::string& name) {
  if (!scope.GetOperation(name).ok()) return name;
  for (int i = 1;; ++i) {
    std::string candidate = absl::StrCat(name, "_", i);
    if (!scope.GetOperation(candidate).ok()) return candidate;
  }
}

// A constant of `shape` and `dtype` with every element `value` (stored once).
Output Filled(const Scope& scope, DataType dtype, const TensorShape& shape, double value) {
  if (dtype == DT_DOUBLE) return ops::ConstOfShape(scope, Tensor::Scalar<double>(value), shape);
  Output f = ops::ConstOfShape(scope, Tensor::Scalar<float>(static_cast<float>(value)), shape);
  return dtype == DT_FLOAT ? f : ops::Cast(scope, f, dtype);
}

}  // namespace

absl::StatusOr<std::vector<GradAndVar>> Optimizer::ComputeGradients(
    const Scope& scope, const Output& loss, const std::vector<Output>& var_list) {
  GradientOptions options;
  options.gate_gradients = true;  // Optimizer.minimize's GATE_OP
  options.unconnected_gradients = GradientOptions::Unconnected::kNone;
  std::vector<Output> grads;
  RILL_RETURN_IF_ERROR(AddSymbolicGradients(scope, {loss}, var_list, {}, &grads, options));
  std::vector<GradAndVar> pairs;
  for (size_t i = 0; i < var_list.size(); ++i) pairs.push_back({grads[i], var_list[i]});
  return pairs;
}

absl::StatusOr<Operation> Optimizer::Minimize(const Scope& scope, const Output& loss,
                                              const std::vector<Output>& var_list) {
  RILL_ASSIGN_OR_RETURN(std::vector<GradAndVar> pairs, ComputeGradients(scope, loss, var_list));
  return ApplyGradients(scope, pairs);
}

absl::StatusOr<Operation> Optimizer::ApplyGradients(const Scope& scope,
                                                    const std::vector<GradAndVar>& grads_and_vars) {
  RILL_RETURN_IF_ERROR(scope.status());
  std::vector<std::pair<Output, Var>> updates;
  std::string all_names;
  for (const GradAndVar& gv : grads_and_vars) {
    RILL_ASSIGN_OR_RETURN(NodeDef def, scope.GetNodeDef(gv.variable.node()));
    absl::StrAppend(&all_names, all_names.empty() ? "" : ", ", def.name());
    if (!gv.gradient.valid()) continue;
    Var var;
    var.output = gv.variable;
    var.name = def.name();
    const AttrValue* shape = FindNodeAttr(def, "shape");
    if (def.op() == "VarHandleOp") {
      var.resource = true;
      const AttrValue* dtype = FindNodeAttr(def, "dtype");
      var.dtype = dtype == nullptr ? DT_INVALID : dtype->type();
    } else if (def.op() == "VariableV2" || def.op() == "Variable") {
      var.dtype = BaseType(gv.variable.dtype());
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("Variable '", def.name(), "' is a ", def.op(),
                       " node; an optimizer updates VariableV2 or VarHandleOp variables"));
    }
    if (shape != nullptr) {
      RILL_ASSIGN_OR_RETURN(var.shape, PartialTensorShape::FromProto(shape->shape()));
    }
    if (!var.shape.IsFullyDefined()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Variable '", def.name(), "' has shape ", var.shape.DebugString(),
                       "; an optimizer's slots need a fully defined shape: give the variable one"));
    }
    updates.emplace_back(gv.gradient, std::move(var));
  }
  if (updates.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "No gradients provided for any variable, check your graph for ops that do not support "
        "gradients, between variables [",
        all_names, "] and loss"));
  }
  std::vector<Var> sorted;
  for (const auto& [grad, var] : updates) sorted.push_back(var);
  std::sort(sorted.begin(), sorted.end(),
            [](const Var& a, const Var& b) { return a.name < b.name; });
  RILL_RETURN_IF_ERROR(CreateSlots(scope, sorted));
  const Scope named = scope.NewSubScope(name_);
  std::vector<Operation> ops_list;
  for (const auto& [grad, var] : updates) {
    const Scope update =
        named.NewSubScope(absl::StrCat("update_", var.name)).ColocateWith(var.output);
    RILL_ASSIGN_OR_RETURN(Operation op, ApplyDense(update, grad, var));
    ops_list.push_back(op);
  }
  RILL_ASSIGN_OR_RETURN(Operation train, Finish(named, ops_list, named.name_scope()));
  initializer_ = ops::NoOp(named.WithOpName("initializer").WithControlDependencies(initializers_));
  RILL_RETURN_IF_ERROR(scope.status());
  return train;
}

absl::StatusOr<Operation> Optimizer::Finish(const Scope& scope,
                                            const std::vector<Operation>& updates,
                                            const std::string& name) {
  Operation train = ops::NoOp(scope.WithExactOpName(name).WithControlDependencies(updates));
  RILL_RETURN_IF_ERROR(scope.status());
  return train;
}

Output Optimizer::CreateSlot(const Scope& scope, const Var& var, double initial,
                             const std::string& slot_name, const std::string& key) {
  const Scope s = scope.ColocateWith(var.output);
  const std::string name = FreeName(scope, absl::StrCat(var.name, "/", slot_name));
  // The shape was checked fully defined and valid when `var` was made.
  TensorShape shape = TensorShape::FromDims(var.shape.dims()).value();
  Output value = Filled(s.WithExactOpName(name + "/Initializer/Const"), var.dtype, shape, initial);
  Output slot;
  if (var.resource) {
    slot = ops::VarHandleOp(s.WithExactOpName(name), var.dtype, var.shape);
    initializers_.push_back(
        ops::AssignVariableOp(s.WithExactOpName(name + "/Assign"), slot, value));
  } else {
    slot = ops::Variable(s.WithExactOpName(name), var.shape, var.dtype);
    initializers_.push_back(ops::Assign(s.WithExactOpName(name + "/Assign"), slot, value));
  }
  slots_[{var.name, key}] = slot;
  return slot;
}

Output Optimizer::CreateNonSlot(const Scope& scope, const Var& colocate_with, double initial,
                                const std::string& name) {
  const Scope s = scope.ColocateWith(colocate_with.output);
  const std::string unique = FreeName(scope, name);
  Output value = Filled(s.WithExactOpName(unique + "/initial_value"), colocate_with.dtype,
                        TensorShape({}), initial);
  Output variable;
  if (colocate_with.resource) {
    variable = ops::VarHandleOp(s.WithExactOpName(unique), colocate_with.dtype,
                                PartialTensorShape(std::vector<int64_t>{}));
    initializers_.push_back(
        ops::AssignVariableOp(s.WithExactOpName(unique + "/Assign"), variable, value));
  } else {
    variable = ops::Variable(s.WithExactOpName(unique), PartialTensorShape(std::vector<int64_t>{}),
                             colocate_with.dtype);
    initializers_.push_back(ops::Assign(s.WithExactOpName(unique + "/Assign"), variable, value));
  }
  return variable;
}

Output Optimizer::Slot(const Var& var, const std::string& key) const {
  auto it = slots_.find({var.name, key});
  return it == slots_.end() ? Output() : it->second;
}

Output Optimizer::Read(const Scope& scope, const Output& variable, bool resource, DataType dtype) {
  return resource ? ops::ReadVariableOp(scope, variable, dtype) : variable;
}

Output Optimizer::Hyper(const Scope& scope, double value, const Var& var) {
  return Filled(scope, var.dtype, TensorShape({}), value);
}

// --- GradientDescent ---------------------------------------------------------------------

absl::Status GradientDescentOptimizer::CreateSlots(const Scope&, const std::vector<Var>&) {
  return absl::OkStatus();
}

absl::StatusOr<Operation> GradientDescentOptimizer::ApplyDense(const Scope& s, const Output& grad,
                                                               const Var& var) {
  Output lr = Hyper(s.WithOpName("learning_rate"), learning_rate_, var);
  if (var.resource) return ops::ResourceApplyGradientDescent(s, var.output, lr, grad);
  return Operation(ops::ApplyGradientDescent(s, var.output, lr, grad));
}

// --- Momentum ------------------------------------------------------------------------------

absl::Status MomentumOptimizer::CreateSlots(const Scope& scope, const std::vector<Var>& vars) {
  for (const Var& v : vars) CreateSlot(scope, v, 0.0, "Momentum", "momentum");
  return scope.status();
}

absl::StatusOr<Operation> MomentumOptimizer::ApplyDense(const Scope& s, const Output& grad,
                                                        const Var& var) {
  Output lr = Hyper(s.WithOpName("learning_rate"), learning_rate_, var);
  Output momentum = Hyper(s.WithOpName("momentum"), momentum_, var);
  Output accum = Slot(var, "momentum");
  if (var.resource) {
    return ops::ResourceApplyMomentum(s, var.output, accum, lr, grad, momentum, use_nesterov_);
  }
  return Operation(ops::ApplyMomentum(s, var.output, accum, lr, grad, momentum, use_nesterov_));
}

// --- Adam ----------------------------------------------------------------------------------

absl::Status AdamOptimizer::CreateSlots(const Scope& scope, const std::vector<Var>& vars) {
  first_ = vars.front();
  beta1_power_ = CreateNonSlot(scope, first_, beta1_, "beta1_power");
  beta2_power_ = CreateNonSlot(scope, first_, beta2_, "beta2_power");
  for (const Var& v : vars) {
    CreateSlot(scope, v, 0.0, "Adam", "m");
    CreateSlot(scope, v, 0.0, "Adam_1", "v");
  }
  return scope.status();
}

absl::StatusOr<Operation> AdamOptimizer::ApplyDense(const Scope& s, const Output& grad,
                                                    const Var& var) {
  ops::AdamParams p;
  p.beta1_power = Read(s, beta1_power_, first_.resource, first_.dtype);
  p.beta2_power = Read(s, beta2_power_, first_.resource, first_.dtype);
  if (first_.dtype != var.dtype) {
    p.beta1_power = ops::Cast(s, p.beta1_power, var.dtype);
    p.beta2_power = ops::Cast(s, p.beta2_power, var.dtype);
  }
  p.lr = Hyper(s.WithOpName("learning_rate"), learning_rate_, var);
  p.beta1 = Hyper(s.WithOpName("beta1"), beta1_, var);
  p.beta2 = Hyper(s.WithOpName("beta2"), beta2_, var);
  p.epsilon = Hyper(s.WithOpName("epsilon"), epsilon_, var);
  if (var.resource) {
    return ops::ResourceApplyAdam(s, var.output, Slot(var, "m"), Slot(var, "v"), p, grad);
  }
  return Operation(ops::ApplyAdam(s, var.output, Slot(var, "m"), Slot(var, "v"), p, grad));
}

absl::StatusOr<Operation> AdamOptimizer::Finish(const Scope& scope,
                                                const std::vector<Operation>& updates,
                                                const std::string& name) {
  // The beta powers advance after every variable's update.
  const Scope s = scope.WithControlDependencies(updates).ColocateWith(beta1_power_);
  std::vector<Operation> all = updates;
  for (const auto& [power, beta, op_name] :
       {std::make_tuple(beta1_power_, beta1_, "update_beta1"),
        std::make_tuple(beta2_power_, beta2_, "update_beta2")}) {
    Output current = Read(s, power, first_.resource, first_.dtype);
    Output next = ops::Mul(s, current, Hyper(s, beta, first_));
    if (first_.resource) {
      all.push_back(ops::AssignVariableOp(s.WithOpName(op_name), power, next));
    } else {
      all.push_back(ops::Assign(s.WithOpName(op_name), power, next));
    }
  }
  return Optimizer::Finish(scope, all, name);
}

// --- RMSProp -------------------------------------------------------------------------------

absl::Status RMSPropOptimizer::CreateSlots(const Scope& scope, const std::vector<Var>& vars) {
  for (const Var& v : vars) {
    CreateSlot(scope, v, 1.0, "RMSProp", "rms");
    CreateSlot(scope, v, 0.0, "RMSProp_1", "momentum");
  }
  return scope.status();
}

absl::StatusOr<Operation> RMSPropOptimizer::ApplyDense(const Scope& s, const Output& grad,
                                                       const Var& var) {
  Output lr = Hyper(s.WithOpName("learning_rate"), learning_rate_, var);
  Output rho = Hyper(s.WithOpName("decay"), decay_, var);
  Output momentum = Hyper(s.WithOpName("momentum"), momentum_, var);
  Output epsilon = Hyper(s.WithOpName("epsilon"), epsilon_, var);
  Output ms = Slot(var, "rms");
  Output mom = Slot(var, "momentum");
  if (var.resource) {
    return ops::ResourceApplyRMSProp(s, var.output, ms, mom, lr, rho, momentum, epsilon, grad);
  }
  return Operation(ops::ApplyRMSProp(s, var.output, ms, mom, lr, rho, momentum, epsilon, grad));
}

// --- Adagrad -------------------------------------------------------------------------------

absl::Status AdagradOptimizer::CreateSlots(const Scope& scope, const std::vector<Var>& vars) {
  for (const Var& v : vars) CreateSlot(scope, v, initial_accumulator_value_, "Adagrad", "accum");
  return scope.status();
}

absl::StatusOr<Operation> AdagradOptimizer::ApplyDense(const Scope& s, const Output& grad,
                                                       const Var& var) {
  Output lr = Hyper(s.WithOpName("learning_rate"), learning_rate_, var);
  if (var.resource) return ops::ResourceApplyAdagrad(s, var.output, Slot(var, "accum"), lr, grad);
  return Operation(ops::ApplyAdagrad(s, var.output, Slot(var, "accum"), lr, grad));
}

}  // namespace rill
