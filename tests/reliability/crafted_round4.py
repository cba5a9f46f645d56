#!/usr/bin/env python3
"""Crafted-input campaign, round 4 (issue 26): the classes rounds 1-3 did not probe.

Writes text GraphDefs, V2 checkpoint bundles, SavedModels and ConfigProtos without TensorFlow and
runs each through session_runner under `ulimit -v 8000000` and `timeout 40`, recording how it
ended (crafted_round3.py's classification: crash, hang, exit 0 where an error was due, an error
without a `Code: message` line, or a clean result); cases with a known right answer also check
the printed value, so a silently wrong result is reported as `wrong`. The ground:
- checkpoints whose index entries disagree with the graph (dtype, shape, byte size), point past
  the data file or into a shard that does not exist, carry slices, lie in their header, or whose
  RestoreV2 asks for what the bundle cannot give;
- SavedModels whose signatures, savers, init ops and assets name what is not there;
- ConfigProto fields not probed before (thread pools, graph and rewrite options, experimental
  fields, session metadata), text that is not a ConfigProto, and RunOptions through the C API;
- feeds and fetches: the same tensor fed twice, fetching a fed tensor, fetching an op without
  outputs, feeding a Const, Fortran-order and big-endian .npy values (checked against numpy's
  reading of the same bytes);
- graph structure: malformed control flow (frames, Exit / NextIteration / Merge misuse), cycles
  without loops, lying _output_shapes and _class attrs, func attrs naming missing functions,
  gradients, huge and non-UTF-8 names;
- stateful ops misused: uninitialized variables, assignments of another dtype or shape,
  TensorArray / TensorList reads before writes, lookup tables with keys of another dtype, a
  queue dequeue that would wait forever under operation_timeout_in_ms;
- C API call sequences (`--c_api=LIB`): closed sessions, a graph deleted under a session,
  partial runs misused, TFE ops with wrong attrs or missing inputs, tensors whose dims overflow.

    python3 tests/reliability/crafted_round4.py RUNNER [--only=SUBSTR] [--out=DIR] [--c_api=LIB]
                                                [--tf=FILE]

`--tf=FILE` also runs every GraphDef case in TensorFlow 2.21 (installed for python3) and writes
both outcomes to FILE (name, Rill's outcome, TF's, Rill's text, TF's text), printing each case
where one ran and the other refused.

Prints one line per case that did not end cleanly and a count per category; exits 1 when any
case crashed, hung, lacked a message or gave a wrong value.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crafted_round3 import (G, c, esc, fn, i, li, ltype, s, shp, ty, lshape,  # noqa: E402
                            C_PRELUDE, INT64_MAX, INT32_MAX)

# Each case: dict(cat, name, text, fetch, args, config, files, expect). `files` maps a relative
# path to bytes written into the case's directory before the run ("{dir}" in args is replaced by
# that directory); `expect` is a substring the stdout must hold when the run succeeds.
CASES = []


def case(cat, name, g, fetch, args=(), config=None, files=None, expect=None):
    CASES.append(dict(cat=cat, name=name, text=g.text() if g is not None else None,
                      fetch=fetch if isinstance(fetch, list) else [fetch], args=list(args),
                      config=config, files=files or {}, expect=expect))


# ---------------------------------------------------------------------------------------------
# Protobuf wire format and LevelDB tables (what a V2 checkpoint's .index file is).


def varint(v):
    v &= (1 << 64) - 1
    out = b""
    while v >= 128:
        out += bytes([(v & 127) | 128])
        v >>= 7
    return out + bytes([v])


def pb_int(field, v):
    return varint(field << 3) + varint(v)


def pb_bytes(field, data):
    return varint((field << 3) | 2) + varint(len(data)) + data


def pb_fixed32(field, v):
    return varint((field << 3) | 5) + struct.pack("<I", v & 0xFFFFFFFF)


_CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def table(entries):
    """A LevelDB table of (key, value) in the given order, one data block, no compression."""
    out = b""

    def block(pairs):
        b = b""
        restarts = []
        for k, v in pairs:
            restarts.append(len(b))
            b += varint(0) + varint(len(k)) + varint(len(v)) + k + v
        restarts = restarts or [0]
        return b + b"".join(struct.pack("<I", r) for r in restarts) + struct.pack(
            "<I", len(restarts))

    def write(contents):
        nonlocal out
        handle = varint(len(out)) + varint(len(contents))
        out += contents + b"\0" + struct.pack("<I", masked(crc32c(contents + b"\0")))
        return handle

    data = write(block(entries))
    meta = write(block([]))
    index = write(block([(entries[-1][0] if entries else b"", data)]))
    footer = (meta + index).ljust(40, b"\0") + struct.pack("<Q", 0xDB4775248B80FB57)
    return out + footer


DT_CODE = {"float": 1, "double": 2, "int32": 3, "string": 7, "int64": 9, "bool": 10}


def shape_proto(dims):
    if dims is None:
        return pb_int(3, 1)
    return b"".join(pb_bytes(2, pb_int(1, d)) for d in dims)


def entry(dtype, dims, shard, offset, size, crc=None, slices=b""):
    e = pb_int(1, DT_CODE.get(dtype, dtype) if isinstance(dtype, str) else dtype)
    e += pb_bytes(2, shape_proto(dims))
    if shard:
        e += pb_int(3, shard)
    if offset:
        e += pb_int(4, offset)
    e += pb_int(5, size)
    if crc is not None:
        e += pb_fixed32(6, crc)
    return e + slices


def header(num_shards=1, endianness=0, producer=1, min_consumer=0):
    h = pb_int(1, num_shards)
    if endianness:
        h += pb_int(2, endianness)
    return h + pb_bytes(3, pb_int(1, producer) + (pb_int(2, min_consumer) if min_consumer else b""))


def bundle(prefix, tensors, hdr=None, shard_files=None, sort=True):
    """Files of a V2 checkpoint: tensors is [(key, dtype, dims, data bytes, entry overrides)]."""
    data = b""
    entries = []
    for key, dtype, dims, payload, over in tensors:
        over = dict(over or {})
        e = entry(over.pop("dtype", dtype), over.pop("dims", dims), over.pop("shard", 0),
                  over.pop("offset", len(data)), over.pop("size", len(payload)),
                  over.pop("crc", masked(crc32c(payload))), over.pop("slices", b""))
        entries.append((key.encode(), e))
        data += payload
    if sort:
        entries.sort()
    idx = table([(b"", hdr if hdr is not None else header())] + entries)
    files = {prefix + ".index": idx}
    if shard_files is None:
        files[prefix + ".data-00000-of-00001"] = data
    else:
        for name, content in shard_files.items():
            files[prefix + name] = data if content is None else content
    return files


def f32(*vals):
    return struct.pack("<%df" % len(vals), *vals)


# ---------------------------------------------------------------------------------------------
# Checkpoints restored through a TF1 Saver's save/restore_all.


def saver_graph(var_kind="resource", dtype="float", dims=(2,), names=("v",), slices=("",),
                restore_dtypes=None, validate_shape=True):
    g = G()
    g.const("save/Const", "string", [], [b"model"])
    c(g, "save/RestoreV2/tensor_names", "string", [n.encode() for n in names])
    c(g, "save/RestoreV2/shape_and_slices", "string", [x.encode() for x in slices])
    rd = restore_dtypes if restore_dtypes is not None else [dtype] * len(names)
    g.node("save/RestoreV2", "RestoreV2", ["save/Const", "save/RestoreV2/tensor_names",
                                           "save/RestoreV2/shape_and_slices"], dtypes=ltype(rd))
    assigns = []
    for k, n in enumerate(names):
        out = "save/RestoreV2:%d" % k if k else "save/RestoreV2"
        if var_kind == "resource":
            g.node(n, "VarHandleOp", dtype=ty(dtype), shape=shp(list(dims)), shared_name=s(n))
            g.node("save/Assign_%d" % k, "AssignVariableOp", [n, out], dtype=ty(dtype))
            g.node(n + "/read", "ReadVariableOp", [n], dtype=ty(dtype))
        else:
            g.node(n, "VariableV2", dtype=ty(dtype), shape=shp(list(dims)))
            g.node("save/Assign_%d" % k, "Assign", [n, out], T=ty(dtype),
                   validate_shape="b: %s" % ("true" if validate_shape else "false"))
            g.node(n + "/read", "Identity", [n], T=ty(dtype))
        assigns.append("^save/Assign_%d" % k)
    g.node("save/restore_all", "NoOp", assigns)
    return g


def gen_checkpoints():
    cat = "checkpoint"
    good = [("v", "float", [2], f32(1.5, -2.5), None)]

    def ck(name, tensors=good, g=None, hdr=None, shard_files=None, expect=None, sort=True,
           fetch="v/read", extra=None):
        files = bundle("ckpt/model", tensors, hdr, shard_files, sort)
        for rel, data in (extra or {}).items():
            for existing in [k for k in files if rel.startswith(k + "/")]:
                del files[existing]  # a directory where the file was
            files[rel] = data
        case(cat, "ckpt_" + name, g or saver_graph(), fetch,
             ["--checkpoint={dir}/ckpt/model"], files=files, expect=expect)

    ck("good", expect="[ 1.5 -2.5]")
    ck("good_ref", g=saver_graph("ref"), expect="[ 1.5 -2.5]")
    ck("entry_dtype_int32", [("v", "int32", [2], struct.pack("<2i", 1, 2), None)])
    ck("entry_dtype_int32_ref", [("v", "int32", [2], struct.pack("<2i", 1, 2), None)],
       g=saver_graph("ref"))
    ck("entry_dtype_double_same_bytes", [("v", "float", [2], f32(1, 2), {"dtype": "double"})])
    ck("entry_shape_3", [("v", "float", [3], f32(1, 2, 3), None)])
    ck("entry_shape_3_ref", [("v", "float", [3], f32(1, 2, 3), None)], g=saver_graph("ref"))
    ck("entry_shape_3_ref_novalidate", [("v", "float", [3], f32(1, 2, 3), None)],
       g=saver_graph("ref", validate_shape=False), expect="[1. 2. 3.]")
    ck("entry_shape_2x1", [("v", "float", [2, 1], f32(1, 2), None)])
    ck("entry_scalar", [("v", "float", [], f32(7), None)])
    ck("entry_size_short", [("v", "float", [2], f32(1, 2), {"size": 4})])
    ck("entry_size_long", [("v", "float", [2], f32(1, 2, 3), {"size": 12})])
    ck("entry_size_zero", [("v", "float", [2], b"", {"size": 0})])
    ck("entry_offset_past_end", [("v", "float", [2], f32(1, 2), {"offset": 1000})])
    ck("entry_offset_huge", [("v", "float", [2], f32(1, 2), {"offset": 2**63})])
    ck("entry_offset_wraps", [("v", "float", [2], f32(1, 2), {"offset": 2**64 - 4})])
    ck("entry_size_huge", [("v", "float", [2], f32(1, 2), {"size": 2**63 - 1})])
    ck("entry_crc_wrong", [("v", "float", [2], f32(1, 2), {"crc": 12345})])
    ck("entry_no_crc", [("v", "float", [2], f32(1, 2), {"crc": None})])
    ck("entry_shard_1_of_1", [("v", "float", [2], f32(1, 2), {"shard": 1})])
    ck("entry_shard_negative", [("v", "float", [2], f32(1, 2), {"shard": -1})])
    ck("entry_shard_huge", [("v", "float", [2], f32(1, 2), {"shard": 2**31 - 1})])
    ck("header_two_shards_one_missing", [("v", "float", [2], f32(1, 2), {"shard": 1})],
       hdr=header(num_shards=2), shard_files={".data-00000-of-00002": None})
    ck("header_two_shards_good", [("v", "float", [2], f32(1, 2), {"shard": 1})],
       hdr=header(num_shards=2), shard_files={".data-00000-of-00002": b"",
                                              ".data-00001-of-00002": None},
       expect="[1. 2.]")
    ck("header_zero_shards", hdr=header(num_shards=0))
    ck("header_negative_shards", hdr=header(num_shards=-1))
    ck("header_huge_shards", hdr=header(num_shards=2**31 - 1))
    ck("header_int64_shards", hdr=header(num_shards=2**40))
    ck("header_big_endian", hdr=header(endianness=1))
    ck("header_endianness_7", hdr=header(endianness=7))
    ck("header_min_consumer_huge", hdr=header(min_consumer=1000))
    ck("header_producer_negative", hdr=header(producer=-1))
    ck("header_bad_consumer", hdr=header() + pb_bytes(3, pb_int(1, 1) + pb_int(3, 1)))
    ck("header_missing", hdr=b"")
    ck("header_garbage", hdr=b"\xff\xff\xff")
    ck("entry_garbage", [("v", "float", [2], f32(1, 2), {"slices": b"\xff\xff\xff\xff"})])
    slice_ab = pb_bytes(7, pb_bytes(1, pb_int(1, 0) + pb_int(2, 1)))  # TensorSliceProto
    ck("entry_with_slices", [("v", "float", [2], f32(1, 2), {"slices": slice_ab})])
    ck("entry_dtype_invalid", [("v", "float", [2], f32(1, 2), {"dtype": 0})])
    ck("entry_dtype_1000", [("v", "float", [2], f32(1, 2), {"dtype": 1000})])
    ck("entry_dtype_ref", [("v", "float", [2], f32(1, 2), {"dtype": 101})])
    ck("entry_dtype_resource", [("v", "float", [2], f32(1, 2), {"dtype": 20})])
    ck("entry_dtype_variant", [("v", "float", [2], f32(1, 2), {"dtype": 21})])
    ck("entry_dims_negative", [("v", "float", [2], f32(1, 2), {"dims": [-2]})])
    ck("entry_dims_unknown_rank", [("v", "float", [2], f32(1, 2), {"dims": None})])
    ck("entry_dims_overflow", [("v", "float", [2], f32(1, 2), {"dims": [2**62, 2**62]})])
    ck("entry_dims_rank_300", [("v", "float", [2], f32(1, 2), {"dims": [1] * 300})])
    ck("entry_dims_zero_and_huge", [("v", "float", [2], b"", {"dims": [0, 2**62, 2**62]})])
    ck("keys_unsorted", [("v", "float", [2], f32(1, 2), None),
                         ("a", "float", [2], f32(3, 4), None)], sort=False)
    ck("keys_duplicate", [("v", "float", [2], f32(1, 2), None),
                          ("v", "float", [2], f32(3, 4), None)])
    ck("key_missing", [("w", "float", [2], f32(1, 2), None)])
    ck("data_file_missing", shard_files={})
    ck("data_file_directory", shard_files={}, extra={"ckpt/model.data-00000-of-00001/x": b""})
    ck("index_is_directory", extra={"ckpt/model.index/x": b""})
    # Strings: the data is the varint lengths, their crc32c, then the bytes.
    # Strings: varint lengths, the masked crc32c of the lengths as 8-byte integers, the bytes;
    # the entry's crc32c covers the 8-byte lengths, that checksum and the bytes.
    def strings(lengths, body, length_crc=None):
        l64 = b"".join(struct.pack("<Q", x & (2**64 - 1)) for x in lengths)
        lc = struct.pack("<I", masked(crc32c(l64)) if length_crc is None else length_crc)
        payload = b"".join(varint(x) for x in lengths) + lc + body
        return payload, {"crc": masked(crc32c(l64 + lc + body))}

    sgraph = saver_graph(dtype="string")
    sgood, sover = strings([3, 2], b"abcde")
    ck("string_good", [("v", "string", [2], sgood, sover)], g=sgraph, expect="[b'abc' b'de']")
    for label, (payload, over) in [
            ("string_length_huge", strings([2**62, 2], b"abcde")),
            ("string_length_2_64", strings([2**64 - 1, 2], b"abcde")),
            ("string_length_past_data", strings([300, 2], b"abcde")),
            ("string_lengths_truncated", (b"\x83", None)),
            ("string_length_crc_wrong", strings([3, 2], b"abcde", length_crc=7)),
            ("string_bytes_left_over", strings([1, 2], b"abcde")),
            ("string_entry_size_past", strings([3, 2], b"abcde"))]:
        if label == "string_entry_size_past":
            over = dict(over, size=len(payload) + 50)
        ck(label, [("v", "string", [2], payload, over)], g=sgraph)
    ck("string_entry_for_float_var", [("v", "string", [2], sgood, sover)])
    ck("float_entry_for_string_var", good, g=sgraph)
    # RestoreV2 itself asked for what the bundle cannot give.
    ck("restore_dtypes_count_short", g=saver_graph(restore_dtypes=[]))
    ck("restore_dtypes_count_long", g=saver_graph(restore_dtypes=["float", "float"]))
    ck("restore_dtype_int32", g=saver_graph(restore_dtypes=["int32"]))
    ck("restore_names_two_slices_one", g=saver_graph(names=("v", "w"), slices=("",)))
    for label, spec in [("slice_spec_garbage", "garbage"), ("slice_spec_full", "2 -"),
                        ("slice_spec_subset", "2 0,1"), ("slice_spec_past_end", "2 1,5"),
                        ("slice_spec_negative", "2 -1,1"), ("slice_spec_rank_mismatch", "2 3 -:-"),
                        ("slice_spec_huge", "9223372036854775807 0,9223372036854775807"),
                        ("slice_spec_shape_wrong", "3 -")]:
        ck(label, g=saver_graph(slices=(spec,)))
    g = saver_graph()
    g.nodes = [n for n in g.nodes if not n.startswith('node { name: "save/Const" ')]
    g.const("save/Const", "int32", [], [3])
    ck("prefix_not_string", g=g)
    # A partitioned variable: two entries and a RestoreV2 of slices.
    ck("prefix_is_index_file", extra={"ckpt/model.index.index": b"x"})


# ---------------------------------------------------------------------------------------------
# SavedModels (saved_model.pb written by protoc from text).


PROTO_ROOT = None


def encode(msg_type, text):
    p = subprocess.run(["protoc", "--encode=rill." + msg_type, "-I" + PROTO_ROOT,
                        "proto/saved_model.proto"], input=text.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode:
        raise RuntimeError("protoc: %s\n%s" % (p.stderr.decode(), text[:500]))
    return p.stdout


def gen_saved_models():
    cat = "saved_model"
    base = G()
    base.node("x", "Placeholder", dtype=ty("float"), shape=shp([-1]))
    base.node("v", "VarHandleOp", dtype=ty("float"), shape=shp([2]), shared_name=s("v"))
    base.node("r", "ReadVariableOp", ["v"], dtype=ty("float"))
    base.node("y", "Mul", ["x", "r"], T=ty("float"))
    base.const("save/Const", "string", [], [b"model"])
    c(base, "save/names", "string", [b"v"])
    c(base, "save/slices", "string", [b""])
    base.node("save/RestoreV2", "RestoreV2", ["save/Const", "save/names", "save/slices"],
              dtypes=ltype(["float"]))
    base.node("save/Assign", "AssignVariableOp", ["v", "save/RestoreV2"], dtype=ty("float"))
    base.node("save/restore_all", "NoOp", ["^save/Assign"])
    base.node("init", "NoOp")
    gtext = base.text().replace("\nlibrary", " library")
    gtext = " ".join(gtext.splitlines())
    var_files = bundle("variables/variables", [("v", "float", [2], f32(2, 3), None)])

    def sig(inputs, outputs, method="tensorflow/serving/predict"):
        t = ""
        for k, (n, dt) in inputs.items():
            t += 'inputs { key: "%s" value { name: "%s" dtype: %s tensor_shape { unknown_rank: ' \
                 'true } } } ' % (k, n, dt)
        for k, (n, dt) in outputs.items():
            t += 'outputs { key: "%s" value { name: "%s" dtype: %s } } ' % (k, n, dt)
        return t + 'method_name: "%s"' % method

    good_sig = sig({"x": ("x:0", "DT_FLOAT")}, {"y": ("y:0", "DT_FLOAT")})
    saver = 'saver_def { filename_tensor_name: "save/Const:0" restore_op_name: ' \
            '"save/restore_all" version: V2 }'

    def sm(name, signature=good_sig, saver_text=saver, extra_meta="", files=None, graph=gtext,
           feeds=True, args=(), expect=None, tags='tags: "serve"', key="serving_default"):
        meta = 'meta_graphs { meta_info_def { %s } graph_def { %s } %s ' % (tags, graph,
                                                                            saver_text)
        if signature is not None:
            meta += 'signature_def { key: "%s" value { %s } } ' % (key, signature)
        meta += extra_meta + "}"
        text = "saved_model_schema_version: 1 " + meta
        fl = dict(var_files if files is None else files)
        fl["saved_model.pb"] = encode("SavedModel", text)
        feed_args = ["--feed=x={dir}/x.npy"] if feeds else []
        fl["x.npy"] = npy("<f4", (2,), f32(1, 10))
        case(cat, "sm_" + name, None, [], ["--saved_model_dir={dir}"] + feed_args + list(args),
             files=fl, expect=expect)

    sm("good", expect="[ 2. 30.]")
    sm("sig_input_missing_tensor", sig({"x": ("nope:0", "DT_FLOAT")},
                                       {"y": ("y:0", "DT_FLOAT")}))
    sm("sig_output_missing_tensor", sig({"x": ("x:0", "DT_FLOAT")},
                                        {"y": ("nope:0", "DT_FLOAT")}))
    sm("sig_output_index_past", sig({"x": ("x:0", "DT_FLOAT")}, {"y": ("y:5", "DT_FLOAT")}))
    sm("sig_output_dtype_lies", sig({"x": ("x:0", "DT_FLOAT")}, {"y": ("y:0", "DT_INT32")}))
    sm("sig_input_dtype_lies", sig({"x": ("x:0", "DT_INT32")}, {"y": ("y:0", "DT_FLOAT")}))
    sm("sig_input_is_output", sig({"x": ("y:0", "DT_FLOAT")}, {"y": ("y:0", "DT_FLOAT")}))
    sm("sig_input_not_placeholder", sig({"x": ("r:0", "DT_FLOAT")},
                                        {"y": ("y:0", "DT_FLOAT")}))
    sm("sig_empty_name", sig({"x": ("", "DT_FLOAT")}, {"y": ("y:0", "DT_FLOAT")}))
    sm("sig_control_name", sig({"x": ("^x", "DT_FLOAT")}, {"y": ("y:0", "DT_FLOAT")}))
    sm("sig_coo_sparse", 'inputs { key: "x" value { coo_sparse { values_tensor_name: "x:0" '
       'indices_tensor_name: "nope:0" dense_shape_tensor_name: "nope:1" } dtype: DT_FLOAT } } '
       'outputs { key: "y" value { name: "y:0" dtype: DT_FLOAT } }')
    sm("sig_composite", 'inputs { key: "x" value { name: "x:0" dtype: DT_FLOAT } } '
       'outputs { key: "y" value { composite_tensor { components { name: "y:0" } components '
       '{ name: "nope:0" } } dtype: DT_FLOAT } }')
    sm("sig_no_outputs", sig({"x": ("x:0", "DT_FLOAT")}, {}))
    sm("sig_missing_key_requested", args=["--signature_def=nope"])
    sm("saver_restore_op_missing", saver_text='saver_def { filename_tensor_name: "save/Const:0"'
       ' restore_op_name: "save/nope" version: V2 }')
    sm("saver_filename_tensor_missing", saver_text='saver_def { filename_tensor_name: '
       '"nope:0" restore_op_name: "save/restore_all" version: V2 }')
    sm("saver_filename_tensor_float", saver_text='saver_def { filename_tensor_name: "x:0" '
       'restore_op_name: "save/restore_all" version: V2 }')
    sm("saver_filename_is_op", saver_text='saver_def { filename_tensor_name: "save/restore_all"'
       ' restore_op_name: "save/restore_all" version: V2 }')
    sm("saver_restore_op_is_tensor", saver_text='saver_def { filename_tensor_name: '
       '"save/Const:0" restore_op_name: "save/RestoreV2:0" version: V2 }')
    sm("saver_v1", saver_text='saver_def { filename_tensor_name: "save/Const:0" '
       'restore_op_name: "save/restore_all" version: LEGACY }')
    sm("variables_dtype_mismatch", files=bundle(
        "variables/variables", [("v", "int32", [2], struct.pack("<2i", 2, 3), None)]))
    sm("variables_shape_mismatch", files=bundle(
        "variables/variables", [("v", "float", [3], f32(2, 3, 4), None)]))
    sm("variables_key_missing", files=bundle(
        "variables/variables", [("w", "float", [2], f32(2, 3), None)]))
    sm("variables_data_missing", files={"variables/variables.index": var_files[
        "variables/variables.index"]})
    sm("variables_missing_dir", files={})
    sm("init_op_missing", extra_meta='collection_def { key: "saved_model_main_op" value { '
       'node_list { value: "nope" } } }')
    sm("init_op_is_placeholder", extra_meta='collection_def { key: "saved_model_main_op" value {'
       ' node_list { value: "x" } } }')
    sm("init_op_two", extra_meta='collection_def { key: "saved_model_main_op" value { '
       'node_list { value: "init" value: "init" } } }')
    sm("init_op_legacy_bytes", extra_meta='collection_def { key: "legacy_init_op" value { '
       'bytes_list { value: "init" } } }')
    sm("init_op_in_signature_missing", extra_meta='signature_def { key: "__saved_model_init_op" '
       'value { outputs { key: "__saved_model_init_op" value { name: "nope" } } } }')
    sm("asset_tensor_missing", extra_meta='asset_file_def { tensor_info { name: "nope:0" } '
       'filename: "vocab.txt" }')
    sm("asset_tensor_float", extra_meta='asset_file_def { tensor_info { name: "x:0" } '
       'filename: "vocab.txt" }')
    sm("asset_filename_traversal", extra_meta='asset_file_def { tensor_info { name: '
       '"save/Const:0" } filename: "../../../../etc/passwd" }')
    sm("asset_filename_absolute", extra_meta='asset_file_def { tensor_info { name: '
       '"save/Const:0" } filename: "/etc/passwd" }')
    sm("asset_collection_garbage", extra_meta='collection_def { key: "saved_model_assets" '
       'value { any_list { value { type_url: "type.googleapis.com/tensorflow.AssetFileDef" '
       'value: "\\377\\377\\377" } } } }')
    sm("two_metagraphs_same_tags", extra_meta="} meta_graphs { meta_info_def { tags: \"serve\" "
       "} graph_def { %s } %s" % (gtext, saver))
    sm("tags_empty", tags="")
    sm("tags_duplicated", tags='tags: "serve" tags: "serve"')
    sm("graph_library_bad", graph=gtext + ' library { function { signature { name: "Mul" } } }')
    sm("graph_versions_future", graph=gtext + " versions { producer: 5000 min_consumer: 5000 }")
    sm("no_feed_given", feeds=False)
    sm("feed_unknown_key", feeds=False, args=["--feed=nope={dir}/x.npy"])
    sm("fetch_unknown_key", args=["--fetch=nope"])
    sm("sig_key_empty", key="")


# ---------------------------------------------------------------------------------------------
# ConfigProtos: fields rounds 1-3 did not set.


def gen_configs():
    cat = "config"
    g = G()
    g.const("a", "float", [2, 2], [1.0, 2, 3, 4])
    g.node("y", "MatMul", ["a", "a"], T=ty("float"))
    right = "[[ 7. 10.]"
    for label, cfg in [
            ("per_session_threads_zero", "use_per_session_threads: true "
                                         "inter_op_parallelism_threads: 0"),
            ("per_session_threads_negative", "use_per_session_threads: true "
                                             "inter_op_parallelism_threads: -1"),
            ("pool_global_name", "session_inter_op_thread_pool { num_threads: 2 global_name: "
                                 "\"g\" }"),
            ("pool_global_name_twice_diff", "session_inter_op_thread_pool { num_threads: 2 "
                                            "global_name: \"g\" } session_inter_op_thread_pool"
                                            " { num_threads: 3 global_name: \"g\" }"),
            ("pool_zero_threads", "session_inter_op_thread_pool { num_threads: 0 }"),
            ("pool_caller_thread", "session_inter_op_thread_pool { num_threads: -1 }"),
            ("pool_allow_global_empty", "session_inter_op_thread_pool { allow_global_name: "
                                        "true }"),
            ("pools_1000", " ".join(["session_inter_op_thread_pool { num_threads: 1 }"] * 1000)),
            ("intra_inter_1_timeout_0", "intra_op_parallelism_threads: 1 "
                                        "inter_op_parallelism_threads: 1 "
                                        "operation_timeout_in_ms: 0"),
            ("timeout_huge", "operation_timeout_in_ms: 9223372036854775807"),
            ("placement_period_huge", "placement_period: 2147483647"),
            ("device_filters_empty", "device_filters: \"\""),
            ("device_filters_garbage", "device_filters: \"/job:localhost/replica:x/task:-1\""),
            ("device_filters_cpu0", "device_filters: \"/device:CPU:0\""),
            ("device_filters_gpu_only", "device_filters: \"/device:GPU:0\""),
            ("device_filters_many", " ".join(["device_filters: \"/cpu:%d\"" % k
                                              for k in range(2000)])),
            ("graph_place_pruned", "graph_options { place_pruned_graph: true infer_shapes: true "
                                   "enable_recv_scheduling: true enable_bfloat16_sendrecv: true }"),
            ("graph_timeline", "graph_options { timeline_step: 2147483647 build_cost_model: "
                               "9223372036854775807 }"),
            ("opt_level_l0_folding_off", "graph_options { optimizer_options { opt_level: L0 "
                                         "do_constant_folding: false do_common_subexpression_"
                                         "elimination: false do_function_inlining: false "
                                         "max_folded_constant_in_bytes: -1 } }"),
            ("opt_folding_limit_0", "graph_options { optimizer_options { "
                                    "max_folded_constant_in_bytes: 0 } }"),
            ("jit_level", "graph_options { optimizer_options { global_jit_level: ON_2 "
                          "cpu_global_jit: true } }"),
            ("rewrite_all_off", "graph_options { rewrite_options { disable_meta_optimizer: true "
                                "constant_folding: OFF arithmetic_optimization: OFF "
                                "layout_optimizer: OFF remapping: OFF dependency_optimization: "
                                "OFF loop_optimization: OFF function_optimization: OFF "
                                "shape_optimization: OFF pin_to_host_optimization: OFF } }"),
            ("rewrite_aggressive", "graph_options { rewrite_options { constant_folding: "
                                   "AGGRESSIVE arithmetic_optimization: AGGRESSIVE "
                                   "auto_mixed_precision: ON auto_mixed_precision_mkl: ON "
                                   "memory_optimization: HEURISTICS } }"),
            ("rewrite_scoped_allocator", "graph_options { rewrite_options { "
                                         "scoped_allocator_optimization: ON "
                                         "scoped_allocator_opts { enable_op: \"\" enable_op: "
                                         "\"%n\" } } }"),
            ("rewrite_timeouts", "graph_options { rewrite_options { "
                                 "meta_optimizer_timeout_ms: -1 "
                                 "meta_optimizer_iterations: ONE } }"),
            ("rewrite_optimizers_unknown", "graph_options { rewrite_options { optimizers: "
                                           "\"constfold\" optimizers: \"nope\" } }"),
            ("experimental_tfrt", "experimental { use_tfrt: true "
                                  "optimize_for_static_graph: true "
                                  "disable_thread_spinning: true }"),
            ("experimental_executor_single", "experimental { executor_type: "
                                             "\"SINGLE_THREADED_EXECUTOR\" }"),
            ("experimental_executor_default", "experimental { executor_type: \"DEFAULT\" }"),
            ("experimental_executor_empty", "experimental { executor_type: \"\" }"),
            ("experimental_session_metadata", "experimental { session_metadata { name: \"m\" "
                                              "version: -5 } }"),
            ("experimental_mlir", "experimental { enable_mlir_bridge: true "
                                  "mlir_bridge_rollout: MLIR_BRIDGE_ROLLOUT_ENABLED "
                                  "enable_mlir_graph_optimization: true }"),
            ("experimental_recv_buf_max", "experimental { recv_buf_max_chunk: -1 "
                                          "use_numa_affinity: true "
                                          "collective_deterministic_sequential_execution: "
                                          "true }"),
            ("experimental_coordination", "experimental { coordination_config { service_type: "
                                          "\"nope\" heartbeat_timeout_in_ms: -1 } }"),
            ("experimental_xla_prefer_single", "experimental { "
                                               "xla_prefer_single_graph_cluster: true "
                                               "stream_merge_threshold: -1 }"),
            ("share_cluster_devices", "share_cluster_devices_in_session: true"),
            ("gpu_unified_memory", "gpu_options { experimental { use_unified_memory: true "
                                   "num_dev_to_dev_copy_streams: 2147483647 "
                                   "timestamped_allocator: true } }"),
            ("gpu_allow_growth_and_fraction", "gpu_options { allow_growth: true "
                                              "per_process_gpu_memory_fraction: -0.5 }"),
            ("gpu_force_gpu_compatible", "gpu_options { force_gpu_compatible: true "
                                         "experimental { virtual_devices { memory_limit_mb: "
                                         "-1 } } }"),
            ("gpu_visible_empty_items", "gpu_options { visible_device_list: \",,\" }"),
            ("device_count_cpu_3", "device_count { key: \"CPU\" value: 3 }"),
            ("device_count_gpu_str_case", "device_count { key: \"gpu\" value: 1 }"),
            ("log_placement_only", "log_device_placement: true"),
            ("allow_soft_false", "allow_soft_placement: false"),
            ("cluster_def_one_task", "cluster_def { job { name: \"worker\" tasks { key: 0 value: "
                                     "\"localhost:1\" } } }")]:
        expect = right if "gpu_only" not in label and "cluster" not in label else None
        case(cat, "config_" + label, g, "y", config=cfg, expect=None)
        _ = expect
    # Not a text ConfigProto.
    for label, content in [("binary_proto", b"\x10\x02\x18\x03"), ("unknown_field", "bogus: 3"),
                           ("wrong_type", "intra_op_parallelism_threads: \"two\""),
                           ("int_overflow", "intra_op_parallelism_threads: 99999999999"),
                           ("enum_unknown", "graph_options { optimizer_options { opt_level: "
                                            "L9 } }"),
                           ("enum_number_unknown", "graph_options { optimizer_options { "
                                                   "opt_level: 77 } }"),
                           ("truncated", "gpu_options {"),
                           ("graphdef_as_config", g.text()),
                           ("utf16", "\ufeffintra_op_parallelism_threads: 2".encode("utf-16")),
                           ("nul_bytes", b"intra_op_parallelism_threads: 2\0\0\0")]:
        case(cat, "config_text_" + label, g, "y", config=content)


# ---------------------------------------------------------------------------------------------
# Feeds and fetches.


def npy(descr, shape, data, fortran=False, extra=""):
    sh = "(" + "".join("%d, " % d for d in shape) + ")" if len(shape) != 1 else "(%d,)" % shape[0]
    if not shape:
        sh = "()"
    h = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, %s}" % (
        descr, "True" if fortran else "False", sh, extra)
    h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + data


def gen_feeds():
    cat = "feeds_fetches"
    g = G()
    g.node("p", "Placeholder", dtype=ty("float"))
    g.node("y", "Neg", ["p"], T=ty("float"))
    g.node("n", "NoOp", ["^y"])
    c(g, "k", "float", [5.0, 6.0])
    g.node("z", "Mul", ["k", "k"], T=ty("float"))
    one = {"a.npy": npy("<f4", (2,), f32(1, 2)), "b.npy": npy("<f4", (2,), f32(3, 4))}
    fa, fb = "--feed=p={dir}/a.npy", "--feed=p={dir}/b.npy"
    runs = [
        ("same_feed_twice", ["y"], [fa, fb], None),
        ("same_feed_twice_alias", ["y"], [fa, "--feed=p:0={dir}/b.npy"], None),
        ("fetch_fed_tensor", ["p"], [fa], "[1. 2.]"),
        ("fetch_fed_and_its_consumer", ["p", "y"], [fa], "[-1. -2.]"),
        ("fetch_noop", ["n"], [fa], None),
        ("fetch_noop_output_0", ["n:0"], [fa], None),
        ("target_noop", [], [fa, "--target=n"], None),
        ("target_tensor_name", [], [fa, "--target=y:0"], None),
        ("fetch_output_past", ["y:1"], [fa], None),
        ("fetch_output_huge", ["y:99999999999999999999"], [fa], None),
        ("fetch_output_negative", ["y:-2"], [fa], None),
        ("fetch_output_not_number", ["y:x"], [fa], None),
        ("fetch_empty_name", [""], [fa], None),
        ("fetch_colon_only", [":0"], [fa], None),
        ("fetch_twice", ["y", "y:0"], [fa], "[-1. -2.]"),
        ("feed_const", ["z"], ["--feed=k={dir}/b.npy"], "[ 9. 16.]"),
        ("feed_const_wrong_dtype", ["z"], ["--feed=k={dir}/i.npy"], None),
        ("feed_const_wrong_shape", ["z"], ["--feed=k={dir}/c.npy"], None),
        ("feed_output_past", ["y"], ["--feed=p:3={dir}/a.npy"], None),
        ("feed_noop", ["y"], [fa, "--feed=n={dir}/a.npy"], None),
        ("feed_and_target_same", [], [fa, "--target=p"], None),
        ("feed_unused_placeholder_missing", ["z"], ["--feed=nope={dir}/a.npy"], None),
        ("feed_missing_file", ["y"], ["--feed=p={dir}/none.npy"], None),
        ("feed_directory", ["y"], ["--feed=p={dir}"], None),
        ("feed_no_equals", ["y"], ["--feed=p"], None),
        ("feed_fetch_same_consumer_fed", ["y"], [fa, "--feed=y={dir}/b.npy"], "[3. 4.]"),
    ]
    for label, fetch, args, expect in runs:
        fl = dict(one)
        fl["i.npy"] = npy("<i4", (2,), struct.pack("<2i", 1, 2))
        fl["c.npy"] = npy("<f4", (3,), f32(1, 2, 3))
        case(cat, "feed_" + label, g, fetch, args, files=fl, expect=expect)
    # .npy layouts whose values must come through as numpy reads them.
    gi = G()
    gi.node("p", "Placeholder", dtype=ty("float"))
    gi.node("y", "Identity", ["p"], T=ty("float"))
    gd = G()
    gd.node("p", "Placeholder", dtype=ty("double"))
    gd.node("y", "Identity", ["p"], T=ty("double"))
    gl = G()
    gl.node("p", "Placeholder", dtype=ty("int64"))
    gl.node("y", "Identity", ["p"], T=ty("int64"))
    gb = G()
    gb.node("p", "Placeholder", dtype=ty("bool"))
    gb.node("y", "Identity", ["p"], T=ty("bool"))
    gs = G()
    gs.node("p", "Placeholder", dtype=ty("string"))
    gs.node("y", "Identity", ["p"], T=ty("string"))
    for label, graph, data, expect in [
            ("fortran_2x3", gi, npy("<f4", (2, 3), f32(1, 4, 2, 5, 3, 6), fortran=True),
             "[[1. 2. 3.]\n [4. 5. 6.]]"),
            ("fortran_2x2x2", gi, npy("<f4", (2, 2, 2), f32(1, 5, 3, 7, 2, 6, 4, 8),
                                      fortran=True),
             "[[[1. 2.]\n  [3. 4.]]\n\n [[5. 6.]\n  [7. 8.]]]"),
            ("fortran_1d", gi, npy("<f4", (3,), f32(1, 2, 3), fortran=True), "[1. 2. 3.]"),
            ("fortran_empty", gi, npy("<f4", (0, 3), b"", fortran=True), "[]"),
            ("big_endian_f4", gi, npy(">f4", (2,), struct.pack(">2f", 1.5, -2)), "[ 1.5 -2. ]"),
            ("big_endian_f8", gd, npy(">f8", (2,), struct.pack(">2d", 1.5, -2)), "[ 1.5 -2. ]"),
            ("big_endian_i8", gl, npy(">i8", (2,), struct.pack(">2q", 1, -2)), "[ 1 -2]"),
            ("big_endian_fortran", gi, npy(">f4", (2, 2), struct.pack(">4f", 1, 3, 2, 4),
                                           fortran=True), "[[1. 2.]\n [3. 4.]]"),
            ("native_byteorder_eq", gi, npy("=f4", (2,), f32(1, 2)), "[1. 2.]"),
            ("not_applicable_order", gb, npy("|b1", (2,), b"\x01\x00"), "[ True False]"),
            ("bool_byte_2", gb, npy("|b1", (2,), b"\x02\x00"), None),
            ("f2_for_float", gi, npy("<f2", (2,), b"\x00\x3c\x00\x40"), None),
            ("i4_for_float", gi, npy("<i4", (2,), struct.pack("<2i", 1, 2)), None),
            ("unicode_for_string", gs, npy("<U2", (2,), "ab\0\0cd\0\0".encode("utf-32-le")
                                           if False else "abcd".encode("utf-32-le")), None),
            ("bytes_for_string", gs, npy("|S2", (2,), b"abcd"), "[b'ab' b'cd']"),
            ("bytes_nul_padded", gs, npy("|S3", (2,), b"a\0\0bc\0"), "[b'a' b'bc']"),
            ("object_for_string", gs, npy("|O", (1,), b"\x80\x02]q\x00."), None),
            ("structured", gi, npy("[('a', '<f4'), ('b', '<f4')]", (1,), f32(1, 2)), None),
            ("header_shape_more_data", gi, npy("<f4", (1,), f32(1, 2)), None),
            ("header_shape_less_data", gi, npy("<f4", (3,), f32(1, 2)), None),
            ("header_fortran_string", gi, npy("<f4", (2,), f32(1, 2)).replace(
                b"'fortran_order': False", b"'fortran_order': 'no' "), None),
            ("header_fortran_int", gi, npy("<f4", (2,), f32(1, 2)).replace(
                b"'fortran_order': False", b"'fortran_order': 1    "), None),
            ("header_extra_key", gi, npy("<f4", (2,), f32(1, 2), extra="'x': 1, "), None),
            ("header_shape_float", gi, npy("<f4", (2,), f32(1, 2)).replace(b"(2,)", b"(2.)"),
             None),
            ("header_shape_bool", gi, npy("<f4", (1,), f32(1)).replace(b"(1,)", b"(True,)"),
             None),
            ("header_dup_key", gi, npy("<f4", (2,), f32(1, 2), extra="'shape': (1,), "), None),
            ("header_descr_dtype_code", gi, npy("<f4", (2,), f32(1, 2)).replace(
                b"'<f4'", b"'f4' "), "[1. 2.]"),
            ("header_descr_byte_char", gi, npy("<f4", (2,), f32(1, 2)).replace(
                b"'<f4'", b"'<f' "), None)]:
        case(cat, "npy_" + label, graph, "y", ["--feed=p={dir}/x.npy"],
             files={"x.npy": data}, expect=expect)


# ---------------------------------------------------------------------------------------------
# Graph structure.


def gen_structure():
    cat = "structure"

    def enter(g, name, x, frame, const=False, pi=10):
        return g.node(name, "Enter", [x], T=ty("float"), frame_name=s(frame),
                      is_constant="b: %s" % ("true" if const else "false"),
                      parallel_iterations=i(pi))

    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "Exit", ["x"], T=ty("float"))
    case(cat, "exit_without_enter", g, "y")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "NextIteration", ["x"], T=ty("float"))
    case(cat, "next_iteration_without_merge", g, "y")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    c(g, "w", "float", [3.0, 4.0])
    g.node("y", "Merge", ["x", "w"], T=ty("float"), N=i(2))
    case(cat, "merge_two_live_inputs", g, "y", expect="[1. 2.]")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "Merge", ["x", "x"], T=ty("float"), N=i(2))
    case(cat, "merge_same_input_twice", g, "y")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "Merge", ["x"], T=ty("float"), N=i(1))
    case(cat, "merge_one_input", g, "y", expect="[1. 2.]")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    enter(g, "e", "x", "f1")
    g.node("y", "Exit", ["e"], T=ty("float"))
    case(cat, "enter_exit_no_loop", g, "y")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    enter(g, "e1", "x", "f1")
    enter(g, "e2", "x", "f2")
    g.node("a", "Add", ["e1", "e2"], T=ty("float"))
    g.node("y", "Exit", ["a"], T=ty("float"))
    case(cat, "enter_two_frames_joined", g, "y")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    enter(g, "e1", "x", "f1")
    enter(g, "e2", "e1", "f1")
    g.node("y1", "Exit", ["e2"], T=ty("float"))
    g.node("y", "Exit", ["y1"], T=ty("float"))
    case(cat, "enter_nested_same_name", g, "y")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    enter(g, "e1", "x", "f1", pi=0)
    g.node("y", "Exit", ["e1"], T=ty("float"))
    case(cat, "enter_parallel_iterations_0", g, "y")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    enter(g, "e1", "x", "")
    g.node("y", "Exit", ["e1"], T=ty("float"))
    case(cat, "enter_empty_frame_name", g, "y")
    # A proper loop whose NextIteration feeds a Merge of another frame.
    g = G()
    c(g, "x", "float", 0.0)
    c(g, "lim", "float", 3.0)
    c(g, "one", "float", 1.0)
    enter(g, "e", "x", "A")
    enter(g, "l", "lim", "B", const=True)
    enter(g, "o", "one", "A", const=True)
    g.node("m", "Merge", ["e", "ni"], T=ty("float"), N=i(2))
    g.node("lt", "Less", ["m", "l"], T=ty("float"))
    g.node("lc", "LoopCond", ["lt"])
    g.node("sw", "Switch", ["m", "lc"], T=ty("float"))
    g.node("add", "Add", ["sw:1", "o"], T=ty("float"))
    g.node("ni", "NextIteration", ["add"], T=ty("float"))
    g.node("y", "Exit", ["sw"], T=ty("float"))
    case(cat, "loop_invariant_other_frame", g, "y")
    lines = g.nodes
    g2 = G()
    g2.nodes = [n.replace('"B"', '"A"') for n in lines]
    case(cat, "loop_good", g2, "y", expect="3.0")
    g3 = G()
    g3.nodes = [n for n in g2.nodes if '"lc"' not in n.split(" op:")[0]] + []
    g3.nodes = [n.replace('input: "lc"', 'input: "lt"') for n in g3.nodes]
    case(cat, "loop_without_loopcond", g3, "y")
    g4 = G()
    g4.nodes = [n.replace('input: "add"', 'input: "sw:1"') for n in g2.nodes]
    g5 = G()
    g5.nodes = [n for n in g2.nodes if '"y"' not in n.split(" op:")[0]]
    g5.node("y", "Identity", ["sw"], T=ty("float"))
    case(cat, "loop_output_without_exit", g5, "y")
    g6 = G()
    g6.nodes = [n.replace('input: "sw:1"', 'input: "m"') for n in g2.nodes]
    # Those two never end (nor in TensorFlow); operation_timeout_in_ms must stop them.
    case(cat, "loop_next_iteration_from_switch_timeout", g4, "y",
         config="operation_timeout_in_ms: 2000")
    case(cat, "loop_body_skips_switch_timeout", g6, "y", config="operation_timeout_in_ms: 2000")
    # Cycles without loop structure.
    g = G()
    c(g, "x", "float", [1.0])
    g.node("a", "Add", ["x", "b"], T=ty("float"))
    g.node("b", "Neg", ["a"], T=ty("float"))
    case(cat, "cycle_two_nodes", g, "b")
    g = G()
    g.node("a", "Neg", ["a"], T=ty("float"))
    case(cat, "cycle_self", g, "a")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("a", "Identity", ["x", "^b"], T=ty("float"))
    g.node("b", "Identity", ["a"], T=ty("float"))
    case(cat, "cycle_through_control", g, "b")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("a", "NoOp", ["^a"])
    g.node("y", "Identity", ["x", "^a"], T=ty("float"))
    case(cat, "cycle_control_self", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("m", "Merge", ["x", "n"], T=ty("float"), N=i(2))
    g.node("n", "Neg", ["m"], T=ty("float"))
    case(cat, "cycle_through_merge_no_frame", g, "m")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("m", "Merge", ["x", "ni"], T=ty("float"), N=i(2))
    g.node("ni", "NextIteration", ["m"], T=ty("float"))
    case(cat, "cycle_merge_next_iteration_no_enter", g, "m")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("a", "Add", ["x", "c2"], T=ty("float"))
    for k in range(1, 2000):
        g.node("c%d" % k if k > 1 else "c1", "Neg", ["a" if k == 1 else "c%d" % (k - 1)],
               T=ty("float"))
    g.node("y", "Identity", ["c1999"], T=ty("float"))
    case(cat, "cycle_long", g, "y")
    # Lying attrs.
    g = G()
    g.node("x", "Const", dtype=ty("float"), value="tensor { dtype: DT_FLOAT tensor_shape { dim "
           "{ size: 2 } } float_val: 1 float_val: 2 }", _output_shapes=lshape([[3, 3]]))
    g.node("y", "Neg", ["x"], T=ty("float"), _output_shapes=lshape([[7]]))
    g.node("s", "Shape", ["y"], T=ty("float"), out_type=ty("int32"))
    case(cat, "output_shapes_lie", g, ["y", "s"], expect="[2]")
    g = G()
    g.node("x", "Const", dtype=ty("float"), value="tensor { dtype: DT_FLOAT tensor_shape { dim "
           "{ size: 2 } } float_val: 1 float_val: 2 }", _output_shapes="list { shape { "
           "unknown_rank: true } shape { dim { size: -5 } } }")
    g.node("y", "Neg", ["x"], T=ty("float"))
    case(cat, "output_shapes_count_lie", g, "y", expect="[-1. -2.]")
    g = G()
    g.node("x", "Placeholder", dtype=ty("float"), shape=shp([2]), _output_shapes=lshape([[5]]))
    g.node("y", "Neg", ["x"], T=ty("float"))
    case(cat, "output_shapes_placeholder_lie", g, "y", ["--feed=x={dir}/a.npy"],
         files={"a.npy": npy("<f4", (2,), f32(1, 2))}, expect="[-1. -2.]")
    g = G()
    g.node("x", "Placeholder", dtype=ty("float"), _output_shapes="i: 3")
    case(cat, "output_shapes_wrong_kind", g, "x", ["--feed=x={dir}/a.npy"],
         files={"a.npy": npy("<f4", (2,), f32(1, 2))})
    for label, cls in [("missing", 'list { s: "loc:@nope" }'),
                       ("self", 'list { s: "loc:@y" }'),
                       ("not_loc", 'list { s: "garbage" }'),
                       ("empty", 'list { s: "loc:@" }'),
                       ("wrong_kind", "i: 5"),
                       ("cycle", 'list { s: "loc:@z" }')]:
        g = G()
        c(g, "x", "float", [1.0, 2.0])
        g.node("y", "Neg", ["x"], T=ty("float"), _class=cls)
        g.node("z", "Neg", ["y"], T=ty("float"), _class='list { s: "loc:@y" }')
        case(cat, "class_" + label, g, "z", expect="[1. 2.]")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "Neg", ["x"], T=ty("float"), _class='list { s: "loc:@x" }',
           device="/device:CPU:0")
    g.node("z", "Neg", ["y"], T=ty("float"), _class='list { s: "loc:@y" }',
           device="/device:GPU:0")
    case(cat, "class_conflicting_devices", g, "z")
    # Func attrs naming what is missing.
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "PartitionedCall", ["x"], Tin=ltype(["float"]), Tout=ltype(["float"]),
           f=fn("missing"))
    case(cat, "func_missing_partitioned", g, "y")
    g = G()
    c(g, "x", "int32", 0)
    g.node("y", "While", ["x"], T=ltype(["int32"]), cond=fn("nope"), body=fn("nope2"))
    case(cat, "func_missing_while", g, "y")
    g = G()
    c(g, "b", "bool", True)
    c(g, "x", "float", [1.0])
    g.node("y", "If", ["b", "x"], Tcond=ty("bool"), Tin=ltype(["float"]),
           Tout=ltype(["float"]), then_branch=fn("nope"), else_branch=fn("nope"))
    case(cat, "func_missing_if", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "PartitionedCall", ["x"], Tin=ltype(["float"]), Tout=ltype(["float"]),
           f="i: 3")
    case(cat, "func_attr_wrong_kind", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "PartitionedCall", ["x"], Tin=ltype(["float"]), Tout=ltype(["float"]),
           f='placeholder: "f"')
    case(cat, "func_attr_placeholder_outside", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["x"], T='placeholder: "T"')
    case(cat, "type_attr_placeholder_outside", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["x"], T="list { type: DT_FLOAT }")
    case(cat, "type_attr_list", g, "y")
    ident = ('node_def { name: "i" op: "Identity" input: "x" attr { key: "T" value { type: '
             'DT_FLOAT } } } ret { key: "y" value: "i:output:0" }')
    sigf = ('signature { name: "f" input_arg { name: "x" type: DT_FLOAT } output_arg { name: '
            '"y" type: DT_FLOAT } }')
    for label, lib in [
            ("gradient_missing", 'function { %s %s } gradient { function_name: "f" '
                                 'gradient_func: "nope" }' % (sigf, ident)),
            ("gradient_self", 'function { %s %s } gradient { function_name: "f" '
                              'gradient_func: "f" }' % (sigf, ident)),
            ("gradient_for_missing", 'function { %s %s } gradient { function_name: "nope" '
                                     'gradient_func: "f" }' % (sigf, ident)),
            ("gradient_duplicate", 'function { %s %s } gradient { function_name: "f" '
                                   'gradient_func: "f" } gradient { function_name: "f" '
                                   'gradient_func: "g" }' % (sigf, ident)),
            ("func_node_attr_wrong_kind", 'function { %s node_def { name: "i" op: "Identity" '
                                          'input: "x" attr { key: "T" value { i: 1 } } } ret { '
                                          'key: "y" value: "i:output:0" } }' % sigf),
            ("func_attr_value_wrong_kind", 'function { %s %s attr { key: "_noinline" value { '
                                           's: "yes" } } }' % (sigf, ident)),
            ("func_arg_attr_index_past", 'function { %s %s arg_attr { key: 7 value { attr { '
                                         'key: "_output_shapes" value { i: 1 } } } } }'
             % (sigf, ident)),
            ("func_resource_arg_unique_id", 'function { %s %s resource_arg_unique_id { key: 9 '
                                            'value: 99 } }' % (sigf, ident)),
            ("func_calls_missing", 'function { %s node_def { name: "i" op: "nope_fn" input: "x"'
                                   ' } ret { key: "y" value: "i:output:0" } }' % sigf)]:
        g = G()
        c(g, "x", "float", [1.0, 2.0])
        g.node("y", "f", ["x"])
        g.library = lib
        case(cat, "lib_" + label, g, "y")
    # Names.
    long_name = "n" * 100000
    g = G()
    c(g, long_name, "float", [1.0, 2.0])
    g.node("y", "Neg", [long_name], T=ty("float"))
    case(cat, "name_100k", g, "y", expect="[-1. -2.]")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "Neg", ["x"], T=ty("float"))
    case(cat, "fetch_name_100k", g, long_name)
    for label, raw in [("non_utf8", b"x\xff\xfe"), ("nul", b"x\0y"), ("newline", b"x\ny"),
                       ("colon", b"x:1"), ("caret", b"^x"), ("slash_end", b"x/"),
                       ("empty", b""), ("space", b"x y"), ("utf8_bidi", "x\u202ey".encode()),
                       ("underscore_start", b"_x"), ("dash_start", b"-x")]:
        g = G()
        g.nodes.append('node { name: %s op: "Const" attr { key: "dtype" value { type: DT_FLOAT'
                       ' } } attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {'
                       ' dim { size: 1 } } float_val: 3 } } } }' % esc(raw))
        g.nodes.append('node { name: "y" op: "Neg" input: %s attr { key: "T" value { type: '
                       'DT_FLOAT } } }' % esc(raw))
        case(cat, "name_" + label, g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    c(g, "x", "float", [2.0])
    g.node("y", "Neg", ["x"], T=ty("float"))
    case(cat, "name_duplicate", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["x:1"], T=ty("float"))
    case(cat, "input_index_past", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["x:-1"], T=ty("float"))
    case(cat, "input_index_negative", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["^x", "x"], T=ty("float"))
    case(cat, "input_control_before_data", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["x", "^nope"], T=ty("float"))
    case(cat, "input_control_missing", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["x", "^x", "^x", "^x"], T=ty("float"))
    case(cat, "input_control_repeated", g, "y", expect="[-1.]")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["x"], T=ty("float"), device="/device:CPU:0" + "/x" * 5000)
    case(cat, "device_name_huge", g, "y")
    g = G()
    c(g, "x", "float", [1.0])
    g.node("y", "Neg", ["x"], T=ty("float"), device="/job:localhost/replica:0/task:0/device:"
           "CPU:99999999999999999999")
    case(cat, "device_index_overflow", g, "y")
    g = G()
    g.nodes.append('node { name: "y" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }'
                   ' attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { '
                   'size: 1 } } float_val: 3 } } } experimental_debug_info { original_node_names:'
                   ' "%s" } }' % ("a" * 100000))
    case(cat, "debug_info_huge", g, "y", expect="[3.]")


# ---------------------------------------------------------------------------------------------
# Stateful ops misused.


def gen_stateful():
    cat = "stateful"

    def var(g, name="v", dtype="float", dims=(2,)):
        g.node(name, "VarHandleOp", dtype=ty(dtype), shape=shp(list(dims)), shared_name=s(name))

    g = G()
    var(g)
    g.node("y", "ReadVariableOp", ["v"], dtype=ty("float"))
    case(cat, "read_uninitialized_resource", g, "y")
    g = G()
    g.node("v", "VariableV2", dtype=ty("float"), shape=shp([2]))
    g.node("y", "Identity", ["v"], T=ty("float"))
    case(cat, "read_uninitialized_ref", g, "y")
    g = G()
    var(g)
    c(g, "x", "int32", [1, 2])
    g.node("a", "AssignVariableOp", ["v", "x"], dtype=ty("int32"))
    g.node("y", "ReadVariableOp", ["v", "^a"], dtype=ty("float"))
    case(cat, "assign_other_dtype", g, "y")
    g = G()
    var(g)
    c(g, "x", "float", [1.0, 2.0, 3.0])
    g.node("a", "AssignVariableOp", ["v", "x"], dtype=ty("float"))
    g.node("y", "ReadVariableOp", ["v", "^a"], dtype=ty("float"))
    case(cat, "assign_other_shape_resource", g, "y")
    g = G()
    var(g)
    c(g, "x", "float", [1.0, 2.0])
    c(g, "x3", "float", [1.0, 2.0, 3.0])
    g.node("a", "AssignVariableOp", ["v", "x"], dtype=ty("float"))
    g.node("b", "AssignAddVariableOp", ["v", "x3", "^a"], dtype=ty("float"))
    g.node("y", "ReadVariableOp", ["v", "^b"], dtype=ty("float"))
    case(cat, "assign_add_other_shape", g, "y")
    g = G()
    var(g)
    c(g, "x", "float", [1.0, 2.0])
    g.node("a", "AssignVariableOp", ["v", "x"], dtype=ty("float"))
    g.node("y", "ReadVariableOp", ["v", "^a"], dtype=ty("int32"))
    case(cat, "read_other_dtype", g, "y")
    g = G()
    g.node("v", "VariableV2", dtype=ty("float"), shape=shp([2]))
    c(g, "x", "float", [1.0, 2.0, 3.0])
    g.node("a", "Assign", ["v", "x"], T=ty("float"))
    case(cat, "assign_ref_other_shape", g, "a")
    g = G()
    g.node("v", "VariableV2", dtype=ty("float"), shape=shp([2]))
    c(g, "x", "int32", [1, 2])
    g.node("a", "Assign", ["v", "x"], T=ty("int32"))
    case(cat, "assign_ref_other_dtype", g, "a")
    g = G()
    g.node("v", "VariableV2", dtype=ty("float"), shape=shp([2]))
    c(g, "x", "float", [1.0, 2.0])
    g.node("a", "AssignAdd", ["v", "x"], T=ty("float"))
    case(cat, "assign_add_uninitialized_ref", g, "a")
    g = G()
    var(g)
    c(g, "x", "float", [1.0, 2.0])
    g.node("a", "AssignSubVariableOp", ["v", "x"], dtype=ty("float"))
    case(cat, "assign_sub_uninitialized", g, [], ["--target=a"])
    g = G()
    var(g)
    c(g, "idx", "int32", [5])
    g.node("y", "ResourceGather", ["v", "idx"], dtype=ty("float"), Tindices=ty("int32"))
    case(cat, "gather_uninitialized", g, "y")
    g = G()
    var(g, dims=(2,))
    var(g, "w", dims=(2,))
    g.node("a", "AssignVariableOp", ["v", "w"], dtype=ty("resource"))
    case(cat, "assign_resource_to_resource", g, [], ["--target=a"])
    g = G()
    var(g, "v", "float", ())
    g.node("v2", "VarHandleOp", dtype=ty("int32"), shape=shp([]), shared_name=s("v"))
    c(g, "x", "float", 1.0)
    g.node("a", "AssignVariableOp", ["v", "x"], dtype=ty("float"))
    g.node("y", "ReadVariableOp", ["v2", "^a"], dtype=ty("int32"))
    case(cat, "shared_name_two_dtypes", g, "y")
    g = G()
    var(g)
    g.node("d", "DestroyResourceOp", ["v"])
    g.node("y", "ReadVariableOp", ["v", "^d"], dtype=ty("float"))
    case(cat, "destroy_uninitialized", g, "y")
    g = G()
    var(g)
    c(g, "x", "float", [1.0, 2.0])
    g.node("a", "AssignVariableOp", ["v", "x"], dtype=ty("float"))
    g.node("d", "DestroyResourceOp", ["v", "^a"])
    g.node("y", "ReadVariableOp", ["v", "^d"], dtype=ty("float"))
    case(cat, "read_after_destroy", g, "y")
    g = G()
    var(g)
    g.node("y", "VarIsInitializedOp", ["v"])
    case(cat, "is_initialized", g, "y", expect="False")
    # TensorArrays and TensorLists.
    c_size = lambda g, n=2: c(g, "size", "int32", n)  # noqa: E731
    g = G()
    c_size(g)
    g.node("ta", "TensorArrayV3", ["size"], dtype=ty("float"), element_shape=shp(None))
    c(g, "i0", "int32", 0)
    g.node("y", "TensorArrayReadV3", ["ta", "i0", "ta:1"], dtype=ty("float"))
    case(cat, "tensor_array_read_before_write", g, "y")
    g = G()
    c_size(g)
    g.node("ta", "TensorArrayV3", ["size"], dtype=ty("float"), element_shape=shp([2]))
    c(g, "i0", "int32", 0)
    g.node("y", "TensorArrayReadV3", ["ta", "i0", "ta:1"], dtype=ty("float"))
    case(cat, "tensor_array_read_before_write_known_shape", g, "y", expect="[0. 0.]")
    g = G()
    c_size(g)
    g.node("ta", "TensorArrayV3", ["size"], dtype=ty("float"), element_shape=shp([2]))
    c(g, "i0", "int32", 0)
    c(g, "x", "float", [1.0, 2.0, 3.0])
    g.node("w", "TensorArrayWriteV3", ["ta", "i0", "x", "ta:1"], T=ty("float"))
    g.node("y", "TensorArrayReadV3", ["ta", "i0", "w"], dtype=ty("float"))
    case(cat, "tensor_array_write_element_shape_mismatch", g, "y")
    g = G()
    c_size(g)
    g.node("ta", "TensorArrayV3", ["size"], dtype=ty("float"), element_shape=shp(None))
    c(g, "i0", "int32", 0)
    c(g, "x", "float", [1.0, 2.0])
    g.node("w", "TensorArrayWriteV3", ["ta", "i0", "x", "ta:1"], T=ty("float"))
    g.node("w2", "TensorArrayWriteV3", ["ta", "i0", "x", "w"], T=ty("float"))
    case(cat, "tensor_array_write_twice", g, "w2")
    g = G()
    c_size(g)
    g.node("ta", "TensorArrayV3", ["size"], dtype=ty("float"), element_shape=shp(None))
    c(g, "i0", "int32", 0)
    c(g, "x", "int32", [1, 2])
    g.node("w", "TensorArrayWriteV3", ["ta", "i0", "x", "ta:1"], T=ty("int32"))
    case(cat, "tensor_array_write_other_dtype", g, "w")
    g = G()
    c_size(g)
    g.node("ta", "TensorArrayV3", ["size"], dtype=ty("float"), element_shape=shp(None))
    c(g, "i0", "int32", 0)
    c(g, "x", "float", [1.0, 2.0])
    c(g, "x3", "float", [1.0, 2.0, 3.0])
    c(g, "i1", "int32", 1)
    g.node("w", "TensorArrayWriteV3", ["ta", "i0", "x", "ta:1"], T=ty("float"))
    g.node("w2", "TensorArrayWriteV3", ["ta", "i1", "x3", "w"], T=ty("float"))
    g.node("y", "TensorArrayStackV3" if False else "TensorArrayGatherV3",
           ["ta", "idx", "w2"], dtype=ty("float"), element_shape=shp(None))
    c(g, "idx", "int32", [0, 1])
    case(cat, "tensor_array_gather_ragged", g, "y")
    g = G()
    c_size(g)
    g.node("ta", "TensorArrayV3", ["size"], dtype=ty("float"), element_shape=shp(None))
    g.node("cl", "TensorArrayCloseV3", ["ta"])
    c(g, "i0", "int32", 0)
    c(g, "x", "float", [1.0, 2.0])
    g.node("w", "TensorArrayWriteV3", ["ta", "i0", "x", "ta:1", "^cl"], T=ty("float"))
    case(cat, "tensor_array_write_after_close", g, "w")
    g = G()
    c_size(g, 0)
    g.node("ta", "TensorArrayV3", ["size"], dtype=ty("float"), element_shape=shp(None))
    c(g, "idx", "int32", [0])
    g.node("y", "TensorArrayGatherV3", ["ta", "idx", "ta:1"], dtype=ty("float"),
           element_shape=shp(None))
    case(cat, "tensor_array_gather_empty", g, "y")
    g = G()
    c(g, "es", "int32", [2])
    c(g, "n", "int32", 2)
    g.node("l", "TensorListReserve", ["es", "n"], element_dtype=ty("float"),
           shape_type=ty("int32"))
    c(g, "i0", "int32", 0)
    g.node("y", "TensorListGetItem", ["l", "i0", "es"], element_dtype=ty("float"))
    case(cat, "tensor_list_get_before_set", g, "y", expect="[0. 0.]")
    g = G()
    c(g, "es", "int32", -1)
    c(g, "n", "int32", 2)
    g.node("l", "TensorListReserve", ["es", "n"], element_dtype=ty("float"),
           shape_type=ty("int32"))
    c(g, "i0", "int32", 0)
    g.node("y", "TensorListGetItem", ["l", "i0", "es"], element_dtype=ty("float"))
    case(cat, "tensor_list_get_before_set_unknown", g, "y")
    g = G()
    c(g, "es", "int32", [2])
    c(g, "n", "int32", 2)
    g.node("l", "TensorListReserve", ["es", "n"], element_dtype=ty("float"),
           shape_type=ty("int32"))
    c(g, "i0", "int32", 0)
    c(g, "x", "float", [1.0, 2.0, 3.0])
    g.node("s", "TensorListSetItem", ["l", "i0", "x"], element_dtype=ty("float"))
    case(cat, "tensor_list_set_shape_mismatch", g, "s")
    g = G()
    c(g, "es", "int32", [2])
    c(g, "n", "int32", 2)
    g.node("l", "TensorListReserve", ["es", "n"], element_dtype=ty("float"),
           shape_type=ty("int32"))
    c(g, "es3", "int32", [3])
    g.node("y", "TensorListStack", ["l", "es3"], element_dtype=ty("float"),
           num_elements=i(-1))
    case(cat, "tensor_list_stack_shape_mismatch", g, "y")
    g = G()
    c(g, "es", "int32", [2])
    c(g, "n", "int32", 2)
    g.node("l", "TensorListReserve", ["es", "n"], element_dtype=ty("float"),
           shape_type=ty("int32"))
    g.node("y", "TensorListStack", ["l", "es"], element_dtype=ty("int32"), num_elements=i(-1))
    case(cat, "tensor_list_stack_other_dtype", g, "y")
    g = G()
    c(g, "es", "int32", [2])
    c(g, "n", "int32", 2)
    g.node("l", "TensorListReserve", ["es", "n"], element_dtype=ty("float"),
           shape_type=ty("int32"))
    g.node("y", "TensorListStack", ["l", "es"], element_dtype=ty("float"), num_elements=i(5))
    case(cat, "tensor_list_stack_num_elements_wrong", g, "y")
    g = G()
    c(g, "es", "int32", [2])
    g.node("l", "EmptyTensorList", ["es", "mx"], element_dtype=ty("float"),
           shape_type=ty("int32"))
    c(g, "mx", "int32", 1)
    c(g, "x", "float", [1.0, 2.0])
    g.node("p1", "TensorListPushBack", ["l", "x"], element_dtype=ty("float"))
    g.node("p2", "TensorListPushBack", ["p1", "x"], element_dtype=ty("float"))
    g.node("y", "TensorListLength", ["p2"])
    case(cat, "tensor_list_push_past_max", g, "y")
    g = G()
    c(g, "es", "int32", [2])
    c(g, "mx", "int32", -1)
    g.node("l", "EmptyTensorList", ["es", "mx"], element_dtype=ty("float"),
           shape_type=ty("int32"))
    g.node("y", "TensorListPopBack", ["l", "es"], element_dtype=ty("float"))
    case(cat, "tensor_list_pop_empty", g, "y:1")
    # Lookup tables.
    g = G()
    g.node("t", "HashTableV2", key_dtype=ty("string"), value_dtype=ty("int64"))
    c(g, "k", "string", [b"a"])
    c(g, "d", "int64", -1)
    g.node("y", "LookupTableFindV2", ["t", "k", "d"], Tin=ty("string"), Tout=ty("int64"))
    case(cat, "table_find_uninitialized", g, "y")
    g = G()
    g.node("t", "HashTableV2", key_dtype=ty("string"), value_dtype=ty("int64"))
    c(g, "ik", "string", [b"a", b"b"])
    c(g, "iv", "int64", [1, 2])
    g.node("init", "InitializeTableV2", ["t", "ik", "iv"], Tkey=ty("string"), Tval=ty("int64"))
    c(g, "k", "int64", [1])
    c(g, "d", "int64", -1)
    g.node("y", "LookupTableFindV2", ["t", "k", "d", "^init"], Tin=ty("int64"),
           Tout=ty("int64"))
    case(cat, "table_find_other_key_dtype", g, "y")
    g = G()
    g.node("t", "HashTableV2", key_dtype=ty("string"), value_dtype=ty("int64"))
    c(g, "ik", "string", [b"a", b"b"])
    c(g, "iv", "int64", [1, 2])
    g.node("init", "InitializeTableV2", ["t", "ik", "iv"], Tkey=ty("string"), Tval=ty("int64"))
    c(g, "k", "string", [b"a"])
    c(g, "d", "float", -1.0)
    g.node("y", "LookupTableFindV2", ["t", "k", "d", "^init"], Tin=ty("string"),
           Tout=ty("float"))
    case(cat, "table_find_other_value_dtype", g, "y")
    g = G()
    g.node("t", "HashTableV2", key_dtype=ty("string"), value_dtype=ty("int64"))
    c(g, "ik", "string", [b"a", b"b", b"c"])
    c(g, "iv", "int64", [1, 2])
    g.node("init", "InitializeTableV2", ["t", "ik", "iv"], Tkey=ty("string"), Tval=ty("int64"))
    case(cat, "table_init_size_mismatch", g, [], ["--target=init"])
    g = G()
    g.node("t", "HashTableV2", key_dtype=ty("string"), value_dtype=ty("int64"))
    c(g, "ik", "string", [b"a", b"a"])
    c(g, "iv", "int64", [1, 2])
    g.node("init", "InitializeTableV2", ["t", "ik", "iv"], Tkey=ty("string"), Tval=ty("int64"))
    case(cat, "table_init_duplicate_keys", g, [], ["--target=init"])
    g = G()
    g.node("t", "HashTableV2", key_dtype=ty("string"), value_dtype=ty("int64"))
    c(g, "ik", "string", [b"a"])
    c(g, "iv", "int64", [1])
    g.node("init", "InitializeTableV2", ["t", "ik", "iv"], Tkey=ty("string"), Tval=ty("int64"))
    g.node("init2", "InitializeTableV2", ["t", "ik", "iv", "^init"], Tkey=ty("string"),
           Tval=ty("int64"))
    case(cat, "table_init_twice", g, [], ["--target=init2"])
    g = G()
    g.node("t", "HashTableV2", key_dtype=ty("int64"), value_dtype=ty("int64"))
    c(g, "ik", "int64", [1], shape=[1, 1])
    c(g, "iv", "int64", [1])
    g.node("init", "InitializeTableV2", ["t", "ik", "iv"], Tkey=ty("int64"), Tval=ty("int64"))
    case(cat, "table_init_keys_rank2", g, [], ["--target=init"])
    g = G()
    g.node("t", "MutableHashTableV2", key_dtype=ty("int64"), value_dtype=ty("float"),
           value_shape=shp([2]))
    c(g, "k", "int64", [1, 2])
    c(g, "v", "float", [1.0, 2.0])
    g.node("ins", "LookupTableInsertV2", ["t", "k", "v"], Tin=ty("int64"), Tout=ty("float"))
    case(cat, "mutable_table_insert_value_shape_mismatch", g, [], ["--target=ins"])
    g = G()
    g.node("t", "MutableDenseHashTableV2", ["ek", "dk"], key_dtype=ty("int64"),
           value_dtype=ty("float"), value_shape=shp([]), initial_num_buckets=i(3))
    c(g, "ek", "int64", 0)
    c(g, "dk", "int64", 0)
    case(cat, "dense_table_empty_eq_deleted", g, "t")
    g = G()
    g.node("t", "MutableDenseHashTableV2", ["ek", "dk"], key_dtype=ty("int64"),
           value_dtype=ty("float"), value_shape=shp([]), initial_num_buckets=i(-8))
    c(g, "ek", "int64", 0)
    c(g, "dk", "int64", 1)
    case(cat, "dense_table_negative_buckets", g, "t")
    g = G()
    g.node("t", "MutableHashTableV2", key_dtype=ty("int64"), value_dtype=ty("float"))
    c(g, "k", "int64", [1, 2])
    c(g, "v", "float", [1.0])
    g.node("imp", "LookupTableImportV2", ["t", "k", "v"], Tin=ty("int64"), Tout=ty("float"))
    case(cat, "table_import_size_mismatch", g, [], ["--target=imp"])
    # Queues and stacks.
    g = G()
    g.node("q", "FIFOQueueV2", component_types=ltype(["float"]), capacity=i(2))
    g.node("y", "QueueDequeueV2", ["q"], component_types=ltype(["float"]), timeout_ms=i(-1))
    case(cat, "queue_dequeue_empty_with_timeout", g, "y", config="operation_timeout_in_ms: 500")
    g = G()
    g.node("q", "FIFOQueueV2", component_types=ltype(["float"]), capacity=i(2))
    g.node("cl", "QueueCloseV2", ["q"])
    g.node("y", "QueueDequeueV2", ["q", "^cl"], component_types=ltype(["float"]))
    case(cat, "queue_dequeue_closed", g, "y")
    g = G()
    g.node("q", "FIFOQueueV2", component_types=ltype(["float"]), capacity=i(1))
    c(g, "x", "float", 1.0)
    g.node("e1", "QueueEnqueueV2", ["q", "x"], Tcomponents=ltype(["float"]))
    g.node("e2", "QueueEnqueueV2", ["q", "x", "^e1"], Tcomponents=ltype(["float"]))
    case(cat, "queue_enqueue_full_with_timeout", g, [], ["--target=e2"],
         config="operation_timeout_in_ms: 500")
    g = G()
    g.node("q", "FIFOQueueV2", component_types=ltype(["float"]), capacity=i(2),
           shapes=lshape([[2]]))
    c(g, "x", "float", [1.0, 2.0, 3.0])
    g.node("e", "QueueEnqueueV2", ["q", "x"], Tcomponents=ltype(["float"]))
    case(cat, "queue_enqueue_shape_mismatch", g, [], ["--target=e"])
    g = G()
    g.node("q", "FIFOQueueV2", component_types=ltype(["float"]), capacity=i(2))
    c(g, "x", "int32", 1)
    g.node("e", "QueueEnqueueV2", ["q", "x"], Tcomponents=ltype(["int32"]))
    case(cat, "queue_enqueue_other_dtype", g, [], ["--target=e"])
    g = G()
    g.node("q", "FIFOQueueV2", component_types=ltype(["float"]), capacity=i(-5))
    case(cat, "queue_negative_capacity", g, "q")
    g = G()
    g.node("q", "FIFOQueueV2", component_types=ltype(["float"]), capacity=i(2))
    c(g, "n", "int32", -3)
    g.node("y", "QueueDequeueManyV2", ["q", "n"], component_types=ltype(["float"]))
    case(cat, "queue_dequeue_many_negative", g, "y")
    g = G()
    c(g, "mx", "int32", 2)
    g.node("st", "StackV2", ["mx"], elem_type=ty("float"))
    g.node("y", "StackPopV2", ["st"], elem_type=ty("float"))
    case(cat, "stack_pop_empty", g, "y")
    g = G()
    c(g, "mx", "int32", 1)
    g.node("st", "StackV2", ["mx"], elem_type=ty("float"))
    c(g, "x", "float", 1.0)
    g.node("p1", "StackPushV2", ["st", "x"], T=ty("float"))
    g.node("p2", "StackPushV2", ["st", "x", "^p1"], T=ty("float"))
    case(cat, "stack_push_past_max", g, "p2")
    g = G()
    c(g, "mx", "int32", 1)
    g.node("st", "StackV2", ["mx"], elem_type=ty("float"))
    c(g, "x", "int32", 1)
    g.node("p1", "StackPushV2", ["st", "x"], T=ty("int32"))
    case(cat, "stack_push_other_dtype", g, "p1")
    # Many runs of one session: a variable read after a failed assignment keeps its value.
    g = G()
    var(g)
    c(g, "x", "float", [1.0, 2.0])
    c(g, "x3", "int32", [1, 2, 3])
    g.node("a", "AssignVariableOp", ["v", "x"], dtype=ty("float"))
    g.node("bad", "AssignVariableOp", ["v", "x3"], dtype=ty("int32"))
    g.node("y", "ReadVariableOp", ["v"], dtype=ty("float"))
    case(cat, "session_survives_failed_assign", g, [], ["--target=a", "--then", "--target=bad",
                                                          "--then", "--fetch=y"])


# ---------------------------------------------------------------------------------------------
# The leftovers: While parallel_iterations < 1, a function whose control_ret names a missing
# node, TopKV2 with NaN, AudioSpectrogram of +inf.


def gen_leftovers():
    cat = "leftovers"
    body = ('function { signature { name: "body" input_arg { name: "i" type: DT_INT32 } '
            'output_arg { name: "o" type: DT_INT32 } } node_def { name: "one" op: "Const" attr '
            '{ key: "dtype" value { type: DT_INT32 } } attr { key: "value" value { tensor { '
            'dtype: DT_INT32 tensor_shape {} int_val: 1 } } } } node_def { name: "a" op: "Add" '
            'input: "i" input: "one:output:0" attr { key: "T" value { type: DT_INT32 } } } ret '
            '{ key: "o" value: "a:z:0" } }')
    cond = ('function { signature { name: "cond" input_arg { name: "i" type: DT_INT32 } '
            'output_arg { name: "r" type: DT_BOOL } } node_def { name: "lim" op: "Const" attr {'
            ' key: "dtype" value { type: DT_INT32 } } attr { key: "value" value { tensor { '
            'dtype: DT_INT32 tensor_shape {} int_val: 5 } } } } node_def { name: "lt" op: '
            '"Less" input: "i" input: "lim:output:0" attr { key: "T" value { type: DT_INT32 } '
            '} } ret { key: "r" value: "lt:z:0" } }')
    for pi in (0, -1, -2147483648, 1):
        for op in ("While", "StatelessWhile"):
            g = G()
            c(g, "x", "int32", 0)
            g.node("y", op, ["x"], T=ltype(["int32"]), cond=fn("cond"), body=fn("body"),
                   parallel_iterations=i(pi))
            g.library = body + " " + cond
            case(cat, "%s_parallel_iterations_%d" % (op, pi), g, "y", expect="5")
    ident = ('function { signature { name: "f" input_arg { name: "x" type: DT_FLOAT } '
             'output_arg { name: "y" type: DT_FLOAT } control_output: "c" } node_def { name: '
             '"i" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } } } ret { '
             'key: "y" value: "i:output:0" } control_ret { key: "c" value: "%s" } }')
    for label, target in [("missing", "nope"), ("present", "i"), ("arg", "x"),
                          ("empty", "")]:
        for caller in ("direct", "PartitionedCall", "StatefulPartitionedCall"):
            g = G()
            c(g, "x", "float", [1.0, 2.0])
            if caller == "direct":
                g.node("y", "f", ["x"])
            else:
                g.node("y", caller, ["x"], Tin=ltype(["float"]), Tout=ltype(["float"]),
                       f=fn("f"))
            g.library = ident % target
            case(cat, "control_ret_%s_%s" % (label, caller), g, "y", expect="[1. 2.]")
    nan = float("nan")
    for label, row, k in [("two_nan_k2", [1.0, nan, 3.0, nan, 2.0], 2),
                          ("three_nan_k3", [nan, 0.5, nan, 4.0, nan, -1.0, 2.0], 3),
                          ("nan_first_k2", [nan, nan, 1.0, 2.0], 2),
                          ("all_nan_k2", [nan, nan, nan], 2)]:
        g = G()
        c(g, "x", "float", row)
        c(g, "k", "int32", k)
        g.node("y", "TopKV2", ["x", "k"], T=ty("float"), sorted="b: true")
        case(cat, "topk_" + label, g, ["y", "y:1"])
    for label, vals in [("pos_inf", [float("inf")] + [0.5] * 15),
                        ("neg_inf", [0.5] * 8 + [float("-inf")] + [0.5] * 7),
                        ("nan", [nan] + [0.0] * 15)]:
        g = G()
        c(g, "x", "float", vals, shape=[16, 1])
        g.node("y", "AudioSpectrogram", ["x"], window_size=i(8), stride=i(4),
               magnitude_squared="b: false")
        case(cat, "audio_spectrogram_" + label, g, "y")


# ---------------------------------------------------------------------------------------------
# C API call sequences through ctypes.

C_PRELUDE4 = C_PRELUDE + r"""
for n in ("TFE_NewContextOptions", "TFE_NewContext", "TFE_NewOp", "TFE_NewTensorHandle",
          "TF_SessionListDevices", "TF_NewTensor", "TF_TensorFromProto"):
    if hasattr(L, n):
        getattr(L, n).restype = P
