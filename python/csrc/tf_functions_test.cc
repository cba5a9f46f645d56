#include "python/csrc/tf_functions.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace rill_py {
namespace {

// The library's path: $RILL_LIBRARY, else the test's runfiles.
std::string LibraryPath() {
  const char* env = std::getenv("RILL_LIBRARY");
  return env != nullptr ? env : "c/libtensorflow.so.2";
}

TEST(TfFunctions, BindsEveryFunctionFromTheLibraryHandle) {
  void* handle = dlopen(LibraryPath().c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  TfFunctions fns;
  std::string missing;
  ASSERT_TRUE(BindTfFunctions(handle, &fns, &missing)) << missing;
  EXPECT_EQ(fns.session_run, dlsym(handle, "TF_SessionRun"));
  EXPECT_EQ(fns.type_size(TF_FLOAT), 4u);
  EXPECT_EQ(fns.type_size(TF_COMPLEX128), 16u);
  // A tensor over caller memory, seen through the bound functions.
  float values[3] = {1, 2, 3};
  const int64_t dims[1] = {3};
  TF_Tensor* t = fns.new_tensor(
      TF_FLOAT, dims, 1, values, sizeof(values), [](void*, size_t, void*) {}, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(fns.num_dims(t), 1);
  EXPECT_EQ(fns.dim(t, 0), 3);
  EXPECT_EQ(fns.data(t), values);
  EXPECT_EQ(fns.byte_size(t), sizeof(values));
  EXPECT_EQ(fns.maybe_move(t), nullptr);  // caller memory is not the library's to hand over
  fns.delete_tensor(t);
  TF_Status* s = fns.new_status();
  EXPECT_EQ(fns.get_code(s), TF_OK);
  fns.delete_status(s);
}

TEST(TfFunctions, NamesTheFirstMissingFunctionAndLeavesTheTableAlone) {
  void* libc = dlopen("libc.so.6", RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(libc, nullptr) << dlerror();
  TfFunctions fns;
  std::string missing;
  EXPECT_FALSE(BindTfFunctions(libc, &fns, &missing));
  EXPECT_EQ(missing, "TF_NewStatus");
  EXPECT_EQ(fns.new_status, nullptr);
  EXPECT_EQ(fns.session_run, nullptr);
}

}  // namespace
}  // namespace rill_py
