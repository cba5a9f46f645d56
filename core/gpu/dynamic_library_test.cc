#include "core/gpu/dynamic_library.h"

#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace gpu_internal {
namespace {

using ::testing::HasSubstr;

TEST(DynamicLibraryTest, OpensTheFirstNameFoundAndSaysWhyOthersFailed) {
  std::string tried;
  void* lib = OpenFirstLibrary({"librill_no_such_library.so.1", "libc.so.6"}, &tried);
  ASSERT_NE(lib, nullptr);
  EXPECT_THAT(tried, HasSubstr("librill_no_such_library.so.1"));
  EXPECT_THAT(LibraryPath(lib), HasSubstr("libc.so.6"));
  void* (*fn)(size_t) = nullptr;
  std::string error;
  EXPECT_TRUE(ResolveSymbol(lib, "libc", "malloc", &fn, &error));
  EXPECT_EQ(fn, &std::malloc);
  int (*missing)() = nullptr;
  EXPECT_FALSE(ResolveSymbol(lib, "libc", "rill_no_such_symbol", &missing, &error));
  EXPECT_EQ(error, "libc has no rill_no_such_symbol");
}

TEST(DynamicLibraryTest, NoNameFoundGivesNullAndEveryReason) {
  std::string tried;
  EXPECT_EQ(OpenFirstLibrary({"librill_absent_a.so", "librill_absent_b.so"}, &tried), nullptr);
  EXPECT_THAT(tried, HasSubstr("librill_absent_a.so"));
  EXPECT_THAT(tried, HasSubstr("; "));
  EXPECT_THAT(tried, HasSubstr("librill_absent_b.so"));
}

}  // namespace
}  // namespace gpu_internal
}  // namespace rill
