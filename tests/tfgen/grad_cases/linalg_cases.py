"""Gradient cases for ops/linalg_ops.cc, the batch matrix products, the complex-number and
spectral ops, and the band/diagonal ops (graph/gradients/linalg_grad.cc)."""
import numpy as np
import tensorflow as tf

from grad_cases import rand

raw = tf.raw_ops
REAL = (np.float32, np.float64)
COMPLEX = ((np.complex64, np.float32), (np.complex128, np.float64))


def crand(shape, seed, ctype, rtype):
    return (rand(shape, (seed, "re"), "any", rtype) +
            1j * rand(shape, (seed, "im"), "any", rtype)).astype(ctype)


def well_conditioned(shape, seed, dtype):
    """Random matrices plus n on the diagonal (far from singular)."""
    n = shape[-1]
    return (rand(shape, seed, "any", dtype) + n * np.eye(n, dtype=dtype)).astype(dtype)


def spd(shape, seed, dtype):
    m = rand(shape, seed, "any", dtype)
    n = shape[-1]
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n, dtype=dtype)).astype(dtype)


def complex_dy(fn):
    """Wraps a case's build so a complex output is squared: the gradient reaching the op under
    test is dy * conj(2 * out), with imaginary parts (the recorded dy values are real)."""
    def build(*xs):
        y = fn(*xs)
        return raw.Square(x=y, name="squared") if y.dtype.is_complex else y
    return build


def cases(add):
    def add_complex_dy(op, what, inputs, build, **kw):
        add(op, what, inputs, complex_dy(build), **kw)

    batch_matmul(add)
    complex_ops(add_complex_dy)
    bands_and_diagonals(add)
    solvers(add)
    ffts(add_complex_dy)
    einsums(add)
    qr(add)
    svd(add)
    eigh(add)
    eig(add)


def batch_matmul(add):
    for op in ["BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"]:
        fn = getattr(raw, op)
        if op == "BatchMatMulV3":
            fn = lambda x, y, _v3=fn, **kw: _v3(x=x, y=y, Tout=x.dtype, **kw)
        shapes = [("batch2", [2, 3, 4], [2, 4, 5])]
        if op != "BatchMatMul":
            shapes += [("broadcast_rank2_y", [2, 3, 4], [4, 5]),
                       ("broadcast_batch1", [1, 3, 4], [2, 4, 5]),
                       ("broadcast_rank4", [3, 1, 3, 4], [2, 4, 5]),
                       ("plain_matrices", [3, 4], [4, 5])]
        for what, sx, sy in shapes:
            for adj_x in [False, True]:
                for adj_y in [False, True]:
                    ax = sx[:-2] + [sx[-1], sx[-2]] if adj_x else sx
                    ay = sy[:-2] + [sy[-1], sy[-2]] if adj_y else sy
                    dts = REAL if what == "batch2" else (np.float32,)
                    for dt in dts:
                        add(op, "%s_adj%d%d" % (what, adj_x, adj_y),
                            [("x", rand(ax, (op, what, adj_x, adj_y, "x", dt), "any", dt)),
                             ("y", rand(ay, (op, what, adj_x, adj_y, "y", dt), "any", dt))],
                            lambda x, y, fn=fn, a=adj_x, b=adj_y: fn(x=x, y=y, adj_x=a, adj_y=b,
                                                                      name="out"))


def complex_ops(add):
    for ctype, rtype in COMPLEX:
        for what, sx, sy in [("same_shape", [2, 3], [2, 3]), ("broadcast", [2, 3], [3])]:
            add("Complex", what, [("re", rand(sx, ("cx", what, "re", rtype), "any", rtype)),
                                  ("im", rand(sy, ("cx", what, "im", rtype), "any", rtype))],
                lambda re, im, c=ctype: raw.Complex(real=re, imag=im, Tout=tf.as_dtype(c),
                                                    name="out"))
        for op in ["Real", "Imag", "Angle", "ComplexAbs"]:
            fn = getattr(raw, op)
            arg = "x" if op == "ComplexAbs" else "input"
            add(op, "rank2", [("x", crand([3, 4], (op, ctype), ctype, rtype))],
                lambda x, fn=fn, r=rtype, arg=arg: fn(**{arg: x}, Tout=tf.as_dtype(r),
                                                      name="out"))
        add("Conj", "rank2", [("x", crand([3, 4], ("conj", ctype), ctype, rtype))],
            lambda x: raw.Conj(input=x, name="out"))
    add("ComplexAbs", "with_zero",
        [("x", np.array([0, 1 + 2j, -3j, 0.5], np.complex64))],
        lambda x: raw.ComplexAbs(x=x, Tout=tf.float32, name="out"))


