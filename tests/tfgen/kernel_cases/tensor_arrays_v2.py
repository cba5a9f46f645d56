"""The TensorArray V2 names of graphs TensorFlow 0.12-1.0 wrote (TensorArrayV2, TensorArrayWriteV2,
ReadV2, GatherV2, ScatterV2, ConcatV2, SplitV2, SizeV2, CloseV2, GradV2): every case of
tensor_arrays.py (the V3 ops, dynamic_rnn's loops included) again, each graph rewritten as those
versions wrote it and imported at GraphDef producer version 21 (TensorFlow 2.21 refuses the V2 ops
from version 26 on). What differs from V3: the handle is a string vector [container, name], not a
resource (so Enter / Switch / Merge / Exit / Identity nodes carrying it have T = string);
TensorArrayV2 has no flow output (the Python of those versions started the flow at a float 0, a
Const here) and no identical_element_shapes attr; TensorArrayGradV2 outputs no flow (its users
take the flow it was given). One suite per V2 op, named as the V3 suite it comes from, plus
TensorArrayCloseV2's."""
import numpy as np
import tensorflow as tf

from kernel_cases import core, tensor_arrays
from kernel_cases.core import ph, rand, tf1

V2_PRODUCER = 21
V3_OPS = ["TensorArrayV3", "TensorArrayGradV3", "TensorArrayWriteV3", "TensorArrayReadV3",
          "TensorArrayGatherV3", "TensorArrayScatterV3", "TensorArrayConcatV3",
          "TensorArraySplitV3", "TensorArraySizeV3", "TensorArrayCloseV3"]


def v2_name(op):
    return op[:-1] + "2" if op in V3_OPS else op


def _split_input(ref):
    """("name", output index, is_control) of a NodeDef input string."""
    if ref.startswith("^"):
        return ref[1:], 0, True
    name, _, index = ref.partition(":")
    return name, int(index) if index else 0, False


def to_v2(graph_def):
    """Rewrites a GraphDef of V3 TensorArray ops into the V2 form, in place."""
    creators = {n.name for n in graph_def.node if n.op == "TensorArrayV3"}
    grads = {n.name: n.input[1] for n in graph_def.node if n.op == "TensorArrayGradV3"}
    flows = []
    for n in graph_def.node:
        for i, ref in enumerate(n.input):
            name, index, control = _split_input(ref)
            if control or index != 1:
                continue
            if name in creators:
                n.input[i] = name + "/v2_flow"
            elif name in grads:
                n.input[i] = grads[name]
        for key in list(n.attr):
            if n.attr[key].type == tf.resource.as_datatype_enum:
                n.attr[key].type = tf.string.as_datatype_enum
        if n.op == "TensorArrayV3":
            del n.attr["identical_element_shapes"]
            flows.append(n.name)
        n.op = v2_name(n.op)
    for name in flows:  # in the creator's frame through a control input
        c = graph_def.node.add()
        c.name, c.op = name + "/v2_flow", "Const"
        c.input.append("^" + name)
        c.attr["dtype"].type = tf.float32.as_datatype_enum
        c.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(np.float32(0)))
    graph_def.versions.producer = V2_PRODUCER
    return graph_def


def as_v2(build):
    """`build` (a case's graph builder) run in a scratch graph, its GraphDef rewritten to the V2
    ops and imported into the case's graph; returns the same fetches there."""
    def run():
        scratch = tf.Graph()
        with scratch.as_default():
            fetches = core._flatten(build())  # pylint: disable=protected-access
        names = [t.name for t in fetches]
        tf.graph_util.import_graph_def(to_v2(scratch.as_graph_def()), name="")
        graph = tf1.get_default_graph()
        return [graph.get_tensor_by_name(n) for n in names]
    return run


class _V2Recorder:
    """What tensor_arrays.build_all sees: cases go to `rec` under the V2 op name, built as_v2."""

    def __init__(self, rec):
        self._rec = rec

    def for_dtypes(self, op, dtypes, gen):
        self._rec.for_dtypes(v2_name(op), dtypes, gen)

    def case(self, op, dt, what, build, **kw):
        return self._rec.case(v2_name(op), dt, what, as_v2(build), **kw)


def close_cases(rec):
    def gen(dt):
        a = rand(dt, [2], "TAClose/a" + dt)

        def closed():
            ta = tf.TensorArray(tf.as_dtype(dt), size=2, name="out").write(0, ph("a", a))
            close = tf.raw_ops.TensorArrayCloseV3(handle=ta.handle)
            with tf.control_dependencies([close]):
                return tf.raw_ops.TensorArraySizeV3(handle=ta.handle, flow_in=ta.flow)
        rec.case("TensorArrayCloseV2", dt, "size_after_close_error",
                 core.in_control_flow_v1(as_v2(closed)), error="INVALID_ARGUMENT",
                 phrases=["has already been closed."])

        def close_only():
            ta = tf.TensorArray(tf.as_dtype(dt), size=2, name="out").write(0, ph("a", a))
            size = tf.raw_ops.TensorArraySizeV3(handle=ta.handle, flow_in=ta.flow)
            with tf.control_dependencies([size]):
                close = tf.raw_ops.TensorArrayCloseV3(handle=ta.handle)
            with tf.control_dependencies([close]):
                return tf.identity(size)
        rec.case("TensorArrayCloseV2", dt, "size_then_close",
                 core.in_control_flow_v1(as_v2(close_only)))
    rec.for_dtypes("TensorArrayCloseV2", ["float32"], gen)


def build_all(rec, emit):
    tensor_arrays.build_all(_V2Recorder(rec), lambda op: emit(v2_name(op)))
    close_cases(rec)
    emit("TensorArrayCloseV2")
