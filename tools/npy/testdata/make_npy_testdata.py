#!/usr/bin/env python3
"""Writes the .npy files tools/npy/npy_test.cc reads, with numpy (checked in; numpy 2.4).

Run from anywhere (needs only numpy); the files land next to this script:
    python3 tools/npy/testdata/make_npy_testdata.py

The test asserts the exact values below, so change both together. Files whose array is C-order
and little-endian (or byte-order-free) with a dtype Rill writes are also compared byte-for-byte
with what Rill's SerializeNpy writes for the tensor read from them. Output is deterministic for a
given numpy (object.npy holds a pickle, which depends on the Python version only).
"""
import io
import os

import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))
inf = float("inf")

ARRAYS = {
    # Every dtype Rill reads and writes.
    "f2": np.array([1.0, -2.5, 65504.0, 2.0**-14, 2.0**-24, inf, -0.0], dtype=np.float16),
    "f4_2x3": np.array([[1.5, -2.0, 3.25], [np.finfo(np.float32).max, 2.0**-149, -inf]],
                       dtype=np.float32),
    "f8": np.array([1e300, -5e-324, 0.1], dtype=np.float64),
    "i1": np.array([-128, 127, 0, -1], dtype=np.int8),
    "i2": np.array([-32768, 32767, 7], dtype=np.int16),
    "i4": np.array([[-2**31, 2**31 - 1], [0, -7]], dtype=np.int32),
    "i8": np.array([-2**63, 2**63 - 1, 2**40 + 3], dtype=np.int64),
    "u1": np.array([0, 255, 17], dtype=np.uint8),
    "u2": np.array([0, 65535, 300], dtype=np.uint16),
    "u4": np.array([0, 2**32 - 1, 70000], dtype=np.uint32),
    "u8": np.array([0, 2**64 - 1, 2**63], dtype=np.uint64),
    "b1": np.array([[True, False, True], [False, False, True]]),
    "c8": np.array([1 + 2j, -3.5 - 0.25j], dtype=np.complex64),
    "c16": np.array([1e100 - 2.5e-100j, -7 + 0.5j], dtype=np.complex128),
    # Shapes.
    "f8_scalar": np.array(3.141592653589793),                  # 0-d
    "i4_scalar": np.array(-42, dtype=np.int32),                # 0-d
    "f4_0x3": np.zeros((0, 3), dtype=np.float32),              # zero-size
    # Big-endian: Rill swaps to little-endian.
    "be_f4": np.array([1.5, -2.0, 1e10], dtype=">f4"),
    "be_i8": np.array([1, -2, 2**40 + 5], dtype=">i8"),
    "be_u2": np.array([0x1234, 0xFF00], dtype=">u2"),
    "be_c8": np.array([1 + 2j, -0.5 + 4j], dtype=">c8"),       # each part swapped
    "be_f2": np.array([1.0, -2.5], dtype=">f2"),
    # Fortran order: Rill transposes to C order.
    "fortran_2x3": np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)),
    "fortran_2x3x4": np.asfortranarray(np.arange(24, dtype=np.float64).reshape(2, 3, 4)),
    "fortran_be_u2": np.asfortranarray(np.arange(6, dtype=">u2").reshape(3, 2)),
    # Strings.
    "unicode": np.array(["h\u00e9llo", "", "\u65e5\u672c", "\U0001F600x", "a\x00b"]),  # <U5
    "be_unicode": np.array(["ab", "\u00fc"], dtype=">U2"),
    "bytes": np.array([b"ab", b"", b"abcd", b"a\x00b"]),                              # |S4
    "bytes_2x2": np.array([[b"x", b"yz"], [b"\xff\x00", b""]]),                      # |S2
    # dtypes Rill refuses.
    "void2": np.zeros(3, dtype="V2"),
    "structured": np.zeros(2, dtype=[("a", "<i4"), ("b", "<f4")]),
    "datetime": np.array(["2020-01-01"], dtype="datetime64[D]"),
}


def pad_cases():
    """Zero-size arrays whose numpy headers end just before, at, and just after a 64-byte
    boundary, and one with a long first dim (fewer spare spaces), to pin numpy's padding."""
    def header_end(shape):  # magic + version + length + dict + growth spaces + '\n'
        d = "{'descr': '<f4', 'fortran_order': False, 'shape': %r, }" % (shape,)
        return 10 + len(d) + 21 - len(repr(shape[0])) + 1
    cases = {}
    for want in (62, 63, 0, 1):
        for rest in range(0, 40):
            for digits in range(1, 10):
                shape = (0,) + (7,) * rest + (10**(digits - 1),)
                if header_end(shape) % 64 == want and "pad_%02d" % want not in cases:
                    cases["pad_%02d" % want] = np.zeros(shape, dtype=np.float32)
    cases["pad_long_dim0"] = np.zeros((123456789012, 0), dtype=np.float32)
    return cases


def main():
    for name, a in {**ARRAYS, **pad_cases()}.items():
        np.save(os.path.join(OUT, name + ".npy"), a)
    with open(os.path.join(OUT, "v2_f4.npy"), "wb") as f:
        np.lib.format.write_array(f, np.array([7.0, 8.5], dtype=np.float32), version=(2, 0))
    with open(os.path.join(OUT, "v3_i2.npy"), "wb") as f:
        np.lib.format.write_array(f, np.array([[1, -2], [3, -4]], dtype=np.int16), version=(3, 0))
    np.save(os.path.join(OUT, "object.npy"), np.array([1, "a", None], dtype=object),
            allow_pickle=True)
    # Sanity: numpy reads back what it wrote.
    for name, a in ARRAYS.items():
        b = np.load(os.path.join(OUT, name + ".npy"))
        assert b.dtype == a.dtype and b.shape == a.shape, name
    print("wrote", len(os.listdir(OUT)) - 1, "files to", OUT, "with numpy", np.__version__)


if __name__ == "__main__":
    main()
