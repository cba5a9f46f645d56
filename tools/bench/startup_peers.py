#!/usr/bin/env python3
"""Start-up cost of the seed MatMul ([2,3] x [3,2] constants), from process start to printed
result, and the peak resident set (/usr/bin/time's %M): Rill's session_runner beside ONNX
Runtime (a Python process that imports onnxruntime, loads the same product as an ONNX model and
runs it) and TensorFlow (a Python process with tf.compat.v1). Medians of N runs, one sitting.

    python3 tools/bench/startup_peers.py [--runner bazel-bin/tools/session_runner/session_runner] [--reps 10]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

ORT_PROG = """
import numpy as np, onnxruntime as ort
s = ort.InferenceSession(%r, providers=["CPUExecutionProvider"])
print(s.run(None, {})[0])
"""
TF_PROG = """
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
g = tf.Graph()
with g.as_default():
    a = tf.constant([[1., 2., 3.], [4., 5., 6.]]); b = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    y = tf.matmul(a, b)
with tf.compat.v1.Session(graph=g) as s:
    print(s.run(y))
"""


def matmul_onnx(path):
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper
    a = numpy_helper.from_array(np.array([[1, 2, 3], [4, 5, 6]], np.float32), "a")
    b = numpy_helper.from_array(np.array([[1, 2], [3, 4], [5, 6]], np.float32), "b")
    node = helper.make_node("MatMul", ["a", "b"], ["y"])
    out = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 2])
    graph = helper.make_graph([node], "matmul", [], [out], initializer=[a, b])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def measure(cmd, reps):
    """Median wall seconds and median peak resident KB of `cmd` under /usr/bin/time."""
    wall, rss = [], []
    for _ in range(reps):
        r = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit("failed: %s\n%s" % (" ".join(cmd), r.stderr))
        e, m = r.stderr.strip().splitlines()[-1].split()
        wall.append(float(e))
        rss.append(int(m))
    return statistics.median(wall), statistics.median(rss)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runner", default=os.path.join(ROOT, "bazel-bin/tools/session_runner/session_runner"))
    p.add_argument("--reps", type=int, default=10)
    a = p.parse_args()
    rows = [("Rill session_runner", [a.runner, "--graph=" + os.path.join(ROOT, "examples/graphs/matmul.pbtxt"),
                                     "--fetch=MatMul"])]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            model = os.path.join(tmp, "matmul.onnx")
            matmul_onnx(model)
            rows.append(("ONNX Runtime (python)", [sys.executable, "-c", ORT_PROG % model]))
        except ImportError:
            print("onnx/onnxruntime not installed: no ONNX Runtime row")
        try:
            import tensorflow  # noqa: F401
            rows.append(("TensorFlow (python)", [sys.executable, "-c", TF_PROG]))
        except ImportError:
            print("tensorflow not installed: no TensorFlow row")
        rows.append(("python3 alone", [sys.executable, "-c", "pass"]))
        print("| program | start to result (ms) | peak resident set (MB) |")
        print("|---|---:|---:|")
        for name, cmd in rows:
            wall, rss = measure(cmd, a.reps)
            print("| %s | %.0f | %.1f |" % (name, wall * 1000, rss / 1024))


if __name__ == "__main__":
    main()
