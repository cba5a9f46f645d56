#!/usr/bin/env bash
# What a command's OpenMP teams do (issue 29): how many parallel regions it opens, from how many
# threads (libgomp keeps a separate set of workers for each), how many start while another
# thread's team is still running (two teams sharing the cores), and how long each team's second
# thread takes to start its share after the region opens (the wake-up of a sleeping worker under
# OMP_WAIT_POLICY=PASSIVE, or a worker that is spinning already). It wraps libgomp's
# GOMP_parallel (what `#pragma omp parallel`, oneDNN's and Rill's regions call) with LD_PRELOAD
# and prints a summary on stderr when the process exits. Needs gcc.
#
#   tools/bench/omp_regions.sh bazel-bin/tools/session_runner/session_runner --graph=... \
#       --config=cfg.pbtxt --feed=... --fetch=... --benchmark --warmup=0 --repeat=20
#
# prints, for example:
#   omp_regions: 1633 regions from 1 threads; 0 began while another thread's team ran;
#   omp_regions: 451.6 ms inside regions; second thread started after (us): mean 49.2,
#   omp_regions: <1: 0, 1-2: 0, 2-4: 1239, 4-8: 41, 8-16: 30, 16-32: 24, 32-64: 27, >=64: 272
# Timing only: the command's results are unchanged. Run it with the environment under study
# (OMP_WAIT_POLICY, GOMP_SPINCOUNT); session_runner's own re-run with PASSIVE keeps LD_PRELOAD.
set -euo pipefail
if [ $# -eq 0 ]; then
  sed -n '2,19p' "$0"
  exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/omp_regions.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

typedef void (*Fn)(void*);
static void (*real_parallel)(Fn, void*, unsigned, unsigned);
static atomic_long regions, overlapped, masters, active, latency_ns, latency_n, inside_ns;
static atomic_long buckets[8];  /* <1, 1-2, 2-4, ..., >=64 microseconds */
static __thread int counted_master;

struct Region { Fn fn; void* data; long opened_ns; };

static long NowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void Trampoline(void* p) {
  struct Region* r = p;
  if (omp_get_thread_num() == 1) {
    const long ns = NowNs() - r->opened_ns;
    latency_ns += ns;
    latency_n++;
    int b = 0;
    for (long us = ns / 1000; us > 0 && b < 7; us /= 2) b++;
    buckets[b]++;
  }
  r->fn(r->data);
}

void GOMP_parallel(Fn fn, void* data, unsigned num_threads, unsigned flags) {
  if (real_parallel == NULL) real_parallel = dlsym(RTLD_NEXT, "GOMP_parallel");
  regions++;
  if (!counted_master) {
    counted_master = 1;
    masters++;
  }
  const int team = num_threads != 1;
  if (team && active++ > 0) overlapped++;
  struct Region r = {fn, data, NowNs()};
  real_parallel(Trampoline, &r, num_threads, flags);
  inside_ns += NowNs() - r.opened_ns;
  if (team) active--;
}

__attribute__((destructor)) static void Report(void) {
  if (regions == 0) return;
  fprintf(stderr,
          "omp_regions: %ld regions from %ld threads; %ld began while another thread's team ran;\n"
          "omp_regions: %.1f ms inside regions; second thread started after (us): mean %.1f,\n"
          "omp_regions: <1: %ld, 1-2: %ld, 2-4: %ld, 4-8: %ld, 8-16: %ld, 16-32: %ld, "
          "32-64: %ld, >=64: %ld\n",
          (long)regions, (long)masters, (long)overlapped, inside_ns / 1e6,
          latency_n ? latency_ns / 1e3 / latency_n : 0.0, (long)buckets[0], (long)buckets[1],
          (long)buckets[2], (long)buckets[3], (long)buckets[4], (long)buckets[5],
          (long)buckets[6], (long)buckets[7]);
}
C
gcc -O2 -shared -fPIC -fopenmp "$dir/omp_regions.c" -o "$dir/omp_regions.so" -ldl
LD_PRELOAD="$dir/omp_regions.so${LD_PRELOAD:+:$LD_PRELOAD}" "$@"
