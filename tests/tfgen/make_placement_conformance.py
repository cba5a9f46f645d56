#!/usr/bin/env python3
"""Writes device-placement conformance data with real TensorFlow (tf.compat.v1 graph mode).

Each case builds a small graph in a fresh tf.Graph, writes its GraphDef, then runs it once in
    tf.compat.v1.Session(config=ConfigProto(device_count={"CPU": 3}, log_device_placement=True,
                                            allow_soft_placement=<per case>))
and records where TensorFlow's placer put every node, or the error it gave. For each case NAME,
in tests/placement_conformance/data/:
    NAME.graph.pbtxt    graph.as_graph_def() in text format, written before the session runs
    NAME.case.txt       `key: value` lines: allow_soft_placement (true|false), run (the names
                        passed to sess.run, comma-separated), feed (only when a float32
                        placeholder is fed: `TENSOR=JSON_VALUE`), status (OK or the canonical
                        error code name), exception (error only), description
    NAME.placement.txt  the placer's `name: (Op): device` lines in TF's order (empty on error)
    NAME.error.txt      error only: the C++ status message, byte for byte
plus MANIFEST.txt (the case names, in order) and README.md.

The placer prints its lines with C printf to file descriptor 1, so fd 1 is redirected (os.dup2)
to a temp file around session creation and the first sess.run; lines not matching
`^\\S+: \\(\\S+\\): /job:` (e.g. "Device mapping") are dropped. The placer prints a node's line
as soon as it places it, so a failing run can print some lines first; those are not kept.

NAME.error.txt is the message of TensorFlow's C++ status, captured before tf.compat.v1.Session
rewrites it (error_interpolation.interpolate_graph prepends "Graph execution error:" and a Python
traceback of where the node was defined, with this script's path and line numbers).

Usage (from the repository root; needs `pip install tensorflow-cpu`, only to regenerate):
    python3 tests/tfgen/make_placement_conformance.py [OUTPUT_DIR]
The output is deterministic (checked by running it three times and diffing).
"""
import os

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import ctypes  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import text_format  # noqa: E402
from tensorflow.python.framework import error_interpolation  # noqa: E402

tf1 = tf.compat.v1
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join(REPO_ROOT, "tests", "placement_conformance", "data")

# The only ops the engine under test implements; every case's GraphDef is checked against this.
ALLOWED_OPS = {
    "Const", "Placeholder", "PlaceholderWithDefault", "Identity", "IdentityN", "NoOp", "MatMul",
    "Add", "AddV2", "AddN", "VariableV2", "Assign", "AssignAdd", "AssignSub", "VarHandleOp",
    "ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
    "VarIsInitializedOp",
}
PLACEMENT_RE = re.compile(r"^\S+: \(\S+\): /job:")
CODE_NAMES = {getattr(tf.errors, n): n for n in dir(tf.errors) if n.isupper()}

# ---------------------------------------------------------------------------------------------
# Graph-building helpers. Every node gets an explicit name so the data reads easily.


def ab(dtype=tf.float32, prefix=""):
    """The seed's a (2x3) and b (3x2) constants, no device request."""
    a = tf1.constant([[1, 2, 3], [4, 5, 6]], dtype=dtype, name=prefix + "a")
    b = tf1.constant([[1, 2], [3, 4], [5, 6]], dtype=dtype, name=prefix + "b")
    return a, b


def vec(name, values=(1.0, 2.0)):
    return tf1.constant(list(values), name=name)


def ref_variable(name, device):
    """A bare VariableV2 (raw op: no _class attr)."""
    with tf1.device(device):
        return tf.raw_ops.VariableV2(shape=[2], dtype=tf.float32, name=name)


def resource_variable(name, device):
    with tf1.device(device):
        return tf.raw_ops.VarHandleOp(shape=[2], dtype=tf.float32, shared_name=name, name=name)


