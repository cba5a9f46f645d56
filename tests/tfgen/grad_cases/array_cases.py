"""Gradient cases for the array ops: shape changes, joining and splitting, slicing and padding,
repetition, reordering, gathering and scattering, segment reductions.

Gathers along axis 0 give TensorFlow an IndexedSlices gradient, which tf.gradients returns as
such; their cases read the params through a Reshape (dense()), whose gradient densifies it."""
import numpy as np
import tensorflow as tf

from grad_cases import rand, seed_of

raw = tf.raw_ops
F32, F64 = np.float32, np.float64


def c(v, dtype=tf.int32):
    return tf.constant(v, dtype=dtype)


def dense(x):
    return tf.reshape(x, x.shape)


def distinct(shape, seed, dtype=F32):
    """Values with no ties (for Max/Min/TopK selections): a shuffled range, scaled."""
    n = int(np.prod(shape))
    rng = np.random.RandomState(seed_of(seed, "distinct"))
    return (rng.permutation(n).reshape(shape) * 0.25 - n * 0.1).astype(dtype)


def unary(add, op, what, x, build, **kw):
    add(op, what, [("x", x)], build, **kw)


def shape_cases(add):
    for dt in [F32, F64]:
        unary(add, "Reshape", "to_2d", rand([2, 3, 4], ("reshape", dt), dtype=dt),
              lambda x: raw.Reshape(tensor=x, shape=c([6, 4]), name="out"))
    unary(add, "Reshape", "to_flat", rand([2, 3], "reshape_flat"),
          lambda x: raw.Reshape(tensor=x, shape=c([-1]), name="out"))
    unary(add, "Reshape", "int64_shape", rand([4, 3], "reshape64"),
          lambda x: raw.Reshape(tensor=x, shape=c([2, 2, 3], tf.int64), name="out"))
    for what, axis in [("axis0", 0), ("axis_last", -1), ("axis1", 1)]:
        unary(add, "ExpandDims", what, rand([2, 3], ("expand", what)),
              lambda x, axis=axis: raw.ExpandDims(input=x, axis=c(axis), name="out"))
    unary(add, "ExpandDims", "f64", rand([3], "expand64", dtype=F64),
          lambda x: raw.ExpandDims(input=x, axis=c(0), name="out"))
    for what, dims in [("all", []), ("dim2", [2]), ("negative", [-4, 0])]:
        unary(add, "Squeeze", what, rand([1, 3, 1, 2], ("squeeze", what)),
              lambda x, dims=dims: raw.Squeeze(input=x, axis=dims, name="out"))
    for what, shape, perm, pdt in [("2d", [3, 4], [1, 0], tf.int32),
                                   ("3d", [2, 3, 4], [2, 0, 1], tf.int32),
                                   ("3d_int64_perm", [2, 3, 4], [1, 2, 0], tf.int64)]:
        for dt in [F32, F64]:
            unary(add, "Transpose", what, rand(shape, ("transpose", what, dt), dtype=dt),
                  lambda x, perm=perm, pdt=pdt: raw.Transpose(x=x, perm=c(perm, pdt), name="out"))
    add("IdentityN", "two", [("x", rand([2, 3], "idn_x")), ("y", rand([4], "idn_y"))],
        lambda x, y: raw.IdentityN(input=[x, y], name="out"))
    add("EnsureShape", "partial", [("x", rand([2, 3], "ensure_x"))],
        lambda x: raw.EnsureShape(input=x, shape=[None, 3], name="out"))
    add("EnsureShape", "f64_exact", [("x", rand([3], "ensure_64", dtype=F64))],
        lambda x: raw.EnsureShape(input=x, shape=[3], name="out"))
    add("IdentityN", "f64_one", [("x", rand([3], "idn_64", dtype=F64))],
        lambda x: raw.IdentityN(input=[x], name="out"))
    unary(add, "PlaceholderWithDefault", "rank2", rand([2, 3], "pwd"),
          lambda x: raw.PlaceholderWithDefault(input=x, shape=[2, 3], name="out"))
    unary(add, "PlaceholderWithDefault", "unknown_shape", rand([4], "pwd_unknown", dtype=F64),
          lambda x: raw.PlaceholderWithDefault(input=x, shape=[None], name="out"))
    unary(add, "CheckNumerics", "rank2", rand([2, 3], "checknum"),
          lambda x: raw.CheckNumerics(tensor=x, message="x is bad", name="out"))
    unary(add, "CheckNumerics", "f64", rand([4], "checknum64", dtype=F64),
          lambda x: raw.CheckNumerics(tensor=x, message="", name="out"))
    unary(add, "Print", "data_has_input", rand([2, 3], "print"),
          lambda x: raw.Print(input=x, data=[x, c([1, 2])], message="grad case: ", name="out"))
    # TensorFlow raises for a gradient through PreventGradient; an integer path carries none, so
    # the gradient function is never asked for.
    unary(add, "PreventGradient", "int_path_no_gradient", rand([3], "prevent"),
          lambda x: tf.cast(raw.PreventGradient(input=tf.cast(x, tf.int32), message="no",
                                                name="out"), tf.float32))


