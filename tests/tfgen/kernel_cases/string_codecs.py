"""String hashes and byte encodings: StringToHashBucket (TensorFlow's Hash64),
StringToHashBucketStrong (SipHash-2-4 keyed by the `key` attr), Fingerprint (FarmHash
Fingerprint64 of each row, "farmhash64"), EncodeBase64 / DecodeBase64 (web-safe), DecodeRaw
(bytes as numbers, both byte orders)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph, rand

# Lengths around the hashes' 8-, 16-, 32- and 64-byte blocks.
LENGTHS = list(range(0, 40)) + [63, 64, 65, 100, 127, 128, 129, 1000]


def _s(values):
    return np.array(values, dtype=object)


def _random_bytes(seed):
    rs = np.random.RandomState(seed)
    return [bytes(rs.randint(0, 256, n).astype(np.uint8)) for n in LENGTHS]


def _hash_buckets(rec):
    values = _random_bytes(11)

    def gen(dt):
        for buckets in (1, 10, 1 << 40):
            rec.case("StringToHashBucket", dt, "buckets_%d" % buckets,
                     lambda buckets=buckets: tf.raw_ops.StringToHashBucket(
                         string_tensor=ph("x", _s(values)), num_buckets=buckets, name="out"),
                     case_dtype="")
        rec.case("StringToHashBucket", dt, "matrix", lambda: tf.raw_ops.StringToHashBucket(
            string_tensor=ph("x", _s([[b"hello", b"world"], [b"", b"Keras"]])), num_buckets=97,
            name="out"), case_dtype="")

    rec.for_dtypes("StringToHashBucket", ["string"], gen)

    def gen_strong(dt):
        for key in ([1, 2], [0, 0], [-1, 2 ** 62 + 5]):
            rec.case("StringToHashBucketStrong", dt, "key_%d_%d" % (key[0] & 0xffff, key[1] & 0xffff),
                     lambda key=key: tf.raw_ops.StringToHashBucketStrong(
                         input=ph("x", _s(values)), num_buckets=1 << 40, key=key, name="out"),
                     case_dtype="")
        rec.case("StringToHashBucketStrong", dt, "ten_buckets",
                 lambda: tf.raw_ops.StringToHashBucketStrong(
                     input=ph("x", _s([b"a", b"bb", b""])), num_buckets=10, key=[7, 9],
                     name="out"), case_dtype="")

    rec.for_dtypes("StringToHashBucketStrong", ["string"], gen_strong)


def _fingerprint(rec):
    op = "Fingerprint"
    dtypes = ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16", "bool",
              "string"]

    def gen(dt):
        def c(what, data, method="farmhash64", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Fingerprint(
                data=ph("x", data), method=ph("method", _s(method) if isinstance(method, list)
                                              else np.array(method, dtype=object)),
                name="out"), error=error, phrases=phrases)

        if dt == "string":
            c("one_per_row", _s([b"a", b"bc", b""] + _random_bytes(3)[:5]))
            c("rows_of_three", _s([[b"a", b"bc", b""], [b"x" * 70, b"y", b"z"]]))
            c("rank3", _s([[[b"a"], [b"b"]], [[b"c"], [b"d"]]]))
            base = _s([b"a"])
        else:
            base = rand(dt, [3, 5], "Fingerprint/" + dt)
            c("matrix", base)
            c("vector", rand(dt, [9], "Fingerprint/v/" + dt))
            c("rank3_long_rows", rand(dt, [2, 4, 10], "Fingerprint/r/" + dt))
            c("zero_rows", np.zeros([0, 3], dtype=base.dtype))
            c("empty_rows", np.zeros([2, 0], dtype=base.dtype))
        c("method_error", base, method="md5", error="INVALID_ARGUMENT",
          phrases=["Unsupported fingerprint method: md5"])
        c("method_vector_error", base, method=["farmhash64"], error="INVALID_ARGUMENT",
          phrases=["`method` should be a scalar string: [1]"])
        c("scalar_error", base.reshape(-1)[0], error="INVALID_ARGUMENT",
          phrases=["`data` should have at least one dimension: []"])

    rec.for_dtypes(op, dtypes, gen)


def _base64(rec):
    values = _random_bytes(5)

    def gen_enc(dt):
        for pad in (False, True):
            rec.case("EncodeBase64", dt, "pad_%s" % pad, lambda pad=pad: tf.raw_ops.EncodeBase64(
                input=ph("x", _s(values)), pad=pad, name="out"), case_dtype="")
        rec.case("EncodeBase64", dt, "matrix", lambda: tf.raw_ops.EncodeBase64(
            input=ph("x", _s([[b"", b"\xff\xfe?>"], [b"abc", b"ab"]])), name="out"),
            case_dtype="")

    rec.for_dtypes("EncodeBase64", ["string"], gen_enc)

    def gen_dec(dt):
        def c(what, strings, error=None, phrases=()):
            rec.case("DecodeBase64", dt, what, lambda: tf.raw_ops.DecodeBase64(
                input=ph("x", _s(strings)), name="out"), error=error, phrases=phrases,
                case_dtype="")

        padded = [tf.io.encode_base64(v, pad=True).numpy() for v in values]
        bare = [tf.io.encode_base64(v).numpy() for v in values]
        c("padded", padded)
        c("unpadded", bare)
        c("mixed_matrix", [[b"", b"YQ"], [b"YWI=", b"__4_Pg"]])
        c("trailing_bits_ignored", [b"YR", b"YWJ"])
        for what, bad in (("one_pad", b"YQ="), ("only_padding", b"===="), ("standard_alphabet",
                          b"a+b/"), ("padding_inside", b"YQ==YWJj"), ("bad_character", b"Y!==")):
            c(what + "_error", [b"YWJj", bad], error="INVALID_ARGUMENT",
              phrases=["Invalid character found in base64."])
        c("one_modulo_four_error", [b"YWJjY"], error="INVALID_ARGUMENT",
          phrases=["Base64 string length cannot be 1 modulo 4."])

    rec.for_dtypes("DecodeBase64", ["string"], gen_dec)


def _decode_raw(rec):
    dtypes = ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16", "bool"]

    def gen(dt):
        def c(what, strings, little=True, error=None, phrases=()):
            rec.case("DecodeRaw", dt, what, lambda: tf.raw_ops.DecodeRaw(
                bytes=ph("x", _s(strings)), out_type=dt, little_endian=little, name="out"),
                error=error, phrases=phrases)

        vals = rand(dt, [2, 3, 4], "DecodeRaw/" + dt)
        rows = [[vals[i, j].tobytes() for j in range(3)] for i in range(2)]
        c("little_endian", rows)
        c("big_endian", rows, little=False)
        c("scalar", np.array(vals[0, 0].tobytes(), dtype=object))
        c("empty_strings", [b"", b""])
        c("no_strings", np.zeros([0, 2], dtype=object))
        c("size_mismatch_error", [vals[0, 0].tobytes(), vals[0].tobytes()],
          error="INVALID_ARGUMENT",
          phrases=["DecodeRaw requires input strings to all be the same size, but element 1"])
        if dt not in ("uint8", "int8", "bool"):
            c("not_a_multiple_error", [b"abc"], error="INVALID_ARGUMENT",
              phrases=["that is not a multiple of"])

    rec.for_dtypes("DecodeRaw", dtypes, gen)


def build_all(rec, emit):
    _hash_buckets(rec)
    emit("StringToHashBucket")
    emit("StringToHashBucketStrong")
    _fingerprint(rec)
    emit("Fingerprint")
    _base64(rec)
    emit("EncodeBase64")
    emit("DecodeBase64")
    _decode_raw(rec)
    emit("DecodeRaw")
