# Variables around TF1 models: variable_scope/get_variable (sharing, reuse errors, initializers),
# train.Saver save and restore, import_graph_def, resource variables.
import os
import tempfile

import numpy as np
import rill.compat.v1 as tf

with tf.variable_scope("layer"):
    w = tf.get_variable("w", shape=[2, 2], initializer=tf.ones_initializer())
    bias = tf.get_variable("b", shape=[2], initializer=tf.zeros_initializer())
    k = tf.get_variable("k", initializer=tf.constant([1.0, 2.0]))
    r = tf.get_variable("r", shape=[3, 4])
print(w.name, bias.name, k.name, r.name, r.shape)
with tf.variable_scope("layer", reuse=True):
    w2 = tf.get_variable("w")
print(w2 is w)
try:
    with tf.variable_scope("layer"):
        tf.get_variable("w", shape=[2, 2])
except ValueError as e:
    print("ValueError", str(e).split(".")[0])
with tf.variable_scope("layer", reuse=tf.AUTO_REUSE):
    print(tf.get_variable("w") is w, tf.get_variable("new", shape=[1]).name)
with tf.variable_scope("other"):
    with tf.name_scope("ns"):
        op = tf.constant(1.0, name="c")
print(op.name)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(sess.run(w), sess.run(bias), sess.run(k))
vals = sess.run(r)
print(vals.shape, bool(np.all(np.abs(vals) <= np.sqrt(6.0 / 7.0))))
saver = tf.train.Saver()
d = tempfile.mkdtemp()
path = saver.save(sess, os.path.join(d, "model"), global_step=3)
print(os.path.basename(path), sorted(os.listdir(d)))
print(os.path.basename(tf.train.latest_checkpoint(d)))
sess.run(w.assign([[9.0, 9.0], [9.0, 9.0]]))
saver.restore(sess, path)
print(sess.run(w))
sess2 = tf.Session()
saver.restore(sess2, path)
print(sess2.run(k))
g = tf.Graph()
with g.as_default():
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.multiply(x, 3.0, name="y")
gd = g.as_graph_def()
with tf.Graph().as_default() as g3:
    feed = tf.constant([1.0, 2.0], name="feed")
    yy, = tf.import_graph_def(gd, input_map={"x:0": feed}, return_elements=["y:0"])
    print(yy.name, [o.name for o in g3.get_operations()])
    with tf.Session() as s3:
        print(s3.run(yy))
    out = tf.import_graph_def(gd, name="again", return_elements=["y", "x:0"])
    print(isinstance(out[0], tf.Operation), isinstance(out[1], tf.Tensor), out[1].name)
with tf.Graph().as_default():
    rv = tf.Variable(2.0, use_resource=True, name="rv")
    with tf.Session() as s4:
        s4.run(tf.global_variables_initializer())
        s4.run(rv.assign_add(1.5))
        print(rv.op.type, s4.run(rv.read_value()), s4.run(rv * 2.0))
