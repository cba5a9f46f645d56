"""tf.Variable (TF1 ref variables: VariableV2, Assign, Identity 'read'; resource variables with
use_resource=True: VarHandleOp, AssignVariableOp, ReadVariableOp), the initializers' collections
and assign ops."""
from rill.framework import dtypes, ops
from rill.framework.op_def_library import apply_op
from rill.framework.tensor_shape import TensorShape


class Variable(object):
    """A TF1 variable. Converts to its 'read' snapshot wherever a Tensor is expected."""

    def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 expected_shape=None, import_scope=None, constraint=None, use_resource=None,
                 synchronization=None, aggregation=None, shape=None):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if trainable is None:
            trainable = True
        self._trainable = trainable
        self._use_resource = bool(use_resource)
        g = ops.get_default_graph()
        self._graph = g
        init_from_fn = callable(initial_value)
        with g.name_scope(name or "Variable") as scope:
            vname = scope[:-1]
            if init_from_fn:
                with g.name_scope("Initializer"), g.device(None):
                    initial_value = initial_value()
                    if not isinstance(initial_value, ops.Tensor):
                        initial_value = ops.convert_to_tensor(initial_value, dtype=dtype,
                                                              name="initial_value")
            else:
                initial_value = ops.convert_to_tensor(initial_value, name="initial_value",
                                                      dtype=dtype)
            self._initial_value = initial_value
            vshape = TensorShape(shape) if shape is not None else (
                initial_value.shape if validate_shape else TensorShape(None))
            base = initial_value.dtype.base_dtype
            if self._use_resource:
                self._handle = apply_op("VarHandleOp", name=vname + "/", dtype=base,
                                        shape=vshape, shared_name=vname)
                self._variable = self._handle
                with g.name_scope("IsInitialized"):
                    self._is_initialized_op = apply_op("VarIsInitializedOp", resource=self._handle)
                with g.name_scope("Assign"):
                    self._initializer_op = apply_op("AssignVariableOp", resource=self._handle,
                                                    value=initial_value)
                with g.name_scope("Read"):
                    self._snapshot = apply_op("ReadVariableOp", resource=self._handle, dtype=base)
            else:
                self._variable = apply_op("VariableV2", name=vname + "/", shape=vshape,
                                          dtype=base)
                self._initializer_op = _assign_named(g, self._variable, initial_value,
                                                     validate_shape)
                with g.colocate_with(self._variable.op):
                    self._snapshot = apply_op("Identity", name="read", input=self._variable)
        self._dtype = base
        self._shape = vshape
        self._name = vname
        if collections is None:
            collections = [ops.GraphKeys.GLOBAL_VARIABLES]
        if trainable and ops.GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections = list(collections) + [ops.GraphKeys.TRAINABLE_VARIABLES]
        g.add_to_collections(collections, self)

    # Properties as TensorFlow's.
    @property
    def name(self):
        return self._variable.name

    @property
    def op(self):
        return self._variable.op

    @property
    def dtype(self):
        return self._variable.dtype if not self._use_resource else self._dtype

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    @property
    def device(self):
        return self._variable.device

    @property
    def graph(self):
        return self._graph

    @property
    def initializer(self):
        return self._initializer_op

    @property
    def initial_value(self):
        return self._initial_value

    @property
    def trainable(self):
        return self._trainable

    def value(self):
        return self._snapshot

    def read_value(self):
        if self._use_resource:
            return apply_op("ReadVariableOp", resource=self._handle, dtype=self._dtype)
        return apply_op("Identity", name="read", input=self._variable)

    def _ref(self):
        return self._variable

    def _as_graph_element(self):
        return self._snapshot

    def _as_fetch(self):
        return self._snapshot

    def _as_tensor_for_op(self, as_ref):
        if as_ref:
            if self._use_resource:
                return self._handle
            return self._variable
        return self._snapshot

    def eval(self, session=None):
        return self._snapshot.eval(session=session)

    def initialized_value(self):
        with ops.control_dependencies([self._initializer_op]):
            return apply_op("Identity", input=self._snapshot)

    def assign(self, value, use_locking=False, name=None, read_value=True):
        if self._use_resource:
            op = apply_op("AssignVariableOp", name=name, resource=self._handle,
                          value=ops.convert_to_tensor(value, dtype=self._dtype))
            if not read_value:
                return op
            with ops.control_dependencies([op]):
                return apply_op("ReadVariableOp", resource=self._handle, dtype=self._dtype)
        return apply_op("Assign", name=name, ref=self._variable, value=value,
                        use_locking=use_locking)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        if self._use_resource:
            op = apply_op("AssignAddVariableOp", name=name, resource=self._handle,
                          value=ops.convert_to_tensor(delta, dtype=self._dtype))
            with ops.control_dependencies([op]):
                return apply_op("ReadVariableOp", resource=self._handle, dtype=self._dtype)
        return apply_op("AssignAdd", name=name, ref=self._variable, value=delta,
                        use_locking=use_locking)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        if self._use_resource:
            op = apply_op("AssignSubVariableOp", name=name, resource=self._handle,
                          value=ops.convert_to_tensor(delta, dtype=self._dtype))
            with ops.control_dependencies([op]):
                return apply_op("ReadVariableOp", resource=self._handle, dtype=self._dtype)
        return apply_op("AssignSub", name=name, ref=self._variable, value=delta,
                        use_locking=use_locking)

    def load(self, value, session=None):
        from rill.client import session as session_lib
        session = session or session_lib.get_default_session()
        session.run(self._initializer_op, {self._initial_value: value})

    def __repr__(self):
        return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self._shape, self._dtype.name)

    # Operators: on the snapshot.
    def __getattr__(self, name):
        if name.startswith("__") or name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError("'Variable' object has no attribute %r" % name)


