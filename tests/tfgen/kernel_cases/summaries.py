"""TensorSummary (the deprecated tensor_summary op): a serialized Summary proto with one value,
{node_name, tensor: the input as a TensorProto}; description, labels and display_name are not
written. The serialized bytes are compared exactly."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph

R = tf.raw_ops


def build_all(rec, emit):
    def case(dt, what, value, **attrs):
        rec.case("TensorSummary", dt, what,
                 lambda: R.TensorSummary(tensor=ph("x", value), name="summary", **attrs))

    def gen(dt):
        if dt == "float32":
            case(dt, "vector", np.array([1.5, 2.0], np.float32))
            case(dt, "attrs_not_written", np.array([[1.0], [-0.0]], np.float32),
                 description="desc", labels=["foo", "bar"], display_name="disp")
        elif dt == "int32":
            case(dt, "scalar", np.int32(3))
        elif dt == "string":
            case(dt, "vector", np.array([b"x", b"yz", b""], object))
        elif dt == "bool":
            case(dt, "matrix", np.array([[True, False]]))
        elif dt == "half":
            case(dt, "vector", np.array([0.5, -2.0], np.float16))
        elif dt == "complex64":
            case(dt, "empty", np.zeros([0, 2], np.complex64))

    rec.for_dtypes("TensorSummary", ["float32", "int32", "string", "bool", "half", "complex64"],
                   gen)
    emit("TensorSummary")
