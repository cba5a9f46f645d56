#!/usr/bin/env python3
"""What Rill's elementwise kernels cost per element, for their split thresholds.

For each op class (a same-shape binary op, a binary op with a scalar, a cheap unary op, BiasAdd,
the transcendental unary ops) and each size, one graph: a Placeholder of that many floats through
a chain of CHAIN nodes of the op (each reads the previous one's output, so none can be folded and
the data stays where the previous node left it, as in a model; values may grow to inf or NaN
along the chain, which the vectorized loops take in the same time). session_runner times it
(`--benchmark --warmup=3`, the -c opt build, OMP_WAIT_POLICY=PASSIVE); the chain's median minus
the same chain at 256 elements (the executor's per-node cost), over CHAIN * size, is the op's
ns per element.

    bazel build -c opt //tools/session_runner
    python3 tools/bench/cwise_costs.py [--threads 1,2] [--sizes 16384,65536,262144,1048576]
        [--ops AddV2,Relu] [--reps 40] [--runner PATH]

At 1 thread the figure is the kernel's own cost; at 2 threads, beside it, whether the split over
the intra-op team (OpKernelContext::ParallelFor) paid at that size. Graphs are made in a temporary
directory on each run (TensorFlow builds them; Rill does not need it).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHAIN = 20
CHANNELS = 256  # BiasAdd's and the row operand's last dim


def _node(tf, op, x):
    """One node of the chain: op applied to x (a float tensor of shape [n / CHANNELS, CHANNELS])."""
    if op == "AddV2":
        return tf.raw_ops.AddV2(x=x, y=x)
    if op == "MulScalar":
        return tf.raw_ops.Mul(x=x, y=tf.constant(0.5))
    if op == "AddRow":
        return tf.raw_ops.AddV2(x=x, y=tf.constant(np.full([CHANNELS], 0.25, np.float32)))
    if op == "BiasAdd":
        return tf.raw_ops.BiasAdd(value=x, bias=tf.constant(np.full([CHANNELS], 0.25, np.float32)))
    if op == "SquaredDifference":
        return tf.raw_ops.SquaredDifference(x=x, y=x)
    if op in ("Relu", "Relu6"):
        return getattr(tf.raw_ops, op)(features=x)
    if op in ("Neg", "Abs", "Square"):
        return getattr(tf.raw_ops, op)(x=x)
    if op in ("Sigmoid", "Tanh", "Erf", "Exp", "Rsqrt", "Sin"):
        return getattr(tf.raw_ops, op)(x=x)
    if op in ("Elu", "Softplus"):
        return getattr(tf.raw_ops, op)(features=x)
    raise ValueError(op)


OPS = ["AddV2", "MulScalar", "AddRow", "BiasAdd", "SquaredDifference", "Relu", "Relu6", "Neg",
       "Sigmoid", "Tanh", "Erf", "Exp", "Sin", "Elu", "Softplus"]


def make_graph(path, op, n):
    import tensorflow as tf
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [n // CHANNELS, CHANNELS], name="x")
        y = x
        for _ in range(CHAIN):
            y = _node(tf, op, y)
        tf.identity(y, name="out")
    with open(path, "wb") as f:
        f.write(g.as_graph_def().SerializeToString())


def time_us(runner, graph, x_path, threads, reps, tmp):
    cfg = os.path.join(tmp, "config_%d.pbtxt" % threads)
    with open(cfg, "w") as f:
        f.write("intra_op_parallelism_threads: %d inter_op_parallelism_threads: %d\n" %
                (threads, threads))
    env = dict(os.environ)
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    out = subprocess.run([runner, "--graph=" + graph, "--config=" + cfg, "--feed=x=" + x_path,
                          "--fetch=out", "--benchmark", "--warmup=3", "--repeat=%d" % reps],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit("session_runner failed: " + out.stderr[-500:])
    m = re.search(r"median ([0-9.]+) ?(us|ms|s)", out.stdout)
    scale = {"us": 1.0, "ms": 1e3, "s": 1e6}[m.group(2)]
    return float(m.group(1)) * scale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", default=os.path.join(
        ROOT, "bazel-out/k8-opt/bin/tools/session_runner/session_runner"))
    ap.add_argument("--threads", default="1")
    ap.add_argument("--sizes", default="16384,65536,262144,1048576")
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--reps", type=int, default=40)
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    sizes = [int(s) for s in a.sizes.split(",")]
    print("ns per element (chain of %d nodes, median run minus the 256-element chain's)" % CHAIN)
    print("| op | threads | " + " | ".join("%d" % s for s in sizes) + " |")
    print("|---|---:|" + "---:|" * len(sizes))
    with tempfile.TemporaryDirectory() as tmp:
        for op in a.ops.split(","):
            graphs = {}
            for n in [CHANNELS] + sizes:
                graphs[n] = os.path.join(tmp, "%s_%d.pb" % (op, n))
                make_graph(graphs[n], op, n)
                x = np.random.RandomState(n).uniform(-1, 1, [n // CHANNELS, CHANNELS])
                np.save(os.path.join(tmp, "x_%d.npy" % n), x.astype(np.float32))
            for t in threads:
                base = time_us(a.runner, graphs[CHANNELS], os.path.join(tmp, "x_%d.npy" % CHANNELS),
                               t, a.reps, tmp)
                cells = []
                for n in sizes:
                    us = time_us(a.runner, graphs[n], os.path.join(tmp, "x_%d.npy" % n), t, a.reps,
                                 tmp)
                    cells.append("%.3f" % ((us - base) * 1e3 / (CHAIN * n)))
                print("| %s | %d | %s |" % (op, t, " | ".join(cells)), flush=True)


if __name__ == "__main__":
    main()
