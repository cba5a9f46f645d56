"""Old op names that TF1 graphs still carry and TensorFlow 2.21 runs only in graphs of an old
producer version: BatchMatrixDiag / DiagPart / SetDiag / BandPart and BatchMatrixDeterminant /
Inverse / Solve / TriangularSolve / SolveLs, BatchCholesky, BatchSelfAdjointEigV2 (the names
before the Matrix* ops), QuantizeAndDequantize (v1, its range in attrs), BiasAddV1,
InTopK (k an attr), BatchNormWithGlobalNormalization (the 2015 Inception graph's batch norm),
the V2 matrix diagonal ops (MatrixDiagV2 / MatrixDiagPartV2 / MatrixSetDiagV2, which pack
diagonals LEFT_LEFT), and ops older graphs and the grappler's inputs carry: AccumulateNV2,
ConjugateTranspose of real values, GuaranteeConst and DeepCopy, the layout-rewrite helpers
DataFormatDimMap / DataFormatVecPermute, InplaceAdd / Sub / Update and ListDiff, and
NonMaxSuppression (iou_threshold an attr, as TF1 detection graphs have it) and StringSplit
(tf.compat.v1.string_split: any byte of the delimiter splits), and AdjustContrast (the first
tf.image.adjust_contrast, deprecated at GraphDef version 2: its cases are at producer version 1).

An op TensorFlow marks deprecated is refused in a graph of today's producer version, so those
cases import a GraphDef of producer version 6 (what a 2016 graph has) into the case's graph: a
Placeholder per input, fed its value, and the op as node `out`."""
import numpy as np
import tensorflow as tf
from tensorflow.core.framework import graph_pb2

from kernel_cases import core
from kernel_cases.core import FLOATS, arr, ph, rand

OLD_PRODUCER = 6
MATRIX_TYPES = ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16", "bool"]


def old_graph_op(op, inputs, attrs, num_outputs=1, producer=OLD_PRODUCER):
    """Node `out` of `op` in an imported GraphDef of producer version `producer`.

    inputs: [(name, value)], each a Placeholder fed `value`; attrs: {name: value} with values
    tf.DType, bool, int or float. Returns out's first `num_outputs` outputs."""
    gd = graph_pb2.GraphDef()
    gd.versions.producer = producer
    values = []
    for name, value in inputs:
        value = np.asarray(value)
        p = gd.node.add()
        p.name, p.op = name, "Placeholder"
        p.attr["dtype"].type = tf.as_dtype(value.dtype).as_datatype_enum
        values.append((name + ":0", value))
    node = gd.node.add()
    node.name, node.op = "out", op
    node.input.extend(name for name, _ in inputs)
    for key, v in attrs.items():
        if isinstance(v, tf.DType):
            node.attr[key].type = v.as_datatype_enum
        elif isinstance(v, bool):
            node.attr[key].b = v
        elif isinstance(v, int):
            node.attr[key].i = v
        else:
            node.attr[key].f = v
    tf.graph_util.import_graph_def(gd, name="")
    core._feeds.extend(values)  # pylint: disable=protected-access
    graph = tf.compat.v1.get_default_graph()
    return [graph.get_tensor_by_name("out:%d" % k) for k in range(num_outputs)]


def _tdt(dt):
    return tf.as_dtype(core.NP[dt])


def _matrix(dt, shape, seed):
    if dt == "bool":
        return rand(dt, shape, seed)
    return rand(dt, shape, seed, "small")


