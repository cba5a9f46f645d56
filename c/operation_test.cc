// TF_Operation queries and TF_OperationGetAttr*, on operations built with TF_SetAttr* (the
// round trip of every attr kind).
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "proto/attr_value.pb.h"
#include "proto/node_def.pb.h"
#include "proto/tensor_shape.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

TEST(Operation, NamesTypesInputsAndConsumers) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_Operation* y = rill_c_test::ScalarConst(g, "y", 1.f);
  TF_Operation* a = rill_c_test::Add(g, "a", {x, 0}, {y, 0});
  TF_Operation* b = rill_c_test::Add(g, "b", {x, 0}, {a, 0});
  EXPECT_STREQ(TF_OperationName(a), "a");
  EXPECT_STREQ(TF_OperationOpType(a), "Add");
  EXPECT_STREQ(TF_OperationDevice(a), "");
  EXPECT_EQ(TF_OperationNumOutputs(a), 1);
  EXPECT_EQ(TF_OperationNumInputs(a), 2);
  EXPECT_EQ(TF_OperationOutputType({a, 0}), TF_FLOAT);
  EXPECT_EQ(TF_OperationOutputType({a, 1}), 0);  // out of range
  EXPECT_EQ(TF_OperationInputType({a, 1}), TF_FLOAT);
  EXPECT_EQ(TF_OperationInputType({a, -1}), 0);
  TF_Output in = TF_OperationInput({b, 1});
  EXPECT_EQ(in.oper, a);
  EXPECT_EQ(in.index, 0);
  in = TF_OperationInput({b, 7});
  EXPECT_EQ(in.oper, nullptr);
  TF_Output all[2];
  TF_OperationAllInputs(b, all, 2);
  EXPECT_EQ(all[0].oper, x);
  EXPECT_EQ(all[1].oper, a);

  EXPECT_EQ(TF_OperationOutputNumConsumers({x, 0}), 2);
  TF_Input consumers[2];
  EXPECT_EQ(TF_OperationOutputConsumers({x, 0}, consumers, 2), 2);
  EXPECT_EQ(consumers[0].oper, a);
  EXPECT_EQ(consumers[0].index, 0);
  EXPECT_EQ(consumers[1].oper, b);
  EXPECT_EQ(TF_OperationOutputNumConsumers({b, 0}), 0);

  Status s;
  EXPECT_EQ(TF_OperationInputListLength(a, "x", s), 1);
  EXPECT_EQ(TF_OperationOutputListLength(a, "z", s), 1);
  EXPECT_EQ(TF_OperationInputListLength(a, "nope", s), -1);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Input arg 'nope' not found");

  TF_Buffer* buffer = TF_NewBuffer();
  TF_OperationToNodeDef(b, buffer, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::NodeDef def;
  ASSERT_TRUE(def.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  EXPECT_EQ(def.name(), "b");
  ASSERT_EQ(def.input_size(), 2);
  EXPECT_EQ(def.input(1), "a");
  TF_DeleteBuffer(buffer);

  // Null operations never crash.
  EXPECT_STREQ(TF_OperationName(nullptr), "");
  EXPECT_EQ(TF_OperationNumInputs(nullptr), 0);
  EXPECT_EQ(TF_OperationOutputNumConsumers({nullptr, 0}), 0);
  EXPECT_EQ(TF_OperationNumControlInputs(nullptr), 0);
  TF_OperationToNodeDef(nullptr, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
}

TEST(Operation, ListLengthsOfNAndTypeListArgs) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_OperationDescription* desc = TF_NewOperation(g, "AddN", "n");
  TF_Output three[] = {{x, 0}, {x, 0}, {x, 0}};
  TF_AddInputList(desc, three, 3);
  Status s;
  TF_Operation* n = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_OperationInputListLength(n, "inputs", s), 3);
  int64_t count = 0;
  TF_OperationGetAttrInt(n, "N", &count, s);
  EXPECT_EQ(count, 3);
  TF_DeleteGraph(g);
}

TEST(Operation, ControlInputsAndOutputs) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_Operation* y = rill_c_test::Placeholder(g, "y");
  TF_OperationDescription* desc = TF_NewOperation(g, "NoOp", "after");
  TF_AddControlInput(desc, x);
  TF_AddControlInput(desc, y);
  Status s;
  TF_Operation* after = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_OperationNumControlInputs(after), 2);
  TF_Operation* inputs[2];
  EXPECT_EQ(TF_OperationGetControlInputs(after, inputs, 2), 2);
  EXPECT_EQ(inputs[0], x);
  EXPECT_EQ(inputs[1], y);
  EXPECT_EQ(TF_OperationNumControlOutputs(x), 1);
  TF_Operation* out = nullptr;
  EXPECT_EQ(TF_OperationGetControlOutputs(x, &out, 1), 1);
  EXPECT_EQ(out, after);
  TF_DeleteGraph(g);
}

