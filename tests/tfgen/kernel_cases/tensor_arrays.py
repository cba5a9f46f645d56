"""TF1 TensorArrays (tf.TensorArray built with control flow v1: TensorArrayV3 and its Write,
Read, Gather, Scatter, Concat, Size ops) and the TF1 recurrent loop that uses them: the while loop
tf.compat.v1.nn.dynamic_rnn builds, with an LSTM cell and a GRU cell written out (TensorFlow
2.21's rnn_cell classes need Keras 2), seeded weights. One suite per op; the RNNs go in the
TensorArrayScatterV3 suite (their input unstack)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import in_control_flow_v1, ph, rand, tf1


def build_all(rec, emit):
    def c(op, dt, what, build, **kw):
        rec.case(op, dt, what, in_control_flow_v1(build), **kw)

    def tdt(dt):
        return tf.as_dtype(dt)

    def write_read(dt):
        a, b = rand(dt, [2], "TA/a" + dt), rand(dt, [2], "TA/b" + dt)

        def roundtrip():
            ta = tf.TensorArray(tdt(dt), size=3, element_shape=[2], name="out")
            ta = ta.write(0, ph("a", a)).write(2, ph("b", b))
            return [ta.read(2), ta.read(1), ta.size()]
        c("TensorArrayWriteV3", dt, "write_read_unwritten_zeros", roundtrip)

        def out_of_range():
            ta = tf.TensorArray(tdt(dt), size=2, name="out")
            return ta.write(ph("i", np.int32(3)), ph("a", a)).read(0)
        c("TensorArrayWriteV3", dt, "out_of_range_error", out_of_range, error="INVALID_ARGUMENT",
          phrases=["Tried to write to index 3 but array is not resizeable and size is: 2"])

        def twice():
            ta = tf.TensorArray(tdt(dt), size=2, name="out")
            return ta.write(0, ph("a", a)).write(0, ph("b", b)).read(0)
        c("TensorArrayWriteV3", dt, "write_twice_error", twice, error="INVALID_ARGUMENT",
          phrases=["Could not write to TensorArray index 0 because it has already been written"])

        def dynamic():
            ta = tf.TensorArray(tdt(dt), size=0, dynamic_size=True, name="out")
            ta = ta.write(0, ph("a", a)).write(3, ph("b", b))
            return [ta.size(), ta.read(3)]
        c("TensorArrayWriteV3", dt, "dynamic_size_grows", dynamic)

    def read(dt):
        a = rand(dt, [2], "TA/r" + dt)

        def read_twice():
            ta = tf.TensorArray(tdt(dt), size=1, name="out").write(0, ph("a", a))
            r1 = ta.read(0)
            with tf.control_dependencies([r1]):
                return ta.read(0) + r1
        c("TensorArrayReadV3", dt, "read_twice_error", read_twice, error="INVALID_ARGUMENT",
          phrases=["Could not read index 0 twice because it was cleared after a previous read"])

        def keep():
            ta = tf.TensorArray(tdt(dt), size=1, clear_after_read=False, name="out")
            ta = ta.write(0, ph("a", a))
            r1 = ta.read(0)
            with tf.control_dependencies([r1]):
                return ta.read(0) + r1
        c("TensorArrayReadV3", dt, "read_twice_kept", keep)

        def unknown_shape():
            ta = tf.TensorArray(tdt(dt), size=2, infer_shape=False, name="out")
            return ta.read(ph("i", np.int32(1)))
        c("TensorArrayReadV3", dt, "unwritten_unknown_shape_error", unknown_shape,
          error="INVALID_ARGUMENT", phrases=["Could not read from TensorArray index 1"])

    def scatter_gather(dt):
        x = rand(dt, [4, 3], "TA/x" + dt)

        def unstack_stack():
            ta = tf.TensorArray(tdt(dt), size=4, name="out").unstack(ph("x", x))
            return [ta.stack(), ta.size()]
        c("TensorArrayGatherV3", dt, "unstack_stack", unstack_stack)

        def gather():
            ta = tf.TensorArray(tdt(dt), size=4, clear_after_read=False, name="out")
            ta = ta.scatter(ph("idx", np.array([3, 0, 2, 1], np.int32)), ph("x", x))
            return ta.gather(ph("g", np.array([1, 1, 3], np.int32)))
        c("TensorArrayGatherV3", dt, "scatter_then_gather", gather)

    def concat(dt):
        a, b = rand(dt, [2, 3], "TAc/a" + dt), rand(dt, [1, 3], "TAc/b" + dt)

        def ragged():
            # Elements of different lengths (what per-class NMS writes), an empty one included.
            ta = tf.TensorArray(tdt(dt), size=4, infer_shape=False, element_shape=[None, 3],
                                name="out")
            ta = ta.write(0, ph("a", a)).write(1, ph("e", np.zeros([0, 3], a.dtype)))
            ta = ta.write(2, ph("b", b)).write(3, ph("a2", a))
            return list(tf.raw_ops.TensorArrayConcatV3(handle=ta.handle, flow_in=ta.flow,
                                                       dtype=tdt(dt)))
        c("TensorArrayConcatV3", dt, "ragged_lengths", ragged)

        def loop():
            # Written in a TF1 while loop, growing rows per step, then concatenated.
            ta = tf.TensorArray(tdt(dt), size=0, dynamic_size=True, infer_shape=False, name="out")
            x = ph("x", rand(dt, [4, 3], "TAc/x" + dt))

            def body(t, ta):
                return t + 1, ta.write(t, x[:t + 1])
            _, ta = tf1.while_loop(lambda t, _: t < 4, body, [tf.constant(0), ta])
            return [ta.concat(), ta.size()]
        c("TensorArrayConcatV3", dt, "while_loop_rows", loop)

        def empty():
            ta = tf.TensorArray(tdt(dt), size=0, dynamic_size=True, element_shape=[None, 2],
                                name="out")
            return list(tf.raw_ops.TensorArrayConcatV3(handle=ta.handle, flow_in=ta.flow,
                                                       dtype=tdt(dt),
                                                       element_shape_except0=[2]))
        c("TensorArrayConcatV3", dt, "empty_static_shape", empty)

        def empty_unknown():
            ta = tf.TensorArray(tdt(dt), size=ph("n", np.int32(0)), name="out")
            return list(tf.raw_ops.TensorArrayConcatV3(handle=ta.handle, flow_in=ta.flow,
                                                       dtype=tdt(dt)))
        c("TensorArrayConcatV3", dt, "empty_unknown_shape_error", empty_unknown,
          error="UNIMPLEMENTED", phrases=["TensorArray has size zero, but element_shape_except0"])

        def scalar():
            ta = tf.TensorArray(tdt(dt), size=1, name="out").write(0, ph("s", a[0, 0]))
            return list(tf.raw_ops.TensorArrayConcatV3(handle=ta.handle, flow_in=ta.flow,
                                                       dtype=tdt(dt)))
        c("TensorArrayConcatV3", dt, "scalar_element_error", scalar, error="INVALID_ARGUMENT",
          phrases=["Concat saw a scalar shape at index 0 but requires at least vectors."])

        def mismatch():
            ta = tf.TensorArray(tdt(dt), size=2, infer_shape=False, name="out")
            ta = ta.write(0, ph("a", a)).write(1, ph("c", rand(dt, [2, 2], "TAc/c" + dt)))
            return list(tf.raw_ops.TensorArrayConcatV3(handle=ta.handle, flow_in=ta.flow,
                                                       dtype=tdt(dt)))
        c("TensorArrayConcatV3", dt, "inconsistent_shapes_error", mismatch,
          error="INVALID_ARGUMENT", phrases=[
              "TensorArray has inconsistent shapes.  Index 0 has (excepting dimension 0) shape: "
              "[3] but index 1 has (excepting dimension 0) shape: [2]"])

    def split(dt):
        x = rand(dt, [5, 3], "TAs/x" + dt)

        def lengths(v):
            return ph("lengths", np.array(v, np.int64))

        def ragged():
            # Rows 2, 0 and 3 (an empty element), read back and concatenated again.
            ta = tf.TensorArray(tdt(dt), size=3, infer_shape=False, clear_after_read=False,
                                name="out")
            ta = ta.split(ph("x", x), lengths([2, 0, 3]))
            return [ta.read(0), ta.read(1), ta.read(2), ta.concat()]
        c("TensorArraySplitV3", dt, "ragged_lengths", ragged)

        def dynamic():
            ta = tf.TensorArray(tdt(dt), size=0, dynamic_size=True, infer_shape=False, name="out")
            ta = ta.split(ph("x", x), lengths([1, 1, 3]))
            return [ta.size(), ta.read(2)]
        c("TensorArraySplitV3", dt, "dynamic_size_grows", dynamic)

        def errors(what, size, value, lens, phrase):
            def build():
                ta = tf.TensorArray(tdt(dt), size=size, infer_shape=False, name="out")
                return tf.raw_ops.TensorArraySplitV3(handle=ta.handle, value=ph("x", value),
                                                     lengths=ph("lengths", lens),
                                                     flow_in=ta.flow)
            c("TensorArraySplitV3", dt, what, build, error="INVALID_ARGUMENT", phrases=[phrase])

        errors("lengths_sum_error", 2, x, np.array([1, 2], np.int64),
               "Expected sum of lengths to be equal to values.shape[0], but sum of lengths is 3 "
               "and value's shape is: [5,3]")
        errors("size_mismatch_error", 2, x, np.array([1, 1, 3], np.int64),
               "TensorArray's size is not equal to the size of lengths (2 vs. 3), and the "
               "TensorArray is not marked as dynamically resizeable")
        errors("scalar_value_error", 1, x[0, 0], np.array([1], np.int64),
               "Expected value to be at least a vector, but received shape: []")
        errors("lengths_matrix_error", 1, x, np.array([[5]], np.int64),
               "Expected lengths to be a vector, received shape: [1,1]")

    def rnns(dt):
        x = rand(dt, [5, 3, 4], "TA/rnn", kind="small")   # time-major: [time, batch, depth]
        rs = np.random.RandomState(7)
        w_lstm = rs.normal(0, 0.3, [4 + 6, 24]).astype(np.float32)
        b_lstm = rs.normal(0, 0.1, [24]).astype(np.float32)
        w_gates = rs.normal(0, 0.3, [4 + 6, 12]).astype(np.float32)
        w_cand = rs.normal(0, 0.3, [4 + 6, 6]).astype(np.float32)

        def lstm_step(x_t, h, c_state):
            # tf.nn.rnn_cell.LSTMCell's arithmetic (forget bias 1).
            gates = tf.matmul(tf.concat([x_t, h], 1), w_lstm) + b_lstm
            i, j, f, o = tf.split(gates, 4, axis=1)
            c_new = tf.sigmoid(f + 1.0) * c_state + tf.sigmoid(i) * tf.tanh(j)
            return tf.sigmoid(o) * tf.tanh(c_new), c_new

        def gru_step(x_t, h, _):
            # tf.nn.rnn_cell.GRUCell's arithmetic.
            ru = tf.sigmoid(tf.matmul(tf.concat([x_t, h], 1), w_gates) + 1.0)
            r, u = tf.split(ru, 2, axis=1)
            cand = tf.tanh(tf.matmul(tf.concat([x_t, r * h], 1), w_cand))
            h_new = u * h + (1 - u) * cand
            return h_new, h_new

        def dynamic_rnn(step):
            # The loop tf.compat.v1.nn.dynamic_rnn builds: inputs unstacked into a TensorArray
            # (Scatter), read per step, outputs written to another and stacked (Gather).
            def build():
                inputs = ph("x", x)
                steps = tf.shape(inputs)[0]
                in_ta = tf.TensorArray(tf.float32, size=steps, name="inputs").unstack(inputs)
                out_ta = tf.TensorArray(tf.float32, size=steps, name="outputs")
                zeros = tf.zeros([tf.shape(inputs)[1], 6])

                def body(t, h, c_state, ta):
                    h, c_state = step(in_ta.read(t), h, c_state)
                    return t + 1, h, c_state, ta.write(t, h)
                _, h, c_state, out_ta = tf1.while_loop(
                    lambda t, *_: t < steps, body, [tf.constant(0), zeros, zeros, out_ta],
                    name="rnn")
                return [out_ta.stack(), h, c_state]
            return build

        c("TensorArrayScatterV3", dt, "dynamic_rnn_lstm", dynamic_rnn(lstm_step), rtol=1e-5,
          atol=1e-6)
        c("TensorArrayScatterV3", dt, "dynamic_rnn_gru", dynamic_rnn(gru_step), rtol=1e-5,
          atol=1e-6)

    def grad_array(dt):
        a, b = rand(dt, [2], "TAGrad/a" + dt), rand(dt, [2], "TAGrad/b" + dt)

        def aggregate():
            # The gradient array: the forward array's size and element shape, writes to one
            # index add up, unwritten elements read as zeros; one array per source.
            ta = tf.TensorArray(tdt(dt), size=3, element_shape=[2])
            ta = ta.write(0, ph("a", a))
            g = tf.raw_ops.TensorArrayGradV3(handle=ta.handle, flow_in=ta.flow,
                                             source="gradients", name="out")
            flow = tf.raw_ops.TensorArrayWriteV3(handle=g.grad_handle, index=1, value=ph("b", b),
                                                 flow_in=g.flow_out)
            flow = tf.raw_ops.TensorArrayWriteV3(handle=g.grad_handle, index=1, value=a,
                                                 flow_in=flow)
            same = tf.raw_ops.TensorArrayGradV3(handle=ta.handle, flow_in=flow,
                                                source="gradients")
            other = tf.raw_ops.TensorArrayGradV3(handle=ta.handle, flow_in=flow,
                                                 source="gradients_1")
            read = lambda h, i, f: tf.raw_ops.TensorArrayReadV3(handle=h, index=i, flow_in=f,
                                                                dtype=tdt(dt))
            return [read(same.grad_handle, 1, same.flow_out),
                    read(same.grad_handle, 0, same.flow_out),
                    read(other.grad_handle, 1, other.flow_out),
                    tf.raw_ops.TensorArraySizeV3(handle=g.grad_handle, flow_in=flow)]
        c("TensorArrayGradV3", dt, "aggregate_and_zeros", aggregate)

    rec.for_dtypes("TensorArrayGradV3", ["float32"], grad_array)
    emit("TensorArrayGradV3")
    rec.for_dtypes("TensorArrayWriteV3", ["float32", "int32"], write_read)
    emit("TensorArrayWriteV3")
    rec.for_dtypes("TensorArrayReadV3", ["float32"], read)
    emit("TensorArrayReadV3")
    rec.for_dtypes("TensorArrayGatherV3", ["float32", "int32"], scatter_gather)
    emit("TensorArrayGatherV3")
    rec.for_dtypes("TensorArrayScatterV3", ["float32"], rnns)
    emit("TensorArrayScatterV3")
    rec.for_dtypes("TensorArrayConcatV3", ["float32", "int32"], concat)
    emit("TensorArrayConcatV3")
    rec.for_dtypes("TensorArraySplitV3", ["float32", "int32"], split)
    emit("TensorArraySplitV3")
