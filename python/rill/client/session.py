"""Session and InteractiveSession over TF_Session: run with nested fetches and numpy feeds.

Runs go through the compiled module rill._fastrun where it loads and applies (client/fast_path.py)
and through ctypes otherwise; both release the GIL for TF_SessionRun, so several Python threads
run sessions (or one session) concurrently. Placement log lines the library writes to
C stdout are flushed after each run, so they keep their order among the program's prints.
"""
import collections
import collections.abc
import ctypes
import sys
import threading

import numpy as np

from rill import _c
from rill._proto import config_pb2
from rill.client import fast_path
from rill.framework import dtypes, ops, tensor_util


class _ThreadStatus(threading.local):
    """One TF_Status per thread, reused by every run (TF_SessionRun sets it each call)."""

    def __init__(self):
        self.status = _c.Status()


_thread_status = _ThreadStatus()


class _SessionStack(threading.local):
    def __init__(self):
        self.stack = []


_session_stack = _SessionStack()


def get_default_session():
    return _session_stack.stack[-1] if _session_stack.stack else None


def _run_using_default_session(op, feed_dict, session):
    session = session or get_default_session()
    if session is None:
        raise ValueError("Cannot execute operation using `run()`: No default session is "
                         "registered. Use `with sess.as_default():` or pass an explicit session "
                         "to `run(session=sess)`")
    session.run(op, feed_dict)


def _eval_using_default_session(t, feed_dict, session):
    session = session or get_default_session()
    if session is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                         "registered. Use `with sess.as_default()` or pass an explicit session to "
                         "`eval(session=sess)`")
    return session.run(t, feed_dict)


class _FetchPlan(object):
    """Flattens a nested fetch structure into unique tensors and targets, and rebuilds it.
    Holds the C arrays of fetched outputs and targets, built once per plan."""

    def __init__(self, graph, fetches):
        self.tensors = []
        self.targets = []
        self._tensor_pos = {}
        self.build = self._plan(graph, fetches)
        if isinstance(fetches, (list, tuple, dict)):
            self.result_mode = fast_path.BUILD
        else:
            self.result_mode = fast_path.SINGLE if self.tensors else fast_path.NONE
        # Compiled runners by feed keys (a tuple); False where the ctypes path runs.
        self.runners = {}
        n = len(self.tensors)
        self.nout = n
        self.enums = [t.dtype.base_dtype.as_datatype_enum for t in self.tensors]
        self.ntarget = len(self.targets)
        self.c_outputs = (_c.TF_Output * n)(*[t._as_tf_output() for t in self.tensors]) if n else None
        self.out_type = ctypes.c_void_p * n
        self.c_targets = (ctypes.c_void_p * self.ntarget)(*[o._c_op for o in self.targets]) \
            if self.ntarget else None

    def _plan(self, graph, f):
        if f is None:
            raise TypeError("Argument `fetch` = None has invalid type \"NoneType\". Cannot be None")
        if isinstance(f, (list, tuple)) and not hasattr(f, "_fields"):
            subs = [self._plan(graph, x) for x in f]
            kind = type(f)
            return lambda vals: kind(s(vals) for s in subs)
        if hasattr(f, "_fields") and isinstance(f, tuple):
            subs = [self._plan(graph, x) for x in f]
            kind = type(f)
            return lambda vals: kind(*[s(vals) for s in subs])
        if isinstance(f, dict):
            items = [(k, self._plan(graph, v)) for k, v in f.items()]
            kind = type(f)
            if kind is collections.defaultdict:
                return lambda vals: collections.defaultdict(
                    f.default_factory, [(k, s(vals)) for k, s in items])
            return lambda vals: kind((k, s(vals)) for k, s in items)
        if hasattr(f, "_as_fetch"):
            f = f._as_fetch()
        try:
            el = graph.as_graph_element(f)
        except TypeError as e:
            raise TypeError("Argument `fetch` = %s has invalid type \"%s\" must be a string or "
                            "Tensor. (%s)" % (f, type(f).__name__, e))
        except (KeyError, ValueError) as e:
            raise ValueError("Argument `fetch` = %s cannot be interpreted as a Tensor. (%s)" % (
                f, e))
        if el.graph is not graph:
            raise ValueError("Fetch argument %r cannot be interpreted as a Tensor. (Tensor %s is "
                             "not an element of this graph.)" % (f, el))
        if isinstance(el, ops.Operation):
            if el not in self.targets:
                self.targets.append(el)
            return lambda vals: None
        pos = self._tensor_pos.get(el)
        if pos is None:
            pos = len(self.tensors)
            self._tensor_pos[el] = pos
            self.tensors.append(el)
        return lambda vals: vals[pos]