def bands_and_diagonals(add):
    for what, shape, lo, hi in [("lower", [4, 4], -1, 0), ("band", [2, 3, 5], 1, 2),
                                ("upper", [3, 4], 0, -1)]:
        for dt in REAL:
            add("MatrixBandPart", what, [("x", rand(shape, ("band", what, dt), "any", dt))],
                lambda x, lo=lo, hi=hi: raw.MatrixBandPart(
                    input=x, num_lower=tf.constant(lo, tf.int64),
                    num_upper=tf.constant(hi, tf.int64), name="out"))
    for what, dshape, k, rows, cols, align in [
            ("main", [2, 3], 0, -1, -1, "RIGHT_LEFT"),
            ("superdiag_wide", [3], 1, 3, 5, "RIGHT_LEFT"),
            ("band_right_left", [2, 3, 3], [-1, 1], -1, -1, "RIGHT_LEFT"),
            ("band_left_right", [3, 3], [-1, 1], 3, 3, "LEFT_RIGHT")]:
        for dt in REAL:
            add("MatrixDiagV3", what, [("d", rand(dshape, ("diag", what, dt), "any", dt))],
                lambda d, k=k, rows=rows, cols=cols, align=align: raw.MatrixDiagV3(
                    diagonal=d, k=tf.constant(k), num_rows=tf.constant(rows),
                    num_cols=tf.constant(cols), padding_value=tf.constant(0, d.dtype),
                    align=align, name="out"))
    for what, shape, k, align in [("main", [2, 3, 4], 0, "RIGHT_LEFT"),
                                  ("subdiag", [4, 3], -1, "RIGHT_LEFT"),
                                  ("band_right_left", [2, 3, 4], [-1, 1], "RIGHT_LEFT"),
                                  ("band_left_left", [3, 3], [0, 2], "LEFT_LEFT")]:
        for dt in REAL:
            add("MatrixDiagPartV3", what, [("x", rand(shape, ("diagpart", what, dt), "any", dt))],
                lambda x, k=k, align=align: raw.MatrixDiagPartV3(
                    input=x, k=tf.constant(k), padding_value=tf.constant(0.5, x.dtype),
                    align=align, name="out"))
    for what, shape, dshape, k, align in [("main", [2, 3, 3], [2, 3], 0, "RIGHT_LEFT"),
                                          ("superdiag", [3, 4], [3], 1, "RIGHT_LEFT"),
                                          ("band", [2, 3, 3], [2, 2, 3], [0, 1], "RIGHT_LEFT"),
                                          ("band_left_right", [3, 3], [2, 3], [-1, 0],
                                           "LEFT_RIGHT")]:
        for dt in REAL:
            add("MatrixSetDiagV3", what,
                [("x", rand(shape, ("setdiag", what, "x", dt), "any", dt)),
                 ("d", rand(dshape, ("setdiag", what, "d", dt), "any", dt))],
                lambda x, d, k=k, align=align: raw.MatrixSetDiagV3(
                    input=x, diagonal=d, k=tf.constant(k), align=align, name="out"))
    # The V1 forms (main diagonal), Diag and DiagPart.
    for dt in REAL:
        add("MatrixDiag", "batch", [("d", rand([2, 3], ("mdiag1", dt), "any", dt))],
            lambda d: raw.MatrixDiag(diagonal=d, name="out"))
        add("MatrixDiagPart", "wide", [("x", rand([2, 3, 4], ("mdiagpart1", dt), "any", dt))],
            lambda x: raw.MatrixDiagPart(input=x, name="out"))
        add("MatrixSetDiag", "tall", [("x", rand([4, 3], ("msetdiag1", "x", dt), "any", dt)),
                                      ("d", rand([3], ("msetdiag1", "d", dt), "any", dt))],
            lambda x, d: raw.MatrixSetDiag(input=x, diagonal=d, name="out"))
        add("Diag", "rank2", [("d", rand([2, 3], ("diag1", dt), "any", dt))],
            lambda d: raw.Diag(diagonal=d, name="out"))
        add("DiagPart", "rank4", [("x", rand([2, 3, 2, 3], ("diagpart1", dt), "any", dt))],
            lambda x: raw.DiagPart(input=x, name="out"))


