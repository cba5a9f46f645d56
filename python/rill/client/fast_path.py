"""Session runs through the compiled module (rill._fastrun) where it applies.

A Runner is made once per fetch plan and feed order (Session.run) or per callable
(Session.make_callable): it holds the C arrays of fed and fetched outputs and targets, the numpy
dtypes and declared shapes, so a call passes only the values. Values that are not already
C-contiguous arrays of the fed dtype and declared shape go through `feed_array`, the conversion
and checks of the ctypes path, so both paths accept and refuse the same feeds with the same
errors.
"""
import numpy as np

from rill import _fast
from rill.framework import ops, tensor_util

# DataType enums the compiled path carries: numpy's fixed-size numeric types. Strings, resources
# and quantized types go through ctypes.
_NUMERIC = frozenset([1, 2, 3, 4, 5, 6, 8, 9, 10, 17, 18, 19, 22, 23])

# Runner result modes (python/csrc/runner.h ResultMode).
SINGLE, NONE, BUILD = 0, 1, 2


def available():
    """True when rill._fastrun loaded (and RILL_PYTHON_NO_FASTRUN is not 1)."""
    return _fast.module is not None


def feed_array(entry, key, val):
    """val as the numpy array fed for entry (Session._feed_entry's tuple); raises TensorFlow's
    errors for a tf.Tensor value, a value of the wrong type or a shape that does not fit."""
    t, dt, np_type, dims, _ = entry
    if isinstance(val, ops.Tensor):
        raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                        "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. "
                        "For reference, the tensor object was %s which was passed to the argument "
                        "`feed_dict` with key %s." % (val, key))
    if type(val) is int and np_type is not None and np_type.kind in "iu" and \
            np.array(val).astype(np_type) != val:
        # TensorFlow's check of a Python int against the placeholder's integer type (a value
        # past int64 fails in np.array with OverflowError, as there).
        raise TypeError("Type of feed value %s with type %s is not compatible with Tensor type "
                        "%s. Try explicitly setting the type of the feed tensor to a larger type "
                        "(e.g. int64)." % (val, type(val), np_type.type))
    if np_type is None:
        arr = np.asarray(val, dtype=object)
    elif type(val) is np.ndarray and val.dtype == np_type:
        arr = val
    else:
        arr = np.asarray(val, dtype=np_type)
    if dims is not None and arr.shape != dims:
        shp = arr.shape
        if len(shp) != len(dims) or any(d is not None and d != s for d, s in zip(dims, shp)):
            raise ValueError("Cannot feed value of shape %r for Tensor %s, which has shape %s"
                             % (shp, t.name, t.shape))
    return arr


def make_runner(session, plan, entries, keys, hold_session):
    """A rill._fastrun.Runner running plan with entries (Session._feed_entry tuples) fed in
    order, keys being what the caller names them by (for error texts); None where the ctypes path
    must run: no module, placement logging, a type other than a numeric one, or a fetched tensor
    that is also fed. hold_session: the runner keeps the session alive and refuses to run once it
    is closed (a callable); otherwise the caller checks (Session.run)."""
    fast = _fast.module
    if fast is None or session._log_placement:
        return None
    if not all(e in _NUMERIC for e in plan.enums):
        return None
    if not all(e[1].as_datatype_enum in _NUMERIC for e in entries):
        return None
    fed = set(e[0] for e in entries)
    if any(t in fed for t in plan.tensors):
        return None
    feeds = [(e[4].oper, e[4].index, e[1].as_datatype_enum, e[2], e[3]) for e in entries]
    fetches = []
    for t, enum in zip(plan.tensors, plan.enums):
        out = t._as_tf_output()
        fetches.append((out.oper, out.index, tensor_util._NP_BY_ENUM[enum]))
    targets = [o._c_op for o in plan.targets]
    mode = plan.result_mode

    def convert(i, val):
        arr = feed_array(entries[i], keys[i], val)
        return arr if arr.flags.c_contiguous else np.ascontiguousarray(arr)

    return fast.Runner(session if hold_session else None, session._c_session, feeds, fetches,
                       targets, mode, convert, plan.build)
