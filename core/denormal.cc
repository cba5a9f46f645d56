#include "core/denormal.h"

#include <cstdlib>
#include <cstring>

namespace rill {

bool KeepDenormalsFromEnv(const char* keep_denormals) {
  if (keep_denormals == nullptr) return false;
  return std::strcmp(keep_denormals, "1") == 0 || std::strcmp(keep_denormals, "true") == 0 ||
         std::strcmp(keep_denormals, "yes") == 0;
}

bool FlushDenormals() {
  static const bool flush = !KeepDenormalsFromEnv(std::getenv("RILL_KEEP_DENORMALS"));
  return flush;
}

}  // namespace rill
