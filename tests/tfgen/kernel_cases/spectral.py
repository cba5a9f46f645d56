"""Complex numbers (Complex, Real, Imag, ComplexAbs, Angle, Conj; the complex64/complex128 cases
of Exp, Add, AddV2, Sub, Mul, Div, RealDiv, Neg, Square and Cast to and from them) and the FFTs (FFT, IFFT, RFFT, IRFFT and
their 2-D and 3-D forms).

The FFT cases' tolerances allow for TensorFlow computing complex64 transforms in float (Rill
computes them in double): rtol 1e-5 / atol 1e-4 for complex64 and float32 outputs, 1e-10 for
complex128 and float64 ones. No case has an empty input and a non-empty output: TensorFlow's real
FFTs return that output uninitialized (Rill's are zeros).
"""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, COMPLEX, COMPLEX_PART, arr, ph, rand, tf_dtype, tol

PART_OF = COMPLEX_PART                       # complex64 -> float32
COMPLEX_OF = {v: k for k, v in PART_OF.items()}  # float32 -> complex64
ARITH_TOL = {"complex64": (1e-5, 1e-5), "complex128": (1e-12, 1e-12)}
FFT_TOL = {"complex64": (1e-5, 1e-4), "complex128": (1e-10, 1e-10)}


def _cplx(re, im, dt):
    """Complex values from their parts (re + 1j * im would turn an infinite part into NaNs)."""
    out = np.zeros(np.shape(re), dtype=dt)
    out.real = re
    out.imag = im
    return out


SPECIAL_RE = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0, -2.5, 0.0, -0.0, 3.0]
SPECIAL_IM = [0.0, 1.0, 2.0, np.inf, -0.0, np.nan, -np.inf, -0.0, 0.0, -4.0]


def complex_op(rec):
    op = "Complex"

    def gen(dt):  # dt: Tout
        part = PART_OF[dt]

        def c(what, re, im, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Complex(
                real=ph("real", re, part), imag=ph("imag", im, part), Tout=tf.as_dtype(dt),
                name="out"), error=error, phrases=phrases)

        seed = "%s/%s" % (op, dt)
        c("basic", rand(part, [2, 3], seed + "/re"), rand(part, [2, 3], seed + "/im"))
        c("broadcast", rand(part, [2, 1, 3], seed + "/bre"), rand(part, [4, 1], seed + "/bim"))
        c("scalar_real", rand(part, [], seed + "/sre"), rand(part, [5], seed + "/sim"))
        c("specials", arr(SPECIAL_RE, part), arr(SPECIAL_IM, part))
        c("zero_size", np.zeros([0, 3], part), np.zeros([1, 3], part))
        c("incompatible_error", rand(part, [2, 3], seed + "/e1"), rand(part, [2, 2], seed + "/e2"),
          error="INVALID_ARGUMENT", phrases=("Incompatible shapes",))

    rec.for_dtypes(op, COMPLEX, gen)


def parts(rec, op, kind):
    def gen(dt):  # dt: Tout (float32 for complex64 input)
        cdt = COMPLEX_OF[dt]
        rtol, atol = tol(kind, dt)

        def c(what, x):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x, cdt), Tout=tf.as_dtype(dt), name="out")
                if op != "ComplexAbs" else tf.raw_ops.ComplexAbs(
                    x=ph("x", x, cdt), Tout=tf.as_dtype(dt), name="out"),
                rtol=rtol, atol=atol)

        c("basic", rand(cdt, [3, 4], "%s/%s/basic" % (op, dt)))
        c("specials", _cplx(SPECIAL_RE, SPECIAL_IM, cdt))
        c("scalar", rand(cdt, [], "%s/%s/scalar" % (op, dt)))
        c("zero_size", np.zeros([2, 0], cdt))
        c("large", rand(cdt, [1000], "%s/%s/large" % (op, dt)))

    rec.for_dtypes(op, ["float32", "float64"], gen)


