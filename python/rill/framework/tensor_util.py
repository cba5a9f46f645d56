"""Values crossing into and out of Rill: numpy <-> TensorProto, numpy <-> TF_Tensor.

Fed numeric arrays cross without a copy on this side (TF_NewTensor over the array's memory; the
array is kept alive until the TF_Tensor is deleted after the run). Fetched arrays are copied out
of the run's buffer, which is then released.
"""
import ctypes

import numpy as np

from rill import _c
from rill._proto import tensor_pb2
from rill.framework import dtypes
from rill.framework.tensor_shape import TensorShape

_TSTRING_SIZE = 24
_NOOP_FN = _c.DEALLOCATOR(lambda data, length, arg: None)
# Fed arrays stay owned by Python (kept alive until the TF_Tensor is deleted): nothing to free.
_NOOP = ctypes.cast(_NOOP_FN, ctypes.c_void_p).value


def _python_dtype(values):
    """The dtype TensorFlow infers for a Python (non-numpy) value: float32, int32, bool, string."""
    v = values
    while isinstance(v, (list, tuple)):
        if not v:
            return dtypes.float32
        kinds = set()
        flat = []
        stack = [v]
        while stack:
            x = stack.pop()
            if isinstance(x, (list, tuple)):
                stack.extend(x)
            else:
                flat.append(x)
        for x in flat:
            kinds.add(_python_dtype(x))
        if dtypes.string in kinds:
            return dtypes.string
        if dtypes.float32 in kinds or dtypes.float64 in kinds:
            return dtypes.float32
        if dtypes.int64 in kinds:
            return dtypes.int64
        if dtypes.int32 in kinds:
            return dtypes.int32
        return kinds.pop()
    if isinstance(v, np.ndarray) or isinstance(v, np.generic):
        return dtypes.as_dtype(np.asarray(v).dtype)
    if isinstance(v, bool):
        return dtypes.as_dtype("bool")
    if isinstance(v, int):
        return dtypes.int32 if -2**31 <= v < 2**31 else dtypes.int64
    if isinstance(v, float):
        return dtypes.float32
    if isinstance(v, (str, bytes)):
        return dtypes.string
    if isinstance(v, complex):
        return dtypes.as_dtype("complex128")
    raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s. Consider "
                    "casting elements to a supported type." % (type(v), v))


def to_numpy(values, dtype=None):
    """values as a numpy array of dtype (a DType or None: TensorFlow's inference)."""
    if dtype is None:
        if isinstance(values, (np.ndarray, np.generic)):
            arr = np.asarray(values)
            if arr.dtype.kind in ("U", "S", "O"):
                return np.asarray(values, dtype=object)
            return arr
        dtype = _python_dtype(values)
    dtype = dtypes.as_dtype(dtype).base_dtype
    if dtype == dtypes.string:
        arr = np.asarray(values, dtype=object)
        return arr
    np_type = dtype.as_numpy_dtype
    if np_type is None:
        raise TypeError("Cannot convert a value to type %s" % dtype.name)
    if dtype.is_integer and not isinstance(values, np.ndarray):
        arr = np.asarray(values)
        if arr.dtype.kind == "f" and arr.size:
            bad = [v for v in np.asarray(values, dtype=object).reshape(-1)
                   if isinstance(v, float) or (isinstance(v, np.generic) and v.dtype.kind == "f")]
            if bad:
                raise TypeError("Expected %s, but got %r of type '%s'." % (
                    dtype.name, bad[0], type(bad[0]).__name__))
    return np.asarray(values, dtype=np_type)


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False):
    """A TensorProto holding values (broadcast to shape when values has one element)."""
    arr = to_numpy(values, dtype)
    dt = dtypes.as_dtype(dtype).base_dtype if dtype is not None else dtypes.as_dtype(
        arr.dtype if arr.dtype != object else "string")
    if shape is not None:
        shape = [int(d) for d in (shape.as_list() if isinstance(shape, TensorShape) else shape)]
        n = int(np.prod(shape)) if shape else 1
        if arr.size == n:
            arr = arr.reshape(shape)
        elif arr.size == 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif arr.size < n and not verify_shape:
            flat = arr.reshape(-1)
            arr = np.concatenate([flat, np.full(n - arr.size, flat[-1], dtype=arr.dtype)]).reshape(shape)
        else:
            raise TypeError("Expected Tensor's shape: %s, got %s." % (tuple(shape), arr.shape))
    p = tensor_pb2.TensorProto()
    p.dtype = dt.as_datatype_enum
    for d in arr.shape:
        p.tensor_shape.dim.add().size = d
    if dt == dtypes.string:
        for x in arr.reshape(-1):
            p.string_val.append(x.encode("utf-8") if isinstance(x, str) else bytes(x))
    else:
        p.tensor_content = np.ascontiguousarray(arr).tobytes()
    return p


