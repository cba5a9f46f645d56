"""Graph, Operation and Tensor over the C API's TF_Graph, and the graph-building contexts
(default graph, name scopes, devices, colocation, control dependencies).

A Graph owns one TF_Graph; an Operation wraps one TF_Operation of it. Operations are built from
a NodeDef assembled here, so device functions see the op's node_def before the C operation exists.
Graphs are not thread-safe for building (as TensorFlow's); sessions may run them from any thread.
"""
import contextlib
import ctypes
import threading

from rill import _c
from rill._proto import attr_value_pb2, graph_pb2, node_def_pb2
from rill.framework import device_spec, dtypes
from rill.framework.tensor_shape import TensorShape


class _Stack(threading.local):
    def __init__(self):
        self.stack = []


_graph_stack = _Stack()
_default_graph = [None]


def get_default_graph():
    if _graph_stack.stack:
        return _graph_stack.stack[-1]
    if _default_graph[0] is None:
        _default_graph[0] = Graph()
    return _default_graph[0]


def reset_default_graph():
    if _graph_stack.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you "
                             "need a cleared graph, exit the nesting and create a new graph.")
    _default_graph[0] = Graph()


class Graph(object):
    """A TF1 graph: operations, collections and the building contexts."""

    def __init__(self):
        self._c_graph = _c.TF_NewGraph()
        self._delete = _c.TF_DeleteGraph
        self._ops_by_name = {}
        self._ops_by_ptr = {}
        self._ops = []
        self._names_in_use = {}
        self._name_stack = ""
        self._device_stack = []  # strings (or None for reset) and device functions
        self._colocation_stack = []
        self._control_stack = []  # lists of Operations (None entry clears)
        self._collections = {}
        self._finalized = False
        self._seed = None
        self._variable_store = {}
        self._var_scope = None
        self._control_flow_context = None  # the cond branch or while body being built

    def __del__(self):
        if getattr(self, "_c_graph", None) and self._delete is not None:
            self._delete(self._c_graph)
            self._c_graph = None

    # Default graph.
    @contextlib.contextmanager
    def as_default(self):
        _graph_stack.stack.append(self)
        try:
            yield self
        finally:
            _graph_stack.stack.pop()

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, s):
        self._seed = s

    def finalize(self):
        self._finalized = True

    @property
    def finalized(self):
        return self._finalized

    # Names.
    def get_name_scope(self):
        return self._name_stack

    def unique_name(self, name, mark_as_used=True):
        if self._name_stack:
            name = self._name_stack + "/" + name
        name_key = name.lower()
        i = self._names_in_use.get(name_key, 0)
        if mark_as_used:
            self._names_in_use[name_key] = i + 1
        if i > 0:
            base_name_key = name_key
            while name_key in self._names_in_use:
                name_key = "%s_%d" % (base_name_key, i)
                i += 1
            if mark_as_used:
                self._names_in_use[name_key] = 1
            name = "%s_%d" % (name, i - 1)
        return name

    @contextlib.contextmanager
    def name_scope(self, name):
        old = self._name_stack
        if name is None or name == "":
            new = ""
        elif name.endswith("/"):
            new = name[:-1]
        else:
            new = self.unique_name(name)
        self._name_stack = new
        try:
            yield "" if not new else new + "/"
        finally:
            self._name_stack = old

    # Devices, colocation, control dependencies.
    @contextlib.contextmanager
    def device(self, device_name_or_function):
        d = device_name_or_function
        if d is not None and not callable(d) and not isinstance(d, str):
            d = d.to_string()
        self._device_stack.append(d)
        try:
            yield
        finally:
            self._device_stack.pop()

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        op = _as_operation(op) if op is not None else None
        if op is not None and op.graph is not self:
            raise ValueError("colocate_with: %s is not an element of this graph." % op.name)
        saved_devices = self._device_stack
        saved_coloc = self._colocation_stack
        if ignore_existing:
            self._colocation_stack = []
        if op is not None:
            self._device_stack = []
            self._colocation_stack = self._colocation_stack + [op]
        try:
            yield
        finally:
            self._device_stack = saved_devices
            self._colocation_stack = saved_coloc

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        if control_inputs is None:
            saved = self._control_stack
            self._control_stack = []
            try:
                yield
            finally:
                self._control_stack = saved
            return
        ops_list = []
        for c in control_inputs:
            if callable(c) and not isinstance(c, (Operation, Tensor)) and not hasattr(c, "op"):
                c = c()
            ops_list.append(_as_operation(c))
        self._control_stack.append(ops_list)
        try:
            yield
        finally:
            self._control_stack.pop()

    def _current_device(self, pending):
        device = ""
        for d in reversed(self._device_stack):
            if d is None:
                break
            if callable(d):
                pending.node_def.device = device
                r = d(pending)
                if r is not None and not isinstance(r, str):
                    r = r.to_string()
                device = r or ""
            else:
                device = device_spec.merge_device(d, device)
        return device

    # Operations.
    def create_op(self, op_type, inputs, dtypes_unused=None, input_types=None, name=None,
                  attrs=None, op_def=None, compute_device=True, input_lists=None):
        """Builds one operation. inputs: Tensors, or lists of Tensors for list arguments."""
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        if name is None:
            name = self.unique_name(op_type)
        elif name.endswith("/"):
            name = name[:-1]
        else:
            name = self.unique_name(name)
        node_def = node_def_pb2.NodeDef(name=name, op=op_type)
        for k, v in (attrs or {}).items():
            node_def.attr[k].CopyFrom(v)
        flat_inputs = []
        ctx = self._control_flow_context
        if ctx is not None:
            inputs = [[ctx.map_input(t) for t in i] if isinstance(i, (list, tuple))
                      else ctx.map_input(i) for i in inputs]
        for i in inputs:
            if isinstance(i, (list, tuple)):
                flat_inputs.extend(i)
            else:
                flat_inputs.append(i)
        for t in flat_inputs:
            if t.graph is not self:
                raise ValueError("Tensor %s must be from the same graph as the op %s (a Tensor "
                                 "from another graph cannot be an input)." % (t.name, name))
            node_def.input.append(t._input_name())
        pending = _PendingOperation(node_def, op_type, flat_inputs, self)
        device = self._current_device(pending) if compute_device else ""
        # Colocated: the device of the innermost colocation op that has one (TensorFlow's rule).
        for cop in reversed(self._colocation_stack):
            if cop.device:
                device = cop.device
                break
        desc = _c.TF_NewOperation(self._c_graph, op_type.encode(), name.encode())
        for i in inputs:
            if isinstance(i, (list, tuple)):
                arr = (_c.TF_Output * len(i))(*[t._as_tf_output() for t in i])
                _c.TF_AddInputList(desc, arr, len(i))
            else:
                _c.TF_AddInput(desc, i._as_tf_output())
        control_ops = []
        input_ops = set(id(t.op) for t in flat_inputs)
        for frame in self._control_stack:
            for c in frame:
                if c.graph is not self:
                    raise ValueError("Control input %s must be from the same graph as the op "
                                     "%s." % (c.name, name))
                if id(c) not in input_ops and c not in control_ops:
                    control_ops.append(c)
        if ctx is not None:
            for c in ctx.control_inputs_for(flat_inputs):
                if c not in control_ops:
                    control_ops.append(c)
        for c in control_ops:
            _c.TF_AddControlInput(desc, c._c_op)
        if device:
            _c.TF_SetDevice(desc, device.encode())
        status = _c.Status()
        for k, v in (attrs or {}).items():
            b = v.SerializeToString()
            _c.TF_SetAttrValueProto(desc, k.encode(), b, len(b), status.ptr)
            status.raise_if_error(node_def)
        if self._colocation_stack:
            for cop in self._colocation_stack:
                _c.TF_ColocateWith(desc, cop._c_op)
        c_op = _c.TF_FinishOperation(desc, status.ptr)
        if _c.TF_GetCode(status.ptr) == 3:
            # A build error (shapes, types) is ValueError, as in TensorFlow's op creation.
            raise ValueError(_c.TF_Message(status.ptr).decode("utf-8", "replace"))
        status.raise_if_error(node_def)
        op = self._add_op(c_op, name)
        if ctx is not None:
            ctx.add_op(op)
        return op

    def _add_op(self, c_op, name=None):
        op = Operation(c_op, self, name)
        self._ops_by_name[op.name] = op
        self._ops_by_ptr[c_op] = op
        self._ops.append(op)
        return op

    def _op_for_ptr(self, c_op):
        op = self._ops_by_ptr.get(c_op)
        if op is None:
            op = self._add_op(c_op)
            key = op.name.lower()
            if key not in self._names_in_use:
                self._names_in_use[key] = 1
        return op

    def _sync_from_c(self):
        """Wraps operations added on the C side (import, gradients) in Python Operations."""
        pos = ctypes.c_size_t(0)
        while True:
            c_op = _c.TF_GraphNextOperation(self._c_graph, ctypes.byref(pos))
            if not c_op:
                break
            if c_op not in self._ops_by_ptr:
                op = self._add_op(c_op)
                parts = op.name.split("/")
                for k in range(1, len(parts) + 1):
                    key = "/".join(parts[:k]).lower()
                    if key not in self._names_in_use:
                        self._names_in_use[key] = 1

    def get_operations(self):
        return list(self._ops)

    def get_operation_by_name(self, name):
        op = self._ops_by_name.get(name)
        if op is None:
            c_op = _c.TF_GraphOperationByName(self._c_graph, name.encode())
            if not c_op:
                raise KeyError("The name %r refers to an Operation not in the graph." % name)
            op = self._op_for_ptr(c_op)
        return op

    def get_tensor_by_name(self, name):
        if ":" not in name:
            raise ValueError("The name %r refers to an Operation, not a Tensor. Tensor names "
                             "must be of the form \"<op_name>:<output_index>\"." % name)
        op_name, idx = name.rsplit(":", 1)
        try:
            op = self.get_operation_by_name(op_name)
        except KeyError:
            raise KeyError("The name %r refers to a Tensor which does not exist. The operation, "
                           "%r, does not exist in the graph." % (name, op_name))
        idx = int(idx)
        if idx >= len(op.outputs):
            raise KeyError("The name %r refers to a Tensor which does not exist. The operation, %r, "
                           "exists but only has %d outputs." % (name, op_name, len(op.outputs)))
        return op.outputs[idx]

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        if isinstance(obj, str):
            if ":" in obj and allow_tensor:
                return self.get_tensor_by_name(obj)
            if ":" not in obj and allow_operation:
                return self.get_operation_by_name(obj)
            if ":" not in obj:
                self.get_operation_by_name(obj)  # KeyError when there is no such operation
                raise ValueError("The name %r refers to an Operation, not a Tensor. Tensor names "
                                 "must be of the form \"<op_name>:<output_index>\"." % obj)
            raise ValueError("Name %s appears to refer to a Tensor, not a Operation." % obj)
        if hasattr(obj, "_as_graph_element"):
            obj = obj._as_graph_element()
        if isinstance(obj, Tensor) and allow_tensor:
            return obj
        if isinstance(obj, Operation) and allow_operation:
            return obj
        raise TypeError("Can not convert a %s into a %s." % (
            type(obj).__name__, "Tensor or Operation" if allow_operation else "Tensor"))

    def as_graph_def(self, from_version=None, add_shapes=False):
        buf = _c.TF_NewBuffer()
        status = _c.Status()
        try:
            _c.TF_GraphToGraphDef(self._c_graph, buf, status.ptr)
            status.raise_if_error()
            g = graph_pb2.GraphDef()
            g.ParseFromString(_c.buffer_bytes(buf))
            return g
        finally:
            _c.TF_DeleteBuffer(buf)

    @property
    def graph_def_versions(self):
        return self.as_graph_def().versions

    # Collections.
    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        if isinstance(names, str):
            names = [names]
        for n in set(names):
            self.add_to_collection(n, value)

    def get_collection(self, name, scope=None):
        items = list(self._collections.get(name, []))
        if scope is None:
            return items
        import re
        out = []
        for item in items:
            n = getattr(item, "name", None)
            if n is not None and re.match(scope, n):
                out.append(item)
        return out

    def get_collection_ref(self, name):
        return self._collections.setdefault(name, [])

    def get_all_collection_keys(self):
        return list(self._collections)

    def clear_collection(self, name):
        self._collections.pop(name, None)


