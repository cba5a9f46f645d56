#include "distributed/tensor_coding.h"

#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "core/tensor_proto.h"
#include "distributed/protos/worker.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace distributed {
namespace {

std::string Bytes(const grpc::ByteBuffer& b) {
  std::vector<grpc::Slice> slices;
  EXPECT_TRUE(b.Dump(&slices).ok());
  std::string out;
  for (const grpc::Slice& s : slices)
    out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

grpc::ByteBuffer FromBytes(const std::string& bytes) {
  grpc::Slice s(bytes.data(), bytes.size());
  return grpc::ByteBuffer(&s, 1);
}

Tensor Range(int n) {
  Tensor t(DT_FLOAT, TensorShape({2, n}));
  auto f = t.flat<float>();
  for (int i = 0; i < 2 * n; ++i) f[i] = 0.5f * i;
  return t;
}

TEST(TensorCodingTest, EncodingIsProtobufsRecvTensorResponse) {
  const Tensor t = Range(500);
  grpc::ByteBuffer buf;
  EncodeRecvTensorResponse(t, /*is_dead=*/true, 1234, &buf);
  tensorflow::RecvTensorResponse resp;
  ASSERT_TRUE(resp.ParseFromString(Bytes(buf)));
  EXPECT_TRUE(resp.is_dead());
  EXPECT_EQ(resp.send_start_micros(), 1234);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor back, TensorFromProto(resp.tensor()));
  EXPECT_EQ(back.shape().DebugString(), "[2,500]");
  EXPECT_EQ(back.flat<float>()[999], 0.5f * 999);
  // The tensor's bytes were not copied: the slice holds the tensor's buffer.
  EXPECT_GE(t.BufferHolders(), 1);
}

TEST(TensorCodingTest, DecodesItsOwnAndProtobufsEncodings) {
  const Tensor t = Range(3);
  grpc::ByteBuffer buf;
  EncodeRecvTensorResponse(t, false, 0, &buf);
  Tensor got;
  bool dead = true;
  RILL_ASSERT_OK(DecodeRecvTensorResponse(buf, &got, &dead));
  EXPECT_FALSE(dead);
  EXPECT_EQ(got.shape().DebugString(), "[2,3]");
  EXPECT_EQ(got.flat<float>()[5], 2.5f);
  // float_val fields (no tensor_content) and a version_number take protobuf's path.
  tensorflow::RecvTensorResponse resp;
  TensorToProto(t, resp.mutable_tensor(), /*use_tensor_content=*/false);
  resp.mutable_tensor()->set_version_number(1);
  RILL_ASSERT_OK(DecodeRecvTensorResponse(FromBytes(resp.SerializeAsString()), &got, &dead));
  EXPECT_EQ(got.flat<float>()[4], 2.0f);
  // Strings.
  Tensor s = Tensor::Scalar<std::string>("hello");
  EncodeRecvTensorResponse(s, false, 0, &buf);
  RILL_ASSERT_OK(DecodeRecvTensorResponse(buf, &got, &dead));
  EXPECT_EQ(got.flat<std::string>()[0], "hello");
}

TEST(TensorCodingTest, MalformedBytesAreInvalidArgument) {
  Tensor got;
  bool dead;
  EXPECT_THAT(
      DecodeRecvTensorResponse(FromBytes(std::string("\x0a\xff\xff\xff\x0f", 5)), &got, &dead),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "Malformed RecvTensorResponse: truncated tensor length"));
  // tensor_content whose size does not match dtype and shape.
  tensorflow::RecvTensorResponse resp;
  resp.mutable_tensor()->set_dtype(DT_FLOAT);
  resp.mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(4);
  resp.mutable_tensor()->set_tensor_content(std::string(3, 'x'));
  EXPECT_THAT(DecodeRecvTensorResponse(FromBytes(resp.SerializeAsString()), &got, &dead),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Malformed RecvTensorResponse: tensor_content has 3 bytes for a float "
                       "tensor of shape [4]"));
}

}  // namespace
}  // namespace distributed
}  // namespace rill
