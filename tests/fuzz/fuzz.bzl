"""rill_fuzz_target: one fuzz target as a libFuzzer binary and a CI smoke test.

For a target `name` whose sources define LLVMFuzzerTestOneInput:
  :name        the fuzzer. Under `--config=fuzz` (clang, libFuzzer, ASan+UBSan; .bazelrc) it is a
               libFuzzer binary: `bazel run --config=fuzz //tests/fuzz:name -- CORPUS_DIR`. In the
               default build it is the smoke driver (fuzz_smoke_main.cc) over its arguments.
  :name_smoke  a test (default build, also under --config=asan): replays the seed corpus and a fixed
               number of mutations of it (fuzz_smoke_main.cc), so every CI run fuzzes a little.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def rill_fuzz_target(name, srcs, deps, corpus, max_seconds = 15, mutations = 200):
    main = select({
        "//tests/fuzz:libfuzzer": [],
        "//conditions:default": ["//tests/fuzz:fuzz_smoke_main"],
    })
    cc_library(
        name = name + "_lib",
        testonly = True,
        srcs = srcs,
        deps = deps,
        alwayslink = True,
    )
    cc_binary(
        name = name,
        testonly = True,
        deps = [":" + name + "_lib"] + main,
    )
    cc_test(
        name = name + "_smoke",
        size = "medium",
        data = corpus,
        args = ["--max_seconds=%d" % max_seconds, "--mutations=%d" % mutations] +
               ["$(locations %s)" % c for c in corpus],
        deps = [":" + name + "_lib"] + main,
    )
