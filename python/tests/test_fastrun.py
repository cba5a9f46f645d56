"""Session runs through the compiled module (rill._fastrun) and through ctypes give the same values
and raise the same errors. The suite runs on both paths (//python:pytest with the module,
//python:pytest_ctypes with RILL_PYTHON_NO_FASTRUN=1); test_both_paths_agree also runs one script
on each path in a subprocess and compares what they print."""
import collections
import os
import subprocess
import sys

import numpy as np
import pytest

import conftest
import rill.compat.v1 as tf
from rill import _fast
from rill.client import fast_path

FAST = fast_path.available()


def test_the_expected_path_is_loaded():
    if os.environ.get("RILL_TEST_EXPECT_FASTRUN") == "1":
        assert _fast.module is not None, _fast.reason
    if os.environ.get("RILL_PYTHON_NO_FASTRUN") == "1":
        assert _fast.module is None and _fast.reason == "RILL_PYTHON_NO_FASTRUN=1"


def _session():
    return tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1,
                                            inter_op_parallelism_threads=1))


def test_values_come_back_as_tensorflow_returns_them():
    Pair = collections.namedtuple("Pair", ["a", "b"])
    with tf.Graph().as_default():
        c = tf.constant(1.5, name="c")
        x = tf.placeholder(tf.float32, [2], name="x")
        y = x * 2.0
        with _session() as sess:
            r = sess.run(c)
            assert type(r) is np.float32 and r == 1.5
            v = np.array([1, 2], np.float32)
            r = sess.run(y, {x: v})
            assert type(r) is np.ndarray and r.dtype == np.float32 and r.tolist() == [2, 4]
            assert sess.run(y, {"x:0": [3, 4]}).tolist() == [6, 8]
            got = sess.run([c, y], {x: v})
            assert type(got) is list and got[0] == 1.5 and got[1].tolist() == [2, 4]
            got = sess.run((y, c), {x: v})
            assert type(got) is tuple and got[1] == 1.5
            got = sess.run({"c": c, "p": Pair(y, c)}, {x: v})
            assert got["c"] == 1.5 and got["p"].a.tolist() == [2, 4] and got["p"].b == 1.5
            assert sess.run(y.op, {x: v}) is None
            assert sess.run([y.op, c], {x: v}) == [None, 1.5]
            f = sess.make_callable([y, c], [x])
            got = f(v)
            assert got[0].tolist() == [2, 4] and got[1] == 1.5
            assert sess.make_callable(y.op, [x])(v) is None
            assert sess.make_callable(c)() == 1.5


@pytest.mark.parametrize("dtype,value", [
    (tf.int64, [2**40, -3]), (tf.int32, [7, -7]), (tf.bool, [True, False]),
    (tf.float16, [0.5, -2.0]), (tf.float64, [1e300, -1.0]), (tf.uint8, [255, 0]),
    (tf.complex64, [1 + 2j, -1j]), (tf.int8, [-128, 127]), (tf.uint16, [65535, 1])])
def test_numeric_types_round_trip(dtype, value):
    with tf.Graph().as_default():
        p = tf.placeholder(dtype, [2])
        q = tf.placeholder(dtype, [])
        with _session() as sess:
            np_type = dtype.as_numpy_dtype
            r = sess.run(tf.identity(p), {p: np.array(value, np_type)})
            assert r.dtype == np_type and r.tolist() == np.array(value, np_type).tolist()
            s = sess.run(tf.identity(q), {q: value[0]})
            assert type(s) is np.dtype(np_type).type and s == np.array(value[0], np_type)


def test_feeds_of_other_layouts_types_and_shapes_convert():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        m = tf.placeholder(tf.float32, [2, 2], name="m")
        any_shape = tf.placeholder(tf.float32, name="any")
        partly = tf.placeholder(tf.float32, [None, 2], name="partly")
        with _session() as sess:
            y = x + 0.0
            wide = np.array([1, 9, 2, 9], np.float32)
            assert sess.run(y, {x: wide[::2]}).tolist() == [1, 2]  # not contiguous
            assert sess.run(y, {x: np.array([1, 2], ">f4")}).tolist() == [1, 2]  # big-endian
            assert sess.run(y, {x: np.array([1.25, 2], np.float64)}).tolist() == [1.25, 2]
            assert sess.run(y, {x: (3, 4)}).tolist() == [3, 4]
            fortran = np.asfortranarray(np.array([[1, 2], [3, 4]], np.float32))
            assert sess.run(m + 0.0, {m: fortran}).tolist() == [[1, 2], [3, 4]]
            assert sess.run(any_shape + 0.0, {any_shape: np.ones([2, 1, 3])}).shape == (2, 1, 3)
            assert sess.run(any_shape + 0.0, {any_shape: 5.0}) == 5.0
            assert sess.run(partly + 0.0, {partly: np.zeros([3, 2])}).shape == (3, 2)
            assert sess.run(partly + 0.0, {partly: np.zeros([0, 2])}).shape == (0, 2)
            s = tf.placeholder(tf.string, [2])
            assert sess.run(tf.identity(s), {s: ["a", b"bc"]}).tolist() == [b"a", b"bc"]


