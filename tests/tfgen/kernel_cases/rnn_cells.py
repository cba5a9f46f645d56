"""TensorFlow's fused recurrent cells: BlockLSTM, BlockLSTMV2, LSTMBlockCell (float32, half) and
GRUBlockCell (float32): plain, peephole, cell clipping, forget bias, seq_len_max below the time
dimension, empty batch / time / cell, and the shape errors TensorFlow's kernels check.
(seq_len_max outside [0, time] and wrong ranks LSTMBlockCell does not check abort TensorFlow:
kernels/rnn/block_rnn_ops_test.cc covers Rill's errors there.)"""
import numpy as np
import tensorflow as tf

from kernel_cases.core import arr, ph, seed_of, tol

LSTM_OUTS = ("i", "cs", "f", "o", "ci", "co", "h")


def _tol(dt):
    """TensorFlow's half kernels round every step (the product's sums included) to half; Rill
    computes in float and rounds each output once, so half is compared to 1e-2."""
    return (1e-2, 1e-2) if dt == "half" else tol("loose", dt)


def _r(shape, seed, scale=0.7):
    return np.random.RandomState(seed_of(seed)).uniform(-scale, scale, shape)


def _lstm_inputs(s, time, batch, inp, cell):
    return dict(x=_r([time, batch, inp], s + "/x", 1.0), cs_prev=_r([batch, cell], s + "/cs", 1.0),
                h_prev=_r([batch, cell], s + "/h", 1.0), w=_r([inp + cell, 4 * cell], s + "/w"),
                wci=_r([cell], s + "/wci"), wcf=_r([cell], s + "/wcf"), wco=_r([cell], s + "/wco"),
                b=_r([4 * cell], s + "/b", 0.3))


def block_lstm(rec, op):
    v2 = op == "BlockLSTMV2"

    def gen(dt):
        rtol, atol = _tol(dt)

        def c(what, time=4, batch=3, inp=5, cell=6, seq=None, over=None, attrs=None,
              error=None, phrases=()):
            s = op + "/" + dt + "/" + what
            kw = _lstm_inputs(s, time, batch, inp, cell)
            kw.update(over or {})

            def build():
                args = {k: ph(k, arr(v, dt)) for k, v in kw.items()}
                args["seq_len_max"] = ph("seq_len_max", np.asarray(
                    time if seq is None else seq, np.int64))
                args.update(attrs or {})
                out = getattr(tf.raw_ops, op)(name="out", **args)
                # From seq_len_max on TensorFlow zeroes cs and h only and leaves i, f, o, ci, co
                # unwritten (whatever the allocator held): those are not compared there.
                names = LSTM_OUTS if seq is None or seq == time else ("cs", "h")
                return [getattr(out, n) for n in names]
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("plain")
        c("peephole", attrs=dict(use_peephole=True))
        c("cell_clip", attrs=dict(cell_clip=0.25, use_peephole=True))
        c("no_clip", over=dict(b=np.full([24], 2.0)), attrs=dict(cell_clip=0.0))
        if not v2:
            c("forget_bias", attrs=dict(forget_bias=-0.5, cell_clip=1.0))
            c("default_clip", over=dict(b=np.full([24], 2.0)))
        c("seq_len_max_below_time", seq=2)
        c("seq_len_max_zero", seq=0)
        c("one_step", time=1, batch=1, inp=1, cell=1)
        c("wider", time=3, batch=2, inp=9, cell=17, attrs=dict(use_peephole=True))
        c("empty_time", time=0, seq=0)
        c("empty_batch", batch=0)
        c("empty_cell", cell=0)
        c("empty_input", inp=0)
        c("seq_len_max_rank_error", seq=[2], error="INVALID_ARGUMENT",
          phrases=["`seq_len_max_tensor` must be rank 0 but is rank 1"])
        c("x_rank_error", over=dict(x=np.zeros([3, 5])), error="INVALID_ARGUMENT",
          phrases=["x must be 3D"])
        c("cs_prev_rank_error", over=dict(cs_prev=np.zeros([6])), error="INVALID_ARGUMENT",
          phrases=["cs_prev must be 2D"])
        c("cs_prev_batch_error", over=dict(cs_prev=np.zeros([2, 6])), error="INVALID_ARGUMENT",
          phrases=["cs_prev.dims(0) != batch_size: 2 vs. 3"])
        c("h_prev_rank_error", over=dict(h_prev=np.zeros([3, 6, 1])), error="INVALID_ARGUMENT",
          phrases=["h_prev must be 2D"])
        c("h_prev_batch_error", over=dict(h_prev=np.zeros([4, 6])), error="INVALID_ARGUMENT",
          phrases=["h_prev.dims(0) != batch_size: 4 vs. 3"])
        c("h_prev_cell_error", over=dict(h_prev=np.zeros([3, 5])), error="INVALID_ARGUMENT",
          phrases=["h_prev.dims(1) != cell_size: 5 vs. 6"])
        c("w_rank_error", over=dict(w=np.zeros([11])), error="INVALID_ARGUMENT",
          phrases=["w must be 2D"])
        c("w_rows_error", over=dict(w=np.zeros([10, 24])), error="INVALID_ARGUMENT",
          phrases=["w.dim_size(0) != input_size + cell_size: 10 vs. 11"])
        c("w_cols_error", over=dict(w=np.zeros([11, 20])), error="INVALID_ARGUMENT",
          phrases=["w.dim_size(1) != cell_size * 4: 20 vs. 24"])
        c("wci_size_error", over=dict(wci=np.zeros([5])), error="INVALID_ARGUMENT",
          phrases=["wci.dim_size(0) != cell_size: 5 vs. 6"])
        c("wcf_rank_error", over=dict(wcf=np.zeros([1, 6])), error="INVALID_ARGUMENT",
          phrases=["wcf must be 1D"])
        c("wco_size_error", over=dict(wco=np.zeros([7])), error="INVALID_ARGUMENT",
          phrases=["wco.dim_size(0) != cell_size: 7 vs. 6"])
        c("b_rank_error", over=dict(b=np.zeros([1, 24])), error="INVALID_ARGUMENT",
          phrases=["b must be 1D"])
        c("b_size_error", over=dict(b=np.zeros([20])), error="INVALID_ARGUMENT",
          phrases=["b.dim_size(0) != cell_size * 4: 20 vs. 24"])

    rec.for_dtypes(op, ["float32", "half"], gen)


