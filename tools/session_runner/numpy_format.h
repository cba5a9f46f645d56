// Formats a Tensor the way numpy prints an array (numpy >= 1.14 defaults, as TensorFlow's fetches
// print in Python): each floating element with its dtype's shortest round-trip digits (half's
// own: 0.3333) but at most 8 after the point (0.33333333 for a double third), a common width per
// array ("[ 1.5 10. ]"), "." kept on integral floats ("[[22. 28.]\n [49. 64.]]"), scientific
// notation when the magnitudes call for it with exponents of one width ("[1.e+100 1.e-005]");
// complex elements as real and signed imaginary columns ("[1.  +2.j  3.25-4.5j]"); bfloat16 (an
// ml_dtypes type to numpy) as "%g" unpadded; a 0-d array as its scalar's str ("2.0", "1e+20",
// "(1+2j)", "2j"); " True"/"False" for bools, b'...' for strings (Python's bytes repr, escapes
// included; an element over 1,000 bytes shows its first 1,000 and its length), rows wrapped at
// 75 characters, and arrays over 1000 elements summarized with "..." (3 items at each edge). As
// numpy, a summarized array is formatted from the items it shows only (widths, notation), so
// printing a huge tensor costs what its summary costs; any rank is printed iteratively (no
// recursion over the axes). Pure function; thread-safe.
#ifndef RILL_TOOLS_SESSION_RUNNER_NUMPY_FORMAT_H_
#define RILL_TOOLS_SESSION_RUNNER_NUMPY_FORMAT_H_

#include <string>

#include "core/tensor.h"

namespace rill {

std::string FormatLikeNumpy(const Tensor& tensor);

}  // namespace rill

#endif  // RILL_TOOLS_SESSION_RUNNER_NUMPY_FORMAT_H_
