"""The complex64 / complex128 cases of the matrix ops: MatMul (and its bfloat16 cases), BatchMatMul,
BatchMatMulV2, BatchMatMulV3, MatrixSolve, the matrix-diagonal family (MatrixBandPart, MatrixDiag,
MatrixDiagPart, MatrixSetDiag and their V2 / V3 forms, the Batch* names of old graphs), and
Reciprocal / Inv.

Each op gets every shape kind its kernel handles (batched, one matrix, broadcast batches, wide
and tall, empty), values with infinite and NaN parts, and TensorFlow's errors. The adjoint
attrs (adj_x, adj_y, adjoint) conjugate complex operands, which the cases check with operands
whose imaginary parts are all non-zero. Products of O(1) values compare with rtol 1e-5 / atol
1e-5 (complex64) and 1e-12 (complex128); data movement is exact.
"""
import numpy as np
import tensorflow as tf

from kernel_cases.core import COMPLEX, NP, arr, ph, rand, seed_of
from kernel_cases.legacy_ops import old_graph_op

ACC_TOL = {"complex64": (1e-5, 1e-5), "complex128": (1e-12, 1e-12), "bfloat16": (2e-2, 2e-2)}
# MatrixSolve of a matrix with condition number ~1e6: TensorFlow's and Rill's LU pivot alike, so
# the solutions agree to the rounding of the elimination.
NEAR_SINGULAR_TOL = {"complex64": (2e-2, 2e-2), "complex128": (1e-8, 1e-8)}
ALIGNS = ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]


def _cplx(re, im, dt):
    """Complex values from their parts (re + 1j * im would turn an infinite part into NaNs)."""
    out = np.zeros(np.shape(re), dtype=NP[dt])
    out.real = re
    out.imag = im
    return out


def _r(op, dt, shape, tag=""):
    return rand(dt, shape, "%s/%s/%s/%s" % (op, dt, shape, tag), "small")


def _specials(dt, shape, infinities=True):
    """Values of `shape` whose parts include inf, -inf, NaN, -0 and large and tiny numbers."""
    parts = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0, -2.5, 1e30, 3e-30, 7.0]
    if not infinities:
        parts = [1e20 if np.isinf(p) else p for p in parts]
    n = int(np.prod(shape))
    rs = np.random.RandomState(seed_of("specials", dt, shape))
    re = [parts[i % len(parts)] for i in range(n)]
    im = [parts[k] for k in rs.randint(len(parts), size=n)]
    return _cplx(np.reshape(re, shape), np.reshape(im, shape), dt)