def lstm_block_cell(rec):
    op = "LSTMBlockCell"

    def gen(dt):
        rtol, atol = _tol(dt)

        def c(what, batch=3, inp=5, cell=6, over=None, attrs=None, error=None, phrases=()):
            s = op + "/" + dt + "/" + what
            kw = _lstm_inputs(s, 1, batch, inp, cell)
            kw["x"] = kw["x"][0]
            kw.update(over or {})

            def build():
                args = {k: ph(k, arr(v, dt)) for k, v in kw.items()}
                args.update(attrs or {})
                out = tf.raw_ops.LSTMBlockCell(name="out", **args)
                return [getattr(out, n) for n in LSTM_OUTS]
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("plain")
        c("peephole", attrs=dict(use_peephole=True))
        c("cell_clip", over=dict(b=np.full([24], 2.0)), attrs=dict(cell_clip=0.5))
        c("no_clip", over=dict(b=np.full([24], 2.0)), attrs=dict(cell_clip=0.0))
        c("forget_bias", attrs=dict(forget_bias=0.0, use_peephole=True))
        c("unused_peephole_weights", over=dict(wci=np.zeros([2]), wco=np.zeros([9])))
        c("wider", batch=2, inp=9, cell=17)
        c("empty_input", inp=0)
        c("empty_batch_error", batch=0, error="INVALID_ARGUMENT",
          phrases=["cs_prev_tensor is empty, has shape: (0,6)."])
        c("empty_cell_error", cell=0, error="INVALID_ARGUMENT",
          phrases=["cs_prev_tensor is empty, has shape: (3,0)."])
        c("cs_prev_batch_error", over=dict(cs_prev=np.zeros([2, 6])), error="INVALID_ARGUMENT",
          phrases=["cs_prev.dims(0) != batch_size: 2 vs. 3"])
        c("h_prev_batch_error", over=dict(h_prev=np.zeros([4, 6])), error="INVALID_ARGUMENT",
          phrases=["h_prev.dims(0) != batch_size: 4 vs. 3"])
        c("h_prev_cell_error", over=dict(h_prev=np.zeros([3, 5])), error="INVALID_ARGUMENT",
          phrases=["h_prev.dims(1) != cell_size: 5 vs. 6"])
        c("w_rows_error", over=dict(w=np.zeros([10, 24])), error="INVALID_ARGUMENT",
          phrases=["w.dim_size(0) != input_size + cell_size: 10 vs. 11"])
        c("w_cols_error", over=dict(w=np.zeros([11, 20])), error="INVALID_ARGUMENT",
          phrases=["w.dim_size(1) != cell_size * 4: 20 vs. 24"])
        c("b_size_error", over=dict(b=np.zeros([20])), error="INVALID_ARGUMENT",
          phrases=["b.dim_size(0) != cell_size * 4: 20 vs. 24"])

    rec.for_dtypes(op, ["float32", "half"], gen)


