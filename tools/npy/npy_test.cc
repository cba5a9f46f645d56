// Tests for tools/npy: exact values read from files numpy wrote (testdata/, from
// testdata/make_npy_testdata.py), byte-identical output for the files whose header Rill
// reproduces, round trips for every dtype, and one test per failure mode.
#include "tools/npy/npy.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_matchers.h"
#include "core/tensor.h"
#include "core/types.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::absl::StatusCode;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kDir[] = "tools/npy/testdata/";

std::string TestdataPath(const std::string& name) { return absl::StrCat(kDir, name, ".npy"); }

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
}

Tensor Read(const std::string& name) {
  absl::StatusOr<Tensor> t = ReadNpy(TestdataPath(name));
  EXPECT_THAT(t, IsOk()) << name;
  return t.ok() ? *t : Tensor();
}

// A .npy file with `header` verbatim (no padding) and version `major`.0.
std::string MakeNpy(const std::string& header, const std::string& data, int major = 1) {
  std::string out("\x93NUMPY", 6);
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  const int len_bytes = major == 1 ? 2 : 4;
  for (int i = 0; i < len_bytes; ++i) {
    out.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xFF));
  }
  return out + header + data;
}

template <typename T>
std::vector<T> Values(const Tensor& t) {
  auto f = t.flat<T>();
  return std::vector<T>(f.begin(), f.end());
}
std::vector<uint16_t> HalfBits(const Tensor& t) {
  std::vector<uint16_t> bits;
  for (half h : t.flat<half>()) bits.push_back(h.bits);
  return bits;
}

// --- Files numpy wrote ----------------------------------------------------------------------

TEST(NpyReadTest, EveryDtypeNumpyWrote) {
  Tensor f2 = Read("f2");
  EXPECT_EQ(f2.dtype(), DT_HALF);
  // 1, -2.5, 65504 (max), 2^-14 (min normal), 2^-24 (min subnormal), inf, -0.
  EXPECT_THAT(HalfBits(f2), ElementsAre(0x3C00, 0xC100, 0x7BFF, 0x0400, 0x0001, 0x7C00, 0x8000));

  Tensor f4 = Read("f4_2x3");
  EXPECT_EQ(f4.dtype(), DT_FLOAT);
  EXPECT_EQ(f4.shape(), TensorShape({2, 3}));
  EXPECT_THAT(Values<float>(f4), ElementsAre(1.5f, -2.0f, 3.25f, std::numeric_limits<float>::max(),
                                             std::numeric_limits<float>::denorm_min(),
                                             -std::numeric_limits<float>::infinity()));

  Tensor f8 = Read("f8");
  EXPECT_EQ(f8.dtype(), DT_DOUBLE);
  EXPECT_THAT(Values<double>(f8),
              ElementsAre(1e300, -std::numeric_limits<double>::denorm_min(), 0.1));

  Tensor i1 = Read("i1");
  EXPECT_EQ(i1.dtype(), DT_INT8);
  EXPECT_THAT(Values<int8_t>(i1), ElementsAre(-128, 127, 0, -1));
  Tensor i2 = Read("i2");
  EXPECT_EQ(i2.dtype(), DT_INT16);
  EXPECT_THAT(Values<int16_t>(i2), ElementsAre(-32768, 32767, 7));
  Tensor i4 = Read("i4");
  EXPECT_EQ(i4.dtype(), DT_INT32);
  EXPECT_EQ(i4.shape(), TensorShape({2, 2}));
  EXPECT_THAT(Values<int32_t>(i4), ElementsAre(std::numeric_limits<int32_t>::min(),
                                               std::numeric_limits<int32_t>::max(), 0, -7));
  Tensor i8 = Read("i8");
  EXPECT_EQ(i8.dtype(), DT_INT64);
  EXPECT_THAT(Values<int64_t>(i8),
              ElementsAre(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                          (int64_t{1} << 40) + 3));
  Tensor u1 = Read("u1");
  EXPECT_EQ(u1.dtype(), DT_UINT8);
  EXPECT_THAT(Values<uint8_t>(u1), ElementsAre(0, 255, 17));
  Tensor u2 = Read("u2");
  EXPECT_EQ(u2.dtype(), DT_UINT16);
  EXPECT_THAT(Values<uint16_t>(u2), ElementsAre(0, 65535, 300));
  Tensor u4 = Read("u4");
  EXPECT_EQ(u4.dtype(), DT_UINT32);
  EXPECT_THAT(Values<uint32_t>(u4), ElementsAre(0u, 4294967295u, 70000u));
  Tensor u8 = Read("u8");
  EXPECT_EQ(u8.dtype(), DT_UINT64);
  EXPECT_THAT(Values<uint64_t>(u8),
              ElementsAre(0u, std::numeric_limits<uint64_t>::max(), uint64_t{1} << 63));
  Tensor b1 = Read("b1");
  EXPECT_EQ(b1.dtype(), DT_BOOL);
  EXPECT_EQ(b1.shape(), TensorShape({2, 3}));
  EXPECT_THAT(Values<bool>(b1), ElementsAre(true, false, true, false, false, true));

  Tensor c8 = Read("c8");
  EXPECT_EQ(c8.dtype(), DT_COMPLEX64);
  EXPECT_THAT(Values<complex64>(c8), ElementsAre(complex64(1, 2), complex64(-3.5f, -0.25f)));
  Tensor c16 = Read("c16");
  EXPECT_EQ(c16.dtype(), DT_COMPLEX128);
  EXPECT_THAT(Values<complex128>(c16),
              ElementsAre(complex128(1e100, -2.5e-100), complex128(-7, 0.5)));
}

