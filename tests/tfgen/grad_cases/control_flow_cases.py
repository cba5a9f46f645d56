"""Gradient cases for ops/control_flow_ops.cc and the variable ops: tf.cond's Switch and Merge
(TF1 control flow), reads of resource variables."""
import numpy as np
import tensorflow as tf

from grad_cases import rand

tf1 = tf.compat.v1


def _cond(pred_value):
    def build(x):
        from tensorflow.python.ops import control_flow_util  # pylint: disable=import-outside-toplevel
        saved = control_flow_util.ENABLE_CONTROL_FLOW_V2
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
        try:
            pred = tf.constant(pred_value, name="pred")
            return tf1.cond(pred, lambda: tf.square(x), lambda: x * 3.0, name="out")
        finally:
            control_flow_util.ENABLE_CONTROL_FLOW_V2 = saved
    return build


def _resource_read(x):
    v = tf1.Variable(np.arange(6, dtype=np.float32).reshape([2, 3]), use_resource=True, name="v")
    init = tf1.variables_initializer([v], name="init")
    y = tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32, name="out") * x
    return {"ys": [y], "xs": [v.handle], "init": init}


def cases(add):
    for op in ["Switch", "Merge"]:
        for pred in [True, False]:
            add(op, "cond_%s" % str(pred).lower(), [("x", rand([2, 3], (op, pred)))], _cond(pred))
    add("ReadVariableOp", "times_x", [("x", rand([2, 3], "read"))], _resource_read)
