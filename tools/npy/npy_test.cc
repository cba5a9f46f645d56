#include "tools/npy/npy.h"

#include <fstream>
#include <sstream>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Tensor Read(const std::string& name) {
  absl::StatusOr<Tensor> t = ReadNpy("tools/npy/testdata/" + name + ".npy");
  EXPECT_THAT(t, IsOk()) << name;
  return t.ok() ? *t : Tensor();
}

std::string FileBytes(const std::string& name) {
  std::ifstream in("tools/npy/testdata/" + name + ".npy", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(NpyTest, ReadsEveryNumericDtypeNumpyWrote) {
  Tensor f4 = Read("f4_2x3");
  EXPECT_EQ(f4.shape(), TensorShape({2, 3}));
  EXPECT_THAT(f4.flat<float>(), ElementsAre(1.5, -2, 3, 4, 5, 6.25));
  Tensor f8 = Read("f8_scalar");
  EXPECT_EQ(f8.shape().rank(), 0);
  EXPECT_EQ(f8.flat<double>()[0], 3.25);
  EXPECT_EQ(static_cast<float>(Read("f2").flat<half>()[1]), -0.25f);
  EXPECT_THAT(Read("i1").flat<int8_t>(), ElementsAre(-128, 127));
  EXPECT_THAT(Read("i2").flat<int16_t>(), ElementsAre(-3, 4));
  EXPECT_EQ(Read("i4_0x3").shape(), TensorShape({0, 3}));
  EXPECT_THAT(Read("i8").flat<int64_t>(), ElementsAre(INT64_MIN, 9));
  EXPECT_THAT(Read("u1").flat<uint8_t>(), ElementsAre(0, 255));
  EXPECT_THAT(Read("u2").flat<uint16_t>(), ElementsAre(65535, 1));
  EXPECT_THAT(Read("u4").flat<uint32_t>(), ElementsAre(4000000000u, 1));
  EXPECT_THAT(Read("u8").flat<uint64_t>(), ElementsAre(18000000000000000000ull, 1));
  EXPECT_THAT(Read("b1").flat<bool>(), ElementsAre(true, false));
  EXPECT_THAT(Read("c8").flat<complex64>(), ElementsAre(complex64(1, 2), complex64(-3, 4)));
  EXPECT_THAT(Read("c16").flat<complex128>(), ElementsAre(complex128(5, 6), complex128(7, -8)));
  EXPECT_THAT(Read("v2_f4").flat<float>(), ElementsAre(7, 8));
}

TEST(NpyTest, BigEndianAndFortranOrderAreConverted) {
  EXPECT_THAT(Read("be_f4").flat<float>(), ElementsAre(1.5, -2));
  EXPECT_THAT(Read("be_i8").flat<int64_t>(), ElementsAre(1, -2));
  Tensor f = Read("fortran_2x3");
  EXPECT_EQ(f.shape(), TensorShape({2, 3}));
  EXPECT_THAT(f.flat<int32_t>(), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(NpyTest, UnicodeAndBytesStringsBecomeUtf8) {
  EXPECT_THAT(Read("unicode").flat<std::string>(), ElementsAre("h\xc3\xa9llo", "x"));
  EXPECT_THAT(Read("bytes").flat<std::string>(), ElementsAre("ab", "c"));
}

TEST(NpyTest, WritesByteIdenticalToNumpy) {
  for (const char* name : {"f4_2x3", "f8_scalar", "f2", "i2", "i4_0x3", "i8", "u2", "u4", "u8",
                           "b1", "c8", "c16", "bytes"}) {
    RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, SerializeNpy(Read(name)));
    EXPECT_EQ(bytes, FileBytes(name)) << name;
  }
}

TEST(NpyTest, MalformedFilesAreInvalidArgument) {
  EXPECT_THAT(ParseNpy("hello", "x.npy"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "x.npy is not a valid .npy file: missing the \\x93NUMPY magic"));
  std::string good = FileBytes("f4_2x3");
  EXPECT_THAT(ParseNpy(good.substr(0, good.size() - 1), "t.npy"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("data has 23 bytes but shape (2, 3) of '<f4' needs 24")));
  EXPECT_THAT(ParseNpy(good.substr(0, 20), "t.npy"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("truncated header")));
  EXPECT_THAT(ReadNpy("/no/such.npy"),
              StatusIs(absl::StatusCode::kNotFound, ".npy file /no/such.npy cannot be read"));
  Tensor bf(DT_BFLOAT16, TensorShape({1}));
  EXPECT_THAT(SerializeNpy(bf), StatusIs(absl::StatusCode::kUnimplemented,
                                         HasSubstr("dtype bfloat16 as .npy")));
}

}  // namespace
}  // namespace rill
