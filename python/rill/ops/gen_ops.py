"""A Python function per op of Rill's registry, named as TensorFlow's gen_*_ops name them
(MatMul -> mat_mul), made at import time from TF_GetAllOpList. raw_ops holds them by op name
with keyword arguments only (tf.raw_ops.MatMul(a=..., b=...))."""
import types

from rill.framework import op_def_library as _lib

raw_ops = types.SimpleNamespace()
_names = []
for _name, _od in sorted(_lib.op_defs().items()):
    if _name.startswith("_"):
        continue
    _fn = _lib.gen_op_function(_od)
    globals()[_fn.__name__] = _fn
    _names.append(_fn.__name__)

    def _raw(_op_type=_name, **kwargs):
        name = kwargs.pop("name", None)
        return _lib.apply_op(_op_type, name=name, **kwargs)
    _raw.__name__ = _name
    setattr(raw_ops, _name, _raw)

__all__ = _names