TEST(NpyReadTest, ScalarsAndZeroSize) {
  Tensor f8 = Read("f8_scalar");
  EXPECT_EQ(f8.dtype(), DT_DOUBLE);
  EXPECT_EQ(f8.shape().rank(), 0);
  EXPECT_THAT(Values<double>(f8), ElementsAre(3.141592653589793));
  Tensor i4 = Read("i4_scalar");
  EXPECT_EQ(i4.shape().rank(), 0);
  EXPECT_THAT(Values<int32_t>(i4), ElementsAre(-42));
  Tensor empty = Read("f4_0x3");
  EXPECT_EQ(empty.dtype(), DT_FLOAT);
  EXPECT_EQ(empty.shape(), TensorShape({0, 3}));
  EXPECT_EQ(empty.NumElements(), 0);
  Tensor long_dim0 = Read("pad_long_dim0");
  EXPECT_EQ(long_dim0.shape(), TensorShape({123456789012, 0}));
}

TEST(NpyReadTest, BigEndianIsSwappedToLittleEndian) {
  EXPECT_THAT(Values<float>(Read("be_f4")), ElementsAre(1.5f, -2.0f, 1e10f));
  EXPECT_THAT(Values<int64_t>(Read("be_i8")), ElementsAre(1, -2, (int64_t{1} << 40) + 5));
  EXPECT_THAT(Values<uint16_t>(Read("be_u2")), ElementsAre(0x1234, 0xFF00));
  EXPECT_THAT(Values<complex64>(Read("be_c8")), ElementsAre(complex64(1, 2), complex64(-0.5f, 4)));
  EXPECT_THAT(HalfBits(Read("be_f2")), ElementsAre(0x3C00, 0xC100));
}

