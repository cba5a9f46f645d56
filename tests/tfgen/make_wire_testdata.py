#!/usr/bin/env python3
"""Writes wire-format test data with real TensorFlow, for proto/proto_roundtrip_test.cc.

Builds GraphDefs, ConfigProtos, RunOptions, a MetaGraphDef and SavedModels with tensorflow-cpu and
writes, for each case NAME, into proto/testdata/tf_written/:
    NAME.pb      the message as TensorFlow serializes it (SerializeToString())
    NAME.det.pb  SerializeToString(deterministic=True), with protobuf's pure-Python backend
    NAME.pbtxt   google.protobuf.text_format.MessageToString(message)
and one MANIFEST.txt with lines `NAME MESSAGE_TYPE` (GraphDef, ConfigProto, RunOptions,
MetaGraphDef or SavedModel). The test parses these with Rill's protos (package `rill`, the same
field names and numbers) and checks that nothing is lost or changed.

Why the pure-Python backend for NAME.det.pb: TF's Python uses protobuf's upb backend, whose
deterministic serializer orders string map keys differently from C++ (and from the pure-Python
backend) when one key is a prefix of another: upb writes NodeDef.attr "Tshape" before "T", C++
writes "T" first (upb's _upb_mapsorter_cmpstr negates memcmp; see protocolbuffers/protobuf PR
#26621). Rill serializes with C++ protobuf, so NAME.det.pb is the canonical C++ order, written by
a child process of this script (PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python) from NAME.pb; the
script checks that it parses to the same message as upb's, and prints the cases where upb's
deterministic bytes differ.

Usage (from the repository root; needs `pip install tensorflow-cpu`, only to regenerate):
    python3 tests/tfgen/make_wire_testdata.py [OUTPUT_DIR]
OUTPUT_DIR defaults to proto/testdata/tf_written. The output is deterministic for a given script
and TensorFlow version: every case is built in a fresh graph, in a fixed order, with constant
initializers, and the file paths in the GraphDebugInfo case are made relative (its line numbers
are this script's). NAME.det.pb, NAME.pbtxt and MANIFEST.txt are byte-identical from run to run.
The one exception is NAME.pb itself: TensorFlow's non-deterministic serializer (upb in Python)
writes map entries (NodeDef.attr, ConfigProto.device_count, ...) in hash order, which changes from
process to process, so a regenerated NAME.pb may differ from the committed one in map-entry order
only. That is kept on purpose (it is what TF really writes; the test must accept any order).
SavedModel cases store TF's saved_model.pb file bytes as NAME.pb (TF writes it with upb's
deterministic order). Content of Rill's empty shells (RewriterConfig, DebugOptions,
SavedObjectGraph) is kept verbatim by Rill as unknown fields and is never re-sorted, so in NAME.pb
it must already be in canonical order for NAME.pb -> NAME.det.pb to be byte-exact: hence no shell
map with more than one entry in the non-deterministic cases, and in saved_model_v2 no string map
keys inside SavedObjectGraph where one is a prefix of another (true today; the test would show it).
"""
import os

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import tensorflow as tf  # noqa: E402
from google.protobuf import text_format  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.core.protobuf import config_pb2  # noqa: E402
from tensorflow.core.protobuf import meta_graph_pb2  # noqa: E402
from tensorflow.core.protobuf import rewriter_config_pb2  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402
from tensorflow.python.framework import convert_to_constants  # noqa: E402
from tensorflow.python.framework import error_interpolation  # noqa: E402
from tensorflow.python.ops import control_flow_util  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join(REPO_ROOT, "proto", "testdata", "tf_written")
MAX_FILE_BYTES = 200 * 1024
MAX_TOTAL_BYTES = 2 * 1024 * 1024

tf1 = tf.compat.v1
tf.get_logger().setLevel("ERROR")


# ----------------------------------------------------------------------------------------------
# GraphDefs (tf.compat.v1 graph mode unless said otherwise).


def graph_matmul():
    """The seed graph: MatMul of two constants."""
    g = tf.Graph()
    with g.as_default():
        a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name="a")
        b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="b")
        tf.matmul(a, b, name="MatMul")
    return g.as_graph_def()


def graph_matmul_cpu():
    """The seed graph with a and b pinned to /cpu:0."""
    g = tf.Graph()
    with g.as_default():
        with tf.device("/cpu:0"):
            a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name="a")
            b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="b")
        tf.matmul(a, b, name="MatMul")
    return g.as_graph_def()