def unpin(op):
    """Python colocates every op taking a ref input with its variable (copies the device, adds
    _class "loc:@var"). This undoes it, so only the ref edge itself ties op to the variable."""
    op._set_device("")
    op._clear_attr("_class")


def set_class(op, *names):
    op._set_attr("_class", tf1.AttrValue(list=tf1.AttrValue.ListValue(
        s=[b"loc:@" + n.encode() for n in names])))


def pinned_identity(x, device, name):
    with tf1.device(device):
        return tf1.identity(x, name=name)


# ---------------------------------------------------------------------------------------------
# Cases. A builder runs inside a fresh graph and returns the names passed to the first sess.run,
# or (names, {placeholder tensor: value to feed}).

CASES = []  # (name, allow_soft_placement, description, builder)


def add_case(name, soft, description, build):
    CASES.append((name, soft, description, build))


def case(description, soft=False):
    def register(fn):
        add_case(fn.__name__, soft, description, fn)
        return fn
    return register


def hard_and_soft(description):
    """Registers NAME_hard (no soft placement) and NAME_soft (allow_soft_placement) cases."""
    def register(fn):
        add_case(fn.__name__ + "_hard", False, description + ", no soft placement", fn)
        add_case(fn.__name__ + "_soft", True, description + ", soft placement", fn)
        return fn
    return register


# --- Device request forms ---------------------------------------------------------------------
@case("no device requests anywhere: every node on CPU:0 of the 3 CPUs")
def no_request_matmul():
    a, b = ab()
    tf1.matmul(a, b, name="m")
    return ["m:0"]


def request_form(form):
    """MatMul m under tf.device(form) (Python canonicalizes the string: /cpu:1 -> /device:CPU:1)
    and its consumer Identity r given the same form verbatim with op._set_device."""
    a, b = ab()
    with tf1.device(form):
        m = tf1.matmul(a, b, name="m")
    r = tf1.identity(m, name="r")
    r.op._set_device(form)
    return ["r:0"]


for _name, _form, _what in [
        ("full_name_cpu1", "/job:localhost/replica:0/task:0/device:CPU:1", "full-name request"),
        ("partial_device_cpu2", "/device:CPU:2", "partial request"),
        ("partial_legacy_cpu1", "/cpu:1", "legacy lowercase request"),
        ("partial_upper_cpu2", "/CPU:2", "upper-case short request"),
        ("wildcard_cpu_star", "/device:CPU:*", "wildcard id (any CPU)"),
        ("job_and_device_cpu1", "/job:localhost/device:CPU:1", "job + device, no replica/task"),
        ("replica_task_cpu2", "/replica:0/task:0/device:CPU:2", "replica/task + device, no job"),
        ("job_only_request", "/job:localhost/replica:0/task:0", "no device type or id")]:
    add_case(_name, False, "%s %s on m (via tf.device) and r (verbatim)" % (_what, _form),
             functools.partial(request_form, _form))


@case("devices set after creation with op._set_device: consts /cpu:2, MatMul /device:CPU:1")
def set_device_direct():
    a, b = ab()
    m = tf1.matmul(a, b, name="m")
    a.op._set_device("/cpu:2")
    b.op._set_device("/cpu:2")
    m.op._set_device("/device:CPU:1")
    return ["m:0"]


@case("nested tf.device scopes: job/replica/task outer + /device:CPU:2 inner merge; "
      "inner /cpu:1 overrides outer /cpu:2; tf.device(None) clears")
def nested_scopes_merge():
    a, b = ab()
    with tf1.device("/job:localhost/replica:0/task:0"):
        with tf1.device("/device:CPU:2"):
            m = tf1.matmul(a, b, name="m")
    with tf1.device("/cpu:2"):
        with tf1.device("/cpu:1"):
            r1 = tf1.identity(m, name="r1")
        with tf1.device(None):
            tf1.identity(r1, name="r2")
    return ["r2:0"]


