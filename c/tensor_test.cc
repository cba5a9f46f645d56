#include "core/tensor.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "c/c_api_internal.h"
#include "gtest/gtest.h"
#include "proto/tensor.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

struct Deallocation {
  int calls = 0;
  void* data = nullptr;
  size_t len = 0;
};

void RecordDeallocation(void* data, size_t len, void* arg) {
  Deallocation* d = static_cast<Deallocation*>(arg);
  ++d->calls;
  d->data = data;
  d->len = len;
}

TEST(Tensor, AllocateIsAlignedZeroedAndOwned) {
  const int64_t dims[] = {2, 3};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 2, 6 * sizeof(float));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(TF_TensorType(t), TF_FLOAT);
  EXPECT_EQ(TF_NumDims(t), 2);
  EXPECT_EQ(TF_Dim(t, 0), 2);
  EXPECT_EQ(TF_Dim(t, 1), 3);
  EXPECT_EQ(TF_Dim(t, 2), 0);
  EXPECT_EQ(TF_Dim(t, -1), 0);
  EXPECT_EQ(TF_TensorByteSize(t), 24u);
  EXPECT_EQ(TF_TensorElementCount(t), 6);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(TF_TensorData(t)) % 64, 0u);
  EXPECT_TRUE(TF_TensorIsAligned(t));
  const float* v = static_cast<const float*>(TF_TensorData(t));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(v[i], 0.f);
  TF_DeleteTensor(t);
}

TEST(Tensor, AllocateScalarAndEmpty) {
  TF_Tensor* scalar = TF_AllocateTensor(TF_INT32, nullptr, 0, 4);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(TF_NumDims(scalar), 0);
  EXPECT_EQ(TF_TensorElementCount(scalar), 1);
  TF_DeleteTensor(scalar);
  const int64_t zero[] = {0, 5};
  TF_Tensor* empty = TF_AllocateTensor(TF_DOUBLE, zero, 2, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(TF_TensorElementCount(empty), 0);
  EXPECT_EQ(TF_TensorByteSize(empty), 0u);
  TF_DeleteTensor(empty);
}

TEST(Tensor, AllocateRefusesMalformedShapesAndShortLengths) {
  const int64_t dims[] = {2, 3};
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, dims, 2, 23), nullptr);
  const int64_t negative[] = {-1, 3};
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, negative, 2, 100), nullptr);
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, nullptr, 2, 100), nullptr);
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, dims, -1, 100), nullptr);
  const int64_t huge[] = {INT64_MAX, 4};
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, huge, 2, 100), nullptr);
  // A type code that names no type has no size to check against.
  EXPECT_EQ(TF_AllocateTensor(static_cast<TF_DataType>(1000), dims, 2, 100), nullptr);
  // Ranks above TensorFlow's 254: refused by both constructors.
  const std::vector<int64_t> ones(255, 1);
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, ones.data(), 255, 4), nullptr);
  float value = 0;
  EXPECT_EQ(TF_NewTensor(TF_FLOAT, ones.data(), 255, &value, 4, nullptr, nullptr), nullptr);
  TF_Tensor* rank254 = TF_AllocateTensor(TF_FLOAT, ones.data(), 254, 4);
  ASSERT_NE(rank254, nullptr);
  EXPECT_EQ(TF_NumDims(rank254), 254);
  TF_DeleteTensor(rank254);
}