def matmul(rec):
    op = "MatMul"

    def gen(dt):
        rtol, atol = ACC_TOL[dt]

        def c(what, a, b, ta=False, tb=False, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.MatMul(
                a=ph("x", a, dt), b=ph("y", b, dt), transpose_a=ta, transpose_b=tb, name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("square", _r(op, dt, [4, 4], "a"), _r(op, dt, [4, 4], "b"))
        c("rect", _r(op, dt, [3, 5], "c"), _r(op, dt, [5, 2], "d"))
        # transpose_a / transpose_b transpose without conjugating.
        c("transpose_a", _r(op, dt, [5, 3], "e"), _r(op, dt, [5, 2], "f"), ta=True)
        c("transpose_b", _r(op, dt, [3, 5], "g"), _r(op, dt, [2, 5], "h"), tb=True)
        c("transpose_both", _r(op, dt, [5, 3], "i"), _r(op, dt, [2, 5], "j"), True, True)
        c("zero_inner", _r(op, dt, [3, 0], "k"), _r(op, dt, [0, 2], "l"))
        c("zero_rows", _r(op, dt, [0, 3], "m"), _r(op, dt, [3, 2], "n"))
        c("large_32", _r(op, dt, [32, 40], "q"), _r(op, dt, [40, 24], "r"))
        if dt != "bfloat16":
            c("specials_vector", _specials(dt, [1, 10]), _r(op, dt, [10, 1], "s"))
        c("inner_mismatch_error", _r(op, dt, [2, 3], "o"), _r(op, dt, [2, 2], "p"),
          error="INVALID_ARGUMENT", phrases=["Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2]"])

    rec.for_dtypes(op, COMPLEX + ["bfloat16"], gen)


def batch_matmul(rec, op):
    def gen(dt):
        rtol, atol = ACC_TOL[dt]

        def c(what, x, y, adj_x=False, adj_y=False, error=None, phrases=(), tout=None):
            extra = {"Tout": tf.as_dtype(NP[tout or dt])} if op == "BatchMatMulV3" else {}
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                x=ph("x", x, dt), y=ph("y", y, dt), adj_x=adj_x, adj_y=adj_y, name="out",
                **extra), rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("batch3", _r(op, dt, [3, 2, 4], "a"), _r(op, dt, [3, 4, 5], "b"))
        c("adj_x", _r(op, dt, [2, 4, 3], "c"), _r(op, dt, [2, 4, 2], "d"), adj_x=True)
        c("adj_y", _r(op, dt, [2, 3, 4], "e"), _r(op, dt, [2, 5, 4], "f"), adj_y=True)
        c("adj_both", _r(op, dt, [2, 4, 3], "c2"), _r(op, dt, [2, 5, 4], "f2"), True, True)
        c("rank4", _r(op, dt, [2, 2, 3, 2], "g"), _r(op, dt, [2, 2, 2, 3], "h"))
        c("one_matrix", _r(op, dt, [3, 4], "g2"), _r(op, dt, [4, 2], "h2"))
        c("zero_batch", _r(op, dt, [0, 2, 3], "z1"), _r(op, dt, [0, 3, 2], "z2"))
        c("zero_inner", _r(op, dt, [2, 2, 0], "z3"), _r(op, dt, [2, 0, 3], "z4"))
        # TensorFlow's complex128 products multiply by C's Annex G rules (an infinite part can
        # turn a NaN product back into an infinity); Rill's BLAS products, as TensorFlow's
        # complex64 ones, do not. complex128 gets NaN parts without infinities.
        c("specials", _specials(dt, [2, 2, 5], dt == "complex64"), _r(op, dt, [2, 5, 2], "s"))
        if op in ("BatchMatMulV2", "BatchMatMulV3"):
            c("broadcast_batch", _r(op, dt, [2, 1, 3, 4], "i"), _r(op, dt, [3, 4, 2], "j"))
            c("matrix_rhs", _r(op, dt, [2, 3, 4], "k"), _r(op, dt, [4, 2], "l"))
            c("matrix_rhs_adj_x", _r(op, dt, [2, 4, 3], "k2"), _r(op, dt, [4, 2], "l2"),
              adj_x=True)
            c("matrix_rhs_adj_y", _r(op, dt, [2, 3, 4], "k3"), _r(op, dt, [2, 4], "l3"),
              adj_y=True)
            c("batch_mismatch_error", _r(op, dt, [2, 2, 3], "m"), _r(op, dt, [3, 3, 2], "n"),
              error="INVALID_ARGUMENT", phrases=["must have compatible batch dimensions"])
        else:
            c("ndims_error", _r(op, dt, [2, 2, 3], "m"), _r(op, dt, [3, 2], "n"),
              error="INVALID_ARGUMENT", phrases=["In[0] and In[1] has different ndims"])
        c("inner_mismatch_error", _r(op, dt, [2, 2, 3], "o"), _r(op, dt, [2, 2, 3], "p"),
          error="INVALID_ARGUMENT", phrases=["Matrix size-incompatible"])
        c("rank1_error", _r(op, dt, [3], "o1"), _r(op, dt, [3, 2], "p1"),
          error="INVALID_ARGUMENT",
          phrases=["In[0] ndims must be >= 2: 1" if op != "BatchMatMul" else
                   "In[0] and In[1] has different ndims: [3] vs. [3,2]"])

    rec.for_dtypes(op, COMPLEX, gen)


def matrix_solve(rec):
    op = "MatrixSolve"

    def gen(dt):
        rtol, atol = ACC_TOL[dt]

        def c(what, m, rhs, error=None, phrases=(), tol=None, **attrs):
            rt, at = tol or (rtol, atol)
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixSolve(
                matrix=ph("matrix", m, dt), rhs=ph("rhs", rhs, dt), name="out", **attrs),
                rtol=rt, atol=at, error=error, phrases=phrases)

        def well(batch, n, tag):
            return _r(op, dt, list(batch) + [n, n], tag) + (2 * n) * np.eye(n, dtype=NP[dt])

        m, b = well([], 3, "m"), _r(op, dt, [3, 2], "b")
        mb, bb = well([2], 3, "mb"), _r(op, dt, [2, 3, 4], "bb")
        c("basic", m, b)
        c("adjoint", m, b, adjoint=True)
        c("batch", mb, bb)
        c("batch_adjoint", mb, bb, adjoint=True)
        c("pivoting", _cplx([[0, 1, 2], [1, 0, 1], [2, 1, 0]], [[0, 1, -1], [2, 0, 1], [0, 1, 0]],
                            dt), b)
        c("one_by_one", _cplx([[[2.0]], [[0.5]]], [[[-1.0]], [[3.0]]], dt),
          _r(op, dt, [2, 1, 3], "one"))
        near = _cplx([[1, 2], [1, 2 + 1e-6]], [[1, 0], [1, 0]], dt)
        c("near_singular", near, _cplx([[1], [1]], [[0.5], [0]], dt), tol=NEAR_SINGULAR_TOL[dt])
        c("empty_rhs", m, np.zeros((3, 0), NP[dt]))
        c("empty_batch", np.zeros((0, 2, 2), NP[dt]), np.zeros((0, 2, 1), NP[dt]))
        c("singular_error", _cplx([[1, 2], [2, 4]], [[1, 2], [2, 4]], dt),
          _cplx([[1], [1]], [[0], [0]], dt), error="INVALID_ARGUMENT",
          phrases=["Input matrix is not invertible."])
        c("zero_matrix_error", np.zeros((2, 2, 2), NP[dt]), _r(op, dt, [2, 2, 1], "z"),
          error="INVALID_ARGUMENT", phrases=["Input matrix is not invertible."])
        c("not_square_error", _r(op, dt, [2, 3], "ns"), _r(op, dt, [2, 1], "nr"),
          error="INVALID_ARGUMENT", phrases=["First input (lhs) must be a square matrix."])
        c("rhs_rows_error", m, _r(op, dt, [2, 1], "rr"), error="INVALID_ARGUMENT",
          phrases=["Input matrix and rhs are incompatible."])

    rec.for_dtypes(op, COMPLEX, gen)


