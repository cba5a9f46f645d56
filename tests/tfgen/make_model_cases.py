"""Records whole models for tests/models: built with TensorFlow (random seeded weights, nothing
downloaded), frozen to GraphDefs (variables folded into Const nodes), run in TensorFlow on seeded
inputs. For each model it writes

    tests/models/data/<name>.pb          the frozen GraphDef (binary), exactly the graph run;
    tests/models/data/<name>.case.pbtxt  a rill.ConformanceCase without `graph`: feeds, fetches,
                                         TensorFlow's outputs and the tolerances;

and tests/models/data/README.md (models, op counts, sizes). The expected outputs come from
re-importing the frozen GraphDef into a fresh graph and running that, so they belong to the
committed graph. Deterministic. Regenerate with

    pip install tensorflow-cpu numpy   # only to regenerate
    python3 tests/tfgen/make_model_cases.py

ResNet50 itself is ~98 MB of weights, too large to commit: resnet_small has its structure in
miniature (residual blocks of Conv2D + BatchNormalization + Add + ReLU).
"""
import collections
import os
import sys

os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import config_pb2, rewriter_config_pb2
from tensorflow.python.framework import convert_to_constants

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(REPO_ROOT, "tests", "models", "data")
CONFIG = config_pb2.ConfigProto(
    intra_op_parallelism_threads=1, inter_op_parallelism_threads=1,
    graph_options=config_pb2.GraphOptions(rewrite_options=rewriter_config_pb2.RewriterConfig(
        disable_meta_optimizer=True)))
tf1 = tf.compat.v1


def _indent(text, n):
    return "".join(" " * n + line + "\n" if line else "\n" for line in text.splitlines())


def freeze_keras(model, input_specs):
    fn = tf.function(lambda *xs: model(list(xs) if len(xs) > 1 else xs[0], training=False))
    concrete = fn.get_concrete_function(*input_specs)
    frozen = convert_to_constants.convert_variables_to_constants_v2(concrete)
    return frozen.graph.as_graph_def()


def run_frozen(graph_def, feeds):
    """Runs the frozen graph re-imported into a fresh tf.Graph: {placeholder: value} -> outputs."""
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
    # Placeholders something reads (frozen While loops leave unused_control_flow_input ones).
    read = {inp.split(":")[0].lstrip("^") for m in graph_def.node for inp in m.input}
    placeholders = [n.name for n in graph_def.node if n.op == "Placeholder" and n.name in read]
    fetch = [n.name for n in graph_def.node if n.op == "Identity" and not any(
        inp.split(":")[0].lstrip("^") == n.name for m in graph_def.node for inp in m.input)]
    with tf1.Session(graph=g, config=CONFIG) as sess:
        outs = sess.run([f + ":0" for f in fetch], {p + ":0": feeds[i] for i, p in
                                                    enumerate(placeholders)})
    return placeholders, fetch, outs


def write(name, graph_def, inputs, rtol, atol, description, summary):
    placeholders, fetch, outs = run_frozen(graph_def, inputs)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + ".pb"), "wb") as f:
        f.write(graph_def.SerializeToString(deterministic=True))
    lines = ['name: "%s"' % name, 'op: "model"']
    for p, v in zip(placeholders, inputs):
        lines.append('feed {\n  name: "%s:0"\n  value {\n%s  }\n}' % (
            p, _indent(str(tf.make_tensor_proto(v)), 4)))
    for fname in fetch:
        lines.append('fetch: "%s:0"' % fname)
    for o in outs:
        lines.append("expected {\n%s}" % _indent(str(tf.make_tensor_proto(o)), 2))
    lines += ["rtol: %r" % rtol, "atol: %r" % atol]
    with open(os.path.join(OUT, name + ".case.pbtxt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    ops = collections.Counter(n.op for n in graph_def.node)
    size = os.path.getsize(os.path.join(OUT, name + ".pb"))
    summary.append((name, description, placeholders, fetch, [o.shape for o in outs], ops, size,
                    rtol, atol))
    print("%s: %d nodes, %.1f KB, ops %s" % (name, len(graph_def.node), size / 1024.0,
                                             dict(sorted(ops.items()))))


def mlp_tf1():
    g = tf1.Graph()
    with g.as_default():
        tf1.set_random_seed(1)
        x = tf1.placeholder(tf.float32, [None, 784], name="x")
        h = x
        sizes = [784, 512, 512, 10]
        for i in range(3):
            w = tf1.Variable(tf1.truncated_normal([sizes[i], sizes[i + 1]], stddev=0.05),
                             name="w%d" % i)
            b = tf1.Variable(tf1.truncated_normal([sizes[i + 1]], stddev=0.05), name="b%d" % i)
            h = tf.nn.bias_add(tf.matmul(h, w), b)
            h = tf.nn.relu(h) if i < 2 else tf.nn.softmax(h, name="probs")
        tf.identity(h, name="output")
        with tf1.Session(graph=g, config=CONFIG) as sess:
            sess.run(tf1.global_variables_initializer())
            frozen = tf1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), ["output"])
    return frozen


