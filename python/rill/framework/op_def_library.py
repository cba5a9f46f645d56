"""Ops from Rill's registry (TF_GetAllOpList) applied by their OpDefs, as TensorFlow's
op_def_library does: inputs converted to tensors, type and length attrs inferred, attrs set as
AttrValue protos. gen_op_function(op_def) makes the Python function of one op.
"""
import re

from rill import _c
from rill._proto import attr_value_pb2, op_def_pb2
from rill.framework import dtypes, ops
from rill.framework.tensor_shape import TensorShape

_OP_DEFS = None


def op_defs():
    global _OP_DEFS
    if _OP_DEFS is None:
        buf = _c.TF_GetAllOpList()
        try:
            lst = op_def_pb2.OpList()
            lst.ParseFromString(_c.buffer_bytes(buf))
        finally:
            _c.TF_DeleteBuffer(buf)
        _OP_DEFS = {o.name: o for o in lst.op}
    return _OP_DEFS


def op_def(op_type):
    d = op_defs().get(op_type)
    if d is None:
        raise ValueError("Op type not registered '%s' in binary running Rill." % op_type)
    return d


def make_attr(attr_type, value):
    """An AttrValue of OpDef attr type attr_type ('int', 'list(type)', ...) holding value."""
    v = attr_value_pb2.AttrValue()
    if isinstance(value, attr_value_pb2.AttrValue):
        return value
    if attr_type.startswith("list("):
        inner = attr_type[5:-1]
        lst = v.list
        for x in value:
            if inner == "type":
                lst.type.append(dtypes.as_dtype(x).as_datatype_enum)
            elif inner == "int":
                lst.i.append(int(x))
            elif inner == "float":
                lst.f.append(float(x))
            elif inner == "bool":
                lst.b.append(bool(x))
            elif inner == "string":
                lst.s.append(x.encode() if isinstance(x, str) else bytes(x))
            elif inner == "shape":
                lst.shape.add().CopyFrom(_shape_proto(x))
            elif inner == "tensor":
                from rill.framework import tensor_util
                lst.tensor.add().CopyFrom(tensor_util.make_tensor_proto(x))
            elif inner == "func":
                lst.func.add().name = x if isinstance(x, str) else x.name
        if not value:
            v.list.SetInParent()
        return v
    if attr_type == "type":
        v.type = dtypes.as_dtype(value).as_datatype_enum
    elif attr_type == "int":
        v.i = int(value)
    elif attr_type == "float":
        v.f = float(value)
    elif attr_type == "bool":
        v.b = bool(value)
    elif attr_type == "string":
        v.s = value.encode() if isinstance(value, str) else bytes(value)
    elif attr_type == "shape":
        v.shape.CopyFrom(_shape_proto(value))
    elif attr_type == "tensor":
        from rill.framework import tensor_util
        v.tensor.CopyFrom(value if hasattr(value, "tensor_shape") else tensor_util.make_tensor_proto(value))
    elif attr_type == "func":
        v.func.name = value if isinstance(value, str) else value.name
    else:
        raise TypeError("Unsupported attr type %s" % attr_type)
    return v


def _shape_proto(s):
    if hasattr(s, "dim") and hasattr(s, "unknown_rank"):
        return s
    return TensorShape(s).as_proto()


def _is_tensor_like(x):
    return isinstance(x, ops.Tensor) or hasattr(x, "_as_tensor_for_op")


def _as_tensor(x, dtype=None, as_ref=False, preferred=None, name=None):
    if hasattr(x, "_as_tensor_for_op"):
        x = x._as_tensor_for_op(as_ref)
        if dtype is not None and x.dtype.base_dtype != dtypes.as_dtype(dtype).base_dtype:
            raise TypeError("Input has type %s that does not match expected type %s." % (
                x.dtype.name, dtypes.as_dtype(dtype).name))
        return x
    if isinstance(x, ops.Tensor):
        if dtype is not None and x.dtype.base_dtype != dtypes.as_dtype(dtype).base_dtype:
            raise TypeError("Input '%s' has type %s that does not match expected type %s." % (
                name, x.dtype.name, dtypes.as_dtype(dtype).name))
        return x
    return ops.convert_to_tensor(x, dtype=dtype, preferred_dtype=preferred, name=name)


