"""Gradient cases for ops/control_flow_ops.cc and the variable ops: tf.cond's Switch and Merge
(TF1 control flow), reads of resource variables."""
import numpy as np
import tensorflow as tf

from grad_cases import rand

tf1 = tf.compat.v1


def _cond(pred_value):
    def build(x):
        from tensorflow.python.ops import control_flow_util  # pylint: disable=import-outside-toplevel
        saved = control_flow_util.ENABLE_CONTROL_FLOW_V2
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
        try:
            pred = tf.constant(pred_value, name="pred")
            return tf1.cond(pred, lambda: tf.square(x), lambda: x * 3.0, name="out")
        finally:
            control_flow_util.ENABLE_CONTROL_FLOW_V2 = saved
    return build


def _while(kind):
    """TF1 while loops (Enter/Merge/Switch/LoopCond/NextIteration/Exit) of several bodies."""
    def build(x, w=None):
        from tensorflow.python.ops import control_flow_util  # pylint: disable=import-outside-toplevel
        saved = control_flow_util.ENABLE_CONTROL_FLOW_V2
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
        try:
            if kind == "square3":
                _, v = tf1.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * v),
                                      [tf.constant(0), x])
                return tf.identity(v, name="out")
            if kind == "rnn4":  # h = tanh(h W + x_t), W invariant, x read per step by index
                def body(i, h):
                    xt = tf.gather(x, i)
                    return i + 1, tf.tanh(tf.matmul(h, w) + xt)
                h0 = tf.zeros([2, 3])
                _, h = tf1.while_loop(lambda i, h: i < 4, body, [tf.constant(0), h0])
                return tf.identity(h, name="out")
            if kind == "zero_iterations":
                _, v = tf1.while_loop(lambda i, v: i < 0, lambda i, v: (i + 1, v * v),
                                      [tf.constant(0), x])
                return tf.identity(v * v, name="out")
            if kind == "two_vars":  # a, b = b, a * b + x (invariant x), 3 times
                _, a, b = tf1.while_loop(lambda i, a, b: i < 3,
                                         lambda i, a, b: (i + 1, b, a * b + x),
                                         [tf.constant(0), x * 0.5, x])
                return [tf.identity(a, name="out"), tf.identity(b, name="out_b")]
            if kind == "split_concat":  # rows 2, 1 and 2 split, read, rewritten, concatenated
                ta = tf.TensorArray(tf.float32, size=3, infer_shape=False).split(x, [2, 1, 2])
                out = tf.TensorArray(tf.float32, size=3, infer_shape=False)
                out = out.write(0, ta.read(2) * 2.0).write(1, ta.read(0)).write(2, ta.read(1))
                return tf.identity(out.concat() * 3.0, name="out")
            raise ValueError(kind)
        finally:
            control_flow_util.ENABLE_CONTROL_FLOW_V2 = saved
    return build


def _resource_read(x):
    v = tf1.Variable(np.arange(6, dtype=np.float32).reshape([2, 3]), use_resource=True, name="v")
    init = tf1.variables_initializer([v], name="init")
    y = tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32, name="out") * x
    return {"ys": [y], "xs": [v.handle], "init": init}


def _resource_gather(op):
    """ResourceGather / ResourceGatherNd of a resource variable times x: the gradient with
    respect to the handle is TensorFlow's IndexedSlices (densified) or scatter of the gathered
    rows' gradients (repeated indices add up)."""
    def build(x):
        v = tf1.Variable(np.arange(12, dtype=np.float32).reshape([4, 3]), use_resource=True,
                         name="v")
        init = tf1.variables_initializer([v], name="init")
        if op == "ResourceGather":
            g = tf.raw_ops.ResourceGather(resource=v.handle, indices=[[2, 0], [2, 3]],
                                          dtype=tf.float32, name="gather")
        else:
            g = tf.raw_ops.ResourceGatherNd(resource=v.handle, indices=[[[1, 2], [0, 0]],
                                                                        [[1, 2], [3, 1]]],
                                            dtype=tf.float32, name="gather")
        return {"ys": [tf.identity(g * x, name="out")], "xs": [v.handle], "init": init}
    return build


def cases(add):
    for op in ["Switch", "Merge"]:
        for pred in [True, False]:
            add(op, "cond_%s" % str(pred).lower(), [("x", rand([2, 3], (op, pred)))], _cond(pred))
    add("Exit", "square3", [("x", rand([3], "sq3", "unit"))], _while("square3"))
    add("Enter", "rnn4", [("x", rand([4, 2, 3], "rnn_x")), ("w", rand([3, 3], "rnn_w") * 0.5)],
        _while("rnn4"))
    add("NextIteration", "two_vars", [("x", rand([2], "two", "unit"))], _while("two_vars"))
    add("LoopCond", "zero_iterations", [("x", rand([2], "zero"))], _while("zero_iterations"))
    add("ReadVariableOp", "times_x", [("x", rand([2, 3], "read"))], _resource_read)
    add("ResourceGather", "repeated_rows", [("x", rand([2, 2, 3], "rgather"))],
        _resource_gather("ResourceGather"))
    add("ResourceGatherNd", "repeated_elements", [("x", rand([2, 2], "rgather_nd"))],
        _resource_gather("ResourceGatherNd"))
    _more(add)
    _older_tensor_arrays(add)
    _more_refs(add)


