#!/usr/bin/env python3
"""Runs the every-op sweep's successful cases in TensorFlow and compares (issue 26: silent wrong
numbers). Needs tensorflow-cpu (pip); not used by the tests at run time.

    bazel build -c opt //tests/reliability:op_sweep
    bazel-bin/tests/reliability/op_sweep --record=/tmp/sweep_rec
    python3 tests/tfgen/sweep_vs_tf.py /tmp/sweep_rec [--ops=Conv2D,Range] [--limit=N]

For each recorded case (GraphDef and Rill's x:0), TensorFlow imports the GraphDef into a
tf.compat.v1 Session and fetches x:0. Reported, grouped by op:
  - TF_ERROR: TensorFlow refuses what Rill ran (Rill may compute from an invalid input);
  - DIFFERENT: both ran, and the dtype, shape or values differ (floats beyond 1e-5 of the
    output's scale; NaN where the other has a number; integers, bools and strings exactly);
  - TF_CRASH: TensorFlow's process died on the case (each case runs in a worker process that is
    restarted).
Ops TensorFlow does not know, and stateful ops (random numbers), are counted apart.
"""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2, tensor_pb2  # noqa: E402

# Ops whose outputs depend on a seed, the clock or the process: not compared.
UNCOMPARED = ("Random", "Multinomial", "Shuffle", "Timestamp", "Candidate",
              "ParameterizedTruncated", "TruncatedNormal", "Stateless")


def compare(rill, tf_value):
    """None when equal enough, else a short reason."""
    strings = rill.dtype.kind in "SUO" and tf_value.dtype.kind in "SUO"
    if rill.dtype != tf_value.dtype and not strings:
        return "dtype %s vs TF %s" % (rill.dtype, tf_value.dtype)
    if rill.shape != tf_value.shape:
        return "shape %s vs TF %s" % (list(rill.shape), list(tf_value.shape))
    if rill.size == 0:
        return None
    if rill.dtype.kind in "fc":
        a = rill.astype(np.complex128).ravel()
        b = tf_value.astype(np.complex128).ravel()
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if (nan_a != nan_b).any():
            i = int(np.argmax(nan_a != nan_b))
            return "element %d: %s vs TF %s (NaN)" % (i, a[i], b[i])
        inf_a, inf_b = np.isinf(a), np.isinf(b)
        if (inf_a != inf_b).any() or (a[inf_a] != b[inf_b]).any():
            i = int(np.argmax((inf_a != inf_b) | (inf_a & (a != b))))
            return "element %d: %s vs TF %s (inf)" % (i, a[i], b[i])
        fin = ~(nan_a | inf_a)
        if not fin.any():
            return None
        scale = max(np.abs(b[fin]).max(), 1e-30)
        err = np.abs(a[fin] - b[fin])
        tol = 1e-5 if rill.dtype in (np.float32, np.complex64, np.float64, np.complex128) else 2e-3
        if err.max() > tol * scale and (err / np.maximum(np.abs(b[fin]), 1e-30)).max() > tol:
            i = int(np.argmax(err))
            return "element %d: %s vs TF %s (max abs err %.3g, scale %.3g)" % (
                i, a[fin][i], b[fin][i], err.max(), scale)
        return None
    if rill.dtype.kind in "SUO":
        if [bytes(x) if not isinstance(x, bytes) else x for x in rill.ravel()] != \
                [bytes(x) if not isinstance(x, bytes) else x for x in tf_value.ravel()]:
            return "strings differ: %r vs TF %r" % (rill.ravel()[:3], tf_value.ravel()[:3])
        return None
    if (rill != tf_value).any():
        i = int(np.argmax(rill.ravel() != tf_value.ravel()))
        return "element %d: %s vs TF %s" % (i, rill.ravel()[i], tf_value.ravel()[i])
    return None


def run_tf(graph_def):
    g = tf.Graph()
    with g.as_default():
        tf.graph_util.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=g) as sess:
        return sess.run("x:0")


def case_result(path):
    """One case in this process: (kind, text), kind one of same/different/tf_error."""
    graph_def = graph_pb2.GraphDef()
    with open(path, "rb") as f:
        graph_def.ParseFromString(f.read())
    out = tensor_pb2.TensorProto()
    with open(path[:-len(".graph.pb")] + ".out.pb", "rb") as f:
        out.ParseFromString(f.read())
    rill = tf.make_ndarray(out)
    try:
        tf_value = run_tf(graph_def)
    except Exception as e:  # TensorFlow's refusal: its message without the graph context
        text = getattr(e, "message", None) or str(e)
        lines = [l for l in text.strip().splitlines() if l.strip() and "Graph execution" not in l]
        msg = lines[0][:200] if lines else ""
        return "tf_error", "%s: %s" % (type(e).__name__, msg)
    reason = compare(rill, np.asarray(tf_value))
    return ("different", reason) if reason else ("same", "")


def worker():
    """Reads case paths on stdin, writes one JSON line per case (TensorFlow may abort)."""
    for line in sys.stdin:
        kind, text = case_result(line.strip())
        sys.stdout.write(json.dumps([kind, text]) + "\n")
        sys.stdout.flush()


class Worker:
    """A `--worker` child; restarted when TensorFlow kills it."""

    def __init__(self):
        self.proc = None

    def run(self, path):
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([sys.executable, __file__, "--worker"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True)
        self.proc.stdin.write(path + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.proc = None
            return "tf_crash", "TensorFlow died"
        return json.loads(line)


def main():
    if sys.argv[1:] == ["--worker"]:
        worker()
        return 0
    p = argparse.ArgumentParser()
    p.add_argument("record_dir")
    p.add_argument("--ops", default="")
    p.add_argument("--limit", type=int, default=0, help="at most N cases per op")
    p.add_argument("--all", action="store_true", help="print every finding (default: 6 per op)")
    a = p.parse_args()
    wanted = set(a.ops.split(",")) if a.ops else None
    per_op = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(a.record_dir, "*.graph.pb"))):
        op, index = os.path.basename(path)[:-len(".graph.pb")].rsplit(".", 1)
        if wanted is None or op in wanted:
            per_op[op].append((int(index), path))
    tf_ops = set(tf.raw_ops.__dict__)
    findings = collections.defaultdict(list)
    counts = collections.Counter()
    w = Worker()
    for op, cases in sorted(per_op.items()):
        if op not in tf_ops:
            counts["op unknown to TF"] += len(cases)
            continue
        if any(op.startswith(u) or u in op for u in UNCOMPARED):
            counts["uncompared (random)"] += len(cases)
            continue
        for index, path in sorted(cases)[: a.limit or None]:
            kind, text = w.run(path)
            counts[kind] += 1
            if kind == "same":
                continue
            label_path = path[:-len(".graph.pb")] + ".label"
            label = open(label_path).read() if os.path.exists(label_path) else ""
            findings[op].append("#%d [%s] %s %s" % (index, label, kind.upper(), text))
    for op, lines in sorted(findings.items()):
        print("%s: %d" % (op, len(lines)))
        for line in lines if a.all else lines[:6]:
            print("   ", line)
    print("; ".join("%s %d" % kv for kv in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
