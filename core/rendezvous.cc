#include "core/rendezvous.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace rill {

std::string CreateRendezvousKey(absl::string_view send_device, uint64_t send_incarnation,
                                absl::string_view recv_device, absl::string_view tensor_name) {
  return absl::StrCat(send_device, ";", absl::StrFormat("%016x", send_incarnation), ";",
                      recv_device, ";", tensor_name, ";0:0");
}

}  // namespace rill
