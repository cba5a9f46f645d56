"""String and check ops: StringJoin, AsString, Assert (its error text), DynamicStitch,
DynamicPartition and StringFormat (TensorFlow's print_v2 rendering of tensors, as tf.print uses it)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import COMPLEX, FLOATS, arr, const, ph, rand

tf1 = tf.compat.v1


def _s(values):
    return np.array(values, dtype=object)


def string_join(rec):
    def gen(dt):
        def c(what, inputs, sep="", error=None, phrases=()):
            rec.case("StringJoin", dt, what, lambda: tf.raw_ops.StringJoin(
                inputs=[ph("x%d" % i, v) for i, v in enumerate(inputs)], separator=sep,
                name="out"), error=error, phrases=phrases, case_dtype="")

        c("vectors", [_s([b"a", b"bc"]), _s([b"x", b"yz"])], sep="-")
        c("scalar_broadcast", [_s(b"pre"), _s([b"1", b"2", b"3"])], sep=":")
        c("three_scalars", [_s(b"a"), _s(b""), _s(b"c")])
        c("shape_mismatch_error", [_s([b"a", b"b"]), _s([b"x", b"y", b"z"])],
          error="INVALID_ARGUMENT", phrases=["Input shapes do not match"])

    rec.for_dtypes("StringJoin", ["string"], gen)


def as_string(rec):
    def gen(dt):
        def c(what, x, **attrs):
            rec.case("AsString", dt, what, lambda: tf.raw_ops.AsString(
                input=ph("x", x, dt if dt != "string" else None), name="out", **attrs))

        if dt == "string":
            c("strings", _s([b"a", b"bcd"]))
            c("width", _s([b"a", b"bcd"]), width=3)
            return
        if dt == "bool":
            c("bools", arr([True, False], dt))
            return
        x = rand(dt, [5], "AsString/" + dt)
        c("default", x)
        c("width_fill", x, width=8, fill="0" if dt not in FLOATS else " ")
        if dt in FLOATS + COMPLEX:
            c("precision", x, precision=2)
            c("scientific", x, scientific=True, precision=3)
            c("shortest", x, shortest=True)
        if dt in COMPLEX:  # "(re,im)", each part formatted as a float of the part's value
            special = arr([complex(np.nan, np.inf), complex(-0.0, -np.inf), complex(1e30, -2.5e-7),
                           complex(-1.5, 123456.75)], dt)
            c("special_default", special)
            c("special_width_zero_fill", special, width=14, fill="0")
            c("special_left", special, width=12, fill="-", precision=1)
            c("special_plus_scientific", special, fill="+", scientific=True)
            c("special_shortest_width", special, shortest=True, width=9, fill="#")

    rec.for_dtypes("AsString", FLOATS + COMPLEX + ["int32", "int64", "uint8", "int8", "int16",
                                                   "bool", "string"], gen)


def assert_op(rec):
    def gen(dt):
        def c(what, cond, data, summarize=3, error=None, phrases=()):
            def build():
                x = ph("x", arr([1, 2], "float32"))
                check = tf.raw_ops.Assert(condition=ph("c", np.array(cond)),
                                          data=[ph("d%d" % i, v) for i, v in enumerate(data)],
                                          summarize=summarize)
                with tf1.control_dependencies([check]):
                    return tf.identity(x, name="out")
            rec.case("Assert", dt, what, build, error=error, phrases=phrases, case_dtype="")

        c("passes", True, [_s(b"never shown")])
        c("fails_with_message", False, [_s(b"x must be positive:"), arr([-1.5, 2, 3], "float32")],
          error="INVALID_ARGUMENT", phrases=["assertion failed: [x must be positive:] [-1.5 2 3]"])
        c("summarize_limits", False, [arr([1, 2, 3, 4, 5], "int32")], summarize=2,
          error="INVALID_ARGUMENT", phrases=["assertion failed: [1 2...]"])

    rec.for_dtypes("Assert", ["bool"], gen)


def dynamic_stitch(rec):
    def gen(dt):
        def c(what, indices, data):
            rec.case("DynamicStitch", dt, what, lambda: tf.raw_ops.DynamicStitch(
                indices=[const("i%d" % k, v) for k, v in enumerate(indices)],
                data=[ph("d%d" % k, v, dt) for k, v in enumerate(data)], name="out"))

        s = "DynamicStitch/" + dt
        c("vectors", [[0, 2], [1, 3]], [rand(dt, [2], s + "/a"), rand(dt, [2], s + "/b")])
        c("rows", [[1], [0, 2]], [rand(dt, [1, 3], s + "/c"), rand(dt, [2, 3], s + "/d")])
        c("overwrite", [[0, 1], [1]], [rand(dt, [2], s + "/e"), rand(dt, [1], s + "/f")])

    rec.for_dtypes("DynamicStitch", FLOATS + ["int32", "int64", "uint8", "int8", "int16", "bool"],
                   gen)


def dynamic_partition(rec):
    op = "DynamicPartition"

    def gen(dt):
        def c(what, data, partitions, n, error=None, phrases=()):
            rec.case(op, dt, what, lambda: list(tf.raw_ops.DynamicPartition(
                data=ph("data", data), partitions=ph("partitions", np.asarray(partitions,
                                                                              np.int32)),
                num_partitions=n, name="out")), error=error, phrases=phrases)

        if dt == "string":
            v = _s([b"a", b"bb", b"", b"c", b"dd", b"e"])
        elif dt == "bool":
            v = arr([1, 0, 1, 1, 0, 0], dt)
        else:
            v = arr([1, 2, 3, 4, 5, 6], dt)
        c("vector", v, [1, 0, 2, 1, 1, 0], 3)
        c("empty_partition", v, [0, 0, 2, 2, 0, 2], 3)
        c("rows", v.reshape(3, 2), [1, 0, 1], 2)
        c("matrix_partitions", v.reshape(2, 3), [[1, 0, 1], [0, 0, 1]], 2)
        c("scalar", v[0], 1, 2)
        c("no_data", v[:0], np.zeros([0]), 2)
        if dt == "float32":
            c("out_of_range_error", v, [1, 0, 5, 1, 1, 0], 2, error="INVALID_ARGUMENT",
              phrases=["partitions[2] = 5 is not in [0, 2)"])
            c("negative_error", v.reshape(2, 3), [[1, 0, 1], [0, -1, 1]], 2,
              error="INVALID_ARGUMENT", phrases=["partitions[1,1] = -1 is not in [0, 2)"])
            c("shape_error", v, [1, 0], 2, error="INVALID_ARGUMENT",
              phrases=["data.shape must start with partitions.shape, got data.shape = [6], "
                       "partitions.shape = [2]"])

    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64", "uint8", "int8",
                        "int16", "bool", "string"], gen)


def build_all(rec, emit):
    string_join(rec)
    emit("StringJoin")
    as_string(rec)
    emit("AsString")
    assert_op(rec)
    emit("Assert")
    dynamic_stitch(rec)
    emit("DynamicStitch")
    dynamic_partition(rec)
    emit("DynamicPartition")
    build_all_format(rec, emit)


def string_format(rec):
    def gen(dt):
        def c(what, values, template="v={}", summarize=3):
            rec.case("StringFormat", dt, what, lambda: tf.raw_ops.StringFormat(
                inputs=[ph("x%d" % i, v) for i, v in enumerate(values)], template=template,
                placeholder="{}", summarize=summarize, name="out"), case_dtype="")

        c("scalar_float", [np.float32(1.5)])
        c("vector", [np.arange(3, dtype=np.int32)])
        c("elided_vector", [np.arange(10, dtype=np.int32)])
        c("matrix", [np.arange(6, dtype=np.float32).reshape(2, 3) / 4])
        c("rank3", [np.arange(24, dtype=np.int64).reshape(2, 3, 4)])
        c("elided_rows", [np.arange(20, dtype=np.int32).reshape(10, 2)])
        c("strings_and_bools", [_s([b"a", b"bc"]), np.array([True, False])], template="{} / {}")
        c("summarize_all", [np.arange(8, dtype=np.int32)], summarize=-1)
        c("floats", [np.array([1e10, 1e-5, 0.1], np.float32)])

    rec.for_dtypes("StringFormat", ["string"], gen)


def build_all_format(rec, emit):
    string_format(rec)
    emit("StringFormat")
    string_select(rec)
    emit("Select")
    emit("SelectV2")
    regex_full_match(rec)
    emit("StaticRegexFullMatch")


def string_select(rec):
    """Select / SelectV2 on strings (the sharded Saver picks a file name with them)."""
    for op in ("Select", "SelectV2"):
        def gen(dt, op=op):
            def c(what, cond, t, e):
                def build():
                    cv = ph("x", np.array(cond)), ph("y", _s(t)), ph("z", _s(e))
                    f = tf.raw_ops.Select if op == "Select" else tf.raw_ops.SelectV2
                    kw = {"x": cv[1], "y": cv[2]} if op == "Select" else {"t": cv[1], "e": cv[2]}
                    return f(condition=cv[0], name="out", **kw)
                rec.case(op, dt, what, build)
            c("strings", [True, False, True], [b"a", b"bb", b"ccc"], [b"x", b"", b"zz"])
            c("scalar_cond", True, [b"keep", b"me"], [b"not", b"this"])
        rec.for_dtypes(op, ["string"], gen)


def regex_full_match(rec):
    def gen(dt):
        def c(what, values, pattern):
            rec.case("StaticRegexFullMatch", dt, what, lambda: tf.raw_ops.StaticRegexFullMatch(
                input=ph("x", _s(values)), pattern=pattern, name="out"), case_dtype="")
        c("s3_prefix", [b"s3://bucket/x", b"/tmp/s3://", b"s3:/", b""], "^s3://.*")
        c("digits", [b"123", b"12a", b"", b"007"], "[0-9]+")
        c("alternation", [b"cat", b"dog", b"cow", b"catdog"], "cat|dog")
    rec.for_dtypes("StaticRegexFullMatch", ["string"], gen)
