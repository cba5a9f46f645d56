// Device names, TensorFlow style: parsing, printing, matching, merging and
// ordering.
//
// A device name is a "/"-separated list of components, each of which may be
// left unset ("*" also means unset):
//
//   /job:localhost/replica:0/task:0/device:GPU:1   full, canonical
//   /device:GPU:1  /job:worker/task:3  /replica:0  partial, any order
//   /device:GPU  /job:*/device:GPU:*               type without id
//   /cpu:0  /gpu:1  /CPU:0  /GPU:1                 legacy: type CPU / GPU
//
// A partial name is a *specification*: it stands for every device whose set
// components agree with it. The placer parses the device requested by each
// node, merges the requests of colocated nodes, and picks the best-ordered
// device that matches the merged request.
//
//   RILL_ASSIGN_OR_RETURN(DeviceName want, ParseDeviceName("/gpu:1"));
//   DeviceNameToString(want);  // "/device:GPU:1"
//   RILL_ASSIGN_OR_RETURN(DeviceName dev,
//                         ParseDeviceName(FullDeviceName("GPU", 1)));
//   Matches(want, dev);  // true
//   RILL_RETURN_IF_ERROR(MergeDeviceNames(&want, other, /*soft=*/true));
//
// Behaviour follows TensorFlow's DeviceNameUtils (ParseFullName,
// ParsedNameToString, IsSpecification, AreCompatibleDevNames, MergeDevNames,
// ...) including its error texts.
//
// Thread safety: DeviceName is a plain value type (thread-compatible). Every
// function here is pure: it reads only its arguments and writes only its
// out-parameter, so concurrent calls on distinct objects are safe.
#ifndef RILL_CORE_DEVICE_NAME_H_
#define RILL_CORE_DEVICE_NAME_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {

// A parsed, possibly partial device name. A component's value is meaningful
// only when its has_* flag is true; unset components keep their defaults and
// are ignored by every function below (including operator==).
struct DeviceName {
  bool has_job = false;
  std::string job;
  bool has_replica = false;
  int replica = 0;
  bool has_task = false;
  int task = 0;
  bool has_type = false;
  std::string type;  // Case-sensitive: "GPU" and "gpu" are different types.
  bool has_id = false;
  int id = 0;

  // Unsets every component.
  void Clear() { *this = DeviceName(); }
};

// True iff `a` and `b` set the same components with the same values (unset
// values are ignored).
bool operator==(const DeviceName& a, const DeviceName& b);
inline bool operator!=(const DeviceName& a, const DeviceName& b) { return !(a == b); }

// ---------------------------------------------------------------------------
// Parsing

// Parses a full or partial device name (TensorFlow's ParseFullName).
//  - "" and "/" are valid and set nothing.
//  - Components /job:NAME, /replica:N, /task:N, /device:TYPE[:ID] and the
//    legacy /cpu:ID, /CPU:ID, /gpu:ID, /GPU:ID may appear in any order; a
//    repeated component silently overwrites the earlier one.
//  - Any value may be "*", meaning "leave unset". /device:TYPE and
//    /device:TYPE:* set the type and leave the id unset.
//  - NAME: a letter, then letters, digits or '_', up to the next '/'.
//  - TYPE: a letter, then letters, digits or '_', up to the next '/' or ':'.
//    Kept verbatim: "/device:gpu:0" has type "gpu" (which matches no device).
//    The legacy forms give "CPU" / "GPU".
//  - N, ID: decimal digits only (no sign). Values above INT_MAX are rejected
//    (TensorFlow would silently truncate them).
// Bare local names such as "GPU:0" are NOT accepted; see ParseLocalDeviceName.
// Errors: InvalidArgument "Malformed device specification '<name>'". Callers
// that know the node should add it (AnnotateStatus, or " in node: ...").
absl::StatusOr<DeviceName> ParseDeviceName(absl::string_view name);

// Parses a bare local name "TYPE:ID" such as "GPU:0" (TensorFlow's
// ParseLocalName): a device type as above, ':', decimal digits, nothing else;
// "*" is not allowed. Sets only type and id. Errors: InvalidArgument "Malformed
// device specification '<name>'".
absl::StatusOr<DeviceName> ParseLocalDeviceName(absl::string_view name);

// ParseDeviceName(name) if it succeeds, else ParseLocalDeviceName(name).
// Errors: InvalidArgument "Malformed device specification '<name>'" when
// neither accepts it.
absl::StatusOr<DeviceName> ParseFullOrLocalDeviceName(absl::string_view name);

// ---------------------------------------------------------------------------
// Printing

