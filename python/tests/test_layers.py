"""tf.layers.dense and tf.nn.dropout. TensorFlow 2.21 has no tf.compat.v1.layers (Keras 3), so
these are checked by their arithmetic and TF 1.x's names rather than a recording."""
import numpy as np

import rill.compat.v1 as tf


def test_dense_names_values_and_reuse():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        h = tf.layers.dense(x, 2, activation=tf.nn.relu, kernel_initializer=tf.ones_initializer())
        out = tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(0.5),
                              bias_initializer=tf.constant_initializer(0.25), name="out")
        again = tf.layers.dense(h, 1, name="out", reuse=True)
        assert h.name == "dense/Relu:0" and out.name == "out/BiasAdd:0"
        assert [v.name for v in tf.trainable_variables()] == [
            "dense/kernel:0", "dense/bias:0", "out/kernel:0", "out/bias:0"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feed = {x: [[1.0, -2.0, 3.0], [-4.0, 1.0, 1.0]]}
            assert sess.run(h, feed).tolist() == [[2.0, 2.0], [0.0, 0.0]]
            assert sess.run(out, feed).tolist() == [[2.25], [0.25]]
            assert sess.run(again, feed).tolist() == [[2.25], [0.25]]


def test_dropout_keeps_scaled_values_or_zeros():
    with tf.Graph().as_default():
        z = tf.placeholder(tf.float32, [4, 50])
        d = tf.nn.dropout(z, rate=0.5, seed=1)
        same = tf.nn.dropout(z, rate=0.0)
        assert same is z
        with tf.Session() as sess:
            dv = sess.run(d, {z: np.ones([4, 50], np.float32)})
            assert dv.shape == (4, 50) and set(dv.ravel().tolist()) == {0.0, 2.0}
