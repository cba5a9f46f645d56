"""TF1 optimizers: minimize = tf.gradients + one Apply* kernel per variable (ref variables) or
ResourceApply* (resource variables), grouped under the optimizer's name scope."""
from rill.framework import dtypes, ops
from rill.framework.op_def_library import apply_op
from rill.ops import control_flow, gradients as gradients_lib, variables


def get_global_step(graph=None):
    g = graph or ops.get_default_graph()
    steps = g.get_collection(ops.GraphKeys.GLOBAL_STEP)
    return steps[0] if steps else None


def create_global_step(graph=None):
    g = graph or ops.get_default_graph()
    with g.as_default():
        with g.name_scope(None):
            v = variables.Variable(0, dtype=dtypes.int64, name="global_step", trainable=False,
                                   collections=[ops.GraphKeys.GLOBAL_VARIABLES,
                                                ops.GraphKeys.GLOBAL_STEP])
        return v


def get_or_create_global_step(graph=None):
    return get_global_step(graph) or create_global_step(graph)


class Optimizer(object):
    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):
        self._use_locking = use_locking
        self._name = name
        self._slots = {}

    def get_name(self):
        return self._name

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        if var_list is None:
            var_list = variables.trainable_variables()
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients_lib.gradients(
            loss, var_list, grad_ys=None if grad_loss is None else [grad_loss],
            gate_gradients=(gate_gradients == Optimizer.GATE_OP),
            colocate_gradients_with_ops=colocate_gradients_with_ops)
        return list(zip(grads, var_list))

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        gv = self.compute_gradients(loss, var_list, gate_gradients, aggregation_method,
                                    colocate_gradients_with_ops, grad_loss)
        if all(g is None for g, _ in gv):
            raise ValueError("No gradients provided for any variable, check your graph for ops "
                             "that do not support gradients, between variables %s and loss %s." %
                             ([str(v) for _, v in gv], loss))
        return self.apply_gradients(gv, global_step=global_step, name=name)

    def _slot(self, var, slot_name, init=0.0):
        key = (var.op.name, slot_name)
        if key not in self._slots:
            from rill.ops import array_ops
            g = ops.get_default_graph()
            with g.name_scope(None), g.colocate_with(var.op):
                with g.name_scope(var.op.name + "/"):
                    initial = array_ops.zeros(var.shape.as_list(), var.dtype.base_dtype) if init == 0.0 \
                        else array_ops.fill(var.shape.as_list(),
                                            ops.convert_to_tensor(init, dtype=var.dtype.base_dtype))
                self._slots[key] = variables.Variable(initial, name=var.op.name + "/" + slot_name,
                                                      trainable=False)
        return self._slots[key]

    def _create_non_slot(self, name, value, var):
        key = (None, name)
        if key not in self._slots:
            g = ops.get_default_graph()
            with g.name_scope(None), g.colocate_with(var.op):
                self._slots[key] = variables.Variable(value, name=name, trainable=False,
                                                      dtype=var.dtype.base_dtype)
        return self._slots[key]

    def _prepare(self, var_list):
        pass

    def _finish(self, update_ops, name):
        return control_flow.group(*update_ops, name=name)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        gv = [(g, v) for g, v in grads_and_vars if g is not None]
        var_list = [v for _, v in gv]
        for _, v in gv:
            self._create_slots_for(v)
        g = ops.get_default_graph()
        with ops.name_scope_v1(name, self._name) as scope:
            self._prepare(var_list)
            updates = []
            for grad, var in gv:
                with g.name_scope("update_" + var.op.name), g.colocate_with(var.op):
                    updates.append(self._apply_dense(grad, var))
            if global_step is None:
                return self._finish(updates, scope)
            with ops.control_dependencies([self._finish(updates, "update")]):
                with g.colocate_with(global_step.op):
                    return global_step.assign_add(1, name=scope).op

    def _create_slots_for(self, var):
        pass

    def _lr(self, var):
        return ops.convert_to_tensor(self._learning_rate, dtype=var.dtype.base_dtype,
                                     name="learning_rate") if not isinstance(
            self._learning_rate, ops.Tensor) else self._learning_rate


