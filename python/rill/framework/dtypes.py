"""DType: TensorFlow's data types (enum values of types.proto) with their numpy equivalents."""
import numpy as np


class DType(object):
    __slots__ = ("_enum", "_name", "_np")

    def __init__(self, enum, name, np_type):
        self._enum = enum
        self._name = name
        self._np = np_type

    @property
    def as_datatype_enum(self):
        return self._enum

    @property
    def name(self):
        return self._name

    @property
    def as_numpy_dtype(self):
        return self._np

    @property
    def base_dtype(self):
        return _BY_ENUM[self._enum - 100] if self._enum > 100 else self

    @property
    def is_floating(self):
        return self.base_dtype._name in ("float16", "bfloat16", "float32", "float64")

    @property
    def is_integer(self):
        return self.base_dtype._name in ("int8", "int16", "int32", "int64", "uint8", "uint16",
                                         "uint32", "uint64")

    @property
    def is_complex(self):
        return self.base_dtype._name in ("complex64", "complex128")

    @property
    def is_bool(self):
        return self.base_dtype._name == "bool"

    def _is_ref_dtype(self):
        return self._enum > 100

    def _as_ref(self):
        return _BY_ENUM[self._enum + 100] if self._enum < 100 else self

    def __eq__(self, other):
        try:
            return self._enum == as_dtype(other)._enum
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return self._enum

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return "<dtype: %r>" % self._name


_SPECS = [
    (1, "float32", np.float32), (2, "float64", np.float64), (3, "int32", np.int32),
    (4, "uint8", np.uint8), (5, "int16", np.int16), (6, "int8", np.int8), (7, "string", np.object_),
    (8, "complex64", np.complex64), (9, "int64", np.int64), (10, "bool", np.bool_),
    (11, "qint8", None), (12, "quint8", None), (13, "qint32", None), (14, "bfloat16", None),
    (15, "qint16", None), (16, "quint16", None), (17, "uint16", np.uint16),
    (18, "complex128", np.complex128), (19, "float16", np.float16), (20, "resource", np.object_),
    (21, "variant", np.object_), (22, "uint32", np.uint32), (23, "uint64", np.uint64),
]
_BY_ENUM = {}
_BY_NAME = {}
for _e, _n, _t in _SPECS:
    _d = DType(_e, _n, _t)
    _BY_ENUM[_e] = _d
    _BY_NAME[_n] = _d
    _r = DType(_e + 100, _n + "_ref", _t)
    _BY_ENUM[_e + 100] = _r
    _BY_NAME[_n + "_ref"] = _r
_BY_NAME["half"] = _BY_NAME["float16"]
_BY_NAME["float"] = _BY_NAME["float32"]
_BY_NAME["double"] = _BY_NAME["float64"]

_NP_TO_DTYPE = {}
for _e, _n, _t in _SPECS:
    if _t is not None and _t is not np.object_ and _t not in _NP_TO_DTYPE:
        _NP_TO_DTYPE[np.dtype(_t)] = _BY_ENUM[_e]

for _k, _v in _BY_NAME.items():
    if _k not in ("bool", "float", "half", "double"):
        globals()[_k] = _v
bool_ = _BY_NAME["bool"]
float32 = _BY_NAME["float32"]
float64 = _BY_NAME["float64"]
int32 = _BY_NAME["int32"]
int64 = _BY_NAME["int64"]
string = _BY_NAME["string"]
resource = _BY_NAME["resource"]


def as_dtype(value):
    """A DType from a DType, enum value, name, numpy dtype or Python type."""
    if isinstance(value, DType):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value in _BY_ENUM:
        return _BY_ENUM[value]
    if isinstance(value, str):
        if value in _BY_NAME:
            return _BY_NAME[value]
        raise TypeError("Cannot convert value %r to a TensorFlow DType." % (value,))
    if value is float:
        return float32
    if value is int:
        return int32
    if value is bool:
        return _BY_NAME["bool"]
    if value is str or value is bytes or value is object:
        return string
    try:
        npd = np.dtype(value)
    except TypeError:
        raise TypeError("Cannot convert value %r to a TensorFlow DType." % (value,))
    if npd.kind in ("U", "S", "O"):
        return string
    if npd in _NP_TO_DTYPE:
        return _NP_TO_DTYPE[npd]
    raise TypeError("Cannot convert value %r to a TensorFlow DType." % (value,))
