"""More model families for tests/tfgen/model_sweep.py: TF1 estimator-style wide & deep models
with feature columns, detection post-processing inside while loops, style transfer, 3-D and 2-D
transposed-convolution generators, audio front ends of raw ops, graph networks on segment ops,
sub-pixel super-resolution, Fourier mixing, linear algebra in Lambda layers, Keras 3 layers the
first families leave out, float16 / int8 graphs, a TF1 graph with quantized (quint8 / qint8)
weights as quantize_weights leaves them, and serving input parsing (tf.Example records, CSV
lines, serialized tensors).

Each function returns a builder as model_sweep's keras_model, tf_function and tf1_graph make
them; add(models) registers them under their sweep names. Weights are seeded; nothing is
downloaded.
"""
import numpy as np

from model_sweep import _dynamic, _ids, _image_input, _rand, _tf, keras_model, tf1_graph, \
    tf_function


def _const(shape, seed, scale=0.3):
    return _tf().constant(np.random.RandomState(seed).normal(0, scale, shape).astype(np.float32))


# ---------------------------------------------------------------------------------------------
# Recommenders: TF1 feature columns (what an Estimator's wide & deep model freezes to).

def _wide_deep_inputs():
    tf = _tf()
    age = np.array([[17.0], [33.5], [70.0], [25.0], [49.9]], np.float32)
    occ = np.array([[b"engineer"], [b"doctor"], [b""], [b"artist"], [b"engineer"]])
    city = np.array([[b"paris", b"lima"], [b"tokyo", b""], [b"", b""], [b"berlin", b"oslo"],
                     [b"oslo", b"paris"]])
    cat = np.array([[3], [-1], [12], [0], [9]], np.int64)
    return [("age", (None, 1), tf.float32, age), ("occupation", (None, 1), tf.string, occ),
            ("city", (None, 2), tf.string, city), ("cat_id", (None, 1), tf.int64, cat)]


def _tf1_wide_deep(linear_only=False):
    """An Estimator-style wide & deep model in TF1 (tf.compat.v1.feature_column, resource
    variables, frozen with graph_util): bucketized numeric, hash-bucket, vocabulary-list (a lookup
    table, with OOV buckets) and identity categorical columns, a crossed column, indicator and
    embedding columns (mean, sqrtn, sum combiners over SparseFillEmptyRows), the wide part a
    linear_model. Empty strings and -1 are missing values (dense-to-sparse drops them)."""
    tf = _tf()
    tf1 = tf.compat.v1

    def body(age, occ, city, cat):
        fc = tf1.feature_column
        feats = {"age": age, "occupation": occ, "city": city, "cat_id": cat}
        agec = fc.numeric_column("age")
        ageb = fc.bucketized_column(agec, [18.0, 25.0, 35.0, 50.0, 65.0])
        occh = fc.categorical_column_with_hash_bucket("occupation", 50)
        cityv = fc.categorical_column_with_vocabulary_list(
            "city", ["paris", "tokyo", "lima", "oslo"], num_oov_buckets=2)
        cati = fc.categorical_column_with_identity("cat_id", 16, default_value=0)
        cross = fc.crossed_column([ageb, "occupation"], 100)
        wide = fc.linear_model(feats, [ageb, occh, cross, cityv, cati])
        if linear_only:
            return [wide]
        deep = fc.input_layer(feats, [
            agec, fc.embedding_column(occh, 4, combiner="mean"),
            fc.embedding_column(cityv, 3, combiner="sqrtn"), fc.indicator_column(cati),
            fc.embedding_column(cati, 2, combiner="sum"),
            fc.indicator_column(cross)])
        w1 = tf1.get_variable("w1", [deep.shape[1], 16],
                              initializer=tf1.glorot_uniform_initializer(seed=1))
        w2 = tf1.get_variable("w2", [16, 1], initializer=tf1.glorot_uniform_initializer(seed=2))
        h = tf.nn.relu(tf.matmul(deep, w1))
        logit = tf.matmul(h, w2) + wide
        return [tf.sigmoid(logit), deep]
    return tf1_graph(body, _wide_deep_inputs())


def _sparse_features():
    """Sparse id features as recommenders feed them after parsing: SparseReshape, SparseToDense,
    sparse_tensor_to_dense, SparseSegmentSum/Mean with num_segments (embedding_lookup_sparse of a
    reshaped batch), Unique with counts, sparse slices and sparse additions, sparse softmax."""
    tf = _tf()
    emb = _const((12, 4), 31, 1.0)

    def fn(idx, vals, shape):
        sp = tf.SparseTensor(idx, vals, shape)
        flat = tf.sparse.reshape(sp, [-1, shape[1] * shape[2]])
        uniq, where, counts = tf.unique_with_counts(flat.values)
        dense = tf.sparse.to_dense(flat, default_value=-1)
        seg = tf.cast(flat.indices[:, 0], tf.int32)
        spf = tf.SparseTensor(flat.indices, tf.cast(flat.values, tf.float32) / 10.0,
                              flat.dense_shape)
        return [tf.sparse.segment_sum(emb, flat.values, seg, num_segments=5),
                tf.sparse.segment_mean(emb, flat.values, seg, num_segments=5),
                tf.sparse.segment_sqrt_n(emb, flat.values, seg, num_segments=5),
                dense, uniq, where, counts,
                tf.sparse.to_dense(tf.sparse.slice(flat, [1, 0], [2, 6])),
                tf.sparse.to_dense(tf.sparse.add(spf, spf)),
                tf.sparse.add(spf, tf.ones([4, 6])),
                tf.sparse.to_dense(tf.sparse.softmax(spf)),
                tf.sparse.reduce_max(spf, 1)]
    idx = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 2], [3, 0, 0], [3, 1, 1]], np.int64)
    return tf_function(fn, [("idx", (None, 3), tf.int64, idx),
                            ("vals", (None,), tf.int64, np.array([3, 7, 3, 11, 0, 7], np.int64)),
                            ("shape", (3,), tf.int64, np.array([4, 2, 3], np.int64))])


# ---------------------------------------------------------------------------------------------
# Detection post-processing in loops.

def _detection_boxes():
    rng = np.random.RandomState(12)
    yx = rng.uniform(0, 0.7, (2, 24, 2)).astype(np.float32)
    hw = rng.uniform(0.1, 0.3, (2, 24, 2)).astype(np.float32)
    boxes = np.concatenate([yx, yx + hw], 2)
    scores = rng.uniform(0, 1, (2, 24, 3)).astype(np.float32)
    return boxes, scores


