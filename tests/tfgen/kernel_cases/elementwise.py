"""Elementwise binary and unary ops."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import (ALL, FLOAT_SPECIALS, NP, arr, int_edges, is_float, is_int, ph,
                               rand, seed_of, tol)

# op -> (tolerance kind, operand domain). domain: any | div (integer divisor never 0) | pow.
BINARY = [
    ("Add", "exact", "any"), ("AddV2", "exact", "any"), ("Sub", "exact", "any"),
    ("Mul", "exact", "any"), ("MulNoNan", "exact", "any"), ("Div", "transc", "div"),
    ("RealDiv", "transc", "div"),
    ("DivNoNan", "transc", "div"), ("FloorDiv", "transc", "div"), ("FloorMod", "transc", "div"),
    ("Maximum", "exact", "any"), ("Minimum", "exact", "any"), ("Pow", "loose", "pow"),
    ("SquaredDifference", "exact", "any"),
    ("Less", "exact", "any"), ("LessEqual", "exact", "any"), ("Greater", "exact", "any"),
    ("GreaterEqual", "exact", "any"), ("Equal", "exact", "any"), ("NotEqual", "exact", "any"),
    ("LogicalAnd", "exact", "any"), ("LogicalOr", "exact", "any"),
    ("Atan2", "transc", "any"), ("Xlogy", "transc", "any"), ("Xdivy", "transc", "div"),
    ("Xlog1py", "transc", "any"), ("TruncateDiv", "transc", "div"),
    ("TruncateMod", "transc", "div"),
    ("Mod", "transc", "div"),
    ("BitwiseAnd", "exact", "any"), ("BitwiseOr", "exact", "any"), ("BitwiseXor", "exact", "any"),
    ("LeftShift", "exact", "any"), ("RightShift", "exact", "any"),
]
LOGICAL = {"LogicalAnd", "LogicalOr", "LogicalNot"}
# The bitwise ops also take the wider unsigned integers (TensorFlow's CPU kernels).
BITWISE = {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", "Invert",
           "PopulationCount"}
WIDE_UNSIGNED = ["uint16", "uint32", "uint64"]
# Ops with a case of subnormal operands and results (TensorFlow's kernels run with FTZ/DAZ: a
# subnormal input reads as 0 and a subnormal result is 0).
SUBNORMAL_OPS = ("Add", "AddV2", "Sub", "Mul")
# Binary ops whose bfloat16 kernels are tried (TensorFlow's CPU kernels: Eigen computes each
# element in float and rounds once to nearest even), compared bit for bit.
BINARY_BF16 = {"Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "Maximum", "Minimum",
               "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "Atan2", "Pow",
               "FloorDiv", "TruncateDiv"}
# Binary ops whose uint16/uint32/uint64 kernels are tried (TensorFlow's CPU kernels take them).
BINARY_WIDE_UNSIGNED = {"Sub", "Mul", "Div", "FloorDiv", "FloorMod", "TruncateDiv", "Maximum",
                        "Minimum", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal",
                        "NotEqual"}
BF16 = ["bfloat16"]


def _bf16(shape, seed, nonzero=False):
    """bfloat16 values with full 8-bit mantissas, so a result's rounding shows."""
    rs = np.random.RandomState(seed_of(seed))
    out = np.array(rs.uniform(-8, 8, size=tuple(shape)), dtype=NP["bfloat16"])
    if nonzero:
        out[out == 0] = 1
    return out


