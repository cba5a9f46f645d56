"""The complex64 / complex128 cases of the ops models meet between layers: AddN, BiasAdd,
BiasAddV1, BiasAddGrad, Transpose, ConjugateTranspose, Einsum, Select, SelectV2, Fill, ZerosLike,
OnesLike, Equal and NotEqual.

Each op gets every shape kind its kernel handles (NHWC and NCHW bias, identity and general
permutations, contractions, traces and diagonals, broadcast conditions and comparisons, empty
tensors), values with infinite, NaN and -0 parts where the op's arithmetic meets them, and
TensorFlow's errors. Additions and data movement are exact; sums of many values (BiasAddGrad)
use parts whose sums are exact; Einsum's products compare with rtol / atol 1e-5 (complex64) and
1e-12 (complex128), and its special values hold NaN parts but no infinities (TensorFlow's complex
products may follow C's Annex G rules, which turn some NaN products back into infinities).
"""
import numpy as np
import tensorflow as tf

from kernel_cases.complex_matrix import _cplx, _specials
from kernel_cases.core import COMPLEX, NP, const, ph, rand

PRODUCT_TOL = {"complex64": (1e-5, 1e-5), "complex128": (1e-12, 1e-12)}
SUM_TOL = {"complex64": (1e-5, 1e-6), "complex128": (1e-12, 1e-12)}


def _r(op, dt, shape, tag="", kind="small"):
    return rand(dt, shape, "%s/%s/%s/%s" % (op, dt, shape, tag), kind)


def _finite_nan(dt, shape, tag):
    """Values whose parts are NaN, -0, 0 and small numbers, without infinities or overflow."""
    parts = [np.nan, 0.0, -0.0, 1.0, -2.5, 7.0, 0.5]
    n = int(np.prod(shape))
    rs = np.random.RandomState(sum(map(ord, tag + dt)))
    re = [parts[k] for k in rs.randint(len(parts), size=n)]
    im = [parts[k] for k in rs.randint(len(parts), size=n)]
    return _cplx(np.reshape(re, shape), np.reshape(im, shape), dt)


def add_n(rec):
    op = "AddN"
    names = ["x", "y", "z", "w", "v"]

    def gen(dt):
        def c(what, values, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.AddN(
                inputs=[ph(names[i], v, dt) for i, v in enumerate(values)], name="out"),
                error=error, phrases=phrases)

        def r(shape, i):
            return _r(op, dt, shape, str(i), "exact_sum")

        c("one_input", [r([2, 3], 0)])
        c("two_inputs", [r([2, 3], 0), r([2, 3], 1)])
        c("five_inputs", [r([3, 4], i) for i in range(5)])
        c("two_scalars", [r([], 0), r([], 1)])
        c("zero_size", [r([0, 3], 0), r([0, 3], 1)])
        c("large_512", [r([512], 0), r([512], 1)])
        # inf + -inf is NaN in either part; NaN stays NaN; -0 + -0 is -0.
        c("specials", [_specials(dt, [10]), _specials(dt, [10])[::-1].copy(),
                       _cplx([-0.0] * 10, [1.0] * 10, dt)])
        c("shape_mismatch_error", [r([2, 3], 0), r([3, 2], 1)], error="INVALID_ARGUMENT",
          phrases=["must have the same size and shape"])

    rec.for_dtypes(op, COMPLEX, gen)


def bias_add(rec, op):
    def gen(dt):
        def c(what, x, b, fmt=None, error=None, phrases=()):
            attrs = {} if fmt is None else {"data_format": fmt}
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                value=ph("x", x, dt), bias=ph("y", b, dt), name="out", **attrs),
                error=error, phrases=phrases)

        c("matrix", _r(op, dt, [3, 4], "a"), _r(op, dt, [4], "b"))
        c("nhwc", _r(op, dt, [2, 3, 2, 4], "c"), _r(op, dt, [4], "d"))
        c("rank5", _r(op, dt, [2, 1, 2, 2, 3], "e"), _r(op, dt, [3], "f"))
        c("zero_size", _r(op, dt, [0, 3], "g"), _r(op, dt, [3], "h"))
        c("specials", _specials(dt, [2, 5]), _specials(dt, [5])[::-1].copy())
        if op == "BiasAdd":
            c("nchw", _r(op, dt, [2, 3, 2, 2], "i"), _r(op, dt, [3], "j"), fmt="NCHW")
            c("nchw_matrix", _r(op, dt, [2, 3], "k"), _r(op, dt, [3], "l"), fmt="NCHW")
            c("rank1_error", _r(op, dt, [3], "m"), _r(op, dt, [3], "n"),
              error="INVALID_ARGUMENT", phrases=["Input tensor must be at least 2D: [3]"])
            c("bias_rank_error", _r(op, dt, [2, 3], "o"), _r(op, dt, [1, 3], "p"),
              error="INVALID_ARGUMENT", phrases=["Biases must be 1D: [1,3]"])
        c("count_error", _r(op, dt, [2, 3], "q"), _r(op, dt, [2], "r"),
          error="INVALID_ARGUMENT", phrases=["Must provide as many biases as the last dimension"])

    rec.for_dtypes(op, COMPLEX, gen)


