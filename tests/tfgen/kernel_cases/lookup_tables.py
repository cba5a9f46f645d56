"""Lookup tables: HashTableV2 (initialized once by InitializeTableV2 or LookupTableImportV2; initializing
again with the same entries is a no-op, with others FailedPrecondition) and MutableHashTableV2 (LookupTableInsertV2 adds or overwrites,
LookupTableImportV2 replaces), read by LookupTableFindV2 (default_value's first element for
absent keys), LookupTableSizeV2 and LookupTableExportV2 (one entry: TensorFlow's export order is
its hash map's). Each case builds a table, runs the steps in order (control dependencies) and
fetches `out`."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph

tf1 = tf.compat.v1
R = tf.raw_ops


def free_ph(name, value):
    """A Placeholder outside any control-dependency block (a fed placeholder's control edges are
    dropped, and TensorFlow then drops its consumer's as redundant)."""
    with tf1.control_dependencies(None):
        return ph(name, value)


def S(v):
    return np.array(v, dtype=object)


def I(v):
    return np.array(v, dtype=np.int64)


class _Case:
    """table(mutable, key_dtype, value_dtype), steps [(op, keys, values)], then out(handle)."""

    def __init__(self, rec, op, dt):
        self.rec, self.op, self.dt = rec, op, dt

    def __call__(self, what, steps, out, mutable=False, kd=tf.string, vd=tf.int64, error=None,
                 phrases=()):
        def build():
            h = (R.MutableHashTableV2 if mutable else R.HashTableV2)(
                key_dtype=kd, value_dtype=vd, shared_name="table", name="table")
            deps = []
            for i, (op, keys, values) in enumerate(steps):
                with tf1.control_dependencies(deps):
                    deps = [getattr(R, op)(table_handle=h, keys=free_ph("k%d" % i, keys),
                                           values=free_ph("v%d" % i, values), name="step%d" % i)]
            with tf1.control_dependencies(deps):
                return out(h)
        self.rec.case(self.op, self.dt, what, build, error=error, phrases=phrases)


def find(keys, default):
    return lambda h: R.LookupTableFindV2(table_handle=h, keys=free_ph("keys", keys),
                                         default_value=free_ph("default", default), name="out")


def size(h):
    return R.LookupTableSizeV2(table_handle=h, name="out")


INIT = "InitializeTableV2"
IMPORT = "LookupTableImportV2"
INSERT = "LookupTableInsertV2"
AB = (S(["a", "b"]), I([1, 2]))


def build_all(rec, emit):
    def suite(op, dt, gen):
        rec.for_dtypes(op, [dt], lambda d: gen(_Case(rec, op, d)))
        emit(op)

    def hash_table(c):
        c("string_to_int64", [(INIT,) + AB], find(S(["b", "zz", "a"]), I(-1)))
        c("int64_to_float", [(INIT, I([3, -7]), np.array([0.5, 2.5], np.float32))],
          find(I([[-7, 3], [0, 3]]), np.float32(-1)), kd=tf.int64, vd=tf.float32)

    def mutable_table(c):
        c("empty_finds_default", [], find(S(["a"]), I(9)), mutable=True)
        c("int64_to_string", [(INSERT, I([5]), S(["five"]))], find(I([5, 6]), S("?")),
          mutable=True, kd=tf.int64, vd=tf.string)

    def initialize(c):
        c("then_size", [(INIT,) + AB], size)
        c("second_initialization_same_data", [(INIT,) + AB, (INIT, S(["b", "a"]), I([2, 1]))],
          find(S(["a", "z"]), I(-1)))
        c("second_initialization_error", [(INIT,) + AB, (INIT, S(["z"]), I([9]))], size,
          error="FAILED_PRECONDITION", phrases=["Table was already initialized with different data."])
        c("duplicate_same_value", [(INIT, S(["a", "a"]), I([1, 1]))], size)
        c("duplicate_key_error", [(INIT, S(["a", "a"]), I([1, 2]))], size,
          error="FAILED_PRECONDITION",
          phrases=["HashTable has different value for same key. Key a has 1 and trying to add "
                   "value 2"])
        c("size_mismatch_error", [(INIT, S(["a", "b"]), I([1]))], size, error="INVALID_ARGUMENT",
          phrases=["Keys and values must have the same size 2 vs 1"])
        c("matrix_keys_error", [(INIT, S([["a"]]), I([[1]]))], size, error="INVALID_ARGUMENT",
          phrases=["Keys must be a vector, but received shape[1,1]"])
        c("key_dtype_error", [(INIT, I([1]), I([1]))], size, error="INVALID_ARGUMENT",
          phrases=["Signature mismatch, have: resource, int64, int64-> expected: resource, "
                   "string, int64->"])

    def import_(c):
        c("hash_table", [(IMPORT,) + AB], find(S(["a", "c"]), I(-1)))
        c("hash_table_second_error", [(IMPORT,) + AB, (IMPORT, S(["z"]), I([9]))], size,
          error="FAILED_PRECONDITION", phrases=["Table was already initialized with different data."])
        c("mutable_replaces", [(INSERT, S(["z"]), I([9])), (IMPORT,) + AB],
          find(S(["a", "z"]), I(-1)), mutable=True)
        c("mutable_shape_error", [(IMPORT, S(["a", "b"]), I([1]))], size, mutable=True,
          error="INVALID_ARGUMENT", phrases=["Expected shape [2] for value, got [1]"])

    def insert(c):
        c("overwrites", [(INSERT,) + AB, (INSERT, S(["b"]), I([5]))],
          find(S(["a", "c", "b"]), I(-1)), mutable=True)
        c("matrix_keys", [(INSERT, S([["a", "b"]]), I([[1, 2]]))], size, mutable=True)
        c("shape_error", [(INSERT, S(["a", "b"]), I([1]))], size, mutable=True,
          error="INVALID_ARGUMENT", phrases=["Expected shape [2] for value, got [1]"])
        c("hash_table_error", [(INSERT, S(["a"]), I([1]))], size, error="UNIMPLEMENTED",
          phrases=["Insert not supported by InitializableLookupTable implementations"])

    def find_(c):
        c("matrix_keys", [(INIT,) + AB], find(S([["a", "c"], ["b", "b"]]), I(-1)))
        c("default_vector_first_element", [(INIT,) + AB], find(S(["a", "c"]), I([-5, -6])))
        c("uninitialized_error", [], find(S(["a"]), I(-1)), error="FAILED_PRECONDITION",
          phrases=["Table not initialized."])
        c("key_dtype_error", [(INIT,) + AB], find(I([1]), I(-1)), error="INVALID_ARGUMENT",
          phrases=["Signature mismatch, have: resource, int64, int64->int64 expected: resource, "
                   "string, int64->int64"])

    def size_(c):
        c("uninitialized_zero", [], size)
        c("mutable_after_inserts", [(INSERT,) + AB, (INSERT, S(["a", "c"]), I([0, 3]))], size,
          mutable=True)

    def export(c):
        out = lambda h: R.LookupTableExportV2(table_handle=h, Tkeys=tf.string, Tvalues=tf.int64,
                                              name="out")
        c("mutable_one_entry", [(INSERT, S(["k"]), I([4]))], out, mutable=True)
        c("hash_table_one_entry", [(INIT, S(["k"]), I([4]))], out)

    def text_file(c):
        data = "tests/conformance/data/"
        vocab, words, empty = data + "lookup_vocab.txt", data + "lookup_words.txt", \
            data + "lookup_vocab_empty_line.txt"

        def t(what, filename, out, kd=tf.string, vd=tf.int64, error=None, phrases=(), **attrs):
            def build():
                h = R.HashTableV2(key_dtype=kd, value_dtype=vd, shared_name="table",
                                  name="table")
                init = R.InitializeTableFromTextFileV2(
                    table_handle=h, filename=free_ph("filename", np.array(filename, object)),
                    name="init", **attrs)
                with tf1.control_dependencies([init]):
                    return out(h)
            c.rec.case(c.op, c.dt, what, build, error=error, phrases=phrases)

        t("columns", vocab, find(S(["banana", "zz", "apple"]), I(-1)), key_index=0,
          value_index=1)
        t("whole_line_to_line_number", words, find(S(["c", "a", "q"]), I(-1)), key_index=-2,
          value_index=-1)
        t("offset", words, find(S(["c", "a"]), I(-1)), key_index=-2, value_index=-1, offset=5)
        t("vocab_size_truncates", words, find(S(["a", "c"]), I(-1)), key_index=-2,
          value_index=-1, vocab_size=2)
        t("line_number_keys", words, find(I([2, 0, 7]), S("?")), kd=tf.int64, vd=tf.string,
          key_index=-1, value_index=-2)
        t("string_values", vocab, find(S(["cherry"]), S("?")), vd=tf.string, key_index=0,
          value_index=1, delimiter="\t")
        t("vocab_size_error", words, size, key_index=-2, value_index=-1, vocab_size=5,
          error="INVALID_ARGUMENT",
          phrases=["Invalid vocab_size in " + words + ": expected 5 but got 3"])
        t("empty_line_error", empty, size, key_index=0, value_index=1, error="INVALID_ARGUMENT",
          phrases=["Invalid content in " + empty + ": empty line found at position 10."])
        t("columns_error", vocab, size, key_index=0, value_index=2, error="INVALID_ARGUMENT",
          phrases=["Invalid number of columns in " + vocab + " line 0 (apple\t10) : expected "
                   "at least 3 got 2"])
        t("parse_error", vocab, size, kd=tf.int64, key_index=0, value_index=1,
          error="INVALID_ARGUMENT", phrases=["Field apple in line 0 is not a valid int64."])
        t("line_number_dtype_error", words, size, vd=tf.string, key_index=-1, value_index=-2,
          error="INVALID_ARGUMENT",
          phrases=["Key index for line number requires table key dtype of int64, got string"])
        t("missing_file_error", data + "lookup_missing.txt", size, key_index=-2, value_index=-1,
          error="NOT_FOUND", phrases=[data + "lookup_missing.txt; No such file or directory"])

    suite("InitializeTableFromTextFileV2", "int64", text_file)
    suite("HashTableV2", "int64", hash_table)
    suite("MutableHashTableV2", "int64", mutable_table)
    suite("InitializeTableV2", "int64", initialize)
    suite("LookupTableImportV2", "int64", import_)
    suite("LookupTableInsertV2", "int64", insert)
    suite("LookupTableFindV2", "int64", find_)
    suite("LookupTableSizeV2", "int64", size_)
    suite("LookupTableExportV2", "int64", export)