def _nms_loop(boxes, scores, use_v3):
    """Per image (tf.map_fn), per class (tf.while_loop), NMS (V2 or V3), the kept boxes written
    to TensorArrays, then the top 6 by score over classes, padded."""
    tf = _tf()

    def per_image(args):
        b, s = args
        n_cls = 3
        ta_b = tf.TensorArray(tf.float32, size=n_cls, infer_shape=False, element_shape=[None, 4])
        ta_s = tf.TensorArray(tf.float32, size=n_cls, infer_shape=False, element_shape=[None])
        ta_c = tf.TensorArray(tf.int32, size=n_cls, infer_shape=False, element_shape=[None])

        def body(c, ta_b, ta_s, ta_c):
            sc = s[:, c]
            if use_v3:
                keep = tf.raw_ops.NonMaxSuppressionV3(boxes=b, scores=sc, max_output_size=5,
                                                      iou_threshold=0.5, score_threshold=0.3)
            else:
                keep = tf.raw_ops.NonMaxSuppressionV2(boxes=b, scores=sc, max_output_size=5,
                                                      iou_threshold=0.4)
            return (c + 1, ta_b.write(c, tf.gather(b, keep)), ta_s.write(c, tf.gather(sc, keep)),
                    ta_c.write(c, tf.fill(tf.shape(keep), c)))
        _, ta_b, ta_s, ta_c = tf.while_loop(lambda c, *_: c < n_cls, body,
                                            (0, ta_b, ta_s, ta_c))
        all_b, all_s, all_c = ta_b.concat(), ta_s.concat(), ta_c.concat()
        k = tf.minimum(6, tf.shape(all_s)[0])
        top_s, top_i = tf.math.top_k(all_s, k)
        pad = 6 - k
        return (tf.pad(tf.gather(all_b, top_i), [[0, pad], [0, 0]]),
                tf.pad(top_s, [[0, pad]]), tf.pad(tf.gather(all_c, top_i), [[0, pad]],
                                                  constant_values=-1), k)
    return tf.map_fn(per_image, (boxes, scores),
                     fn_output_signature=(tf.float32, tf.float32, tf.int32, tf.int32))


def _detection_loop(lower):
    """TF2 detection post-processing: map_fn over the batch, a while loop over classes with
    TensorArrays, NonMaxSuppressionV3 with a score threshold; frozen lowered or functional."""
    tf = _tf()
    boxes, scores = _detection_boxes()

    def fn(b, s):
        return list(_nms_loop(b, tf.sigmoid(s), use_v3=True))
    return tf_function(fn, [("boxes", (None, 24, 4), tf.float32, boxes),
                            ("scores", (None, 24, 3), tf.float32, scores)], lower)


def _tf1_detection():
    """TF1 object-detection style post-processing: the same per-image / per-class loops in TF1
    control flow (Enter/Exit/NextIteration, TensorArrayV3), NonMaxSuppressionV2 (no score
    threshold) as older exporters emit it."""
    tf = _tf()
    boxes, scores = _detection_boxes()

    def body(b, s):
        return list(_nms_loop(b, tf.nn.softmax(s), use_v3=False))
    return tf1_graph(body, [("boxes", (None, 24, 4), tf.float32, boxes),
                            ("scores", (None, 24, 3), tf.float32, scores)])


def _tensor_array_loop(lower):
    """TensorArray gather, scatter, write, concat, split and unstack inside a while loop's body,
    as a tf.function writes them (TensorListGather, TensorListScatterIntoExistingList,
    TensorListConcatV2, TensorListSplit, TensorListFromTensor), frozen lowered or functional."""
    tf = _tf()
    x = np.random.RandomState(28).uniform(-1, 1, (6, 5)).astype(np.float32)

    def fn(x):
        n = tf.shape(x)[0]
        rows = tf.TensorArray(tf.float32, size=n, element_shape=[5]).unstack(x)
        out = tf.TensorArray(tf.float32, size=n, element_shape=[5])
        pieces = tf.TensorArray(tf.float32, size=0, dynamic_size=True, infer_shape=False,
                                element_shape=[None, 5])

        def body(i, out, pieces):
            g = rows.gather(tf.stack([i, n - 1 - i]))
            row = tf.tanh(tf.reduce_sum(g, 0) * tf.cast(i + 1, tf.float32))
            out = out.scatter(tf.reshape(i, [1]), row[None])
            pieces = pieces.write(i, tf.tile(row[None], [i % 3 + 1, 1]))
            return i + 1, out, pieces
        _, out, pieces = tf.while_loop(lambda i, *_: i < n, body, (0, out, pieces))
        joined = pieces.concat()
        halves = tf.TensorArray(tf.float32, size=2, infer_shape=False,
                                element_shape=[None, 5]).split(
            joined, tf.stack([3, tf.shape(joined)[0] - 3]))
        return [out.stack(), joined, halves.read(1), out.gather([4, 0, 4])]
    return tf_function(fn, [("x", (None, 5), tf.float32, x)], lower)


# ---------------------------------------------------------------------------------------------
# Image generators and image-to-image models.

def _instance_norm(x):
    tf = _tf()
    mean, var = tf.nn.moments(x, [1, 2], keepdims=True)
    return (x - mean) * tf.math.rsqrt(var + 1e-5)


