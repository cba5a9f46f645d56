"""Shared machinery: graph building helpers, running a case in TensorFlow, writing the suites.

A builder makes one case with
    rec.case("AddV2", "float32", "same_shape", lambda: tf.raw_ops.AddV2(x=ph("x", a), y=ph("y", b),
                                                                       name="out"))
The lambda runs inside a fresh tf.Graph; `ph` makes a Placeholder (shape unknown) and remembers
the value to feed it, `const` a named Const. The lambda returns the tensor(s) to fetch.
"""
import collections
import contextlib
import gzip
import os
import re
import zlib

import numpy as np
import tensorflow as tf
from google.protobuf import text_encoding
from google.protobuf import text_format
from tensorflow.core.framework import types_pb2
from tensorflow.core.protobuf import rewriter_config_pb2
from tensorflow.python.framework import error_interpolation

tf1 = tf.compat.v1
TF_VERSION = tf.__version__

NP = collections.OrderedDict([
    ("float32", np.float32), ("float64", np.float64), ("half", np.float16),
    ("int32", np.int32), ("int64", np.int64), ("uint8", np.uint8), ("int8", np.int8),
    ("int16", np.int16), ("bool", np.bool_),
])
ALL = list(NP)
# Complex dtypes: only builders that name them try them (not in ALL, so the suites that try every
# dtype in ALL stay as they are). rand() makes their real and imaginary parts as float32/float64
# values of the same kind; tol() gives them their part type's tolerances.
COMPLEX = ["complex64", "complex128"]
COMPLEX_PART = {"complex64": "float32", "complex128": "float64"}
NP.update([("complex64", np.complex64), ("complex128", np.complex128)])
# Quantized dtypes: only the quantization builders name them. numpy holds them as one-field
# structured dtypes; qarr() makes arrays of them, and a fetched quantized output (which the
# session returns as the plain integer dtype) is recorded with its quantized dtype.
QUANTIZED = ["qint8", "quint8", "qint16", "quint16", "qint32"]
NP.update([(q, getattr(tf, q).as_numpy_dtype) for q in QUANTIZED])
# Dtypes only the builders that name them try (Tile, BroadcastTo), as TensorFlow's CPU kernels of
# those ops take them; rand() gives them small non-negative integers (exact in bfloat16).
NP.update([("uint16", np.uint16), ("uint32", np.uint32), ("uint64", np.uint64),
           ("bfloat16", tf.bfloat16.as_numpy_dtype)])
QUANTIZED_STORAGE = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16,
                     "quint16": np.uint16, "qint32": np.int32}
FLOATS = ["float32", "float64", "half"]
INTS = ["int32", "int64", "uint8", "int8", "int16"]
NUMERIC = FLOATS + INTS
CODE_NAMES = {getattr(tf.errors, n): n for n in dir(tf.errors)
              if n.isupper() and isinstance(getattr(tf.errors, n), int)}
CONFIG = tf1.ConfigProto(graph_options=tf1.GraphOptions(
    rewrite_options=rewriter_config_pb2.RewriterConfig(disable_meta_optimizer=True)))


@contextlib.contextmanager
def control_flow_v1():
    """Builds tf.cond / tf.while_loop / tf.TensorArray the TF1 way (Switch, Merge, Enter, ...,
    TensorArrayV3) inside the block, as graphs of TensorFlow 1 models have them."""
    from tensorflow.python.ops import control_flow_util
    saved = control_flow_util.ENABLE_CONTROL_FLOW_V2
    control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
    try:
        yield
    finally:
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = saved


def in_control_flow_v1(build):
    """`build` wrapped to run under control_flow_v1()."""
    def run():
        with control_flow_v1():
            return build()
    return run


def is_float(dt):
    return dt in FLOATS


def is_int(dt):
    return dt in INTS


def tf_dtype(dt):
    if dt == "string":  # not in NP (ALL), so only the string suites use it
        return tf.string
    if dt == "bfloat16":  # only as a case's output dtype (Dequantize)
        return tf.bfloat16
    return tf.as_dtype(NP[dt])


# --- tolerances ------------------------------------------------------------------------------
# kind: "exact" (correctly rounded or no arithmetic), "reduce" (sums, means, products, cumsums),
# "transc" (transcendental / division), "loose" (Rsqrt, Tanh, Sigmoid, Erf, Softplus, Pow).
_TOL = {
    "reduce": {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-12), "half": (1e-3, 1e-3)},
    "transc": {"float32": (2e-6, 1e-7), "float64": (1e-12, 1e-12), "half": (1e-3, 1e-3)},
    "loose": {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-12), "half": (1e-3, 1e-3)},
}