def solvers(add):
    for dt in REAL:
        for shape in [[3, 3], [2, 4, 4]]:
            what = "rank%d" % len(shape)
            for adj in [False, True]:
                add("MatrixInverse", "%s_adj%d" % (what, adj),
                    [("a", well_conditioned(shape, ("inv", what, adj, dt), dt))],
                    lambda a, adj=adj: raw.MatrixInverse(input=a, adjoint=adj, name="out"))
            add("MatrixDeterminant", what, [("a", well_conditioned(shape, ("det", what, dt), dt))],
                lambda a: raw.MatrixDeterminant(input=a, name="out"))
            neg = well_conditioned(shape, ("logdet", what, dt), dt)
            neg[..., 0, :] *= -1  # a negative determinant: sign -1
            add("LogMatrixDeterminant", what, [("a", neg)],
                lambda a: list(raw.LogMatrixDeterminant(input=a, name="out")))
            add("Cholesky", what, [("a", spd(shape, ("chol", what, dt), dt))],
                lambda a: raw.Cholesky(input=a, name="out"))
            rhs = shape[:-1] + [2]
            for adj in [False, True]:
                add("MatrixSolve", "%s_adj%d" % (what, adj),
                    [("a", well_conditioned(shape, ("solve", what, adj, dt), dt)),
                     ("b", rand(rhs, ("solve_b", what, adj, dt), "any", dt))],
                    lambda a, b, adj=adj: raw.MatrixSolve(matrix=a, rhs=b, adjoint=adj,
                                                          name="out"))
                for lower in [True, False]:
                    add("MatrixTriangularSolve", "%s_lower%d_adj%d" % (what, lower, adj),
                        [("a", well_conditioned(shape, ("trsv", what, lower, adj, dt), dt)),
                         ("b", rand(rhs, ("trsv_b", what, lower, adj, dt), "any", dt))],
                        lambda a, b, adj=adj, lower=lower: raw.MatrixTriangularSolve(
                            matrix=a, rhs=b, lower=lower, adjoint=adj, name="out"))
        add("LogMatrixDeterminant", "log_abs_det_only",
            [("a", well_conditioned([3, 3], ("logdet1", dt), dt))],
            lambda a: raw.LogMatrixDeterminant(input=a, name="out")[1])


def ffts(add):
    for ctype, rtype in COMPLEX:
        # Real and imaginary parts are compared separately: a small part next to a large one
        # carries the float32 rounding of the large one.
        tol = dict(atol=1e-5) if ctype == np.complex64 else {}
        for op, shapes in [("FFT", [[5], [2, 4]]), ("IFFT", [[5], [2, 4]]),
                           ("FFT2D", [[3, 4], [2, 3, 5]]), ("IFFT2D", [[3, 4], [2, 3, 5]]),
                           ("FFT3D", [[2, 3, 4], [2, 2, 3, 5]]),
                           ("IFFT3D", [[2, 3, 4], [2, 2, 3, 5]])]:
            for shape in shapes:
                add(op, "rank%d" % len(shape),
                    [("x", crand(shape, (op, shape, ctype), ctype, rtype))],
                    lambda x, fn=getattr(raw, op): fn(input=x, name="out"), **tol)
        for what, shape, n in [("even", [2, 8], 8), ("odd", [5], 5)]:
            add("RFFT", what, [("x", rand(shape, ("rfft", what, rtype), "any", rtype))],
                lambda x, n=n, c=ctype: raw.RFFT(input=x, fft_length=tf.constant([n]),
                                                 Tcomplex=tf.as_dtype(c), name="out"), **tol)
        for what, shape, n in [("even", [3, 8], [3, 8]), ("odd_rows_odd_len", [2, 5, 7], [5, 7]),
                               ("even_rows", [4, 6], [4, 6])]:
            add("RFFT2D", what, [("x", rand(shape, ("rfft2d", what, rtype), "any", rtype))],
                lambda x, n=n, c=ctype: raw.RFFT2D(input=x, fft_length=tf.constant(n),
                                                   Tcomplex=tf.as_dtype(c), name="out"), **tol)
        for what, shape, n in [("even", [2, 5], 8), ("odd", [3], 5)]:
            add("IRFFT", what, [("x", crand(shape, ("irfft", what, ctype), ctype, rtype))],
                lambda x, n=n, r=rtype: raw.IRFFT(input=x, fft_length=tf.constant([n]),
                                                  Treal=tf.as_dtype(r), name="out"), **tol)
        for what, shape, n in [("even", [3, 5], [3, 8]), ("odd_batch", [2, 4, 3], [4, 5])]:
            add("IRFFT2D", what, [("x", crand(shape, ("irfft2d", what, ctype), ctype, rtype))],
                lambda x, n=n, r=rtype: raw.IRFFT2D(input=x, fft_length=tf.constant(n),
                                                    Treal=tf.as_dtype(r), name="out"), **tol)