// TF_VARIANT and TF_RESOURCE have no element size: TensorFlow 2.21's TF_AllocateTensor and
// TF_NewTensor make them of any length (checked with its pip library: a [2] variant of 64 and of
// 0 bytes, a [2] resource of 64), and a run is what refuses them as feeds.
TEST(Tensor, VariantAndResourceTensorsOfAnyLengthAreMadeButNotFed) {
  const int64_t dims[] = {2};
  for (TF_DataType type : {TF_VARIANT, TF_RESOURCE}) {
    for (size_t len : {size_t{64}, size_t{0}}) {
      TF_Tensor* t = TF_AllocateTensor(type, dims, 1, len);
      ASSERT_NE(t, nullptr) << type << " " << len;
      EXPECT_EQ(TF_TensorType(t), type);
      EXPECT_EQ(TF_TensorByteSize(t), len);
      EXPECT_EQ(TF_TensorElementCount(t), 2);
      absl::StatusOr<rill::Tensor> fed = rill_c::ToRillTensor(t);
      EXPECT_EQ(fed.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(fed.status().message().find(type == TF_VARIANT
                                                ? "Rill cannot feed a tensor of type variant"
                                                : "Rill cannot feed a tensor of type resource"),
                std::string::npos)
          << fed.status();
      TF_DeleteTensor(t);
    }
    char bytes[16] = {};
    Deallocation d;
    TF_Tensor* t = TF_NewTensor(type, dims, 1, bytes, sizeof bytes, RecordDeallocation, &d);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(TF_TensorData(t), bytes);
    EXPECT_EQ(TF_TensorByteSize(t), sizeof bytes);
    EXPECT_EQ(d.calls, 0);
    TF_DeleteTensor(t);
    EXPECT_EQ(d.calls, 1);
    // Null data with a length is still refused, the deallocator called at once.
    Deallocation refused;
    EXPECT_EQ(TF_NewTensor(type, dims, 1, nullptr, 8, RecordDeallocation, &refused), nullptr);
    EXPECT_EQ(refused.calls, 1);
  }
}

TEST(Tensor, NewTensorCallsTheDeallocatorOnceAtDelete) {
  float* values = new float[4]{1, 2, 3, 4};
  Deallocation d;
  const int64_t dims[] = {4};
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 1, values, 16, RecordDeallocation, &d);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(TF_TensorData(t), values);
  EXPECT_EQ(TF_TensorByteSize(t), 16u);
  EXPECT_EQ(d.calls, 0);
  TF_DeleteTensor(t);
  EXPECT_EQ(d.calls, 1);
  EXPECT_EQ(d.data, values);
  EXPECT_EQ(d.len, 16u);
  delete[] values;
}

TEST(Tensor, NewTensorTooShortReturnsNullAndReleasesTheData) {
  float values[3] = {1, 2, 3};
  Deallocation d;
  const int64_t dims[] = {4};
  EXPECT_EQ(TF_NewTensor(TF_FLOAT, dims, 1, values, 12, RecordDeallocation, &d), nullptr);
  EXPECT_EQ(d.calls, 1);
  const int64_t negative[] = {-2};
  EXPECT_EQ(TF_NewTensor(TF_FLOAT, negative, 1, values, 12, RecordDeallocation, &d), nullptr);
  EXPECT_EQ(d.calls, 2);
  // A null deallocator is allowed.
  EXPECT_EQ(TF_NewTensor(TF_FLOAT, dims, 1, values, 12, nullptr, nullptr), nullptr);
}

TEST(Tensor, NewTensorLongerThanNeededIsKept) {
  float values[5] = {1, 2, 3, 4, 5};
  const int64_t dims[] = {4};
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 1, values, 20, nullptr, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(TF_TensorByteSize(t), 20u);
  TF_DeleteTensor(t);
}

TEST(Tensor, DeleteNullIsSafe) {
  TF_DeleteTensor(nullptr);
  EXPECT_EQ(TF_NumDims(nullptr), 0);
  EXPECT_EQ(TF_TensorData(nullptr), nullptr);
  EXPECT_EQ(TF_TensorByteSize(nullptr), 0u);
  EXPECT_EQ(TF_TensorMaybeMove(nullptr), nullptr);
}

TEST(Tensor, MaybeMoveMovesOwnedMemoryOnly) {
  const int64_t dims[] = {2};
  TF_Tensor* owned = TF_AllocateTensor(TF_INT64, dims, 1, 16);
  void* data = TF_TensorData(owned);
  TF_Tensor* moved = TF_TensorMaybeMove(owned);
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(TF_TensorData(moved), data);
  EXPECT_EQ(TF_Dim(moved, 0), 2);
  TF_DeleteTensor(moved);

  int64_t values[2] = {1, 2};
  TF_Tensor* external = TF_NewTensor(TF_INT64, dims, 1, values, 16, nullptr, nullptr);
  EXPECT_EQ(TF_TensorMaybeMove(external), nullptr);
  EXPECT_EQ(TF_Dim(external, 0), 2);  // left as it was
  TF_DeleteTensor(external);
}

