"""tf.train.SequenceExample parsing: ParseSequenceExampleV2 (tf.io.parse_sequence_example),
ParseSequenceExample (its TF1 form, keys in attrs) and ParseSingleSequenceExample (one record,
TF1's tf.io.parse_single_sequence_example; TensorFlow's kernel for it reads the record with the
full protobuf parser, so its rules and error texts are its own).

Records are built with tf.train.SequenceExample: a context (features) and feature lists (one
feature per step). Each case parses a batch with every kind of feature (context sparse, dense
with and without defaults, ragged; feature-list sparse, dense, ragged), or a record that breaks a
rule, for TensorFlow's error text. A V2 case never has ragged outputs for a scalar record:
TensorFlow leaves their row splits unset there."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph
from kernel_cases.parsing import (LIST_NAME, TF_NAME, TYPES, _default, _feature, _keys, _values,
                                   records)

tf1 = tf.compat.v1


def seq_example(context=None, lists=None):
    """context: {key: values}; lists: {key: [step values or None (a feature without a list)]}."""
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(v) for k, v in (context or {}).items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(s) for s in steps])
            for k, steps in (lists or {}).items()})).SerializeToString(deterministic=True)


def _batch(dt, v):
    """Three records: full, partial, and empty."""
    return records(
        seq_example({"c": v[0:2], "s": v[2:5], "r": v[5:6]},
                    {"f": [v[0:2], v[2:4], v[4:6]], "g": [v[6:7], v[7:9]],
                     "q": [v[9:10], (dt, []), v[10:12]]}),
        seq_example({"c": v[6:8], "r": v[1:4]}, {"f": [v[8:10]], "g": [], "q": [v[3:4]]}),
        seq_example())


def _cases(c, dt, v, other, v2):
    """The cases both ops share; c(what, serialized, **spec) records one."""
    batch = _batch(dt, v)
    o = _values(other, 3, other)
    c("all_kinds", batch, cs=["s"], cd=[("c", [2], v[10:12]), ("z", [1, 2], v[0:2])],
      fs=["g"], fd=[("f", [2])], empty=["f"],
      **({"cr": [("r", tf.int64)], "fr": [("q", tf.int32)]} if v2 else {}))
    c("context_only", batch[:2], cs=["r", "s"], cd=[("c", [2], None)])
    c("feature_lists_only", batch, fs=["g", "q"], fd=[("f", [2])], empty=["f"])
    c("dense_list_matrix", records(seq_example(None, {"m": [v[0:4], v[4:8]]}),
                                   seq_example(None, {"m": [v[8:12]]})), fd=[("m", [2, 2])])
    c("dense_list_scalar_shape", records(seq_example(None, {"m": [v[0:1], v[1:2]]}),
                                         seq_example(None, {"m": [v[2:3]]})), fd=[("m", [])])
    c("empty_feature_list", records(seq_example(None, {"m": []})), fd=[("m", [2])])
    c("step_without_list_sparse", records(seq_example(None, {"g": [v[0:2], None, v[2:3]]})),
      fs=["g"])
    c("empty_batch", records(), cs=["s"], cd=[("c", [2], v[0:2])], fs=["g"], fd=[("f", [2])],
      empty=["f"])
    c("names", batch[:2], cd=[("c", [2], None)], fs=["g"], names=[b"first", b"second"])
    c("other_keys_ignored", records(seq_example({"c": v[0:2], "x": o[0:1]}, {"y": [o[0:2]]})),
      cd=[("c", [2], None)])
    c("required_context_error", batch, cd=[("c", [2], None)], error="INVALID_ARGUMENT",
      phrases=["Feature: c (data type: %s) is required but could not be found." % TF_NAME[dt]])
    c("required_feature_list_error", batch, fd=[("f", [2])], names=[b"a", b"b", b"third"],
      error="INVALID_ARGUMENT",
      phrases=["Name: third, Feature list 'f' is required but could not be found.  Did you mean "
               "to include it in feature_list_dense_missing_assumed_empty or "
               "feature_list_dense_defaults?"])
    # A required context feature's longest value count must be its size; a feature with a
    # default is checked record by record.
    c("context_count_error", batch[:2], cd=[("c", [3], None)], error="INVALID_ARGUMENT",
      phrases=["Inconsistent max number of elements for feature c: expected 3, but found 2"])
    c("context_count_with_default_error", batch, cd=[("c", [3], v[0:3])],
      error="INVALID_ARGUMENT", phrases=["Unexpected number of elements in example <unknown>"])
    c("required_context_all_missing_error", records(seq_example(), seq_example()),
      cd=[("c", [2], None)], error="INVALID_ARGUMENT",
      phrases=["Inconsistent max number of elements for feature c: expected 2, but found 0"])
    c("context_count_one_record_error",
      records(seq_example({"c": v[0:2]}), seq_example({"c": v[2:3]})),
      cd=[("c", [2], None)], names=[b"a", b"bee"], error="INVALID_ARGUMENT",
      phrases=["Unexpected number of elements in example bee"])
    c("step_count_error", batch, fd=[("g", [1])], empty=["g"], error="INVALID_ARGUMENT",
      phrases=["Name: <unknown>, Key: g, Index: 1.  Number of values != expected.  values "
               "size: 2 but output shape: [1]"])
    c("step_without_list_dense_error", records(seq_example(None, {"f": [v[0:2], None]})),
      fd=[("f", [2])], error="INVALID_ARGUMENT",
      phrases=["Name: <unknown>, Key: f, Index: 1.  Number of values != expected.  values "
               "size: 0 but output shape: [2]"])
    c("context_type_error", records(seq_example({"c": v[0:2]}), seq_example({"c": o[0:2]})),
      cs=["c"], names=[b"a", b"bee"], error="INVALID_ARGUMENT",
      phrases=["Name: bee, Context feature: c.  Data types don't match. Expected type: %s"
               % TF_NAME[dt]])
    c("feature_list_type_error",
      records(seq_example(None, {"g": [v[0:1]]}), seq_example(None, {"g": [v[1:2], o[0:1]]})),
      fs=["g"], error="INVALID_ARGUMENT",
      phrases=["Name: <unknown>, Feature list: g, Index: 1.  Data types don't match. Expected "
               "type: %s" % TF_NAME[dt]])
    c("dense_and_sparse_context_error", batch, cs=["c"], cd=[("c", [2], None)],
      error="INVALID_ARGUMENT", phrases=["Context feature c cannot be both dense and sparse"])
    c("dense_and_sparse_list_error", batch, fs=["f"], fd=[("f", [2])], empty=["f"],
      error="INVALID_ARGUMENT", phrases=["Sequence feature f cannot be both dense and sparse"])
    c("default_shape_error", batch, cd=[("c", [2], v[0:3])], error="INVALID_ARGUMENT",
      phrases=["default_value[0].shape() == [3] != context_dense_shapes[0] == [2]"])
    c("names_count_error", batch, cs=["s"], names=[b"a"], error="INVALID_ARGUMENT",
      phrases=["example_names must be empty or have the correct number of elements"])
    c("unparsable_record_error", records(batch[0], b"\x0a\x05abc"), cs=["s"],
      names=[b"a", b"broken"], error="INVALID_ARGUMENT",
      phrases=["Invalid protocol message input, example id: broken"])
    c("unparsable_unnamed_error", records(b"\x12\x07abc"), cs=["s"], error="INVALID_ARGUMENT",
      phrases=["Invalid protocol message input, example id: <unknown>"])


def parse_sequence_example_v2(rec):
    op = "ParseSequenceExampleV2"

    def gen(dt):
        other = "int64" if dt != "int64" else "float32"
        t = TYPES[dt]

        def c(what, serialized, cs=(), cd=(), cr=(), fs=(), fd=(), fr=(), empty=(), names=None,
              error=None, phrases=()):
            """cd: (key, shape, default or None); fd: (key, shape); cr, fr: (key, split type)."""
            def build():
                return tf.raw_ops.ParseSequenceExampleV2(
                    serialized=ph("serialized", serialized),
                    debug_name=ph("names", records(*(names or []))),
                    context_sparse_keys=_keys("context_sparse_keys", list(cs)),
                    context_dense_keys=_keys("context_dense_keys", [d[0] for d in cd]),
                    context_ragged_keys=_keys("context_ragged_keys", [r[0] for r in cr]),
                    feature_list_sparse_keys=_keys("feature_list_sparse_keys", list(fs)),
                    feature_list_dense_keys=_keys("feature_list_dense_keys", [d[0] for d in fd]),
                    feature_list_ragged_keys=_keys("feature_list_ragged_keys",
                                                   [r[0] for r in fr]),
                    feature_list_dense_missing_assumed_empty=tf1.constant(
                        np.array([d[0] in empty for d in fd], dtype=bool), dtype=tf.bool,
                        name="missing_assumed_empty"),
                    context_dense_defaults=[
                        _default(dt, [] if d is None else d, "default%d" % i, s)
                        for i, (_, s, d) in enumerate(cd)],
                    Ncontext_sparse=len(cs), context_sparse_types=[t] * len(cs),
                    context_ragged_value_types=[t] * len(cr),
                    context_ragged_split_types=[s for _, s in cr],
                    context_dense_shapes=[s for _, s, _ in cd],
                    Nfeature_list_sparse=len(fs), Nfeature_list_dense=len(fd),
                    feature_list_dense_types=[t] * len(fd),
                    feature_list_sparse_types=[t] * len(fs),
                    feature_list_ragged_value_types=[t] * len(fr),
                    feature_list_ragged_split_types=[s for _, s in fr],
                    feature_list_dense_shapes=[s for _, s in fd], name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        v = _values(dt, 12, "seq" + dt)
        _cases(c, dt, v, other, v2=True)
        batch = _batch(dt, v)
        c("ragged_only", batch, cr=[("s", tf.int32), ("r", tf.int64)],
          fr=[("f", tf.int64), ("q", tf.int32), ("g", tf.int64)])
        c("scalar_record", batch[0], cs=["s"], cd=[("c", [2], None)], fs=["g"],
          fd=[("f", [2])])
        c("scalar_record_named", batch[1], cd=[("c", [2], v[0:2]), ("z", [1], v[2:3])],
          fd=[("f", [2]), ("m", [1])], empty=["m"], names=[b"one"])
        # An empty record is a SequenceExample with nothing set in a batch, but TensorFlow's
        # scalar path refuses it.
        c("scalar_empty_record_error", batch[2], cd=[("c", [2], v[0:2])], names=[b"one"],
          error="INVALID_ARGUMENT", phrases=["Invalid protocol message input, example id: one"])
        c("ragged_and_sparse_context_error", batch, cs=["s"], cr=[("s", tf.int64)],
          error="INVALID_ARGUMENT", phrases=["Context feature s cannot be both ragged and sparse"])
        c("ragged_and_sparse_list_error", batch, fs=["g"], fr=[("g", tf.int64)],
          error="INVALID_ARGUMENT", phrases=["Sequence feature g cannot be both ragged and sparse"])
        c("dense_and_ragged_context_error", batch, cd=[("c", [2], None)], cr=[("c", tf.int64)],
          error="INVALID_ARGUMENT", phrases=["Context feature c cannot be both dense and sparse"])
        c("ragged_type_error", records(seq_example(None, {"g": [v[0:1], _values(other, 1, 5)]})),
          fr=[("g", tf.int64)], error="INVALID_ARGUMENT",
          phrases=["Name: <unknown>, Feature list: g, Index: 1.  Data types don't match."])

    rec.for_dtypes(op, list(TYPES), gen)


def parse_sequence_example(rec):
    op = "ParseSequenceExample"

    def gen(dt):
        other = "int64" if dt != "int64" else "float32"
        t = TYPES[dt]

        def c(what, serialized, cs=(), cd=(), fs=(), fd=(), empty=(), names=None, error=None,
              phrases=()):
            def build():
                return tf.raw_ops.ParseSequenceExample(
                    serialized=ph("serialized", serialized),
                    debug_name=ph("names", records(*(names or []))),
                    context_dense_defaults=[
                        _default(dt, [] if d is None else d, "default%d" % i, s)
                        for i, (_, s, d) in enumerate(cd)],
                    feature_list_dense_missing_assumed_empty=list(empty),
                    context_sparse_keys=list(cs), context_dense_keys=[d[0] for d in cd],
                    feature_list_sparse_keys=list(fs),
                    feature_list_dense_keys=[d[0] for d in fd],
                    Ncontext_sparse=len(cs), Ncontext_dense=len(cd),
                    Nfeature_list_sparse=len(fs), Nfeature_list_dense=len(fd),
                    context_sparse_types=[t] * len(cs),
                    feature_list_dense_types=[t] * len(fd),
                    context_dense_shapes=[s for _, s, _ in cd],
                    feature_list_sparse_types=[t] * len(fs),
                    feature_list_dense_shapes=[s for _, s in fd], name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        v = _values(dt, 12, "seq1" + dt)
        _cases(c, dt, v, other, v2=False)
        c("scalar_record", _batch(dt, v)[0], cs=["s"], cd=[("c", [2], None)], fs=["g"],
          fd=[("f", [2])])

    rec.for_dtypes(op, list(TYPES), gen)


def parse_single_sequence_example(rec):
    op = "ParseSingleSequenceExample"

    def gen(dt):
        other = "int64" if dt != "int64" else "float32"
        t = TYPES[dt]

        def c(what, serialized, cs=(), cd=(), fs=(), fd=(), empty=(), name=b"", error=None,
              phrases=()):
            def build():
                return tf.raw_ops.ParseSingleSequenceExample(
                    serialized=ph("serialized", np.array(serialized, dtype=object)),
                    feature_list_dense_missing_assumed_empty=_keys("missing_assumed_empty",
                                                                   list(empty)),
                    context_sparse_keys=[_keys("context_sparse_key%d" % i, k)
                                         for i, k in enumerate(cs)],
                    context_dense_keys=[_keys("context_dense_key%d" % i, d[0])
                                        for i, d in enumerate(cd)],
                    feature_list_sparse_keys=[_keys("feature_list_sparse_key%d" % i, k)
                                              for i, k in enumerate(fs)],
                    feature_list_dense_keys=[_keys("feature_list_dense_key%d" % i, d[0])
                                             for i, d in enumerate(fd)],
                    context_dense_defaults=[
                        _default(dt, [] if d is None else d, "default%d" % i, s)
                        for i, (_, s, d) in enumerate(cd)],
                    debug_name=ph("debug_name", np.array(name, dtype=object)),
                    context_sparse_types=[t] * len(cs),
                    feature_list_dense_types=[t] * len(fd),
                    context_dense_shapes=[s for _, s, _ in cd],
                    feature_list_sparse_types=[t] * len(fs),
                    feature_list_dense_shapes=[s for _, s in fd], name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        v = _values(dt, 12, "single_seq" + dt)
        o = _values(other, 3, other)
        one = _batch(dt, v)[0]
        c("all_kinds", one, cs=["s", "zz"], cd=[("c", [2], None), ("z", [1, 2], v[0:2])],
          fs=["g", "q"], fd=[("f", [2])])
        c("dense_list_matrix", seq_example(None, {"m": [v[0:4], v[4:8]]}), fd=[("m", [2, 2])])
        c("missing_list_assumed_empty", one, fd=[("h", [3]), ("f", [2])], empty=["h", "x"])
        c("empty_feature_list", seq_example(None, {"m": []}), fd=[("m", [2])], fs=["m"])
        c("empty_record", b"", cs=["s"], cd=[("c", [2], v[0:2])], fs=["g"], fd=[("f", [2])],
          empty=["f"])
        c("step_without_list_sparse", seq_example(None, {"g": [v[0:2], None, v[2:3]]}),
          fs=["g"])
        c("key_of_two_kinds", one, cs=["c"], cd=[("c", [2], None)], fs=["f"], fd=[("f", [2])])
        c("required_context_error", one, cd=[("q", [2], None)], name=b"rec",
          error="INVALID_ARGUMENT",
          phrases=["Name: rec, Context feature 'q' is required but could not be found."])
        c("required_feature_list_error", one, fd=[("h", [2])], error="INVALID_ARGUMENT",
          phrases=["Name: , Feature list 'h' is required but could not be found.  Did you mean "
                   "to include it in feature_list_dense_missing_assumed_empty or "
                   "feature_list_dense_defaults?"])
        def count_error(name, key, index, count, shape):
            # TensorFlow's bytes text differs in two places ("Key c", "Values size").
            return ("Name: %s, Key%s %s, Index: %d.  Number of %s values != expected.  %s size: "
                    "%d but output shape: %s" % (name, "" if dt == "string" else ":", key, index,
                                                 LIST_NAME[dt], "Values" if dt == "string" else
                                                 "values", count, shape))

        c("context_count_error", one, cd=[("c", [3], v[0:3])], error="INVALID_ARGUMENT",
          phrases=[count_error("", "c", 0, 2, "[3]")])
        c("context_empty_list_error", seq_example({"c": (dt, [])}), cd=[("c", [2], v[0:2])],
          error="INVALID_ARGUMENT", phrases=[count_error("", "c", 0, 0, "[2]")])
        c("step_count_error", one, fd=[("g", [1])], name=b"n", error="INVALID_ARGUMENT",
          phrases=[count_error("n", "g", 1, 2, "[1]")])
        c("context_type_error", seq_example({"c": o[0:2]}), cd=[("c", [2], None)],
          error="INVALID_ARGUMENT",
          phrases=["Name: , Context feature: c.  Data types don't match. Expected type: %s"
                   % TF_NAME[dt]])
        c("sparse_list_type_error", seq_example(None, {"g": [v[0:1], o[0:1]]}), fs=["g"],
          error="INVALID_ARGUMENT",
          phrases=["Name: , Feature List: g, Index: 1.  Data types don't match. Expected type: "
                   "%s" % TF_NAME[dt]])
        c("dense_list_type_error", seq_example(None, {"g": [v[0:1], o[0:1]]}), fd=[("g", [1])],
          error="INVALID_ARGUMENT",
          phrases=["Name: , Feature list: g, Index: 1.  Data types don't match. Expected type: "
                   "%s" % TF_NAME[dt]])
        c("step_without_list_dense_error", seq_example(None, {"f": [v[0:2], None]}),
          fd=[("f", [2])], error="INVALID_ARGUMENT",
          phrases=["Name: , Feature list: f, Index: 1.  Data types don't match. Expected type: "
                   "%s" % TF_NAME[dt]])
        c("default_shape_error", one, cd=[("c", [2], v[0:3])], error="INVALID_ARGUMENT",
          phrases=["def_value[0].shape() == [3] != context_dense_shapes_[0] == [2]"])
        c("unparsable_record_error", b"\x0a\x05abc", cs=["s"], error="INVALID_ARGUMENT",
          phrases=["Could not parse example input, value: '"])

    rec.for_dtypes(op, list(TYPES), gen)


def build_all(rec, emit):
    parse_sequence_example_v2(rec)
    emit("ParseSequenceExampleV2")
    parse_sequence_example(rec)
    emit("ParseSequenceExample")
    parse_single_sequence_example(rec)
    emit("ParseSingleSequenceExample")