TEST(NpyReadTest, FortranOrderIsTransposedToCOrder) {
  Tensor f = Read("fortran_2x3");
  EXPECT_EQ(f.dtype(), DT_INT32);
  EXPECT_EQ(f.shape(), TensorShape({2, 3}));
  EXPECT_THAT(Values<int32_t>(f), ElementsAre(0, 1, 2, 3, 4, 5));

  Tensor f3 = Read("fortran_2x3x4");
  EXPECT_EQ(f3.shape(), TensorShape({2, 3, 4}));
  std::vector<double> want(24);
  for (int i = 0; i < 24; ++i) want[i] = i;
  EXPECT_EQ(Values<double>(f3), want);

  Tensor be = Read("fortran_be_u2");  // Fortran order and big-endian together
  EXPECT_EQ(be.shape(), TensorShape({3, 2}));
  EXPECT_THAT(Values<uint16_t>(be), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(NpyReadTest, UnicodeBecomesUtf8) {
  Tensor u = Read("unicode");
  EXPECT_EQ(u.dtype(), DT_STRING);
  EXPECT_THAT(Values<std::string>(u), ElementsAre("h\xc3\xa9llo", "", "\xe6\x97\xa5\xe6\x9c\xac",
                                                  "\xf0\x9f\x98\x80x", std::string("a\0b", 3)));
  EXPECT_THAT(Values<std::string>(Read("be_unicode")), ElementsAre("ab", "\xc3\xbc"));
}

TEST(NpyReadTest, BytesLoseTrailingNulsOnly) {
  Tensor b = Read("bytes");
  EXPECT_EQ(b.dtype(), DT_STRING);
  EXPECT_THAT(Values<std::string>(b), ElementsAre("ab", "", "abcd", std::string("a\0b", 3)));
  Tensor b2 = Read("bytes_2x2");
  EXPECT_EQ(b2.shape(), TensorShape({2, 2}));
  EXPECT_THAT(Values<std::string>(b2), ElementsAre("x", "yz", "\xff", ""));
}

TEST(NpyReadTest, FormatVersions2And3) {
  ASSERT_EQ(FileBytes(TestdataPath("v2_f4"))[6], 2);
  ASSERT_EQ(FileBytes(TestdataPath("v3_i2"))[6], 3);
  EXPECT_THAT(Values<float>(Read("v2_f4")), ElementsAre(7.0f, 8.5f));
  Tensor v3 = Read("v3_i2");
  EXPECT_EQ(v3.shape(), TensorShape({2, 2}));
  EXPECT_THAT(Values<int16_t>(v3), ElementsAre(1, -2, 3, -4));
}

TEST(NpyReadTest, RefusedDtypes) {
  EXPECT_THAT(ReadNpy(TestdataPath("object")),
              StatusIs(StatusCode::kInvalidArgument,
                       AllOf(StartsWith(TestdataPath("object")), HasSubstr("'|O'"),
                             HasSubstr("object array"), HasSubstr("fixed-width dtype"))));
  EXPECT_THAT(
      ReadNpy(TestdataPath("void2")),
      StatusIs(StatusCode::kUnimplemented, AllOf(HasSubstr("dtype '|V2'"), HasSubstr("bfloat16"))));
  EXPECT_THAT(ReadNpy(TestdataPath("structured")),
              StatusIs(StatusCode::kUnimplemented, HasSubstr("structured dtypes")));
  EXPECT_THAT(
      ReadNpy(TestdataPath("datetime")),
      StatusIs(StatusCode::kUnimplemented, AllOf(HasSubstr("'<M8[D]'"), HasSubstr("datetime64"))));
}

// --- Byte-identical to numpy --------------------------------------------------------------------

TEST(NpyWriteTest, ByteIdenticalToNumpy) {
  for (const char* name :
       {"f2", "f4_2x3", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "b1", "c8", "c16",
        "f8_scalar", "i4_scalar", "f4_0x3", "bytes", "bytes_2x2",
        // Headers ending 2 and 1 bytes before a 64-byte boundary, on it, 1 byte past it, and one
        // with an 12-digit first dim (fewer spare spaces).
        "pad_62", "pad_63", "pad_00", "pad_01", "pad_long_dim0"}) {
    SCOPED_TRACE(name);
    Tensor t = Read(name);
    RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, SerializeNpy(t));
    EXPECT_EQ(bytes, FileBytes(TestdataPath(name)));
    const std::string path = TempPath(absl::StrCat(name, ".npy"));
    RILL_ASSERT_OK(WriteNpy(path, t));
    EXPECT_EQ(FileBytes(path), FileBytes(TestdataPath(name)));
  }
}

TEST(NpyWriteTest, HeaderLayout) {
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, SerializeNpy(Tensor(DT_FLOAT, TensorShape({2, 3}))));
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  EXPECT_EQ(bytes.size(), 128 + 24);
  EXPECT_EQ(bytes[127], '\n');
  EXPECT_EQ(static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8, 118);
}

// session.run returns a quantized output as numpy's plain integers (quint8 as uint8, qint32 as
// int32), so that is what --output_dir writes.
TEST(NpyWriteTest, QuantizedDtypesAreWrittenAsTheirIntegers) {
  Tensor q(DT_QUINT8, TensorShape({2}));
  q.flat<quint8>()[0] = quint8(7);
  q.flat<quint8>()[1] = quint8(255);
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, SerializeNpy(q));
  EXPECT_THAT(bytes, HasSubstr("'descr': '|u1'"));
  EXPECT_EQ(bytes.substr(bytes.size() - 2), std::string("\x07\xff", 2));
  RILL_ASSERT_OK_AND_ASSIGN(bytes, SerializeNpy(Tensor(DT_QINT32, TensorShape({1}))));
  EXPECT_THAT(bytes, HasSubstr("'descr': '<i4'"));
  RILL_ASSERT_OK_AND_ASSIGN(bytes, SerializeNpy(Tensor(DT_QINT16, TensorShape({1}))));
  EXPECT_THAT(bytes, HasSubstr("'descr': '<i2'"));
}

