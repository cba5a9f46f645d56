"""tf.gradients and the optimizers' minimize over the library's RILL_AddGradientsWithOptions:
the gradient seed scripts print what TensorFlow printed."""
import pytest

import run_script
import test_seed_scripts
from test_seed_scripts import expected, run_seed, without_device_mapping


def test_library_has_gradients():
    from rill import _c
    assert _c.RILL_AddGradientsWithOptions is not None, (
        "libtensorflow.so.2 does not export RILL_AddGradientsWithOptions")


@pytest.mark.parametrize("name", run_script.GRADIENT_SCRIPTS)
def test_gradient_script_prints_what_tensorflow_prints(name):
    want_out, meta = expected(name)
    got = run_seed(name)
    assert got["returncode"] == meta["returncode"], got["stderr"]
    assert without_device_mapping(got["stdout"]) == want_out, got["stderr"]


def test_missing_symbol_is_a_clear_error(monkeypatch):
    from rill import _c
    import rill.compat.v1 as tf
    monkeypatch.setattr(_c, "RILL_AddGradientsWithOptions", None)
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        with pytest.raises(NotImplementedError, match="RILL_AddGradientsWithOptions"):
            tf.gradients(x * x, x)


def test_gradient_shapes_are_static():
    """Shape inference evaluates shape tensors in part (Tile, Reshape, Fill by tf.shape of a
    [?, 1] tensor give (?, 1)), so the MatMul weight's gradient is (2, 1), as in TensorFlow."""
    import rill.compat.v1 as tf
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable([[0.0], [0.0]])
        gw, = tf.gradients(tf.reduce_mean(tf.square(tf.matmul(x, w))), [w])
        assert gw.shape.as_list() == [2, 1]


assert test_seed_scripts  # imported for its helpers


def test_gradient_ops_take_the_device_stack():
    """As in TensorFlow, the gradient ops get the device the enclosing tf.device picks: a string,
    or a device function called with each op."""
    import rill.compat.v1 as tf
    with tf.Graph().as_default() as g:
        x = tf.constant([1.0, 2.0], name="x")
        y = tf.square(x, name="y")
        with tf.device("/cpu:0"):
            gx, = tf.gradients(y, x)
        grads = [op for op in g.get_operations() if op.name.startswith("gradients/")]
        assert grads
        assert {op.device for op in grads} == {"/device:CPU:0"}
        seen = []

        def pick(op):
            seen.append(op.type)
            return "/device:CPU:0" if op.type == "Mul" else ""
        with tf.device(pick):
            tf.gradients(y, x, name="g2")
        assert "Mul" in seen
        assert {op.device for op in g.get_operations()
                if op.name.startswith("g2/") and op.type == "Mul"} == {"/device:CPU:0"}
        with tf.Session() as sess:
            assert list(sess.run(gx)) == [2.0, 4.0]