def binary_bf16(c, op, domain):
    """bfloat16 cases of a binary op: random full-mantissa operands in the usual shapes, the
    NaN/inf/zero pairs, results that tie halfway between two bfloat16 values (1 + 2^-8, 1 + 3 *
    2^-8: rounded to even), overflow past bfloat16's largest finite value, subnormal operands (read
    as 0: TensorFlow runs with denormals flushed) and incompatible shapes."""
    dt = "bfloat16"
    nz = domain == "div"
    for what, sx, sy in [("same_shape", [2, 3], [2, 3]), ("scalar_x", [], [2, 3]),
                         ("scalar_y", [2, 3], []), ("broadcast_rank3_vs_rank2", [2, 3, 4], [3, 1]),
                         ("broadcast_both", [4, 1, 3], [1, 5, 3]), ("zero_size", [0, 3], [1, 3])]:
        seed = "%s/%s/%s" % (op, dt, what)
        c(what, _bf16(sx, seed + "x"), _bf16(sy, seed + "y", nz))
    c("random_1000", _bf16([1000], op + "/bf16/1000x"), _bf16([1000], op + "/bf16/1000y", nz))
    xs, ys = _pairs(FLOAT_SPECIALS, FLOAT_SPECIALS)
    c("nan_inf_zero_pairs", arr(xs, dt).reshape(8, 8), arr(ys, dt).reshape(8, 8))
    big = (2 - 2 ** -7) * 2.0 ** 127  # bfloat16's largest finite value
    c("ties_and_overflow", arr([1, 1 + 2 ** -7, 3, 1, -1, big, big, -big, 2 ** -126], dt),
      arr([2 ** -8, 2 ** -8, 2 ** -7, 3 * 2 ** -8, -2 ** -8, big, -big, 0.5, 2 ** -127], dt))
    c("subnormals", arr([2 ** -130, -2 ** -130, 2 ** -127, 1, 2 ** -133], dt),
      arr([1, 1, 2 ** -127, 2 ** -130, 2 ** -133], dt))
    c("incompatible_shapes_error", _bf16([2, 3], op + "/bf16/ex"),
      _bf16([3, 2], op + "/bf16/ey", True), error="INVALID_ARGUMENT", phrases=["Incompatible shapes: [2,3] vs. [3,2]"])


def subnormal_operands(dt):
    """x, y for float32/float64: subnormal inputs, and normal inputs whose result is subnormal."""
    tiny = float(np.finfo(NP[dt]).tiny)  # the smallest normal
    s = tiny / 12  # subnormal
    r = float(np.sqrt(tiny / 4))  # r * r is subnormal
    return (arr([s, -s, 2 * tiny, 1.5 * tiny, r, s, 1, 3, 1.25 * tiny], dt),
            arr([1, 1, 1, 1.2 * tiny, r, s, s, -s, -tiny], dt))


def _first_dtype(rec, op):
    """True while no dtype of `op` has been recorded: the first one gets the 1000-element case."""
    return not rec.dtypes.get(op)


def _operands(op, domain, dt, shape_x, shape_y, seed):
    """Random operands; for int division the divisor is never 0 and for Pow exponents >= 0."""
    if domain == "pow":
        if is_int(dt):
            return (rand(dt, shape_x, seed + "x", "small"),
                    np.abs(rand(dt, shape_y, seed + "y", "small")))
        return rand(dt, shape_x, seed + "x", "positive"), rand(dt, shape_y, seed + "y", "small")
    y_kind = "nonzero" if domain == "div" else "any"
    return rand(dt, shape_x, seed + "x"), rand(dt, shape_y, seed + "y", y_kind)


def _pairs(xs, ys, keep=lambda x, y: True):
    px, py = [], []
    for x in xs:
        for y in ys:
            if keep(x, y):
                px.append(x)
                py.append(y)
    return px, py


