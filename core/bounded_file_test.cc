#include "core/bounded_file.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

std::string TempFile(const std::string& name, const std::string& contents) {
  const std::string path = std::string(testing::TempDir()) + "/" + name;
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

TEST(BoundedFileTest, ReadsAFileWithinTheBound) {
  const std::string path = TempFile("small", "hello");
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, ReadBoundedFile("--x", path, 5, "small"));
  EXPECT_EQ(bytes, "hello");
}

// A large file is read into one buffer of its size, not grown by doubling (which would leave up
// to twice the file's size allocated).
TEST(BoundedFileTest, ReadsALargeFileIntoABufferOfItsSize) {
  const std::string contents((1 << 20) + 1, 'x');
  const std::string path = TempFile("large", contents);
  RILL_ASSERT_OK_AND_ASSIGN(std::string bytes, ReadBoundedFile("--x", path, 2 << 20, "r"));
  EXPECT_EQ(bytes, contents);
  EXPECT_LT(bytes.capacity(), contents.size() + 4096);
}

TEST(BoundedFileTest, RefusesWhatItCannotReadWithinTheBound) {
  const std::string path = TempFile("six", "123456");
  EXPECT_THAT(ReadBoundedFile("--x", path, 5, "a test limit"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--x=" + path + ": is 6 bytes, more than 5 (a test limit)"));
  EXPECT_THAT(ReadBoundedFile("", "/dev/zero", 5, "r"),
              StatusIs(absl::StatusCode::kInvalidArgument, "/dev/zero: is a device, not a file"));
  EXPECT_THAT(
      ReadBoundedFile("", testing::TempDir(), 5, "r"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(": is a directory, not a file")));
  EXPECT_THAT(ReadBoundedFile("--y", "/no/such/file", 5, "r"),
              StatusIs(absl::StatusCode::kNotFound, "--y=/no/such/file: cannot be read"));
}

}  // namespace
}  // namespace rill
