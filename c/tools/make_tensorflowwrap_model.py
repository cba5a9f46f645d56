"""Writes the SavedModel schroedermatthew/TensorFlowWrap's real-TensorFlow tests load.

Its CI (.github/workflows/ci.yml, job real-tensorflow) writes it with inline Python before
building the *_tf.cpp tests: a tf.Module whose serving_default signature takes a float vector
`x` of unknown length and returns x * 2 + 1 (output_0). This writes the same module; the copy in
c/testdata/client_programs/tensorflowwrap/test_savedmodel was written by TensorFlow 2.21.

    python3 c/tools/make_tensorflowwrap_model.py OUT_DIR
"""
import sys

import tensorflow as tf


class Affine(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)],
                 autograph=False)
    def serve(self, x):
        return x * 2.0 + 1.0


def main():
    module = Affine()
    tf.saved_model.save(module, sys.argv[1], signatures={"serving_default": module.serve})


if __name__ == "__main__":
    main()
