// EncodePng's batches and both encoders' errors; EncodeJpeg's and EncodePng's streams are
// checked against TensorFlow by tests/conformance (decoded, and byte for byte).
#include <cstdint>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(EncodeImageOpsTest, EncodePngWritesOneStringPerLeadingIndexAndDecodesBack) {
  std::vector<uint16_t> samples(2 * 3 * 2 * 1);
  for (size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<uint16_t>(i * 5000);
  OpTester enc("EncodePng");
  enc.Attr("T", DT_UINT16).Attr("compression", int64_t{9});
  enc.Input(Tensor::FromVector<uint16_t>(samples, TensorShape({2, 3, 2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, enc.Run());
  ASSERT_EQ(out[0].shape(), TensorShape({2}));
  for (int i = 0; i < 2; ++i) {
    OpTester dec("DecodePng");
    dec.Attr("dtype", DT_UINT16)
        .Input(Tensor::FromVector<std::string>({out[0].flat<std::string>()[i]}, TensorShape()));
    RILL_ASSERT_OK_AND_ASSIGN(auto image, dec.Run());
    ExpectTensorEqual(
        image[0], Tensor::FromVector<uint16_t>(
                      std::vector<uint16_t>(samples.begin() + 6 * i, samples.begin() + 6 * (i + 1)),
                      TensorShape({3, 2, 1})));
  }
}

TEST(EncodeImageOpsTest, EncodePngErrorsAreTensorFlows) {
  OpTester level("EncodePng");
  level.Attr("T", DT_UINT8).Attr("compression", int64_t{10});
  level.Input(Tensor(DT_UINT8, TensorShape({1, 1, 3})));
  EXPECT_THAT(level.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("compression should be in [-1,9], got 10")));
  OpTester five("EncodePng");
  five.Attr("T", DT_UINT8).Input(Tensor(DT_UINT8, TensorShape({1, 1, 5})));
  EXPECT_THAT(five.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("image must have 1, 2, 3, or 4 channels, got 5")));
  OpTester empty("EncodePng");
  empty.Attr("T", DT_UINT8).Input(Tensor(DT_UINT8, TensorShape({2, 0, 2, 3})));
  EXPECT_THAT(empty.Run().status(),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("PNG encoding failed at the following flattened batch indices: "
                                 "0, 1")));
}

TEST(EncodeImageOpsTest, EncodeJpegErrorsAreTensorFlows) {
  OpTester gray("EncodeJpeg");
  gray.Attr("format", std::string("grayscale")).Input(Tensor(DT_UINT8, TensorShape({2, 2, 3})));
  EXPECT_THAT(gray.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("format grayscale expects 1 channels, got [2,2,3]")));
  OpTester two("EncodeJpeg");
  two.Input(Tensor(DT_UINT8, TensorShape({2, 2, 2})));
  EXPECT_THAT(two.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("image must have 1 or 3 channels, got [2,2,2]")));
  OpTester quality("EncodeJpeg");
  quality.Attr("quality", int64_t{101}).Input(Tensor(DT_UINT8, TensorShape({2, 2, 3})));
  EXPECT_THAT(quality.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                               HasSubstr("quality must be in [0,100], got 101")));
  OpTester empty("EncodeJpeg");
  empty.Input(Tensor(DT_UINT8, TensorShape({0, 2, 3})));
  EXPECT_THAT(empty.Run().status(),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("JPEG encoding failed")));
}

TEST(EncodeImageOpsTest, ExtractJpegShapeOfAnEncodedImage) {
  OpTester enc("EncodeJpeg");
  enc.Input(Tensor(DT_UINT8, TensorShape({5, 7, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto jpeg, enc.Run());
  OpTester shape("ExtractJpegShape");
  shape.Attr("output_type", DT_INT64).Input(jpeg[0]);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, shape.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({5, 7, 1}, TensorShape({3})));
  OpTester bad("ExtractJpegShape");
  bad.Attr("output_type", DT_INT32).Input(Tensor::FromVector<std::string>({"xx"}, TensorShape()));
  EXPECT_THAT(bad.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Invalid JPEG data, size 2")));
}

}  // namespace
}  // namespace rill