def graph_towers():
    """Two MatMul towers on /gpu:2 and /gpu:3 summed with add_n on /cpu:0 (never run)."""
    g = tf.Graph()
    with g.as_default():
        towers = []
        for d in ("/gpu:2", "/gpu:3"):
            with tf.device(d):
                a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name="a")
                b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="b")
                towers.append(tf.matmul(a, b))
        with tf.device("/cpu:0"):
            tf.add_n(towers, name="sum")
    return g.as_graph_def()


def graph_ref_variable():
    """A reference variable (VariableV2 / Assign / read) and its initializer."""
    g = tf.Graph()
    with g.as_default():
        v = tf1.Variable([[1.0, 2.0], [3.0, 4.0]], name="ref_var", use_resource=False)
        x = tf.constant([[1.0, 0.0], [0.0, 1.0]], name="x")
        tf.matmul(x, v, name="y")
        tf1.assign_add(v, x, name="bump")
        tf1.global_variables_initializer()
    return g.as_graph_def()


def graph_resource_variable():
    """A resource variable (VarHandleOp / AssignVariableOp / ReadVariableOp)."""
    g = tf.Graph()
    with g.as_default():
        v = tf1.get_variable("res_var", initializer=tf.constant([1.0, 2.0, 3.0]),
                             use_resource=True)
        tf.reduce_sum(v * 2.0, name="total")
        v.assign_add([1.0, 1.0, 1.0], name="bump")
        tf1.global_variables_initializer()
    return g.as_graph_def()


def graph_placeholder():
    """A placeholder of shape [None, 3] (unknown dim -1 in the shape attr)."""
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[None, 3], name="x")
        w = tf.constant([[1.0], [2.0], [3.0]], name="w")
        tf.matmul(x, w, name="y")
        tf1.placeholder_with_default(tf.constant(7, tf.int64), shape=[], name="k")
    return g.as_graph_def()


def graph_cond_v1():
    """tf.cond with control flow v1 (Switch / Merge)."""
    control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
    try:
        g = tf.Graph()
        with g.as_default():
            p = tf1.placeholder(tf.bool, shape=[], name="pred")
            x = tf.constant(3.0, name="x")
            tf.cond(p, lambda: x * 2.0, lambda: x - 1.0, name="cond")
    finally:
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = True
    return g.as_graph_def()


def graph_while_v1():
    """tf.while_loop with control flow v1 (Enter / Merge / Switch / Exit / NextIteration)."""
    control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
    try:
        g = tf.Graph()
        with g.as_default():
            i0 = tf.constant(0, name="i0")
            s0 = tf.constant(1.0, name="s0")
            tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s * 2.0), [i0, s0],
                          name="loop")
    finally:
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = True
    return g.as_graph_def()


def graph_control_flow_v2():
    """tf.cond and tf.while_loop with control flow v2 (If / While and their FunctionDefs)."""
    g = tf.Graph()
    with g.as_default():
        p = tf1.placeholder(tf.bool, shape=[], name="pred")
        x = tf.constant(3.0, name="x")
        c = tf.cond(p, lambda: x * 2.0, lambda: x - 1.0, name="cond")
        tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + c), [tf.constant(0), c],
                      name="loop")
    return g.as_graph_def()


def graph_frozen_keras():
    """A one-layer Keras Dense model, frozen (variables turned into Const)."""
    import keras  # pylint: disable=g-import-not-at-top

    model = keras.Sequential(
        [keras.Input((3,), name="features"),
         keras.layers.Dense(2, activation="relu", name="dense",
                            kernel_initializer=keras.initializers.Constant(0.5),
                            bias_initializer=keras.initializers.Constant(0.25))],
        name="tiny")
    fn = tf.function(lambda x: model(x))
    cf = fn.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="features"))
    frozen = convert_to_constants.convert_variables_to_constants_v2(cf)
    return frozen.graph.as_graph_def()


def graph_function_library():
    """The graph of a concrete function that calls another tf.function (library non-empty)."""
    v = tf.Variable(2.0, name="scale")

    @tf.function
    def inner(x):
        return x * v + 1.0

    @tf.function
    def outer(x):
        return inner(x) - 3.0

    cf = outer.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="x"))
    return cf.graph.as_graph_def()


def graph_output_shapes():
    """A graph written with add_shapes=True (an _output_shapes attr on every node)."""
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[None, 3], name="x")
        w = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="w")
        y = tf.matmul(x, w, name="y")
        tf.reshape(y, [-1], name="flat")
        tf.split(y, 2, axis=1, name="halves")
    return g.as_graph_def(add_shapes=True)


