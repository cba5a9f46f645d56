#!/usr/bin/env python3
"""Records TF1 training runs of small models that tests/training/cpp_training_test.cc builds
again in C++ (Rill's builder, AddSymbolicGradients and optimizers): the model's seeded initial
variable values, 100 seeded batches, the optimizer and its arguments, and TensorFlow's loss at
every step (computed before that step's update).

    python3 tests/tfgen/make_cpp_training_cases.py [MODEL...]   # needs tensorflow-cpu, numpy

Writes tests/training/data/cpp/<name>.pbtxt.gz (gzip-compressed text rill.CppTrainingCase). The models' definitions
here and in cpp_training_test.cc must agree op for op.
"""
import gzip
import io
import os
import sys

os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import text_format  # noqa: E402
from tensorflow.core.protobuf import config_pb2, rewriter_config_pb2  # noqa: E402

tf1 = tf.compat.v1
tf1.disable_eager_execution()

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(REPO_ROOT, "tests", "training", "data", "cpp")
STEPS = 100
CONFIG = config_pb2.ConfigProto(
    intra_op_parallelism_threads=1, inter_op_parallelism_threads=1,
    graph_options=config_pb2.GraphOptions(rewrite_options=rewriter_config_pb2.RewriterConfig(
        disable_meta_optimizer=True)))

OPTIMIZERS = {
    "sgd": (lambda h: tf1.train.GradientDescentOptimizer(h[0]), [0.1]),
    "momentum": (lambda h: tf1.train.MomentumOptimizer(h[0], h[1]), [0.05, 0.9]),
    "nesterov": (lambda h: tf1.train.MomentumOptimizer(h[0], h[1], use_nesterov=True),
                 [0.05, 0.9]),
    "adam": (lambda h: tf1.train.AdamOptimizer(h[0], h[1], h[2], h[3]), [0.01, 0.9, 0.999, 1e-8]),
    "rmsprop": (lambda h: tf1.train.RMSPropOptimizer(h[0], h[1], h[2], h[3]),
                [0.01, 0.9, 0.0, 1e-10]),
    "adagrad": (lambda h: tf1.train.AdagradOptimizer(h[0], h[1]), [0.1, 0.1]),
}


def mlp_tanh(rng):
    """x[8,4] -> tanh(x W1 + b1)[8,6] -> h W2 + b2 [8,2]; loss mean((out - y)^2)."""
    init = {"w1": rng.standard_normal([4, 6]) * 0.5, "b1": rng.standard_normal([6]) * 0.1,
            "w2": rng.standard_normal([6, 2]) * 0.5, "b2": rng.standard_normal([2]) * 0.1}
    init = {k: v.astype(np.float32) for k, v in init.items()}

    def build(v, x, y):
        h = tf.tanh(tf.matmul(x, v["w1"]) + v["b1"])
        out = tf.matmul(h, v["w2"]) + v["b2"]
        return tf.reduce_mean(tf.square(out - y))

    def batch(r):
        x = r.standard_normal([8, 4]).astype(np.float32)
        y = np.stack([np.sin(x[:, 0] + x[:, 1]), x[:, 2] * x[:, 3]], axis=1).astype(np.float32)
        return x, y
    return init, build, batch


def cnn_relu(rng):
    """x[4,6,6,1] -> relu(conv3x3 SAME (4 filters) + b) -> max pool 2x2 -> [4,36] -> dense 3;
    loss mean(sparse softmax cross entropy)."""
    init = {"k": rng.standard_normal([3, 3, 1, 4]) * 0.3, "kb": rng.standard_normal([4]) * 0.1,
            "w": rng.standard_normal([36, 3]) * 0.2, "b": rng.standard_normal([3]) * 0.1}
    init = {k: v.astype(np.float32) for k, v in init.items()}

    def build(v, x, y):
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, v["k"], [1, 1, 1, 1], "SAME"), v["kb"]))
        p = tf.nn.max_pool2d(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        out = tf.matmul(tf.reshape(p, [4, 36]), v["w"]) + v["b"]
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=out))

    def batch(r):
        x = r.standard_normal([4, 6, 6, 1]).astype(np.float32)
        y = (np.argmax(x.reshape([4, 36])[:, :3], axis=1)).astype(np.int32)
        return x, y
    return init, build, batch


