// .npy files (numpy's array format, versions 1.0, 2.0 and 3.0) <-> Tensor.
//
// dtypes: float16/32/64, int8/16/32/64, uint8/16/32/64, bool, complex64/128, and strings: numpy
// bytes ('|S<n>', trailing NULs stripped) and unicode ('<U<n>', UTF-32 converted to UTF-8) both
// read into DT_STRING; DT_STRING is written as '|S<n>' (n = longest element, at least 1).
// bfloat16 has no numpy dtype: writing or reading one is Unimplemented, naming the dtype.
// Big-endian files ('>f4') are converted to little-endian on read; Fortran-order files are
// transposed to C order on read; files are always written little-endian, C order, version 1.0
// (2.0 when the header needs more than 65535 bytes). Object arrays ('|O', pickled) are refused.
//
// Errors: NotFound naming the path when it cannot be read; InvalidArgument naming the file and
// the problem for anything malformed (bad magic, truncated or non-dict header, missing keys, data
// size not matching the shape). Pure functions apart from the file system; thread-safe.
#ifndef RILL_TOOLS_NPY_NPY_H_
#define RILL_TOOLS_NPY_NPY_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/tensor.h"

namespace rill {

absl::StatusOr<Tensor> ReadNpy(const std::string& path);
// `name` is used in messages.
absl::StatusOr<Tensor> ParseNpy(absl::string_view bytes, const std::string& name = "<bytes>");
absl::StatusOr<std::string> SerializeNpy(const Tensor& tensor);
absl::Status WriteNpy(const std::string& path, const Tensor& tensor);

}  // namespace rill

#endif  // RILL_TOOLS_NPY_NPY_H_
