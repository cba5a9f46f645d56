// Helpers for the C API tests: operations built through the C API itself, checked with gtest.
#ifndef RILL_C_C_TEST_UTIL_H_
#define RILL_C_C_TEST_UTIL_H_

#include <string>
#include <vector>

#include "tensorflow/c/c_api.h"

namespace rill_c_test {

// A status that deletes itself.
class Status {
 public:
  Status() : s_(TF_NewStatus()) {}
  ~Status() { TF_DeleteStatus(s_); }
  Status(const Status&) = delete;
  Status& operator=(const Status&) = delete;
  TF_Status* get() const { return s_; }
  operator TF_Status*() const { return s_; }  // NOLINT: passed straight to the C API
  TF_Code code() const { return TF_GetCode(s_); }
  std::string message() const { return TF_Message(s_); }

 private:
  TF_Status* s_;
};

// Float/int32 tensors with the given dims and values (owned by the caller).
TF_Tensor* FloatTensor(const std::vector<int64_t>& dims, const std::vector<float>& values);
TF_Tensor* Int32Tensor(const std::vector<int64_t>& dims, const std::vector<int32_t>& values);
std::vector<float> FloatValues(const TF_Tensor* t);

// Operations; each ASSERTs (via ADD_FAILURE) that TF_FinishOperation succeeded.
TF_Operation* Placeholder(TF_Graph* g, const char* name, TF_DataType dtype = TF_FLOAT,
                          const std::vector<int64_t>& shape = {}, bool with_shape = false);
TF_Operation* Const(TF_Graph* g, const char* name, TF_Tensor* value);  // keeps `value`
TF_Operation* ScalarConst(TF_Graph* g, const char* name, float value);
TF_Operation* Add(TF_Graph* g, const char* name, TF_Output a, TF_Output b);
TF_Operation* MatMul(TF_Graph* g, const char* name, TF_Output a, TF_Output b);

// A serialized GraphDef from its text form.
TF_Buffer* GraphDefBuffer(const std::string& text);

}  // namespace rill_c_test

#endif  // RILL_C_C_TEST_UTIL_H_