# --- Device function (seed 004's assign_to_device, on CPUs) -----------------------------------
def variables_on_cpu1(op):
    return "/cpu:1" if op.node_def.op in ("Variable", "VariableV2") else "/cpu:2"


@hard_and_soft("custom device function: /cpu:1 for VariableV2, /cpu:2 for every other op")
def device_function():
    # Python colocates w/Assign and w/read with w (device /cpu:1 + _class), overriding the
    # function's /cpu:2 for them, so there is no conflict to resolve.
    with tf1.device(variables_on_cpu1):
        w = tf1.Variable(tf1.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="w_init"),
                         name="w", use_resource=False)
        a = tf1.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name="a")
        tf1.matmul(a, w, name="m")
    tf1.global_variables_initializer()
    return ["init"]


# --- Generators (no inputs, one output) follow their consumer -----------------------------------
@case("unpinned consts feeding only a MatMul pinned to /cpu:2 follow it")
def generator_follows_consumer():
    a, b = ab()
    with tf1.device("/cpu:2"):
        tf1.matmul(a, b, name="m")
    return ["m:0"]


@case("one unpinned const feeding Identity nodes on /cpu:1 and /cpu:2 (two out edges)")
def const_two_consumers():
    c = vec("c")
    pinned_identity(c, "/cpu:1", "r1")
    pinned_identity(c, "/cpu:2", "r2")
    return ["r1:0", "r2:0"]


@case("const with one data consumer on /cpu:2 and one control-edge consumer (two out edges)")
def const_with_control_consumer():
    c = vec("c")
    pinned_identity(c, "/cpu:2", "r")
    with tf1.control_dependencies([c]):
        tf1.no_op(name="after_c")
    return ["r:0", "after_c"]


@case("const a feeds an unpinned Identity feeding a MatMul on /cpu:1; const b feeds it directly")
def generator_of_unpinned_identity():
    a, b = ab()
    ai = tf1.identity(a, name="a_id")
    with tf1.device("/cpu:1"):
        tf1.matmul(ai, b, name="m")
    return ["m:0"]


@case("fed Placeholder x (no request) feeding a MatMul pinned to /cpu:1; const a has no consumer")
def placeholder_fed_consumer_pinned():
    x = tf1.placeholder(tf.float32, shape=[2, 3], name="x")
    _, b = ab()
    with tf1.device("/cpu:1"):
        tf1.matmul(x, b, name="m")
    return ["m:0"], {"x:0": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}


# --- Colocation (_class "loc:@...") -----------------------------------------------------------
@case("colocate_with(anchor on /cpu:1) inside a /cpu:2 scope (the scope is ignored)")
def colocate_with_pinned_cpu1():
    with tf1.device("/cpu:1"):
        anchor = vec("anchor")
    c = vec("c", (3.0, 4.0))
    with tf1.device("/cpu:2"):
        with tf1.colocate_with(anchor):
            tf1.add(anchor, c, name="sum")
    return ["sum:0"]


def nested_colocation(ignore_existing):
    with tf1.device("/cpu:1"):
        a1 = vec("anchor1")
    a2 = vec("anchor2", (3.0, 4.0))
    with tf1.colocate_with(a1):
        with tf1.colocate_with(a2, ignore_existing=ignore_existing):
            tf1.add(a1, a2, name="sum")
    return ["sum:0"]


@case("nested colocate_with(anchor1 on /cpu:1), colocate_with(anchor2): both groups merge")
def colocate_nested_merge():
    return nested_colocation(False)


@case("nested colocate_with(anchor1 on /cpu:1), colocate_with(anchor2, ignore_existing=True)")
def colocate_nested_ignore_existing():
    return nested_colocation(True)


@case("colocation chain via _class attrs: c -> loc:@b, b -> loc:@a, a pinned to /cpu:2")
def colocate_chain():
    with tf1.device("/cpu:2"):
        a = vec("a")
    b = tf1.identity(a, name="b")
    c = tf1.identity(b, name="c")
    set_class(b.op, "a")
    set_class(c.op, "b")
    tf1.add(c, vec("d", (5.0, 6.0)), name="sum")  # d and sum are not in the group
    return ["sum:0"]


