// The receiver's segments and the sender's writer together, in one process (the receiver's pid is
// this process's): what a Rill sender and receiver on one host do around a RecvTensor call.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <limits>
#include <string>

#include "core/status_matchers.h"
#include "distributed/shm_offer.h"
#include "distributed/shm_segments.h"
#include "distributed/shm_writer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace distributed {
namespace {

using ::rill::StatusIs;
using ::testing::HasSubstr;

// Open fds of this process that are receive segments.
int SegmentFds() {
  int n = 0;
  DIR* d = opendir("/proc/self/fd");
  while (dirent* e = readdir(d)) {
    char target[256] = {0};
    const std::string path = std::string("/proc/self/fd/") + e->d_name;
    if (readlink(path.c_str(), target, sizeof(target) - 1) > 0 &&
        std::strncmp(target, "/memfd:rill-recv", 16) == 0) {
      ++n;
    }
  }
  closedir(d);
  return n;
}

// Mappings of receive segments in this process.
int SegmentMaps() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  int n = 0;
  while (std::getline(maps, line)) n += line.find("memfd:rill-recv") != std::string::npos;
  return n;
}

ShmOffer OfferOf(const ShmLease& lease) { return *ParseShmOffer(lease.offer()); }

class ShmTransferTest : public ::testing::Test {
 protected:
  void SetUp() override { SetShmSettings({true, 0}); }
  void TearDown() override {
    ShmSegments::Default()->set_fail_map_for_test(false);
    ShmWriter::Default()->Sweep(true);
    SetShmSettings(ShmSettings());
  }
};

template <typename T>
Tensor Pattern(DataType dtype, int64_t n) {
  Tensor t(dtype, TensorShape({n}));
  auto v = t.flat<T>();
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<T>(i * 7 + 3);
  return t;
}

void ExpectSameBytes(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.TotalBytes(), b.TotalBytes());
  EXPECT_EQ(std::memcmp(a.raw_data(), b.raw_data(), a.TotalBytes()), 0);
}

TEST_F(ShmTransferTest, TensorsOfEverySizeArriveBitIdentical) {
  Tensor big = Pattern<float>(DT_FLOAT, 25 * 1000 * 1000);  // 100 MB
  big.flat<float>()[5] = -0.0f;
  big.flat<float>()[6] = std::numeric_limits<float>::quiet_NaN();
  for (const Tensor& sent :
       {Pattern<float>(DT_FLOAT, 0), Pattern<uint8_t>(DT_UINT8, 1), Pattern<double>(DT_DOUBLE, 3),
        Pattern<int64_t>(DT_INT64, 1000), big}) {
    std::unique_ptr<ShmLease> lease = ShmSegments::Default()->Acquire();
    ASSERT_NE(lease, nullptr);
    const int64_t written = ShmWriter::Default()->written();
    RILL_ASSERT_OK(ShmWriter::Default()->Write(OfferOf(*lease), sent));
    EXPECT_EQ(ShmWriter::Default()->written(), written + 1);
    RILL_ASSERT_OK_AND_ASSIGN(Tensor got, lease->Take(sent.dtype(), sent.shape()));
    ExpectSameBytes(got, sent);
  }
}

TEST_F(ShmTransferTest, SegmentIsReusedAndTheSenderKeepsOneMapping) {
  ShmWriter::Default()->Sweep(true);
  std::string first_offer;
  for (int64_t n : {1000, 300000, 2000}) {
    std::unique_ptr<ShmLease> lease = ShmSegments::Default()->Acquire();
    ASSERT_NE(lease, nullptr);
    const ShmOffer offer = OfferOf(*lease);
    if (first_offer.empty()) first_offer = lease->offer();
    EXPECT_EQ(lease->offer(), first_offer);  // the largest idle segment, grown by the sender
    Tensor sent = Pattern<int32_t>(DT_INT32, n);
    RILL_ASSERT_OK(ShmWriter::Default()->Write(offer, sent));
    RILL_ASSERT_OK_AND_ASSIGN(Tensor got, lease->Take(DT_INT32, sent.shape()));
    ExpectSameBytes(got, sent);
    EXPECT_EQ(ShmWriter::Default()->mappings(), 1);
  }
}

