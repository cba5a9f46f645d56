"""What the recorded scripts cannot show: the GIL is released during runs, feeds cross without a
copy, error classes follow status codes, values convert as TensorFlow converts them."""
import threading
import time

import numpy as np
import pytest

import rill.compat.v1 as tf
from rill import _c
from rill.framework import device_spec, errors, tensor_util


def test_python_threads_run_while_a_session_runs():
    # A Python thread keeps counting while TF_SessionRun computes: ctypes released the GIL.
    with tf.Graph().as_default():
        x = tf.random_uniform([300, 300], seed=1)
        y = x
        for _ in range(60):
            y = tf.matmul(y, x) * 0.001
        sess = tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1,
                                                inter_op_parallelism_threads=1))
        sess.run(y)
        stamps = []
        stop = [False]

        def python_work():
            while not stop[0]:
                stamps.append(time.perf_counter())

        counter = threading.Thread(target=python_work)
        counter.start()
        time.sleep(0.01)
        t0 = time.perf_counter()
        sess.run(y)
        t1 = time.perf_counter()
        stop[0] = True
        counter.join()
        inside = [t for t in stamps if t0 < t < t1]
        # Without the GIL released the counter would stop for the whole run.
        assert t1 - t0 > 0.02, "the run is too short to tell"
        assert len(inside) > 1000, (len(inside), t1 - t0)


def test_concurrent_runs_of_one_session_are_correct():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [3])
        out = p * 2.0
        sess = tf.Session()
        results = {}

        def worker(i):
            results[i] = [sess.run(out, {p: [i, i + 1, i + 2]}) for _ in range(50)]

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for i in range(4):
            for r in results[i]:
                np.testing.assert_array_equal(r, np.array([i, i + 1, i + 2], np.float32) * 2)


def test_fed_numeric_array_is_not_copied_on_the_python_side():
    keep = []
    arr = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = tensor_util.numpy_to_c_tensor(arr, tf.float32, keep)
    try:
        assert _c.TF_TensorData(t) == arr.ctypes.data
        assert keep[0] is arr
    finally:
        _c.TF_DeleteTensor(t)


def test_feeds_of_other_layouts_and_types_convert():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [2, 2])
        s = tf.placeholder(tf.string, [2])
        sess = tf.Session()
        fortran = np.asfortranarray(np.array([[1, 2], [3, 4]], np.float64))
        np.testing.assert_array_equal(sess.run(p + 0.0, {p: fortran}), [[1, 2], [3, 4]])
        assert list(sess.run(tf.identity(s), {s: ["a", b"bc"]})) == [b"a", b"bc"]


@pytest.mark.parametrize("code,cls", [
    (1, errors.CancelledError), (2, errors.UnknownError), (3, errors.InvalidArgumentError),
    (4, errors.DeadlineExceededError), (5, errors.NotFoundError), (6, errors.AlreadyExistsError),
    (7, errors.PermissionDeniedError), (8, errors.ResourceExhaustedError),
    (9, errors.FailedPreconditionError), (10, errors.AbortedError), (11, errors.OutOfRangeError),
    (12, errors.UnimplementedError), (13, errors.InternalError), (14, errors.UnavailableError),
    (15, errors.DataLossError), (16, errors.UnauthenticatedError)])
def test_error_class_per_code(code, cls):
    e = errors.exception_for_code(code)(None, None, "msg")
    assert isinstance(e, cls) and isinstance(e, errors.OpError)
    assert e.error_code == code and e.message == "msg" and str(e) == "msg"


def test_unknown_op_and_bad_attr_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Op type not registered 'NoSuchOp'"):
            tf.raw_ops.NoSuchOp() if hasattr(tf.raw_ops, "NoSuchOp") else \
                __import__("rill.framework.op_def_library", fromlist=["x"]).apply_op("NoSuchOp")
        with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
            tf.raw_ops.Identity(input=tf.constant(1), bogus=2)
        with pytest.raises(ValueError, match="Dimensions must be equal"):
            tf.matmul(tf.constant([[1.0, 2.0]]), tf.constant([[1.0, 2.0]]))


def test_raw_ops_and_generated_names():
    with tf.Graph().as_default():
        a = tf.raw_ops.AddV2(x=tf.constant(1.0), y=tf.constant(2.0), name="sum")
        assert a.op.name == "sum" and a.op.type == "AddV2"
        assert tf.mat_mul.__name__ == "mat_mul" and tf.bias_add.__name__ == "bias_add"
        with tf.Session() as s:
            assert s.run(a) == 3.0