@hard_and_soft("r colocated with anchor on /cpu:1 (_class) but explicitly requesting /cpu:2")
def colocate_conflict():
    with tf1.device("/cpu:1"):
        anchor = vec("anchor")
    with tf1.colocate_with(anchor):
        r = tf1.identity(anchor, name="r")
    # Inside colocate_with, Python gives r the anchor's device and ignores tf.device scopes, so
    # the conflicting request is set afterwards.
    r.op._set_device("/device:CPU:2")
    return ["r:0"]


@case("sum colocated (_class) with two anchors pinned to /cpu:1 and /cpu:2")
def colocate_two_pinned_anchors_hard():
    with tf1.device("/cpu:1"):
        a1 = vec("anchor1")
    with tf1.device("/cpu:2"):
        a2 = vec("anchor2", (3.0, 4.0))
    s = tf1.add(a1, a2, name="sum")
    set_class(s.op, "anchor1", "anchor2")
    return ["sum:0"]


@case("_class names a node that does not exist (loc:@missing)")
def colocate_unknown_target():
    r = tf1.identity(vec("c"), name="r")
    set_class(r.op, "missing")
    return ["r:0"]


@hard_and_soft("r (via colocate_with) and r2 (via _class) colocated with an anchor on the "
               "missing /device:GPU:0")
def colocate_gpu_target():
    with tf1.device("/device:GPU:0"):
        anchor = vec("anchor")
    with tf1.colocate_with(anchor):
        tf1.identity(anchor, name="r")
    r2 = tf1.identity(vec("c", (3.0, 4.0)), name="r2")
    set_class(r2.op, "anchor")
    return ["r:0", "r2:0"]


# --- Reference-typed variables (VariableV2) -----------------------------------------------------
@case("tf1.Variable(use_resource=False) under /cpu:1 (Python pins Assign/read and adds _class); "
      "an unpinned AddV2 reads it")
def variable_api_cpu1():
    with tf1.device("/cpu:1"):
        v = tf1.Variable(vec("v_init"), name="v", use_resource=False)
    tf1.add(v, vec("c", (3.0, 4.0)), name="sum")
    tf1.global_variables_initializer()
    return ["init"]


@case("raw VariableV2 on /cpu:1; its Assign (ref edge only), read Identity (ref output into a "
      "non-ref input), initial value and init NoOp unpinned")
def variable_ref_follow():
    v = ref_variable("v", "/cpu:1")
    assign = tf.raw_ops.Assign(ref=v, value=vec("v_init"), name="v/Assign")
    unpin(assign.op)
    tf1.identity(v, name="v/read")
    tf1.no_op(name="init")._add_control_input(assign.op)
    return ["init"]


@case("VariableV2 on /cpu:2 with Assign, AssignAdd and AssignSub unpinned (ref edges only); "
      "the update values are consts with a control input")
def variable_assign_add_sub():
    v = ref_variable("v", "/cpu:2")
    assign = tf.raw_ops.Assign(ref=v, value=vec("v_init"), name="v/Assign")
    with tf1.control_dependencies([assign]):
        add = tf.raw_ops.AssignAdd(ref=v, value=vec("one", (1.0, 1.0)), name="inc")
    with tf1.control_dependencies([add]):
        sub = tf.raw_ops.AssignSub(ref=v, value=vec("half", (0.5, 0.5)), name="dec")
    for t in (assign, add, sub):
        unpin(t.op)
    return ["dec:0"]


