#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "core/tensor_proto.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(ConstOpTest, OutputsTheDecodedValueEveryRun) {
  const Tensor value = Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2}));
  OpTester t("Const", "c");
  t.Attr("dtype", DT_FLOAT).TensorAttr("value", value);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> first, t.Run());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> second, t.Run());
  ASSERT_EQ(first.size(), 1u);
  ExpectTensorEqual(first[0], value);
  // Decoded once: both runs hand out the same buffer.
  EXPECT_TRUE(first[0].SharesBufferWith(second[0]));
  EXPECT_FALSE(t.kernel().IsExpensive());
  // The kernel keeps the decoded tensor, not the encoded value beside it.
  EXPECT_EQ(t.kernel().def().attr().count("value"), 0u);
  EXPECT_EQ(t.kernel().def().attr().count("dtype"), 1u);
  EXPECT_EQ(t.kernel().def().name(), "c");
}

TEST(ConstOpTest, DecodesEveryStorableDtype) {
  for (DataType dt : {DT_DOUBLE, DT_HALF, DT_BFLOAT16, DT_INT8, DT_INT16, DT_INT32, DT_INT64,
                      DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_COMPLEX64, DT_COMPLEX128}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor value = MakeTensor(dt, TensorShape({3}), {1, 2, 100});
    OpTester t("Const", "c");
    t.Attr("dtype", dt).TensorAttr("value", value);
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
    ExpectTensorEqual(out[0], value);
  }
}

TEST(ConstOpTest, StringsAndBools) {
  const Tensor s = Tensor::FromVector<std::string>({"a", "", "xyz"}, TensorShape({3}));
  OpTester ts("Const", "s");
  ts.Attr("dtype", DT_STRING).TensorAttr("value", s);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, ts.Run());
  ExpectTensorEqual(out[0], s);

  const Tensor b = Tensor::FromVector<bool>({true, false}, TensorShape({2}));
  OpTester tb("Const", "b");
  tb.Attr("dtype", DT_BOOL).TensorAttr("value", b);
  RILL_ASSERT_OK_AND_ASSIGN(out, tb.Run());
  ExpectTensorEqual(out[0], b);
}

TEST(ConstOpTest, OneValueFillsTheShape) {
  TensorProto proto;
  proto.set_dtype(DT_INT32);
  proto.mutable_tensor_shape()->add_dim()->set_size(4);
  proto.add_int_val(7);
  AttrValue v;
  *v.mutable_tensor() = proto;
  OpTester t("Const", "c");
  t.Attr("dtype", DT_INT32).Attr("value", v);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({7, 7, 7, 7}, TensorShape({4})));
}

TEST(ConstOpTest, DtypeMismatchIsInvalidArgumentNamingTheNode) {
  OpTester t("Const", "my_const");
  t.Attr("dtype", DT_FLOAT).TensorAttr("value", Tensor::Scalar<int32_t>(3));
  EXPECT_THAT(t.Init(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("Type mismatch between value (int32) and dtype (float)"),
                             HasSubstr("'my_const'"))));
}

TEST(ConstOpTest, MalformedTensorIsInvalidArgumentNamingTheNode) {
  TensorProto proto;
  proto.set_dtype(DT_FLOAT);
  proto.mutable_tensor_shape()->add_dim()->set_size(2);
  proto.set_tensor_content(std::string(3, '\0'));  // 3 bytes for 2 floats
  AttrValue v;
  *v.mutable_tensor() = proto;
  OpTester t("Const", "bad");
  t.Attr("dtype", DT_FLOAT).Attr("value", v);
  EXPECT_THAT(t.Init(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Const node 'bad': ")));
}

}  // namespace
}  // namespace rill
