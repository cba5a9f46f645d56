#!/usr/bin/env python3
"""Crafted round 9 (issue 26): a seeded differential generator against TensorFlow 2.21.

Rounds 1-8 looked mostly for crashes and hangs; this round looks for silent wrong numbers. It
builds small graphs with tf.raw_ops in tf.compat.v1 graph mode at the corners real graphs hit:
broadcasting (rank 0, 1, 5 and 6, size-0 dims, size-1 dims broadcast both ways, shapes that do
not broadcast), dtype corners (integer wraparound of int8 ... int64 and the unsigned types, Cast
between every pair of 13 dtypes including NaN and infinities to integers, half and bfloat16
rounding, Truncate), negative and out-of-range axes, negative indices and batch_dims in Gather /
GatherV2 / GatherNd, StridedSlice with random masks and strides, Pad / PadV2 / MirrorPad,
Reshape with -1 and empty shapes, reductions over empty axes and keep_dims, Transpose, Tile,
Fill and Range edges, integer division and remainder by zero and of negative operands, shifts
past the width, Select / SelectV2 broadcasting, ConcatV2 / Split / SplitV / Unpack with empty
pieces, and Conv2D / DepthwiseConv2dNative / MaxPool / AvgPool with SAME, VALID and EXPLICIT
padding, strides and dilations. Operands are Consts or Placeholders of known shape, at random,
so Rill's shape functions and constant folding see both.

Each graph runs in TensorFlow 2.21 (Grappler off and oneDNN's kernels off, TF_ENABLE_ONEDNN_OPTS=0,
as tests/tfgen/make_kernel_conformance.py runs its cases: the unrewritten graph on Eigen's
kernels); a graph whose op TensorFlow's shape function refuses while it is built is written
with the op fed through Placeholders of unknown shape and then the operands swapped back in, and
that GraphDef's outcome in TensorFlow (an import error: INVALID_ARGUMENT) is recorded. The cases
(text rill.ConformanceSuite, tests/conformance/conformance.proto, gzip-compressed) go to
tests/reliability/data/crafted_round9.pbtxt.gz, which //tests/reliability:crafted_round9_test
replays through a Rill Session without TensorFlow: the same values (integers, bools exactly,
floats to 1e-5 relative, NaN matching NaN) or the same error code. Cases TensorFlow has no CPU
kernel for are skipped.

Usage (from the repository root; TensorFlow only to regenerate):
    python3 tests/reliability/crafted_round9.py [--seed=9] [--out=FILE] [--only=FAMILY]
"""
import argparse
import gzip
import os
import random
import sys

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tfgen"))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from kernel_cases import core  # noqa: E402

tf1 = tf.compat.v1
raw = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
NP = {
    "bool": np.bool_, "int8": np.int8, "uint8": np.uint8, "int16": np.int16,
    "uint16": np.uint16, "int32": np.int32, "uint32": np.uint32, "int64": np.int64,
    "uint64": np.uint64, "half": np.float16, "bfloat16": BF16, "float32": np.float32,
    "float64": np.float64,
}
FLOATS = ["half", "bfloat16", "float32", "float64"]
SINTS = ["int8", "int16", "int32", "int64"]
UINTS = ["uint8", "uint16", "uint32", "uint64"]
INTS = SINTS + UINTS