def test_device_spec_parsing_and_merging():
    assert device_spec.canonical_name("/gpu:2") == "/device:GPU:2"
    assert device_spec.canonical_name("/job:w/replica:0/task:1/cpu:0") == \
        "/job:w/replica:0/task:1/device:CPU:0"
    assert device_spec.merge_device("/job:ps/cpu:0", "/device:GPU:1") == "/job:ps/device:GPU:1"
    with pytest.raises(ValueError, match="Unknown attribute: 'bogus'"):
        device_spec.canonical_name("/bogus")


def test_constant_inference_and_broadcast():
    p = tensor_util.make_tensor_proto([1.0, 2.0], shape=[2, 2])
    np.testing.assert_array_equal(tensor_util.make_ndarray(p), [[1, 2], [2, 2]])
    assert tensor_util.make_tensor_proto(3, shape=[2]).dtype == tf.int32.as_datatype_enum
    assert tensor_util.make_tensor_proto(np.float64(1)).dtype == tf.float64.as_datatype_enum
    with pytest.raises(TypeError, match="Expected int32"):
        tensor_util.make_tensor_proto([1.5], dtype=tf.int32)
    with pytest.raises(TypeError, match="Expected Tensor's shape"):
        tensor_util.make_tensor_proto([1, 2, 3], shape=[2], verify_shape=True)


def test_protos_are_tensorflow_wire_compatible():
    c = tf.ConfigProto(log_device_placement=True, allow_soft_placement=True,
                       device_count={"CPU": 3})
    c.gpu_options.allow_growth = True
    c.gpu_options.per_process_gpu_memory_fraction = 0.4
    # The bytes tensorflow 2.21's ConfigProto serializes for the same settings.
    assert c.SerializeToString() == bytes.fromhex(
        "0a070a034350551003320b099a9999999999d93f200138014001")
    assert tf.ConfigProto.FromString(c.SerializeToString()) == c


def test_list_devices_and_closed_session():
    with tf.Graph().as_default():
        with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as s:
            devs = s.list_devices()
            assert [d.device_type for d in devs] == ["CPU", "CPU"]
            assert devs[1].name == "/job:localhost/replica:0/task:0/device:CPU:1"
        with pytest.raises(RuntimeError, match="closed Session"):
            s.run(tf.constant(1))


def test_make_callable_feeds_in_order_and_checks_shapes():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [2], name="a")
        b = tf.placeholder(tf.int32, [], name="b")
        out = a * tf.cast(b, tf.float32)
        with tf.Session() as sess:
            f = sess.make_callable([out, b], [a, b])
            r = f([1.0, 2.0], 3)
            np.testing.assert_array_equal(r[0], [3.0, 6.0])
            # A fetched tensor that is fed comes back as the fed value, a 0-d array (TensorFlow).
            assert r[1] == 3 and isinstance(r[1], np.ndarray) and r[1].shape == ()
            assert sess.run([b, out], {a: [1.0, 1.0], b: 2})[0].dtype == np.int32
            with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for Tensor a:0"):
                f([1.0, 2.0, 3.0], 1)
            with pytest.raises(TypeError, match="Argument list has 1 entries"):
                f([1.0, 2.0])
            g = sess.make_callable(out.op, [a, b])
            assert g([1.0, 1.0], 1) is None


def test_elements_of_another_graph_are_refused():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        a = tf.constant(1.0, name="a")
    with g2.as_default():
        b = tf.constant(2.0, name="b")
        with pytest.raises(ValueError, match="must be from the same graph"):
            tf.raw_ops.AddV2(x=b, y=a)
        with pytest.raises(ValueError, match="not an element of this graph"):
            with tf.colocate_with(a):
                pass
        with pytest.raises(ValueError, match="Control input a must be from the same graph"):
            with tf.control_dependencies([a]):
                tf.constant(3.0)
        with tf.Session() as sess:
            with pytest.raises(ValueError, match="not an element of this graph"):
                sess.run(b, {a: 1.0})
            with pytest.raises(ValueError, match="is not an element of this graph"):
                sess.run(a)


def test_bad_values_raise_instead_of_crashing():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [2])
        with tf.Session() as sess:
            with pytest.raises(ValueError):
                sess.run(p * 1.0, {p: "not a number"})
            with pytest.raises(TypeError, match='Argument `fetch` = None has invalid type '
                               '"NoneType". Cannot be None'):
                sess.run(None)
            with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor"):
                sess.run(p * 1.0, {p: tf.constant([1.0, 2.0])})
            # Both sizes known: refused when the op is made, as TensorFlow's shape function does.
            with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 2 elements to "
                               r"shape \[3\] \(3 elements\)"):
                tf.reshape(p, [3])
            q = tf.placeholder(tf.float32)
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(tf.reshape(q, [3]), {q: [1.0, 2.0]})