def _style_transfer(dynamic=False):
    """A fast style-transfer network (Johnson et al.): reflection padding (MirrorPad REFLECT),
    convolutions with instance normalization (moments), residual blocks, upsampling by
    Conv2DTranspose and by nearest-neighbour resize (ResizeNearestNeighbor) + conv, a scaled
    tanh; batch unknown when dynamic."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers
        Pad = lambda p: L.Lambda(lambda t: tf.pad(t, [[0, 0], [p, p], [p, p], [0, 0]],
                                                  "REFLECT"))
        Norm = L.Lambda(_instance_norm)
        x = inp = k.Input((24, 24, 3))
        x = L.ReLU()(Norm(L.Conv2D(8, 5)(Pad(2)(x))))
        x = L.ReLU()(Norm(L.Conv2D(16, 3, 2, "same")(x)))
        for _ in range(2):
            y = L.ReLU()(Norm(L.Conv2D(16, 3)(Pad(1)(x))))
            y = Norm(L.Conv2D(16, 3)(Pad(1)(y)))
            x = L.Add()([x, y])
        a = L.ReLU()(Norm(L.Conv2DTranspose(8, 3, 2, "same")(x)))
        b = L.Lambda(lambda t: tf.image.resize(t, tf.shape(t)[1:3] * 2, "nearest"))(x)
        b = L.ReLU()(Norm(L.Conv2D(8, 3)(L.Lambda(
            lambda t: tf.pad(t, [[0, 0], [1, 1], [1, 1], [0, 0]], "SYMMETRIC"))(b))))
        x = L.Concatenate()([a, b])
        x = L.Conv2D(3, 5)(Pad(2)(x))
        return k.Model(inp, L.Lambda(lambda t: 150.0 * tf.tanh(t) + 127.5)(x))
    inputs = _image_input(24, 2)
    return keras_model(make, _dynamic(inputs) if dynamic else inputs)


def _dcgan(dynamic=True):
    """A DCGAN generator from a latent vector: Dense, Reshape, Conv2DTranspose + BatchNorm +
    LeakyReLU stages, tanh output; plus its discriminator on the generated image (Conv2D strides,
    LeakyReLU, Dropout, Dense sigmoid). Batch unknown."""
    def make():
        k = _tf().keras
        L = k.layers
        z = inp = k.Input((16,))
        x = L.LeakyReLU(0.2)(L.BatchNormalization()(L.Dense(4 * 4 * 32, use_bias=False)(z)))
        x = L.Reshape((4, 4, 32))(x)
        for f in (16, 8):
            x = L.Conv2DTranspose(f, 4, 2, "same", use_bias=False)(x)
            x = L.LeakyReLU(0.2)(L.BatchNormalization(momentum=0.8)(x))
        img = L.Conv2DTranspose(3, 5, 1, "same", activation="tanh")(x)
        d = L.LeakyReLU(0.2)(L.Conv2D(8, 4, 2, "same")(img))
        d = L.Dropout(0.3)(L.LeakyReLU(0.2)(L.Conv2D(16, 4, 2, "same")(d)))
        d = L.Dense(1, activation="sigmoid")(L.Flatten()(d))
        return k.Model(inp, [img, d])
    inputs = [("x", (3, 16), "float32", _rand((3, 16), seed=13))]
    return keras_model(make, _dynamic(inputs) if dynamic else inputs)


def _conv3d_autoencoder():
    """A volumetric autoencoder: Conv3D + AveragePooling3D down, Conv3DTranspose (strides 2,
    same and valid) and UpSampling3D up, GlobalMaxPooling3D / GlobalAveragePooling3D heads."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((8, 8, 8, 2))
        x = L.Conv3D(4, 3, padding="same", activation="relu")(x)
        x = L.AveragePooling3D(2)(x)
        code = L.Conv3D(8, 3, padding="same", activation="relu")(x)
        y = L.Conv3DTranspose(4, 3, 2, "same", activation="relu")(code)
        z = L.Conv3DTranspose(2, 2, 2, "valid")(L.MaxPooling3D(2)(y))
        u = L.Conv3D(2, 1)(L.UpSampling3D(2)(code))
        heads = L.Concatenate()([L.GlobalMaxPooling3D()(code), L.GlobalAveragePooling3D()(y)])
        return k.Model(inp, [L.Add()([z, u]), heads])
    return keras_model(make, [("x", (2, 8, 8, 8, 2), "float32", _rand((2, 8, 8, 8, 2)))])


def _superres():
    """ESPCN-style super-resolution: convs, sub-pixel upsampling by depth_to_space (x2 twice),
    space_to_depth on the way in, local response normalization, tf.roll jitter and
    extract_patches for a patch loss head."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers
        x = inp = k.Input((16, 16, 3))
        s = L.Lambda(lambda t: tf.nn.space_to_depth(t, 2))(x)
        s = L.Conv2D(12, 3, padding="same", activation="tanh")(s)
        s = L.Lambda(lambda t: tf.nn.depth_to_space(t, 2))(s)
        y = L.Conv2D(16, 5, padding="same", activation="tanh")(L.Concatenate()([x, s]))
        y = L.Lambda(lambda t: tf.nn.local_response_normalization(t, 2, 1.0, 1e-3, 0.75))(y)
        y = L.Conv2D(3 * 16, 3, padding="same")(y)
        up = L.Lambda(lambda t: tf.nn.depth_to_space(t, 4))(y)
        rolled = L.Lambda(lambda t: tf.roll(t, [3, -2], [1, 2]))(up)
        patches = L.Lambda(lambda t: tf.image.extract_patches(
            t, [1, 8, 8, 1], [1, 8, 8, 1], [1, 1, 1, 1], "VALID"))(up)
        return k.Model(inp, [up, rolled, patches])
    return keras_model(make, _image_input(16, 2))


def _fnet():
    """FNet-like encoder: Fourier token mixing (FFT2D on a complex cast, real part), RFFT2D /
    IRFFT2D spectral filtering (global filter network), GroupNormalization, Dense GELU."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers
        x = inp = k.Input((16, 24))
        for _ in range(2):
            f = L.Lambda(lambda t: tf.math.real(tf.signal.fft2d(tf.cast(t, tf.complex64))))(x)
            x = L.LayerNormalization()(L.Add()([x, f]))
            h = L.Dense(48, activation="gelu")(x)
            x = L.LayerNormalization()(L.Add()([x, L.Dense(24)(h)]))
        img = L.Reshape((16, 24, 1))(x)
        filt = np.random.RandomState(14).normal(1, 0.3, (16, 13)).astype(np.float32)
        g = L.Lambda(lambda t: tf.signal.irfft2d(
            tf.signal.rfft2d(t[..., 0]) * tf.cast(filt, tf.complex64), [16, 24]))(img)
        g = L.GroupNormalization(groups=4)(L.Conv2D(8, 3, padding="same")(L.Reshape(
            (16, 24, 1))(g)))
        return k.Model(inp, [L.GlobalAveragePooling2D()(g), x])
    return keras_model(make, [("x", (2, 16, 24), "float32", _rand((2, 16, 24)))])


# ---------------------------------------------------------------------------------------------
# Text and audio.

def _textcnn(dynamic=True):
    """Kim's TextCNN: Embedding, Conv1D of widths 2/3/4, MaxPool1D and GlobalMaxPool1D,
    Concatenate, Dropout, Dense softmax; batch unknown."""
    def make():
        k = _tf().keras
        L = k.layers
        ids = inp = k.Input((20,), dtype="int32")
        e = L.Embedding(500, 16)(ids)
        branches = []
        for w in (2, 3, 4):
            c = L.Conv1D(8, w, activation="relu")(e)
            c = L.MaxPooling1D(2, padding="same")(c)
            branches.append(L.GlobalMaxPooling1D()(c))
        x = L.Dropout(0.5)(L.Concatenate()(branches))
        return k.Model(inp, L.Dense(4, activation="softmax")(x))
    inputs = [("x", (3, 20), "int32", _ids((3, 20), 500, seed=15))]
    return keras_model(make, _dynamic(inputs) if dynamic else inputs)


