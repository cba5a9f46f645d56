#include <fstream>
#include <memory>
#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(LookupOpsTest, TableHandleNamesTheSharedNameOrTheNode) {
  OpTester named("HashTableV2");
  named.Attr("key_dtype", DT_STRING).Attr("value_dtype", DT_INT64).Attr("shared_name", "vocab");
  RILL_ASSERT_OK_AND_ASSIGN(auto a, named.Run());
  EXPECT_EQ(a[0].flat<std::string>()[0], "localhost/vocab");
  OpTester anonymous("MutableHashTableV2");
  anonymous.Attr("key_dtype", DT_INT64).Attr("value_dtype", DT_FLOAT).Attr("container", "c");
  RILL_ASSERT_OK_AND_ASSIGN(auto b, anonymous.Run());
  EXPECT_THAT(b[0].flat<std::string>()[0], ::testing::StartsWith("c/"));
}

TEST(LookupOpsTest, FindOnAHandleNoTableOpMadeIsNotFound) {
  OpTester find("LookupTableFindV2");
  find.Attr("Tin", DT_STRING).Attr("Tout", DT_INT64);
  find.Input(Tensor::FromVector<std::string>({"localhost/missing"}, TensorShape({})));
  find.Input(Tensor::FromVector<std::string>({"a"}, TensorShape({1})));
  find.Input(Tensor::FromVector<int64_t>({-1}, TensorShape({})));
  EXPECT_THAT(find.Run(), StatusIs(absl::StatusCode::kNotFound,
                                   HasSubstr("Resource localhost/missing does not exist.")));
}

TEST(LookupOpsTest, TextFileInitializationReadsColumnsAndLineNumbers) {
  const std::string path = ::testing::TempDir() + "/vocab.txt";
  {
    std::ofstream f(path);
    f << "apple\t10\nbanana\t20\n";
  }
  std::unique_ptr<Device> device = NewCpuDevice(kTestCpuDevice);
  OpTester table("HashTableV2", "", device.get());
  table.Attr("key_dtype", DT_STRING).Attr("value_dtype", DT_INT64).Attr("shared_name", "v");
  RILL_ASSERT_OK_AND_ASSIGN(auto handle, table.Run());
  OpTester init("InitializeTableFromTextFileV2", "", device.get());
  init.Attr("key_index", int64_t{0})
      .Attr("value_index", int64_t{1})
      .Attr("vocab_size", int64_t{-1})
      .Attr("delimiter", "\t")
      .Attr("offset", int64_t{0});
  init.Input(handle[0]).Input(Tensor::FromVector<std::string>({path}, TensorShape({})));
  RILL_ASSERT_OK(init.Run().status());
  OpTester find("LookupTableFindV2", "", device.get());
  find.Attr("Tin", DT_STRING).Attr("Tout", DT_INT64);
  find.Input(handle[0]).Input(
      Tensor::FromVector<std::string>({"banana", "kiwi"}, TensorShape({2})));
  find.Input(Tensor::FromVector<int64_t>({-1}, TensorShape({})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, find.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({20, -1}, TensorShape({2})));
}

TEST(LookupOpsTest, TextFileThatCannotBeOpenedGetsTensorFlowsCodeForItsErrno) {
  std::unique_ptr<Device> device = NewCpuDevice(kTestCpuDevice);
  OpTester table("HashTableV2", "", device.get());
  table.Attr("key_dtype", DT_STRING).Attr("value_dtype", DT_INT64).Attr("shared_name", "w");
  RILL_ASSERT_OK_AND_ASSIGN(auto handle, table.Run());
  for (const auto& [path, code, why] :
       {std::make_tuple("/no/such/vocab.txt", absl::StatusCode::kNotFound,
                        "No such file or directory"),
        std::make_tuple("/dev/null/vocab.txt", absl::StatusCode::kFailedPrecondition,
                        "Not a directory")}) {
    OpTester init("InitializeTableFromTextFileV2", "", device.get());
    init.Attr("key_index", int64_t{-2})
        .Attr("value_index", int64_t{-1})
        .Attr("vocab_size", int64_t{-1})
        .Attr("delimiter", "\t")
        .Attr("offset", int64_t{0});
    init.Input(handle[0]).Input(Tensor::FromVector<std::string>({path}, TensorShape({})));
    EXPECT_THAT(init.Run(), StatusIs(code, std::string(path) + "; " + why));
  }
}

// TensorFlow 2.21's tf.raw_ops.InitializeTableFromTextFileV2 of an empty file: OutOfRange "Read
// less bytes than requested" without a vocab_size, "Invalid vocab_size in F: expected 3 but got 0"
// with 3.
TEST(LookupOpsTest, EmptyTextFileIsTensorFlowsError) {
  const std::string path = ::testing::TempDir() + "/empty_vocab.txt";
  std::ofstream(path).close();
  std::unique_ptr<Device> device = NewCpuDevice(kTestCpuDevice);
  OpTester table("HashTableV2", "", device.get());
  table.Attr("key_dtype", DT_STRING).Attr("value_dtype", DT_INT64).Attr("shared_name", "e");
  RILL_ASSERT_OK_AND_ASSIGN(auto handle, table.Run());
  for (int64_t vocab_size : {int64_t{-1}, int64_t{3}}) {
    OpTester init("InitializeTableFromTextFileV2", "", device.get());
    init.Attr("key_index", int64_t{-2})
        .Attr("value_index", int64_t{-1})
        .Attr("vocab_size", vocab_size)
        .Attr("delimiter", "\t")
        .Attr("offset", int64_t{0});
    init.Input(handle[0]).Input(Tensor::FromVector<std::string>({path}, TensorShape({})));
    if (vocab_size == -1) {
      EXPECT_THAT(init.Run(),
                  StatusIs(absl::StatusCode::kOutOfRange, "Read less bytes than requested"));
    } else {
      EXPECT_THAT(init.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                       "Invalid vocab_size in " + path + ": expected 3 but got 0"));
    }
  }
}

}  // namespace
}  // namespace rill
