"""Detects the CUDA toolkit at configure time, so a machine without it builds a CPU-only Rill.

`cuda_configure(name = "local_cuda")` creates a repository with:
  - `:cuda_headers`  header-only cc_library over <toolkit>/include (empty without CUDA);
  - `:cudart`: the CUDA runtime linked statically (libcudart_static.a), which opens the driver
    (libcuda.so.1) itself when a program first asks for GPUs: no CUDA library is a dependency of
    Rill's binaries, and a host without a driver simply has no GPUs;
  - `:cublas`: nothing to link; cuBLAS is opened with dlopen by core/gpu/cuda_blas.cu when a GPU
    first multiplies (empty without CUDA);
  - `defs.bzl` exporting `RILL_HAS_CUDA` and `NVCC` for the rill_cuda_library macro.
The toolkit is looked up at $CUDA_PATH, else /usr/local/cuda. Changing either re-runs the rule.
"""

def _cuda_configure_impl(ctx):
    root = ctx.os.environ.get("CUDA_PATH", "/usr/local/cuda")
    nvcc = ctx.path(root + "/bin/nvcc")
    has_cuda = nvcc.exists and ctx.os.environ.get("RILL_DISABLE_CUDA", "") != "1"
    if has_cuda:
        ctx.symlink(root + "/include", "include")
        ctx.symlink(root + "/lib64", "lib64")
        build = """
package(default_visibility = ["//visibility:public"])
cc_library(
    name = "cuda_headers",
    hdrs = glob(["include/**/*.h", "include/**/*.hpp", "include/**/*.cuh", "include/**/*.inl"]),
    includes = ["include"],
)
cc_library(name = "cudart", linkopts = [
    "-L{root}/lib64", "-l:libcudart_static.a", "-ldl", "-lrt", "-lpthread",
    # The static runtime's functions are hidden, so the code calling them is linked into the
    # executable too (rill_cuda_library is linkstatic); in Bazel's dynamic mode (tests) Rill's
    # other libraries are shared objects that call that code, so the executable exports it.
    "-rdynamic",
])
cc_library(name = "cublas", linkopts = ["-ldl"])
""".format(root = root)
    else:
        build = """
package(default_visibility = ["//visibility:public"])
cc_library(name = "cuda_headers")
cc_library(name = "cudart")
cc_library(name = "cublas")
"""
    ctx.file("BUILD", build)
    ctx.file("defs.bzl", "RILL_HAS_CUDA = {}\nNVCC = \"{}\"\n".format(
        "True" if has_cuda else "False",
        str(nvcc) if has_cuda else "",
    ))

cuda_configure = repository_rule(
    implementation = _cuda_configure_impl,
    environ = ["CUDA_PATH", "RILL_DISABLE_CUDA"],
    local = True,
)
