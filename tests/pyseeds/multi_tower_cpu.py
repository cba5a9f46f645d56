# "Using GPUs", Using multiple GPUs: the CPU variant (towers on /cpu:1 and /cpu:2 of three CPU
# devices, AddN on /cpu:0).
import rill.compat.v1 as tf

# Creates a graph.
c = []
for d in ['/cpu:1', '/cpu:2']:
    with tf.device(d):
        a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3])
        b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2])
        c.append(tf.matmul(a, b))
with tf.device('/cpu:0'):
    sum = tf.add_n(c)
# Creates a session with log_device_placement set to True.
sess = tf.Session(config=tf.ConfigProto(log_device_placement=True, device_count={'CPU': 3}))
# Runs the op.
print(sess.run(sum))