class GradientDescentOptimizer(Optimizer):
    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super(GradientDescentOptimizer, self).__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad, var):
        if var._use_resource:
            return apply_op("ResourceApplyGradientDescent", var=var._handle, alpha=self._lr(var),
                            delta=grad, use_locking=self._use_locking)
        return apply_op("ApplyGradientDescent", var=var._ref(), alpha=self._lr(var), delta=grad,
                        use_locking=self._use_locking).op


class MomentumOptimizer(Optimizer):
    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super(MomentumOptimizer, self).__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    def _create_slots_for(self, var):
        self._slot(var, "Momentum")

    def _apply_dense(self, grad, var):
        accum = self._slot(var, "Momentum")
        m = ops.convert_to_tensor(self._momentum, dtype=var.dtype.base_dtype, name="momentum")
        return apply_op("ApplyMomentum", var=var._ref(), accum=accum._ref(), lr=self._lr(var),
                        grad=grad, momentum=m, use_locking=self._use_locking,
                        use_nesterov=self._use_nesterov).op


class AdagradOptimizer(Optimizer):
    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        super(AdagradOptimizer, self).__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._init = initial_accumulator_value

    def _create_slots_for(self, var):
        self._slot(var, "Adagrad", self._init)

    def _apply_dense(self, grad, var):
        acc = self._slot(var, "Adagrad", self._init)
        return apply_op("ApplyAdagrad", var=var._ref(), accum=acc._ref(), lr=self._lr(var),
                        grad=grad, use_locking=self._use_locking).op


class RMSPropOptimizer(Optimizer):
    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, name="RMSProp"):
        super(RMSPropOptimizer, self).__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon

    def _create_slots_for(self, var):
        self._slot(var, "RMSProp", 1.0)
        self._slot(var, "Momentum")

    def _apply_dense(self, grad, var):
        dt = var.dtype.base_dtype
        return apply_op("ApplyRMSProp", var=var._ref(), ms=self._slot(var, "RMSProp", 1.0)._ref(),
                        mom=self._slot(var, "Momentum")._ref(), lr=self._lr(var),
                        rho=ops.convert_to_tensor(self._decay, dtype=dt),
                        momentum=ops.convert_to_tensor(self._momentum, dtype=dt),
                        epsilon=ops.convert_to_tensor(self._epsilon, dtype=dt), grad=grad,
                        use_locking=self._use_locking).op


class AdamOptimizer(Optimizer):
    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 use_locking=False, name="Adam"):
        super(AdamOptimizer, self).__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon

    def _create_slots_for(self, var):
        self._create_non_slot("beta1_power", self._beta1, var)
        self._create_non_slot("beta2_power", self._beta2, var)
        self._slot(var, "Adam")
        self._slot(var, "Adam_1")

    def _apply_dense(self, grad, var):
        dt = var.dtype.base_dtype
        b1p = self._slots[(None, "beta1_power")]
        b2p = self._slots[(None, "beta2_power")]
        return apply_op("ApplyAdam", var=var._ref(), m=self._slot(var, "Adam")._ref(),
                        v=self._slot(var, "Adam_1")._ref(), beta1_power=b1p.value(),
                        beta2_power=b2p.value(), lr=self._lr(var),
                        beta1=ops.convert_to_tensor(self._beta1, dtype=dt),
                        beta2=ops.convert_to_tensor(self._beta2, dtype=dt),
                        epsilon=ops.convert_to_tensor(self._epsilon, dtype=dt), grad=grad,
                        use_locking=self._use_locking).op

    def _finish(self, update_ops, name):
        b1p = self._slots[(None, "beta1_power")]
        b2p = self._slots[(None, "beta2_power")]
        g = ops.get_default_graph()
        with ops.control_dependencies(update_ops):
            with g.colocate_with(b1p.op):
                u1 = b1p.assign(b1p.value() * self._beta1)
                u2 = b2p.assign(b2p.value() * self._beta2)
        return control_flow.group(*(list(update_ops) + [u1, u2]), name=name)
