"""Rill from Python: `import rill.compat.v1 as tf` runs TensorFlow 1 graph programs on Rill."""
__version__ = "0.1.0"
