"""CTCGreedyDecoder and CTCBeamSearchDecoder: the decoding step of CTC-trained recognizers (CRNN
text recognition, speech) frozen with their post-processing (tf.nn.ctc_greedy_decoder,
tf.nn.ctc_beam_search_decoder, keras.ops.ctc_decode with strategy "greedy" or "beam_search")."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import arr, ph, rand, tol


def ctc_greedy_decoder(rec):
    op = "CTCGreedyDecoder"

    def gen(dt):
        def c(what, inputs, lengths, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.CTCGreedyDecoder(
                inputs=ph("inputs", inputs, dt), sequence_length=ph("len", lengths, "int32"),
                name="out", **attrs), error=error, phrases=phrases)
        # [time 6, batch 2, classes 4]: repeats, blanks (class 3 by default) and a tie.
        x = np.array([[[0.1, 0.6, 0.2, 0.1], [0.5, 0.1, 0.1, 0.3]],
                      [[0.1, 0.6, 0.2, 0.1], [0.5, 0.1, 0.1, 0.3]],
                      [[0.1, 0.1, 0.1, 0.7], [0.1, 0.1, 0.1, 0.7]],
                      [[0.1, 0.6, 0.2, 0.1], [0.4, 0.4, 0.1, 0.1]],
                      [[0.8, 0.1, 0.0, 0.1], [0.1, 0.2, 0.6, 0.1]],
                      [[0.1, 0.1, 0.7, 0.1], [0.1, 0.2, 0.6, 0.1]]])
        x = arr(np.log(x + 1e-3), dt)
        c("defaults", x, [6, 6])
        c("merge_repeated", x, [6, 6], merge_repeated=True)
        c("short_sequences", x, [3, 5], merge_repeated=True)
        c("zero_length", x, [0, 4], merge_repeated=True)
        c("blank_first", x, [6, 6], merge_repeated=True, blank_index=0)
        c("blank_negative", x, [6, 6], blank_index=-2)
        c("large", rand(dt, [40, 5, 11], "ctc/%s/large" % dt), [40, 31, 7, 40, 1],
          merge_repeated=True)
        c("all_blank", arr(np.tile([[[0.0, 0.0, 5.0]]], (4, 2, 1)), dt), [4, 4])
        if dt == "float32":
            c("length_too_long_error", x, [7, 6], error="FAILED_PRECONDITION",
              phrases=["sequence_length(0) <= 6"])
            c("batch_mismatch_error", x, [6], error="FAILED_PRECONDITION",
              phrases=["len(sequence_length) != batch_size"])
            c("not_3d_error", arr(np.zeros([6, 4]), dt), [6], error="INVALID_ARGUMENT",
              phrases=["inputs is not a 3-Tensor"])
            c("blank_index_error", x, [6, 6], blank_index=4, error="INVALID_ARGUMENT")
            c("no_classes_error", arr(np.zeros([6, 2, 0]), dt), [6, 6], error="INVALID_ARGUMENT",
              phrases=["inputs must not be empty"])
            c("no_steps_error", arr(np.zeros([0, 2, 4]), dt), [0, 0], error="INVALID_ARGUMENT",
              phrases=["inputs must not be empty"])

    rec.for_dtypes(op, ["float32", "float64"], gen)


def ctc_beam_search_decoder(rec):
    op = "CTCBeamSearchDecoder"

    def gen(dt):
        # Log probabilities go through exp, log and log1p (TensorFlow's libm calls, float ones
        # for its two-term log-sum-exp): transcendental tolerance; decoded labels are exact.
        rtol, atol = tol("transc", dt)

        def c(what, inputs, lengths, beam_width, top_paths, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.CTCBeamSearchDecoder(
                inputs=ph("inputs", inputs, dt), sequence_length=ph("len", lengths, "int32"),
                beam_width=beam_width, top_paths=top_paths, name="out", **attrs),
                rtol=rtol, atol=atol, error=error, phrases=phrases)
        # [time 6, batch 2, classes 4] (blank = class 3): repeats, blanks and a near tie.
        x = np.array([[[0.1, 0.6, 0.2, 0.1], [0.5, 0.1, 0.1, 0.3]],
                      [[0.1, 0.6, 0.2, 0.1], [0.5, 0.1, 0.1, 0.3]],
                      [[0.1, 0.1, 0.1, 0.7], [0.1, 0.1, 0.1, 0.7]],
                      [[0.1, 0.6, 0.2, 0.1], [0.4, 0.4, 0.1, 0.1]],
                      [[0.8, 0.1, 0.0, 0.1], [0.1, 0.2, 0.6, 0.1]],
                      [[0.1, 0.1, 0.7, 0.1], [0.1, 0.2, 0.6, 0.1]]])
        x = arr(np.log(x + 1e-3), dt)
        c("defaults", x, [6, 6], 3, 1)
        c("top_paths_3", x, [6, 6], 4, 3)
        c("top_paths_equal_beam", x, [6, 6], 5, 5, merge_repeated=False)
        c("beam_width_1", x, [6, 6], 1, 1)
        c("beam_width_1_no_merge", x, [6, 6], 1, 1, merge_repeated=False)
        c("no_merge", x, [6, 6], 4, 2, merge_repeated=False)
        c("short_sequences", x, [3, 5], 4, 2)
        c("zero_length", x, [0, 4], 3, 1)
        c("negative_length", x, [-1, 6], 3, 1)
        # Unnormalized logits: the search normalizes each step by log-sum-exp.
        c("logits", arr(x.astype(np.float64) * 3.0 + 2.0, dt), [6, 6], 4, 2)
        # Class 0, a blank, class 0 again: the best prefix is "0 0", returned "0" when merging.
        rep = arr(np.log([[[0.9, 0.05, 0.05]], [[0.05, 0.05, 0.9]], [[0.9, 0.05, 0.05]]]), dt)
        c("repeat_through_blank", rep, [3], 4, 3)
        c("repeat_through_blank_no_merge", rep, [3], 4, 3, merge_repeated=False)
        # Blank-only: the blank dominates every step, or is the only class.
        c("all_blank", arr(np.tile([[[0.0, 0.0, 5.0]]], (4, 2, 1)), dt), [4, 4], 3, 2)
        c("only_blank_class", arr(np.zeros([3, 2, 1]), dt), [3, 1], 2, 1)
        # Uniform logits: prefixes of a length tie, in the order of TensorFlow's beam.
        c("ties", arr(np.zeros([3, 2, 3]), dt), [3, 2], 5, 5)
        c("ties_pruned", arr(np.zeros([4, 1, 4]), dt), [4], 3, 3)
        c("ties_no_merge", arr(np.zeros([3, 1, 2]), dt), [3], 4, 3, merge_repeated=False)
        # Impossible classes (-inf logits) never enter the beam.
        with np.errstate(divide="ignore"):
            impossible = np.log([[[1.0, 0.0, 0.0]], [[0.0, 0.0, 1.0]], [[0.5, 0.0, 0.5]]])
        c("impossible_classes", arr(impossible, dt), [3], 3, 1)
        c("large", rand(dt, [40, 5, 11], "ctc_beam/%s/large" % dt), [40, 31, 7, 40, 1], 16, 4)
        c("narrow_beam", rand(dt, [20, 3, 6], "ctc_beam/%s/narrow" % dt), [20, 13, 20], 2, 2)
        c("wide_beam", rand(dt, [12, 2, 5], "ctc_beam/%s/wide" % dt), [12, 9], 100, 10,
          merge_repeated=False)
        c("small_logits", rand(dt, [15, 4, 7], "ctc_beam/%s/small" % dt, kind="small"),
          [15, 15, 2, 8], 8, 3)
        if dt == "float32":
            c("top_paths_above_beam_width_error", x, [6, 6], 2, 3, error="INVALID_ARGUMENT",
              phrases=["requested more paths than the beam width."])
            c("fewer_leaves_than_top_paths_error", x, [6, 0], 3, 2, error="INVALID_ARGUMENT",
              phrases=["Less leaves in the beam search than requested."])
            c("length_too_long_error", x, [6, 7], 3, 1, error="FAILED_PRECONDITION",
              phrases=["sequence_length(1) <= 6"])
            c("batch_mismatch_error", x, [6], 3, 1, error="FAILED_PRECONDITION",
              phrases=["len(sequence_length) != batch_size.  len(sequence_length):  1 "
                       "batch_size: 2"])
            c("not_3d_error", arr(np.zeros([6, 4]), dt), [6], 3, 1, error="INVALID_ARGUMENT",
              phrases=["inputs is not a 3-Tensor"])
            c("empty_error", arr(np.zeros([6, 2, 0]), dt), [6, 6], 3, 1,
              error="INVALID_ARGUMENT", phrases=["inputs must not be empty"])
            c("lengths_not_vector_error", x, [[6, 6]], 3, 1, error="INVALID_ARGUMENT",
              phrases=["sequence_length is not a vector"])

    rec.for_dtypes(op, ["float32", "float64"], gen)


def build_all(rec, emit):
    ctc_greedy_decoder(rec)
    emit("CTCGreedyDecoder")
    ctc_beam_search_decoder(rec)
    emit("CTCBeamSearchDecoder")
