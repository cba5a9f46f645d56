// Error paths the recorded cases cannot reach (TensorFlow's shape function rejects these shapes
// before its kernel runs), overflow guards, and a multi-threaded round trip.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> RunOp(const char* op, const Tensor& x, const Tensor& block,
                                          const Tensor& pairs, int threads = 1) {
  OpTester t(op);
  t.Attr("T", x.dtype()).Input(x).Input(block).Input(pairs);
  t.SetIntraOpThreads(threads);
  return t.Run();
}

Tensor Ints(std::vector<int64_t> v, TensorShape shape) {
  return Tensor::FromVector<int64_t>(v, shape);
}

TEST(SpaceToBatchNdTest, BadShapesOfBlockAndPaddings) {
  const Tensor x(DT_FLOAT, TensorShape({2, 4, 4, 1}));
  EXPECT_THAT(RunOp("SpaceToBatchND", x, Ints({2, 2}, TensorShape({2, 1})),
                    Ints({0, 0, 0, 0}, TensorShape({2, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument, "block_shape must be 1-D: [2,1]"));
  EXPECT_THAT(RunOp("SpaceToBatchND", x, Ints({2, 2}, TensorShape({2})),
                    Ints({0, 0, 0, 0, 0, 0}, TensorShape({3, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "paddings should have shape [2, 2] instead of [3,2]"));
  EXPECT_THAT(RunOp("BatchToSpaceND", x, Ints({2, 2}, TensorShape({2})),
                    Ints({0, 0, 0, 0}, TensorShape({4}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "crops should have shape [2, 2] instead of [4]"));
}

TEST(SpaceToBatchNdTest, HugeValuesAreRefusedNotOverflowed) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  const Tensor x(DT_FLOAT, TensorShape({2, 4, 1}));
  EXPECT_THAT(
      RunOp("SpaceToBatchND", x, Ints({2}, TensorShape({1})), Ints({big, 2}, TensorShape({1, 2}))),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
  EXPECT_THAT(
      RunOp("BatchToSpaceND", x, Ints({big}, TensorShape({1})), Ints({0, 0}, TensorShape({1, 2}))),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not divisible")));
  EXPECT_THAT(RunOp("BatchToSpaceND", Tensor(DT_FLOAT, TensorShape({4, 4, 1})),
                    Ints({2, -2}, TensorShape({2})), Ints({0, 0, 0, 0}, TensorShape({2, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Product of block sizes must be positive, got -4"));
}

TEST(SpaceToBatchNdTest, RoundTripOnFourThreads) {
  std::vector<float> v(3 * 10 * 9 * 2);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  const Tensor x = Tensor::FromVector<float>(v, TensorShape({3, 10, 9, 2}));
  const Tensor block = Ints({2, 3}, TensorShape({2}));
  const Tensor pads = Ints({1, 1, 2, 1}, TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto batched, RunOp("SpaceToBatchND", x, block, pads, 4));
  EXPECT_EQ(batched[0].shape(), TensorShape({18, 6, 4, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto back, RunOp("BatchToSpaceND", batched[0], block, pads, 4));
  ExpectTensorEqual(back[0], x);
}

}  // namespace
}  // namespace rill
