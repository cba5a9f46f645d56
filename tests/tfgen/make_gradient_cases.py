#!/usr/bin/env python3
"""Writes gradient conformance cases recorded from real TensorFlow (tf.compat.v1 graph mode).

For each op, tests/gradients/data/<family>/<Op>.pbtxt.gz is a gzip-compressed text-format
rill.GradientSuite (tests/gradients/gradient_case.proto). A case is built in a fresh tf.Graph: a
Placeholder of known shape for every differentiable operand (x0, x1, ...), the op under test made
with tf.raw_ops.<Op>(..., name="out") (other operands as Consts), and a Placeholder dy<i> for the
gradient of each output. The forward GraphDef is taken before tf.gradients(ys, xs, grad_ys=dys)
adds TensorFlow's gradient nodes; the case keeps that forward graph, the tensor names of xs, ys
and dys, the fed values and TensorFlow's gradients (or that it returned None). Rill's test
imports the forward graph, builds its own gradients and must reproduce the values.

Also writes tests/gradients/data/tf_gradient_registry.txt: every op TensorFlow's Python gradient
registry knows, with "gradient" or "none" (NotDifferentiable), for the coverage test.

Cases live in tests/tfgen/grad_cases/<family>.py, each a function cases(add); see grad_cases/
__init__.py for `add`. Values come from np.random.RandomState seeded by the case name.

Usage (from the repository root; needs tensorflow-cpu and numpy, only to regenerate):
    python3 tests/tfgen/make_gradient_cases.py [--only OP,OP...]
"""
import gzip
import io
import os
import sys

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import text_format  # noqa: E402
from tensorflow.core.protobuf import rewriter_config_pb2  # noqa: E402
from tensorflow.python.framework import ops as tf_ops  # noqa: E402

import grad_cases  # noqa: E402
from tensorflow.python.ops import control_flow_util  # noqa: E402

# TF1 graphs: tf.cond, tf.while_loop and tf.TensorArray build Switch/Merge/Enter/... and
# TensorArrayV3 ops, and their gradients (TensorArrayGradV3, stacks) are TensorFlow 1's.
control_flow_util.ENABLE_CONTROL_FLOW_V2 = False

tf1 = tf.compat.v1
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT_DIR = os.path.join(REPO_ROOT, "tests", "gradients", "data")
CONFIG = tf1.ConfigProto(graph_options=tf1.GraphOptions(
    rewrite_options=rewriter_config_pb2.RewriterConfig(disable_meta_optimizer=True)))


def _indent(text, n):
    pad = " " * n
    return "".join(pad + line + "\n" for line in text.splitlines())


def _tensor_text(value, dtype):
    return text_format.MessageToString(tf.make_tensor_proto(np.asarray(value), dtype=dtype))


