"""Times ONNX Runtime and TensorFlow on nn_bench's workloads, for ratios taken in one sitting.

The peers of //tools/bench:nn_bench (issue 8's speed targets): float32 NxN MatMul (N = 256,
1024, 2048), NHWC Conv2D 1x28x28x32 -> 64 3x3 SAME and 1x224x224x3 -> 64 7x7/2 SAME, and the
784-512-512-10 Relu MLP with Softmax at batch 1 and 64; each on 1 and 2 intra-op threads. Inputs
are fed and outputs fetched on every run, as nn_bench does. Prints one line per case: median
microseconds per run over `--reps` timed batches, and for ORT the Python call floor (an Identity
model) so it can be subtracted. Needs `pip install onnxruntime onnx tensorflow-cpu numpy`
(benchmarks only; no test needs them):

    python3 tools/bench/nn_peers.py [--reps 5] [--only ort|tf]
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np


def median_us(fn, min_time=0.3, reps=5):
    fn()  # warm-up
    n, t = 1, 0.0
    while t < min_time / 5:
        n *= 2
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t = time.perf_counter() - t0
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(samples)


def rng(shape, seed):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


def workloads():
    """(name, flops, inputs, builder) per case; builder(kind) makes the model for ORT or TF."""
    cases = []
    for n in (256, 1024, 2048):
        cases.append((f"MatMul/{n}", 2.0 * n ** 3, {"a": rng((n, n), 1), "b": rng((n, n), 2)},
                      ("matmul",)))
    for h, w, cin, cout, k, s in ((28, 28, 32, 64, 3, 1), (224, 224, 3, 64, 7, 2)):
        oh, ow = -(-h // s), -(-w // s)
        cases.append((f"Conv2D/{h}x{w}x{cin}->{cout} {k}x{k}/{s}", 2.0 * oh * ow * cout * k * k * cin,
                      {"x": rng((1, h, w, cin), 4)}, ("conv", rng((k, k, cin, cout), 3), s)))
    weights = [(rng((a, b), 10 + i), rng((b,), 20 + i))
               for i, (a, b) in enumerate(((784, 512), (512, 512), (512, 10)))]
    for batch in (1, 64):
        cases.append((f"MLP/{batch}", 2.0 * batch * (784 * 512 + 512 * 512 + 512 * 10),
                      {"x": rng((batch, 784), 5)}, ("mlp", weights)))
    return cases


def ort_model(spec, inputs):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    nodes, inits = [], []
    ins = [helper.make_tensor_value_info(k, TensorProto.FLOAT, list(v.shape)) for k, v in inputs.items()]
    kind = spec[0]
    if kind == "matmul":
        nodes.append(helper.make_node("MatMul", ["a", "b"], ["y"]))
    elif kind == "conv":
        f, s = spec[1], spec[2]
        # ONNX is NCHW: transpose in and out so the model takes and returns NHWC as nn_bench does.
        inits.append(numpy_helper.from_array(f.transpose(3, 2, 0, 1).copy(), "w"))
        nodes += [helper.make_node("Transpose", ["x"], ["xc"], perm=[0, 3, 1, 2]),
                  helper.make_node("Conv", ["xc", "w"], ["yc"], strides=[s, s], auto_pad="SAME_UPPER"),
                  helper.make_node("Transpose", ["yc"], ["y"], perm=[0, 2, 3, 1])]
    elif kind == "mlp":
        h = "x"
        for i, (w, b) in enumerate(spec[1]):
            inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
            nodes += [helper.make_node("MatMul", [h, f"w{i}"], [f"m{i}"]),
                      helper.make_node("Add", [f"m{i}", f"b{i}"], [f"a{i}"])]
            h = f"a{i}"
            if i < 2:
                nodes.append(helper.make_node("Relu", [h], [f"r{i}"]))
                h = f"r{i}"
        nodes.append(helper.make_node("Softmax", [h], ["y"], axis=-1))
    elif kind == "identity":
        nodes.append(helper.make_node("Identity", ["x"], ["y"]))
    out = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    graph = helper.make_graph(nodes, "g", ins, out, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model.SerializeToString()


def run_ort(cases, reps, results=None):
    """Prints each case; also fills results[(name, threads)] = microseconds when given."""
    import onnxruntime as ort
    results = {} if results is None else results
    for threads in (1, 2):
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        x = {"x": np.ones((2, 2), np.float32)}
        s = ort.InferenceSession(ort_model(("identity",), x), opts, providers=["CPUExecutionProvider"])
        print(f"ORT {ort.__version__} python call floor (Identity [2,2]), {threads} threads: "
              f"{median_us(lambda: s.run(None, x), reps=reps):.1f} us")
        for name, flops, inputs, spec in cases:
            s = ort.InferenceSession(ort_model(spec, inputs), opts, providers=["CPUExecutionProvider"])
            us = median_us(lambda: s.run(None, inputs), reps=reps)
            results[(name, threads)] = us
            print(f"ORT {name} threads={threads}: {us:.1f} us  {flops / us / 1e3:.1f} GFLOP/s")
    return results


def run_tf(cases, reps, results=None):
    """Prints each case; also fills results[(name, threads)] = microseconds when given."""
    import tensorflow as tf
    results = {} if results is None else results
    tf.compat.v1.disable_eager_execution()
    for threads in (1, 2):
        config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=threads,
                                          inter_op_parallelism_threads=1)
        for name, flops, inputs, spec in cases:
            g = tf.Graph()
            with g.as_default():
                ph = {k: tf.compat.v1.placeholder(tf.float32, v.shape, name=k) for k, v in inputs.items()}
                kind = spec[0]
                if kind == "matmul":
                    y = tf.matmul(ph["a"], ph["b"])
                elif kind == "conv":
                    y = tf.nn.conv2d(ph["x"], tf.constant(spec[1]), strides=spec[2], padding="SAME")
                else:
                    h = ph["x"]
                    for i, (w, b) in enumerate(spec[1]):
                        h = tf.nn.bias_add(tf.matmul(h, tf.constant(w)), tf.constant(b))
                        if i < 2:
                            h = tf.nn.relu(h)
                    y = tf.nn.softmax(h)
            with tf.compat.v1.Session(graph=g, config=config) as sess:
                feed = {ph[k]: v for k, v in inputs.items()}
                us = median_us(lambda: sess.run(y, feed), reps=reps)
            results[(name, threads)] = us
            print(f"TF {tf.__version__} {name} threads={threads}: {us:.1f} us  "
                  f"{flops / us / 1e3:.1f} GFLOP/s")
    return results


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--only", choices=["ort", "tf"])
    a = p.parse_args()
    cases = workloads()
    if a.only != "tf":
        run_ort(cases, a.reps)
    if a.only != "ort":
        run_tf(cases, a.reps)


if __name__ == "__main__":
    main()
