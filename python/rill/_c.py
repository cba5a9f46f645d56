"""ctypes declarations of the TensorFlow C API functions Rill's libtensorflow.so.2 exports.

The library is found, in order: $RILL_LIBRARY (a path to libtensorflow.so.2), rill/lib/ inside
the installed package, then bazel-bin/c/ of the source checkout this file lives in. ctypes
releases the GIL for every call into the library, so session runs in Python threads overlap.
"""
import ctypes
import os

from rill import _omp_wait

_HERE = os.path.dirname(os.path.abspath(__file__))


def _find_library():
    env = os.environ.get("RILL_LIBRARY")
    if env:
        return env
    candidates = [
        os.path.join(_HERE, "lib", "libtensorflow.so.2"),
        os.path.join(_HERE, "..", "..", "bazel-bin", "c", "libtensorflow.so.2"),
    ]
    for c in candidates:
        if os.path.exists(c):
            return os.path.abspath(c)
    raise ImportError(
        "rill: libtensorflow.so.2 not found; set RILL_LIBRARY to its path, or run "
        "`bazel build //c:libtensorflow.so.2` in the repository (looked in: %s)" % ", ".join(candidates))


# libgomp reads its wait policy once, when it is loaded with the library: idle OpenMP workers
# spin briefly while the machine has idle cores for them and sleep at once otherwise, unless the
# user chose a policy or a spin count (rill/_omp_wait.py; docs/performance.md, "OpenMP wait
# policy").
_omp_wait.apply()
lib = ctypes.CDLL(_find_library())
libc = ctypes.CDLL(None)

c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int
c_int64 = ctypes.c_int64
c_size_t = ctypes.c_size_t


class TF_Output(ctypes.Structure):
    _fields_ = [("oper", c_void_p), ("index", c_int)]


class TF_Input(ctypes.Structure):
    _fields_ = [("oper", c_void_p), ("index", c_int)]


class TF_Buffer(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("length", c_size_t), ("data_deallocator", c_void_p)]


TF_BufferP = ctypes.POINTER(TF_Buffer)
DEALLOCATOR = ctypes.CFUNCTYPE(None, c_void_p, c_size_t, c_void_p)