class Skip(Exception):
    """TensorFlow cannot build or run the case at all (no CPU kernel, an op-def type error)."""


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.cases = []
        self.names = set()
        self.skipped = 0
        self.stats = {"ok": 0, "error": 0}

    # --- values -------------------------------------------------------------------------------
    def values(self, dt, shape, kind="any"):
        """Random values of dtype `dt`: small integers, type extremes and, for floats, NaN,
        infinities, -0, subnormals and values that round when narrowed."""
        r = self.r
        n = int(np.prod(shape)) if shape else 1
        if dt == "bool":
            return np.array([r.random() < 0.5 for _ in range(n)], dtype=np.bool_).reshape(shape)
        out = []
        for _ in range(n):
            p = r.random()
            if dt in FLOATS:
                if kind == "exact":
                    v = float(r.randint(-3, 3))
                elif kind == "finite" or p < 0.6:
                    v = r.choice([float(r.randint(-9, 9)), r.uniform(-4, 4),
                                  r.choice([0.5, -1.5, 2.5, 1.0 / 3, 1e-3, 65504.0, 3.4e38])])
                else:
                    v = r.choice([np.nan, np.inf, -np.inf, -0.0, 1e-40, 6e-8, 1e30, -1e30,
                                  2.0 ** 24 + 1, 1.0 + 2.0 ** -9, 1.0 + 2.0 ** -11, 3e9, -3e9,
                                  2.0 ** 63, 2.0 ** 64, -2.0 ** 31, 4294967296.0])
                out.append(v)
            else:
                info = np.iinfo(NP[dt])
                if kind == "small" or p < 0.55:
                    lo = 0 if info.min == 0 else -9
                    v = r.randint(lo, 9)
                elif kind == "nonneg":
                    v = r.randint(0, 9)
                else:
                    v = r.choice([info.min, info.max, info.max - 1, info.min + 1, 0, 1,
                                  info.max // 2 + 1] + ([-1] if info.min < 0 else []))
                out.append(v)
        with np.errstate(over="ignore", invalid="ignore"):
            if dt in FLOATS:
                a = np.array(out, dtype=np.float64).astype(NP[dt])
            else:
                a = np.array(out, dtype=NP[dt])
        return a.reshape(shape)

    def shape(self, max_rank=4, max_dim=3, zero=0.1):
        r = self.r
        rank = r.choice([0, 1, 1, 2, 2, 3, 3, 4][: max_rank * 2 + 1] if max_rank < 4 else
                        [0, 1, 2, 2, 3, 3, 4, max_rank])
        dims = []
        for _ in range(rank):
            dims.append(0 if r.random() < zero else r.randint(1, max_dim))
        return tuple(dims)

    # --- recording ----------------------------------------------------------------------------
    def case(self, family, what, inputs, build, rtol=1e-5, atol=0.0, op=None, modes=None):
        """inputs: [(name, value)]; each becomes a Const or a Placeholder of known shape (fed) at
        random, or as `modes` says ("const", "feed" or None for random). build(*tensors) returns
        the tensor(s) to fetch; Placeholders it makes itself it lists in self.extra_feeds as
        (tensor name, value). atol may be a function of the outputs (a list of arrays)."""
        name = "%s/%03d_%s" % (family, len(self.cases), what)
        assert name not in self.names, name
        modes = [m or self.r.choice(["const", "feed"])
                 for m in (modes or [None] * len(inputs))]
        try:
            text = self._record(name, op or family, inputs, modes, build, rtol, atol)
        except Skip:
            self.skipped += 1
            return
        self.names.add(name)
        self.cases.append(text)

    @staticmethod
    def _input(name, value, mode):
        dt = tf.as_dtype(value.dtype)
        if mode == "const":
            return tf1.constant(value, dtype=dt, name=name)
        return tf1.placeholder(dt, shape=value.shape, name=name)

    def _record(self, name, op, inputs, modes, build, rtol, atol):
        graph = tf.Graph()
        built_error = None
        self.extra_feeds = []  # build() may add (name, value) for Placeholders it makes
        with graph.as_default():
            ts = [self._input(n, v, m) for (n, v), m in zip(inputs, modes)]
            try:
                fetches = core._flatten(build(*ts))
            except TypeError as e:
                raise Skip(str(e))
            except (ValueError, tf.errors.OpError) as e:
                built_error = e
        feeds = [(n + ":0", v) for (n, v), m in zip(inputs, modes) if m == "feed"]
        feeds += self.extra_feeds
        if built_error is None:
            if not fetches:  # Unpack of num 0: a session run needs a fetch
                raise Skip("nothing to fetch")
            graph_def = graph.as_graph_def()
            fetch_names = [t.name for t in fetches]
            with tf1.Session(graph=graph, config=core.CONFIG) as sess:
                outputs, code, message = self._run(sess, fetch_names, feeds)
        else:
            # The op with operands of unknown shape, then the operands swapped back in.
            operands = {nd.name: nd for nd in graph.as_graph_def().node}
            g2 = tf.Graph()
            self.extra_feeds = []
            with g2.as_default():
                ts = [tf1.placeholder(tf.as_dtype(v.dtype), shape=None, name=n)
                      for n, v in inputs]
                try:
                    fetches = core._flatten(build(*ts))
                except (TypeError, ValueError, tf.errors.OpError) as e:
                    raise Skip(str(e))
            if not fetches:
                raise Skip("nothing to fetch")
            graph_def = g2.as_graph_def()
            for nd in graph_def.node:
                if nd.name in operands and nd.op == "Placeholder":
                    nd.CopyFrom(operands[nd.name])
            fetch_names = [t.name for t in fetches]
            g3 = tf.Graph()
            outputs, code, message = None, "", ""
            try:
                with g3.as_default():
                    tf1.import_graph_def(graph_def, name="")
            except ValueError as e:
                code, message = "INVALID_ARGUMENT", str(e)
            if not code:
                with tf1.Session(graph=g3, config=core.CONFIG) as sess:
                    outputs, code, message = self._run(sess, fetch_names, feeds)
        self.stats["error" if code else "ok"] += 1
        if callable(atol):  # a tolerance that depends on the outputs' magnitude
            atol = atol(outputs) if outputs is not None else 0.0
        return self._format(name, op, graph_def, feeds, fetch_names, outputs, code, message,
                            rtol, atol)

    @staticmethod
    def _run(sess, fetch_names, feeds):
        del core._raw_messages[:]  # the C++ message, before TensorFlow adds Python frames
        try:
            return sess.run(fetch_names, {n: v for n, v in feeds}), "", ""
        except tf.errors.OpError as e:
            message = core._clean_message(
                core._raw_messages[-1] if core._raw_messages else e.message)
            if ("No OpKernel was registered" in message
                    or "Could not find device for node" in message
                    or "no registered kernels" in message):
                raise Skip(message)
            return None, core.CODE_NAMES[e.error_code], message

    @staticmethod
    def _format(name, op, graph_def, feeds, fetch, outputs, code, message, rtol, atol):
        q, block = core._q, core._block
        lines = ["case {\n", "  name: %s\n" % q(name), "  op: %s\n" % q(op),
                 "  dtype: DT_INVALID\n", block("graph", graph_def, 2)]
        for fname, value in feeds:
            lines.append("  feed {\n    name: %s\n" % q(fname))
            lines.append(block("value", tf.make_tensor_proto(value), 4))
            lines.append("  }\n")
        for f in fetch:
            lines.append("  fetch: %s\n" % q(f))
        if outputs is not None:
            for o in outputs:
                o = np.asarray(o)
                proto = tf.make_tensor_proto(o)
                assert proto.dtype == tf.as_dtype(o.dtype).as_datatype_enum, name
                lines.append(block("expected", proto, 2))
            floating = any(np.asarray(o).dtype.kind in "fc" or np.asarray(o).dtype == BF16
                           for o in outputs)
            if floating and rtol:
                lines.append("  rtol: %r\n" % rtol)
            if floating and atol:
                lines.append("  atol: %r\n" % atol)
        if code:
            lines.append("  error_code: %s\n" % q(code))
            lines.append("  error_message: %s\n" % q(message[:400]))
        lines.append("}\n")
        return "".join(lines)

    def write(self, path):
        text = "tf_version: %s\n" % core._q(tf.__version__) + "".join(self.cases)
        with open(path, "wb") as raw_file:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw_file, mtime=0,
                               compresslevel=9) as f:
                f.write(text.encode("utf-8"))


# --- families -----------------------------------------------------------------------------------

def broadcast_pair(g, max_rank=6):
    """Two shapes that broadcast (or, one time in ten, do not)."""
    r = g.r
    rank = r.choice([0, 1, 2, 3, 4, 5, 6][: max_rank + 1])
    big = [r.choice([1, 2, 3]) if rank < 5 else r.choice([1, 2]) for _ in range(rank)]
    if r.random() < 0.15 and rank:
        big[r.randrange(rank)] = 0
    a, b = list(big), list(big)
    for k in range(rank):
        p = r.random()
        if p < 0.25:
            a[k] = 1
        elif p < 0.5:
            b[k] = 1
    drop = r.randint(0, rank)
    if r.random() < 0.5:
        a = a[drop:]
    else:
        b = b[drop:]
    if r.random() < 0.1 and rank:
        k = r.randrange(len(a)) if a else None
        if k is not None and a[k] in (2, 3):
            a[k] = 5 - a[k] if a[k] in (2, 3) else a[k]
    return tuple(a), tuple(b)


BINARY_FLOAT = ["AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference",
                "Pow", "FloorDiv", "FloorMod", "DivNoNan", "Atan2", "Xdivy", "Less", "Equal",
                "NotEqual", "GreaterEqual", "TruncateDiv", "Div", "Mod"]
BINARY_INT = ["AddV2", "Sub", "Mul", "Maximum", "Minimum", "FloorDiv", "FloorMod", "TruncateDiv",
              "TruncateMod", "Div", "Mod", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift",
              "RightShift", "Less", "Equal", "SquaredDifference", "Pow", "DivNoNan"]
DIVIDES = {"FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Div", "Mod", "DivNoNan",
           "Pow"}


def fam_binary(g, n):
    for _ in range(n):
        r = g.r
        dt = r.choice(FLOATS + INTS + SINTS)
        op = r.choice(BINARY_FLOAT if dt in FLOATS else BINARY_INT)
        sa, sb = broadcast_pair(g)
        a, b = g.values(dt, sa), g.values(dt, sb)
        if dt in INTS and op in DIVIDES:
            info = np.iinfo(NP[dt])
            if info.min < 0:  # min / -1 traps in TensorFlow's kernels
                a[a == info.min] = info.min + 1
            if op == "Pow":
                b = np.abs(b % 5).astype(NP[dt]) if r.random() < 0.8 else b
        if op in ("LeftShift", "RightShift"):
            bits = np.iinfo(NP[dt]).bits
            b = np.array(g.values("int64", sb), dtype=np.int64)
            b = np.array([r.choice([0, 1, bits - 1, bits, bits + 1, 2 * bits, -1, 3])
                          for _ in b.flat], dtype=np.int64).reshape(sb).astype(NP[dt])
        kw = {}
        if op in ("Equal", "NotEqual") and r.random() < 0.5:
            kw["incompatible_shape_error"] = False
        g.case("binary", "%s_%s" % (op, dt), [("x", a), ("y", b)],
               lambda x, y, op=op, kw=kw: getattr(raw, op)(x=x, y=y, name="out", **kw), op=op)


UNARY = ["Abs", "Neg", "Sign", "Square", "Reciprocal", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p",
         "Expm1", "Tanh", "Sigmoid", "Round", "Rint", "Floor", "Ceil", "IsNan", "IsInf",
         "IsFinite", "Invert", "PopulationCount", "Relu", "Relu6", "Elu", "Softplus", "Erf",
         "LeakyRelu", "OnesLike", "ZerosLike"]


def fam_unary(g, n):
    for _ in range(n):
        r = g.r
        dt = r.choice(FLOATS + INTS)
        op = r.choice(UNARY)
        a = g.values(dt, g.shape(max_rank=3, max_dim=4))
        arg = "features" if op in ("Relu", "Relu6", "Elu", "Softplus", "LeakyRelu") else "x"
        g.case("unary", "%s_%s" % (op, dt), [("x", a)],
               lambda x, op=op, arg=arg: getattr(raw, op)(name="out", **{arg: x}), op=op)


CAST_TYPES = ["bool"] + INTS + FLOATS


def fam_cast(g, n):
    for _ in range(n):
        r = g.r
        src, dst = r.choice(CAST_TYPES), r.choice(CAST_TYPES)
        a = g.values(src, (r.randint(1, 7),))
        trunc = r.random() < 0.25
        g.case("cast", "%s_to_%s%s" % (src, dst, "_trunc" if trunc else ""), [("x", a)],
               lambda x, dst=dst, trunc=trunc: raw.Cast(x=x, DstT=tf.as_dtype(NP[dst]),
                                                         Truncate=trunc, name="out"), op="Cast")


REDUCTIONS = ["Sum", "Prod", "Max", "Min", "Mean", "All", "Any", "ArgMax", "ArgMin",
              "EuclideanNorm"]


def fam_reduce(g, n):
    for _ in range(n):
        r = g.r
        op = r.choice(REDUCTIONS)
        dt = "bool" if op in ("All", "Any") else r.choice(["float32", "half", "bfloat16",
                                                            "float64"] + INTS)
        s = g.shape(max_rank=4, max_dim=3, zero=0.2)
        rank = len(s)
        a = g.values(dt, s, kind="finite" if r.random() < 0.5 else "any")
        if op in ("ArgMax", "ArgMin"):
            axis = np.array(r.randint(-rank - 1, rank), dtype=r.choice([np.int32, np.int64]))
            g.case("reduce", "%s_%s_r%d" % (op, dt, rank), [("x", a), ("axis", axis)],
                   lambda x, d, op=op: getattr(raw, op)(input=x, dimension=d, name="out"),
                   op=op)
            continue
        k = r.choice([0, 0, 1, 1, 2, 3])
        axes = [r.randint(-rank - 1, rank) if r.random() < 0.1 else
                (r.randint(-rank, rank - 1) if rank else 0) for _ in range(k)]
        if rank == 0 and axes and r.random() < 0.7:
            axes = []
        ax = np.array(axes, dtype=r.choice([np.int32, np.int64]))
        if r.random() < 0.2 and len(axes) == 1:
            ax = ax.reshape(())
        keep = r.random() < 0.5
        g.case("reduce", "%s_%s_r%d_k%d" % (op, dt, rank, keep), [("x", a), ("axis", ax)],
               lambda x, d, op=op, keep=keep: getattr(raw, op)(input=x, axis=d, keep_dims=keep,
                                                               name="out"), op=op)


def fam_gather(g, n):
    for _ in range(n):
        r = g.r
        which = r.choice(["Gather", "GatherV2", "GatherV2", "GatherNd", "ResourceGather"][:4])
        dt = r.choice(["float32", "int32", "int64", "bool", "half", "uint8"])
        ps = g.shape(max_rank=3, max_dim=4, zero=0.1)
        if not ps and which != "GatherNd":
            ps = (3,)
        params = g.values(dt, ps)
        idt = r.choice([np.int32, np.int64])
        if which == "GatherNd":
            depth = r.randint(0, len(ps)) if ps else 0
            ishape = g.shape(max_rank=2, max_dim=3, zero=0.15) + (depth,)
            hi = min(ps[:depth]) if depth else 1
            idx = np.array([r.randint(-1 if r.random() < 0.1 else 0,
                                      hi if r.random() < 0.1 else max(hi - 1, 0))
                            for _ in range(int(np.prod(ishape)))], dtype=idt).reshape(ishape)
            bd = 0
            g.case("gather", "GatherNd_%s" % dt, [("params", params), ("indices", idx)],
                   lambda p, i: raw.GatherNd(params=p, indices=i, name="out"), op="GatherNd")
            continue
        ishape = g.shape(max_rank=2, max_dim=3, zero=0.15)
        rank = len(ps)
        if which == "Gather":
            hi = ps[0]
            idx = np.array([r.randint(-1 if r.random() < 0.1 else 0,
                                      hi if r.random() < 0.1 else max(hi - 1, 0))
                            for _ in range(int(np.prod(ishape)))], dtype=idt).reshape(ishape)
            g.case("gather", "Gather_%s" % dt, [("params", params), ("indices", idx)],
                   lambda p, i: raw.Gather(params=p, indices=i, name="out"), op="Gather")
            continue
        bd = r.choice([0, 0, 0, 1, -1, 2])
        if bd:
            ishape = ps[:1] + ishape if bd in (1, -1) else ps[:2] + ishape
        axis = r.randint(-rank - 1, rank) if r.random() < 0.2 else r.randint(-rank, rank - 1)
        if bd > 0 and r.random() < 0.7:
            axis = r.randint(min(bd, rank - 1) if rank else 0, max(rank - 1, 0))
        ax_dim = ps[axis] if -rank <= axis < rank else 1
        idx = np.array([r.randint(-1 if r.random() < 0.1 else 0,
                                  ax_dim if r.random() < 0.1 else max(ax_dim - 1, 0))
                        for _ in range(int(np.prod(ishape)))], dtype=idt).reshape(ishape)
        g.case("gather", "GatherV2_%s_ax%d_bd%d" % (dt, axis, bd),
               [("params", params), ("indices", idx), ("axis", np.array(axis, dtype=idt))],
               lambda p, i, a, bd=bd: raw.GatherV2(params=p, indices=i, axis=a, batch_dims=bd,
                                                   name="out"), op="GatherV2")


def fam_strided_slice(g, n):
    for _ in range(n):
        r = g.r
        s = g.shape(max_rank=4, max_dim=5, zero=0.08)
        if not s:
            s = (r.randint(0, 4),) if r.random() < 0.5 else s
        x = np.arange(int(np.prod(s)), dtype=np.int32).reshape(s)
        k = r.randint(1, len(s) + 1) if s else r.randint(0, 2)
        idt = r.choice([np.int32, np.int64])
        begin, end, strides = [], [], []
        for j in range(k):
            d = s[j] if j < len(s) else 3
            begin.append(r.choice([0, 1, -1, d, d + 3, -d - 2, r.randint(-d, d)]))
            end.append(r.choice([0, d, -1, d + 5, -d - 5, r.randint(-d, d)]))
            strides.append(r.choice([1, 1, 2, -1, -2, 3, 0] if r.random() < 0.1 else
                                    [1, 1, 2, -1, -2, 3]))
        def mask():
            return sum(1 << j for j in range(k) if r.random() < 0.25)
        masks = dict(begin_mask=mask(), end_mask=mask(), ellipsis_mask=0, new_axis_mask=0,
                     shrink_axis_mask=0)
        if r.random() < 0.3:
            masks["shrink_axis_mask"] = mask()
        if r.random() < 0.2:
            masks["new_axis_mask"] = mask()
        if r.random() < 0.2:
            masks["ellipsis_mask"] = 1 << r.randrange(k) if k else 0
            if r.random() < 0.1 and k > 1:
                masks["ellipsis_mask"] |= 1 << ((r.randrange(k - 1) + 1) % k)
        b, e, st = (np.array(v, dtype=idt) for v in (begin, end, strides))
        g.case("strided_slice", "r%d_k%d" % (len(s), k),
               [("x", x), ("begin", b), ("end", e), ("strides", st)],
               lambda x, b, e, st, m=masks: raw.StridedSlice(input=x, begin=b, end=e,
                                                             strides=st, name="out", **m),
               op="StridedSlice")


def fam_slice(g, n):
    for _ in range(n):
        r = g.r
        s = g.shape(max_rank=3, max_dim=4, zero=0.1)
        x = g.values(r.choice(["float32", "int8", "bool"]), s)
        rank = len(s)
        begin = [r.choice([0, 1, d, d + 1, -1]) if r.random() < 0.2 else r.randint(0, d)
                 for d in s]
        size = [r.choice([-1, -1, 0, d - b, d - b + 1, -2]) if r.random() < 0.5 else
                max(0, d - b) for d, b in zip(s, begin)]
        if r.random() < 0.05:
            size = size + [1]
        idt = r.choice([np.int32, np.int64])
        g.case("slice", "r%d" % rank, [("x", x), ("begin", np.array(begin, dtype=idt)),
                                        ("size", np.array(size, dtype=idt))],
               lambda x, b, z: raw.Slice(input=x, begin=b, size=z, name="out"), op="Slice")


def fam_pad(g, n):
    for _ in range(n):
        r = g.r
        op = r.choice(["Pad", "PadV2", "MirrorPad", "MirrorPad"])
        s = g.shape(max_rank=4, max_dim=3, zero=0.15)
        dt = r.choice(["float32", "int32", "uint8", "half", "bool", "int64"])
        x = g.values(dt, s)
        mode = r.choice(["REFLECT", "SYMMETRIC"])
        pads = []
        for d in s:
            lim = (d - 1 if mode == "REFLECT" else d) if op == "MirrorPad" else 3
            pads.append([r.choice([0, lim, r.randint(0, max(lim, 0)), lim + 1, -1])
                         if r.random() < 0.25 else r.randint(0, max(lim, 0)) for _ in range(2)])
        p = np.array(pads, dtype=r.choice([np.int32, np.int64])).reshape(len(s), 2)
        if r.random() < 0.05:
            p = p.reshape(-1)
        ins = [("x", x), ("paddings", p)]
        if op == "PadV2":
            ins.append(("c", g.values(dt, ())))
            g.case("pad", "PadV2_%s" % dt, ins,
                   lambda x, p, c: raw.PadV2(input=x, paddings=p, constant_values=c,
                                             name="out"), op=op)
        elif op == "Pad":
            g.case("pad", "Pad_%s" % dt, ins,
                   lambda x, p: raw.Pad(input=x, paddings=p, name="out"), op=op)
        else:
            g.case("pad", "MirrorPad_%s_%s" % (mode, dt), ins,
                   lambda x, p, mode=mode: raw.MirrorPad(input=x, paddings=p, mode=mode,
                                                         name="out"), op=op)


def fam_reshape(g, n):
    for _ in range(n):
        r = g.r
        s = g.shape(max_rank=4, max_dim=4, zero=0.2)
        x = g.values("int16", s)
        total = int(np.prod(s))
        target = list(g.shape(max_rank=4, max_dim=4, zero=0.15))
        if r.random() < 0.6 and total:
            # A factorization of total, with -1 in one place.
            target, left = [], total
            for _ in range(r.randint(0, 3)):
                f = r.choice([d for d in range(1, left + 1) if left % d == 0])
                target.append(f)
                left //= f
            target.append(left)
            r.shuffle(target)
        if r.random() < 0.5 and target:
            target[r.randrange(len(target))] = -1
        if r.random() < 0.05:
            target = target + [-1]
        if r.random() < 0.2:
            target.insert(r.randint(0, len(target)), 0 if r.random() < 0.5 else 1)
        shp = np.array(target, dtype=r.choice([np.int32, np.int64]))
        g.case("reshape", "r%d_to_%d" % (len(s), len(target)), [("x", x), ("shape", shp)],
               lambda x, sh: raw.Reshape(tensor=x, shape=sh, name="out"), op="Reshape")


def fam_transpose(g, n):
    for _ in range(n):
        r = g.r
        s = g.shape(max_rank=4, max_dim=3, zero=0.1)
        if r.random() < 0.2:
            s = tuple(r.choice([1, 2]) for _ in range(r.choice([5, 6])))
        x = g.values(r.choice(["float32", "int8", "bool", "half", "int64"]), s)
        perm = list(range(len(s)))
        r.shuffle(perm)
        p = r.random()
        if p < 0.08 and perm:
            perm[0] = len(s)
        elif p < 0.12 and len(perm) > 1:
            perm[0] = perm[1]
        elif p < 0.2 and perm:
            perm[r.randrange(len(perm))] -= len(s)
        elif p < 0.24:
            perm = perm[:-1] if perm else [0]
        g.case("transpose", "r%d" % len(s),
               [("x", x), ("perm", np.array(perm, dtype=r.choice([np.int32, np.int64])))],
               lambda x, pm: raw.Transpose(x=x, perm=pm, name="out"), op="Transpose")


def fam_tile_fill_range(g, n):
    for _ in range(n):
        r = g.r
        op = r.choice(["Tile", "Fill", "Range", "Range", "BroadcastTo", "ExpandDims", "Squeeze",
                       "ReverseV2", "OneHot", "Cumsum", "Cumprod"])
        if op == "Tile":
            s = g.shape(max_rank=3, max_dim=3, zero=0.1)
            x = g.values(r.choice(["float32", "int8", "bool"]), s)
            m = [r.choice([0, 1, 2, 3]) for _ in s]
            if r.random() < 0.1:
                m = m + [2]
            if r.random() < 0.1 and m:
                m[0] = -1
            g.case("tile", "r%d" % len(s),
                   [("x", x), ("m", np.array(m, dtype=r.choice([np.int32, np.int64])))],
                   lambda x, m: raw.Tile(input=x, multiples=m, name="out"), op=op)
        elif op == "Fill":
            dims = [r.choice([0, 1, 2, 3]) for _ in range(r.randint(0, 4))]
            if r.random() < 0.1 and dims:
                dims[0] = -1
            dt = r.choice(FLOATS + INTS + ["bool"])
            v = g.values(dt, ())
            if r.random() < 0.05:
                v = g.values(dt, (1,))
            g.case("fill", "%s_r%d" % (dt, len(dims)),
                   [("dims", np.array(dims, dtype=r.choice([np.int32, np.int64]))), ("v", v)],
                   lambda d, v: raw.Fill(dims=d, value=v, name="out"), op=op)
        elif op == "Range":
            dt = r.choice(["int32", "int64", "float32", "float64", "int8", "uint8", "int16",
                           "uint16", "uint32", "half", "bfloat16"])
            if dt in FLOATS:
                start = r.choice([0.0, 1.5, -2.25, 0.1, 10.0])
                delta = r.choice([1.0, 0.5, 0.3, -0.7, 2.0, 0.0, 0.1, -1.0])
                limit = start + delta * r.choice([0, 1, 2.5, 4, 7, -3]) + r.choice([0, 1e-3])
            else:
                info = np.iinfo(NP[dt])
                start = r.choice([0, 1, 5, -3, info.max - 2, info.min])
                delta = r.choice([1, 2, 3, -1, -2, 0, 7])
                limit = start + delta * r.choice([0, 1, 3, 4, -2]) + r.choice([0, 1, -1])
                if info.min == 0:
                    delta = abs(delta)
                start, limit = (min(max(v, info.min), info.max) for v in (start, limit))
            vals = [np.array(v, dtype=NP[dt]) for v in (start, limit, delta)]
            g.case("range", dt, [("start", vals[0]), ("limit", vals[1]), ("delta", vals[2])],
                   lambda a, b, c: raw.Range(start=a, limit=b, delta=c, name="out"), op=op)
        elif op == "BroadcastTo":
            sa, sb = broadcast_pair(g)
            x = g.values(r.choice(["float32", "int8", "bool"]), sa)
            try:
                target = list(np.broadcast_shapes(sa, sb)) if r.random() < 0.8 else list(sb)
            except ValueError:
                target = list(sb)
            g.case("broadcast_to", "r%d_r%d" % (len(sa), len(target)),
                   [("x", x), ("shape", np.array(target, dtype=r.choice([np.int32,
                                                                        np.int64])))],
                   lambda x, s: raw.BroadcastTo(input=x, shape=s, name="out"), op=op)
        elif op == "ExpandDims":
            s = g.shape(max_rank=3)
            x = g.values("int32", s)
            ax = r.randint(-len(s) - 2, len(s) + 1)
            g.case("expand_dims", "r%d_ax%d" % (len(s), ax),
                   [("x", x), ("axis", np.array(ax, dtype=r.choice([np.int32, np.int64])))],
                   lambda x, a: raw.ExpandDims(input=x, axis=a, name="out"), op=op)
        elif op == "Squeeze":
            s = tuple(r.choice([1, 1, 2, 0]) for _ in range(r.randint(0, 4)))
            x = g.values("float32", s)
            axes = [r.randint(-len(s) - 1, len(s)) for _ in range(r.randint(0, 2))] if s else []
            g.case("squeeze", "r%d" % len(s), [("x", x)],
                   lambda x, axes=axes: raw.Squeeze(input=x, axis=axes, name="out"), op=op)
        elif op == "ReverseV2":
            s = g.shape(max_rank=4, max_dim=3)
            x = g.values("int32", s)
            axes = [r.randint(-len(s) - 1, len(s)) if r.random() < 0.1 else
                    r.randint(-len(s), max(len(s) - 1, 0)) for _ in range(r.randint(0, 2))]
            if not s:
                axes = [] if r.random() < 0.8 else [0]
            g.case("reverse", "r%d" % len(s),
                   [("x", x), ("axis", np.array(axes, dtype=r.choice([np.int32, np.int64])))],
                   lambda x, a: raw.ReverseV2(tensor=x, axis=a, name="out"), op=op)
        elif op == "OneHot":
            s = g.shape(max_rank=2, max_dim=3)
            depth = r.choice([0, 1, 3, -1])
            idt = r.choice([np.int32, np.int64, np.uint8])
            idx = np.array([r.randint(0 if idt == np.uint8 else -2, 4)
                            for _ in range(int(np.prod(s)))], dtype=idt).reshape(s)
            ax = r.choice([-1, -1, 0, len(s), -2])
            dt = r.choice(["float32", "int32", "bool", "half"])
            on, off = g.values(dt, ()), g.values(dt, ())
            g.case("one_hot", "r%d_ax%d_d%d" % (len(s), ax, depth),
                   [("i", idx), ("depth", np.array(depth, dtype=np.int32)), ("on", on),
                    ("off", off)],
                   lambda i, d, a, b, ax=ax: raw.OneHot(indices=i, depth=d, on_value=a,
                                                        off_value=b, axis=ax, name="out"),
                   op=op)
        else:
            s = g.shape(max_rank=3, max_dim=4)
            dt = r.choice(["float32", "int32", "int8", "uint8", "half", "float64", "int64"])
            x = g.values(dt, s, kind="exact" if dt in FLOATS else "any")
            ax = r.randint(-len(s) - 1, len(s)) if s else 0
            ex, rev = r.random() < 0.5, r.random() < 0.5
            g.case(op.lower(), "%s_r%d_ax%d_%d%d" % (dt, len(s), ax, ex, rev),
                   [("x", x), ("axis", np.array(ax, dtype=r.choice([np.int32, np.int64])))],
                   lambda x, a, op=op, ex=ex, rev=rev: getattr(raw, op)(
                       x=x, axis=a, exclusive=ex, reverse=rev, name="out"), op=op)


def fam_select(g, n):
    for _ in range(n):
        r = g.r
        dt = r.choice(["float32", "int32", "bool", "half", "int8"])
        if r.random() < 0.4:
            s = g.shape(max_rank=3, max_dim=3)
            cs = r.choice([s, s[:1], (), s[:1] if not s else (s[0] + 1,)])
            c = g.values("bool", cs)
            x, y = g.values(dt, s), g.values(dt, s if r.random() < 0.9 else s[1:])
            g.case("select", "Select_%s" % dt, [("c", c), ("x", x), ("y", y)],
                   lambda c, x, y: raw.Select(condition=c, x=x, y=y, name="out"), op="Select")
        else:
            sa, sb = broadcast_pair(g, 4)
            sc = r.choice([sa, sb, (), sa[-1:], sb[-1:]])
            c, x, y = g.values("bool", sc), g.values(dt, sa), g.values(dt, sb)
            g.case("select", "SelectV2_%s" % dt, [("c", c), ("x", x), ("y", y)],
                   lambda c, x, y: raw.SelectV2(condition=c, t=x, e=y, name="out"),
                   op="SelectV2")


def fam_concat_split(g, n):
    for _ in range(n):
        r = g.r
        op = r.choice(["ConcatV2", "ConcatV2", "Split", "SplitV", "SplitV", "Unpack", "Pack"])
        s = g.shape(max_rank=3, max_dim=3, zero=0.2)
        if not s and op != "Pack":
            s = (r.choice([0, 2, 3]),)
        rank = len(s)
        dt = r.choice(["float32", "int32", "bool", "uint8", "half"])
        ax = r.randint(-rank - 1, rank) if r.random() < 0.15 else (
            r.randint(-rank, rank - 1) if rank else 0)
        adt = r.choice([np.int32, np.int64])
        if op == "ConcatV2":
            pieces = []
            for _ in range(r.randint(1, 4)):
                ps = list(s)
                if -rank <= ax < rank:
                    ps[ax] = r.choice([0, 1, 2])
                if r.random() < 0.05 and ps:
                    ps[(ax + 1) % rank] += 1
                pieces.append(g.values(dt, tuple(ps)))
            names = ["v%d" % k for k in range(len(pieces))]
            g.case("concat", "%s_r%d_n%d" % (dt, rank, len(pieces)),
                   list(zip(names, pieces)) + [("axis", np.array(ax, dtype=adt))],
                   lambda *t: raw.ConcatV2(values=list(t[:-1]), axis=t[-1], name="out"),
                   op=op)
        elif op == "Split":
            num = r.choice([1, 2, 3])
            x = g.values(dt, s)
            g.case("split", "%s_r%d_n%d" % (dt, rank, num),
                   [("axis", np.array(ax, dtype=np.int32)), ("x", x)],
                   lambda a, x, num=num: raw.Split(axis=a, value=x, num_split=num, name="out"),
                   op=op)
        elif op == "SplitV":
            x = g.values(dt, s)
            d = s[ax] if -rank <= ax < rank else 2
            num = r.choice([1, 2, 3])
            sizes = [0] * num
            for _ in range(d):
                sizes[r.randrange(num)] += 1
            if r.random() < 0.5:
                sizes[r.randrange(num)] = -1
            if r.random() < 0.1:
                sizes[0] += 1
            g.case("splitv", "%s_r%d_n%d" % (dt, rank, num),
                   [("x", x), ("sizes", np.array(sizes, dtype=adt)),
                    ("axis", np.array(ax, dtype=np.int32))],
                   lambda x, z, a, num=num: raw.SplitV(value=x, size_splits=z, axis=a,
                                                       num_split=num, name="out"), op=op)
        elif op == "Unpack":
            x = g.values(dt, s)
            d = s[ax] if -rank <= ax < rank else 1
            num = d if r.random() < 0.9 else d + 1
            g.case("unpack", "%s_r%d" % (dt, rank), [("x", x)],
                   lambda x, num=num, ax=ax: raw.Unpack(value=x, num=num, axis=ax, name="out"),
                   op=op)
        else:
            k = r.randint(1, 3)
            vals = [g.values(dt, s) for _ in range(k)]
            pax = r.randint(-rank - 2, rank + 1)
            g.case("pack", "%s_r%d_ax%d" % (dt, rank, pax),
                   [("v%d" % j, v) for j, v in enumerate(vals)],
                   lambda *t, pax=pax: raw.Pack(values=list(t), axis=pax, name="out"), op=op)


def fam_conv_pool(g, n):
    for _ in range(n):
        r = g.r
        op = r.choice(["Conv2D", "Conv2D", "DepthwiseConv2dNative", "MaxPool", "AvgPool",
                       "Conv2D"])
        nb, h, w, c = r.choice([1, 2]), r.randint(0, 7), r.randint(1, 7), r.randint(1, 3)
        if r.random() < 0.8:
            h = max(h, 1)
        kh, kw = r.randint(1, 4), r.randint(1, 4)
        sh, sw = r.choice([1, 1, 2, 3, 5]), r.choice([1, 2, 3])
        pad = r.choice(["SAME", "VALID", "EXPLICIT"] if op.startswith(("Conv", "Depth", "MaxP"))
                       else ["SAME", "VALID"])
        x = g.values("float32", (nb, h, w, c), kind="exact")
        kw_attrs = {"padding": pad}
        if pad == "EXPLICIT":
            ep = [0, 0] + [r.choice([0, 1, 2, 3, 0]) for _ in range(4)] + [0, 0]
            if r.random() < 0.05:
                ep[2] = -1
            kw_attrs["explicit_paddings"] = ep
        if op in ("MaxPool", "AvgPool"):
            kw_attrs.update(ksize=[1, kh, kw, 1], strides=[1, sh, sw, 1])
            g.case("pool", "%s_%s_k%dx%d_s%dx%d" % (op, pad, kh, kw, sh, sw), [("x", x)],
                   lambda x, op=op, a=kw_attrs: _pool(op, x, a), op=op)
            continue
        dil = [1, r.choice([1, 1, 2, 3]), r.choice([1, 1, 2]), 1]
        if op == "Conv2D":
            co = r.randint(1, 3)
            f = g.values("float32", (kh, kw, c, co), kind="exact")
            if r.random() < 0.05:
                f = g.values("float32", (kh, kw, c + 1, co), kind="exact")
            kw_attrs.update(strides=[1, sh, sw, 1], dilations=dil)
            g.case("conv", "Conv2D_%s_k%dx%d_s%dx%d_d%dx%d" % (pad, kh, kw, sh, sw, dil[1],
                                                               dil[2]),
                   [("x", x), ("f", f)],
                   lambda x, f, a=kw_attrs: raw.Conv2D(input=x, filter=f, name="out", **a),
                   op=op)
        else:
            mult = r.randint(1, 2)
            f = g.values("float32", (kh, kw, c, mult), kind="exact")
            if r.random() < 0.5:
                dil = [1, 1, 1, 1]
            kw_attrs.update(strides=[1, sh, sh, 1], dilations=dil)
            g.case("depthwise", "%s_k%dx%d_s%d_d%dx%d" % (pad, kh, kw, sh, dil[1], dil[2]),
                   [("x", x), ("f", f)],
                   lambda x, f, a=kw_attrs: raw.DepthwiseConv2dNative(input=x, filter=f,
                                                                      name="out", **a),
                   op=op)


def _pool(op, x, attrs):
    if op == "MaxPool":
        return raw.MaxPool(input=x, name="out", **attrs)
    return raw.AvgPool(value=x, name="out", **attrs)


def fam_matmul(g, n):
    for _ in range(n):
        r = g.r
        op = r.choice(["MatMul", "BatchMatMulV2", "BatchMatMulV2"])
        dt = r.choice(["float32", "int32", "float64", "half", "int64"])
        m, k, nn = r.choice([0, 1, 2, 3]), r.choice([0, 1, 3]), r.choice([0, 1, 2])
        ta, tb = r.random() < 0.3, r.random() < 0.3
        sa, sb = ((k, m) if ta else (m, k)), ((nn, k) if tb else (k, nn))
        if r.random() < 0.05:
            sb = (sb[0] + 1, sb[1])
        if op == "BatchMatMulV2":
            ba, bb = broadcast_pair(g, 3)
            sa, sb = ba + sa, bb + sb
        a = g.values(dt, sa, kind="exact" if dt in FLOATS else "small")
        b = g.values(dt, sb, kind="exact" if dt in FLOATS else "small")
        if op == "MatMul":
            g.case("matmul", "%s_%dx%dx%d_%d%d" % (dt, m, k, nn, ta, tb), [("a", a), ("b", b)],
                   lambda a, b, ta=ta, tb=tb: raw.MatMul(a=a, b=b, transpose_a=ta,
                                                         transpose_b=tb, name="out"), op=op)
        else:
            g.case("batch_matmul", "%s_r%d_r%d" % (dt, len(sa), len(sb)), [("a", a), ("b", b)],
                   lambda a, b, ta=ta, tb=tb: raw.BatchMatMulV2(x=a, y=b, adj_x=ta, adj_y=tb,
                                                                name="out"), op=op)


def _special(g, base, p=0.15):
    """`base` (float32) with a few elements replaced by NaN, infinities, 0, -0 or 1e20."""
    out = np.array(base, dtype=np.float32)
    for ix in np.ndindex(out.shape):
        if g.r.random() < p:
            out[ix] = g.r.choice([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e20, -1e20, 3e38])
    return out


def fam_fusion(g, n):
    """Patterns the graph optimizer folds or fuses (products with bias, activation, per-channel
    scale and shift, batch norms, pads, residual adds, gated activations, GELU, layer norm) with
    non-finite and huge constants, each run as the unfused graph TensorFlow runs."""
    acts = ["Relu", "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid", "Selu", "Softplus", None]
    for _ in range(n):
        r = g.r
        kind = r.choice(["product_bias_act", "scale_shift", "batch_norm", "pad_conv",
                         "pad_pool", "residual", "gated", "gelu", "layer_norm", "mul_add"])
        nb, h, w, c, co = r.choice([1, 2]), r.randint(1, 5), r.randint(1, 5), r.randint(1, 3), \
            r.randint(1, 3)
        k = r.randint(1, 3)
        special = r.random() < 0.5
        x = g.values("float32", (nb, h, w, c), kind="exact")
        if special:
            x = _special(g, x, 0.1)
        prod = r.choice(["Conv2D", "DepthwiseConv2dNative", "MatMul"])
        fshape = {"Conv2D": (k, k, c, co), "DepthwiseConv2dNative": (k, k, c, 1),
                  "MatMul": (c, co)}[prod]
        f = g.values("float32", fshape, kind="exact")
        if special and r.random() < 0.4:
            f = _special(g, f, 0.2)
        outc = {"Conv2D": co, "DepthwiseConv2dNative": c, "MatMul": co}[prod]
        pad = r.choice(["SAME", "VALID"])
        act = r.choice(acts)

        def product(x, f, prod=prod, pad=pad):
            if prod == "Conv2D":
                return raw.Conv2D(input=x, filter=f, strides=[1, 1, 1, 1], padding=pad)
            if prod == "DepthwiseConv2dNative":
                return raw.DepthwiseConv2dNative(input=x, filter=f, strides=[1, 1, 1, 1],
                                                 padding=pad)
            return raw.MatMul(a=tf.reshape(x, [-1, x.shape[-1]]), b=f)

        def activate(y, act):
            if act is None:
                return raw.Identity(input=y, name="out")
            if act == "LeakyRelu":
                return raw.LeakyRelu(features=y, alpha=r.choice([0.2, 0.01, -1.5, 0.0]),
                                     name="out")
            if act in ("Tanh", "Sigmoid"):
                return getattr(raw, act)(x=y, name="out")
            return getattr(raw, act)(features=y, name="out")

        vec = lambda: (_special(g, g.values("float32", (outc,), kind="exact"), 0.3)  # noqa
                       if special else g.values("float32", (outc,), kind="finite"))
        if kind == "product_bias_act":
            b = vec()
            how = r.choice(["BiasAdd", "AddV2", "Add", "AddV2_swapped"])

            def build(x, f, b, how=how, act=act):
                y = product(x, f)
                if how == "BiasAdd":
                    y = raw.BiasAdd(value=y, bias=b)
                elif how == "AddV2_swapped":
                    y = raw.AddV2(x=b, y=y)
                else:
                    y = getattr(raw, how)(x=y, y=b)
                return activate(y, act)
            g.case("fusion", "%s_%s_%s_%s" % (kind, prod, how, act), [("x", x), ("f", f),
                                                                      ("b", b)],
                   build, modes=[None, "const", "const"], op=prod)
        elif kind in ("scale_shift", "mul_add"):
            sc = vec() if r.random() < 0.7 else np.array(r.choice([np.inf, 0.0, -0.0, 1e20,
                                                                    np.nan, 2.0]),
                                                          dtype=np.float32)
            sh = vec()
            act2 = r.choice(["Relu", "Relu6", None])

            def build(x, f, sc, sh, act=act2, kind=kind):
                y = product(x, f) if kind == "scale_shift" else x
                y = raw.Mul(x=y, y=sc) if r.random() < 0.5 else raw.Mul(x=sc, y=y)
                y = raw.AddV2(x=y, y=sh)
                return activate(y, act)
            if kind == "mul_add":
                sc = sc if sc.ndim == 0 else _special(g, g.values("float32", (c,), "exact"), 0.3)
                sh = _special(g, g.values("float32", (c,), "exact"), 0.3)
            g.case("fusion", "%s_%s_%s" % (kind, prod, act2), [("x", x), ("f", f), ("sc", sc),
                                                              ("sh", sh)],
                   build, modes=[None, "const", "const", "const"], op="Mul")
        elif kind == "batch_norm":
            mean, off = vec(), vec()
            scale = vec()
            var = np.abs(vec()) if r.random() < 0.8 else vec()
            eps = r.choice([0.001, 1e-5, 0.0])
            ver = r.choice(["FusedBatchNorm", "FusedBatchNormV3"])

            def build(x, f, s_, o, m, v, ver=ver, eps=eps, act=act):
                y = product(x, f)
                if len(y.shape) != 4:
                    y = tf.reshape(y, [1, 1, -1, outc])
                y = getattr(raw, ver)(x=y, scale=s_, offset=o, mean=m, variance=v, epsilon=eps,
                                      is_training=False)[0]
                return activate(y, act)
            g.case("fusion", "%s_%s_%s" % (ver, prod, act),
                   [("x", x), ("f", f), ("scale", scale), ("offset", off), ("mean", mean),
                    ("var", var)], build, modes=[None] + ["const"] * 5, op=ver)
        elif kind in ("pad_conv", "pad_pool"):
            pads = [[0, 0], [r.randint(0, 2), r.randint(0, 2)], [r.randint(0, 2),
                                                                 r.randint(0, 2)], [0, 0]]
            if r.random() < 0.1:
                pads[3] = [0, 1]
            ptype = r.choice(["Pad", "PadV2", "MirrorPad"])
            cv = np.array(r.choice([0.0, -0.0, 1.5, np.nan, -np.inf]), dtype=np.float32)
            pool = r.choice(["MaxPool", "AvgPool"])
            kind2 = kind

            def build(x, f, p, cv, ptype=ptype, pool=pool, kind=kind2):
                if ptype == "Pad":
                    y = raw.Pad(input=x, paddings=p)
                elif ptype == "PadV2":
                    y = raw.PadV2(input=x, paddings=p, constant_values=cv)
                else:
                    y = raw.MirrorPad(input=x, paddings=p, mode="SYMMETRIC")
                if kind == "pad_pool":
                    return _pool(pool, y, {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1],
                                           "padding": "VALID"})
                if prod == "DepthwiseConv2dNative":
                    return raw.DepthwiseConv2dNative(input=y, filter=f, strides=[1, 1, 1, 1],
                                                     padding="VALID", name="out")
                ff = f if len(f.shape) == 4 else tf.reshape(f, [1, 1, c, co])
                return raw.Conv2D(input=y, filter=ff, strides=[1, 1, 1, 1], padding="VALID",
                                  name="out")
            g.case("fusion", "%s_%s_%s" % (kind, ptype, pool if kind == "pad_pool" else prod),
                   [("x", x), ("f", f), ("p", np.array(pads, dtype=np.int32)), ("cv", cv)],
                   build, modes=[None, "const", "const", "const"], op=ptype)
        elif kind == "residual":
            other = _special(g, g.values("float32", (nb, h, w, co), "exact"), 0.2)
            b = vec() if prod == "Conv2D" else g.values("float32", (co,), "exact")
            act2 = r.choice(["Relu", "Relu6", None])
            ff = g.values("float32", (k, k, c, co), kind="exact")

            def build(x, f, b, o, act=act2):
                y = raw.BiasAdd(value=raw.Conv2D(input=x, filter=f, strides=[1, 1, 1, 1],
                                                 padding="SAME"), bias=b)
                y = raw.AddV2(x=y, y=o) if r.random() < 0.5 else raw.AddV2(x=o, y=y)
                return activate(y, act)
            g.case("fusion", "residual_%s" % act2, [("x", x), ("f", ff), ("b", b),
                                                    ("o", other)],
                   build, modes=[None, "const", "const", None], op="AddV2")
        elif kind == "gated":
            form = r.choice(["swish", "hard_swish", "swish_swapped"])

            def build(x, form=form):
                if form == "hard_swish":
                    return raw.RealDiv(x=raw.Mul(x=x, y=raw.Relu6(features=raw.AddV2(
                        x=x, y=tf.constant(3.0)))), y=tf.constant(6.0), name="out")
                sg = raw.Sigmoid(x=x)
                return raw.Mul(x=x, y=sg, name="out") if form == "swish" else raw.Mul(
                    x=sg, y=x, name="out")
            xx = _special(g, g.values("float32", (nb, h, w, c), "finite"), 0.2)
            g.case("fusion", "gated_%s" % form, [("x", xx)], build, op="Sigmoid")
        elif kind == "gelu":
            form = r.choice(["erf", "tanh", "erfc"])
            xx = _special(g, g.values("float32", (nb, h, w, c), "finite"), 0.2)

            def build(x, form=form):
                if form == "erf":
                    return raw.Mul(x=raw.Mul(x=tf.constant(0.5), y=x), y=raw.AddV2(
                        x=tf.constant(1.0), y=raw.Erf(x=raw.Mul(
                            x=x, y=tf.constant(0.7071067811865476)))), name="out")
                if form == "erfc":
                    return raw.Mul(x=raw.Mul(x=tf.constant(0.5), y=x), y=raw.Erfc(
                        x=raw.Mul(x=raw.Neg(x=x), y=tf.constant(0.7071067811865476))),
                        name="out")
                inner = raw.Mul(x=tf.constant(0.7978845608028654), y=raw.AddV2(
                    x=x, y=raw.Mul(x=tf.constant(0.044715), y=raw.Pow(x=x, y=tf.constant(3.0)))))
                return raw.Mul(x=raw.Mul(x=tf.constant(0.5), y=x), y=raw.AddV2(
                    x=tf.constant(1.0), y=raw.Tanh(x=inner)), name="out")
            # atol: Tanh and Erf near +-1 differ from TensorFlow's in their last bit, which
            # 1 + tanh and 1 + erf magnify where they cancel (x below -3).
            g.case("fusion", "gelu_%s" % form, [("x", xx)], build, op="Erf", atol=1e-6)
        else:
            d = r.choice([1, 2, 4, 7, 16])
            off = r.choice([0.0, 1e4, 3e5, -1e6])
            xx = (g.values("float32", (nb, h, d), "finite") + np.float32(off)).astype(
                np.float32)
            if special:
                xx = _special(g, xx, 0.1)
            gamma = g.values("float32", (d,), "finite")
            beta = g.values("float32", (d,), "finite")
            eps = np.array(r.choice([1e-3, 1e-6, 0.0]), dtype=np.float32)

            def build(x, gm, bt, eps):
                mean = raw.Mean(input=x, axis=tf.constant([-1]), keep_dims=True)
                var = raw.Mean(input=raw.SquaredDifference(x=x, y=mean),
                               axis=tf.constant([-1]), keep_dims=True)
                inv = raw.Rsqrt(x=raw.AddV2(x=var, y=eps))
                y = raw.Mul(x=raw.Sub(x=x, y=mean), y=raw.Mul(x=inv, y=gm))
                return raw.AddV2(x=y, y=bt, name="out")
            # atol: with an offset the mean carries a rounding error of about ulp(offset) that
            # depends on the order of the sum, and x - mean cancels; a variance computed another
            # way (E[x^2] - E[x]^2) is off by far more.
            g.case("fusion", "layer_norm_d%d_off%g" % (d, off),
                   [("x", xx), ("gamma", gamma), ("beta", beta), ("eps", eps)], build,
                   modes=[None, "const", "const", "const"], op="Rsqrt",
                   atol=1e-6 * abs(off) * max(1.0, float(np.max(np.abs(gamma)))))


