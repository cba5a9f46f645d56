"""Python functions that build ops: generated ones (gen_ops) and TensorFlow's hand-written API."""