TEST_F(ShmTransferTest, ReceiverThatCannotMapReadsTheSegment) {
  ShmSegments::Default()->set_fail_map_for_test(true);
  std::unique_ptr<ShmLease> lease = ShmSegments::Default()->Acquire();
  ASSERT_NE(lease, nullptr);
  Tensor sent = Pattern<int16_t>(DT_INT16, 5000);
  RILL_ASSERT_OK(ShmWriter::Default()->Write(OfferOf(*lease), sent));
  const int64_t unmapped = ShmSegments::Default()->read_without_map();
  RILL_ASSERT_OK_AND_ASSIGN(Tensor got, lease->Take(DT_INT16, sent.shape()));
  ExpectSameBytes(got, sent);
  EXPECT_EQ(ShmSegments::Default()->read_without_map(), unmapped + 1);
}

TEST_F(ShmTransferTest, SenderRefusesWhatIsNotTheOfferedSegment) {
  std::unique_ptr<ShmLease> lease = ShmSegments::Default()->Acquire();
  ASSERT_NE(lease, nullptr);
  Tensor sent = Pattern<float>(DT_FLOAT, 10);
  ShmOffer offer = OfferOf(*lease);

  ShmOffer other_host = offer;
  other_host.host = "another-boot/pid:[1]";
  EXPECT_THAT(ShmWriter::Default()->Write(other_host, sent),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("the receiver is on another host")));

  ShmOffer wrong_token = offer;
  wrong_token.token ^= 1;
  EXPECT_THAT(
      ShmWriter::Default()->Write(wrong_token, sent),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("is not the segment offered")));

  // A regular file with its own inode in the offer: not a memfd, never written.
  char path[] = "/tmp/shm_transfer_testXXXXXX";
  const int file = mkstemp(path);
  ASSERT_GE(file, 0);
  struct stat st;
  ASSERT_EQ(fstat(file, &st), 0);
  ShmOffer plain_file = offer;
  plain_file.fd = file;
  plain_file.inode = st.st_ino;
  EXPECT_THAT(
      ShmWriter::Default()->Write(plain_file, sent),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("is not the segment offered")));
  ASSERT_EQ(fstat(file, &st), 0);
  EXPECT_EQ(st.st_size, 0);
  close(file);
  unlink(path);

  ShmOffer no_such_fd = offer;
  no_such_fd.fd = 100000;
  EXPECT_THAT(ShmWriter::Default()->Write(no_such_fd, sent),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("cannot open the offered segment /proc/")));
}

TEST_F(ShmTransferTest, TakeWithoutAWriteIsInvalidArgument) {
  std::unique_ptr<ShmLease> lease = ShmSegments::Default()->Acquire();
  ASSERT_NE(lease, nullptr);
  EXPECT_THAT(
      lease->Take(DT_FLOAT, TensorShape({4})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("the sending task did not write it")));
  EXPECT_THAT(lease->Take(DT_STRING, TensorShape({1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("a string tensor cannot come through shared memory")));
}

TEST_F(ShmTransferTest, NothingLeaks) {
  ShmWriter::Default()->Sweep(true);
  const int fds = SegmentFds();
  {
    // Completed calls return their segments: the pool keeps at most kMaxIdle.
    std::unique_ptr<ShmLease> a = ShmSegments::Default()->Acquire();
    std::unique_ptr<ShmLease> b = ShmSegments::Default()->Acquire();
    std::unique_ptr<ShmLease> c = ShmSegments::Default()->Acquire();
    a->Keep();
    b->Keep();
    c->Keep();
  }
  EXPECT_LE(SegmentFds(), ShmSegments::kMaxIdle);
  const int idle = SegmentFds();
  {
    // A failed or cancelled call (no Keep, no Take) closes its segment, even with the sender's
    // mapping of it alive.
    std::unique_ptr<ShmLease> failed = ShmSegments::Default()->Acquire();
    RILL_ASSERT_OK(ShmWriter::Default()->Write(OfferOf(*failed), Pattern<float>(DT_FLOAT, 100)));
  }
  EXPECT_EQ(SegmentFds(), idle - 1);
  EXPECT_EQ(ShmWriter::Default()->mappings(), 1);
  ShmWriter::Default()->Sweep(true);
  EXPECT_EQ(ShmWriter::Default()->mappings(), 0);
  // The pool's own mappings are of its idle segments only.
  EXPECT_LE(SegmentMaps(), SegmentFds());
  EXPECT_LE(SegmentFds(), fds + ShmSegments::kMaxIdle);
}

TEST_F(ShmTransferTest, DisabledOffersNothing) {
  SetShmSettings({false, 0});
  EXPECT_EQ(ShmSegments::Default()->Acquire(), nullptr);
}

}  // namespace
}  // namespace distributed
}  // namespace rill
