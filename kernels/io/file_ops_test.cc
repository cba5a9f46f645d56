// ReadFile and WriteFile: a round trip of bytes with NULs, missing directories created, and
// TensorFlow's errors for a missing file, a directory and a non-scalar name; FIFOs and devices
// refused before they are opened.
#include <sys/stat.h>
#include <unistd.h>

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

// A FIFO fails before it is opened (opening one with no writer would block forever); devices are
// read to their end as TensorFlow 2.21 reads them (/dev/null is b''), up to kDeviceBytes
// (/dev/zero, which TensorFlow reads until memory runs out).
TEST(FileOpsTest, FifosAreFailedPreconditionDevicesAreReadToABound) {
  const std::string dir = TempDir() + "/file_ops_special";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  OpTester read_fifo("ReadFile", "fifo_reader");
  read_fifo.Input(Tensor::Scalar<std::string>(fifo));
  EXPECT_THAT(read_fifo.Run(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       fifo + "; not a regular file or device (ReadFile node fifo_reader reads "
                              "files and devices, not FIFOs or sockets)"));
  OpTester null("ReadFile");
  null.Input(Tensor::Scalar<std::string>("/dev/null"));
  RILL_ASSERT_OK_AND_ASSIGN(auto empty, null.Run());
  EXPECT_EQ(empty[0].flat<std::string>()[0], "");
  OpTester zero("ReadFile", "zero_reader");
  zero.Input(Tensor::Scalar<std::string>("/dev/zero"));
  EXPECT_THAT(zero.Run(), StatusIs(absl::StatusCode::kResourceExhausted,
                                   "/dev/zero; the device has not ended after 67108864 bytes "
                                   "(ReadFile node zero_reader reads a device to its end)"));

  // A path that goes on under a regular file: TensorFlow's FailedPrecondition.
  std::ofstream(dir + "/plain").close();
  OpTester under_file("ReadFile");
  under_file.Input(Tensor::Scalar<std::string>(dir + "/plain/x"));
  EXPECT_THAT(under_file.Run(),
              StatusIs(absl::StatusCode::kFailedPrecondition, dir + "/plain/x; Not a directory"));
}

// /proc files are regular files whose stat size is 0: they are still read to the end.
TEST(FileOpsTest, ProcFilesAreRead) {
  OpTester read("ReadFile");
  read.Input(Tensor::Scalar<std::string>("/proc/self/stat"));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, read.Run());
  EXPECT_THAT(out[0].flat<std::string>()[0], ::testing::StartsWith(std::to_string(::getpid())));
}

}  // namespace
}  // namespace rill
