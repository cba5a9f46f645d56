// The checks TensorFlow's CTC decoders (CTCGreedyDecoder, CTCBeamSearchDecoder) share, with its
// texts: InvalidArgument "inputs is not a 3-Tensor", "inputs must not be empty", "sequence_length
// is not a vector"; FailedPrecondition "len(sequence_length) != batch_size.  len(sequence_length):
// 3 batch_size: 2", "sequence_length(1) <= 5". Pure; thread-safe.
#ifndef RILL_KERNELS_NN_CTC_DECODER_INPUTS_H_
#define RILL_KERNELS_NN_CTC_DECODER_INPUTS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/tensor.h"

namespace rill {

// inputs [max_time, batch, classes] and sequence_length [batch] (int32, each <= max_time).
struct CtcDecoderDims {
  int64_t max_time = 0, batch = 0, classes = 0;
};

inline absl::StatusOr<CtcDecoderDims> CheckCtcDecoderInputs(const Tensor& inputs,
                                                            const Tensor& lengths) {
  if (inputs.shape().rank() != 3) return absl::InvalidArgumentError("inputs is not a 3-Tensor");
  if (inputs.shape().num_elements() == 0) {
    return absl::InvalidArgumentError("inputs must not be empty");
  }
  CtcDecoderDims d;
  d.max_time = inputs.shape().dim(0);
  d.batch = inputs.shape().dim(1);
  d.classes = inputs.shape().dim(2);
  if (lengths.shape().rank() != 1) {
    return absl::InvalidArgumentError("sequence_length is not a vector");
  }
  if (lengths.shape().dim(0) != d.batch) {
    return absl::FailedPreconditionError(absl::StrCat(
        "len(sequence_length) != batch_size.  len(sequence_length):  ", lengths.shape().dim(0),
        " batch_size: ", d.batch));
  }
  const int32_t* len = lengths.flat<int32_t>().data();
  for (int64_t b = 0; b < d.batch; ++b) {
    if (!(len[b] <= d.max_time)) {
      return absl::FailedPreconditionError(
          absl::StrCat("sequence_length(", b, ") <= ", d.max_time));
    }
  }
  return d;
}

}  // namespace rill

#endif  // RILL_KERNELS_NN_CTC_DECODER_INPUTS_H_
