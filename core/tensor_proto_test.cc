#include "core/tensor_proto.h"

#include <limits>

#include "core/quantized_types.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TensorProto ParseText(const std::string& text) {
  TensorProto p;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &p)) << text;
  return p;
}

TEST(TensorProtoTest, ShortValueListIsPaddedWithLastValue) {
  // A one-value Const of shape [1000], as TensorFlow writes zeros initializers.
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor t, TensorFromProto(ParseText(
                    "dtype: DT_FLOAT tensor_shape { dim { size: 1000 } } float_val: 0.5")));
  ASSERT_EQ(t.NumElements(), 1000);
  EXPECT_EQ(t.flat<float>()[0], 0.5f);
  EXPECT_EQ(t.flat<float>()[999], 0.5f);
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor u, TensorFromProto(ParseText(
                    "dtype: DT_INT32 tensor_shape { dim { size: 4 } } int_val: 1 int_val: 2")));
  EXPECT_THAT(u.flat<int32_t>(), ElementsAre(1, 2, 2, 2));
}

TEST(TensorProtoTest, NoValuesMeansZeros) {
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor t, TensorFromProto(ParseText("dtype: DT_INT64 tensor_shape { dim { size: 3 } }")));
  EXPECT_THAT(t.flat<int64_t>(), ElementsAre(0, 0, 0));
}

TEST(TensorProtoTest, TensorContentIsLittleEndianRowMajor) {
  // int32 [2,1] as TensorFlow writes it: bytes 02 00 00 00 01 00 00 00.
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor t,
      TensorFromProto(ParseText("dtype: DT_INT32 tensor_shape { dim { size: 2 } dim { size: 1 } } "
                                "tensor_content: \"\\002\\000\\000\\000\\001\\000\\000\\000\"")));
  EXPECT_THAT(t.flat<int32_t>(), ElementsAre(2, 1));
}

TEST(TensorProtoTest, EveryDtypeRoundTripsBothEncodings) {
  std::vector<Tensor> tensors = {
      Tensor::FromVector<float>({1.5f, -2}, TensorShape({2})),
      Tensor::FromVector<double>({1e300, 3}, TensorShape({2})),
      Tensor::FromVector<int8_t>({-128, 127}, TensorShape({2})),
      Tensor::FromVector<int16_t>({-3, 4}, TensorShape({2})),
      Tensor::FromVector<int32_t>({7, -8}, TensorShape({1, 2})),
      Tensor::FromVector<int64_t>({std::numeric_limits<int64_t>::min(), 9}, TensorShape({2})),
      Tensor::FromVector<uint8_t>({0, 255}, TensorShape({2})),
      Tensor::FromVector<uint16_t>({65535, 1}, TensorShape({2})),
      Tensor::FromVector<uint32_t>({4000000000u, 1}, TensorShape({2})),
      Tensor::FromVector<uint64_t>({18000000000000000000ull, 1}, TensorShape({2})),
      Tensor::FromVector<bool>({true, false}, TensorShape({2})),
      Tensor::FromVector<half>({half(1.5f), half(-0.25f)}, TensorShape({2})),
      Tensor::FromVector<bfloat16>({bfloat16(2.0f), bfloat16(-8.0f)}, TensorShape({2})),
      Tensor::FromVector<complex64>({complex64(1, 2), complex64(-3, 4)}, TensorShape({2})),
      Tensor::FromVector<complex128>({complex128(5, 6), complex128(7, -8)}, TensorShape({2})),
      Tensor::FromVector<std::string>({"a", std::string("b\0c", 3)}, TensorShape({2})),
  };
  for (const Tensor& t : tensors) {
    for (bool content : {true, false}) {
      TensorProto p;
      TensorToProto(t, &p, content);
      RILL_ASSERT_OK_AND_ASSIGN(Tensor back, TensorFromProto(p));
      EXPECT_EQ(back.dtype(), t.dtype());
      EXPECT_EQ(back.shape(), t.shape());
      EXPECT_EQ(back.DebugString(), t.DebugString()) << DataTypeString(t.dtype());
      if (t.dtype() == DT_STRING) {
        EXPECT_EQ(back.flat<std::string>()[1], std::string("b\0c", 3));
      }
    }
  }
}

