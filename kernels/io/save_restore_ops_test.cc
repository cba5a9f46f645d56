// RestoreV2 of a slice of a tensor saved whole, against TensorFlow 2.21's results for the same
// checkpoint (w = arange(12) as [3,4] float, v = [1,2,3]): "3 4 0,2:-" gives rows 0-1, "3 4
// 1,2:1,3" [[5,6,7],[9,10,11]], "3 1,2" of v [2,3], and its texts for the specs it refuses.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

std::string Prefix() {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string root = dir != nullptr ? dir : std::filesystem::temp_directory_path().string();
  return root + "/save_restore_ops_test/model";
}

Tensor Strings(std::vector<std::string> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<std::string>(v, TensorShape({n}));
}

void Save() {
  std::vector<float> w(12);
  for (int i = 0; i < 12; ++i) w[i] = static_cast<float>(i);
  OpTester save("SaveV2");
  save.Attr("dtypes", std::vector<DataType>{DT_FLOAT, DT_FLOAT, DT_STRING});
  save.Input(Tensor::Scalar<std::string>(Prefix()))
      .Input(Strings({"w", "v", "s"}))
      .Input(Strings({"", "", ""}))
      .Input(Tensor::FromVector<float>(w, TensorShape({3, 4})))
      .Input(Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})))
      .Input(Strings({"a", "bb", "ccc"}));
  RILL_ASSERT_OK(save.Run().status());
}

absl::StatusOr<std::vector<Tensor>> Restore(const std::string& name, const std::string& spec,
                                            DataType dtype = DT_FLOAT) {
  OpTester restore("RestoreV2");
  restore.Attr("dtypes", std::vector<DataType>{dtype});
  restore.Input(Tensor::Scalar<std::string>(Prefix()))
      .Input(Strings({name}))
      .Input(Strings({spec}));
  return restore.Run();
}

TEST(SaveRestoreOpsTest, RestoresASliceOfATensorSavedWhole) {
  Save();
  RILL_ASSERT_OK_AND_ASSIGN(auto rows, Restore("w", "3 4 0,2:-"));
  ExpectTensorEqual(rows[0],
                    Tensor::FromVector<float>({0, 1, 2, 3, 4, 5, 6, 7}, TensorShape({2, 4})));
  RILL_ASSERT_OK_AND_ASSIGN(auto block, Restore("w", "3 4 1,2:1,3"));
  ExpectTensorEqual(block[0], Tensor::FromVector<float>({5, 6, 7, 9, 10, 11}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto all, Restore("w", "3 4 -:-"));
  EXPECT_EQ(all[0].shape(), TensorShape({3, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(auto v, Restore("v", "3 1,2"));
  ExpectTensorEqual(v[0], Tensor::FromVector<float>({2, 3}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto s, Restore("s", "3 1,2", DT_STRING));
  ExpectTensorEqual(s[0], Strings({"bb", "ccc"}));
}

TEST(SaveRestoreOpsTest, SliceSpecErrorsAreTensorFlows) {
  Save();
  EXPECT_THAT(Restore("w", "3 4 2,2:-"),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("Extent in dimension 0 out of bounds: shape = [3,4], slice = "
                                 "2,2:-")));
  EXPECT_THAT(Restore("w", "3 4 0,1"),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("Mismatching ranks: shape = [3,4], slice = 0,1")));
  EXPECT_THAT(Restore("w", "4 4 0,2:-"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("tensor_name = w; shape in shape_and_slice spec [4,4] does not "
                                 "match the shape stored in checkpoint: [3,4]")));
  EXPECT_THAT(Restore("w", "3 4 x,2:-"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected a pair of numbers or '-' but got 'x,2': string = "
                                 "x,2:-")));
  EXPECT_THAT(Restore("w", "x 4 0,1:-"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Non numerical dimension in shape_and_slice: x 4 0,1:-")));
  EXPECT_THAT(Restore("w", "3 4 0,-1:-"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected non-negative start and positive length but got start "
                                 "= 0, length = -1: string = 0,-1:-")));
  EXPECT_THAT(Restore("w", "3"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Need least two elements in shape_and_slice specification: 3")));
  EXPECT_THAT(Restore("v", "3 1,2", DT_INT32),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("tensor_name = v; expected dtype int32 does not equal original "
                                 "dtype float")));
}

TEST(SaveRestoreOpsTest, SavingASliceIsUnimplementedAfterTheSpecIsChecked) {
  for (const auto& [spec, code, text] :
       {std::make_tuple("3 0,2", absl::StatusCode::kUnimplemented,
                        "tensor v has slice spec '3 0,2': saving partitioned variables is not "
                        "supported; save whole tensors"),
        std::make_tuple("3 x,2", absl::StatusCode::kInvalidArgument,
                        "Expected a pair of numbers or '-' but got 'x,2': string = x,2")}) {
    OpTester save("SaveV2");
    save.Attr("dtypes", std::vector<DataType>{DT_FLOAT});
    save.Input(Tensor::Scalar<std::string>(Prefix() + "_sliced"))
        .Input(Strings({"v"}))
        .Input(Strings({spec}))
        .Input(Tensor::FromVector<float>({1, 2}, TensorShape({2})));
    EXPECT_THAT(save.Run(), StatusIs(code, HasSubstr(text))) << spec;
  }
}

}  // namespace
}  // namespace rill
