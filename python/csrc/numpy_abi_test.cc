// numpy_abi against the numpy of the python3 this links (Debian's python3-dev and python3-numpy):
// an embedded interpreter loads the API table, and arrays made and read through it agree with
// what numpy itself says about them.
#include "python/csrc/numpy_abi.h"

#include <cstring>

#include "gtest/gtest.h"

namespace rill_py {
namespace {

class NumpyAbi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Py_Initialize();
    ASSERT_TRUE(LoadNumpyApi(&api_));
    numpy_ = PyImport_ImportModule("numpy");
    ASSERT_NE(numpy_, nullptr);
  }
  static void TearDownTestSuite() {
    Py_CLEAR(numpy_);
    Py_FinalizeEx();
  }
  // numpy.<expr> evaluated, e.g. Eval("float32") or Eval("arange(6).reshape(2, 3)").
  static PyObject* Eval(const char* expr) {
    PyObject* globals = PyDict_New();
    PyDict_SetItemString(globals, "np", numpy_);
    PyObject* r = PyRun_String(expr, Py_eval_input, globals, globals);
    Py_DECREF(globals);
    if (r == nullptr) PyErr_Print();
    return r;
  }
  static NumpyApi api_;
  static PyObject* numpy_;
};

NumpyApi NumpyAbi::api_;
PyObject* NumpyAbi::numpy_ = nullptr;

TEST_F(NumpyAbi, ReadsArrayFields) {
  PyObject* a = Eval("np.arange(6, dtype=np.int32).reshape(2, 3)");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(Py_TYPE(a), api_.array_type);
  EXPECT_EQ(Fields(a)->nd, 2);
  EXPECT_EQ(Fields(a)->dimensions[0], 2);
  EXPECT_EQ(Fields(a)->dimensions[1], 3);
  EXPECT_TRUE(Fields(a)->flags & kArrayCContiguous);
  EXPECT_EQ(reinterpret_cast<int32_t*>(Fields(a)->data)[4], 4);
  PyObject* int32 = Eval("np.dtype(np.int32)");
  EXPECT_EQ(Fields(a)->descr, int32);
  EXPECT_EQ(Descr(int32)->type_num, 5);  // NPY_INT
  EXPECT_TRUE(NativeByteOrder(int32));
  PyObject* swapped = Eval("np.dtype('>i4') if np.little_endian else np.dtype('<i4')");
  EXPECT_FALSE(NativeByteOrder(swapped));
  PyObject* t = Eval("np.arange(6, dtype=np.int32).reshape(2, 3).T");
  EXPECT_FALSE(Fields(t)->flags & kArrayCContiguous);
  Py_DECREF(a);
  Py_DECREF(int32);
  Py_DECREF(swapped);
  Py_DECREF(t);
}

TEST_F(NumpyAbi, MakesArraysOverMemoryAndScalars) {
  PyObject* f32 = Eval("np.dtype(np.float32)");
  static float data[4] = {1, 2, 3, 4};
  const npy_intp dims[2] = {2, 2};
  Py_INCREF(f32);  // new_from_descr steals it
  PyObject* a = api_.new_from_descr(api_.array_type, f32, 2, dims, nullptr, data,
                                    kArrayCContiguous | kArrayAligned | kArrayWriteable, nullptr);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(Fields(a)->data, reinterpret_cast<char*>(data));
  PyObject* owner = PyCapsule_New(data, "test", nullptr);
  ASSERT_EQ(api_.set_base_object(a, owner), 0);
  EXPECT_EQ(Fields(a)->base, owner);
  PyObject* sum = PyObject_CallMethod(a, "sum", nullptr);
  EXPECT_EQ(PyFloat_AsDouble(sum), 10.0);
  PyObject* s = api_.scalar(&data[2], f32, nullptr);
  ASSERT_NE(s, nullptr);
  PyObject* f32_type = Eval("np.float32");
  EXPECT_EQ(reinterpret_cast<PyObject*>(Py_TYPE(s)), f32_type);
  EXPECT_EQ(PyFloat_AsDouble(s), 3.0);
  EXPECT_TRUE(PyObject_TypeCheck(f32, api_.descr_type));
  EXPECT_FALSE(PyObject_TypeCheck(a, api_.descr_type));
  Py_DECREF(sum);
  Py_DECREF(s);
  Py_DECREF(f32_type);
  Py_DECREF(a);
  Py_DECREF(f32);
}

}  // namespace
}  // namespace rill_py