def batch_matrix_diag_ops(rec):
    def diag(dt):
        def c(what, d):
            rec.case("BatchMatrixDiag", dt, what,
                     lambda: old_graph_op("BatchMatrixDiag", [("diagonal", d)], {"T": _tdt(dt)}))
        c("batched", _matrix(dt, [2, 3], "bmd" + dt))
        c("vector", _matrix(dt, [4], "bmd1" + dt))
        c("empty", _matrix(dt, [2, 0], "bmd2" + dt))
    rec.for_dtypes("BatchMatrixDiag", MATRIX_TYPES, diag)

    def diag_part(dt):
        def c(what, x, error=None, phrases=()):
            rec.case("BatchMatrixDiagPart", dt, what,
                     lambda: old_graph_op("BatchMatrixDiagPart", [("input", x)], {"T": _tdt(dt)}),
                     error=error, phrases=phrases)
        c("batched_square", _matrix(dt, [2, 3, 3], "bmdp" + dt))
        c("wide", _matrix(dt, [2, 4], "bmdp1" + dt))
        c("tall", _matrix(dt, [1, 4, 2], "bmdp2" + dt))
    rec.for_dtypes("BatchMatrixDiagPart", MATRIX_TYPES, diag_part)

    def set_diag(dt):
        def c(what, x, d, error=None, phrases=()):
            rec.case("BatchMatrixSetDiag", dt, what,
                     lambda: old_graph_op("BatchMatrixSetDiag", [("input", x), ("diagonal", d)],
                                          {"T": _tdt(dt)}), error=error, phrases=phrases)
        c("batched", _matrix(dt, [2, 3, 3], "bmsd" + dt), _matrix(dt, [2, 3], "bmsd1" + dt))
        c("wide", _matrix(dt, [2, 4], "bmsd2" + dt), _matrix(dt, [2], "bmsd3" + dt))
        c("diagonal_shape_error", _matrix(dt, [2, 3, 3], "bmsd4" + dt),
          _matrix(dt, [2, 2], "bmsd5" + dt), error="INVALID_ARGUMENT")
    rec.for_dtypes("BatchMatrixSetDiag", MATRIX_TYPES, set_diag)

    def band_part(dt):
        def c(what, x, lower, upper, error=None, phrases=()):
            rec.case("BatchMatrixBandPart", dt, what,
                     lambda: old_graph_op("BatchMatrixBandPart",
                                          [("input", x), ("num_lower", np.int64(lower)),
                                           ("num_upper", np.int64(upper))], {"T": _tdt(dt)}),
                     error=error, phrases=phrases)
        x = _matrix(dt, [2, 4, 5], "bmbp" + dt)
        c("lower_1", x, 1, 0)
        c("upper_all", x, 0, -1)
        c("band", x, 2, 1)
        c("everything", x, -1, -1)
        c("lower_too_big_error", x, 5, 0, error="INVALID_ARGUMENT",
          phrases=["num_lower must be negative or less or equal to number of rows (4) got: 5"])
    rec.for_dtypes("BatchMatrixBandPart", MATRIX_TYPES, band_part)


def _batch_linalg_inputs(dt, seed):
    rs = np.random.RandomState(seed)
    a = rs.uniform(-1, 1, size=(2, 3, 3))
    well = arr(a + 6 * np.eye(3), dt)  # diagonally dominant
    spd = arr(np.matmul(a, np.swapaxes(a, -1, -2)) + 3 * np.eye(3), dt)
    rhs = arr(rs.uniform(-1, 1, size=(2, 3, 2)), dt)
    return well, spd, rhs


BATCH_LINALG = ["BatchMatrixDeterminant", "BatchMatrixInverse", "BatchMatrixSolve",
                "BatchMatrixTriangularSolve", "BatchCholesky", "BatchSelfAdjointEigV2",
                "BatchMatrixSolveLs"]


def batch_linalg(rec):
    def gen_for(op):
        def gen(dt):
            rtol, atol = (1e-4, 1e-5) if dt == "float32" else (1e-10, 1e-10)
            well, spd, rhs = _batch_linalg_inputs(dt, sum(map(ord, op + dt)))

            def c(what, inputs, attrs=None, error=None, phrases=(), outputs=1, post=None):
                def build():
                    outs = old_graph_op(op, inputs, dict(attrs or {}, T=_tdt(dt)), outputs)
                    return post(outs) if post else outs
                rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error,
                         phrases=phrases)
            singular = arr(np.ones([3, 3]), dt)
            if op == "BatchMatrixDeterminant":
                c("batched", [("input", well)])
                c("singular", [("input", singular)])
                c("empty_batch", [("input", arr(np.zeros([0, 2, 2]), dt))])
            elif op == "BatchMatrixInverse":
                c("batched", [("input", well)])
                c("adjoint", [("input", well)], {"adjoint": True})
                c("singular_error", [("input", singular)], error="INVALID_ARGUMENT",
                  phrases=["Input is not invertible."])
            elif op == "BatchMatrixSolve":
                c("batched", [("matrix", well), ("rhs", rhs)])
                c("adjoint", [("matrix", well), ("rhs", rhs)], {"adjoint": True})
                c("singular_error", [("matrix", singular), ("rhs", rhs[0])],
                  error="INVALID_ARGUMENT", phrases=["Input matrix is not invertible."])
            elif op == "BatchMatrixTriangularSolve":
                c("lower", [("matrix", well), ("rhs", rhs)])
                c("upper_adjoint", [("matrix", well), ("rhs", rhs)],
                  {"lower": False, "adjoint": True})
            elif op == "BatchCholesky":
                c("batched", [("input", spd)])
            elif op == "BatchSelfAdjointEigV2":
                c("values_only", [("input", spd)], {"compute_v": False}, outputs=2,
                  post=lambda o: [o[0]])
                c("values_and_abs_vectors", [("input", spd)], {"compute_v": True}, outputs=2,
                  post=lambda o: [o[0], tf.abs(o[1])])
            elif op == "BatchMatrixSolveLs":
                c("least_squares", [("matrix", arr(np.concatenate([well, well], 1), dt)),
                                    ("rhs", arr(np.concatenate([rhs, rhs], 1), dt)),
                                    ("l2_regularizer", np.float64(0.0))])
                c("regularized", [("matrix", well), ("rhs", rhs),
                                  ("l2_regularizer", np.float64(0.5))])
        return gen
    for op in BATCH_LINALG:
        rec.for_dtypes(op, ["float32", "float64"], gen_for(op))