def join_cases(add):
    for dt in [F32, F64]:
        add("ConcatV2", "axis0", [("a", rand([2, 3], ("cat0a", dt), dtype=dt)),
                                  ("b", rand([1, 3], ("cat0b", dt), dtype=dt))],
            lambda a, b: raw.ConcatV2(values=[a, b], axis=c(0), name="out"))
    add("Concat", "three_axis1", [("a", rand([2, 1], "v1cat1a")), ("b", rand([2, 3], "v1cat1b")),
                                  ("c", rand([2, 2], "v1cat1c"))],
        lambda a, b, cc: raw.Concat(concat_dim=c(1), values=[a, b, cc], name="out"))
    add("Concat", "axis0_f64", [("a", rand([2, 3], "v1cat0a", dtype=F64)),
                                ("b", rand([1, 3], "v1cat0b", dtype=F64))],
        lambda a, b: raw.Concat(concat_dim=c(-2), values=[a, b], name="out"))
    add("ConcatV2", "three_axis1", [("a", rand([2, 1], "cat1a")), ("b", rand([2, 3], "cat1b")),
                                    ("c", rand([2, 2], "cat1c"))],
        lambda a, b, cc: raw.ConcatV2(values=[a, b, cc], axis=c(1), name="out"))
    add("ConcatV2", "negative_axis", [("a", rand([2, 3, 2], "catna")),
                                            ("b", rand([2, 3, 4], "catnb"))],
        lambda a, b: raw.ConcatV2(values=[a, b], axis=c(-1), name="out"))
    add("ConcatV2", "same_input_twice", [("a", rand([2, 2], "cattwice"))],
        lambda a: raw.ConcatV2(values=[a, a], axis=c(0), name="out"))
    for what, axis in [("axis0", 0), ("axis1", 1), ("axis_neg1", -1)]:
        add("Pack", what, [("a", rand([2, 3], ("pack", what, "a"))),
                           ("b", rand([2, 3], ("pack", what, "b"))),
                           ("c", rand([2, 3], ("pack", what, "c")))],
            lambda a, b, cc, axis=axis: raw.Pack(values=[a, b, cc], axis=axis, name="out"))
    add("Pack", "f64_scalars", [("a", rand([], "packs_a", dtype=F64)),
                                ("b", rand([], "packs_b", dtype=F64))],
        lambda a, b: raw.Pack(values=[a, b], name="out"))
    for what, axis, num in [("axis0", 0, 3), ("axis1", 1, 2), ("axis_neg1", -1, 4)]:
        unary(add, "Unpack", what, rand([3, 2, 4], ("unpack", what)),
              lambda x, axis=axis, num=num: raw.Unpack(value=x, num=num, axis=axis, name="out"))
    unary(add, "Unpack", "f64_one_output_used", rand([2, 3], "unpack64", dtype=F64),
          lambda x: raw.Unpack(value=x, num=2, axis=0, name="out")[1])
    for what, dim, num in [("dim1", 1, 2), ("dim_neg1", -1, 3), ("dim0", 0, 2)]:
        unary(add, "Split", what, rand([2, 4, 3], ("split", what)),
              lambda x, dim=dim, num=num: raw.Split(axis=c(dim), value=x, num_split=num,
                                                    name="out"))
    unary(add, "Split", "f64_one_output_used", rand([4, 2], "split64", dtype=F64),
          lambda x: raw.Split(axis=c(0), value=x, num_split=2, name="out")[0])
    for what, sizes, dim in [("dim1", [1, 2, 1], 1), ("inferred_size", [2, -1], 0),
                             ("dim_neg1", [1, 2], -1)]:
        unary(add, "SplitV", what, rand([3, 4, 3], ("splitv", what)),
              lambda x, sizes=sizes, dim=dim: raw.SplitV(
                  value=x, size_splits=c(sizes), axis=c(dim), num_split=len(sizes), name="out"))
    unary(add, "SplitV", "f64_int64_sizes", rand([5, 2], "splitv64", dtype=F64),
          lambda x: raw.SplitV(value=x, size_splits=c([3, 2], tf.int64), axis=c(0), num_split=2,
                               name="out"))


def slice_cases(add):
    for dt in [F32, F64]:
        unary(add, "Slice", "rank2", rand([4, 5], ("slice", dt), dtype=dt),
              lambda x: raw.Slice(input=x, begin=c([1, 2]), size=c([2, 3]), name="out"))
    unary(add, "Slice", "size_minus_one", rand([3, 4, 2], "slice_m1"),
          lambda x: raw.Slice(input=x, begin=c([1, 0, 1]), size=c([-1, 3, 1]), name="out"))
    unary(add, "Slice", "int64", rand([5], "slice64"),
          lambda x: raw.Slice(input=x, begin=c([2], tf.int64), size=c([2], tf.int64), name="out"))

    def ss(x, b, e, s, dtype=tf.int32, **masks):
        return raw.StridedSlice(input=x, begin=c(b, dtype), end=c(e, dtype), strides=c(s, dtype),
                                name="out", **masks)
    for dt in [F32, F64]:
        unary(add, "StridedSlice", "basic", rand([4, 6], ("ss_basic", dt), dtype=dt),
              lambda x: ss(x, [1, 0], [3, 6], [1, 2]))
    unary(add, "StridedSlice", "negative_stride", rand([5, 3], "ss_neg"),
          lambda x: ss(x, [4, 2], [0, 0], [-2, -1]))
    unary(add, "StridedSlice", "masks", rand([3, 4, 5], "ss_masks"),
          lambda x: ss(x, [1, 0, 2], [0, 3, 5], [1, 1, 1], begin_mask=1, end_mask=1))
    unary(add, "StridedSlice", "shrink_axis", rand([3, 4], "ss_shrink"),
          lambda x: ss(x, [1, 0], [2, 4], [1, 1], shrink_axis_mask=1))
    unary(add, "StridedSlice", "new_axis_ellipsis", rand([2, 3, 4], "ss_ellipsis"),
          lambda x: ss(x, [0, 0, 1], [0, 0, 3], [1, 1, 1], ellipsis_mask=1, new_axis_mask=2))
    unary(add, "StridedSlice", "int64_indices", rand([6], "ss_64"),
          lambda x: ss(x, [-5], [-1], [2], dtype=tf.int64))

    pads = [[1, 0], [2, 1]]
    for dt in [F32, F64]:
        unary(add, "Pad", "rank2", rand([2, 3], ("pad", dt), dtype=dt),
              lambda x: raw.Pad(input=x, paddings=c(pads), name="out"))
    unary(add, "Pad", "int64_rank3", rand([2, 1, 2], "pad64"),
          lambda x: raw.Pad(input=x, paddings=c([[0, 1], [1, 1], [0, 0]], tf.int64), name="out"))
    for dt in [F32, F64]:
        unary(add, "PadV2", "rank2", rand([2, 3], ("padv2", dt), dtype=dt),
              lambda x: raw.PadV2(input=x, paddings=c(pads),
                                  constant_values=tf.constant(1.5, x.dtype), name="out"))
    add("PadV2", "constant_is_input", [("x", rand([3], "padv2x")), ("v", rand([], "padv2v"))],
        lambda x, v: raw.PadV2(input=x, paddings=c([[2, 1]]), constant_values=v, name="out"))
    for mode in ["REFLECT", "SYMMETRIC"]:
        for dt in [F32, F64]:
            unary(add, "MirrorPad", mode.lower(), rand([3, 4], ("mirror", mode, dt), dtype=dt),
                  lambda x, mode=mode: raw.MirrorPad(input=x, paddings=c([[1, 2], [2, 2]]),
                                                     mode=mode, name="out"))
    unary(add, "MirrorPad", "symmetric_int64_full", rand([2, 3], "mirror64"),
          lambda x: raw.MirrorPad(input=x, paddings=c([[2, 2], [0, 3]], tf.int64),
                                  mode="SYMMETRIC", name="out"))


