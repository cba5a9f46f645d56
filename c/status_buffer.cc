// TF_Version, TF_Status, TF_Buffer and TF_DataTypeSize: the C API's small value types.
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "core/errno_status.h"

namespace rill_c {

void SetStatus(TF_Status* status, const absl::Status& s) {
  if (status == nullptr) return;
  status->code = static_cast<TF_Code>(s.code());
  status->message = s.ok() ? std::string() : std::string(s.message());
}

void SetOk(TF_Status* status) {
  if (status == nullptr) return;
  status->code = TF_OK;
  status->message.clear();
}

std::string OutputName(TF_Output output) {
  return absl::StrCat(ToNode(output.oper)->name(), ":", output.index);
}

namespace {
void FreeBytes(void* data, size_t) { std::free(data); }
}  // namespace

bool ParseFromBytes(const void* data, size_t length, google::protobuf::MessageLite* message) {
  if (data == nullptr && length > 0) return false;
  if (length > static_cast<size_t>(std::numeric_limits<int>::max())) return false;
  return message->ParseFromArray(data, static_cast<int>(length));
}

void SetBufferBytes(TF_Buffer* buffer, const std::string& bytes) {
  if (buffer->data_deallocator != nullptr) {
    buffer->data_deallocator(const_cast<void*>(buffer->data), buffer->length);
  }
  void* copy = std::malloc(bytes.empty() ? 1 : bytes.size());
  if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
  buffer->data = copy;
  buffer->length = bytes.size();
  buffer->data_deallocator = FreeBytes;
}

}  // namespace rill_c

extern "C" {

// TensorFlow's release string, as programs print and parse it ("Hello from TensorFlow C library
// version %s"): the version whose C API this library serves.
const char* TF_Version(void) { return "2.21.0"; }

TF_Status* TF_NewStatus(void) { return new TF_Status; }

void TF_DeleteStatus(TF_Status* s) { delete s; }

void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg) {
  if (s == nullptr) return;
  s->code = code;
  s->message = (code == TF_OK || msg == nullptr) ? "" : msg;
}

void TF_SetPayload(TF_Status*, const char*, const char*) {}

void TF_SetStatusFromIOError(TF_Status* s, int error_code, const char* context) {
  rill_c::SetStatus(s, rill::IOError(context == nullptr ? "" : context, error_code));
}

TF_Code TF_GetCode(const TF_Status* s) { return s == nullptr ? TF_OK : s->code; }

const char* TF_Message(const TF_Status* s) { return s == nullptr ? "" : s->message.c_str(); }

TF_Buffer* TF_NewBuffer(void) { return new TF_Buffer{nullptr, 0, nullptr}; }

TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len) {
  // No status to report a length no object has (a negative count as size_t): no buffer.
  if (proto != nullptr && !rill_c::IsObjectLength(proto_len)) return nullptr;
  TF_Buffer* buffer = TF_NewBuffer();
  if (proto == nullptr) proto_len = 0;
  rill_c::SetBufferBytes(buffer, std::string(static_cast<const char*>(proto), proto_len));
  return buffer;
}

void TF_DeleteBuffer(TF_Buffer* buffer) {
  if (buffer == nullptr) return;
  if (buffer->data_deallocator != nullptr) {
    buffer->data_deallocator(const_cast<void*>(buffer->data), buffer->length);
  }
  delete buffer;
}

TF_Buffer TF_GetBuffer(TF_Buffer* buffer) {
  if (buffer == nullptr) return TF_Buffer{nullptr, 0, nullptr};
  return *buffer;
}

size_t TF_DataTypeSize(TF_DataType dt) {
  switch (dt) {
    case TF_BOOL:
    case TF_INT8:
    case TF_UINT8:
    case TF_QINT8:
    case TF_QUINT8:
    case TF_FLOAT8_E5M2:
    case TF_FLOAT8_E4M3FN:
    case TF_INT4:
    case TF_UINT4:
      return 1;
    case TF_INT16:
    case TF_UINT16:
    case TF_QINT16:
    case TF_QUINT16:
    case TF_HALF:
    case TF_BFLOAT16:
      return 2;
    case TF_FLOAT:
    case TF_INT32:
    case TF_UINT32:
    case TF_QINT32:
      return 4;
    case TF_DOUBLE:
    case TF_INT64:
    case TF_UINT64:
    case TF_COMPLEX64:
      return 8;
    case TF_COMPLEX128:
      return 16;
    default:
      return 0;  // TF_STRING, TF_RESOURCE, TF_VARIANT and values that are not types
  }
}

}  // extern "C"
