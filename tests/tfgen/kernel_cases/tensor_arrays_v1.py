"""The TensorArray V1 names of graphs TensorFlow 0.x wrote (TensorArray, TensorArrayWrite, Read,
Gather, Scatter, Pack, Unpack, Concat, Split, Size, Close, Grad): every case of tensor_arrays.py
(the V3 ops, dynamic_rnn's loops included) again, each graph rewritten as those versions wrote it
and imported at GraphDef producer version 15 (TensorFlow 2.21 refuses the V1 ops from version 16
on, TensorArrayScatter from 19 and TensorArrayUnpack from 20). What differs from V2
(tensor_arrays_v2.py): the handle is a ref to the string vector [container, name], so the
Enter / Switch / Merge / Exit / NextIteration / Identity nodes carrying it are their Ref forms;
TensorArrayGrad takes a plain string handle and outputs a ref. TensorArrayPack and
TensorArrayUnpack, the stack / unstack of those versions, have their own cases. One suite per V1
op."""
import numpy as np
import tensorflow as tf

from kernel_cases import core, tensor_arrays, tensor_arrays_v2
from kernel_cases.core import ph, rand, tf1

V1_PRODUCER = 15
REF_FORMS = {"Enter": "RefEnter", "Exit": "RefExit", "Switch": "RefSwitch", "Merge": "RefMerge",
             "NextIteration": "RefNextIteration", "Identity": "RefIdentity"}


def v1_name(op):
    return op[:-2] if op in tensor_arrays_v2.V3_OPS else op


def to_v1(graph_def):
    """Rewrites a GraphDef of V3 TensorArray ops into the V1 form, in place."""
    carriers = [n for n in graph_def.node
                if n.op in REF_FORMS and n.attr["T"].type == tf.resource.as_datatype_enum]
    tensor_arrays_v2.to_v2(graph_def)
    for n in carriers:
        n.op = REF_FORMS[n.op]
    for n in graph_def.node:
        if n.op.endswith("V2") and n.op[:-2] + "V3" in tensor_arrays_v2.V3_OPS:
            n.op = n.op[:-2]
    graph_def.versions.producer = V1_PRODUCER
    return graph_def


def as_v1(build):
    """`build` run in a scratch graph, its GraphDef rewritten to the V1 ops and imported into the
    case's graph; returns the same fetches there."""
    def run():
        scratch = tf.Graph()
        with scratch.as_default():
            fetches = core._flatten(build())  # pylint: disable=protected-access
        names = [t.name for t in fetches]
        tf.graph_util.import_graph_def(to_v1(scratch.as_graph_def()), name="")
        graph = tf1.get_default_graph()
        return [graph.get_tensor_by_name(n) for n in names]
    return run


class _V1Recorder:
    """What tensor_arrays.build_all sees: cases go to `rec` under the V1 op name, built as_v1."""

    def __init__(self, rec):
        self._rec = rec

    def for_dtypes(self, op, dtypes, gen):
        self._rec.for_dtypes(v1_name(op), dtypes, gen)

    def case(self, op, dt, what, build, **kw):
        return self._rec.case(v1_name(op), dt, what, as_v1(build), **kw)


def _retype(graph_def, node_name, op, drop_input, attrs=()):
    """Makes node `node_name` an `op` without its input `drop_input` (by position)."""
    for n in graph_def.node:
        if n.name == node_name:
            n.op = op
            del n.input[drop_input]
            for a in attrs:
                del n.attr[a]