def repeat_cases(add):
    for what, shape, mult, mdt in [("rank2", [2, 3], [2, 1], tf.int32),
                                   ("rank3", [2, 1, 3], [1, 3, 2], tf.int32),
                                   ("int64_multiples", [3], [3], tf.int64)]:
        for dt in [F32, F64]:
            unary(add, "Tile", what, rand(shape, ("tile", what, dt), dtype=dt),
                  lambda x, mult=mult, mdt=mdt: raw.Tile(input=x, multiples=c(mult, mdt),
                                                         name="out"))
    for what, shape, to, sdt in [("row", [3], [2, 3], tf.int32),
                                 ("column", [2, 1], [2, 4], tf.int32),
                                 ("rank3", [1, 3, 1], [2, 3, 4], tf.int64),
                                 ("same", [2, 2], [2, 2], tf.int32)]:
        for dt in [F32, F64]:
            unary(add, "BroadcastTo", what, rand(shape, ("bcast", what, dt), dtype=dt),
                  lambda x, to=to, sdt=sdt: raw.BroadcastTo(input=x, shape=c(to, sdt),
                                                            name="out"))
    for dt in [F32, F64]:
        unary(add, "Fill", "rank2", rand([], ("fill", dt), dtype=dt),
              lambda x: raw.Fill(dims=c([2, 3]), value=x, name="out"))
    unary(add, "Fill", "int64_dims_scalar_out", rand([], "fill_scalar"),
          lambda x: raw.Fill(dims=c([], tf.int64), value=x, name="out"))


def reorder_cases(add):
    for what, axis in [("axis0", [0]), ("axes12", [1, 2]), ("negative", [-1])]:
        for dt in [F32, F64]:
            unary(add, "ReverseV2", what, rand([2, 3, 4], ("rev", what, dt), dtype=dt),
                  lambda x, axis=axis: raw.ReverseV2(tensor=x, axis=c(axis), name="out"))
    for what, dims in [("dim0", [True, False, False]), ("dims12", [False, True, True])]:
        for dt in [F32, F64]:
            unary(add, "Reverse", what, rand([2, 3, 4], ("rev1", what, dt), dtype=dt),
                  lambda x, dims=dims: raw.Reverse(tensor=x, dims=c(dims, tf.bool), name="out"))
    unary(add, "ReverseSequence", "seq1_batch0", rand([3, 4, 2], "revseq"),
          lambda x: raw.ReverseSequence(input=x, seq_lengths=c([1, 3, 4], tf.int64), seq_dim=1,
                                        batch_dim=0, name="out"))
    unary(add, "ReverseSequence", "seq0_batch1_f64", rand([4, 2], "revseq64", dtype=F64),
          lambda x: raw.ReverseSequence(input=x, seq_lengths=c([2, 4]), seq_dim=0, batch_dim=1,
                                        name="out"))
    unary(add, "Roll", "scalar_shift", rand([5, 2], "roll"),
          lambda x: raw.Roll(input=x, shift=c(2), axis=c(0), name="out"))
    unary(add, "Roll", "two_axes", rand([3, 4], "roll2"),
          lambda x: raw.Roll(input=x, shift=c([1, -3]), axis=c([0, 1]), name="out"))
    unary(add, "Roll", "f64_int64", rand([2, 5], "roll64", dtype=F64),
          lambda x: raw.Roll(input=x, shift=c([7], tf.int64), axis=c([-1], tf.int64), name="out"))
    for dt in [F32, F64]:
        unary(add, "SpaceToBatchND", "no_padding", rand([1, 4, 4, 1], ("s2bnd", dt), dtype=dt),
              lambda x: raw.SpaceToBatchND(input=x, block_shape=c([2, 2]),
                                           paddings=c([[0, 0], [0, 0]]), name="out"))
    unary(add, "SpaceToBatchND", "padded", rand([2, 2, 4, 3], "s2bnd_pad"),
          lambda x: raw.SpaceToBatchND(input=x, block_shape=c([2, 3]),
                                       paddings=c([[1, 1], [2, 0]]), name="out"))
    for dt in [F32, F64]:
        unary(add, "BatchToSpaceND", "no_crops", rand([4, 2, 2, 1], ("b2snd", dt), dtype=dt),
              lambda x: raw.BatchToSpaceND(input=x, block_shape=c([2, 2]),
                                           crops=c([[0, 0], [0, 0]]), name="out"))
    unary(add, "BatchToSpaceND", "cropped", rand([4, 2, 3, 2], "b2snd_crop"),
          lambda x: raw.BatchToSpaceND(input=x, block_shape=c([2, 2]),
                                       crops=c([[1, 0], [0, 1]]), name="out"))
    unary(add, "SpaceToBatch", "block2", rand([1, 4, 4, 2], "s2b"),
          lambda x: raw.SpaceToBatch(input=x, paddings=c([[0, 0], [0, 0]]), block_size=2,
                                     name="out"))
    unary(add, "SpaceToBatch", "padded_f64", rand([1, 2, 2, 1], "s2b64", dtype=F64),
          lambda x: raw.SpaceToBatch(input=x, paddings=c([[1, 1], [0, 2]]), block_size=2,
                                     name="out"))
    unary(add, "BatchToSpace", "block2", rand([4, 2, 2, 1], "b2s"),
          lambda x: raw.BatchToSpace(input=x, crops=c([[0, 0], [0, 0]]), block_size=2,
                                     name="out"))
    unary(add, "BatchToSpace", "cropped_f64", rand([4, 2, 2, 2], "b2s64", dtype=F64),
          lambda x: raw.BatchToSpace(input=x, crops=c([[1, 0], [0, 1]]), block_size=2,
                                     name="out"))
    for dt in [F32, F64]:
        unary(add, "DepthToSpace", "block2", rand([1, 2, 3, 8], ("d2s", dt), dtype=dt),
              lambda x: raw.DepthToSpace(input=x, block_size=2, name="out"))
        unary(add, "SpaceToDepth", "block2", rand([2, 4, 2, 3], ("s2d", dt), dtype=dt),
              lambda x: raw.SpaceToDepth(input=x, block_size=2, name="out"))
    unary(add, "DepthToSpace", "block3", rand([1, 1, 2, 9], "d2s3"),
          lambda x: raw.DepthToSpace(input=x, block_size=3, name="out"))
    unary(add, "SpaceToDepth", "block3", rand([1, 3, 3, 1], "s2d3"),
          lambda x: raw.SpaceToDepth(input=x, block_size=3, name="out"))


