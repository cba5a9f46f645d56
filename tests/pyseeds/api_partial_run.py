# Session.partial_run: a run fed and fetched in steps (TF1's partial_run_setup / partial_run).
import rill.compat.v1 as tf

a = tf.placeholder(tf.float32, shape=[], name="a")
b = tf.placeholder(tf.float32, shape=[], name="b")
c = tf.placeholder(tf.float32, shape=[], name="c")
r1 = tf.add(a, b)
r2 = tf.multiply(r1, c)
with tf.Session() as sess:
    h = sess.partial_run_setup([r1, r2], [a, b, c])
    res = sess.partial_run(h, r1, feed_dict={a: 1, b: 2})
    print(float(res))
    res = sess.partial_run(h, r2, feed_dict={c: res})
    print(float(res))
