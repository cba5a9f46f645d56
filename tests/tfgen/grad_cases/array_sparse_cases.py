"""Gradient cases for SparseSlice, SparseSoftmax and SparseDenseCwiseMul / Div
(graph/gradients/array_sparse_grad.cc), in the array family with the other sparse ops."""
import numpy as np
import tensorflow as tf

from grad_cases import rand

FAMILY = "array"
raw = tf.raw_ops
F32, F64 = np.float32, np.float64
I64 = tf.int64


def c(v, dtype=I64):
    return tf.constant(v, dtype=dtype)


def cases(add):
    idx = [[0, 0], [0, 3], [1, 1], [2, 0], [2, 2], [3, 3]]
    for dt in [F32, F64]:
        # Entries inside and outside the window on both dims.
        add("SparseSlice", "window", [("v", rand([6], ("sslice", dt), dtype=dt))],
            lambda v: raw.SparseSlice(indices=c(idx), values=v, shape=c([4, 4]), start=c([1, 0]),
                                      size=c([2, 3]), name="out")[1])
    # A size past the shape keeps everything from start on; a rank-3 tensor.
    add("SparseSlice", "size_past_shape_rank3", [("v", rand([5], "sslice3"))],
        lambda v: raw.SparseSlice(
            indices=c([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 1], [2, 1, 0]]), values=v,
            shape=c([3, 2, 2]), start=c([1, 0, 0]), size=c([5, 5, 5]), name="out")[1])
    # Nothing inside the window: every value's gradient is 0.
    add("SparseSlice", "empty_window", [("v", rand([3], "sslice_empty"))],
        lambda v: raw.SparseSlice(indices=c([[0, 0], [0, 1], [1, 1]]), values=v, shape=c([3, 3]),
                                  start=c([2, 0]), size=c([1, 3]), name="out")[1])
    for dt in [F32, F64]:
        # Rows of 2, 1 and 3 entries (an empty row between).
        add("SparseSoftmax", "rows", [("v", rand([6], ("ssoftmax", dt), dtype=dt))],
            lambda v: raw.SparseSoftmax(sp_indices=c([[0, 0], [0, 2], [1, 1], [3, 0], [3, 1],
                                                      [3, 3]]),
                                        sp_values=v, sp_shape=c([4, 4]), name="out"))
    add("SparseSoftmax", "rank3_batches", [("v", rand([5], "ssoftmax3"))],
        lambda v: raw.SparseSoftmax(sp_indices=c([[0, 0, 0], [0, 0, 2], [0, 1, 1], [1, 0, 0],
                                                  [1, 0, 1]]),
                                    sp_values=v, sp_shape=c([2, 2, 3]), name="out"))
    # SparseDenseCwiseMul / Div: gradients of the values and of the dense operand, which several
    # entries read where it broadcasts (a row, a [2, 1, 3] block). A scalar dense operand has no
    # gradient in TensorFlow (its GatherNd fails: "params must be at least a vector").
    for op in ("SparseDenseCwiseMul", "SparseDenseCwiseDiv"):
        fn = getattr(raw, op)
        kind = "nonzero" if op.endswith("Div") else "any"
        for what, sp_idx, shape, dense_shape in [
                ("same_shape", [[0, 0], [0, 3], [1, 1], [2, 0]], [3, 4], [3, 4]),
                ("row_broadcast", [[0, 0], [0, 3], [1, 3], [2, 0], [2, 3]], [3, 4], [4]),
                ("rank3_block", [[0, 1, 2], [1, 0, 2], [1, 1, 0]], [2, 2, 3], [2, 1, 3])]:
            n = len(sp_idx)
            add(op, what, [("v", rand([n], (op, what, "v"))),
                           ("d", rand(dense_shape, (op, what, "d"), kind))],
                lambda v, d, fn=fn, sp_idx=sp_idx, shape=shape: fn(
                    sp_indices=c(sp_idx), sp_values=v, sp_shape=c(shape), dense=d, name="out"))