def _relative_path(path):
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1]
    if path.startswith(REPO_ROOT + "/"):
        return path[len(REPO_ROOT) + 1:]
    return os.path.basename(path)


def graph_debug_info():
    """GraphDef.debug_info (stack traces, from TF's create_graph_debug_info_def) and
    NodeDef.experimental_debug_info.

    TensorFlow's Python graph export does not fill either on its own: debug_info is built with
    error_interpolation.create_graph_debug_info_def (what the converters use) and file paths are
    made relative; experimental_debug_info (which TF's function inliner fills in C++) is set on two
    nodes by hand. Both are then serialized by TensorFlow like any other field.
    """
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[2], name="x")
        y = tf.add(x, 1.0, name="y")
        tf.identity(y, name="out")
    gd = g.as_graph_def(add_shapes=True)
    info = error_interpolation.create_graph_debug_info_def(
        [("", op) for op in g.get_operations()])
    files = [_relative_path(f) for f in info.files]
    del info.files[:]
    info.files.extend(files)
    gd.debug_info.CopyFrom(info)
    for node in gd.node:
        if node.name == "y":
            node.experimental_debug_info.original_node_names.extend(["inner/add", "add"])
            node.experimental_debug_info.original_func_names.extend(["inner_fn"])
        if node.name == "out":
            node.experimental_debug_info.original_node_names.append("out")
    return gd


# ----------------------------------------------------------------------------------------------
# ConfigProto and RunOptions.


def config_default():
    return config_pb2.ConfigProto()


def config_devices():
    return config_pb2.ConfigProto(device_count={"CPU": 3, "GPU": 2}, allow_soft_placement=True,
                                  log_device_placement=True)


def config_gpu_options():
    c = config_pb2.ConfigProto()
    c.gpu_options.allow_growth = True
    c.gpu_options.per_process_gpu_memory_fraction = 0.4
    c.gpu_options.visible_device_list = "0,1"
    c.gpu_options.experimental.virtual_devices.add(memory_limit_mb=[1024, 1024])
    return c


def config_full():
    """Threads, timeouts, optimizer options, rewrite options (Rill's empty RewriterConfig shell:
    its content must survive as unknown fields), executor type, inter-op thread pools."""
    c = config_pb2.ConfigProto()
    c.intra_op_parallelism_threads = 4
    c.inter_op_parallelism_threads = 2
    c.use_per_session_threads = True
    c.operation_timeout_in_ms = 60000
    c.device_filters.extend(["/job:localhost", "/device:CPU:0"])
    c.isolate_session_state = True
    pool = c.session_inter_op_thread_pool.add()
    pool.num_threads = 3
    pool.global_name = "shared_pool"
    c.session_inter_op_thread_pool.add(num_threads=1)
    oo = c.graph_options.optimizer_options
    oo.do_common_subexpression_elimination = True
    oo.do_constant_folding = True
    oo.opt_level = config_pb2.OptimizerOptions.L0
    oo.global_jit_level = config_pb2.OptimizerOptions.OFF
    oo.max_folded_constant_in_bytes = 1 << 20
    c.graph_options.infer_shapes = True
    c.graph_options.place_pruned_graph = True
    c.graph_options.build_cost_model = 10
    ro = c.graph_options.rewrite_options
    ro.constant_folding = rewriter_config_pb2.RewriterConfig.OFF
    ro.layout_optimizer = rewriter_config_pb2.RewriterConfig.OFF
    ro.arithmetic_optimization = rewriter_config_pb2.RewriterConfig.AGGRESSIVE
    ro.memory_optimization = rewriter_config_pb2.RewriterConfig.NO_MEM_OPT
    ro.min_graph_nodes = -1
    ro.meta_optimizer_iterations = rewriter_config_pb2.RewriterConfig.ONE
    ro.optimizers.extend(["constfold", "dependency"])
    # One entry only: Rill keeps this map's bytes verbatim (unknown fields), so with two entries
    # the order TF's non-deterministic NAME.pb happens to use could not be re-sorted by Rill's
    # deterministic serializer and NAME.pb -> NAME.det.pb would depend on TF's hash order.
    custom = ro.custom_optimizers.add(name="MyOptimizer")
    custom.parameter_map["alpha"].i = 3
    c.experimental.executor_type = "SINGLE_THREADED_EXECUTOR"
    c.experimental.collective_group_leader = "/job:worker/replica:0/task:0"
    c.experimental.session_metadata.name = "tiny"
    c.experimental.session_metadata.version = 7
    c.experimental.mlir_bridge_rollout = (
        config_pb2.ConfigProto.Experimental.MLIR_BRIDGE_ROLLOUT_DISABLED)
    return c