def test_careless_runs_behave_as_tensorflow_s():
    """crafted_round8.py's python cases, with TensorFlow 2.21's outcomes: fetches that are all
    fed or empty run nothing, a tensor fed under two keys takes the last value, Python ints that
    do not fit the placeholder's type and feed_dicts that are not mappings raise TypeError, and a
    closed session refuses partial runs as it refuses runs."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = tf.negative(x, name="y")
        i = tf.placeholder(tf.int32, [])
        u = tf.placeholder(tf.uint8, [])
        v = np.array([1.0, 2.0], np.float32)
        sess = tf.Session()
        for _ in range(2):  # the second time through the cached plans and runners
            np.testing.assert_array_equal(sess.run(x, {x: v}), [1.0, 2.0])
            np.testing.assert_array_equal(sess.run(y, {y: v}), [1.0, 2.0])
            np.testing.assert_array_equal(sess.run(y, {x: v, "x:0": v + 1}), [-2.0, -3.0])
            assert sess.run([]) == []
            assert sess.run([[], {}, ()], {x: v}) == [[], {}, ()]
            assert sess.run(i, {i: 5}) == 5
            with pytest.raises(TypeError, match=r"^Type of feed value 1099511627776 with type "
                               r"<class 'int'> is not compatible with Tensor type <class "
                               r"'numpy.int32'>. Try explicitly setting the type of the feed "
                               r"tensor to a larger type \(e.g. int64\).$"):
                sess.run(i, {i: 2**40})
            with pytest.raises(TypeError, match="Type of feed value -1 with type <class 'int'> "
                               "is not compatible with Tensor type <class 'numpy.uint8'>"):
                sess.run(u, {u: -1})
            with pytest.raises(OverflowError):
                sess.run(i, {i: 2**70})
            with pytest.raises(TypeError, match="^FlattenDictItems: 'dict' must be a dictionary "
                               "or collection.Mapping type object, instead of 'list'.$"):
                sess.run(y, [(x, v)])
            with pytest.raises(TypeError, match="passed to the argument `feed_dict` with key"):
                sess.run(y, {x: tf.constant([1.0, 2.0])})
        h = sess.partial_run_setup([y], [x])
        sess.close()
        sess.close()
        with pytest.raises(RuntimeError, match="^Attempted to use a closed Session.$"):
            sess.partial_run(h, y, {x: v})
        with pytest.raises(RuntimeError, match="^Attempted to use a closed Session.$"):
            sess.partial_run_setup([y], [x])


def test_string_feeds_take_only_strings():
    """An element of a string feed that is not bytes or str is TensorFlow's InternalError (Rill
    turned the int 2 into two NUL bytes); bytes, str and NUL-holding values pass."""
    with tf.Graph().as_default():
        s = tf.placeholder(tf.string, [None])
        n = tf.raw_ops.StringLength(input=s)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InternalError, match="^Unsupported object type int$"):
                sess.run(n, {s: [1, 2]})
            with pytest.raises(tf.errors.InternalError, match="^Unsupported object type float$"):
                sess.run(n, {s: np.array([b"a", 1.5], dtype=object)})
            np.testing.assert_array_equal(sess.run(n, {s: [b"a\0b", "\u00e9", bytearray(b"xy")]}),
                                          [3, 2, 2])


def test_tensor_text_is_tensorflow_s():
    """str(tensor), which TensorFlow's error texts quote: no shape for an unknown rank, the device
    when one is set (TensorFlow 2.21's text)."""
    with tf.Graph().as_default():
        assert str(tf.placeholder(tf.float32, name="p")) == 'Tensor("p:0", dtype=float32)'
        with tf.device("/cpu:0"):
            q = tf.placeholder(tf.float32, [2], name="q")
        assert str(q) == 'Tensor("q:0", shape=(2,), dtype=float32, device=/device:CPU:0)'
        assert repr(q) == "<tf.Tensor 'q:0' shape=(2,) dtype=float32>"


def test_empty_int_list_converts():
    with tf.Graph().as_default():
        with tf.Session() as sess:
            assert sess.run(tf.fill([], 2.5)) == 2.5
            assert sess.run(tf.constant([], dtype=tf.int32)).shape == (0,)


def test_threads_build_and_run_their_own_graphs():
    results = {}

    def worker(i):
        with tf.Graph().as_default():
            x = tf.placeholder(tf.float32, [2], name="x")
            with tf.name_scope("t%d" % i):
                y = tf.reduce_sum(x * float(i))
            with tf.Session() as sess:
                results[i] = (y.name, [sess.run(y, {x: [1.0, 2.0]}) for _ in range(20)])

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(6):
        name, vals = results[i]
        assert name == "t%d/Sum:0" % i
        assert all(v == 3.0 * i for v in vals)