class _PendingOperation(object):
    """What a device function is called with: the op about to be built (name, type, node_def)."""

    def __init__(self, node_def, op_type, inputs, graph):
        self.node_def = node_def
        self.type = op_type
        self.inputs = inputs
        self.graph = graph

    @property
    def name(self):
        return self.node_def.name

    @property
    def device(self):
        return self.node_def.device

    def get_attr(self, name):
        return _attr_value_to_python(self.node_def.attr[name])


def _attr_value_to_python(v):
    from rill.framework import tensor_util
    which = v.WhichOneof("value")
    if which == "list":
        lst = v.list
        if lst.s:
            return list(lst.s)
        if lst.i:
            return list(lst.i)
        if lst.f:
            return list(lst.f)
        if lst.b:
            return list(lst.b)
        if lst.type:
            return [dtypes.as_dtype(t) for t in lst.type]
        if lst.shape:
            return [TensorShape(s) for s in lst.shape]
        if lst.tensor:
            return [tensor_util.make_ndarray(t) for t in lst.tensor]
        return []
    if which == "type":
        return dtypes.as_dtype(v.type)
    if which == "shape":
        return TensorShape(v.shape)
    if which == "tensor":
        return v.tensor
    if which is None:
        return None
    return getattr(v, which)


class Operation(object):
    """One TF_Operation of a Graph."""

    def __init__(self, c_op, graph, name=None):
        self._c_op = c_op
        self._graph = graph
        self._name = name if name is not None else _c.TF_OperationName(c_op).decode()
        self._type = _c.TF_OperationOpType(c_op).decode()
        n = _c.TF_OperationNumOutputs(c_op)
        self._outputs = [Tensor(self, i, dtypes.as_dtype(
            _c.TF_OperationOutputType(_c.TF_Output(c_op, i)))) for i in range(n)]
        self._device = None

    @property
    def name(self):
        return self._name

    @property
    def type(self):
        return self._type

    @property
    def graph(self):
        return self._graph

    @property
    def outputs(self):
        return list(self._outputs)

    def values(self):
        return tuple(self._outputs)

    @property
    def device(self):
        if self._device is None:
            self._device = _c.TF_OperationDevice(self._c_op).decode()
        return self._device

    @property
    def inputs(self):
        n = _c.TF_OperationNumInputs(self._c_op)
        out = []
        for i in range(n):
            src = _c.TF_OperationInput(_c.TF_Input(self._c_op, i))
            out.append(self._graph._op_for_ptr(src.oper)._outputs[src.index])
        return out

    @property
    def control_inputs(self):
        n = _c.TF_OperationNumControlInputs(self._c_op)
        if n == 0:
            return []
        arr = (ctypes.c_void_p * n)()
        _c.TF_OperationGetControlInputs(self._c_op, arr, n)
        return [self._graph._op_for_ptr(p) for p in arr]

    @property
    def node_def(self):
        buf = _c.TF_NewBuffer()
        status = _c.Status()
        try:
            _c.TF_OperationToNodeDef(self._c_op, buf, status.ptr)
            status.raise_if_error()
            nd = node_def_pb2.NodeDef()
            nd.ParseFromString(_c.buffer_bytes(buf))
            return nd
        finally:
            _c.TF_DeleteBuffer(buf)

    @property
    def op_def(self):
        from rill.framework import op_def_library
        return op_def_library.op_def(self._type)

    def get_attr(self, name):
        buf = _c.TF_NewBuffer()
        status = _c.Status()
        try:
            _c.TF_OperationGetAttrValueProto(self._c_op, name.encode(), buf, status.ptr)
            if status.code() != 0:
                raise ValueError("Operation %r has no attr named %r." % (self._name, name))
            v = attr_value_pb2.AttrValue()
            v.ParseFromString(_c.buffer_bytes(buf))
            return _attr_value_to_python(v)
        finally:
            _c.TF_DeleteBuffer(buf)

    def colocation_groups(self):
        try:
            cls = self.get_attr("_class")
        except ValueError:
            cls = None
        groups = [c for c in (cls or []) if c.startswith(b"loc:@")]
        return groups or [("loc:@%s" % self._name).encode()]

    def run(self, feed_dict=None, session=None):
        from rill.client import session as session_lib
        session_lib._run_using_default_session(self, feed_dict, session)

    def _as_graph_element(self):
        return self

    def __repr__(self):
        return "<tf.Operation '%s' type=%s>" % (self._name, self._type)

    def __str__(self):
        return str(self.node_def)