def _tensor_array(kind):
    """TF1 TensorArrays (TensorArrayV3 with control flow v1), as dynamic_rnn uses them."""
    def build(x, w=None):
        from tensorflow.python.ops import control_flow_util  # pylint: disable=import-outside-toplevel
        saved = control_flow_util.ENABLE_CONTROL_FLOW_V2
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
        try:
            if kind == "straight":  # scatter rows, read two back, write them swapped, gather
                ta = tf.TensorArray(tf.float32, size=3, element_shape=[2]).unstack(x)
                out = tf.TensorArray(tf.float32, size=2, element_shape=[2])
                out = out.write(0, ta.read(2) * 2.0).write(1, ta.read(0))
                return tf.identity(out.stack(), name="out")
            if kind == "rnn":  # inputs unstacked into a TensorArray, outputs written per step
                inputs = tf.TensorArray(tf.float32, size=4, element_shape=[2, 3]).unstack(x)
                outputs = tf.TensorArray(tf.float32, size=4, element_shape=[2, 3])

                def body(i, h, outs):
                    h2 = tf.tanh(tf.matmul(h, w) + inputs.read(i))
                    return i + 1, h2, outs.write(i, h2)
                _, _, outs = tf1.while_loop(lambda i, h, o: i < 4, body,
                                            [tf.constant(0), tf.zeros([2, 3]), outputs])
                return tf.identity(outs.stack(), name="out")
            if kind == "split_concat":  # rows 2, 1 and 2 split, read, rewritten, concatenated
                ta = tf.TensorArray(tf.float32, size=3, infer_shape=False).split(x, [2, 1, 2])
                out = tf.TensorArray(tf.float32, size=3, infer_shape=False)
                out = out.write(0, ta.read(2) * 2.0).write(1, ta.read(0)).write(2, ta.read(1))
                return tf.identity(out.concat() * 3.0, name="out")
            raise ValueError(kind)
        finally:
            control_flow_util.ENABLE_CONTROL_FLOW_V2 = saved
    return build


def _more(add):
    add("TensorArrayReadV3", "straight", [("x", rand([3, 2], "ta_straight"))],
        _tensor_array("straight"))
    add("TensorArrayWriteV3", "rnn", [("x", rand([4, 2, 3], "ta_rnn_x")),
                                      ("w", rand([3, 3], "ta_rnn_w") * 0.5)], _tensor_array("rnn"))
    add("TensorArrayScatterV3", "straight", [("x", rand([3, 2], "ta_scatter"))],
        _tensor_array("straight"))
    add("TensorArrayConcatV3", "split_concat", [("x", rand([5, 2], "ta_concat"))],
        _tensor_array("split_concat"))
    add("TensorArraySplitV3", "split_concat", [("x", rand([5, 2], "ta_split"))],
        _tensor_array("split_concat"))
    add("TensorArrayGatherV3", "rnn", [("x", rand([4, 2, 3], "ta_gather_x")),
                                       ("w", rand([3, 3], "ta_gather_w") * 0.5)],
        _tensor_array("rnn"))


def _tensor_array_version(kind, version):
    """_tensor_array(kind) built as TensorFlow 0.x (version 1) or 0.12-1.0 (version 2) wrote it:
    the V3 graph rewritten by kernel_cases/tensor_arrays_v1.py / _v2.py and imported at their
    GraphDef producer version, the case's placeholders mapped in; expected gradients from the V3
    form (see build)."""
    def build(*xs):
        import os  # pylint: disable=import-outside-toplevel
        import sys  # pylint: disable=import-outside-toplevel
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from kernel_cases import tensor_arrays_v1, tensor_arrays_v2  # pylint: disable=import-outside-toplevel
        scratch = tf.Graph()
        with scratch.as_default():
            holders = [tf1.placeholder(x.dtype, x.shape, name=x.op.name) for x in xs]
            _tensor_array(kind)(*holders)
        gd = scratch.as_graph_def()
        gd = tensor_arrays_v1.to_v1(gd) if version == 1 else tensor_arrays_v2.to_v2(gd)
        kept = [n for n in gd.node if n.name not in {h.op.name for h in holders}]
        for n in kept:  # colocation with the placeholders, which are mapped, not imported
            if "_class" in n.attr:
                del n.attr["_class"]
        del gd.node[:]
        gd.node.extend(kept)
        (out,) = tf.graph_util.import_graph_def(
            gd, input_map={h.name: x for h, x in zip(holders, xs)}, return_elements=["out:0"],
            name="")
        # TensorFlow 2.21 cannot differentiate these graphs (with TF1 control flow it feeds their
        # string handles to TensorArrayGradV3, a TypeError; with control flow v2 its
        # TensorList-based arrays refuse a handle): the expected gradients are TensorFlow's of
        # the same graph in V3 form, built beside it.
        return {"ys": [out], "reference": lambda: [_tensor_array(kind)(*xs)]}
    return build


