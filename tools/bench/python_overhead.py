#!/usr/bin/env python3
"""Overhead of one session.run from Python on a one-node graph: rill.compat.v1 (ctypes over
libtensorflow.so.2) beside TensorFlow's tf.compat.v1.Session and ONNX Runtime's
InferenceSession.run. Each framework runs in its own process (TensorFlow's Python and Rill's
library both define the TF_* C functions). Two graphs: a scalar Const fetched (no feed; for
ONNX Runtime a Constant node), and a float32[1] placeholder fed and fetched through Identity.
Every session gets one intra-op and one inter-op thread. Rill and TensorFlow are timed through
Session.run and through Session.make_callable. Prints the median of --reps timings of --calls
calls each, in microseconds per call.

    python3 tools/bench/python_overhead.py [--calls 20000] [--reps 5] [--library bazel-bin/c/libtensorflow.so.2]

Needs numpy, tensorflow and onnxruntime (and onnx) in this python3; Rill from python/ of this
checkout (or the installed package).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

TIMER = """
import time, statistics, json, sys
def timed(fn, calls, reps):
    for _ in range(min(2000, calls)):
        fn()
    per = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        per.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(per)
"""

TF1_BODY = """
import numpy as np
g = tf.Graph()
with g.as_default():
    c = tf.constant(1.0, name="c")
    x = tf.placeholder(tf.float32, [1], name="x")
    y = tf.identity(x, name="y")
cfg = tf.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
sess = tf.Session(graph=g, config=cfg)
v = np.ones([1], np.float32)
assert sess.run(c) == 1.0 and sess.run(y, {x: v})[0] == 1.0
fc = sess.make_callable(c)
fy = sess.make_callable(y, [x])
assert fc() == 1.0 and fy(v)[0] == 1.0
out = {"const": timed(lambda: sess.run(c), CALLS, REPS),
       "feed_identity": timed(lambda: sess.run(y, {x: v}), CALLS, REPS),
       "callable_const": timed(fc, CALLS, REPS),
       "callable_feed_identity": timed(lambda: fy(v), CALLS, REPS)}
print(json.dumps(out))
"""

RILL_PROG = TIMER + """
import rill.compat.v1 as tf
""" + TF1_BODY

TF_PROG = TIMER + """
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
""" + TF1_BODY

ORT_PROG = TIMER + """
import numpy as np, onnx, onnxruntime as ort
from onnx import helper, TensorProto
def model(nodes, inputs, outputs):
    g = helper.make_graph(nodes, "g", inputs, outputs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m.SerializeToString()
const = model([helper.make_node("Constant", [], ["c"], value=helper.make_tensor("v", TensorProto.FLOAT, [], [1.0]))],
              [], [helper.make_tensor_value_info("c", TensorProto.FLOAT, [])])
ident = model([helper.make_node("Identity", ["x"], ["y"])],
              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
so = ort.SessionOptions()
so.intra_op_num_threads = 1
so.inter_op_num_threads = 1
sc = ort.InferenceSession(const, so, providers=["CPUExecutionProvider"])
si = ort.InferenceSession(ident, so, providers=["CPUExecutionProvider"])
v = np.ones([1], np.float32)
assert sc.run(None, {})[0] == 1.0 and si.run(None, {"x": v})[0][0] == 1.0
out = {"const": timed(lambda: sc.run(None, {}), CALLS, REPS),
       "feed_identity": timed(lambda: si.run(None, {"x": v}), CALLS, REPS)}
print(json.dumps(out))
"""


def run(prog, calls, reps, env):
    prog = prog.replace("CALLS", str(calls)).replace("REPS", str(reps))
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(prog)
    try:
        r = subprocess.run([sys.executable, f.name], capture_output=True, text=True, env=env)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        raise SystemExit(r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--library", default=os.path.join(ROOT, "bazel-bin", "c", "libtensorflow.so.2"))
    a = ap.parse_args()
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    rill_env = dict(env, RILL_LIBRARY=os.path.abspath(a.library),
                    PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", ""))
    results = {
        "rill": run(RILL_PROG, a.calls, a.reps, rill_env),
        "tensorflow": run(TF_PROG, a.calls, a.reps, env),
        "onnxruntime": run(ORT_PROG, a.calls, a.reps, env),
    }
    print("session.run overhead, median us/call (%d calls x %d reps, one thread each)" % (a.calls, a.reps))
    rows = [("rill", "const"), ("rill", "feed_identity"), ("rill", "callable_const"),
            ("rill", "callable_feed_identity"), ("tensorflow", "const"),
            ("tensorflow", "feed_identity"), ("tensorflow", "callable_const"),
            ("tensorflow", "callable_feed_identity"), ("onnxruntime", "const"),
            ("onnxruntime", "feed_identity")]
    for fw, case in rows:
        print("%-12s %-24s %8.2f" % (fw, case, results[fw][case]))


if __name__ == "__main__":
    main()
