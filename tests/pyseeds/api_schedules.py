# Learning-rate schedules over the global step: exponential_decay (smooth and staircase) and
# piecewise_constant, read at several steps.
import numpy as np
import rill.compat.v1 as tf

step = tf.train.get_or_create_global_step()
smooth = tf.train.exponential_decay(0.1, step, 10, 0.5)
stairs = tf.train.exponential_decay(0.1, step, 10, 0.5, staircase=True)
pieces = tf.train.piecewise_constant(step, [5, 15], [1.0, 0.5, 0.1])
inc = tf.assign_add(step, 4)
print(smooth.dtype.name, stairs.name, step.name)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(6):
        s, a, b, c = sess.run([step, smooth, stairs, pieces])
        print(int(s), np.round([a, b, c], 5).tolist())
        sess.run(inc)