def quantize_and_dequantize_v1(rec):
    op = "QuantizeAndDequantize"

    def gen(dt):
        x = arr([-7.0, -1.0, -0.5, -0.21568634, 0.0, 0.01, 0.49, 0.5, 0.7, 1.0, 6.0, 300.0], dt)

        def c(what, value, error=None, phrases=(), **attrs):
            rec.case(op, dt, what,
                     lambda: old_graph_op(op, [("input", value)], dict(attrs, T=_tdt(dt))),
                     error=error, phrases=phrases)
        c("from_data", x)
        c("from_data_unsigned", arr(np.abs(x), dt), signed_input=False)
        c("range_given", x, range_given=True, input_min=-1.0, input_max=1.0)
        c("range_given_4_bits", x, range_given=True, input_min=-2.0, input_max=6.0, num_bits=4)
        c("random", rand(dt, [4, 6], "qdq1" + dt))
        c("zero_size", arr(np.zeros([0, 2]), dt))
        c("bad_range_error", x, range_given=True, input_min=1.0, input_max=-1.0,
          error="INVALID_ARGUMENT", phrases=["Invalid range: input_min 1 > input_max -1"])
        c("num_bits_error", x, num_bits=0, error="INVALID_ARGUMENT",
          phrases=["num_bits is out of range: 0 with signed_input_ 1"])
    rec.for_dtypes(op, FLOATS, gen)


def bias_add_v1(rec):
    op = "BiasAddV1"

    def gen(dt):
        def c(what, x, b, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.BiasAddV1(
                value=ph("value", x), bias=ph("bias", b), name="out"), error=error,
                phrases=phrases)
        c("matrix", rand(dt, [3, 4], "bav1" + dt), rand(dt, [4], "bav1b" + dt))
        c("nhwc", rand(dt, [2, 2, 3, 5], "bav1c" + dt), rand(dt, [5], "bav1d" + dt))
        c("bias_size_error", rand(dt, [3, 4], "bav1e" + dt), rand(dt, [3], "bav1f" + dt),
          error="INVALID_ARGUMENT",
          phrases=["Must provide as many biases as the last dimension of the input tensor"])
    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16"],
                   gen)


def in_top_k(rec):
    op = "InTopK"

    def gen(dt):
        def c(what, pred, targets, k, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.InTopK(
                predictions=ph("predictions", pred), targets=ph("targets", targets, dt), k=k,
                name="out"), error=error, phrases=phrases)
        p = arr([[0.1, 0.9, 0.5, 0.3], [0.8, 0.2, 0.8, 0.1], [np.nan, 0.1, 0.2, 0.3]], "float32")
        c("k1", p, [1, 2, 3], 1)
        c("k2_ties", p, [2, 1, 0], 2)
        c("k_all", p, [3, 3, 1], 4)
        c("target_out_of_range", p, [4, -1, 0], 1)
        c("batch_error", p, [1, 2], 1, error="INVALID_ARGUMENT",
          phrases=["First dimension of predictions 3 must match length of targets 2"])
    rec.for_dtypes(op, ["int32", "int64"], gen)


