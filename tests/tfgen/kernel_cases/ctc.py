"""CTCGreedyDecoder: the decoding step of CTC-trained recognizers (CRNN text recognition, speech)
frozen with their post-processing (tf.nn.ctc_greedy_decoder, keras.ops.ctc_decode greedy)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import arr, ph, rand


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

    rec.for_dtypes(op, ["float32", "float64"], gen)


def build_all(rec, emit):
    ctc_greedy_decoder(rec)
    emit("CTCGreedyDecoder")