def gather_cases(add):
    for dt in [F32, F64]:
        unary(add, "GatherV2", "axis0_repeated", rand([4, 3], ("gv2_0", dt), dtype=dt),
              lambda x: raw.GatherV2(params=dense(x), indices=c([3, 0, 3]), axis=c(0),
                                     name="out"))
    unary(add, "GatherV2", "axis0_matrix_indices_int64", rand([5, 2], "gv2_0m"),
          lambda x: raw.GatherV2(params=dense(x), indices=c([[1, 4], [1, 0]], tf.int64),
                                 axis=c(0), name="out"))
    unary(add, "GatherV2", "axis1", rand([2, 5, 3], "gv2_1"),
          lambda x: raw.GatherV2(params=x, indices=c([4, 1, 1]), axis=c(1), name="out"))
    unary(add, "GatherV2", "axis_neg1_f64", rand([3, 4], "gv2_n1", dtype=F64),
          lambda x: raw.GatherV2(params=x, indices=c([[0, 3], [3, 2]]), axis=c(-1), name="out"))
    unary(add, "GatherV2", "batch_dims1", rand([2, 5, 3], "gv2_b1"),
          lambda x: raw.GatherV2(params=x, indices=c([[0, 4, 4], [2, 1, 0]]), axis=c(1),
                                 batch_dims=1, name="out"))
    unary(add, "GatherV2", "scalar_index", rand([3, 2], "gv2_s"),
          lambda x: raw.GatherV2(params=dense(x), indices=c(2), axis=c(0), name="out"))
    for dt in [F32, F64]:
        unary(add, "Gather", "repeated", rand([4, 2], ("gather", dt), dtype=dt),
              lambda x: raw.Gather(params=dense(x), indices=c([[1, 3], [1, 1]]), name="out"))
    for what, shape, idx in [("rows", [3, 2, 4], [[0, 1], [2, 0], [0, 1]]),
                             ("elements", [3, 2], [[2, 1], [0, 0]]),
                             ("leading", [4, 3], [[3], [1]])]:
        for dt in [F32, F64]:
            unary(add, "GatherNd", what, rand(shape, ("gnd", what, dt), dtype=dt),
                  lambda x, idx=idx: raw.GatherNd(params=dense(x), indices=c(idx), name="out"))
    unary(add, "GatherNd", "int64_indices", rand([2, 3], "gnd64"),
          lambda x: raw.GatherNd(params=x, indices=c([[1, 2], [1, 2]], tf.int64), name="out"))
    add("DynamicPartition", "rows", [("data", rand([5, 2], "dp_rows"))],
        lambda d: list(raw.DynamicPartition(data=d, partitions=c([1, 0, 2, 1, 1]),
                                            num_partitions=3, name="out")))
    add("DynamicPartition", "one_output_used", [("data", rand([4, 3], "dp_one"))],
        lambda d: raw.DynamicPartition(data=d, partitions=c([1, 0, 1, 1]), num_partitions=2,
                                       name="out")[1])
    add("DynamicPartition", "matrix_partitions_f64", [("data", rand([2, 3], "dp_m", dtype=F64))],
        lambda d: list(raw.DynamicPartition(data=d, partitions=c([[1, 0, 1], [0, 0, 1]]),
                                            num_partitions=2, name="out")))
    add("DynamicStitch", "two", [("a", rand([2, 3], "ds_a")), ("b", rand([2, 3], "ds_b"))],
        lambda a, b: raw.DynamicStitch(indices=[c([0, 2]), c([1, 3])], data=[a, b], name="out"))
    add("DynamicStitch", "overlapping_f64", [("a", rand([3], "ds64_a", dtype=F64)),
                                             ("b", rand([2], "ds64_b", dtype=F64))],
        lambda a, b: raw.DynamicStitch(indices=[c([0, 1, 2]), c([2, 0])], data=[a, b],
                                       name="out"))
    add("DynamicStitch", "matrix_indices", [("a", rand([2, 2, 2], "dsm_a"))],
        lambda a: raw.DynamicStitch(indices=[c([[3, 1], [0, 2]])], data=[a], name="out"))