TEST(TensorProtoTest, ContentSizeMismatchIsInvalidArgument) {
  EXPECT_THAT(TensorFromProto(ParseText("dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
                                        "tensor_content: \"abc\"")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "TensorProto tensor_content has 3 bytes but shape [2] of float needs 8"));
}

TEST(TensorProtoTest, VariantIsRefusedNotMemcopied) {
  EXPECT_THAT(TensorFromProto(ParseText("dtype: DT_VARIANT tensor_shape { dim { size: 1 } } "
                                        "tensor_content: \"abcdefghabcdefgh\"")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("TensorProto of dtype variant is not supported")));
}

TEST(TensorProtoTest, NegativeDimIsInvalidArgument) {
  EXPECT_THAT(TensorFromProto(ParseText("dtype: DT_FLOAT tensor_shape { dim { size: -3 } }")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "TensorProto has an invalid shape: Dimension -3 must be >= 0 in shape "
                       "[-3]"));
}

TEST(TensorProtoTest, MoreValuesThanElementsIsInvalidArgument) {
  EXPECT_THAT(
      TensorFromProto(ParseText("dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1 "
                                "int_val: 2")),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "TensorProto has 2 values in int_val but its shape holds only 1 elements"));
}

TEST(TensorProtoTest, UnknownOrUnsupportedDtypeIsInvalidArgument) {
  TensorProto p;
  p.set_dtype(static_cast<DataType>(77));
  EXPECT_THAT(TensorFromProto(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("unsupported dtype unknown dtype 77")));
  p.set_dtype(DT_FLOAT_REF);
  EXPECT_THAT(TensorFromProto(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("unsupported dtype float_ref")));
  p.set_dtype(DT_INVALID);
  EXPECT_THAT(TensorFromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unsupported dtype")));
}

// As TensorFlow writes them: tensor_content (tf.constant of a quint8 array) or int_val, each
// value truncated to the dtype's bits; padded with the last value like the other dtypes.
TEST(TensorProtoTest, QuantizedDtypesReadContentAndIntVal) {
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor u8, TensorFromProto(ParseText("dtype: DT_QUINT8 tensor_shape { dim { size: 3 } } "
                                           "tensor_content: \"\\001\\002\\377\"")));
  EXPECT_EQ(u8.dtype(), DT_QUINT8);
  EXPECT_EQ(u8.flat<quint8>()[2].value, 255);
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor q16, TensorFromProto(ParseText("dtype: DT_QINT16 tensor_shape { dim { size: 3 } } "
                                            "int_val: -2 int_val: 65537")));
  EXPECT_EQ(q16.flat<qint16>()[0].value, -2);
  EXPECT_EQ(q16.flat<qint16>()[1].value, 1);
  EXPECT_EQ(q16.flat<qint16>()[2].value, 1);
  for (bool content : {false, true}) {
    Tensor q32(DT_QINT32, TensorShape({2}));
    q32.flat<qint32>()[0] = qint32(-7);
    q32.flat<qint32>()[1] = qint32(2147483647);
    TensorProto p;
    TensorToProto(q32, &p, content);
    EXPECT_EQ(p.dtype(), DT_QINT32);
    EXPECT_EQ(p.int_val_size(), content ? 0 : 2);
    EXPECT_TRUE(TensorProtoValuesFit(p));
    RILL_ASSERT_OK_AND_ASSIGN(Tensor back, TensorFromProto(p));
    EXPECT_EQ(back.flat<qint32>()[0].value, -7);
    EXPECT_EQ(back.flat<qint32>()[1].value, 2147483647);
  }
}

