#!/usr/bin/env python3
"""Writes the whole-model graphs that tools/gpu/gpu_model_check runs on the GPU machine (issue 31):
small frozen GraphDefs of MobileNetV2 (224x224), ResNet50 (224x224), an LSTM text classifier
(Embedding + LSTM(64) + Dense, a While loop lowered to TF1 Switch/Merge/Enter/Exit/NextIteration)
and a Transformer encoder block (MultiHeadAttention + LayerNormalization + Dense with GELU).

Keras builds each model with random weights (weights=None, seed 0); convert_variables_to_constants_v2
freezes it (lowering its control flow). Every float Const with more than --max_elements elements
then loses its values (dtype and tensor_shape kept, tensor_content/float_val cleared), so the
graphs stay small enough to commit (the GPU machine has no TensorFlow); gpu_model_check fills those
Consts with seeded random values chosen by what consumes them. manifest.txt lists one model a line:

    name graph_file input:dims[;input:dims...] output[,output...]

(dims comma-separated, -1 for the batch, which gpu_model_check's --batch sets).

    python3 tools/gpu/make_model_graphs.py [--out tools/gpu/models] [--max_elements 1000]
"""
import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import convert_to_constants  # noqa: E402

keras = tf.keras


def mobilenet_v2():
    return keras.applications.MobileNetV2(weights=None, input_shape=(224, 224, 3), include_top=True)


def resnet50():
    return keras.applications.ResNet50(weights=None, input_shape=(224, 224, 3), include_top=True)


def lstm_classifier():
    tokens = keras.Input((20,), dtype="int32")
    x = keras.layers.Embedding(2000, 32)(tokens)
    x = keras.layers.LSTM(64)(x)
    out = keras.layers.Dense(2, activation="softmax")(x)
    return keras.Model(tokens, out)


def transformer_block():
    x = keras.Input((16, 64))
    att = keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)(x, x)
    h = keras.layers.LayerNormalization(epsilon=1e-6)(x + att)
    ff = keras.layers.Dense(128, activation="gelu")(h)
    ff = keras.layers.Dense(64)(ff)
    out = keras.layers.LayerNormalization(epsilon=1e-6)(h + ff)
    return keras.Model(x, out)


MODELS = [("mobilenet_v2", mobilenet_v2), ("resnet50", resnet50),
          ("lstm_classifier", lstm_classifier), ("transformer_block", transformer_block)]


def freeze(model):
    """(GraphDef, [(input name, shape)], [output names]) of the model at inference."""
    spec = tf.TensorSpec([None] + list(model.input_shape[1:]), model.inputs[0].dtype)
    concrete = tf.function(lambda x: model(x, training=False)).get_concrete_function(spec)
    frozen = convert_to_constants.convert_variables_to_constants_v2(concrete)
    graph = frozen.graph.as_graph_def()
    # Keras's lowered loops leave unconnected "unused_control_flow_input" Placeholders: only the
    # consumed ones are the model's inputs.
    consumed = {i.lstrip("^").split(":")[0] for n in graph.node for i in n.input}
    inputs = []
    for n in graph.node:
        if n.op == "Placeholder" and n.name in consumed:
            dims = [d.size for d in n.attr["shape"].shape.dim]
            inputs.append((n.name, dims))
    outputs = [t.name.split(":")[0] for t in frozen.outputs]
    # A softmax flattens its logits' differences (MobileNetV2's random logits are ~0.2, so its
    # probabilities are nearly uniform): a Softmax's logits are compared too.
    nodes = {n.name: n for n in graph.node}
    logits = []
    for name in outputs:
        node = nodes[name]
        while node.op == "Identity" and node.input:
            node = nodes[node.input[0].split(":")[0]]
        if node.op == "Softmax":
            logits.append(node.input[0].split(":")[0])
    return graph, inputs, logits + outputs


def strip(graph, max_elements):
    """Clears the values of float Consts above max_elements elements; returns how many."""
    stripped = 0
    for n in graph.node:
        if n.op != "Const" or n.attr["dtype"].type != tf.float32.as_datatype_enum:
            continue
        t = n.attr["value"].tensor
        count = 1
        for d in t.tensor_shape.dim:
            count *= d.size
        if count > max_elements:
            t.ClearField("tensor_content")
            t.ClearField("float_val")
            stripped += 1
    return stripped


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "models"))
    parser.add_argument("--max_elements", type=int, default=1000)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lines = []
    for name, make in MODELS:
        keras.utils.set_random_seed(0)
        graph, inputs, outputs = freeze(make())
        stripped = strip(graph, args.max_elements)
        path = os.path.join(args.out, name + ".pb")
        with open(path, "wb") as f:
            f.write(graph.SerializeToString())
        ins = ";".join("%s:%s" % (n, ",".join(str(d) for d in dims)) for n, dims in inputs)
        lines.append("%s %s.pb %s %s" % (name, name, ins, ",".join(outputs)))
        print("%s: %d nodes, %d Consts stripped, %d bytes" %
              (name, len(graph.node), stripped, os.path.getsize(path)))
    with open(os.path.join(args.out, "manifest.txt"), "w") as f:
        f.write("# name graph input:dims[;input:dims] output[,output] (-1: the batch)\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