def _graph_of(kwargs, od):
    for arg in od.input_arg:
        val = kwargs.get(arg.name)
        vals = val if isinstance(val, (list, tuple)) else [val]
        for v in vals:
            if isinstance(v, ops.Tensor):
                return v.graph
            if hasattr(v, "_as_tensor_for_op"):
                return v.graph
    return ops.get_default_graph()


def apply_op(op_type, name=None, **kwargs):
    """Builds op_type with inputs and attrs from kwargs; returns its outputs as TensorFlow does.

    As TensorFlow's op_def_library: the op's name scope (name, or the op type) is entered first,
    so inputs converted from Python values are Consts named after their argument (Assign/value)."""
    od = op_def(op_type)
    g = _graph_of(kwargs, od)
    with g.as_default(), g.name_scope(name or op_type) as scope:
        attrs = _convert_and_infer(od, kwargs)
        inputs = attrs.pop("__inputs__")
        op = g.create_op(op_type, inputs, name=scope, attrs=attrs)
    return _outputs_of(op, od)


def _convert_and_infer(od, kwargs):
    op_type = od.name
    attr_defs = {a.name: a for a in od.attr}
    attrs = {}
    inferred = {}
    inferred_from = {}  # type attr -> the input argument it was inferred from
    input_names = {i.name for i in od.input_arg}
    for k in kwargs:
        if k not in attr_defs and k not in input_names:
            raise TypeError("%s() got an unexpected keyword argument '%s'" % (op_type, k))
    # Pass 1: type and length attrs from inputs that already are tensors.
    for arg in od.input_arg:
        if arg.name not in kwargs:
            raise TypeError("%s missing required input argument '%s'" % (op_type, arg.name))
        val = kwargs[arg.name]
        if arg.number_attr or arg.type_list_attr:
            if not isinstance(val, (list, tuple)):
                raise TypeError("Expected list for '%s' argument to '%s' Op, not %r." % (
                    arg.name, op_type, val))
            if arg.number_attr:
                inferred[arg.number_attr] = len(val)
                if arg.type_attr and arg.type_attr not in inferred:
                    for x in val:
                        if _is_tensor_like(x):
                            inferred[arg.type_attr] = _as_tensor(x).dtype.base_dtype
                            break
        elif arg.type_attr and arg.type_attr not in inferred and _is_tensor_like(val):
            inferred[arg.type_attr] = _as_tensor(val, as_ref=arg.is_ref).dtype.base_dtype
            inferred_from[arg.type_attr] = arg.name
    for k, v in kwargs.items():
        if k in attr_defs and attr_defs[k].type == "type" and v is not None and k not in inferred:
            inferred[k] = dtypes.as_dtype(v)
    # Pass 2: convert every input (Consts named after the argument, in the op's scope).
    inputs = []
    for arg in od.input_arg:
        val = kwargs[arg.name]
        if arg.number_attr or arg.type_list_attr:
            dt = None
            if arg.type:
                dt = dtypes.as_dtype(arg.type)
            elif arg.type_attr:
                dt = inferred.get(arg.type_attr) or _default_type(attr_defs.get(arg.type_attr))
            ts = [_as_tensor(x, dt, arg.is_ref, name=arg.name) for x in val]
            if arg.number_attr and arg.type_attr and arg.type_attr not in inferred:
                inferred[arg.type_attr] = ts[0].dtype.base_dtype if ts else dtypes.float32
            if arg.type_list_attr:
                inferred[arg.type_list_attr] = [t.dtype.base_dtype for t in ts]
            inputs.append(ts)
        else:
            if arg.type:
                t = _as_tensor(val, dtypes.as_dtype(arg.type), arg.is_ref, name=arg.name)
            elif arg.type_attr:
                dt = inferred.get(arg.type_attr)
                if dt is None:
                    t = _as_tensor(val, None, arg.is_ref,
                                   preferred=_default_type(attr_defs.get(arg.type_attr)),
                                   name=arg.name)
                    inferred[arg.type_attr] = t.dtype.base_dtype
                else:
                    if isinstance(val, ops.Tensor) and val.dtype.base_dtype != dt:
                        raise TypeError(
                            "Input '%s' of '%s' Op has type %s that does not match type %s of "
                            "argument '%s'." % (arg.name, op_type, val.dtype.base_dtype.name,
                                                dt.name, inferred_from.get(arg.type_attr, "?")))
                    t = _as_tensor(val, dt, arg.is_ref, name=arg.name)
            else:
                t = _as_tensor(val, None, arg.is_ref, name=arg.name)
            if arg.is_ref and not t.dtype._is_ref_dtype():
                raise TypeError("'%s' Op requires that input '%s' be a mutable tensor (e.g.: a "
                                "tf.Variable)" % (op_type, arg.name))
            inputs.append(t)
    for k, v in inferred.items():
        a = attr_defs.get(k)
        if a is not None:
            attrs[k] = make_attr(a.type, v)
    for a in od.attr:
        if a.name in kwargs and a.name not in inferred:
            v = kwargs[a.name]
            if v is None:
                continue
            attrs[a.name] = make_attr(a.type, v)
        elif a.name not in attrs and not a.HasField("default_value"):
            raise TypeError("%s() missing required attribute '%s'" % (op_type, a.name))
    attrs["__inputs__"] = inputs
    return attrs


