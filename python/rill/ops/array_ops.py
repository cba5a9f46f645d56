"""TensorFlow's hand-written array API (argument names and defaults as TensorFlow's)."""
import numpy as np

from rill.framework import dtypes, ops
from rill.framework.op_def_library import apply_op
from rill.ops import constant_op


def _int_tensor(x, dtype=dtypes.int32):
    if isinstance(x, ops.Tensor):
        return x
    return ops.convert_to_tensor(x, dtype=dtype)


def reshape(tensor, shape, name=None):
    return apply_op("Reshape", name=name, tensor=tensor, shape=_int_tensor(shape))


def transpose(a, perm=None, name="transpose", conjugate=False):
    with ops.name_scope_v1(name, "transpose") as scope:
        a = ops.convert_to_tensor(a, name="a")
        if perm is None:
            rank = a.shape.ndims
            if rank is None:
                r = apply_op("Rank", input=a)
                perm = apply_op("Sub", x=apply_op("Sub", x=r, y=1),
                                y=apply_op("Range", start=0, limit=r, delta=1))
            else:
                perm = np.arange(rank - 1, -1, -1, dtype=np.int32)
        return apply_op("Transpose", name=scope, x=a, perm=_int_tensor(perm))


def concat(values, axis, name="concat"):
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with ops.name_scope_v1(name, "concat") as scope:
            return apply_op("Identity", name=scope, input=values[0])
    return apply_op("ConcatV2", name=name, values=list(values), axis=_int_tensor(axis))


def stack(values, axis=0, name="stack"):
    return apply_op("Pack", name=name, values=list(values), axis=axis)


def unstack(value, num=None, axis=0, name="unstack"):
    value = ops.convert_to_tensor(value)
    if num is None:
        num = value.shape[axis]
    return apply_op("Unpack", name=name, value=value, num=num, axis=axis)


def expand_dims(input, axis=None, name=None, dim=None):
    axis = dim if axis is None else axis
    return apply_op("ExpandDims", name=name, input=input, dim=_int_tensor(axis))


def squeeze(input, axis=None, name=None, squeeze_dims=None):
    axis = squeeze_dims if axis is None else axis
    if isinstance(axis, int):
        axis = [axis]
    return apply_op("Squeeze", name=name, input=input, squeeze_dims=list(axis or []))


def shape(input, name=None, out_type=dtypes.int32):
    return apply_op("Shape", name=name, input=input, out_type=out_type)


def size(input, name=None, out_type=dtypes.int32):
    return apply_op("Size", name=name, input=input, out_type=out_type)


def rank(input, name=None):
    return apply_op("Rank", name=name, input=input)


def fill(dims, value, name=None):
    return apply_op("Fill", name=name, dims=_int_tensor(dims), value=value)


def zeros(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype).base_dtype
    with ops.name_scope_v1(name, "zeros") as scope:
        if isinstance(shape, ops.Tensor):
            return apply_op("Fill", name=scope, dims=shape,
                            value=constant_op.constant(0, dtype=dtype))
        return constant_op.constant(0, dtype=dtype, shape=list(shape), name=scope)


def ones(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype).base_dtype
    with ops.name_scope_v1(name, "ones") as scope:
        if isinstance(shape, ops.Tensor):
            return apply_op("Fill", name=scope, dims=shape,
                            value=constant_op.constant(1, dtype=dtype))
        return constant_op.constant(1, dtype=dtype, shape=list(shape), name=scope)


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    tensor = ops.convert_to_tensor(tensor)
    if dtype is not None and dtypes.as_dtype(dtype) != tensor.dtype.base_dtype:
        return zeros(shape(tensor), dtype=dtype, name=name)
    return apply_op("ZerosLike", name=name, x=tensor)


def ones_like(tensor, dtype=None, name=None, optimize=True):
    tensor = ops.convert_to_tensor(tensor)
    if dtype is not None and dtypes.as_dtype(dtype) != tensor.dtype.base_dtype:
        return ones(shape(tensor), dtype=dtype, name=name)
    return apply_op("OnesLike", name=name, x=tensor)


def identity(input, name=None):
    if hasattr(input, "_as_tensor_for_op"):
        input = input._as_tensor_for_op(False)
    return apply_op("Identity", name=name, input=input)


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    return apply_op("GatherV2", name=name, params=params, indices=indices,
                    axis=_int_tensor(0 if axis is None else axis), batch_dims=batch_dims)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    dtype = dtypes.as_dtype(dtype or dtypes.float32)
    on = ops.convert_to_tensor(1 if on_value is None else on_value, dtype=dtype)
    off = ops.convert_to_tensor(0 if off_value is None else off_value, dtype=dtype)
    return apply_op("OneHot", name=name, indices=indices, depth=_int_tensor(depth), on_value=on,
                    off_value=off, axis=-1 if axis is None else axis)


def where(condition, x=None, y=None, name=None):
    if x is None and y is None:
        return apply_op("Where", name=name, input=condition)
    return apply_op("Select", name=name, condition=condition, t=x, e=y)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    if isinstance(num_or_size_splits, int):
        return apply_op("Split", name=name, axis=_int_tensor(axis), value=value,
                        num_split=num_or_size_splits)
    sizes = _int_tensor(num_or_size_splits)
    n = num if num is not None else len(num_or_size_splits)
    return apply_op("SplitV", name=name, value=value, size_splits=sizes, axis=_int_tensor(axis),
                    num_split=n)


def strided_slice_index(t, i):
    return getitem(t, i)


def getitem(tensor, key):
    """tensor[key] for ints, slices, Ellipsis and None (tf.newaxis), as a StridedSlice."""
    if not isinstance(key, tuple):
        key = (key,)
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_mask = 0
    for i, k in enumerate(key):
        if isinstance(k, slice):
            begin.append(0 if k.start is None else k.start)
            end.append(0 if k.stop is None else k.stop)
            strides.append(1 if k.step is None else k.step)
            if k.start is None:
                begin_mask |= 1 << i
            if k.stop is None:
                end_mask |= 1 << i
        elif k is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            ellipsis_mask |= 1 << i
        elif k is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            new_axis_mask |= 1 << i
        else:
            begin.append(k)
            end.append(k + 1 if isinstance(k, int) else k + 1)
            strides.append(1)
            shrink_mask |= 1 << i
    with ops.name_scope_v1(None, "strided_slice") as scope:
        return apply_op("StridedSlice", name=scope, input=tensor,
                        begin=stack(begin) if any(isinstance(b, ops.Tensor) for b in begin)
                        else _int_tensor(begin),
                        end=stack(end) if any(isinstance(e, ops.Tensor) for e in end)
                        else _int_tensor(end),
                        strides=_int_tensor(strides), begin_mask=begin_mask, end_mask=end_mask,
                        ellipsis_mask=ellipsis_mask, new_axis_mask=new_axis_mask,
                        shrink_axis_mask=shrink_mask)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """The identity matrix (batch_shape not supported)."""
    if batch_shape:
        raise NotImplementedError("rill's tf.eye takes no batch_shape")
    import numpy as np
    cols = num_rows if num_columns is None else num_columns
    return constant_op.constant(np.eye(num_rows, cols), dtype=dtype, name=name or "eye")
