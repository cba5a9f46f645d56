"""Case builders for tools/tfgen/make_kernel_conformance.py, one module per op family."""
