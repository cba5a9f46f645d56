"""RaggedTensorToTensor: what RaggedTensor.to_tensor() leaves in a graph (TextVectorization's
padded token ids, tf.strings.split(...).to_tensor()), with row partitions given as ROW_SPLITS or
FIRST_DIM_SIZE + VALUE_ROWIDS. RaggedTensorToSparse (RaggedTensor.to_sparse()), RaggedRange
(tf.ragged.range) and RaggedGather (tf.gather on a RaggedTensor, tf.concat of ragged rows)."""
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


def _splits(values, dt="int64"):
    return np.asarray(values, np.int64 if dt == "int64" else np.int32)


def ragged_to_sparse(rec):
    op = "RaggedTensorToSparse"

    def gen(dt):
        def c(what, splits, values, sdt="int64", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.RaggedTensorToSparse(
                rt_nested_splits=[ph("splits%d" % i, _splits(s, sdt))
                                  for i, s in enumerate(splits)],
                rt_dense_values=ph("values", values), name="out"), error=error, phrases=phrases)

        if dt == "string":
            v5 = np.array([b"a", b"bb", b"", b"c", b"dd"], dtype=object)
        elif dt == "bool":
            v5 = arr([1, 0, 1, 1, 0], dt)
        else:
            v5 = arr([1, 2, 3, 4, 5], dt)
        c("rows", [[0, 2, 2, 5]], v5)
        c("rows_int32_splits", [[0, 2, 2, 5]], v5, sdt="int32")
        c("nested", [[0, 2, 3], [0, 1, 3, 5]], v5)
        c("nested_empty_rows", [[0, 0, 2, 2, 3], [0, 0, 4, 5]], v5)
        if dt == "string":
            return
        inner = arr(np.arange(12).reshape(4, 3) % 5, dt) if dt != "bool" else \
            arr(np.arange(12).reshape(4, 3) % 3 == 0, dt)
        c("inner_dims", [[0, 1, 1, 4]], inner)
        c("inner_dims_nested", [[0, 2], [0, 3, 4]], arr(np.zeros([4, 2, 1]) + 1, dt))
        c("no_values", [[0, 0, 0]], arr(np.zeros([0]), dt))
        if dt == "float32":
            c("empty_splits_error", [[]], v5, error="INVALID_ARGUMENT",
              phrases=["ragged splits may not be empty."])
            c("first_split_error", [[1, 5]], v5, error="INVALID_ARGUMENT",
              phrases=["First value of ragged splits must be 0."])
            c("decreasing_error", [[0, 3, 2, 5]], v5, error="INVALID_ARGUMENT",
              phrases=["Ragged splits should be non decreasing, but we got 3 followed by 2"])
            c("values_length_error", [[0, 2, 4]], v5, error="INVALID_ARGUMENT",
              phrases=["Final value of ragged splits must match the length"])
            c("nested_length_error", [[0, 2, 4], [0, 1, 3, 5]], v5, error="INVALID_ARGUMENT",
              phrases=["Final value of ragged splits must match the length"])
            c("scalar_values_error", [[0]], arr(1, dt), error="INVALID_ARGUMENT",
              phrases=["Final value of ragged splits must match the length"])

    rec.for_dtypes(op, ALL + ["string"], gen)


def ragged_range(rec):
    op = "RaggedRange"

    def gen(dt):
        for sdt in ("int64", "int32"):
            def c(what, starts, limits, deltas, error=None, phrases=()):
                rec.case(op, dt, "%s_%s" % (what, sdt), lambda: tf.raw_ops.RaggedRange(
                    starts=ph("starts", arr(starts, dt)), limits=ph("limits", arr(limits, dt)),
                    deltas=ph("deltas", arr(deltas, dt)), Tsplits=tf.as_dtype(sdt), name="out"),
                    error=error, phrases=phrases)

            c("rows", [0, 5, 8, 2], [3, 5, 12, 9], [1, 1, 2, 3])
            c("scalar_broadcast", 0, [3, 5, 2, 0], 1)
            c("all_scalars", 2, 9, 2)
            c("negative_deltas", [5, 0, 7], [0, 5, -2], [-2, -1, -3])
            c("empty", arr(np.zeros([0]), dt), arr(np.zeros([0]), dt), 1)
            if is_float(dt):
                c("fractional", [0.0, 1.5, -1.0], [1.0, 0.0, 1.0], [0.3, -0.4, 0.1])
                c("accumulated", [0.1], [1.0], [0.1])
            if dt == "int32" and sdt == "int64":
                c("wide_span", [-2147483648], [2147483647], [1073741824])
            if dt in ("float32", "int64"):
                c("zero_delta_error", [0, 1], [3, 4], [1, 0], error="INVALID_ARGUMENT",
                  phrases=["Requires delta != 0"])
                c("shape_error", [0, 1], [3, 4, 5], 1, error="INVALID_ARGUMENT",
                  phrases=["starts, limits, and deltas must have the same shape"])
                c("rank_error", [[0]], [3], 1, error="INVALID_ARGUMENT",
                  phrases=["starts must be a scalar or vector"])
                c("limits_rank_error", 0, [[3]], 1, error="INVALID_ARGUMENT",
                  phrases=["limits must be a scalar or vector"])
            if dt == "int64":
                c("too_long_error", [-2 ** 62], [2 ** 62], [1], error="INVALID_ARGUMENT",
                  phrases=["Requires ((limit - start) / delta) <= "])
            if dt == "float32":
                c("infinite_error", [0.0], [np.inf], [1.0], error="INVALID_ARGUMENT",
                  phrases=["Requires ((limit - start) / delta) <= "])
                c("nan_error", [0.0], [np.nan], [1.0], error="INVALID_ARGUMENT",
                  phrases=["Requires ((limit - start) / delta) <= "])

    rec.for_dtypes(op, ["int32", "int64", "float32", "float64"], gen)


