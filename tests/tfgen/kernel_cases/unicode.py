"""UnicodeDecode, UnicodeDecodeWithOffsets, UnicodeEncode, UnicodeTranscode: what
tf.strings.unicode_decode / unicode_split / unicode_encode / unicode_transcode leave in a graph
(character-level text models). Malformed UTF-8 / UTF-16 / UTF-32 in every errors mode, control
characters, other input encodings, and TensorFlow's error texts. The dtype in a case name is
Tsplits; UnicodeDecodeWithOffsets has int64 cases only (TensorFlow 2.21's kernel aborts the
process with int32 splits: "Check failed: dtype() == expected_dtype")."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph

TEXT = [u"héllo wörld".encode("utf-8"), b"", u"日本語 😀!".encode("utf-8"), b"plain ascii",
        u"\u0627\u0644\u0639\u0631\u0628\u064a\u0629".encode("utf-8")]
# Ill-formed UTF-8: lone trail bytes, overlong leads, surrogates, truncated sequences (inside
# and at the end), bytes never valid, a code point past U+10FFFF.
BAD_UTF8 = [b"A\x80B", b"\xc0\xafz", b"\xed\xa0\x80x", b"\xe2\x82", b"\xe2\x82z", b"\xf0\x9f\x98",
            b"\xf0\x9f\x98A", b"\xff\xfe", b"\xf4\x90\x80\x80", b"\xf5\x80", b"ok\xe0\x80\xaf",
            b"\xc3\xa9\xc3", b"\xf0\x90\x80\x80\xf0\x8f\xbf\xbf", b"\xe1\x80\xe1\x80\x80"]
CONTROL = [b"a\x00b\x01c\x1f d\x7f\n", b"\ttab"]
UTF16BE = [b"\x00A\xd8\x3d\xde\x00\x00B", b"\xd8\x3d\x00A", b"\xde\x00", b"\x00A\x00",
           b"\xd8\x3d", b"\xd8\x3d\x00", b"\x00\xe9\x4e\x2d"]
UTF32BE = [b"\x00\x00\x00A\x00\x01\xf6\x00", b"\x00\x00\xd8\x00", b"\x00\x11\x00\x00",
           b"\x00\x00\x00", b"\xff\xff\xff\xff\x00\x00\x00B"]


def _strings(values, shape=None):
    a = np.array(values, dtype=object)
    return a.reshape(shape) if shape is not None else a


def decode(rec, op):
    with_offsets = op == "UnicodeDecodeWithOffsets"
    raw = getattr(tf.raw_ops, op)

    def gen(dt):
        def c(what, values, encoding="UTF-8", error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: raw(
                input=ph("input", values), input_encoding=encoding,
                Tsplits=tf.as_dtype(dt), name="out", **attrs), error=error, phrases=phrases)

        c("text", _strings(TEXT))
        c("matrix", _strings(TEXT[:4], [2, 2]))
        c("scalar", _strings(TEXT[2]))
        c("empty_batch", _strings([]))
        c("malformed_replace", _strings(BAD_UTF8))
        c("malformed_ignore", _strings(BAD_UTF8), errors="ignore")
        c("malformed_replacement_char", _strings(BAD_UTF8), replacement_char=0x3F)
        c("control_replaced", _strings(CONTROL), replace_control_characters=True)
        c("control_ignored", _strings(CONTROL), replace_control_characters=True,
          errors="ignore")
        c("control_kept", _strings(CONTROL))
        c("strict_ok", _strings(TEXT), errors="strict")
        c("strict_control_replaced", _strings(CONTROL), errors="strict",
          replace_control_characters=True)
        c("utf16be", _strings(UTF16BE), encoding="UTF-16-BE")
        c("utf16le", _strings([b"A\x00\x3d\xd8\x00\xde", b"\x00\xdc", b"B"]),
          encoding="UTF-16LE")
        c("utf32be", _strings(UTF32BE), encoding="UTF-32-BE")
        c("utf32le", _strings([b"A\x00\x00\x00\x00\xf6\x01\x00", b"\x00\xd8\x00\x00"]),
          encoding="UTF-32LE")
        c("latin1", _strings([b"caf\xe9", b"\x80\xff"]), encoding="ISO-8859-1")
        c("latin1_alias", _strings([b"caf\xe9"]), encoding="latin1")
        c("ascii", _strings([b"abc\x80\xff~"]), encoding="US-ASCII")
        c("utf8_alias", _strings([u"ß".encode("utf-8")]), encoding="utf8")
        c("strict_error", _strings([b"ok", b"A\x80B"]), errors="strict",
          error="INVALID_ARGUMENT", phrases=["Invalid formatting on input string"])
        c("unknown_encoding_error", _strings([b"a"]), encoding="bogus",
          error="INVALID_ARGUMENT",
          phrases=["Could not create converter for input encoding: bogus"])
        c("replacement_char_error", _strings([b"a"]), replacement_char=0x110000,
          error="INVALID_ARGUMENT", phrases=["replacement_char out of unicode codepoint range"])

    rec.for_dtypes(op, ["int64"] if with_offsets else ["int64", "int32"], gen)


def encode(rec):
    op = "UnicodeEncode"

    def gen(dt):
        def c(what, values, splits, encoding="UTF-8", error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.UnicodeEncode(
                input_values=ph("input_values", np.asarray(values, np.int32)),
                input_splits=ph("input_splits", np.asarray(splits, dt)),
                output_encoding=encoding, name="out", **attrs), error=error, phrases=phrases)

        text = [104, 233, 108, 0x65E5, 0x1F600, 0, 0x10FFFF, 65]
        bad = [65, 0xD800, 0x1F600, -1, 0x110000, 0xDC00, 66]
        for enc in ("UTF-8", "UTF-16-BE", "UTF-32-BE"):
            tag = enc.lower().replace("-", "")
            c("text_" + tag, text, [0, 3, 3, 8], encoding=enc)
            c("invalid_replace_" + tag, bad, [0, 3, 7], encoding=enc)
            c("invalid_ignore_" + tag, bad, [0, 3, 7], encoding=enc, errors="ignore")
            c("invalid_replacement_char_" + tag, bad, [0, 3, 7], encoding=enc,
              replacement_char=0x3F)
        c("no_rows", [], [0])
        c("empty_rows", [], [0, 0, 0])
        c("strict_error", [65, -1], [0, 2], errors="strict", error="INVALID_ARGUMENT",
          phrases=["Code point is out of range for Unicode, or is a surrogate."])
        c("strict_surrogate_error", [0xDFFF], [0, 1], errors="strict", error="INVALID_ARGUMENT",
          phrases=["Code point is out of range for Unicode, or is a surrogate."])
        c("first_split_error", [65, 66], [1, 2], error="INVALID_ARGUMENT",
          phrases=["First value in input_splits must be zero."])
        c("last_split_error", [65, 66], [0, 3], error="INVALID_ARGUMENT",
          phrases=["Last value in input_splits must be equal to length of input_tensor."])
        c("decreasing_splits_error", [65, 66], [0, 2, 1, 2], error="INVALID_ARGUMENT",
          phrases=["Values in input_splits must be equal or in ascending order."])
        c("empty_splits_error", [65, 66], np.zeros([0]), error="INVALID_ARGUMENT",
          phrases=["Input_splits should contain elements"])
        c("values_rank_error", [[65, 66]], [0, 2], error="INVALID_ARGUMENT",
          phrases=["Both the input_tensor and input_splits should be of rank 1."])
        c("replacement_char_error", [65], [0, 1], replacement_char=-1, error="INVALID_ARGUMENT",
          phrases=["replacement_char out of unicode codepoint range"])

    rec.for_dtypes(op, ["int64", "int32"], gen)


def transcode(rec):
    op = "UnicodeTranscode"

    def gen(dt):
        def c(what, values, input_encoding="UTF-8", output_encoding="UTF-8", error=None,
              phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.UnicodeTranscode(
                input=ph("input", values), input_encoding=input_encoding,
                output_encoding=output_encoding, name="out", **attrs), error=error,
                phrases=phrases)

        for enc in ("UTF-8", "UTF-16-BE", "UTF-32-BE"):
            tag = enc.lower().replace("-", "")
            c("text_to_" + tag, _strings(TEXT), output_encoding=enc)
            c("malformed_to_" + tag, _strings(BAD_UTF8), output_encoding=enc)
        c("matrix", _strings(TEXT[:4], [2, 2]))
        c("malformed_ignore", _strings(BAD_UTF8), errors="ignore")
        c("malformed_replacement_char", _strings(BAD_UTF8), replacement_char=0x2A)
        c("control_replaced", _strings(CONTROL), replace_control_characters=True)
        c("control_ignored", _strings(CONTROL), replace_control_characters=True,
          errors="ignore")
        c("from_utf16be", _strings(UTF16BE), input_encoding="UTF-16-BE")
        c("from_utf32be", _strings(UTF32BE), input_encoding="UTF-32-BE",
          output_encoding="UTF-16-BE")
        c("from_latin1", _strings([b"caf\xe9", b"\x80\xff"]), input_encoding="ISO-8859-1")
        c("strict_error", _strings([b"A\x80B"]), errors="strict", error="INVALID_ARGUMENT",
          phrases=["Invalid formatting on input string"])
        c("unknown_encoding_error", _strings([b"a"]), input_encoding="bogus",
          error="INVALID_ARGUMENT",
          phrases=["Could not create converter for input encoding: bogus"])

    rec.for_dtypes(op, ["string"], gen)


def script(rec):
    """UnicodeScript: Latin, Greek, Cyrillic, Arabic, Han, Hiragana, emoji, combining marks
    (Inherited), punctuation (Common), unassigned and private-use code points, the ends of the
    range and values outside it (-1)."""
    def gen(dt):
        def c(what, cps):
            rec.case("UnicodeScript", dt, what, lambda: tf.raw_ops.UnicodeScript(
                input=ph("x", np.asarray(cps, np.int32)), name="out"), case_dtype="")
        c("scripts", [0x41, 0x3B1, 0x416, 0x627, 0x65E5, 0x3042, 0x1F600, 0x301, 0x21, 0x30,
                      0x20, 0x5D0, 0x915, 0xE01, 0xAC00, 0x10A0, 0x13A0, 0x1820, 0x2C80])
        c("unassigned_and_private", [0x378, 0xE000, 0xF8FF, 0xFFFF, 0x10FFFD, 0xEFFFF])
        c("range_ends", [0, 0x10FFFF, -1, 0x110000, -2147483648, 2147483647, 0xD800, 0xDFFF])
        c("matrix", np.arange(0x370, 0x37C).reshape([3, 4]))
        c("empty", np.zeros([0, 2]))
        c("scalar", 0x4E00)
    rec.for_dtypes("UnicodeScript", ["int32"], gen)


def build_all(rec, emit):
    for op in ("UnicodeDecode", "UnicodeDecodeWithOffsets"):
        decode(rec, op)
        emit(op)
    encode(rec)
    emit("UnicodeEncode")
    transcode(rec)
    emit("UnicodeTranscode")
    script(rec)
    emit("UnicodeScript")
