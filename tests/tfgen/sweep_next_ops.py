"""A fifth set of models for tests/tfgen/model_sweep.py: graphs holding ops of docs/model_sweep.md's
"The next ops" list, each failing in Rill before the op was added. Built from seeded weights
(nothing downloaded).

- tf1_switch_case_tta: a TF1 classifier whose test-time augmentation is chosen by tf.switch_case
  on a fed index (Case: one branch asserts on its input, so the branches are stateful): rotation
  by ImageProjectiveTransformV2 (the op tfa.image.rotate and TensorFlow 2.3's Keras preprocessing
  wrote), a shift by ImageProjectiveTransformV3 with REFLECT fill, a flip, the image unchanged;
  frozen with graph_util, which keeps the Case and its branch functions.
- tf1_switch_case_heads: a TF1 multi-task model choosing its head with tf.switch_case
  (StatelessCase: the heads are constants; two outputs, a default branch, an index out of range
  fed) inside a tf.cond on a second flag (TF1 Switch / Merge).
- tf1_sparse_weighted_features: a TF1 recommender over a weighted sparse id feature (feature
  columns' weighted_categorical_column as a SparseTensor of weights): the weights scaled by a
  position decay (SparseTensor * Tensor: SparseDenseCwiseMul), normalized by their row sums
  (SparseTensor / Tensor: SparseDenseCwiseDiv), offset by a per-row bias (SparseDenseCwiseAdd),
  then embedding_lookup_sparse and an MLP.
- tf1_feature_crosses: a TF1 wide-and-deep style ranker over string features: tf.sparse.cross
  (SparseCrossV2, with a separator) of occupation x city x the dense device column, counted into
  hash buckets; tf.sparse.cross_hashed (which writes SparseCross) of occupation x an int64 id;
  SparseCrossHashed as tf.raw_ops builds it (strong_hash, a salt) of occupation x city x device;
  each feeding an embedding_lookup_sparse.
- tf1_bincount_features: a TF1 bag-of-ids model: tf.sparse.bincount of a dense id matrix
  (DenseCountSparseOutput, weighted), of a SparseTensor of ids (SparseCountSparseOutput, binary)
  and of a RaggedTensor (RaggedCountSparseOutput, maxlength), densified and fed to an MLP.

add(models) registers them.
"""
import numpy as np

from model_sweep import _rand, _tf, tf1_graph


def _rotation(angle, h, w):
    """tfa.image.angles_to_projective_transforms: a rotation about the image centre as the
    [a0, a1, a2, b0, b1, b2, c0, c1] row the ImageProjectiveTransform ops read."""
    cos, sin = np.cos(angle), np.sin(angle)
    x_off = ((w - 1) - (cos * (w - 1) - sin * (h - 1))) / 2.0
    y_off = ((h - 1) - (sin * (w - 1) + cos * (h - 1))) / 2.0
    return np.array([[cos, -sin, x_off, sin, cos, y_off, 0.0, 0.0]], np.float32)


def _tf1_switch_case_tta():
    tf = _tf()
    size = 12

    def body(x, aug):
        tf1 = tf.compat.v1
        init = tf1.random_normal_initializer(0.0, 0.3, seed=11)
        rot = tf.constant(_rotation(0.35, size, size))
        shift = tf.constant([[1.0, 0.0, 2.5, 0.0, 1.0, -1.5, 0.0, 0.0]], tf.float32)

        def rotate():
            return tf.raw_ops.ImageProjectiveTransformV2(
                images=x, transforms=rot, output_shape=tf.constant([size, size]),
                interpolation="BILINEAR", fill_mode="CONSTANT")

        def shifted():
            return tf.raw_ops.ImageProjectiveTransformV3(
                images=x, transforms=shift, output_shape=tf.constant([size, size]),
                fill_value=tf.constant(0.0), interpolation="NEAREST", fill_mode="REFLECT")

        def flipped():
            check = tf.debugging.assert_all_finite(x, "non-finite pixel")
            with tf.control_dependencies([check]):
                return tf.reverse(x, [2])
        h = tf.switch_case(aug, [lambda: tf.identity(x), rotate, shifted, flipped])
        h.set_shape([None, size, size, 3])
        w1 = tf1.get_variable("c1", [3, 3, 3, 8], initializer=init)
        w2 = tf1.get_variable("c2", [3, 3, 8, 8], initializer=init)
        d = tf1.get_variable("d", [8, 5], initializer=init)
        h = tf.nn.relu(tf.nn.conv2d(h, w1, 1, "SAME"))
        h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        h = tf.nn.relu(tf.nn.conv2d(h, w2, 1, "SAME"))
        logits = tf.matmul(tf.reduce_mean(h, [1, 2]), d)
        return [tf.nn.softmax(logits), h]
    return tf1_graph(body, [("x", (None, size, size, 3), tf.float32,
                             _rand((2, size, size, 3), 120, 0.0, 1.0)),
                            ("aug", (), tf.int32, np.int32(1))])