def einsums(add):
    for what, eq, shapes in [
            ("matmul", "ij,jk->ik", [[3, 4], [4, 5]]),
            ("batch_matmul", "bij,bjk->bik", [[2, 3, 4], [2, 4, 5]]),
            ("attention", "bhqd,bhkd->bhqk", [[2, 2, 3, 4], [2, 2, 5, 4]]),
            ("outer", "i,j->ij", [[3], [4]]),
            ("dot", "i,i->", [[5], [5]]),
            ("sum_other_operand_label", "ij,jk->i", [[3, 4], [4, 5]]),
            ("reduce_own_label", "ijk,jl->il", [[2, 3, 4], [3, 5]]),
            ("ellipsis", "...ij,...jk->...ik", [[2, 3, 4], [2, 4, 5]]),
            ("ellipsis_broadcast", "...ij,...jk->...ik", [[1, 3, 4], [2, 4, 5]]),
            ("ellipsis_one_side", "...ij,jk->...ik", [[2, 3, 4], [4, 5]]),
            ("transpose", "ij->ji", [[3, 4]]),
            ("row_sums", "ij->i", [[3, 4]]),
            ("total", "ijk->", [[2, 3, 4]]),
            ("reduce_and_permute", "ijk->ki", [[2, 3, 4]])]:
        for dt in REAL:
            names = ["x", "y"][:len(shapes)]
            add("Einsum", what, [(n, rand(sh, ("einsum", what, n, dt), "any", dt))
                                 for n, sh in zip(names, shapes)],
                lambda *xs, eq=eq: raw.Einsum(inputs=list(xs), equation=eq, name="out"))


def qr(add):
    for what, shape, full in [("square", [3, 3], False), ("deep", [5, 3], False),
                              ("deep_batch", [2, 4, 3], False), ("wide", [3, 5], False),
                              ("wide_full", [2, 3, 4], True), ("square_full", [3, 3], True)]:
        for dt in REAL:
            add("Qr", what, [("a", rand(shape, ("qr", what, dt), "any", dt))],
                lambda a, full=full: list(raw.Qr(input=a, full_matrices=full, name="out")))


def svd(add):
    for what, shape, full, uv in [("square", [3, 3], False, True), ("deep", [4, 3], False, True),
                                  ("wide_batch", [2, 3, 5], False, True),
                                  ("full_deep", [4, 3], True, True),
                                  ("full_wide", [2, 3], True, True),
                                  ("values_only", [3, 4], False, False),
                                  ("values_only_batch", [2, 4, 3], False, False)]:
        for dt in REAL:
            add("Svd", what, [("a", rand(shape, ("svd", what, dt), "any", dt))],
                lambda a, full=full, uv=uv: (
                    list(raw.Svd(input=a, compute_uv=True, full_matrices=full, name="out"))
                    if uv else raw.Svd(input=a, compute_uv=False, name="out")[0]))


