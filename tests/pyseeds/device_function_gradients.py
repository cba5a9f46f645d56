# The device-function note's gradients with colocate_gradients_with_ops (needs tf.gradients).
import rill.compat.v1 as tf

PS_OPS = ["Variable", "VariableV2", "AutoReloadVariable"]


def assign_to_device(device, ps_device="/device:CPU:0"):
    def _assign(op):
        node_def = op if isinstance(op, tf.NodeDef) else op.node_def
        if node_def.op in PS_OPS:
            return ps_device
        else:
            return device
    return _assign


with tf.device(assign_to_device("/device:GPU:0")):
    a = tf.Variable(1.0)
    b = tf.sin(a)
with tf.device("/CPU:0"):
    c = tf.cos(b)
g = tf.gradients(c, a, colocate_gradients_with_ops=True)
sess = tf.Session(config=tf.ConfigProto(allow_soft_placement=True))
sess.run(tf.global_variables_initializer())
print(sess.run(g[0] + c))