// Attrs of every single-value kind, set on ops that declare them and read back.
TEST(Attrs, RoundTripOfEveryKind) {
  TF_Graph* g = TF_NewGraph();
  Status s;
  // shape, type
  TF_Operation* p = rill_c_test::Placeholder(g, "p", TF_INT32, {2, -1}, true);
  TF_AttrMetadata m = TF_OperationGetAttrMetadata(p, "shape", s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(m.is_list, 0);
  EXPECT_EQ(m.type, TF_ATTR_SHAPE);
  EXPECT_EQ(m.total_size, 2);
  int64_t dims[2];
  TF_OperationGetAttrShape(p, "shape", dims, 2, s);
  EXPECT_EQ(dims[0], 2);
  EXPECT_EQ(dims[1], -1);
  TF_DataType dtype;
  TF_OperationGetAttrType(p, "dtype", &dtype, s);
  EXPECT_EQ(dtype, TF_INT32);
  TF_Buffer* shape_proto = TF_NewBuffer();
  TF_OperationGetAttrTensorShapeProto(p, "shape", shape_proto, s);
  rill::TensorShapeProto shape;
  ASSERT_TRUE(shape.ParseFromArray(shape_proto->data, static_cast<int>(shape_proto->length)));
  EXPECT_EQ(shape.dim_size(), 2);
  TF_DeleteBuffer(shape_proto);

  // tensor
  TF_Tensor* value = rill_c_test::Int32Tensor({3}, {4, 5, 6});
  TF_Operation* c = rill_c_test::Const(g, "c", value);
  TF_DeleteTensor(value);
  m = TF_OperationGetAttrMetadata(c, "value", s);
  EXPECT_EQ(m.type, TF_ATTR_TENSOR);
  TF_Tensor* got = nullptr;
  TF_OperationGetAttrTensor(c, "value", &got, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_TensorType(got), TF_INT32);
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(got))[2], 6);
  TF_DeleteTensor(got);

  // string, int list, bool, float: Conv2D's padding, strides, use_cudnn_on_gpu; LeakyRelu alpha
  TF_Operation* img = rill_c_test::Placeholder(g, "img");
  TF_Operation* filt = rill_c_test::Placeholder(g, "filt");
  TF_OperationDescription* desc = TF_NewOperation(g, "Conv2D", "conv");
  TF_AddInput(desc, {img, 0});
  TF_AddInput(desc, {filt, 0});
  const int64_t strides[] = {1, 2, 2, 1};
  TF_SetAttrIntList(desc, "strides", strides, 4);
  TF_SetAttrString(desc, "padding", "SAME", 4);
  TF_SetAttrBool(desc, "use_cudnn_on_gpu", 0);
  const char* format = "NHWC";
  TF_SetAttrString(desc, "data_format", format, 4);
  TF_Operation* conv = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  m = TF_OperationGetAttrMetadata(conv, "padding", s);
  EXPECT_EQ(m.type, TF_ATTR_STRING);
  EXPECT_EQ(m.total_size, 4);
  char padding[4];
  TF_OperationGetAttrString(conv, "padding", padding, 4, s);
  EXPECT_EQ(std::string(padding, 4), "SAME");
  m = TF_OperationGetAttrMetadata(conv, "strides", s);
  EXPECT_EQ(m.is_list, 1);
  EXPECT_EQ(m.list_size, 4);
  EXPECT_EQ(m.type, TF_ATTR_INT);
  int64_t got_strides[4];
  TF_OperationGetAttrIntList(conv, "strides", got_strides, 4, s);
  EXPECT_EQ(got_strides[1], 2);
  unsigned char cudnn = 1;
  TF_OperationGetAttrBool(conv, "use_cudnn_on_gpu", &cudnn, s);
  EXPECT_EQ(cudnn, 0);

  desc = TF_NewOperation(g, "LeakyRelu", "leaky");
  TF_AddInput(desc, {img, 0});
  TF_SetAttrFloat(desc, "alpha", 0.25f);
  TF_Operation* leaky = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  float alpha = 0;
  TF_OperationGetAttrFloat(leaky, "alpha", &alpha, s);
  EXPECT_EQ(alpha, 0.25f);

  // Wrong kinds and missing attrs.
  TF_OperationGetAttrInt(leaky, "alpha", dims, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "AttrValue had value with type 'float' when 'int' expected");
  TF_OperationGetAttrInt(leaky, "nope", dims, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Operation 'leaky' has no attr named 'nope'.");
  TF_OperationGetAttrMetadata(nullptr, "x", s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_OperationGetAttrIntList(conv, "strides", nullptr, 4, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "An output array is null");
  TF_OperationGetAttrShape(p, "shape", nullptr, 2, s);
  EXPECT_EQ(s.message(), "An output array is null");
  TF_OperationGetAttrStringList(conv, "strides", nullptr, nullptr, 1, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);  // the wrong kind is reported first

  // Names and the serialized AttrValue.
  const int n = TF_OperationGetNumAttrs(leaky);
  EXPECT_EQ(n, 2);  // T, alpha
  EXPECT_EQ(TF_OperationGetAttrNameLength(leaky, 0), 1);
  char name[8] = {0};
  TF_OperationGetAttrName(leaky, 1, name, s);
  EXPECT_STREQ(name, "alpha");
  EXPECT_EQ(TF_OperationGetAttrNameLength(leaky, 2), -1);
  TF_Buffer* attr = TF_NewBuffer();
  TF_OperationGetAttrValueProto(leaky, "alpha", attr, s);
  rill::AttrValue v;
  ASSERT_TRUE(v.ParseFromArray(attr->data, static_cast<int>(attr->length)));
  EXPECT_EQ(v.f(), 0.25f);
  TF_DeleteBuffer(attr);
  TF_DeleteGraph(g);
}

TEST(Attrs, ListsOfStringsShapesTypesAndFloats) {
  TF_Graph* g = TF_NewGraph();
  Status s;
  TF_OperationDescription* desc = TF_NewOperation(g, "Placeholder", "p");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrShape(desc, "shape", nullptr, -1);
  TF_Operation* p = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_AttrMetadata m = TF_OperationGetAttrMetadata(p, "shape", s);
  EXPECT_EQ(m.total_size, -1);  // unknown rank

  // IdentityN: list(type) inferred from TF_AddInputList.
  TF_Operation* i32 = rill_c_test::Placeholder(g, "i", TF_INT32);
  desc = TF_NewOperation(g, "IdentityN", "idn");
  TF_Output ins[] = {{p, 0}, {i32, 0}};
  TF_AddInputList(desc, ins, 2);
  TF_Operation* idn = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  m = TF_OperationGetAttrMetadata(idn, "T", s);
  EXPECT_EQ(m.is_list, 1);
  EXPECT_EQ(m.list_size, 2);
  EXPECT_EQ(m.type, TF_ATTR_TYPE);
  TF_DataType types[2];
  TF_OperationGetAttrTypeList(idn, "T", types, 2, s);
  EXPECT_EQ(types[0], TF_FLOAT);
  EXPECT_EQ(types[1], TF_INT32);
  EXPECT_EQ(TF_OperationNumOutputs(idn), 2);
  EXPECT_EQ(TF_OperationOutputType({idn, 1}), TF_INT32);
  EXPECT_EQ(TF_OperationOutputListLength(idn, "output", s), 2);

  // _class (list(string)) from TF_ColocateWith.
  desc = TF_NewOperation(g, "Identity", "colocated");
  TF_AddInput(desc, {p, 0});
  TF_ColocateWith(desc, p);
  TF_Operation* colocated = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  m = TF_OperationGetAttrMetadata(colocated, "_class", s);
  EXPECT_EQ(m.is_list, 1);
  EXPECT_EQ(m.list_size, 1);
  EXPECT_EQ(m.total_size, 6);
  void* values[1];
  size_t lengths[1];
  char storage[6];
  TF_OperationGetAttrStringList(colocated, "_class", values, lengths, 1, storage, 6, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(std::string(static_cast<char*>(values[0]), lengths[0]), "loc:@p");
  TF_OperationGetAttrStringList(colocated, "_class", values, lengths, 1, storage, 3, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Not enough storage to hold the requested list of strings");
  TF_DeleteGraph(g);
}

// Lists of every kind, as internal ("_"-prefixed) attrs, which any op may carry.
TEST(Attrs, ListRoundTrips) {
  TF_Graph* g = TF_NewGraph();
  Status s;
  TF_OperationDescription* desc = TF_NewOperation(g, "NoOp", "lists");
  const int64_t ints[] = {1, -2, 3};
  TF_SetAttrIntList(desc, "_ints", ints, 3);
  const float floats[] = {0.5f, 1.5f};
  TF_SetAttrFloatList(desc, "_floats", floats, 2);
  const unsigned char bools[] = {1, 0, 1};
  TF_SetAttrBoolList(desc, "_bools", bools, 3);
  const char* strings[] = {"ab", "cde"};
  const size_t string_lengths[] = {2, 3};
  TF_SetAttrStringList(desc, "_strings", reinterpret_cast<const void* const*>(strings),
                       string_lengths, 2);
  const int64_t shape0[] = {2, 3};
  const int64_t* shapes[] = {shape0, nullptr, shape0};
  const int ranks[] = {2, -1, 1};
  TF_SetAttrShapeList(desc, "_shapes", shapes, ranks, 3);
  TF_Tensor* t0 = rill_c_test::FloatTensor({2}, {7, 8});
  TF_Tensor* t1 = rill_c_test::Int32Tensor({}, {9});
  TF_Tensor* tensors[] = {t0, t1};
  TF_SetAttrTensorList(desc, "_tensors", tensors, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteTensor(t0);
  TF_DeleteTensor(t1);
  rill::TensorShapeProto proto_shape;
  proto_shape.add_dim()->set_size(4);
  const std::string shape_bytes = proto_shape.SerializeAsString();
  TF_SetAttrTensorShapeProto(desc, "_shape", shape_bytes.data(), shape_bytes.size(), s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_SetAttrTensorShapeProto(desc, "_bad", "\xff\xff", 2, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Unparseable TensorShapeProto");
  TF_SetAttrFuncName(desc, "_f", "fn", 2);
  TF_SetAttrPlaceholder(desc, "_ph", "T");
  rill::AttrValue av;
  av.set_i(42);
  const std::string av_bytes = av.SerializeAsString();
  TF_SetAttrValueProto(desc, "_proto", av_bytes.data(), av_bytes.size(), s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_SetAttrValueProto(desc, "_bad", "\xff", 1, s);
  EXPECT_EQ(s.message(), "Unparseable AttrValue proto");
  TF_Operation* op = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();

  int64_t got_ints[3];
  TF_OperationGetAttrIntList(op, "_ints", got_ints, 3, s);
  EXPECT_EQ(got_ints[1], -2);
  float got_floats[2];
  TF_OperationGetAttrFloatList(op, "_floats", got_floats, 2, s);
  EXPECT_EQ(got_floats[1], 1.5f);
  unsigned char got_bools[3];
  TF_OperationGetAttrBoolList(op, "_bools", got_bools, 3, s);
  EXPECT_EQ(got_bools[0], 1);
  EXPECT_EQ(got_bools[1], 0);
  TF_AttrMetadata m = TF_OperationGetAttrMetadata(op, "_strings", s);
  EXPECT_EQ(m.list_size, 2);
  EXPECT_EQ(m.total_size, 5);
  m = TF_OperationGetAttrMetadata(op, "_shapes", s);
  EXPECT_EQ(m.type, TF_ATTR_SHAPE);
  EXPECT_EQ(m.list_size, 3);
  EXPECT_EQ(m.total_size, 3);
  int64_t* dims[3];
  int num_dims[3];
  int64_t storage[3];
  TF_OperationGetAttrShapeList(op, "_shapes", dims, num_dims, 3, storage, 3, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(num_dims[0], 2);
  EXPECT_EQ(dims[0][1], 3);
  EXPECT_EQ(num_dims[1], -1);
  EXPECT_EQ(num_dims[2], 1);
  EXPECT_EQ(dims[2][0], 2);
  TF_OperationGetAttrShapeList(op, "_shapes", dims, num_dims, 3, storage, 2, s);
  EXPECT_EQ(s.message(), "Not enough storage to hold the requested list of shapes");
  TF_Buffer* shape_buffers[3];
  TF_OperationGetAttrTensorShapeProtoList(op, "_shapes", shape_buffers, 3, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::TensorShapeProto unknown;
  ASSERT_TRUE(
      unknown.ParseFromArray(shape_buffers[1]->data, static_cast<int>(shape_buffers[1]->length)));
  EXPECT_TRUE(unknown.unknown_rank());
  for (TF_Buffer* b : shape_buffers) TF_DeleteBuffer(b);
  TF_Tensor* got_tensors[2];
  TF_OperationGetAttrTensorList(op, "_tensors", got_tensors, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(got_tensors[0]), (std::vector<float>{7, 8}));
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(got_tensors[1]))[0], 9);
  TF_DeleteTensor(got_tensors[0]);
  TF_DeleteTensor(got_tensors[1]);
  int64_t shape_dims[1];
  TF_OperationGetAttrShape(op, "_shape", shape_dims, 1, s);
  EXPECT_EQ(shape_dims[0], 4);
  m = TF_OperationGetAttrMetadata(op, "_f", s);
  EXPECT_EQ(m.type, TF_ATTR_FUNC);
  m = TF_OperationGetAttrMetadata(op, "_ph", s);
  EXPECT_EQ(m.type, TF_ATTR_PLACEHOLDER);
  int64_t answer = 0;
  TF_OperationGetAttrInt(op, "_proto", &answer, s);
  EXPECT_EQ(answer, 42);
  TF_DeleteGraph(g);
}

}  // namespace
