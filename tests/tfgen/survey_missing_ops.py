"""Lists the ops TensorFlow registers a CPU kernel for that Rill does not register, grouped by how
likely a frozen inference graph is to hold them.

    bazel build //tools/summarize_graph
    bazel-bin/tools/summarize_graph/summarize_graph --list_ops > /tmp/rill_ops.txt
    python3 tests/tfgen/survey_missing_ops.py /tmp/rill_ops.txt [--markdown]

The first word of each line of the Rill list is an op name (summarize_graph's format). TensorFlow's
side is `kernels.get_all_registered_kernels()` of the installed TensorFlow (CPU kernels only).

Groups, most likely in a model first:
  model     ops that public model-building APIs put in inference graphs (MODEL_OPS below: the
            API that writes each, in the order we expect users to meet them);
  other     the remaining ops not matched by a pattern below (read them before trusting the
            ordering);
  legacy    reference-typed / V1 ops of graphs written before TensorFlow 1.4;
  training  gradients, optimizer updates, samplers, losses: in a frozen graph only when it was
            frozen from a training graph;
  pipeline  tf.data, queues, readers, summaries, collectives, debugging, sessions, files:
            infrastructure, not model computation.
"""
import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

# Ops whose API users put in inference code, ordered by how often we expect frozen models to
# hold them; each with the API that writes it.
MODEL_OPS = [
    ("BlockLSTM", "tf.contrib.rnn.LSTMBlockFusedCell (TF1 speech models: DeepSpeech 0.x)"),
    ("BlockLSTMV2", "LSTMBlockFusedCell in TF >= 1.15 graphs"),
    ("LSTMBlockCell", "tf.contrib.rnn.LSTMBlockCell in dynamic_rnn loops"),
    ("GRUBlockCell", "tf.contrib.rnn.GRUBlockCell in dynamic_rnn loops"),
    ("FusedResizeAndPadConv2D", "graph_transforms fuse_resize_pad_and_conv (mobile TF1 graphs)"),
    ("FusedPadConv2D", "graph_transforms fuse_pad_and_conv (mobile TF1 graphs)"),
    ("SparseDenseCwiseMul", "SparseTensor * dense tensor (weighted sparse features)"),
    ("SparseDenseCwiseAdd", "tf.sparse.add of a SparseTensor and a dense tensor, broadcast"),
    ("SparseDenseCwiseDiv", "SparseTensor / dense tensor"),
    ("SparseCrossV2", "tf.sparse.cross (string feature crosses)"),
    ("DenseCountSparseOutput", "tf.sparse.bincount of a dense tensor"),
    ("SparseCountSparseOutput", "tf.sparse.bincount of a SparseTensor"),
    ("RaggedCountSparseOutput", "tf.sparse.bincount of a RaggedTensor"),
    ("MutableDenseHashTableV2", "tf.lookup.experimental.DenseHashTable (recommender id maps)"),
    ("MutableHashTableOfTensorsV2", "tf.lookup.experimental.MutableHashTable of vectors"),
    ("Case", "tf.switch_case in a graph frozen without lowering Case"),
    ("StatelessCase", "tf.switch_case (stateless branches), not lowered"),
    ("ImageProjectiveTransformV2", "tfa.image.rotate / transform, Keras preprocessing <= TF 2.3"),
    ("ApproxTopK", "tf.math.approx_max_k / approx_min_k (retrieval heads)"),
    ("RaggedTensorToVariant", "tf.map_fn / vectorized_map over a RaggedTensor"),
    ("RaggedTensorFromVariant", "tf.map_fn over a RaggedTensor"),
    ("Conv", "tf.raw_ops.Conv: N-D convolution with batch dimensions (XLA-style lowering)"),
    ("InitializeTableFromTextFile", "TF1 index_table_from_file (ref tables)"),
    ("DecodeWebP", "tf.io.decode_webp / decode_image in serving input"),
    ("DecodePaddedRaw", "tf.io.decode_raw with fixed_length (serving input)"),
    ("DecodeCompressed", "tf.io.decode_compressed (ZLIB/GZIP serving input)"),
    ("DecodeJSONExample", "tf.io.decode_json_example (JSON serving input)"),
    ("DecodeProtoV2", "tf.io.decode_proto (serving input)"),
    ("EncodeProto", "tf.io.encode_proto"),
    ("EncodeJpegVariableQuality", "tf.image.adjust_jpeg_quality"),
    ("ExtractGlimpseV2", "tf.image.extract_glimpse (recurrent attention models)"),
    ("ExtractGlimpse", "tf.compat.v1.image.extract_glimpse"),
    ("ExtractVolumePatches", "tf.extract_volume_patches (3-D patch embeddings)"),
    ("FractionalMaxPool", "tf.nn.fractional_max_pool"),
    ("FractionalAvgPool", "tf.nn.fractional_avg_pool"),
    ("DenseToDenseSetOperation", "tf.sets.intersection / union / difference"),
    ("DenseToSparseSetOperation", "tf.sets with a sparse second operand"),
    ("SparseToSparseSetOperation", "tf.sets on two sparse operands"),
    ("SetSize", "tf.sets.size"),
    ("MatrixExponential", "tf.linalg.expm"),
    ("IsotonicRegression", "tf.nn.isotonic_regression (calibration heads)"),
    ("StatelessSampleDistortedBoundingBox", "tf.image.stateless_sample_distorted_bounding_box"),
    ("SampleDistortedBoundingBoxV2", "tf.image.sample_distorted_bounding_box"),
    ("NextAfter", "tf.math.nextafter"),
    ("SobolSample", "tf.math.sobol_sample"),
    ("RaggedCross", "tf.ragged.cross / cross_hashed (feature crosses)"),
    ("SparseConcat", "tf.sparse.concat"),
    ("SparseSplit", "tf.sparse.split"),
    ("SparseSparseMaximum", "tf.sparse.maximum"),
    ("SparseSparseMinimum", "tf.sparse.minimum"),
    ("ScatterNdNonAliasingAdd", "tf.compat.v1.scatter_nd_add on a tensor"),
    ("StatelessRandomGammaV2", "tf.random.stateless_gamma"),
    ("StatelessRandomGammaV3", "tf.random.stateless_gamma (TF >= 2.9)"),
    ("RandomGamma", "tf.random.gamma"),
    ("RandomPoissonV2", "tf.random.poisson"),
    ("AudioMicrofrontend", "tf.lite.experimental microfrontend (keyword spotting)"),
    ("Conv3DBackpropInput", "Conv3DTranspose in graphs written before TensorFlow 1.0 (V1)"),
    ("QuantizedAdd", "graph_transforms quantize_nodes (eight-bit residual adds)"),
    ("QuantizedMul", "graph_transforms quantize_nodes"),
    ("QuantizedResizeBilinear", "graph_transforms quantize_nodes (eight-bit resizes)"),
    ("QuantizedConv2DWithBiasAndReluAndRequantize",
     "Intel quantization tools' fused eight-bit convolutions (and their other variants)"),
    ("ParallelConcat", "tf.parallel_stack"),
    ("TensorStridedSliceUpdate", "tf.tensor_strided_slice_update (tensor[...] = value helpers)"),
    ("SelfAdjointEig", "tf.compat.v1.self_adjoint_eig in pre-1.0 graphs"),
    ("CTCLoss", "tf.nn.ctc_loss in evaluation graphs"),
    ("CTCLossV2", "tf.nn.ctc_loss (cuDNN form)"),
]

