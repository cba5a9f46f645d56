// Printing and formatting on the CPU:
//   StringFormat(inputs...): `template` with each `placeholder` replaced by the next input in
//     TensorFlow's print_v2 rendering (Tensor::SummarizeValuesV2, `summarize` entries per end).
//   PrintV2(input): writes the string scalar and `end` to output_stream: "stderr", "stdout",
//     "log(info)", "log(warning)", "log(error)" (stderr, prefixed with the level), or
//     "file://PATH" (appended; the file is opened per call, so concurrent steps interleave whole
//     lines).
//   Print(input, data...): forwards input; the first `first_n` runs (-1: all) write `message` and
//     each data tensor as "[v v v]" (TF1's tf.Print) to stderr.
// Errors are InvalidArgument with TensorFlow's texts: "Number of placeholders in template (2)
// does not match number of inputs (1)", "Unknown output stream: x", "Input is expected to be
// scalar, but got [2]"; Internal when the file cannot be written.
//
// Kernels are immutable after construction except Print's run counter (atomic); Compute is
// thread-safe.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

class StringFormatOp final : public OpKernel {
 public:
  explicit StringFormatOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string tmpl, placeholder;
    ctx.SetStatus(ctx.GetAttr("template", &tmpl));
    ctx.SetStatus(ctx.GetAttr("placeholder", &placeholder));
    ctx.SetStatus(ctx.GetAttr("summarize", &summarize_));
    ctx.SetStatus(CheckInt32Attr("summarize", summarize_));
    if (!ctx.status().ok()) return;
    pieces_ = absl::StrSplit(tmpl, placeholder);
    const int64_t placeholders = static_cast<int64_t>(pieces_.size()) - 1;
    const int64_t inputs = ctx.def().input_size();
    if (placeholders != inputs) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("Number of placeholders in template (", placeholders,
                       ") does not match number of inputs (", inputs, ")")));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    std::string out = pieces_[0];
    for (int i = 0; i < ctx.num_inputs(); ++i) {
      absl::StrAppend(&out, ctx.input(i).SummarizeValuesV2(static_cast<int>(summarize_)),
                      pieces_[i + 1]);
    }
    RILL_ASSIGN_OR_RETURN(Tensor * t, ctx.allocate_output(0, TensorShape()));
    t->flat<std::string>()[0] = std::move(out);
    return absl::OkStatus();
  }

 private:
  std::vector<std::string> pieces_;
  int64_t summarize_ = 3;
};

class PrintV2Op final : public OpKernel {
 public:
  explicit PrintV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("output_stream", &stream_));
    ctx.SetStatus(ctx.GetAttr("end", &end_));
    const bool known = stream_ == "stderr" || stream_ == "stdout" || stream_ == "log(info)" ||
                       stream_ == "log(warning)" || stream_ == "log(error)" ||
                       absl::StartsWith(stream_, "file://");
    if (ctx.status().ok() && !known) {
      ctx.SetStatus(absl::InvalidArgumentError(absl::StrCat("Unknown output stream: ", stream_)));
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    if (in.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input is expected to be scalar, but got ", in.shape().DebugString()));
    }
    const std::string text = in.flat<std::string>()[0] + end_;
    if (absl::StartsWith(stream_, "file://")) {
      const std::string path = stream_.substr(7);
      FILE* f = std::fopen(path.c_str(), "a");
      if (f == nullptr) return absl::InternalError(absl::StrCat("Could not open file ", path));
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
      return absl::OkStatus();
    }
    FILE* out = stream_ == "stdout" ? stdout : stderr;
    if (absl::StartsWith(stream_, "log(")) {
      std::fprintf(out, "%s: ", stream_.substr(4, stream_.size() - 5).c_str());
    }
    std::fwrite(text.data(), 1, text.size(), out);
    std::fflush(out);
    return absl::OkStatus();
  }

 private:
  std::string stream_ = "stderr";
  std::string end_ = "\n";
};

class PrintOp final : public OpKernel {
 public:
  explicit PrintOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("message", &message_));
    ctx.SetStatus(ctx.GetAttr("first_n", &first_n_));
    ctx.SetStatus(CheckInt32Attr("first_n", first_n_));
    ctx.SetStatus(ctx.GetAttr("summarize", &summarize_));
    ctx.SetStatus(CheckInt32Attr("summarize", summarize_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, ctx.input(0));
    if (first_n_ >= 0 && printed_.fetch_add(1) >= first_n_) return absl::OkStatus();
    std::string line = message_;
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      absl::StrAppend(&line, "[", ctx.input(i).SummarizeValues(static_cast<int>(summarize_)), "]");
    }
    std::fprintf(stderr, "%s\n", line.c_str());
    return absl::OkStatus();
  }

 private:
  std::string message_;
  int64_t first_n_ = -1;
  int64_t summarize_ = 3;
  mutable std::atomic<int64_t> printed_{0};
};

REGISTER_KERNEL(KernelDefBuilder("StringFormat").Device(kDeviceCpu), StringFormatOp);
REGISTER_KERNEL(KernelDefBuilder("PrintV2").Device(kDeviceCpu), PrintV2Op);
REGISTER_KERNEL(KernelDefBuilder("Print").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                PrintOp);

}  // namespace
}  // namespace rill
