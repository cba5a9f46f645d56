#include "core/tensor.h"

#include <cstdint>
#include <limits>

#include "core/quantized_types.h"
#include "core/status_matchers.h"
#include "core/variant.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TensorTest, AllocateZeroesAndAligns) {
  RILL_ASSERT_OK_AND_ASSIGN(Tensor t, Tensor::Allocate(CpuAllocator::Default(), DT_FLOAT, {2, 3}));
  EXPECT_EQ(t.dtype(), DT_FLOAT);
  EXPECT_EQ(t.NumElements(), 6);
  EXPECT_EQ(t.TotalBytes(), 24u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.raw_data()) % kTensorAlignment, 0u);
  EXPECT_THAT(t.flat<float>(), ElementsAre(0, 0, 0, 0, 0, 0));
}

TEST(TensorTest, CopiesShareTheBufferAndFreeItOnce) {
  CpuAllocator alloc;
  {
    RILL_ASSERT_OK_AND_ASSIGN(Tensor t, Tensor::Allocate(&alloc, DT_INT32, {4}));
    Tensor u = t;
    EXPECT_TRUE(u.SharesBufferWith(t));
    u.flat<int32_t>()[2] = 9;
    EXPECT_EQ(t.flat<int32_t>()[2], 9);
    RILL_ASSERT_OK_AND_ASSIGN(Tensor d, t.DeepCopy());
    EXPECT_FALSE(d.SharesBufferWith(t));
    d.flat<int32_t>()[2] = 1;
    EXPECT_EQ(t.flat<int32_t>()[2], 9);
    EXPECT_EQ(alloc.GetStats().bytes_in_use, 32);
  }
  EXPECT_EQ(alloc.GetStats().bytes_in_use, 0);
}

TEST(TensorTest, OutOfMemoryIsResourceExhaustedNamingShapeAndAllocator) {
  CpuAllocator small(/*bytes_limit=*/16);
  EXPECT_THAT(Tensor::Allocate(&small, DT_DOUBLE, {10}),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       "OOM when allocating tensor with shape[10] and type double on "
                       "allocator cpu (80 bytes)"));
}

TEST(TensorTest, StringsAreConstructedAndDeepCopied) {
  Tensor t(DT_STRING, TensorShape({2}));
  t.flat<std::string>()[0] = "hello";
  RILL_ASSERT_OK_AND_ASSIGN(Tensor d, t.DeepCopy());
  t.flat<std::string>()[0] = "bye";
  EXPECT_THAT(d.flat<std::string>(), ElementsAre("hello", ""));
}

class Note final : public VariantValue {
 public:
  explicit Note(int* alive) : alive_(alive) { ++*alive_; }
  ~Note() override { --*alive_; }
  std::string TypeName() const override { return "Note"; }
  std::string DebugString() const override { return "a note"; }

 private:
  int* alive_;
};

TEST(TensorTest, VariantsAreSharedHandlesFreedWithTheLastTensor) {
  int alive = 0;
  {
    Tensor t(DT_VARIANT, TensorShape({2}));
    EXPECT_TRUE(t.flat<Variant>()[0].empty());
    t.flat<Variant>()[1] = Variant(std::make_shared<const Note>(&alive));
    EXPECT_EQ(alive, 1);
    RILL_ASSERT_OK_AND_ASSIGN(Tensor copy, t.DeepCopy());
    EXPECT_FALSE(copy.SharesBufferWith(t));
    EXPECT_EQ(copy.flat<Variant>()[1].get<Note>(), t.flat<Variant>()[1].get<Note>());
    EXPECT_EQ(alive, 1);  // the value is shared, not copied
    EXPECT_EQ(copy.flat<Variant>()[1].TypeName(), "Note");
    EXPECT_EQ(copy.flat<Variant>()[0].get<Note>(), nullptr);
  }
  EXPECT_EQ(alive, 0);
}

TEST(TensorTest, ReshapedSharesBufferAndChecksCount) {
  Tensor t = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor r, t.Reshaped(TensorShape({3, 2})));
  EXPECT_TRUE(r.SharesBufferWith(t));
  EXPECT_EQ(r.shape(), TensorShape({3, 2}));
  EXPECT_THAT(t.Reshaped(TensorShape({4})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Cannot reshape a tensor with 6 elements to shape [4] (4 elements)"));
}

TEST(TensorTest, DebugStringShowsNestedValues) {
  Tensor t = Tensor::FromVector<float>({22, 28, 49, 64}, TensorShape({2, 2}));
  EXPECT_EQ(t.DebugString(), "Tensor<type: float shape: [2,2] values: [22 28][49 64]>");
  EXPECT_EQ(Tensor::Scalar<int64_t>(5).DebugString(), "Tensor<type: int64 shape: [] values: 5>");
  Tensor big = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6, 7, 8}, TensorShape({8}));
  EXPECT_EQ(big.SummarizeValues(3), "1 2 3...");
}

