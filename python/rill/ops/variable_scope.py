"""tf.variable_scope / tf.get_variable: variables shared by name within a graph, and the
initializers get_variable takes."""
import contextlib
import math

import numpy as np

from rill.framework import dtypes, ops
from rill.framework.op_def_library import apply_op
from rill.framework.tensor_shape import TensorShape

AUTO_REUSE = "AUTO_REUSE"


class _Scope(object):
    def __init__(self, name, reuse, initializer):
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.original_name_scope = name + "/" if name else ""

    def reuse_variables(self):
        self.reuse = True


def _state(g):
    if g._var_scope is None:
        g._var_scope = [_Scope("", False, None)]
    return g._var_scope


def get_variable_scope():
    return _state(ops.get_default_graph())[-1]


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, reuse=None,
                   dtype=None, use_resource=None, auxiliary_name_scope=True, **kwargs):
    g = ops.get_default_graph()
    stack = _state(g)
    parent = stack[-1]
    if isinstance(name_or_scope, _Scope):
        full = name_or_scope.name
        name_scope_name = full + "/" if full else ""
    else:
        if name_or_scope is None:
            base = default_name
            # unique among sibling variable scopes
            counts = g._variable_store.setdefault("__scope_counts__", {})
            key = (parent.name + "/" + base) if parent.name else base
            n = counts.get(key, 0)
            counts[key] = n + 1
            name_or_scope = base if n == 0 else "%s_%d" % (base, n)
        full = parent.name + "/" + name_or_scope if parent.name else name_or_scope
        name_scope_name = name_or_scope
    if reuse is None or reuse is False:
        reuse = parent.reuse if parent.reuse else reuse
    scope = _Scope(full, reuse, initializer or parent.initializer)
    stack.append(scope)
    try:
        if auxiliary_name_scope:
            with g.name_scope(name_scope_name) as ns:
                scope.original_name_scope = ns
                yield scope
        else:
            yield scope
    finally:
        stack.pop()


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 **kwargs):
    from rill.ops.variables import Variable
    g = ops.get_default_graph()
    scope = _state(g)[-1]
    full = scope.name + "/" + name if scope.name else name
    store = g._variable_store
    if full in store:
        if scope.reuse is False or scope.reuse is None:
            raise ValueError("Variable %s already exists, disallowed. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?" % full)
        v = store[full]
        if shape is not None and not TensorShape(shape).is_compatible_with(v.shape):
            raise ValueError("Trying to share variable %s, but specified shape %s and found shape "
                             "%s." % (full, TensorShape(shape), v.shape))
        return v
    if scope.reuse is True:
        raise ValueError("Variable %s does not exist, or was not created with tf.get_variable(). "
                         "Did you mean to set reuse=tf.AUTO_REUSE in VarScope?" % full)
    dtype = dtypes.as_dtype(dtype or dtypes.float32)
    init = initializer if initializer is not None else scope.initializer
    if init is None:
        init = glorot_uniform_initializer() if dtype.is_floating else zeros_initializer()
    with g.name_scope(None):
        with _abs_scope(g, ""):
            if isinstance(init, ops.Tensor) or not callable(init):
                value = init
                v = Variable(value, name=full, dtype=dtype if not isinstance(init, ops.Tensor) else None,
                             trainable=trainable, collections=collections,
                             validate_shape=validate_shape, use_resource=use_resource)
            else:
                shp = TensorShape(shape).as_list()
                v = Variable(lambda: init(shp, dtype=dtype), name=full, trainable=trainable,
                             collections=collections, validate_shape=validate_shape,
                             use_resource=use_resource)
    store[full] = v
    return v


@contextlib.contextmanager
def _abs_scope(g, name):
    old = g._name_stack
    g._name_stack = name
    try:
        yield
    finally:
        g._name_stack = old


class _Init(object):
    def __init__(self, fn):
        self._fn = fn

    def __call__(self, shape, dtype=dtypes.float32, partition_info=None):
        return self._fn(shape, dtypes.as_dtype(dtype or dtypes.float32))


def zeros_initializer(dtype=dtypes.float32):
    from rill.ops import array_ops
    return _Init(lambda shape, dt: array_ops.zeros(shape, dt))


def ones_initializer(dtype=dtypes.float32):
    from rill.ops import array_ops
    return _Init(lambda shape, dt: array_ops.ones(shape, dt))


def constant_initializer(value=0, dtype=dtypes.float32, verify_shape=False):
    from rill.ops import constant_op
    return _Init(lambda shape, dt: constant_op.constant(value, dtype=dt, shape=shape))


def _random_op(op_type, shape, dt, seed):
    from rill.compat import v1
    from rill.ops import constant_op
    s1, s2 = v1.get_seed(seed)
    return apply_op(op_type, shape=constant_op.constant(list(shape), dtype=dtypes.int32, name="shape"),
                    dtype=dt, seed=s1 or 0, seed2=s2 or 0)


def random_uniform_initializer(minval=-0.05, maxval=0.05, seed=None, dtype=dtypes.float32):
    from rill.ops import math_ops

    def fn(shape, dt):
        with ops.name_scope_v1(None, "random_uniform"):
            r = _random_op("RandomUniform", shape, dt, seed)
            return math_ops.add(math_ops.multiply(r, maxval - minval), minval)
    return _Init(fn)


def random_normal_initializer(mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
    from rill.ops import math_ops

    def fn(shape, dt):
        with ops.name_scope_v1(None, "random_normal"):
            r = _random_op("RandomStandardNormal", shape, dt, seed)
            return math_ops.add(math_ops.multiply(r, stddev), mean)
    return _Init(fn)


def truncated_normal_initializer(mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
    from rill.ops import math_ops

    def fn(shape, dt):
        with ops.name_scope_v1(None, "truncated_normal"):
            r = _random_op("TruncatedNormal", shape, dt, seed)
            return math_ops.add(math_ops.multiply(r, stddev), mean)
    return _Init(fn)


def glorot_uniform_initializer(seed=None, dtype=dtypes.float32):
    def fn(shape, dt):
        if len(shape) < 1:
            fan_in = fan_out = 1
        elif len(shape) == 1:
            fan_in = fan_out = shape[0]
        else:
            rf = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
            fan_in, fan_out = shape[-2] * rf, shape[-1] * rf
        limit = math.sqrt(6.0 / max(1.0, (fan_in + fan_out)))
        return random_uniform_initializer(-limit, limit, seed)(shape, dt)
    return _Init(fn)
