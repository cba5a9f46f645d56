"""TensorFlow's hand-written math API over the generated ops, and the Tensor operators."""
import numpy as np

from rill.framework import dtypes, ops
from rill.framework.op_def_library import apply_op
from rill.ops import gen_ops


def _scope(name, default):
    return ops.name_scope_v1(name, default)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    with _scope(name, "MatMul") as scope:
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, name="b", dtype=a.dtype.base_dtype)
        ra, rb = a.shape.ndims, b.shape.ndims
        if (ra is None or ra > 2) or (rb is None or rb > 2):
            return apply_op("BatchMatMulV2", name=scope, x=a, y=b, adj_x=transpose_a or adjoint_a,
                            adj_y=transpose_b or adjoint_b)
        return apply_op("MatMul", name=scope, a=a, b=b, transpose_a=transpose_a or adjoint_a,
                        transpose_b=transpose_b or adjoint_b)


def add_n(inputs, name=None):
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("inputs must be a list of at least one Tensor/IndexedSlices with the "
                         "same dtype and shape")
    inputs = [ops.convert_to_tensor(x) for x in inputs]
    if len(inputs) == 1:
        return gen_ops.identity(inputs[0], name=name)
    return apply_op("AddN", name=name, inputs=inputs)


def _binary(op_type, default_name):
    def fn(x, y, name=None):
        with _scope(name, default_name) as scope:
            if not isinstance(x, ops.Tensor) and hasattr(x, "_as_tensor_for_op"):
                x = x._as_tensor_for_op(False)
            if isinstance(x, ops.Tensor):
                if hasattr(y, "_as_tensor_for_op"):
                    y = y._as_tensor_for_op(False)
                if not isinstance(y, ops.Tensor):
                    y = ops.convert_to_tensor(y, dtype=x.dtype.base_dtype, name="y")
            else:
                if hasattr(y, "_as_tensor_for_op"):
                    y = y._as_tensor_for_op(False)
                y = ops.convert_to_tensor(y, name="y")
                x = ops.convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
            return apply_op(op_type, name=scope, x=x, y=y)
    fn.__name__ = default_name
    return fn


add = _binary("AddV2", "Add")
subtract = _binary("Sub", "Sub")
multiply = _binary("Mul", "Mul")
maximum = _binary("Maximum", "Maximum")
minimum = _binary("Minimum", "Minimum")
pow = _binary("Pow", "Pow")
squared_difference = _binary("SquaredDifference", "SquaredDifference")
equal = _binary("Equal", "Equal")
not_equal = _binary("NotEqual", "NotEqual")
less = _binary("Less", "Less")
less_equal = _binary("LessEqual", "LessEqual")
greater = _binary("Greater", "Greater")
greater_equal = _binary("GreaterEqual", "GreaterEqual")
logical_and = _binary("LogicalAnd", "LogicalAnd")
logical_or = _binary("LogicalOr", "LogicalOr")
floormod = _binary("FloorMod", "FloorMod")
floordiv = _binary("FloorDiv", "FloorDiv")
realdiv = _binary("RealDiv", "RealDiv")
div = _binary("RealDiv", "div")


def divide(x, y, name=None):
    return truediv(x, y, name=name)


def truediv(x, y, name=None):
    with _scope(name, "truediv") as scope:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        if x.dtype.is_integer:
            dt = dtypes.float64 if x.dtype.base_dtype in (dtypes.int32, dtypes.int64) else dtypes.float32
            x = cast(x, dt)
            y = cast(y, dt)
        return apply_op("RealDiv", name=scope, x=x, y=y)


def cast(x, dtype, name=None):
    dtype = dtypes.as_dtype(dtype).base_dtype
    if hasattr(x, "_as_tensor_for_op"):
        x = x._as_tensor_for_op(False)
    if isinstance(x, ops.Tensor) and x.dtype.base_dtype == dtype:
        return x
    with _scope(name, "Cast") as scope:
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.base_dtype == dtype:
            return x
        return apply_op("Cast", name=scope, x=x, DstT=dtype)