def batch_norm_global(rec):
    op = "BatchNormWithGlobalNormalization"

    def gen(dt):
        tol = {"float32": (1e-6, 1e-6), "float64": (1e-12, 1e-12), "half": (2e-3, 2e-3)}[dt]

        def c(what, shape, scale, eps=0.001, error=None, phrases=()):
            ch = shape[-1]
            args = [("t", rand(dt, shape, op + what)),
                    ("m", rand(dt, [ch], op + what + "m")),
                    ("v", arr(np.abs(rand("float32", [ch], op + what + "v")) + 0.5, dt)),
                    ("beta", rand(dt, [ch], op + what + "b")),
                    ("gamma", rand(dt, [ch], op + what + "g"))]
            rec.case(op, dt, what, lambda: old_graph_op(op, args, {
                "T": _tdt(dt), "variance_epsilon": eps, "scale_after_normalization": scale}),
                rtol=tol[0], atol=tol[1], error=error, phrases=phrases)
        c("scaled", [2, 3, 3, 4], True)
        c("unscaled", [1, 2, 2, 3], False, eps=0.01)
        c("rank_error", [3, 4], True, error="INVALID_ARGUMENT", phrases=["input must be 4-dimensional"])
    rec.for_dtypes(op, FLOATS, gen)


def matrix_diag_v2(rec):
    def diag(dt):
        def c(what, d, k, rows=-1, cols=-1, pad=0):
            rec.case("MatrixDiagV2", dt, what, lambda: tf.raw_ops.MatrixDiagV2(
                diagonal=ph("diagonal", d), k=ph("k", np.array(k, np.int32)),
                num_rows=ph("num_rows", np.int32(rows)), num_cols=ph("num_cols", np.int32(cols)),
                padding_value=ph("padding_value", arr(pad, dt)), name="out"))
        c("main", _matrix(dt, [2, 3], "md2" + dt), 0)
        c("band_left_left", _matrix(dt, [2, 3, 3], "md2a" + dt), [-1, 1])
        c("super_only", _matrix(dt, [2, 2, 3], "md2b" + dt), [1, 2], pad=1 if dt != "bool" else True)
        c("sized", _matrix(dt, [2], "md2c" + dt), -1, rows=3, cols=4)
    rec.for_dtypes("MatrixDiagV2", MATRIX_TYPES, diag)

    def part(dt):
        def c(what, x, k, pad=0):
            rec.case("MatrixDiagPartV2", dt, what, lambda: tf.raw_ops.MatrixDiagPartV2(
                input=ph("input", x), k=ph("k", np.array(k, np.int32)),
                padding_value=ph("padding_value", arr(pad, dt)), name="out"))
        x = _matrix(dt, [2, 3, 4], "mdp2" + dt)
        c("main", x, 0)
        c("band_left_left", x, [-2, 1])
        c("padded", x, [-1, 2], pad=1 if dt != "bool" else True)
    rec.for_dtypes("MatrixDiagPartV2", MATRIX_TYPES, part)

    def set_diag(dt):
        def c(what, x, d, k):
            rec.case("MatrixSetDiagV2", dt, what, lambda: tf.raw_ops.MatrixSetDiagV2(
                input=ph("input", x), diagonal=ph("diagonal", d),
                k=ph("k", np.array(k, np.int32)), name="out"))
        x = _matrix(dt, [2, 3, 4], "msd2" + dt)
        c("main", x, _matrix(dt, [2, 3], "msd2a" + dt), 0)
        c("band_left_left", x, _matrix(dt, [2, 3, 3], "msd2b" + dt), [-1, 1])
    rec.for_dtypes("MatrixSetDiagV2", MATRIX_TYPES, set_diag)



PASS_TYPES = MATRIX_TYPES + ["complex64", "complex128", "string"]


def _any(dt, shape, seed):
    if dt == "string":
        return np.array([b"s%d" % k for k in range(int(np.prod(shape)))],
                        dtype=object).reshape(shape)
    return _matrix(dt, shape, seed)


def pass_through(rec):
    for op in ["GuaranteeConst", "DeepCopy"]:
        def gen(dt, op=op):
            arg = "input" if op == "GuaranteeConst" else "x"
            rec.case(op, dt, "matrix", lambda: getattr(tf.raw_ops, op)(
                **{arg: ph(arg, _any(dt, [2, 3], op + dt), dt if dt != "string" else None)},
                name="out"))
            rec.case(op, dt, "scalar", lambda: getattr(tf.raw_ops, op)(
                **{arg: ph(arg, _any(dt, [], op + "s" + dt), dt if dt != "string" else None)},
                name="out"))
        rec.for_dtypes(op, PASS_TYPES, gen)


