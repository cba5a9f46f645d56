"""tf.gradients over Rill's C API gradient builder (RILL_AddGradientsWithOptions)."""

from rill import _c
from rill.framework import ops


def _require():
    if _c.RILL_AddGradientsWithOptions is None:
        raise NotImplementedError(
            "tf.gradients needs RILL_AddGradientsWithOptions, which this libtensorflow.so.2 does "
            "not export; rebuild the library from a Rill checkout that has it")


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """The symbolic partial derivatives of sum(ys) with respect to each of xs (None where a
    x does not reach ys, unless unconnected_gradients='zero')."""
    _require()
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    xs_in = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    ys = [ops.convert_to_tensor(y) for y in ys]
    xs = [x._as_tensor_for_op(True) if hasattr(x, "_as_tensor_for_op") else ops.convert_to_tensor(x)
          for x in xs_in]
    g = ys[0].graph
    stops = [s._as_tensor_for_op(False) if hasattr(s, "_as_tensor_for_op")
             else ops.convert_to_tensor(s) for s in (stop_gradients or [])]
    with g.as_default():
        if grad_ys is not None:
            grad_ys = [None if gy is None else ops.convert_to_tensor(gy, dtype=y.dtype.base_dtype)
                       for gy, y in zip(grad_ys, ys)]
        prefix = g.unique_name(name or "gradients")
    ny, nx = len(ys), len(xs)
    y_arr = (_c.TF_Output * ny)(*[y._as_tf_output() for y in ys])
    x_arr = (_c.TF_Output * nx)(*[x._as_tf_output() for x in xs])
    dx = None
    if grad_ys is not None:
        if any(gy is None for gy in grad_ys):
            from rill.ops import array_ops
            grad_ys = [array_ops.ones_like(y) if gy is None else gy for gy, y in zip(grad_ys, ys)]
        dx = (_c.TF_Output * ny)(*[gy._as_tf_output() for gy in grad_ys])
    stop_arr = (_c.TF_Output * len(stops))(*[s._as_tf_output() for s in stops]) if stops else None
    dy = (_c.TF_Output * nx)()
    first_new = len(g._ops)
    status = _c.Status()
    _c.RILL_AddGradientsWithOptions(g._c_graph, prefix.encode(), y_arr, ny, x_arr, nx, dx, stop_arr,
                                    len(stops), 1 if colocate_gradients_with_ops else 0,
                                    1 if unconnected_gradients == "zero" else 0,
                                    1 if gate_gradients else 0, status.ptr, dy)
    status.raise_if_error()
    g._sync_from_c()
    _place_new_ops(g, g._ops[first_new:])
    out = []
    for i in range(nx):
        if not dy[i].oper:
            out.append(None)
        else:
            out.append(g._op_for_ptr(dy[i].oper)._outputs[dy[i].index])
    return out


def _place_new_ops(g, new_ops):
    """Gives the gradient operations the device the graph's device stack picks (strings and
    device functions, as for any op built here); colocated ones keep their forward op's."""
    if not g._device_stack or _c.RILL_SetOperationDevice is None:
        return
    status = _c.Status()
    for op in new_ops:
        if op.device:
            continue
        pending = ops._PendingOperation(op.node_def, op.type, list(op.inputs), g)
        device = g._current_device(pending)
        if device:
            _c.RILL_SetOperationDevice(g._c_graph, op._c_op, device.encode(), status.ptr)
            status.raise_if_error()
            op._device = None


class UnconnectedGradients(object):
    NONE = "none"
    ZERO = "zero"