def conj(rec):
    op = "Conj"

    def gen(dt):
        def c(what, x):
            rec.case(op, dt, what, lambda: tf.raw_ops.Conj(input=ph("x", x, dt), name="out"))

        c("basic", rand(dt, [3, 4], "%s/%s/basic" % (op, dt)))
        c("specials", _cplx(SPECIAL_RE, SPECIAL_IM, dt))
        c("zero_size", np.zeros([0], dt))

    rec.for_dtypes(op, COMPLEX, gen)


def cast(rec):
    op = "Cast"
    values = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.9, -7.9, 100.25, 0.5]

    def from_complex(src):
        def c(what, x, dst):
            rec.case(op, src, what, lambda: tf.raw_ops.Cast(x=ph("x", x, src), DstT=tf_dtype(dst),
                                                            name="out"))

        x = _cplx(values, values[::-1], src)
        for dst in ALL + COMPLEX:
            if dst != src:
                c("to_" + dst, x, dst)
        # The unsigned dtypes beyond uint8 get real parts in their range only.
        for dst in ["uint16", "uint32", "uint64", "bfloat16"]:
            c("to_" + dst, _cplx(np.abs(values), values[::-1], src) if dst != "bfloat16" else x,
              dst)
        if src == "complex128":  # Truncate: each part rounds toward zero
            tv = [1.0 + 2.0 ** -24 + 2.0 ** -40, -1.0 / 3.0, np.nan, np.inf, 0.1]
            rec.case(op, src, "truncate_to_complex64", lambda: tf.raw_ops.Cast(
                x=ph("x", _cplx(tv, tv[::-1], src), src), DstT=tf.complex64, Truncate=True,
                name="out"))
        c("imaginary_only_to_bool", _cplx([0.0, 0.0, 1.0], [0.0, 2.0, 0.0], src), "bool")
        c("specials_to_float64", _cplx(SPECIAL_RE, SPECIAL_IM, src), "float64")
        c("zero_size_to_int32", np.zeros([0, 3], src), "int32")

    rec.for_dtypes(op, COMPLEX, from_complex)

    def to_complex(src):
        for dst in COMPLEX:
            x = arr([0, 1, 2, 3, 7, 100], src) if src == "bool" or src.startswith("uint") else arr(
                [0, 1, -2, 3, -7, 100], src)
            rec.case(op, src, "to_" + dst, lambda: tf.raw_ops.Cast(
                x=ph("x", x, src), DstT=tf_dtype(dst), name="out"))

    rec.for_dtypes(op, ALL + ["uint16", "uint32", "uint64", "bfloat16"], to_complex)


UNARY = [("Exp", "small"), ("Neg", "any"), ("Square", "any")]
BINARY = [("Add", True), ("AddV2", True), ("Sub", True), ("Mul", False), ("Div", False),
          ("RealDiv", False)]


def complex_unary(rec, op, vkind):
    def gen(dt):
        rtol, atol = (0.0, 0.0) if op == "Neg" else ARITH_TOL[dt]

        def c(what, x):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(x=ph("x", x, dt), name="out"),
                     rtol=rtol, atol=atol)

        seed = "%s/%s" % (op, dt)
        c("basic", rand(dt, [3, 4], seed + "/basic", vkind))
        c("scalar", rand(dt, [], seed + "/scalar", vkind))
        c("zero_size", np.zeros([0, 2], dt))
        c("large", rand(dt, [1000], seed + "/large", vkind))

    rec.for_dtypes(op, COMPLEX, gen)


