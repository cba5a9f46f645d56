// The eager API's operations: TFE_Execute on tensor handles with attributes of each kind, list
// inputs (as a list and one at a time), operations without outputs, library functions, errors
// (unknown ops, wrong input counts, too few retvals, kernel errors), the kept kernels, and eight
// threads executing on one context.
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensorflow/c/eager/c_api.h"

namespace {

using rill_c_test::FloatTensor;
using rill_c_test::Int32Tensor;
using rill_c_test::Status;
using ::testing::HasSubstr;

class EagerExecute : public ::testing::Test {
 protected:
  void SetUp() override {
    TFE_ContextOptions* opts = TFE_NewContextOptions();
    ctx_ = TFE_NewContext(opts, s_);
    ASSERT_EQ(s_.code(), TF_OK) << s_.message();
    TFE_DeleteContextOptions(opts);
  }
  void TearDown() override {
    for (TFE_TensorHandle* h : handles_) TFE_DeleteTensorHandle(h);
    TFE_DeleteContext(ctx_);
  }

  // A handle kept until the test ends.
  TFE_TensorHandle* Keep(TFE_TensorHandle* h) {
    handles_.push_back(h);
    return h;
  }
  TFE_TensorHandle* Floats(const std::vector<int64_t>& dims, const std::vector<float>& values) {
    TF_Tensor* t = FloatTensor(dims, values);
    TFE_TensorHandle* h = TFE_NewTensorHandle(t, s_);
    TF_DeleteTensor(t);
    return Keep(h);
  }
  TFE_TensorHandle* Ints(const std::vector<int64_t>& dims, const std::vector<int32_t>& values) {
    TF_Tensor* t = Int32Tensor(dims, values);
    TFE_TensorHandle* h = TFE_NewTensorHandle(t, s_);
    TF_DeleteTensor(t);
    return Keep(h);
  }
  // Executes `op` expecting one output, which is returned (kept).
  TFE_TensorHandle* RunOne(TFE_Op* op) {
    TFE_TensorHandle* out[1] = {nullptr};
    int n = 1;
    TFE_Execute(op, out, &n, s_);
    EXPECT_EQ(s_.code(), TF_OK) << s_.message();
    EXPECT_EQ(n, 1);
    return Keep(out[0]);
  }
  template <typename T>
  std::vector<T> Values(TFE_TensorHandle* h) {
    TF_Tensor* t = TFE_TensorHandleResolve(h, s_);
    EXPECT_EQ(s_.code(), TF_OK) << s_.message();
    const T* data = static_cast<const T*>(TF_TensorData(t));
    std::vector<T> v(data, data + TF_TensorByteSize(t) / sizeof(T));
    TF_DeleteTensor(t);
    return v;
  }
  std::vector<int64_t> Dims(TFE_TensorHandle* h) {
    std::vector<int64_t> dims;
    for (int i = 0; i < TFE_TensorHandleNumDims(h, s_); ++i) {
      dims.push_back(TFE_TensorHandleDim(h, i, s_));
    }
    return dims;
  }