TEST(TensorTest, UnsupportedDtypeIsInvalidArgument) {
  EXPECT_THAT(Tensor::Allocate(CpuAllocator::Default(), DT_FLOAT8_E5M2, {1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Cannot allocate a tensor of dtype float8_e5m2")));
}

TEST(TensorTest, QuantizedDtypesHoldTheirIntegersAndPrintThem) {
  Tensor q8(DT_QINT8, TensorShape({3}));
  EXPECT_EQ(q8.TotalBytes(), 3u);
  q8.flat<qint8>()[0] = qint8(-128);
  q8.flat<qint8>()[1] = qint8(0);
  q8.flat<qint8>()[2] = qint8(127);
  EXPECT_EQ(q8.DebugString(), "Tensor<type: qint8 shape: [3] values: -128 0 127>");
  Tensor u8(DT_QUINT8, TensorShape({2, 2}));
  for (int i = 0; i < 4; ++i) u8.flat<quint8>()[i] = quint8(static_cast<uint8_t>(250 + i));
  EXPECT_EQ(u8.SummarizeValues(10), "[250 251][252 253]");
  EXPECT_EQ(u8.SummarizeValuesV2(10), "[[250 251]\n [252 253]]");
  Tensor q32(DT_QINT32, TensorShape({}));
  q32.flat<qint32>()[0] = qint32(-2147483647 - 1);
  EXPECT_EQ(q32.SummarizeValues(3), "-2147483648");
  EXPECT_EQ(Tensor(DT_QUINT16, TensorShape({2})).TotalBytes(), 4u);
  EXPECT_EQ(Tensor(DT_QINT16, TensorShape({2})).SummarizeValues(3), "0 0");
}

TEST(TensorTest, FromVectorFillsInRowMajorOrder) {
  Tensor t = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  EXPECT_EQ(t.shape(), TensorShape({2, 3}));
  EXPECT_THAT(std::vector<int32_t>(t.flat<int32_t>().begin(), t.flat<int32_t>().end()),
              ::testing::ElementsAre(1, 2, 3, 4, 5, 6));
}

TEST(TensorTest, FromVectorWithTheWrongCountEndsTheProcessNamingBothCounts) {
  EXPECT_DEATH(Tensor::FromVector<float>({1.f, 2.f, 3.f}, TensorShape({2, 2})),
               "Tensor::FromVector: 3 values given for shape \\[2,2\\], which holds 4");
  EXPECT_DEATH(Tensor::FromVector<float>({1.f, 2.f, 3.f, 4.f, 5.f}, TensorShape({2, 2})),
               "5 values given for shape \\[2,2\\], which holds 4");
}

TEST(TensorTest, TryFromVectorWithTheWrongCountIsInvalidArgument) {
  EXPECT_THAT(Tensor::TryFromVector<float>({1.f, 2.f, 3.f}, TensorShape({2, 2})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("3 values given for shape [2,2], which holds 4")));
  absl::StatusOr<Tensor> t = Tensor::TryFromVector<double>({7.0}, TensorShape({}));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->flat<double>()[0], 7.0);
}

TEST(TensorTest, FlatOfAnotherTypeEndsTheProcessInsteadOfReinterpreting) {
  Tensor t = Tensor::Scalar<float>(1.f);
  EXPECT_DEATH(t.flat<int32_t>(), "the tensor holds float, not int32");
  Tensor empty;
  EXPECT_DEATH(empty.flat<float>(),
               "the tensor holds no value \\(empty or moved from\\), not float");
}

TEST(TensorTest, SummarizedFloatsReadBackAsTheSameValue) {
  // TensorFlow's rule: six significant digits when they read back as the value, else nine
  // (float); fifteen, else seventeen (double).
  Tensor f = Tensor::FromVector<float>({0.952202678f, 0.5f, 1e20f, -2.25f}, TensorShape({4}));
  EXPECT_EQ(f.SummarizeValuesV2(3), "[0.952202678 0.5 1e+20 -2.25]");
  Tensor d = Tensor::FromVector<double>({0.1, 1.0 / 3}, TensorShape({2}));
  EXPECT_EQ(d.SummarizeValues(2), "0.1 0.33333333333333331");
  Tensor special = Tensor::FromVector<float>(
      {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
       std::numeric_limits<float>::quiet_NaN()},
      TensorShape({3}));
  EXPECT_EQ(special.SummarizeValues(3), "inf -inf nan");
}

TEST(TensorTest, SummarizeValuesV2QuotesAndEscapesStrings) {
  // As TensorFlow's StringFormat: quoted, C escapes, UTF-8 kept; a scalar too.
  EXPECT_EQ(Tensor::Scalar<std::string>("he\"l\nlo\xc3\xa9").SummarizeValuesV2(3),
            "\"he\\\"l\\nlo\xc3\xa9\"");
  Tensor v = Tensor::FromVector<std::string>({"a\nb", "c"}, TensorShape({2}));
  EXPECT_EQ(v.SummarizeValuesV2(3), "[\"a\\nb\" \"c\"]");
}

TEST(TensorTest, SummarizeValuesEscapesStringsWithoutQuotes) {
  // As TensorFlow's Print and Assert: C escapes, UTF-8 kept, no quotes.
  Tensor v = Tensor::FromVector<std::string>({"a\nb", "q\"\\\x01", "\xc3\xa9"}, TensorShape({3}));
  EXPECT_EQ(v.SummarizeValues(3), "a\\nb q\\\"\\\\\\001 \xc3\xa9");
  EXPECT_EQ(Tensor::Scalar<std::string>("tab\t").DebugString(),
            "Tensor<type: string shape: [] values: tab\\t>");
}

// Found by graph_modes_fuzzer (StringFormat with summarize 0): the elision jumped to element
// n - 0 and read one past the end of every dimension.
TEST(TensorTest, SummarizeValuesV2WithSummarizeZeroElidesEverything) {
  const Tensor v = Tensor::FromVector<int32_t>({-1, -1}, TensorShape({2}));
  EXPECT_EQ(v.SummarizeValuesV2(0), "[...]");
  EXPECT_EQ(v.SummarizeValuesV2(1), "[-1 -1]");
  const Tensor m = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}));
  EXPECT_EQ(m.SummarizeValuesV2(0), "[...]");
  EXPECT_EQ(m.SummarizeValuesV2(1), "[[1 2]\n ...\n [5 6]]");
}

}  // namespace
}  // namespace rill
