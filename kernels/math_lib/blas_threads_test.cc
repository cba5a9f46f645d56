// UseSingleThreadedBlas leaves OpenBLAS on one thread whatever it was set to before.
#include "kernels/math_lib/blas_threads.h"

#include <cblas.h>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(BlasThreadsTest, LeavesOneThread) {
  openblas_set_num_threads(2);
  UseSingleThreadedBlas();
  EXPECT_EQ(openblas_get_num_threads(), 1);
  UseSingleThreadedBlas();
  EXPECT_EQ(openblas_get_num_threads(), 1);
}

}  // namespace
}  // namespace rill
