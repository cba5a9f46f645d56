// The replay of TensorFlow-recorded crafted cases (crafted_round9.py, crafted_round10.py):
// each case of a rill.ConformanceSuite becomes two gtest tests run through a Rill Session, one
// with the graph optimizer as sessions run by default ("<Prefix>/<case name>") and one with it
// off, opt_level L0 ("<Prefix>Unoptimized/<case name>"). A test passes when Rill's outcome is
// TensorFlow's (the values within the case's tolerance, or the error code), when the case is a
// kept difference whose description still matches, or when it is Rill's own refusal for want of
// a kernel listed as unregistered.
//
//   int main(int argc, char** argv) {
//     ::testing::InitGoogleTest(&argc, argv);
//     return rill::RunCraftedReplay(argc, argv, {"Round10", &kept, &unregistered});
//   }
//
// Thread safety: the tests run one at a time (gtest); each makes its own Session.
#ifndef RILL_TESTS_RELIABILITY_CRAFTED_REPLAY_H_
#define RILL_TESTS_RELIABILITY_CRAFTED_REPLAY_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/conformance/conformance.pb.h"

namespace rill {

struct KeptDifference {
  const char* reason;    // why Rill's outcome is kept where it differs from TensorFlow's
  const char* mismatch;  // part of RunConformanceCase's description of the difference
};

struct CraftedReplay {
  const char* prefix;  // the test suite name ("Round9")
  // By case name, with "@L0" appended for the run without the graph optimizer.
  const std::map<std::string, KeptDifference>* kept;
  // "Op DT_X" pairs TensorFlow has CPU kernels for and Rill does not register: a case of one
  // must fail with exactly Rill's refusal.
  const std::set<std::string>* unregistered;
};

// "Op DT_X" when `mismatch` is Rill's refusal for want of a kernel, from its text "No OpKernel
// was registered to support Op 'Sub' used by {{node out}} with these attrs: [T=DT_BFLOAT16]";
// "" otherwise.
std::string MissingKernel(const std::string& mismatch);

// RunConformanceCase's replay of `c` with the graph optimizer on or off, comparing an error's
// code only: "" when Rill agrees with TensorFlow's recorded outcome, else what differs.
std::string RunCraftedCase(const ConformanceCase& c, bool optimize);

// The cases of every suite loaded so far (by RunCraftedReplay).
const std::vector<ConformanceSuite>& CraftedSuites();

// Loads the suites named by argv[1..] (after InitGoogleTest took its flags), registers two tests
// per case and runs all tests. Returns 1 (after printing why) when a suite cannot be loaded.
int RunCraftedReplay(int argc, char** argv, const CraftedReplay& replay);

}  // namespace rill

#endif  // RILL_TESTS_RELIABILITY_CRAFTED_REPLAY_H_
