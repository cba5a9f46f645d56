#include "core/io/tensor_bundle.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/io/table.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const char kTfBundle[] = "core/io/testdata/tf_written/bundle";

std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t != nullptr ? t : "/tmp";
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), bytes.size());
}

// A copy of the TensorFlow-written bundle at `prefix`, for corrupting.
void CopyTfBundle(const std::string& prefix) {
  Write(BundleIndexFilename(prefix), Read(BundleIndexFilename(kTfBundle)));
  Write(BundleDataFilename(prefix, 0, 1), Read(BundleDataFilename(kTfBundle, 0, 1)));
}

TEST(BundleReaderTest, ReadsWhatTensorFlowWrote) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(kTfBundle));
  EXPECT_THAT(r->Keys(), ElementsAre("a/float", "b/int64", "c/strings", "d/half", "e/bool",
                                     "f/empty", "g/double"));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor a, r->Lookup("a/float"));
  EXPECT_EQ(a.shape().DebugString(), "[2,3]");
  EXPECT_EQ(a.flat<float>()[5], 6.f);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor b, r->Lookup("b/int64"));
  EXPECT_EQ(b.flat<int64_t>()[0], -7);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor c, r->Lookup("c/strings"));
  EXPECT_EQ(c.flat<std::string>()[0], "");
  EXPECT_EQ(c.flat<std::string>()[1], "hello");
  EXPECT_EQ(c.flat<std::string>()[2], std::string(300, 'x'));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor d, r->Lookup("d/half"));
  EXPECT_EQ(d.dtype(), DT_HALF);
  EXPECT_EQ(d.shape().DebugString(), "[4]");
  RILL_ASSERT_OK_AND_ASSIGN(Tensor e, r->Lookup("e/bool"));
  EXPECT_FALSE(e.flat<bool>()[1]);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor f, r->Lookup("f/empty"));
  EXPECT_EQ(f.shape().DebugString(), "[0,5]");
  RILL_ASSERT_OK_AND_ASSIGN(Tensor g, r->Lookup("g/double"));
  EXPECT_EQ(g.flat<double>()[0], 1e-300);
}

TEST(BundleWriterTest, WritesBytesTensorFlowWouldWrite) {
  // Rewriting TensorFlow's tensors gives TensorFlow's data file byte for byte, and an index
  // with the same entries.
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> tf, BundleReader::Open(kTfBundle));
  const std::string prefix = TempDir() + "/rewritten";
  BundleWriter w(prefix);
  for (const std::string& k : tf->Keys()) ASSERT_THAT(w.Add(k, *tf->Lookup(k)), IsOk());
  ASSERT_THAT(w.Finish(), IsOk());
  EXPECT_EQ(Read(BundleDataFilename(prefix, 0, 1)), Read(BundleDataFilename(kTfBundle, 0, 1)));
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> back, BundleReader::Open(prefix));
  for (const std::string& k : tf->Keys()) {
    EXPECT_EQ(back->Entry(k)->SerializeAsString(), tf->Entry(k)->SerializeAsString()) << k;
  }
  EXPECT_THAT(w.Add("a/float", Tensor()),
              StatusIs(absl::StatusCode::kInvalidArgument, "Adding duplicate key: a/float"));
}

TEST(BundleReaderTest, EveryCorruptionIsACleanErrorNamingTensorAndFile) {
  const std::string prefix = TempDir() + "/corrupt";
  EXPECT_THAT(BundleReader::Open(TempDir() + "/nothing_here").status(),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("Unsuccessful TensorSliceReader constructor: Failed to find any "
                                 "matching files for")));
  CopyTfBundle(prefix);
  {
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(prefix));
    EXPECT_THAT(r->Lookup("zz").status(),
                StatusIs(absl::StatusCode::kNotFound, "Key zz not found in checkpoint " + prefix));
  }
  // A flipped bit in the float tensor's bytes.
  std::string data = Read(BundleDataFilename(prefix, 0, 1));
  data[2] ^= 0x04;
  Write(BundleDataFilename(prefix, 0, 1), data);
  {
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(prefix));
    EXPECT_THAT(r->Lookup("a/float").status(),
                StatusIs(absl::StatusCode::kDataLoss,
                         AllOf(HasSubstr("Checksum does not match"),
                               HasSubstr("tensor a/float in " + prefix + ".data-00000-of-00001"))));
  }
  // A truncated data file.
  Write(BundleDataFilename(prefix, 0, 1), data.substr(0, 30));
  {
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(prefix));
    EXPECT_THAT(r->Lookup("g/double").status(),
                StatusIs(absl::StatusCode::kDataLoss, HasSubstr("truncated file?")));
  }
  // A missing data file.
  std::filesystem::remove(BundleDataFilename(prefix, 0, 1));
  {
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(prefix));
    EXPECT_THAT(r->Lookup("a/float").status(),
                StatusIs(absl::StatusCode::kDataLoss, HasSubstr("is missing its data file")));
  }
  // A truncated index.
  const std::string index = Read(BundleIndexFilename(kTfBundle));
  Write(BundleIndexFilename(prefix), index.substr(0, index.size() - 10));
  EXPECT_THAT(BundleReader::Open(prefix).status(),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("Corrupted table file " + prefix + ".index")));
}

