// Subnormal floats in kernels: flushed to zero, as TensorFlow's threads do.
//
// TensorFlow runs every kernel with the CPU's flush-to-zero (FTZ: a subnormal result becomes 0)
// and denormals-are-zero (DAZ: a subnormal input reads as 0) modes on: its executor wraps kernel
// execution in a scoped guard and its pool threads set the modes when they start. Rill does the
// same, so a graph gives TensorFlow's numbers on subnormal values (and runs at full speed on them:
// x86 takes a slow path for each subnormal operand otherwise).
//
//   {
//     ScopedFlushDenormal flush;  // FTZ + DAZ on this thread
//     kernel->Compute(ctx);
//   }                             // the thread's previous mode is back
//
// Where Rill sets the mode: the executor's RunReady/StartStep (every kernel it runs, on the
// caller's thread, pool threads and async completions, a GPU event's included), the session
// around the graph optimizer (constant folding evaluates kernels), ThreadPool threads at their
// start, and OpenMP workers (core/openmp_parallel_for.h: a team computes in the mode of the
// thread that opened it).
// The caller of Session::Run gets its own mode back when Run returns.
//
// RILL_KEEP_DENORMALS=1 in the environment (read once, at first use) turns the guard and the
// threads' setting into no-ops, so subnormals are kept as IEEE 754 says (Rill only; TensorFlow has
// no such switch).
//
// On x86-64 the modes are the MXCSR's FTZ and DAZ bits (they govern SSE and AVX arithmetic, float
// and double); on AArch64 the FPCR's FZ bit. Elsewhere everything here is a no-op.
// Thread safety: each function acts on the calling thread's mode only.
#ifndef RILL_CORE_DENORMAL_H_
#define RILL_CORE_DENORMAL_H_

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace rill {

// The calling thread's floating-point control word, the bits of it that flush subnormals, and
// those that are status (exception flags the arithmetic raises), not mode.
#if defined(__x86_64__) || defined(__i386__)
using FloatMode = uint32_t;
inline constexpr FloatMode kFlushDenormalBits = 0x8040;  // MXCSR FTZ (bit 15) | DAZ (bit 6)
inline constexpr FloatMode kFloatStatusBits = 0x3f;      // MXCSR's sticky exception flags
inline FloatMode ReadFloatMode() { return _mm_getcsr(); }
inline void WriteFloatMode(FloatMode mode) { _mm_setcsr(mode); }
#elif defined(__aarch64__)
using FloatMode = uint64_t;
inline constexpr FloatMode kFlushDenormalBits = FloatMode{1} << 24;  // FPCR FZ
inline constexpr FloatMode kFloatStatusBits = 0;                     // the flags live in FPSR
inline FloatMode ReadFloatMode() {
  FloatMode mode;
  asm volatile("mrs %0, fpcr" : "=r"(mode));
  return mode;
}
inline void WriteFloatMode(FloatMode mode) { asm volatile("msr fpcr, %0" : : "r"(mode)); }
#else
using FloatMode = uint32_t;
inline constexpr FloatMode kFlushDenormalBits = 0;
inline constexpr FloatMode kFloatStatusBits = 0;
inline FloatMode ReadFloatMode() { return 0; }
inline void WriteFloatMode(FloatMode) {}
#endif

// Whether `keep_denormals` (RILL_KEEP_DENORMALS's value, null when unset) leaves subnormals
// alone: "1", "true" or "yes". Anything else (or unset) flushes, TensorFlow's behaviour.
bool KeepDenormalsFromEnv(const char* keep_denormals);

// Whether Rill flushes subnormals in this process: !KeepDenormalsFromEnv(RILL_KEEP_DENORMALS),
// read at the first call.
bool FlushDenormals();

// Sets the calling thread's mode to `flush_bits` in kFlushDenormalBits's place, leaving the rest
// (rounding, exception masks) as it is; writes only when that changes the mode.
inline void SetFlushDenormalBits(FloatMode flush_bits) {
  const FloatMode mode = ReadFloatMode();
  const FloatMode want = (mode & ~kFlushDenormalBits) | (flush_bits & kFlushDenormalBits);
  if (want != mode) WriteFloatMode(want);
}

// Turns FTZ and DAZ on for the rest of the calling thread's life, unless FlushDenormals() is
// false. For threads Rill owns, at their start.
inline void FlushDenormalsOnThisThread() {
  if (FlushDenormals()) SetFlushDenormalBits(kFlushDenormalBits);
}

// FTZ and DAZ on for a scope (unless FlushDenormals() is false); when the scope ends the thread's
// previous mode (every control bit: rounding, exception masks, FTZ, DAZ) is written back if
// anything changed it, keeping the exception flags raised meanwhile. Nests. Cheap on a thread
// whose modes are already on: two reads of the control word, no write.
class ScopedFlushDenormal {
 public:
  ScopedFlushDenormal() : saved_(ReadFloatMode()) {
    if ((saved_ & kFlushDenormalBits) != kFlushDenormalBits && FlushDenormals()) {
      WriteFloatMode(saved_ | kFlushDenormalBits);
    }
  }
  ~ScopedFlushDenormal() {
    const FloatMode now = ReadFloatMode();
    if ((now & ~kFloatStatusBits) != (saved_ & ~kFloatStatusBits)) {
      WriteFloatMode((saved_ & ~kFloatStatusBits) | (now & kFloatStatusBits));
    }
  }
  ScopedFlushDenormal(const ScopedFlushDenormal&) = delete;
  ScopedFlushDenormal& operator=(const ScopedFlushDenormal&) = delete;

 private:
  const FloatMode saved_;
};

}  // namespace rill

#endif  // RILL_CORE_DENORMAL_H_