def _audio_raw():
    """The speech-commands front end of tf.raw_ops: AudioSpectrogram (magnitude squared and not)
    and Mfcc, then a small conv classifier."""
    tf = _tf()
    w = _const((3, 3, 1, 4), 16)
    d = _const((4, 3), 17)

    def fn(wave):
        spec = tf.raw_ops.AudioSpectrogram(input=wave, window_size=256, stride=128,
                                           magnitude_squared=True)
        spec2 = tf.raw_ops.AudioSpectrogram(input=wave, window_size=200, stride=100,
                                            magnitude_squared=False)
        mfcc = tf.raw_ops.Mfcc(spectrogram=spec, sample_rate=16000, upper_frequency_limit=4000.0,
                               lower_frequency_limit=20.0, filterbank_channel_count=40,
                               dct_coefficient_count=13)
        y = tf.nn.relu(tf.nn.conv2d(mfcc[..., tf.newaxis], w, 1, "SAME"))
        y = tf.reduce_mean(y, [1, 2])
        return [tf.nn.softmax(tf.matmul(y, d)), mfcc, spec2]
    wave = _rand((4000, 2), seed=18, lo=-0.5, hi=0.5)
    return tf_function(fn, [("wave", (4000, 2), tf.float32, wave)])


def _signal_resynth():
    """Speech enhancement by spectral masking: tf.signal.stft, a mask from a Dense on the
    magnitude, inverse_stft (with the inverse Hann window), frame and overlap_and_add."""
    tf = _tf()
    w = _const((65, 65), 19, 0.1)

    def fn(wave):
        spec = tf.signal.stft(wave, 128, 32, 128)
        mask = tf.sigmoid(tf.tensordot(tf.abs(spec), w, 1))
        clean = tf.signal.inverse_stft(
            spec * tf.cast(mask, tf.complex64), 128, 32, 128,
            window_fn=tf.signal.inverse_stft_window_fn(32))
        frames = tf.signal.frame(wave, 64, 16, pad_end=True)
        back = tf.signal.overlap_and_add(frames * tf.signal.hann_window(64), 16)
        return [clean, back, tf.signal.frame(wave, 50, 25, axis=-1)]
    return tf_function(fn, [("wave", (2, 1024), tf.float32, _rand((2, 1024), seed=20))])


def _asr_ctc():
    """An ASR model on MFCC frames with an unknown time length: Conv1D, bidirectional GRU,
    logits, CTC greedy decoding with merge_repeated False and sparse-to-dense of the result."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers
        x = inp = k.Input((None, 13))
        x = L.Conv1D(16, 3, padding="same", activation="relu")(x)
        x = L.Bidirectional(L.GRU(12, return_sequences=True))(x)
        logits = L.Dense(6)(x)

        def decode(t):
            tm = tf.transpose(t, [1, 0, 2])
            lens = tf.fill([tf.shape(t)[0]], tf.shape(t)[1])
            (dec,), neg = tf.nn.ctc_greedy_decoder(tm, lens, merge_repeated=False)
            return tf.sparse.to_dense(dec, default_value=-1), neg
        return k.Model(inp, [logits] + list(L.Lambda(decode)(logits)))
    return keras_model(make, [("x", (2, None, 13), "float32", _rand((2, 9, 13), seed=21))],
                       lower_control_flow=False)


# ---------------------------------------------------------------------------------------------
# Graph networks and math in Lambda layers.

def _gnn():
    """A message-passing graph network on an edge list: gather of sender states, messages by
    Dense, aggregation by unsorted_segment_sum/mean/max/min/prod/sqrt_n, degree by bincount
    (with weights), attention weights by a segment softmax (unsorted_segment_max, exp, sum)."""
    tf = _tf()
    w = _const((8, 8), 22)
    a = _const((16, 1), 23)

    def fn(nodes, senders, receivers):
        n = tf.shape(nodes)[0]
        msg = tf.nn.relu(tf.matmul(tf.gather(nodes, senders), w))
        logit = tf.matmul(tf.concat([msg, tf.gather(nodes, receivers)], 1), a)[:, 0]
        seg_max = tf.math.unsorted_segment_max(logit, receivers, n)
        e = tf.exp(logit - tf.gather(seg_max, receivers))
        att = e / tf.gather(tf.math.unsorted_segment_sum(e, receivers, n), receivers)
        deg = tf.math.bincount(receivers, minlength=n, dtype=tf.float32)
        wdeg = tf.math.bincount(receivers, weights=att, minlength=n)
        return [tf.math.unsorted_segment_sum(msg * att[:, None], receivers, n),
                tf.math.unsorted_segment_mean(msg, receivers, n),
                tf.math.unsorted_segment_min(msg, receivers, n),
                tf.math.unsorted_segment_prod(msg * 0.5 + 1, receivers, n),
                tf.math.unsorted_segment_sqrt_n(msg, receivers, n), deg, wdeg,
                tf.math.bincount(tf.stack([senders, receivers]), axis=-1, minlength=6,
                                 binary_output=True)]
    senders = np.array([0, 1, 2, 3, 4, 0, 2, 5, 1, 3], np.int32)
    receivers = np.array([1, 2, 0, 4, 3, 3, 1, 0, 1, 2], np.int32)
    return tf_function(fn, [("nodes", (None, 8), tf.float32, _rand((6, 8), seed=24)),
                            ("senders", (None,), tf.int32, senders),
                            ("receivers", (None,), tf.int32, receivers)])


def _linalg_lambda():
    """Linear algebra in Keras Lambda layers: einsum (bilinear, batched outer, trace, diagonal),
    band_part masks, matrix_inverse, solve, triangular_solve, log-determinant, QR, lstsq,
    searchsorted of a learned boundary vector, cumulative logsumexp."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers
        x = inp = k.Input((6, 6))

        def f(t):
            spd = tf.matmul(t, t, transpose_b=True) + 3 * tf.eye(6)
            lower = tf.linalg.band_part(spd, -1, 0)
            rhs = t[:, :, :2]
            sign, logdet = tf.linalg.slogdet(spd)
            q, r = tf.linalg.qr(t)
            bounds = tf.constant(np.linspace(-1, 1, 7, dtype=np.float32))
            return [tf.einsum("bij,bjk->bik", t, spd), tf.einsum("bii->b", spd),
                    tf.einsum("bi,bj->bij", t[:, 0], t[:, 1]), tf.einsum("bij->bji", t),
                    tf.linalg.inv(spd), tf.linalg.solve(spd, rhs),
                    tf.linalg.triangular_solve(lower, rhs, lower=True),
                    tf.linalg.band_part(t, 0, 2), logdet, sign, tf.abs(r), tf.abs(q),
                    tf.linalg.lstsq(spd, rhs, fast=True),
                    tf.searchsorted(tf.broadcast_to(bounds, [tf.shape(t)[0], 7]), t[:, 0]),
                    tf.math.cumulative_logsumexp(t, 2), tf.linalg.det(spd)]
        return k.Model(inp, L.Lambda(f)(x))
    return keras_model(make, [("x", (2, 6, 6), "float32", _rand((2, 6, 6), seed=25))])


