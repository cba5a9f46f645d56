# The device-function note (ADCME, Julia) in Python: Variables on the CPU by a device function,
# every other op on GPU:0 (soft placement where there is no GPU).
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
print(a.device)
print(b.device)
with tf.device("/CPU:0"):
    c = tf.cos(b)
sess = tf.Session(config=tf.ConfigProto(allow_soft_placement=True, log_device_placement=True))
sess.run(tf.global_variables_initializer())
print(sess.run(c))
