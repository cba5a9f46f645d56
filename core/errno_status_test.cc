#include "core/errno_status.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using C = absl::StatusCode;

// Every errno value TensorFlow's IOError names, with its code (tsl/platform/errors.cc).
TEST(ErrnoStatusTest, EveryErrnoTensorFlowNamesGetsItsCode) {
  const std::vector<std::pair<int, C>> expected = {
      {0, C::kOk},
      {EINVAL, C::kInvalidArgument},
      {ENAMETOOLONG, C::kInvalidArgument},
      {E2BIG, C::kInvalidArgument},
      {EDESTADDRREQ, C::kInvalidArgument},
      {EDOM, C::kInvalidArgument},
      {EFAULT, C::kInvalidArgument},
      {EILSEQ, C::kInvalidArgument},
      {ENOPROTOOPT, C::kInvalidArgument},
      {ENOSTR, C::kInvalidArgument},
      {ENOTSOCK, C::kInvalidArgument},
      {ENOTTY, C::kInvalidArgument},
      {EPROTOTYPE, C::kInvalidArgument},
      {ESPIPE, C::kInvalidArgument},
      {ETIMEDOUT, C::kDeadlineExceeded},
      {ETIME, C::kDeadlineExceeded},
      {ENODEV, C::kNotFound},
      {ENOENT, C::kNotFound},
      {ENXIO, C::kNotFound},
      {ESRCH, C::kNotFound},
      {EEXIST, C::kAlreadyExists},
      {EADDRNOTAVAIL, C::kAlreadyExists},
      {EALREADY, C::kAlreadyExists},
      {EPERM, C::kPermissionDenied},
      {EACCES, C::kPermissionDenied},
      {EROFS, C::kPermissionDenied},
      {ENOTEMPTY, C::kFailedPrecondition},
      {EISDIR, C::kFailedPrecondition},
      {ENOTDIR, C::kFailedPrecondition},
      {EADDRINUSE, C::kFailedPrecondition},
      {EBADF, C::kFailedPrecondition},
      {EBUSY, C::kFailedPrecondition},
      {ECHILD, C::kFailedPrecondition},
      {EISCONN, C::kFailedPrecondition},
      {ENOTBLK, C::kFailedPrecondition},
      {ENOTCONN, C::kFailedPrecondition},
      {EPIPE, C::kFailedPrecondition},
      {ESHUTDOWN, C::kFailedPrecondition},
      {ETXTBSY, C::kFailedPrecondition},
      {ENOSPC, C::kResourceExhausted},
      {EDQUOT, C::kResourceExhausted},
      {EMFILE, C::kResourceExhausted},
      {EMLINK, C::kResourceExhausted},
      {ENFILE, C::kResourceExhausted},
      {ENOBUFS, C::kResourceExhausted},
      {ENODATA, C::kResourceExhausted},
      {ENOMEM, C::kResourceExhausted},
      {ENOSR, C::kResourceExhausted},
      {EUSERS, C::kResourceExhausted},
      {EFBIG, C::kOutOfRange},
      {EOVERFLOW, C::kOutOfRange},
      {ERANGE, C::kOutOfRange},
      {ENOSYS, C::kUnimplemented},
      {ENOTSUP, C::kUnimplemented},
      {EAFNOSUPPORT, C::kUnimplemented},
      {EPFNOSUPPORT, C::kUnimplemented},
      {EPROTONOSUPPORT, C::kUnimplemented},
      {ESOCKTNOSUPPORT, C::kUnimplemented},
      {EXDEV, C::kUnimplemented},
      {EAGAIN, C::kUnavailable},
      {ECONNREFUSED, C::kUnavailable},
      {ECONNABORTED, C::kUnavailable},
      {ECONNRESET, C::kUnavailable},
      {EINTR, C::kUnavailable},
      {EHOSTDOWN, C::kUnavailable},
      {EHOSTUNREACH, C::kUnavailable},
      {ENETDOWN, C::kUnavailable},
      {ENETRESET, C::kUnavailable},
      {ENETUNREACH, C::kUnavailable},
      {ENOLCK, C::kUnavailable},
      {ENOLINK, C::kUnavailable},
      {ENONET, C::kUnavailable},
      {EDEADLK, C::kAborted},
      {ESTALE, C::kAborted},
      {ECANCELED, C::kCancelled},
      {EBADMSG, C::kUnknown},
      {EIDRM, C::kUnknown},
      {EINPROGRESS, C::kUnknown},
      {EIO, C::kUnknown},
      {ELOOP, C::kUnknown},
      {ENOEXEC, C::kUnknown},
      {ENOMSG, C::kUnknown},
      {EPROTO, C::kUnknown},
      {EREMOTE, C::kUnknown},
      {ENOTUNIQ, C::kUnknown},
      {-1, C::kUnknown},
      {100000, C::kUnknown},
  };
  for (const auto& [error, code] : expected) {
    EXPECT_EQ(ErrnoToCode(error), code) << "errno " << error << " (" << std::strerror(error) << ")";
  }
}

TEST(ErrnoStatusTest, IOErrorNamesTheContextAndTheSystemsText) {
  EXPECT_THAT(IOError("/no/such/file", ENOENT),
              StatusIs(C::kNotFound, "/no/such/file; No such file or directory"));
  EXPECT_THAT(IOError("/etc", EISDIR), StatusIs(C::kFailedPrecondition, "/etc; Is a directory"));
  EXPECT_THAT(IOError("x", EIO), StatusIs(C::kUnknown, "x; Input/output error"));
  EXPECT_TRUE(IOError("x", 0).ok());
}

}  // namespace
}  // namespace rill
