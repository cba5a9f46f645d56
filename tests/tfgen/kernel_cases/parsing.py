"""Input parsing of serving graphs: ParseExampleV2 (tf.io.parse_example), ParseExample (its TF1
form), ParseSingleExample, DecodeCSV (tf.io.decode_csv), SerializeTensor and ParseTensor.

Example records are built with tf.train.Example (and, for wire forms TensorFlow's Python never
writes, such as unpacked floats, byte by byte) and fed as object arrays, so records ending in a
zero byte keep it."""
import struct

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import types_pb2

from kernel_cases.core import COMPLEX, arr, ph, rand

tf1 = tf.compat.v1

TYPES = {"float32": tf.float32, "int64": tf.int64, "string": tf.string}
# TensorFlow's DataTypeString names, as its error texts print them.
TF_NAME = {"float32": "float", "int64": "int64", "string": "string"}
# The list names its value-count errors print.
LIST_NAME = {"float32": "float", "int64": "int64", "string": "bytes"}


def _feature(v):
    if v is None:
        return tf.train.Feature()
    if isinstance(v, tuple):  # (kind, values): an empty list of a given kind
        kind, values = v
    else:
        kind, values = values_kind(v), v
    if kind == "float32":
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    if kind == "int64":
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))


def values_kind(v):
    if not v:
        return None
    if isinstance(v[0], bytes):
        return "string"
    if isinstance(v[0], float):
        return "float32"
    return "int64"


def example(**features):
    # deterministic: map entries in key order, so a second run writes the same records.
    return tf.train.Example(features=tf.train.Features(
        feature={k: _feature(v) for k, v in features.items()})).SerializeToString(
            deterministic=True)


def records(*items):
    return np.array(list(items), dtype=object)


def _values(dt, n, seed):
    """n distinct python values of feature type dt."""
    if dt == "float32":
        return [float(x) for x in rand("float32", [n], ("parse", seed))]
    if dt == "int64":
        return [int(x) * 1000003 + k for k, x in enumerate(rand("int64", [n], ("parse", seed)))]
    return [("%s_%d" % (seed, k)).encode() for k in range(n)]


def _default(dt, values, name, shape=None):
    """A Const of `values`, shaped `shape` when it is fully known and they fill it (TensorFlow
    wants a fixed-shape default in exactly the feature's shape)."""
    v = np.asarray(values, dtype=object if dt == "string" else TYPES[dt].as_numpy_dtype)
    if shape is not None and None not in shape and v.size and v.size == int(np.prod(shape)):
        v = v.reshape(shape)
    return tf1.constant(v, dtype=TYPES[dt], name=name)


def _keys(name, keys):
    return tf1.constant(np.asarray(keys, dtype=object), dtype=tf.string, name=name)


def _unpacked_floats(key, values):
    """An Example whose FloatList holds each float as its own field (proto2's unpacked form)."""
    fl = b"".join(b"\x0d" + struct.pack("<f", v) for v in values)
    feat = b"\x12" + bytes([len(fl)]) + fl
    entry = b"\x0a" + bytes([len(key)]) + key + b"\x12" + bytes([len(feat)]) + feat
    feats = b"\x0a" + bytes([len(entry)]) + entry
    return b"\x0a" + bytes([len(feats)]) + feats


