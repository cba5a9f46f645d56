"""Runs whole Keras applications (random seeded weights, nothing downloaded) in Rill and in
TensorFlow and compares their outputs: the held-out kind of check the op-coverage corpus cannot
commit (these graphs are 5-100 MB). For each model it freezes the Keras model to a GraphDef in
WORK (default /tmp/rill-apps), runs it in TensorFlow (tf.compat.v1 Session, one thread) and in
session_runner on the same input, and prints one line per model: the ops Rill lacks, or the
largest absolute and relative differences of the outputs.

    pip install tensorflow-cpu numpy   # only for this script
    bazel build //tools/session_runner
    python3 tests/tfgen/check_keras_applications.py [--runner PATH] [NAME-SUBSTRING ...]
"""
import argparse
import os
import re
import subprocess
import sys

os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import convert_to_constants

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
A = tf.keras.applications

# name -> (constructor, input shape); the smallest inputs each application accepts.
MODELS = {
    "MobileNet": (lambda: A.MobileNet(weights=None, input_shape=(64, 64, 3)), (1, 64, 64, 3)),
    "MobileNetV2": (lambda: A.MobileNetV2(weights=None, input_shape=(64, 64, 3)), (1, 64, 64, 3)),
    "MobileNetV3Small": (lambda: A.MobileNetV3Small(weights=None, input_shape=(64, 64, 3)),
                         (1, 64, 64, 3)),
    "MobileNetV3Large": (lambda: A.MobileNetV3Large(weights=None, input_shape=(64, 64, 3)),
                         (1, 64, 64, 3)),
    "EfficientNetB0": (lambda: A.EfficientNetB0(weights=None, input_shape=(64, 64, 3)),
                       (1, 64, 64, 3)),
    "EfficientNetV2B0": (lambda: A.EfficientNetV2B0(weights=None, input_shape=(64, 64, 3)),
                         (1, 64, 64, 3)),
    "ResNet50": (lambda: A.ResNet50(weights=None, input_shape=(64, 64, 3)), (1, 64, 64, 3)),
    "ResNet50V2": (lambda: A.ResNet50V2(weights=None, input_shape=(64, 64, 3)), (1, 64, 64, 3)),
    "DenseNet121": (lambda: A.DenseNet121(weights=None, input_shape=(64, 64, 3)), (1, 64, 64, 3)),
    "InceptionV3": (lambda: A.InceptionV3(weights=None, input_shape=(75, 75, 3)), (1, 75, 75, 3)),
    "Xception": (lambda: A.Xception(weights=None, input_shape=(71, 71, 3)), (1, 71, 71, 3)),
    "NASNetMobile": (lambda: A.NASNetMobile(weights=None, input_shape=(64, 64, 3)), (1, 64, 64, 3)),
    "VGG16": (lambda: A.VGG16(weights=None, input_shape=(32, 32, 3)), (1, 32, 32, 3)),
    "ConvNeXtTiny": (lambda: A.ConvNeXtTiny(weights=None, input_shape=(64, 64, 3)),
                     (1, 64, 64, 3)),
}


def freeze(model, shape):
    fn = tf.function(lambda x: model(x, training=False))
    concrete = fn.get_concrete_function(tf.TensorSpec(shape, tf.float32))
    return convert_to_constants.convert_variables_to_constants_v2(concrete).graph.as_graph_def()


def run_tf(graph_def, x):
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
    config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=1,
                                      inter_op_parallelism_threads=1)
    with tf.compat.v1.Session(graph=g, config=config) as sess:
        return sess.run("Identity:0", {"x:0": x})


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runner", default=os.path.join(
        REPO_ROOT, "bazel-bin/tools/session_runner/session_runner"))
    p.add_argument("--work", default="/tmp/rill-apps")
    p.add_argument("only", nargs="*")
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    failures = 0
    for name, (make, shape) in MODELS.items():
        if a.only and not any(o.lower() in name.lower() for o in a.only):
            continue
        tf.keras.utils.set_random_seed(1)
        graph_def = freeze(make(), shape)
        x = np.random.RandomState(2).uniform(-1, 1, size=shape).astype(np.float32)
        pb, xin, out = (os.path.join(a.work, name + s) for s in (".pb", "_x.npy", "_out"))
        with open(pb, "wb") as f:
            f.write(graph_def.SerializeToString())
        np.save(xin, x)
        want = run_tf(graph_def, x)
        r = subprocess.run([a.runner, "--graph=" + pb, "--feed=x=" + xin, "--fetch=Identity",
                            "--output_dir=" + out], capture_output=True, text=True)
        if r.returncode != 0:
            missing = sorted(set(re.findall(r"Op type not registered '(\w+)'", r.stderr)))
            print("%-18s FAIL %s" % (name, ("missing ops " + ", ".join(missing)) if missing else
                                      r.stderr.strip().splitlines()[0][:300]))
            failures += 1
            continue
        got = np.load(os.path.join(out, os.listdir(out)[0]))
        diff = np.abs(got.astype(np.float64) - want)
        rel = diff.max() / max(np.abs(want).max(), 1e-30)
        ok = np.allclose(got, want, rtol=1e-4, atol=1e-5 * max(np.abs(want).max(), 1e-30))
        print("%-18s %s %d nodes, max |diff| %.3g, relative to max |output| %.3g" % (
            name, "ok  " if ok else "DIFF", len(graph_def.node), diff.max(), rel))
        failures += 0 if ok else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
