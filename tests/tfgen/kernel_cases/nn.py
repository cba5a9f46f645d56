"""Issue 8's neural-network kernels: MatMul, SparseMatMul, BatchMatMul, BatchMatMulV2, Einsum,
BiasAdd, Softmax, LogSoftmax, L2Loss, Conv2D, Conv2DBackpropInput, DepthwiseConv2dNative,
SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits, MaxPool, MaxPoolV2, AvgPool,
FusedBatchNorm/V2/V3, LRN, ResizeBilinear, ResizeNearestNeighbor."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import FLOATS, arr, const, ph, rand, seed_of

tf1 = tf.compat.v1

# Accumulating ops: float32 sums of up to a few hundred products of O(1) values.
ACC_TOL = {"float32": (1e-5, 1e-5), "float64": (1e-12, 1e-12), "half": (2e-3, 2e-3)}
ROW_TOL = {"float32": (1e-6, 1e-7), "float64": (1e-12, 1e-14), "half": (1e-3, 1e-3)}
MATMUL_TYPES = ["float32", "float64", "half", "int32", "int64"]


def _tol(table, dt):
    return table.get(dt, (0.0, 0.0))


def _values(dt, shape, seed):
    return rand(dt, shape, seed, "small")


def matmul(rec):
    def gen(dt):
        rtol, atol = _tol(ACC_TOL, dt)

        def c(what, a, b, ta=False, tb=False, error=None, phrases=()):
            rec.case("MatMul", dt, what, lambda: tf.raw_ops.MatMul(
                a=ph("x", a, dt), b=ph("y", b, dt), transpose_a=ta, transpose_b=tb, name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        s = "MatMul/" + dt
        c("square", _values(dt, [4, 4], s + "/a"), _values(dt, [4, 4], s + "/b"))
        c("rect", _values(dt, [3, 5], s + "/c"), _values(dt, [5, 2], s + "/d"))
        c("transpose_a", _values(dt, [5, 3], s + "/e"), _values(dt, [5, 2], s + "/f"), ta=True)
        c("transpose_b", _values(dt, [3, 5], s + "/g"), _values(dt, [2, 5], s + "/h"), tb=True)
        c("transpose_both", _values(dt, [5, 3], s + "/i"), _values(dt, [2, 5], s + "/j"), True, True)
        c("zero_inner", _values(dt, [3, 0], s + "/k"), _values(dt, [0, 2], s + "/l"))
        c("zero_rows", _values(dt, [0, 3], s + "/m"), _values(dt, [3, 2], s + "/n"))
        c("inner_mismatch_error", _values(dt, [2, 3], s + "/o"), _values(dt, [2, 2], s + "/p"),
          error="INVALID_ARGUMENT", phrases=["Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2]"])
        if dt == "float32":
            c("large_64", _values(dt, [64, 64], s + "/q"), _values(dt, [64, 64], s + "/r"))
        if dt in ("float32", "float64"):
            # Subnormal weights and products: TensorFlow's kernels run with FTZ/DAZ, so both are
            # 0 (compared exactly).
            tiny = float(np.finfo(np.dtype(dt)).tiny)
            sub, r = tiny / 12, float(np.sqrt(tiny / 4))
            a, b = arr([[1, 1], [r, r], [3, -1]], dt), arr([[sub, r, 1], [sub, r, sub]], dt)
            rec.case("MatMul", dt, "subnormals_flushed", lambda: tf.raw_ops.MatMul(
                a=ph("x", a, dt), b=ph("y", b, dt), name="out"))

    rec.for_dtypes("MatMul", MATMUL_TYPES, gen)


SPARSE_MATMUL_PAIRS = [("float32", "float32"), ("float32", "bfloat16"), ("bfloat16", "float32"),
                       ("bfloat16", "bfloat16")]


def _grid(shape, seed, zeros=0.6):
    """Multiples of 1/8 below 8 in magnitude, about `zeros` of them 0: exact in bfloat16, and
    their products' sums are exact in float32 whatever the order."""
    rs = np.random.RandomState(seed_of(seed))
    v = rs.randint(-63, 64, size=shape) / 8.0
    v[rs.random_sample(size=shape) < zeros] = 0.0
    return v


