// Minimal glog/TensorFlow-style logging.
//
//   RILL_LOG(INFO) << "Created device " << name;        // also WARNING, ERROR, FATAL
//   RILL_VLOG(2) << "Scheduling node " << node_name;    // on when RILL_CPP_MIN_VLOG_LEVEL >= 2
//   RILL_CHECK(n >= 0) << "negative count " << n;       // logs and aborts when false
//
// Each message becomes one line (no trailing newline in the message itself) written to stderr as
//
//   I1121 00:41:14.123456 12345 file.cc:42] message
//
// i.e. severity letter (I, W, E, F), local month and day, local time with microseconds, kernel
// thread id, basename of the source file, line number, "] ", then the streamed text. A message
// that itself contains newlines is still written as one write.
//
// Environment (read on first use; ReloadLogLevelsFromEnv() reads them again):
//   RILL_CPP_MIN_LOG_LEVEL   0 (default) logs everything, 1 drops INFO (and VLOG), 2 also drops
//                            WARNING, 3 also drops ERROR. FATAL messages and failed RILL_CHECKs
//                            are always written. A malformed value counts as 0.
//   RILL_CPP_MIN_VLOG_LEVEL  RILL_VLOG(n) is on when this is >= n (default 0: RILL_VLOG(0) only).
//                            VLOG lines carry severity INFO, so RILL_CPP_MIN_LOG_LEVEL >= 1 drops
//                            them too. A malformed value counts as 0.
//
// Disabled messages do not evaluate their streamed operands. RILL_LOG(FATAL) and a failed
// RILL_CHECK write the message and then call std::abort() (there is no Status: they are for
// invariant violations only; report recoverable errors through absl::Status instead).
//
// Thread safety: everything here is thread-safe. Writes are serialized by one process-wide mutex,
// so lines from different threads never interleave. A test sink is called with that mutex held,
// so it needs no locking of its own, but it must not log (that would deadlock).
#ifndef RILL_CORE_LOGGING_H_
#define RILL_CORE_LOGGING_H_

#include <functional>
#include <ostream>
#include <sstream>

#include "absl/base/optimization.h"
#include "absl/strings/string_view.h"

namespace rill {

enum class LogSeverity : int {
  kInfo = 0,
  kWarning = 1,
  kError = 2,
  kFatal = 3,
};

// Current RILL_CPP_MIN_LOG_LEVEL / RILL_CPP_MIN_VLOG_LEVEL (cached after the first call).
int MinLogLevel();
int MinVlogLevel();

// True when RILL_VLOG(level) messages are on: MinVlogLevel() >= level. Lets callers skip work
// that only feeds a verbose message:  if (VlogIsOn(3)) { ...expensive dump... }
bool VlogIsOn(int level);

// Reads RILL_CPP_MIN_LOG_LEVEL and RILL_CPP_MIN_VLOG_LEVEL from the environment again (for tests
// that change them with setenv; see env.h for getenv's thread-safety caveat).
void ReloadLogLevelsFromEnv();

// Test hook: from now on every emitted line goes to `sink` (as the full line, prefix included,
// without the trailing '\n') instead of stderr; nullptr restores stderr. Filtering by level
// happens before the sink. FATAL lines go to the sink and to stderr, then the process aborts.
// The sink is called under the logging mutex (see above) and is owned by the logging module until
// replaced.
void SetLogSinkForTesting(std::function<void(absl::string_view line)> sink);

namespace logging_internal {

// One message being built; emits in the destructor. Use the macros, not this class.
class LogMessage {
 public:
  LogMessage(const char* file, int line, LogSeverity severity);
  ~LogMessage();
  LogMessage(const LogMessage&) = delete;
  LogMessage& operator=(const LogMessage&) = delete;

  std::ostream& stream() { return stream_; }

 protected:
  // Formats prefix + text and writes it to the sink or stderr (serialized).
  void Emit();

 private:
  const char* file_;
  int line_;
  LogSeverity severity_;
  std::ostringstream stream_;
};

// A FATAL message: emits regardless of levels, then aborts.
class LogMessageFatal : public LogMessage {
 public:
  LogMessageFatal(const char* file, int line);
  [[noreturn]] ~LogMessageFatal();
};

// Turns `stream << a << b` into a void expression so it fits in a conditional operator.
struct Voidify {
  void operator&(std::ostream&) {}
};

// Whether messages of `severity` pass RILL_CPP_MIN_LOG_LEVEL (FATAL always does).
bool LogEnabled(LogSeverity severity);

}  // namespace logging_internal
}  // namespace rill

#define RILL_LOG_INTERNAL_(severity)              \
  !::rill::logging_internal::LogEnabled(severity) \
      ? (void)0                                   \
      : ::rill::logging_internal::Voidify() &     \
            ::rill::logging_internal::LogMessage(__FILE__, __LINE__, severity).stream()

#define RILL_LOG_INTERNAL_INFO RILL_LOG_INTERNAL_(::rill::LogSeverity::kInfo)
#define RILL_LOG_INTERNAL_WARNING RILL_LOG_INTERNAL_(::rill::LogSeverity::kWarning)
#define RILL_LOG_INTERNAL_ERROR RILL_LOG_INTERNAL_(::rill::LogSeverity::kError)
#define RILL_LOG_INTERNAL_FATAL \
  ::rill::logging_internal::LogMessageFatal(__FILE__, __LINE__).stream()

// RILL_LOG(INFO|WARNING|ERROR|FATAL) << ...;
#define RILL_LOG(severity) RILL_LOG_INTERNAL_##severity

// RILL_VLOG(n) << ...;  logged at INFO when RILL_CPP_MIN_VLOG_LEVEL >= n.
#define RILL_VLOG(level)                                                                         \
  !(::rill::logging_internal::LogEnabled(::rill::LogSeverity::kInfo) && ::rill::VlogIsOn(level)) \
      ? (void)0                                                                                  \
      : ::rill::logging_internal::Voidify() &                                                    \
            ::rill::logging_internal::LogMessage(__FILE__, __LINE__, ::rill::LogSeverity::kInfo) \
                .stream()

// RILL_CHECK(cond) << ...;  when `cond` is false, writes "Check failed: cond <message>" as a
// FATAL line and aborts. `cond` is evaluated exactly once; the message only on failure.
#define RILL_CHECK(condition)                                            \
  while (ABSL_PREDICT_FALSE(!(condition)))                               \
  ::rill::logging_internal::LogMessageFatal(__FILE__, __LINE__).stream() \
      << "Check failed: " #condition " "

#endif  // RILL_CORE_LOGGING_H_