def ragged_gather(rec):
    op = "RaggedGather"

    def gen(dt):
        for sdt, idt in (("int64", "int32"), ("int32", "int64")):
            def c(what, splits, values, indices, error=None, phrases=(), out_rank=None):
                rank = np.ndim(indices) - 1 + len(splits) if out_rank is None else out_rank
                rec.case(op, dt, "%s_%s_%s" % (what, sdt, idt), lambda: tf.raw_ops.RaggedGather(
                    params_nested_splits=[ph("splits%d" % i, _splits(s, sdt))
                                          for i, s in enumerate(splits)],
                    params_dense_values=ph("values", values),
                    indices=ph("indices", np.asarray(indices, idt)),
                    OUTPUT_RAGGED_RANK=rank, name="out"), error=error, phrases=phrases)

            if dt == "string":
                v5 = np.array([b"a", b"bb", b"", b"c", b"dd"], dtype=object)
            elif dt == "bool":
                v5 = arr([1, 0, 1, 1, 0], dt)
            else:
                v5 = arr([1, 2, 3, 4, 5], dt)
            sp = [[0, 2, 2, 5]]
            c("rows", sp, v5, [2, 0, 1, 2])
            c("matrix_indices", sp, v5, [[2, 0], [1, 1]])
            c("scalar_index", sp, v5, 2)
            c("no_indices", sp, v5, np.zeros([0]))
            c("nested", [[0, 2, 3], [0, 1, 3, 5]], v5, [1, 0, 1])
            if dt == "string" or sdt == "int32":
                continue
            inner = arr(np.arange(10).reshape(5, 2) % 4, dt) if dt != "bool" else \
                arr(np.arange(10).reshape(5, 2) % 3 == 0, dt)
            c("inner_dims", sp, inner, [2, 1, 0])
            if dt == "float32":
                c("index_error", sp, v5, [0, 3], error="INVALID_ARGUMENT",
                  phrases=["indices[1] = 3 is not in [0, 3)"])
                c("negative_index_error", sp, v5, [[0, -1]], error="INVALID_ARGUMENT",
                  phrases=["indices[0,1] = -1 is not in [0, 3)"])
                c("unsorted_error", [[0, 3, 2, 5]], v5, [0], error="INVALID_ARGUMENT",
                  phrases=["Ragged splits must be sorted"])
                c("past_values_error", [[0, 3, 6]], v5, [0], error="INVALID_ARGUMENT",
                  phrases=["Ragged splits must not point past values"])
                c("negative_split_error", [[-1, 2]], v5, [0], error="INVALID_ARGUMENT",
                  phrases=["Ragged splits must be non-negative"])
                c("empty_splits_error", [[]], v5, np.zeros([0]), error="INVALID_ARGUMENT",
                  phrases=["Ragged splits may not be empty"])
                c("scalar_values_error", [[0, 0]], arr(1, dt), [0], error="INVALID_ARGUMENT",
                  phrases=["params.rank must be nonzero"])

    rec.for_dtypes(op, ALL + ["string"], gen)


def build_all(rec, emit):
    ragged_to_tensor(rec)
    emit("RaggedTensorToTensor")
    ragged_to_sparse(rec)
    emit("RaggedTensorToSparse")
    ragged_range(rec)
    emit("RaggedRange")
    ragged_gather(rec)
    emit("RaggedGather")