def sparse_matmul(rec):
    """SparseMatMul (TF1's tf.matmul(a_is_sparse=...), mixed float / bfloat16 products): every
    (Ta, Tb) pair TensorFlow's CPU kernel registers, each sparse flag, transposes, the flagged
    operand's zeros meeting Inf / NaN in the other (skipped there, NaN in a dense product)."""
    bf16 = tf.bfloat16.as_numpy_dtype

    def gen(pair):
        ta_name, tb_name = pair.split("_")
        np_a = bf16 if ta_name == "bfloat16" else np.float32
        np_b = bf16 if tb_name == "bfloat16" else np.float32

        def c(what, a, b, rtol=0.0, atol=0.0, error=None, phrases=(), **attrs):
            a, b = np.asarray(a).astype(np_a), np.asarray(b).astype(np_b)
            rec.case("SparseMatMul", pair, what, lambda: tf.raw_ops.SparseMatMul(
                a=ph("x", a), b=ph("y", b), name="out", **attrs), rtol=rtol, atol=atol,
                error=error, phrases=phrases, case_dtype="float32")

        s = "SparseMatMul/" + pair
        for flags in ("dense", "a_sparse", "b_sparse", "both_sparse"):
            f = {"a_is_sparse": flags in ("a_sparse", "both_sparse"),
                 "b_is_sparse": flags in ("b_sparse", "both_sparse")}
            c(flags, _grid([3, 5], s + flags + "/a"), _grid([5, 4], s + flags + "/b"), **f)
            c(flags + "_transpose_a", _grid([5, 3], s + flags + "/c"),
              _grid([5, 4], s + flags + "/d"), transpose_a=True, **f)
            c(flags + "_transpose_b", _grid([3, 5], s + flags + "/e"),
              _grid([4, 5], s + flags + "/f"), transpose_b=True, **f)
            c(flags + "_transpose_both", _grid([5, 3], s + flags + "/g"),
              _grid([4, 5], s + flags + "/h"), transpose_a=True, transpose_b=True, **f)
            # Zeros of each operand under Inf / NaN of the other (-0 counts as a zero).
            inf, nan = np.inf, np.nan
            a = [[0.0, 1.0, -0.0], [1.0, 2.0, 0.5], [inf, 0.0, 1.0]]
            b = [[inf, 1.0], [2.0, nan], [-inf, 0.0]]
            c(flags + "_zeros_meet_inf_nan", a, b, **f)
            c(flags + "_zeros_meet_inf_nan_swapped", b, a, transpose_a=True, transpose_b=True, **f)
        c("a_sparse_64x48x32", _grid([64, 48], s + "/i"), _grid([48, 32], s + "/j", 0.0),
          a_is_sparse=True)
        c("dense_64x48x32", _grid([64, 48], s + "/k", 0.1), _grid([48, 32], s + "/l", 0.1))
        if pair == "float32_float32":
            rs = np.random.RandomState(seed_of(s + "/m"))
            a = rs.standard_normal([40, 30]) * (rs.random_sample([40, 30]) < 0.3)
            b = rs.standard_normal([30, 20])
            for flags in ("dense", "a_sparse", "b_sparse"):
                c("random_" + flags, a, b, rtol=1e-5, atol=1e-5,
                  a_is_sparse=flags == "a_sparse", b_is_sparse=flags == "b_sparse")
        c("zero_inner", np.zeros([3, 0]), np.zeros([0, 2]), a_is_sparse=True)
        c("zero_inner_dense", np.zeros([3, 0]), np.zeros([0, 2]))
        c("zero_rows", np.zeros([0, 3]), _grid([3, 2], s + "/n"), a_is_sparse=True)
        c("zero_cols", _grid([2, 3], s + "/o"), np.zeros([3, 0]), b_is_sparse=True)
        c("a_not_matrix_error", np.ones([2, 3, 4]), np.ones([4, 2]), error="INVALID_ARGUMENT",
          phrases=["a is not a matrix"])
        c("b_not_matrix_error", np.ones([2, 3]), np.ones([3]), a_is_sparse=True,
          error="INVALID_ARGUMENT", phrases=["b is not a matrix"])
        c("inner_mismatch_error", np.ones([2, 3]), np.ones([2, 2]), error="INVALID_ARGUMENT",
          phrases=["Matrix size incompatible: a: [2,3], b: [2,2]"])
        c("inner_mismatch_transposed_error", np.ones([2, 3]), np.ones([2, 4]), transpose_a=True,
          transpose_b=True, b_is_sparse=True, error="INVALID_ARGUMENT",
          phrases=["Matrix size incompatible: a: [2,3], b: [2,4]"])

    rec.for_dtypes("SparseMatMul", ["%s_%s" % p for p in SPARSE_MATMUL_PAIRS], gen)


def batch_matmul(rec, op):
    def gen(dt):
        rtol, atol = _tol(ACC_TOL, dt)

        def c(what, x, y, adj_x=False, adj_y=False, error=None, phrases=()):
            extra = {"Tout": tf.as_dtype(dt)} if op == "BatchMatMulV3" else {}
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                x=ph("x", x, dt), y=ph("y", y, dt), adj_x=adj_x, adj_y=adj_y, name="out",
                **extra), rtol=rtol, atol=atol, error=error, phrases=phrases)

        s = op + "/" + dt
        c("batch3", _values(dt, [3, 2, 4], s + "/a"), _values(dt, [3, 4, 5], s + "/b"))
        c("adj_x", _values(dt, [2, 4, 3], s + "/c"), _values(dt, [2, 4, 2], s + "/d"), adj_x=True)
        c("adj_y", _values(dt, [2, 3, 4], s + "/e"), _values(dt, [2, 5, 4], s + "/f"), adj_y=True)
        c("rank4", _values(dt, [2, 2, 3, 2], s + "/g"), _values(dt, [2, 2, 2, 3], s + "/h"))
        if op in ("BatchMatMulV2", "BatchMatMulV3"):
            c("broadcast_batch", _values(dt, [2, 1, 3, 4], s + "/i"),
              _values(dt, [3, 4, 2], s + "/j"))
            c("matrix_rhs", _values(dt, [2, 3, 4], s + "/k"), _values(dt, [4, 2], s + "/l"))
            c("batch_mismatch_error", _values(dt, [2, 2, 3], s + "/m"),
              _values(dt, [3, 3, 2], s + "/n"), error="INVALID_ARGUMENT",
              phrases=["must have compatible batch dimensions"])
        c("inner_mismatch_error", _values(dt, [2, 2, 3], s + "/o"), _values(dt, [2, 2, 3], s + "/p"),
          error="INVALID_ARGUMENT", phrases=["Matrix size-incompatible"])

    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64"], gen)