def _older_tensor_arrays(add):
    for version, suffix in ((2, "V2"), (1, "")):
        add("TensorArrayRead" + suffix, "straight", [("x", rand([3, 2], "ta_straight"))],
            _tensor_array_version("straight", version))
        add("TensorArrayWrite" + suffix, "rnn", [("x", rand([4, 2, 3], "ta_rnn_x")),
                                                 ("w", rand([3, 3], "ta_rnn_w") * 0.5)],
            _tensor_array_version("rnn", version))
        add("TensorArrayScatter" + suffix, "straight", [("x", rand([3, 2], "ta_scatter"))],
            _tensor_array_version("straight", version))
        add("TensorArrayConcat" + suffix, "split_concat", [("x", rand([5, 2], "ta_concat"))],
            _tensor_array_version("split_concat", version))
        add("TensorArraySplit" + suffix, "split_concat", [("x", rand([5, 2], "ta_split"))],
            _tensor_array_version("split_concat", version))
        add("TensorArrayGather" + suffix, "rnn", [("x", rand([4, 2, 3], "ta_gather_x")),
                                                  ("w", rand([3, 3], "ta_gather_w") * 0.5)],
            _tensor_array_version("rnn", version))


def _ref_variable(kind):
    """TF1 reference variables read inside a cond (RefSwitch) and inside a loop (RefEnter);
    gradients are taken with respect to the variable's reference, as optimizers take them."""
    def build(x):
        v = tf1.Variable(np.array([0.5, -1.5, 2.0], np.float32), use_resource=False, name="v")
        init = tf1.variables_initializer([v], name="init")
        ref = v._ref()  # pylint: disable=protected-access
        if kind == "cond":
            y = tf1.cond(tf.constant(True), lambda: ref * x, lambda: ref + x)
        elif kind == "cond_of_refs":  # both branches return a reference: RefMerge
            w = tf1.Variable(np.array([2.0, 1.0, -1.0], np.float32), use_resource=False, name="w")
            init = tf1.variables_initializer([v, w], name="init")
            picked = tf1.cond(tf.constant(False), lambda: ref,
                              lambda: w._ref())  # pylint: disable=protected-access
            return {"ys": [tf.identity(picked * x, name="out")],
                    "xs": [ref, w._ref()], "init": init}  # pylint: disable=protected-access
        else:
            _, y = tf1.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, h * ref + x),
                                  [tf.constant(0), x])
        return {"ys": [tf.identity(y, name="out")], "xs": [ref], "init": init}
    return build


def _ref_loop_variable(kind):
    """A reference variable through RefIdentity, and TF1 while loops whose loop variable is one
    (RefEnter, RefMerge, RefSwitch, RefIdentity, RefNextIteration, RefExit): the body adds x to it
    with AssignAdd, whose gradient is None, so the variable's reference gets a zero gradient
    through the loop; x gets one only where it is used beside the assignment."""
    def build(x):
        v = tf1.Variable(np.array([0.5, -1.5, 2.0], np.float32), use_resource=False, name="v")
        init = tf1.variables_initializer([v], name="init")
        ref = v._ref()  # pylint: disable=protected-access
        if kind == "ref_identity":  # the reference itself, outside any loop
            r = tf.raw_ops.RefIdentity(input=ref, name="ref_out")
            ys = [tf.identity(r * x, name="out")]
        elif kind == "assign_add":  # the loop's result, read after the loop, times x
            _, r = tf1.while_loop(lambda i, r: i < 3, lambda i, r: (i + 1, tf1.assign_add(r, x)),
                                  [tf.constant(0), ref])
            ys = [tf.identity(r * x, name="out")]
        else:  # beside a value loop variable h = 1.5 h + x
            _, r, h = tf1.while_loop(
                lambda i, r, h: i < 3,
                lambda i, r, h: (i + 1, tf1.assign_add(r, x), h * 1.5 + x),
                [tf.constant(0), ref, x])
            ys = [tf.identity(h, name="out"), tf.identity(r * 2.0, name="out_r")]
        return {"ys": ys, "xs": [ref], "init": init}
    return build


def _more_refs(add):
    add("RefSwitch", "cond_on_variable", [("x", rand([3], "ref_cond"))], _ref_variable("cond"))
    add("RefMerge", "cond_of_refs", [("x", rand([3], "ref_merge"))], _ref_variable("cond_of_refs"))
    add("RefEnter", "loop_reads_variable", [("x", rand([3], "ref_loop", "unit"))],
        _ref_variable("loop"))
    add("RefIdentity", "times_x", [("x", rand([3], "ref_identity"))],
        _ref_loop_variable("ref_identity"))
    add("RefExit", "loop_over_variable", [("x", rand([3], "ref_exit"))],
        _ref_loop_variable("assign_add"))
    add("RefNextIteration", "loop_over_variable_and_value", [("x", rand([3], "ref_next", "unit"))],
        _ref_loop_variable("with_value"))
