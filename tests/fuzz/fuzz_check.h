// FUZZ_CHECK: a property a fuzz target asserts about Rill (a round trip that must hold, an error
// that must carry a message). On failure it prints the condition and aborts, which libFuzzer and
// the smoke driver both report as a crash with the input that caused it.
#ifndef RILL_TESTS_FUZZ_FUZZ_CHECK_H_
#define RILL_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                 \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

#endif  // RILL_TESTS_FUZZ_FUZZ_CHECK_H_
