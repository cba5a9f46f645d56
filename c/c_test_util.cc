#include "c/c_test_util.h"

#include <cstring>

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace rill_c_test {
namespace {

TF_Tensor* MakeTensor(TF_DataType dtype, const std::vector<int64_t>& dims, const void* values,
                      size_t bytes) {
  TF_Tensor* t = TF_AllocateTensor(dtype, dims.data(), static_cast<int>(dims.size()), bytes);
  if (bytes > 0) std::memcpy(TF_TensorData(t), values, bytes);
  return t;
}

TF_Operation* Finish(TF_OperationDescription* desc) {
  Status s;
  TF_Operation* op = TF_FinishOperation(desc, s);
  if (s.code() != TF_OK) ADD_FAILURE() << s.message();
  return op;
}

}  // namespace

TF_Tensor* FloatTensor(const std::vector<int64_t>& dims, const std::vector<float>& values) {
  return MakeTensor(TF_FLOAT, dims, values.data(), values.size() * sizeof(float));
}

TF_Tensor* Int32Tensor(const std::vector<int64_t>& dims, const std::vector<int32_t>& values) {
  return MakeTensor(TF_INT32, dims, values.data(), values.size() * sizeof(int32_t));
}

std::vector<float> FloatValues(const TF_Tensor* t) {
  const float* v = static_cast<const float*>(TF_TensorData(t));
  return std::vector<float>(v, v + TF_TensorElementCount(t));
}

TF_Operation* Placeholder(TF_Graph* g, const char* name, TF_DataType dtype,
                          const std::vector<int64_t>& shape, bool with_shape) {
  TF_OperationDescription* desc = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(desc, "dtype", dtype);
  if (with_shape) {
    TF_SetAttrShape(desc, "shape", shape.data(), static_cast<int>(shape.size()));
  }
  return Finish(desc);
}

TF_Operation* Const(TF_Graph* g, const char* name, TF_Tensor* value) {
  TF_OperationDescription* desc = TF_NewOperation(g, "Const", name);
  Status s;
  TF_SetAttrTensor(desc, "value", value, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TF_SetAttrType(desc, "dtype", TF_TensorType(value));
  return Finish(desc);
}

TF_Operation* ScalarConst(TF_Graph* g, const char* name, float value) {
  TF_Tensor* t = FloatTensor({}, {value});
  TF_Operation* op = Const(g, name, t);
  TF_DeleteTensor(t);
  return op;
}

TF_Operation* Add(TF_Graph* g, const char* name, TF_Output a, TF_Output b) {
  TF_OperationDescription* desc = TF_NewOperation(g, "Add", name);
  TF_AddInput(desc, a);
  TF_AddInput(desc, b);
  return Finish(desc);
}

TF_Operation* MatMul(TF_Graph* g, const char* name, TF_Output a, TF_Output b) {
  TF_OperationDescription* desc = TF_NewOperation(g, "MatMul", name);
  TF_AddInput(desc, a);
  TF_AddInput(desc, b);
  return Finish(desc);
}

TF_Buffer* GraphDefBuffer(const std::string& text) {
  rill::GraphDef def;
  if (!google::protobuf::TextFormat::ParseFromString(text, &def)) {
    ADD_FAILURE() << "bad GraphDef text: " << text;
  }
  const std::string bytes = def.SerializeAsString();
  return TF_NewBufferFromString(bytes.data(), bytes.size());
}

}  // namespace rill_c_test
