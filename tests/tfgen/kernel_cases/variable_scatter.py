"""Reference-variable scatter ops: ScatterUpdate / Add / Sub / Mul / Div / Max / Min (rows of the
variable picked by 1-D or N-D `indices`) and ScatterNdUpdate / Add / Sub (slices picked by index
tuples). Each case's graph creates a VariableV2, assigns it, and (ordered by a control edge)
scatters into it; the fetch is the op's ref output, so one Session::Run replays init + update."""
import tensorflow as tf

from kernel_cases.core import COMPLEX, FLOATS, INTS, const, ph, rand, tf_dtype

tf1 = tf.compat.v1

NUMBERS = FLOATS + INTS + COMPLEX
# op -> dtypes, updates kind
SCATTER = {
    "ScatterUpdate": (NUMBERS + ["bool"], "any"),
    "ScatterAdd": (NUMBERS, "any"),
    "ScatterSub": (NUMBERS, "any"),
    "ScatterMul": (NUMBERS, "small"),
    "ScatterDiv": (NUMBERS, "nonzero"),
    "ScatterMax": (FLOATS + ["int32", "int64"], "any"),
    "ScatterMin": (FLOATS + ["int32", "int64"], "any"),
    "ScatterNdUpdate": (NUMBERS + ["bool"], "any"),
    "ScatterNdAdd": (NUMBERS, "any"),
    "ScatterNdSub": (NUMBERS, "any"),
}
TOL = {"float32": (1e-6, 1e-7), "float64": (1e-14, 1e-15), "half": (1e-3, 1e-3),
       "complex64": (1e-6, 1e-7), "complex128": (1e-14, 1e-15)}


def _variable(dt, shape, value, init, resource):
    """The variable "v" (VariableV2, or a VarHandleOp with shared_name "v") and, when `init`, the
    assignment of `value` to order the op under test after."""
    if resource:
        v = tf.raw_ops.VarHandleOp(dtype=tf_dtype(dt), shape=shape, shared_name="v", name="v")
        assign = lambda: tf.raw_ops.AssignVariableOp(  # noqa: E731
            resource=v, value=const("v_init", value, dt), name="v_assign")
    else:
        v = tf.raw_ops.VariableV2(shape=shape, dtype=tf_dtype(dt), name="v")
        assign = lambda: tf.raw_ops.Assign(  # noqa: E731
            ref=v, value=const("v_init", value, dt), name="v_assign")
    return v, [assign()] if init else []


# Resource forms: op -> the ref form whose dtypes and updates kind they share.
RESOURCE = {"Resource" + op: op for op in
            ["ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax",
             "ScatterMin", "ScatterNdUpdate", "ScatterNdAdd"]}


def _scatter(rec, op):
    """A ref form (fetching its ref output) or a resource form (a ReadVariableOp after it)."""
    resource = op in RESOURCE
    dtypes, kind = SCATTER[RESOURCE.get(op, op)]
    nd = "ScatterNd" in op

    def gen(dt):
        rtol, atol = TOL.get(dt, (0.0, 0.0))

        def c(what, shape, indices, upd_shape, idx="int32", error=None, phrases=(),
              init=True, **attrs):
            base = "%s/%s/%s" % (op, dt, what)
            value = rand(dt, shape, base + "/var")
            updates = rand(dt, upd_shape, base + "/updates", kind)

            def build():
                v, deps = _variable(dt, shape, value, init, resource)
                with tf1.control_dependencies(deps):
                    inputs = dict(indices=const("indices", indices, idx),
                                  updates=ph("updates", updates, dt), **attrs)
                    if not resource:
                        return getattr(tf.raw_ops, op)(ref=v, name="out", **inputs)
                    inputs["ref" if nd else "resource"] = v
                    step = getattr(tf.raw_ops, op)(name="step", **inputs)
                with tf1.control_dependencies([step]):
                    return tf.raw_ops.ReadVariableOp(resource=v, dtype=tf_dtype(dt), name="out")
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        ref = not resource
        if nd:
            c("rows", [4, 3], [[2], [0]], [2, 3])
            c("elements", [3, 4], [[0, 1], [2, 3], [1, 0]], [3], "int64")
            c("duplicates", [5], [[1], [3], [1]], [3])
            if ref:
                c("batched_indices", [2, 3, 2], [[[0, 1], [1, 2]], [[1, 0], [0, 0]]], [2, 2, 2])
                c("locked", [4], [[3], [0]], [2], use_locking=True)
            c("bad_index_error", [3, 2], [[1], [3]], [2, 2], error="INVALID_ARGUMENT",
              phrases=["indices[1] = [3] does not index into shape [3,2]"])
            if ref:
                c("updates_shape_error", [3, 2], [[1], [0]], [2, 3], error="INVALID_ARGUMENT",
                  phrases=["Dimensions [1,2) of input[shape=[3,2]] must match dimensions [1,2) "
                           "of updates[shape=[2,3]]"])
        else:
            c("rows", [4, 3], [2, 0], [2, 3])
            c("vector", [6], [5, 1, 3], [3], "int64")
            c("duplicates", [5, 2], [1, 3, 1, 1], [4, 2])
            c("matrix_indices", [4, 2], [[0, 3], [2, 1]], [2, 2, 2])
            c("scalar_updates", [4, 2], [3, 0], [])
            if ref:
                c("scalar_index", [3, 2], 1, [2])
                c("empty_indices", [3], [], [0])
                c("locked", [4], [3, 0], [2], use_locking=True)
            c("bad_index_error", [3, 2], [1, 3], [2, 2], error="INVALID_ARGUMENT",
              phrases=["indices[1] = 3 is not in [0, 3)"])
            if ref:
                c("negative_index_error", [3], [[0], [-1]], [2, 1], "int64",
                  error="INVALID_ARGUMENT", phrases=["indices[1,0] = -1 is not in [0, 3)"])
            shape_error = [2, 3] if ref else [2, 2, 1]  # the resource forms check ranks only
            c("updates_shape_error" if ref else "updates_rank_error", [3, 2], [1, 0], shape_error,
              error="INVALID_ARGUMENT",
              phrases=["Must have updates.shape = indices.shape + params.shape[1:] or "
                       "updates.shape = [], got updates.shape [%s], indices.shape [2], "
                       "params.shape [3,2]" % ",".join(map(str, shape_error))])
        if ref:
            c("uninitialized_error", [3], [[0]] if nd else [0], [1], init=False,
              error="FAILED_PRECONDITION", phrases=["Attempting to use uninitialized value v"])
        else:
            c("missing_error", [3], [[0]] if nd else [0], [1], init=False, error="NOT_FOUND",
              phrases=["localhost/v"])

    rec.for_dtypes(op, dtypes, gen)