def test_results_are_the_callers_own():
    with tf.Graph().as_default():
        c = tf.constant([1.0, 2.0], name="c")
        x = tf.placeholder(tf.float32, [2], name="x")
        y = x * 2.0
        i = tf.identity(x)
        with _session() as sess:
            r = sess.run(c)
            r[0] = 99.0  # the constant's buffer is the graph's: a copy comes back
            assert sess.run(c).tolist() == [1.0, 2.0]
            v = np.array([1, 2], np.float32)
            a = sess.run(y, {x: v})
            b = sess.run(y, {x: v})
            a[0] = -1.0
            assert b.tolist() == [2, 4] and v.tolist() == [1, 2] and a.flags.writeable
            fed = sess.run(i, {x: v})
            assert not np.shares_memory(fed, v)
            fed[1] = 7.0
            assert v.tolist() == [1, 2]
            if FAST:  # a computed result's buffer is handed over to numpy, not copied
                assert type(a.base).__name__ == "PyCapsule"


def test_feed_errors_are_tensorflow_s():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = x * 2.0
        with _session() as sess:
            f = sess.make_callable(y, [x])
            for run in (lambda v: sess.run(y, {x: v}), f):
                with pytest.raises(ValueError, match="could not convert string to float: 'abc'"):
                    run(np.array(["abc", "d"]))
                with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for "
                                   r"Tensor x:0, which has shape \(2,\)"):
                    run(np.zeros(3, np.float32))
                with pytest.raises(ValueError, match=r"Cannot feed value of shape \(1, 2\)"):
                    run([[1.0, 2.0]])
                with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor"):
                    run(tf.constant([1.0, 2.0]))
            with pytest.raises(TypeError, match="Argument list has 0 entries, the callable "
                               "takes 1"):
                f()
            with pytest.raises(TypeError, match="options need accept_options=True"):
                f(np.zeros(2, np.float32), options=tf.RunOptions())


def test_run_errors_are_tensorflow_s():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        q = tf.placeholder(tf.float32, name="q")
        r = tf.reshape(q, [3])
        with _session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="You must feed a value for placeholder tensor 'x'") as e:
                sess.run(x * 2.0)
            assert e.value.error_code == 3
            f = sess.make_callable(r, [q])
            for run in (lambda v: sess.run(r, {q: v}), f):
                with pytest.raises(tf.errors.InvalidArgumentError,
                                   match="Input to reshape is a tensor with 2 values, but the "
                                   "requested shape has 3"):
                    run(np.zeros(2, np.float32))
            assert f(np.ones(3, np.float32)).tolist() == [1, 1, 1]
        with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
            sess.run(x, {x: [1, 2]})
        with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
            f(np.ones(3, np.float32))


def test_options_and_run_metadata_take_the_ctypes_path():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = x + 1.0
        with _session() as sess:
            meta = tf.RunMetadata()
            out = sess.run(y, {x: [1, 2]}, options=tf.RunOptions(), run_metadata=meta)
            assert out.tolist() == [2, 3]
            f = sess.make_callable(y, [x], accept_options=True)
            assert f([1, 2]).tolist() == [2, 3]
            assert f([1, 2], options=tf.RunOptions()).tolist() == [2, 3]


AGREE_SCRIPT = r'''
import numpy as np
import rill.compat.v1 as tf
def show(name, fn):
    try:
        for v in (fn() if name.startswith("list") else [fn()]):
            print(name, type(v).__name__, getattr(v, "dtype", None), np.asarray(v).tolist())
    except Exception as e:
        print(name, type(e).__name__, str(e).replace("\n", "|"))
g = tf.Graph()
with g.as_default():
    x = tf.placeholder(tf.float32, [2], name="x")
    n = tf.placeholder(tf.int64, [None], name="n")
    q = tf.placeholder(tf.float32, name="q")
    c = tf.constant([[1, 2], [3, 4]], name="c")
    y = x * 2.0
    s = tf.reduce_sum(n)
    r = tf.reshape(q, [3])
sess = tf.Session(graph=g)
f = sess.make_callable([y, s], [x, n])
show("const", lambda: sess.run(c))
show("scalar", lambda: sess.run(s, {n: [1, 2, 3]}))
show("fed", lambda: sess.run(y, {x: np.array([1, 2], np.float32)}))
show("list", lambda: sess.run([y, s], {x: [1, 2], n: np.arange(4)}))
show("list_callable", lambda: f([3, 4], [5]))
show("bad_dtype", lambda: sess.run(y, {x: ["a", "b"]}))
show("bad_shape", lambda: sess.run(y, {x: [1, 2, 3]}))
show("callable_bad_shape", lambda: f([1, 2], [[1]]))
show("failing_op", lambda: sess.run(r, {q: [1.0]}))
show("callable_count", lambda: f([1, 2]))
show("missing_feed", lambda: sess.run(y))
'''


@pytest.mark.skipif(not FAST, reason="the compiled module is not loaded")
def test_both_paths_agree():
    outs = []
    for no_fast in ("0", "1"):
        env = dict(os.environ, RILL_PYTHON_NO_FASTRUN=no_fast)
        if os.environ.get("RILL_TEST_INSTALLED") != "1":
            env["PYTHONPATH"] = conftest.PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
        p = subprocess.run([sys.executable, "-c", AGREE_SCRIPT], env=env, capture_output=True,
                           text=True)
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1]
    assert "failing_op InvalidArgumentError Input to reshape is a tensor with 1 values" in outs[0]
    assert len(outs[0].splitlines()) == 13
