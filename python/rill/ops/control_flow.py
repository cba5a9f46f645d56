"""tf.group, tf.no_op, tf.tuple."""
from rill.framework import ops
from rill.framework.op_def_library import apply_op


def no_op(name=None):
    return apply_op("NoOp", name=name)


def group(*inputs, **kwargs):
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError("Unknown keyword arguments: " + ", ".join(kwargs))
    flat = []
    for x in inputs:
        if isinstance(x, (list, tuple)):
            flat.extend(x)
        else:
            flat.append(x)
    with ops.name_scope_v1(name, "group_deps") as scope:
        if not flat:
            return no_op(name=scope)
        deps = [ops._as_operation(x) for x in flat if x is not None]
        with ops.control_dependencies(deps):
            return no_op(name=scope)


def tuple_(tensors, name=None, control_inputs=None):
    """tf.tuple."""
    with ops.name_scope_v1(name, "tuple"):
        tensors = [ops.convert_to_tensor(t) if t is not None else None for t in tensors]
        gate = group([t for t in tensors if t is not None] + list(control_inputs or []))
        out = []
        with ops.control_dependencies([gate]):
            for t in tensors:
                out.append(None if t is None else apply_op("Identity", input=t))
        return out
