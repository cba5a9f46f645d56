#include "core/logging.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/base/const_init.h"
#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/env.h"
#include "core/mutex.h"

namespace rill {
namespace {

constexpr int kUnset = -1000;  // Sentinel: the level has not been read from the environment yet.

std::atomic<int> min_log_level{kUnset};
std::atomic<int> min_vlog_level{kUnset};

ABSL_CONST_INIT rill::Mutex log_mu;
// Heap-allocated and never freed, so logging from static destructors stays safe.
std::function<void(absl::string_view)>* log_sink ABSL_GUARDED_BY(log_mu) = nullptr;

int ReadLevel(const char* name) {
  absl::StatusOr<int64_t> value = ReadInt64FromEnv(name, 0);
  if (!value.ok()) return 0;
  if (*value < 0) return 0;
  if (*value > 1000) return 1000;
  return static_cast<int>(*value);
}

int CachedLevel(std::atomic<int>& cache, const char* name) {
  int level = cache.load(std::memory_order_relaxed);
  if (ABSL_PREDICT_FALSE(level == kUnset)) {
    level = ReadLevel(name);
    cache.store(level, std::memory_order_relaxed);
  }
  return level;
}

long CurrentTid() {
  static thread_local long tid = static_cast<long>(syscall(SYS_gettid));
  return tid;
}

absl::string_view Basename(const char* path) {
  absl::string_view p(path);
  const size_t slash = p.rfind('/');
  return slash == absl::string_view::npos ? p : p.substr(slash + 1);
}

void WriteToStderr(const std::string& line) {
  const std::string with_newline = absl::StrCat(line, "\n");
  std::fwrite(with_newline.data(), 1, with_newline.size(), stderr);
  std::fflush(stderr);
}

}  // namespace

int MinLogLevel() { return CachedLevel(min_log_level, "RILL_CPP_MIN_LOG_LEVEL"); }

int MinVlogLevel() { return CachedLevel(min_vlog_level, "RILL_CPP_MIN_VLOG_LEVEL"); }

bool VlogIsOn(int level) { return MinVlogLevel() >= level; }

void ReloadLogLevelsFromEnv() {
  min_log_level.store(ReadLevel("RILL_CPP_MIN_LOG_LEVEL"), std::memory_order_relaxed);
  min_vlog_level.store(ReadLevel("RILL_CPP_MIN_VLOG_LEVEL"), std::memory_order_relaxed);
}

void SetLogSinkForTesting(std::function<void(absl::string_view line)> sink) {
  rill::MutexLock lock(&log_mu);
  if (sink == nullptr) {
    delete log_sink;
    log_sink = nullptr;
  } else if (log_sink == nullptr) {
    log_sink = new std::function<void(absl::string_view)>(std::move(sink));
  } else {
    *log_sink = std::move(sink);
  }
}

namespace logging_internal {

bool LogEnabled(LogSeverity severity) {
  return severity == LogSeverity::kFatal || static_cast<int>(severity) >= MinLogLevel();
}

LogMessage::LogMessage(const char* file, int line, LogSeverity severity)
    : file_(file), line_(line), severity_(severity) {}

LogMessage::~LogMessage() {
  // The macros already filtered; check again for anyone constructing LogMessage directly.
  if (LogEnabled(severity_)) Emit();
}

void LogMessage::Emit() {
  const absl::Time now = absl::Now();
  const char letter = "IWEF"[static_cast<int>(severity_)];
  const std::string line =
      absl::StrCat(absl::string_view(&letter, 1),
                   absl::FormatTime("%m%d %H:%M:%E6S", now, absl::LocalTimeZone()), " ",
                   CurrentTid(), " ", Basename(file_), ":", line_, "] ", stream_.str());
  rill::MutexLock lock(&log_mu);
  if (log_sink != nullptr) {
    (*log_sink)(line);
    // A FATAL line also reaches stderr: the process is about to die and the sink may not outlive
    // it (death tests read stderr).
    if (severity_ == LogSeverity::kFatal) WriteToStderr(line);
  } else {
    WriteToStderr(line);
  }
}

LogMessageFatal::LogMessageFatal(const char* file, int line)
    : LogMessage(file, line, LogSeverity::kFatal) {}

LogMessageFatal::~LogMessageFatal() {
  Emit();
  std::abort();
}

}  // namespace logging_internal
}  // namespace rill
