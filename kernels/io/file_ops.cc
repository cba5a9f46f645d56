// ReadFile and WriteFile on the CPU (ops/io_ops.cc): a whole file as one scalar string, as
// tf.io.read_file and tf.io.write_file. Errors are TensorFlow's: "<path>; No such file or
// directory" (NotFound), "<path>; Is a directory" (FailedPrecondition), "<path>; Permission
// denied" (PermissionDenied), "<path>; Not a directory" (FailedPrecondition); a file larger than
// the memory it needs is ResourceExhausted, never std::bad_alloc. ReadFile reads regular files
// (/proc files included) and devices to their end, as TensorFlow does (/dev/null is ""); a device
// that has not ended after kDeviceBytes (/dev/zero, which TensorFlow reads until memory runs out)
// is ResourceExhausted. A FIFO or socket is FailedPrecondition, checked with stat before anything
// is opened, since opening a FIFO blocks until a writer comes. WriteFile creates the missing
// directories of the path, as TensorFlow's does.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <new>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "core/errno_status.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

absl::StatusOr<std::string> ScalarString(const Tensor& t, const char* what) {
  if (t.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " tensor must be scalar, but had shape: ", t.shape().DebugString()));
  }
  return t.flat<std::string>()[0];
}

// The most ReadFile takes from a device before giving up on its end.
constexpr size_t kDeviceBytes = size_t{64} << 20;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

class ReadFileOp final : public OpKernel {
 public:
  explicit ReadFileOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::string path, ScalarString(ctx.input(0), "Input filename"));
    struct stat info;
    if (::stat(path.c_str(), &info) != 0) return IOError(path, errno);
    if (S_ISDIR(info.st_mode)) return IOError(path, EISDIR);
    const bool device = S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode);
    if (!S_ISREG(info.st_mode) && !device) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, "; not a regular file or device (ReadFile node ", name(),
                       " reads files and devices, not FIFOs or sockets)"));
    }
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (file == nullptr) return IOError(path, errno);
    std::string contents;
    // Read to the end: the size stat gives is only a first guess (files that grow, /proc).
    const size_t guess = info.st_size > 0 ? static_cast<size_t>(info.st_size) : 0;
    // The executor turns a std::bad_alloc into ResourceExhausted naming only the op type; this
    // one names the node and the file.
    try {
      contents.reserve(guess);
      char buffer[1 << 16];
      size_t n;
      while ((n = std::fread(buffer, 1, sizeof(buffer), file.get())) > 0) {
        if (device && contents.size() + n > kDeviceBytes) {
          return absl::ResourceExhaustedError(
              absl::StrCat(path, "; the device has not ended after ", kDeviceBytes,
                           " bytes (ReadFile node ", name(), " reads a device to its end)"));
        }
        contents.append(buffer, n);
      }
    } catch (const std::bad_alloc&) {
      return absl::ResourceExhaustedError(absl::StrCat("OOM when reading ", path, " (", guess,
                                                       " bytes) in ReadFile node ", name()));
    }
    if (std::ferror(file.get())) return IOError(path, errno == 0 ? EIO : errno);
    ctx.set_output(0, Tensor::Scalar<std::string>(std::move(contents)));
    return absl::OkStatus();
  }
};

class WriteFileOp final : public OpKernel {
 public:
  explicit WriteFileOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::string path, ScalarString(ctx.input(0), "Input filename"));
    RILL_ASSIGN_OR_RETURN(std::string contents, ScalarString(ctx.input(1), "Contents"));
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) {
      std::error_code error;
      std::filesystem::create_directories(parent, error);
      if (error) return IOError(parent.string(), error.value());
    }
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
    if (file == nullptr) return IOError(path, errno);
    if (std::fwrite(contents.data(), 1, contents.size(), file.get()) != contents.size() ||
        std::fflush(file.get()) != 0) {
      return IOError(path, errno == 0 ? EIO : errno);
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("ReadFile").Device(kDeviceCpu), ReadFileOp);
REGISTER_KERNEL(KernelDefBuilder("WriteFile").Device(kDeviceCpu), WriteFileOp);

}  // namespace
}  // namespace rill