def scatter_cases(add):
    for dt in [F32, F64]:
        unary(add, "ScatterNd", "rows_repeated", rand([3, 4], ("snd", dt), dtype=dt),
              lambda x: raw.ScatterNd(indices=c([[0], [2], [0]]), updates=x, shape=c([4, 4]),
                                      name="out"))
    unary(add, "ScatterNd", "elements_int64", rand([3], "snd64"),
          lambda x: raw.ScatterNd(indices=c([[0, 1], [1, 1], [2, 0]], tf.int64), updates=x,
                                  shape=c([3, 2], tf.int64), name="out"))
    for op in ["TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub"]:
        fn = getattr(raw, op)
        for dt in [F32, F64]:
            add(op, "rows", [("t", rand([4, 3], (op, "t", dt), dtype=dt)),
                             ("u", rand([2, 3], (op, "u", dt), dtype=dt))],
                lambda t, u, fn=fn: fn(tensor=t, indices=c([[1], [3]]), updates=u, name="out"))
        add(op, "elements_int64", [("t", rand([2, 3], (op, "t64"))),
                                   ("u", rand([2], (op, "u64")))],
            lambda t, u, fn=fn: fn(tensor=t, indices=c([[0, 2], [1, 0]], tf.int64), updates=u,
                                   name="out"))
    for op in ["TensorScatterMax", "TensorScatterMin"]:
        fn = getattr(raw, op)
        for dt in [F32, F64]:
            add(op, "rows", [("t", distinct([4, 3], (op, "t", dt), dt)),
                             ("u", distinct([2, 3], (op, "u", dt), dt) + 0.1)],
                lambda t, u, fn=fn: fn(tensor=t, indices=c([[1], [3]]), updates=u, name="out"))
        add(op, "elements", [("t", distinct([2, 3], (op, "te"))),
                             ("u", distinct([3], (op, "ue")) + 0.05)],
            lambda t, u, fn=fn: fn(tensor=t, indices=c([[0, 2], [1, 0], [1, 1]]), updates=u,
                                   name="out"))
    for what, shape, k in [("rank2", [3, 5], 2), ("rank3", [2, 3, 4], 3), ("k_all", [4], 4)]:
        for dt in [F32, F64]:
            unary(add, "TopKV2", what, distinct(shape, ("topk", what, dt), dt),
                  lambda x, k=k: raw.TopKV2(input=x, k=c(k), name="out")[0])
    for what, shape, n, rev in [("matrix", [3, 5], 2, False), ("reverse_rank3", [2, 2, 4], 0, True)]:
        for dt in [F32, F64]:
            unary(add, "NthElement", what, distinct(shape, ("nth", what, dt), dt),
                  lambda x, n=n, rev=rev: raw.NthElement(input=x, n=c(n), reverse=rev, name="out"))
    unary(add, "NthElement", "ties", np.array([[1.0, 1.0, 2.0], [0.5, 3.0, 3.0]], np.float32),
          lambda x: raw.NthElement(input=x, n=c(1), name="out"))
    unary(add, "TopKV2", "both_outputs", distinct([2, 4], "topk_both"),
          lambda x: raw.TopKV2(input=x, k=c(2), name="out"))


def segment_cases(add):
    ids = [0, 0, 1, 3, 3]
    for op in ["SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd"]:
        fn = getattr(raw, op)
        for dt in [F32, F64]:
            if op in ("SegmentMax", "SegmentMin"):
                x = distinct([5, 3], (op, dt), dt)
            else:
                x = rand([5, 3], (op, dt), "nonzero", dt)
            unary(add, op, "rank2", x,
                  lambda x, fn=fn: fn(data=x, segment_ids=c(ids), name="out"))
        x = distinct([6], (op, "1d")) if op in ("SegmentMax", "SegmentMin") else \
            rand([6], (op, "1d"), "nonzero")
        unary(add, op, "rank1_int64_ids", x,
              lambda x, fn=fn: fn(data=x, segment_ids=c([0, 1, 1, 1, 2, 2], tf.int64),
                                  name="out"))
    seg_zero = np.array([[0.0, 2.0], [1.5, 0.0], [0.0, -1.0], [3.0, 0.0], [0.5, 1.25]], F32)
    unary(add, "SegmentProd", "with_zeros", seg_zero,
          lambda x: raw.SegmentProd(data=x, segment_ids=c([0, 0, 0, 1, 2]), name="out"))
    unary(add, "SegmentMax", "ties", np.array([1.0, 3.0, 3.0, 2.0, 2.0], F32),
          lambda x: raw.SegmentMax(data=x, segment_ids=c([0, 0, 0, 1, 1]), name="out"))
    uids = [2, 0, 2, -1, 1]
    for op in ["UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
               "UnsortedSegmentProd"]:
        fn = getattr(raw, op)
        for dt in [F32, F64]:
            if op in ("UnsortedSegmentMax", "UnsortedSegmentMin"):
                x = distinct([5, 3], (op, dt), dt)
            else:
                x = rand([5, 3], (op, dt), "nonzero", dt)
            unary(add, op, "rank2_negative_id", x,
                  lambda x, fn=fn: fn(data=x, segment_ids=c(uids), num_segments=c(4),
                                      name="out"))
        x = distinct([2, 3], (op, "m")) if op in ("UnsortedSegmentMax", "UnsortedSegmentMin") \
            else rand([2, 3], (op, "m"), "nonzero")
        unary(add, op, "matrix_ids_int64", x,
              lambda x, fn=fn: fn(data=x, segment_ids=c([[1, 0, 1], [0, 2, 2]], tf.int64),
                                  num_segments=c(3, tf.int64), name="out"))
    unary(add, "UnsortedSegmentProd", "with_zeros", seg_zero,
          lambda x: raw.UnsortedSegmentProd(data=x, segment_ids=c([1, 1, 1, 0, 0]),
                                            num_segments=c(2), name="out"))
    for op in ["SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"]:
        fn = getattr(raw, op)
        for dt in [F32, F64]:
            unary(add, op, "rank2_empty_segment", rand([4, 3], (op, dt), dtype=dt),
                  lambda x, fn=fn: fn(data=x, indices=c([0, 2, 1, 2]),
                                      segment_ids=c([0, 0, 1, 3]), name="out"))
        unary(add, op, "rank1_int64", rand([5], (op, "1d")),
              lambda x, fn=fn: fn(data=x, indices=c([4, 4, 0], tf.int64),
                                  segment_ids=c([0, 1, 1], tf.int64), name="out"))
        fn = getattr(raw, op + "WithNumSegments")
        unary(add, op + "WithNumSegments", "trailing_empty_segments", rand([4, 3], (op, "n")),
              lambda x, fn=fn: fn(data=x, indices=c([0, 2, 1, 2]), segment_ids=c([0, 0, 1, 3]),
                                  num_segments=c(6), name="out"))