class Tensor(object):
    """Output value_index of an Operation."""

    __array_priority__ = 100

    def __init__(self, op, value_index, dtype):
        self._op = op
        self._value_index = value_index
        self._dtype = dtype
        self._shape_val = None

    @property
    def op(self):
        return self._op

    @property
    def value_index(self):
        return self._value_index

    @property
    def dtype(self):
        return self._dtype

    @property
    def graph(self):
        return self._op._graph

    @property
    def name(self):
        return "%s:%d" % (self._op._name, self._value_index)

    @property
    def device(self):
        return self._op.device

    def _input_name(self):
        return self._op._name if self._value_index == 0 else "%s:%d" % (self._op._name, self._value_index)

    def _as_tf_output(self):
        return _c.TF_Output(self._op._c_op, self._value_index)

    @property
    def shape(self):
        if self._shape_val is None:
            g = self._op._graph._c_graph
            status = _c.Status()
            out = self._as_tf_output()
            n = _c.TF_GraphGetTensorNumDims(g, out, status.ptr)
            if status.code() != 0 or n < 0:
                self._shape_val = TensorShape(None)
            else:
                dims = (ctypes.c_int64 * max(n, 1))()
                _c.TF_GraphGetTensorShape(g, out, dims, n, status.ptr)
                self._shape_val = TensorShape([dims[i] for i in range(n)])
        return self._shape_val

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        self._shape_val = self.shape.merge_with(shape)

    def consumers(self):
        out = []
        for op in self._op._graph._ops:
            if any(t is self for t in op.inputs):
                out.append(op)
        return out

    def eval(self, feed_dict=None, session=None):
        from rill.client import session as session_lib
        return session_lib._eval_using_default_session(self, feed_dict, session)

    def _as_graph_element(self):
        return self

    def __repr__(self):
        return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self.shape, self._dtype.name)

    def __str__(self):
        # TensorFlow's text: no shape when the rank is unknown, the device when one is set.
        return 'Tensor("%s"%s, dtype=%s%s)' % (
            self.name, ", shape=%s" % self.shape if self.shape.ndims is not None else "",
            self._dtype.name, ", device=%s" % self.device if self.device else "")

    # Equality and hashing are object identity (TF1's Tensor), the interpreter's defaults.

    def __bool__(self):
        raise TypeError("Using a `tf.Tensor` as a Python `bool` is not allowed. Use `if t is not "
                        "None:` instead of `if t:` to test if a tensor is defined, and use "
                        "TensorFlow ops such as tf.cond to execute subgraphs conditioned on the "
                        "value of a tensor.")

    def __iter__(self):
        shape = self.shape
        if shape.ndims is None or shape[0] is None:
            raise TypeError("Cannot iterate over a tensor with unknown first dimension.")
        from rill.ops import array_ops
        for i in range(shape[0]):
            yield array_ops.strided_slice_index(self, i)

    def __len__(self):
        raise TypeError("len is not well defined for symbolic Tensors. (%s) Please call "
                        "`x.shape` rather than `len(x)` for shape information." % self.name)


