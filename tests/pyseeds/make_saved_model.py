"""Writes data/tf1_saved_model and data/tf_checkpoint with TensorFlow (run by hand; needs
tensorflow-cpu). The SavedModel: a TF1
SavedModelBuilder export, tag "serve", signature "serving_default" from x [?, 3] to
probs = softmax(x W + b), with W and b variables."""
import os
import shutil

import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
HERE = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(HERE, "data", "tf1_saved_model")
shutil.rmtree(out, ignore_errors=True)
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable([[1.0, -1.0], [0.5, 0.25], [-2.0, 2.0]], name="W")
    b = tf.Variable([0.1, -0.1], name="b")
    probs = tf.nn.softmax(tf.matmul(x, w) + b, name="probs")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        builder = tf.saved_model.builder.SavedModelBuilder(out)
        sig = tf.saved_model.signature_def_utils.predict_signature_def({"x": x}, {"probs": probs})
        builder.add_meta_graph_and_variables(sess, [tf.saved_model.tag_constants.SERVING],
                                             signature_def_map={"serving_default": sig})
        builder.save()

# A TF1 Saver checkpoint of two variables (data/tf_checkpoint/model).
ckpt_dir = os.path.join(HERE, "data", "tf_checkpoint")
shutil.rmtree(ckpt_dir, ignore_errors=True)
with tf.Graph().as_default():
    w = tf.Variable([[1.5, -2.0], [0.25, 4.0]], name="layer/w")
    step = tf.Variable(7, dtype=tf.int64, name="step")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.train.Saver().save(sess, os.path.join(ckpt_dir, "model"), write_meta_graph=False)
os.remove(os.path.join(ckpt_dir, "checkpoint"))  # holds this machine's absolute path

# A TF1 Saver checkpoint with its meta graph (data/tf_meta/model.meta): y = x * w + 1.
meta_dir = os.path.join(HERE, "data", "tf_meta")
shutil.rmtree(meta_dir, ignore_errors=True)
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None], name="x")
    w = tf.Variable(3.0, name="w")
    y = tf.add(x * w, 1.0, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(w.assign(4.0))
        tf.train.Saver().save(sess, os.path.join(meta_dir, "model"))
os.remove(os.path.join(meta_dir, "checkpoint"))
