"""The compiled run path, rill._fastrun (pybind11; python/csrc/), when it loads.

`module` is the extension module bound to the library rill._c loaded (sessions, operations and
tensors are shared with the ctypes layer), or None: then every run goes through ctypes, as it
does with RILL_PYTHON_NO_FASTRUN=1. The module is looked for at $RILL_FASTRUN (a path to the
.so), then as rill._fastrun inside the package, then at bazel-bin/python/rill/_fastrun.so of the
source checkout. `reason` says why `module` is None.
"""
import importlib.machinery
import importlib.util
import os

from rill import _c

_HERE = os.path.dirname(os.path.abspath(__file__))
_CHECKOUT_MODULE = os.path.join(_HERE, "..", "..", "bazel-bin", "python", "rill", "_fastrun.so")


def _make_error(code, message):
    from rill.framework import errors
    return errors.exception_for_code(code)(None, None, message)


def _load_file(path):
    loader = importlib.machinery.ExtensionFileLoader("rill._fastrun", path)
    spec = importlib.util.spec_from_file_location("rill._fastrun", path, loader=loader)
    m = importlib.util.module_from_spec(spec)
    loader.exec_module(m)
    return m


def _load():
    if os.environ.get("RILL_PYTHON_NO_FASTRUN") == "1":
        return None, "RILL_PYTHON_NO_FASTRUN=1"
    path = os.environ.get("RILL_FASTRUN")
    try:
        if path:
            m = _load_file(path)
        else:
            try:
                from rill import _fastrun as m
            except ImportError as e:
                if not os.path.exists(_CHECKOUT_MODULE):
                    return None, str(e)
                m = _load_file(os.path.abspath(_CHECKOUT_MODULE))
        m.bind(_c.lib._handle, _make_error)
    except Exception as e:  # a module for another Python or numpy: the ctypes path serves
        return None, "%s: %s" % (type(e).__name__, e)
    return m, None


module, reason = _load()