def accumulate_n_v2(rec):
    op = "AccumulateNV2"

    def gen(dt):
        def c(what, xs, shape):
            rec.case(op, dt, what, lambda: tf.raw_ops.AccumulateNV2(
                inputs=[ph("x%d" % i, x) for i, x in enumerate(xs)], shape=shape, name="out"))
        c("three", [rand(dt, [2, 3], op + dt + str(i), "exact_sum") for i in range(3)], [2, 3])
        c("one", [rand(dt, [4], op + dt + "one", "exact_sum")], [4])
    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16"],
                   gen)


def conjugate_transpose(rec):
    op = "ConjugateTranspose"

    def gen(dt):
        def c(what, x, perm, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ConjugateTranspose(
                x=ph("x", x, dt if dt != "string" else None), perm=ph("perm", perm), name="out"),
                error=error, phrases=phrases)
        c("matrix", _any(dt, [2, 3], op + dt), np.array([1, 0], np.int32))
        c("rank3", _any(dt, [2, 3, 4], op + "3" + dt), np.array([2, 0, 1], np.int64))
        c("perm_error", _any(dt, [2, 3], op + dt), np.array([0, 0], np.int32),
          error="INVALID_ARGUMENT")
    rec.for_dtypes(op, MATRIX_TYPES + ["string"], gen)


def data_format(rec):
    def dim_map(dt):
        def c(what, x, error=None, phrases=(), **attrs):
            rec.case("DataFormatDimMap", dt, what, lambda: tf.raw_ops.DataFormatDimMap(
                x=ph("x", arr(x, dt)), name="out", **attrs), error=error, phrases=phrases)
        c("nhwc_to_nchw", [-4, -3, -1, 0, 1, 3, 5, -5])
        c("matrix", [[0, 1], [2, 3]], src_format="NCHW", dst_format="NHWC")
        c("to_hwnc", [0, 1, 2, 3], dst_format="HWNC")
        c("ndhwc", [0, 1, 2, 3, 4, -1], src_format="NDHWC", dst_format="NCDHW")
        c("source_length_error", [0], src_format="NHW", dst_format="NCH",
          error="INVALID_ARGUMENT",
          phrases=["Source format must be of length 4 or 5, received src_format = NHW"])
        c("permutation_error", [0], dst_format="NCHX", error="INVALID_ARGUMENT",
          phrases=["Destination and source format must determine a permutation, got NHWC and "
                   "NCHX"])
    rec.for_dtypes("DataFormatDimMap", ["int32", "int64"], dim_map)

    def vec_permute(dt):
        def c(what, x, error=None, phrases=(), **attrs):
            rec.case("DataFormatVecPermute", dt, what, lambda: tf.raw_ops.DataFormatVecPermute(
                x=ph("x", arr(x, dt)), name="out", **attrs), error=error, phrases=phrases)
        c("vector", [1, 2, 3, 4])
        c("spatial_only", [2, 3])
        c("paddings", [[1, 2], [3, 4], [5, 6], [7, 8]])
        c("back", [1, 2, 3, 4], src_format="NCHW", dst_format="NHWC")
        c("ndhwc", [1, 2, 3, 4, 5], src_format="NDHWC", dst_format="NCDHW")
        c("spatial_3d_paddings", [[1, 2], [3, 4], [5, 6]], src_format="NDHWC",
          dst_format="NCDHW")
        c("size_error", [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["1D input must be of size 2 or 4, but got shape [3]"])
        c("columns_error", [[1, 2, 3]] * 4, error="INVALID_ARGUMENT",
          phrases=["Second dimension of 2D input must be of size 2, but got shape [4,3]"])
        c("rows_error", [[1, 2]] * 3, error="INVALID_ARGUMENT",
          phrases=["First dimension of 2D input must be of size 2 or 4, but got shape [3,2]"])
        c("rank_error", [[[1]]], error="INVALID_ARGUMENT",
          phrases=["input must be a vector or 2D tensor, but got shape [1,1,1]"])
    rec.for_dtypes("DataFormatVecPermute", ["int32", "int64"], vec_permute)


def inplace_ops(rec):
    for op in ["InplaceAdd", "InplaceSub", "InplaceUpdate"]:
        def gen(dt, op=op):
            # TensorFlow's kernels write into x's buffer (y aliases x), which would change the
            # fed array before it is recorded: x reaches the op through a DeepCopy.
            def c(what, x, i, v, error=None, phrases=()):
                rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                    x=tf.raw_ops.DeepCopy(x=ph("x", x)), i=ph("i", np.array(i, np.int32)),
                    v=ph("v", v), name="out"), error=error, phrases=phrases)
            x = _matrix(dt, [4, 3], op + dt)
            c("rows", x, [1, 3], _matrix(dt, [2, 3], op + "v" + dt))
            c("repeated_row", x, [2, 2], _matrix(dt, [2, 3], op + "r" + dt))
            c("wrapped_indices", x, [4, -1], _matrix(dt, [2, 3], op + "w" + dt))
            c("vector", _matrix(dt, [5], op + "1" + dt), [0, 4], _matrix(dt, [2], op + "2" + dt))
            c("no_rows", x, [], _matrix(dt, [0, 3], op + "e" + dt))
            c("rank_error", _matrix(dt, [], op + "s" + dt), [0], _matrix(dt, [1], op + "t" + dt),
              error="INVALID_ARGUMENT",
              phrases=["x and v shape doesn't match (ranks differ): [] vs. [1]"])
            c("width_error", x, [1], _matrix(dt, [1, 2], op + "u" + dt),
              error="INVALID_ARGUMENT",
              phrases=["x and v shape doesn't match at index 1 : [4,3] vs. [1,2]"])
            c("count_error", x, [1, 2], _matrix(dt, [1, 3], op + "c" + dt),
              error="INVALID_ARGUMENT",
              phrases=["i and x shape doesn't match at index 0: [2] vs. [1,3]"])
        # TensorFlow adds and subtracts no bools ("Unsupported data type: bool").
        rec.for_dtypes(op, MATRIX_TYPES if op == "InplaceUpdate" else MATRIX_TYPES[:-1], gen)