def _tf1_switch_case_heads():
    tf = _tf()

    def body(x, task, use_heads):
        tf1 = tf.compat.v1
        init = tf1.random_normal_initializer(0.0, 0.4, seed=12)
        w = tf1.get_variable("trunk", [10, 16], initializer=init)
        # Constant head weights (as a frozen graph holds them): the branches read no variable,
        # so tf.switch_case writes StatelessCase.
        rng = np.random.RandomState(13)
        heads = [tf.constant(rng.normal(0, 0.4, (16, 4)).astype(np.float32)) for _ in range(3)]
        h = tf.nn.gelu(tf.matmul(x, w))

        def head(i):
            def f():
                y = tf.matmul(h, heads[i])
                return tf.nn.softmax(y), tf.reduce_max(y, -1)
            return f

        def default():
            y = tf.matmul(h, heads[2]) * 0.5
            return tf.sigmoid(y), tf.reduce_min(y, -1)

        def chosen():
            return tf.switch_case(task, [head(0), head(1)], default=default)
        probs, score = tf.cond(use_heads, chosen,
                               lambda: (tf.zeros([tf.shape(x)[0], 4]), tf.reduce_sum(h, -1)))
        return [probs, score]
    return tf1_graph(body, [("x", (None, 10), tf.float32, _rand((3, 10), 121)),
                            ("task", (), tf.int32, np.int32(7)),
                            ("use_heads", (), tf.bool, np.array(True))])


def _tf1_sparse_weighted_features():
    tf = _tf()
    batch, width, vocab = 3, 5, 20
    idx = np.array([[0, 0], [0, 1], [0, 4], [1, 2], [2, 0], [2, 1], [2, 2], [2, 3]], np.int64)
    rng = np.random.RandomState(122)
    ids = rng.randint(0, vocab, len(idx)).astype(np.int64)
    weights = rng.uniform(0.2, 2.0, len(idx)).astype(np.float32)

    def body(sp_idx, sp_ids, sp_w, sp_shape, dense):
        tf1 = tf.compat.v1
        init = tf1.random_normal_initializer(0.0, 0.5, seed=14)
        emb = tf1.get_variable("emb", [vocab, 6], initializer=init)
        w1 = tf1.get_variable("w1", [6 + 2, 8], initializer=init)
        w2 = tf1.get_variable("w2", [8, 1], initializer=init)
        decay = tf.constant(0.8 ** np.arange(width), tf.float32)
        ids_st = tf.SparseTensor(sp_idx, sp_ids, sp_shape)
        w_st = tf.SparseTensor(sp_idx, sp_w, sp_shape)
        w_st = w_st * decay  # SparseDenseCwiseMul, the decay broadcast over rows
        row_sum = tf.sparse.reduce_sum(w_st, 1, keepdims=True)
        w_st = w_st / (row_sum + 1e-3)  # SparseDenseCwiseDiv, a column broadcast
        bias = tf.reduce_mean(dense, 1, keepdims=True) * 0.1
        w_st = tf.SparseTensor(sp_idx, tf.raw_ops.SparseDenseCwiseAdd(
            sp_indices=sp_idx, sp_values=w_st.values, sp_shape=sp_shape, dense=bias), sp_shape)
        pooled = tf.nn.embedding_lookup_sparse(emb, ids_st, w_st, combiner="sum")
        h = tf.nn.relu(tf.matmul(tf.concat([pooled, dense], 1), w1))
        return [tf.sigmoid(tf.matmul(h, w2)), w_st.values]
    return tf1_graph(body, [("sp_idx", (None, 2), tf.int64, idx),
                            ("sp_ids", (None,), tf.int64, ids),
                            ("sp_w", (None,), tf.float32, weights),
                            ("sp_shape", (2,), tf.int64, np.array([batch, width], np.int64)),
                            ("dense", (None, 2), tf.float32, _rand((batch, 2), 123))])


