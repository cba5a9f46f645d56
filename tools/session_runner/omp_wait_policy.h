// session_runner's OpenMP wait policy (Rill-only). Rill's intra-op work runs on libgomp teams,
// whose idle workers spin for a long while by default; when two inter-op threads' teams or another
// process want the cores, the spinning takes the time the working threads need (2-thread runs
// several times slower than 1-thread runs: docs/performance.md, "OpenMP wait policy"). libgomp
// reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, when it loads, before main runs, so session_runner
// sets the policy by running itself again with OMP_WAIT_POLICY=PASSIVE, as `import rill` sets it
// before loading the library. A policy in the caller's environment (either variable) is kept.
#ifndef RILL_TOOLS_SESSION_RUNNER_OMP_WAIT_POLICY_H_
#define RILL_TOOLS_SESSION_RUNNER_OMP_WAIT_POLICY_H_

namespace rill {

// Whether the process should run again with OMP_WAIT_POLICY=PASSIVE: neither variable is set
// (null; an empty value counts as set).
bool NeedsPassiveWaitPolicy(const char* omp_wait_policy, const char* gomp_spincount);

// When NeedsPassiveWaitPolicy holds for this process's environment, sets OMP_WAIT_POLICY=PASSIVE
// and executes /proc/self/exe with `argv` (same arguments, open files and environment otherwise):
// returns only if that fails, with the variable removed again, and the run goes on with libgomp's
// default policy. Call first thing in main, before any thread starts.
void RerunWithPassiveWaitPolicy(char** argv);

}  // namespace rill

#endif  // RILL_TOOLS_SESSION_RUNNER_OMP_WAIT_POLICY_H_
