"""UnsortedSegmentJoin and StringNGrams: what tf.strings.reduce_join over a ragged axis and
tf.strings.ngrams leave in a text model's graph."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import arr, const, ph


def _s(values):
    return np.array(values, dtype=object).astype(bytes)


def unsorted_segment_join(rec):
    op = "UnsortedSegmentJoin"

    def gen(dt):
        def c(what, inputs, ids, num, separator="", error=None, phrases=(), num_dt="int32"):
            rec.case(op, dt, what, lambda: tf.raw_ops.UnsortedSegmentJoin(
                inputs=ph("inputs", _s(inputs)), segment_ids=ph("ids", ids, dt),
                num_segments=ph("num", num, num_dt), separator=separator, name="out"),
                error=error, phrases=phrases, case_dtype="")
        c("matrix", [["a", "b"], ["c", "d"], ["e", "f"]], [1, 0, 1], 3, separator=":")
        c("vector", ["the", "quick", "brown", "fox"], [0, 0, 1, 0], 2, separator=" ")
        c("no_separator", ["x", "y", "z"], [2, 2, 2], 3)
        c("empty_strings", ["", "a", ""], [0, 0, 1], 2, separator="-")
        c("segment_ids_matrix", [["a", "b"], ["c", "d"]], [[0, 1], [1, 0]], 2, separator=",")
        c("int64_num_segments", ["a", "b"], [1, 1], 2, separator="+", num_dt="int64")
        c("negative_id_error", ["a", "b"], [-1, 0], 2, error="INVALID_ARGUMENT")
        c("id_too_large_error", ["a", "b"], [0, 2], 2, error="INVALID_ARGUMENT")
        c("shape_error", ["a", "b"], [0, 1, 0], 2, error="INVALID_ARGUMENT")

    rec.for_dtypes(op, ["int32", "int64"], gen)


def string_ngrams(rec):
    op = "StringNGrams"

    def gen(dt):
        def c(what, data, splits, widths, separator=" ", left_pad="", right_pad="", pad_width=0,
              preserve=False, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.StringNGrams(
                data=ph("data", _s(data)), data_splits=ph("splits", splits, dt),
                separator=separator, ngram_widths=widths, left_pad=left_pad,
                right_pad=right_pad, pad_width=pad_width, preserve_short_sequences=preserve,
                name="out"), error=error, phrases=phrases)
        words = ["a", "b", "c", "d", "e"]
        c("bigrams", words, [0, 3, 5], [2])
        c("several_widths", words, [0, 3, 5], [1, 2, 3], separator="_")
        c("padded", words, [0, 3, 5], [2, 3], left_pad="<", right_pad=">", pad_width=1)
        c("pad_width_auto", words, [0, 3, 5], [3], left_pad="<", right_pad=">", pad_width=-1)
        c("wide_padding", words, [0, 1, 5], [4], left_pad="L", right_pad="R", pad_width=3)
        c("short_rows_preserved", words, [0, 1, 2, 5], [3], preserve=True)
        c("short_rows_padded_preserved", words, [0, 1, 5], [4], left_pad="<", right_pad=">",
          pad_width=1, preserve=True)
        c("empty_rows", words, [0, 0, 5, 5], [2])
        c("no_rows", [], [0], [2])
        if dt == "int64":
            c("splits_error", words, [0, 3, 4], [2], error="INVALID_ARGUMENT")
            c("width_error", words, [0, 5], [0], error="INVALID_ARGUMENT")

    rec.for_dtypes(op, ["int32", "int64"], gen)


def build_all(rec, emit):
    unsorted_segment_join(rec)
    emit("UnsortedSegmentJoin")
    string_ngrams(rec)
    emit("StringNGrams")