def make_ndarray(proto):
    """The numpy array a TensorProto holds."""
    dt = dtypes.as_dtype(proto.dtype)
    shape = [d.size for d in proto.tensor_shape.dim]
    n = int(np.prod(shape)) if shape else 1
    if dt == dtypes.string:
        vals = list(proto.string_val)
        if len(vals) < n:
            vals += [vals[-1] if vals else b""] * (n - len(vals))
        return np.array(vals, dtype=object).reshape(shape)
    np_type = dt.as_numpy_dtype
    if proto.tensor_content:
        return np.frombuffer(proto.tensor_content, dtype=np_type).copy().reshape(shape)
    field = {"float32": "float_val", "float64": "double_val", "int64": "int64_val",
             "bool": "bool_val", "complex64": "scomplex_val", "complex128": "dcomplex_val",
             "uint32": "uint32_val", "uint64": "uint64_val", "float16": "half_val"}.get(dt.name, "int_val")
    vals = list(getattr(proto, field))
    if dt.is_complex:
        vals = [complex(vals[i], vals[i + 1]) for i in range(0, len(vals), 2)]
    if dt.name == "float16":
        arr = np.array(vals, dtype=np.uint16).view(np.float16)
    else:
        arr = np.array(vals, dtype=np_type)
    if arr.size == n:
        return arr.reshape(shape)
    if arr.size == 0:
        return np.zeros(shape, dtype=np_type)
    return np.concatenate([arr, np.full(n - arr.size, arr[-1], dtype=np_type)]).reshape(shape)


_PyMemoryView_FromMemory = ctypes.pythonapi.PyMemoryView_FromMemory
_PyMemoryView_FromMemory.restype = ctypes.py_object
_PyMemoryView_FromMemory.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int]
_PyBUF_READ = 0x100
# ctypes scalar types by DataType enum, for reading a rank-0 result in place.
_SCALAR_CTYPES = {1: ctypes.c_float, 2: ctypes.c_double, 3: ctypes.c_int32, 4: ctypes.c_uint8,
                  5: ctypes.c_int16, 6: ctypes.c_int8, 9: ctypes.c_int64, 10: ctypes.c_bool,
                  17: ctypes.c_uint16, 22: ctypes.c_uint32, 23: ctypes.c_uint64}
_NP_BY_ENUM = {e: np.dtype(d.as_numpy_dtype) for e, d in dtypes._BY_ENUM.items()
               if e < 100 and d.as_numpy_dtype is not None and d.as_numpy_dtype is not np.object_}


_DIMS = [ctypes.c_int64 * n for n in range(33)]


def _address(arr):
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(arr))
    except (TypeError, ValueError, BufferError):
        return arr.ctypes.data


def numpy_to_c_tensor(arr, dtype, keep):
    """A new TF_Tensor* for arr (already of dtype's numpy type); keep collects what must outlive it."""
    ndim = arr.ndim
    dims = _DIMS[ndim](*arr.shape) if ndim else None
    enum = dtype.as_datatype_enum
    if enum == 7:  # DT_STRING: an array of TF_TString
        flat = arr.reshape(-1)
        t = _c.TF_AllocateTensor(7, dims, ndim, _TSTRING_SIZE * flat.size)
        base = _c.TF_TensorData(t)
        for i, x in enumerate(flat):
            if isinstance(x, str):
                b = x.encode("utf-8")
            elif isinstance(x, (bytes, bytearray)):
                b = bytes(x)
            else:
                # bytes(3) would be three NUL bytes (and bytes(10**9) a gigabyte): TensorFlow
                # refuses elements that are not strings.
                _c.TF_DeleteTensor(t)
                from rill.framework import errors
                raise errors.InternalError(None, None,
                                           "Unsupported object type %s" % type(x).__name__)
            p = base + i * _TSTRING_SIZE
            _c.TF_StringInit(p)
            _c.TF_StringCopy(p, b, len(b))
        return t
    if not arr.flags.c_contiguous:
        arr = np.ascontiguousarray(arr)
    keep.append(arr)
    return _c.TF_NewTensor(enum, dims, ndim, _address(arr) if arr.nbytes else None, arr.nbytes,
                           _NOOP, None)


def c_tensor_to_numpy(t, enum=None):
    """A numpy array (a numpy scalar for rank 0) with the TF_Tensor's contents; deletes t.
    enum: the DataType the graph gives the fetched output (its type is then not asked for)."""
    try:
        if enum is None:
            enum = _c.TF_TensorType(t)
        ndim = _c.TF_NumDims(t)
        data = _c.TF_TensorData(t)
        np_type = _NP_BY_ENUM.get(enum)
        if ndim == 0 and enum in _SCALAR_CTYPES:
            return np_type.type(_SCALAR_CTYPES[enum].from_address(data).value)
        if np_type is not None:
            nbytes = _c.TF_TensorByteSize(t)
            if ndim == 1:
                shape = (_c.TF_Dim(t, 0),)
            else:
                shape = tuple([_c.TF_Dim(t, i) for i in range(ndim)])
            if not nbytes:
                arr = np.zeros(shape, dtype=np_type)
            else:
                arr = np.frombuffer(_PyMemoryView_FromMemory(data, nbytes, _PyBUF_READ),
                                    dtype=np_type)
                arr = (arr.copy() if ndim == 1 else arr.reshape(shape).copy())
            return arr[()] if ndim == 0 else arr
        shape = tuple([_c.TF_Dim(t, i) for i in range(ndim)])
        if enum == 7:
            n = 1
            for d in shape:
                n *= d
            out = np.empty(n, dtype=object)
            for i in range(n):
                p = data + i * _TSTRING_SIZE
                out[i] = ctypes.string_at(_c.TF_StringGetDataPointer(p), _c.TF_StringGetSize(p))
            arr = out.reshape(shape)
        else:
            arr = np.empty(shape, dtype=object)
        return arr[()] if ndim == 0 else arr
    finally:
        _c.TF_DeleteTensor(t)
