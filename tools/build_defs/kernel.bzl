"""kernel_library: the project's one Bazel macro for op kernels.

    load("//tools/build_defs:kernel.bzl", "kernel_library")

    kernel_library(
        name = "matmul_op",
        srcs = ["matmul_op.cc"],
        deps = ["@system//:openblas"],
    )

produces
  - `matmul_op`: a cc_library with alwayslink = True. Kernels register themselves from static
    initializers; without alwayslink the linker silently drops them (TensorFlow's
    tf_kernel_library defaults to alwayslink=1 for the same reason). //kernels/framework:op_kernel
    is always a dependency.
  - `matmul_op_test`: a cc_test from `matmul_op_test.cc` when that file exists, linked with the
    library, //kernels/framework:op_test_util, //core:status_matchers, //ops:ops and gtest_main,
    plus `test_deps`.

Call it from the op-family packages under kernels/ (kernels/math/BUILD, kernels/nn/BUILD, ...);
the family's library is then listed in //kernels:all_cpu_kernels.
CUDA kernels live in kernels/gpu/ and build with //third_party/cuda:cuda.bzl's rill_cuda_library
(nvcc for the .cu files, host sources only with a toolkit).
"""

load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")

# -O2 vectorizes only loops whose trip count needs no scalar epilogue; elementwise loops over
# tensors of any size need the cost model -O3 uses (measured: tools/bench/session_bench Add1M).
# -fno-trapping-math lets GCC turn a floating-point operation under a condition into a select
# (Rill never enables floating-point traps): without it a loop of vector_math's LogF does not
# vectorize. Neither flag changes a result. GCC's flags; clang (the fuzz build) vectorizes such
# loops at -O2 and ignores floating-point exceptions by default.
KERNEL_COPTS = select({
    "//tools/build_defs:compiler_clang": [],
    "//conditions:default": [
        "-fvect-cost-model=dynamic",
        "-fno-trapping-math",
    ],
})

def kernel_library(name, srcs, hdrs = [], deps = [], test_deps = [], visibility = None):
    cc_library(
        name = name,
        srcs = srcs,
        hdrs = hdrs,
        copts = KERNEL_COPTS,
        deps = depset(["//kernels/framework:op_kernel", "//ops:ops"] + deps).to_list(),
        alwayslink = True,
        visibility = visibility,
    )
    test_src = name + "_test.cc"
    if native.glob([test_src]):
        cc_test(
            name = name + "_test",
            srcs = [test_src],
            deps = depset([
                ":" + name,
                "//kernels/framework:op_test_util",
                "//core:status_matchers",
                "//ops:ops",
                "@system//:gtest_main",
            ] + test_deps).to_list(),
        )