def einsum(rec):
    def gen(dt):
        # half is compared bit for bit: Rill adds in TensorFlow's order for each of its
        # BatchMatMul paths (kernels/math/half_gemm.h).
        rtol, atol = (0.0, 0.0) if dt == "half" else _tol(ACC_TOL, dt)

        def c(what, eq, *operands):
            rec.case("Einsum", dt, what, lambda: tf.raw_ops.Einsum(
                inputs=[ph("x%d" % i, v, dt) for i, v in enumerate(operands)], equation=eq,
                name="out"), rtol=rtol, atol=atol)

        s = "Einsum/" + dt
        c("matmul", "ij,jk->ik", _values(dt, [3, 4], s + "/a"), _values(dt, [4, 2], s + "/b"))
        c("batch_matmul", "bij,bjk->bik", _values(dt, [2, 3, 4], s + "/c"),
          _values(dt, [2, 4, 5], s + "/d"))
        c("transpose", "ij->ji", _values(dt, [3, 4], s + "/e"))
        c("attention_scores", "bhqd,bhkd->bhqk", _values(dt, [2, 2, 3, 4], s + "/f"),
          _values(dt, [2, 2, 5, 4], s + "/g"))
        c("row_sum", "ij->i", _values(dt, [3, 4], s + "/h"))
        c("outer", "i,j->ij", _values(dt, [3], s + "/i"), _values(dt, [4], s + "/j"))
        c("ellipsis", "...ij,...jk->...ik", _values(dt, [2, 3, 4], s + "/k"),
          _values(dt, [2, 4, 2], s + "/l"))
        # Labels repeated within an operand: diagonals and traces.
        c("diagonal", "ii->i", _values(dt, [3, 3], s + "/m"))
        c("batch_trace", "bii->b", _values(dt, [2, 3, 3], s + "/n"))
        c("trace", "ii->", _values(dt, [4, 4], s + "/o"))
        c("diagonal_kept_order", "iji->ji", _values(dt, [3, 2, 3], s + "/p"))
        c("diagonal_times_matrix", "ijj,jk->ik", _values(dt, [2, 3, 3], s + "/q"),
          _values(dt, [3, 2], s + "/r"))
        c("ellipsis_diagonal", "i...i->...i", _values(dt, [3, 2, 3], s + "/s"))
        if dt == "half":
            # TensorFlow's other half paths: the block-panel kernel's packet, split and scalar
            # columns (batched, m + n + k >= 20), and unaligned packets of the small product.
            c("block_panel_columns", "bij,bjk->bik", _values(dt, [2, 6, 20], s + "/t"),
              _values(dt, [2, 20, 29], s + "/u"))
            c("small_unaligned_rows", "bij,bjk->bik", _values(dt, [2, 3, 4], s + "/v"),
              _values(dt, [2, 4, 12], s + "/w"))
            c("heads_transposed", "bqhd,bkhd->bhqk", _values(dt, [2, 9, 2, 16], s + "/x"),
              _values(dt, [2, 11, 2, 16], s + "/y"))

    rec.for_dtypes("Einsum", ["float32", "float64", "half", "int32", "int64"], gen)


def bias_add(rec):
    def gen(dt):
        def c(what, x, b, fmt="NHWC", error=None, phrases=()):
            rec.case("BiasAdd", dt, what, lambda: tf.raw_ops.BiasAdd(
                value=ph("x", x, dt), bias=ph("y", b, dt), data_format=fmt, name="out"),
                error=error, phrases=phrases)

        s = "BiasAdd/" + dt
        c("matrix", rand(dt, [3, 4], s + "/a"), rand(dt, [4], s + "/b"))
        c("nhwc", rand(dt, [2, 3, 2, 4], s + "/c"), rand(dt, [4], s + "/d"))
        c("nchw", rand(dt, [2, 3, 2, 2], s + "/e"), rand(dt, [3], s + "/f"), fmt="NCHW")
        c("count_error", rand(dt, [2, 3], s + "/g"), rand(dt, [2], s + "/h"),
          error="INVALID_ARGUMENT", phrases=["Must provide as many biases as the last dimension"])
        c("rank1_error", rand(dt, [3], s + "/i"), rand(dt, [3], s + "/j"),
          error="INVALID_ARGUMENT", phrases=["Input tensor must be at least 2D: [3]"])
        c("bias_rank_error", rand(dt, [2, 3], s + "/k"), rand(dt, [1, 3], s + "/l"),
          error="INVALID_ARGUMENT", phrases=["Biases must be 1D: [1,3]"])

    rec.for_dtypes("BiasAdd", ["float32", "float64", "half", "int32", "int64", "uint8", "int8",
                               "int16"], gen)