TEST(Tensor, SetShapeAndBitcast) {
  const int64_t dims[] = {2, 2};
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, dims, 2, 16);
  const int64_t flat[] = {4};
  TF_SetShape(t, flat, 1);
  EXPECT_EQ(TF_NumDims(t), 1);
  EXPECT_EQ(TF_Dim(t, 0), 4);

  TF_Status* s = TF_NewStatus();
  TF_Tensor* to = TF_AllocateTensor(TF_FLOAT, nullptr, 0, 4);
  const int64_t as_int64[] = {2};
  TF_TensorBitcastFrom(t, TF_INT64, to, as_int64, 1, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
  EXPECT_EQ(TF_TensorType(to), TF_INT64);
  EXPECT_EQ(TF_TensorData(to), TF_TensorData(t));
  const int64_t three[] = {3};
  TF_TensorBitcastFrom(t, TF_INT64, to, three, 1, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "Cannot bitcast 16 bytes into a shape and type of 24 bytes");
  TF_DeleteTensor(t);  // `to` still holds the memory
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(to))[0], 0);
  TF_DeleteTensor(to);
  TF_DeleteStatus(s);
}

TEST(TString, SmallLargeViewRoundTrip) {
  TF_TString s;
  TF_StringInit(&s);
  EXPECT_EQ(TF_StringGetType(&s), TF_TSTR_SMALL);
  EXPECT_EQ(TF_StringGetSize(&s), 0u);
  EXPECT_EQ(TF_StringGetCapacity(&s), 22u);

  TF_StringCopy(&s, "hello", 5);
  EXPECT_EQ(TF_StringGetType(&s), TF_TSTR_SMALL);
  EXPECT_EQ(TF_StringGetSize(&s), 5u);
  EXPECT_STREQ(TF_StringGetDataPointer(&s), "hello");
  EXPECT_EQ(s.u.raw.raw[0], 5 << 2);  // the size byte, type bits 0

  const std::string big(100, 'x');
  TF_StringCopy(&s, big.data(), big.size());
  EXPECT_EQ(TF_StringGetType(&s), TF_TSTR_LARGE);
  EXPECT_EQ(TF_StringGetSize(&s), 100u);
  EXPECT_EQ(TF_StringGetCapacity(&s), 111u);
  EXPECT_EQ(std::string(TF_StringGetDataPointer(&s), 100), big);

  const char* text = "a view of bytes";
  TF_StringAssignView(&s, text, 6);  // frees the large block
  EXPECT_EQ(TF_StringGetType(&s), TF_TSTR_VIEW);
  EXPECT_EQ(TF_StringGetSize(&s), 6u);
  EXPECT_EQ(TF_StringGetDataPointer(&s), text);
  EXPECT_EQ(TF_StringGetCapacity(&s), 0u);
  TF_StringDealloc(&s);  // a view owns nothing
  EXPECT_EQ(TF_StringGetType(&s), TF_TSTR_VIEW);

  TF_StringCopy(&s, big.data(), 23);
  EXPECT_EQ(TF_StringGetType(&s), TF_TSTR_LARGE);
  TF_StringDealloc(&s);
  EXPECT_EQ(TF_StringGetType(&s), TF_TSTR_SMALL);
  EXPECT_EQ(TF_StringGetSize(&s), 0u);
}

TEST(TString, OffsetStringsAreRead) {
  struct {
    TF_TString s;
    char bytes[4];
  } block;
  std::memset(&block, 0, sizeof(block));
  block.s.u.offset.size = (3 << 2) | TF_TSTR_OFFSET;
  block.s.u.offset.offset = sizeof(TF_TString);
  std::memcpy(block.bytes, "abc", 3);
  EXPECT_EQ(TF_StringGetType(&block.s), TF_TSTR_OFFSET);
  EXPECT_EQ(TF_StringGetSize(&block.s), 3u);
  EXPECT_EQ(std::string(TF_StringGetDataPointer(&block.s), 3), "abc");
}

