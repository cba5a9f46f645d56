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
