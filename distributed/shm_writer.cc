#include "distributed/shm_writer.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace rill {
namespace distributed {
namespace {

size_t RoundToPage(size_t n) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (n + page - 1) / page * page;
}

bool ProcessGone(int64_t pid) { return kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

// Closes the fd on every return.
struct Fd {
  ~Fd() {
    if (fd >= 0) close(fd);
  }
  int fd = -1;
};

}  // namespace

ShmWriter::Mapping::~Mapping() {
  if (map != nullptr) munmap(map, size);
}

ShmWriter* ShmWriter::Default() {
  static ShmWriter* writer = new ShmWriter();
  return writer;
}

absl::Status ShmWriter::Open(const ShmOffer& offer, size_t need, std::shared_ptr<Mapping>* out) {
  const std::string path = absl::StrCat("/proc/", offer.pid, "/fd/", offer.fd);
  Fd f;
  f.fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (f.fd < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot open the offered segment ", path, ": ", std::strerror(errno)));
  }
  // The fd number may have been reused by the receiver since it offered: check it is the segment.
  struct stat st;
  char name[64] = {0};
  const std::string self = absl::StrCat("/proc/self/fd/", f.fd);
  const ssize_t n = readlink(self.c_str(), name, sizeof(name) - 1);
  uint64_t token = 0;
  if (fstat(f.fd, &st) != 0 || static_cast<uint64_t>(st.st_ino) != offer.inode || n <= 0 ||
      !absl::StartsWith(absl::string_view(name, n), "/memfd:rill-recv") ||
      pread(f.fd, &token, sizeof(token), 0) != static_cast<ssize_t>(sizeof(token)) ||
      token != offer.token) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, " is not the segment offered (inode ", offer.inode, ")"));
  }
  size_t size = static_cast<size_t>(st.st_size);
  if (size < need) {
    size = RoundToPage(need);
    if (ftruncate(f.fd, static_cast<off_t>(size)) != 0) {
      return absl::InternalError(absl::StrCat("cannot grow the offered segment to ", size,
                                              " bytes: ", std::strerror(errno)));
    }
  }
  auto m = std::make_shared<Mapping>();
  m->map = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd, 0);
  if (m->map == MAP_FAILED) {
    m->map = nullptr;
    return absl::InternalError(
        absl::StrCat("cannot map the offered segment (", size, " bytes): ", std::strerror(errno)));
  }
  m->size = size;
  *out = std::move(m);
  return absl::OkStatus();
}

absl::Status ShmWriter::Write(const ShmOffer& offer, const Tensor& value) {
  if (offer.host != ShmHostId() || offer.host.empty()) {
    return absl::FailedPreconditionError("the receiver is on another host");
  }
  Sweep();
  const size_t bytes = value.TotalBytes();
  const size_t need = kShmHeaderBytes + bytes;
  const Key key(offer.pid, offer.token);
  std::shared_ptr<Mapping> m;
  {
    MutexLock lock(&mu_);
    auto it = mappings_.find(key);
    if (it != mappings_.end()) {
      m = it->second;
      if (m->size < need) {
        mappings_.erase(it);  // grown below: mapped anew
        m.reset();
      }
    }
  }
  uint64_t header[2];
  if (m != nullptr) {
    std::memcpy(header, m->map, sizeof(header));
    if (header[0] != offer.token) m.reset();  // another segment now: open it
  }
  if (m == nullptr) {
    absl::Status s = Open(offer, need, &m);
    if (!s.ok()) return s;
    MutexLock lock(&mu_);
    m->last_use = absl::Now();
    mappings_[key] = m;
    if (mappings_.size() > kMaxMappings) {
      auto oldest = mappings_.begin();
      for (auto it = mappings_.begin(); it != mappings_.end(); ++it) {
        if (it->second->last_use < oldest->second->last_use) oldest = it;
      }
      mappings_.erase(oldest);
    }
  }
  char* base = static_cast<char*>(m->map);
  if (bytes > 0) std::memcpy(base + kShmHeaderBytes, value.raw_data(), bytes);
  header[0] = offer.token;
  header[1] = bytes;
  std::memcpy(base, header, sizeof(header));
  {
    MutexLock lock(&mu_);
    m->last_use = absl::Now();
  }
  written_.fetch_add(1);
  return absl::OkStatus();
}

void ShmWriter::Sweep(bool all) {
  std::vector<std::shared_ptr<Mapping>> dropped;  // unmapped outside the lock
  MutexLock lock(&mu_);
  const absl::Time now = absl::Now();
  if (!all && now - last_sweep_ < absl::Seconds(1)) return;
  last_sweep_ = now;
  for (auto it = mappings_.begin(); it != mappings_.end();) {
    if (all || ProcessGone(it->first.first) ||
        now - it->second->last_use > absl::Seconds(kIdleSeconds)) {
      dropped.push_back(std::move(it->second));
      it = mappings_.erase(it);
    } else {
      ++it;
    }
  }
}

int ShmWriter::mappings() {
  MutexLock lock(&mu_);
  return static_cast<int>(mappings_.size());
}

}  // namespace distributed
}  // namespace rill
