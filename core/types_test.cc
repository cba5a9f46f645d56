#include "core/types.h"

#include <cmath>
#include <limits>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(TypesTest, NamesMatchTensorFlowIncludingRefs) {
  EXPECT_EQ(DataTypeString(DT_FLOAT), "float");
  EXPECT_EQ(DataTypeString(DT_FLOAT_REF), "float_ref");
  EXPECT_EQ(DataTypeString(DT_HALF), "half");
  EXPECT_EQ(DataTypeString(DT_RESOURCE), "resource");
  EXPECT_EQ(DataTypeString(static_cast<DataType>(77)), "unknown dtype 77");
  EXPECT_EQ(DataTypeListString({DT_INT32, DT_BOOL}), "int32, bool");
}

TEST(TypesTest, FromStringIsInverseAndRejectsUnknown) {
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_UINT8, DT_BFLOAT16, DT_STRING, DT_COMPLEX128}) {
    EXPECT_THAT(DataTypeFromString(DataTypeString(dt)), IsOkAndHolds(dt));
    EXPECT_THAT(DataTypeFromString(DataTypeString(MakeRefType(dt))), IsOkAndHolds(MakeRefType(dt)));
  }
  EXPECT_THAT(DataTypeFromString("flaot"),
              StatusIs(absl::StatusCode::kInvalidArgument, "unknown dtype name 'flaot'"));
}

TEST(TypesTest, RefTypesAndSizes) {
  EXPECT_TRUE(IsRefType(DT_INT32_REF));
  EXPECT_FALSE(IsRefType(DT_INT32));
  EXPECT_EQ(BaseType(DT_DOUBLE_REF), DT_DOUBLE);
  EXPECT_EQ(MakeRefType(DT_BOOL), DT_BOOL_REF);
  EXPECT_EQ(DataTypeSize(DT_FLOAT_REF), 4);
  EXPECT_EQ(DataTypeSize(DT_COMPLEX128), 16);
  EXPECT_EQ(DataTypeSize(DT_STRING), 0);
  EXPECT_TRUE(IsSupportedDataType(DT_STRING));
  EXPECT_FALSE(IsSupportedDataType(DT_RESOURCE));
  EXPECT_TRUE(DataTypeIsFloating(DT_BFLOAT16));
  EXPECT_TRUE(DataTypeIsInteger(DT_UINT64));
  EXPECT_FALSE(DataTypeIsInteger(DT_BOOL));
}

TEST(TypesTest, VisitDispatchesOnTheRightCppType) {
  int size = 0;
  RILL_EXPECT_OK(VisitDataType(DT_INT16_REF, [&](auto tag) {
    using T = typename decltype(tag)::type;
    size = sizeof(T);
    EXPECT_EQ(DataTypeToEnum<T>::value, DT_INT16);
    return absl::OkStatus();
  }));
  EXPECT_EQ(size, 2);
  EXPECT_THAT(VisitDataType(DT_VARIANT, [](auto) { return absl::OkStatus(); }),
              StatusIs(absl::StatusCode::kUnimplemented, "no storage type for dtype variant"));
}

TEST(HalfTest, ConvertsExactValuesSubnormalsInfAndNan) {
  EXPECT_EQ(half(1.0f).bits, 0x3c00);
  EXPECT_EQ(half(-2.0f).bits, 0xc000);
  EXPECT_EQ(half(65504.0f).bits, 0x7bff);
  EXPECT_EQ(half(1e6f).bits, 0x7c00);           // overflow -> inf
  EXPECT_EQ(half(5.9604645e-8f).bits, 0x0001);  // smallest subnormal
  EXPECT_EQ(static_cast<float>(half::FromBits(0x0001)), 5.9604645e-8f);
  EXPECT_TRUE(std::isnan(static_cast<float>(half(std::nanf("")))));
  EXPECT_EQ(static_cast<float>(half(0.1f)), 0.0999755859375f);  // round to nearest
  for (uint32_t b = 0; b < 0x7c00; ++b) {  // every finite positive half round-trips
    ASSERT_EQ(half(static_cast<float>(half::FromBits(b))).bits, b) << b;
  }
}

TEST(Bfloat16Test, RoundsToNearestEven) {
  EXPECT_EQ(bfloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(static_cast<float>(bfloat16(3.140625f)), 3.140625f);
  EXPECT_EQ(bfloat16(1.00390625f).bits, 0x3f80);  // halfway, rounds to even
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16(std::nanf("")))));
}

}  // namespace
}  // namespace rill
