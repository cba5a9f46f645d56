// Formats a Tensor the way numpy prints an array (numpy >= 1.14 defaults): shortest round-trip
// digits, a common width per array ("[ 1.5 10. ]"), "." kept on integral floats ("[[22. 28.]\n
// [49. 64.]]"), scientific notation when the magnitudes call for it, " True"/"False" for bools,
// b'...' for strings (Python's bytes repr, escapes included; an element over 1,000 bytes shows
// its first 1,000 and its length), rows wrapped at 75 characters, and arrays over 1000 elements
// summarized with "..." (3 items at each edge). As numpy, a summarized array is formatted from
// the items it shows only (widths, notation), so printing a huge tensor costs what its summary
// costs; any rank is printed iteratively (no recursion over the axes). Pure function; thread-safe.
#ifndef RILL_TOOLS_SESSION_RUNNER_NUMPY_FORMAT_H_
#define RILL_TOOLS_SESSION_RUNNER_NUMPY_FORMAT_H_

#include <string>

#include "core/tensor.h"

namespace rill {

std::string FormatLikeNumpy(const Tensor& tensor);

}  // namespace rill

#endif  // RILL_TOOLS_SESSION_RUNNER_NUMPY_FORMAT_H_