PIPELINE = re.compile(
    r"Dataset|Iterator|Summary|SummaryWriter|Collective|^Debug|Queue|Reader|Barrier|"
    r"Accumulator|^Stage|^Unstage|^MapStage|^MapUnstage|^MapPeek|^MapClear|^MapSize|"
    r"^MapIncompleteSize|^OrderedMap|Session|MatchingFiles|^Save|^Restore|Checkpoint|"
    r"^WriteFile|^ReadFile|Record|^Rpc|^Mutex|^ConsumeMutexLock|^Copy|^Send|^Recv|Deadline|"
    r"Pinned|^Dummy|^Anonymous|^Delete|^Print|^Assert|^Abort|Test|Fails|KernelLabel|"
    r"^DeviceIndex|DevicePlacement|^FileSystem|^Tpu|TPU|^Xla|Snapshot|^Distributed|"
    r"^GraphDefVersion|^ImportEvent|^Timestamp|^Unbatch|^Batch$|^BatchFunction|"
    r"^Compress|^Uncompress|^Optional|^Options|^GetOptions|^ModelDataset|^Profiler|"
    r"Calibration|CustomAggregator|Fingerprint|^IsTensorFloat32|^IsResourceHandle|"
    r"Weak|^EagerPyFunc|^PyFunc|^HostConst|^ImmutableConst|^_")