def binary(rec, op, kind, domain, dtypes=ALL):
    dtypes = ["bool"] if op in LOGICAL else dtypes
    raw = getattr(tf.raw_ops, op)
    case_dtype = "" if op in LOGICAL else None
    first, second = ("y", "x") if op == "Atan2" else ("x", "y")  # the op's input names in order

    def gen(dt):
        rtol, atol = tol(kind, dt)
        if dt == "bfloat16" and kind == "loose" or (dt, op) == ("bfloat16", "Atan2"):
            # Pow's and Atan2's float results may round to the neighbouring bfloat16 (one ulp,
            # 2^-7 relative) where Eigen's approximation and the C library's differ in float.
            rtol, atol = 8e-3, 0.0

        def c(what, x, y, error=None, phrases=(), **attrs):
            rec.case(op, dt, what,
                     lambda: raw(**{first: ph(first, x, dt), second: ph(second, y, dt)},
                                 name="out", **attrs),
                     rtol=rtol, atol=atol, error=error, phrases=phrases, case_dtype=case_dtype)

        if dt == "bfloat16":
            binary_bf16(c, op, domain)
            return

        def shapes(what, sx, sy):
            x, y = _operands(op, domain, dt, sx, sy, "%s/%s/%s" % (op, dt, what))
            c(what, x, y)

        shapes("same_shape", [2, 3], [2, 3])
        shapes("scalar_x", [], [2, 3])
        shapes("scalar_y", [2, 3], [])
        shapes("broadcast_rank3_vs_rank2", [2, 3, 4], [3, 1])
        shapes("broadcast_both", [4, 1, 3], [1, 5, 3])
        shapes("broadcast_size1", [1], [2, 2])
        shapes("zero_size", [0, 3], [1, 3])
        if _first_dtype(rec, op):
            shapes("large_1000", [1000], [1000])
        if is_float(dt):
            xs, ys = _pairs(FLOAT_SPECIALS, FLOAT_SPECIALS)
            c("nan_inf_zero_pairs", arr(xs, dt).reshape(8, 8), arr(ys, dt).reshape(8, 8))
            if op in SUBNORMAL_OPS and dt in ("float32", "float64"):
                c("subnormals_flushed", *subnormal_operands(dt))
            if domain == "div":
                c("negative_operands", arr([7.5, -7.5, 7.5, -7.5, 6, -6, 0.5, -0.5, 1], dt),
                  arr([2, 2, -2, -2, 4, -4, 3, -3, -0.25], dt))
            if domain == "pow":
                c("negative_base", arr([-2, -2, -2, -8, -0.5, 0, 0, -0.0], dt),
                  arr([2, 3, 0.5, 1.0 / 3, -1, -1, 0, -1], dt))
        if is_int(dt) or dt in WIDE_UNSIGNED:
            edges = int_edges(dt)
            if domain == "pow":
                info = np.iinfo(NP[dt])
                bits = info.bits
                xs, ys = _pairs([2, 3, 0, 1, 10] + ([-1, -2] if info.min < 0 else []),
                                [0, 1, 2, bits - 1, bits])
                c("overflow_wraps", arr(xs, dt), arr(ys, dt))
                if info.min < 0:
                    c("negative_exponent_error", arr([2, 3], dt), arr([1, -1], dt),
                      error="INVALID_ARGUMENT",
                      phrases=["Integers to negative integer powers are not allowed"])
            elif domain == "div":
                info = np.iinfo(NP[dt])
                xs, ys = _pairs(edges, edges,
                                lambda x, y: y != 0 and not (x == info.min and y == -1))
                c("edge_values", arr(xs, dt), arr(ys, dt))
                if info.min < 0:
                    c("negative_operands", arr([7, -7, 7, -7, 6, -6, 0, 1, -1], dt),
                      arr([2, 2, -2, -2, 3, -3, 5, -5, 5], dt))
                if op in ("TruncateDiv", "TruncateMod"):
                    # TensorFlow's kernel reports these as an unexpected error (INTERNAL).
                    c("divide_by_zero_error", arr([1, 2], dt), arr([1, 0], dt), error="INTERNAL")
                else:
                    c("divide_by_zero_error", arr([1, 2], dt), arr([1, 0], dt),
                      error="INVALID_ARGUMENT", phrases=["Integer division by zero"])
            else:
                xs, ys = _pairs(edges, edges)
                c("edge_values_overflow", arr(xs, dt), arr(ys, dt))
        if dt == "bool":
            xs, ys = _pairs([False, True], [False, True])
            c("truth_table", arr(xs, dt), arr(ys, dt))
        x, y = _operands(op, domain, dt, [2, 3], [3, 2], "%s/%s/error" % (op, dt))
        c("incompatible_shapes_error", x, y, error="INVALID_ARGUMENT",
          phrases=["Incompatible shapes: [2,3] vs. [3,2]"])
        if op in ("Equal", "NotEqual"):
            c("incompatible_shapes_no_error", x, y, incompatible_shape_error=False)

    rec.for_dtypes(op, dtypes, gen)
    if op in ("Equal", "NotEqual"):
        # Strings compare by value: TextVectorization and StringLookup graphs compare tokens.
        def gen_string(dt):
            def c(what, x, y, **attrs):
                rec.case(op, dt, what, lambda: raw(
                    **{first: ph(first, np.array(x, dtype=bytes)),
                       second: ph(second, np.array(y, dtype=bytes))}, name="out", **attrs))
            c("same_shape", [b"a", b"", b"ab", b"b", b"\xc3\xa9"],
              [b"a", b"", b"a", b"B", b"\xc3\xa9"])
            c("broadcast", [[b"x", b"y"], [b"", b"x"]], b"x")
            c("incompatible_shapes_no_error", [b"a", b"b", b"c"], [b"a", b"b"],
              incompatible_shape_error=False)

        rec.for_dtypes(op, ["string"], gen_string)


