// The few parts of numpy's C API the run path uses, reached at run time through numpy's
// _ARRAY_API table instead of numpy's headers: a module built this way loads under numpy 1.x and
// 2.x alike (the table slots and the array object's leading fields are the same in both; the
// dtype object's layout differs, so only its leading fields are read).
#ifndef RILL_PYTHON_CSRC_NUMPY_ABI_H_
#define RILL_PYTHON_CSRC_NUMPY_ABI_H_

#include <Python.h>

#include <cstdint>

namespace rill_py {

using npy_intp = Py_ssize_t;

// numpy's PyArrayObject_fields, up to the flags (unchanged from numpy 1.7 to 2.x).
struct ArrayFields {
  PyObject_HEAD char* data;
  int nd;
  npy_intp* dimensions;
  npy_intp* strides;
  PyObject* base;
  PyObject* descr;
  int flags;
};

// numpy's PyArray_Descr, up to type_num (the same in 1.x and 2.x).
struct DescrFields {
  PyObject_HEAD PyTypeObject* typeobj;
  char kind;
  char type;
  char byteorder;
  char flags_or_former_flags;
  int type_num;
};

constexpr int kArrayCContiguous = 0x0001;
constexpr int kArrayAligned = 0x0100;
constexpr int kArrayWriteable = 0x0400;

// Function slots of numpy's C API table, as numpy's __multiarray_api.h numbers them.
struct NumpyApi {
  PyTypeObject* array_type = nullptr;
  PyTypeObject* descr_type = nullptr;
  PyObject* (*scalar)(void* data, PyObject* descr, PyObject* base) = nullptr;
  PyObject* (*new_from_descr)(PyTypeObject* subtype, PyObject* descr, int nd, const npy_intp* dims,
                              const npy_intp* strides, void* data, int flags,
                              PyObject* obj) = nullptr;
  int (*set_base_object)(PyObject* array, PyObject* base) = nullptr;
};

// Fills api from numpy's _ARRAY_API capsule (numpy._core first, numpy.core for 1.x). False with
// a Python exception set when numpy cannot be imported.
bool LoadNumpyApi(NumpyApi* api);

inline ArrayFields* Fields(PyObject* array) { return reinterpret_cast<ArrayFields*>(array); }

inline const DescrFields* Descr(PyObject* descr) {
  return reinterpret_cast<const DescrFields*>(descr);
}

// True when the dtype object's bytes are in this machine's order ('=' native, '|' not applicable,
// or the explicit little-endian '<' on a little-endian machine).
bool NativeByteOrder(PyObject* descr);

}  // namespace rill_py

#endif  // RILL_PYTHON_CSRC_NUMPY_ABI_H_
