#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/) from the repo's test
data and from TensorFlow (tensorflow-cpu from PyPI), so the fuzzers start from inputs that reach
deep into Rill instead of from nothing. Deterministic: running it again writes the same bytes.

  python3 tests/tfgen/make_fuzz_corpus.py

The GraphDef target's seeds are not copied here: its BUILD rule reads graph/testdata/tf_written
and examples/graphs directly.
"""
import os
import random
import struct
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(REPO, "tests", "fuzz", "corpus")


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def tensor_protos():
    import numpy as np
    import tensorflow as tf

    cases = {
        "float_matrix": np.array([[1.5, -2.0], [3.25, 4.0]], np.float32),
        "float_scalar": np.float32(7.0),
        "double_vector": np.array([1e300, -0.5, 2.0], np.float64),
        "int32_vector": np.array([1, -2, 3, 2147483647], np.int32),
        "int64_matrix": np.arange(6, dtype=np.int64).reshape(2, 3),
        "uint8_image": np.arange(12, dtype=np.uint8).reshape(2, 2, 3),
        "int8": np.array([-128, 127], np.int8),
        "int16": np.array([-5, 5], np.int16),
        "uint16": np.array([65535], np.uint16),
        "bool": np.array([True, False, True]),
        "half": np.array([0.5, -1.0, 65504.0], np.float16),
        "complex64": np.array([1 + 2j, -3j], np.complex64),
        "string": np.array([b"rill", b"", b"\x00\xff"], object),
        "empty": np.zeros((0, 3), np.float32),
        "rank4": np.ones((1, 2, 1, 2), np.float32),
    }
    for name, value in cases.items():
        # TensorFlow's two encodings: tensor_content (numpy arrays) and the typed *_val fields.
        write("tensor_proto", name + ".content", tf.make_tensor_proto(value).SerializeToString())
        flat = np.asarray(value).reshape(-1).tolist()
        if name not in ("string", "complex64", "half") and flat:
            typed = tf.make_tensor_proto(flat, dtype=tf.as_dtype(np.asarray(value).dtype),
                                         shape=np.shape(value))
            write("tensor_proto", name + ".typed", typed.SerializeToString())
    # A splat: one value filling a shape (TensorFlow's compact constant encoding).
    splat = tf.make_tensor_proto(3.0, dtype=tf.float32, shape=[4, 4])
    write("tensor_proto", "splat", splat.SerializeToString())
    bf16 = tf.make_tensor_proto(np.array([1.0, 2.0], np.float32), dtype=tf.bfloat16)
    write("tensor_proto", "bfloat16", bf16.SerializeToString())


def configs():
    import tensorflow as tf

    cp = tf.compat.v1.ConfigProto
    configs = {
        "default": cp(),
        "cpu3": cp(device_count={"CPU": 3}),
        "gpu_options": cp(allow_soft_placement=True, log_device_placement=False,
                          gpu_options=tf.compat.v1.GPUOptions(
                              allow_growth=True, per_process_gpu_memory_fraction=0.4,
                              visible_device_list="1,0")),
        "threads": cp(inter_op_parallelism_threads=2, intra_op_parallelism_threads=1,
                      operation_timeout_in_ms=1000, use_per_session_threads=True),
        "no_gpu": cp(device_count={"GPU": 0, "CPU": 2}),
    }
    virtual = cp()
    v = virtual.gpu_options.experimental.virtual_devices.add()
    v.memory_limit_mb.extend([1024, 1024])
    configs["virtual_devices"] = virtual
    opt = cp()
    opt.graph_options.optimizer_options.opt_level = -1
    configs["optimizer_off"] = opt
    for name, config in configs.items():
        write("config_proto", name + ".pb", config.SerializeToString())
    for name in sorted(os.listdir(os.path.join(REPO, "examples"))):
        if name.endswith(".config.pbtxt"):
            with open(os.path.join(REPO, "examples", name), "rb") as f:
                write("config_proto", name, f.read())


def checkpoints():
    data = os.path.join(REPO, "tests", "checkpoints", "data")
    for root, _, files in sorted(os.walk(data)):
        for name in sorted(files):
            if not name.endswith(".index"):
                continue
            prefix = os.path.join(root, name[: -len(".index")])
            shards = sorted(f for f in files if f.startswith(name[: -len(".index")] + ".data-"))
            if len(shards) != 1:
                continue
            with open(prefix + ".index", "rb") as f:
                index = f.read()
            with open(os.path.join(root, shards[0]), "rb") as f:
                shard = f.read()
            if len(index) + len(shard) > 64 * 1024:
                continue
            label = os.path.relpath(prefix, data).replace(os.sep, "_")
            write("checkpoint", label, struct.pack("<I", len(index)) + index + shard)


def device_names():
    names = [
        "/cpu:0", "/gpu:1", "/device:GPU:1", "/device:CPU:*", "/job:localhost/replica:0/task:0/"
        "device:CPU:0", "/job:worker/task:3/device:GPU:2", "/job:ps", "/replica:1", "CPU:0",
        "/job:localhost/replica:0/task:0/cpu:0", "/device:XLA_CPU:0", "/task:1/gpu:*", "",
        "/device:GPU:0\n/cpu:0", "/job:localhost/device:GPU:0\n/job:localhost/device:GPU:1",
    ]
    for i, n in enumerate(names):
        write("device_name", "name%02d" % i, n.encode())


def graph_programs():
    # The run target reads its input as a program; random bytes of a few lengths are as good a
    # start as any, and libFuzzer's coverage feedback does the rest.
    rng = random.Random(20261125)
    for i in range(24):
        n = rng.choice([16, 48, 96, 192, 384])
        write("graph_run", "program%02d" % i, bytes(rng.getrandbits(8) for _ in range(n)))


def graph_mode_programs():
    # graph_modes_fuzzer: the first byte picks the mode (multi-device, functions, strings, huge
    # sizes), the second whether the differential runs are made; random bytes after them.
    rng = random.Random(20261126)
    for mode, label in enumerate(["multi_device", "functions", "strings", "huge_sizes"]):
        for i in range(8):
            n = rng.choice([16, 48, 96, 192])
            head = bytes([mode, 4 * rng.getrandbits(6) if i % 2 else 4 * rng.getrandbits(6) + 1])
            write("graph_modes", "%s%02d" % (label, i),
                  head + bytes(rng.getrandbits(8) for _ in range(n)))


def gifs():
    """GIFs of kernel_cases/images_gif.py: one frame, an animation with transparency and local
    tables, interlaced rows, 256 colours with a full LZW table, extensions."""
    sys.path.insert(0, os.path.join(REPO, "tests", "tfgen"))
    from kernel_cases import images_gif as g  # pylint: disable=import-outside-toplevel
    write("gif", "single", g.single())
    write("gif", "animation", g.animation())
    write("gif", "interlaced", g.gif_file(
        7, 11, [g.image(0, 0, 7, 11, g.pixels(7, 11, 8, 1), interlace=True)],
        gct=g.palette(8, 1), gct_bits=2))
    write("gif", "full_table", g.single(64, 40, 256, 7, seed=2))
    write("gif", "extensions", g.gif_file(
        4, 3, [g.extension(0xff, [b"NETSCAPE2.0", b"\x01\x00\x00"]),
               g.control(transparent=1) + g.image(0, 0, 4, 3, g.pixels(4, 3, 4, 3)),
               g.image(1, 1, 2, 2, [0, 1, 2, 3], lct=g.palette(4, 4), lct_bits=1)],
        gct=g.palette(4, 3), gct_bits=1))


def main():
    tensor_protos()
    configs()
    checkpoints()
    device_names()
    graph_programs()
    graph_mode_programs()
    gifs()
    for target in sorted(os.listdir(CORPUS)):
        print(target, len(os.listdir(os.path.join(CORPUS, target))), "seeds")


if __name__ == "__main__":
    sys.exit(main())