def sparse_cases(add):
    i64 = tf.int64
    idx = [[0, 1], [1, 0], [1, 2], [3, 1]]
    for dt in [F32, F64]:
        add("SparseToDense", "rank2", [("v", rand([4], ("s2d_v", dt), dtype=dt)),
                                       ("d", rand([], ("s2d_d", dt), dtype=dt))],
            lambda v, d: raw.SparseToDense(sparse_indices=c(idx, i64), output_shape=c([4, 3], i64),
                                           sparse_values=v, default_value=d, name="out"))
    for dt in [F32, F64]:
        add("SparseTensorDenseAdd", "repeated_index", [("v", rand([4], ("stda_v", dt), dtype=dt)),
                                                       ("b", rand([4, 3], ("stda_b", dt),
                                                                  dtype=dt))],
            lambda v, b: raw.SparseTensorDenseAdd(a_indices=c(idx[:3] + [[1, 0]], i64), a_values=v,
                                                  a_shape=c([4, 3], i64), b=b, name="out"))
    add("SparseToDense", "rank1_int32", [("v", rand([3], "s2d1_v")), ("d", rand([], "s2d1_d"))],
        lambda v, d: raw.SparseToDense(sparse_indices=c([[0], [2], [5]]), output_shape=c([6]),
                                       sparse_values=v, default_value=d, name="out"))
    for adj_a in [False, True]:
        for adj_b in [False, True]:
            for dt in [F32, F64]:
                b_shape = [5, 3] if adj_b else [3, 5]
                add("SparseTensorDenseMatMul", "adj_a%d_adj_b%d" % (adj_a, adj_b),
                    [("v", rand([4], ("stdmm_v", adj_a, adj_b, dt), dtype=dt)),
                     ("b", rand(b_shape, ("stdmm_b", adj_a, adj_b, dt), dtype=dt))],
                    lambda v, b, adj_a=adj_a, adj_b=adj_b: raw.SparseTensorDenseMatMul(
                        a_indices=c([[0, 1], [1, 0], [1, 2], [2, 1]] if adj_a else idx, i64),
                        a_values=v, a_shape=c([3, 4] if adj_a else [4, 3], i64), b=b,
                        adjoint_a=adj_a, adjoint_b=adj_b, name="out"))
    add("SparseTensorDenseMatMul", "int32_indices_repeated_row",
        [("v", rand([3], "stdmm32_v")), ("b", rand([2, 2], "stdmm32_b"))],
        lambda v, b: raw.SparseTensorDenseMatMul(a_indices=c([[0, 0], [0, 1], [2, 1]]), a_values=v,
                                                 a_shape=c([3, 2], i64), b=b, name="out"))
    idx3 = [[0, 0, 1], [0, 2, 0], [1, 1, 1], [1, 2, 1], [2, 0, 0]]
    for what, axes, keep in [("axis1", [1], False), ("axes02_keep", [0, 2], True),
                             ("negative", [-1], False), ("all", [0, 1, 2], False)]:
        for dt in [F32, F64]:
            unary(add, "SparseReduceSum", what, rand([5], ("srs", what, dt), dtype=dt),
                  lambda v, axes=axes, keep=keep: raw.SparseReduceSum(
                      input_indices=c(idx3, i64), input_values=v, input_shape=c([3, 3, 2], i64),
                      reduction_axes=c(axes), keep_dims=keep, name="out"))
    for dt in [F32, F64]:
        unary(add, "SparseReorder", "unordered", rand([4], ("sro", dt), dtype=dt),
              lambda v: raw.SparseReorder(input_indices=c([[2, 1], [0, 3], [1, 0], [0, 1]], i64),
                                          input_values=v, input_shape=c([3, 4], i64),
                                          name="out")[1])
    for dt in [F32, F64]:
        add("SparseAdd", "overlapping", [("a", rand([3], ("sadd_a", dt), dtype=dt)),
                                         ("b", rand([3], ("sadd_b", dt), dtype=dt))],
            lambda a, b: raw.SparseAdd(
                a_indices=c([[0, 0], [1, 1], [2, 0]], i64), a_values=a, a_shape=c([3, 2], i64),
                b_indices=c([[0, 1], [1, 1], [2, 1]], i64), b_values=b, b_shape=c([3, 2], i64),
                thresh=tf.constant(0, a.dtype), name="out")[1])
    add("SparseAdd", "thresh_drops", [("a", np.array([1.0, 0.5, -2.0], F32)),
                                      ("b", np.array([-0.75, 3.0], F32))],
        lambda a, b: raw.SparseAdd(
            a_indices=c([[0], [2], [3]], i64), a_values=a, a_shape=c([5], i64),
            b_indices=c([[0], [3]], i64), b_values=b, b_shape=c([5], i64),
            thresh=tf.constant(0.6), name="out")[1])
    for dt in [F32, F64]:
        add("SparseFillEmptyRows", "empty_rows",
            [("v", rand([3], ("sfer_v", dt), dtype=dt)), ("d", rand([], ("sfer_d", dt), dtype=dt))],
            lambda v, d: raw.SparseFillEmptyRows(
                indices=c([[0, 1], [2, 0], [2, 2]], i64), values=v, dense_shape=c([5, 3], i64),
                default_value=d, name="out")[1])
    add("SparseFillEmptyRows", "no_empty_rows",
        [("v", rand([2], "sfer2_v")), ("d", rand([], "sfer2_d"))],
        lambda v, d: raw.SparseFillEmptyRows(indices=c([[0, 0], [1, 1]], i64), values=v,
                                             dense_shape=c([2, 2], i64), default_value=d,
                                             name="out")[1])


