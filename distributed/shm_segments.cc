#include "distributed/shm_segments.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "distributed/shm_offer.h"

namespace rill {
namespace distributed {
namespace {

uint64_t RandomToken() {
  static std::atomic<uint64_t> counter{0};
  std::random_device rd;
  const uint64_t r = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  return r ^ (counter.fetch_add(1) * 0x9e3779b97f4a7c15ULL) ^ static_cast<uint64_t>(getpid());
}

size_t RoundToPage(size_t n) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (n + page - 1) / page * page;
}

// A new segment holding only its header.
std::unique_ptr<ShmSegment> NewSegment() {
  auto s = std::make_unique<ShmSegment>();
  s->fd = memfd_create("rill-recv", MFD_CLOEXEC);
  if (s->fd < 0) return nullptr;
  struct stat st;
  s->token = RandomToken();
  uint64_t header[2] = {s->token, 0};
  if (ftruncate(s->fd, kShmHeaderBytes) != 0 || fstat(s->fd, &st) != 0 ||
      pwrite(s->fd, header, sizeof(header), 0) != static_cast<ssize_t>(sizeof(header))) {
    return nullptr;  // ~ShmSegment closes the fd
  }
  s->inode = static_cast<uint64_t>(st.st_ino);
  return s;
}

bool ReadAll(int fd, char* dst, size_t n, off_t offset) {
  while (n > 0) {
    const ssize_t got = pread(fd, dst, n, offset);
    if (got <= 0) return false;
    dst += got;
    n -= static_cast<size_t>(got);
    offset += got;
  }
  return true;
}

}  // namespace

ShmSegment::~ShmSegment() {
  if (map != nullptr) munmap(map, mapped);
  if (fd >= 0) close(fd);
}

ShmLease::ShmLease(ShmSegments* pool, std::unique_ptr<ShmSegment> segment, std::string offer)
    : pool_(pool), segment_(std::move(segment)), offer_(std::move(offer)) {}

ShmLease::~ShmLease() {
  if (keep_) pool_->Release(std::move(segment_));
}

absl::StatusOr<Tensor> ShmLease::Take(DataType dtype, const TensorShape& shape) {
  ShmSegment* s = segment_.get();
  if (DataTypeSize(dtype) <= 0 || !IsSupportedDataType(dtype)) {
    return absl::InvalidArgumentError(absl::StrCat("Same-host RecvTensor: a ",
                                                   DataTypeString(dtype),
                                                   " tensor cannot come through shared memory; the "
                                                   "sending task must send it in the response"));
  }
  Tensor out;
  {
    absl::StatusOr<Tensor> t = Tensor::AllocateUninitialized(CpuAllocator::Default(), dtype, shape);
    if (!t.ok()) return t.status();
    out = std::move(*t);
  }
  const size_t bytes = out.TotalBytes();
  const size_t need = kShmHeaderBytes + bytes;
  struct stat st;
  if (fstat(s->fd, &st) != 0) st.st_size = 0;
  if (static_cast<size_t>(st.st_size) < need) {
    return absl::InvalidArgumentError(
        absl::StrCat("Same-host RecvTensor: the segment holds ", st.st_size, " bytes, not the ",
                     bytes, " of a ", DataTypeString(dtype), " tensor of shape ",
                     shape.DebugString(), " after its header; the sending task did not write it"));
  }
  uint64_t header[2] = {0, 0};
  const bool mappable = !pool_->fail_map_.load();
  if (mappable && s->mapped < static_cast<size_t>(st.st_size)) {
    // The sender grew the segment: map it whole again.
    if (s->map != nullptr) munmap(s->map, s->mapped);
    s->mapped = RoundToPage(static_cast<size_t>(st.st_size));
    s->map = mmap(nullptr, s->mapped, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (s->map == MAP_FAILED) {
      s->map = nullptr;
      s->mapped = 0;
    }
  }
  if (mappable && s->map != nullptr) {
    std::memcpy(header, s->map, sizeof(header));
  } else if (!ReadAll(s->fd, reinterpret_cast<char*>(header), sizeof(header), 0)) {
    return absl::InternalError("Same-host RecvTensor: cannot read the segment's header");
  }
  if (header[0] != s->token || header[1] != bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("Same-host RecvTensor: the segment's header says ", header[1],
                     " bytes (token ", header[0] == s->token ? "matches" : "differs", ") for a ",
                     DataTypeString(dtype), " tensor of shape ", shape.DebugString(), " (", bytes,
                     " bytes); the sending task did not write it"));
  }
  if (bytes > 0) {
    char* dst = static_cast<char*>(out.raw_data());
    if (mappable && s->map != nullptr) {
      std::memcpy(dst, static_cast<const char*>(s->map) + kShmHeaderBytes, bytes);
    } else {
      if (!ReadAll(s->fd, dst, bytes, kShmHeaderBytes)) {
        return absl::InternalError("Same-host RecvTensor: cannot read the segment");
      }
      pool_->read_without_map_.fetch_add(1);
    }
  }
  // Marks the segment empty again, so a stale header can never pass for the next call's tensor.
  header[1] = 0;
  if (mappable && s->map != nullptr) {
    std::memcpy(s->map, header, sizeof(header));
  } else if (pwrite(s->fd, header, sizeof(header), 0) != static_cast<ssize_t>(sizeof(header))) {
    segment_.reset();  // not reusable: closed, never returned to the pool
  }
  keep_ = segment_ != nullptr;
  pool_->taken_.fetch_add(1);
  return out;
}

ShmSegments* ShmSegments::Default() {
  static ShmSegments* pool = new ShmSegments();
  return pool;
}

std::unique_ptr<ShmLease> ShmSegments::Acquire() {
  if (!GetShmSettings().enabled || ShmHostId().empty()) return nullptr;
  std::unique_ptr<ShmSegment> segment;
  {
    MutexLock lock(&mu_);
    if (!idle_.empty()) {
      segment = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (segment == nullptr) segment = NewSegment();
  if (segment == nullptr) return nullptr;
  ShmOffer offer;
  offer.host = ShmHostId();
  offer.pid = getpid();
  offer.fd = segment->fd;
  offer.inode = segment->inode;
  offer.token = segment->token;
  std::string text = FormatShmOffer(offer);
  return std::make_unique<ShmLease>(this, std::move(segment), std::move(text));
}

void ShmSegments::Release(std::unique_ptr<ShmSegment> segment) {
  if (segment == nullptr) return;
  MutexLock lock(&mu_);
  // The largest segments are kept: they serve any smaller tensor without growing.
  idle_.push_back(std::move(segment));
  std::sort(idle_.begin(), idle_.end(),
            [](const std::unique_ptr<ShmSegment>& a, const std::unique_ptr<ShmSegment>& b) {
              return a->mapped < b->mapped;
            });
  if (idle_.size() > kMaxIdle) idle_.erase(idle_.begin());
}

}  // namespace distributed
}  // namespace rill
