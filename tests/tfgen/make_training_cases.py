"""Records TF1 training runs for tests/training: graphs built with tf.compat.v1 (seeded
initializers, so Rill's Philox kernels give the same initial weights), their initializer and train
ops, and TensorFlow's loss at each of 100 steps on fixed, seeded batches.

    pip install tensorflow-cpu numpy   # only to regenerate
    python3 tests/tfgen/make_training_cases.py

Writes tests/training/data/<name>.pbtxt (text-format rill.TrainingCase,
tests/training/training_case.proto). Deterministic: two runs give identical files. Grappler and
oneDNN are off, as for the kernel conformance data.
"""
import os
import sys

os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import config_pb2, rewriter_config_pb2

tf1 = tf.compat.v1
tf1.disable_eager_execution()

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(REPO_ROOT, "tests", "training", "data")
STEPS = 100
CONFIG = config_pb2.ConfigProto(
    intra_op_parallelism_threads=1, inter_op_parallelism_threads=1,
    graph_options=config_pb2.GraphOptions(rewrite_options=rewriter_config_pb2.RewriterConfig(
        disable_meta_optimizer=True)))


def _indent(text, n):
    return "".join(" " * n + line + "\n" if line else "\n" for line in text.splitlines())


def mlp(optimizer_name):
    """A 20-32-32-5 Relu MLP with softmax cross entropy; TF1 variables with seeded initializers."""
    g = tf1.Graph()
    with g.as_default():
        tf1.set_random_seed(1234)
        x = tf1.placeholder(tf.float32, [None, 20], name="x")
        y = tf1.placeholder(tf.float32, [None, 5], name="y")
        h = x
        sizes = [20, 32, 32, 5]
        for i in range(3):
            w = tf1.Variable(tf1.truncated_normal([sizes[i], sizes[i + 1]], stddev=0.3), name="w%d" % i)
            b = tf1.Variable(tf1.zeros([sizes[i + 1]]), name="b%d" % i)
            h = tf.nn.bias_add(tf.matmul(h, w), b)
            if i < 2:
                h = tf.nn.relu(h)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=h), name="loss")
        if optimizer_name == "sgd":
            opt = tf1.train.GradientDescentOptimizer(0.1)
        elif optimizer_name == "momentum":
            opt = tf1.train.MomentumOptimizer(0.05, 0.9)
        else:
            opt = tf1.train.AdamOptimizer(0.01)
        opt.minimize(loss, name="train")
        init = tf1.variables_initializer(tf1.global_variables(), name="init")
    return g, init.name, "train", "loss:0"


def cnn_adam_bn():
    """Conv(8,3) + fused batch norm (training) + Relu + MaxPool, Conv(16,3) + bias + Relu,
    Dense(5), Adam; the batch norm's moving averages are updated with every step (AssignSub, as
    TF1's batch-norm layers do), the update ordered before the train op."""
    g = tf1.Graph()
    with g.as_default():
        tf1.set_random_seed(4321)
        x = tf1.placeholder(tf.float32, [None, 20], name="x")
        y = tf1.placeholder(tf.float32, [None, 5], name="y")
        init = tf1.truncated_normal_initializer(stddev=0.3)
        img = tf.reshape(x, [-1, 4, 5, 1])
        k1 = tf1.get_variable("k1", [3, 3, 1, 8], initializer=init)
        h = tf.nn.conv2d(img, k1, strides=1, padding="SAME")
        gamma = tf1.get_variable("gamma", [8], initializer=tf1.ones_initializer())
        beta = tf1.get_variable("beta", [8], initializer=tf1.zeros_initializer())
        moving_mean = tf1.get_variable("moving_mean", [8], initializer=tf1.zeros_initializer(),
                                       trainable=False)
        moving_var = tf1.get_variable("moving_var", [8], initializer=tf1.ones_initializer(),
                                      trainable=False)
        h, batch_mean, batch_var = tf1.nn.fused_batch_norm(h, gamma, beta, epsilon=1e-3,
                                                           is_training=True)
        updates = [tf1.assign_sub(moving_mean, (moving_mean - batch_mean) * 0.01),
                   tf1.assign_sub(moving_var, (moving_var - batch_var) * 0.01)]
        h = tf.nn.max_pool2d(tf.nn.relu(h), 2, 2, padding="SAME")
        k2 = tf1.get_variable("k2", [3, 3, 8, 16], initializer=init)
        b2 = tf1.get_variable("b2", [16], initializer=tf1.zeros_initializer())
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(h, k2, strides=1, padding="SAME"), b2))
        h = tf.reshape(h, [-1, 2 * 3 * 16])
        w3 = tf1.get_variable("w3", [2 * 3 * 16, 5], initializer=init)
        b3 = tf1.get_variable("b3", [5], initializer=tf1.zeros_initializer())
        logits = tf.nn.bias_add(tf.matmul(h, w3), b3)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits),
                              name="loss")
        with tf1.control_dependencies(updates):
            tf1.train.AdamOptimizer(0.01).minimize(loss, name="train")
        init_op = tf1.variables_initializer(tf1.global_variables(), name="init")
    return g, init_op.name, "train", "loss:0"