TEST(NpyWriteTest, StringsAreWrittenAsBytesOfTheLongestLength) {
  Tensor t(DT_STRING, TensorShape({3}));
  t.flat<std::string>()[0] = "a";
  t.flat<std::string>()[1] = "h\xc3\xa9llo";  // UTF-8 bytes go out as they are
  t.flat<std::string>()[2] = "";
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, SerializeNpy(t));
  EXPECT_THAT(bytes, HasSubstr("'descr': '|S6'"));
  EXPECT_EQ(bytes.substr(bytes.size() - 18),
            std::string("a\0\0\0\0\0h\xc3\xa9llo\0\0\0\0\0\0", 18));

  Tensor empty(DT_STRING, TensorShape({2}));  // all empty: '|S1', as numpy makes 'S0'
  RILL_ASSERT_OK_AND_ASSIGN(bytes, SerializeNpy(empty));
  EXPECT_THAT(bytes, HasSubstr("'descr': '|S1'"));
  EXPECT_EQ(bytes.substr(bytes.size() - 2), std::string("\0\0", 2));
}

TEST(NpyParseTest, RankAbove254IsInvalidArgument) {
  Tensor t254(DT_INT32, TensorShape::FromDims(std::vector<int64_t>(254, 1)).value());
  t254.flat<int32_t>()[0] = 5;
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, SerializeNpy(t254));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor back, ParseNpy(bytes));
  EXPECT_EQ(back.shape().rank(), 254);
  // No Tensor has rank 255 (TensorShape refuses it): the file is written by hand.
  std::string shape255;
  for (int i = 0; i < 255; ++i) absl::StrAppend(&shape255, "1, ");
  bytes =
      MakeNpy(absl::StrCat("{'descr': '<i4', 'fortran_order': False, 'shape': (", shape255, "), }"),
              std::string(4, '\0'));
  const std::string path = TempPath("rank255.npy");
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_THAT(ReadNpy(path),
              StatusIs(StatusCode::kInvalidArgument,
                       HasSubstr("is not a valid .npy file: 'shape' has rank 255, more than 254 "
                                 "(TensorFlow's limit on a shape's rank)")));
}

TEST(NpyFileTest, ReadsAreBoundedByTheHeader) {
  // /dev/zero is refused after its first bytes, not read forever.
  EXPECT_THAT(ReadNpy("/dev/zero"),
              StatusIs(StatusCode::kInvalidArgument, HasSubstr("/dev/zero is not a valid .npy "
                                                               "file: bad magic")));
  // A header promising 4 TB on a small file: refused from the file size, nothing allocated.
  const std::string path = TempPath("huge_claim.npy");
  std::ofstream(path, std::ios::binary)
      << MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }", "abcd");
  EXPECT_THAT(ReadNpy(path), StatusIs(StatusCode::kInvalidArgument,
                                      HasSubstr("data is 4 bytes but shape (1000000000000,) of "
                                                "'<f4' needs 4000000000000 bytes")));
  // A header length field past 1 MiB.
  std::string big("\x93NUMPY\x02\x00\x00\x00\x00\x10", 12);
  std::ofstream(TempPath("big_header.npy"), std::ios::binary) << big;
  EXPECT_THAT(ReadNpy(TempPath("big_header.npy")),
              StatusIs(StatusCode::kInvalidArgument,
                       HasSubstr("its header length field says 268435456 bytes")));
}

TEST(NpyWriteTest, RefusesBfloat16AndUninitialized) {
  Tensor bf(DT_BFLOAT16, TensorShape({1}));
  EXPECT_THAT(SerializeNpy(bf),
              StatusIs(StatusCode::kUnimplemented,
                       AllOf(HasSubstr("bfloat16"), HasSubstr("cast it to float32"))));
  EXPECT_THAT(WriteNpy(TempPath("bf.npy"), bf),
              StatusIs(StatusCode::kUnimplemented, HasSubstr("bfloat16")));
  EXPECT_THAT(SerializeNpy(Tensor()),
              StatusIs(StatusCode::kInvalidArgument, HasSubstr("uninitialized")));
}

