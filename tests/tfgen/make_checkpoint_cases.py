#!/usr/bin/env python3
"""Writes checkpoints with real TensorFlow for Rill's checkpoint tests.

1. core/io/testdata/tf_written/bundle.{index,data-00000-of-00001}: tf.raw_ops.SaveV2 of fixed
   tensors of several dtypes (core/io/tensor_bundle_test.cc asserts their values).
2. tests/checkpoints/data/tf1_saver/: a TF1 graph (x -> Dense(3, relu) -> Dense(2)) with
   tf.compat.v1.train.Saver ops, its checkpoint after seeded initialization, an input and
   TensorFlow's output (tests/checkpoints/checkpoint_test.cc restores it in Rill with the graph's
   own save/restore_all and compares).
3. --check PREFIX: reads a checkpoint Rill wrote with TensorFlow (tf.train.load_checkpoint) and
   prints every tensor, so a Rill-written checkpoint can be checked against TensorFlow.
4. --verify_rill RUNNER: trains the tf1_saver graph 10 GradientDescent steps in Rill (RUNNER is
   bazel-bin/tools/session_runner/session_runner: restore TensorFlow's checkpoint, run "train" 10
   times, save), restores Rill's checkpoint in TensorFlow and compares every variable with
   TensorFlow's own 10 steps from the same start. Prints the largest difference; exits 1 if any
   exceeds 1e-5.
5. SavedModels: a TF1 Builder export and a Keras export, with inputs and TensorFlow's outputs.
6. --asset_model: tests/checkpoints/data/tf1_asset_saved_model/ alone: a TF1 export whose lookup
   table reads a vocabulary asset (assets/vocab.txt), written from a temporary file that is
   deleted afterwards, so only a loader that feeds the asset's path inside the export (as
   TensorFlow's does) can initialize the table; the words fed and TensorFlow's ids.
7. --example_model: tests/checkpoints/data/tf1_example_saved_model/ alone: an Estimator-style
   serving export whose signature takes serialized tf.train.Example strings and parses them with
   tf.io.parse_example (ParseExampleV2: fixed-length features with and without defaults, a
   variable-length string feature, a padded sequence feature) before a small model; the records
   fed and TensorFlow's probabilities.

Usage: python3 tests/tfgen/make_checkpoint_cases.py [--check PREFIX | --verify_rill RUNNER |
       --asset_model | --example_model]
"""
import os
import sys

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import text_format  # noqa: E402

tf1 = tf.compat.v1
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BUNDLE_TENSORS = [
    ("a/float", np.array([[1, 2, 3], [4, 5, 6]], np.float32)),
    ("b/int64", np.array(-7, np.int64)),
    ("c/strings", np.array([b"", b"hello", b"x" * 300], dtype=object)),
    ("d/half", np.array([0.5, -1.5, 2.0, 65504.0], np.float16)),
    ("e/bool", np.array([True, False, True])),
    ("f/empty", np.zeros([0, 5], np.float32)),
    ("g/double", np.array([1e-300, -2.5], np.float64)),
]


def write_bundle():
    out = os.path.join(ROOT, "core", "io", "testdata", "tf_written")
    os.makedirs(out, exist_ok=True)
    g = tf.Graph()
    with g.as_default():
        names = [n for n, _ in BUNDLE_TENSORS]
        save = tf.raw_ops.SaveV2(prefix=os.path.join(out, "bundle"), tensor_names=names,
                                 shape_and_slices=[""] * len(names),
                                 tensors=[tf.constant(v) for _, v in BUNDLE_TENSORS])
        with tf1.Session(graph=g) as s:
            s.run(save)
    print("wrote", os.path.join(out, "bundle.*"))


def write_tf1_saver():
    out = os.path.join(ROOT, "tests", "checkpoints", "data", "tf1_saver")
    os.makedirs(out, exist_ok=True)
    g = tf.Graph()
    tf1.disable_resource_variables()  # TF1 reference variables, as TF1 checkpoints' graphs have
    with g.as_default():
        tf1.set_random_seed(3)
        x = tf1.placeholder(tf.float32, [None, 4], name="x")
        w1 = tf1.get_variable("dense/w", [4, 3], initializer=tf1.random_normal_initializer(seed=1))
        b1 = tf1.get_variable("dense/b", [3], initializer=tf1.random_normal_initializer(seed=2))
        w2 = tf1.get_variable("out/w", [3, 2], initializer=tf1.random_normal_initializer(seed=3))
        b2 = tf1.get_variable("out/b", [2], initializer=tf1.random_normal_initializer(seed=4))
        steps = tf1.get_variable("global_step", [], tf.int64, initializer=tf1.zeros_initializer())
        y = tf.identity(tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2, name="y")
        bump = tf1.assign_add(steps, 42, name="bump")
        loss = tf.reduce_sum(tf.square(y), name="loss")
        tf1.train.GradientDescentOptimizer(0.01).minimize(loss, name="train")
        init = tf1.global_variables_initializer()
        saver = tf1.train.Saver()
        xv = np.random.RandomState(5).normal(size=(2, 4)).astype(np.float32)
        with tf1.Session(graph=g) as s:
            s.run([init])
            s.run(bump)
            prefix = saver.save(s, os.path.join(out, "model.ckpt"), write_meta_graph=False,
                                write_state=False)
            yv = s.run(y, {x: xv})
        with open(os.path.join(out, "graph.pbtxt"), "w") as f:
            f.write(text_format.MessageToString(g.as_graph_def()))
        with open(os.path.join(out, "saver_def.pbtxt"), "w") as f:
            f.write(text_format.MessageToString(saver.saver_def))
        np.save(os.path.join(out, "x.npy"), xv)
        np.save(os.path.join(out, "y.npy"), yv)
    print("wrote", prefix, "saver:", saver.saver_def.restore_op_name,
          saver.saver_def.filename_tensor_name, saver.saver_def.save_tensor_name)