def assign_conflict(keep_class):
    # TF accepts this even without soft placement: the variable's device wins over the request
    # of the op at the other end of the ref edge.
    v = ref_variable("v", "/cpu:1")
    assign = tf.raw_ops.Assign(ref=v, value=vec("v_init"), name="set_v")
    if not keep_class:
        unpin(assign.op)
    assign.op._set_device("/device:CPU:2")  # Python colocated it with v; override the device
    return ["set_v"]


@hard_and_soft("VariableV2 on /cpu:1, its Assign set_v (_class loc:@v) requesting /cpu:2")
def variable_assign_conflict():
    return assign_conflict(True)


@case("VariableV2 on /cpu:1, its Assign set_v (no _class, only the ref edge) requesting /cpu:2")
def variable_assign_conflict_ref_edge_only():
    return assign_conflict(False)


@hard_and_soft("unpinned tf1.Variable (VariableV2) whose Assign and init request the missing "
               "/device:CPU:3")
def variable_assign_missing_cpu3():
    v = tf1.Variable(vec("v_init"), name="v", use_resource=False)
    v.initializer._set_device("/device:CPU:3")
    tf1.global_variables_initializer()
    return ["init"]


@case("tf1.Variable (VariableV2) created under the missing /device:CPU:3")
def variable_missing_cpu3_hard():
    with tf1.device("/device:CPU:3"):
        tf1.Variable(vec("v_init"), name="v", use_resource=False)
    tf1.global_variables_initializer()
    return ["init"]


# --- Resource variables -----------------------------------------------------------------------
@case("tf1.Variable(use_resource=True) under /cpu:1 (VarHandleOp, VarIsInitializedOp, "
      "AssignVariableOp, ReadVariableOp); an unpinned AddV2 reads it")
def resource_variable_api_cpu1():
    with tf1.device("/cpu:1"):
        v = tf1.Variable(vec("v_init"), name="v", use_resource=True)
    tf1.add(v, vec("c", (3.0, 4.0)), name="sum")
    tf1.global_variables_initializer()
    return ["init"]


@case("raw VarHandleOp on /cpu:2; AssignVariableOp, Assign{Add,Sub}VariableOp, VarIsInitializedOp "
      "and ReadVariableOp unpinned (resource edges only)")
def resource_var_follow():
    h = resource_variable("v", "/cpu:2")
    init = tf.raw_ops.AssignVariableOp(resource=h, value=vec("v_init"), name="v/Assign")
    with tf1.control_dependencies([init]):
        add = tf.raw_ops.AssignAddVariableOp(resource=h, value=vec("one", (1.0, 1.0)), name="inc")
    with tf1.control_dependencies([add]):
        sub = tf.raw_ops.AssignSubVariableOp(resource=h, value=vec("half", (0.5, 0.5)), name="dec")
    tf.raw_ops.VarIsInitializedOp(resource=h, name="v/IsInitialized")
    with tf1.control_dependencies([sub]):
        tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32, name="v/read")
    return ["v/read:0"]


@hard_and_soft("VarHandleOp on /cpu:2, ReadVariableOp explicitly requesting /cpu:1")
def resource_read_conflict():
    h = resource_variable("v", "/cpu:2")
    init = tf.raw_ops.AssignVariableOp(resource=h, value=vec("v_init"), name="v/Assign")
    with tf1.device("/cpu:1"), tf1.control_dependencies([init]):
        tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32, name="v/read")
    return ["v/read:0"]


# --- Missing devices, with and without soft placement -------------------------------------------
def missing_device(form, verbatim=False):
    """MatMul m requesting a device the session lacks; its consumer r is unpinned."""
    a, b = ab()
    with tf1.device(None if verbatim else form):
        m = tf1.matmul(a, b, name="m")
    if verbatim:
        m.op._set_device(form)
    tf1.identity(m, name="r")
    return ["r:0"]