TEST(TensorProtoTest, OverflowingShapeIsInvalidArgument) {
  EXPECT_THAT(TensorFromProto(ParseText("dtype: DT_FLOAT tensor_shape { dim { size: 4294967296 } "
                                        "dim { size: 4294967296 } }")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
}

TEST(TensorProtoTest, HugeButValidShapeFailsAllocationCleanly) {
  // 2^40 floats: a valid shape that no host can hold. Must fail, not crash.
  EXPECT_THAT(
      TensorFromProto(ParseText("dtype: DT_FLOAT tensor_shape { dim { size: 1099511627776 } }")),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("OOM")));
}

TEST(TensorProtoTest, OddComplexListAndStringContentRejected) {
  EXPECT_THAT(TensorFromProto(ParseText("dtype: DT_COMPLEX64 tensor_shape { dim { size: 1 } } "
                                        "scomplex_val: 1")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("odd number of values (1)")));
  EXPECT_THAT(TensorFromProto(ParseText("dtype: DT_STRING tensor_shape { dim { size: 1 } } "
                                        "tensor_content: \"x\"")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "TensorProto of dtype string must use string_val, not tensor_content"));
}

// Found by tests/fuzz:tensor_proto_fuzzer (UBSan: "load of value 251, which is not a valid value
// for type 'const bool'"): bool tensor_content bytes other than 0 and 1 are refused, as
// TensorFlow 2.21's Tensor::FromProto refuses them ("Cannot parse tensor from proto").
TEST(TensorProtoTest, BoolTensorContentBytesOtherThanZeroAndOneAreRefused) {
  const TensorProto bad = ParseText(
      "dtype: DT_BOOL tensor_shape { dim { size: 3 } } tensor_content: \"\\000\\001\\373\"");
  EXPECT_THAT(TensorFromProto(bad),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Cannot parse tensor from proto: tensor_content byte 2 of a "
                                 "bool tensor is 251 (a bool must be 0 or 1)")));
  EXPECT_FALSE(TensorProtoValuesFit(bad));
  const TensorProto good = ParseText(
      "dtype: DT_BOOL tensor_shape { dim { size: 3 } } tensor_content: \"\\001\\000\\001\"");
  RILL_ASSERT_OK_AND_ASSIGN(Tensor t, TensorFromProto(good));
  EXPECT_THAT(t.flat<bool>(), ElementsAre(true, false, true));
  EXPECT_TRUE(TensorProtoValuesFit(good));
}

// Issue 26 (found by graph_modes_fuzzer): the check Const's shape function makes, so that the
// optimizer does not fold Shape of a Const the kernel refuses. Exactly TensorFromProto's verdict,
// without allocating (2^40 floats with one value fit).
TEST(TensorProtoTest, ValuesFitAgreesWithTensorFromProto) {
  for (const char* text : {
           "dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1",
           "dtype: DT_FLOAT tensor_shape { dim { size: 0 } } float_val: 1",
           "dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1 int_val: 2",
           "dtype: DT_INT32 tensor_shape { dim { size: 2 } } tensor_content: \"\\001\\000\"",
           "dtype: DT_INT32 tensor_shape { dim { size: 1 } } tensor_content: "
           "\"\\001\\000\\000\\000\"",
           "dtype: DT_COMPLEX64 tensor_shape { dim { size: 1 } } scomplex_val: 1",
           "dtype: DT_STRING tensor_shape { dim { size: 1 } } string_val: \"a\" string_val: \"b\"",
           "dtype: DT_STRING tensor_shape {} string_val: \"a\"",
           "dtype: DT_VARIANT tensor_shape {}",
       }) {
    EXPECT_EQ(TensorProtoValuesFit(ParseText(text)), TensorFromProto(ParseText(text)).ok()) << text;
  }
  EXPECT_TRUE(TensorProtoValuesFit(
      ParseText("dtype: DT_FLOAT tensor_shape { dim { size: 1099511627776 } } float_val: 1")));
  EXPECT_FALSE(TensorProtoValuesFit(ParseText(
      "dtype: DT_FLOAT tensor_shape { dim { size: 4611686018427387904 } } tensor_content: \"x\"")));
}

}  // namespace
}  // namespace rill