FAMILIES = [
    ("binary", fam_binary, 230), ("unary", fam_unary, 90), ("cast", fam_cast, 200),
    ("reduce", fam_reduce, 90), ("gather", fam_gather, 70),
    ("strided_slice", fam_strided_slice, 120), ("slice", fam_slice, 25), ("pad", fam_pad, 50),
    ("reshape", fam_reshape, 30), ("transpose", fam_transpose, 25),
    ("tile_fill_range", fam_tile_fill_range, 110), ("select", fam_select, 35),
    ("concat_split", fam_concat_split, 60), ("conv_pool", fam_conv_pool, 90),
    ("matmul", fam_matmul, 30), ("fusion", fam_fusion, 250),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--out", default=os.path.join(HERE, "data", "crafted_round9.pbtxt.gz"))
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    g = Gen(args.seed)
    for name, fam, n in FAMILIES:
        if args.only and args.only not in name:
            continue
        before = len(g.cases)
        fam(g, n)
        print("%-16s %4d cases" % (name, len(g.cases) - before), flush=True)
    g.write(args.out)
    print("%d cases (%d ran, %d refused), %d skipped (TensorFlow has no kernel or op-def "
          "type), written to %s" % (len(g.cases), g.stats["ok"], g.stats["error"], g.skipped,
                                    args.out))


if __name__ == "__main__":
    main()