def reciprocal(rec, op):
    def gen(dt):
        rtol, atol = ACC_TOL[dt]

        def c(what, x):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(x=ph("x", x, dt), name="out"),
                     rtol=rtol, atol=atol)

        c("basic", rand(dt, [2, 3], "%s/%s/basic" % (op, dt), "nonzero"))
        c("scalar", rand(dt, [], "%s/%s/scalar" % (op, dt), "nonzero"))
        c("zero_size", np.zeros([0, 3], NP[dt]))
        c("large_1000", rand(dt, [1000], "%s/%s/large" % (op, dt), "nonzero"))
        # Finite values whose naive |z|^2 neither overflows nor underflows; 1/0 is (inf, nan).
        c("edge_values", _cplx([1, -1, 0, 0, 1e-10, 1e10, 3, -0.0, 0.0],
                               [0, 0, 1, -1, 1e-10, -1e10, 4, 2.5, 0.0], dt))
        c("nan_parts", _cplx([np.nan, 1, np.nan], [1, np.nan, np.nan], dt))

    rec.for_dtypes(op, COMPLEX, gen)


def band_part(rec):
    op = "MatrixBandPart"

    def gen(dt):
        def c(what, x, lower, upper, idx="int64", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixBandPart(
                input=ph("x", x, dt), num_lower=ph("y", lower, idx),
                num_upper=ph("z", upper, idx), name="out"), error=error, phrases=phrases)

        c("band", _r(op, dt, [2, 4, 5]), 1, 2)
        c("lower_triangle_int32", _r(op, dt, [5, 4]), -1, 0, "int32")
        c("upper_triangle", _r(op, dt, [3, 3, 4]), 0, -1)
        c("full_bounds", _r(op, dt, [4, 5]), 4, 5)
        c("empty", _r(op, dt, [0, 3, 3]), 1, 1)
        c("specials", _specials(dt, [2, 3, 5]), 1, 1)
        c("lower_error", _r(op, dt, [4, 5]), 5, 1, error="INVALID_ARGUMENT",
          phrases=["num_lower must be negative or less or equal to number of rows (4) got: 5"])

    rec.for_dtypes(op, COMPLEX, gen)


