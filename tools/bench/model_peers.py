#!/usr/bin/env python3
"""Whole-model and wide-graph workloads of the benchmark suite (issue 14, workloads 3 and 6), timed
in Rill (session_runner --benchmark on the frozen GraphDef), TensorFlow (tf.compat.v1 Session on
the same GraphDef) and ONNX Runtime (the same weights, built with onnx.helper), one sitting.

  - small CNN, batch 1 and 64: 28x28x1 -> Conv 5x5x32 SAME + ReLU, MaxPool 2, Conv 5x5x64 SAME +
    ReLU, MaxPool 2, Dense 1024 + ReLU, Dense 10, Softmax (random weights, seed 0).
  - MobileNetV2 (alpha 1.0, 224x224x3, 1000 classes, random weights), batch 1, and ResNet50
    (random weights), batch 1, with the largest difference between Rill's and TensorFlow's
    outputs. ONNX Runtime is not timed on them: building them by hand in ONNX is out of scope
    and tf2onnx is not a dependency.
  - wide graph: 1000 independent 32x32 MatMuls (x times its own weight each) summed by AddN.

Models are frozen by Keras into ~/.cache/rill-bench-models (made once). Returns
{(workload, threads): {"Rill": us, "TF": us, "ORT": us}}; run alone, prints it.

    python3 tools/bench/model_peers.py [--reps 3] [--runner bazel-bin/tools/session_runner/session_runner]
"""
import argparse
import os
import re
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.expanduser("~/.cache/rill-bench-models")
sys.path.insert(0, HERE)


def _freeze(model, shape):
    import tensorflow as tf
    from tensorflow.python.framework import convert_to_constants
    fn = tf.function(lambda x: model(x, training=False))
    concrete = fn.get_concrete_function(tf.TensorSpec([None] + list(shape[1:]), tf.float32))
    frozen = convert_to_constants.convert_variables_to_constants_v2(concrete)
    g = frozen.graph.as_graph_def()
    inp = [n.name for n in g.node if n.op == "Placeholder"][0]
    out = frozen.outputs[0].name.split(":")[0]
    return g, inp, out


def small_cnn():
    import tensorflow as tf
    k = tf.keras
    tf.keras.utils.set_random_seed(0)
    return k.Sequential([
        k.Input((28, 28, 1)),
        k.layers.Conv2D(32, 5, padding="same", activation="relu"), k.layers.MaxPooling2D(),
        k.layers.Conv2D(64, 5, padding="same", activation="relu"), k.layers.MaxPooling2D(),
        k.layers.Flatten(), k.layers.Dense(1024, activation="relu"),
        k.layers.Dense(10, activation="softmax")])


def mobilenet_v2():
    import tensorflow as tf
    tf.keras.utils.set_random_seed(0)
    return tf.keras.applications.MobileNetV2(weights=None, input_shape=(224, 224, 3))


def resnet50():
    import tensorflow as tf
    tf.keras.utils.set_random_seed(0)
    return tf.keras.applications.ResNet50(weights=None, input_shape=(224, 224, 3))


def frozen_model(name):
    """(graph path, input name, output name, keras model or None) for a model, made once."""
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, name + ".pb")
    meta = path + ".io"
    model = None
    if not (os.path.exists(path) and os.path.exists(meta)):
        model = {"small_cnn": small_cnn, "mobilenet_v2": mobilenet_v2, "resnet50": resnet50}[name]()
        shape = model.input_shape
        g, inp, out = _freeze(model, shape)
        with open(path, "wb") as f:
            f.write(g.SerializeToString())
        with open(meta, "w") as f:
            f.write(inp + " " + out)
    with open(meta) as f:
        inp, out = f.read().split()
    return path, inp, out