// Canonical string: only the set components, always in the order /job:J
// /replica:R /task:T /device:TYPE:ID; a set type with an unset id prints as
// /device:TYPE:*. An unset type hides the id. So "/gpu:1" prints as
// "/device:GPU:1", "/device:GPU" as "/device:GPU:*", and an empty name as "".
// For any n from ParseDeviceName that sets a type or leaves the id unset,
// ParseDeviceName(DeviceNameToString(n)) == n.
std::string DeviceNameToString(const DeviceName& name);

// "/job:localhost/replica:0/task:0/device:TYPE:ID": the name a local session
// gives its devices.
std::string FullDeviceName(absl::string_view type, int id);

// "/job:JOB/replica:REPLICA/task:TASK/device:TYPE:ID".
std::string FullDeviceName(absl::string_view job, int replica, int task, absl::string_view type,
                           int id);

// Legacy alias of a local device, with the type lower-cased:
// LegacyDeviceName("GPU", 1) == "/job:localhost/replica:0/task:0/gpu:1". A
// device set registers each device under this alias too, so lookups by either
// spelling succeed.
std::string LegacyDeviceName(absl::string_view type, int id);

// "/job:JOB/replica:REPLICA/task:TASK/<lower-cased type>:ID".
std::string LegacyDeviceName(absl::string_view job, int replica, int task, absl::string_view type,
                             int id);

// ---------------------------------------------------------------------------
// Relations between (partial) names. All total, no errors.

// True iff all five components of `name` are set, i.e. it names one concrete
// device.
bool IsFullySpecified(const DeviceName& name);

// True iff `device` matches `pattern`: every component set in `pattern` is set
// in `device` with the same value (TensorFlow's IsCompleteSpecification when
// `device` is fully specified; a component unset in `device` never matches a
// set one, instead of crashing). The empty pattern matches every device.
bool Matches(const DeviceName& pattern, const DeviceName& device);

// True iff no component is set in both `a` and `b` with different values
// (TensorFlow's AreCompatibleDevNames). Symmetric.
bool AreCompatible(const DeviceName& a, const DeviceName& b);

// True iff every component set in `less_specific` is also set in
// `more_specific` with the same value (TensorFlow's IsSpecification). Same test
// as Matches, for two partial names.
bool IsSpecification(const DeviceName& less_specific, const DeviceName& more_specific);

// True iff `a` and `b` both set job, replica and task, with equal values (same
// process).
bool IsSameAddressSpace(const DeviceName& a, const DeviceName& b);

// ---------------------------------------------------------------------------
// Merging

// Copies every component set in `other` into `*target`, in the order job,
// replica, task, type, id (TensorFlow's MergeDevNames). Conflicts (set in both,
// different values):
//  - job / replica / task: InvalidArgument, whatever allow_soft_placement says:
//      "Cannot merge devices with incompatible jobs: '<target>' and '<other>'"
//    ("replicas", "tasks" likewise).
//  - type: InvalidArgument
//      "Cannot merge devices with incompatible types: '<target>' and '<other>'"
//    With allow_soft_placement: clears target's type AND id, returns OK, and
//    does not merge other's id.
//  - id: InvalidArgument
//      "Cannot merge devices with incompatible ids: '<target>' and '<other>'"
//    With allow_soft_placement: clears target's id and returns OK.
// <target> and <other> are DeviceNameToString of the two names at the moment
// of the conflict. On error, the components before the conflicting one have
// already been merged into `*target`.
absl::Status MergeDeviceNames(DeviceName* target, const DeviceName& other,
                              bool allow_soft_placement);

// Like MergeDeviceNames, but type and id conflicts are resolved in favour of
// `other` (TensorFlow's MergeOverrideDevNames; used when a node is actually
// assigned a device). A type override keeps target's id unless `other` sets
// one. Errors: job / replica / task conflicts are still InvalidArgument, with
// the texts above.
absl::Status MergeOverrideDeviceNames(DeviceName* target, const DeviceName& other);

// ---------------------------------------------------------------------------
// Ordering

// Priority of a device type when choosing among candidate devices; higher is
// preferred: "GPU" 210, "CPU" 60, any other (unregistered) type -1.
int DeviceTypePriority(absl::string_view type);

// Strict weak order for candidate devices: higher `priority` first, then `name`
// compared as a plain string. Strings, not numbers: ".../device:GPU:10" sorts
// before ".../device:GPU:2", as in TensorFlow. Callers with extra criteria
// (kernel priority, local before remote) test those first and fall back to
// this.
bool DeviceOrderLess(int a_priority, absl::string_view a_name, int b_priority,
                     absl::string_view b_name);

// DeviceOrderLess with priorities DeviceTypePriority(x.type) and names
// DeviceNameToString(x). Usable directly with std::sort over DeviceName values.
bool DeviceOrderLess(const DeviceName& a, const DeviceName& b);

}  // namespace rill

#endif  // RILL_CORE_DEVICE_NAME_H_