def lstm_while(rng):
    """An LSTM(4) over 5 steps of x[5,4,3] in a TF1 while loop (weights loop invariants), then a
    dense layer on the last h; loss mean((out - y)^2)."""
    init = {"wx": rng.standard_normal([7, 16]) * 0.3, "bx": rng.standard_normal([16]) * 0.1,
            "wo": rng.standard_normal([4, 2]) * 0.5, "bo": rng.standard_normal([2]) * 0.1}
    init = {k: v.astype(np.float32) for k, v in init.items()}

    def build(v, x, y):
        from tensorflow.python.ops import control_flow_util  # pylint: disable=import-outside-toplevel
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = False

        def body(i, h, c):
            z = tf.matmul(tf.concat([tf.gather(x, i), h], 1), v["wx"]) + v["bx"]
            gi, gf, go, gg = tf.split(z, 4, axis=1)
            c2 = tf.sigmoid(gf) * c + tf.sigmoid(gi) * tf.tanh(gg)
            return i + 1, tf.sigmoid(go) * tf.tanh(c2), c2
        zeros = tf.zeros([4, 4])
        _, h, _ = tf1.while_loop(lambda i, h, c: i < 5, body, [tf.constant(0), zeros, zeros])
        out = tf.matmul(h, v["wo"]) + v["bo"]
        return tf.reduce_mean(tf.square(out - y))

    def batch(r):
        x = r.standard_normal([5, 4, 3]).astype(np.float32)
        y = np.stack([x.sum(axis=(0, 2)) * 0.2, np.tanh(x[-1, :, 0])], axis=1).astype(np.float32)
        return x, y
    return init, build, batch


MODELS = {"mlp_tanh": mlp_tanh, "cnn_relu": cnn_relu, "lstm_while": lstm_while}
CASES = ([("mlp_tanh", o) for o in ["sgd", "momentum", "nesterov", "adam", "rmsprop", "adagrad"]]
         + [("cnn_relu", "sgd"), ("cnn_relu", "adam"), ("lstm_while", "adam"),
            ("lstm_while", "momentum")])


def _tensor(value):
    return text_format.MessageToString(tf.make_tensor_proto(value))


def _indent(text, n):
    return "".join(" " * n + line + "\n" for line in text.splitlines())


def record(model, opt):
    rng = np.random.RandomState(7)
    init, build, batch = MODELS[model](rng)
    make_opt, hyper = OPTIMIZERS[opt]
    g = tf1.Graph()
    with g.as_default():
        variables = {k: tf1.Variable(v, name=k, use_resource=False) for k, v in sorted(init.items())}
        x = tf1.placeholder(tf.float32, name="x")
        y = tf1.placeholder(tf.int32 if model == "cnn_relu" else tf.float32, name="y")
        loss = build(variables, x, y)
        train = make_opt(hyper).minimize(loss)
        initializer = tf1.global_variables_initializer()
    lines = ['name: "%s_%s"' % (model, opt), 'model: "%s"' % model, 'optimizer: "%s"' % opt]
    lines += ["hyper: %r" % h for h in hyper]
    for k, v in sorted(init.items()):
        lines.append("initial {\n  name: \"%s\"\n  value {\n%s  }\n}" % (k, _indent(_tensor(v), 4)))
    data_rng = np.random.RandomState(11)
    with tf1.Session(graph=g, config=CONFIG) as sess:
        sess.run(initializer)
        for _ in range(STEPS):
            bx, by = batch(data_rng)
            value, _ = sess.run([loss, train], {x: bx, y: by})
            lines.append("step {")
            for name, arr in (("x:0", bx), ("y:0", by)):
                lines.append("  feed {\n    name: \"%s\"\n    value {\n%s    }\n  }"
                             % (name, _indent(_tensor(arr), 6)))
            lines.append("  loss: %r" % float(value))
            lines.append("}")
    lines += ["rtol: 2e-05", "atol: 1e-06"]
    return "\n".join(lines) + "\n"


def main(argv):
    os.makedirs(OUT, exist_ok=True)
    for model, opt in CASES:
        if argv and model not in argv:
            continue
        raw = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
            f.write(record(model, opt).encode("utf-8"))
        with open(os.path.join(OUT, "%s_%s.pbtxt.gz" % (model, opt)), "wb") as f:
            f.write(raw.getvalue())
        print(model, opt)


if __name__ == "__main__":
    main(sys.argv[1:])