def _assign_named(g, ref, value, validate_shape):
    return apply_op("Assign", name="Assign", ref=ref, value=value,
                    validate_shape=validate_shape).op


def _install_variable_operators():
    for attr in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
                 "radd", "rsub", "rmul", "rtruediv", "rfloordiv", "rmod", "rpow", "rmatmul",
                 "rand", "ror", "lt", "le", "gt", "ge", "neg", "abs", "invert", "getitem", "div"):
        dunder = "__%s__" % attr
        if not hasattr(ops.Tensor, dunder):
            continue

        def make(d):
            return lambda self, *a: getattr(self._snapshot, d)(*a)
        setattr(Variable, dunder, make(dunder))


def _variable_conversion(v, dtype=None, name=None, as_ref=False):
    t = v._as_tensor_for_op(as_ref)
    if dtype is not None and not dtypes.as_dtype(dtype).base_dtype == t.dtype.base_dtype:
        raise ValueError("Incompatible type conversion requested to type '%s' for variable of "
                         "type '%s'" % (dtypes.as_dtype(dtype).name, t.dtype.name))
    return t


def global_variables(scope=None):
    return ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope)


def local_variables(scope=None):
    return ops.get_collection(ops.GraphKeys.LOCAL_VARIABLES, scope)


def trainable_variables(scope=None):
    return ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    if var_list:
        return _group([v.initializer for v in var_list], name)
    return apply_op("NoOp", name=name)


def _group(op_list, name):
    with ops.control_dependencies(op_list):
        return apply_op("NoOp", name=name)


def global_variables_initializer():
    return variables_initializer(global_variables())


def local_variables_initializer():
    return variables_initializer(local_variables(), name="init")


def is_variable_initialized(variable):
    if variable._use_resource:
        return apply_op("VarIsInitializedOp", resource=variable._handle)
    return apply_op("IsVariableInitialized", ref=variable._variable)


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    from rill.ops import array_ops
    var_list = global_variables() if var_list is None else var_list
    with ops.name_scope_v1(name, "report_uninitialized_variables"):
        if not var_list:
            from rill.ops import constant_op
            return constant_op.constant([], dtype=dtypes.string)
        inits = array_ops.stack([apply_op("LogicalNot", x=is_variable_initialized(v))
                                 for v in var_list])
        names = ops.convert_to_tensor([v.op.name for v in var_list], dtype=dtypes.string)
        return apply_op(
            "GatherV2", params=names, indices=array_ops.reshape(apply_op("Where", input=inits), [-1]),
            axis=ops.convert_to_tensor(0))


_install_variable_operators()
ops.register_tensor_conversion_function(Variable, _variable_conversion, 10)