def crand(shape, seed):
    return (rand(shape, (seed, "re")) + 1j * rand(shape, (seed, "im"))).astype(np.complex64)


def complex_cases(add):
    unary(add, "Reshape", "to_2d", crand([2, 3, 2], "c_reshape"),
          lambda x: raw.Reshape(tensor=x, shape=c([3, 4]), name="out"))
    unary(add, "Transpose", "2d", crand([2, 3], "c_transpose"),
          lambda x: raw.Transpose(x=x, perm=c([1, 0]), name="out"))
    add("ConcatV2", "axis1", [("a", crand([2, 1], "c_cat_a")), ("b", crand([2, 2], "c_cat_b"))],
        lambda a, b: raw.ConcatV2(values=[a, b], axis=c(1), name="out"))
    unary(add, "Pad", "rank2", crand([2, 2], "c_pad"),
          lambda x: raw.Pad(input=x, paddings=c([[1, 0], [0, 2]]), name="out"))
    unary(add, "StridedSlice", "basic", crand([4, 3], "c_ss"),
          lambda x: raw.StridedSlice(input=x, begin=c([0, 1]), end=c([4, 3]), strides=c([2, 1]),
                                     name="out"))
    unary(add, "GatherV2", "axis0_repeated", crand([3, 2], "c_gv2_0"),
          lambda x: raw.GatherV2(params=dense(x), indices=c([2, 2, 0]), axis=c(0), name="out"))
    unary(add, "GatherV2", "axis1", crand([2, 3], "c_gv2_1"),
          lambda x: raw.GatherV2(params=x, indices=c([1, 1]), axis=c(1), name="out"))
    unary(add, "GatherNd", "elements", crand([2, 2], "c_gnd"),
          lambda x: raw.GatherNd(params=dense(x), indices=c([[1, 0], [1, 0]]), name="out"))


def quantize_cases(add):
    """Fake quantization and quantize-dequantize: their gradients pass dy where the input lies in
    the (nudged) range; Vars/VarsPerChannel sum the rest into min and max."""
    x = rand([3, 5], "fq/x") * 4.0
    for what, attrs in [("defaults", {}), ("symmetric_narrow", dict(min=-1.0, max=1.0,
                                                                    narrow_range=True)),
                        ("nudged_four_bits", dict(min=-0.1, max=6.3, num_bits=4))]:
        add("FakeQuantWithMinMaxArgs", what, [("x", x)],
            lambda x, attrs=attrs: raw.FakeQuantWithMinMaxArgs(inputs=x, name="out", **attrs))
    scalar = lambda v: np.array(v, F32)  # noqa: E731
    for what, lo, hi, attrs in [("symmetric", -1.0, 1.0, {}), ("relu6", 0.0, 6.0, {}),
                                ("narrow_four_bits", -2.5, 1.5, dict(num_bits=4,
                                                                     narrow_range=True)),
                                ("both_zero", 0.0, 0.0, {})]:
        add("FakeQuantWithMinMaxVars", what,
            [("x", x), ("min", scalar(lo)), ("max", scalar(hi))],
            lambda x, lo, hi, attrs=attrs: raw.FakeQuantWithMinMaxVars(
                inputs=x, min=lo, max=hi, name="out", **attrs))
    lo3, hi3 = np.array([-1.0, 0.0, -3.0], F32), np.array([1.0, 6.0, -0.5], F32)
    add("FakeQuantWithMinMaxVarsPerChannel", "matrix",
        [("x", rand([6, 3], "fqpc/x") * 3.0), ("min", lo3), ("max", hi3)],
        lambda x, lo, hi: raw.FakeQuantWithMinMaxVarsPerChannel(inputs=x, min=lo, max=hi,
                                                                name="out"))
    add("FakeQuantWithMinMaxVarsPerChannel", "conv_weights_narrow",
        [("x", rand([3, 3, 2, 3], "fqpc/w")), ("min", lo3 * 0.5), ("max", np.abs(hi3) * 0.5)],
        lambda x, lo, hi: raw.FakeQuantWithMinMaxVarsPerChannel(
            inputs=x, min=lo, max=hi, num_bits=6, narrow_range=True, name="out"))
    add("FakeQuantWithMinMaxVarsPerChannel", "zero_channel",
        [("x", rand([5, 2], "fqpc/z") * 2.0), ("min", np.array([0.0, -1.0], F32)),
         ("max", np.array([0.0, 1.0], F32))],
        lambda x, lo, hi: raw.FakeQuantWithMinMaxVarsPerChannel(inputs=x, min=lo, max=hi,
                                                                name="out"))
    for dt in [F32, F64]:
        xq = rand([3, 4], ("qdq/x", dt), dtype=dt) * 2.0
        lo, hi = np.array(-1.0, dt), np.array(1.5, dt)
        for range_given in [False, True]:
            add("QuantizeAndDequantizeV2", "range_given" if range_given else "from_data",
                [("x", xq), ("min", lo), ("max", hi)],
                lambda x, a, b, range_given=range_given: raw.QuantizeAndDequantizeV2(
                    input=x, input_min=a, input_max=b, range_given=range_given, name="out"))
            add("QuantizeAndDequantizeV4", "range_given" if range_given else "from_data",
                [("x", xq), ("min", lo), ("max", hi)],
                lambda x, a, b, range_given=range_given: raw.QuantizeAndDequantizeV4(
                    input=x, input_min=a, input_max=b, range_given=range_given, name="out"))
            add("QuantizeAndDequantizeV3", "range_given" if range_given else "from_data",
                [("x", xq), ("min", lo), ("max", hi)],
                lambda x, a, b, range_given=range_given: raw.QuantizeAndDequantizeV3(
                    input=x, input_min=a, input_max=b, num_bits=tf.constant(6),
                    range_given=range_given, name="out"))
        add("QuantizeAndDequantizeV4", "per_axis",
            [("x", xq), ("min", np.array([-1.0, -0.5, 0.0, -2.0], dt)),
             ("max", np.array([1.0, 0.5, 2.0, 0.1], dt))],
            lambda x, a, b: raw.QuantizeAndDequantizeV4(
                input=x, input_min=a, input_max=b, range_given=True, axis=1, name="out"))