def to_float(x, name="ToFloat"):
    return cast(x, dtypes.float32, name=name)


def _reduction_dims(x, axis):
    if axis is not None:
        return axis
    rank = x.shape.ndims
    if rank is not None:
        return np.arange(rank, dtype=np.int32)
    return gen_ops.range(0, gen_ops.rank(x), 1)


def _reducer(op_type, default_name):
    def fn(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
           keep_dims=None):
        if axis is None:
            axis = reduction_indices
        keep = bool(keepdims if keepdims is not None else (keep_dims or False))
        x = ops.convert_to_tensor(input_tensor)
        with _scope(name, default_name) as scope:
            dims = _reduction_dims(x, axis)
            return apply_op(op_type, name=scope, input=x,
                            reduction_indices=ops.convert_to_tensor(dims, dtype=dtypes.int32)
                            if not isinstance(dims, ops.Tensor) else dims, keep_dims=keep)
    fn.__name__ = default_name
    return fn


reduce_sum = _reducer("Sum", "Sum")
reduce_mean = _reducer("Mean", "Mean")
reduce_max = _reducer("Max", "Max")
reduce_min = _reducer("Min", "Min")
reduce_prod = _reducer("Prod", "Prod")
reduce_all = _reducer("All", "All")
reduce_any = _reducer("Any", "Any")


def argmax(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):
    axis = 0 if axis is None and dimension is None else (axis if axis is not None else dimension)
    return apply_op("ArgMax", name=name, input=input,
                    dimension=ops.convert_to_tensor(axis, dtype=dtypes.int32), output_type=output_type)


def argmin(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):
    axis = 0 if axis is None and dimension is None else (axis if axis is not None else dimension)
    return apply_op("ArgMin", name=name, input=input,
                    dimension=ops.convert_to_tensor(axis, dtype=dtypes.int32), output_type=output_type)


def range(start, limit=None, delta=1, dtype=None, name="range"):
    if limit is None:
        start, limit = 0, start
    with _scope(name, "Range") as scope:
        vals = [start, limit, delta]
        dt = dtype
        if dt is None:
            dt = dtypes.float32 if any(isinstance(v, float) or (isinstance(v, ops.Tensor) and
                                       v.dtype.is_floating) for v in vals) else dtypes.int32
        start, limit, delta = [cast(ops.convert_to_tensor(v), dt) if isinstance(v, ops.Tensor)
                               else ops.convert_to_tensor(v, dtype=dt) for v in vals]
        return apply_op("Range", name=scope, start=start, limit=limit, delta=delta)


def abs(x, name=None):
    return gen_ops.abs(x, name=name)


def negative(x, name=None):
    return gen_ops.neg(x, name=name)


def logical_not(x, name=None):
    return gen_ops.logical_not(x, name=name)


def _install_operators(cls):
    def _bin(fn, scope_name):
        def f(self, other):
            with ops.name_scope_v1(None, scope_name) as s:
                return fn(self, other, name=s)

        def rf(self, other):
            with ops.name_scope_v1(None, scope_name) as s:
                return fn(ops.convert_to_tensor(other, dtype=_dt(self)), self, name=s)
        return f, rf

    def _dt(self):
        return self.dtype.base_dtype

    for attr, fn, scope_name in [("add", add, "add"), ("sub", subtract, "sub"),
                                 ("mul", multiply, "mul"), ("truediv", truediv, "truediv"),
                                 ("floordiv", floordiv, "floordiv"), ("mod", floormod, "mod"),
                                 ("pow", pow, "pow"), ("matmul", matmul, "matmul"),
                                 ("and", logical_and, "and"), ("or", logical_or, "or")]:
        f, rf = _bin(fn, scope_name)
        setattr(cls, "__%s__" % attr, f)
        setattr(cls, "__r%s__" % attr, rf)
    cls.__div__ = cls.__truediv__
    cls.__lt__ = lambda self, o: less(self, o)
    cls.__le__ = lambda self, o: less_equal(self, o)
    cls.__gt__ = lambda self, o: greater(self, o)
    cls.__ge__ = lambda self, o: greater_equal(self, o)
    cls.__neg__ = lambda self: gen_ops.neg(self)
    cls.__abs__ = lambda self: gen_ops.abs(self)
    cls.__invert__ = lambda self: gen_ops.logical_not(self)

    def getitem(self, key):
        from rill.ops import array_ops
        return array_ops.getitem(self, key)
    cls.__getitem__ = getitem