def run_options():
    """FULL_TRACE, timeout, partition graphs, and DebugOptions (an empty shell in Rill)."""
    r = config_pb2.RunOptions()
    r.trace_level = config_pb2.RunOptions.FULL_TRACE
    r.timeout_in_ms = 5000
    r.inter_op_thread_pool = 1
    r.output_partition_graphs = True
    r.report_tensor_allocations_upon_oom = True
    watch = r.debug_options.debug_tensor_watch_opts.add()
    watch.node_name = "MatMul"
    watch.output_slot = 0
    watch.debug_ops.extend(["DebugIdentity", "DebugNumericSummary"])
    watch.debug_urls.append("file:///tmp/tfdbg_1")
    r.debug_options.global_step = 42
    r.debug_options.reset_disk_byte_usage = True
    r.experimental.collective_graph_key = 12
    r.experimental.use_run_handler_pool = True
    r.experimental.run_handler_pool_options.priority = 2
    return r


# ----------------------------------------------------------------------------------------------
# MetaGraphDef and SavedModels.


def meta_graph_saver():
    """export_meta_graph of a graph with a variable, a train op and a Saver."""
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[None, 2], name="x")
        w = tf1.get_variable("w", initializer=tf.constant([[1.0], [2.0]]), use_resource=False)
        y = tf.matmul(x, w, name="y")
        loss = tf.reduce_mean(tf.square(y), name="loss")
        tf1.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
        saver = tf1.train.Saver(name="saver")
        return tf1.train.export_meta_graph(graph=g, saver_def=saver.as_saver_def(),
                                           strip_default_attrs=True)


def _read_saved_model(export_dir):
    with open(os.path.join(export_dir, "saved_model.pb"), "rb") as f:
        data = f.read()
    return data, saved_model_pb2.SavedModel.FromString(data)


def saved_model_v1():
    """A tf.compat.v1.saved_model.Builder SavedModel with one serving signature."""
    tmp = tempfile.mkdtemp()
    try:
        export_dir = os.path.join(tmp, "export")
        g = tf.Graph()
        with g.as_default():
            x = tf1.placeholder(tf.float32, shape=[None, 2], name="x")
            w = tf1.get_variable("w", initializer=tf.constant([[1.0], [2.0]]), use_resource=True)
            y = tf.matmul(x, w, name="y")
            with tf1.Session(graph=g) as sess:
                sess.run(tf1.global_variables_initializer())
                builder = tf1.saved_model.Builder(export_dir)
                sig = tf1.saved_model.predict_signature_def(inputs={"x": x}, outputs={"y": y})
                builder.add_meta_graph_and_variables(
                    sess, [tf1.saved_model.tag_constants.SERVING],
                    signature_def_map={"serving_default": sig}, strip_default_attrs=True)
                builder.save()
        return _read_saved_model(export_dir)
    finally:
        shutil.rmtree(tmp)


def saved_model_v2():
    """tf.saved_model.save of a tiny tf.Module (object_graph_def is Rill's SavedObjectGraph shell,
    so its content must survive as unknown fields)."""

    class Tiny(tf.Module):

        def __init__(self):
            super().__init__(name="tiny")
            self.w = tf.Variable([[1.0], [2.0]], name="w")

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
        def __call__(self, x):
            return {"y": tf.matmul(x, self.w)}

    tmp = tempfile.mkdtemp()
    try:
        export_dir = os.path.join(tmp, "export")
        m = Tiny()
        tf.saved_model.save(m, export_dir, signatures=m.__call__)
        return _read_saved_model(export_dir)
    finally:
        shutil.rmtree(tmp)


# ----------------------------------------------------------------------------------------------