// --- Round trips ------------------------------------------------------------------------------

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values, const TensorShape& shape) {
  const Tensor t = Tensor::FromVector<T>(values, shape);
  SCOPED_TRACE(t.DebugString());
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, SerializeNpy(t));
  EXPECT_EQ(bytes.find("\x93NUMPY\x01"), 0u);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor back, ParseNpy(bytes));
  EXPECT_EQ(back.dtype(), t.dtype());
  EXPECT_EQ(back.shape(), t.shape());
  const std::string path = TempPath(absl::StrCat("roundtrip_", DataTypeString(t.dtype()), ".npy"));
  RILL_ASSERT_OK(WriteNpy(path, t));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor from_file, ReadNpy(path));
  EXPECT_EQ(from_file.shape(), t.shape());
  for (const Tensor* r : {&back, &from_file}) {
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool>) {
      EXPECT_EQ(Values<T>(*r), values);
    } else {  // bitwise, so NaN and -0 count
      ASSERT_EQ(r->TotalBytes(), t.TotalBytes());
      EXPECT_EQ(std::memcmp(r->raw_data(), t.raw_data(), t.TotalBytes()), 0);
    }
  }
}

TEST(NpyRoundTripTest, EveryWritableDtype) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  ExpectRoundTrip<half>({half(1.5f), half(-0.0f), half::FromBits(0x7E00), half(65504.0f)},
                        TensorShape({2, 2}));
  ExpectRoundTrip<float>({1.5f, -0.0f, nan, 3e38f, 1e-45f, -7.25f}, TensorShape({3, 2}));
  ExpectRoundTrip<double>({0.1, -inf, 5e-324}, TensorShape({3}));
  ExpectRoundTrip<int8_t>({-128, 127, 0}, TensorShape({3}));
  ExpectRoundTrip<int16_t>({-32768, 32767}, TensorShape({2, 1}));
  ExpectRoundTrip<int32_t>({std::numeric_limits<int32_t>::min(), 5}, TensorShape({2}));
  ExpectRoundTrip<int64_t>({std::numeric_limits<int64_t>::min(), 5, -1}, TensorShape({1, 3}));
  ExpectRoundTrip<uint8_t>({0, 255}, TensorShape({2}));
  ExpectRoundTrip<uint16_t>({0, 65535}, TensorShape({2}));
  ExpectRoundTrip<uint32_t>({0, 4294967295u}, TensorShape({2}));
  ExpectRoundTrip<uint64_t>({0, std::numeric_limits<uint64_t>::max()}, TensorShape({2}));
  ExpectRoundTrip<bool>({true, false, false, true}, TensorShape({4}));
  ExpectRoundTrip<complex64>({complex64(1, -2), complex64(nan, 0)}, TensorShape({2}));
  ExpectRoundTrip<complex128>({complex128(1e300, -1e-300)}, TensorShape({1}));
  ExpectRoundTrip<std::string>({"", "abc", std::string("x\0y", 3), "\xe6\x97\xa5", "\xff"},
                               TensorShape({5}));
  // Scalars and zero-size tensors.
  ExpectRoundTrip<float>({2.5f}, TensorShape({}));
  ExpectRoundTrip<std::string>({"only"}, TensorShape({}));
  ExpectRoundTrip<int32_t>({}, TensorShape({0, 3}));
  ExpectRoundTrip<std::string>({}, TensorShape({4, 0}));
  ExpectRoundTrip<complex128>({}, TensorShape({0}));
}

TEST(NpyRoundTripTest, TrailingNulsInStringsAreLost) {
  Tensor t(DT_STRING, TensorShape({1}));
  t.flat<std::string>()[0] = std::string("ab\0\0", 4);
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, SerializeNpy(t));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor back, ParseNpy(bytes));
  EXPECT_THAT(Values<std::string>(back), ElementsAre("ab"));
}

// --- Header forms numpy accepts --------------------------------------------------------------

