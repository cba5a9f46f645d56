#!/usr/bin/env python3
"""Recurrent text models (issue 29's worst case), timed in Rill (session_runner --benchmark) and in
TensorFlow (tf.compat.v1 Session on the same frozen GraphDef), at 1/1, 2/1, 1/2 and 2/2 intra/inter
threads, one sitting. The models are Keras Embedding + GRU or LSTM (not unrolled: the frozen graph
keeps the While loop as TF1 control flow) + Dense, with seeded random weights, made once into
~/.cache/rill-bench-models.

    python3 tools/bench/recurrent_peers.py [--runner bazel-bin/tools/session_runner/session_runner] [--reps 40]
Prints one table: median microseconds per run and the TensorFlow / Rill ratio (> 1: Rill faster).
"""
import argparse
import os
import re
import subprocess
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.expanduser("~/.cache/rill-bench-models")
# name -> (layer, units, batch, steps)
MODELS = {"gru128_b16_t64": ("GRU", 128, 16, 64), "lstm128_b16_t64": ("LSTM", 128, 16, 64),
          "gru64_b1_t32": ("GRU", 64, 1, 32)}
THREADS = [(1, 1), (2, 1), (1, 2), (2, 2)]


def make(name):
    """The frozen GraphDef (input x: int32 [batch, steps], output Identity) and its input."""
    layer, units, batch, steps = MODELS[name]
    path = os.path.join(CACHE, name + ".pb")
    xpath = os.path.join(CACHE, name + "_x.npy")
    if not os.path.exists(path):
        import tensorflow as tf
        from tensorflow.python.framework import convert_to_constants
        k = tf.keras
        tf.keras.utils.set_random_seed(1)
        model = k.Sequential([k.Input((steps,), dtype="int32"), k.layers.Embedding(5000, 64),
                              getattr(k.layers, layer)(units), k.layers.Dense(4, activation="softmax")])
        fn = tf.function(lambda x: model(x, training=False))
        concrete = fn.get_concrete_function(tf.TensorSpec([batch, steps], tf.int32))
        graph_def = convert_to_constants.convert_variables_to_constants_v2(concrete).graph.as_graph_def()
        os.makedirs(CACHE, exist_ok=True)
        with open(path, "wb") as f:
            f.write(graph_def.SerializeToString())
        np.save(xpath, np.random.RandomState(2).randint(0, 5000, (batch, steps)).astype(np.int32))
    return path, xpath


def rill_us(runner, path, xpath, intra, inter, reps):
    with tempfile.NamedTemporaryFile("w", suffix=".pbtxt", delete=False) as cfg:
        cfg.write("intra_op_parallelism_threads: %d\ninter_op_parallelism_threads: %d\n" % (intra, inter))
    out = subprocess.run([runner, "--graph=" + path, "--config=" + cfg.name, "--feed=x=" + xpath,
                          "--fetch=Identity", "--benchmark", "--warmup=5", "--repeat=%d" % reps],
                         capture_output=True, text=True)
    os.unlink(cfg.name)
    m = re.search(r"median ([0-9.]+) us", out.stdout + out.stderr)
    if not m:
        raise SystemExit("session_runner failed: " + out.stderr[-500:])
    return float(m.group(1))


def tf_us(path, xpath, intra, inter, reps):
    import tensorflow as tf
    graph_def = tf.compat.v1.GraphDef()
    with open(path, "rb") as f:
        graph_def.ParseFromString(f.read())
    x = np.load(xpath)
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
    config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=intra,
                                      inter_op_parallelism_threads=inter)
    with tf.compat.v1.Session(graph=g, config=config) as sess:
        for _ in range(5):
            sess.run("Identity:0", {"x:0": x})
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            sess.run("Identity:0", {"x:0": x})
            times.append((time.perf_counter() - t0) * 1e6)
    return float(np.median(times))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runner", default=os.path.join(ROOT, "bazel-bin/tools/session_runner/session_runner"))
    p.add_argument("--reps", type=int, default=40)
    a = p.parse_args()
    print("| model | intra/inter | Rill (us) | TensorFlow (us) | TF / Rill |")
    print("|---|---|---:|---:|---:|")
    for name in MODELS:
        path, xpath = make(name)
        for intra, inter in THREADS:
            r = rill_us(a.runner, path, xpath, intra, inter, a.reps)
            t = tf_us(path, xpath, intra, inter, a.reps)
            print("| %s | %d/%d | %.0f | %.0f | %.2f |" % (name, intra, inter, r, t, t / r), flush=True)


if __name__ == "__main__":
    main()