def sess_new():
    opts = P(L.TF_NewSessionOptions())
    return P(L.TF_NewSession(g, opts, st))
def run(sess, feeds=(), fetches=(), targets=(), opts=None):
    ins = (Out * max(1, len(feeds)))(*[f[0] for f in feeds])
    invals = (P * max(1, len(feeds)))(*[f[1] for f in feeds])
    outs = (Out * max(1, len(fetches)))(*fetches)
    vals = (P * max(1, len(fetches)))()
    tg = (P * max(1, len(targets)))(*targets)
    L.TF_SessionRun(sess, opts, ins, invals, len(feeds), outs, vals, len(fetches), tg,
                    len(targets), None, st)
    return vals
def vec_f(*v):
    dims = (ctypes.c_int64 * 1)(len(v))
    t = P(L.TF_AllocateTensor(1, dims, 1, 4 * len(v)))
    arr = ctypes.cast(L.TF_TensorData(t), ctypes.POINTER(ctypes.c_float))
    for k, x in enumerate(v):
        arr[k] = x
    return t
def buf(data):
    return P(L.TF_NewBufferFromString(data, len(data)))
"""

C_CASES = [
    ("run_after_close", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
L.TF_CloseSession(sess, st)
run(sess, fetches=[Out(c1, 0)])
print(code(), msg())
report(code() != 0)
"""),
    ("close_twice_then_delete", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
L.TF_CloseSession(sess, st)
L.TF_CloseSession(sess, st)
L.TF_DeleteSession(sess, st)
report(True)
"""),
    ("delete_without_close", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
run(sess, fetches=[Out(c1, 0)])
L.TF_DeleteSession(sess, st)
report(code() == 0)
"""),
    ("graph_deleted_under_session", """
c1 = op("Const", "c", value=("tensor", scalar_f(2.0)), dtype=("type", 1))
n1 = op("Neg", "n", [Out(c1, 0)])
sess = sess_new()
L.TF_DeleteGraph(g)
vals = run(sess, fetches=[Out(n1, 0)])
ok = code() == 0 and ctypes.cast(L.TF_TensorData(P(vals[0])), ctypes.POINTER(ctypes.c_float))[0] == -2.0
L.TF_CloseSession(sess, st)
L.TF_DeleteSession(sess, st)
report(ok)
"""),
    ("graph_grows_after_session", """
c1 = op("Const", "c", value=("tensor", scalar_f(2.0)), dtype=("type", 1))
sess = sess_new()
run(sess, fetches=[Out(c1, 0)])
n1 = op("Neg", "n", [Out(c1, 0)])
vals = run(sess, fetches=[Out(n1, 0)])
ok = code() == 0 and ctypes.cast(L.TF_TensorData(P(vals[0])), ctypes.POINTER(ctypes.c_float))[0] == -2.0
report(ok)
"""),
    ("fetch_op_of_other_graph", """
g2 = P(L.TF_NewGraph())
d = P(L.TF_NewOperation(g2, b"Const", b"c"))
L.TF_SetAttrTensor(d, b"value", scalar_f(1.0), st)
L.TF_SetAttrType(d, b"dtype", 1)
other = P(L.TF_FinishOperation(d, st))
mine = op("Const", "m", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
run(sess, fetches=[Out(other, 0)])
report(code() != 0)
"""),
    ("fetch_null_oper", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
run(sess, fetches=[Out(None, 0)])
report(code() != 0)
"""),
    ("target_null", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
run(sess, targets=[None])
report(code() != 0)
"""),
    ("fetch_noop_output", """
n = op("NoOp", "n")
sess = sess_new()
run(sess, fetches=[Out(n, 0)])
report(code() != 0)
"""),
    ("feed_same_twice", """
p = op("Placeholder", "p", dtype=("type", 1))
i1 = op("Identity", "i", [Out(p, 0)])
sess = sess_new()
run(sess, feeds=[(Out(p, 0), vec_f(1)), (Out(p, 0), vec_f(2))], fetches=[Out(i1, 0)])
report(code() != 0)
"""),
    ("fetch_same_twice", """
p = op("Placeholder", "p", dtype=("type", 1))
i1 = op("Identity", "i", [Out(p, 0)])
sess = sess_new()
vals = run(sess, feeds=[(Out(p, 0), vec_f(3))], fetches=[Out(i1, 0), Out(i1, 0)])
ok = code() == 0 and all(ctypes.cast(L.TF_TensorData(P(vals[k])), ctypes.POINTER(ctypes.c_float))[0] == 3.0 for k in range(2))
report(ok)
"""),
    ("run_options_bad_pool", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
run(sess, fetches=[Out(c1, 0)], opts=buf(b"\\x18\\x63"))
print(code(), msg())
report(code() != 0)
"""),
    ("run_options_negative_pool", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
run(sess, fetches=[Out(c1, 0)], opts=buf(b"\\x18\\xfe\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x01"))
print(code(), msg())
report(code() != 0)
"""),
    ("run_options_timeout_negative", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
run(sess, fetches=[Out(c1, 0)], opts=buf(b"\\x10\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x01"))
report(True)
"""),
    ("run_options_trace_level_99", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
sess = sess_new()
run(sess, fetches=[Out(c1, 0)], opts=buf(b"\\x08\\x63"))
report(True)
"""),
    ("run_options_timeout_1ms_queue", """
d = P(L.TF_NewOperation(g, b"FIFOQueueV2", b"q"))
types = (ctypes.c_int * 1)(1)
L.TF_SetAttrTypeList(d, b"component_types", types, 1)
q = P(L.TF_FinishOperation(d, st))
d = P(L.TF_NewOperation(g, b"QueueDequeueV2", b"deq"))
L.TF_AddInput(d, Out(q, 0))
L.TF_SetAttrTypeList(d, b"component_types", types, 1)
deq = P(L.TF_FinishOperation(d, st))
sess = sess_new()
run(sess, fetches=[Out(deq, 0)], opts=buf(b"\\x10\\x64"))
print(code(), msg())
report(code() == 4)
"""),
    ("prun_feed_not_declared", """
p = op("Placeholder", "p", dtype=("type", 1))
q = op("Placeholder", "q", dtype=("type", 1))
a = op("AddV2", "a", [Out(p, 0), Out(q, 0)])
sess = sess_new()
ins = (Out * 1)(Out(p, 0))
outs = (Out * 1)(Out(a, 0))
h = ctypes.c_char_p()
L.TF_SessionPRunSetup(sess, ins, 1, outs, 1, None, 0, ctypes.byref(h), st)
c0 = code()
feeds = (Out * 1)(Out(q, 0))
fv = (P * 1)(vec_f(1))
vals = (P * 1)()
L.TF_SessionPRun(sess, h, feeds, fv, 1, outs, vals, 1, None, 0, st)
print(c0, code(), msg())
report(code() != 0)
"""),
    ("prun_fetch_not_declared", """
p = op("Placeholder", "p", dtype=("type", 1))
a = op("Neg", "a", [Out(p, 0)])
b = op("Neg", "b", [Out(a, 0)])
sess = sess_new()
ins = (Out * 1)(Out(p, 0))
outs = (Out * 1)(Out(a, 0))
h = ctypes.c_char_p()
L.TF_SessionPRunSetup(sess, ins, 1, outs, 1, None, 0, ctypes.byref(h), st)
feeds = (Out * 1)(Out(p, 0))
fv = (P * 1)(vec_f(1))
outs2 = (Out * 1)(Out(b, 0))
vals = (P * 1)()
L.TF_SessionPRun(sess, h, feeds, fv, 1, outs2, vals, 1, None, 0, st)
print(code(), msg())
report(code() != 0)
"""),
    ("prun_feed_twice", """
p = op("Placeholder", "p", dtype=("type", 1))
q = op("Placeholder", "q", dtype=("type", 1))
a = op("AddV2", "a", [Out(p, 0), Out(q, 0)])
sess = sess_new()
ins = (Out * 2)(Out(p, 0), Out(q, 0))
outs = (Out * 1)(Out(a, 0))
h = ctypes.c_char_p()
L.TF_SessionPRunSetup(sess, ins, 2, outs, 1, None, 0, ctypes.byref(h), st)
feeds = (Out * 1)(Out(p, 0))
fv = (P * 1)(vec_f(1))
vals = (P * 1)()
L.TF_SessionPRun(sess, h, feeds, fv, 1, None, vals, 0, None, 0, st)
c1 = code()
L.TF_SessionPRun(sess, h, feeds, fv, 1, None, vals, 0, None, 0, st)
print(c1, code(), msg())
report(code() != 0)
"""),
    ("prun_bad_handle", """
p = op("Placeholder", "p", dtype=("type", 1))
sess = sess_new()
feeds = (Out * 1)(Out(p, 0))
fv = (P * 1)(vec_f(1))
vals = (P * 1)()
L.TF_SessionPRun(sess, b"garbage-handle", feeds, fv, 1, None, vals, 0, None, 0, st)
c1 = code()
L.TF_SessionPRun(sess, None, feeds, fv, 1, None, vals, 0, None, 0, st)
print(c1, code(), msg())
report(c1 != 0 and code() != 0)
"""),
    ("prun_after_handle_deleted", """
p = op("Placeholder", "p", dtype=("type", 1))
a = op("Neg", "a", [Out(p, 0)])
sess = sess_new()
ins = (Out * 1)(Out(p, 0))
outs = (Out * 1)(Out(a, 0))
h = ctypes.c_char_p()
L.TF_SessionPRunSetup(sess, ins, 1, outs, 1, None, 0, ctypes.byref(h), st)
hs = h.value
L.TF_DeletePRunHandle(h)
feeds = (Out * 1)(Out(p, 0))
fv = (P * 1)(vec_f(1))
vals = (P * 1)()
L.TF_SessionPRun(sess, hs, feeds, fv, 1, outs, vals, 1, None, 0, st)
print(code(), msg())
report(True)
"""),
    ("prun_after_complete", """
p = op("Placeholder", "p", dtype=("type", 1))
a = op("Neg", "a", [Out(p, 0)])
sess = sess_new()
ins = (Out * 1)(Out(p, 0))
outs = (Out * 1)(Out(a, 0))
h = ctypes.c_char_p()
L.TF_SessionPRunSetup(sess, ins, 1, outs, 1, None, 0, ctypes.byref(h), st)
feeds = (Out * 1)(Out(p, 0))
fv = (P * 1)(vec_f(1))
vals = (P * 1)()
L.TF_SessionPRun(sess, h, feeds, fv, 1, outs, vals, 1, None, 0, st)
c1 = code()
L.TF_SessionPRun(sess, h, feeds, fv, 1, outs, vals, 1, None, 0, st)
print(c1, code(), msg())
report(c1 == 0 and code() != 0)
"""),
    ("prun_setup_null_handle", """
p = op("Placeholder", "p", dtype=("type", 1))
sess = sess_new()
ins = (Out * 1)(Out(p, 0))
L.TF_SessionPRunSetup(sess, ins, 1, ins, 1, None, 0, None, st)
report(code() != 0)
"""),
    ("prun_setup_after_close", """
p = op("Placeholder", "p", dtype=("type", 1))
sess = sess_new()
L.TF_CloseSession(sess, st)
ins = (Out * 1)(Out(p, 0))
h = ctypes.c_char_p()
L.TF_SessionPRunSetup(sess, ins, 1, ins, 1, None, 0, ctypes.byref(h), st)
report(code() != 0)
"""),
    ("tensor_dims_overflow_allocate", """
dims = (ctypes.c_int64 * 2)(2**62, 4)
t = L.TF_AllocateTensor(1, dims, 2, 16)
print(t)
report(not t)
"""),
    ("tensor_dims_overflow_new", """
data = (ctypes.c_float * 4)()
Dealloc = ctypes.CFUNCTYPE(None, P, ctypes.c_size_t, P)
noop = Dealloc(lambda a, b, c: None)
dims = (ctypes.c_int64 * 2)(2**62, 4)
t = L.TF_NewTensor(1, dims, 2, data, 16, noop, None)
print(t)
report(not t)
"""),
    ("tensor_len_shorter_than_dims", """
data = (ctypes.c_float * 4)()
Dealloc = ctypes.CFUNCTYPE(None, P, ctypes.c_size_t, P)
noop = Dealloc(lambda a, b, c: None)
dims = (ctypes.c_int64 * 1)(1000)
t = L.TF_NewTensor(1, dims, 1, data, 16, noop, None)
if t:
    p = op("Placeholder", "p", dtype=("type", 1))
    s = op("Sum", "s", [Out(p, 0), Out(op("Const", "ax", value=("tensor", scalar_i(0)), dtype=("type", 3)), 0)])
    sess = sess_new()
    run(sess, feeds=[(Out(p, 0), P(t))], fetches=[Out(s, 0)])
    report(code() != 0)
report(True)
""".replace("scalar_i(0)", "P(L.TF_AllocateTensor(3, None, 0, 4))")),
    ("tensor_negative_dim", """
dims = (ctypes.c_int64 * 1)(-5)
t = L.TF_AllocateTensor(1, dims, 1, 0)
report(not t)
"""),
    ("tensor_negative_num_dims", """
dims = (ctypes.c_int64 * 1)(5)
t = L.TF_AllocateTensor(1, dims, -1, 0)
report(not t)
"""),
    ("tensor_from_proto_garbage", """
t = P(L.TF_AllocateTensor(1, None, 0, 4))
b = buf(b"\\x08\\x01\\x12\\x04\\x12\\x02\\x08\\xff\\x01\\x22\\x02ab")
L.TF_TensorFromProto(b, t, st)
report(code() != 0)
"""),
    ("set_attr_shape_negative", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1)