_install_operators(ops.Tensor)


mod = floormod


def to_int32(x, name="ToInt32"):
    return cast(x, dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    return cast(x, dtypes.int64, name=name)


def to_double(x, name="ToDouble"):
    return cast(x, dtypes.float64, name=name)


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):
    x = ops.convert_to_tensor(input if input_tensor is None else input_tensor)
    with _scope(name, "count_nonzero"):
        zero = ops.convert_to_tensor(0, dtype=x.dtype.base_dtype)
        nonzero = cast(apply_op("NotEqual", x=x, y=zero), dtypes.int64)
        return cast(reduce_sum(nonzero, axis=axis, keepdims=keepdims,
                               reduction_indices=reduction_indices, keep_dims=keep_dims), dtype)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None, reduction_indices=None,
                     keep_dims=None):
    keep = bool(keepdims or keep_dims)
    axis = reduction_indices if axis is None else axis
    with _scope(name, "ReduceLogSumExp"):
        x = ops.convert_to_tensor(input_tensor)
        raw_max = reduce_max(x, axis=axis, keepdims=True)
        my_max = apply_op("StopGradient", input=apply_op(
            "Select", condition=apply_op("IsFinite", x=raw_max), t=raw_max,
            e=apply_op("ZerosLike", x=raw_max)))
        result = apply_op("Log", x=reduce_sum(apply_op("Exp", x=subtract(x, my_max)), axis=axis,
                                              keepdims=keep))
        if not keep:
            from rill.ops import array_ops
            my_max = array_ops.reshape(my_max, apply_op("Shape", input=result))
        return add(result, my_max)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):
    if ord not in ("euclidean", 2, "fro") or (axis is not None and not isinstance(axis, int)):
        raise NotImplementedError("rill's tf.norm computes the Euclidean norm over one axis or all")
    with _scope(name, "norm"):
        x = ops.convert_to_tensor(tensor)
        return apply_op("Sqrt", x=reduce_sum(apply_op("Square", x=x), axis=axis,
                                             keepdims=bool(keepdims or keep_dims)))


def linspace(start, stop, num, name=None, axis=0):
    """num evenly spaced values from start to stop (both included); Rill's registry has no
    LinSpace op, so it is start + Range(num) * step, with the last value set to stop."""
    with _scope(name, "LinSpace"):
        start = ops.convert_to_tensor(start)
        dt = start.dtype.base_dtype
        stop = ops.convert_to_tensor(stop, dtype=dt)
        num_t = ops.convert_to_tensor(num, dtype=dtypes.int32)
        n_minus_1 = cast(apply_op("Maximum", x=apply_op("Sub", x=num_t, y=1), y=1), dt)
        step = apply_op("RealDiv", x=apply_op("Sub", x=stop, y=start), y=n_minus_1)
        idx = cast(apply_op("Range", start=ops.convert_to_tensor(0), limit=num_t,
                            delta=ops.convert_to_tensor(1)), dt)
        values = add(start, multiply(idx, step))
        # The last value is stop exactly (as TensorFlow's kernel).
        last = apply_op("Sub", x=num_t, y=1)
        is_last = apply_op("Equal", x=apply_op("Range", start=ops.convert_to_tensor(0),
                                                    limit=num_t, delta=ops.convert_to_tensor(1)),
                           y=last)
        return apply_op("Select", condition=is_last,
                        t=apply_op("Fill", dims=apply_op("Reshape", tensor=num_t,
                                                         shape=ops.convert_to_tensor([1])),
                                   value=stop), e=values)
