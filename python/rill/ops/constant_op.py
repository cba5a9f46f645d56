"""tf.constant, tf.placeholder and their relatives."""
import numpy as np

from rill.framework import dtypes, ops, tensor_util
from rill.framework.tensor_shape import TensorShape
from rill.framework import op_def_library


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    if isinstance(value, ops.Tensor):
        raise TypeError("Expected any non-tensor type, but got a tensor instead.")
    proto = tensor_util.make_tensor_proto(value, dtype=dtype, shape=shape, verify_shape=verify_shape)
    dt = dtypes.as_dtype(proto.dtype)
    g = ops.get_default_graph()
    attrs = {"value": op_def_library.make_attr("tensor", proto),
             "dtype": op_def_library.make_attr("type", dt)}
    op = g.create_op("Const", [], name=name, attrs=attrs)
    return op.outputs[0]


def placeholder(dtype, shape=None, name=None):
    attrs = {"dtype": op_def_library.make_attr("type", dtypes.as_dtype(dtype))}
    if shape is not None:
        attrs["shape"] = op_def_library.make_attr("shape", TensorShape(shape))
    else:
        attrs["shape"] = op_def_library.make_attr("shape", TensorShape(None))
    return ops.get_default_graph().create_op("Placeholder", [], name=name or "Placeholder",
                                            attrs=attrs).outputs[0]


def placeholder_with_default(input, shape, name=None):
    return op_def_library.apply_op("PlaceholderWithDefault", name=name, input=input,
                                   shape=TensorShape(shape))


def _constant_conversion(value, dtype=None, name=None, as_ref=False):
    return constant(value, dtype=dtype, name=name or "Const")


ops.register_tensor_conversion_function((list, tuple, int, float, bool, str, bytes, np.ndarray,
                                         np.generic), _constant_conversion, 200)