# (name, message type, builder). A builder returns a message, or (TF's file bytes, message).
CASES = [
    ("graph_matmul", "GraphDef", graph_matmul),
    ("graph_matmul_cpu", "GraphDef", graph_matmul_cpu),
    ("graph_towers", "GraphDef", graph_towers),
    ("graph_ref_variable", "GraphDef", graph_ref_variable),
    ("graph_resource_variable", "GraphDef", graph_resource_variable),
    ("graph_placeholder", "GraphDef", graph_placeholder),
    ("graph_cond_v1", "GraphDef", graph_cond_v1),
    ("graph_while_v1", "GraphDef", graph_while_v1),
    ("graph_control_flow_v2", "GraphDef", graph_control_flow_v2),
    ("graph_frozen_keras", "GraphDef", graph_frozen_keras),
    ("graph_function_library", "GraphDef", graph_function_library),
    ("graph_output_shapes", "GraphDef", graph_output_shapes),
    ("graph_debug_info", "GraphDef", graph_debug_info),
    ("config_default", "ConfigProto", config_default),
    ("config_devices", "ConfigProto", config_devices),
    ("config_gpu_options", "ConfigProto", config_gpu_options),
    ("config_full", "ConfigProto", config_full),
    ("run_options", "RunOptions", run_options),
    ("meta_graph_saver", "MetaGraphDef", meta_graph_saver),
    ("saved_model_v1", "SavedModel", saved_model_v1),
    ("saved_model_v2", "SavedModel", saved_model_v2),
]


TYPES = {
    "GraphDef": graph_pb2.GraphDef,
    "ConfigProto": config_pb2.ConfigProto,
    "RunOptions": config_pb2.RunOptions,
    "MetaGraphDef": meta_graph_pb2.MetaGraphDef,
    "SavedModel": saved_model_pb2.SavedModel,
}


def write_canonical_det(out_dir):
    """Child mode (pure-Python protobuf backend): NAME.pb -> NAME.det.pb for every manifest case."""
    from google.protobuf.internal import api_implementation  # pylint: disable=g-import-not-at-top
    assert api_implementation.Type() == "python", api_implementation.Type()
    with open(os.path.join(out_dir, "MANIFEST.txt")) as f:
        for line in f:
            name, type_name = line.split()
            with open(os.path.join(out_dir, name + ".pb"), "rb") as pb:
                msg = TYPES[type_name].FromString(pb.read())
            with open(os.path.join(out_dir, name + ".det.pb"), "wb") as det:
                det.write(msg.SerializeToString(deterministic=True))


def main(argv):
    if len(argv) == 3 and argv[1] == "--write-det":
        write_canonical_det(argv[2])
        return
    out_dir = argv[1] if len(argv) > 1 else DEFAULT_OUT
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    messages = {}
    upb_det = {}
    with open(os.path.join(out_dir, "MANIFEST.txt"), "w") as manifest:
        for name, type_name, build in CASES:
            result = build()
            if isinstance(result, tuple):
                tf_bytes, msg = result
            else:
                msg = result
                tf_bytes = msg.SerializeToString()
            assert msg.DESCRIPTOR.name == type_name, (name, msg.DESCRIPTOR.name)
            messages[name] = msg
            upb_det[name] = msg.SerializeToString(deterministic=True)
            with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
                f.write(tf_bytes)
            with open(os.path.join(out_dir, name + ".pbtxt"), "w") as f:
                f.write(text_format.MessageToString(msg))
            manifest.write("%s %s\n" % (name, type_name))

    # NAME.det.pb comes from the pure-Python backend (see the module docstring for why).
    env = dict(os.environ, PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION="python")
    subprocess.run([sys.executable, os.path.abspath(__file__), "--write-det", out_dir], env=env,
                   check=True)

    total = 0
    for name, type_name, _ in CASES:
        sizes = []
        for suffix in (".pb", ".det.pb", ".pbtxt"):
            size = os.path.getsize(os.path.join(out_dir, name + suffix))
            if size > MAX_FILE_BYTES:
                raise SystemExit("%s%s is %d bytes (limit %d)" % (name, suffix, size,
                                                                  MAX_FILE_BYTES))
            sizes.append(size)
            total += size
        with open(os.path.join(out_dir, name + ".det.pb"), "rb") as f:
            det = f.read()
        # Same message, whatever the map order.
        assert TYPES[type_name].FromString(det) == messages[name], name
        note = "" if det == upb_det[name] else "  (upb's deterministic bytes differ: map order)"
        print("%-24s %-12s pb=%6d det=%6d pbtxt=%6d%s" % (name, type_name, sizes[0], sizes[1],
                                                         sizes[2], note))
    if total > MAX_TOTAL_BYTES:
        raise SystemExit("total %d bytes (limit %d)" % (total, MAX_TOTAL_BYTES))
    print("total %d bytes in %s (TensorFlow %s)" % (total, out_dir, tf.__version__))


if __name__ == "__main__":
    main(sys.argv)