def tol(kind, dt):
    """(rtol, atol) for outputs of dtype `dt` under tolerance kind `kind`."""
    if dt in COMPLEX_PART:
        dt = COMPLEX_PART[dt]
    if kind == "exact" or dt not in FLOATS:
        return (0.0, 0.0)
    return _TOL[kind][dt]


# --- values ----------------------------------------------------------------------------------

def seed_of(*parts):
    return zlib.crc32("/".join(str(p) for p in parts).encode()) & 0x7FFFFFFF


def arr(values, dt):
    with np.errstate(over="ignore"):  # e.g. 70000.0 -> half is inf, on purpose
        return np.asarray(values, dtype=NP[dt])


def strings_of(op, shape):
    """Deterministic byte strings of `shape` (an object array), some longer than 16 bytes and some
    UTF-8, for the suites that also run on strings."""
    n = int(np.prod(shape)) if shape else 1
    words = [b"", b"a", b"tile", b"a string longer than sixteen bytes", b"\xc3\xa9t\xc3\xa9"]
    rs = np.random.RandomState(seed_of(op, "strings", shape))
    return np.array([words[rs.randint(len(words))] + b"%d" % i for i in range(n)],
                    dtype=object).reshape(shape)


def qarr(values, dt):
    """An array of quantized dtype `dt` holding the integers `values`."""
    return np.asarray(values, dtype=QUANTIZED_STORAGE[dt]).astype(NP[dt])


def rand(dt, shape, seed, kind="any"):
    """Deterministic small values of dtype `dt`.

    kind: any | nonzero | positive | small | exact_sum (floats whose sums are exact) | pow2
    (floats +-0.5, 1, 2, whose products are exact); the last two are `any` for integers.
    """
    if dt in COMPLEX_PART:  # parts from two seeds, so the imaginary part differs from the real
        part = COMPLEX_PART[dt]
        re = rand(part, shape, ("re", seed), kind)
        im = rand(part, shape, ("im", seed), kind)
        out = np.zeros(tuple(shape), dtype=NP[dt])
        out.real, out.imag = re, im
        return out
    rs = np.random.RandomState(seed_of(seed) if not isinstance(seed, int) else seed)
    shape = tuple(shape)
    if dt == "bool":
        return np.asarray(rs.random_sample(size=shape) < 0.5)
    if is_float(dt) and kind == "pow2":
        return np.array(rs.choice([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0], size=shape), dtype=NP[dt])
    if is_float(dt) and kind == "exact_sum":
        # Multiples of 1/64 below 16 (1/4 below 8 for half): sums of up to 1000 of them (24 for
        # half) are exact, so any summation order gives TensorFlow's result.
        v = np.asarray(rs.standard_normal(size=shape)) * 3.0
        v = np.clip(np.round(v * 4.0) / 4.0, -8, 8) if dt == "half" else np.round(v * 64) / 64
        return np.array(v, dtype=NP[dt])
    if is_float(dt):
        v = np.asarray(rs.standard_normal(size=shape)) * 3.0
        if kind == "positive":
            v = np.abs(v) + 0.1
        elif kind == "small":
            v = np.asarray(rs.standard_normal(size=shape))
        # Values with few significant bits are exact in every float dtype (including half).
        v = np.round(v * 64.0) / 64.0 if dt == "half" else v
        out = np.array(v, dtype=NP[dt])
        if kind == "nonzero":
            out[out == 0] = 1
        return out
    lo = 0 if dt.startswith("uint") else -10
    hi = 10
    if kind == "positive":
        lo, hi = 1, 10
    elif kind == "small":
        lo, hi = (0 if dt.startswith("uint") else -3), 3
    v = np.array(rs.randint(lo, hi + 1, size=shape), dtype=NP[dt])
    if kind == "nonzero":
        v[v == 0] = 3
    return v


def int_edges(dt):
    """Eight (seven unsigned) edge values of an integer dtype: limits, max - 1, 0, +-1, +-7."""
    info = np.iinfo(NP[dt])
    vals = [info.max, info.min, 0, 1, 7, info.max - 1]
    if info.min < 0:
        vals += [-1, -7]
    else:
        vals += [2]
    out = []
    for v in vals:
        if v not in out:
            out.append(v)
    return out


FLOAT_SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5]


# --- graph helpers (valid inside a case's build lambda) --------------------------------------
_feeds = []


def ph(name, value, dt=None):
    """A Placeholder of unknown shape named `name`, fed `value`."""
    value = np.asarray(value, dtype=NP[dt] if dt else None)
    t = tf1.placeholder(tf.as_dtype(value.dtype), shape=None, name=name)
    _feeds.append((t.name, value))
    return t


def const(name, value, dt="int32"):
    return tf1.constant(np.asarray(value, dtype=NP[dt]), name=name)


