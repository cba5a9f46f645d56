#include "tools/session_runner/omp_wait_policy.h"

#include <unistd.h>

#include <cstdlib>

namespace rill {

bool NeedsPassiveWaitPolicy(const char* omp_wait_policy, const char* gomp_spincount) {
  return omp_wait_policy == nullptr && gomp_spincount == nullptr;
}

void RerunWithPassiveWaitPolicy(char** argv) {
  if (!NeedsPassiveWaitPolicy(std::getenv("OMP_WAIT_POLICY"), std::getenv("GOMP_SPINCOUNT"))) {
    return;
  }
  if (setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OMP_WAIT_POLICY");  // execv returned: it failed; run on as we are
}

}  // namespace rill
