#include "kernels/math_lib/blas_threads.h"

#include <cblas.h>

namespace rill {

void UseSingleThreadedBlas() {
  if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
}

}  // namespace rill