def list_diff(rec):
    op = "ListDiff"

    def gen(dt):
        def c(what, x, y, out_idx=tf.int32, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ListDiff(
                x=ph("x", x, dt if dt != "string" else None),
                y=ph("y", y, dt if dt != "string" else None), out_idx=out_idx, name="out"),
                error=error, phrases=phrases)
        if dt == "string":
            x, y = np.array([b"a", b"b", b"c", b"b", b""], dtype=object), \
                np.array([b"b", b"z"], dtype=object)
        else:
            x, y = arr([1, 2, 3, 4, 2, 6, 0], dt), arr([2, 5, 1], dt)
        c("int32_index", x, y)
        c("int64_index", x, y, out_idx=tf.int64)
        c("nothing_left", x, x)
        c("empty_y", x, y[:0])
        if dt in FLOATS:
            c("zeros_and_nan", arr([0.0, -0.0, np.nan, 1.0, np.nan], dt), arr([-0.0, np.nan], dt))
        c("x_rank_error", x.reshape(1, -1), y, error="INVALID_ARGUMENT",
          phrases=["x should be a 1D vector."])
        c("y_rank_error", x, y.reshape(1, -1), error="INVALID_ARGUMENT",
          phrases=["y should be a 1D vector."])
    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16",
                        "string"], gen)


def non_max_suppression_v1(rec):
    op = "NonMaxSuppression"

    def gen(dt):
        boxes = arr([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                     [0, 10.1, 1, 11.1], [0, 100, 1, 101]], "float32")
        scores = arr([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], "float32")

        def c(what, n, iou=0.5, b=boxes, s=scores, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.NonMaxSuppression(
                boxes=ph("boxes", b), scores=ph("scores", s),
                max_output_size=ph("max_output_size", np.array(n, np.int32)),
                iou_threshold=iou, name="out"), error=error, phrases=phrases, case_dtype="")
        c("default_threshold", 3)
        c("all", 10, iou=0.7)
        c("zero_threshold", 6, iou=0.0)
        c("none", 0)
        c("threshold_error", 3, iou=1.5, error="INVALID_ARGUMENT",
          phrases=["iou_threshold must be in [0, 1]"])
        c("max_output_rank_error", [3], error="INVALID_ARGUMENT",
          phrases=["max_output_size must be 0-D"])
        c("scores_error", 3, s=scores[:5], error="INVALID_ARGUMENT")
    rec.for_dtypes(op, ["float32"], gen)