// The header's VersionDef is checked as TensorFlow's BundleReader checks it (CheckVersions with
// consumer version 1, minimum producer 0).
TEST(BundleReaderTest, HeaderVersionsAreCheckedAsTensorFlowChecksThem) {
  const std::string prefix = TempDir() + "/versions";
  auto with_version = [&](const VersionDef& v) {
    CopyTfBundle(prefix);
    absl::StatusOr<std::vector<TableEntry>> entries =
        ReadTable(Read(BundleIndexFilename(prefix)), "index");
    EXPECT_THAT(entries, IsOk());
    TableBuilder b;
    for (const TableEntry& e : *entries) {
      if (!e.key.empty()) {
        b.Add(e.key, e.value);
        continue;
      }
      BundleHeaderProto header;
      EXPECT_TRUE(header.ParseFromString(e.value));
      *header.mutable_version() = v;
      b.Add(e.key, header.SerializeAsString());
    }
    absl::StatusOr<std::string> bytes = b.Finish();
    EXPECT_THAT(bytes, IsOk());
    Write(BundleIndexFilename(prefix), *bytes);
    return BundleReader::Open(prefix).status();
  };
  VersionDef v;
  v.set_producer(1);
  v.set_min_consumer(1);
  EXPECT_THAT(with_version(v), IsOk());
  v.set_min_consumer(1000);
  EXPECT_THAT(with_version(v),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Checkpoint min consumer version 1000 above current version 1 for Rill.  "
                       "Please upgrade Rill."));
  v.set_min_consumer(0);
  v.add_bad_consumers(1);
  EXPECT_THAT(with_version(v), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("Checkpoint disallows consumer version 1.")));
  v.clear_bad_consumers();
  v.set_producer(-1);
  EXPECT_THAT(with_version(v), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("Checkpoint producer version -1 below min "
                                                  "producer 0")));
}

TEST(BundleReaderTest, ReadsOnlyATensorsOwnBytesOfARegularDataFile) {
  // A data file far larger than memory (sparse here): a lookup reads its tensor's bytes only.
  const std::string prefix = TempDir() + "/huge_data";
  CopyTfBundle(prefix);
  std::filesystem::resize_file(BundleDataFilename(prefix, 0, 1), uint64_t{20} << 30);
  {
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(prefix));
    RILL_ASSERT_OK_AND_ASSIGN(Tensor a, r->Lookup("a/float"));
    EXPECT_EQ(a.flat<float>()[5], 6.f);
    RILL_ASSERT_OK_AND_ASSIGN(Tensor c, r->Lookup("c/strings"));
    EXPECT_EQ(c.flat<std::string>()[2], std::string(300, 'x'));
  }
  std::filesystem::remove(BundleDataFilename(prefix, 0, 1));
  // A directory where the data file should be is not read as one.
  std::filesystem::create_directories(BundleDataFilename(prefix, 0, 1));
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(prefix));
  EXPECT_THAT(
      r->Lookup("a/float").status(),
      StatusIs(absl::StatusCode::kDataLoss, "Checkpoint " + prefix + "'s data file " + prefix +
                                                ".data-00000-of-00001 is not a regular file"));
  // Nor is a device where the index should be.
  const std::string device = TempDir() + "/device_index";
  std::filesystem::remove(BundleIndexFilename(device));
  std::filesystem::create_symlink("/dev/zero", BundleIndexFilename(device));
  EXPECT_THAT(BundleReader::Open(device).status(),
              StatusIs(absl::StatusCode::kDataLoss,
                       "Checkpoint index " + device + ".index is not a regular file"));
}