for _tag, _form, _verbatim in [("cpu7", "/cpu:7", False), ("gpu0", "/device:GPU:0", False),
                               ("gpu1_legacy", "/gpu:1", True)]:
    for _soft in (False, True):
        add_case("missing_%s_%s" % (_tag, "soft" if _soft else "hard"), _soft,
                 "MatMul requests the missing %s%s, %s" % (
                     _form, " (set verbatim)" if _verbatim else "",
                     "soft placement" if _soft else "no soft placement"),
                 functools.partial(missing_device, _form, _verbatim))


# --- Malformed device strings (tf.device rejects them in Python; op._set_device does not) -------
def malformed(spec):
    a, b = ab()
    m = tf1.matmul(a, b, name="m")
    m.op._set_device(spec)
    return ["m:0"]


add_case("malformed_cpu_abc_hard", False, "malformed request /device:CPU:abc",
         functools.partial(malformed, "/device:CPU:abc"))
add_case("malformed_cpu_abc_soft", True, "malformed request /device:CPU:abc, soft placement",
         functools.partial(malformed, "/device:CPU:abc"))
add_case("malformed_cpu0_hard", False, "malformed request 'cpu0' (no leading slash)",
         functools.partial(malformed, "cpu0"))


# --- Seed examples, int32, other ops ------------------------------------------------------------
@case("seed multi-tower example on CPUs: MatMul towers on /cpu:1 and /cpu:2, AddN on /cpu:0")
def multi_tower_cpu():
    towers = []
    for i, d in enumerate(["/cpu:1", "/cpu:2"]):
        with tf1.device(d):
            a, b = ab(prefix="tower%d/" % i)
            towers.append(tf1.matmul(a, b, name="tower%d/m" % i))
    with tf1.device("/cpu:0"):
        tf1.add_n(towers, name="sum")
    return ["sum:0"]


@case("int32 MatMul pinned to /cpu:1")
def int32_matmul_cpu1():
    a, b = ab(tf.int32)
    with tf1.device("/cpu:1"):
        tf1.matmul(a, b, name="m")
    return ["m:0"]


@case("int32 AddV2 on /cpu:2, then an unpinned raw Add")
def int32_addv2_add():
    x = tf1.constant([1, 2], dtype=tf.int32, name="x")
    y = tf1.constant([3, 4], dtype=tf.int32, name="y")
    with tf1.device("/cpu:2"):
        s = tf1.add(x, y, name="addv2")
    tf.raw_ops.Add(x=s, y=tf1.constant([5, 6], dtype=tf.int32, name="z"), name="add")
    return ["add:0"]


@case("IdentityN pinned to /cpu:1 with two unpinned const inputs")
def identity_n_cpu1():
    a, b = ab()
    with tf1.device("/cpu:1"):
        tf1.identity_n([a, b], name="idn")
    return ["idn:0", "idn:1"]


@case("PlaceholderWithDefault on /cpu:2 (default from an unpinned const), unpinned consumer")
def placeholder_with_default_cpu2():
    default = vec("default")
    with tf1.device("/cpu:2"):
        p = tf1.placeholder_with_default(default, shape=[2], name="p")
    tf1.identity(p, name="r")
    return ["r:0"]


@case("NoOp pinned to /cpu:1 with control inputs from two unpinned Identity nodes")
def noop_control_inputs_cpu1():
    c = vec("c")
    r1 = tf1.identity(c, name="r1")
    r2 = tf1.identity(c, name="r2")
    with tf1.device("/cpu:1"), tf1.control_dependencies([r1, r2]):
        tf1.no_op(name="done")
    return ["done"]


# ---------------------------------------------------------------------------------------------
# Running a case.

_libc = ctypes.CDLL(None)
_raw_messages = []  # C++ status messages, as they reach Session._do_call
_interpolate_graph = error_interpolation.interpolate_graph


def _recording_interpolate_graph(message, graph):
    _raw_messages.append(message)
    return _interpolate_graph(message, graph)


error_interpolation.interpolate_graph = _recording_interpolate_graph


