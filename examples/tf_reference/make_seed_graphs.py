#!/usr/bin/env python3
"""Builds the seed examples' graphs with real TensorFlow (tf.compat.v1 graph mode) and writes them as
text GraphDefs next to this script. graph/builder/seed_graphs_test.cc compares the graphs Rill's
builder API makes for the same code (examples/seed_graphs.cc) with these, field by field.

The code of each scenario is the seed documents' code (the TensorFlow "Using GPUs" guides and the
ADCME device-function note), written for tf.compat.v1. Run from anywhere:

    python3 examples/tf_reference/make_seed_graphs.py

Written with TensorFlow 2.21 (tensorflow-cpu from PyPI); the output is deterministic.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

tf1 = tf.compat.v1
OUT_DIR = os.path.dirname(os.path.abspath(__file__))


def matmul():
    # Seed 001 "Logging Device placement".
    a = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
    b = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
    c = tf1.matmul(a, b)  # noqa: F841


def manual_placement():
    # Seed 001 "Manual device placement".
    with tf1.device('/cpu:0'):
        a = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
        b = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
    c = tf1.matmul(a, b)  # noqa: F841


def soft_placement():
    # Seed 003 "Using a single GPU on a multi-GPU system" (also the allow_soft_placement example).
    with tf1.device('/device:GPU:2'):
        a = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
        b = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
        c = tf1.matmul(a, b)  # noqa: F841


def towers(devices, sum_device):
    # Seed 001 "Using multiple GPUs".
    c = []
    for d in devices:
        with tf1.device(d):
            a = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3])
            b = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2])
            c.append(tf1.matmul(a, b))
    with tf1.device(sum_device):
        sum = tf1.add_n(c)  # noqa: F841,A001


def multi_tower_gpu():
    towers(['/gpu:2', '/gpu:3'], '/cpu:0')


def multi_tower_cpu():
    # The same towers for machines without GPUs.
    towers(['/cpu:1', '/cpu:2'], '/cpu:0')


def four_replicas_cpu():
    # Seed 000 "Manual placement": one replica per device, summed on the CPU; here four CPU devices.
    c = []
    for d in ['/cpu:0', '/cpu:1', '/cpu:2', '/cpu:3']:
        with tf1.device(d):
            a = tf1.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
            b = tf1.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
            c.append(tf1.matmul(a, b))
    with tf1.device('/CPU:0'):
        matmul_sum = tf1.add_n(c)  # noqa: F841


# Seed 004's device function: variables on the CPU, every other op on the GPU.
PS_OPS = ["Variable", "VariableV2", "AutoReloadVariable"]


def assign_to_device(device, ps_device="/device:CPU:0"):
    def _assign(op):
        node_def = op if isinstance(op, tf1.NodeDef) else op.node_def
        if node_def.op in PS_OPS:
            return ps_device
        else:
            return device
    return _assign


def device_function():
    with tf1.device(assign_to_device("/device:GPU:0")):
        w = tf1.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name='w', use_resource=False)
        a = tf1.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
        y = tf1.matmul(a, w)  # noqa: F841


def training_loop():
    # A TF1 training loop in miniature: run "init" once, then "train" repeatedly, fetching w.
    w = tf1.Variable(tf1.zeros([2, 2]), name='w', use_resource=False)
    init = tf1.global_variables_initializer()  # noqa: F841 (a NoOp named "init")
    train = tf1.assign_add(w, tf1.constant([[1.0, 2.0], [3.0, 4.0]]), name='train')  # noqa: F841


SCENARIOS = [matmul, manual_placement, soft_placement, multi_tower_gpu, multi_tower_cpu,
             four_replicas_cpu, device_function, training_loop]


def main():
    for build in SCENARIOS:
        g = tf.Graph()
        with g.as_default():
            build()
        path = os.path.join(OUT_DIR, build.__name__ + ".pbtxt")
        with open(path, "w") as f:
            f.write(str(g.as_graph_def()))
        print("wrote", os.path.relpath(path), file=sys.stderr)


if __name__ == "__main__":
    main()