def bias_add_grad(rec):
    op = "BiasAddGrad"

    def gen(dt):
        rtol, atol = SUM_TOL[dt]

        def c(what, x, fmt="NHWC", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.BiasAddGrad(
                out_backprop=ph("x", x, dt), data_format=fmt, name="out"), rtol=rtol, atol=atol,
                error=error, phrases=phrases)

        c("matrix", _r(op, dt, [5, 3], "m", "exact_sum"))
        c("nhwc", _r(op, dt, [2, 3, 2, 4], "n", "exact_sum"))
        c("nchw", _r(op, dt, [2, 3, 2, 2], "c", "exact_sum"), fmt="NCHW")
        c("zero_rows", _r(op, dt, [0, 3], "z", "exact_sum"))
        c("nan_parts", _finite_nan(dt, [4, 3], "bag"))
        c("rank1_error", _r(op, dt, [3], "e"), error="INVALID_ARGUMENT",
          phrases=["Input tensor must be at least 2D: [3]"])

    rec.for_dtypes(op, COMPLEX, gen)


def transpose(rec, op):
    def gen(dt):
        def c(what, x, perm, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                x=ph("x", x, dt), perm=ph("perm", perm), name="out"), error=error,
                phrases=phrases)

        c("matrix", _r(op, dt, [2, 3]), np.array([1, 0], np.int32))
        c("rank3", _r(op, dt, [2, 3, 4]), np.array([2, 0, 1], np.int64))
        c("rank4_nhwc_to_nchw", _r(op, dt, [2, 3, 2, 4]), np.array([0, 3, 1, 2], np.int32))
        # An identity permutation still conjugates (ConjugateTranspose).
        c("identity_perm", _r(op, dt, [3, 2]), np.array([0, 1], np.int32))
        c("scalar", _r(op, dt, []), np.zeros([0], np.int32))
        c("zero_size", _r(op, dt, [0, 3]), np.array([1, 0], np.int32))
        c("specials", _specials(dt, [2, 5]), np.array([1, 0], np.int32))
        c("perm_error", _r(op, dt, [2, 3]), np.array([0, 0], np.int32),
          error="INVALID_ARGUMENT", phrases=["1 is missing from {0,0}"])
        c("perm_size_error", _r(op, dt, [2, 3]), np.array([0, 1, 2], np.int32),
          error="INVALID_ARGUMENT", phrases=["transpose expects a vector of size 2"])

    rec.for_dtypes(op, COMPLEX, gen)


def einsum(rec):
    op = "Einsum"

    def gen(dt):
        rtol, atol = PRODUCT_TOL[dt]

        def c(what, eq, *operands):
            rec.case(op, dt, what, lambda: tf.raw_ops.Einsum(
                inputs=[ph("x%d" % i, v, dt) for i, v in enumerate(operands)], equation=eq,
                name="out"), rtol=rtol, atol=atol)

        c("matmul", "ij,jk->ik", _r(op, dt, [3, 4], "a"), _r(op, dt, [4, 2], "b"))
        c("batch_matmul", "bij,bjk->bik", _r(op, dt, [2, 3, 4], "c"), _r(op, dt, [2, 4, 5], "d"))
        c("transpose", "ij->ji", _r(op, dt, [3, 4], "e"))
        c("attention_scores", "bhqd,bhkd->bhqk", _r(op, dt, [2, 2, 3, 4], "f"),
          _r(op, dt, [2, 2, 5, 4], "g"))
        c("row_sum", "ij->i", _r(op, dt, [3, 4], "h"))
        c("outer", "i,j->ij", _r(op, dt, [3], "i"), _r(op, dt, [4], "j"))
        c("ellipsis", "...ij,...jk->...ik", _r(op, dt, [2, 3, 4], "k"), _r(op, dt, [2, 4, 2], "l"))
        c("broadcast_batch", "...ij,...jk->...ik", _r(op, dt, [2, 1, 3, 4], "k2"),
          _r(op, dt, [3, 4, 2], "l2"))
        c("diagonal", "ii->i", _r(op, dt, [3, 3], "m"))
        c("trace", "ii->", _r(op, dt, [4, 4], "o"))
        c("batch_trace", "bii->b", _r(op, dt, [2, 3, 3], "n"))
        c("diagonal_times_matrix", "ijj,jk->ik", _r(op, dt, [2, 3, 3], "q"),
          _r(op, dt, [3, 2], "r"))
        c("inflated_diagonal", "ij,jk->ii", _r(op, dt, [3, 4], "s"), _r(op, dt, [4, 3], "t"))
        c("larger", "ij,jk->ik", _r(op, dt, [12, 16], "u"), _r(op, dt, [16, 10], "v"))
        c("zero_inner", "ij,jk->ik", _r(op, dt, [3, 0], "w"), _r(op, dt, [0, 2], "x"))
        c("nan_parts", "ij,jk->ik", _finite_nan(dt, [3, 4], "ein_a"),
          _r(op, dt, [4, 2], "y"))

    rec.for_dtypes(op, COMPLEX, gen)


