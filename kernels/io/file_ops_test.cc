// ReadFile and WriteFile: a round trip of bytes with NULs, missing directories created, and
// TensorFlow's errors for a missing file, a directory and a non-scalar name.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : std::filesystem::temp_directory_path().string();
}

TEST(FileOpsTest, WriteThenReadRoundTripsBytes) {
  const std::string path = TempDir() + "/file_ops_test/new/dir/data.bin";
  std::filesystem::remove_all(TempDir() + "/file_ops_test");
  const std::string bytes("a\0b\xff\n", 5);
  OpTester write("WriteFile");
  write.Input(Tensor::Scalar<std::string>(path)).Input(Tensor::Scalar<std::string>(bytes));
  RILL_ASSERT_OK(write.Run().status());
  OpTester read("ReadFile");
  read.Input(Tensor::Scalar<std::string>(path));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, read.Run());
  ExpectTensorEqual(out[0], Tensor::Scalar<std::string>(bytes));

  // An empty file reads as "".
  std::ofstream(TempDir() + "/file_ops_test/empty").close();
  OpTester empty("ReadFile");
  empty.Input(Tensor::Scalar<std::string>(TempDir() + "/file_ops_test/empty"));
  RILL_ASSERT_OK_AND_ASSIGN(auto e, empty.Run());
  ExpectTensorEqual(e[0], Tensor::Scalar<std::string>(""));
}

TEST(FileOpsTest, ErrorsAreTensorFlows) {
  OpTester missing("ReadFile");
  missing.Input(Tensor::Scalar<std::string>("/nonexistent/x"));
  EXPECT_THAT(missing.Run(),
              StatusIs(absl::StatusCode::kNotFound, "/nonexistent/x; No such file or directory"));
  OpTester directory("ReadFile");
  directory.Input(Tensor::Scalar<std::string>(TempDir()));
  EXPECT_THAT(directory.Run(),
              StatusIs(absl::StatusCode::kFailedPrecondition, TempDir() + "; Is a directory"));
  OpTester vector("ReadFile");
  vector.Input(Tensor::FromVector<std::string>({"a"}, TensorShape({1})));
  EXPECT_THAT(vector.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                     "Input filename tensor must be scalar, but had shape: [1]"));
  OpTester contents("WriteFile");
  contents.Input(Tensor::Scalar<std::string>(TempDir() + "/x"))
      .Input(Tensor::FromVector<std::string>({"a", "b"}, TensorShape({2})));
  EXPECT_THAT(contents.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                       "Contents tensor must be scalar, but had shape: [2]"));
}

}  // namespace
}  // namespace rill
