#!/usr/bin/env python3
"""Writes kernel conformance cases recorded from real TensorFlow (tf.compat.v1 graph mode).

For each op, tests/conformance/data/<Op>.pbtxt.gz is a gzip-compressed text-format
rill.ConformanceSuite
(tests/conformance/conformance.proto): `tf_version` and one `case` per (dtype, situation). A case
is built in a fresh tf.Graph: a Placeholder of unknown shape for every tensor operand (x, y, z...),
the op under test made with tf.raw_ops.<Op>(..., name="out") so the node's op type is exact, and
small operands TF graphs normally hold as constants (axis, perm, paddings...) as named Consts. It is
run once in tf.compat.v1.Session with Grappler off (RewriterConfig.disable_meta_optimizer, so
nothing is constant-folded), and the case keeps the GraphDef, the feeds, the fetched tensor names
and TensorFlow's outputs (tf.make_tensor_proto, dtype preserved), or its error: the canonical code
name, the C++ status message (without the "\\n\\t [[{{node out}}]]" context TensorFlow appends) and
key phrases the script checked are in it.

Every candidate dtype (float32, float64, half, int32, int64, uint8, int8, int16, bool) is tried
for every op; one that the op def rejects or that has no CPU kernel is skipped and reported.
Inputs come from np.random.RandomState seeded by the case name, so the output is deterministic.

Usage (from the repository root; needs `pip install tensorflow-cpu numpy`, only to regenerate):
    python3 tests/tfgen/make_kernel_conformance.py [OUTPUT_DIR] [--only OP,OP...]
        [--summarize_graph bazel-bin/tools/summarize_graph/summarize_graph]
A full run also rewrites OUTPUT_DIR/README.md (case counts per family and per op; with
--summarize_graph, the count of ops Rill registers, from `summarize_graph --list_ops`) and removes
suites of ops it no longer generates. The builders assert what TensorFlow does (success, or the error code and key
phrases); any surprise stops the run, or, with KC_LENIENT=1 in the environment, is printed as
"PROBLEM: ..." and the case skipped (for writing new builders).
"""
import os
import sys

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
sys.dont_write_bytecode = True  # keep tests/tfgen/kernel_cases free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kernel_cases import control_flow  # noqa: E402
from kernel_cases import complex_matrix  # noqa: E402
from kernel_cases import complex_layers  # noqa: E402
from kernel_cases import core  # noqa: E402
from kernel_cases import elementwise  # noqa: E402
from kernel_cases import functional  # noqa: E402
from kernel_cases import grads  # noqa: E402
from kernel_cases import misc  # noqa: E402
from kernel_cases import nn  # noqa: E402
from kernel_cases import nn_array  # noqa: E402
from kernel_cases import nn_backprops  # noqa: E402
from kernel_cases import reductions  # noqa: E402
from kernel_cases import segments  # noqa: E402
from kernel_cases import spectral  # noqa: E402
from kernel_cases import sparse  # noqa: E402
from kernel_cases import math_extra  # noqa: E402
from kernel_cases import stacks  # noqa: E402
from kernel_cases import strings  # noqa: E402
from kernel_cases import tensor_arrays  # noqa: E402
from kernel_cases import tensor_arrays_v2  # noqa: E402
from kernel_cases import tensor_arrays_v1  # noqa: E402
from kernel_cases import edit_distance  # noqa: E402
from kernel_cases import requantize  # noqa: E402
from kernel_cases import quantized_nn  # noqa: E402
from kernel_cases import draw_boxes  # noqa: E402
from kernel_cases import training  # noqa: E402
from kernel_cases import indexing  # noqa: E402
from kernel_cases import layout  # noqa: E402
from kernel_cases import linalg  # noqa: E402
from kernel_cases import lists  # noqa: E402
from kernel_cases import random_ops  # noqa: E402
from kernel_cases import stateless_random  # noqa: E402
from kernel_cases import lookup_tables  # noqa: E402
from kernel_cases import datasets  # noqa: E402
from kernel_cases import summaries  # noqa: E402
from kernel_cases import image  # noqa: E402
from kernel_cases import unicode  # noqa: E402
from kernel_cases import string_transforms  # noqa: E402
from kernel_cases import string_codecs  # noqa: E402
from kernel_cases import variable_scatter  # noqa: E402
from kernel_cases import special_functions  # noqa: E402
from kernel_cases import quantization  # noqa: E402
from kernel_cases import ragged  # noqa: E402
from kernel_cases import ctc  # noqa: E402
from kernel_cases import string_sequences  # noqa: E402
from kernel_cases import images_codec  # noqa: E402
from kernel_cases import images_gif  # noqa: E402
from kernel_cases import sparse_features  # noqa: E402
from kernel_cases import audio  # noqa: E402
from kernel_cases import parsing  # noqa: E402
from kernel_cases import sequence_parsing  # noqa: E402
from kernel_cases import legacy_ops  # noqa: E402
from kernel_cases import rnn_cells  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join(REPO_ROOT, "tests", "conformance", "data")
FAMILIES = [elementwise, misc, reductions, segments, math_extra, layout, indexing, random_ops, stateless_random, lookup_tables, datasets, summaries, grads, training, nn,
            strings, control_flow, functional, lists, tensor_arrays, tensor_arrays_v2, tensor_arrays_v1, stacks,
            image,
            string_transforms, string_codecs, nn_array, linalg, sparse, spectral, complex_matrix,
            complex_layers,
            nn_backprops,
            variable_scatter, special_functions, quantization, ragged,
            ctc, string_sequences, images_codec, images_gif, sparse_features,
            audio, unicode, parsing, sequence_parsing, legacy_ops, edit_distance,
            requantize, quantized_nn, draw_boxes, rnn_cells]  # in priority order