def _as_operation(x):
    if isinstance(x, Operation):
        return x
    if isinstance(x, Tensor):
        return x.op
    if hasattr(x, "op"):
        return x.op
    if hasattr(x, "_as_graph_element"):
        return _as_operation(x._as_graph_element())
    raise TypeError("Can not convert a %s into a Operation." % type(x).__name__)


# Conversion of Python values and Tensor-like objects (Variables) to Tensors.
_conversion_functions = []


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    _conversion_functions.append((priority, base_type, conversion_func))
    _conversion_functions.sort(key=lambda x: x[0])


def convert_to_tensor(value, dtype=None, name=None, as_ref=False, preferred_dtype=None):
    if isinstance(value, Tensor):
        if dtype is not None and not dtypes.as_dtype(dtype).base_dtype == value.dtype.base_dtype:
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r" % (
                dtypes.as_dtype(dtype).name, value.dtype.name, value))
        return value
    for _, base, fn in _conversion_functions:
        if isinstance(value, base):
            return fn(value, dtype=dtype, name=name, as_ref=as_ref)
    from rill.ops import constant_op
    if dtype is None and preferred_dtype is not None:
        try:
            return constant_op.constant(value, dtype=preferred_dtype, name=name or "Const")
        except (TypeError, ValueError):
            pass
    return constant_op.constant(value, dtype=dtype, name=name or "Const")


# Module-level contexts on the default graph.
def name_scope_v1(name, default_name=None, values=None):
    """tf.compat.v1.name_scope(name, default_name=None, values=None)."""
    n = name if name is not None else default_name
    g = get_default_graph()
    if values:
        for v in values:
            if isinstance(v, Tensor):
                g = v.graph
                break
    if n is None and name is None and default_name is None:
        return g.name_scope(None)

    @contextlib.contextmanager
    def scope():
        with g.as_default(), g.name_scope(n) as s:
            yield s
    return scope()


def device(device_name_or_function):
    return get_default_graph().device(device_name_or_function)


def colocate_with(op, ignore_existing=False):
    return get_default_graph().colocate_with(op, ignore_existing)


def control_dependencies(control_inputs):
    return get_default_graph().control_dependencies(control_inputs)


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def get_collection(key, scope=None):
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)


class GraphKeys(object):
    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAIN_OP = "train_op"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