class BaseSession(object):
    def __init__(self, target="", graph=None, config=None):
        self._graph = graph if graph is not None else ops.get_default_graph()
        self._config = config
        self._closed = False
        self._c_session = None
        opts = _c.TF_NewSessionOptions()
        status = _c.Status()
        try:
            if target:
                _c.TF_SetTarget(opts, target.encode() if isinstance(target, str) else target)
            if config is not None:
                b = config.SerializeToString()
                _c.TF_SetConfig(opts, b, len(b), status.ptr)
                status.raise_if_error()
            self._c_session = _c.TF_NewSession(self._graph._c_graph, opts, status.ptr)
            status.raise_if_error()
        finally:
            _c.TF_DeleteSessionOptions(opts)
        self._log_placement = bool(config is not None and config.log_device_placement)
        self._fast = fast_path.available() and not self._log_placement
        self._default_ctx = []
        self._plans = {}
        self._feed_cache = {}

    @property
    def graph(self):
        return self._graph

    @property
    def graph_def(self):
        return self._graph.as_graph_def()

    @property
    def sess_str(self):
        return ""

    def list_devices(self):
        status = _c.Status()
        lst = _c.TF_SessionListDevices(self._c_session, status.ptr)
        status.raise_if_error()
        try:
            out = []
            for i in range(_c.TF_DeviceListCount(lst)):
                out.append(_DeviceAttributes(
                    _c.TF_DeviceListName(lst, i, status.ptr).decode(),
                    _c.TF_DeviceListType(lst, i, status.ptr).decode(),
                    _c.TF_DeviceListMemoryBytes(lst, i, status.ptr),
                    _c.TF_DeviceListIncarnation(lst, i, status.ptr)))
            return out
        finally:
            _c.TF_DeleteDeviceList(lst)

    def close(self):
        if self._c_session and not self._closed:
            status = _c.Status()
            _c.TF_CloseSession(self._c_session, status.ptr)
            self._closed = True
            status.raise_if_error()

    def __del__(self):
        if getattr(self, "_c_session", None) and _c.TF_DeleteSession is not None:
            try:
                status = _c.Status()
                if not self._closed:
                    _c.TF_CloseSession(self._c_session, status.ptr)
                _c.TF_DeleteSession(self._c_session, status.ptr)
            except Exception:
                pass
            self._c_session = None

    def as_default(self):
        sess = self

        class _Ctx(object):
            def __enter__(self):
                _session_stack.stack.append(sess)
                return sess

            def __exit__(self, *a):
                _session_stack.stack.remove(sess)
        return _Ctx()

    def _plan_for(self, fetches):
        key = None
        if isinstance(fetches, (ops.Tensor, ops.Operation)):
            key = fetches
        elif type(fetches) is list and all(isinstance(x, (ops.Tensor, ops.Operation))
                                           for x in fetches):
            key = (list,) + tuple(fetches)
        if key is not None:
            plan = self._plans.get(key)
            if plan is None:
                plan = _FetchPlan(self._graph, fetches)
                if len(self._plans) < 256:
                    self._plans[key] = plan
                    plan.cached = True
            return plan
        return _FetchPlan(self._graph, fetches)

    def _runner(self, plan, keys):
        """The compiled runner of a cached plan fed by keys, or False (the ctypes path runs: no
        runner applies, or a key is refused, which the ctypes path reports)."""
        runner = False
        if getattr(plan, "cached", False):
            try:
                entries = [self._feed_entry(k) for k in keys]
            except (TypeError, ValueError, KeyError):
                return False
            if len(set(e[0] for e in entries)) != len(entries):
                return False  # one tensor under two keys: the ctypes path keeps the last value
            runner = fast_path.make_runner(self, plan, entries, keys, False) or False
        if len(plan.runners) < 64:
            plan.runners[keys] = runner
        return runner

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs the graph for fetches (a Tensor, Operation, name, Variable, or lists, tuples,
        namedtuples and dicts of them) with feed_dict's values; returns numpy values in the
        structure of fetches (None for Operations)."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        cls = fetches.__class__
        plan = self._plans.get(fetches) if cls is ops.Tensor or cls is ops.Operation else None
        if plan is None:
            plan = self._plan_for(fetches)
        if feed_dict is not None and not isinstance(feed_dict, collections.abc.Mapping):
            raise TypeError("FlattenDictItems: 'dict' must be a dictionary or collection.Mapping "
                            "type object, instead of '%s'." % type(feed_dict).__name__)
        if not plan.nout and not plan.ntarget:
            # Nothing to fetch or run (an empty structure): TensorFlow returns the structure
            # without a run, whatever is fed.
            return plan.build([])
        if self._fast and options is None and run_metadata is None:
            if feed_dict:
                keys = tuple(feed_dict)
                runner = plan.runners.get(keys)
                if runner is None:
                    runner = self._runner(plan, keys)
                if runner:
                    return runner(*feed_dict.values())
            else:
                runner = plan.runners.get(())
                if runner is None:
                    runner = self._runner(plan, ())
                if runner:
                    return runner()
        if not feed_dict:
            return plan.build(self._call(plan, (), (), options, run_metadata))
        feeds = []
        feed_vals = []
        keep = []
        fed_arrays = {}
        fed_pos = {}  # tensor -> its index in feeds
        try:
            for k, v in feed_dict.items():
                try:
                    entries = ((self._feed_entry(k), v),)
                except TypeError:
                    entries = [(self._feed_entry(t), val) for t, val in _feed_pairs(self._graph, k, v)]
                for entry, val in entries:
                    t, dt, out = entry[0], entry[1], entry[4]
                    arr = fast_path.feed_array(entry, k, val)
                    c_val = tensor_util.numpy_to_c_tensor(arr, dt, keep)
                    if t in fed_pos:
                        # One tensor under two keys ('x:0' and x): the last value wins, as in
                        # TensorFlow's feed_dict.
                        _c.TF_DeleteTensor(feed_vals[fed_pos[t]])
                        feed_vals[fed_pos[t]] = c_val
                    else:
                        fed_pos[t] = len(feeds)
                        feeds.append(out)
                        feed_vals.append(c_val)
                    fed_arrays[t] = arr
            if any(t in fed_arrays for t in plan.tensors):
                # A fetched tensor that is also fed gives the fed value (as TensorFlow's
                # session); the library refuses such a run, so only the others are fetched,
                # and nothing runs when every fetch is fed and there is no target.
                rest = [t for t in plan.tensors if t not in fed_arrays]
                got = iter(())
                if rest or plan.targets:
                    sub = _FetchPlan(self._graph, rest + plan.targets)
                    got = iter(self._call(sub, feeds, feed_vals, options, run_metadata))
                values = [np.array(fed_arrays[t]) if t in fed_arrays else next(got)
                          for t in plan.tensors]
            else:
                values = self._call(plan, feeds, feed_vals, options, run_metadata)
        finally:
            for v in feed_vals:
                _c.TF_DeleteTensor(v)
        return plan.build(values)

    def _feed_entry(self, key):
        """(tensor, dtype, numpy type or None for strings, dims or None, TF_Output) of a feed
        key (a Tensor, a tensor name, or an object with _as_feed); TypeError for a key that
        is a structure of keys."""
        try:
            return self._feed_cache[key]
        except KeyError:
            pass
        if isinstance(key, (tuple, list)):
            raise TypeError("structured feed key")
        k = key._as_feed() if hasattr(key, "_as_feed") else key
        try:
            t = self._graph.as_graph_element(k, allow_operation=False)
        except (KeyError, ValueError) as e:
            raise TypeError("Cannot interpret feed_dict key as Tensor: " + e.args[0])
        if t.graph is not self._graph:
            raise ValueError("Cannot feed %s: the Tensor is not an element of this graph." % t.name)
        dt = t.dtype.base_dtype
        np_type = None if dt == dtypes.string else np.dtype(dt.as_numpy_dtype)
        dims = t.shape._dims
        dims = None if dims is None else tuple(dims)
        entry = (t, dt, np_type, dims, t._as_tf_output())
        if len(self._feed_cache) < 1024:
            self._feed_cache[key] = entry
        return entry

    def _call(self, plan, feeds, feed_vals, options, run_metadata):
        nin = len(feeds)
        nout = plan.nout
        if nin:
            in_arr = (_c.TF_Output * nin)(*feeds)
            in_vals = (ctypes.c_void_p * nin)(*feed_vals)
        else:
            in_arr = in_vals = None
        out_vals = plan.out_type()
        opts_buf = None
        meta_buf = None
        status = _thread_status.status
        if options is not None:
            b = options.SerializeToString()
            opts_buf = _c.TF_NewBufferFromString(b, len(b))
        if run_metadata is not None:
            meta_buf = _c.TF_NewBuffer()
        if self._log_placement:
            sys.stdout.flush()
        try:
            _c.TF_SessionRun(self._c_session, opts_buf, in_arr, in_vals, nin, plan.c_outputs,
                             out_vals, nout, plan.c_targets, plan.ntarget, meta_buf, status.ptr)
            if self._log_placement:
                _c.libc.fflush(None)
            if meta_buf is not None and status.code() == 0:
                run_metadata.ParseFromString(_c.buffer_bytes(meta_buf))
        finally:
            if opts_buf is not None:
                _c.TF_DeleteBuffer(opts_buf)
            if meta_buf is not None:
                _c.TF_DeleteBuffer(meta_buf)
        if _c.TF_GetCode(status.ptr):
            status.raise_if_error()
        to_numpy = tensor_util.c_tensor_to_numpy
        return [to_numpy(v, e) for v, e in zip(out_vals, plan.enums)]

    def partial_run_setup(self, fetches, feeds=None):
        """A handle for partial_run calls that feed feeds and fetch fetches, in steps."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        plan = _FetchPlan(self._graph, fetches)
        feed_ts = [self._feed_entry(f)[4] for f in (feeds or [])]
        nin = len(feed_ts)
        in_arr = (_c.TF_Output * nin)(*feed_ts) if nin else None
        handle = ctypes.c_void_p()
        status = _thread_status.status
        _c.TF_SessionPRunSetup(self._c_session, in_arr, nin, plan.c_outputs, plan.nout,
                               plan.c_targets, plan.ntarget, ctypes.byref(handle), status.ptr)
        status.raise_if_error()
        h = ctypes.string_at(handle.value)
        _c.TF_DeletePRunHandle(handle.value)
        return h.decode()

    def partial_run(self, handle, fetches, feed_dict=None):
        """Continues the partial run handle: feeds feed_dict, returns fetches' values."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        plan = _FetchPlan(self._graph, fetches)
        feeds = []
        feed_vals = []
        keep = []
        status = _thread_status.status
        try:
            for k, v in (feed_dict or {}).items():
                t, dt, np_type, dims, out = self._feed_entry(k)
                arr = np.asarray(v, dtype=object if np_type is None else np_type)
                feeds.append(out)
                feed_vals.append(tensor_util.numpy_to_c_tensor(arr, dt, keep))
            nin = len(feeds)
            in_arr = (_c.TF_Output * nin)(*feeds) if nin else None
            in_vals = (ctypes.c_void_p * nin)(*feed_vals) if nin else None
            out_vals = plan.out_type()
            _c.TF_SessionPRun(self._c_session, handle.encode(), in_arr, in_vals, nin,
                              plan.c_outputs, out_vals, plan.nout, plan.c_targets,
                              plan.ntarget, status.ptr)
        finally:
            for v in feed_vals:
                _c.TF_DeleteTensor(v)
        status.raise_if_error()
        return plan.build([tensor_util.c_tensor_to_numpy(v, e)
                           for v, e in zip(out_vals, plan.enums)])

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function running fetches with its arguments fed to feed_list, in order (TensorFlow's
        Session.make_callable). Everything but the values is prepared here, once: the lowest
        per-call cost from Python. Where the compiled path applies, the callable is its Runner."""
        plan = self._plan_for(fetches)
        keys = list(feed_list or [])
        entries = [self._feed_entry(f) for f in keys]
        runner = fast_path.make_runner(self, plan, entries, keys, True) if self._fast else None
        if runner is not None and not accept_options:
            return runner
        nin = len(entries)
        in_arr = (_c.TF_Output * nin)(*[e[4] for e in entries]) if nin else None
        in_type = ctypes.c_void_p * nin
        to_tensor = tensor_util.numpy_to_c_tensor
        to_numpy = tensor_util.c_tensor_to_numpy
        run = _c.TF_SessionRun
        get_code = _c.TF_GetCode
        delete = _c.TF_DeleteTensor
        session = self
        fetches_fed = any(t is e[0] for t in plan.tensors for e in entries)

        def call(*args, **kwargs):
            if kwargs and not accept_options:
                raise TypeError("make_callable: options need accept_options=True")
            if len(args) != nin:
                raise TypeError("Argument list has %d entries, the callable takes %d" % (
                    len(args), nin))
            if session._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            if kwargs or session._log_placement or fetches_fed:
                return session.run(fetches, dict(zip(feed_list, args)), kwargs.get("options"),
                                   kwargs.get("run_metadata"))
            if runner is not None:
                return runner(*args)
            keep = []
            vals = in_type()
            try:
                for i in range(nin):
                    arr = fast_path.feed_array(entries[i], keys[i], args[i])
                    vals[i] = to_tensor(arr, entries[i][1], keep)
                out_vals = plan.out_type()
                status = _thread_status.status
                run(session._c_session, None, in_arr, vals, nin, plan.c_outputs, out_vals,
                    plan.nout, plan.c_targets, plan.ntarget, None, status.ptr)
            finally:
                for i in range(nin):
                    if vals[i]:
                        delete(vals[i])
            if get_code(status.ptr):
                status.raise_if_error()
            return plan.build([to_numpy(v, e) for v, e in zip(out_vals, plan.enums)])
        return call


def _feed_pairs(graph, key, value):
    if isinstance(key, (tuple, list)) and not isinstance(key, ops.Tensor):
        for k, v in zip(key, value):
            for p in _feed_pairs(graph, k, v):
                yield p
        return
    if hasattr(key, "_as_feed"):
        key = key._as_feed()
    try:
        t = graph.as_graph_element(key, allow_operation=False)
    except (KeyError, ValueError) as e:
        raise TypeError("Cannot interpret feed_dict key as Tensor: " + e.args[0])
    if isinstance(value, ops.Tensor):
        raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                        "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. "
                        "For reference, the tensor object was %s which was passed to the argument "
                        "`feed_dict` with key %s." % (value, key))
    yield t, value


class _DeviceAttributes(object):
    def __init__(self, name, device_type, memory_limit_bytes, incarnation):
        self.name = name
        self.device_type = device_type
        self.memory_limit_bytes = memory_limit_bytes
        self.incarnation = incarnation

    def __repr__(self):
        return "_DeviceAttributes(%s, %s, %d, %d)" % (self.name, self.device_type,
                                                      self.memory_limit_bytes, self.incarnation)


class Session(BaseSession):
    """tf.compat.v1.Session: `with Session() as s:` makes s the default session and closes it."""

    def __init__(self, target="", graph=None, config=None):
        super(Session, self).__init__(target, graph, config)
        self._ctx = []

    def __enter__(self):
        g = self._graph.as_default()
        g.__enter__()
        d = self.as_default()
        d.__enter__()
        self._ctx.append((g, d))
        return self

    def __exit__(self, exc_type, exc, tb):
        g, d = self._ctx.pop()
        d.__exit__(exc_type, exc, tb)
        g.__exit__(exc_type, exc, tb)
        self.close()

    @staticmethod
    def reset(target, containers=None, config=None):
        pass


class InteractiveSession(BaseSession):
    """A session that installs itself as the default session until closed."""

    def __init__(self, target="", graph=None, config=None):
        if config is None:
            config = config_pb2.ConfigProto()
        super(InteractiveSession, self).__init__(target, graph, config)
        self._graph_ctx = self._graph.as_default()
        self._graph_ctx.__enter__()
        self._default = self.as_default()
        self._default.__enter__()
        self._explicitly_closed = False

    def close(self):
        super(InteractiveSession, self).close()
        if not self._explicitly_closed:
            self._explicitly_closed = True
            try:
                self._default.__exit__(None, None, None)
                self._graph_ctx.__exit__(None, None, None)
            except (ValueError, IndexError):
                pass