def run_session(graph, soft, run, feeds):
    """Creates the session and does the first run with fd 1 redirected.
    Returns (placement lines, exception or None, C++ error message or None)."""
    config = tf1.ConfigProto(device_count={"CPU": 3}, log_device_placement=True,
                             allow_soft_placement=soft)
    feed_dict = {name: np.array(value, dtype=np.float32) for name, value in feeds.items()}
    del _raw_messages[:]
    error = None
    sys.stdout.flush()
    _libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            with tf1.Session(graph=graph, config=config) as sess:
                sess.run(run, feed_dict=feed_dict)
        except Exception as e:  # noqa: BLE001 (recorded, whatever it is)
            error = e
        finally:
            _libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        printed = tmp.read().decode("utf-8")
    lines = [line for line in printed.splitlines() if PLACEMENT_RE.match(line)]
    return lines, error, (_raw_messages[-1] if _raw_messages else None)


def write(path, text):
    with open(path, "w", newline="") as f:
        f.write(text)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    os.makedirs(out_dir, exist_ok=True)
    for old in os.listdir(out_dir):  # drop the files of cases that no longer exist
        if old.endswith((".pbtxt", ".txt", ".md")):
            os.remove(os.path.join(out_dir, old))
    names = [name for name, *_ in CASES]
    assert len(set(names)) == len(names), "duplicate case names"
    for name, soft, description, build in CASES:
        graph = tf.Graph()
        with graph.as_default():
            result = build()
        run, feeds = result if isinstance(result, tuple) else (result, {})
        graph_def = graph.as_graph_def()
        bad = sorted({n.op for n in graph_def.node} - ALLOWED_OPS)
        if bad:
            raise SystemExit("case %s uses ops outside the engine's set: %s" % (name, bad))
        base = os.path.join(out_dir, name)
        write(base + ".graph.pbtxt", text_format.MessageToString(graph_def))

        lines, error, raw = run_session(graph, soft, run, feeds)
        if error is None:
            status = "OK"
        elif isinstance(error, tf.errors.OpError):
            status = CODE_NAMES[error.error_code]
        else:
            status = "PYTHON_ERROR"  # not seen with TF 2.21; kept so a change shows up
        info = ["allow_soft_placement: " + ("true" if soft else "false"), "run: " + ",".join(run)]
        info += ["feed: %s=%s" % (k, json.dumps(v, separators=(",", ":")))
                 for k, v in feeds.items()]
        info.append("status: " + status)
        if error is not None:
            info.append("exception: " + type(error).__name__)
        info.append("description: " + description)
        write(base + ".case.txt", "\n".join(info) + "\n")
        write(base + ".placement.txt", "" if error else "".join(l + "\n" for l in lines))
        if error is not None:
            write(base + ".error.txt", raw if raw is not None else str(error))
        print("%-40s %s" % (name, status), file=sys.stderr)

    write(os.path.join(out_dir, "MANIFEST.txt"), "".join(n + "\n" for n in names))
    write(os.path.join(out_dir, "README.md"), README % (tf.__version__, len(names)))


README = """\
# TensorFlow device-placement conformance data
Generated by `tests/tfgen/make_placement_conformance.py` with TensorFlow %s (tensorflow-cpu, tf.compat.v1 graph mode, `ConfigProto(device_count={"CPU": 3}, log_device_placement=True)`); %d cases, listed in MANIFEST.txt.
Per case: `NAME.graph.pbtxt` (the GraphDef the session got), `NAME.case.txt` (allow_soft_placement, run, feed, status, exception, description), `NAME.placement.txt` (the placer's printed `name: (Op): device` lines in TF's order; empty on error) and, on error, `NAME.error.txt` (the C++ status message byte for byte, without the Python traceback tf.compat.v1.Session prepends).
Regenerate from the repository root: `python3 tests/tfgen/make_placement_conformance.py` (deterministic: repeated runs give identical files; nothing run-specific such as addresses appears in the error texts).
"""

if __name__ == "__main__":
    main()
