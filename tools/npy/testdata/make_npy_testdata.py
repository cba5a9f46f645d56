#!/usr/bin/env python3
"""Writes the .npy files tools/npy/npy_test.cc reads, with numpy. Run from the repo root:
    python3 tools/npy/testdata/make_npy_testdata.py
"""
import os
import numpy as np

out = os.path.dirname(os.path.abspath(__file__))
arrays = {
    "f4_2x3": np.array([[1.5, -2, 3], [4, 5, 6.25]], dtype=np.float32),
    "f8_scalar": np.float64(3.25),
    "f2": np.array([1.5, -0.25], dtype=np.float16),
    "i1": np.array([-128, 127], dtype=np.int8),
    "i2": np.array([-3, 4], dtype=np.int16),
    "i4_0x3": np.zeros((0, 3), dtype=np.int32),
    "i8": np.array([-(2**63), 9], dtype=np.int64),
    "u1": np.array([0, 255], dtype=np.uint8),
    "u2": np.array([65535, 1], dtype=np.uint16),
    "u4": np.array([4000000000, 1], dtype=np.uint32),
    "u8": np.array([18000000000000000000, 1], dtype=np.uint64),
    "b1": np.array([True, False]),
    "c8": np.array([1 + 2j, -3 + 4j], dtype=np.complex64),
    "c16": np.array([5 + 6j, 7 - 8j], dtype=np.complex128),
    "be_f4": np.array([1.5, -2.0], dtype=">f4"),
    "be_i8": np.array([1, -2], dtype=">i8"),
    "fortran_2x3": np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)),
    "unicode": np.array(["héllo", "x"]),
    "bytes": np.array([b"ab", b"c"]),
}
for name, a in arrays.items():
    np.save(os.path.join(out, name + ".npy"), a)
np.lib.format.write_array(open(os.path.join(out, "v2_f4.npy"), "wb"),
                          np.array([7.0, 8.0], dtype=np.float32), version=(2, 0))
