"""tf.data in TF1 graphs: TensorDataset (one element: its components), Iterator and IteratorV2
(a resource per shared_name, else per node), MakeIterator ((re)starts an iterator on a dataset,
checking the dataset's declared types and shapes) and IteratorGetNext (the next element, then
OutOfRange "End of sequence"; its attrs checked against the element). Each case builds the chain,
runs its steps in order (control dependencies) and fetches the last IteratorGetNext; a dataset
itself (a variant) cannot be fetched."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph

tf1 = tf.compat.v1
R = tf.raw_ops

PAIR = np.array([21718, 31415], np.int32)
VEC = np.array([1.0, 2.0, 3.0], np.float32)


def chain(components, shapes, it_types, it_shapes, steps, iterator=R.Iterator, shared_name=""):
    """TensorDataset(components fed by placeholders, output_shapes=shapes) and an iterator of
    it_types/it_shapes; steps: "make", or ("next", types, shapes). Returns the last next's
    outputs."""
    def build():
        comps = [ph("c%d" % i, v) for i, v in enumerate(components)]
        ds = R.TensorDataset(components=comps, output_shapes=shapes, name="ds")
        it = iterator(shared_name=shared_name, container="", output_types=it_types,
                      output_shapes=it_shapes, name="it")
        deps, out = [], None
        for i, step in enumerate(steps):
            with tf1.control_dependencies(deps):
                if step == "make":
                    op = R.MakeIterator(dataset=ds, iterator=it, name="make%d" % i)
                    deps = [op]
                else:
                    _, types, shapes_ = step
                    out = R.IteratorGetNext(iterator=it, output_types=types,
                                            output_shapes=shapes_, name="next%d" % i)
                    deps = [out[0].op]
        return out
    return build


def build_all(rec, emit):
    def suite(op, dt, gen):
        rec.for_dtypes(op, [dt], lambda d: gen(lambda *a, **k: rec.case(op, d, *a, **k)))
        emit(op)

    I32, F32 = tf.int32, tf.float32
    NEXT_PAIR = ("next", [I32], [[2]])
    NEXT_VEC = ("next", [F32], [[3]])

    def tensor_dataset(c):
        c("go_binding_pair", chain([PAIR], [[2]], [I32], [[2]], ["make", NEXT_PAIR]),
          case_dtype="")
        c("two_components", chain([VEC, np.int32(5)], [[3], []], [F32, I32], [[3], []],
                                  ["make", ("next", [F32, I32], [[3], []])]), case_dtype="")
        c("strings", chain([np.array([b"a", b"bc"], object)], [[2]], [tf.string], [[2]],
                           ["make", ("next", [tf.string], [[2]])]), case_dtype="")
        c("unknown_dims", chain([VEC], [[None]], [F32], [None], ["make", NEXT_VEC]),
          case_dtype="")
        c("shape_count_error", chain([VEC], [[3], [2]], [F32], [[3]], ["make", NEXT_VEC]),
          case_dtype="", error="INVALID_ARGUMENT",
          phrases=["Number of components does not match: expected 1 shapes but got 2."])
        c("shape_error", chain([VEC], [[3, 1]], [F32], [[3, 1]], ["make", NEXT_VEC]),
          case_dtype="", error="INVALID_ARGUMENT",
          phrases=["Incompatible shapes at component 0: expected [3] but got [3,1]."])

    def iterator(c):
        c("shared_name", chain([PAIR], [[2]], [I32], [[2]], ["make", NEXT_PAIR],
                               shared_name="shared"), case_dtype="")
        c("uninitialized_error", chain([PAIR], [[2]], [I32], [[2]], [NEXT_PAIR]), case_dtype="",
          error="FAILED_PRECONDITION",
          phrases=["GetNext() failed because the iterator has not been initialized. Ensure that "
                   "you have run the initializer operation for this iterator before getting "
                   "the next element."])

    def iterator_v2(c):
        c("pair", chain([PAIR], [[2]], [I32], [[2]], ["make", NEXT_PAIR], iterator=R.IteratorV2),
          case_dtype="")

    def make_iterator(c):
        c("again_restarts", chain([PAIR], [[2]], [I32], [[2]],
                                  ["make", NEXT_PAIR, "make", NEXT_PAIR]), case_dtype="")
        c("type_error", chain([VEC], [[3]], [I32], [[3]], ["make", NEXT_PAIR]), case_dtype="",
          error="INVALID_ARGUMENT",
          phrases=["Data type mismatch at component 0: expected int32 but got float."])
        c("shape_error", chain([VEC], [[3]], [F32], [[2]], ["make", NEXT_VEC]), case_dtype="",
          error="INVALID_ARGUMENT",
          phrases=["Incompatible shapes at component 0: expected [2] but got [3]."])
        c("count_error", chain([VEC], [[3]], [F32, F32], [[3], [3]], ["make", NEXT_VEC]),
          case_dtype="", error="INVALID_ARGUMENT",
          phrases=["Number of components does not match: expected 2 types but got 1."])

    def get_next(c):
        c("end_of_sequence_error", chain([PAIR], [[2]], [I32], [[2]],
                                         ["make", NEXT_PAIR, NEXT_PAIR]), case_dtype="",
          error="OUT_OF_RANGE", phrases=["End of sequence"])
        c("unknown_shape", chain([VEC], [[3]], [F32], [[3]], ["make", ("next", [F32], [None])]),
          case_dtype="")
        c("type_error", chain([VEC], [[3]], [F32], [[3]], ["make", ("next", [I32], [[3]])]),
          case_dtype="", error="INVALID_ARGUMENT",
          phrases=["Data type mismatch at component 0: expected int32 but got float."])
        c("shape_error", chain([VEC], [[3]], [F32], [[3]], ["make", ("next", [F32], [[2]])]),
          case_dtype="", error="INVALID_ARGUMENT",
          phrases=["Incompatible shapes at component 0: expected [2] but got [3]."])
        c("count_error", chain([VEC, np.int32(5)], [[3], []], [F32, I32], [[3], []],
                               ["make", NEXT_VEC]), case_dtype="", error="INVALID_ARGUMENT",
          phrases=["Number of components does not match: expected 1 types but got 2."])

    suite("TensorDataset", "variant", tensor_dataset)
    suite("Iterator", "resource", iterator)
    suite("IteratorV2", "resource", iterator_v2)
    suite("MakeIterator", "resource", make_iterator)
    suite("IteratorGetNext", "resource", get_next)