def _default_type(attr_def):
    if attr_def is None:
        return None
    if attr_def.HasField("default_value") and attr_def.default_value.type:
        return dtypes.as_dtype(attr_def.default_value.type)
    return None


def _outputs_of(op, od):
    outs = op.outputs
    if not od.output_arg:
        return op
    if len(od.output_arg) == 1:
        arg = od.output_arg[0]
        if arg.number_attr or arg.type_list_attr:
            return outs
        return outs[0]
    result = []
    pos = 0
    for arg in od.output_arg:
        if arg.number_attr:
            n = op.get_attr(arg.number_attr)
            result.append(outs[pos:pos + n])
            pos += n
        elif arg.type_list_attr:
            n = len(op.get_attr(arg.type_list_attr))
            result.append(outs[pos:pos + n])
            pos += n
        else:
            result.append(outs[pos])
            pos += 1
    return result


def camel_to_snake(name):
    s1 = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s1).lower()


def gen_op_function(od):
    """The Python function of one op: inputs positionally, then attrs that are not inferred."""
    input_names = [a.name for a in od.input_arg]
    inferred = set()
    for a in od.input_arg:
        for k in (a.type_attr, a.number_attr, a.type_list_attr):
            if k:
                inferred.add(k)
    attr_names = [a.name for a in od.attr if a.name not in inferred]
    positional = input_names + attr_names
    op_type = od.name

    def fn(*args, **kwargs):
        name = kwargs.pop("name", None)
        if len(args) > len(positional):
            raise TypeError("%s() takes at most %d positional arguments (%d given)" % (
                op_type, len(positional), len(args)))
        for k, v in zip(positional, args):
            if k in kwargs:
                raise TypeError("%s() got multiple values for argument '%s'" % (op_type, k))
            kwargs[k] = v
        return apply_op(op_type, name=name, **kwargs)

    fn.__name__ = camel_to_snake(op_type)
    fn.__doc__ = "Builds a %s op (inputs: %s; attrs: %s)." % (
        op_type, ", ".join(input_names) or "none", ", ".join(attr_names) or "none")
    return fn
