#include "core/registration_errors.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace rill {
namespace {

// Serializes collectors (one library load at a time). Never destroyed.
std::mutex& LoaderMutex() {
  static auto* mu = new std::mutex;
  return *mu;
}

// The active collector; read and written with LoaderMutex held by the collector's owner, and read
// by registrations, which run on the loading thread inside dlopen.
RegistrationErrorCollector* active = nullptr;

}  // namespace

RegistrationErrorCollector::RegistrationErrorCollector() {
  LoaderMutex().lock();
  active = this;
}

RegistrationErrorCollector::~RegistrationErrorCollector() {
  active = nullptr;
  LoaderMutex().unlock();
}

void ReportRegistrationError(const absl::Status& error, const char* what) {
  if (active != nullptr) {
    if (active->first_error_.ok()) active->first_error_ = error;
    return;
  }
  std::fprintf(stderr, "Fatal %s registration error: %s\n", what, error.ToString().c_str());
  std::abort();
}

}  // namespace rill