TEST(NpyParseTest, AcceptsHeaderVariants) {
  const std::string two_i4("\x01\0\0\0\xfe\xff\xff\xff", 8);
  // Python 2 longs, double quotes, no trailing comma, keys in another order, odd whitespace.
  for (const std::string header :
       {"{'descr': '<i4', 'fortran_order': False, 'shape': (2L,), }\n",
        "{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<i4\"}",
        "  {'descr':'<i4','fortran_order':False,'shape':(2,)}  \n",
        "{'descr': 'i4', 'fortran_order': True, 'shape': (2,)}",  // no byte order; rank-1 Fortran
        "{'descr': u'<i4', 'fortran_order': False, 'shape': (2,), }"}) {
    SCOPED_TRACE(header);
    RILL_ASSERT_OK_AND_ASSIGN(Tensor t, ParseNpy(MakeNpy(header, two_i4)));
    EXPECT_EQ(t.shape(), TensorShape({2}));
    EXPECT_THAT(Values<int32_t>(t), ElementsAre(1, -2));
  }
  // The same header as version 2.0 and 3.0 (4-byte header length).
  for (int major : {2, 3}) {
    RILL_ASSERT_OK_AND_ASSIGN(
        Tensor t, ParseNpy(MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
                                   two_i4, major)));
    EXPECT_THAT(Values<int32_t>(t), ElementsAre(1, -2));
  }
}

TEST(NpyParseTest, BoolBytesOtherThanZeroAreTrue) {
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor t, ParseNpy(MakeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                                 std::string("\x02\x00\xff", 3))));
  EXPECT_THAT(Values<bool>(t), ElementsAre(true, false, true));
}

// --- Failures ---------------------------------------------------------------------------------

void ExpectMalformed(const std::string& bytes, const std::string& why) {
  EXPECT_THAT(ParseNpy(bytes, "bad.npy"),
              StatusIs(StatusCode::kInvalidArgument,
                       AllOf(StartsWith("bad.npy is not a valid .npy file: "), HasSubstr(why))))
      << absl::CHexEscape(bytes);
}

std::string WithHeader(const std::string& header, const std::string& data = "") {
  return MakeNpy(header, data);
}

TEST(NpyParseTest, MalformedIsInvalidArgument) {
  ExpectMalformed("hello, world", "bad magic");
  ExpectMalformed("", "truncated: only 0 bytes");
  ExpectMalformed("\x93NUM", "truncated: only 4 bytes");
  ExpectMalformed(std::string("\x93NUMPY\x01", 7), "truncated header");
  ExpectMalformed(std::string("\x93NUMPY\x01\x00\x10", 9), "truncated header");
  ExpectMalformed(std::string("\x93NUMPY\x04\x00\x00\x00", 10), "unsupported format version 4.0");
  ExpectMalformed(std::string("\x93NUMPY\x01\x01\x00\x00", 10), "unsupported format version 1.1");
  ExpectMalformed(std::string("\x93NUMPY\x01\x00\x40\x00{'descr'", 17),
                  "its length field says 64 bytes but only 7 follow");
  ExpectMalformed(WithHeader("[1, 2]"), "header must be a dict, not list");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,"),
                  "header is not a Python literal");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x"),
                  "header is not a Python literal");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }"),
                  "bad shape (-2,)");
  ExpectMalformed(WithHeader(std::string(100, '[') + std::string(100, ']')), "nested too deeply");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'shape': (2,), }"),
                  "header has no 'fortran_order' key");
  ExpectMalformed(WithHeader("{'fortran_order': False, 'shape': (2,), }"),
                  "header has no 'descr' key");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False}"),
                  "header has no 'shape' key");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'extra': 1}"),
                  "unexpected key 'extra'");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}"),
                  "'fortran_order' must be True or False, not int");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': [2]}"),
                  "'shape' must be a tuple, not list");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2)}"),
                  "'shape' must be a tuple, not int");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': ('2',)}"),
                  "'shape' must hold ints, not str");
  ExpectMalformed(WithHeader("{'descr': 4, 'fortran_order': False, 'shape': ()}"),
                  "'descr' must be a str, not int");
  ExpectMalformed(WithHeader("{'descr': '<f3', 'fortran_order': False, 'shape': ()}"),
                  "descr '<f3' is not a numpy dtype descriptor");
  ExpectMalformed(WithHeader("{'descr': '<x4', 'fortran_order': False, 'shape': ()}"),
                  "descr '<x4' is not a numpy dtype descriptor");
  ExpectMalformed(
      WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}"),
      "does not fit in int64");
  ExpectMalformed(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': "
                             "(4294967296, 4294967296, 4294967296)}"),
                  "overflows int64");
  ExpectMalformed(WithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': "
                             "(4611686018427387904,)}"),
                  "needs more than 2^64 bytes");
  ExpectMalformed(WithHeader("{'descr': '<U1', 'fortran_order': False, 'shape': (1,)}",
                             std::string("\x00\xd8\x00\x00", 4)),
                  "element 0 holds U+D800");
}

