// Rill. TF1 optimizers for graphs built with the C++ builder: TensorFlow's update rules, slot
// variables and names, through the Apply*/ResourceApply* kernels.
//
//   Output w = ops::Variable(root.WithOpName("w"), PartialTensorShape({4, 2}), DT_FLOAT);
//   ...loss...
//   AdamOptimizer adam(0.01);
//   RILL_ASSIGN_OR_RETURN(Operation train, adam.Minimize(root, loss, {w, b}));
//   // run the model's initializers and adam.initializer() once, then `train` each step.
//
// Variables are VariableV2 outputs (reference dtypes; updated by ApplyX) or VarHandleOp outputs
// (DT_RESOURCE; updated by ResourceApplyX); both need a fully defined shape. Minimize =
// ComputeGradients (AddSymbolicGradients with gate_gradients, as Optimizer.minimize's GATE_OP) +
// ApplyGradients. ApplyGradients creates each slot variable once, named as TensorFlow names them
// ("w/Momentum", "w/Adam", "w/Adam_1", "w/RMSProp", "w/RMSProp_1", "w/Adagrad"), colocated with
// its variable, and Adam's "beta1_power"/"beta2_power" colocated with the first variable by name;
// the update of variable "w" is built in the name scope "<Name>/update_w" colocated with "w", and
// the returned train op is a NoOp named "<Name>" (made unique) that groups every update.
//
// Errors: InvalidArgument naming the variable when it is neither kind, has a shape that is not
// fully defined, or gets no gradient from the loss ("No gradients provided for any variable" when
// none does, TensorFlow's text). Thread safety: an optimizer is used by one thread at a time.
#ifndef RILL_GRAPH_GRADIENTS_OPTIMIZER_H_
#define RILL_GRAPH_GRADIENTS_OPTIMIZER_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graph/builder/scope.h"

namespace rill {

struct GradAndVar {
  Output gradient;  // invalid when the loss does not depend on the variable
  Output variable;
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;

  // The gradients of `loss` with respect to each variable (TensorFlow's compute_gradients).
  absl::StatusOr<std::vector<GradAndVar>> ComputeGradients(const Scope& scope, const Output& loss,
                                                           const std::vector<Output>& var_list);
  // The update ops for the pairs with a gradient, grouped in the returned train op.
  absl::StatusOr<Operation> ApplyGradients(const Scope& scope,
                                           const std::vector<GradAndVar>& grads_and_vars);
  absl::StatusOr<Operation> Minimize(const Scope& scope, const Output& loss,
                                     const std::vector<Output>& var_list);

  // A NoOp that runs the initializers of every variable this optimizer created (slots, beta
  // powers); invalid before ApplyGradients. Run it once after the model's own initializers.
  const Operation& initializer() const { return initializer_; }
  const std::string& name() const { return name_; }

 protected:
  explicit Optimizer(std::string name) : name_(std::move(name)) {}

  // One variable of the model, as the update rules see it.
  struct Var {
    Output output;     // the VariableV2 or VarHandleOp output
    std::string name;  // its node name
    bool resource = false;
    DataType dtype = DT_INVALID;  // base dtype
    PartialTensorShape shape;
  };
  // Creates this optimizer's slots of `var` (CreateSlot) and non-slot variables; called for
  // every variable before any update is built, the variables sorted by name.
  virtual absl::Status CreateSlots(const Scope& scope, const std::vector<Var>& vars) = 0;
  // The update of `var` by `grad`, built in `scope` ("<Name>/update_<var>", colocated).
  virtual absl::StatusOr<Operation> ApplyDense(const Scope& scope, const Output& grad,
                                               const Var& var) = 0;
  // The train op from the updates; the default groups them in a NoOp named `name`.
  virtual absl::StatusOr<Operation> Finish(const Scope& scope,
                                           const std::vector<Operation>& updates,
                                           const std::string& name);

  // A variable of var's kind, dtype and shape named "<var>/<slot name>" (suffixed when in use),
  // colocated with var, initialized to `initial` (every element), recorded for initializer().
  Output CreateSlot(const Scope& scope, const Var& var, double initial,
                    const std::string& slot_name, const std::string& key);
  // A scalar variable of `dtype` named `name` colocated with `colocate_with`, initialized to
  // `initial` (Adam's beta powers).
  Output CreateNonSlot(const Scope& scope, const Var& colocate_with, double initial,
                       const std::string& name);
  // The slot created under `key` for `var`.
  Output Slot(const Var& var, const std::string& key) const;
  // The current value of a variable (its ref output, or a ReadVariableOp of a resource).
  static Output Read(const Scope& scope, const Output& variable, bool resource, DataType dtype);
  // A scalar constant of var's dtype.
  static Output Hyper(const Scope& scope, double value, const Var& var);

