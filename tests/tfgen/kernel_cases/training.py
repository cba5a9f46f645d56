"""The optimizer steps: ApplyGradientDescent, ApplyMomentum, ApplyAdam, ApplyRMSProp,
ApplyAdagrad, ApplyAdadelta, ApplyProximalGradientDescent, ApplyAddSign, ApplyPowerSign,
ApplyCenteredRMSProp, ApplyAdagradV2, ApplyAdaMax and their ResourceApply forms, and
ResourceApplyKerasMomentum and ResourceApplyAdamWithAmsgrad. Each case's graph creates the variable and its slots,
initializes them (Assign / AssignVariableOp) and, ordered after that by control edges, applies one
step; the fetch is the updated variable (the ref output, or a ReadVariableOp after the step).
So one Session::Run replays a whole init + step, as a training graph's first step does."""
import tensorflow as tf

from kernel_cases.core import FLOATS, const, ph, rand

tf1 = tf.compat.v1

# op -> (slot names, hyperparameters as (name, value), grad name, grad position among non-slots,
# attrs)
SPECS = {
    "GradientDescent": (["var"], [("alpha", 0.1)], "delta", None, {}),
    "Momentum": (["var", "accum"], [("lr", 0.1), ("momentum", 0.9)], "grad", 1,
                 {"use_nesterov": False}),
    "Adam": (["var", "m", "v"], [("beta1_power", 0.9), ("beta2_power", 0.999), ("lr", 0.01),
                                 ("beta1", 0.9), ("beta2", 0.999), ("epsilon", 1e-7)], "grad", None,
             {"use_nesterov": False}),
    "RMSProp": (["var", "ms", "mom"], [("lr", 0.01), ("rho", 0.9), ("momentum", 0.5),
                                       ("epsilon", 1e-7)], "grad", None, {}),
    "Adagrad": (["var", "accum"], [("lr", 0.1)], "grad", None, {"update_slots": True}),
    "Adadelta": (["var", "accum", "accum_update"], [("lr", 0.5), ("rho", 0.95), ("epsilon", 1e-6)],
                 "grad", None, {}),
    "ProximalGradientDescent": (["var"], [("alpha", 0.1), ("l1", 0.05), ("l2", 0.02)], "delta",
                                None, {}),
    "AddSign": (["var", "m"], [("lr", 0.1), ("alpha", 1.0), ("sign_decay", 0.5), ("beta", 0.9)],
                "grad", None, {}),
    "PowerSign": (["var", "m"], [("lr", 0.1), ("logbase", 0.7), ("sign_decay", 0.5),
                                 ("beta", 0.9)], "grad", None, {}),
    "CenteredRMSProp": (["var", "mg", "ms", "mom"], [("lr", 0.01), ("rho", 0.9), ("momentum", 0.5),
                                                     ("epsilon", 1e-7)], "grad", None, {}),
    "AdagradV2": (["var", "accum"], [("lr", 0.1), ("epsilon", 1e-7)], "grad", None,
                  {"update_slots": True}),
    "AdaMax": (["var", "m", "v"], [("beta1_power", 0.9), ("lr", 0.01), ("beta1", 0.9),
                                   ("beta2", 0.999), ("epsilon", 1e-7)], "grad", None, {}),
    "KerasMomentum": (["var", "accum"], [("lr", 0.1), ("momentum", 0.9)], "grad", 1,
                      {"use_nesterov": False}),
    "AdamWithAmsgrad": (["var", "m", "v", "vhat"], [("beta1_power", 0.9), ("beta2_power", 0.999),
                                                    ("lr", 0.01), ("beta1", 0.9), ("beta2", 0.999),
                                                    ("epsilon", 1e-7)], "grad", None, {}),
    "Ftrl": (["var", "accum", "linear"], [("lr", 0.1), ("l1", 0.05), ("l2", 0.02),
                                          ("lr_power", -0.5)], "grad", 0,
             {"multiply_linear_by_lr": False}),
    "FtrlV2": (["var", "accum", "linear"], [("lr", 0.1), ("l1", 0.05), ("l2", 0.02),
                                            ("l2_shrinkage", 0.01), ("lr_power", -0.5)], "grad", 0,
               {"multiply_linear_by_lr": False}),
}
# Optimizers TensorFlow has only in the resource form.
RESOURCE_ONLY = {"KerasMomentum", "AdamWithAmsgrad"}
# Slots scaled down so their rule stays real: CenteredRMSProp's sqrt(ms - mg^2) needs mg^2 < ms.
SLOT_SCALE = {"mg": 0.01}

