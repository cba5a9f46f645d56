"""Detects the CUDA toolkit at configure time, so a machine without it builds a CPU-only Rill.

`cuda_configure(name = "local_cuda")` creates a repository with:
  - `:cuda_headers`  header-only cc_library over <toolkit>/include (empty without CUDA);
  - `:cudart`, `:cublas` link options for the runtime libraries (empty without CUDA);
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
cc_library(name = "cudart", linkopts = ["-L{root}/lib64", "-Wl,-rpath,{root}/lib64", "-lcudart"])
cc_library(name = "cublas", linkopts = ["-L{root}/lib64", "-Wl,-rpath,{root}/lib64", "-lcublas", "-lcublasLt"])
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