 private:
  std::string name_;
  std::vector<Operation> initializers_;
  std::map<std::pair<std::string, std::string>, Output> slots_;  // (var, key) -> slot
  Operation initializer_;
};

// var -= lr * grad.
class GradientDescentOptimizer : public Optimizer {
 public:
  explicit GradientDescentOptimizer(double learning_rate)
      : Optimizer("GradientDescent"), learning_rate_(learning_rate) {}

 protected:
  absl::Status CreateSlots(const Scope&, const std::vector<Var>&) override;
  absl::StatusOr<Operation> ApplyDense(const Scope& scope, const Output& grad,
                                       const Var& var) override;

 private:
  double learning_rate_;
};

// accum = momentum * accum + grad; var -= lr * accum (Nesterov: var -= lr * (grad + momentum *
// accum)).
class MomentumOptimizer : public Optimizer {
 public:
  MomentumOptimizer(double learning_rate, double momentum, bool use_nesterov = false)
      : Optimizer("Momentum"),
        learning_rate_(learning_rate),
        momentum_(momentum),
        use_nesterov_(use_nesterov) {}

 protected:
  absl::Status CreateSlots(const Scope& scope, const std::vector<Var>& vars) override;
  absl::StatusOr<Operation> ApplyDense(const Scope& scope, const Output& grad,
                                       const Var& var) override;

 private:
  double learning_rate_, momentum_;
  bool use_nesterov_;
};

// TensorFlow's tf.compat.v1.train.AdamOptimizer (defaults 0.001, 0.9, 0.999, 1e-8).
class AdamOptimizer : public Optimizer {
 public:
  explicit AdamOptimizer(double learning_rate = 0.001, double beta1 = 0.9, double beta2 = 0.999,
                         double epsilon = 1e-8)
      : Optimizer("Adam"),
        learning_rate_(learning_rate),
        beta1_(beta1),
        beta2_(beta2),
        epsilon_(epsilon) {}

 protected:
  absl::Status CreateSlots(const Scope& scope, const std::vector<Var>& vars) override;
  absl::StatusOr<Operation> ApplyDense(const Scope& scope, const Output& grad,
                                       const Var& var) override;
  absl::StatusOr<Operation> Finish(const Scope& scope, const std::vector<Operation>& updates,
                                   const std::string& name) override;

 private:
  double learning_rate_, beta1_, beta2_, epsilon_;
  Var first_;  // the beta powers' colocation
  Output beta1_power_, beta2_power_;
};

// TensorFlow's tf.compat.v1.train.RMSPropOptimizer, not centered (defaults decay 0.9, momentum
// 0, epsilon 1e-10); the "rms" slot starts at ones.
class RMSPropOptimizer : public Optimizer {
 public:
  explicit RMSPropOptimizer(double learning_rate, double decay = 0.9, double momentum = 0.0,
                            double epsilon = 1e-10)
      : Optimizer("RMSProp"),
        learning_rate_(learning_rate),
        decay_(decay),
        momentum_(momentum),
        epsilon_(epsilon) {}

 protected:
  absl::Status CreateSlots(const Scope& scope, const std::vector<Var>& vars) override;
  absl::StatusOr<Operation> ApplyDense(const Scope& scope, const Output& grad,
                                       const Var& var) override;

 private:
  double learning_rate_, decay_, momentum_, epsilon_;
};

// TensorFlow's tf.compat.v1.train.AdagradOptimizer (initial accumulator 0.1).
class AdagradOptimizer : public Optimizer {
 public:
  explicit AdagradOptimizer(double learning_rate, double initial_accumulator_value = 0.1)
      : Optimizer("Adagrad"),
        learning_rate_(learning_rate),
        initial_accumulator_value_(initial_accumulator_value) {}

 protected:
  absl::Status CreateSlots(const Scope& scope, const std::vector<Var>& vars) override;
  absl::StatusOr<Operation> ApplyDense(const Scope& scope, const Output& grad,
                                       const Var& var) override;

 private:
  double learning_rate_, initial_accumulator_value_;
};

}  // namespace rill

#endif  // RILL_GRAPH_GRADIENTS_OPTIMIZER_H_