def diag_v3(rec):
    def part(dt):
        op = "MatrixDiagPartV3"

        def c(what, x, k, align="RIGHT_LEFT", pad=None):
            pad = _r(op, dt, [], "pad") if pad is None else pad
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixDiagPartV3(
                input=ph("x", x, dt), k=ph("k", k, "int32"), padding_value=ph("y", pad, dt),
                align=align, name="out"))

        c("band_right_left", _r(op, dt, [2, 4, 5]), [-1, 2])
        for align in ALIGNS[1:]:
            c("band_" + align.lower(), _r(op, dt, [4, 5]), [-2, 1], align)
        c("main", _r(op, dt, [3, 4, 3]), 0)
        c("subs_tall", _r(op, dt, [6, 3]), [-4, -1], "LEFT_RIGHT")
        c("empty_batch", _r(op, dt, [0, 3, 3]), [-1, 1])
        c("specials", _specials(dt, [3, 4]), [-1, 1], pad=_cplx(np.nan, np.inf, dt))
    rec.for_dtypes("MatrixDiagPartV3", COMPLEX, part)

    def diag(dt):
        op = "MatrixDiagV3"

        def c(what, d, k, rows=-1, cols=-1, align="RIGHT_LEFT"):
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixDiagV3(
                diagonal=ph("x", d, dt), k=ph("k", k, "int32"),
                num_rows=ph("rows", rows, "int32"), num_cols=ph("cols", cols, "int32"),
                padding_value=ph("y", _r(op, dt, [], "pad"), dt), align=align, name="out"))

        c("band_right_left", _r(op, dt, [2, 2, 3]), [-1, 0])
        for align in ALIGNS[1:]:
            c("band_" + align.lower(), _r(op, dt, [3, 4]), [-1, 1], align=align)
        c("main_batch", _r(op, dt, [2, 3, 4]), 0)
        c("super_rows_given", _r(op, dt, [2]), 1, rows=3)
        c("tall_band", _r(op, dt, [2, 3]), [-2, -1], rows=5, cols=3, align="LEFT_LEFT")
        c("specials", _specials(dt, [2, 5]), 0)
    rec.for_dtypes("MatrixDiagV3", COMPLEX, diag)

    def set_diag(dt):
        op = "MatrixSetDiagV3"

        def c(what, x, d, k, align="RIGHT_LEFT", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixSetDiagV3(
                input=ph("x", x, dt), diagonal=ph("y", d, dt), k=ph("k", k, "int32"),
                align=align, name="out"), error=error, phrases=phrases)

        c("band_right_left", _r(op, dt, [2, 4, 5]), _r(op, dt, [2, 2, 4], "d"), [-1, 0])
        for align in ALIGNS[1:]:
            c("band_" + align.lower(), _r(op, dt, [4, 5]), _r(op, dt, [4, 4], "d"), [-2, 1],
              align)
        c("main", _r(op, dt, [3, 4, 3]), _r(op, dt, [3, 3], "d"), 0)
        c("super", _r(op, dt, [3, 5]), _r(op, dt, [3], "d"), 2)
        c("specials", _specials(dt, [3, 3]), _specials(dt, [3]), 0)
        c("num_diags_error", _r(op, dt, [4, 5]), _r(op, dt, [3, 4], "d"), [-1, 0],
          error="INVALID_ARGUMENT",
          phrases=["The number of diagonals provided in `diag` is not consistent with "
                   "`lower_diag_index` and `upper_diag_index`"])
    rec.for_dtypes("MatrixSetDiagV3", COMPLEX, set_diag)