# --- running ---------------------------------------------------------------------------------
_raw_messages = []
_interpolate_graph = error_interpolation.interpolate_graph


def _recording_interpolate_graph(message, graph):
    _raw_messages.append(message)
    return _interpolate_graph(message, graph)


error_interpolation.interpolate_graph = _recording_interpolate_graph


def _fail(text):
    if os.environ.get("KC_LENIENT"):  # while writing builders: report every problem at once
        print("PROBLEM:", text)
    else:
        raise RuntimeError(text)


class Refused(Exception):
    """TensorFlow has no such (op, dtype): the op def or the shape function rejects it, or no CPU
    kernel exists."""


def _flatten(fetches):
    if isinstance(fetches, tf.Tensor):
        return [fetches]
    if isinstance(fetches, tf.Operation):
        return list(fetches.outputs)
    out = []
    for f in fetches:
        out.extend(_flatten(f))
    return out


def _clean_message(msg):
    # Drop the "\n\t [[{{node out}}]]" node context TensorFlow's runtime appends.
    cut = msg.find("\n\t [[")
    msg = msg[:cut] if cut >= 0 else msg
    # Protobuf's debug text of a message starts with a marker it picks at random per process
    # ("goo.gle/debugonly", "goo.gle/debugproto"); dropped, so a second run writes the same file.
    return re.sub(r"goo\.gle/debug\w+ *", "", msg)


def _q(s):
    return '"' + text_encoding.CEscape(s, as_utf8=True) + '"'


def _block(field, msg, indent):
    pad = " " * indent
    body = text_format.MessageToString(msg, indent=indent + 2)
    return "%s%s {\n%s%s}\n" % (pad, field, body, pad)


def _canonical_function_names(graph_def):
    """Renames the library's functions "<base>_<k>", k in order of first use (walking the graph's
    nodes, then each function's body), and sorts the library by the new names: TensorFlow
    suffixes function names with a process-wide counter, which would make the recorded files
    depend on what ran before the case."""
    import re
    by_name = {f.signature.name: f for f in graph_def.library.function}
    if not by_name:
        return
    order = []

    def refs(nodes):
        out = []
        for node in nodes:
            if node.op in by_name:
                out.append(node.op)
            for key in sorted(node.attr):
                v = node.attr[key]
                if v.HasField("func") and v.func.name in by_name:
                    out.append(v.func.name)
                if v.HasField("list"):
                    out.extend(f.name for f in v.list.func if f.name in by_name)
        return out

    queue = refs(graph_def.node)
    while queue:
        name = queue.pop(0)
        if name in order:
            continue
        order.append(name)
        queue.extend(refs(by_name[name].node_def))
    order.extend(sorted(n for n in by_name if n not in order))  # unreferenced ones last
    rename = {n: "%s_%d" % (re.sub(r"_\d+$", "", n), k) for k, n in enumerate(order)}

    def fix(nodes):
        for node in nodes:
            if node.op in rename:
                node.op = rename[node.op]
            for v in node.attr.values():
                if v.HasField("func") and v.func.name in rename:
                    v.func.name = rename[v.func.name]
                if v.HasField("list"):
                    for f in v.list.func:
                        if f.name in rename:
                            f.name = rename[f.name]

    fix(graph_def.node)
    functions = []
    for name in order:
        f = by_name[name]
        f.signature.name = rename[name]
        fix(f.node_def)
        copy = type(f)()
        copy.CopyFrom(f)
        functions.append(copy)
    del graph_def.library.function[:]
    graph_def.library.function.extend(functions)
    for g in graph_def.library.gradient:
        if g.function_name in rename:
            g.function_name = rename[g.function_name]