def batches(seed):
    rs = np.random.RandomState(seed)
    centers = rs.normal(size=(5, 20)).astype(np.float32)
    out = []
    for _ in range(STEPS):
        labels = rs.randint(0, 5, size=16)
        xb = (centers[labels] + 2.0 * rs.normal(size=(16, 20))).astype(np.float32)
        yb = np.eye(5, dtype=np.float32)[labels]
        out.append((xb, yb))
    return out


def record(name, description, build, rtol, atol):
    g, init, train, loss = build()
    data = batches(7)
    losses = []
    with tf1.Session(graph=g, config=CONFIG) as sess:
        sess.run(init)
        for xb, yb in data:
            l, _ = sess.run([loss, g.get_operation_by_name(train)], {"x:0": xb, "y:0": yb})
            losses.append(float(l))
    text = ['name: "%s"' % name, 'description: "%s"' % description]
    text.append("graph {\n" + _indent(str(g.as_graph_def()), 2) + "}")
    text += ['init_target: "%s"' % init, 'train_target: "%s"' % train, 'loss_fetch: "%s"' % loss]
    for (xb, yb), l in zip(data, losses):
        feeds = []
        for fname, v in (("x:0", xb), ("y:0", yb)):
            proto = tf.make_tensor_proto(v)
            feeds.append('  feed {\n    name: "%s"\n    value {\n%s    }\n  }' % (
                fname, _indent(str(proto), 6)))
        text.append("step {\n" + "\n".join(feeds) + "\n  loss: %r\n}" % l)
    text += ["rtol: %r" % rtol, "atol: %r" % atol]
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + ".pbtxt"), "w") as f:
        f.write("\n".join(text) + "\n")
    print("%s: %d nodes, loss %.4f -> %.4f" % (name, len(g.as_graph_def().node), losses[0],
                                                 losses[-1]))


def main():
    common = "20-32-32-5 Relu MLP, softmax cross entropy, batch 16, seeded truncated-normal init"
    record("mlp_sgd", common + ", GradientDescent 0.1, 100 steps", lambda: mlp("sgd"), 1e-4, 1e-5)
    record("mlp_momentum", common + ", Momentum 0.05/0.9, 100 steps", lambda: mlp("momentum"),
           1e-4, 1e-5)
    record("mlp_adam", common + ", Adam 0.01, 100 steps", lambda: mlp("adam"), 1e-4, 1e-5)
    record("cnn_adam_bn", "CNN on the same data as 4x5x1 images: conv 8 3x3 + fused batch norm "
           "(training) + Relu + max pool, conv 16 3x3 + Relu, dense 5; Adam 0.01; moving averages "
           "updated each step; 100 steps", cnn_adam_bn, 1e-3, 1e-4)


if __name__ == "__main__":
    sys.exit(main())