TEST(MergeBundlesTest, TwoShardsBecomeOneCheckpoint) {
  const std::string dir = TempDir() + "/merge";
  std::filesystem::create_directories(dir + "/part0");
  std::filesystem::create_directories(dir + "/part1");
  BundleWriter w0(dir + "/part0/p");
  ASSERT_THAT(w0.Add("x", Tensor::Scalar<float>(1.5f)), IsOk());
  ASSERT_THAT(w0.Finish(), IsOk());
  BundleWriter w1(dir + "/part1/p");
  ASSERT_THAT(w1.Add("y", Tensor::Scalar<int32_t>(3)), IsOk());
  ASSERT_THAT(w1.Finish(), IsOk());
  ASSERT_THAT(MergeBundles({dir + "/part0/p", dir + "/part1/p"}, dir + "/model", true, false),
              IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(dir + "/model"));
  EXPECT_EQ(r->header().num_shards(), 2);
  EXPECT_EQ(r->Lookup("x")->flat<float>()[0], 1.5f);
  EXPECT_EQ(r->Lookup("y")->flat<int32_t>()[0], 3);
  EXPECT_FALSE(std::filesystem::exists(dir + "/part0"));  // emptied and removed
}

TEST(BundleWriterTest, MakesThePrefixDirectoryAsTensorFlow) {
  const std::string dir = TempDir() + "/writer_dirs";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  BundleWriter w(dir + "/ckpt/model");  // ckpt is missing, its parent exists
  ASSERT_THAT(w.Add("v", Tensor::Scalar<float>(2.5f)), IsOk());
  ASSERT_THAT(w.Finish(), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r,
                            BundleReader::Open(dir + "/ckpt/model"));
  EXPECT_EQ(r->Lookup("v")->flat<float>()[0], 2.5f);
}

TEST(BundleWriterTest, UnwritablePrefixesAreIOErrors) {
  const std::string dir = TempDir() + "/writer_errors";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Write(dir + "/file", "x");
  BundleWriter under_file(dir + "/file/model");
  ASSERT_THAT(under_file.Add("v", Tensor::Scalar<float>(1.f)), IsOk());
  EXPECT_THAT(under_file.Finish(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       dir + "/file/model.data-00000-of-00001; Not a directory"));
  BundleWriter deep(dir + "/a/b/model");  // two missing levels: TensorFlow makes one
  ASSERT_THAT(deep.Add("v", Tensor::Scalar<float>(1.f)), IsOk());
  EXPECT_THAT(deep.Finish(),
              StatusIs(absl::StatusCode::kNotFound, dir + "/a/b; No such file or directory"));
  BundleWriter is_dir(dir);  // dir.data-00000-of-00001 beside dir: writable
  ASSERT_THAT(is_dir.Finish(), IsOk());
}

TEST(MergeBundlesTest, SourcesIndexesGoAndTheDestinationDirectoryIsMade) {
  const std::string dir = TempDir() + "/merge_keep";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  BundleWriter w0(dir + "/a");
  ASSERT_THAT(w0.Add("x", Tensor::Scalar<float>(1.5f)), IsOk());
  ASSERT_THAT(w0.Finish(), IsOk());
  ASSERT_THAT(MergeBundles({dir + "/a"}, dir + "/out/deeper/model", false, false), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r,
                            BundleReader::Open(dir + "/out/deeper/model"));
  EXPECT_EQ(r->Lookup("x")->flat<float>()[0], 1.5f);
  // The source's data moved, so its index goes too: it would name a missing data file.
  EXPECT_FALSE(std::filesystem::exists(dir + "/a.index"));
  EXPECT_THAT(BundleReader::Open(dir + "/a").status(),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr(dir + "/a.index")));
}

TEST(MergeBundlesTest, AMissingSourceIsTensorFlowsInvalidArgument) {
  const std::string dir = TempDir() + "/merge_missing";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  BundleWriter w0(dir + "/a");
  ASSERT_THAT(w0.Add("x", Tensor::Scalar<float>(1.5f)), IsOk());
  ASSERT_THAT(w0.Finish(), IsOk());
  EXPECT_THAT(MergeBundles({dir + "/a", dir + "/nope"}, dir + "/m", false, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("allow_missing_files was set to false and " + dir +
                                 "/nope did not exist.")));
  ASSERT_THAT(MergeBundles({dir + "/a", dir + "/nope"}, dir + "/m", false, true), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<BundleReader> r, BundleReader::Open(dir + "/m"));
  EXPECT_EQ(r->Lookup("x")->flat<float>()[0], 1.5f);
}

}  // namespace
}  // namespace rill