def record(spec):
    """Runs one case spec (grad_cases.Spec) in TensorFlow; returns its text block."""
    g = tf.Graph()
    with g.as_default():
        xs = [tf1.placeholder(tf.as_dtype(v.dtype), shape=v.shape, name=n) for n, v in spec.inputs]
        built = spec.build(*xs)
        init = None
        reference = None
        if isinstance(built, dict):  # {"ys": [...], "xs": [more xs], "init": initializer op,
            # "reference": builds ys' equivalent where TensorFlow cannot differentiate ys}
            xs = xs + list(built.get("xs", []))
            init = built.get("init")
            reference = built.get("reference")
            built = built["ys"]
        ys = built if isinstance(built, (list, tuple)) else [built]
        dys = [tf1.placeholder(y.dtype, shape=y.shape, name="dy%d" % i) for i, y in enumerate(ys)]
        forward = g.as_graph_def()
        # The stored forward graph holds ys; a reference (built after it was taken) stands in for
        # them where TensorFlow cannot differentiate them: its gradients are the expected ones.
        differentiated = ys if reference is None else reference()
        grads = tf.gradients(differentiated, xs, grad_ys=dys)
        # Sparse gradients (of Gather, ...) are compared as the dense tensors they stand for.
        grads = [tf.convert_to_tensor(t) if isinstance(t, tf.IndexedSlices) else t for t in grads]
        feeds = {x: v for x, (_, v) in zip(xs, spec.inputs)}
        if init is not None:
            with tf1.Session(graph=g, config=CONFIG) as sess:
                sess.run(init)
        rng = np.random.RandomState(grad_cases.seed_of(spec.name, "dy"))
        dy_values = []
        for y, dy in zip(ys, dys):
            shape = tf1.Session(graph=g, config=CONFIG).run(tf.shape(y), feeds) if \
                not y.shape.is_fully_defined() else y.shape.as_list()
            v = rng.standard_normal(shape)
            if y.dtype.is_complex:  # an imaginary part too, so a missing conjugate shows
                v = v + 1j * rng.standard_normal(shape)
            v = v.astype(y.dtype.as_numpy_dtype)
            dy_values.append(v)
            feeds[dy] = v
        fetch = [t for t in grads if t is not None]
        with tf1.Session(graph=g, config=CONFIG) as sess:
            if init is not None:
                sess.run(init)
            got = sess.run(fetch, feeds)
    out = ["case {", '  name: "%s"' % spec.name, '  op: "%s"' % spec.op]
    out.append("  graph {")
    out.append(_indent(text_format.MessageToString(forward), 4).rstrip("\n"))
    out.append("  }")
    for x in xs:
        out.append('  x: "%s"' % x.name)
    for y in ys:
        out.append('  y: "%s"' % y.name)
    for dy in dys:
        out.append('  dy: "%s"' % dy.name)
    for t, v in feeds.items():
        out.append("  feed {")
        out.append('    name: "%s"' % t.name)
        out.append("    value {")
        out.append(_indent(_tensor_text(v, t.dtype), 6).rstrip("\n"))
        out.append("    }")
        out.append("  }")
    it = iter(got)
    for x, gx in zip(xs, grads):
        if gx is None:
            out.append("  none: true")
            out.append("  expected {\n  }")
            continue
        out.append("  none: false")
        out.append("  expected {")
        out.append(_indent(_tensor_text(next(it), gx.dtype), 4).rstrip("\n"))
        out.append("  }")
    if init is not None:
        out.append('  init_target: "%s"' % init.name)
    out.append("  rtol: %r" % spec.rtol)
    out.append("  atol: %r" % spec.atol)
    out.append("}")
    return "\n".join(out) + "\n"


def write_suite(family, op, blocks):
    text = 'tf_version: "%s"\n' % tf.__version__ + "".join(blocks)
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
        f.write(text.encode("utf-8"))
    os.makedirs(os.path.join(OUT_DIR, family), exist_ok=True)
    with open(os.path.join(OUT_DIR, family, op + ".pbtxt.gz"), "wb") as f:
        f.write(raw.getvalue())


def write_registry():
    reg = tf_ops._gradient_registry  # pylint: disable=protected-access
    lines = []
    for name in sorted(reg.list()):
        kind = "none" if reg.lookup(name) is None else "gradient"
        lines.append("%s\t%s\n" % (name, kind))
    with open(os.path.join(OUT_DIR, "tf_gradient_registry.txt"), "w") as f:
        f.write("".join(lines))


def main(argv):
    only = None
    if "--only" in argv:
        only = set(argv[argv.index("--only") + 1].split(","))
    specs = grad_cases.all_specs()
    by_op = {}
    for spec in specs:
        if only and spec.op not in only:
            continue
        by_op.setdefault(spec.op, []).append(spec)
    os.makedirs(OUT_DIR, exist_ok=True)
    for op, op_specs in sorted(by_op.items()):
        blocks = [record(s) for s in op_specs]
        families = {s.family for s in op_specs}
        assert len(families) == 1, "op %s has cases in several families" % op
        write_suite(families.pop(), op, blocks)
        print("%s: %d cases" % (op, len(blocks)))
    if only is None:
        write_registry()


if __name__ == "__main__":
    main(sys.argv[1:])