dims = (ctypes.c_int64 * 2)(-7, 3)
L.TF_SetAttrShape(d, b"shape", dims, 2)
o = P(L.TF_FinishOperation(d, st))
report(code() != 0)
"""),
    ("graph_set_tensor_shape_incompatible", """
c1 = op("Const", "c", value=("tensor", vec_f(1, 2)), dtype=("type", 1))
dims = (ctypes.c_int64 * 1)(3)
L.TF_GraphSetTensorShape(g, Out(c1, 0), dims, 1, st)
report(code() != 0)
"""),
    ("graph_set_tensor_shape_bad_index", """
c1 = op("Const", "c", value=("tensor", vec_f(1, 2)), dtype=("type", 1))
dims = (ctypes.c_int64 * 1)(2)
L.TF_GraphSetTensorShape(g, Out(c1, 5), dims, 1, st)
c0 = code()
L.TF_GraphSetTensorShape(g, Out(c1, -1), dims, 1, st)
report(c0 != 0 and code() != 0)
"""),
    ("graph_get_tensor_shape_small_buffer", """
c1 = op("Const", "c", value=("tensor", vec_f(1, 2)), dtype=("type", 1))
dims = (ctypes.c_int64 * 1)()
L.TF_GraphGetTensorShape(g, Out(c1, 0), dims, 0, st)
c0 = code()
L.TF_GraphGetTensorShape(g, Out(c1, 0), dims, 5, st)
print(c0, code())
report(c0 != 0 and code() != 0)
"""),
    ("get_attr_string_small_buffer", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1)
L.TF_SetDevice(d, b"/cpu:0")
o = P(L.TF_FinishOperation(d, st))
out = ctypes.create_string_buffer(2)
L.TF_OperationGetAttrString(o, b"dtype", out, 2, st)
c0 = code()
L.TF_OperationGetAttrString(o, b"nope", out, 2, st)
report(c0 != 0 and code() != 0)
"""),
    ("get_attr_type_list_short", """
d = P(L.TF_NewOperation(g, b"FIFOQueueV2", b"q"))
types = (ctypes.c_int * 3)(1, 2, 3)
L.TF_SetAttrTypeList(d, b"component_types", types, 3)
o = P(L.TF_FinishOperation(d, st))
out = (ctypes.c_int * 1)()
L.TF_OperationGetAttrTypeList(o, b"component_types", out, 1, st)
c0 = code()
L.TF_OperationGetAttrTypeList(o, b"component_types", out, -4, st)
print(c0, code())
report(True)
"""),
    ("output_index_out_of_range_queries", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
L.TF_OperationOutputType.restype = ctypes.c_int
L.TF_OperationOutputNumConsumers(Out(c1, 7))
L.TF_OperationOutputType(Out(c1, 7))
L.TF_OperationInputListLength(c1, b"nope", st)
report(True)
"""),
    ("tfe_add_wrong_attr_kind", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
op_ = P(L.TFE_NewOp(ctx, b"AddV2", st))
L.TFE_OpSetAttrInt(op_, b"T", 1)
h = (P * 1)()
n = ctypes.c_int(1)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
report(code() != 0)
"""),
    ("tfe_execute_missing_inputs", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
op_ = P(L.TFE_NewOp(ctx, b"AddV2", st))
L.TFE_OpSetAttrType(op_, b"T", 1)
h = (P * 1)()
n = ctypes.c_int(1)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
report(code() != 0)
"""),
    ("tfe_execute_zero_retvals", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
t = vec_f(1, 2)
th = P(L.TFE_NewTensorHandle(t, st))
op_ = P(L.TFE_NewOp(ctx, b"Neg", st))
L.TFE_OpAddInput(op_, th, st)
h = (P * 1)()
n = ctypes.c_int(0)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
print(code(), n.value)
report(True)
"""),
    ("tfe_invalid_type_code", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
op_ = P(L.TFE_NewOp(ctx, b"Fill", st))
L.TFE_OpSetAttrType(op_, b"T", 1000)
h = (P * 1)()
n = ctypes.c_int(1)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
report(code() != 0)
"""),
    ("tfe_unknown_op", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
op_ = L.TFE_NewOp(ctx, b"NoSuchOp", st)
report(code() != 0 and not op_)
"""),
    ("tfe_too_many_inputs", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
t = vec_f(1, 2)
th = P(L.TFE_NewTensorHandle(t, st))
op_ = P(L.TFE_NewOp(ctx, b"Neg", st))
L.TFE_OpAddInput(op_, th, st)
L.TFE_OpAddInput(op_, th, st)
L.TFE_OpAddInput(op_, th, st)
h = (P * 1)()
n = ctypes.c_int(1)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
report(code() != 0)
"""),
    ("tfe_input_dtype_mismatch", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
th = P(L.TFE_NewTensorHandle(vec_f(1, 2), st))
op_ = P(L.TFE_NewOp(ctx, b"AddV2", st))
L.TFE_OpSetAttrType(op_, b"T", 3)
L.TFE_OpAddInput(op_, th, st)
L.TFE_OpAddInput(op_, th, st)
h = (P * 1)()
n = ctypes.c_int(1)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
report(code() != 0)
"""),
    ("tfe_null_handle_input", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
op_ = P(L.TFE_NewOp(ctx, b"Neg", st))
L.TFE_OpAddInput(op_, None, st)
report(code() != 0)
"""),
    ("tfe_input_list_negative", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
op_ = P(L.TFE_NewOp(ctx, b"AddN", st))
L.TFE_OpAddInputList(op_, None, -3, st)
report(True)
"""),
    ("tfe_attr_shape_rank_300", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
op_ = P(L.TFE_NewOp(ctx, b"Placeholder", st))
dims = (ctypes.c_int64 * 300)(*([1] * 300))
L.TFE_OpSetAttrShape(op_, b"shape", dims, 300, st)
report(code() != 0)
"""),
    ("tfe_attr_type_list_negative", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
op_ = P(L.TFE_NewOp(ctx, b"IdentityN", st))
L.TFE_OpSetAttrTypeList(op_, b"T", None, -1)
h = (P * 1)()
n = ctypes.c_int(1)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
report(True)
"""),
    ("leak_sessions_created_and_deleted", """
def rss_mb():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
c1 = op("Const", "c", value=("tensor", vec_f(*range(1000))), dtype=("type", 1))
n1 = op("Neg", "n", [Out(c1, 0)])
def cycle():
    sess = sess_new()
    vals = run(sess, fetches=[Out(n1, 0)])
    L.TF_DeleteTensor(P(vals[0]))
    L.TF_CloseSession(sess, st)
    L.TF_DeleteSession(sess, st)
for _ in range(50):
    cycle()
before = rss_mb()
for _ in range(400):
    cycle()
grew = rss_mb() - before
print("grew MB", grew)
report(grew < 40)
"""),
    ("leak_failed_runs", """
def rss_mb():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
p = op("Placeholder", "p", dtype=("type", 1))
n1 = op("Neg", "n", [Out(p, 0)])
sess = sess_new()
for _ in range(200):
    run(sess, fetches=[Out(n1, 0)])
before = rss_mb()
for _ in range(3000):
    run(sess, fetches=[Out(n1, 0)])
grew = rss_mb() - before
print("grew MB", grew, code())
report(grew < 40 and code() != 0)
"""),
    ("leak_tfe_ops", """
def rss_mb():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
t = vec_f(*range(1000))
th = P(L.TFE_NewTensorHandle(t, st))
def once():
    op_ = P(L.TFE_NewOp(ctx, b"Neg", st))
    L.TFE_OpAddInput(op_, th, st)
    h = (P * 1)()
    n = ctypes.c_int(1)
    L.TFE_Execute(op_, h, ctypes.byref(n), st)
    L.TFE_DeleteTensorHandle(P(h[0]))
    L.TFE_DeleteOp(op_)
for _ in range(200):
    once()
before = rss_mb()
for _ in range(3000):
    once()
grew = rss_mb() - before
print("grew MB", grew)
report(grew < 40)
"""),
    ("tfe_execute_twice_same_op", """
o = P(L.TFE_NewContextOptions())
ctx = P(L.TFE_NewContext(o, st))
th = P(L.TFE_NewTensorHandle(vec_f(1, 2), st))
op_ = P(L.TFE_NewOp(ctx, b"Neg", st))
L.TFE_OpAddInput(op_, th, st)
h = (P * 1)()
n = ctypes.c_int(1)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
n = ctypes.c_int(1)
L.TFE_Execute(op_, h, ctypes.byref(n), st)
report(code() == 0)
"""),
]