TEST(TString, StringTensorsReleaseEachElement) {
  const int64_t dims[] = {3};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 3 * sizeof(TF_TString));
  ASSERT_NE(t, nullptr);
  TF_TString* e = static_cast<TF_TString*>(TF_TensorData(t));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(TF_StringGetSize(&e[i]), 0u);
  const std::string big(1000, 'q');
  TF_StringCopy(&e[0], "short", 5);
  TF_StringCopy(&e[1], big.data(), big.size());  // a malloc'd block, freed by TF_DeleteTensor
  TF_StringAssignView(&e[2], big.data(), 10);
  TF_DeleteTensor(t);  // LeakSanitizer (--config=asan) checks the large element is freed
  EXPECT_EQ(TF_AllocateTensor(TF_STRING, dims, 1, 3 * sizeof(TF_TString) - 1), nullptr);
}

TEST(Conversion, NumericTensorsRoundTripThroughRill) {
  const int64_t dims[] = {2, 2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 2, 16);
  float* v = static_cast<float*>(TF_TensorData(t));
  for (int i = 0; i < 4; ++i) v[i] = i + 0.5f;
  absl::StatusOr<rill::Tensor> r = rill_c::ToRillTensor(t);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape().DebugString(), "[2,2]");
  EXPECT_EQ(r->flat<float>()[3], 3.5f);
  TF_Tensor* back = rill_c::FromRillTensor(*r);
  EXPECT_EQ(TF_TensorType(back), TF_FLOAT);
  EXPECT_EQ(TF_TensorByteSize(back), 16u);
  EXPECT_EQ(TF_TensorData(back), r->raw_data());  // shares the run's buffer
  EXPECT_EQ(static_cast<float*>(TF_TensorData(back))[2], 2.5f);
  TF_DeleteTensor(back);
  TF_DeleteTensor(t);
}

TEST(Conversion, StringTensorsRoundTripThroughRill) {
  const int64_t dims[] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  TF_TString* e = static_cast<TF_TString*>(TF_TensorData(t));
  const std::string big(40, 'b');
  TF_StringCopy(&e[0], "a", 1);
  TF_StringCopy(&e[1], big.data(), big.size());
  absl::StatusOr<rill::Tensor> r = rill_c::ToRillTensor(t);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->flat<std::string>()[0], "a");
  EXPECT_EQ(r->flat<std::string>()[1], big);
  TF_Tensor* back = rill_c::FromRillTensor(*r);
  const TF_TString* b = static_cast<const TF_TString*>(TF_TensorData(back));
  EXPECT_EQ(std::string(TF_StringGetDataPointer(&b[1]), TF_StringGetSize(&b[1])), big);
  TF_DeleteTensor(back);
  TF_DeleteTensor(t);
}

TEST(Conversion, CallersStringTensorIsReadWhateverItsLength) {
  // BART's tf_wrapper.c feeds a checkpoint path as TF_NewTensor(TF_STRING, NULL, 0, &path,
  // TF_TString_GetSize(&path), ...): TensorFlow 2.21 makes the tensor (byte size 4) and reads the
  // TF_TString at `data`.
  TF_TString path;
  TF_StringInit(&path);
  TF_StringCopy(&path, "ckpt", 4);
  Deallocation d;
  TF_Tensor* t =
      TF_NewTensor(TF_STRING, nullptr, 0, &path, TF_StringGetSize(&path), RecordDeallocation, &d);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(TF_TensorByteSize(t), 4u);
  absl::StatusOr<rill::Tensor> r = rill_c::ToRillTensor(t);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->flat<std::string>()[0], "ckpt");
  TF_DeleteTensor(t);
  EXPECT_EQ(d.calls, 1);
  EXPECT_EQ(d.data, &path);
  EXPECT_EQ(d.len, 4u);
  TF_StringDealloc(&path);
  // No buffer at all is still refused (TensorFlow would read through the null pointer).
  const int64_t dims[] = {2};
  EXPECT_EQ(TF_NewTensor(TF_STRING, dims, 1, nullptr, 0, nullptr, nullptr), nullptr);
  // Several elements must fit the length given: 2 TF_TStrings need 48 bytes, not 4.
  TF_TString two[2];
  TF_StringInit(&two[0]);
  TF_StringInit(&two[1]);
  Deallocation refused;
  EXPECT_EQ(TF_NewTensor(TF_STRING, dims, 1, two, 4, RecordDeallocation, &refused), nullptr);
  EXPECT_EQ(refused.calls, 1);
  TF_Tensor* both = TF_NewTensor(TF_STRING, dims, 1, two, sizeof(two), nullptr, nullptr);
  ASSERT_NE(both, nullptr);
  TF_DeleteTensor(both);
  // A scalar made with a short length and then reshaped to several elements is malformed.
  TF_Tensor* grown = TF_NewTensor(TF_STRING, nullptr, 0, &two[0], 4, nullptr, nullptr);
  ASSERT_NE(grown, nullptr);
  TF_SetShape(grown, dims, 1);
  EXPECT_EQ(rill_c::ToRillTensor(grown).status().code(), absl::StatusCode::kInvalidArgument);
  TF_DeleteTensor(grown);
}

