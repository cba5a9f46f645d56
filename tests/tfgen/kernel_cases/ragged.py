"""RaggedTensorToTensor: what RaggedTensor.to_tensor() leaves in a graph (TextVectorization's
padded token ids, tf.strings.split(...).to_tensor()), with row partitions given as ROW_SPLITS or
FIRST_DIM_SIZE + VALUE_ROWIDS."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, arr, const, is_float, ph, rand


def ragged_to_tensor(rec):
    op = "RaggedTensorToTensor"

    def gen(dt):
        def c(what, shape, values, default, partitions, types, index="int64", shape_dt="int64",
              error=None, phrases=()):
            def build():
                return tf.raw_ops.RaggedTensorToTensor(
                    shape=const("shape", shape, shape_dt), values=ph("values", values, dt),
                    default_value=ph("default", default, dt),
                    row_partition_tensors=[ph("partition%d" % i, p, index)
                                           for i, p in enumerate(partitions)],
                    row_partition_types=types, name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases)
        v7 = arr(np.arange(1, 8) % 5, dt) if dt != "bool" else arr([1, 0, 1, 1, 0, 0, 1], dt)
        zero = arr(0, dt)
        splits = ["ROW_SPLITS"]
        rowids = ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]
        c("row_splits", -1, v7, zero, [[0, 3, 3, 7]], splits)
        c("row_splits_padded", [3, 6], v7, arr(1, dt), [[0, 3, 3, 7]], splits)
        c("row_splits_truncated", [2, 2], v7, zero, [[0, 3, 3, 7]], splits)
        c("value_rowids", [-1, 8], v7, zero, [4, [0, 0, 1, 1, 1, 3, 3]], rowids)
        c("value_rowids_unknown_shape", -1, v7, zero, [5, [0, 0, 1, 1, 1, 3, 3]], rowids)
        c("value_rowids_truncated", [3, 2], v7, zero, [4, [0, 0, 1, 1, 1, 3, 3]], rowids)
        c("two_ragged_dims", -1, v7, zero, [[0, 2, 3], [0, 1, 4, 7]], splits * 2)
        c("two_ragged_dims_rowids", [3, 3, -1], v7, zero, [3, [0, 0, 2, 2], [0, 0, 1, 3, 3, 3, 3]],
          rowids + ["VALUE_ROWIDS"])
        inner = arr(np.arange(10).reshape(5, 2) % 4, dt) if dt != "bool" else \
            arr(np.arange(10).reshape(5, 2) % 3 == 0, dt)
        c("inner_dims", -1, inner, zero, [[0, 1, 1, 5]], splits)
        c("inner_dims_default_vector", [3, 4, 2], inner, arr([1, 0], dt), [[0, 1, 1, 5]], splits)
        c("no_values", -1, arr(np.zeros([0]), dt), zero, [[0, 0, 0]], splits)
        c("int32_index", [-1, 5], v7, zero, [[0, 3, 3, 7]], splits, index="int32",
          shape_dt="int32")
        if dt == "float32":
            c("large", [-1, 40], rand(dt, [100], "rt/large"), arr(-1, dt),
              [list(range(0, 101, 5)) + [100, 100]], splits)
            c("shape_rank_error", [2, 3, 4], v7, zero, [[0, 3, 3, 7]], splits,
              error="INVALID_ARGUMENT", phrases=["are incompatible"])
            c("partition_size_error", -1, v7, zero, [[0, 2, 3], [0, 1, 1, 4, 7]], splits * 2,
              error="INVALID_ARGUMENT",
              phrases=["Row partition size is greater than output size: 4 > 3"])
            c("inner_dim_error", [3, 4, 3], inner, zero, [[0, 1, 1, 5]], splits,
              error="INVALID_ARGUMENT", phrases=["are incompatible"])

    rec.for_dtypes(op, ALL, gen)

    def gen_string(dt):
        rec.case(op, dt, "strings", lambda: tf.raw_ops.RaggedTensorToTensor(
            shape=const("shape", [-1, 4], "int64"),
            values=ph("values", np.array([b"the", b"quick", b"fox", b"a"])),
            default_value=ph("default", np.array(b"<pad>")),
            row_partition_tensors=[ph("partition0", np.array([0, 3, 3, 4], np.int64))],
            row_partition_types=["ROW_SPLITS"], name="out"))
    rec.for_dtypes(op, ["string"], gen_string)


def build_all(rec, emit):
    ragged_to_tensor(rec)
    emit("RaggedTensorToTensor")