def keras_models():
    k = tf.keras
    out = {}
    tf.keras.utils.set_random_seed(2)
    out["small_cnn"] = (k.Sequential([
        k.Input((28, 28, 1)), k.layers.Conv2D(32, 3, activation="relu"), k.layers.MaxPooling2D(),
        k.layers.Conv2D(64, 3, activation="relu"), k.layers.MaxPooling2D(), k.layers.Flatten(),
        k.layers.Dense(128, activation="relu"), k.layers.Dense(10, activation="softmax")]),
        [(2, 28, 28, 1)], "Keras CNN: Conv2D(32,3,relu), MaxPool, Conv2D(64,3,relu), MaxPool, "
        "Flatten, Dense(128,relu), Dense(10,softmax)")
    tf.keras.utils.set_random_seed(3)
    out["mobilenet_v2"] = (tf.keras.applications.MobileNetV2(
        weights=None, alpha=0.35, input_shape=(96, 96, 3), classes=100),
        [(2, 96, 96, 3)], "tf.keras.applications.MobileNetV2(alpha=0.35, 96x96x3, 100 classes), "
        "random weights, inference")
    tf.keras.utils.set_random_seed(4)
    inp = k.Input((32, 32, 3))
    h = k.layers.Conv2D(16, 3, padding="same", use_bias=False)(inp)
    h = k.layers.ReLU()(k.layers.BatchNormalization()(h))
    for filters, stride in ((16, 1), (32, 2), (32, 1)):
        shortcut = h
        y = k.layers.Conv2D(filters, 3, strides=stride, padding="same", use_bias=False)(h)
        y = k.layers.ReLU()(k.layers.BatchNormalization()(y))
        y = k.layers.Conv2D(filters, 3, padding="same", use_bias=False)(y)
        y = k.layers.BatchNormalization()(y)
        if stride != 1 or shortcut.shape[-1] != filters:
            shortcut = k.layers.Conv2D(filters, 1, strides=stride, use_bias=False)(shortcut)
            shortcut = k.layers.BatchNormalization()(shortcut)
        h = k.layers.ReLU()(k.layers.Add()([y, shortcut]))
    h = k.layers.GlobalAveragePooling2D()(h)
    out["resnet_small"] = (k.Model(inp, k.layers.Dense(10, activation="softmax")(h)),
                           [(2, 32, 32, 3)], "ResNet-style: stem conv + 3 residual blocks "
                           "(Conv2D, BatchNormalization, Add, ReLU; one strided with a 1x1 "
                           "projection), GlobalAveragePooling2D, Dense(10, softmax)")
    tf.keras.utils.set_random_seed(5)
    out["lstm_classifier"] = (k.Sequential([
        k.Input((12,), dtype="int32"), k.layers.Embedding(1000, 32),
        k.layers.LSTM(32, unroll=True), k.layers.Dense(5, activation="softmax")]),
        [(2, 12)], "Keras Embedding(1000,32), LSTM(32, unroll=True), Dense(5, softmax) on int32 "
        "token sequences of length 12 (unrolled: no While loop)")
    tf.keras.utils.set_random_seed(6)
    out["lstm_while"] = (k.Sequential([
        k.Input((12,), dtype="int32"), k.layers.Embedding(1000, 32),
        k.layers.LSTM(32), k.layers.Dense(5, activation="softmax")]),
        [(2, 12)], "Keras Embedding(1000,32), LSTM(32), Dense(5, softmax) on int32 token "
        "sequences of length 12, not unrolled: the frozen graph keeps the LSTM's While loop "
        "(lowered to Enter/Merge/Switch/Exit/NextIteration) over TensorLists")
    # BatchNormalization layers start at mean 0 / variance 1: give them non-trivial statistics so
    # the folded FusedBatchNorm does real work.
    rs = np.random.RandomState(9)
    for name in ("mobilenet_v2", "resnet_small"):
        for layer in out[name][0].layers:
            if isinstance(layer, k.layers.BatchNormalization):
                mm, mv = layer.moving_mean, layer.moving_variance
                mm.assign(rs.normal(0, 0.1, mm.shape).astype(np.float32))
                mv.assign(rs.uniform(0.5, 1.5, mv.shape).astype(np.float32))
    return out