TEST(Conversion, MalformedTensorsAreInvalidArgument) {
  const int64_t dims[] = {4};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 16);
  const int64_t bigger[] = {8};
  TF_SetShape(t, bigger, 1);
  absl::StatusOr<rill::Tensor> r = rill_c::ToRillTensor(t);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "Malformed TF_Tensor: it holds 16 bytes but a float tensor of shape [8] needs 32");
  TF_DeleteTensor(t);
  EXPECT_EQ(rill_c::ToRillTensor(nullptr).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Conversion, BoolBytesOtherThanZeroAndOneReadAsTrue) {
  // The caller's buffer is copied with each byte normalized, so no kernel reads a bool of value 2
  // (undefined behaviour; UBSan's "load of value 2, which is not a valid value for type bool").
  const int64_t dims[] = {4};
  TF_Tensor* t = TF_AllocateTensor(TF_BOOL, dims, 1, 4);
  const uint8_t bytes[] = {0, 1, 2, 255};
  std::memcpy(TF_TensorData(t), bytes, 4);
  absl::StatusOr<rill::Tensor> r = rill_c::ToRillTensor(t);
  ASSERT_TRUE(r.ok()) << r.status();
  const uint8_t* got = static_cast<const uint8_t*>(r->raw_data());
  EXPECT_EQ(got[0], 0);
  EXPECT_EQ(got[1], 1);
  EXPECT_EQ(got[2], 1);
  EXPECT_EQ(got[3], 1);
  TF_DeleteTensor(t);
}

TEST(Conversion, TensorFromProto) {
  rill::TensorProto proto;
  proto.set_dtype(rill::DT_INT32);
  proto.mutable_tensor_shape()->add_dim()->set_size(3);
  proto.add_int_val(7);
  proto.add_int_val(8);
  proto.add_int_val(9);
  const std::string bytes = proto.SerializeAsString();
  TF_Buffer* b = TF_NewBufferFromString(bytes.data(), bytes.size());
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, nullptr, 0, 4);
  TF_Status* s = TF_NewStatus();
  TF_TensorFromProto(b, t, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
  EXPECT_EQ(TF_TensorType(t), TF_INT32);
  EXPECT_EQ(TF_Dim(t, 0), 3);
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(t))[2], 9);
  TF_Buffer* junk = TF_NewBufferFromString("\xff\xff", 2);
  TF_TensorFromProto(junk, t, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "Unparseable TensorProto");
  TF_DeleteBuffer(junk);
  // A buffer claiming bytes it does not hold: null data with a length, and lengths past int
  // (2^32 + the proto's size narrowed to int is its size, which parsed and succeeded; 2^31 is
  // negative as int, which failed protobuf's CHECK). Each is refused and the tensor unchanged.
  TF_Buffer lying = {nullptr, 100, nullptr};
  TF_TensorFromProto(&lying, t, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "Unparseable TensorProto");
  for (size_t length : {(size_t{1} << 32) + bytes.size(), size_t{1} << 31}) {
    TF_Buffer huge = {bytes.data(), length, nullptr};
    TF_TensorFromProto(&huge, t, s);
    EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT) << length;
    EXPECT_STREQ(TF_Message(s), "Unparseable TensorProto");
  }
  EXPECT_EQ(TF_Dim(t, 0), 3);
  TF_DeleteBuffer(b);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
}

}  // namespace
