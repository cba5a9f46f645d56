"""TensorList ops (TensorFlow 2's lists; tf.TensorArray and Keras RNN loops use them). A list is a
variant tensor, which neither feeds nor fetches, so each case builds lists and reads dense
tensors out of them (Stack, GetItem, Length, ElementShape, PopBack). One suite per op, the op
under test named "out"."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import const, ph, rand

R = tf.raw_ops


def _shape(dims, name="shape"):
    return const(name, dims if dims is not None else -1, "int32")


def build_all(rec, emit):
    def suite(op, gen, dtypes=("float32", "int32")):
        rec.for_dtypes(op, list(dtypes), gen)
        emit(op)

    def c(op, dt, what, build, **kw):
        rec.case(op, dt, what, build, **kw)

    def tdt(dt):
        return tf.as_dtype(dt)

    def reserve(dt):
        a, b = rand(dt, [2], "L/a" + dt), rand(dt, [2], "L/b" + dt)

        def filled():
            l0 = R.TensorListReserve(element_shape=_shape([2]), num_elements=const("n", 3),
                                     element_dtype=tdt(dt), name="out")
            l1 = R.TensorListSetItem(input_handle=l0, index=const("i0", 0), item=ph("a", a))
            l2 = R.TensorListSetItem(input_handle=l1, index=const("i2", 2), item=ph("b", b))
            return R.TensorListStack(input_handle=l2, element_shape=_shape([2], "es"),
                                     element_dtype=tdt(dt))
        c("TensorListReserve", dt, "set_two_of_three", filled)
        c("TensorListReserve", dt, "negative_error", lambda: R.TensorListStack(
            input_handle=R.TensorListReserve(element_shape=_shape([2]),
                                             num_elements=ph("n", np.int32(-1)),
                                             element_dtype=tdt(dt), name="out"),
            element_shape=_shape([2], "es"), element_dtype=tdt(dt)),
          error="INVALID_ARGUMENT",
          phrases=["The num_elements to reserve must be a non negative number, but got -1"])

    def from_tensor(dt):
        x = rand(dt, [3, 2], "L/x" + dt)
        c("TensorListFromTensor", dt, "round_trip", lambda: R.TensorListStack(
            input_handle=R.TensorListFromTensor(tensor=ph("x", x), element_shape=_shape([2]),
                                                name="out"),
            element_shape=_shape([-1], "es"), element_dtype=tdt(dt)))
        c("TensorListFromTensor", dt, "scalar_error", lambda: R.TensorListLength(
            input_handle=R.TensorListFromTensor(tensor=ph("x", x[0, 0]),
                                                element_shape=_shape(None), name="out")),
          error="INVALID_ARGUMENT", phrases=["Tensor must be at least a vector, but saw shape: []"])

    def get_item(dt):
        x = rand(dt, [3, 2], "L/g" + dt)

        def lst():
            return R.TensorListFromTensor(tensor=ph("x", x), element_shape=_shape([2]))
        c("TensorListGetItem", dt, "item_1", lambda: R.TensorListGetItem(
            input_handle=lst(), index=ph("i", np.int32(1)), element_shape=_shape([2], "es"),
            element_dtype=tdt(dt), name="out"))
        c("TensorListGetItem", dt, "out_of_range_error", lambda: R.TensorListGetItem(
            input_handle=lst(), index=ph("i", np.int32(3)), element_shape=_shape([2], "es"),
            element_dtype=tdt(dt), name="out"),
          error="INVALID_ARGUMENT", phrases=["Trying to access element 3 in a list with 3 elements."])
        c("TensorListGetItem", dt, "unset_known_shape", lambda: R.TensorListGetItem(
            input_handle=R.TensorListReserve(element_shape=_shape([2, 2]),
                                             num_elements=const("n", 2), element_dtype=tdt(dt)),
            index=ph("i", np.int32(1)), element_shape=_shape(None, "es"),
            element_dtype=tdt(dt), name="out"))

    def set_item(dt):
        x = rand(dt, [2, 2], "L/s" + dt)
        y = rand(dt, [2], "L/y" + dt)

        def lst():
            return R.TensorListFromTensor(tensor=ph("x", x), element_shape=_shape([2]))

        def stack(l):
            return R.TensorListStack(input_handle=l, element_shape=_shape([2], "es"),
                                     element_dtype=tdt(dt))
        c("TensorListSetItem", dt, "replace_0", lambda: stack(R.TensorListSetItem(
            input_handle=lst(), index=ph("i", np.int32(0)), item=ph("y", y), name="out")))
        c("TensorListSetItem", dt, "out_of_range_error", lambda: stack(R.TensorListSetItem(
            input_handle=lst(), index=ph("i", np.int32(2)), item=ph("y", y), name="out")),
          error="INVALID_ARGUMENT", phrases=["Trying to modify element 2 in a list with 2 elements."])
        c("TensorListSetItem", dt, "resize", lambda: stack(R.TensorListSetItem(
            input_handle=lst(), index=ph("i", np.int32(3)), item=ph("y", y),
            resize_if_index_out_of_bounds=True, name="out")))

    def stack_op(dt):
        x = rand(dt, [3, 2], "L/k" + dt)
        c("TensorListStack", dt, "num_elements_error", lambda: R.TensorListStack(
            input_handle=R.TensorListFromTensor(tensor=ph("x", x), element_shape=_shape([2])),
            element_shape=_shape([2], "es"), element_dtype=tdt(dt), num_elements=2, name="out"),
          error="INVALID_ARGUMENT",
          phrases=["Operation expected a list with 2 elements but got a list with 3 elements."])
        c("TensorListStack", dt, "empty_known_shape", lambda: R.TensorListStack(
            input_handle=R.EmptyTensorList(element_shape=_shape([2]),
                                           max_num_elements=const("m", -1),
                                           element_dtype=tdt(dt)),
            element_shape=_shape([2], "es"), element_dtype=tdt(dt), name="out"))
        c("TensorListStack", dt, "empty_unknown_shape_error", lambda: R.TensorListStack(
            input_handle=R.EmptyTensorList(element_shape=_shape(None),
                                           max_num_elements=const("m", -1),
                                           element_dtype=tdt(dt)),
            element_shape=_shape(None, "es"), element_dtype=tdt(dt), name="out"),
          error="INVALID_ARGUMENT",
          phrases=["Tried to stack elements of an empty list with non-fully-defined element_shape"])

    def length(dt):
        x = rand(dt, [4, 3], "L/l" + dt)
        c("TensorListLength", dt, "four", lambda: R.TensorListLength(
            input_handle=R.TensorListFromTensor(tensor=ph("x", x), element_shape=_shape([3])),
            name="out"))

    def element_shape(dt):
        c("TensorListElementShape", dt, "partial", lambda: R.TensorListElementShape(
            input_handle=R.TensorListReserve(element_shape=_shape([-1, 3]),
                                             num_elements=const("n", 1), element_dtype=tdt(dt)),
            shape_type=tf.int32, name="out"))
        c("TensorListElementShape", dt, "unknown_rank", lambda: R.TensorListElementShape(
            input_handle=R.TensorListReserve(element_shape=_shape(None),
                                             num_elements=const("n", 1), element_dtype=tdt(dt)),
            shape_type=tf.int64, name="out"))

    def pushed_list(dt, cap):
        a, b = rand(dt, [2], "L/pa" + dt), rand(dt, [2], "L/pb" + dt)
        l0 = R.EmptyTensorList(element_shape=_shape([2]), max_num_elements=const("m", cap),
                               element_dtype=tdt(dt))
        l1 = R.TensorListPushBack(input_handle=l0, tensor=ph("a", a))
        return R.TensorListPushBack(input_handle=l1, tensor=ph("b", b), name="out")

    def push_back(dt):
        def pushed(cap):
            return pushed_list(dt, cap)
        c("TensorListPushBack", dt, "two", lambda: R.TensorListStack(
            input_handle=pushed(-1), element_shape=_shape([2], "es"), element_dtype=tdt(dt)))
        c("TensorListPushBack", dt, "full_error", lambda: R.TensorListLength(
            input_handle=pushed(1)),
          error="INVALID_ARGUMENT", phrases=["Tried to push item into a full list"])

    def empty(dt):
        c("EmptyTensorList", dt, "length_zero", lambda: R.TensorListLength(
            input_handle=R.EmptyTensorList(element_shape=_shape([2]),
                                           max_num_elements=const("m", -1),
                                           element_dtype=tdt(dt), name="out")))

    def pop_back(dt):
        def popped():
            l, item = R.TensorListPopBack(input_handle=pushed_list(dt, -1),
                                          element_shape=_shape([2], "es"),
                                          element_dtype=tdt(dt), name="pop")
            return [item, R.TensorListLength(input_handle=l)]
        rec.case("TensorListPopBack", dt, "last", popped)
        c("TensorListPopBack", dt, "empty_error", lambda: R.TensorListPopBack(
            input_handle=R.EmptyTensorList(element_shape=_shape([2]),
                                           max_num_elements=const("m", -1),
                                           element_dtype=tdt(dt)),
            element_shape=_shape([2], "es"), element_dtype=tdt(dt), name="out")[1],
          error="INVALID_ARGUMENT", phrases=["Trying to pop from an empty list."])

    def concat(dt):
        a, b = rand(dt, [2, 3], "Lc/a" + dt), rand(dt, [1, 3], "Lc/b" + dt)

        def cat(l, shape, leading=(), name="out"):
            return list(R.TensorListConcatV2(
                input_handle=l, element_shape=_shape(shape, "es"),
                leading_dims=tf.constant(list(leading), tf.int64), element_dtype=tdt(dt),
                name=name))

        def ragged():
            # Set elements of different lengths, one empty (what per-class NMS writes).
            l = R.EmptyTensorList(element_shape=_shape([-1, 3]), max_num_elements=const("m", -1),
                                  element_dtype=tdt(dt))
            for i, v in enumerate([a, np.zeros([0, 3], a.dtype), b, a]):
                l = R.TensorListPushBack(input_handle=l, tensor=ph("v%d" % i, v))
            return cat(l, [-1, 3])
        c("TensorListConcatV2", dt, "ragged_lengths", ragged)

        def unset_leading():
            l = R.TensorListReserve(element_shape=_shape([-1, 3]), num_elements=const("n", 3),
                                    element_dtype=tdt(dt))
            l = R.TensorListSetItem(input_handle=l, index=const("i", 1), item=ph("a", a))
            return cat(l, [-1, 3], leading=[4, 9, 1])
        c("TensorListConcatV2", dt, "unset_from_leading_dims", unset_leading)

        def unset_inferred():
            l = R.TensorListReserve(element_shape=_shape([-1, 3]), num_elements=const("n", 3),
                                    element_dtype=tdt(dt))
            l = R.TensorListSetItem(input_handle=l, index=const("i", 0), item=ph("a", a))
            l = R.TensorListSetItem(input_handle=l, index=const("j", 2), item=ph("c", a + a))
            return cat(l, [-1, 3])
        c("TensorListConcatV2", dt, "unset_inferred_first_dim", unset_inferred)

        def unset_shape_first_dim():
            l = R.TensorListReserve(element_shape=_shape([2, 3]), num_elements=const("n", 2),
                                    element_dtype=tdt(dt))
            return cat(l, [2, 3])
        c("TensorListConcatV2", dt, "unset_known_shape", unset_shape_first_dim)

        def empty():
            l = R.EmptyTensorList(element_shape=_shape([-1, 2]), max_num_elements=const("m", -1),
                                  element_dtype=tdt(dt))
            return cat(l, [-1, 2])
        c("TensorListConcatV2", dt, "empty_list", empty)

        def from_tensor():
            l = R.TensorListFromTensor(tensor=ph("x", rand(dt, [3, 2, 2], "Lc/x" + dt)),
                                       element_shape=_shape([2, 2]))
            return cat(l, None)
        c("TensorListConcatV2", dt, "from_tensor", from_tensor)

        def errors(what, build, phrase):
            c("TensorListConcatV2", dt, what, build, error="INVALID_ARGUMENT", phrases=[phrase])

        errors("empty_unknown_error", lambda: cat(R.EmptyTensorList(
            element_shape=_shape(None), max_num_elements=const("m", -1),
            element_dtype=tdt(dt)), None),
            "All except the first dimension must be fully defined when concating an empty "
            "tensor list.")
        errors("scalar_shape_error", lambda: cat(R.EmptyTensorList(
            element_shape=_shape([]), max_num_elements=const("m", -1),
            element_dtype=tdt(dt)), []),
            "Concat requires elements to be at least vectors, found scalars instead.")

        def first_dim_mismatch():
            l = R.EmptyTensorList(element_shape=_shape(None), max_num_elements=const("m", -1),
                                  element_dtype=tdt(dt))
            l = R.TensorListPushBack(input_handle=l, tensor=ph("a", a))
            return cat(l, [1, 3])
        errors("first_dim_mismatch_error", first_dim_mismatch,
               "First entry of element_shape input does not match the first dim of list "
               "element at index: 0 Expected: 1 Actual: 2")

        def unset_no_leading():
            # Set elements of different lengths leave no inferred first dim for the unset one.
            l = R.TensorListReserve(element_shape=_shape([-1, 3]), num_elements=const("n", 3),
                                    element_dtype=tdt(dt))
            l = R.TensorListSetItem(input_handle=l, index=const("i", 0), item=ph("a", a))
            l = R.TensorListSetItem(input_handle=l, index=const("j", 1), item=ph("b", b))
            return cat(l, [-1, 3], leading=[2])
        errors("unset_without_leading_dim_error", unset_no_leading,
               "List contains uninitialized tensor at index 2 but leading_dims has only 1 "
               "elements.")

    def split(dt):
        x = rand(dt, [5, 3], "Ls/x" + dt)

        def spl(lengths, shape=(-1, 3), value=None):
            return R.TensorListSplit(tensor=ph("x", x if value is None else value),
                                     element_shape=_shape(list(shape) if shape else shape),
                                     lengths=ph("lengths", np.array(lengths, np.int64)))

        def ragged():
            # Rows 2, 0 and 3 (an empty element), each read back, and the list concatenated.
            l = spl([2, 0, 3])
            items = [R.TensorListGetItem(input_handle=l, index=const("i%d" % i, i),
                                         element_shape=_shape([-1, 3], "es%d" % i),
                                         element_dtype=tdt(dt)) for i in range(3)]
            joined = R.TensorListConcatV2(input_handle=l, element_shape=_shape([-1, 3], "ces"),
                                          leading_dims=tf.constant([], tf.int64),
                                          element_dtype=tdt(dt), name="out")
            return items + list(joined)
        c("TensorListSplit", dt, "ragged_lengths", ragged)
        c("TensorListSplit", dt, "unknown_shape_length", lambda: R.TensorListLength(
            input_handle=spl([5], None), name="out"))

        def errors(what, build, phrase):
            c("TensorListSplit", dt, what, lambda: R.TensorListLength(input_handle=build(),
                                                                     name="out"),
              error="INVALID_ARGUMENT", phrases=[phrase])

        errors("unused_rows_error", lambda: spl([1, 2]),
               "Unused values in tensor. Length of tensor: 5 Values used: 3")
        errors("past_end_error", lambda: spl([4, 2]),
               "Attempting to slice [4, 6] from tensor with length 5")
        errors("negative_length_error", lambda: spl([-1, 6]), "Invalid value in lengths: -1")
        errors("scalar_shape_error", lambda: spl([5], []),
               "TensorListSplit requires element_shape to be at least of rank 1, but saw: []")
        errors("incompatible_shape_error", lambda: spl([5], (-1, 2)),
               "tensor shape [5,3] is not compatible with element_shape [?,2]")
        errors("scalar_tensor_error", lambda: spl([1], None, x[0, 0]),
               "Tensor must be at least a vector, but saw shape: []")

    suite("TensorListReserve", reserve)
    suite("TensorListFromTensor", from_tensor)
    suite("TensorListGetItem", get_item)
    suite("TensorListSetItem", set_item)
    suite("TensorListStack", stack_op)
    suite("TensorListLength", length)
    suite("TensorListElementShape", element_shape)
    suite("TensorListPushBack", push_back)
    suite("EmptyTensorList", empty)
    suite("TensorListPopBack", pop_back)
    suite("TensorListConcatV2", concat)
    suite("TensorListSplit", split)

    def gather(dt):
        x = rand(dt, [4, 3], "Lg/x" + dt)

        def g(l, idx, shape=None, name="out"):
            return R.TensorListGather(input_handle=l, indices=idx, element_shape=_shape(shape, "es"),
                                      element_dtype=tdt(dt), name=name)

        def lst(shape=(3,)):
            return R.TensorListFromTensor(tensor=ph("x", x),
                                          element_shape=_shape(list(shape) if shape else None))

        def pushed(values, shape):
            l = R.EmptyTensorList(element_shape=_shape(shape), max_num_elements=const("m", -1),
                                  element_dtype=tdt(dt))
            for i, v in enumerate(values):
                l = R.TensorListPushBack(input_handle=l, tensor=ph("v%d" % i, v))
            return l

        def reserved(shape, n=3):
            return R.TensorListReserve(element_shape=_shape(shape), num_elements=const("n", n),
                                       element_dtype=tdt(dt))

        def idx(v):
            return ph("i", np.array(v, np.int32))
        c("TensorListGather", dt, "repeated", lambda: g(lst(), idx([2, 0, 2])))
        c("TensorListGather", dt, "matrix_indices", lambda: g(lst(None), idx([[0, 1], [3, 2]])))
        c("TensorListGather", dt, "scalar_index", lambda: g(lst(), idx(1)))
        c("TensorListGather", dt, "no_indices", lambda: g(lst(), idx(np.zeros([0], np.int32))))
        c("TensorListGather", dt, "empty_list_known_shape", lambda: g(
            pushed([], [2]), idx(np.zeros([0], np.int32))))
        c("TensorListGather", dt, "unset_known_shape", lambda: g(reserved([2]), idx([1, 0])))
        c("TensorListGather", dt, "unset_shape_from_gathered", lambda: g(R.TensorListSetItem(
            input_handle=reserved(None), index=const("j", 2), item=ph("a", x[0])), idx([0, 2])))
        c("TensorListGather", dt, "requested_partial", lambda: g(
            pushed([x[:2]], [-1, -1]), idx([0]), [2, -1]))
        c("TensorListGather", dt, "scalar_elements", lambda: g(
            pushed([x[0, 0], x[1, 1]], None), idx([1, 0, 1])))

        def errors(what, build, phrase):
            c("TensorListGather", dt, what, build, error="INVALID_ARGUMENT", phrases=[phrase])
        errors("index_past_end_error", lambda: g(lst(), idx([1, 4])),
               "Index 4 out o range; list only has 4 elements.")
        errors("negative_index_error", lambda: g(lst(), idx([-1])),
               "Index -1 out o range; list only has 4 elements.")
        errors("unset_unknown_shape_error", lambda: g(reserved(None), idx([1, 0])),
               "Tried to gather uninitialized tensors from a list with non-fully-defined "
               "element_shape: <unknown>")
        errors("unset_not_gathered_error", lambda: g(R.TensorListSetItem(
            input_handle=reserved([-1]), index=const("j", 2), item=ph("a", x[0])), idx([1, 0])),
            "Tried to gather uninitialized tensors from a list with non-fully-defined "
            "element_shape: [?]")
        errors("no_indices_unknown_shape_error", lambda: g(pushed([x[0]], [-1]),
                                                           idx(np.zeros([0], np.int32))),
               "Tried to gather 0-elements from a list with non-fully-defined shape: [?]")
        errors("inferring_past_end_error", lambda: g(reserved(None, 2), idx([3])),
               "Trying to gather element 3 in a list with 2 elements.")
        errors("different_shapes_error", lambda: g(pushed([x[0], x[0, :2]], None), idx([0, 1])),
               "Incompatible shapes during merge: [3] vs. [2]")
        errors("requested_conflict_error", lambda: g(pushed([x[:2]], [-1, -1]), idx([0]),
                                                     [3, -1]),
               "Incompatible shapes during merge: [3,?] vs. [2,3]")

    def scatter(op):
        def gen(dt):
            x = rand(dt, [4, 3], "Lsc/x" + dt)

            def sc(idx, shape=(3,), value=None, num=None, name="out"):
                kw = dict(tensor=ph("x", x if value is None else value),
                          indices=ph("i", np.array(idx, np.int32)),
                          element_shape=_shape(list(shape) if shape is not None else None),
                          name=name)
                if op == "TensorListScatterV2":
                    kw["num_elements"] = ph("num", np.int32(-1 if num is None else num))
                return getattr(R, op)(**kw)

            def stack(l, shape=(3,)):
                return R.TensorListStack(input_handle=l, element_shape=_shape(list(shape), "es"),
                                         element_dtype=tdt(dt))

            def both(l):
                return [stack(l), R.TensorListLength(input_handle=l)]
            c(op, dt, "gaps", lambda: both(sc([5, 1, 3, 0])))
            c(op, dt, "repeated_index_last_wins", lambda: both(sc([1, 1, 0, 1])))
            c(op, dt, "unknown_shape", lambda: both(sc([3, 2, 1, 0], None)))
            c(op, dt, "no_rows", lambda: R.TensorListLength(input_handle=sc(
                np.zeros([0], np.int32), value=x[:0])))
            c(op, dt, "element_shape_kept", lambda: R.TensorListElementShape(
                input_handle=sc([0, 1, 2, 3], [-1]), shape_type=tf.int32))
            if op == "TensorListScatterV2":
                c(op, dt, "num_elements", lambda: both(sc([0, 2, 4, 1], num=7)))

            def errors(what, build, phrase):
                c(op, dt, what, lambda: R.TensorListLength(input_handle=build()),
                  error="INVALID_ARGUMENT", phrases=[phrase])
            errors("negative_index_error", lambda: sc([0, -1, 2, 3]),
                   "Indices in TensorListScatter must all be non-negative.")
            errors("row_count_error", lambda: sc([0, 1, 2]),
                   "Invalid number of rows in input tensor. Expected: 3 Actual: 4")
            errors("scalar_error", lambda: sc([0], None, x[0, 0]),
                   "Tensor must be at least a vector, but saw shape: []")
            errors("shape_error", lambda: sc([0, 1, 2, 3], [2]),
                   "Specified a list with shape [2] from a tensor with shape [3]")
            if op == "TensorListScatterV2":
                errors("too_small_error", lambda: sc([0, 1, 2, 3], num=3),
                       "TensorListScatter: Trying to scatter at index 3 in list with size 3")
                errors("num_elements_error", lambda: sc([0, 1, 2, 3], num=-2),
                       "TensorListScatter expects num_elements >= -1, found: -2")
        return gen

    def scatter_existing(dt):
        x = rand(dt, [4, 3], "Lse/x" + dt)
        y = rand(dt, [2, 3], "Lse/y" + dt)
        op = "TensorListScatterIntoExistingList"

        def lst():
            return R.TensorListFromTensor(tensor=ph("x", x), element_shape=_shape([3]))

        def sc(l, idx, value=None):
            return R.TensorListScatterIntoExistingList(
                input_handle=l, tensor=ph("y", y if value is None else value),
                indices=ph("i", np.array(idx, np.int32)), name="out")

        def stack(l):
            return R.TensorListStack(input_handle=l, element_shape=_shape([3], "es"),
                                     element_dtype=tdt(dt))
        c(op, dt, "replace_two", lambda: stack(sc(lst(), [3, 1])))
        c(op, dt, "repeated_index", lambda: stack(sc(lst(), [2, 2])))
        c(op, dt, "into_reserved", lambda: stack(sc(R.TensorListReserve(
            element_shape=_shape([3]), num_elements=const("n", 3), element_dtype=tdt(dt)),
            [2, 0])))
        def grows():
            # Elements 4 and 5 stay unset (TensorFlow's Stack reads them as uninitialized memory).
            l = sc(lst(), [6, 1])
            return [R.TensorListLength(input_handle=l),
                    R.TensorListGetItem(input_handle=l, index=const("k", 6),
                                        element_shape=_shape([3], "es"), element_dtype=tdt(dt))]
        c(op, dt, "grows", grows)
        c(op, dt, "row_count_error", lambda: R.TensorListLength(input_handle=sc(lst(), [0])),
          error="INVALID_ARGUMENT",
          phrases=["Expected len(indices) == tensor.shape[0], but saw: 1 vs. 2"])

    def resize(dt):
        x = rand(dt, [3, 2], "Lr/x" + dt)

        def rs(size):
            return R.TensorListResize(
                input_handle=R.TensorListFromTensor(tensor=ph("x", x), element_shape=_shape([2])),
                size=ph("size", np.int32(size)), name="out")

        def stack(l):
            return [R.TensorListStack(input_handle=l, element_shape=_shape([2], "es"),
                                      element_dtype=tdt(dt)), R.TensorListLength(input_handle=l)]
        c("TensorListResize", dt, "grow", lambda: stack(rs(5)))
        c("TensorListResize", dt, "shrink", lambda: stack(rs(1)))
        c("TensorListResize", dt, "same", lambda: stack(rs(3)))
        c("TensorListResize", dt, "to_empty", lambda: stack(rs(0)))
        c("TensorListResize", dt, "negative_error", lambda: stack(rs(-1)),
          error="INVALID_ARGUMENT",
          phrases=["TensorListSlice expects size to be non-negative. Got: -1"])

    def concat_v1(dt):
        x = rand(dt, [4, 2, 3], "Lc1/x" + dt)
        a = rand(dt, [2, 3], "Lc1/a" + dt)
        op = "TensorListConcat"

        def cat(l, shape=None):
            kw = {} if shape is None else {"element_shape": shape}
            return list(R.TensorListConcat(input_handle=l, element_dtype=tdt(dt), name="out",
                                           **kw))

        def pushed(values, shape):
            l = R.EmptyTensorList(element_shape=_shape(shape), max_num_elements=const("m", -1),
                                  element_dtype=tdt(dt))
            for i, v in enumerate(values):
                l = R.TensorListPushBack(input_handle=l, tensor=ph("v%d" % i, v))
            return l

        def from_tensor(shape):
            return R.TensorListFromTensor(tensor=ph("x", x), element_shape=_shape(shape))
        c(op, dt, "from_tensor", lambda: cat(from_tensor(None)))
        c(op, dt, "partial_list_shape", lambda: cat(from_tensor([-1, 3])))
        c(op, dt, "attr_shape", lambda: cat(from_tensor([2, 3]), [2, 3]))
        c(op, dt, "ragged", lambda: cat(pushed([a, a[:1], np.zeros([0, 3], a.dtype)], None)))
        c(op, dt, "first_dim_not_checked", lambda: cat(pushed([a, a[:1]], None), [2, 3]))

        def errors(what, build, phrase):
            c(op, dt, what, build, error="INVALID_ARGUMENT", phrases=[phrase])
        errors("known_list_shape_error", lambda: cat(from_tensor([2, 3])),
               "Trying to concat list with only uninitialized tensors but "
               "element_shape_except_first_dim is not fully defined: <unknown>")
        errors("unset_error", lambda: cat(R.TensorListReserve(
            element_shape=_shape([2, 3]), num_elements=const("n", 2), element_dtype=tdt(dt)),
            [2, 3]),
            "Concating lists with uninitialized tensors is not supported in this version of "
            "TensorListConcat.")
        errors("scalar_error", lambda: cat(pushed([a[0, 0]], None)),
               "Concat saw a scalar shape at index 0 but requires at least vectors.")
        errors("empty_error", lambda: cat(pushed([], [-1, 3])),
               "All except the first dimension must be fully defined when concating an empty "
               "tensor list. element_shape: <unknown>")
        errors("mismatch_error", lambda: cat(pushed([a, a[:, :2]], None)),
               "Incompatible shapes during merge: [3] vs. [2]")

    def concat_lists(dt):
        x = rand(dt, [2, 3], "Lcl/x" + dt)
        y = rand(dt, [3, 3], "Lcl/y" + dt)
        op = "TensorListConcatLists"

        def lst(name, v, shape):
            return R.TensorListFromTensor(tensor=ph(name, v), element_shape=_shape(shape, name + "s"))

        def stack(l):
            return [R.TensorListStack(input_handle=l, element_shape=_shape([3], "es"),
                                      element_dtype=tdt(dt)), R.TensorListLength(input_handle=l)]
        c(op, dt, "two_lists", lambda: stack(R.TensorListConcatLists(
            input_a=lst("x", x, [3]), input_b=lst("y", y, [3]), element_dtype=tdt(dt),
            name="out")))
        c(op, dt, "reserved_first", lambda: stack(R.TensorListConcatLists(
            input_a=R.TensorListReserve(element_shape=_shape([3]), num_elements=const("n", 2),
                                        element_dtype=tdt(dt)),
            input_b=lst("y", y, [3]), element_dtype=tdt(dt), name="out")))
        c(op, dt, "element_shape_error", lambda: stack(R.TensorListConcatLists(
            input_a=lst("x", x, [-1]), input_b=lst("y", y, [3]), element_dtype=tdt(dt),
            name="out")),
          error="INVALID_ARGUMENT",
          phrases=["input_a and input_b TensorList element shapes are not identical at index 0."
                   "  Saw [?] vs. [3]"])

    suite("TensorListGather", gather)
    suite("TensorListScatter", scatter("TensorListScatter"))
    suite("TensorListScatterV2", scatter("TensorListScatterV2"))
    suite("TensorListScatterIntoExistingList", scatter_existing)
    suite("TensorListResize", resize)
    suite("TensorListConcat", concat_v1)
    suite("TensorListConcatLists", concat_lists)