def ragged_cases(add):
    """RaggedTensorToTensor: values get the gradient of the elements they filled (none for
    truncated ones), default_value the sum over the padding."""
    rtt = raw.RaggedTensorToTensor
    splits = [0, 3, 3, 5, 7]  # rows of 3, 0, 2 and 2 values
    for dt in [F32, F64]:
        add("RaggedTensorToTensor", "row_splits",
            [("values", rand([7], ("rtt/v", dt), dtype=dt)), ("default", np.array(0.5, dt))],
            lambda v, d: rtt(shape=c(-1), values=v, default_value=d,
                             row_partition_tensors=[c(splits, tf.int64)],
                             row_partition_types=["ROW_SPLITS"], name="out"))
    add("RaggedTensorToTensor", "inner_dims_truncated",
        [("values", rand([7, 3], "rtt/inner")), ("default", rand([3], "rtt/inner_d"))],
        lambda v, d: rtt(shape=c([3, 2, 3]), values=v, default_value=d,
                         row_partition_tensors=[c(splits)],
                         row_partition_types=["ROW_SPLITS"], name="out"))
    add("RaggedTensorToTensor", "value_rowids_padded",
        [("values", rand([6], "rtt/rowids")), ("default", np.array(-1.0, F32))],
        lambda v, d: rtt(shape=c([5, 4], tf.int64), values=v, default_value=d,
                         row_partition_tensors=[c(4, tf.int64), c([0, 0, 1, 3, 3, 3], tf.int64)],
                         row_partition_types=["FIRST_DIM_SIZE", "VALUE_ROWIDS"], name="out"))
    add("RaggedTensorToTensor", "two_levels_broadcast_default",
        [("values", rand([6, 2, 2], "rtt/two")), ("default", rand([1, 2], "rtt/two_d"))],
        lambda v, d: rtt(shape=c(-1), values=v, default_value=d,
                         row_partition_tensors=[c([0, 2, 3]), c([0, 1, 4, 6])],
                         row_partition_types=["ROW_SPLITS", "ROW_SPLITS"], name="out"))

    # RaggedGather: gathered value rows get the output values' gradient summed back (a row
    # gathered twice twice); values are read through dense() (TensorFlow's IndexedSlices).
    rg = raw.RaggedGather
    for dt in [F32, F64]:
        add("RaggedGather", "rows_repeated",
            [("values", rand([7, 2], ("rg/v", dt), dtype=dt))],
            lambda v: rg(params_nested_splits=[c([0, 3, 3, 5, 7], tf.int64)],
                         params_dense_values=dense(v), indices=c([2, 0, 2, 3]),
                         OUTPUT_RAGGED_RANK=1, name="out")[1])
    add("RaggedGather", "nested_matrix_indices",
        [("values", rand([6], "rg/nested"))],
        lambda v: rg(params_nested_splits=[c([0, 2, 3], tf.int64), c([0, 1, 4, 6], tf.int64)],
                     params_dense_values=dense(v), indices=c([[1, 0], [0, 0]], tf.int64),
                     OUTPUT_RAGGED_RANK=3, name="out")[1])
    # RaggedTensorToSparse: the sparse values' gradient reshaped to the flat values.
    for dt in [F32, F64]:
        add("RaggedTensorToSparse", "inner_dims",
            [("values", rand([5, 2, 3], ("rts/v", dt), dtype=dt))],
            lambda v: raw.RaggedTensorToSparse(
                rt_nested_splits=[c([0, 2, 2, 5], tf.int64)], rt_dense_values=v,
                name="out")[1])


def cases(add):
    shape_cases(add)
    join_cases(add)
    slice_cases(add)
    repeat_cases(add)
    reorder_cases(add)
    gather_cases(add)
    scatter_cases(add)
    segment_cases(add)
    sparse_cases(add)
    complex_cases(add)
    quantize_cases(add)
    ragged_cases(add)