def softmax(rec, op):
    def gen(dt):
        # half is compared bit for bit: each step rounded to half, the row sum in Eigen's order.
        rtol, atol = (0.0, 0.0) if dt == "half" else _tol(ROW_TOL, dt)

        def c(what, x, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(logits=ph("x", x, dt),
                                                                  name="out"),
                     rtol=rtol, atol=atol, error=error, phrases=phrases)

        s = op + "/" + dt
        c("matrix", rand(dt, [3, 5], s + "/a"))
        c("rank3", rand(dt, [2, 2, 4], s + "/b"))
        c("large_logits", arr([[1000, 1001, 999], [-1000, -1000, -1000]], dt))
        c("vector", rand(dt, [6], s + "/c"))
        if dt == "half":
            c("rows_of_40", rand(dt, [3, 40], s + "/d", "small"))
        c("scalar_error", arr(1, dt), error="INVALID_ARGUMENT",
          phrases=["logits must have >= 1 dimension"])

    rec.for_dtypes(op, FLOATS, gen)


def l2loss(rec):
    def gen(dt):
        rtol, atol = _tol(ACC_TOL, dt)

        def c(what, x):
            rec.case("L2Loss", dt, what, lambda: tf.raw_ops.L2Loss(t=ph("x", x, dt), name="out"),
                     rtol=rtol, atol=atol)

        c("matrix", rand(dt, [4, 5], "L2Loss/%s/a" % dt, "small"))
        c("empty", rand(dt, [0], "L2Loss/%s/b" % dt))

    rec.for_dtypes("L2Loss", FLOATS, gen)


def _conv_case(rec, op, dt, what, build, error=None, phrases=()):
    rtol, atol = _tol(ACC_TOL, dt)
    rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)