# Relative tolerance: elementwise float arithmetic in TensorFlow's order; sqrt and division are
# correctly rounded, but TensorFlow's vectorized Eigen may take another path for them.
TOL = {"float32": (2e-6, 1e-7), "float64": (1e-12, 1e-14), "half": (1e-3, 1e-3)}
# TensorFlow rounds every half operation to half; Rill computes a step in float. Rules that
# subtract near-equal terms (Adadelta's accum_update, Keras momentum's accum) differ by more.
HALF_TOL = {"Adadelta": (1e-2, 1e-2), "KerasMomentum": (1e-2, 1e-2)}


def _build(opt, resource, dt, shape, what, attrs_override, grad_shape=None):
    slots, params, grad_name, grad_pos, attrs = SPECS[opt]
    attrs_override = dict(attrs_override)
    # A hyperparameter named in attrs_override replaces its SPECS value.
    params = [(n, attrs_override.pop(n, v)) for n, v in params]
    attrs = dict(attrs, **attrs_override)
    base = "Apply%s/%s/%s" % (opt, dt, what)

    def build():
        inits = []
        handles = []
        for i, slot in enumerate(slots):
            # Slots like accum / v / ms must stay positive where a sqrt reads them.
            value = rand(dt, shape, base + "/" + slot, "positive" if i > 0 else "any")
            if slot in SLOT_SCALE:
                value = (value * SLOT_SCALE[slot]).astype(value.dtype)
            init = const(slot + "_init", value, dt)
            if resource:
                h = tf.raw_ops.VarHandleOp(dtype=dt, shape=shape, shared_name=slot, name=slot)
                inits.append(tf.raw_ops.AssignVariableOp(resource=h, value=init, name=slot + "_assign"))
                handles.append(h)
            else:
                v = tf.raw_ops.VariableV2(shape=shape, dtype=dt, name=slot)
                inits.append(tf.raw_ops.Assign(ref=v, value=init, name=slot + "_assign"))
                handles.append(v)
        inputs = [const(name, value, dt) for name, value in params]
        grad = ph("grad", rand(dt, grad_shape or shape, base + "/grad"), dt)
        inputs.insert(len(inputs) if grad_pos is None else grad_pos, grad)
        names = [p for p, _ in params]
        names.insert(len(names) if grad_pos is None else grad_pos, grad_name)
        kwargs = dict(zip(slots, handles), **dict(zip(names, inputs)), **attrs)
        with tf1.control_dependencies(inits):
            op = getattr(tf.raw_ops, ("ResourceApply" if resource else "Apply") + opt)
            step = op(name="out" if not resource else "step", **kwargs)
        if not resource:
            return step
        with tf1.control_dependencies([step]):
            return tf.raw_ops.ReadVariableOp(resource=handles[0], dtype=dt, name="out")
    return build


def _optimizer(rec, opt, resource):
    op = ("ResourceApply" if resource else "Apply") + opt

    def gen(dt):
        rtol, atol = HALF_TOL.get(opt, TOL[dt]) if dt == "half" else TOL[dt]

        def c(what, shape, error=None, phrases=(), grad_shape=None, **attrs):
            rec.case(op, dt, what, _build(opt, resource, dt, shape, what, attrs, grad_shape),
                     rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("vector", [5])
        c("matrix", [3, 4])
        if opt in ("Momentum", "Adam", "KerasMomentum"):
            c("nesterov", [6], use_nesterov=True)
        if opt in ("Ftrl", "FtrlV2"):
            c("linear_by_lr", [5], multiply_linear_by_lr=True)
            c("lr_power", [4], lr_power=-0.7)
            c("lr_power_by_lr", [4], lr_power=-0.7, multiply_linear_by_lr=True)
        if opt in ("Adagrad", "AdagradV2"):
            c("no_slot_update", [4], update_slots=False)
        c("grad_shape_error", [2, 3], grad_shape=[3], error="INVALID_ARGUMENT",
          phrases=["do not have the same shape"])

    rec.for_dtypes(op, FLOATS, gen)


def build_all(rec, emit):
    for opt in SPECS:
        for resource in (True,) if opt in RESOURCE_ONLY else (False, True):
            _optimizer(rec, opt, resource)
            emit(("ResourceApply" if resource else "Apply") + opt)
