// The one rule for OpenBLAS's threads in Rill's CPU kernels: Rill spreads work over its own
// threads (a product's blocks on the calling thread's OpenMP team, a batch's matrices over the
// intra-op threads), so each OpenBLAS BLAS or LAPACK call runs on the calling thread; OpenBLAS's
// own threads would spin against Rill's for the cores. Gemm and the LAPACK paths of the linear
// algebra kernels call UseSingleThreadedBlas() before each OpenBLAS call.
#ifndef RILL_KERNELS_MATH_LIB_BLAS_THREADS_H_
#define RILL_KERNELS_MATH_LIB_BLAS_THREADS_H_

namespace rill {

// Sets OpenBLAS's thread count to 1 unless it already is (cheap after the first call).
// Thread-safe.
void UseSingleThreadedBlas();

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_BLAS_THREADS_H_