def select(rec, op):
    def gen(dt):
        def c(what, cond, t, e, error=None, phrases=()):
            def build():
                cv, tv, ev = ph("x", cond, "bool"), ph("y", t, dt), ph("z", e, dt)
                if op == "Select":
                    return tf.raw_ops.Select(condition=cv, x=tv, y=ev, name="out")
                return tf.raw_ops.SelectV2(condition=cv, t=tv, e=ev, name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        cond = rand("bool", [2, 3], "%s/%s/cond" % (op, dt))
        t, e = _r(op, dt, [2, 3], "t"), _r(op, dt, [2, 3], "e")
        c("same_shape", cond, t, e)
        c("scalar_cond_true", np.array(True), t, e)
        c("scalar_cond_false", np.array(False), t, e)
        c("zero_size", rand("bool", [0, 3], "c0"), _r(op, dt, [0, 3], "t0"),
          _r(op, dt, [0, 3], "e0"))
        c("specials", rand("bool", [10], "%s/%s/cs" % (op, dt)), _specials(dt, [10]),
          _specials(dt, [10])[::-1].copy())
        if op == "Select":
            c("rank1_cond_matrix", np.array([True, False]), t, e)
            c("operand_shape_error", cond, t, _r(op, dt, [3, 2], "e2"),
              error="INVALID_ARGUMENT", phrases=["must have the same size and shape"])
        else:
            c("broadcast_cond", np.array([[True], [False]]), t, e)
            c("broadcast_operands", cond, _r(op, dt, [3], "t1"), _r(op, dt, [2, 1], "e1"))
            c("broadcast_error", cond, t, _r(op, dt, [3, 2], "e2"), error="INVALID_ARGUMENT",
              phrases=["must be broadcastable"])

    rec.for_dtypes(op, COMPLEX, gen)


def fill(rec):
    op = "Fill"

    def gen(dt):
        def c(what, dims, value, idx="int32"):
            rec.case(op, dt, what, lambda: tf.raw_ops.Fill(
                dims=const("dims", dims, idx), value=ph("x", value, dt), name="out"))

        v = _r(op, dt, [], "v")
        c("matrix", [2, 3], v)
        c("scalar", np.zeros([0], np.int32), v)
        c("dims_int64", [3, 1, 2], v, "int64")
        c("zero_size", [0, 2], v)
        c("nan_inf_value", [2, 2], _cplx(np.nan, -np.inf, dt))

    rec.for_dtypes(op, COMPLEX, gen)


def fill_like(rec, op):
    def gen(dt):
        def c(what, x):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(x=ph("x", x, dt), name="out"))

        c("matrix", _r(op, dt, [2, 3]))
        c("scalar", _r(op, dt, []))
        c("zero_size", _r(op, dt, [0, 3]))
        c("specials", _specials(dt, [6]))

    rec.for_dtypes(op, COMPLEX, gen)


def equality(rec, op):
    raw = getattr(tf.raw_ops, op)

    def gen(dt):
        def c(what, x, y, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: raw(x=ph("x", x, dt), y=ph("y", y, dt), name="out",
                                               **attrs), error=error, phrases=phrases)

        x = _r(op, dt, [2, 3], "x")
        y = x.copy()
        y.flat[1] = np.conj(y.flat[1])  # the imaginary parts are random normals, never 0
        y.flat[4] = y.flat[4] + 1
        c("same_shape", x, y)
        c("broadcast", x, x[1])
        c("scalar", x, x.flat[2].copy())
        c("zero_size", _r(op, dt, [0, 3], "z"), _r(op, dt, [3], "w"))
        # NaN parts never equal; 0 equals -0 in either part; infinities equal themselves.
        c("specials", _cplx([np.nan, 1, 0.0, -0.0, np.inf, np.inf, 2],
                            [0, np.nan, -0.0, 0.0, 1, -np.inf, 3], dt),
          _cplx([np.nan, 1, -0.0, 0.0, np.inf, np.inf, 2],
                [0, np.nan, 0.0, -0.0, 1, -np.inf, -3], dt))
        c("incompatible_shapes_error", x, _r(op, dt, [3, 2], "e"), error="INVALID_ARGUMENT",
          phrases=["Incompatible shapes: [2,3] vs. [3,2]"])
        c("incompatible_shapes_no_error", x, _r(op, dt, [3, 2], "e"),
          incompatible_shape_error=False)

    rec.for_dtypes(op, COMPLEX, gen)


def build_all(rec, emit):
    add_n(rec)
    emit("AddN")
    for op in ("BiasAdd", "BiasAddV1"):
        bias_add(rec, op)
        emit(op)
    bias_add_grad(rec)
    emit("BiasAddGrad")
    for op in ("Transpose", "ConjugateTranspose"):
        transpose(rec, op)
        emit(op)
    einsum(rec)
    emit("Einsum")
    for op in ("Select", "SelectV2"):
        select(rec, op)
        emit(op)
    fill(rec)
    emit("Fill")
    for op in ("ZerosLike", "OnesLike"):
        fill_like(rec, op)
        emit(op)
    for op in ("Equal", "NotEqual"):
        equality(rec, op)
        emit(op)
