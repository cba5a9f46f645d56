"""TensorFlow 1's API on Rill: `import rill.compat.v1 as tf`.

Every op of Rill's registry is here under its TensorFlow gen_*_ops name (tf.sin, tf.add_n, ...),
overridden by TensorFlow's hand-written functions where those differ (tf.matmul, tf.constant,
tf.reduce_sum, ...). Graph mode only: there is no eager execution.
"""
import types as _types

# saved_model_pb2 before the others: with protobuf 3.21's C++ implementation (Debian's),
# importing it after them made SavedModel.meta_graphs.add() fail with "No message class
# registered for 'rill.MetaGraphDef'" (api_saved_model_builder.py).
from rill._proto import saved_model_pb2 as _saved_model_pb2  # noqa: F401
from rill._proto import config_pb2 as _config_pb2
from rill._proto import graph_pb2 as _graph_pb2
from rill._proto import meta_graph_pb2 as _meta_graph_pb2
from rill._proto import node_def_pb2 as _node_def_pb2
from rill._proto import attr_value_pb2 as _attr_value_pb2
from rill._proto import tensor_pb2 as _tensor_pb2
from rill._proto import tensor_shape_pb2 as _tensor_shape_pb2
from rill._proto import op_def_pb2 as _op_def_pb2
from rill.ops import gen_ops as _gen_ops
from rill.ops.gen_ops import *  # noqa: F401,F403 (every registered op)
from rill.ops.gen_ops import raw_ops  # noqa: F401
from rill.framework import dtypes as _dtypes
from rill.framework import errors  # noqa: F401
from rill.framework import ops as _ops
from rill.framework import tensor_util as _tensor_util
from rill.framework.dtypes import DType, as_dtype  # noqa: F401
from rill.framework.ops import (Graph, Operation, Tensor, GraphKeys, get_default_graph,  # noqa
                                reset_default_graph, device, colocate_with, control_dependencies,
                                add_to_collection, get_collection, get_collection_ref,
                                convert_to_tensor, register_tensor_conversion_function)
from rill.framework.ops import name_scope_v1 as name_scope  # noqa: F401
from rill.framework.tensor_shape import TensorShape, Dimension  # noqa: F401
from rill.client.session import Session, InteractiveSession, get_default_session  # noqa: F401
from rill.ops.constant_op import constant, placeholder, placeholder_with_default  # noqa: F401
from rill.ops.math_ops import *  # noqa: F401,F403
from rill.ops.math_ops import (matmul, add_n, add, subtract, multiply, divide, truediv, cast,  # noqa
                               reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod,
                               reduce_all, reduce_any, argmax, argmin, range, abs, negative,
                               to_float, maximum, minimum, pow, equal, not_equal, less,
                               less_equal, greater, greater_equal, logical_and, logical_or,
                               logical_not, squared_difference, div, floordiv, realdiv, mod,
                               floormod, to_int32, to_int64, to_double, count_nonzero,
                               reduce_logsumexp, norm)
from rill.ops.math_ops import linspace as _math_linspace
from rill.ops.array_ops import (reshape, transpose, concat, stack, unstack, expand_dims,  # noqa
                                squeeze, shape, size, rank, fill, zeros, ones, zeros_like,
                                ones_like, identity, gather, one_hot, where, split, eye)
from rill.ops.variables import (Variable, global_variables, local_variables,  # noqa: F401
                                trainable_variables, variables_initializer,
                                global_variables_initializer, local_variables_initializer,
                                is_variable_initialized, report_uninitialized_variables)
from rill.ops.control_flow import group, no_op  # noqa: F401
from rill.ops.control_flow_v1 import cond, while_loop  # noqa: F401
from rill.ops.control_flow import tuple_ as tuple  # noqa: F401,A001

ConfigProto = _config_pb2.ConfigProto
GPUOptions = _config_pb2.GPUOptions
GraphOptions = _config_pb2.GraphOptions
OptimizerOptions = _config_pb2.OptimizerOptions
RunOptions = _config_pb2.RunOptions
RunMetadata = _config_pb2.RunMetadata
GraphDef = _graph_pb2.GraphDef
NodeDef = _node_def_pb2.NodeDef
MetaGraphDef = _meta_graph_pb2.MetaGraphDef
AttrValue = _attr_value_pb2.AttrValue
TensorProto = _tensor_pb2.TensorProto
TensorShapeProto = _tensor_shape_pb2.TensorShapeProto
OpDef = _op_def_pb2.OpDef