def conv2d(rec):
    def gen(dt):
        s = "Conv2D/" + dt

        def c(what, in_shape, f_shape, strides, padding, dilations=(1, 1, 1, 1), explicit=(),
              fmt="NHWC", error=None, phrases=()):
            x = _values(dt, in_shape, s + "/" + what + "/x")
            f = _values(dt, f_shape, s + "/" + what + "/f")
            _conv_case(rec, "Conv2D", dt, what, lambda: tf.raw_ops.Conv2D(
                input=ph("x", x, dt), filter=ph("y", f, dt), strides=list(strides),
                padding=padding, explicit_paddings=list(explicit), data_format=fmt,
                dilations=list(dilations), name="out"), error, phrases)

        c("valid_3x3", [2, 5, 6, 3], [3, 3, 3, 4], [1, 1, 1, 1], "VALID")
        c("same_3x3", [1, 5, 6, 3], [3, 3, 3, 2], [1, 1, 1, 1], "SAME")
        c("same_stride2", [1, 7, 6, 2], [3, 3, 2, 3], [1, 2, 2, 1], "SAME")
        c("valid_stride2_5x5", [1, 9, 9, 2], [5, 5, 2, 2], [1, 2, 2, 1], "VALID")
        c("pointwise", [2, 4, 4, 5], [1, 1, 5, 3], [1, 1, 1, 1], "VALID")
        c("dilated", [1, 8, 8, 2], [3, 3, 2, 2], [1, 1, 1, 1], "SAME", dilations=(1, 2, 2, 1))
        c("explicit", [1, 4, 5, 2], [3, 2, 2, 3], [1, 1, 1, 1], "EXPLICIT",
          explicit=(0, 0, 1, 2, 2, 0, 0, 0))
        c("rect_filter_stride", [1, 6, 8, 1], [2, 3, 1, 2], [1, 2, 3, 1], "SAME")
        c("depth_error", [1, 4, 4, 3], [3, 3, 2, 2], [1, 1, 1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["input depth must be evenly divisible by filter depth"])
        c("input_rank_error", [4, 4, 3], [3, 3, 3, 2], [1, 1, 1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["convolution input must be 4-dimensional: [4,4,3]"])
        c("filter_rank_error", [1, 4, 4, 3], [3, 3, 3], [1, 1, 1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["convolution filter must be 4-dimensional: [3,3,3]"])
        # Grouped: input depth a multiple G of the filter's input depth.
        c("grouped_same", [1, 5, 5, 6], [3, 3, 2, 6], [1, 1, 1, 1], "SAME")
        c("grouped_valid_stride2", [2, 7, 8, 4], [3, 3, 1, 4], [1, 2, 2, 1], "VALID")
        c("grouped_dilated", [1, 8, 8, 6], [3, 3, 3, 4], [1, 1, 1, 1], "SAME",
          dilations=(1, 2, 2, 1))
        c("groups_output_depth_error", [1, 5, 5, 6], [3, 3, 2, 4], [1, 1, 1, 1], "SAME",
          error="INVALID_ARGUMENT",
          phrases=["output depth must be evenly divisible by number of groups: 4 vs 3"])
        c("zero_filter_depth_error", [1, 5, 5, 6], [3, 3, 0, 6], [1, 1, 1, 1], "SAME",
          error="INVALID_ARGUMENT", phrases=["filter depth must be stricly positive, got 0"])

    rec.for_dtypes("Conv2D", ["float32", "float64", "half", "int32"], gen)


def conv2d_backprop_input(rec):
    def gen(dt):
        s = "Conv2DBackpropInput/" + dt

        def c(what, in_shape, f_shape, out_shape, strides, padding, error=None, phrases=()):
            f = _values(dt, f_shape, s + "/" + what + "/f")
            g = _values(dt, out_shape, s + "/" + what + "/g")
            _conv_case(rec, "Conv2DBackpropInput", dt, what,
                       lambda: tf.raw_ops.Conv2DBackpropInput(
                           input_sizes=const("input_sizes", in_shape), filter=ph("x", f, dt),
                           out_backprop=ph("y", g, dt), strides=list(strides), padding=padding,
                           name="out"), error, phrases)

        c("same_stride1", [1, 5, 5, 2], [3, 3, 2, 3], [1, 5, 5, 3], [1, 1, 1, 1], "SAME")
        c("same_stride2", [2, 6, 6, 2], [3, 3, 2, 2], [2, 3, 3, 2], [1, 2, 2, 1], "SAME")
        c("valid_stride2", [1, 7, 7, 1], [3, 3, 1, 2], [1, 3, 3, 2], [1, 2, 2, 1], "VALID")
        c("grouped_error", [1, 5, 5, 6], [3, 3, 2, 6], [1, 5, 5, 6], [1, 1, 1, 1], "SAME",
          error="INVALID_ARGUMENT",
          phrases=["Gradients for grouped convolutions are not supported on CPU. Please file a "
                   "feature request if you run into this issue. Computed input depth 6 doesn't "
                   "match filter input depth 2"])

    rec.for_dtypes("Conv2DBackpropInput", ["float32", "float64", "half", "int32"], gen)


def depthwise(rec):
    def gen(dt):
        s = "DepthwiseConv2dNative/" + dt

        def c(what, in_shape, f_shape, strides, padding, error=None, phrases=()):
            x = _values(dt, in_shape, s + "/" + what + "/x")
            f = _values(dt, f_shape, s + "/" + what + "/f")
            # half is compared bit for bit: TensorFlow rounds the accumulator to half after each
            # tap (a float multiply-add), and Rill does the same.
            rtol, atol = (0.0, 0.0) if dt == "half" else _tol(ACC_TOL, dt)
            rec.case("DepthwiseConv2dNative", dt, what, lambda: tf.raw_ops.DepthwiseConv2dNative(
                input=ph("x", x, dt), filter=ph("y", f, dt), strides=list(strides),
                padding=padding, name="out"), rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("same_mult1", [2, 5, 5, 3], [3, 3, 3, 1], [1, 1, 1, 1], "SAME")
        c("valid_mult2", [1, 6, 5, 2], [3, 3, 2, 2], [1, 1, 1, 1], "VALID")
        c("same_stride2", [1, 7, 7, 4], [3, 3, 4, 1], [1, 2, 2, 1], "SAME")
        c("depth_error", [1, 4, 4, 3], [3, 3, 2, 1], [1, 1, 1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["input and filter must have the same depth"])

    rec.for_dtypes("DepthwiseConv2dNative", ["float32", "float64", "half"], gen)


def xent(rec, op):
    def gen(dt):
        rtol, atol = _tol(ROW_TOL, dt)
        s = op + "/" + dt

        def c(what, logits, labels, ldt=None, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                features=ph("x", logits, dt), labels=ph("y", labels, ldt or dt), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        logits = rand(dt, [4, 5], s + "/a")
        if op == "SoftmaxCrossEntropyWithLogits":
            probs = np.random.RandomState(3).dirichlet(np.ones(5), size=4)
            c("soft_labels", logits, arr(probs, dt))
            c("one_hot", logits, arr(np.eye(5)[[0, 3, 4, 1]], dt))
            c("broadcast_labels", logits, arr(np.eye(5)[[2]], dt))
            c("rank1_error", rand(dt, [5], s + "/b"), rand(dt, [5], s + "/c"),
              error="INVALID_ARGUMENT", phrases=["must be either 2-dimensional"])
            c("not_broadcastable_error", logits, rand(dt, [4, 3], s + "/d"),
              error="INVALID_ARGUMENT",
              phrases=["logits and labels must be broadcastable: logits_size=[4,5] "
                       "labels_size=[4,3]"])
        else:
            for ldt in ("int32", "int64"):
                c("labels_" + ldt, logits, np.array([0, 4, 2, 1], dtype=ldt), ldt)
            c("label_out_of_range_error", logits, np.array([0, 5, 2, 1], dtype="int32"), "int32",
              error="INVALID_ARGUMENT",
              phrases=["Received a label value of 5 which is outside the valid range of [0, 5)"])
            c("negative_label_error", logits, np.array([0, -1, 2, 1], dtype="int32"), "int32",
              error="INVALID_ARGUMENT",
              phrases=["Received a label value of -1 which is outside the valid range of [0, 5).  "
                       "Label values: 0 -1 2 1"])
            c("labels_rank_error", logits, np.array([[0], [1], [2], [3]], dtype="int32"), "int32",
              error="INVALID_ARGUMENT", phrases=["labels must be 1-D, but got shape [4,1]"])
            c("batch_mismatch_error", logits, np.array([0, 1], dtype="int32"), "int32",
              error="INVALID_ARGUMENT",
              phrases=["logits and labels must have the same first dimension, got logits shape "
                       "[4,5] and labels shape [2]"])

    rec.for_dtypes(op, FLOATS, gen)


def build_all(rec, emit):
    matmul(rec)
    emit("MatMul")
    sparse_matmul(rec)
    emit("SparseMatMul")
    for op in ("BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"):
        batch_matmul(rec, op)
        emit(op)
    einsum(rec)
    emit("Einsum")
    bias_add(rec)
    emit("BiasAdd")
    for op in ("Softmax", "LogSoftmax"):
        softmax(rec, op)
        emit(op)
    l2loss(rec)
    emit("L2Loss")
    conv2d(rec)
    emit("Conv2D")
    conv2d_backprop_input(rec)
    emit("Conv2DBackpropInput")
    depthwise(rec)
    emit("DepthwiseConv2dNative")
    for op in ("SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits"):
        xent(rec, op)
        emit(op)
    build_all_pool_norm(rec, emit)
    build_all_grads(rec, emit)


# --- pooling, batch norm, LRN, resizing -------------------------------------------------------
INT_AND_FLOAT = ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16"]


def pool(rec, op, dtypes):
    def gen(dt):
        rtol, atol = _tol(ROW_TOL, dt)
        s = op + "/" + dt

        def c(what, shape, ksize, strides, padding, error=None, phrases=()):
            x = rand(dt, shape, s + "/" + what)

            def build():
                if op == "MaxPoolV2":
                    return tf.raw_ops.MaxPoolV2(input=ph("x", x, dt), ksize=const("ksize", ksize),
                                                strides=const("strides", strides),
                                                padding=padding, name="out")
                return getattr(tf.raw_ops, op)(**{"input" if op == "MaxPool" else "value":
                                                  ph("x", x, dt)}, ksize=ksize, strides=strides,
                                               padding=padding, name="out")
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("valid_2x2", [2, 4, 6, 3], [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        c("same_3x3_stride2", [1, 5, 7, 2], [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        c("same_overlap", [1, 4, 4, 1], [1, 3, 3, 1], [1, 1, 1, 1], "SAME")
        c("rect", [2, 6, 5, 2], [1, 3, 2, 1], [1, 2, 1, 1], "VALID")
        c("window_too_large_error", [1, 1, 1, 1], [1, 3, 3, 1], [1, 1, 1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["Computed output size would be negative"])

    rec.for_dtypes(op, dtypes, gen)


def fused_batch_norm(rec, op, dtypes):
    def gen(dt):
        rtol, atol = {"float32": (1e-5, 1e-5), "half": (2e-3, 2e-3)}[dt]
        s = op + "/" + dt

        def c(what, shape, training, fmt="NHWC", exp_avg=1.0):
            channels = shape[1] if fmt == "NCHW" else shape[-1]
            x = rand(dt, shape, s + "/" + what + "/x")
            vec = [rand("float32", [channels], s + "/" + what + "/" + n, k)
                   for n, k in (("scale", "any"), ("offset", "any"), ("mean", "any"),
                                ("var", "positive"))]

            def build():
                outs = getattr(tf.raw_ops, op)(
                    x=ph("x", x, dt), scale=ph("scale", vec[0]), offset=ph("offset", vec[1]),
                    mean=ph("mean", vec[2]), variance=ph("variance", vec[3]), epsilon=0.001,
                    exponential_avg_factor=exp_avg, data_format=fmt, is_training=training,
                    name="out")
                return list(outs[:3])  # y, batch_mean, batch_variance (reserve spaces are opaque)
            rec.case(op, dt, what, build, rtol=rtol, atol=atol)

        c("inference_nhwc", [2, 3, 4, 5], False)
        c("inference_nchw", [2, 5, 3, 4], False, fmt="NCHW")
        c("training_nhwc", [2, 3, 4, 5], True)
        if op != "FusedBatchNorm":
            c("training_running_average", [2, 3, 3, 4], True, exp_avg=0.3)

    rec.for_dtypes(op, dtypes, gen)


def lrn(rec):
    def gen(dt):
        rtol, atol = _tol(ROW_TOL, dt) if dt == "half" else (1e-5, 1e-6)

        def c(what, shape, **attrs):
            x = rand(dt, shape, "LRN/%s/%s" % (dt, what))
            rec.case("LRN", dt, what, lambda: tf.raw_ops.LRN(input=ph("x", x, dt), name="out",
                                                             **attrs), rtol=rtol, atol=atol)

        c("defaults", [1, 2, 2, 7])
        c("radius2", [2, 3, 1, 6], depth_radius=2, bias=2.0, alpha=0.1, beta=0.75)
        x = rand(dt, [3, 4, 5], "LRN/%s/rank" % dt)
        rec.case("LRN", dt, "rank_error", lambda: tf.raw_ops.LRN(input=ph("x", x, dt),
                                                                name="out"),
                 error="INVALID_ARGUMENT", phrases=["in must be 4-dimensional"])

    rec.for_dtypes("LRN", ["float32", "half"], gen)


def resize(rec, op):
    def gen(dt):
        rtol, atol = (1e-5, 1e-5) if dt != "half" else (2e-3, 2e-3)
        s = op + "/" + dt

        def c(what, shape, size, align=False, half_pixel=False):
            x = rand(dt, shape, s + "/" + what)
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                images=ph("x", x, dt), size=const("size", size), align_corners=align,
                half_pixel_centers=half_pixel, name="out"), rtol=rtol, atol=atol)

        c("upsample", [1, 3, 4, 2], [6, 7])
        c("downsample", [2, 6, 5, 1], [3, 2])
        c("align_corners", [1, 3, 4, 2], [5, 7], align=True)
        c("half_pixel_centers", [1, 3, 4, 2], [5, 9], half_pixel=True)
        for what, shape, size, align, half_pixel, phrase in (
                ("rank_error", [3, 4, 2], [5, 5], False, False, "input must be 4-dimensional"),
                ("zero_size_error", [1, 3, 4, 2], [0, 5], False, False,
                 "output dimensions must be positive"),
                ("both_flags_error", [1, 3, 4, 2], [5, 5], True, True,
                 "If half_pixel_centers is True, align_corners must be False.")):
            x = rand(dt, shape, s + "/" + what)
            rec.case(op, dt, what, lambda x=x, size=size, align=align, half_pixel=half_pixel:
                     getattr(tf.raw_ops, op)(images=ph("x", x, dt), size=const("size", size),
                                             align_corners=align,
                                             half_pixel_centers=half_pixel, name="out"),
                     error="INVALID_ARGUMENT", phrases=[phrase])

    rec.for_dtypes(op, INT_AND_FLOAT, gen)


def build_all_pool_norm(rec, emit):
    pool(rec, "MaxPool", INT_AND_FLOAT)
    emit("MaxPool")
    pool(rec, "MaxPoolV2", INT_AND_FLOAT)
    emit("MaxPoolV2")
    pool(rec, "AvgPool", FLOATS)
    emit("AvgPool")
    fused_batch_norm(rec, "FusedBatchNorm", ["float32"])
    emit("FusedBatchNorm")
    for op in ("FusedBatchNormV2", "FusedBatchNormV3"):
        fused_batch_norm(rec, op, ["float32", "half"])
        emit(op)
    lrn(rec)
    emit("LRN")
    for op in ("ResizeBilinear", "ResizeNearestNeighbor"):
        resize(rec, op)
        emit(op)


# --- gradients of convolution, pooling and batch normalization ----------------------------------

def conv2d_backprop_filter(rec):
    def gen(dt):
        s = "Conv2DBackpropFilter/" + dt

        def c(what, in_shape, f_shape, out_shape, strides, padding):
            x = _values(dt, in_shape, s + "/" + what + "/x")
            g = _values(dt, out_shape, s + "/" + what + "/g")
            _conv_case(rec, "Conv2DBackpropFilter", dt, what,
                       lambda: tf.raw_ops.Conv2DBackpropFilter(
                           input=ph("x", x, dt), filter_sizes=const("filter_sizes", f_shape),
                           out_backprop=ph("y", g, dt), strides=list(strides), padding=padding,
                           name="out"))

        c("same_stride1", [2, 5, 5, 2], [3, 3, 2, 3], [2, 5, 5, 3], [1, 1, 1, 1], "SAME")
        c("same_stride2", [1, 6, 7, 3], [3, 3, 3, 2], [1, 3, 4, 2], [1, 2, 2, 1], "SAME")
        c("valid_5x5", [1, 8, 8, 1], [5, 5, 1, 4], [1, 4, 4, 4], [1, 1, 1, 1], "VALID")

    rec.for_dtypes("Conv2DBackpropFilter", ["float32", "float64"], gen)


def _pooled_shape(shape, ksize, strides, padding):
    out = list(shape)
    for d in (1, 2):
        out[d] = (-(-shape[d] // strides[d]) if padding == "SAME"
                  else (shape[d] - ksize[d]) // strides[d] + 1)
    return out


def pool_grad(rec, op):
    def gen(dt):
        rtol, atol = _tol(ACC_TOL, dt)
        s = op + "/" + dt

        def c(what, shape, ksize, strides, padding):
            x = rand(dt, shape, s + "/" + what + "/x")
            g_value = rand(dt, _pooled_shape(shape, ksize, strides, padding), s + "/" + what + "/g")

            def build():
                xi = ph("x", x, dt)
                if op == "MaxPoolGrad":
                    y = tf.raw_ops.MaxPool(input=xi, ksize=ksize, strides=strides, padding=padding)
                    g = ph("g", g_value, dt)
                    return tf.raw_ops.MaxPoolGrad(orig_input=xi, orig_output=y, grad=g,
                                                  ksize=ksize, strides=strides, padding=padding,
                                                  name="out")
                g = ph("g", g_value, dt)
                return tf.raw_ops.AvgPoolGrad(orig_input_shape=const("shape", shape), grad=g,
                                              ksize=ksize, strides=strides, padding=padding,
                                              name="out")
            rec.case(op, dt, what, build, rtol=rtol, atol=atol)

        c("valid_2x2", [2, 4, 6, 3], [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        c("same_3x3_stride2", [1, 5, 7, 2], [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        c("same_overlap", [1, 4, 4, 1], [1, 3, 3, 1], [1, 1, 1, 1], "SAME")

    rec.for_dtypes(op, ["float32", "float64"] if op == "MaxPoolGrad" else FLOATS, gen)


def fused_batch_norm_grad(rec, op, dtypes):
    def gen(dt):
        rtol, atol = {"float32": (1e-4, 1e-5), "half": (3e-3, 3e-3)}[dt]
        s = op + "/" + dt
        forward = {"FusedBatchNormGrad": "FusedBatchNorm", "FusedBatchNormGradV2":
                   "FusedBatchNormV2", "FusedBatchNormGradV3": "FusedBatchNormV3"}[op]

        def c(what, shape, training):
            channels = shape[-1]
            x = rand(dt, shape, s + "/" + what + "/x")
            dy = rand(dt, shape, s + "/" + what + "/dy")
            vec = [rand("float32", [channels], s + "/" + what + "/" + n, k)
                   for n, k in (("scale", "any"), ("offset", "any"), ("mean", "any"),
                                ("var", "positive"))]

            def build():
                xi = ph("x", x, dt)
                fwd = getattr(tf.raw_ops, forward)(
                    x=xi, scale=ph("scale", vec[0]), offset=ph("offset", vec[1]),
                    mean=ph("mean", vec[2]), variance=ph("variance", vec[3]), epsilon=0.001,
                    is_training=training)
                # As TensorFlow's gradient function: the forward's batch moments when training,
                # the population mean and variance (its inputs) in inference.
                kwargs = dict(y_backprop=ph("dy", dy, dt), x=xi, scale=ph("scale2", vec[0]),
                              reserve_space_1=fwd[3] if training else ph("mean2", vec[2]),
                              reserve_space_2=fwd[4] if training else ph("variance2", vec[3]),
                              epsilon=0.001, is_training=training, name="out")
                if op == "FusedBatchNormGradV3":
                    kwargs["reserve_space_3"] = fwd[5]
                outs = getattr(tf.raw_ops, op)(**kwargs)
                return list(outs[:3])
            rec.case(op, dt, what, build, rtol=rtol, atol=atol)

        c("training", [2, 3, 4, 5], True)
        c("inference", [2, 3, 3, 4], False)

    rec.for_dtypes(op, dtypes, gen)


def depthwise_backprop(rec, op):
    def gen(dt):
        s = op + "/" + dt

        def c(what, in_shape, f_shape, out_shape, strides, padding):
            g = _values(dt, out_shape, s + "/" + what + "/g")
            if op.endswith("Input"):
                f = _values(dt, f_shape, s + "/" + what + "/f")
                build = lambda: tf.raw_ops.DepthwiseConv2dNativeBackpropInput(  # noqa: E731
                    input_sizes=const("input_sizes", in_shape), filter=ph("x", f, dt),
                    out_backprop=ph("y", g, dt), strides=list(strides), padding=padding,
                    name="out")
            else:
                x = _values(dt, in_shape, s + "/" + what + "/x")
                build = lambda: tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(  # noqa: E731
                    input=ph("x", x, dt), filter_sizes=const("filter_sizes", f_shape),
                    out_backprop=ph("y", g, dt), strides=list(strides), padding=padding,
                    name="out")
            _conv_case(rec, op, dt, what, build)

        c("same_mult1", [2, 5, 5, 3], [3, 3, 3, 1], [2, 5, 5, 3], [1, 1, 1, 1], "SAME")
        c("valid_mult2", [1, 6, 5, 2], [3, 3, 2, 2], [1, 4, 3, 4], [1, 1, 1, 1], "VALID")
        c("same_stride2", [1, 7, 7, 4], [3, 3, 4, 1], [1, 4, 4, 4], [1, 2, 2, 1], "SAME")

    rec.for_dtypes(op, ["float32", "float64"], gen)


def build_all_grads(rec, emit):
    for op in ("DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter"):
        depthwise_backprop(rec, op)
        emit(op)
    conv2d_backprop_filter(rec)
    emit("Conv2DBackpropFilter")
    for op in ("MaxPoolGrad", "AvgPoolGrad"):
        pool_grad(rec, op)
        emit(op)
    fused_batch_norm_grad(rec, "FusedBatchNormGrad", ["float32"])
    emit("FusedBatchNormGrad")
    for op in ("FusedBatchNormGradV2", "FusedBatchNormGradV3"):
        fused_batch_norm_grad(rec, op, ["float32", "half"])
        emit(op)