def eigh(add):
    """SelfAdjointEigV2 of symmetric matrices with distinct eigenvalues; the vectors enter the
    loss squared (v * v), which does not depend on their signs."""
    def values_and_squared_vectors(a):
        out = raw.SelfAdjointEigV2(input=a, name="out")
        return [out.e, tf.square(out.v)]

    for what, shape, vectors in [("vectors", [3, 3], True), ("vectors_batch", [2, 4, 4], True),
                                 ("values_only", [3, 3], False),
                                 ("values_only_batch", [2, 3, 3], False)]:
        for dt in REAL:
            a = rand(shape, ("eigh", what, dt), "any", dt)
            add("SelfAdjointEigV2", what, [("a", (a + np.swapaxes(a, -1, -2)).astype(dt))],
                lambda a, vectors=vectors: (
                    values_and_squared_vectors(a) if vectors
                    else raw.SelfAdjointEigV2(input=a, compute_v=False, name="out").e))
    # TridiagonalMatMul: every diagonal and rhs differentiated, batched and one row.
    for what, m, n, batch in [("batch", 5, 3, [2]), ("one_row", 1, 2, [])]:
        for dt in REAL:
            diags = [("%s_diag" % name, rand(batch + [1, m], ("trimm", what, name, dt), "any", dt))
                     for name in ("super", "main", "sub")]
            add("TridiagonalMatMul", what,
                diags + [("rhs", rand(batch + [m, n], ("trimm", what, "rhs", dt), "any", dt))],
                lambda sup, main, sub, rhs: raw.TridiagonalMatMul(
                    superdiag=sup, maindiag=main, subdiag=sub, rhs=rhs, name="out"))
    # TridiagonalSolve: the diagonals and rhs differentiated, pivoting and Thomas.
    for what, attrs in [("pivoting", {}), ("thomas", {"partial_pivoting": False})]:
        for dt in REAL:
            d = rand([2, 3, 5], ("trisolve", what, "d", dt), "any", dt)
            d[:, 1, :] += 4.0
            add("TridiagonalSolve", what,
                [("diagonals", d), ("rhs", rand([2, 5, 2], ("trisolve", what, "r", dt), "any", dt))],
                lambda d, r, attrs=attrs: raw.TridiagonalSolve(diagonals=d, rhs=r, name="out",
                                                               **attrs))


def eig(add):
    """Eig of random real and complex matrices (distinct eigenvalues). The eigenvalues enter the
    loss with complex dy, the vectors as |v| (ComplexAbs), which does not depend on their
    phases; "values_from_vectors" differentiates only e of an Eig with compute_v (the
    vectors' gradient is zeros)."""
    def eig_op(a, compute_v):
        tout = tf.complex64 if a.dtype in (tf.float32, tf.complex64) else tf.complex128
        return raw.Eig(input=a, Tout=tout, compute_v=compute_v, name="out")

    def vector_norms(out):
        real = tf.float32 if out.v.dtype == tf.complex64 else tf.float64
        return raw.ComplexAbs(x=out.v, Tout=real)

    def values_and_norms(a):
        out = eig_op(a, True)
        return [out.e, vector_norms(out)]

    builds = [("vectors", [3, 3], values_and_norms),
              ("vectors_batch", [2, 4, 4], values_and_norms),
              ("vector_norms_only", [3, 3], lambda a: vector_norms(eig_op(a, True))),
              ("values_only", [3, 3], lambda a: eig_op(a, False).e),
              ("values_only_batch", [2, 3, 3], lambda a: eig_op(a, False).e),
              ("values_from_vectors", [4, 4], lambda a: eig_op(a, True).e)]
    for what, shape, build in builds:
        for dt in REAL:
            tol = {"rtol": 1e-3, "atol": 1e-4} if dt == np.float32 else {"rtol": 1e-8, "atol": 1e-10}
            add("Eig", what, [("a", rand(shape, ("eig", what, dt), "any", dt))], build, **tol)
        for ctype, rtype in COMPLEX:
            tol = ({"rtol": 1e-3, "atol": 1e-4} if ctype == np.complex64
                   else {"rtol": 1e-8, "atol": 1e-10})
            add("Eig", what, [("a", crand(shape, ("eig", what, ctype), ctype, rtype))], build, **tol)