for _n in ("float16", "half", "float32", "float64", "double", "int8", "int16", "int32", "int64",
           "uint8", "uint16", "uint32", "uint64", "bool", "string", "complex64", "complex128",
           "resource", "variant", "bfloat16", "qint8", "quint8", "qint32"):
    globals()[_n] = _dtypes._BY_NAME[_n if _n != "bool" else "bool"]
float = _dtypes.float32  # noqa: A001 (tf.float is float32)
newaxis = None

initialize_all_variables = global_variables_initializer
linspace = lin_space = _math_linspace
initialize_variables = variables_initializer
make_tensor_proto = _tensor_util.make_tensor_proto
make_ndarray = _tensor_util.make_ndarray
assign = lambda ref, value, validate_shape=None, use_locking=None, name=None: (  # noqa: E731
    ref.assign(value, name=name) if hasattr(ref, "assign") else
    _gen_ops.assign(ref, value, name=name))
assign_add = lambda ref, value, use_locking=None, name=None: ref.assign_add(value, name=name)  # noqa
assign_sub = lambda ref, value, use_locking=None, name=None: ref.assign_sub(value, name=name)  # noqa


def executing_eagerly():
    return False


def disable_eager_execution():
    pass


def disable_v2_behavior():
    pass


def enable_eager_execution(*args, **kwargs):
    raise NotImplementedError("rill.compat.v1 runs graphs only: eager execution is not supported")


def set_random_seed(seed):
    get_default_graph().seed = seed


def get_seed(op_seed):
    g = get_default_graph().seed
    if g is not None:
        return g, (op_seed if op_seed is not None else len(get_default_graph().get_operations()))
    if op_seed is not None:
        return 87654321, op_seed
    return None, None


def _random(op_type, default_name):
    def fn(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None,
           minval=None, maxval=None):
        from rill.framework.op_def_library import apply_op as _apply
        with name_scope(name, default_name, []) as scope:
            s1, s2 = get_seed(seed)
            shape_t = shape if isinstance(shape, Tensor) else constant(list(shape), dtype=_dtypes.int32,
                                                                       name="shape")
            r = _apply(op_type, shape=shape_t, dtype=dtype, seed=s1 or 0, seed2=s2 or 0)
            if op_type == "RandomUniform":
                lo = 0.0 if minval is None else minval
                hi = 1.0 if maxval is None else maxval
                rng = subtract(constant(hi, dtype=dtype, name="max"), constant(lo, dtype=dtype, name="min"))
                return add(multiply(r, rng), constant(lo, dtype=dtype), name=scope)
            return add(multiply(r, constant(stddev, dtype=dtype, name="stddev")),
                       constant(mean, dtype=dtype, name="mean"), name=scope)
    return fn


random_normal = _random("RandomStandardNormal", "random_normal")
truncated_normal = _random("TruncatedNormal", "truncated_normal")
_ru = _random("RandomUniform", "random_uniform")


def random_uniform(shape, minval=0, maxval=None, dtype=_dtypes.float32, seed=None, name=None):
    return _ru(shape, dtype=dtype, seed=seed, name=name, minval=minval, maxval=maxval)


from rill.ops import nn  # noqa: E402,F401
from rill.ops.gradients import gradients  # noqa: E402,F401
from rill.ops.variable_scope import (get_variable, variable_scope, get_variable_scope,  # noqa
                                     zeros_initializer, ones_initializer, constant_initializer,
                                     random_normal_initializer, random_uniform_initializer,
                                     truncated_normal_initializer, glorot_uniform_initializer,
                                     AUTO_REUSE)
from rill.framework.importer import import_graph_def  # noqa: E402,F401
from rill import training as train  # noqa: E402,F401
from rill.ops import layers  # noqa: E402,F401
from rill.framework import graph_util  # noqa: E402,F401
from rill import tf_logging as logging  # noqa: E402,F401
from rill import platform_app as app  # noqa: E402,F401
from rill import summary  # noqa: E402,F401
flags = app.flags


def _write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """tf.train.write_graph: the GraphDef as text (as_text) or binary at logdir/name."""
    import os
    from google.protobuf import text_format
    gd = graph_or_graph_def.as_graph_def() if hasattr(graph_or_graph_def, "as_graph_def") \
        else graph_or_graph_def
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        with open(path, "w") as f:
            f.write(text_format.MessageToString(gd))
    else:
        with open(path, "wb") as f:
            f.write(gd.SerializeToString())
    return path


train.write_graph = _write_graph
from rill import saved_model  # noqa: E402,F401
