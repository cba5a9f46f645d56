# Training as TF1 programs write it (needs tf.gradients): gradients with grad_ys, unconnected
# inputs and stop_gradients; GradientDescent, Momentum and Adam minimizing a least-squares loss
# with a global step; names of the ops minimize adds.
import numpy as np
import rill.compat.v1 as tf

x = tf.placeholder(tf.float32, [None, 2], name="x")
y = tf.placeholder(tf.float32, [None, 1], name="y")
w = tf.Variable([[0.0], [0.0]], name="w")
b = tf.Variable(0.0, name="b")
pred = tf.matmul(x, w) + b
loss = tf.reduce_mean(tf.square(pred - y))
unused = tf.Variable(1.0, name="unused")
gw, gb, gu = tf.gradients(loss, [w, b, unused])
print(gw.shape.ndims, gb.shape, gu)
g2, = tf.gradients(pred, [b], grad_ys=[tf.ones([4, 1]) * 2.0])
g3, = tf.gradients(loss, [w], stop_gradients=[pred])
print(g3)
xs = np.array([[1, 2], [2, 1], [3, 3], [0, 1]], np.float32)
ys = xs @ np.array([[2.0], [-1.0]], np.float32) + 0.5
feed = {x: xs, y: ys}
step = tf.train.get_or_create_global_step()
opts = [tf.train.GradientDescentOptimizer(0.05), tf.train.MomentumOptimizer(0.02, 0.9),
        tf.train.AdamOptimizer(0.1)]
trains = [o.minimize(loss, global_step=step) for o in opts[:1]] + [o.minimize(loss) for o in opts[1:]]
print([t.name for t in trains], trains[0].type)
for t in trains:
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        if t is trains[0]:
            gw_v, gb_v = sess.run([gw, gb], feed)
            print(np.round(gw_v, 4).ravel().tolist(), round(float(gb_v), 4), sess.run(g2, feed))
        for _ in range(300):
            sess.run(t, feed)
        print([round(float(v), 2) for v in sess.run(w).ravel()], round(float(sess.run(b)), 2),
              round(float(sess.run(loss, feed)), 4) < 0.01, sess.run(step))
# Adagrad and RMSProp on the same loss; GradientDescent on a resource variable.
for opt in (tf.train.AdagradOptimizer(0.5), tf.train.RMSPropOptimizer(0.05)):
    t = opt.minimize(loss, var_list=[w, b])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(200):
            sess.run(t, feed)
        print(type(opt).__name__, round(float(sess.run(loss, feed)), 2) < 0.05)
with tf.Graph().as_default():
    rv = tf.Variable([[1.0], [1.0]], use_resource=True, name="rv")
    xs_t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    rloss = tf.reduce_sum(tf.square(tf.matmul(xs_t, rv)))
    rgrad, = tf.gradients(rloss, [rv])
    rtrain = tf.train.GradientDescentOptimizer(0.01).minimize(rloss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(rgrad).ravel().tolist())
        sess.run(rtrain)
        print([round(float(v), 4) for v in sess.run(rv).ravel()])