TRAINING = re.compile(
    r"Grad|^Apply|^ResourceApply|^SparseApply|^ResourceSparseApply|Sampler|^ComputeAccidental|"
    r"Loss|^Sdca|^KMC2|^Kmeans|^LoadAndRemap|^GenerateVocabRemapping|Embedding|^Boosted|"
    r"^ScatterNd(Update|Add|Sub|Max|Min)$|^Scatter(Add|Sub|Mul|Div|Min|Max|Update)$|"
    r"^ResourceScatter|^ResourceGather|^CountUpTo|Variable|^Assign|^TemporaryVariable|"
    r"^DestroyTemporaryVariable|^IsVariableInitialized|^SparseAccumulator|^Conditional")
LEGACY = re.compile(r"^(HashTable|MutableHashTable|MutableDenseHashTable|"
                    r"MutableHashTableOfTensors|InitializeTable|LookupTable[A-Za-z]*)$|"
                    r"^Batch[A-Z]|V1$")


def rill_ops(path):
    ops = set()
    with open(path) as f:
        for line in f:
            words = line.split()
            if words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", words[0]):
                ops.add(words[0])
    return ops


def tf_cpu_ops():
    from tensorflow.python.framework import kernels
    return {k.op for k in kernels.get_all_registered_kernels().kernel if k.device_type == "CPU"}


def group(missing):
    model_names = [n for n, _ in MODEL_OPS]
    out = {"model": [n for n in model_names if n in missing]}
    rest = sorted(missing - set(model_names))
    out["pipeline"] = [n for n in rest if PIPELINE.search(n)]
    rest = [n for n in rest if n not in set(out["pipeline"])]
    out["legacy"] = [n for n in rest if LEGACY.search(n)]
    rest = [n for n in rest if n not in set(out["legacy"])]
    out["training"] = [n for n in rest if TRAINING.search(n)]
    out["other"] = [n for n in rest if n not in set(out["training"])]
    return out


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    mine = rill_ops(argv[1])
    theirs = tf_cpu_ops()
    missing = theirs - mine
    groups = group(missing)
    api = dict(MODEL_OPS)
    import tensorflow as tf
    print("TensorFlow %s: %d ops with CPU kernels; Rill lists %d ops; %d of TensorFlow's are "
          "missing from Rill" % (tf.__version__, len(theirs), len(mine), len(missing)))
    for name in ("model", "other", "legacy", "training", "pipeline"):
        ops = groups[name]
        print("\n%s (%d)" % (name, len(ops)))
        if name == "model":
            for n in ops:
                print("  %-36s %s" % (n, api[n]) if "--markdown" not in argv else
                      "| `%s` | %s |" % (n, api[n]))
        else:
            print("  " + ", ".join(ops))


if __name__ == "__main__":
    main(sys.argv)
