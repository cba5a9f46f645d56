"""rill_cuda_library: the one macro for CUDA sources (rules_cuda cannot be downloaded here).

Each .cu file is compiled by nvcc into an object (sm_90 SASS + compute_90 PTX, for H100/H200), and
the objects become a cc_library. Without a CUDA toolkit the library is empty and RILL_WITH_CUDA is
not defined, so callers build CPU-only with the same BUILD files.
"""

load("@local_cuda//:defs.bzl", "NVCC", "RILL_HAS_CUDA")

def rill_cuda_library(name, cu_srcs, hdrs = [], cu_hdrs = [], deps = [], alwayslink = True,
                      srcs = [], cuda_deps = [], **kwargs):
    """cu_hdrs: headers of other targets that the .cu files include (nvcc sees only declared files).

    srcs / cuda_deps: host C++ sources (and their dependencies) built only with a CUDA toolkit,
    for code that calls the .cu files' functions (GPU kernels' OpKernel classes, the GPU device).
    """
    if not RILL_HAS_CUDA:
        native.cc_library(name = name, hdrs = hdrs, deps = deps, alwayslink = alwayslink, **kwargs)
        return
    objs = []
    for src in cu_srcs:
        obj = name + "_" + src.replace("/", "_").replace(".cu", ".o")
        native.genrule(
            name = obj + "_nvcc",
            srcs = [src] + hdrs + cu_hdrs + ["@local_cuda//:cuda_headers"],
            outs = [obj],
            cmd = ("{nvcc} -c -O3 -std=c++17 -Xcompiler -fPIC -I. -I$(GENDIR) " +
                   "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 " +
                   "-DRILL_WITH_CUDA=1 $(location {src}) -o $@").format(nvcc = NVCC, src = src),
        )
        objs.append(obj)
    native.cc_library(
        name = name,
        srcs = objs + srcs,
        hdrs = hdrs,
        deps = deps + cuda_deps + ["@local_cuda//:cudart", "@local_cuda//:cuda_headers"],
        defines = ["RILL_WITH_CUDA=1"],
        alwayslink = alwayslink,
        # Never a shared object of its own: the static CUDA runtime's functions are hidden and
        # resolve only inside the executable or shared library that links them.
        linkstatic = True,
        **kwargs
    )