# op -> (tolerance kind, operand kind for random values, extra float specials)
UNARY = [
    ("Neg", "exact", "any", []), ("Abs", "exact", "any", []), ("Sign", "exact", "any", []),
    ("Square", "exact", "any", [1e19, 3e38]), ("Sqrt", "transc", "positive", [0.25, 2, 1e-8]),
    ("Rsqrt", "loose", "positive", [0.25, 2, 1e-8]),
    ("Exp", "transc", "small", [88.0, 89.0, -87.0, -104.0, 10.0, 1e-7]),
    ("Log", "transc", "positive", [2.718281828, 1e-30, 1e30, 0.25]),
    ("Log1p", "transc", "positive", [-0.9, 1e-7, -1e-7, -2.0, 1e30]),
    ("Sin", "transc", "any", [3.14159265, 1.5707963, 10.0, -20.0]),
    ("Cos", "transc", "any", [3.14159265, 1.5707963, 10.0, -20.0]),
    ("Tanh", "loose", "any", [1e-7, 5.0, 10.0, -20.0, 0.1]),
    ("Sigmoid", "loose", "any", [20.0, -20.0, 50.0, -90.0, 1e-7]),
    ("Relu", "exact", "any", []), ("Relu6", "exact", "any", [5.999, 6.001, 1e9]),
    ("Elu", "transc", "any", [-1e-7, -20.0, -0.1]),
    ("Selu", "transc", "any", [-1e-7, -20.0, -0.1]),
    ("Softplus", "loose", "any", [20.0, -20.0, 15.0, -15.0, 50.0, -90.0]),
    ("LeakyRelu", "exact", "any", []),
    ("Floor", "exact", "any", [0.25, -0.25, 1e9 + 0.5, -4.5]),
    ("Ceil", "exact", "any", [0.25, -0.25, 1e9 + 0.5, -4.5]),
    ("Round", "exact", "any", [3.5, -3.5, 4.5, -4.5, 0.49999997, -0.49999997, 0.25, 1e7 + 1]),
    ("Reciprocal", "transc", "nonzero", [1e-30, 3.0, 1e38]),
    ("Erf", "loose", "any", [0.1, -0.1, 1e-7, 3.0, -5.0, 10.0]),
    ("LogicalNot", "exact", "any", []),
    ("Erfc", "loose", "any", [0.1, -0.1, 1e-7, 3.0, -5.0, 10.0, 26.0, 27.0, -30.0]),
    ("Expm1", "transc", "small", [1e-7, -1e-7, 88.0, 89.0, -87.0, -104.0, 10.0, 1e-10]),
    ("Softsign", "transc", "any", [1e30, -1e30, 1e-7]),
    ("Asinh", "transc", "any", [1e-7, -1e-7, 1e10, -1e10, 1e30, 3e38]),
    ("Acosh", "transc", "ge1", [1.0000001, 1.25, 1e10, 1e30, 3e38, 0.999]),
    ("Atanh", "transc", "unit", [0.999, -0.999, 0.9999999, 1e-7, 0.25, 1.0001]),
    ("Sinh", "transc", "small", [1e-7, -1e-7, 0.25, 88.0, 89.5, 710.0, -90.0, 20.0]),
    ("Cosh", "transc", "small", [1e-7, -1e-7, 0.25, 88.0, 89.5, 710.0, -90.0, 20.0]),
    ("Lgamma", "loose", "any", [1e-7, -1e-7, 3.0, 1e10, 1e30, -0.1, -4.5, -1e10, 171.0, 2e36]),
    ("Digamma", "loose", "any", [1e-7, -1e-7, 1.4616321, 3.0, -0.1, -4.5, -10.25, 1e10, 1e30]),
    ("Erfinv", "loose", "unit", [0.999, -0.999, 0.9999999, 1e-7, 0.1, -0.3, 0.75]),
    ("Ndtri", "loose", "prob", [1e-10, 1e-30, 0.999, 0.9999999, 0.025, 0.975, 0.1, 0.75]),
    ("BesselI0e", "loose", "any", [1e-7, 10.0, 20.0, 30.0, 700.0, 1e10, -50.0, 3e38]),
    ("BesselI1e", "loose", "any", [1e-7, 10.0, 20.0, 30.0, 700.0, 1e10, -50.0, 3e38]),
    ("BesselI0", "loose", "any", [1e-7, 10.0, 20.0, 30.0, 80.0, 90.0, 700.0, 720.0, -50.0]),
    ("BesselI1", "loose", "any", [1e-7, 10.0, 20.0, 30.0, 80.0, 90.0, 700.0, 720.0, -50.0]),
    ("BesselJ0", "loose", "any", [1e-7, 2.404825557695773, 5.0, 8.0, 25.0, 1e4, 1e10, -30.0]),
    ("BesselJ1", "loose", "any", [1e-7, 3.831705970207512, 5.0, 8.0, 25.0, 1e4, 1e10, -30.0]),
    ("BesselY0", "loose", "any", [1e-7, 0.8935769662791675, 5.0, 8.0, 25.0, 1e4, 1e10, 1e-30]),
    ("BesselY1", "loose", "any", [1e-7, 2.197141326031017, 5.0, 8.0, 25.0, 1e4, 1e10, 1e-30]),
    ("BesselK0", "loose", "any", [1e-7, 2.0, 5.0, 20.0, 80.0, 90.0, 700.0, 1e-30]),
    ("BesselK1", "loose", "any", [1e-7, 2.0, 5.0, 20.0, 80.0, 90.0, 700.0, 1e-30]),
    ("BesselK0e", "loose", "any", [1e-7, 2.0, 5.0, 20.0, 80.0, 700.0, 1e10, 1e-30]),
    ("BesselK1e", "loose", "any", [1e-7, 2.0, 5.0, 20.0, 80.0, 700.0, 1e10, 1e-30]),
    ("Dawsn", "loose", "any", [1e-7, 0.9241388730, 3.0, 8.0, 10.0, 1e3, 1e10, -30.0]),
    ("Expint", "loose", "positive", [1e-7, 0.3725, 0.3726, 5.0, 40.0, 41.0, 88.0, 700.0, 720.0]),
    ("FresnelCos", "loose", "any", [1e-7, 1.4, 1.6, 3.0, 10.5, 100.25, 36000.0, 40000.0, -30.0]),
    ("FresnelSin", "loose", "any", [1e-7, 1.4, 1.6, 3.0, 10.5, 100.25, 36000.0, 40000.0, -30.0]),
    ("Spence", "loose", "positive", [1e-7, 0.5, 0.999, 1.001, 2.0, 30.0, 1e4, 1e10, 1e-30]),
    ("IsFinite", "exact", "any", [1e38, 3e38, 65504.0, 70000.0, 1e-40]),
    ("Invert", "exact", "any", []),
    ("PopulationCount", "exact", "any", []),
    ("Atan", "transc", "any", [1e-7, -1e-7, 1e10, -1e10, 3e38, 0.25]),
    ("Asin", "transc", "unit", [0.999, -0.999, 0.9999999, 1e-7, 0.25, 1.0001, -1.0001]),
    ("Acos", "transc", "unit", [0.999, -0.999, 0.9999999, 1e-7, 0.25, 1.0001, -1.0001]),
    ("Tan", "loose", "small", [1e-7, -1e-7, 0.25, 1.5707963, -1.5707963, 3.14159265, 10.0]),
    ("IsNan", "exact", "any", [1e38, 3e38, 65504.0, 70000.0, 1e-40]),
    ("IsInf", "exact", "any", [1e38, 3e38, 65504.0, 70000.0, 1e-40]),
    ("Rint", "exact", "any", [3.5, -3.5, 4.5, -4.5, 0.49999997, -0.49999997, 0.25, 1e7 + 1]),
    ("Inv", "transc", "nonzero", [1e-30, 3.0, 1e38]),
]
UNARY_SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
                  3.75, -3.75, 6.0, 7.0, 100.0, -100.0, 1e-3, -1e-3]