def diag_v2(rec):
    def diag(dt):
        def c(what, d, k, rows=-1, cols=-1, pad=0):
            rec.case("MatrixDiagV2", dt, what, lambda: tf.raw_ops.MatrixDiagV2(
                diagonal=ph("diagonal", d), k=ph("k", np.array(k, np.int32)),
                num_rows=ph("num_rows", np.int32(rows)), num_cols=ph("num_cols", np.int32(cols)),
                padding_value=ph("padding_value", arr(pad, dt)), name="out"))
        op = "MatrixDiagV2"
        c("main", _r(op, dt, [2, 3]), 0)
        c("band_left_left", _r(op, dt, [2, 3, 3]), [-1, 1])
        c("super_only", _r(op, dt, [2, 2, 3]), [1, 2], pad=1 - 2j)
        c("sized", _r(op, dt, [2]), -1, rows=3, cols=4)
    rec.for_dtypes("MatrixDiagV2", COMPLEX, diag)

    def part(dt):
        def c(what, x, k, pad=0):
            rec.case("MatrixDiagPartV2", dt, what, lambda: tf.raw_ops.MatrixDiagPartV2(
                input=ph("input", x), k=ph("k", np.array(k, np.int32)),
                padding_value=ph("padding_value", arr(pad, dt)), name="out"))
        x = _r("MatrixDiagPartV2", dt, [2, 3, 4])
        c("main", x, 0)
        c("band_left_left", x, [-2, 1])
        c("padded", x, [-1, 2], pad=0.5 + 1j)
    rec.for_dtypes("MatrixDiagPartV2", COMPLEX, part)

    def set_diag(dt):
        def c(what, x, d, k):
            rec.case("MatrixSetDiagV2", dt, what, lambda: tf.raw_ops.MatrixSetDiagV2(
                input=ph("input", x), diagonal=ph("diagonal", d),
                k=ph("k", np.array(k, np.int32)), name="out"))
        op = "MatrixSetDiagV2"
        x = _r(op, dt, [2, 3, 4])
        c("main", x, _r(op, dt, [2, 3], "a"), 0)
        c("band_left_left", x, _r(op, dt, [2, 3, 3], "b"), [-1, 1])
    rec.for_dtypes("MatrixSetDiagV2", COMPLEX, set_diag)


def diag_v1(rec):
    def gen_for(op):
        raw = getattr(tf.raw_ops, op)

        def gen(dt):
            def c(what, x, d=None, error=None, phrases=()):
                if op == "MatrixSetDiag":
                    build = lambda: raw(input=ph("x", x, dt), diagonal=ph("y", d, dt), name="out")
                elif op == "MatrixDiag":
                    build = lambda: raw(diagonal=ph("x", x, dt), name="out")
                else:
                    build = lambda: raw(input=ph("x", x, dt), name="out")
                rec.case(op, dt, what, build, error=error, phrases=phrases)

            if op == "MatrixDiag":
                c("batch", _r(op, dt, [2, 3]))
                c("vector", _r(op, dt, [4]))
                c("zero_size", _r(op, dt, [2, 0]))
                c("specials", _specials(dt, [5]))
            elif op == "MatrixDiagPart":
                c("batch", _r(op, dt, [2, 3, 3]))
                c("wide", _r(op, dt, [3, 5]))
                c("tall", _r(op, dt, [2, 5, 3]))
                c("zero_size", _r(op, dt, [0, 2, 2]))
                c("specials", _specials(dt, [4, 4]))
            else:
                c("batch", _r(op, dt, [2, 3, 3]), _r(op, dt, [2, 3], "d"))
                c("wide", _r(op, dt, [3, 5]), _r(op, dt, [3], "d"))
                c("tall", _r(op, dt, [5, 2]), _r(op, dt, [2], "d"))
                c("specials", _specials(dt, [3, 3]), _specials(dt, [3]))
                c("rank_error", _r(op, dt, [5]), _r(op, dt, [4], "d"), error="INVALID_ARGUMENT",
                  phrases=["input must be at least 2-dim, received shape: [5]"])
        return gen

    for op in ("MatrixDiag", "MatrixDiagPart", "MatrixSetDiag"):
        rec.for_dtypes(op, COMPLEX, gen_for(op))


