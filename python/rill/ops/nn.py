"""tf.nn: the common neural-network functions (generated ops under TensorFlow's names)."""
import collections

from rill.framework import dtypes, ops
from rill.framework.op_def_library import apply_op
from rill.ops import gen_ops, math_ops


TopKResult = collections.namedtuple("TopKV2", ["values", "indices"])


def relu(features, name=None):
    return apply_op("Relu", name=name, features=features)


def relu6(features, name=None):
    return apply_op("Relu6", name=name, features=features)


def sigmoid(x, name=None):
    return apply_op("Sigmoid", name=name, x=x)


def tanh(x, name=None):
    return apply_op("Tanh", name=name, x=x)


def softmax(logits, axis=None, name=None):
    return apply_op("Softmax", name=name, logits=logits)


def log_softmax(logits, axis=None, name=None):
    return apply_op("LogSoftmax", name=name, logits=logits)


def bias_add(value, bias, data_format=None, name=None):
    return apply_op("BiasAdd", name=name, value=value, bias=bias,
                    data_format=data_format or "NHWC")


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,
           data_format="NHWC", dilations=None, name=None, filters=None):
    return apply_op("Conv2D", name=name, input=input, filter=filter if filter is not None else filters,
                    strides=list(strides), padding=padding, data_format=data_format,
                    dilations=list(dilations or [1, 1, 1, 1]))


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):
    return apply_op("MaxPool", name=name, input=value if value is not None else input,
                    ksize=list(ksize), strides=list(strides), padding=padding,
                    data_format=data_format)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):
    return apply_op("AvgPool", name=name, value=value if value is not None else input,
                    ksize=list(ksize), strides=list(strides), padding=padding,
                    data_format=data_format)


def l2_loss(t, name=None):
    return apply_op("L2Loss", name=name, t=t)


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    with ops.name_scope_v1(name, "softmax_cross_entropy_with_logits_sg") as scope:
        loss, _ = apply_op("SoftmaxCrossEntropyWithLogits", features=logits, labels=labels)
        return gen_ops.identity(loss, name=scope)


softmax_cross_entropy_with_logits_v2 = softmax_cross_entropy_with_logits


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    with ops.name_scope_v1(name, "SparseSoftmaxCrossEntropyWithLogits") as scope:
        loss, _ = apply_op("SparseSoftmaxCrossEntropyWithLogits", features=logits, labels=labels)
        return gen_ops.identity(loss, name=scope)


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """x scaled by 1/keep_prob where a uniform draw keeps it, 0 elsewhere."""
    if rate is None:
        if keep_prob is None:
            raise ValueError("dropout needs keep_prob or rate")
        rate = 1.0 - keep_prob
    with ops.name_scope_v1(name, "dropout", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        if isinstance(rate, (int, float)) and rate == 0:
            return x
        from rill.compat import v1
        from rill.ops import array_ops
        shape = noise_shape if noise_shape is not None else array_ops.shape(x)
        s1, s2 = v1.get_seed(seed)
        u = apply_op("RandomUniform", shape=shape, dtype=x.dtype.base_dtype, seed=s1 or 0,
                     seed2=s2 or 0)
        keep = ops.convert_to_tensor(1.0 - rate, dtype=x.dtype.base_dtype) \
            if not isinstance(rate, ops.Tensor) else 1.0 - rate
        mask = apply_op("Floor", x=math_ops.add(u, keep))
        return math_ops.multiply(math_ops.truediv(x, keep), mask, name=scope)


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    with ops.name_scope_v1(name, "moments"):
        mean = math_ops.reduce_mean(x, axes, keepdims=True, name="mean")
        var = math_ops.reduce_mean(apply_op("SquaredDifference", x=x, y=mean), axes,
                                   keepdims=True, name="variance")
        if not (keepdims or keep_dims):
            from rill.ops import array_ops
            mean = array_ops.squeeze(mean, axes)
            var = array_ops.squeeze(var, axes)
        return mean, var


def elu(features, name=None):
    return apply_op("Elu", name=name, features=features)


def selu(features, name=None):
    return apply_op("Selu", name=name, features=features)


def softplus(features, name=None):
    return apply_op("Softplus", name=name, features=features)


def softsign(features, name=None):
    return apply_op("Softsign", name=name, features=features)


def leaky_relu(features, alpha=0.2, name=None):
    return apply_op("LeakyRelu", name=name, features=features, alpha=alpha)


def top_k(input, k=1, sorted=True, name=None):
    values, indices = apply_op("TopKV2", name=name, input=input,
                               k=ops.convert_to_tensor(k, dtype=dtypes.int32), sorted=sorted)
    return TopKResult(values, indices)


def in_top_k(predictions, targets, k, name=None):
    with ops.name_scope_v1(name, "in_top_k"):
        targets = ops.convert_to_tensor(targets)
        return apply_op("InTopKV2", predictions=predictions, targets=targets,
                        k=ops.convert_to_tensor(k, dtype=targets.dtype.base_dtype))


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise NotImplementedError("embedding_lookup over partitioned params")
        params = params[0]
    with ops.name_scope_v1(name, "embedding_lookup"):
        return apply_op("GatherV2", params=params, indices=ids,
                        axis=ops.convert_to_tensor(0, dtype=dtypes.int32))


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)), TensorFlow's stable form."""
    with ops.name_scope_v1(name, "logistic_loss", [logits, labels]) as scope:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels", dtype=logits.dtype.base_dtype)
        zeros = apply_op("ZerosLike", x=logits)
        relu_logits = apply_op("Select", condition=apply_op("GreaterEqual", x=logits, y=zeros),
                               t=logits, e=zeros)
        neg_abs = apply_op("Select", condition=apply_op("GreaterEqual", x=logits, y=zeros),
                           t=apply_op("Neg", x=logits), e=logits)
        return math_ops.add(math_ops.subtract(relu_logits, math_ops.multiply(logits, labels)),
                            apply_op("Log1p", x=apply_op("Exp", x=neg_abs)), name=scope)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    axis = dim if axis is None else axis
    with ops.name_scope_v1(name, "l2_normalize", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        square_sum = math_ops.reduce_sum(apply_op("Square", x=x), axis, keepdims=True)
        inv = apply_op("Rsqrt", x=math_ops.maximum(square_sum, ops.convert_to_tensor(
            epsilon, dtype=x.dtype.base_dtype)))
        return math_ops.multiply(x, inv, name=scope)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None, data_format=None,
                     dilations=None):
    return apply_op("DepthwiseConv2dNative", name=name, input=input, filter=filter,
                    strides=list(strides), padding=padding, data_format=data_format or "NHWC",
                    dilations=list(dilations or rate and [1, rate[0], rate[1], 1] or [1, 1, 1, 1]))


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME",
                     data_format="NHWC", name=None, input=None, filters=None, dilations=None):
    with ops.name_scope_v1(name, "conv2d_transpose") as scope:
        return apply_op("Conv2DBackpropInput", name=scope,
                        input_sizes=ops.convert_to_tensor(output_shape, dtype=dtypes.int32),
                        filter=filter if filter is not None else filters,
                        out_backprop=value if value is not None else input,
                        strides=list(strides), padding=padding, data_format=data_format,
                        dilations=list(dilations or [1, 1, 1, 1]))


def lrn(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):
    return apply_op("LRN", name=name, input=input, depth_radius=depth_radius, bias=bias,
                    alpha=alpha, beta=beta)


local_response_normalization = lrn