def _unary_values(dt, shape, seed, kind):
    """rand()'s values, or for a float op with a bounded domain: "unit" (-1, 1), "prob" (0, 1),
    "ge1" [1, 10)."""
    bounds = {"unit": (-0.99, 0.99), "prob": (0.01, 0.99), "ge1": (1.0, 10.0)}
    if kind not in bounds:
        return rand(dt, shape, seed, kind)
    rs = np.random.RandomState(seed_of(seed))
    lo, hi = bounds[kind]
    return np.array(rs.uniform(lo, hi, size=tuple(shape)), dtype=NP[dt])


# Activations whose half kernels round each step of TensorFlow's Eigen expression to half, as
# TensorFlow does: compared bit for bit in half, with a grid of every 16th half bit pattern
# (subnormals, inf, NaN and both signs included).
HALF_EXACT = ("Sigmoid", "Elu", "Selu", "Softplus", "Softsign")
HALF_GRID = np.arange(0, 65536, 16, dtype=np.uint16).view(np.float16)


# Unary ops tried on more dtypes than ALL: TensorFlow's CPU kernels of these take them.
UNARY_EXTRA = {"Square": BF16 + WIDE_UNSIGNED, "Reciprocal": BF16, "Log1p": BF16,
               "Relu": WIDE_UNSIGNED, "Relu6": WIDE_UNSIGNED}


