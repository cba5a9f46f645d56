"""Dense linear algebra: MatrixDeterminant, LogMatrixDeterminant, MatrixInverse, Cholesky, Qr, Svd,
SelfAdjointEigV2, MatrixTriangularSolve, MatrixSolve, batched over leading dims. Outputs unique
only up to signs (Qr's, Svd's and SelfAdjointEigV2's vectors) are recorded as |Q|, |R|, |U|, |V|
(with distinct singular values or eigenvalues the magnitudes are unique) and as the
reconstructions Q R, U diag(s) V^T and V diag(e) V^T."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import arr, ph

DTYPES = ["float32", "float64"]


def _tol(dt):
    return (1e-4, 1e-5) if dt == "float32" else (1e-10, 1e-10)


def _rand(dt, shape, seed):
    rs = np.random.RandomState(seed)
    return arr(rs.uniform(-1, 1, size=shape), dt)


def _spd(dt, batch, n, seed):
    a = np.random.RandomState(seed).uniform(-1, 1, size=tuple(batch) + (n, n))
    return arr(np.matmul(a, np.swapaxes(a, -1, -2)) + n * np.eye(n), dt)


def _well(dt, batch, n, seed):
    """Well-conditioned square matrices (diagonally dominant)."""
    a = np.random.RandomState(seed).uniform(-1, 1, size=tuple(batch) + (n, n))
    return arr(a + 2 * n * np.eye(n), dt)


def unary(rec, op, cases, dtypes=DTYPES, attrs=None, post=None):
    """cases: [(what, value, attrs, error, phrases)]."""
    def gen(dt):
        rtol, atol = _tol(dt)
        for what, value, extra, error, phrases in cases(dt):
            def build(value=value, extra=extra):
                attrs = {k: v for k, v in (extra or {}).items() if k != "lower_only"}
                out = getattr(tf.raw_ops, op)(input=ph("input", value, dt), name="out", **attrs)
                return post(out, extra or {}) if post else out
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)
    rec.for_dtypes(op, dtypes, gen)


def _common_errors(dt, square=True):
    out = [("rank1_error", arr([1, 2, 3], dt), None, "INVALID_ARGUMENT", [])]
    if square:
        out.append(("not_square_error", _rand(dt, [2, 3], 9), None, "INVALID_ARGUMENT",
                    ["Input matrix must be square."]))
    return out


def determinant(rec):
    def cases(dt):
        return [
            ("basic", _rand(dt, [3, 3], 1), None, None, []),
            ("batch", _rand(dt, [2, 2, 4, 4], 2), None, None, []),
            ("one_by_one", arr([[[-2.5]], [[4]]], dt), None, None, []),
            ("singular", arr([[1, 2], [2, 4]], dt), None, None, []),
            ("empty_matrix", np.zeros((2, 0, 0), dt), None, None, []),
            ("empty_batch", np.zeros((0, 3, 3), dt), None, None, []),
        ] + _common_errors(dt)
    unary(rec, "MatrixDeterminant", cases)

    def post(out, extra):
        return [out.sign, out.log_abs_determinant]
    unary(rec, "LogMatrixDeterminant", cases, post=post)


def inverse(rec):
    def cases(dt):
        return [
            ("basic", _well(dt, [], 3, 3), None, None, []),
            ("adjoint", _rand(dt, [3, 3], 4) + arr(3 * np.eye(3), dt), {"adjoint": True}, None,
             []),
            ("batch", _well(dt, [2, 3], 4, 5), None, None, []),
            ("empty", np.zeros((0, 2, 2), dt), None, None, []),
            ("singular_error", arr([[1, 2], [2, 4]], dt), None, "INVALID_ARGUMENT",
             ["Input is not invertible."]),
        ] + _common_errors(dt)
    unary(rec, "MatrixInverse", cases)


def cholesky(rec):
    def cases(dt):
        return [
            ("basic", _spd(dt, [], 3, 6), None, None, []),
            ("batch", _spd(dt, [2, 2], 4, 7), None, None, []),
            ("reads_lower_triangle", arr([[4, 100], [1, 9]], dt), None, None, []),
            ("empty", np.zeros((3, 0, 0), dt), None, None, []),
            # TensorFlow's CPU kernel fills the lower triangle with NaN (its upper triangle is
            # left unwritten), so only the lower triangle is fetched.
            ("not_positive_definite_nan", arr([[[1, 2], [2, 1]], [[4, 2], [2, 5]]], dt),
             {"lower_only": True}, None, []),
        ] + _common_errors(dt)

    def post(out, extra):
        if extra.get("lower_only"):
            return tf.linalg.band_part(out, -1, 0)
        return out
    unary(rec, "Cholesky", cases, post=post)


def qr(rec):
    def post(out, extra):
        q, r = out.q, out.r
        return [tf.abs(q), tf.abs(r), tf.matmul(q, r)]

    def cases(dt):
        out = []
        for full in (False, True):
            f = {"full_matrices": full}
            s = "_full" if full else ""
            out += [
                ("square" + s, _rand(dt, [3, 3], 10), f, None, []),
                ("tall" + s, _rand(dt, [5, 3], 11), f, None, []),
                ("wide" + s, _rand(dt, [2, 4], 12), f, None, []),
                ("batch" + s, _rand(dt, [2, 3, 4, 3], 13), f, None, []),
            ]
        out.append(("empty", np.zeros((2, 0, 3), dt), None, None, []))
        return out + _common_errors(dt, square=False)
    unary(rec, "Qr", cases, post=post)


def svd(rec):
    def post(out, extra):
        if not extra.get("compute_uv", True):
            return [out.s]
        s, u, v = out.s, out.u, out.v
        res = [s, tf.abs(u), tf.abs(v)]
        if not extra.get("full_matrices", False):
            res.append(tf.matmul(u * tf.expand_dims(s, -2), v, adjoint_b=True))
        return res

    def cases(dt):
        out = [
            ("values_only", _rand(dt, [2, 4, 3], 20), {"compute_uv": False}, None, []),
            ("values_only_wide", _rand(dt, [3, 5], 21), {"compute_uv": False}, None, []),
            ("zero_matrix_values", np.zeros((3, 2), dt), {"compute_uv": False}, None, []),
            ("empty", np.zeros((2, 0, 3), dt), {"compute_uv": False}, None, []),
            ("non_finite_values", arr([[[np.inf, 1], [2, 3]], [[1, 0], [0, 2]]], dt),
             {"compute_uv": False}, None, []),
            ("nan_vectors", arr([[np.nan, 1], [2, 3]], dt), {"compute_uv": True}, None, []),
        ]
        for full in (False, True):
            f = {"full_matrices": full, "compute_uv": True}
            s = "_full" if full else ""
            out += [
                ("square" + s, _rand(dt, [3, 3], 22), f, None, []),
                ("tall" + s, _rand(dt, [4, 2], 23), f, None, []),
                ("wide" + s, _rand(dt, [2, 3], 24), f, None, []),
                ("batch" + s, _rand(dt, [2, 3, 3], 25), f, None, []),
            ]
        return out + _common_errors(dt, square=False)
    unary(rec, "Svd", cases, post=post)


def eigh(rec):
    def post(out, extra):
        if not extra.get("compute_v", True):
            return [out.e]
        e, v = out.e, out.v
        return [e, tf.abs(v), tf.matmul(v * tf.expand_dims(e, -2), v, adjoint_b=True)]

    def sym(dt, batch, n, seed):
        a = np.random.RandomState(seed).uniform(-1, 1, size=tuple(batch) + (n, n))
        return arr(a + np.swapaxes(a, -1, -2), dt)

    def cases(dt):
        return [
            ("basic", sym(dt, [], 3, 40), None, None, []),
            ("batch", sym(dt, [2, 2], 4, 41), None, None, []),
            ("values_only", sym(dt, [3], 5, 42), {"compute_v": False}, None, []),
            ("lower_triangle_only", arr([[2, 100], [1, 3]], dt), None, None, []),
            ("one_by_one", arr([[[-2.5]], [[4]]], dt), None, None, []),
            ("diagonal", arr(np.diag([3.0, -1.0, 2.0]), dt), None, None, []),
            ("larger", sym(dt, [], 12, 43), None, None, []),
            ("empty", np.zeros((2, 0, 0), dt), None, None, []),
            ("infinite_values", arr([[np.inf, 1], [1, 3]], dt), {"compute_v": False}, None, []),
            ("nan_error", arr([[np.nan, 1], [1, 3]], dt), None, "INVALID_ARGUMENT",
             ["Self-adjoint eigen decomposition was not successful."]),
        ] + _common_errors(dt)
    unary(rec, "SelfAdjointEigV2", cases, post=post)


def solve(rec, op):
    def gen(dt):
        rtol, atol = _tol(dt)

        def c(what, m, rhs, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                matrix=ph("matrix", m, dt), rhs=ph("rhs", rhs, dt), name="out", **attrs),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        m = _well(dt, [], 3, 30)
        b = _rand(dt, [3, 2], 31)
        mb = _well(dt, [2], 3, 32)
        bb = _rand(dt, [2, 3, 4], 33)
        if op == "MatrixTriangularSolve":
            for lower in (True, False):
                for adj in (False, True):
                    c("lower%d_adjoint%d" % (lower, adj), m, b, lower=lower, adjoint=adj)
            c("batch", mb, bb, lower=True, adjoint=False)
            c("broadcast_matrix", mb[:1], bb, lower=False, adjoint=True)
            c("broadcast_rhs", _well(dt, [2, 2], 3, 34), _rand(dt, [2, 1, 3, 1], 35))
            c("rank2_matrix_batched_rhs", m, bb)
            c("singular_gives_inf", arr([[0, 0], [1, 1]], dt), arr([[1], [1]], dt))
            c("empty_rhs", m, np.zeros((3, 0), dt))
            c("empty_batch", np.zeros((0, 2, 2), dt), np.zeros((0, 2, 1), dt))
            c("not_square_error", _rand(dt, [2, 3], 36), _rand(dt, [2, 1], 37),
              error="INVALID_ARGUMENT",
              phrases=["In[0] matrices in the last dimensions must be square (3 =/= 2)"])
            c("rank1_error", arr([1, 2], dt), _rand(dt, [2, 1], 37), error="INVALID_ARGUMENT",
              phrases=["In[0] ndims must be >= 2: 1"])
            c("rhs_rows_error", m, _rand(dt, [2, 1], 38), error="INVALID_ARGUMENT",
              phrases=["In[0] mismatch In[1] shape: 3 vs. 2: [3,3] [2,1] 1 0"])
            c("batch_error", mb, _rand(dt, [3, 3, 1], 39), error="INVALID_ARGUMENT",
              phrases=["In[0] and In[1] must have compatible batch dimensions: [2,3,3] vs. "
                       "[3,3,1]"])
        else:
            c("basic", m, b)
            c("adjoint", m, b, adjoint=True)
            c("batch", mb, bb)
            c("batch_adjoint", mb, bb, adjoint=True)
            c("empty_rhs", m, np.zeros((3, 0), dt))
            c("empty_batch", np.zeros((0, 2, 2), dt), np.zeros((0, 2, 1), dt))
            c("singular_error", arr([[1, 2], [2, 4]], dt), arr([[1], [1]], dt),
              error="INVALID_ARGUMENT", phrases=["Input matrix is not invertible."])
            c("not_square_error", _rand(dt, [2, 3], 36), _rand(dt, [2, 1], 37),
              error="INVALID_ARGUMENT", phrases=["First input (lhs) must be a square matrix."])
            c("rank1_error", arr([1, 2], dt), _rand(dt, [2, 1], 37), error="INVALID_ARGUMENT")
            c("rhs_rows_error", m, _rand(dt, [2, 1], 38), error="INVALID_ARGUMENT",
              phrases=["Input matrix and rhs are incompatible."])
            c("batch_error", mb, _rand(dt, [3, 3, 1], 39), error="INVALID_ARGUMENT",
              phrases=["All input tensors must have the same outer dimensions."])

    rec.for_dtypes(op, DTYPES, gen)


def tridiagonal(rec):
    """TridiagonalSolve (pivoting, Thomas, perturbed singular pivots; zero pivots give NaN) and
    TridiagonalMatMul, batched, with TensorFlow's shape errors."""
    def solve_gen(dt):
        rtol, atol = _tol(dt)

        def c(what, d, r, error=None, phrases=(), **attrs):
            rec.case("TridiagonalSolve", dt, what, lambda: tf.raw_ops.TridiagonalSolve(
                diagonals=ph("d", d, dt), rhs=ph("rhs", r, dt), name="out", **attrs),
                rtol=rtol, atol=atol, error=error, phrases=phrases)
        d = _rand(dt, [2, 3, 6], 281)
        d[:, 1, :] += 3.0
        r = _rand(dt, [2, 6, 2], 282)
        c("pivoting", d, r)
        c("thomas", d, r, partial_pivoting=False)
        c("perturb_singular", d, r, perturb_singular=True)
        swaps = arr([[1, 2, 3, 0], [4, 5, 6, 7], [0, 8, 9, 1]], dt)
        rr = arr(np.arange(8).reshape(4, 2), dt)
        c("row_swaps", swaps, rr)
        c("thomas_zero_pivot_nan", swaps, rr, partial_pivoting=False)
        c("singular_nan", arr(np.zeros([3, 4]), dt), rr)
        c("singular_perturbed", arr([[1, 1, 1, 0], [1, 1, 1, 1], [0, 1, 1, 1]], dt), rr,
          perturb_singular=True)
        c("one_equation", arr([[0], [2], [0]], dt), arr([[3, 4]], dt))
        c("one_equation_zero_nan", arr([[0], [0], [0]], dt), arr([[3, 4]], dt))
        c("two_equations", arr([[1, 0], [0.5, 2], [0, 3]], dt), arr([[1], [2]], dt))
        c("empty", arr(np.zeros([3, 0]), dt), arr(np.zeros([0, 2]), dt))
        if dt == "float32":
            c("rows_error", d[:, :2], r, error="INVALID_ARGUMENT",
              phrases=["Expected diagonals to be provided as a matrix with 3 rows, got 2 rows."])
            c("mismatch_error", d, r[:, :5], error="INVALID_ARGUMENT",
              phrases=["Expected the same number of left-hand sides and right-hand sides, got "
                       "6 and 5."])
            c("rank_error", d[0, 0], r, error="INVALID_ARGUMENT",
              phrases=["Input tensor 0 must have rank >= 2, got 1"])
            c("batch_rank_error", d, r[0], error="INVALID_ARGUMENT",
              phrases=["All input tensors must have the same rank."])
            c("batch_dims_error", d, np.concatenate([r, r]), error="INVALID_ARGUMENT",
              phrases=["All input tensors must have the same outer dimensions."])
            c("perturb_without_pivoting_error", d, r, partial_pivoting=False,
              perturb_singular=True, error="INVALID_ARGUMENT",
              phrases=["Setting perturb_singular requires also setting partial_pivoting."])

    def matmul_gen(dt):
        rtol, atol = _tol(dt)

        def c(what, sup, main, sub, r, error=None, phrases=()):
            rec.case("TridiagonalMatMul", dt, what, lambda: tf.raw_ops.TridiagonalMatMul(
                superdiag=ph("sup", sup, dt), maindiag=ph("main", main, dt),
                subdiag=ph("sub", sub, dt), rhs=ph("rhs", r, dt), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)
        sup, main, sub = (_rand(dt, [2, 1, 5], 283 + i) for i in range(3))
        r = _rand(dt, [2, 5, 3], 286)
        c("batch", sup, main, sub, r)
        c("one_row", sup[0, :, :1], main[0, :, :1], sub[0, :, :1], r[0, :1])
        c("empty", sup[0, :, :0], main[0, :, :0], sub[0, :, :0], r[0, :0])
        if dt == "float32":
            c("superdiag_error", sup[:, :, :4], main, sub, r, error="INVALID_ARGUMENT",
              phrases=["Invalid superdiagonal shape."])
            c("maindiag_error", sup, main[:, :, :4], sub, r, error="INVALID_ARGUMENT",
              phrases=["Invalid main diagonal shape."])
            c("subdiag_error", sup, main, np.concatenate([sub, sub], 1), r,
              error="INVALID_ARGUMENT", phrases=["Invalid subdiagonal shape."])
            c("rank_error", sup[0, 0], main, sub, r, error="INVALID_ARGUMENT",
              phrases=["Input tensor 0 must have rank >= 2, got 1"])

    rec.for_dtypes("TridiagonalSolve", DTYPES, solve_gen)
    rec.for_dtypes("TridiagonalMatMul", DTYPES, matmul_gen)


def banded_triangular_solve(rec):
    """BandedTriangularSolve: lower / upper band storage, adjoint, broadcast batches, TensorFlow's
    shape errors and its zero-diagonal check (first matrix only)."""
    op = "BandedTriangularSolve"

    def gen(dt):
        rtol, atol = _tol(dt)

        def c(what, a, r, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.BandedTriangularSolve(
                matrix=ph("a", a, dt), rhs=ph("rhs", r, dt), name="out", **attrs),
                rtol=rtol, atol=atol, error=error, phrases=phrases)
        lo = _rand(dt, [2, 3, 6], 291)
        lo[:, 0, :] += arr(3.0, dt)
        up = _rand(dt, [2, 3, 6], 292)
        up[:, 2, :] += arr(3.0, dt)
        r = _rand(dt, [2, 6, 2], 293)
        for lower, a in ((True, lo), (False, up)):
            side = "lower" if lower else "upper"
            c(side, a, r, lower=lower)
            c(side + "_adjoint", a, r, lower=lower, adjoint=True)
            c(side + "_one_band", a[:, :1] if lower else a[:, 2:], r, lower=lower)
            c(side + "_bands_past_size", a[:1, :, :2], r[:1, :2], lower=lower)
        c("broadcast_batch", lo[:1], _rand(dt, [3, 1, 6, 2], 294))
        if dt == "float32":
            c("empty_matrix_error", lo[:, :, :0], r[:, :0], error="INVALID_ARGUMENT",
              phrases=["In[0] must not be an empty tensor"])
            c("empty_rhs_error", lo, r[:, :, :0], error="INVALID_ARGUMENT",
              phrases=["In[1] must not be an empty tensor"])
            c("zero_diagonal_error", arr(np.zeros([2, 4]), dt), r[0, :4], error="INVALID_ARGUMENT",
              phrases=["Input matrix is not invertible."])
            c("mismatch_error", lo, r[:, :5], error="INVALID_ARGUMENT",
              phrases=["In[0] mismatch In[1] shape: 6 vs. 5"])
            c("rank_error", lo[0, 0], r, error="INVALID_ARGUMENT",
              phrases=["In[0] ndims must be >= 2: 1"])
            c("batch_error", lo, _rand(dt, [3, 6, 2], 295), error="INVALID_ARGUMENT",
              phrases=["In[0] and In[1] must have compatible batch dimensions: [2,3,6] vs. "
                       "[3,6,2]"])

    rec.for_dtypes(op, DTYPES, gen)


def lu(rec):
    """Lu: packed partial-pivot factors and the row permutation (int32, int64), batched; singular
    inputs and TensorFlow's shape errors."""
    def gen(dt):
        rtol, atol = _tol(dt)

        def c(what, x, idx="int32", error=None, phrases=()):
            rec.case("Lu", dt, what, lambda: list(tf.raw_ops.Lu(
                input=ph("x", x, dt), output_idx_type=idx, name="out")),
                rtol=rtol, atol=atol, error=error, phrases=phrases)
        c("pivoting", arr([[1, 2, 0], [3, 1, 4], [0, 2, 5]], dt))
        c("swap", arr([[0, 1], [1, 0]], dt), idx="int64")
        c("batch", _well(dt, [2, 3], 4, 296))
        c("larger", _rand(dt, [20, 20], 297))
        c("empty", arr(np.zeros([2, 0, 0]), dt))
        if dt == "float32":
            c("singular_error", arr(np.zeros([2, 2]), dt), error="INVALID_ARGUMENT",
              phrases=["Input is not invertible."])
            c("nan_error", arr(np.full([2, 2], np.nan), dt), error="INVALID_ARGUMENT",
              phrases=["Input is not invertible."])
            c("square_error", arr(np.ones([2, 3]), dt), error="INVALID_ARGUMENT",
              phrases=["Input matrix must be square."])
            c("rank_error", arr(np.ones([3]), dt), error="INVALID_ARGUMENT",
              phrases=["Input tensor must have rank >= 2, got 1"])

    rec.for_dtypes("Lu", DTYPES, gen)


def matrix_solve_ls(rec):
    """MatrixSolveLs: overdetermined and underdetermined, with and without l2_regularizer, the
    fast (Cholesky) and slow (orthogonal decomposition) paths, TensorFlow's errors."""
    def gen(dt):
        rtol, atol = _tol(dt)

        def c(what, a, r, l2=0.0, error=None, phrases=(), **attrs):
            rec.case("MatrixSolveLs", dt, what, lambda: tf.raw_ops.MatrixSolveLs(
                matrix=ph("a", a, dt), rhs=ph("rhs", r, dt),
                l2_regularizer=ph("l2", np.asarray(l2, np.float64)), name="out", **attrs),
                rtol=rtol, atol=atol, error=error, phrases=phrases)
        tall = _rand(dt, [2, 5, 3], 298)
        wide = _rand(dt, [2, 3, 5], 299)
        rt, rw = _rand(dt, [2, 5, 2], 300), _rand(dt, [2, 3, 2], 301)
        c("overdetermined", tall, rt)
        c("overdetermined_l2", tall, rt, 0.5)
        c("underdetermined", wide, rw)
        c("underdetermined_l2", wide, rw, 0.25)
        c("slow_overdetermined", tall, rt, fast=False)
        c("slow_underdetermined", wide, rw, fast=False)
        c("slow_ignores_l2", tall, rt, 0.5, fast=False)
        if dt == "float32":
            c("rank_deficient_error", arr(np.zeros([3, 2]), dt), arr(np.ones([3, 1]), dt),
              error="INVALID_ARGUMENT",
              phrases=["Input matrix was rank deficient or ill-conditioned. Try setting "
                       "fast=False or provide a larger l2_regularizer > 0."])
            c("l2_shape_error", tall[0], rt[0], [0.1], error="INVALID_ARGUMENT",
              phrases=["l2_regularizer must be scalar, got shape [1]"])
            c("rows_error", tall[0], rw[0], error="INVALID_ARGUMENT",
              phrases=["Input matrix and rhs are incompatible."])
            c("rank_error", tall[0, 0], rt[0], error="INVALID_ARGUMENT",
              phrases=["Input tensor 0 must have rank >= 2, got 1"])
            c("batch_rank_error", tall, rt[0], error="INVALID_ARGUMENT",
              phrases=["All input tensors must have the same rank."])

    rec.for_dtypes("MatrixSolveLs", DTYPES, gen)


def matrix_square_root(rec):
    """MatrixSquareRoot: the principal root by the Schur method (real and complex-conjugate
    eigenvalue pairs, a batch), NaN for a negative real eigenvalue, TensorFlow's shape errors."""
    def gen(dt):
        rtol, atol = (1e-4, 1e-5) if dt == "float32" else (1e-9, 1e-10)

        def c(what, x, error=None, phrases=()):
            rec.case("MatrixSquareRoot", dt, what, lambda: tf.raw_ops.MatrixSquareRoot(
                input=ph("x", x, dt), name="out"), rtol=rtol, atol=atol, error=error,
                phrases=phrases)
        c("spd_batch", _spd(dt, [2], 4, 302))
        c("nonsymmetric", arr([[1, 2, 0], [3, 1, 4], [0, 2, 5]], dt) + arr(5 * np.eye(3), dt))
        c("rotation", arr([[0, -1], [1, 0]], dt))
        c("negative_eigenvalue_nan", arr(np.diag([-1.0, 4.0]), dt))
        c("negative_eigenvalue_dense_nan", arr([[1, 2], [3, 1]], dt))
        c("nan_input", arr([[1, np.nan], [0, 4]], dt))
        c("one_by_one", arr([[9.0]], dt))
        c("empty", arr(np.zeros([2, 0, 0]), dt))
        if dt == "float32":
            c("square_error", arr(np.ones([2, 3]), dt), error="INVALID_ARGUMENT",
              phrases=["Input matrix must be square."])
            c("rank_error", arr(np.ones([3]), dt), error="INVALID_ARGUMENT",
              phrases=["Input tensor 0 must have rank >= 2, got 1"])

    rec.for_dtypes("MatrixSquareRoot", DTYPES, gen)


def matrix_logarithm(rec):
    """MatrixLogarithm (complex64 and complex128, TensorFlow's only registrations): the principal
    logarithm by Eigen's Schur-Parlett method (diagonal, triangular, dense with complex
    eigenvalues, a rotation, a batch), a singular matrix (-inf / NaN), TensorFlow's shape errors."""
    def gen(dt):
        rtol, atol = (1e-4, 1e-5) if dt == "complex64" else (1e-9, 1e-10)

        def c(what, x, error=None, phrases=()):
            rec.case("MatrixLogarithm", dt, what, lambda: tf.raw_ops.MatrixLogarithm(
                input=ph("x", np.asarray(x, dt), dt), name="out"), rtol=rtol, atol=atol,
                error=error, phrases=phrases)
        rs = np.random.RandomState(77 if dt == "complex64" else 78)
        dense = rs.normal(size=[2, 3, 3]) + 1j * rs.normal(size=[2, 3, 3]) + 4 * np.eye(3)
        c("dense_batch", dense)
        c("diagonal", np.diag([2.0, 0.5 + 1j, -3.0]))
        c("upper_triangular", [[1.0, 2.0, 0.5j], [0, 3.0, 1.0], [0, 0, 0.25]])
        c("repeated_eigenvalue", [[2.0, 1.0], [0, 2.0]])
        c("rotation", [[0, -1.0], [1.0, 0]])
        c("identity", np.eye(4))
        c("one_by_one", [[-2.0 + 0.5j]])
        c("empty", np.zeros([2, 0, 0]))
        c("square_error", np.ones([2, 3]), error="INVALID_ARGUMENT",
          phrases=["Input matrix must be square."])
        c("rank_error", np.ones([3]), error="INVALID_ARGUMENT",
          phrases=["Input tensor 0 must have rank >= 2, got 1"])

    rec.for_dtypes("MatrixLogarithm", ["complex64", "complex128"], gen)


def eig(rec):
    """Eig (tf.linalg.eig / eigvals): float -> complex64, double -> complex128 and the complex
    inputs, with and without eigenvectors; real, complex-conjugate and repeated eigenvalues, a
    batch, a NaN input, TensorFlow's shape errors. Eigen's ComplexEigenSolver
    gives both the same order and unit eigenvectors of the same phase."""
    out = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
           "complex128": "complex128"}

    def gen(dt):
        single = dt in ("float32", "complex64")
        rtol, atol = (1e-4, 1e-5) if single else (1e-9, 1e-10)

        def c(what, x, compute_v=True, error=None, phrases=()):
            def build():
                e, v = tf.raw_ops.Eig(input=ph("x", np.asarray(x, dt), dt), compute_v=compute_v,
                                      Tout=getattr(tf, out[dt]), name="out")
                # Without compute_v TensorFlow leaves v (a scalar) unwritten: e only.
                return [e, v] if compute_v else [e]
            rec.case("Eig", dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)
        rs = np.random.RandomState(len(dt))
        dense = rs.normal(size=[2, 4, 4])
        if dt.startswith("complex"):
            dense = dense + 1j * rs.normal(size=[2, 4, 4])
        c("dense_batch", dense)
        c("dense_values_only", dense, compute_v=False)
        c("rotation", [[0, -1.0], [1.0, 0]])
        c("symmetric", [[2.0, 1.0, 0], [1.0, 3.0, 1.0], [0, 1.0, 4.0]])
        c("triangular", [[1.0, 2.0, 3.0], [0, 4.0, 5.0], [0, 0, 6.0]])
        c("one_by_one", [[-2.5]])
        c("empty", np.zeros([2, 0, 0]))
        c("nan_input", [[1.0, np.nan], [0, 1.0]])
        c("square_error", np.ones([2, 3]), error="INVALID_ARGUMENT",
          phrases=["Input matrix must be square."])
        c("rank_error", np.ones([3]), error="INVALID_ARGUMENT",
          phrases=["Input tensor 0 must have rank >= 2, got 1"])

    rec.for_dtypes("Eig", ["float32", "float64", "complex64", "complex128"], gen)


def build_all(rec, emit):
    determinant(rec)
    emit("MatrixDeterminant")
    emit("LogMatrixDeterminant")
    inverse(rec)
    emit("MatrixInverse")
    cholesky(rec)
    emit("Cholesky")
    qr(rec)
    emit("Qr")
    svd(rec)
    emit("Svd")
    eigh(rec)
    emit("SelfAdjointEigV2")
    solve(rec, "MatrixTriangularSolve")
    emit("MatrixTriangularSolve")
    solve(rec, "MatrixSolve")
    emit("MatrixSolve")
    tridiagonal(rec)
    emit("TridiagonalSolve")
    emit("TridiagonalMatMul")
    banded_triangular_solve(rec)
    emit("BandedTriangularSolve")
    lu(rec)
    emit("Lu")
    matrix_solve_ls(rec)
    emit("MatrixSolveLs")
    matrix_square_root(rec)
    emit("MatrixSquareRoot")
    matrix_logarithm(rec)
    emit("MatrixLogarithm")
    eig(rec)
    emit("Eig")
