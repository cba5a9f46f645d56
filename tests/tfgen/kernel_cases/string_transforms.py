"""String transformation kernels: StringLength, StringLower, StringUpper, Substr, StringStrip,
StringToNumber, StringToHashBucketFast (FarmHash Fingerprint64), StaticRegexReplace, RegexReplace,
RegexFullMatch, StringSplitV2, ReduceJoin."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph


UTF8 = ["h\u00e9llo".encode(), "\u65e5\u672c\u8a9e".encode(), b"", b"a\xf0\x9f\x98\x80b"]


def _s(values):
    return np.array(values, dtype=object)


def unary_string_ops(rec):
    for op, attrs_list in (
            ("StringLength", [("bytes", {"unit": "BYTE"}), ("utf8_chars", {"unit": "UTF8_CHAR"})]),
            ("StringLower", [("ascii", {}), ("utf8_encoding_ascii", {"encoding": "utf-8"})]),
            ("StringUpper", [("ascii", {}), ("utf8_encoding_ascii", {"encoding": "utf-8"})]),
            ("StringStrip", [("whitespace", {})])):
        def gen(dt, op=op, attrs_list=attrs_list):
            for what, attrs in attrs_list:
                values = [[b"  Hello World\t", b"ABC def"], [b"", b" \n\v\f\r "]]
                if op == "StringLength":
                    values = [UTF8, [b"x", b"  y ", b"abc", b"\xff\xfe"]]
                rec.case(op, dt, what, lambda attrs=attrs, values=values: getattr(
                    tf.raw_ops, op)(input=ph("x", _s(values)), name="out", **attrs),
                    case_dtype="")
            rec.case(op, dt, "scalar", lambda: getattr(tf.raw_ops, op)(
                input=ph("x", _s(b" MiXeD ")), name="out"), case_dtype="")
            if op in ("StringLower", "StringUpper"):
                rec.case(op, dt, "encoding_error", lambda: getattr(tf.raw_ops, op)(
                    input=ph("x", _s([b"a"])), encoding="latin1", name="out"),
                    error="INVALID_ARGUMENT",
                    phrases=["only utf-8 or '' (no encoding) is supported, received latin1"],
                    case_dtype="")
        rec.for_dtypes(op, ["string"], gen)


def substr(rec):
    op = "Substr"

    def gen(dt):
        def c(what, s, pos, ln, unit="BYTE", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Substr(
                input=ph("x", _s(s)), pos=ph("pos", np.asarray(pos, dt)),
                len=ph("len", np.asarray(ln, dt)), unit=unit, name="out"),
                error=error, phrases=phrases)

        words = [b"hello", b"ab", b"", b"tensorflow"]
        c("elementwise", words, [1, 0, 0, 3], [2, 5, 1, 4])
        c("scalar_pos_len", words, 0, 2)
        c("negative_pos", words, [-2, -1, 0, -10], [1, 5, 0, 3])
        c("negative_len", words, [1, 1, 0, 2], [-1, -3, -1, -1])
        c("pos_at_end", words, [5, 2, 0, 10], [1, 1, 1, 1])
        c("broadcast", [[b"hello", b"ab"], [b"xyz", b"q"]], [1, 0], [1, 2])
        c("broadcast_column", [b"hello", b"abc"], [[1], [0]], [[1], [2]])
        c("utf8", UTF8, [1, 1, 0, 1], [2, 1, 0, 2], unit="UTF8_CHAR")
        c("utf8_negative", UTF8, [-2, -3, 0, -1], [5, 2, 3, 1], unit="UTF8_CHAR")
        c("pos_error", words, [1, 3, 0, 0], [1, 1, 1, 1], error="INVALID_ARGUMENT",
          phrases=["pos 3 out of range for string"])
        c("negative_pos_error", words, [1, -3, 0, 0], [1, 1, 1, 1], error="INVALID_ARGUMENT",
          phrases=["pos -3 out of range for string"])
        c("utf8_pos_error", UTF8, [9, 0, 0, 0], [1, 1, 1, 1], unit="UTF8_CHAR",
          error="INVALID_ARGUMENT", phrases=["pos 9 out of range for string at index 0"])
        c("shape_mismatch_error", words, 1, [1, 2, 3, 4], error="INVALID_ARGUMENT",
          phrases=["pos and len should have the same shape"])
        c("broadcast_error", [b"hello", b"ab"], [1, 0, 1], [1, 2, 1], error="INVALID_ARGUMENT",
          phrases=["Incompatible shapes: [2] vs. [3]"])

    rec.for_dtypes(op, ["int32", "int64"], gen)


def string_to_number(rec):
    op = "StringToNumber"
    good = {
        "float32": [b"1.5", b" -2.25 ", b"inf", b"-Infinity", b"nan", b"1e50", b"0x10", b".5",
                    b"5.", b"+.5e+2", b"1e-50", b"0"],
        "float64": [b"1.5", b"1e308", b"1e309", b"4.9e-324", b"0x1p3", b"-0", b"\t7\n"],
        "int32": [b"12", b" -5", b"+3", b"012", b"2147483647", b"-2147483648", b"-0"],
        "int64": [b"-9223372036854775808", b"9223372036854775807", b"42", b" 7 "],
    }
    bad = {"float32": [b"1.5abc", b"", b"1.5e", b"1,5"], "float64": [b"  ", b"1_0"],
           "int32": [b"2147483648", b"1.5", b"0x10", b"1e3", b"+-1", b""],
           "int64": [b"9223372036854775808", b"abc"]}

    def gen(dt):
        rec.case(op, dt, "values", lambda: tf.raw_ops.StringToNumber(
            string_tensor=ph("x", _s(good[dt])), out_type=tf.as_dtype(dt), name="out"))
        rec.case(op, dt, "matrix", lambda: tf.raw_ops.StringToNumber(
            string_tensor=ph("x", _s([[b"1", b"2"], [b"3", b"-4"]])), out_type=tf.as_dtype(dt),
            name="out"))
        for i, b in enumerate(bad[dt]):
            rec.case(op, dt, "error_%d" % i, lambda b=b: tf.raw_ops.StringToNumber(
                string_tensor=ph("x", _s([b"1", b])), out_type=tf.as_dtype(dt), name="out"),
                error="INVALID_ARGUMENT",
                phrases=["StringToNumberOp could not correctly convert string: " + b.decode()])

    rec.for_dtypes(op, ["float32", "float64", "int32", "int64"], gen)


def hash_bucket(rec):
    op = "StringToHashBucketFast"

    def gen(dt):
        rs = np.random.RandomState(7)
        lengths = list(range(0, 70)) + [95, 96, 127, 128, 129, 200, 255, 256, 257, 1000]
        values = [bytes(rs.randint(0, 256, n).astype(np.uint8)) for n in lengths]
        for buckets in (1, 10, 1 << 40):
            rec.case(op, dt, "buckets_%d" % buckets, lambda buckets=buckets: (
                tf.raw_ops.StringToHashBucketFast(input=ph("x", _s(values)),
                                                  num_buckets=buckets, name="out")),
                case_dtype="")
        rec.case(op, dt, "words", lambda: tf.raw_ops.StringToHashBucketFast(
            input=ph("x", _s([[b"hello", b"world"], [b"ab-1.5-Cd", b""]])), num_buckets=1000,
            name="out"), case_dtype="")

    rec.for_dtypes(op, ["string"], gen)


def regex(rec):
    texts = [b"abc123def45", b"no digits", b"", b"2024-01-02", b"aaa"]

    def gen_static(dt):
        def c(what, pattern, rewrite, global_=True, error=None, phrases=()):
            rec.case("StaticRegexReplace", dt, what, lambda: tf.raw_ops.StaticRegexReplace(
                input=ph("x", _s(texts)), pattern=pattern, rewrite=rewrite,
                replace_global=global_, name="out"), error=error, phrases=phrases, case_dtype="")
        c("digits", "[0-9]+", "#")
        c("first_only", "[0-9]+", "#", global_=False)
        c("groups", r"(\d+)-(\d+)", r"\2/\1")
        c("empty_matches", "x*", "-")
        c("whole_match", r"a(.)c", r"[\0]")
        c("bad_pattern_error", "(", "x", error="INVALID_ARGUMENT", phrases=["Invalid pattern: ("])
        # Malformed rewrites are not errors: RE2 (TensorFlow calls it unchecked) leaves a string
        # whose rewrite names a group the pattern lacks as it is; a trailing or unknown escape
        # makes Replace leave the string and GlobalReplace put the rewrite's text before the escape
        # in place of each match.
        c("rewrite_group_beyond", r"([0-9])", r"<\9>")
        c("rewrite_group_beyond_first", r"([0-9])", r"<\9>", global_=False)
        c("rewrite_group_without_groups", "[0-9]+", r"\1")
        c("rewrite_trailing_backslash", "[0-9]+", "x\\")
        c("rewrite_trailing_backslash_first", "[0-9]+", "x\\", global_=False)
        c("rewrite_unknown_escape", "a", r"<\a>")
        c("rewrite_escaped_backslash", "[0-9]", r"\\")
    rec.for_dtypes("StaticRegexReplace", ["string"], gen_static)

    def gen_dynamic(dt):
        def c(what, pattern, rewrite, global_=True, error=None, phrases=()):
            rec.case("RegexReplace", dt, what, lambda: tf.raw_ops.RegexReplace(
                input=ph("x", _s(texts)), pattern=ph("y", _s(pattern)),
                rewrite=ph("z", _s(rewrite)), replace_global=global_, name="out"),
                error=error, phrases=phrases, case_dtype="")
        c("digits", b"[0-9]+", b"#")
        c("first_only", b"[a-z]", b"<\\0>", global_=False)
        c("bad_pattern_error", b"a(", b"x", error="INVALID_ARGUMENT",
          phrases=["Invalid pattern: a("])
        c("rewrite_group_beyond", b"([0-9])", b"<\\9>")
        c("rewrite_trailing_backslash", b"[0-9]+", b"x\\")
        c("rewrite_trailing_backslash_first", b"[0-9]+", b"x\\", global_=False)
        c("pattern_rank_error", [b"a", b"b"], b"x", error="INVALID_ARGUMENT",
          phrases=["Pattern must be scalar"])
        c("rewrite_rank_error", b"a", [b"x"], error="INVALID_ARGUMENT",
          phrases=["Rewrite must be scalar"])
    rec.for_dtypes("RegexReplace", ["string"], gen_dynamic)

    def gen_full(dt):
        def c(what, pattern, error=None, phrases=()):
            rec.case("RegexFullMatch", dt, what, lambda: tf.raw_ops.RegexFullMatch(
                input=ph("x", _s(texts)), pattern=ph("y", _s(pattern)), name="out"),
                error=error, phrases=phrases, case_dtype="")
        c("letters_digits", b"[a-z]+[0-9]+[a-z]+[0-9]*")
        c("anything", b".*")
        c("date", b"\\d{4}-\\d{2}-\\d{2}")
        c("bad_pattern_error", b"[", error="INVALID_ARGUMENT", phrases=["Invalid pattern: ["])
        c("pattern_rank_error", [b"a"], error="INVALID_ARGUMENT",
          phrases=["Pattern must be scalar"])
    rec.for_dtypes("RegexFullMatch", ["string"], gen_full)


def string_split(rec):
    op = "StringSplitV2"

    def gen(dt):
        def c(what, values, sep, maxsplit=-1, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.StringSplitV2(
                input=ph("x", _s(values)), sep=ph("y", _s(sep)), maxsplit=maxsplit, name="out"),
                error=error, phrases=phrases, case_dtype="")
        c("separator", [b"a-b--c", b"", b"-", b"xyz"], b"-")
        c("multichar_separator", [b"a<>b<><>c", b"<>", b"a<b"], b"<>")
        c("whitespace", [b"  a b  c ", b"", b" ", b"x\ty\nz"], b"")
        c("maxsplit", [b"a-b--c", b"x-y-z", b"q"], b"-", maxsplit=1)
        c("whitespace_maxsplit", [b" a  b c ", b"x y z", b"  "], b"", maxsplit=1)
        c("maxsplit_zero", [b"a-b", b" c d"], b"-", maxsplit=0)
        c("empty_input", np.zeros([0], dtype=object), b"-")
        c("input_rank_error", [[b"a"]], b"-", error="INVALID_ARGUMENT",
          phrases=["input must be a vector, got shape: [1,1]"])
        c("sep_rank_error", [b"a"], [b"-"], error="INVALID_ARGUMENT",
          phrases=["sep must be a scalar, got shape: [1]"])

    rec.for_dtypes(op, ["string"], gen)


def reduce_join(rec):
    op = "ReduceJoin"
    x3 = [[[b"a", b"b"], [b"c", b"d"]], [[b"e", b"f"], [b"g", b"h"]]]

    def gen(dt):
        def c(what, values, axes, keep=False, sep=",", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ReduceJoin(
                inputs=ph("x", _s(values)), reduction_indices=ph("y", np.asarray(axes, np.int32)),
                keep_dims=keep, separator=sep, name="out"), error=error, phrases=phrases,
                case_dtype="")
        c("axis0", x3, [0])
        c("axis_last", x3, [-1])
        c("axes_0_2", x3, [0, 2])
        c("axes_2_0", x3, [2, 0])
        c("all_axes", x3, [0, 1, 2], sep="")
        c("keep_dims", x3, [1], keep=True)
        c("no_axes", x3, [])
        c("scalar_axis", [[b"a", b"b"], [b"c", b"d"]], 1)
        c("empty_dim", np.zeros([2, 0], dtype=object), [1])
        c("scalar_input", b"abc", [])
        c("range_error", x3, [3], error="OUT_OF_RANGE",
          phrases=["Invalid reduction dimension 3 for input with 3 dimension(s)"])
        c("duplicate_error", x3, [1, -2], error="INVALID_ARGUMENT",
          phrases=["Duplicate reduction dimension -2"])

    rec.for_dtypes(op, ["string"], gen)


def build_all(rec, emit):
    unary_string_ops(rec)
    for op in ("StringLength", "StringLower", "StringUpper", "StringStrip"):
        emit(op)
    substr(rec)
    emit("Substr")
    string_to_number(rec)
    emit("StringToNumber")
    hash_bucket(rec)
    emit("StringToHashBucketFast")
    regex(rec)
    for op in ("StaticRegexReplace", "RegexReplace", "RegexFullMatch"):
        emit(op)
    string_split(rec)
    emit("StringSplitV2")
    reduce_join(rec)
    emit("ReduceJoin")
