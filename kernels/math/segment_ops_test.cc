// Segment reductions whose ids ask for outputs too large to allocate fail with an error instead of
// crashing; the recorded TensorFlow cases (tests/conformance/data/Segment*.pbtxt) cover values and
// TensorFlow's error texts.
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

constexpr int64_t kHuge = int64_t{1} << 62;

TEST(SegmentOpsTest, HugeSortedIdIsAnErrorNotACrash) {
  for (int64_t inner : {1, 3}) {
    OpTester t("SegmentSum");
    t.Attr("T", DT_FLOAT).Attr("Tindices", DT_INT64);
    t.Input(Tensor(DT_FLOAT, TensorShape({2, inner})));
    t.Input(Tensor::FromVector<int64_t>({0, kHuge}, TensorShape({2})));
    EXPECT_FALSE(t.Run().ok()) << inner;
  }
}

TEST(SegmentOpsTest, HugeNumSegmentsIsAnErrorNotACrash) {
  for (int64_t inner : {1, 3}) {
    OpTester t("UnsortedSegmentMax");
    t.Attr("T", DT_FLOAT).Attr("Tindices", DT_INT32).Attr("Tnumsegments", DT_INT64);
    t.Input(Tensor(DT_FLOAT, TensorShape({2, inner})));
    t.Input(Tensor::FromVector<int32_t>({0, 1}, TensorShape({2})));
    t.Input(Tensor::Scalar<int64_t>(kHuge));
    EXPECT_FALSE(t.Run().ok()) << inner;
  }
}

TEST(SegmentOpsTest, HugeSparseSegmentIdIsAnErrorNotACrash) {
  OpTester t("SparseSegmentMean");
  t.Attr("T", DT_FLOAT).Attr("Tidx", DT_INT32).Attr("Tsegmentids", DT_INT64);
  t.Input(Tensor(DT_FLOAT, TensorShape({2, 3})));
  t.Input(Tensor::FromVector<int32_t>({0, 1}, TensorShape({2})));
  t.Input(Tensor::FromVector<int64_t>({0, kHuge}, TensorShape({2})));
  EXPECT_FALSE(t.Run().ok());
}

TEST(SegmentOpsTest, SparseSegmentWithNumSegmentsPadsAndChecksTheRowCount) {
  auto run = [](int32_t num) {
    OpTester t("SparseSegmentSumWithNumSegments");
    t.Attr("T", DT_FLOAT).Attr("Tidx", DT_INT32).Attr("Tsegmentids", DT_INT32);
    t.Attr("Tnumsegments", DT_INT32);
    t.Input(Tensor::FromVector<float>({1, 2, 3}, TensorShape({3, 1})));
    t.Input(Tensor::FromVector<int32_t>({0, 2, 1}, TensorShape({3})));
    t.Input(Tensor::FromVector<int32_t>({0, 0, 1}, TensorShape({3})));
    t.Input(Tensor::Scalar<int32_t>(num));
    return t.Run();
  };
  RILL_ASSERT_OK_AND_ASSIGN(auto out, run(4));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({4, 2, 0, 0}, TensorShape({4, 1})));
  EXPECT_THAT(run(1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "segment ids must be < num_segments"));
  EXPECT_THAT(run(-1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "segment ids must be >= 0"));
}

}  // namespace
}  // namespace rill
