// Reads and writes numpy's .npy format (numpy.save / numpy.load; the spec is numpy.lib.format)
// as Rill Tensors.
//
//   RILL_ASSIGN_OR_RETURN(Tensor t, ReadNpy("weights.npy"));
//   RILL_RETURN_IF_ERROR(WriteNpy("out.npy", t));       // np.load("out.npy") gives it back
//   RILL_ASSIGN_OR_RETURN(std::string bytes, SerializeNpy(t));
//   RILL_ASSIGN_OR_RETURN(Tensor u, ParseNpy(bytes));
//
// dtypes (numpy descr <-> Rill DataType):
//   <f2 DT_HALF  <f4 DT_FLOAT  <f8 DT_DOUBLE  <c8 DT_COMPLEX64  <c16 DT_COMPLEX128  |b1 DT_BOOL
//   |i1 <i2 <i4 <i8 DT_INT8..DT_INT64            |u1 <u2 <u4 <u8 DT_UINT8..DT_UINT64
//   |S<n> (bytes) and <U<n> (unicode)  -> DT_STRING;  DT_STRING -> |S<n>
//   DT_BFLOAT16: refused both ways (Unimplemented). numpy has no bfloat16; ml_dtypes saves one
//     as '<V2', raw bytes that do not say they are bfloat16, so neither direction is honest.
//     Cast to float32 to exchange bfloat16 values with numpy.
//
// Reading (format versions 1.0, 2.0 and 3.0):
//   * Big-endian ('>') data is byte-swapped to little-endian ('<', '|' and '=' are taken as
//     little-endian: Rill only builds on little-endian hosts). Complex values swap each part,
//     unicode each UTF-32 code unit.
//   * Fortran-order (fortran_order: True) data is transposed to C (row-major) order, so the
//     Tensor has the file's shape and numpy's element values at each index.
//   * '|S<n>' elements lose their trailing NUL bytes (as numpy's own bytes_ scalars do); embedded
//     NULs are kept. '<U<n>' elements (UTF-32) lose trailing NUL code points and become UTF-8.
//   * bool bytes other than 0 read as true.
//   * Python 2 era headers ('shape': (2L, 3L)) are accepted.
//   * Shapes of rank above kNpyMaxRank (254) are refused (InvalidArgument).
//   * ReadNpy reads the header first and then only the bytes the header promises (plus one, to
//     see trailing bytes), checking a regular file's size before reading its data: a device or
//     pipe (/dev/zero) is never read without bound. Headers over 1 MiB are refused.
// Writing: format 1.0, or 2.0 when the header does not fit 1.0's 16-bit length (only for shapes
//   of tens of thousands of dims, which neither numpy nor ReadNpy loads). The file is byte-for-byte
//   what np.save writes for the same C-order little-endian array (checked against numpy 2.4;
//   older numpy releases added no spare spaces, so their padding can differ):
//   "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", the spare spaces numpy adds
//   for growing the first axis, then spaces and '\n' to a 64-byte boundary. DT_STRING is written
//   as '|S<n>' with n the longest element's byte length (at least 1), each element NUL-padded:
//   the bytes are written as they are (UTF-8 stays UTF-8; numpy reads bytes_, not str), and
//   trailing NULs inside an element do not survive the round trip.
//
// Status codes:
//   NotFound          ReadNpy/WriteNpy: the file, or for WriteNpy its directory, does not exist
//                     (the message names the path). Other failed system calls get the code
//                     TensorFlow gives their errno (core/errno_status.h: PermissionDenied for
//                     EACCES, FailedPrecondition for a directory, ResourceExhausted for a full
//                     disk, Unknown for EIO); all name the path and give strerror.
//   InvalidArgument   malformed data: bad magic, unknown format version, truncated header, header
//                     not a Python dict literal, missing/extra keys, bad shape/fortran_order/descr,
//                     data size not matching shape x itemsize (short or trailing bytes), invalid
//                     UTF-32 code points; object arrays ('|O', pickled) with a hint to save with a
//                     fixed-width dtype. Messages start with the path (ReadNpy) or ParseNpy's
//                     `name` ("npy data" by default). Also: writing an uninitialized Tensor,
//                     and ReadNpy of a directory.
//   Unimplemented     valid numpy dtypes Rill does not hold (bfloat16 / '<V2' and other void,
//                     structured (list) descrs, datetime, float128, ...); the message names the
//                     dtype. Writing a DT_BFLOAT16 (or resource/variant) Tensor.
//   ResourceExhausted the host allocator could not provide the Tensor.
//
// Thread safety: all four functions are thread-safe (no shared state). The Tensor passed to a
// writer must not be mutated concurrently. WriteNpy is not atomic: concurrent writers of one path,
// or a reader of a path being written, see torn files.
#ifndef RILL_TOOLS_NPY_NPY_H_
#define RILL_TOOLS_NPY_NPY_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/tensor.h"

namespace rill {

// The highest rank a .npy shape may have (a Tensor's, TensorShape::kMaxRank = 254); a header with
// more dims is InvalidArgument.
constexpr int kNpyMaxRank = TensorShape::kMaxRank;

// The .npy file at `path`, as a host Tensor (CpuAllocator::Default()).
absl::StatusOr<Tensor> ReadNpy(const std::string& path);
// The contents of a .npy file, as a host Tensor. Error messages start with `name`.
absl::StatusOr<Tensor> ParseNpy(absl::string_view bytes, absl::string_view name = "npy data");

// Writes `tensor` to `path` (created or truncated) as SerializeNpy does.
absl::Status WriteNpy(const std::string& path, const Tensor& tensor);
// The .npy file contents for `tensor`. A StatusOr (not a bare string) because some dtypes
// (bfloat16) cannot be written.
absl::StatusOr<std::string> SerializeNpy(const Tensor& tensor);

}  // namespace rill

#endif  // RILL_TOOLS_NPY_NPY_H_
