"""Writes the SavedModel AmirulOm/tensorflow_capi_sample's tutorial describes.

Its model.py saves a Keras 2 subclassed model (one Dense unit, kernel initialized to ones,
ReLU) with save_format='tf', which Keras 3 no longer has; this writes the same computation with
tf.saved_model.save: serving signature input 'input_1' (int64 [None, 1]) -> relu(x * 1 + 0),
so that the program's TF_GraphOperationByName("serving_default_input_1") and
"StatefulPartitionedCall" find their operations. Needs tensorflow (2.21 wrote the copy in
c/testdata/client_programs/capi_sample/model).

    python3 c/tools/make_capi_sample_model.py OUT_DIR
"""
import sys

import numpy as np
import tensorflow as tf


class OneDense(tf.Module):
    def __init__(self):
        super().__init__()
        self.kernel = tf.Variable(tf.ones([1, 1]), name="kernel")
        self.bias = tf.Variable(tf.zeros([1]), name="bias")

    @tf.function(input_signature=[tf.TensorSpec([None, 1], tf.int64, name="input_1")])
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(tf.cast(x, tf.float32), self.kernel) + self.bias)


def main():
    model = OneDense()
    print(model(np.array([[20]])).numpy())  # [[20.]], the tutorial's result
    tf.saved_model.save(model, sys.argv[1], signatures={"serving_default": model.__call__})


if __name__ == "__main__":
    main()