def write_saved_models():
    base = os.path.join(ROOT, "tests", "checkpoints", "data")
    rs = np.random.RandomState(11)
    xv = rs.normal(size=(3, 4)).astype(np.float32)
    # A TF1 export: tf.compat.v1.saved_model.Builder with a serving signature.
    out = os.path.join(base, "tf1_saved_model")
    if os.path.exists(out):
        import shutil
        shutil.rmtree(out)
    g = tf.Graph()
    tf1.disable_resource_variables()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 4], name="x")
        w = tf1.get_variable("w", [4, 2], initializer=tf1.random_normal_initializer(seed=21))
        b = tf1.get_variable("b", [2], initializer=tf1.random_normal_initializer(seed=22))
        y = tf.nn.softmax(tf.matmul(x, w) + b, name="probs")
        with tf1.Session(graph=g) as sess:
            sess.run(tf1.global_variables_initializer())
            builder = tf1.saved_model.Builder(out)
            sig = tf1.saved_model.predict_signature_def(inputs={"x": x}, outputs={"probs": y})
            builder.add_meta_graph_and_variables(sess, ["serve"],
                                                 signature_def_map={"serving_default": sig})
            builder.save()
            yv = sess.run(y, {x: xv})
    np.save(os.path.join(out, "x.npy"), xv)
    np.save(os.path.join(out, "probs.npy"), yv)
    print("wrote", out)
    # A TF2 export of a Keras model (resource variables, functions, a restore function).
    out = os.path.join(base, "keras_saved_model")
    if os.path.exists(out):
        import shutil
        shutil.rmtree(out)
    tf1.enable_resource_variables()
    tf.keras.utils.set_random_seed(12)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(5, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.export(out)
    yv = model(xv).numpy()
    np.save(os.path.join(out, "x.npy"), xv)
    np.save(os.path.join(out, "y.npy"), yv)
    print("wrote", out)


def write_asset_saved_model():
    import shutil
    import tempfile
    out = os.path.join(ROOT, "tests", "checkpoints", "data", "tf1_asset_saved_model")
    if os.path.exists(out):
        shutil.rmtree(out)
    tmp = tempfile.mkdtemp()
    vocab = os.path.join(tmp, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("apple\nbanana\ncherry\n")
    words_v = np.array([b"banana", b"zzz", b"apple", b"cherry"], dtype=object)
    g = tf.Graph()
    tf1.disable_resource_variables()
    with g.as_default():
        words = tf1.placeholder(tf.string, [None], name="words")
        init = tf1.lookup.TextFileInitializer(vocab, tf.string, tf1.lookup.TextFileIndex.WHOLE_LINE,
                                              tf.int64, tf1.lookup.TextFileIndex.LINE_NUMBER)
        table = tf1.lookup.StaticHashTable(init, default_value=-1)
        offset = tf1.get_variable("offset", [], tf.int64, initializer=tf1.constant_initializer(10))
        ids = tf.add(table.lookup(words), offset, name="ids")
        with tf1.Session(graph=g) as sess:
            sess.run([tf1.global_variables_initializer(), tf1.tables_initializer()])
            builder = tf1.saved_model.Builder(out)
            sig = tf1.saved_model.predict_signature_def(inputs={"words": words},
                                                        outputs={"ids": ids})
            builder.add_meta_graph_and_variables(sess, ["serve"],
                                                 signature_def_map={"serving_default": sig},
                                                 assets_collection=tf1.get_collection(
                                                     tf1.GraphKeys.ASSET_FILEPATHS),
                                                 main_op=tf1.tables_initializer())
            builder.save()
            ids_v = sess.run(ids, {words: words_v})
    shutil.rmtree(tmp)
    np.save(os.path.join(out, "words.npy"), words_v.astype("S"))
    np.save(os.path.join(out, "ids.npy"), ids_v)
    print("wrote", out, ids_v.tolist())



def _example(age=None, city=(), hist=None):
    f = {"city": tf.train.Feature(bytes_list=tf.train.BytesList(value=list(city)))}
    if hist is not None:
        f["history"] = tf.train.Feature(float_list=tf.train.FloatList(value=list(hist)))
    if age is not None:
        f["age"] = tf.train.Feature(float_list=tf.train.FloatList(value=[age]))
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString(
        deterministic=True)


def write_example_saved_model():
    import shutil
    out = os.path.join(ROOT, "tests", "checkpoints", "data", "tf1_example_saved_model")
    if os.path.exists(out):
        shutil.rmtree(out)
    records = np.array([_example(31.0, [b"paris", b"oslo"], [0.5, 1.5]),
                        _example(None, [b"lima"]),
                        _example(67.5, [], [2.0, -1.0, 4.0]),
                        _example(18.0, [b"oslo", b"zzz", b"paris"], [1.0])], dtype=object)
    # Stored as numpy bytes ("S"), which drop trailing zero bytes: none of these ends in one.
    assert all(not r.endswith(b"\0") for r in records)
    g = tf.Graph()
    tf1.disable_resource_variables()
    with g.as_default():
        tf1.set_random_seed(5)
        serialized = tf1.placeholder(tf.string, [None], name="input_example_tensor")
        feats = tf1.io.parse_example(serialized, {
            "age": tf.io.FixedLenFeature([1], tf.float32, default_value=[40.0]),
            "city": tf.io.VarLenFeature(tf.string),
            "history": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True,
                                                     default_value=0.0)})
        fc = tf1.feature_column
        city = fc.categorical_column_with_vocabulary_list("city", ["paris", "oslo", "lima"],
                                                          num_oov_buckets=1)
        x = fc.input_layer({"age": feats["age"], "city": feats["city"]},
                           [fc.numeric_column("age"), fc.embedding_column(city, 3)])
        hist = tf.reduce_sum(feats["history"], 1, keepdims=True)
        x = tf.concat([x / 50.0, hist], 1)
        w = tf1.get_variable("w", [5, 2], initializer=tf1.glorot_uniform_initializer(seed=6))
        b = tf1.get_variable("b", [2], initializer=tf1.constant_initializer(0.1))
        probs = tf.nn.softmax(tf.matmul(x, w) + b, name="probs")
        with tf1.Session(graph=g) as sess:
            sess.run([tf1.global_variables_initializer(), tf1.tables_initializer()])
            builder = tf1.saved_model.Builder(out)
            sig = tf1.saved_model.predict_signature_def(inputs={"examples": serialized},
                                                        outputs={"probabilities": probs})
            builder.add_meta_graph_and_variables(sess, ["serve"],
                                                 signature_def_map={"serving_default": sig},
                                                 main_op=tf1.tables_initializer())
            builder.save()
            probs_v = sess.run(probs, {serialized: records})
    np.save(os.path.join(out, "examples.npy"), records.astype("S"))
    np.save(os.path.join(out, "probs.npy"), probs_v)
    print("wrote", out, probs_v.tolist())

def check(prefix):
    r = tf.train.load_checkpoint(prefix)
    for name, shape in sorted(r.get_variable_to_shape_map().items()):
        print(name, shape, r.get_tensor(name).tolist())


def verify_rill(runner):
    import subprocess
    import tempfile
    data = os.path.join(ROOT, "tests", "checkpoints", "data", "tf1_saver")
    out = os.path.join(tempfile.mkdtemp(), "rill_trained.ckpt")
    subprocess.run([runner, "--graph=" + os.path.join(data, "graph.pbtxt"),
                    "--checkpoint=" + os.path.join(data, "model.ckpt"),
                    "--feed=x=" + os.path.join(data, "x.npy"), "--target=train", "--repeat=10",
                    "--save_checkpoint=" + out], check=True)
    g = tf.Graph()
    with g.as_default():
        tf1.import_graph_def(text_format.Parse(open(os.path.join(data, "graph.pbtxt")).read(),
                                               tf1.GraphDef()), name="")
        with tf1.Session(graph=g) as s:
            s.run("save/restore_all", {"save/Const:0": os.path.join(data, "model.ckpt")})
            for _ in range(10):
                s.run("train", {"x:0": np.load(os.path.join(data, "x.npy"))})
            want = {n: s.run(n + ":0") for n in ("dense/w", "dense/b", "out/w", "out/b",
                                                 "global_step")}
    got = tf.train.load_checkpoint(out)
    worst = 0.0
    for name, value in sorted(want.items()):
        diff = float(np.max(np.abs(got.get_tensor(name) - value))) if value.size else 0.0
        print("%-12s max |Rill - TensorFlow| = %g" % (name, diff))
        worst = max(worst, diff)
    print("largest difference %g over %d variables" % (worst, len(want)))
    sys.exit(0 if worst <= 1e-5 else 1)


def main(argv):
    if len(argv) > 2 and argv[1] == "--check":
        check(argv[2])
        return
    if len(argv) > 2 and argv[1] == "--verify_rill":
        verify_rill(argv[2])
        return
    if len(argv) > 1 and argv[1] == "--asset_model":
        write_asset_saved_model()
        return
    if len(argv) > 1 and argv[1] == "--example_model":
        write_example_saved_model()
        return
    write_bundle()
    write_tf1_saver()
    write_saved_models()


if __name__ == "__main__":
    main(sys.argv)