def variable_shape(rec):
    op = "VariableShape"

    def gen(dt):
        def c(what, shape, out_type="int32", init=True, error=None, phrases=()):
            value = rand("float32", shape, "%s/%s/%s" % (op, dt, what))

            def build():
                h, deps = _variable("float32", shape, value, init, resource=True)
                with tf1.control_dependencies(deps):
                    return tf.raw_ops.VariableShape(input=h, out_type=tf_dtype(out_type),
                                                    name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype=out_type)

        c("matrix", [2, 3], dt)
        c("scalar", [], dt)
        c("zero_size", [0, 4, 1], dt)
        c("missing_error", [2], dt, init=False, error="NOT_FOUND", phrases=["localhost/v"])

    rec.for_dtypes(op, ["int32", "int64"], gen)


def resource_gather(rec, op):
    """ResourceGather (along axis batch_dims) and ResourceGatherNd of an assigned variable."""
    def gen(dt):
        def c(what, shape, indices, idx="int32", error=None, phrases=(), init=True, **attrs):
            value = rand(dt, shape, "%s/%s/%s" % (op, dt, what))

            def build():
                h, deps = _variable(dt, shape, value, init, resource=True)
                with tf1.control_dependencies(deps):
                    return getattr(tf.raw_ops, op)(
                        resource=h, indices=const("indices", indices, idx), dtype=tf_dtype(dt),
                        name="out", **attrs)
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        if op == "ResourceGather":
            c("rows", [4, 3], [2, 0, 2])
            c("matrix_indices", [5], [[4, 0], [1, 1]], "int64")
            c("scalar_index", [3, 2], 1)
            c("empty_indices", [3, 2], [])
            c("batch_dims", [2, 3], [[2, 0], [1, 1]], batch_dims=1)
            c("bad_index_error", [3, 2], [1, 3], error="INVALID_ARGUMENT",
              phrases=["indices[1] = 3 is not in [0, 3)"])
        else:
            c("elements", [3, 4], [[0, 1], [2, 3], [1, 0]])
            c("rows", [4, 3], [[3], [0]], "int64")
            c("whole", [2, 2], [[]])
            c("bad_index_error", [3, 2], [[1], [3]], error="INVALID_ARGUMENT",
              phrases=["indices[1] = [3] does not index into param shape [3,2]"])
        c("missing_error", [3], [0] if op == "ResourceGather" else [[0]], init=False,
          error="NOT_FOUND", phrases=["localhost/v"])

    rec.for_dtypes(op, NUMBERS + ["bool"], gen)


def destroy_resource(rec):
    """DestroyResourceOp of an assigned variable (VarIsInitializedOp after it is false), of a
    missing one (ignored by default), and the NotFound with ignore_lookup_error=False."""
    op = "DestroyResourceOp"

    def gen(dt):
        def c(what, init, error=None, phrases=(), **attrs):
            def build():
                h, deps = _variable(dt, [2], rand(dt, [2], "%s/%s" % (op, what)), init,
                                    resource=True)
                with tf1.control_dependencies(deps):
                    destroy = tf.raw_ops.DestroyResourceOp(resource=h, name="destroy", **attrs)
                with tf1.control_dependencies([destroy]):
                    return tf.raw_ops.VarIsInitializedOp(resource=h, name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        c("assigned", True)
        c("missing_ignored", False)
        c("missing_error", False, error="NOT_FOUND", phrases=["does not exist"],
          ignore_lookup_error=False)

    rec.for_dtypes(op, ["float32"], gen)


def build_all(rec, emit):
    for op in SCATTER:
        _scatter(rec, op)
        emit(op)
    for op in RESOURCE:
        _scatter(rec, op)
        emit(op)
    variable_shape(rec)
    emit("VariableShape")
    for op in ("ResourceGather", "ResourceGatherNd"):
        resource_gather(rec, op)
        emit(op)
    destroy_resource(rec)
    emit("DestroyResourceOp")