def parse_example_v2(rec):
    op = "ParseExampleV2"

    def gen(dt):
        other = "int64" if dt != "int64" else "float32"

        def c(what, serialized, dense=(), sparse=(), ragged=(), names=None, error=None,
              phrases=(), keys_override=None):
            """dense: (key, shape, default values or None); sparse: key; ragged: (key, splits)."""
            def build():
                dense_defaults = [_default(dt, [] if d is None else d, "default%d" % i, s)
                                  for i, (_, s, d) in enumerate(dense)]
                k = keys_override or {}
                return tf.raw_ops.ParseExampleV2(
                    serialized=ph("serialized", serialized),
                    names=ph("names", records(*(names or []))),
                    sparse_keys=_keys("sparse_keys", k.get("sparse", list(sparse))),
                    dense_keys=_keys("dense_keys", k.get("dense", [d[0] for d in dense])),
                    ragged_keys=_keys("ragged_keys", k.get("ragged", [r[0] for r in ragged])),
                    dense_defaults=dense_defaults, num_sparse=len(sparse),
                    sparse_types=[TYPES[dt]] * len(sparse),
                    ragged_value_types=[TYPES[dt]] * len(ragged),
                    ragged_split_types=[s for _, s in ragged],
                    dense_shapes=[s for _, s, _ in dense], name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        v = _values(dt, 12, dt)
        # TensorFlow's parser finds no key that two of the dense, sparse and ragged lists
        # share (its key table's seeds all collide), so every case names each key once.
        batch = records(example(a=v[0:2], b=v[2:3], c=v[3:6], d=v[0:1]),
                        example(a=v[6:8], c=v[8:9]),
                        example(a=v[9:11], b=v[11:12], d=v[1:4]))
        c("dense_sparse_ragged", batch, dense=[("a", [2], None)], sparse=["b", "c"],
          ragged=[("d", tf.int32), ("zz", tf.int64)])
        c("scalar_record", records(example(a=v[0:2], b=v[2:5], c=v[5:6]))[0],
          dense=[("a", [2], None)], sparse=["b"], ragged=[("c", tf.int64)])
        c("scalar_record_missing_features", records(example(a=v[0:2]))[0],
          dense=[("a", [1, 2], None)], sparse=["b"], ragged=[("c", tf.int32)])
        c("dense_default_for_missing", batch, dense=[("b", [1], v[5:6]), ("a", [2], None)])
        c("dense_matrix", records(example(m=v[0:6]), example(m=v[6:12])),
          dense=[("m", [2, 3], None)])
        c("dense_matrix_default", records(example(m=v[0:6]), example(z=v[6:7])),
          dense=[("m", [3, 2], v[6:12])])
        c("dense_scalar_shape", records(example(s=v[0:1]), example(s=v[1:2])),
          dense=[("s", [], None)])
        c("variable_length", batch, dense=[("c", [None], v[11:12])])
        c("variable_length_rows", records(example(r=v[0:4]), example(r=v[4:6]), example()),
          dense=[("r", [None, 2], v[6:7])])
        c("variable_length_all_missing", records(example(), example()),
          dense=[("r", [None, 3], v[0:1])])
        c("empty_batch", records(), dense=[("a", [2], v[0:2]), ("r", [None], v[2:3])],
          sparse=["b"], ragged=[("c", tf.int64)])
        c("names", batch, dense=[("a", [2], None)], sparse=["b"], names=[b"n0", b"n1", b"n2"])
        c("empty_record", records(b"", example(a=v[0:2], b=v[2:3], c=v[3:5])),
          dense=[("a", [2], v[2:4])], sparse=["b"], ragged=[("c", tf.int32)])
        c("feature_without_list_is_missing",
          records(example(a=None, b=None, c=None, r=None, d=v[0:1])),
          dense=[("a", [1], v[1:2]), ("r", [None], v[2:3])], sparse=["b"],
          ragged=[("c", tf.int64)])
        c("empty_list", records(example(a=(dt, []), b=(dt, []), c=(dt, []))),
          dense=[("a", [None], v[0:1])], sparse=["b"], ragged=[("c", tf.int32)])
        c("repeated_key_last_wins",
          records(example(a=v[0:1], b=v[4:6]) + example(a=v[1:3], b=v[3:4])),
          dense=[("a", [2], None)], sparse=["b"])
        c("other_keys_ignored", records(example(a=v[0:2], zz=_values(other, 3, 9))),
          dense=[("a", [2], None)])
        if dt == "float32":
            c("unpacked_floats", records(_unpacked_floats(b"a", [1.5, -2.25])),
              dense=[("a", [2], None)])
            c("unpacked_floats_sparse", records(_unpacked_floats(b"b", [0.5, 7.0, -1.0])),
              sparse=["b"])
        o = _values(other, 3, other)
        bad = records(example(a=v[0:2]), example(a=o[0:2]))
        c("required_missing_error", records(example(a=v[0:2]), example(b=v[2:4])),
          dense=[("a", [2], None)], error="INVALID_ARGUMENT",
          phrases=["Name: <unknown>, Feature: a (data type: %s) is required but could not be "
                   "found." % TF_NAME[dt]])
        c("required_missing_named_error", records(example(b=v[2:4])), dense=[("a", [2], None)],
          names=[b"record7"], error="INVALID_ARGUMENT",
          phrases=["Name: record7, Feature: a (data type: %s) is required" % TF_NAME[dt]])
        c("dense_type_error", bad, dense=[("a", [2], None)], error="INVALID_ARGUMENT",
          phrases=["Name: <unknown>, Key: a, Index: 1.  Data types don't match. Data type: %s "
                   "but expected type: %s" % (TF_NAME[other], TF_NAME[dt])])
        c("sparse_type_error", bad, sparse=["a"], error="INVALID_ARGUMENT",
          phrases=["Name: <unknown>, Key: a, Index: 1.  Data types don't match. Expected type: "
                   "%s, Actual type: %s" % (TF_NAME[dt], TF_NAME[other])])
        c("ragged_type_error", bad, ragged=[("a", tf.int32)], error="INVALID_ARGUMENT",
          phrases=["Key: a, Index: 1.  Data types don't match. Expected type: %s, Actual type: "
                   "%s" % (TF_NAME[dt], TF_NAME[other])])
        c("count_error", batch, dense=[("a", [3], None)], error="INVALID_ARGUMENT",
          phrases=["Name: <unknown>, Key: a, Index: 0.  Number of %s values != expected.  "
                   "Values size: 2 but output shape: [3]" % LIST_NAME[dt]])
        c("stride_error", batch, dense=[("c", [None, 2], v[0:1])], error="INVALID_ARGUMENT",
          phrases=["Name: <unknown>, Key: c, Index: 0.  Number of %s values is not a multiple "
                   "of stride length. Saw 3 values but output shape is: [?,2]" % LIST_NAME[dt]])
        c("padding_not_scalar_error", batch, dense=[("c", [None], v[0:2])],
          error="INVALID_ARGUMENT",
          phrases=["dense_shape[0] is a variable length shape: [?], therefore def_value[0] must "
                   "contain a single element (the padding element).  But its shape is: [2]"])
        c("default_shape_error", batch, dense=[("a", [2], v[0:3])], error="INVALID_ARGUMENT",
          phrases=["def_value[0].shape() == [3] is not compatible with dense_shapes_[0] == [2]"])
        c("unparsable_record_error", records(b"\x0a\x05abc"), dense=[("a", [2], v[0:2])],
          error="INVALID_ARGUMENT", phrases=["Could not parse example input, value: '"])
        c("serialized_rank_error", np.array([[batch[0]], [batch[1]]], dtype=object),
          sparse=["a"], error="INVALID_ARGUMENT",
          phrases=["Expected serialized to be a scalar or vector, got shape: [2,1]"])
        c("names_shape_error", batch, sparse=["b"], names=[b"x"], error="INVALID_ARGUMENT",
          phrases=["Expected names have the same shape as serialized: name.shape=[1], "
                   "serialized.shape=[3]"])
        c("sparse_keys_count_error", batch, sparse=["b"], keys_override={"sparse": ["b", "c"]},
          error="INVALID_ARGUMENT",
          phrases=["Expected len(sparse_keys) == num_sparse but got: 2 vs. 1"])
        c("dense_keys_count_error", batch, dense=[("a", [2], None)],
          keys_override={"dense": []}, error="INVALID_ARGUMENT",
          phrases=["Expected len(dense_keys) == len(dense_types) but got: 0 vs. 1"])
        c("ragged_keys_count_error", batch, ragged=[("c", tf.int64)],
          keys_override={"ragged": ["c", "b"]}, error="INVALID_ARGUMENT",
          phrases=["Expected len(ragged_keys) == len(ragged_value_types) but got: 2 vs. 1"])
    rec.for_dtypes(op, list(TYPES), gen)


def parse_example(rec):
    op = "ParseExample"

    def gen(dt):
        other = "int64" if dt != "int64" else "float32"

        def c(what, serialized, dense=(), sparse=(), names=None, error=None, phrases=()):
            def build():
                return tf.raw_ops.ParseExample(
                    serialized=ph("serialized", serialized),
                    names=ph("names", records(*(names or []))),
                    sparse_keys=[_keys("sparse_key%d" % i, k) for i, k in enumerate(sparse)],
                    dense_keys=[_keys("dense_key%d" % i, d[0]) for i, d in enumerate(dense)],
                    dense_defaults=[_default(dt, [] if d is None else d, "default%d" % i, s)
                                    for i, (_, s, d) in enumerate(dense)],
                    sparse_types=[TYPES[dt]] * len(sparse),
                    dense_shapes=[s for _, s, _ in dense], name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        v = _values(dt, 12, "v1" + dt)
        batch = records(example(a=v[0:2], b=v[2:3], c=v[3:6]), example(a=v[6:8], c=v[8:9]))
        c("dense_and_sparse", batch, dense=[("a", [2], None), ("z", [1], v[9:10])],
          sparse=["b", "c"])
        c("variable_length", batch, dense=[("c", [None], v[10:11])])
        c("names", batch, dense=[("a", [1, 2], None)], names=[b"first", b"second"])
        c("empty_batch", records(), dense=[("a", [2], v[0:2])], sparse=["b"])
        c("scalar_record_error", batch[0], dense=[("a", [2], None)], error="INVALID_ARGUMENT",
          phrases=["Expected serialized to be a vector, got shape: []"])
        c("required_missing_named_error", batch, dense=[("b", [1], None)],
          names=[b"first", b"second"], error="INVALID_ARGUMENT",
          phrases=["Name: second, Feature: b (data type: %s) is required but could not be "
                   "found." % TF_NAME[dt]])
        c("type_error", records(example(a=_values(other, 2, 1))), dense=[("a", [2], None)],
          error="INVALID_ARGUMENT",
          phrases=["Key: a, Index: 0.  Data types don't match. Data type: %s but expected "
                   "type: %s" % (TF_NAME[other], TF_NAME[dt])])
        c("names_shape_error", batch, sparse=["b"], names=[b"x"], error="INVALID_ARGUMENT",
          phrases=["Expected names have the same shape as serialized: name.shape=[1], "
                   "serialized.shape=[2]"])
        c("unparsable_record_error", records(b"\x0a\x05abc"), sparse=["b"], error="INVALID_ARGUMENT",
          phrases=["Could not parse example input, value: '"])
    rec.for_dtypes(op, list(TYPES), gen)


def parse_single_example(rec):
    op = "ParseSingleExample"

    def gen(dt):
        other = "int64" if dt != "int64" else "float32"

        def c(what, serialized, dense=(), sparse=(), error=None, phrases=()):
            def build():
                return tf.raw_ops.ParseSingleExample(
                    serialized=ph("serialized", serialized),
                    dense_defaults=[_default(dt, [] if d is None else d, "default%d" % i, s)
                                    for i, (_, s, d) in enumerate(dense)],
                    num_sparse=len(sparse), sparse_keys=list(sparse),
                    dense_keys=[d[0] for d in dense], sparse_types=[TYPES[dt]] * len(sparse),
                    dense_shapes=[s for _, s, _ in dense], name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        v = _values(dt, 12, "single" + dt)
        one = records(example(a=v[0:2], b=v[2:5]))[0]
        c("dense_and_sparse", one, dense=[("a", [2], None), ("z", [2, 1], v[5:7])],
          sparse=["b", "zz"])
        c("variable_length", one, dense=[("b", [None], v[7:8]), ("z", [None, 2], v[8:9])])
        c("empty_record", records(b"")[0], dense=[("a", [2], v[0:2])], sparse=["b"])
        c("required_error", one, dense=[("q", [1], None)], error="INVALID_ARGUMENT",
          phrases=["Feature: q (data type: %s) is required but could not be found."
                   % TF_NAME[dt]])
        c("dense_type_error", records(example(a=_values(other, 2, 2)))[0],
          dense=[("a", [2], None)], error="INVALID_ARGUMENT",
          phrases=["Key: a.  Data types don't match. Data type: %s but expected type: %s"
                   % (TF_NAME[other], TF_NAME[dt])])
        c("sparse_type_error", records(example(a=_values(other, 2, 2)))[0], sparse=["a"],
          error="INVALID_ARGUMENT",
          phrases=["Key: a.  Data types don't match. Expected type: %s, Actual type: %s"
                   % (TF_NAME[dt], TF_NAME[other])])
        c("too_few_values_error", one, dense=[("b", [4], None)], error="INVALID_ARGUMENT",
          phrases=["Key: b.  Can't parse serialized Example"])
        c("too_many_values_error", one, dense=[("b", [2], None)], error="INVALID_ARGUMENT",
          phrases=["Key: b.  Can't parse serialized Example"])
        c("stride_error", one, dense=[("b", [None, 2], v[0:1])], error="INVALID_ARGUMENT",
          phrases=["Error while parsing feature with key b: number of elements should be "
                   "divisible by 2, found 3 instead"])
        c("vector_record_error", records(one, one), dense=[("a", [2], None)],
          error="INVALID_ARGUMENT", phrases=["Expected serialized to be a scalar, got shape: [2]"])
        c("unparsable_record_error", records(b"\x0a\x05abc")[0], sparse=["a"],
          error="INVALID_ARGUMENT", phrases=["Could not parse example input, value: '"])
    rec.for_dtypes(op, list(TYPES), gen)


CSV_TYPES = {"int32": tf.int32, "int64": tf.int64, "float32": tf.float32, "float64": tf.float64,
             "string": tf.string}


def decode_csv(rec):
    op = "DecodeCSV"

    def gen(dt):
        np_dt = object if dt == "string" else CSV_TYPES[dt].as_numpy_dtype

        def c(what, rows, defaults, error=None, phrases=(), **attrs):
            def build():
                return tf.raw_ops.DecodeCSV(
                    records=ph("records", np.array(rows, dtype=object)),
                    record_defaults=[tf1.constant(np.asarray(d, dtype=np_dt), dtype=CSV_TYPES[dt],
                                                  name="default%d" % i)
                                     for i, d in enumerate(defaults)], name="out", **attrs)
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        if dt == "string":
            d = [b"x"]
            c("fields", [b"a,b c,", b",,\"q,\"\"r\"\"\""], [d, [b"y"], [b""]])
            c("na_value", [b"NA,p", b"q,NA"], [d, [b"y"]], na_value="NA")
            c("spaces_kept", [b"  s ,\t"], [d, d])
            c("no_quote_delim", [b"\"a\"|'b'"], [d, d], field_delim="|", use_quote_delim=False)
            c("quoted_empty_takes_default", [b"\"\",z"], [d, d])
            c("required_error", [b"a,"], [d, []], error="INVALID_ARGUMENT",
              phrases=["Field 1 is required but missing in record 0!"])
            c("quote_escape_error", [b"\"a\"b\",c"], [d, d], error="INVALID_ARGUMENT",
              phrases=["Quote inside a string has to be escaped by another quote"])
            c("unterminated_quote_error", [b"\"ab,c"], [d, d], error="INVALID_ARGUMENT",
              phrases=["Quoted field has to end with quote followed by delim or end"])
            c("quote_in_unquoted_error", [b"a\"b,c"], [d, d], error="INVALID_ARGUMENT",
              phrases=["Unquoted fields cannot have quotes/CRLFs inside"])
            c("newline_error", [b"a,b\r"], [d, d], error="INVALID_ARGUMENT",
              phrases=["Unquoted fields cannot have quotes/CRLFs inside"])
            c("field_count_error", [b"a,b", b"a"], [d, d], error="INVALID_ARGUMENT",
              phrases=["Expect 2 fields but have 1 in record 1"])
            c("empty_record_error", [b""], [d], error="INVALID_ARGUMENT",
              phrases=["Expect 1 fields but have 0 in record 0"])
            c("delim_error", [b"a"], [d], field_delim="::", error="INVALID_ARGUMENT",
              phrases=["field_delim should be only 1 char"])
            return
        if dt.startswith("int"):
            good = [b"1,-2,+3", b" 7 ,0, -0", b",9,", b"007,-12,42"]
            c("values", good, [[5], [6], [8]])
            c("matrix_records", [[b"1;2", b"3;4"], [b"5;6", b";"]], [[0], [-1]], field_delim=";")
            c("scalar_record", b"11,12", [[0], [0]])
            lo, hi = np.iinfo(np_dt).min, np.iinfo(np_dt).max
            c("limits", [("%d,%d" % (lo, hi)).encode()], [[0], [0]])
            c("overflow_error", [("%d" % (hi + 1)).encode()], [[0]], error="INVALID_ARGUMENT",
              phrases=["Field 0 in record 0 is not a valid %s: %d" % (dt, hi + 1)])
            c("float_text_error", [b"3,1.5"], [[0], [0]], error="INVALID_ARGUMENT",
              phrases=["Field 1 in record 0 is not a valid %s: 1.5" % dt])
            c("hex_error", [b"0x10"], [[0]], error="INVALID_ARGUMENT",
              phrases=["Field 0 in record 0 is not a valid %s: 0x10" % dt])
            c("blank_error", [b"1", b" "], [[0]], error="INVALID_ARGUMENT",
              phrases=["Field 0 in record 1 is not a valid %s:  " % dt])
            c("select_cols", [b"1,2,3,4", b"5,,7,"], [[0], [-1]], select_cols=[1, 3])
            c("select_cols_short_error", [b"1,2"], [[0], [0]], select_cols=[1, 3],
              error="INVALID_ARGUMENT", phrases=["Expect 2 fields but have 1 in record 0"])
            c("select_cols_order_error", [b"1,2,3"], [[0], [0]], select_cols=[2, 1],
              error="INVALID_ARGUMENT",
              phrases=["select_cols should be strictly increasing indices"])
            c("select_cols_negative_error", [b"1,2,3"], [[0], [0]], select_cols=[-1, 1],
              error="INVALID_ARGUMENT", phrases=["select_cols should be non-negative indices"])
            c("select_cols_count_error", [b"1,2,3"], [[0], [0]], select_cols=[1],
              error="INVALID_ARGUMENT", phrases=["select_cols should match output size"])
            return
        c("values", [b"1.5,-2,1e3", b" .25 ,+7,-0", b",inf,-Infinity", b"NaN,0x10,1."],
          [[0.5], [1.0], [2.0]])
        c("out_of_range", [b"1e39,1e-50,-1e400"], [[0.0], [0.0], [0.0]])
        c("na_value", [b"?,3.5", b"2,?"], [[-1.0], [-2.0]], na_value="?")
        c("quoted_numbers", [b"\"1.5\",\"\""], [[0.0], [4.0]])
        c("exponent_error", [b"1e"], [[0.0]], error="INVALID_ARGUMENT",
          phrases=["Field 0 in record 0 is not a valid %s: 1e"
                   % ("float" if dt == "float32" else "double")])
        c("inner_space_error", [b"2 .5"], [[0.0]], error="INVALID_ARGUMENT",
          phrases=["is not a valid %s: 2 .5" % ("float" if dt == "float32" else "double")])
        c("required_error", [b"1,"], [[0.0], []], error="INVALID_ARGUMENT",
          phrases=["Field 1 is required but missing in record 0!"])
    rec.for_dtypes(op, list(CSV_TYPES), gen)


SERIAL_DTYPES = ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16",
                 "bool"] + COMPLEX + ["string"]


def _sample(dt, shape, seed):
    if dt == "string":
        n = int(np.prod(shape))
        return np.array([b"s%d" % k * (k % 3) for k in range(n)], dtype=object).reshape(shape)
    return rand(dt, shape, seed)


def serialize_tensor(rec):
    op = "SerializeTensor"

    def gen(dt):
        def c(what, x):
            rec.case(op, dt, what, lambda: tf.raw_ops.SerializeTensor(
                tensor=ph("tensor", x, dt if dt != "string" else None), name="out"))

        c("matrix", _sample(dt, [2, 3], "ser" + dt))
        c("scalar", _sample(dt, [], "ser0" + dt))
        c("empty", _sample(dt, [0, 4], "ser1" + dt))
    rec.for_dtypes(op, SERIAL_DTYPES, gen)


def _tf_type_name(dtype):
    """TensorFlow's DataTypeString: "float", "double", "half", "int32", ..."""
    return types_pb2.DataType.Name(dtype.as_datatype_enum)[len("DT_"):].lower()


def parse_tensor(rec):
    op = "ParseTensor"

    def gen(dt):
        tdt = tf.string if dt == "string" else tf.as_dtype(np.dtype(arr(0, dt).dtype))

        def c(what, serialized, out_type=tdt, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ParseTensor(
                serialized=ph("serialized", np.array(serialized, dtype=object)),
                out_type=out_type, name="out"), error=error, phrases=phrases)

        def ser(x):
            return tf.io.serialize_tensor(tf.constant(x, dtype=tdt)).numpy()

        c("matrix", ser(_sample(dt, [3, 2], "parse" + dt)))
        c("scalar", ser(_sample(dt, [], "parse0" + dt)))
        c("empty", ser(_sample(dt, [2, 0], "parse1" + dt)))
        # The typed-field form (float_val, int_val, ...) that make_tensor_proto writes.
        c("typed_fields", tf.make_tensor_proto(_sample(dt, [4], "parse2" + dt),
                                               dtype=tdt).SerializeToString())
        wrong = tf.int32 if dt != "int32" else tf.float32
        c("type_error", ser(_sample(dt, [2], "parse3" + dt)), out_type=wrong,
          error="INVALID_ARGUMENT",
          phrases=["Type mismatch between parsed tensor (%s) and dtype (%s)"
                   % (_tf_type_name(tdt), _tf_type_name(wrong))])
        if dt == "float32":
            c("unparsable_error", b"\x12\x05ab", error="INVALID_ARGUMENT",
              phrases=["Could not parse `serialized` as TensorProto, base64: EgVhYg=="])
            c("vector_error", [ser(np.float32(1)), ser(np.float32(2))], error="INVALID_ARGUMENT",
              phrases=["Expected `serialized` to be a scalar"])
    rec.for_dtypes(op, SERIAL_DTYPES, gen)


def build_all(rec, emit):
    parse_example_v2(rec)
    emit("ParseExampleV2")
    parse_example(rec)
    emit("ParseExample")
    parse_single_example(rec)
    emit("ParseSingleExample")
    decode_csv(rec)
    emit("DecodeCSV")
    serialize_tensor(rec)
    emit("SerializeTensor")
    parse_tensor(rec)
    emit("ParseTensor")