def _tf1_feature_crosses():
    tf = _tf()
    occ_idx = np.array([[0, 0], [0, 1], [1, 0], [3, 0], [3, 1]], np.int64)
    occ = np.array([b"engineer", b"artist", b"doctor", b"nurse", b"pilot"])
    city_idx = np.array([[0, 0], [1, 0], [1, 1], [2, 0], [3, 0]], np.int64)
    city = np.array([b"paris", b"lima", b"oslo", b"rome", b"kyiv"])
    ids = np.array([7, 123456789012, 42, 5], np.int64)
    device = np.array([[b"ios"], [b"android"], [b"web"], [b"ios"]])

    def body(occ_i, occ_v, city_i, city_v, item, dev, num):
        tf1 = tf.compat.v1
        init = tf1.random_normal_initializer(0.0, 0.5, seed=15)
        shape = tf.constant([4, 2], tf.int64)
        occ_st = tf.SparseTensor(occ_i, occ_v, shape)
        city_st = tf.SparseTensor(city_i, city_v, shape)
        item_st = tf.sparse.from_dense(tf.reshape(item, [-1, 1]))
        crossed = tf.sparse.cross([occ_st, city_st, dev], separator="#")  # SparseCrossV2
        buckets = tf.SparseTensor(crossed.indices, tf.strings.to_hash_bucket_fast(
            crossed.values, 50), crossed.dense_shape)
        hashed = tf.sparse.cross_hashed([occ_st, item_st], num_buckets=40)  # SparseCross
        strong = tf.raw_ops.SparseCrossHashed(
            indices=[occ_st.indices, city_st.indices], values=[occ_st.values, city_st.values],
            shapes=[shape, shape], dense_inputs=[dev], num_buckets=tf.constant(30, tf.int64),
            strong_hash=tf.constant(True), salt=tf.constant([11, 13], tf.int64))
        strong_st = tf.SparseTensor(strong.output_indices, strong.output_values,
                                    strong.output_shape)
        e1 = tf1.get_variable("e1", [50, 4], initializer=init)
        e2 = tf1.get_variable("e2", [40, 4], initializer=init)
        e3 = tf1.get_variable("e3", [30, 4], initializer=init)
        w = tf1.get_variable("w", [12 + 2, 1], initializer=init)

        def pool(emb, st):
            pooled = tf.nn.embedding_lookup_sparse(emb, st, None, combiner="mean")
            pad = tf.shape(num)[0] - tf.shape(pooled)[0]  # rows without a cross pool to zeros
            return tf.pad(pooled, [[0, pad], [0, 0]])
        h = tf.concat([pool(e1, buckets), pool(e2, hashed), pool(e3, strong_st), num], 1)
        return [tf.sigmoid(tf.matmul(h, w)), crossed.values, hashed.values, strong.output_values]
    return tf1_graph(body, [("occ_i", (None, 2), tf.int64, occ_idx),
                            ("occ_v", (None,), tf.string, occ),
                            ("city_i", (None, 2), tf.int64, city_idx),
                            ("city_v", (None,), tf.string, city),
                            ("item", (None,), tf.int64, ids),
                            ("dev", (None, 1), tf.string, device),
                            ("num", (None, 2), tf.float32, _rand((4, 2), 124))])


def _tf1_bincount_features():
    tf = _tf()
    vocab = 12
    dense_ids = np.array([[1, 3, 3, 11], [0, 0, 5, 2], [7, 7, 7, 7]], np.int32)
    sp_idx = np.array([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1]], np.int64)
    sp_ids = np.array([4, 4, 9, 1, 0], np.int64)
    flat = np.array([2, 5, 5, 1, 10, 3, 3], np.int64)
    splits = np.array([0, 3, 4, 7], np.int64)

    def body(ids, weights, s_idx, s_ids, r_values, r_splits):
        tf1 = tf.compat.v1
        init = tf1.random_normal_initializer(0.0, 0.4, seed=16)
        shape = tf.constant([3, 3], tf.int64)
        a = tf.sparse.bincount(ids, weights=weights, axis=-1, minlength=vocab, maxlength=vocab)
        b = tf.sparse.bincount(tf.SparseTensor(s_idx, s_ids, shape), minlength=vocab,
                               maxlength=vocab, binary_output=True, axis=-1)
        rt = tf.RaggedTensor.from_row_splits(r_values, r_splits, validate=False)
        c = tf.sparse.bincount(rt, axis=-1, minlength=vocab, maxlength=vocab)
        def dense(st):  # the shape functions leave the counts' rank unknown
            return tf.reshape(tf.cast(tf.sparse.to_dense(st), tf.float32), [-1, vocab])
        feats = tf.concat([dense(a), dense(b), dense(c)], 1)
        w = tf1.get_variable("w", [3 * vocab, 4], initializer=init)
        return [tf.nn.softmax(tf.matmul(feats, w)), a.values, b.indices, c.dense_shape]
    return tf1_graph(body, [("ids", (None, 4), tf.int32, dense_ids),
                            ("weights", (None, 4), tf.float32, _rand((3, 4), 125, 0.1, 1.0)),
                            ("s_idx", (None, 2), tf.int64, sp_idx),
                            ("s_ids", (None,), tf.int64, sp_ids),
                            ("r_values", (None,), tf.int64, flat),
                            ("r_splits", (None,), tf.int64, splits)])


def add(m):
    m["tf1_switch_case_tta"] = ("TF1 test-time augmentation by tf.switch_case (Case): "
                                "ImageProjectiveTransformV2 / V3, flip, assert",
                                _tf1_switch_case_tta())
    m["tf1_switch_case_heads"] = ("TF1 multi-task heads by tf.switch_case (StatelessCase, "
                                  "default) in a tf.cond", _tf1_switch_case_heads())
    m["tf1_sparse_weighted_features"] = ("TF1 weighted sparse ids: SparseDenseCwiseMul / Div / "
                                         "Add, embedding_lookup_sparse",
                                         _tf1_sparse_weighted_features())
    m["tf1_feature_crosses"] = ("TF1 string feature crosses: SparseCrossV2, SparseCross, "
                                "SparseCrossHashed (strong), embedding_lookup_sparse",
                                _tf1_feature_crosses())
    m["tf1_bincount_features"] = ("TF1 bag of ids: tf.sparse.bincount of dense, sparse and "
                                  "ragged ids (Dense/Sparse/RaggedCountSparseOutput)",
                                  _tf1_bincount_features())