def batch_matrix_ops(rec):
    """The Batch* names of producer-6 graphs (legacy_ops.old_graph_op)."""
    def tdt(dt):
        return tf.as_dtype(NP[dt])

    def diag(dt):
        def c(what, d):
            rec.case("BatchMatrixDiag", dt, what,
                     lambda: old_graph_op("BatchMatrixDiag", [("diagonal", d)], {"T": tdt(dt)}))
        c("batched", _r("BatchMatrixDiag", dt, [2, 3]))
        c("vector", _r("BatchMatrixDiag", dt, [4]))
        c("empty", _r("BatchMatrixDiag", dt, [2, 0]))
        c("specials", _specials(dt, [2, 5]))
    rec.for_dtypes("BatchMatrixDiag", COMPLEX, diag)

    def diag_part(dt):
        def c(what, x):
            rec.case("BatchMatrixDiagPart", dt, what,
                     lambda: old_graph_op("BatchMatrixDiagPart", [("input", x)], {"T": tdt(dt)}))
        op = "BatchMatrixDiagPart"
        c("batched_square", _r(op, dt, [2, 3, 3]))
        c("wide", _r(op, dt, [2, 4]))
        c("tall", _r(op, dt, [1, 4, 2]))
        c("specials", _specials(dt, [3, 3]))
    rec.for_dtypes("BatchMatrixDiagPart", COMPLEX, diag_part)

    def set_diag(dt):
        def c(what, x, d, error=None):
            rec.case("BatchMatrixSetDiag", dt, what,
                     lambda: old_graph_op("BatchMatrixSetDiag", [("input", x), ("diagonal", d)],
                                          {"T": tdt(dt)}), error=error)
        op = "BatchMatrixSetDiag"
        c("batched", _r(op, dt, [2, 3, 3]), _r(op, dt, [2, 3], "d"))
        c("wide", _r(op, dt, [2, 4]), _r(op, dt, [2], "d"))
        c("diagonal_shape_error", _r(op, dt, [2, 3, 3]), _r(op, dt, [2, 2], "e"),
          error="INVALID_ARGUMENT")
    rec.for_dtypes("BatchMatrixSetDiag", COMPLEX, set_diag)


def build_all(rec, emit):
    matmul(rec)
    emit("MatMul")
    for op in ("BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"):
        batch_matmul(rec, op)
        emit(op)
    matrix_solve(rec)
    emit("MatrixSolve")
    for op in ("Reciprocal", "Inv"):
        reciprocal(rec, op)
        emit(op)
    band_part(rec)
    emit("MatrixBandPart")
    diag_v3(rec)
    for op in ("MatrixDiagPartV3", "MatrixDiagV3", "MatrixSetDiagV3"):
        emit(op)
    diag_v2(rec)
    for op in ("MatrixDiagV2", "MatrixDiagPartV2", "MatrixSetDiagV2"):
        emit(op)
    diag_v1(rec)
    for op in ("MatrixDiag", "MatrixDiagPart", "MatrixSetDiag"):
        emit(op)
    batch_matrix_ops(rec)
    for op in ("BatchMatrixDiag", "BatchMatrixDiagPart", "BatchMatrixSetDiag"):
        emit(op)