  Status s_;
  TFE_Context* ctx_ = nullptr;
  std::vector<TFE_TensorHandle*> handles_;
};

TEST_F(EagerExecute, MatMulWithBoolAttrs) {
  TFE_TensorHandle* a = Floats({2, 2}, {1, 2, 3, 4});
  TFE_TensorHandle* b = Floats({2, 2}, {5, 6, 7, 8});
  TFE_Op* op = TFE_NewOp(ctx_, "MatMul", s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TFE_OpAddInput(op, a, s_);
  TFE_OpAddInput(op, b, s_);
  TFE_OpSetAttrBool(op, "transpose_b", 1);
  TFE_OpSetAttrType(op, "T", TF_FLOAT);
  EXPECT_EQ(TFE_OpGetFlatInputCount(op, s_), 2);
  EXPECT_EQ(TFE_OpGetFlatInput(op, 1, s_) != nullptr, true);
  EXPECT_STREQ(TFE_OpGetName(op, s_), "MatMul");
  EXPECT_EQ(TFE_OpGetContext(op, s_), ctx_);
  TFE_TensorHandle* c = RunOne(op);
  EXPECT_EQ(TFE_TensorHandleDataType(c), TF_FLOAT);
  EXPECT_EQ(Dims(c), (std::vector<int64_t>{2, 2}));
  // [1 2; 3 4] * [5 6; 7 8]^T
  EXPECT_EQ(Values<float>(c), (std::vector<float>{17, 23, 39, 53}));
  // The op runs again, with the kept kernel.
  TFE_TensorHandle* again = RunOne(op);
  EXPECT_EQ(Values<float>(again), (std::vector<float>{17, 23, 39, 53}));
  TFE_DeleteOp(op);
}

TEST_F(EagerExecute, InputsAreTheCallersToDelete) {
  TF_Tensor* t = FloatTensor({2}, {1.5f, 2.5f});
  TFE_TensorHandle* x = TFE_NewTensorHandle(t, s_);
  TF_DeleteTensor(t);
  TFE_Op* op = TFE_NewOp(ctx_, "AddV2", s_);
  TFE_OpAddInput(op, x, s_);
  TFE_OpAddInput(op, x, s_);
  // The op keeps its inputs, as TensorFlow's holds references to them.
  TFE_DeleteTensorHandle(x);
  EXPECT_EQ(Values<float>(RunOne(op)), (std::vector<float>{3, 5}));
  TFE_DeleteOp(op);
}

TEST_F(EagerExecute, IntShapeAndTypeAttrs) {
  // Fill([2, 3], 7) then Reshape to [3, 2], Cast to int32, Shape with out_type int64.
  TFE_Op* fill = TFE_NewOp(ctx_, "Fill", s_);
  TFE_OpAddInput(fill, Ints({2}, {2, 3}), s_);
  TFE_OpAddInput(fill, Floats({}, {7}), s_);
  TFE_TensorHandle* filled = RunOne(fill);
  TFE_DeleteOp(fill);
  EXPECT_EQ(Dims(filled), (std::vector<int64_t>{2, 3}));

  TFE_Op* cast = TFE_NewOp(ctx_, "Cast", s_);
  TFE_OpAddInput(cast, filled, s_);
  TFE_OpSetAttrType(cast, "DstT", TF_INT32);
  TFE_TensorHandle* ints = RunOne(cast);
  TFE_DeleteOp(cast);
  EXPECT_EQ(TFE_TensorHandleDataType(ints), TF_INT32);
  EXPECT_EQ(Values<int32_t>(ints), (std::vector<int32_t>(6, 7)));

  TFE_Op* shape = TFE_NewOp(ctx_, "Shape", s_);
  TFE_OpAddInput(shape, ints, s_);
  TFE_OpSetAttrType(shape, "out_type", TF_INT64);
  TFE_TensorHandle* dims = RunOne(shape);
  TFE_DeleteOp(shape);
  EXPECT_EQ(TFE_TensorHandleDataType(dims), TF_INT64);
  EXPECT_EQ(Values<int64_t>(dims), (std::vector<int64_t>{2, 3}));

  // An int list attr and a shape attr: Transpose by perm, and PlaceholderWithDefault's shape.
  TFE_Op* squeeze = TFE_NewOp(ctx_, "Squeeze", s_);
  TFE_OpAddInput(squeeze, Floats({1, 2, 1}, {4, 5}), s_);
  const int64_t axes[] = {0, 2};
  TFE_OpSetAttrIntList(squeeze, "squeeze_dims", axes, 2);
  TFE_TensorHandle* squeezed = RunOne(squeeze);
  TFE_DeleteOp(squeeze);
  EXPECT_EQ(Dims(squeezed), (std::vector<int64_t>{2}));

  TFE_Op* with_default = TFE_NewOp(ctx_, "PlaceholderWithDefault", s_);
  TFE_OpAddInput(with_default, squeezed, s_);
  const int64_t unknown[] = {-1};
  TFE_OpSetAttrShape(with_default, "shape", unknown, 1, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  EXPECT_EQ(Values<float>(RunOne(with_default)), (std::vector<float>{4, 5}));
  TFE_DeleteOp(with_default);
}

TEST_F(EagerExecute, TypesInferredFromInputsWinOverLaterSets) {
  // cppflow's fill: int64 dims, then index_type set to int32; TensorFlow keeps the inferred type.
  const int64_t rank_one[] = {1};
  TF_Tensor* dims_tensor = TF_AllocateTensor(TF_INT64, rank_one, 1, sizeof(int64_t));
  *static_cast<int64_t*>(TF_TensorData(dims_tensor)) = 3;
  TFE_TensorHandle* dims = Keep(TFE_NewTensorHandle(dims_tensor, s_));
  TF_DeleteTensor(dims_tensor);
  TFE_Op* fill = TFE_NewOp(ctx_, "Fill", s_);
  TFE_OpAddInput(fill, dims, s_);
  TFE_OpAddInput(fill, Floats({}, {2.5f}), s_);
  TFE_OpSetAttrType(fill, "index_type", TF_INT32);
  EXPECT_EQ(Values<float>(RunOne(fill)), (std::vector<float>{2.5f, 2.5f, 2.5f}));
  TFE_DeleteOp(fill);

  // Set before the inputs, the attr stays, and the input does not match it.
  TFE_Op* add = TFE_NewOp(ctx_, "AddV2", s_);
  TFE_OpSetAttrType(add, "T", TF_INT32);
  TFE_OpAddInput(add, Floats({1}, {1}), s_);
  TFE_OpAddInput(add, Floats({1}, {1}), s_);
  TFE_TensorHandle* out[1];
  int n = 1;
  TFE_Execute(add, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  TFE_DeleteOp(add);
}

TEST_F(EagerExecute, ListInputsAsAListOrOneAtATime) {
  TFE_TensorHandle* parts[] = {Floats({1}, {1}), Floats({2}, {2, 3})};
  TFE_Op* concat = TFE_NewOp(ctx_, "ConcatV2", s_);
  TFE_OpAddInputList(concat, parts, 2, s_);
  TFE_OpAddInput(concat, Ints({}, {0}), s_);
  TFE_OpSetAttrInt(concat, "N", 2);
  EXPECT_EQ(Values<float>(RunOne(concat)), (std::vector<float>{1, 2, 3}));
  TFE_DeleteOp(concat);

  // Pack's list given one tensor at a time, counted by its N attr.
  TFE_Op* pack = TFE_NewOp(ctx_, "Pack", s_);
  TFE_OpAddInput(pack, parts[1], s_);
  TFE_OpAddInput(pack, parts[1], s_);
  TFE_OpSetAttrInt(pack, "N", 2);
  TFE_OpSetAttrInt(pack, "axis", 1);
  TFE_TensorHandle* packed = RunOne(pack);
  TFE_DeleteOp(pack);
  EXPECT_EQ(Dims(packed), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<float>(packed), (std::vector<float>{2, 2, 3, 3}));
}

TEST_F(EagerExecute, SeveralOutputs) {
  TFE_Op* split = TFE_NewOp(ctx_, "Split", s_);
  TFE_OpAddInput(split, Ints({}, {0}), s_);
  TFE_OpAddInput(split, Floats({4}, {1, 2, 3, 4}), s_);
  TFE_OpSetAttrInt(split, "num_split", 2);
  TFE_TensorHandle* out[3] = {nullptr, nullptr, nullptr};
  int n = 1;
  TFE_Execute(split, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(), "Expecting 2 outputs, but *num_retvals is 1");
  n = 3;
  TFE_Execute(split, out, &n, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  ASSERT_EQ(n, 2);
  Keep(out[0]);
  Keep(out[1]);
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(Values<float>(out[1]), (std::vector<float>{3, 4}));
  TFE_DeleteOp(split);
}

TEST_F(EagerExecute, StringAndTensorAttrs) {
  // A string attr (Einsum's equation) and a tensor attr (Const's value).
  TFE_Op* einsum = TFE_NewOp(ctx_, "Einsum", s_);
  TFE_TensorHandle* inputs[] = {Floats({2}, {1, 2}), Floats({2}, {3, 4})};
  TFE_OpAddInputList(einsum, inputs, 2, s_);
  const char eq[] = "i,i->";
  TFE_OpSetAttrString(einsum, "equation", eq, strlen(eq));
  EXPECT_EQ(Values<float>(RunOne(einsum)), (std::vector<float>{11}));
  TFE_DeleteOp(einsum);

  TFE_Op* constant = TFE_NewOp(ctx_, "Const", s_);
  TF_Tensor* value = FloatTensor({3}, {9, 8, 7});
  TFE_OpSetAttrTensor(constant, "value", value, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TF_DeleteTensor(value);
  TFE_OpSetAttrType(constant, "dtype", TF_FLOAT);
  EXPECT_EQ(Values<float>(RunOne(constant)), (std::vector<float>{9, 8, 7}));
  TFE_DeleteOp(constant);

  // A string tensor through an op: StringLength.
  TF_Tensor* strings = TF_AllocateTensor(TF_STRING, nullptr, 0, sizeof(TF_TString));
  auto* ts = static_cast<TF_TString*>(TF_TensorData(strings));
  TF_TString_Init(ts);
  TF_TString_Copy(ts, "a longer string than the inline size", 36);
  TFE_TensorHandle* sh = Keep(TFE_NewTensorHandle(strings, s_));
  TF_DeleteTensor(strings);
  TFE_Op* length = TFE_NewOp(ctx_, "StringLength", s_);
  TFE_OpAddInput(length, sh, s_);
  EXPECT_EQ(Values<int32_t>(RunOne(length)), (std::vector<int32_t>{36}));
  TFE_DeleteOp(length);
}

TEST_F(EagerExecute, AttrValuesMakeDifferentKernels) {
  TFE_TensorHandle* x = Floats({2, 2}, {1, 2, 3, 4});
  TFE_TensorHandle* y = Floats({2, 2}, {1, 0, 0, 1});
  for (int transpose = 0; transpose < 2; ++transpose) {
    TFE_Op* op = TFE_NewOp(ctx_, "MatMul", s_);
    TFE_OpAddInput(op, x, s_);
    TFE_OpAddInput(op, y, s_);
    TFE_OpSetAttrBool(op, "transpose_a", static_cast<unsigned char>(transpose));
    EXPECT_EQ(Values<float>(RunOne(op)),
              transpose == 0 ? (std::vector<float>{1, 2, 3, 4}) : (std::vector<float>{1, 3, 2, 4}));
    TFE_DeleteOp(op);
  }
  TFE_ContextClearCaches(ctx_);
  TFE_Op* op = TFE_NewOp(ctx_, "MatMul", s_);
  TFE_OpAddInput(op, x, s_);
  TFE_OpAddInput(op, y, s_);
  EXPECT_EQ(Values<float>(RunOne(op)), (std::vector<float>{1, 2, 3, 4}));
  TFE_DeleteOp(op);
}

TEST_F(EagerExecute, OperationWithoutOutputs) {
  TFE_Op* op = TFE_NewOp(ctx_, "NoOp", s_);
  int n = 0;
  TFE_Execute(op, nullptr, &n, s_);
  EXPECT_EQ(s_.code(), TF_OK) << s_.message();
  EXPECT_EQ(n, 0);
  TFE_DeleteOp(op);
}

TEST_F(EagerExecute, Errors) {
  EXPECT_EQ(TFE_NewOp(ctx_, "NoSuchOp", s_), nullptr);
  EXPECT_EQ(s_.code(), TF_NOT_FOUND);
  EXPECT_THAT(s_.message(), HasSubstr("Op type not registered 'NoSuchOp'"));

  // A missing input.
  TFE_Op* add = TFE_NewOp(ctx_, "AddV2", s_);
  TFE_OpAddInput(add, Floats({1}, {1}), s_);
  TFE_TensorHandle* out[1];
  int n = 1;
  TFE_Execute(add, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(),
            "Op 'AddV2' takes 2 inputs (y is missing): add it with TFE_OpAddInput or "
            "TFE_OpAddInputList");
  // Mismatched types: the graph's error.
  TFE_OpAddInput(add, Ints({1}, {1}), s_);
  TFE_Execute(add, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s_.message(), HasSubstr("Inconsistent values for attr 'T' DT_FLOAT vs. DT_INT32"));
  // One too many.
  TFE_OpAddInput(add, Floats({1}, {1}), s_);
  TFE_Execute(add, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(), "Op 'AddV2' takes 2 inputs, but 3 tensors were added");
  TFE_DeleteOp(add);

  // A kernel's error at run time.
  TFE_Op* reshape = TFE_NewOp(ctx_, "Reshape", s_);
  TFE_OpAddInput(reshape, Floats({3}, {1, 2, 3}), s_);
  TFE_OpAddInput(reshape, Ints({1}, {2}), s_);
  TFE_Execute(reshape, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s_.message(), HasSubstr("Input to reshape is a tensor with 3 values"));
  TFE_DeleteOp(reshape);

  // A bad tensor attr is the setter's error.
  TFE_Op* constant = TFE_NewOp(ctx_, "Const", s_);
  TF_Tensor* bad = TF_AllocateTensor(TF_FLOAT, nullptr, 0, 3);
  TFE_OpSetAttrTensor(constant, "value", bad, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  TF_DeleteTensor(bad);
  TFE_DeleteOp(constant);

  // A shape attr over TensorFlow's rank limit.
  TFE_Op* p = TFE_NewOp(ctx_, "Placeholder", s_);
  std::vector<int64_t> dims(255, 1);
  TFE_OpSetAttrShape(p, "shape", dims.data(), 255, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(),
            "Value specified for `shape` has 255 dimensions which is over the limit of 254.");
  TFE_DeleteOp(p);

  TFE_Execute(nullptr, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
}

// A setter without a status records its first error; TFE_Execute returns it instead of running
// the op with the attribute's default.
TEST_F(EagerExecute, NullAttrValuesAreTheExecutesError) {
  TFE_TensorHandle* out[1];
  int n = 1;
  TFE_Op* squeeze = TFE_NewOp(ctx_, "Squeeze", s_);
  TFE_OpAddInput(squeeze, Floats({1, 2, 1}, {1, 2}), s_);
  TFE_OpSetAttrIntList(squeeze, "squeeze_dims", nullptr, 2);
  TFE_OpSetAttrIntList(squeeze, "other", nullptr, 1);  // a second error: the first wins
  TFE_Execute(squeeze, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(),
            "Attribute 'squeeze_dims' of op 'Squeeze': values is null but num_values is 2; pass "
            "num_values values, or num_values = 0 for an empty list");
  TFE_DeleteOp(squeeze);

  TFE_Op* op = TFE_NewOp(ctx_, "Squeeze", s_);
  const void* strings[] = {"a", nullptr};
  const size_t lengths[] = {1, 3};
  TFE_OpSetAttrStringList(op, "names", strings, lengths, 2);
  TFE_Execute(op, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(),
            "Attribute 'names' of op 'Squeeze': string 1 is null but its length is 3; pass its "
            "bytes, or length 0 for an empty string");
  TFE_DeleteOp(op);

  op = TFE_NewOp(ctx_, "Squeeze", s_);
  TFE_OpSetAttrStringList(op, "names", nullptr, lengths, 2);
  TFE_Execute(op, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s_.message(), HasSubstr("values or lengths is null but num_values is 2"));
  TFE_DeleteOp(op);

  op = TFE_NewOp(ctx_, "Squeeze", s_);
  const TFE_Op* functions[] = {nullptr};
  TFE_OpSetAttrFunctionList(op, "fs", functions, 1);
  TFE_Execute(op, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(),
            "Attribute 'fs' of op 'Squeeze': function op 0 is null; pass a TFE_Op naming the "
            "function");
  TFE_DeleteOp(op);

  op = TFE_NewOp(ctx_, "Squeeze", s_);
  TFE_OpSetAttrFunction(op, "f", nullptr);
  TFE_Execute(op, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(),
            "Attribute 'f' of op 'Squeeze': the function op is null; pass a TFE_Op naming the "
            "function");
  TFE_DeleteOp(op);

  op = TFE_NewOp(ctx_, "Squeeze", s_);
  TFE_OpSetAttrString(op, "s", nullptr, 4);
  TFE_Execute(op, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s_.message(),
              HasSubstr("Attribute 's' of op 'Squeeze': value is null but length is 4"));
  TFE_DeleteOp(op);

  op = TFE_NewOp(ctx_, "Squeeze", s_);
  TFE_OpSetAttrInt(op, nullptr, 1);
  TFE_Execute(op, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(),
            "Attribute '' of op 'Squeeze': the attribute name is null; pass the attribute's name");
  TFE_DeleteOp(op);

  // A setter with a status reports a null shape in the list there.
  op = TFE_NewOp(ctx_, "Squeeze", s_);
  const int64_t* shapes[] = {nullptr};
  const int ranks[] = {2};
  TFE_OpSetAttrShapeList(op, "shapes", shapes, ranks, 1, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(),
            "Attribute 'shapes' of op 'Squeeze': dims[0] is null but num_dims[0] is 2; pass its "
            "dimensions, or -1 for an unknown rank");
  TFE_DeleteOp(op);
}

TEST_F(EagerExecute, ResourceOutputsAreRefused) {
  TFE_Op* var = TFE_NewOp(ctx_, "VarHandleOp", s_);
  TFE_OpSetAttrType(var, "dtype", TF_FLOAT);
  const int64_t dims[] = {2};
  TFE_OpSetAttrShape(var, "shape", dims, 1, s_);
  TFE_TensorHandle* out[1] = {nullptr};
  int n = 1;
  TFE_Execute(var, out, &n, s_);
  EXPECT_EQ(s_.code(), TF_UNIMPLEMENTED);
  EXPECT_EQ(s_.message(),
            "Rill's eager API does not keep resources or variants between operations: output 0 "
            "of VarHandleOp is a resource. Build the operations that use it in a graph and run "
            "them with TF_SessionRun");
  EXPECT_EQ(out[0], nullptr);
  TFE_DeleteOp(var);
}

TEST_F(EagerExecute, AttrTypes) {
  unsigned char is_list = 2;
  EXPECT_EQ(TFE_OpNameGetAttrType(ctx_, "MatMul", "transpose_a", &is_list, s_), TF_ATTR_BOOL);
  EXPECT_EQ(is_list, 0);
  EXPECT_EQ(TFE_OpNameGetAttrType(ctx_, "Squeeze", "squeeze_dims", &is_list, s_), TF_ATTR_INT);
  EXPECT_EQ(is_list, 1);
  TFE_Op* op = TFE_NewOp(ctx_, "Cast", s_);
  EXPECT_EQ(TFE_OpGetAttrType(op, "DstT", &is_list, s_), TF_ATTR_TYPE);
  EXPECT_EQ(is_list, 0);
  TFE_OpGetAttrType(op, "nope", &is_list, s_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(), "Attribute 'nope' does not exist for this operation");
  TFE_DeleteOp(op);
}

TEST_F(EagerExecute, LibraryFunction) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = rill_c_test::Placeholder(g, "x");
  TF_Operation* sum = rill_c_test::Add(g, "sum", {x, 0}, {x, 0});
  TF_Output in{x, 0}, result{sum, 0};
  TF_Function* f = TF_GraphToFunction(g, "Double", 0, -1, nullptr, 1, &in, 1, &result, nullptr,
                                      nullptr, nullptr, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TFE_ContextAddFunction(ctx_, f, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TFE_Op* call = TFE_NewOp(ctx_, "Double", s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TFE_OpAddInput(call, Floats({2}, {1.5f, -4}), s_);
  EXPECT_EQ(Values<float>(RunOne(call)), (std::vector<float>{3, -8}));
  TFE_DeleteOp(call);

  // Removing the function and adding another of that name drops the kernels that called the
  // first: the same signature runs the new body.
  TFE_ContextRemoveFunction(ctx_, "Double", s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TF_Operation* triple = rill_c_test::Add(g, "triple", {sum, 0}, {x, 0});
  TF_Output tripled{triple, 0};
  TF_Function* other = TF_GraphToFunction(g, "Double", 0, -1, nullptr, 1, &in, 1, &tripled, nullptr,
                                          nullptr, nullptr, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TFE_ContextAddFunction(ctx_, other, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  call = TFE_NewOp(ctx_, "Double", s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TFE_OpAddInput(call, Floats({2}, {1.5f, -4}), s_);
  EXPECT_EQ(Values<float>(RunOne(call)), (std::vector<float>{4.5f, -12}));
  TFE_DeleteOp(call);
  TF_DeleteFunction(other);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
}

TEST_F(EagerExecute, EightThreadsOnOneContext) {
  std::vector<std::thread> threads;
  std::vector<int> wrong(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([this, t, &wrong] {
      Status s;
      for (int i = 0; i < 50; ++i) {
        const float v = static_cast<float>(t * 100 + i);
        TF_Tensor* tensor = FloatTensor({2}, {v, 1});
        TFE_TensorHandle* h = TFE_NewTensorHandle(tensor, s);
        TF_DeleteTensor(tensor);
        // Two signatures, so that threads build and share kernels.
        TFE_Op* op = TFE_NewOp(ctx_, i % 2 == 0 ? "AddV2" : "Mul", s);
        TFE_OpAddInput(op, h, s);
        TFE_OpAddInput(op, h, s);
        TFE_TensorHandle* out[1];
        int n = 1;
        TFE_Execute(op, out, &n, s);
        if (TF_GetCode(s) != TF_OK) {
          ++wrong[t];
        } else {
          TF_Tensor* r = TFE_TensorHandleResolve(out[0], s);
          const float got = static_cast<const float*>(TF_TensorData(r))[0];
          if (got != (i % 2 == 0 ? v + v : v * v)) ++wrong[t];
          TF_DeleteTensor(r);
          TFE_DeleteTensorHandle(out[0]);
        }
        TFE_DeleteOp(op);
        TFE_DeleteTensorHandle(h);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(wrong, std::vector<int>(8, 0));
}

}  // namespace
