# Restoring a model as TF1 inference scripts do: train.import_meta_graph on a .meta TensorFlow
# wrote (data/tf_meta, by make_saved_model.py), restore, run by tensor names; and the same round
# trip for a model saved here. Run from tests/pyseeds/.
import os
import tempfile

import rill.compat.v1 as tf

with tf.Graph().as_default():
    saver = tf.train.import_meta_graph("data/tf_meta/model.meta")
    with tf.Session() as sess:
        saver.restore(sess, "data/tf_meta/model")
        print(sess.run("y:0", {"x:0": [1.0, 2.0]}).tolist(), sess.run("w:0").item())
d = tempfile.mkdtemp()
with tf.Graph().as_default():
    v = tf.Variable([1.0, 2.0], name="v")
    out = tf.multiply(v, 10.0, name="out")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(v.assign([5.0, 6.0]))
        path = tf.train.Saver().save(sess, os.path.join(d, "new_dir", "m"))
with tf.Graph().as_default():
    saver = tf.train.import_meta_graph(path + ".meta")
    with tf.Session() as sess:
        saver.restore(sess, path)
        print(sess.run("out:0").tolist())
with tf.Graph().as_default():
    saver = tf.train.import_meta_graph("data/tf_meta/model.meta", import_scope="m")
    with tf.Session() as sess:
        saver.restore(sess, "data/tf_meta/model")
        print(sess.run("m/y:0", {"m/x:0": [0.5]}).tolist())