class Recorder:
    def __init__(self):
        self.cases = collections.OrderedDict()    # op -> [case text]
        self.dtypes = collections.OrderedDict()   # op -> [dtypes with cases]
        self.refused = collections.OrderedDict()  # op -> [(dtype, why)], why as in Refused
        self._names = set()
        self._pending = None
        self.skip = lambda op: False  # main's --only

    # Builders call for_dtypes; a Refused from any case drops that dtype's cases.
    def for_dtypes(self, op, dtypes, gen):
        if self.skip(op):
            return
        self.cases.setdefault(op, [])
        self.dtypes.setdefault(op, [])
        for dt in dtypes:
            self._pending = []
            try:
                gen(dt)
            except Refused as r:
                self.refused.setdefault(op, []).append((dt, str(r)))
                self._pending = None
                continue
            self.cases[op].extend(self._pending)
            if self._pending:
                self.dtypes[op].append(dt)
            self._pending = None

    def case(self, op, dt, what, build, rtol=0.0, atol=0.0, error=None, phrases=(),
             case_dtype=None):
        """Runs `build` in a fresh graph and records the result.

        dt: the dtype name in the case name; case_dtype: the `dtype:` field (defaults to dt;
        "" for ops without a type attr). error: None when TF must succeed, else the canonical
        code name it must fail with; phrases: key phrases its message must contain.
        """
        name = "%s/%s/%s" % (op, dt, what)
        assert name not in self._names, name
        assert self._pending is not None, "case() outside for_dtypes()"
        del _feeds[:]
        graph = tf.Graph()
        with graph.as_default():
            try:
                fetches = _flatten(build())
            except (TypeError, ValueError) as e:
                if ("not in list of allowed values" in str(e)
                        or "does not match expected type of" in str(e)):
                    raise Refused("op def")
                if "Unsupported dtype" in str(e):
                    raise Refused("shape function")
                _fail("%s: building the graph failed: %s" % (name, e))
                return None
            feeds = list(_feeds)
            graph_def = graph.as_graph_def()
        _canonical_function_names(graph_def)
        outputs, code, message = None, "", ""
        del _raw_messages[:]
        with tf1.Session(graph=graph, config=CONFIG) as sess:
            try:
                outputs = sess.run(fetches, {n: v for n, v in feeds})
            except tf.errors.OpError as e:
                message = _clean_message(_raw_messages[-1] if _raw_messages else e.message)
                if ("No OpKernel was registered" in message
                        or "Could not find device for node" in message):
                    raise Refused("no CPU kernel")
                code = CODE_NAMES[e.error_code]
        if error is None and code:
            _fail("%s: TensorFlow failed: %s %s" % (name, code, message))
            return None
        if error is not None:
            if not code:
                _fail("%s: TensorFlow succeeded, expected %s" % (name, error))
                return None
            if code != error:
                _fail("%s: got %s (%s), expected %s" % (name, code, message, error))
                return None
            for p in phrases:
                if p not in message:
                    _fail("%s: phrase %r not in %r" % (name, p, message))
        self._names.add(name)
        self._pending.append(self._format(
            name, op, dt if case_dtype is None else case_dtype, graph_def, feeds,
            [t.name for t in fetches], outputs, code, message, rtol, atol, phrases,
            [getattr(t, "dtype", None) for t in fetches]))
        return outputs

    def _format(self, name, op, dt, graph_def, feeds, fetch, outputs, code, message, rtol,
                atol, phrases, fetch_dtypes=None):
        dtype = types_pb2.DataType.Name(tf_dtype(dt).as_datatype_enum) if dt else "DT_INVALID"
        lines = ["case {\n", "  name: %s\n" % _q(name), "  op: %s\n" % _q(op),
                 "  dtype: %s\n" % dtype, _block("graph", graph_def, 2)]
        for fname, value in feeds:
            lines.append("  feed {\n    name: %s\n" % _q(fname))
            lines.append(_block("value", tf.make_tensor_proto(value), 4))
            lines.append("  }\n")
        for f in fetch:
            lines.append("  fetch: %s\n" % _q(f))
        if outputs is not None:
            for i, o in enumerate(outputs):
                # A bytes scalar as an object array: numpy's "S" dtype drops trailing zero bytes.
                o = np.array(o, dtype=object) if isinstance(o, bytes) else np.asarray(o)
                quantized = fetch_dtypes and fetch_dtypes[i] is not None and (
                    fetch_dtypes[i].is_quantized)
                proto = tf.make_tensor_proto(o, dtype=fetch_dtypes[i] if quantized else None)
                assert quantized or proto.dtype == tf.as_dtype(o.dtype).as_datatype_enum
                lines.append(_block("expected", proto, 2))
        if code:
            lines.append("  error_code: %s\n" % _q(code))
            lines.append("  error_message: %s\n" % _q(message))
        if rtol and not code:
            lines.append("  rtol: %r\n" % rtol)
        if atol and not code:
            lines.append("  atol: %r\n" % atol)
        for p in phrases:
            lines.append("  error_key_phrase: %s\n" % _q(p))
        lines.append("}\n")
        return "".join(lines)

    def write(self, op, out_dir):
        """Writes <op>.pbtxt.gz: the text suite, gzip-compressed with no name or time in its
        header, so the same cases give the same bytes (tests/conformance reads both forms)."""
        path = os.path.join(out_dir, op + ".pbtxt.gz")
        text = "tf_version: %s\n" % _q(TF_VERSION) + "".join(self.cases[op])
        with open(path, "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
                f.write(text.encode("utf-8"))
        plain = os.path.join(out_dir, op + ".pbtxt")
        if os.path.exists(plain):
            os.remove(plain)
        return path