def sweep_models():
    """Models of tests/tfgen/model_sweep.py whose failures issue 28 fixed, each well under 1 MB:
    (name, builder, rtol, atol, description). A builder returns (graph_def, {placeholder: value},
    extra)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import model_sweep
    import sweep_families
    import sweep_heldout
    import sweep_next_ops
    return [
        ("text_hashing", model_sweep._text_hashing(), 1e-5, 1e-6,
         "Text classifier on raw strings (model_sweep.py's text_hashing): StringLower, "
         "StaticRegexReplace, StringSplitV2, StringToHashBucketFast over the ragged words, "
         "RaggedTensorToTensor padding to 6 ids, masked embedding mean, Dense, Softmax"),
        ("control_case", model_sweep._control(True), 1e-5, 1e-6,
         "tf.cond and tf.switch_case on fed scalars and a greedy-decoding tf.while_loop with a "
         "TensorArray and an early stop, frozen with lower_control_flow=True (model_sweep.py's "
         "control_lowered): Switch/Merge, _SwitchN (the lowered Case), TF1 loop ops"),
        ("crnn_ctc_greedy", model_sweep._crnn_ctc(False), 1e-5, 1e-6,
         "CRNN text recognizer (model_sweep.py's CRNN_CTC_greedy): Conv2D + MaxPooling over a "
         "16x64 line image, columns to a sequence, Bidirectional LSTM (lowered loop), "
         "log_softmax, CTCGreedyDecoder (merge_repeated) to a dense int64 sequence"),
        ("crnn_ctc_beam", model_sweep._crnn_ctc(True), 1e-5, 1e-6,
         "CRNN text recognizer (model_sweep.py's CRNN_CTC_beam): crnn_ctc_greedy's network with "
         "CTCBeamSearchDecoder (beam_width 4, top_paths 1, merge_repeated) to a dense int64 "
         "sequence"),
        ("qat_fake_quant", model_sweep._fake_quant(), 1e-5, 1e-6,
         "Quantization-aware-trained CNN as frozen (model_sweep.py's fake_quant): "
         "FakeQuantWithMinMaxArgs on the input, FakeQuantWithMinMaxVarsPerChannel (narrow range) "
         "on the conv weights, FakeQuantWithMinMaxVars on the dense weights"),
        ("quantize_dequantize", model_sweep._qdq(), 1e-5, 1e-6,
         "QuantizeAndDequantizeV2 with a given range on the input and V4 (the tf.quantization "
         "wrapper) with the range from the data on the dense weights (model_sweep.py's "
         "quantize_dequantize)"),
        ("math_ops", model_sweep._math_ops(), 1e-5, 1e-6,
         "tf.math and array ops serving code uses outside layers (model_sweep.py's math_ops): "
         "cumsum/cumprod, segment reductions, bincount, searchsorted (LowerBound, UpperBound), "
         "einsum, sort/argsort, unique, where, inverse, determinant, Cholesky, cross, "
         "histogram_fixed_width (HistogramFixedWidth), top_k, clip_by_norm"),
        ("string_ops", model_sweep._string_ops(), 1e-5, 1e-6,
         "tf.strings in serving signatures (model_sweep.py's string_ops): lower/upper, "
         "regex_replace, split and reduce_join over the ragged words (UnsortedSegmentJoin), "
         "ngrams (StringNGrams), substr, length, hash buckets, as_string, to_number, join, "
         "regex_full_match"),
        ("sparse_features", sweep_families._sparse_features(), 1e-5, 1e-6,
         "Sparse id features (sweep_families.py's sparse_features): SparseReshape, "
         "SparseSegmentSum/Mean/SqrtNWithNumSegments, UniqueWithCounts, SparseToDense, "
         "SparseSlice, SparseAdd, SparseTensorDenseAdd, SparseSoftmax, SparseReduceMax"),
        ("detection_loop_tf1", sweep_families._tf1_detection(), 1e-5, 1e-6,
         "TF1 detection post-processing (sweep_families.py's tf1_detection_loop): map_fn over "
         "the batch and a while loop over classes in TF1 control flow, NonMaxSuppressionV2, "
         "TensorArrayWriteV3 / TensorArrayConcatV3, TopKV2, padding"),
        ("audio_raw_ops", sweep_families._audio_raw(), 1e-5, 1e-6,
         "Speech-commands front end (sweep_families.py's audio_raw_ops): AudioSpectrogram "
         "(squared and not), Mfcc, Conv2D, Mean, MatMul, Softmax"),
        ("linalg_lambda", sweep_families._linalg_lambda(), 1e-5, 1e-6,
         "Linear algebra in Keras Lambda layers (sweep_families.py's linalg_lambda): Einsum with "
         "traces and diagonals, MatrixInverse, MatrixSolve, MatrixTriangularSolve, "
         "LogMatrixDeterminant, Qr, Cholesky (lstsq), LowerBound, CumulativeLogsumexp"),
        ("float16_graph", sweep_families._float16_graph(), 1e-6, 1e-7,
         "A graph computing in float16 (sweep_families.py's float16_graph): Conv2D, BiasAdd, "
         "FusedBatchNormV3, moments, Mean, MatMul and Softmax in half (half outputs bit for bit)"),
        ("mixed_float16_cnn", sweep_families._mixed_float16(), 1e-6, 1e-7,
         "Keras CNN under the mixed_float16 policy (sweep_families.py's mixed_float16_cnn): "
         "Conv2D, DepthwiseConv2dNative, MaxPool, MatMul in half, batch and layer norm in float32"),
        ("mixed_float16_transformer", sweep_families._mixed_float16_transformer(), 1e-6, 1e-7,
         "Transformer block under the mixed_float16 policy (sweep_families.py's "
         "mixed_float16_transformer): Embedding, MultiHeadAttention's half Einsums, gelu"),
        ("mixed_float16_mlp", sweep_families._mixed_float16_mlp(), 1e-6, 1e-7,
         "Keras MLP under the mixed_float16 policy (sweep_families.py's mixed_float16_mlp): "
         "half Sigmoid, Tanh, Elu, Selu, Softplus, swish after half MatMuls"),
        ("detection_soft_nms", sweep_heldout._soft_nms(), 1e-5, 1e-6,
         "Detection post-processing (sweep_heldout.py's detection_soft_nms): NonMaxSuppressionV5 "
         "with soft_nms_sigma, padded NonMaxSuppressionV4, NonMaxSuppressionWithOverlaps over an "
         "IoU matrix, TopKV2, gathers with batch_dims"),
        ("tf1_block_rnn", sweep_heldout._tf1_block_rnn(), 1e-5, 1e-6,
         "TF1 model of tf.contrib.rnn's fused cells (sweep_heldout.py's tf1_block_rnn): BlockLSTM "
         "(peepholes, cell clipping, seq_len_max from the lengths), BlockLSTMV2, LSTMBlockCell and "
         "GRUBlockCell stepped in a TF1 while loop, outputs masked by the lengths"),
        ("tf1_optimize_for_inference", sweep_heldout._tf1_optimized_for_inference(), 1e-4, 1e-5,
         "TF1 CNN rewritten by optimize_for_inference (sweep_heldout.py's "
         "tf1_optimize_for_inference): FusedResizeAndPadConv2D (REFLECT, align_corners), "
         "FusedPadConv2D (SYMMETRIC), folded batch norms, Mean, Softmax"),
        ("tf1_switch_case_tta", sweep_next_ops._tf1_switch_case_tta(), 1e-5, 1e-6,
         "TF1 classifier with test-time augmentation chosen by tf.switch_case (sweep_next_ops.py's "
         "tf1_switch_case_tta): a Case whose branches rotate (ImageProjectiveTransformV2), shift "
         "(ImageProjectiveTransformV3, REFLECT), flip after an assert, or pass the image"),
        ("tf1_switch_case_heads", sweep_next_ops._tf1_switch_case_heads(), 1e-5, 1e-6,
         "TF1 multi-task heads chosen by tf.switch_case (sweep_next_ops.py's "
         "tf1_switch_case_heads): a StatelessCase with two outputs and a default branch, fed an "
         "index out of range, inside a TF1 cond"),
        ("tf1_sparse_weighted_features", sweep_next_ops._tf1_sparse_weighted_features(), 1e-5,
         1e-6, "TF1 recommender over weighted sparse ids (sweep_next_ops.py's "
         "tf1_sparse_weighted_features): SparseDenseCwiseMul / Div / Add on the weights, "
         "embedding_lookup_sparse, MLP"),
        ("tf1_feature_crosses", sweep_next_ops._tf1_feature_crosses(), 1e-5, 1e-6,
         "TF1 ranker over string feature crosses (sweep_next_ops.py's tf1_feature_crosses): "
         "SparseCrossV2 with a separator, tf.sparse.cross_hashed's SparseCross, SparseCrossHashed "
         "with strong_hash (salted SipHash), embedding_lookup_sparse"),
        ("tf1_bincount_features", sweep_next_ops._tf1_bincount_features(), 1e-5, 1e-6,
         "TF1 bag-of-ids model (sweep_next_ops.py's tf1_bincount_features): tf.sparse.bincount of "
         "a dense id matrix with weights (DenseCountSparseOutput), of a SparseTensor "
         "(SparseCountSparseOutput, binary) and of a RaggedTensor (RaggedCountSparseOutput), "
         "densified, MatMul, Softmax"),
    ]


def main():
    summary = []
    rs = np.random.RandomState(1234)
    write("mlp_tf1", mlp_tf1(), [rs.normal(size=(2, 784)).astype(np.float32)], 1e-5, 1e-6,
          "TF1 graph (tf.compat.v1 variables, frozen with graph_util): 784-512-512-10 MLP, Relu, "
          "Softmax", summary)
    tols = {"small_cnn": (1e-4, 1e-5), "mobilenet_v2": (1e-3, 1e-5), "resnet_small": (1e-4, 1e-5),
            "lstm_classifier": (1e-5, 1e-6), "lstm_while": (1e-5, 1e-6)}
    for name, (model, shapes, description) in keras_models().items():
        if name in ("lstm_classifier", "lstm_while"):
            inputs = [rs.randint(0, 1000, size=shapes[0]).astype(np.int32)]
            specs = [tf.TensorSpec(shapes[0], tf.int32)]
        else:
            inputs = [rs.uniform(-1, 1, size=s).astype(np.float32) for s in shapes]
            specs = [tf.TensorSpec(s, tf.float32) for s in shapes]
        write(name, freeze_keras(model, specs), inputs, tols[name][0], tols[name][1], description,
              summary)
    for name, build, rtol, atol, description in sweep_models():
        graph_def, feeds, _ = build()
        read = {i.split(":")[0].lstrip("^") for n in graph_def.node for i in n.input}
        placeholders = [n.name for n in graph_def.node if n.op == "Placeholder" and n.name in read]
        write(name, graph_def, [feeds[p] for p in placeholders], rtol, atol, description, summary)
    readme = ["# Whole-model test data", "",
              "Written by `tests/tfgen/make_model_cases.py` with TensorFlow %s (random seeded "
              "weights, nothing downloaded); replayed by `//tests/models:model_test`. Do not edit "
              "by hand: regenerate with `python3 tests/tfgen/make_model_cases.py`." % tf.__version__,
              "", "ResNet50 itself is ~98 MB of weights, too large to commit; `resnet_small` has "
              "its structure in miniature.", ""]
    for name, description, ph, fetch, shapes, ops, size, rtol, atol in summary:
        readme += ["## %s" % name, "", description, "",
                   "- inputs: %s; outputs: %s with shapes %s" % (
                       ", ".join(p + ":0" for p in ph), ", ".join(f + ":0" for f in fetch),
                       ", ".join(str(list(s)) for s in shapes)),
                   "- frozen GraphDef: %.1f KB, %d nodes; tolerance rtol %g, atol %g" % (
                       size / 1024.0, sum(ops.values()), rtol, atol),
                   "- ops: " + ", ".join("%s x%d" % kv for kv in sorted(ops.items())), ""]
    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write("\n".join(readme))


if __name__ == "__main__":
    sys.exit(main())