# ---------------------------------------------------------------------------------------------
# Keras 3 layers the other families leave out.

def _keras3_misc():
    """Keras 3 layers at inference: SpectralNormalization (power iteration skipped), RandomFlip /
    RandomRotation / RandomZoom / RandomContrast / RandomTranslation (identity outside training),
    Discretization on floats, TimeDistributed Dense and Conv2D, Conv1DTranspose with strides,
    UnitNormalization, AveragePooling3D, GlobalMaxPooling3D, Cropping and ZeroPadding 1-D/3-D,
    RepeatVector, Permute, Identity, ActivityRegularization."""
    def make():
        k = _tf().keras
        L = k.layers
        img = k.Input((12, 12, 3))
        a = L.RandomFlip()(img)
        a = L.RandomRotation(0.2)(a)
        a = L.RandomZoom(0.2)(a)
        a = L.RandomContrast(0.3)(a)
        a = L.RandomTranslation(0.1, 0.1)(a)
        a = L.SpectralNormalization(L.Conv2D(4, 3))(a)
        a = L.GlobalAveragePooling2D()(L.UnitNormalization()(a))
        seq = k.Input((5, 12, 12, 3))
        t = L.TimeDistributed(L.Conv2D(4, 3, strides=2))(seq)
        t = L.TimeDistributed(L.Flatten())(t)
        t = L.TimeDistributed(L.Dense(6))(t)
        t = L.Conv1DTranspose(4, 3, strides=2)(t)
        t = L.Cropping1D((1, 2))(L.ZeroPadding1D(2)(t))
        vol = L.Reshape((5, 12, 12, 3))(seq)
        v = L.ZeroPadding3D(1)(L.Cropping3D(((1, 0), (2, 2), (1, 1)))(vol))
        v = L.AveragePooling3D(2, padding="same")(v)
        gm = L.GlobalMaxPooling3D()(v)
        disc = L.Discretization(bin_boundaries=[-0.5, 0.0, 0.5])(L.Flatten()(t))
        r = L.Permute((2, 1))(L.RepeatVector(3)(L.ActivityRegularization(0.1)(L.Identity()(a))))
        return k.Model([img, seq], [a, t, gm, disc, r])
    return keras_model(make, [("img", (2, 12, 12, 3), "float32", _rand((2, 12, 12, 3))),
                              ("seq", (2, 5, 12, 12, 3), "float32",
                               _rand((2, 5, 12, 12, 3), seed=3))])


def _convlstm_more(lower):
    """ConvLSTM1D (same padding) and ConvLSTM3D (valid) over short sequences."""
    def make():
        k = _tf().keras
        L = k.layers
        a = k.Input((4, 10, 3))
        b = k.Input((3, 5, 5, 5, 2))
        x = L.ConvLSTM1D(4, 3, padding="same", return_sequences=True)(a)
        x = L.ConvLSTM1D(4, 3, go_backwards=True)(x)
        y = L.ConvLSTM3D(3, 2)(b)
        return k.Model([a, b], [x, y])
    return keras_model(make, [("a", (2, 4, 10, 3), "float32", _rand((2, 4, 10, 3))),
                              ("b", (2, 3, 5, 5, 5, 2), "float32",
                               _rand((2, 3, 5, 5, 5, 2), seed=3))], lower_control_flow=lower)


# ---------------------------------------------------------------------------------------------
# Reduced precision.

def _float16_graph():
    """A graph that computes in half: Cast to float16 around Conv2D, BiasAdd, FusedBatchNormV3
    (half x, float statistics), Relu, MatMul, Softmax, LayerNorm-style moments, Cast back to
    float32 (as mixed-precision models and TF-TRT-style exports do)."""
    tf = _tf()
    w = tf.cast(_const((3, 3, 3, 8), 26), tf.float16)
    b = tf.cast(_const((8,), 27), tf.float16)
    d = tf.cast(_const((8, 5), 28), tf.float16)

    def fn(x):
        h = tf.cast(x, tf.float16)
        y = tf.nn.bias_add(tf.nn.conv2d(h, w, 1, "SAME"), b)
        y, _, _ = tf.compat.v1.nn.fused_batch_norm(
            y, tf.ones([8]), tf.zeros([8]), tf.fill([8], 0.1), tf.fill([8], 2.0), is_training=False)
        y = tf.nn.relu(y)
        m, v = tf.nn.moments(y, [3], keepdims=True)
        y = (y - m) * tf.math.rsqrt(v + tf.constant(1e-3, tf.float16))
        p = tf.reduce_mean(y, [1, 2])
        logits = tf.matmul(p, d)
        return [tf.cast(tf.nn.softmax(logits), tf.float32), tf.cast(y, tf.float32),
                tf.nn.softmax(tf.cast(logits, tf.float32))]
    return tf_function(fn, _image_input(8, 2))


def _mixed_float16():
    """A Keras CNN under the mixed_float16 policy (layers compute in half, variables and the final
    softmax in float32): Conv2D, BatchNormalization, ReLU, SeparableConv2D, MaxPooling2D,
    GlobalAveragePooling2D (a half Mean), Dense, LayerNormalization."""
    def make():
        k = _tf().keras
        L = k.layers
        k.mixed_precision.set_global_policy("mixed_float16")
        try:
            x = inp = k.Input((16, 16, 3))
            x = L.ReLU()(L.BatchNormalization()(L.Conv2D(16, 3, padding="same")(x)))
            x = L.MaxPooling2D()(L.SeparableConv2D(24, 3, padding="same", activation="relu")(x))
            x = L.GlobalAveragePooling2D()(x)
            x = L.LayerNormalization()(L.Dense(32, activation="relu")(x))
            out = L.Activation("softmax", dtype="float32")(L.Dense(10)(x))
            return k.Model(inp, out)
        finally:
            k.mixed_precision.set_global_policy("float32")
    return keras_model(make, _image_input(16, 2))


