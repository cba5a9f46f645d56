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
