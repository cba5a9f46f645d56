# Sessions as TF1 programs use them: nested fetches, feed_dict with numpy and Python values,
# operations as fetches, errors, variables and initializers, InteractiveSession and eval,
# list_devices, RunOptions/RunMetadata, closing.
import collections

import numpy as np
import rill.compat.v1 as tf

a = tf.placeholder(tf.float32, shape=[2], name="a")
b = tf.constant([10.0, 20.0], name="b")
c = a + b
d = a * b
sess = tf.Session()
feed = {a: np.array([1.0, 2.0], dtype=np.float32)}
print(sess.run(c, feed))
print(sess.run([c, d], feed))
print(sess.run((c, [d, {"x": c}]), feed))
Pair = collections.namedtuple("Pair", ["first", "second"])
print(sess.run(Pair(c, d), feed_dict={a: [3, 4]}))
print(sess.run({"sum": c, "prod": [d]}, {"a:0": [5.0, 6.0]}))
print(sess.run(c.op, feed), sess.run([c.op, c], feed))
print(type(sess.run(tf.constant(3.0))).__name__, sess.run(tf.constant(3.0)))
print(sess.run(tf.constant([b"x", b"yz"])), sess.run(tf.constant("hello")))
print(sess.run(tf.constant([[1, 2], [3, 4]], dtype=tf.int64)).dtype, sess.run(tf.constant(True)))
try:
    sess.run(c)
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, isinstance(e, tf.errors.OpError), e.error_code)
try:
    sess.run(c, {a: [1.0, 2.0, 3.0]})
except ValueError as e:
    print("ValueError", str(e))
v = tf.Variable([1.0, 2.0], name="v")
w = tf.Variable(tf.zeros([2]), name="w")
upd = w.assign_add(v)
print(v.name, v.op.type, v.dtype, v.shape, v.initializer.name, w.initial_value.name)
print([x.name for x in tf.global_variables()], [x.name for x in tf.trainable_variables()])
try:
    sess.run(v)
except tf.errors.FailedPreconditionError as e:
    print(type(e).__name__)
sess.run(tf.global_variables_initializer())
print(sess.run(v), sess.run(upd), sess.run(upd), sess.run(w))
print(sess.run(v + 1.0), sess.run(tf.matmul(tf.reshape(v, [1, 2]), tf.reshape(v, [2, 1]))))
sess.run(v.assign([5.0, 6.0]))
print(sess.run(v))
opts = tf.RunOptions(trace_level=tf.RunOptions.NO_TRACE)
md = tf.RunMetadata()
print(sess.run(c, feed, options=opts, run_metadata=md))
print([dev.name for dev in sess.list_devices()])
sess.close()
try:
    sess.run(c, feed)
except RuntimeError as e:
    print("RuntimeError", e)
isess = tf.InteractiveSession()
print(b.eval(), (b * 2).eval())
isess.close()
with tf.Session() as s2:
    print(tf.get_default_session() is s2, c.eval(feed_dict={a: [0.0, 1.0]}))
print(tf.get_default_session())
with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as s3:
    print([dev.name for dev in s3.list_devices()])