TEST(NpyParseTest, DataSizeMustMatchShape) {
  const std::string good = FileBytes(TestdataPath("f4_2x3"));
  ASSERT_FALSE(good.empty());
  ExpectMalformed(good.substr(0, good.size() - 1),
                  "data is 23 bytes but shape (2, 3) of '<f4' needs 24 bytes");
  ExpectMalformed(good + "x", "data is 25 bytes but shape (2, 3) of '<f4' needs 24 bytes");
  ExpectMalformed(good.substr(0, 128), "data is 0 bytes");
  // ReadNpy names the file.
  const std::string path = TempPath("short.npy");
  {
    std::ofstream out(path, std::ios::binary);
    out << good.substr(0, good.size() - 4);
  }
  EXPECT_THAT(ReadNpy(path), StatusIs(StatusCode::kInvalidArgument,
                                      AllOf(StartsWith(path + " is not a valid .npy file"),
                                            HasSubstr("data is 20 bytes"))));
  EXPECT_THAT(ParseNpy("nope"),
              StatusIs(StatusCode::kInvalidArgument, StartsWith("npy data is not a valid")));
}

TEST(NpyParseTest, UnsupportedNumpyDtypesAreUnimplemented) {
  for (const std::string descr : {"<f16", "<c32", "<V2", "|V8", "<m8[s]"}) {
    EXPECT_THAT(
        ParseNpy(WithHeader(
                     absl::StrCat("{'descr': '", descr, "', 'fortran_order': False, 'shape': ()}")),
                 "x.npy"),
        StatusIs(StatusCode::kUnimplemented,
                 AllOf(StartsWith("x.npy: dtype '" + descr + "'"), HasSubstr("not supported"))));
  }
  EXPECT_THAT(ParseNpy(WithHeader("{'descr': [('a', '<i4')], 'fortran_order': False, "
                                  "'shape': ()}")),
              StatusIs(StatusCode::kUnimplemented, HasSubstr("structured")));
}

// Every truncation and every single-byte corruption of the numpy files either parses or fails
// with a status; none crashes (run under valgrind/ASan to check memory safety too).
TEST(NpyParseTest, CorruptionNeverCrashes) {
  int failures = 0;
  for (const char* name : {"f4_2x3", "fortran_2x3x4", "unicode", "be_unicode", "bytes", "b1",
                           "v2_f4", "v3_i2", "be_c8", "object", "structured"}) {
    const std::string good = FileBytes(TestdataPath(name));
    ASSERT_FALSE(good.empty()) << name;
    for (size_t len = 0; len < good.size(); ++len) {
      failures += !ParseNpy(absl::string_view(good).substr(0, len)).ok();
    }
    for (size_t i = 0; i < good.size(); ++i) {
      for (unsigned char x : {0x01, 0x20, 0xFF}) {
        std::string bad = good;
        bad[i] = static_cast<char>(bad[i] ^ x);
        failures += !ParseNpy(bad).ok();
      }
    }
  }
  EXPECT_GT(failures, 0);
}

TEST(NpyFileTest, MissingFilesAreNotFound) {
  EXPECT_THAT(ReadNpy("/no/such/dir/x.npy"),
              StatusIs(StatusCode::kNotFound, HasSubstr("'/no/such/dir/x.npy'")));
  EXPECT_THAT(ReadNpy(TempPath("never_written.npy")),
              StatusIs(StatusCode::kNotFound, HasSubstr(TempPath("never_written.npy"))));
  EXPECT_THAT(WriteNpy("/no/such/dir/x.npy", Tensor(DT_FLOAT, TensorShape({1}))),
              StatusIs(StatusCode::kNotFound, HasSubstr("'/no/such/dir/x.npy'")));
}

// TensorFlow's codes for these errno values (core/errno_status.h): EISDIR and ENOTDIR are
// FailedPrecondition.
TEST(NpyFileTest, DirectoriesAndPathsThroughAFileAreFailedPrecondition) {
  EXPECT_THAT(ReadNpy(kDir),
              StatusIs(StatusCode::kFailedPrecondition,
                       absl::StrCat("cannot read .npy file '", kDir, "': Is a directory")));
  EXPECT_THAT(ReadNpy("/dev/null/x.npy"),
              StatusIs(StatusCode::kFailedPrecondition,
                       "cannot open .npy file '/dev/null/x.npy': Not a directory"));
}

}  // namespace
}  // namespace rill