def _mixed_float16_transformer():
    """A Transformer encoder block under the mixed_float16 policy: Embedding, MultiHeadAttention
    (half Einsum, softmax), LayerNormalization, a Dense feed-forward with gelu, and a float32
    softmax head, as Keras mixed-precision text models are exported."""
    def make():
        k = _tf().keras
        L = k.layers
        k.mixed_precision.set_global_policy("mixed_float16")
        try:
            ids = k.Input((12,), dtype="int32")
            x = L.Embedding(50, 32)(ids)
            a = L.MultiHeadAttention(num_heads=4, key_dim=8)(x, x)
            x = L.LayerNormalization()(x + a)
            f = L.Dense(32)(L.Dense(64, activation="gelu")(x))
            x = L.LayerNormalization()(x + f)
            x = L.GlobalAveragePooling1D()(x)
            out = L.Activation("softmax", dtype="float32")(L.Dense(5)(x))
            return k.Model(ids, out)
        finally:
            k.mixed_precision.set_global_policy("float32")
    return keras_model(make, [("ids", (2, 12), "int32", _ids((2, 12), 50))])


def _mixed_float16_mlp():
    """A Keras MLP under the mixed_float16 policy with the activations and normalizations tabular
    models use in half: Dense with sigmoid, tanh, elu, selu, softplus, swish, BatchNormalization,
    Dropout at inference, a float32 sigmoid head."""
    def make():
        k = _tf().keras
        L = k.layers
        k.mixed_precision.set_global_policy("mixed_float16")
        try:
            x = inp = k.Input((20,))
            for act in ("sigmoid", "tanh", "elu", "selu", "softplus", "swish"):
                x = L.Dense(24, activation=act)(x)
            x = L.Dropout(0.3)(L.BatchNormalization()(x))
            out = L.Activation("sigmoid", dtype="float32")(L.Dense(3)(x))
            return k.Model(inp, out)
        finally:
            k.mixed_precision.set_global_policy("float32")
    return keras_model(make, [("x", (4, 20), "float32", _rand((4, 20), seed=41))])