def unary_bf16(c, op, vkind, extra):
    """bfloat16 cases of a unary op: random full-mantissa values and the specials."""
    dt = "bfloat16"
    for what, shape in [("basic", [2, 3]), ("scalar", []), ("zero_size", [0, 3]),
                        ("random_1000", [1000])]:
        v = _bf16(shape, "%s/%s/%s" % (op, dt, what), nonzero=vkind == "nonzero")
        if vkind == "positive":
            v = np.abs(v)
        c(what, v)
    c("specials", arr(UNARY_SPECIALS + extra + [2 ** -130, 2 ** -126], dt))


def unary(rec, op, kind, vkind, extra, dtypes=ALL):
    dtypes = ["bool"] if op in LOGICAL else dtypes
    raw = getattr(tf.raw_ops, op)
    arg = ("features" if op in ("Relu", "Relu6", "Elu", "Selu", "Softplus", "LeakyRelu",
                                "Softsign") else "x")
    case_dtype = "" if op in LOGICAL else None

    def gen(dt):
        rtol, atol = (0.0, 0.0) if dt == "half" and op in HALF_EXACT else tol(kind, dt)
        if dt == "bfloat16" and kind != "exact":
            # A transcendental's float result may round to the neighbouring bfloat16 (one ulp,
            # 2^-7 relative) where Eigen's approximation and the C library's differ in float.
            # Reciprocal is one correctly rounded float division: exact.
            rtol, atol = (0.0, 0.0) if op == "Reciprocal" else (8e-3, 0.0)

        def c(what, x, **attrs):
            rec.case(op, dt, what,
                     lambda: raw(**{arg: ph("x", x, dt)}, name="out", **attrs),
                     rtol=rtol, atol=atol, case_dtype=case_dtype)

        if dt == "bfloat16":
            unary_bf16(c, op, vkind, extra)
            return

        int_kind = "nonzero" if vkind == "nonzero" else "any"
        vk = vkind if is_float(dt) else int_kind
        c("basic", _unary_values(dt, [2, 3], "%s/%s/basic" % (op, dt), vk))
        c("scalar", _unary_values(dt, [], "%s/%s/scalar" % (op, dt), vk))
        c("zero_size", _unary_values(dt, [0, 3], "z", vk))
        if _first_dtype(rec, op):
            c("large_1000", _unary_values(dt, [1000], "%s/%s/large" % (op, dt), vk))
        if is_float(dt):
            c("specials", arr(UNARY_SPECIALS + extra, dt))
        if dt == "half" and op in HALF_EXACT:
            c("half_grid", HALF_GRID)
            if op == "LeakyRelu":
                specials = arr(UNARY_SPECIALS, dt)
                c("alpha_0_2", specials, alpha=0.2)
                c("alpha_0_01", specials, alpha=0.01)
                c("alpha_2", specials, alpha=2.0)
                c("alpha_negative", specials, alpha=-0.5)
        if is_int(dt) or dt in WIDE_UNSIGNED:
            edges = int_edges(dt)
            if vkind == "nonzero":
                edges = [e for e in edges if e != 0]
            c("edge_values", arr(edges, dt))
        if dt == "bool":
            c("both_values", arr([[True, False], [False, True]], dt))

    rec.for_dtypes(op, dtypes, gen)