def complex_binary(rec, op, exact):
    def gen(dt):
        rtol, atol = (0.0, 0.0) if exact else ARITH_TOL[dt]
        kind_y = "any" if exact else "nonzero"

        def c(what, x, y, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                x=ph("x", x, dt), y=ph("y", y, dt), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        seed = "%s/%s" % (op, dt)
        c("same_shape", rand(dt, [3, 4], seed + "/x"), rand(dt, [3, 4], seed + "/y", kind_y))
        c("broadcast", rand(dt, [2, 1, 3], seed + "/bx"), rand(dt, [4, 1], seed + "/by", kind_y))
        c("scalar_y", rand(dt, [5], seed + "/sx"), rand(dt, [], seed + "/sy", kind_y))
        c("zero_size", np.zeros([0, 3], dt), np.ones([1, 3], dt))
        c("large", rand(dt, [1000], seed + "/lx"), rand(dt, [1000], seed + "/ly", kind_y))
        c("incompatible_error", rand(dt, [2, 3], seed + "/ex"), rand(dt, [3, 2], seed + "/ey"),
          error="INVALID_ARGUMENT", phrases=("Incompatible shapes",))

    rec.for_dtypes(op, COMPLEX, gen)


def fft_complex(rec, op, rank):
    def gen(dt):
        rtol, atol = FFT_TOL[dt]

        def c(what, x, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(input=ph("x", x, dt),
                                                                    name="out"),
                     rtol=rtol, atol=atol, error=error, phrases=phrases)

        seed = "%s/%s" % (op, dt)
        if rank == 1:
            shapes = [("pow2", [3, 8]), ("odd_7", [2, 7]), ("prime_13", [13]), ("len_12", [2, 12]),
                      ("len_1", [4, 1]), ("len_2", [3, 2]), ("rank3", [2, 3, 5]),
                      ("len_64", [64]), ("len_100", [2, 100])]
            empties = [("zero_batch", [0, 4]), ("zero_length", [3, 0])]
        elif rank == 2:
            shapes = [("pow2", [4, 8]), ("batched", [2, 4, 4]), ("odd", [3, 5]),
                      ("mixed", [2, 6, 7]), ("one_by_one", [1, 1]), ("column", [5, 1]),
                      ("row", [1, 9]), ("rank4", [2, 1, 3, 4])]
            empties = [("zero_batch", [0, 2, 2]), ("zero_rows", [0, 4]), ("zero_cols", [3, 0])]
        else:
            # vector_blocks: 16 rows of 16, a whole block of vector lanes.
            shapes = [("pow2", [2, 4, 8]), ("batched", [2, 3, 4, 6]), ("odd", [3, 5, 7]),
                      ("mixed", [2, 6, 1, 9]), ("one", [1, 1, 1]), ("depth_1", [1, 4, 5]),
                      ("len_1", [3, 4, 1]), ("rank5", [2, 1, 2, 3, 4]),
                      ("vector_blocks", [1, 4, 4, 16])]
            empties = [("zero_batch", [0, 2, 2, 2]), ("zero_depth", [0, 3, 4]),
                       ("zero_cols", [2, 3, 0])]
        for what, shape in shapes:
            c(what, rand(dt, shape, "%s/%s" % (seed, what)))
        for what, shape in empties:
            c(what, np.zeros(shape, dt))
        c("too_low_rank_error", rand(dt, [3] * (rank - 1), seed + "/low"),
          error="INVALID_ARGUMENT", phrases=("Input must have rank of at least %d" % rank,))

    rec.for_dtypes(op, COMPLEX, gen)


def fft_real(rec, op, rank, forward):
    def gen(dt):  # dt: the input's dtype (Treal for RFFT, Tcomplex for IRFFT)
        cdt = COMPLEX_OF[dt] if forward else dt
        rdt = dt if forward else PART_OF[dt]
        rtol, atol = FFT_TOL[cdt]

        def c(what, x, n, error=None, phrases=()):
            out_type = {"Tcomplex": tf.as_dtype(cdt)} if forward else {"Treal": tf.as_dtype(rdt)}
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x, dt), fft_length=ph("fft_length", np.asarray(n, np.int32)),
                name="out", **out_type),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        seed = "%s/%s" % (op, dt)

        def r(shape, what):
            return rand(dt, shape, "%s/%s" % (seed, what))

        if rank == 1:
            if forward:
                c("pow2", r([3, 8], "pow2"), [8])
                c("odd_7", r([2, 7], "odd"), [7])
                c("crop", r([2, 10], "crop"), [6])
                c("crop_odd", r([2, 10], "crop_odd"), [5])
                c("len_1", r([4, 1], "len1"), [1])
                c("len_12", r([12], "len12"), [12])
                c("rank3", r([2, 3, 16], "rank3"), [16])
                c("len_100", r([2, 100], "len100"), [100])
                c("input_too_short_error", r([2, 5], "short"), [8], error="INVALID_ARGUMENT",
                  phrases=("Input dimension 1 must have length of at least 8 but got: 5",))
            else:
                c("even", r([3, 5], "even"), [8])
                c("odd", r([2, 5], "odd"), [9])
                c("crop", r([2, 9], "crop"), [8])
                c("len_1", r([4, 1], "len1"), [1])
                c("len_2", r([4, 2], "len2"), [2])
                c("len_12", r([7], "len12"), [12])
                c("rank3", r([2, 3, 9], "rank3"), [16])
                c("len_100", r([2, 51], "len100"), [100])
                c("input_too_short_error", r([2, 5], "short"), [30], error="INVALID_ARGUMENT",
                  phrases=("Input dimension 1 must have length of at least 16 but got: 5",))
            c("zero_batch", np.zeros([0, 8], dt), [8])
            c("negative_length_error", r([2, 8], "neg"), [-1], error="INVALID_ARGUMENT",
              phrases=("fft_length[0] must >= 0, but got: -1",))
            c("length_shape_error", r([2, 8], "shape"), [4, 4], error="INVALID_ARGUMENT",
              phrases=("fft_length must have shape [1]",))
            c("length_scalar_error", r([2, 8], "scalar"), 4, error="INVALID_ARGUMENT",
              phrases=("fft_length must have shape [1]",))
            c("scalar_input_error", r([], "scalar_in"), [4], error="INVALID_ARGUMENT",
              phrases=("Input must have rank of at least 1",))
        elif rank == 3:
            if forward:
                c("pow2", r([2, 4, 8], "pow2"), [2, 4, 8])
                c("batched", r([2, 3, 4, 6], "batched"), [3, 4, 6])
                c("odd", r([3, 5, 7], "odd"), [3, 5, 7])
                c("crop", r([1, 4, 5, 7], "crop"), [3, 4, 5])
                c("crop_depth", r([4, 3, 8], "crop_depth"), [2, 3, 8])
                c("one", r([1, 1, 1], "one"), [1, 1, 1])
                c("len_1", r([3, 4, 1], "len1"), [3, 4, 1])
                c("vector_blocks", r([1, 4, 4, 32], "blocks"), [4, 4, 32])
                c("input_too_short_error", r([3, 4, 5], "short"), [3, 6, 5],
                  error="INVALID_ARGUMENT",
                  phrases=("Input dimension 1 must have length of at least 6 but got: 4",))
            else:
                c("pow2", r([2, 4, 5], "pow2"), [2, 4, 8])
                c("batched", r([2, 3, 4, 4], "batched"), [3, 4, 6])
                c("odd", r([3, 5, 4], "odd"), [3, 5, 7])
                c("crop", r([1, 5, 6, 7], "crop"), [4, 5, 10])
                c("crop_depth", r([4, 3, 5], "crop_depth"), [2, 3, 8])
                c("one", r([1, 1, 1], "one"), [1, 1, 1])
                c("len_1", r([3, 4, 1], "len1"), [3, 4, 1])
                c("vector_blocks", r([1, 4, 4, 17], "blocks"), [4, 4, 32])
                c("depth_too_short_error", r([3, 4, 5], "short0"), [4, 4, 8],
                  error="INVALID_ARGUMENT",
                  phrases=("Input dimension 0 must have length of at least 4 but got: 3",))
                c("bins_too_short_error", r([3, 4, 5], "short2"), [3, 4, 10],
                  error="INVALID_ARGUMENT",
                  phrases=("Input dimension 2 must have length of at least 6 but got: 5",))
            c("zero_batch", np.zeros([0, 4, 4, 4], dt), [4, 4, 4])
            c("negative_length_error", r([4, 4, 8], "neg"), [4, 4, -2], error="INVALID_ARGUMENT",
              phrases=("fft_length[2] must >= 0, but got: -2",))
            c("length_shape_error", r([4, 4, 8], "shape"), [4, 4], error="INVALID_ARGUMENT",
              phrases=("fft_length must have shape [3]",))
            c("low_rank_error", r([4, 8], "low"), [4, 4, 4], error="INVALID_ARGUMENT",
              phrases=("Input must have rank of at least 3",))
        else:
            if forward:
                c("pow2", r([4, 8], "pow2"), [4, 8])
                c("batched", r([2, 3, 6], "batched"), [3, 6])
                c("odd", r([5, 7], "odd"), [5, 7])
                c("crop", r([2, 6, 9], "crop"), [4, 5])
                c("one_by_one", r([1, 1], "one"), [1, 1])
                c("input_too_short_error", r([2, 5], "short"), [4, 4], error="INVALID_ARGUMENT",
                  phrases=("Input dimension 0 must have length of at least 4 but got: 2",))
            else:
                c("pow2", r([4, 5], "pow2"), [4, 8])
                c("batched", r([2, 3, 4], "batched"), [3, 6])
                c("odd", r([5, 4], "odd"), [5, 7])
                c("crop", r([2, 6, 9], "crop"), [4, 10])
                c("one_by_one", r([1, 1], "one"), [1, 1])
                c("rows_too_short_error", r([3, 5], "short0"), [4, 8], error="INVALID_ARGUMENT",
                  phrases=("Input dimension 0 must have length of at least 4 but got: 3",))
                c("bins_too_short_error", r([3, 5], "short1"), [3, 10], error="INVALID_ARGUMENT",
                  phrases=("Input dimension 1 must have length of at least 6 but got: 5",))
            c("zero_batch", np.zeros([0, 4, 4], dt), [4, 4])
            c("negative_length_error", r([4, 8], "neg"), [4, -2], error="INVALID_ARGUMENT",
              phrases=("fft_length[1] must >= 0, but got: -2",))
            c("length_shape_error", r([4, 8], "shape"), [4], error="INVALID_ARGUMENT",
              phrases=("fft_length must have shape [2]",))
            c("low_rank_error", r([8], "low"), [4, 4], error="INVALID_ARGUMENT",
              phrases=("Input must have rank of at least 2",))

    rec.for_dtypes(op, ["float32", "float64"] if forward else COMPLEX, gen)


def build_all(rec, emit):
    complex_op(rec)
    emit("Complex")
    for op in ["Real", "Imag"]:
        parts(rec, op, "exact")
        emit(op)
    for op in ["ComplexAbs", "Angle"]:
        parts(rec, op, "transc")
        emit(op)
    conj(rec)
    emit("Conj")
    cast(rec)
    emit("Cast")
    for op, vkind in UNARY:
        complex_unary(rec, op, vkind)
        emit(op)
    for op, exact in BINARY:
        complex_binary(rec, op, exact)
        emit(op)
    for op, rank in [("FFT", 1), ("IFFT", 1), ("FFT2D", 2), ("IFFT2D", 2), ("FFT3D", 3),
                     ("IFFT3D", 3)]:
        fft_complex(rec, op, rank)
        emit(op)
    for op, rank, forward in [("RFFT", 1, True), ("IRFFT", 1, False), ("RFFT2D", 2, True),
                              ("IRFFT2D", 2, False), ("RFFT3D", 3, True), ("IRFFT3D", 3, False)]:
        fft_real(rec, op, rank, forward)
        emit(op)