def gru_block_cell(rec):
    op = "GRUBlockCell"

    def gen(dt):
        rtol, atol = _tol(dt)

        def c(what, batch=3, inp=5, cell=6, over=None, error=None, phrases=()):
            s = op + "/" + dt + "/" + what
            kw = dict(x=_r([batch, inp], s + "/x", 1.0), h_prev=_r([batch, cell], s + "/h", 1.0),
                      w_ru=_r([inp + cell, 2 * cell], s + "/wru"),
                      w_c=_r([inp + cell, cell], s + "/wc"), b_ru=_r([2 * cell], s + "/bru", 0.3),
                      b_c=_r([cell], s + "/bc", 0.3))
            kw.update(over or {})

            def build():
                out = tf.raw_ops.GRUBlockCell(name="out", **{k: ph(k, arr(v, dt))
                                                             for k, v in kw.items()})
                return [out.r, out.u, out.c, out.h]
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("plain")
        c("one", batch=1, inp=1, cell=1)
        c("wider", batch=2, inp=9, cell=17)
        c("saturated", over=dict(b_ru=np.full([12], 30.0), b_c=np.full([6], -30.0)))
        c("empty_batch", batch=0)
        c("empty_input", inp=0)
        c("empty_cell", cell=0)
        c("h_prev_batch_error", over=dict(h_prev=np.zeros([4, 6])), error="INVALID_ARGUMENT",
          phrases=["h_prev.dims(0) != batch_size: 4 vs. 3"])
        c("w_ru_rows_error", over=dict(w_ru=np.zeros([10, 12])), error="INVALID_ARGUMENT",
          phrases=["w_ru.dim_size(0) != input_size + cell_size: 10 vs. 11"])
        c("w_ru_cols_error", over=dict(w_ru=np.zeros([11, 10])), error="INVALID_ARGUMENT",
          phrases=["w_ru.dim_size(1) != cell_size * 2: 10 vs. 12"])
        c("w_c_rows_error", over=dict(w_c=np.zeros([12, 6])), error="INVALID_ARGUMENT",
          phrases=["w_c.dim_size(0) != input_size + cell_size: 12 vs. 11"])
        c("w_c_cols_error", over=dict(w_c=np.zeros([11, 5])), error="INVALID_ARGUMENT",
          phrases=["w_c.dim_size(1) != cell_size: 5 vs. 6"])
        c("b_ru_size_error", over=dict(b_ru=np.zeros([10])), error="INVALID_ARGUMENT",
          phrases=["b_ru.dim_size(0) != cell_size * 2: 10 vs. 12"])
        c("b_ru_rank_error", over=dict(b_ru=np.zeros([12, 1])), error="INVALID_ARGUMENT",
          phrases=["Rank of b_ru must be 1"])
        c("b_c_size_error", over=dict(b_c=np.zeros([5])), error="INVALID_ARGUMENT",
          phrases=["b_c.dim_size(0) != cell_size: 5 vs. 6"])
        c("b_c_rank_error", over=dict(b_c=np.zeros([6, 2])), error="INVALID_ARGUMENT",
          phrases=["Rank of b_c must be 1"])

    rec.for_dtypes(op, ["float32"], gen)


def build_all(rec, emit):
    for op in ("BlockLSTM", "BlockLSTMV2"):
        block_lstm(rec, op)
        emit(op)
    lstm_block_cell(rec)
    emit("LSTMBlockCell")
    gru_block_cell(rec)
    emit("GRUBlockCell")