def string_split_v1(rec):
    op = "StringSplit"

    def gen(dt):
        def c(what, x, delim, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.StringSplit(
                input=ph("input", np.array(x, dtype=object)),
                delimiter=ph("delimiter", np.array(delim, dtype=object)), name="out", **attrs),
                error=error, phrases=phrases, case_dtype="")
        words = [b"a b  c", b"", b"d,e f,", b" lead"]
        c("any_of_delimiters", words, b" ,")
        c("keep_empty", words, b" ,", skip_empty=False)
        c("bytes", [b"ab c", "\u00e9".encode("utf-8")], b"")
        c("bytes_keep_empty", [b"ab", b""], b"", skip_empty=False)
        c("no_rows", [], b" ")
        c("input_rank_error", [[b"a"]], b" ", error="INVALID_ARGUMENT",
          phrases=["input must be a vector, got shape: [1,1]"])
        c("delimiter_rank_error", [b"a"], [b" "], error="INVALID_ARGUMENT",
          phrases=["delimiter must be a scalar, got shape: [1]"])
    rec.for_dtypes(op, ["string"], gen)

def adjust_contrast_v1(rec):
    """AdjustContrast: per image and channel (x - mean) * factor + mean in float, clamped to
    [min_value, max_value]; every input dtype, a batch of 3-D images, factors above and below 1,
    empty images, TensorFlow's error texts."""
    def gen(dt):
        def c(what, x, factor=2.0, lo=-50.0, hi=50.0, error=None, phrases=()):
            f32 = np.float32
            rec.case("AdjustContrast", dt, what, lambda: old_graph_op(
                "AdjustContrast", [("images", arr(x, dt)), ("contrast_factor", f32(factor)),
                                   ("min_value", np.asarray(lo, f32)),
                                   ("max_value", np.asarray(hi, f32))],
                {"T": _tdt(dt)}, producer=1), rtol=1e-6, atol=1e-5, error=error,
                phrases=phrases)
        x = rand(dt, [2, 4, 5, 3], "ac" + dt, "small")
        c("batch", x)
        c("lower_contrast", x, 0.25)
        c("clamped", x, 3.0, -1.5, 2.0)
        c("one_image", x[0])
        c("empty", x[:, :0])
        c("rank_error", x[0, 0], error="INVALID_ARGUMENT",
          phrases=["input must be at least 3-D, got shape[5,3]"])
        c("factor_rank_error", x, [2.0], error="INVALID_ARGUMENT",
          phrases=["contrast_factor must be scalar: [1]"])
    rec.for_dtypes("AdjustContrast", ["uint8", "int8", "int16", "int32", "int64", "float32",
                                      "float64"], gen)


def build_all(rec, emit):
    batch_matrix_diag_ops(rec)
    for op in ["BatchMatrixDiag", "BatchMatrixDiagPart", "BatchMatrixSetDiag",
               "BatchMatrixBandPart"]:
        emit(op)
    batch_linalg(rec)
    for op in BATCH_LINALG:
        emit(op)
    quantize_and_dequantize_v1(rec)
    emit("QuantizeAndDequantize")
    bias_add_v1(rec)
    emit("BiasAddV1")
    in_top_k(rec)
    emit("InTopK")
    batch_norm_global(rec)
    emit("BatchNormWithGlobalNormalization")
    matrix_diag_v2(rec)
    for op in ["MatrixDiagV2", "MatrixDiagPartV2", "MatrixSetDiagV2"]:
        emit(op)
    pass_through(rec)
    emit("GuaranteeConst")
    emit("DeepCopy")
    accumulate_n_v2(rec)
    emit("AccumulateNV2")
    conjugate_transpose(rec)
    emit("ConjugateTranspose")
    data_format(rec)
    emit("DataFormatDimMap")
    emit("DataFormatVecPermute")
    inplace_ops(rec)
    for op in ["InplaceAdd", "InplaceSub", "InplaceUpdate"]:
        emit(op)
    list_diff(rec)
    emit("ListDiff")
    non_max_suppression_v1(rec)
    emit("NonMaxSuppression")
    string_split_v1(rec)
    emit("StringSplit")
    adjust_contrast_v1(rec)
    emit("AdjustContrast")