def _int8_graph():
    """Weight-only int8 quantization as exported: int8 weight tables gathered and cast to float
    with a per-channel scale, int8 arithmetic on ids (Mul, Add, clip), a uint8 image input cast
    and normalized, int8 and uint8 results cast back."""
    tf = _tf()
    rng = np.random.RandomState(29)
    table = tf.constant(rng.randint(-128, 128, (20, 6)).astype(np.int8))
    scale = tf.constant(rng.uniform(0.01, 0.05, (6,)).astype(np.float32))
    wq = tf.constant(rng.randint(-128, 128, (12, 4)).astype(np.int8))

    def fn(ids, img):
        e = tf.cast(tf.gather(table, ids), tf.float32) * scale
        i8 = tf.cast(ids, tf.int8)
        mixed = tf.clip_by_value(i8 * tf.constant(3, tf.int8) + tf.constant(-5, tf.int8),
                                 tf.constant(-20, tf.int8), tf.constant(20, tf.int8))
        x = tf.cast(img, tf.float32) / 255.0
        flat = tf.reshape(x, [tf.shape(x)[0], -1])
        y = tf.matmul(flat, tf.cast(wq, tf.float32) * 0.02)
        q = tf.cast(tf.clip_by_value(tf.round(y * 64.0), -128.0, 127.0), tf.int8)
        u8 = tf.cast(tf.clip_by_value(img // 2 + tf.constant(10, tf.uint8), 0, 200), tf.uint8)
        return [tf.reduce_sum(e, 1), mixed, q, tf.reduce_max(q, 1), u8,
                tf.cast(q, tf.float32) / 64.0]
    rng2 = np.random.RandomState(30)
    return tf_function(fn, [("ids", (None, 3), tf.int32, _ids((2, 3), 20, seed=31)),
                            ("img", (None, 2, 2, 3), tf.uint8,
                             rng2.randint(0, 256, (2, 2, 2, 3)).astype(np.uint8))])


def _tf1_quantized_weights():
    """A TF1 graph as the quantize_weights transform leaves it: quint8 weight Consts with their
    float range, dequantized (MIN_FIRST for the convolution, MIN_COMBINED for the dense layer)
    before use; a per-channel SCALED qint8 table; and a QuantizeV2 / Dequantize round trip on
    the activations whose quint8 output is fetched too."""
    tf = _tf()
    rng = np.random.RandomState(37)

    def quantized_const(values, lo, hi):
        q = np.round((values - lo) / (hi - lo) * 255.0).astype(np.uint8)
        return tf.constant(q.astype(tf.quint8.as_numpy_dtype))

    def body(x):
        w = rng.uniform(-0.5, 0.5, (3, 3, 3, 8)).astype(np.float32)
        wf = tf.raw_ops.Dequantize(input=quantized_const(w, w.min(), w.max()),
                                   min_range=float(w.min()), max_range=float(w.max()),
                                   mode="MIN_FIRST")
        y = tf.nn.relu(tf.nn.conv2d(x, wf, 1, "SAME"))
        q, q_min, q_max = tf.raw_ops.QuantizeV2(input=y, min_range=0.0, max_range=6.0,
                                                T=tf.quint8)
        y = tf.raw_ops.Dequantize(input=q, min_range=q_min, max_range=q_max)
        flat = tf.reshape(tf.reduce_mean(y, [1, 2]), [-1, 8])
        d = rng.uniform(-1.0, 1.0, (8, 4)).astype(np.float32)
        df = tf.raw_ops.Dequantize(input=quantized_const(d, -1.0, 1.0), min_range=-1.0,
                                   max_range=1.0)
        t = rng.randint(-127, 128, (4, 3)).astype(np.int8)
        tf_ = tf.raw_ops.Dequantize(input=tf.constant(t.astype(tf.qint8.as_numpy_dtype)),
                                    min_range=[-1.0, -2.0, -0.5], max_range=[1.0, 2.0, 0.5],
                                    mode="SCALED", axis=1)
        return [tf.matmul(tf.matmul(flat, df), tf_), q]
    return tf1_graph(body, [("x", (None, 8, 8, 3), tf.float32,
                             np.random.RandomState(38).uniform(-1, 1, (2, 8, 8, 3))
                             .astype(np.float32))])


def _ragged_text():
    """Character- and word-level text features as serving graphs compute them from raw strings:
    unicode_decode / unicode_split (UnicodeDecode), character n-gram counts and hashed word
    counts / tf-idf through bincount on ragged ids (RaggedBincount, what TextVectorization's
    count and tf_idf modes freeze to), position ids from tf.ragged.range (RaggedRange), a gather
    of ragged rows (RaggedGather), to_sparse (RaggedTensorToSparse), unicode_encode of the
    truncated characters (UnicodeEncode), the eigenvalues / eigenvectors of a feature Gram matrix
    (SelfAdjointEigV2), tf.dynamic_partition (DynamicPartition) and multiply_no_nan (MulNoNan)."""
    tf = _tf()
    emb = _const((64, 6), 51, 1.0)
    idf = _const((32,), 52, 1.0)

    def fn(text):
        chars = tf.strings.unicode_decode(text, "UTF-8")
        char_ids = chars % 64
        char_counts = tf.math.bincount(char_ids, minlength=64, maxlength=64, axis=-1,
                                       dtype=tf.float32)
        char_multi_hot = tf.math.bincount(char_ids, minlength=64, maxlength=64, axis=-1,
                                          binary_output=True, dtype=tf.float32)
        words = tf.strings.split(text)
        word_ids = tf.strings.to_hash_bucket_fast(words, 32)
        tfidf = tf.math.bincount(word_ids, minlength=32, maxlength=32, axis=-1,
                                 dtype=tf.float32) * idf
        positions = tf.ragged.range(chars.row_lengths())
        lengths = tf.maximum(tf.cast(chars.row_lengths(), tf.float32), 1.0)[:, None]
        pooled = tf.reduce_sum(tf.gather(emb, char_ids) + tf.cast(
            positions, tf.float32)[:, :, None] * 0.01, axis=1) / lengths
        reversed_rows = tf.gather(chars, tf.range(tf.shape(text)[0] - 1, -1, -1))
        sparse = char_ids.to_sparse()
        feats = tf.concat([pooled, tfidf[:, :6]], 1)
        # Distinct eigenvalues (the added diagonal), so |v| is unique.
        gram = tf.matmul(feats, feats, transpose_a=True) + tf.linalg.diag(tf.range(12.0) * 3.0)
        e, v = tf.linalg.eigh(gram)
        # Long and short texts apart (DynamicPartition), a masked product (MulNoNan).
        short, long_ = tf.dynamic_partition(pooled, tf.cast(lengths[:, 0] > 9.0, tf.int32), 2)
        masked = tf.math.multiply_no_nan(tfidf, tf.cast(tfidf > 0.5, tf.float32))
        return [char_counts, char_multi_hot, tfidf, pooled, short, long_, masked,
                reversed_rows.to_tensor(-1),
                sparse.indices, sparse.values, sparse.dense_shape,
                tf.strings.unicode_encode(chars[:, :4], "UTF-8"),
                tf.strings.unicode_split(text, "UTF-8").to_tensor(""), e, tf.abs(v)]
    text = np.array([u"héllo wörld".encode("utf-8"), u"日本語 の テキスト".encode("utf-8"),
                     b"plain ascii words here", u"emoji 😀 ok".encode("utf-8"), b""])
    return tf_function(fn, [("text", (None,), tf.string, text)])


# ---------------------------------------------------------------------------------------------
# Serving input parsing: what a SavedModel's serving signature does before the model.

def _serving_examples():
    """Serialized tf.train.Example records as a serving client sends them: some features
    missing, a variable-length list, strings."""
    tf = _tf()

    def ex(age=None, occ=None, city=(), cat=None, hist=()):
        f = {}
        if age is not None:
            f["age"] = tf.train.Feature(float_list=tf.train.FloatList(value=[age]))
        if occ is not None:
            f["occupation"] = tf.train.Feature(bytes_list=tf.train.BytesList(value=[occ]))
        f["city"] = tf.train.Feature(bytes_list=tf.train.BytesList(value=list(city)))
        if cat is not None:
            f["cat_id"] = tf.train.Feature(int64_list=tf.train.Int64List(value=[cat]))
        f["history"] = tf.train.Feature(float_list=tf.train.FloatList(value=list(hist)))
        return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString(
        deterministic=True)
    records = [ex(17.0, b"engineer", [b"paris", b"lima"], 3, [0.5, 1.5]),
               ex(33.5, b"doctor", [b"tokyo"], None, []),
               ex(None, None, [], 12, [2.0, -1.0, 0.25, 4.0]),
               ex(70.0, b"artist", [b"berlin", b"oslo", b"paris"], 0, [1.0]),
               ex(49.9, b"engineer", [b"oslo"], 9, [3.0, 3.0, 3.0])]
    # The sweep caches inputs as numpy bytes ("S"), which drop trailing zero bytes: none ends so.
    assert not any(r.endswith(b"\0") for r in records)
    return np.array(records, dtype="S")


def _tf1_example_serving():
    """An Estimator's serving graph: serialized tf.Example strings parsed by
    tf.io.parse_example (ParseExampleV2: FixedLenFeature with and without defaults,
    VarLenFeature to a SparseTensor, FixedLenSequenceFeature padded) into the wide & deep feature
    columns of _tf1_wide_deep, plus a sequence feature's mean."""
    tf = _tf()
    tf1 = tf.compat.v1

    def body(serialized):
        spec = {
            "age": tf.io.FixedLenFeature([1], tf.float32, default_value=[40.0]),
            "occupation": tf.io.FixedLenFeature([1], tf.string, default_value=[""]),
            "city": tf.io.VarLenFeature(tf.string),
            "cat_id": tf.io.FixedLenFeature([1], tf.int64, default_value=[-1]),
            "history": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True,
                                                     default_value=0.0),
        }
        feats = tf1.io.parse_example(serialized, spec)
        fc = tf1.feature_column
        agec = fc.numeric_column("age")
        ageb = fc.bucketized_column(agec, [18.0, 25.0, 35.0, 50.0, 65.0])
        occh = fc.categorical_column_with_hash_bucket("occupation", 50)
        cityv = fc.categorical_column_with_vocabulary_list(
            "city", ["paris", "tokyo", "lima", "oslo"], num_oov_buckets=2)
        cati = fc.categorical_column_with_identity("cat_id", 16, default_value=0)
        columns = {k: feats[k] for k in ["age", "occupation", "city", "cat_id"]}
        wide = fc.linear_model(columns, [ageb, occh, cityv, cati])
        deep = fc.input_layer(columns, [agec, fc.embedding_column(occh, 4, combiner="mean"),
                                        fc.embedding_column(cityv, 3, combiner="sqrtn"),
                                        fc.indicator_column(cati)])
        hist = feats["history"]
        hist_mean = tf.reduce_sum(hist, 1, keepdims=True) / tf.maximum(
            tf.reduce_sum(tf.cast(tf.not_equal(hist, 0.0), tf.float32), 1, keepdims=True), 1.0)
        x = tf.concat([deep, hist_mean], 1)
        w1 = tf1.get_variable("w1", [x.shape[1], 8],
                              initializer=tf1.glorot_uniform_initializer(seed=3))
        logit = tf.reduce_sum(tf.nn.relu(tf.matmul(x, w1)), 1, keepdims=True) + wide
        return [tf.sigmoid(logit), hist, feats["city"].indices, feats["city"].values]
    return tf1_graph(body, [("examples", (None,), tf.string, _serving_examples())])


def _serving_csv_tensor():
    """Serving inputs of two other kinds: CSV lines (tf.io.decode_csv, DecodeCSV with defaults,
    quotes and an empty field) and a tensor sent serialized (tf.io.parse_tensor, ParseTensor),
    one tf.Example per request (tf.io.parse_single_example: ParseExampleV2 of a scalar)."""
    tf = _tf()

    def fn(lines, blob, one):
        a, b, c, d = tf.io.decode_csv(lines, [[0.0], [0], [""], [1.5]])
        t = tf.reshape(tf.io.parse_tensor(blob, tf.float32), [-1, 3])
        single = tf.io.parse_single_example(one, {
            "history": tf.io.VarLenFeature(tf.float32),
            "age": tf.io.FixedLenFeature([], tf.float32, default_value=0.0)})
        h = tf.sparse.to_dense(single["history"])
        return [a * tf.cast(b, tf.float32) + d, tf.strings.length(c),
                tf.matmul(t, t, transpose_b=True), h * single["age"]]
    lines = np.array([b"1.5,2,abc,", b"-2,7,\"x,y\",0.25", b",3,,4"])
    blob = tf.io.serialize_tensor(tf.constant(np.arange(6, dtype=np.float32) / 4)).numpy()
    assert not blob.endswith(b"\0")
    one = _serving_examples()[4]
    return tf_function(fn, [("lines", (None,), tf.string, lines),
                            ("blob", (), tf.string, np.array(blob)),
                            ("one", (), tf.string, np.array(one))])


def add(m):
    """Registers these families in the sweep's model table (name -> (what it is, builder))."""
    m["tf1_wide_deep"] = ("TF1 feature columns, wide & deep", _tf1_wide_deep())
    m["tf1_linear_model"] = ("TF1 feature columns, linear model", _tf1_wide_deep(True))
    m["sparse_features"] = ("sparse reshape, segments, slice, add, softmax", _sparse_features())
    m["tf1_detection_loop"] = ("TF1 while + TensorArray + NMS V2", _tf1_detection())
    m["detection_loop_lowered"] = ("map_fn + while + NMS V3, lowered", _detection_loop(True))
    m["detection_loop_while"] = ("map_fn + while + NMS V3, functional", _detection_loop(False))
    m["tensor_array_loop_lowered"] = ("TensorArray gather / scatter / concat / split in a "
                                      "while, lowered", _tensor_array_loop(True))
    m["tensor_array_loop_while"] = ("TensorArray gather / scatter / concat / split in a while, "
                                    "functional", _tensor_array_loop(False))
    m["style_transfer"] = ("MirrorPad, instance norm, Conv2DTranspose", _style_transfer())
    m["style_transfer_dynamic"] = ("style transfer, batch None", _style_transfer(True))
    m["DCGAN_dynamic"] = ("Conv2DTranspose + BN + LeakyReLU, batch None", _dcgan())
    m["conv3d_autoencoder"] = ("Conv3DTranspose, pooling 3-D", _conv3d_autoencoder())
    m["ESPCN_superres"] = ("depth_to_space, LRN, roll, patches", _superres())
    m["FNet_like"] = ("FFT2D / RFFT2D mixing, GroupNorm", _fnet())
    m["TextCNN_dynamic"] = ("Embedding + Conv1D + MaxPool1D, batch None", _textcnn())
    m["audio_raw_ops"] = ("AudioSpectrogram + Mfcc", _audio_raw())
    m["signal_resynth"] = ("stft, inverse_stft, frame, overlap_and_add", _signal_resynth())
    m["ASR_CTC_while"] = ("BiGRU + ctc_greedy_decoder, time None", _asr_ctc())
    m["GNN_segments"] = ("unsorted_segment_*, bincount", _gnn())
    m["linalg_lambda"] = ("einsum, inverse, solve, qr, lstsq", _linalg_lambda())
    m["keras3_misc"] = ("SpectralNorm, Random*, TimeDistributed, 3-D", _keras3_misc())
    m["convlstm_1d_3d_lowered"] = ("ConvLSTM1D/3D, lowered", _convlstm_more(True))
    m["convlstm_1d_3d_while"] = ("ConvLSTM1D/3D, while", _convlstm_more(False))
    m["float16_graph"] = ("Cast around half math", _float16_graph())
    m["mixed_float16_cnn"] = ("Keras mixed_float16 policy", _mixed_float16())
    m["mixed_float16_transformer"] = ("mixed_float16 MHA + LayerNorm + gelu",
                                      _mixed_float16_transformer())
    m["mixed_float16_mlp"] = ("mixed_float16 Dense activations + BN", _mixed_float16_mlp())
    m["int8_graph"] = ("int8 weights and arithmetic, uint8 input", _int8_graph())
    m["tf1_quantized_weights"] = ("quint8 / qint8 weight Consts + Dequantize, QuantizeV2",
                                  _tf1_quantized_weights())
    m["ragged_text"] = ("unicode_decode, ragged bincount / range / gather, eigh, partition",
                        _ragged_text())
    m["tf1_example_serving"] = ("ParseExampleV2 into feature columns, as an Estimator serves",
                                _tf1_example_serving())
    m["serving_csv_tensor"] = ("DecodeCSV, ParseTensor, a scalar tf.Example",
                               _serving_csv_tensor())