def main(argv):
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = set(argv[i + 1].split(","))
        argv = argv[:i] + argv[i + 2:]
    summarize_graph = None
    if "--summarize_graph" in argv:
        i = argv.index("--summarize_graph")
        summarize_graph = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    out_dir = argv[1] if len(argv) > 1 else DEFAULT_OUT
    os.makedirs(out_dir, exist_ok=True)
    rec = core.Recorder()
    if only:
        rec.skip = lambda op: op not in only
    family_of = {}  # op -> the kernel_cases module that wrote its suite
    current = [None]

    def emit(op):
        if op not in rec.cases:
            return
        family_of[op] = current[0]
        rec.write(op, out_dir)
        refused = ", ".join("%s (%s)" % r for r in rec.refused.get(op, []))
        print("%-18s %4d cases  dtypes: %s%s" % (
            op, len(rec.cases[op]), " ".join(rec.dtypes[op]),
            ("  refused: " + refused) if refused else ""), flush=True)

    for family in FAMILIES:
        current[0] = family.__name__.split(".")[-1]
        family.build_all(rec, emit)
    total = sum(len(c) for c in rec.cases.values())
    print("%d cases in %d files under %s" % (total, len(rec.cases), out_dir))
    if only is None:
        for name in sorted(os.listdir(out_dir)):  # suites of ops no longer generated
            op = name[:-len(".pbtxt.gz")] if name.endswith(".pbtxt.gz") else (
                name[:-len(".pbtxt")] if name.endswith(".pbtxt") else None)
            if op is not None and op not in rec.cases:
                os.remove(os.path.join(out_dir, name))
        write_readme(rec, out_dir, family_of, registered_ops(summarize_graph))


# Listed by `--list_ops` because the session runs them, but not registered: it lowers them to
# Switch / Merge / Enter / Exit or inlines the function they call.
LOWERED_FUNCTIONAL_OPS = {"If", "StatelessIf", "Case", "StatelessCase", "While", "StatelessWhile",
                          "PartitionedCall", "StatefulPartitionedCall"}


def registered_ops(summarize_graph):
    """{op: device types} from Rill's `summarize_graph --list_ops` (one "Op CPU,GPU" line per
    registered op), or None without the binary."""
    if summarize_graph is None:
        return None
    import subprocess  # pylint: disable=import-outside-toplevel
    out = subprocess.run([summarize_graph, "--list_ops"], capture_output=True, text=True,
                         check=True).stdout
    ops = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] not in LOWERED_FUNCTIONAL_OPS:
            ops[parts[0]] = parts[1].split(",")
    return ops


