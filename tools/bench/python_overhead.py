#!/usr/bin/env python3
"""Overhead of one session.run from Python on a one-node graph: rill.compat.v1 (ctypes over
libtensorflow.so.2) beside TensorFlow's tf.compat.v1.Session and ONNX Runtime's
InferenceSession.run. Each framework runs in its own process (TensorFlow's Python and Rill's
library both define the TF_* C functions). Two graphs: a scalar Const fetched (no feed; for
ONNX Runtime a Constant node), and a float32[1] placeholder fed and fetched through Identity.
Every session gets one intra-op and one inter-op thread. Rill and TensorFlow are timed through
Session.run and through Session.make_callable. Prints the median of --reps timings of --calls
calls each, in microseconds per call.

    python3 tools/bench/python_overhead.py [--calls 20000] [--reps 5] [--library bazel-bin/c/libtensorflow.so.2] [--pybind11]

--pybind11 also compiles (g++, Debian's pybind11-dev headers) a one-function pybind11 module
that does what a compiled binding's run would: numpy feed -> TF_NewTensor, TF_SessionRun with
the GIL released, result -> numpy, in one call; timed on the same graphs (row "rill-pybind11").

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


PYBIND11_SRC = r"""
#include <cstring>
#include <vector>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include "tensorflow/c/c_api.h"
namespace py = pybind11;

// One run: feed (optional, float32) and fetch one float32 output, as numpy.
py::object Run(uintptr_t sess, uintptr_t out_op, uintptr_t feed_op, py::object value) {
  static thread_local TF_Status* status = TF_NewStatus();
  TF_Output out{reinterpret_cast<TF_Operation*>(out_op), 0};
  TF_Tensor* result = nullptr;
  TF_Tensor* in_t = nullptr;
  TF_Output in{reinterpret_cast<TF_Operation*>(feed_op), 0};
  int nin = 0;
  py::array_t<float, py::array::c_style | py::array::forcecast> arr;
  if (feed_op != 0) {
    arr = py::array_t<float, py::array::c_style | py::array::forcecast>(value);
    std::vector<int64_t> dims(arr.shape(), arr.shape() + arr.ndim());
    in_t = TF_NewTensor(TF_FLOAT, dims.data(), arr.ndim(), const_cast<float*>(arr.data()),
                        arr.size() * sizeof(float), [](void*, size_t, void*) {}, nullptr);
    nin = 1;
  }
  {
    py::gil_scoped_release release;
    TF_SessionRun(reinterpret_cast<TF_Session*>(sess), nullptr, &in, &in_t, nin, &out, &result,
                  1, nullptr, 0, nullptr, status);
  }
  if (in_t != nullptr) TF_DeleteTensor(in_t);
  if (TF_GetCode(status) != TF_OK) throw std::runtime_error(TF_Message(status));
  int nd = TF_NumDims(result);
  std::vector<py::ssize_t> shape(nd);
  for (int i = 0; i < nd; ++i) shape[i] = TF_Dim(result, i);
  py::array_t<float> a(shape);
  std::memcpy(a.mutable_data(), TF_TensorData(result), TF_TensorByteSize(result));
  TF_DeleteTensor(result);
  if (nd == 0) return a[py::tuple()];
  return std::move(a);
}

PYBIND11_MODULE(rill_pybind11_probe, m) { m.def("run", &Run); }
"""

PYBIND11_PROG = TIMER + """
import sys
sys.path.insert(0, MODULE_DIR)
import numpy as np
import rill_pybind11_probe as probe
import rill.compat.v1 as tf
g = tf.Graph()
with g.as_default():
    c = tf.constant(1.0, name="c")
    x = tf.placeholder(tf.float32, [1], name="x")
    y = tf.identity(x, name="y")
cfg = tf.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
sess = tf.Session(graph=g, config=cfg)
v = np.ones([1], np.float32)
S, co, yo, xo = sess._c_session, c.op._c_op, y.op._c_op, x.op._c_op
assert probe.run(S, co, 0, None) == 1.0 and probe.run(S, yo, xo, v)[0] == 1.0
out = {"const": timed(lambda: probe.run(S, co, 0, None), CALLS, REPS),
       "feed_identity": timed(lambda: probe.run(S, yo, xo, v), CALLS, REPS)}
print(json.dumps(out))
"""


def build_pybind11_probe(library, out_dir):
    src = os.path.join(out_dir, "probe.cc")
    with open(src, "w") as f:
        f.write(PYBIND11_SRC)
    suffix = subprocess.check_output(
        [sys.executable, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
        text=True).strip()
    include = subprocess.check_output(
        [sys.executable, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"],
        text=True).strip()
    lib_dir = os.path.dirname(os.path.abspath(library))
    subprocess.check_call(
        ["g++", "-O2", "-shared", "-fPIC", "-std=c++17", "-I" + include,
         "-I" + os.path.join(ROOT, "c", "include"), src, "-o",
         os.path.join(out_dir, "rill_pybind11_probe" + suffix), "-L" + lib_dir,
         "-l:" + os.path.basename(library), "-Wl,-rpath," + lib_dir])


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
    ap.add_argument("--pybind11", action="store_true",
                    help="also time a compiled pybind11 run (needs g++ and pybind11-dev)")
    a = ap.parse_args()
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    rill_env = dict(env, RILL_LIBRARY=os.path.abspath(a.library),
                    PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", ""))
    results = {
        "rill": run(RILL_PROG, a.calls, a.reps, rill_env),
        "tensorflow": run(TF_PROG, a.calls, a.reps, env),
        "onnxruntime": run(ORT_PROG, a.calls, a.reps, env),
    }
    if a.pybind11:
        with tempfile.TemporaryDirectory() as d:
            build_pybind11_probe(a.library, d)
            results["rill-pybind11"] = run(PYBIND11_PROG.replace("MODULE_DIR", repr(d)),
                                           a.calls, a.reps, rill_env)
    print("session.run overhead, median us/call (%d calls x %d reps, one thread each)" % (a.calls, a.reps))
    rows = [("rill", "const"), ("rill", "feed_identity"), ("rill", "callable_const"),
            ("rill", "callable_feed_identity"), ("tensorflow", "const"),
            ("tensorflow", "feed_identity"), ("tensorflow", "callable_const"),
            ("tensorflow", "callable_feed_identity"), ("onnxruntime", "const"),
            ("onnxruntime", "feed_identity")]
    if a.pybind11:
        rows += [("rill-pybind11", "const"), ("rill-pybind11", "feed_identity")]
    for fw, case in rows:
        print("%-14s %-24s %8.2f" % (fw, case, results[fw][case]))


if __name__ == "__main__":
    main()
