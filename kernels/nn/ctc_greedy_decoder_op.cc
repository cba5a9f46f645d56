// CTCGreedyDecoder on the CPU: for each batch entry, the most likely class at each of its first
// sequence_length time steps (the first of equal maxima), blanks dropped and, with
// merge_repeated, a class equal to the previous step's dropped. Outputs the decoded sequences as
// a sparse tensor (indices [n, 2] in batch then time order, values, shape [batch, longest]) and
// log_probability [batch, 1], the negated sum of the chosen logits (accumulated in T, in time
// order, as TensorFlow's kernel).
// Errors (TensorFlow's texts and codes): inputs not [time, batch, classes] or empty,
// sequence_length not a vector (InvalidArgument); its length not batch or an entry above time
// (FailedPrecondition); blank_index outside [-classes, classes).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/nn/ctc_decoder_inputs.h"

namespace rill {
namespace {

class CTCGreedyDecoderOp final : public OpKernel {
 public:
  explicit CTCGreedyDecoderOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("merge_repeated", &merge_repeated_));
    ctx.SetStatus(ctx.GetAttr("blank_index", &blank_index_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& inputs = ctx.input(0);
    const Tensor& lengths = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(const CtcDecoderDims dims, CheckCtcDecoderInputs(inputs, lengths));
    const int64_t batch = dims.batch, classes = dims.classes;
    const int32_t* len = lengths.flat<int32_t>().data();
    const int64_t blank = blank_index_ < 0 ? classes + blank_index_ : blank_index_;
    if (blank < 0 || blank >= classes) {
      return absl::InvalidArgumentError(absl::StrCat("blank_index expected to be between ",
                                                     -classes, " and ", classes - 1, " but was ",
                                                     blank_index_));
    }
    return VisitKernelTypes<float, double>(*this, inputs.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = inputs.flat<T>().data();
      std::vector<std::vector<int64_t>> decoded(batch);
      RILL_ASSIGN_OR_RETURN(Tensor * log_prob,
                            ctx.allocate_output(3, TensorShape({batch, int64_t{1}})));
      T* lp = log_prob->flat<T>().data();
      for (int64_t b = 0; b < batch; ++b) {
        lp[b] = T(0);
        int64_t previous = -1;
        for (int64_t t = 0; t < len[b]; ++t) {
          const T* row = x + (t * batch + b) * classes;
          int64_t best = 0;
          for (int64_t k = 1; k < classes; ++k) {
            if (row[k] > row[best]) best = k;
          }
          lp[b] += -row[best];
          if (best != blank && !(merge_repeated_ && best == previous)) {
            decoded[b].push_back(best);
          }
          previous = best;
        }
      }
      int64_t total = 0, longest = 0;
      for (const auto& d : decoded) {
        total += d.size();
        longest = std::max<int64_t>(longest, d.size());
      }
      RILL_ASSIGN_OR_RETURN(Tensor * indices,
                            ctx.allocate_output(0, TensorShape({total, int64_t{2}})));
      RILL_ASSIGN_OR_RETURN(Tensor * values, ctx.allocate_output(1, TensorShape({total})));
      RILL_ASSIGN_OR_RETURN(Tensor * shape, ctx.allocate_output(2, TensorShape({int64_t{2}})));
      int64_t* ix = indices->flat<int64_t>().data();
      int64_t* v = values->flat<int64_t>().data();
      int64_t n = 0;
      for (int64_t b = 0; b < batch; ++b) {
        for (size_t j = 0; j < decoded[b].size(); ++j, ++n) {
          ix[2 * n] = b;
          ix[2 * n + 1] = static_cast<int64_t>(j);
          v[n] = decoded[b][j];
        }
      }
      shape->flat<int64_t>()[0] = batch;
      shape->flat<int64_t>()[1] = longest;
      return absl::OkStatus();
    });
  }

 private:
  bool merge_repeated_ = false;
  int64_t blank_index_ = -1;
};

REGISTER_KERNEL(KernelDefBuilder("CTCGreedyDecoder")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                CTCGreedyDecoderOp);

}  // namespace
}  // namespace rill