def run_c_api(lib, work, only):
    results = []
    for name, body in C_CASES:
        if only and only not in name and only != "c_api":
            continue
        path = os.path.join(work, "c_%s.py" % name)
        with open(path, "w") as fh:
            fh.write(C_PRELUDE4 + body)
        shell = "ulimit -v 8000000; exec timeout 40 %s '%s' '%s'" % (sys.executable, path, lib)
        p = subprocess.run(["bash", "-c", shell], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = (p.stdout + p.stderr).decode(errors="replace").strip()
        rc = p.returncode
        if rc == 124:
            outcome = "hang"
        elif rc > 128 or rc < 0:
            outcome = "crash"
        elif rc == 3:
            outcome = "no_error"
        elif rc != 0:
            outcome = "script_error"
        else:
            outcome = "ok"
        results.append(("c_api", name, outcome, rc, out.splitlines()[-1] if out else "", out))
    return results


# ---------------------------------------------------------------------------------------------
# TensorFlow's outcome for the same case (`--tf=FILE`): the worker below imports the GraphDef
# into tf.compat.v1, restores a --checkpoint through save/restore_all, feeds the .npy files and
# runs each --then run, printing numpy's str() of each fetch or the error's class and message.
# Only the campaign's script uses TensorFlow; the outcomes are recorded in FILE.

TF_WORKER = r"""
import sys, os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import tensorflow as tf
from google.protobuf import text_format
tf1 = tf.compat.v1
tf1.disable_eager_execution()
gd = tf1.GraphDef()
text_format.Parse(open(sys.argv[1]).read(), gd)
args = sys.argv[2:]
runs, cur, ckpt, cfg = [], {"feed": [], "fetch": [], "target": []}, None, None
for a in args:
    if a == "--then":
        runs.append(cur)
        cur = {"feed": [], "fetch": [], "target": []}
    elif a.startswith("--feed="):
        k, v = a[7:].split("=", 1)
        cur["feed"].append((k if ":" in k else k + ":0", v))
    elif a.startswith("--fetch="):
        cur["fetch"].append(a[8:] if ":" in a[8:] else a[8:] + ":0")
    elif a.startswith("--target="):
        cur["target"].append(a[9:])
    elif a.startswith("--checkpoint="):
        ckpt = a[13:]
    elif a.startswith("--config="):
        cfg = tf1.ConfigProto()
        text_format.Parse(open(a[9:]).read(), cfg)
runs.append(cur)
try:
    g = tf1.Graph()
    with g.as_default():
        tf1.import_graph_def(gd, name="")
    with tf1.Session(graph=g, config=cfg) as sess:
        if ckpt:
            sess.run("save/restore_all", {"save/Const:0": ckpt})
        for r in runs:
            feeds = {k: np.load(v) for k, v in r["feed"]}
            out = sess.run(r["fetch"] + r["target"], feeds)
        for v in out[:len(runs[-1]["fetch"])]:
            print(str(v))
    print("TF_OK")
except Exception as e:
    lines = [l.strip() for l in getattr(e, "message", str(e)).splitlines() if l.strip()
             and not l.strip().startswith(("[[", "Graph execution error", "Detected at node",
                                           "File ", "Traceback"))]
    print("TF_ERR %s: %s" % (type(e).__name__, " | ".join(lines)[:600]))
"""


def run_tf(work, idx, cs):
    """TensorFlow's outcome for a GraphDef case: ('ok', stdout) or ('error', 'Class: msg')."""
    cdir = os.path.join(work, "tf%d" % idx)
    os.makedirs(cdir)
    for rel, data in cs["files"].items():
        path = os.path.join(cdir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
    gpath = os.path.join(cdir, "graph.pbtxt")
    with open(gpath, "w") as fh:
        fh.write(cs["text"])
    wpath = os.path.join(work, "tf_worker.py")
    if not os.path.exists(wpath):
        with open(wpath, "w") as fh:
            fh.write(TF_WORKER)
    args = [a.replace("{dir}", cdir) for a in cs["args"]]
    if "--then" not in args:
        args += ["--fetch=" + x for x in cs["fetch"]]
    if cs["config"] is not None:
        cpath = os.path.join(cdir, "config.pbtxt")
        with open(cpath, "wb") as fh:
            fh.write(cs["config"] if isinstance(cs["config"], bytes) else cs["config"].encode())
        args.append("--config=" + cpath)
    cmd = [sys.executable, wpath, gpath] + args
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        out = p.stdout.decode(errors="replace").strip()
    except subprocess.TimeoutExpired:
        return "hang", ""
    finally:
        shutil.rmtree(cdir, ignore_errors=True)
    if out.endswith("TF_OK"):
        return "ok", out[:-len("TF_OK")].strip()
    last = out.splitlines()[-1] if out else ""
    if last.startswith("TF_ERR "):
        return "error", last[len("TF_ERR "):]
    return "crash", "rc=%d %s" % (p.returncode, p.stderr.decode(errors="replace")[-300:])


# ---------------------------------------------------------------------------------------------
# Running.


def run_one(runner, work, idx, cs):
    cdir = os.path.join(work, "case%d" % idx)
    os.makedirs(cdir)
    for rel, data in cs["files"].items():
        path = os.path.join(cdir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
    cmd = [runner]
    gpath = None
    if cs["text"] is not None:
        gpath = os.path.join(cdir, "graph.pbtxt")
        with open(gpath, "w") as fh:
            fh.write(cs["text"])
        cmd.append("--graph=" + gpath)
    if cs["config"] is not None:
        cpath = os.path.join(cdir, "config.pbtxt")
        with open(cpath, "wb") as fh:
            fh.write(cs["config"] if isinstance(cs["config"], bytes) else cs["config"].encode())
        cmd.append("--config=" + cpath)
    args = [a.replace("{dir}", cdir) for a in cs["args"]]
    if "--then" in args:
        cmd += args
    else:
        cmd += args + ["--fetch=" + x for x in cs["fetch"]]
    shell = "ulimit -v 8000000; exec timeout 40 " + " ".join(
        "'%s'" % x.replace("'", "'\\''") for x in cmd)
    p = subprocess.run(["bash", "-c", shell], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode(errors="replace")
    err = p.stderr.decode(errors="replace")
    rc = p.returncode
    if rc == 124:
        outcome = "hang"
    elif rc > 128 or rc < 0:
        outcome = "crash"
    elif rc == 0:
        outcome = "ok"
        if cs["expect"] is not None and cs["expect"] not in out:
            outcome = "wrong"
    elif any(line[:1].isupper() and ": " in line and line.split(": ")[0].isalpha()
             for line in err.splitlines()):
        outcome = "error"
    else:
        outcome = "no_message"
    return outcome, rc, out, err, cdir


def main():
    global PROTO_ROOT
    argv = sys.argv[1:]
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    runner = os.path.abspath(argv[0])
    only = out_dir = c_lib = tf_file = None
    for a in argv[1:]:
        if a.startswith("--only="):
            only = a[len("--only="):]
        elif a.startswith("--out="):
            out_dir = a[len("--out="):]
        elif a.startswith("--c_api="):
            c_lib = os.path.abspath(a[len("--c_api="):])
        elif a.startswith("--tf="):
            tf_file = a[len("--tf="):]
    PROTO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    gen_checkpoints()
    gen_saved_models()
    gen_configs()
    gen_feeds()
    gen_structure()
    gen_stateful()
    gen_leftovers()
    work = tempfile.mkdtemp(prefix="crafted4_")
    counts = {}
    bad = 0
    results = []
    tf_rows = []
    try:
        for idx, cs in enumerate(CASES):
            if only and only not in cs["name"] and only != cs["cat"]:
                continue
            outcome, rc, out, err, cdir = run_one(runner, work, idx, cs)
            counts.setdefault(cs["cat"], {}).setdefault(outcome, 0)
            counts[cs["cat"]][outcome] += 1
            last = err.strip().splitlines()[-1] if err.strip() else ""
            results.append((cs["cat"], cs["name"], outcome, rc, last, out.strip()))
            if tf_file and cs["text"] is not None:
                tf_outcome, tf_text = run_tf(work, idx, cs)
                rill_text = out.strip() if outcome == "ok" else last
                tf_rows.append((cs["name"], outcome, tf_outcome, rill_text, tf_text))
                if (outcome == "ok") != (tf_outcome == "ok"):
                    print("DIFFERS %s rill=%s tf=%s %s" % (cs["name"], outcome, tf_outcome,
                                                          tf_text[:200]), flush=True)
            if outcome in ("crash", "hang", "no_message", "wrong"):
                bad += 1
                print("%s %s rc=%d %s %s" % (outcome.upper(), cs["name"], rc, last[:300],
                                             out.strip()[:200] if outcome == "wrong" else ""),
                      flush=True)
            if out_dir and cs["text"] is not None:
                os.makedirs(os.path.join(out_dir, "cases"), exist_ok=True)
                with open(os.path.join(out_dir, "cases", cs["name"] + ".pbtxt"), "w") as fh:
                    fh.write(cs["text"])
            shutil.rmtree(cdir, ignore_errors=True)
        if c_lib:
            for r in run_c_api(c_lib, work, only):
                counts.setdefault("c_api", {}).setdefault(r[2], 0)
                counts["c_api"][r[2]] += 1
                results.append(r)
                if r[2] != "ok":
                    bad += r[2] in ("crash", "hang")
                    print("%s %s rc=%d %s" % (r[2].upper(), r[1], r[3], r[4][:300]), flush=True)
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(out_dir, "results.tsv"), "w") as fh:
                for r in results:
                    fh.write("\t".join(str(x).replace("\n", "\\n").replace("\t", " ")
                                       for x in r) + "\n")
        if tf_file:
            with open(tf_file, "w") as fh:
                for r in tf_rows:
                    fh.write("\t".join(str(x).replace("\n", "\\n").replace("\t", " ")
                                        for x in r) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    total = 0
    for cat in sorted(counts):
        n = sum(counts[cat].values())
        total += n
        print("%-24s %5d  %s" % (cat, n, " ".join("%s=%d" % kv for kv in sorted(
            counts[cat].items()))))
    print("cases run: %d, crashed/hung/no message/wrong: %d" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
