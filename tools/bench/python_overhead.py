#!/usr/bin/env python3
"""Overhead of one session.run from Python on a one-node graph: rill.compat.v1 on its compiled
path (rill._fastrun) and on its ctypes path (RILL_PYTHON_NO_FASTRUN=1) beside TensorFlow's
tf.compat.v1.Session and ONNX Runtime's InferenceSession.run. Each framework runs in its own
process (TensorFlow's Python and Rill's library both define the TF_* C functions). Two graphs: a
scalar Const fetched (no feed; for ONNX Runtime a Constant node), and a float32[1] placeholder fed
and fetched through Identity. Every session gets one intra-op and one inter-op thread. Rill and
TensorFlow are timed through Session.run and through Session.make_callable.

The machine may be shared and noisy, so the frameworks alternate: each of --sittings rounds runs
every framework once (in a rotated order), each process timing --reps runs of --calls calls.
Prints, in microseconds per call, the median over all reps of all sittings and the spread (the
lowest and highest sitting median).

    python3 tools/bench/python_overhead.py [--calls 20000] [--reps 5] [--sittings 3]
        [--library bazel-bin/c/libtensorflow.so.2] [--fastrun bazel-bin/python/rill/_fastrun.so]

Needs numpy, tensorflow and onnxruntime (and onnx) in this python3; Rill from python/ of this
checkout (or the installed package) with rill._fastrun built (bazel build
//python:rill/_fastrun.so).
"""
import argparse
import json
import os
import statistics
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
    return per
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
import os
import rill.compat.v1 as tf
from rill import _fast
assert (_fast.module is not None) == (os.environ.get("RILL_PYTHON_NO_FASTRUN") != "1"), _fast.reason
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


FRAMEWORKS = ["rill", "rill-ctypes", "tensorflow", "onnxruntime"]
ROWS = [("rill", "const"), ("rill", "feed_identity"), ("rill", "callable_const"),
        ("rill", "callable_feed_identity"), ("rill-ctypes", "const"),
        ("rill-ctypes", "feed_identity"), ("rill-ctypes", "callable_const"),
        ("rill-ctypes", "callable_feed_identity"), ("tensorflow", "const"),
        ("tensorflow", "feed_identity"), ("tensorflow", "callable_const"),
        ("tensorflow", "callable_feed_identity"), ("onnxruntime", "const"),
        ("onnxruntime", "feed_identity")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--sittings", type=int, default=3)
    ap.add_argument("--library", default=os.path.join(ROOT, "bazel-bin", "c", "libtensorflow.so.2"))
    ap.add_argument("--fastrun", default=os.path.join(ROOT, "bazel-bin", "python", "rill",
                                                      "_fastrun.so"))
    a = ap.parse_args()
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    rill_env = dict(env, RILL_LIBRARY=os.path.abspath(a.library),
                    RILL_FASTRUN=os.path.abspath(a.fastrun),
                    PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", ""))
    rill_env.pop("RILL_PYTHON_NO_FASTRUN", None)
    progs = {"rill": (RILL_PROG, rill_env),
             "rill-ctypes": (RILL_PROG, dict(rill_env, RILL_PYTHON_NO_FASTRUN="1")),
             "tensorflow": (TF_PROG, env), "onnxruntime": (ORT_PROG, env)}
    reps = {}  # (framework, case) -> every rep's us/call
    sitting_medians = {}  # (framework, case) -> each sitting's median
    for i in range(a.sittings):
        k = i % len(FRAMEWORKS)
        for fw in FRAMEWORKS[k:] + FRAMEWORKS[:k]:
            prog, penv = progs[fw]
            for case, per in run(prog, a.calls, a.reps, penv).items():
                reps.setdefault((fw, case), []).extend(per)
                sitting_medians.setdefault((fw, case), []).append(statistics.median(per))
    print("session.run overhead, us/call: median of %d sittings x %d reps x %d calls "
          "(spread: lowest..highest sitting median), one thread each" % (
              a.sittings, a.reps, a.calls))
    for fw, case in ROWS:
        m = sitting_medians[(fw, case)]
        print("%-12s %-24s %8.2f   (%.2f..%.2f)" % (fw, case, statistics.median(reps[(fw, case)]),
                                                   min(m), max(m)))


if __name__ == "__main__":
    main()
