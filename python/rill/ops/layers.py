"""tf.layers (TF1 functional layers): dense and dropout, with TensorFlow's variable and op names
(dense/kernel, dense/bias, dense/MatMul, dense/BiasAdd)."""
from rill.framework import ops
from rill.framework.op_def_library import apply_op
from rill.ops import variable_scope as vs


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
          name=None, reuse=None):
    inputs = ops.convert_to_tensor(inputs)
    in_dim = inputs.shape[-1]
    if in_dim is None:
        raise ValueError("The last dimension of the inputs to `Dense` should be defined. "
                         "Found `None`.")
    with vs.variable_scope(name, default_name="dense", reuse=reuse):
        kernel = vs.get_variable("kernel", [in_dim, units], dtype=inputs.dtype.base_dtype,
                                 initializer=kernel_initializer, trainable=trainable)
        bias = vs.get_variable("bias", [units], dtype=inputs.dtype.base_dtype,
                               initializer=bias_initializer or vs.zeros_initializer(),
                               trainable=trainable) if use_bias else None
        if inputs.shape.ndims != 2:
            raise NotImplementedError("rill's tf.layers.dense takes rank-2 inputs")
        out = apply_op("MatMul", name="MatMul", a=inputs, b=kernel)
        if bias is not None:
            out = apply_op("BiasAdd", name="BiasAdd", value=out, bias=bias)
        if activation is not None:
            out = activation(out)
        return out


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    if not training:
        return inputs
    from rill.ops import nn
    return nn.dropout(inputs, rate=rate, noise_shape=noise_shape, seed=seed, name=name)
