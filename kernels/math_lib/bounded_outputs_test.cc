// The registry of tensors known to lie in [0, bound]: what is kept, what a lookup finds and drops,
// the oldest dropped first, and the reference that keeps a kept buffer alive and unshared.
#include "kernels/math_lib/bounded_outputs.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

constexpr int64_t kStep = 7;

Tensor Floats(int64_t n) {
  return Tensor::FromVector<float>(std::vector<float>(n, 1.5f), TensorShape({n}));
}

TEST(BoundedOutputsTest, ALookupFindsAKeptTensorByItsDataAndSizeOnceAndDropsIt) {
  const Tensor t = Floats(8);
  RecordBoundedOutput(t, 6.f, kStep);
  EXPECT_EQ(BoundedOutputsKept(), 1);
  EXPECT_EQ(t.BufferHolders(), 2);  // the registry's reference: nobody may write it in place
  EXPECT_EQ(TakeBoundedInput(t.raw_data(), 7, kStep), std::nullopt);  // another size: not this one
  EXPECT_EQ(TakeBoundedInput(t.raw_data(), 8, kStep), std::optional<float>(6.f));
  EXPECT_EQ(BoundedOutputsKept(), 0);
  EXPECT_EQ(t.BufferHolders(), 1);
  EXPECT_EQ(TakeBoundedInput(t.raw_data(), 8, kStep), std::nullopt);  // taken once
}

TEST(BoundedOutputsTest, AKeptBufferOutlivesTheProducersTensor) {
  const void* data = nullptr;
  {
    const Tensor t = Floats(16);
    data = t.raw_data();
    RecordBoundedOutput(t, 2.f, kStep);
  }
  // The buffer is still the kept tensor's (no other tensor can have been given its address).
  EXPECT_EQ(TakeBoundedInput(data, 16, kStep), std::optional<float>(2.f));
  EXPECT_EQ(BoundedOutputsKept(), 0);
}

TEST(BoundedOutputsTest, TheOldestIsDroppedBeyondKKeptOutputs) {
  ASSERT_EQ(kKeptOutputs, 2);
  const Tensor a = Floats(4), b = Floats(4), c = Floats(4);
  RecordBoundedOutput(a, 1.f, kStep);
  RecordBoundedOutput(b, 2.f, kStep);
  RecordBoundedOutput(c, 3.f, kStep);
  EXPECT_EQ(BoundedOutputsKept(), 2);
  EXPECT_EQ(a.BufferHolders(), 1);
  EXPECT_EQ(TakeBoundedInput(a.raw_data(), 4, kStep), std::nullopt);
  EXPECT_EQ(TakeBoundedInput(c.raw_data(), 4, kStep), std::optional<float>(3.f));
  EXPECT_EQ(TakeBoundedInput(b.raw_data(), 4, kStep), std::optional<float>(2.f));
  EXPECT_EQ(BoundedOutputsKept(), 0);
}

TEST(BoundedOutputsTest, RecordingTheSameBufferAgainReplacesItsBound) {
  const Tensor t = Floats(4);
  RecordBoundedOutput(t, 6.f, kStep);
  RecordBoundedOutput(t, 1.f, kStep);
  EXPECT_EQ(BoundedOutputsKept(), 1);
  EXPECT_EQ(TakeBoundedInput(t.raw_data(), 4, kStep), std::optional<float>(1.f));
  EXPECT_EQ(BoundedOutputsKept(), 0);
}

TEST(BoundedOutputsTest, AnotherStepsLookupDropsTheTensorWithoutItsBound) {
  // Between two Runs a fetched output is the caller's, who may have written into it.
  const Tensor t = Floats(4);
  RecordBoundedOutput(t, 6.f, kStep);
  EXPECT_EQ(TakeBoundedInput(t.raw_data(), 4, kStep + 1), std::nullopt);
  EXPECT_EQ(BoundedOutputsKept(), 0);
  EXPECT_EQ(TakeBoundedInput(t.raw_data(), 4, kStep), std::nullopt);
}

TEST(BoundedOutputsTest, OnlyNonEmptyFloatTensorsWithANonNegativeBoundAreKept) {
  const Tensor ints = Tensor::FromVector<int32_t>({1, 2}, TensorShape({2}));
  const Tensor empty = Floats(0);
  const Tensor t = Floats(4);
  RecordBoundedOutput(ints, 6.f, kStep);
  RecordBoundedOutput(empty, 6.f, kStep);
  RecordBoundedOutput(t, std::nanf(""), kStep);
  RecordBoundedOutput(t, -1.f, kStep);
  RecordBoundedOutput(t, 6.f, -1);  // outside a Session's Run
  RecordBoundedOutput(t, 6.f, 0);
  EXPECT_EQ(BoundedOutputsKept(), 0);
  EXPECT_EQ(TakeBoundedInput(nullptr, 4, kStep), std::nullopt);
}

}  // namespace
}  // namespace rill
