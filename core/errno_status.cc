#include "core/errno_status.h"

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace rill {

absl::StatusCode ErrnoToCode(int error) {
  using C = absl::StatusCode;
  switch (error) {
    case 0:
      return C::kOk;
    // Missing files, devices and processes.
    case ENOENT:
    case ENODEV:
    case ENXIO:
    case ESRCH:
      return C::kNotFound;
    case EACCES:
    case EPERM:
    case EROFS:
      return C::kPermissionDenied;
    case EEXIST:
    case EALREADY:
    case EADDRNOTAVAIL:
      return C::kAlreadyExists;
    // The call is wrong whatever the state of the system.
    case EINVAL:
    case E2BIG:
    case EDOM:
    case EFAULT:
    case EILSEQ:
    case ENAMETOOLONG:
    case ESPIPE:
    case ENOTTY:
    case ENOTSOCK:
    case ENOPROTOOPT:
    case EPROTOTYPE:
    case EDESTADDRREQ:
    case ENOSTR:
      return C::kInvalidArgument;
    // The call would be right with the system in another state.
    case EISDIR:
    case ENOTDIR:
    case ENOTEMPTY:
    case EBADF:
    case EBUSY:
    case ETXTBSY:
    case ECHILD:
    case ENOTBLK:
    case EPIPE:
    case EADDRINUSE:
    case EISCONN:
    case ENOTCONN:
    case ESHUTDOWN:
      return C::kFailedPrecondition;
    // Out of space, memory, descriptors or links.
    case ENOSPC:
    case EDQUOT:
    case ENOMEM:
    case ENOBUFS:
    case ENOSR:
    case ENODATA:
    case EMFILE:
    case ENFILE:
    case EMLINK:
    case EUSERS:
      return C::kResourceExhausted;
    case EFBIG:
    case ERANGE:
    case EOVERFLOW:
      return C::kOutOfRange;
    case ENOSYS:
    case ENOTSUP:
    case EXDEV:
    case EAFNOSUPPORT:
    case EPFNOSUPPORT:
    case EPROTONOSUPPORT:
    case ESOCKTNOSUPPORT:
      return C::kUnimplemented;
    // Worth retrying: interrupted, refused or a network away.
    case EAGAIN:
    case EINTR:
    case ENOLCK:
    case ECONNREFUSED:
    case ECONNABORTED:
    case ECONNRESET:
    case EHOSTDOWN:
    case EHOSTUNREACH:
    case ENETDOWN:
    case ENETRESET:
    case ENETUNREACH:
    case ENOLINK:
    case ENONET:
      return C::kUnavailable;
    case ETIMEDOUT:
    case ETIME:
      return C::kDeadlineExceeded;
    case EDEADLK:
    case ESTALE:
      return C::kAborted;
    case ECANCELED:
      return C::kCancelled;
    default:  // EIO, ELOOP, ENOEXEC, EPROTO, ... and values TensorFlow does not list
      return C::kUnknown;
  }
}

absl::Status IOError(absl::string_view context, int error) {
  const absl::StatusCode code = ErrnoToCode(error);
  if (code == absl::StatusCode::kOk) return absl::OkStatus();
  return absl::Status(code, absl::StrCat(context, "; ", std::strerror(error)));
}

}  // namespace rill