def pack_unpack_cases(rec):
    """TensorArrayPack (Gather of every index) and TensorArrayUnpack (Scatter to 0, 1, ...), as
    graphs of V3 Gather / Scatter nodes named "out" rewritten to them."""
    def case(op, dt, what, build, retype, **kw):
        def run():
            scratch = tf.Graph()
            with scratch.as_default():
                fetches = core._flatten(build())  # pylint: disable=protected-access
            names = [t.name for t in fetches]
            gd = scratch.as_graph_def()
            retype(gd)
            tf.graph_util.import_graph_def(to_v1(gd), name="")
            graph = tf1.get_default_graph()
            return [graph.get_tensor_by_name(n) for n in names]
        rec.case(op, dt, what, core.in_control_flow_v1(run), **kw)

    def pack(gd):
        _retype(gd, "out", "TensorArrayGatherV3", 1)
        for n in gd.node:
            if n.name == "out":
                n.op = "TensorArrayPack"

    def unpack(gd):
        for n in gd.node:
            if n.name == "out":
                n.op = "TensorArrayUnpack"
                del n.input[1]

    def gen_pack(dt):
        a, b = rand(dt, [2, 3], "TAPack/a" + dt), rand(dt, [2, 3], "TAPack/b" + dt)

        def gather_all(size, shape=None, writes=2, dynamic=False):
            def build():
                ta = tf.TensorArray(tf.as_dtype(dt), size=size, dynamic_size=dynamic,
                                    element_shape=shape, name="ta")
                if writes > 0:
                    ta = ta.write(0, ph("a", a))
                if writes > 1:
                    ta = ta.write(1, ph("b", b))
                return tf.raw_ops.TensorArrayGatherV3(
                    handle=ta.handle, indices=tf.constant([0], name="unused"), flow_in=ta.flow,
                    dtype=tf.as_dtype(dt), element_shape=shape, name="out")
            return build
        case("TensorArrayPack", dt, "two_elements", gather_all(2), pack)
        case("TensorArrayPack", dt, "unwritten_element_zeros", gather_all(3, [2, 3]), pack)
        case("TensorArrayPack", dt, "dynamic_size", gather_all(0, None, 2, True), pack)
        case("TensorArrayPack", dt, "empty_known_shape", gather_all(0, [2, 3], 0), pack)
        case("TensorArrayPack", dt, "unwritten_unknown_shape_error", gather_all(3), pack,
             error="INVALID_ARGUMENT", phrases=["Could not read from TensorArray index 2"])

    def gen_unpack(dt):
        v = rand(dt, [3, 2], "TAUnpack/v" + dt)

        def scatter_all(size, value, dynamic=False, read=(0,)):
            def build():
                ta = tf.TensorArray(tf.as_dtype(dt), size=size, dynamic_size=dynamic, name="ta")
                x = ph("v", value)
                flow = tf.raw_ops.TensorArrayScatterV3(
                    handle=ta.handle, indices=tf.constant([0], name="unused"), value=x,
                    flow_in=ta.flow, name="out")
                reads = [tf.raw_ops.TensorArrayReadV3(handle=ta.handle, index=i, flow_in=flow,
                                                      dtype=tf.as_dtype(dt)) for i in read]
                size_t = tf.raw_ops.TensorArraySizeV3(handle=ta.handle, flow_in=flow)
                return reads + [size_t]
            return build
        case("TensorArrayUnpack", dt, "three_rows", scatter_all(3, v, read=(0, 2)), unpack)
        case("TensorArrayUnpack", dt, "dynamic_size_grows", scatter_all(1, v, True, (2,)), unpack)
        case("TensorArrayUnpack", dt, "dynamic_larger_array_error",
             scatter_all(5, v, True, (1,)), unpack, error="INVALID_ARGUMENT",
             phrases=["Input value must have first dimension equal to the array size (3 vs. 5)"])
        case("TensorArrayUnpack", dt, "too_many_rows_error", scatter_all(2, v), unpack,
             error="INVALID_ARGUMENT",
             phrases=["Input value must have first dimension equal to the array size (3 vs. 2)"])
        case("TensorArrayUnpack", dt, "too_few_rows_error", scatter_all(4, v), unpack,
             error="INVALID_ARGUMENT",
             phrases=["Input value must have first dimension equal to the array size (3 vs. 4)"])
        case("TensorArrayUnpack", dt, "scalar_value_error", scatter_all(2, v[0, 0]), unpack,
             error="INVALID_ARGUMENT",
             phrases=["Input value for unpack must be at least a vector but received shape: []"])

    rec.for_dtypes("TensorArrayPack", ["float32", "int32"], gen_pack)
    rec.for_dtypes("TensorArrayUnpack", ["float32", "int32"], gen_unpack)


def close_cases(rec):
    def gen(dt):
        a = rand(dt, [2], "TAClose/a" + dt)

        def closed():
            ta = tf.TensorArray(tf.as_dtype(dt), size=2, name="out").write(0, ph("a", a))
            close = tf.raw_ops.TensorArrayCloseV3(handle=ta.handle)
            with tf.control_dependencies([close]):
                return tf.raw_ops.TensorArraySizeV3(handle=ta.handle, flow_in=ta.flow)
        rec.case("TensorArrayClose", dt, "size_after_close_error",
                 core.in_control_flow_v1(as_v1(closed)), error="INVALID_ARGUMENT",
                 phrases=["has already been closed."])

        def close_only():
            ta = tf.TensorArray(tf.as_dtype(dt), size=2, name="out").write(0, ph("a", a))
            size = tf.raw_ops.TensorArraySizeV3(handle=ta.handle, flow_in=ta.flow)
            with tf.control_dependencies([size]):
                close = tf.raw_ops.TensorArrayCloseV3(handle=ta.handle)
            with tf.control_dependencies([close]):
                return tf.identity(size)
        rec.case("TensorArrayClose", dt, "size_then_close",
                 core.in_control_flow_v1(as_v1(close_only)))
    rec.for_dtypes("TensorArrayClose", ["float32"], gen)


def build_all(rec, emit):
    tensor_arrays.build_all(_V1Recorder(rec), lambda op: emit(v1_name(op)))
    pack_unpack_cases(rec)
    emit("TensorArrayPack")
    emit("TensorArrayUnpack")
    close_cases(rec)
    emit("TensorArrayClose")
