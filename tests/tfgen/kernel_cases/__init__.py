"""Case builders for tests/tfgen/make_kernel_conformance.py, one module per op family."""