def write_readme(rec, out_dir, family_of, registered):
    total = sum(len(c) for c in rec.cases.values())
    lines = [README_HEAD % {"version": core.TF_VERSION, "total": total, "files": len(rec.cases)}]
    if registered is not None:
        cpu = [op for op, devices in registered.items() if "CPU" in devices]
        lines += ["Rill registers %d ops, %d with a CPU kernel; %d of those have a suite here (the "
                  "rest are state and plumbing ops the coverage test exempts, each with the test "
                  "that covers it: `ExemptOps()` in tests/conformance/conformance_test.cc)."
                  % (len(registered), len(cpu), len([op for op in cpu if op in rec.cases])), ""]
    lines += ["Per family (the `tests/tfgen/kernel_cases/` module that writes the suites):", "",
              "| Family | Suites | Cases |", "|---|---:|---:|"]
    for family in FAMILIES:
        name = family.__name__.split(".")[-1]
        ops = [op for op in rec.cases if family_of.get(op) == name]
        if ops:
            lines.append("| %s | %d | %d |" % (name, len(ops),
                                                sum(len(rec.cases[op]) for op in ops)))
    lines += ["", "Per op:", "",
              "| Op | Cases | Dtypes with cases | Dtypes TensorFlow refused |",
              "|---|---:|---|---|"]
    for op, cases in rec.cases.items():
        refused = ", ".join("%s (%s)" % r for r in rec.refused.get(op, []))
        lines.append("| %s | %d | %s | %s |" % (op, len(cases), " ".join(rec.dtypes[op]),
                                               refused or "-"))
    with open(os.path.join(out_dir, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


README_HEAD = """# Kernel conformance data

Written by `tests/tfgen/make_kernel_conformance.py` with real TensorFlow %(version)s
(tensorflow-cpu, graph mode through `tf.compat.v1`, Grappler off, oneDNN off); replayed through a
Rill Session by `tests/conformance/conformance_test.cc`. Do not edit by hand: regenerate with

    pip install tensorflow-cpu numpy   # only to regenerate
    python3 tests/tfgen/make_kernel_conformance.py \\
        --summarize_graph bazel-bin/tools/summarize_graph/summarize_graph

(from the repository root; it rewrites every `<Op>.pbtxt.gz` here and this README, and takes
about five minutes on two cores; --summarize_graph adds the count of ops Rill registers).
The output is deterministic: two runs give identical files.

Each `<Op>.pbtxt.gz` is a gzip-compressed text-format `rill.ConformanceSuite` (tests/conformance/conformance.proto; `zcat` shows it), compressed so the repository stays small enough to travel to the GPU machine.
A case (named `<Op>/<dtype>/<situation>`) holds the GraphDef TensorFlow ran: a `Placeholder` of
unknown shape per tensor operand (`x`, `y`, `z`...), the op under test as node `out` (made with
`tf.raw_ops`, so the op type is exact) and named `Const` nodes for axis / perm / paddings /
shape-like operands. Where TensorFlow's shape function would reject a bad constant while building
the graph (Range, Pad, PadV2, OneHot error cases), that operand is a Placeholder instead. Then the
feeds, the fetched tensors (`out:0`, `out:1`...) and TensorFlow's outputs, or its error: the
canonical code, the C++ status message (without the `[[{{node out}}]]` context TensorFlow
appends), and key phrases checked to be in that message.

Inputs are small (at most 64 elements; one 1000-element case per elementwise op and for
Sum/Mean/Cumsum) and seeded by the case name. Reductions use float inputs whose sums (and half
products) are exact, so summation order does not matter. Tolerances: 0 for integer and bool outputs
and for exactly rounded float ops; float32 transcendental and division ops rtol 2e-6 / atol 1e-7
(Rsqrt, Tanh, Sigmoid, Erf, Softplus, Pow: 1e-5 / 1e-6); float32 reductions 1e-5 / 1e-6; float64
1e-12; half 1e-3 / 1e-3, except 0 (bit for bit) where Rill's half kernel rounds each step as
TensorFlow's does (DepthwiseConv2dNative, Einsum, Sigmoid, Elu, Selu, Softplus, Softsign,
Softmax, LogSoftmax).

A dtype is "refused" when the op def does not allow it, TensorFlow's shape function rejects it, or
TensorFlow has no CPU kernel for it; those dtypes have no case.

%(total)d cases in %(files)d files:
"""


if __name__ == "__main__":
    main(sys.argv)