def rill_time(runner, graph, feeds, fetch, threads, reps):
    """Median us per run from session_runner --benchmark (feeds: {name: array})."""
    args = [runner, "--graph=" + graph]
    cfg = os.path.join(CACHE, "threads%d.config.pbtxt" % threads)
    with open(cfg, "w") as f:
        f.write("intra_op_parallelism_threads: %d inter_op_parallelism_threads: %d\n" %
                (threads, threads))
    args.append("--config=" + cfg)
    for i, (name, value) in enumerate(feeds.items()):
        p = os.path.join(CACHE, "feed%d.npy" % i)
        np.save(p, value)
        args.append("--feed=%s=%s" % (name, p))
    args += ["--fetch=" + fetch, "--benchmark", "--warmup=3", "--repeat=%d" % max(40, 10 * reps)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    m = re.search(r"median ([0-9.]+) ?(us|ms|s)\b", out)
    scale = {"us": 1.0, "ms": 1e3, "s": 1e6}[m.group(2)]
    return float(m.group(1)) * scale


def rill_memory(runner, graph, feeds, fetch, runs):
    """The CPU allocator's figures and the process's resident set after 1, runs / 10 and `runs`
    runs (session_runner --memory_stats, one process each): {"runs": runs, "peak": MiB,
    "in_use_1": MiB, "in_use_n": MiB, "rss_tenth": MiB, "rss_n": MiB}. Equal in-use figures and
    an unchanged resident set from runs / 10 to runs mean no growth, inside the allocator or
    outside it."""
    out = {"runs": runs}
    for n, key in ((1, "1"), (runs // 10, "tenth"), (runs, "n")):
        args = [runner, "--graph=" + graph, "--memory_stats", "--repeat=%d" % n,
                "--fetch=" + fetch]
        for i, (name, value) in enumerate(feeds.items()):
            p = os.path.join(CACHE, "memfeed%d.npy" % i)
            np.save(p, value)
            args.append("--feed=%s=%s" % (name, p))
        text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        row = [l for l in text.splitlines() if "device:CPU:0" in l and " MiB" in l][-1].split()
        # device allocator <in use> MiB <peak> MiB ...
        if key != "tenth":
            out["in_use_" + key] = float(row[2])
        out["peak"] = max(out.get("peak", 0.0), float(row[4]))
        rss = re.search(r"process resident set: ([0-9.]+) MiB", text)
        if key != "1" and rss:
            out["rss_" + key] = float(rss.group(1))
    return out


def _tf_session(graph, threads):
    import tensorflow as tf
    tf1 = tf.compat.v1
    gd = tf1.GraphDef()
    with open(graph, "rb") as f:
        gd.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    config = tf1.ConfigProto(intra_op_parallelism_threads=threads,
                             inter_op_parallelism_threads=threads)
    return tf1.Session(graph=g, config=config)


def tf_time(graph, feeds, fetch, threads, reps):
    import nn_peers
    with _tf_session(graph, threads) as s:
        fd = {k + ":0": v for k, v in feeds.items()}
        return nn_peers.median_us(lambda: s.run(fetch + ":0", fd), reps=reps)


def max_abs_diff(runner, graph, feeds, fetch):
    """The largest |Rill - TensorFlow| over the fetched tensor, both run once on `feeds` (Rill
    through session_runner --output_dir)."""
    out_dir = os.path.join(CACHE, "outputs")
    os.makedirs(out_dir, exist_ok=True)
    args = [runner, "--graph=" + graph, "--fetch=" + fetch, "--output_dir=" + out_dir]
    for i, (name, value) in enumerate(feeds.items()):
        p = os.path.join(CACHE, "difffeed%d.npy" % i)
        np.save(p, value)
        args.append("--feed=%s=%s" % (name, p))
    subprocess.run(args, capture_output=True, text=True, check=True)
    rill = np.load(os.path.join(out_dir, fetch.replace("/", "_") + ".npy"))
    with _tf_session(graph, 1) as s:
        tf_out = s.run(fetch + ":0", {k + ":0": v for k, v in feeds.items()})
    return float(np.abs(rill.astype(np.float64) - tf_out).max())


def ort_session(model_bytes, threads):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model_bytes, opts, providers=["CPUExecutionProvider"])


def small_cnn_onnx(model):
    """The Keras small CNN's weights as an NCHW ONNX model taking the NHWC input."""
    from onnx import TensorProto, helper, numpy_helper
    c1, c2, d1, d2 = [l for l in model.layers if l.get_weights()]
    inits, nodes = [], []

    def init(name, arr):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr, np.float32), name))
    init("w1", c1.get_weights()[0].transpose(3, 2, 0, 1)); init("b1", c1.get_weights()[1])
    init("w2", c2.get_weights()[0].transpose(3, 2, 0, 1)); init("b2", c2.get_weights()[1])
    init("w3", d1.get_weights()[0]); init("b3", d1.get_weights()[1])
    init("w4", d2.get_weights()[0]); init("b4", d2.get_weights()[1])
    nodes += [
        helper.make_node("Transpose", ["x"], ["xn"], perm=[0, 3, 1, 2]),
        helper.make_node("Conv", ["xn", "w1", "b1"], ["c1"], pads=[2, 2, 2, 2]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], pads=[2, 2, 2, 2]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("MaxPool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2]),
        # Keras flattens NHWC: back to NHWC first so the dense weights apply unchanged.
        helper.make_node("Transpose", ["p2"], ["p2h"], perm=[0, 2, 3, 1]),
        helper.make_node("Flatten", ["p2h"], ["f"]),
        helper.make_node("Gemm", ["f", "w3", "b3"], ["d1"]),
        helper.make_node("Relu", ["d1"], ["r3"]),
        helper.make_node("Gemm", ["r3", "w4", "b4"], ["d2"]),
        helper.make_node("Softmax", ["d2"], ["y"], axis=1),
    ]
    g = helper.make_graph(nodes, "small_cnn",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                         ["N", 28, 28, 1])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m.SerializeToString()


def wide_graph(path):
    """1000 x MatMul(x, w_i) [32x32] summed by AddN, as a GraphDef (TensorFlow's builder)."""
    import tensorflow as tf
    tf1 = tf.compat.v1
    rng = np.random.default_rng(3)
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [32, 32], name="x")
        ws = [tf.constant(rng.uniform(-1, 1, (32, 32)).astype(np.float32)) for _ in range(1000)]
        tf.add_n([tf.matmul(x, w) for w in ws], name="sum")
    with open(path, "wb") as f:
        f.write(g.as_graph_def().SerializeToString())
    from onnx import TensorProto, helper, numpy_helper
    inits = [numpy_helper.from_array(
        tf.make_ndarray(n.attr["value"].tensor), n.name) for n in g.as_graph_def().node
        if n.op == "Const"]
    nodes = [helper.make_node("MatMul", ["x", i.name], ["m%d" % k]) for k, i in enumerate(inits)]
    nodes.append(helper.make_node("Sum", ["m%d" % k for k in range(len(inits))], ["sum"]))
    og = helper.make_graph(nodes, "wide", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                         [32, 32])],
                           [helper.make_tensor_value_info("sum", TensorProto.FLOAT, None)], inits)
    m = helper.make_model(og, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m.SerializeToString()


def run(runner, reps):
    import nn_peers
    res = {}
    rng = np.random.default_rng(7)
    # Wide graph: inter-op parallelism is what it measures, so 1 and 2 inter-op threads.
    wide_path = os.path.join(CACHE, "wide_matmul_addn.pb")
    os.makedirs(CACHE, exist_ok=True)
    wide_onnx = wide_graph(wide_path)
    xw = rng.uniform(-1, 1, (32, 32)).astype(np.float32)
    for t in (1, 2):
        r = {"Rill": rill_time(runner, wide_path, {"x": xw}, "sum", t, reps),
             "TF": tf_time(wide_path, {"x": xw}, "sum", t, reps)}
        import onnxruntime as ort
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = t
        opts.execution_mode = (ort.ExecutionMode.ORT_PARALLEL if t > 1
                               else ort.ExecutionMode.ORT_SEQUENTIAL)
        s = ort.InferenceSession(wide_onnx, opts, providers=["CPUExecutionProvider"])
        r["ORT"] = nn_peers.median_us(lambda: s.run(None, {"x": xw}), reps=reps)
        res[("wide: 1000 MatMul 32x32 + AddN", t)] = r
    # Small CNN.
    path, inp, out = frozen_model("small_cnn")
    keras_cnn = small_cnn()  # same seed, same weights as the frozen one
    cnn_onnx = small_cnn_onnx(keras_cnn)
    for batch in (1, 64):
        x = rng.uniform(0, 1, (batch, 28, 28, 1)).astype(np.float32)
        for t in (1, 2):
            r = {"Rill": rill_time(runner, path, {inp: x}, out, t, reps),
                 "TF": tf_time(path, {inp: x}, out, t, reps)}
            s = ort_session(cnn_onnx, t)
            r["ORT"] = nn_peers.median_us(lambda: s.run(None, {"x": x}), reps=reps)
            if t == 1:
                # 10,000 runs at batch 1 (a few seconds); batch 64 would take minutes.
                r["memory"] = rill_memory(runner, path, {inp: x}, out, 10000 if batch == 1 else 201)
            res[("small CNN batch %d" % batch, t)] = r
    # Whole ImageNet models at batch 1, against TensorFlow only; their outputs compared too.
    # ResNet50 (random weights) freezes to ~98 MB, so it is made here, not committed as test data.
    for model, name, memory_runs in (("mobilenet_v2", "MobileNetV2 224 batch 1", 1000),
                                     ("resnet50", "ResNet50 224 batch 1", 0)):
        path, inp, out = frozen_model(model)
        x = rng.uniform(-1, 1, (1, 224, 224, 3)).astype(np.float32)
        for t in (1, 2):
            r = {"Rill": rill_time(runner, path, {inp: x}, out, t, reps),
                 "TF": tf_time(path, {inp: x}, out, t, reps)}
            if t == 1:
                if memory_runs:
                    r["memory"] = rill_memory(runner, path, {inp: x}, out, memory_runs)
                r["max_abs_diff"] = max_abs_diff(runner, path, {inp: x}, out)
            res[(name, t)] = r
    return res


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--json", action="store_true", help="print the results as JSON (suite.py)")
    p.add_argument("--runner", default=os.path.join(ROOT, "bazel-bin", "tools", "session_runner",
                                                     "session_runner"))
    a = p.parse_args()
    res = run(a.runner, a.reps)
    if a.json:
        import json
        print(json.dumps([[name, t, r] for (name, t), r in res.items()]))
        return
    for (name, t), r in res.items():
        print("%-34s threads %d  " % (name, t) +
              "  ".join("%s %.1f us" % (k, v) for k, v in r.items()
                        if isinstance(v, (int, float))))


if __name__ == "__main__":
    main()