def polygamma(rec):
    """Polygamma(a, x): integer orders 0..6 broadcast against x; poles, NaN and orders outside the
    domain (not integers, negative) give inf or NaN. TensorFlow sums float32 in float32, so its
    float32 cases keep to orders and x where that is accurate (x > 0, or n = 1 near 0)."""
    op = "Polygamma"

    def gen(dt):
        rtol, atol = tol("loose", dt)

        def c(what, a, x):
            rec.case(op, dt, what,
                     lambda: tf.raw_ops.Polygamma(a=ph("a", a, dt), x=ph("x", x, dt), name="out"),
                     rtol=rtol, atol=atol)

        def orders(shape, what, top=4):
            rs = np.random.RandomState(seed_of(op, dt, what, "a"))
            return arr(rs.randint(0, top + 1, size=shape), dt)

        def positive(shape, what):
            return rand(dt, shape, "%s/%s/%s/x" % (op, dt, what), "positive")

        c("same_shape", orders([2, 3], "same"), positive([2, 3], "same"))
        c("scalar_order", arr(1, dt), positive([2, 3], "scalar_order"))
        c("scalar_x", orders([2, 3], "scalar_x"), arr(0.75, dt))
        c("broadcast_both", orders([3, 1], "both"), positive([1, 4], "both"))
        c("zero_size", orders([0, 3], "zero"), positive([1, 3], "zero"))
        if _first_dtype(rec, op):
            c("large_1000", orders([1000], "large"), positive([1000], "large"))
        c("higher_orders", arr([5, 6, 8, 10, 3, 2], dt), arr([0.5, 1.5, 3, 7.25, 0.01, 40], dt))
        c("large_and_small_x", arr([1, 1, 2, 3, 1, 2], dt), arr([1e-3, 1e3, 1e4, 25, 0.1, 5e-2], dt))
        c("order_one_negative_x", arr([1, 1, 1, 1], dt), arr([-0.5, -1.25, -2.5, -0.1], dt))
        if dt == "float64":
            c("negative_x", arr([1, 2, 3, 4, 2, 1], dt),
              arr([-3.3, -2.5, -0.75, -7.25, -100.25, -1e6 + 0.5], dt))
        c("poles", arr([1, 3, 2, 4, 1, 2, 0], dt), arr([0, -2, 0, -3, -np.inf, -np.inf, -1], dt))
        c("outside_domain", arr([0.5, -1, -2.5, np.nan, 1, 2, 1, 0], dt),
          arr([1, 1, 2, 1, np.nan, np.inf, np.inf, np.inf], dt))

    rec.for_dtypes(op, ["float32", "float64"], gen)


def build_all(rec, emit):
    for op, kind, domain in BINARY:
        extra = (BF16 if op in BINARY_BF16 else []) + (
            WIDE_UNSIGNED if op in BITWISE or op in BINARY_WIDE_UNSIGNED else [])
        binary(rec, op, kind, domain, ALL + extra)
        emit(op)
    for op, kind, vkind, extra in UNARY:
        unary(rec, op, kind, vkind, extra, ALL + WIDE_UNSIGNED if op in BITWISE else
              ALL + UNARY_EXTRA.get(op, []))
        emit(op)
    polygamma(rec)
    emit("Polygamma")