def _decl(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


# Status and buffers.
TF_NewStatus = _decl("TF_NewStatus", c_void_p)
TF_DeleteStatus = _decl("TF_DeleteStatus", None, c_void_p)
TF_GetCode = _decl("TF_GetCode", c_int, c_void_p)
TF_Message = _decl("TF_Message", c_char_p, c_void_p)
TF_NewBuffer = _decl("TF_NewBuffer", TF_BufferP)
TF_NewBufferFromString = _decl("TF_NewBufferFromString", TF_BufferP, c_char_p, c_size_t)
TF_DeleteBuffer = _decl("TF_DeleteBuffer", None, TF_BufferP)
TF_GetAllOpList = _decl("TF_GetAllOpList", TF_BufferP)
TF_Version = _decl("TF_Version", c_char_p)

# Tensors.
TF_AllocateTensor = _decl("TF_AllocateTensor", c_void_p, c_int, ctypes.POINTER(c_int64), c_int, c_size_t)
# The deallocator is passed as an address (a DEALLOCATOR cast to c_void_p): cheaper per call.
TF_NewTensor = _decl("TF_NewTensor", c_void_p, c_int, c_void_p, c_int, c_void_p,
                     c_size_t, c_void_p, c_void_p)
TF_DeleteTensor = _decl("TF_DeleteTensor", None, c_void_p)
TF_TensorType = _decl("TF_TensorType", c_int, c_void_p)
TF_NumDims = _decl("TF_NumDims", c_int, c_void_p)
TF_Dim = _decl("TF_Dim", c_int64, c_void_p, c_int)
TF_TensorByteSize = _decl("TF_TensorByteSize", c_size_t, c_void_p)
TF_TensorData = _decl("TF_TensorData", c_void_p, c_void_p)
TF_StringGetDataPointer = _decl("TF_StringGetDataPointer", c_void_p, c_void_p)
TF_StringGetSize = _decl("TF_StringGetSize", c_size_t, c_void_p)
TF_StringInit = _decl("TF_StringInit", None, c_void_p)
TF_StringCopy = _decl("TF_StringCopy", None, c_void_p, c_char_p, c_size_t)

# Graphs and operations.
TF_NewGraph = _decl("TF_NewGraph", c_void_p)
TF_DeleteGraph = _decl("TF_DeleteGraph", None, c_void_p)
TF_GraphOperationByName = _decl("TF_GraphOperationByName", c_void_p, c_void_p, c_char_p)
TF_GraphNextOperation = _decl("TF_GraphNextOperation", c_void_p, c_void_p, ctypes.POINTER(c_size_t))
TF_GraphToGraphDef = _decl("TF_GraphToGraphDef", None, c_void_p, TF_BufferP, c_void_p)
TF_GraphGetTensorNumDims = _decl("TF_GraphGetTensorNumDims", c_int, c_void_p, TF_Output, c_void_p)
TF_GraphGetTensorShape = _decl("TF_GraphGetTensorShape", None, c_void_p, TF_Output,
                               ctypes.POINTER(c_int64), c_int, c_void_p)
TF_GraphGetOpDef = _decl("TF_GraphGetOpDef", None, c_void_p, c_char_p, TF_BufferP, c_void_p)
TF_NewOperation = _decl("TF_NewOperation", c_void_p, c_void_p, c_char_p, c_char_p)
TF_SetDevice = _decl("TF_SetDevice", None, c_void_p, c_char_p)
TF_AddInput = _decl("TF_AddInput", None, c_void_p, TF_Output)
TF_AddInputList = _decl("TF_AddInputList", None, c_void_p, ctypes.POINTER(TF_Output), c_int)
TF_AddControlInput = _decl("TF_AddControlInput", None, c_void_p, c_void_p)
TF_ColocateWith = _decl("TF_ColocateWith", None, c_void_p, c_void_p)
TF_SetAttrValueProto = _decl("TF_SetAttrValueProto", None, c_void_p, c_char_p, c_void_p, c_size_t, c_void_p)
TF_UpdateEdge = _decl("TF_UpdateEdge", None, c_void_p, TF_Output, TF_Input, c_void_p)
TF_FinishOperation = _decl("TF_FinishOperation", c_void_p, c_void_p, c_void_p)
TF_OperationName = _decl("TF_OperationName", c_char_p, c_void_p)
TF_OperationOpType = _decl("TF_OperationOpType", c_char_p, c_void_p)
TF_OperationDevice = _decl("TF_OperationDevice", c_char_p, c_void_p)
TF_OperationNumOutputs = _decl("TF_OperationNumOutputs", c_int, c_void_p)
TF_OperationOutputType = _decl("TF_OperationOutputType", c_int, TF_Output)
TF_OperationNumInputs = _decl("TF_OperationNumInputs", c_int, c_void_p)
TF_OperationInput = _decl("TF_OperationInput", TF_Output, TF_Input)
TF_OperationNumControlInputs = _decl("TF_OperationNumControlInputs", c_int, c_void_p)
TF_OperationGetControlInputs = _decl("TF_OperationGetControlInputs", c_int, c_void_p,
                                     ctypes.POINTER(c_void_p), c_int)
TF_OperationToNodeDef = _decl("TF_OperationToNodeDef", None, c_void_p, TF_BufferP, c_void_p)
TF_OperationGetAttrValueProto = _decl("TF_OperationGetAttrValueProto", None, c_void_p, c_char_p,
                                      TF_BufferP, c_void_p)

# Import.
TF_NewImportGraphDefOptions = _decl("TF_NewImportGraphDefOptions", c_void_p)
TF_DeleteImportGraphDefOptions = _decl("TF_DeleteImportGraphDefOptions", None, c_void_p)
TF_ImportGraphDefOptionsSetPrefix = _decl("TF_ImportGraphDefOptionsSetPrefix", None, c_void_p, c_char_p)
TF_ImportGraphDefOptionsAddInputMapping = _decl("TF_ImportGraphDefOptionsAddInputMapping", None,
                                                c_void_p, c_char_p, c_int, TF_Output)
TF_ImportGraphDefOptionsAddReturnOutput = _decl("TF_ImportGraphDefOptionsAddReturnOutput", None,
                                                c_void_p, c_char_p, c_int)
TF_ImportGraphDefOptionsAddReturnOperation = _decl("TF_ImportGraphDefOptionsAddReturnOperation", None,
                                                   c_void_p, c_char_p)
TF_GraphImportGraphDefWithResults = _decl("TF_GraphImportGraphDefWithResults", c_void_p, c_void_p,
                                          TF_BufferP, c_void_p, c_void_p)
TF_ImportGraphDefResultsReturnOutputs = _decl("TF_ImportGraphDefResultsReturnOutputs", None, c_void_p,
                                              ctypes.POINTER(c_int),
                                              ctypes.POINTER(ctypes.POINTER(TF_Output)))
TF_ImportGraphDefResultsReturnOperations = _decl("TF_ImportGraphDefResultsReturnOperations", None,
                                                 c_void_p, ctypes.POINTER(c_int),
                                                 ctypes.POINTER(ctypes.POINTER(c_void_p)))
TF_DeleteImportGraphDefResults = _decl("TF_DeleteImportGraphDefResults", None, c_void_p)

# Sessions.
TF_NewSessionOptions = _decl("TF_NewSessionOptions", c_void_p)
TF_DeleteSessionOptions = _decl("TF_DeleteSessionOptions", None, c_void_p)
TF_SetTarget = _decl("TF_SetTarget", None, c_void_p, c_char_p)
TF_SetConfig = _decl("TF_SetConfig", None, c_void_p, c_void_p, c_size_t, c_void_p)
TF_NewSession = _decl("TF_NewSession", c_void_p, c_void_p, c_void_p, c_void_p)
TF_LoadSessionFromSavedModel = _decl("TF_LoadSessionFromSavedModel", c_void_p, c_void_p, TF_BufferP,
                                     c_char_p, ctypes.POINTER(c_char_p), c_int, c_void_p, TF_BufferP,
                                     c_void_p)
TF_CloseSession = _decl("TF_CloseSession", None, c_void_p, c_void_p)
TF_DeleteSession = _decl("TF_DeleteSession", None, c_void_p, c_void_p)
# Pointer arguments as c_void_p (ctypes arrays and pointers pass as their address): the cheapest
# conversion per call on the run path.
TF_SessionRun = _decl("TF_SessionRun", None, c_void_p, c_void_p, c_void_p, c_void_p, c_int,
                      c_void_p, c_void_p, c_int, c_void_p, c_int, c_void_p, c_void_p)
TF_SessionPRunSetup = _decl("TF_SessionPRunSetup", None, c_void_p, c_void_p, c_int, c_void_p,
                            c_int, c_void_p, c_int, ctypes.POINTER(c_void_p), c_void_p)
TF_SessionPRun = _decl("TF_SessionPRun", None, c_void_p, c_void_p, c_void_p, c_void_p, c_int,
                       c_void_p, c_void_p, c_int, c_void_p, c_int, c_void_p)
TF_DeletePRunHandle = _decl("TF_DeletePRunHandle", None, c_void_p)
TF_SessionListDevices = _decl("TF_SessionListDevices", c_void_p, c_void_p, c_void_p)
TF_DeleteDeviceList = _decl("TF_DeleteDeviceList", None, c_void_p)
TF_DeviceListCount = _decl("TF_DeviceListCount", c_int, c_void_p)
TF_DeviceListName = _decl("TF_DeviceListName", c_char_p, c_void_p, c_int, c_void_p)
TF_DeviceListType = _decl("TF_DeviceListType", c_char_p, c_void_p, c_int, c_void_p)
TF_DeviceListMemoryBytes = _decl("TF_DeviceListMemoryBytes", c_int64, c_void_p, c_int, c_void_p)
TF_DeviceListIncarnation = _decl("TF_DeviceListIncarnation", ctypes.c_uint64, c_void_p, c_int, c_void_p)

libc.fflush.argtypes = [c_void_p]
libc.fflush.restype = c_int

# Gradients: Rill's extension with TensorFlow's tf.gradients options, when the library has it.
RILL_AddGradientsWithOptions = getattr(lib, "RILL_AddGradientsWithOptions", None)
if RILL_AddGradientsWithOptions is not None:
    RILL_AddGradientsWithOptions.restype = None
    RILL_AddGradientsWithOptions.argtypes = [
        c_void_p, c_char_p, ctypes.POINTER(TF_Output), c_int, ctypes.POINTER(TF_Output), c_int,
        ctypes.POINTER(TF_Output), ctypes.POINTER(TF_Output), c_int, ctypes.c_ubyte, ctypes.c_ubyte,
        ctypes.c_ubyte, c_void_p, ctypes.POINTER(TF_Output)]

# Rill's extension: the device of an operation built on the C side (gradients), set from the
# Python device stack.
RILL_SetOperationDevice = getattr(lib, "RILL_SetOperationDevice", None)
if RILL_SetOperationDevice is not None:
    RILL_SetOperationDevice.restype = None
    RILL_SetOperationDevice.argtypes = [c_void_p, c_void_p, c_char_p, c_void_p]


def buffer_bytes(buf):
    """The bytes a TF_Buffer* holds (copied)."""
    b = buf.contents
    return ctypes.string_at(b.data, b.length) if b.length else b""


class Status(object):
    """A TF_Status owned by Python; raise_if_error turns a failure into rill's error class."""
    __slots__ = ("ptr",)

    def __init__(self):
        self.ptr = TF_NewStatus()

    def __del__(self):
        if self.ptr and TF_DeleteStatus is not None:
            TF_DeleteStatus(self.ptr)
            self.ptr = None

    def code(self):
        return TF_GetCode(self.ptr)

    def raise_if_error(self, node_def=None, op=None):
        code = TF_GetCode(self.ptr)
        if code != 0:
            from rill.framework import errors
            raise errors.exception_for_code(code)(node_def, op, TF_Message(self.ptr).decode("utf-8", "replace"))
