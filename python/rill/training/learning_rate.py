"""TF1 learning-rate schedules over the global step."""
from rill.framework import ops
from rill.framework.op_def_library import apply_op
from rill.ops import math_ops


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps) (floor of the ratio when
    staircase)."""
    if global_step is None:
        raise ValueError("global_step is required for exponential_decay.")
    with ops.name_scope_v1(name, "ExponentialDecay") as scope:
        lr = ops.convert_to_tensor(learning_rate, name="learning_rate")
        dt = lr.dtype.base_dtype
        step = math_ops.cast(global_step, dt)
        steps = math_ops.cast(decay_steps, dt)
        rate = math_ops.cast(decay_rate, dt)
        p = apply_op("RealDiv", x=step, y=steps)
        if staircase:
            p = apply_op("Floor", x=p)
        return math_ops.multiply(lr, apply_op("Pow", x=rate, y=p), name=scope)


def piecewise_constant(x, boundaries, values, name=None):
    """values[i] where boundaries[i-1] < x <= boundaries[i] (values[0] up to boundaries[0])."""
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    with ops.name_scope_v1(name, "PiecewiseConstant"):
        x = ops.convert_to_tensor(x)
        vals = [ops.convert_to_tensor(v) for v in values]
        result = vals[-1]
        for b, v in reversed(list(zip(boundaries, vals[:-1]))):
            bt = ops.convert_to_tensor(b, dtype=x.dtype.base_dtype)
            result = apply_op("Select", condition=apply_op("LessEqual", x=x, y=bt), t=v, e=result)
        return result


