"""Gradient cases for the TensorList ops of ops/list_ops.cc, in straight-line graphs."""
import tensorflow as tf

from grad_cases import rand

raw = tf.raw_ops


def _from(x):
    return raw.TensorListFromTensor(tensor=x, element_shape=tf.constant([3]))


def _stack(l, n=-1):
    return raw.TensorListStack(input_handle=l, element_shape=tf.constant([3]),
                               element_dtype=tf.float32, num_elements=n, name="out")


def cases(add):
    add("TensorListStack", "roundtrip_scaled", [("x", rand([4, 3], "list_rt"))],
        lambda x: _stack(_from(x * 2.0)))
    add("TensorListFromTensor", "roundtrip", [("x", rand([2, 3], "list_from"))],
        lambda x: _stack(_from(x), 2))
    add("TensorListGetItem", "two_items", [("x", rand([4, 3], "list_get"))],
        lambda x: [raw.TensorListGetItem(input_handle=_from(x), index=i,
                                         element_shape=tf.constant([3]),
                                         element_dtype=tf.float32, name="out%d" % i)
                   for i in (1, 3)])
    add("TensorListSetItem", "replace_row",
        [("x", rand([3, 3], "list_set_x")), ("item", rand([3], "list_set_item"))],
        lambda x, item: _stack(raw.TensorListSetItem(input_handle=_from(x), index=1, item=item)))
    add("TensorListPushBack", "push_then_stack",
        [("x", rand([2, 3], "list_push_x")), ("t", rand([3], "list_push_t"))],
        lambda x, t: _stack(raw.TensorListPushBack(input_handle=_from(x), tensor=t)))

    def pop(x):
        handle, last = raw.TensorListPopBack(input_handle=_from(x), element_shape=tf.constant([3]),
                                             element_dtype=tf.float32)
        return [_stack(handle), tf.identity(last * 3.0, name="last")]
    add("TensorListPopBack", "pop_and_rest", [("x", rand([3, 3], "list_pop"))], pop)

    def split_concat(x):
        # Rows 2, 0 and 3 split into a list and the list concatenated again (each list read once:
        # Rill's AddN does not add lists).
        l = raw.TensorListSplit(tensor=x * 2.0, element_shape=tf.constant([-1, 3]),
                                lengths=tf.constant([2, 0, 3], tf.int64))
        joined = raw.TensorListConcatV2(input_handle=l, element_shape=tf.constant([-1, 3]),
                                        leading_dims=tf.constant([], tf.int64),
                                        element_dtype=tf.float32, name="out")[0]
        return joined * joined

    def set_then_concat(x, item):
        # A list of rows 3 and 2 whose second element is replaced, then concatenated.
        l = raw.TensorListSplit(tensor=x, element_shape=tf.constant([-1, 3]),
                                lengths=tf.constant([3, 2], tf.int64))
        l = raw.TensorListSetItem(input_handle=l, index=1, item=item * 2.0)
        return raw.TensorListConcatV2(input_handle=l, element_shape=tf.constant([-1, 3]),
                                      leading_dims=tf.constant([], tf.int64),
                                      element_dtype=tf.float32, name="out")[0]
    add("TensorListConcatV2", "split_concat", [("x", rand([5, 3], "list_concat"))], split_concat)
    add("TensorListSplit", "split_concat", [("x", rand([5, 3], "list_split"))], split_concat)
    add("TensorListConcatV2", "set_then_concat",
        [("x", rand([5, 3], "list_concat_set_x")), ("item", rand([4, 3], "list_concat_set_i"))],
        set_then_concat)

    add("TensorListGather", "repeated_rows", [("x", rand([4, 3], "list_gather"))],
        lambda x: raw.TensorListGather(input_handle=_from(x), indices=tf.constant([3, 0, 3]),
                                       element_shape=tf.constant([3]), element_dtype=tf.float32,
                                       name="out") * 2.0)
    for op in ("TensorListScatter", "TensorListScatterV2"):
        def scatter(x, op=op):
            kw = dict(tensor=x * 3.0, indices=tf.constant([4, 1, 2]),
                      element_shape=tf.constant([3]))
            if op == "TensorListScatterV2":
                kw["num_elements"] = tf.constant(6)
            return _stack(getattr(raw, op)(**kw))
        add(op, "gaps", [("x", rand([3, 3], "list_" + op))], scatter)

    def scatter_existing(x, t):
        l = raw.TensorListScatterIntoExistingList(input_handle=_from(x), tensor=t * 2.0,
                                                  indices=tf.constant([3, 0]))
        return _stack(l)
    add("TensorListScatterIntoExistingList", "replace_two",
        [("x", rand([4, 3], "list_scatter_x")), ("t", rand([2, 3], "list_scatter_t"))],
        scatter_existing)
    add("TensorListResize", "shrink", [("x", rand([4, 3], "list_resize"))],
        lambda x: _stack(raw.TensorListResize(input_handle=_from(x * 2.0), size=2)))
    add("TensorListResize", "grow", [("x", rand([2, 3], "list_resize_grow"))],
        lambda x: _stack(raw.TensorListResize(input_handle=_from(x * 2.0), size=4)))

    def concat_v1(x):
        l = raw.TensorListSplit(tensor=x * 2.0, element_shape=tf.constant([-1, 3]),
                                lengths=tf.constant([2, 0, 3], tf.int64))
        joined = raw.TensorListConcat(input_handle=l, element_dtype=tf.float32, name="out")[0]
        return joined * joined
    add("TensorListConcat", "split_concat", [("x", rand([5, 3], "list_concat_v1"))], concat_v1)
