"""TensorFlow-compatible API modules (v1: the TF1 graph-and-session API)."""
