#include "core/device_name.h"

#include <climits>
#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace rill {
namespace {

constexpr absl::string_view kLocalJob = "localhost";

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsNameChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '_'; }

// Consumes a letter followed by letters/digits/'_' up to (not including) the
// first character in `terminators` or the end of input. Any other character
// makes the whole parse fail.
bool ConsumeIdentifier(absl::string_view* in, absl::string_view terminators, std::string* out) {
  if (in->empty() || !IsAlpha((*in)[0])) return false;
  size_t i = 1;
  for (; i < in->size(); ++i) {
    const char c = (*in)[i];
    if (terminators.find(c) != absl::string_view::npos) break;
    if (!IsNameChar(c)) return false;
  }
  out->assign(in->data(), i);
  in->remove_prefix(i);
  return true;
}

bool ConsumeJobName(absl::string_view* in, std::string* job) {
  return ConsumeIdentifier(in, "/", job);
}

bool ConsumeDeviceType(absl::string_view* in, std::string* type) {
  return ConsumeIdentifier(in, "/:", type);
}

// Consumes one or more leading decimal digits. Fails on no digits or a value
// above INT_MAX.
bool ConsumeNumber(absl::string_view* in, int* value) {
  size_t i = 0;
  int64_t v = 0;
  while (i < in->size() && IsDigit((*in)[i])) {
    v = v * 10 + ((*in)[i] - '0');
    if (v > INT_MAX) return false;
    ++i;
  }
  if (i == 0) return false;
  *value = static_cast<int>(v);
  in->remove_prefix(i);
  return true;
}

// Handles the value after "/replica:", "/task:", or the id part of a device:
// "*" leaves the component unset, otherwise a number is required.
bool ConsumeOptionalNumber(absl::string_view* in, bool* has, int* value) {
  *has = !absl::ConsumePrefix(in, "*");
  if (!*has) {
    *value = 0;
    return true;
  }
  return ConsumeNumber(in, value);
}

absl::Status Malformed(absl::string_view name) {
  return absl::InvalidArgumentError(absl::StrCat("Malformed device specification '", name, "'"));
}

bool ParseFull(absl::string_view in, DeviceName* p) {
  p->Clear();
  if (in == "/") return true;
  // One pass tries every component kind in a fixed order; a pass that consumes
  // nothing fails.
  while (!in.empty()) {
    bool progress = false;
    if (absl::ConsumePrefix(&in, "/job:")) {
      p->has_job = !absl::ConsumePrefix(&in, "*");
      if (!p->has_job) {
        p->job.clear();
      } else if (!ConsumeJobName(&in, &p->job)) {
        return false;
      }
      progress = true;
    }
    if (absl::ConsumePrefix(&in, "/replica:")) {
      if (!ConsumeOptionalNumber(&in, &p->has_replica, &p->replica)) return false;
      progress = true;
    }
    if (absl::ConsumePrefix(&in, "/task:")) {
      if (!ConsumeOptionalNumber(&in, &p->has_task, &p->task)) return false;
      progress = true;
    }
    if (absl::ConsumePrefix(&in, "/device:")) {
      p->has_type = !absl::ConsumePrefix(&in, "*");
      if (!p->has_type) {
        p->type.clear();
      } else if (!ConsumeDeviceType(&in, &p->type)) {
        return false;
      }
      if (absl::ConsumePrefix(&in, ":")) {
        if (!ConsumeOptionalNumber(&in, &p->has_id, &p->id)) return false;
      } else {
        p->has_id = false;
        p->id = 0;
      }
      progress = true;
    }
    // Legacy spellings: /cpu:N, /CPU:N, /gpu:N, /GPU:N mean /device:CPU:N,
    // /device:GPU:N.
    if (absl::ConsumePrefix(&in, "/cpu:") || absl::ConsumePrefix(&in, "/CPU:")) {
      p->has_type = true;
      p->type = "CPU";
      if (!ConsumeOptionalNumber(&in, &p->has_id, &p->id)) return false;
      progress = true;
    }
    if (absl::ConsumePrefix(&in, "/gpu:") || absl::ConsumePrefix(&in, "/GPU:")) {
      p->has_type = true;
      p->type = "GPU";
      if (!ConsumeOptionalNumber(&in, &p->has_id, &p->id)) return false;
      progress = true;
    }
    if (!progress) return false;
  }
  return true;
}

bool ParseLocal(absl::string_view in, DeviceName* p) {
  p->Clear();
  if (!ConsumeDeviceType(&in, &p->type)) return false;
  p->has_type = true;
  if (!absl::ConsumePrefix(&in, ":")) return false;
  if (!ConsumeNumber(&in, &p->id)) return false;
  p->has_id = true;
  return in.empty();
}

absl::Status Incompatible(absl::string_view what, const DeviceName& target,
                          const DeviceName& other) {
  return absl::InvalidArgumentError(absl::StrCat("Cannot merge devices with incompatible ", what,
                                                 ": '", DeviceNameToString(target), "' and '",
                                                 DeviceNameToString(other), "'"));
}

absl::Status MergeImpl(DeviceName* target, const DeviceName& other, bool allow_soft_placement,
                       bool override_conflicts) {
  if (other.has_job) {
    if (target->has_job && target->job != other.job) {
      return Incompatible("jobs", *target, other);
    }
    target->has_job = true;
    target->job = other.job;
  }
  if (other.has_replica) {
    if (target->has_replica && target->replica != other.replica) {
      return Incompatible("replicas", *target, other);
    }
    target->has_replica = true;
    target->replica = other.replica;
  }
  if (other.has_task) {
    if (target->has_task && target->task != other.task) {
      return Incompatible("tasks", *target, other);
    }
    target->has_task = true;
    target->task = other.task;
  }
  if (other.has_type) {
    if (target->has_type && target->type != other.type) {
      if (!allow_soft_placement) return Incompatible("types", *target, other);
      if (!override_conflicts) {
        // Soft placement: forget the device entirely and let the placer choose.
        target->has_type = false;
        target->type.clear();
        target->has_id = false;
        target->id = 0;
        return absl::OkStatus();
      }
    }
    target->has_type = true;
    target->type = other.type;
  }
  if (other.has_id) {
    if (target->has_id && target->id != other.id) {
      if (!allow_soft_placement) return Incompatible("ids", *target, other);
      if (!override_conflicts) {
        target->has_id = false;
        target->id = 0;
        return absl::OkStatus();
      }
    }
    target->has_id = true;
    target->id = other.id;
  }
  return absl::OkStatus();
}

std::string MakeName(absl::string_view job, int replica, int task, absl::string_view device) {
  return absl::StrCat("/job:", job, "/replica:", replica, "/task:", task, device);
}

}  // namespace

bool operator==(const DeviceName& a, const DeviceName& b) {
  return a.has_job == b.has_job && (!a.has_job || a.job == b.job) &&
         a.has_replica == b.has_replica && (!a.has_replica || a.replica == b.replica) &&
         a.has_task == b.has_task && (!a.has_task || a.task == b.task) &&
         a.has_type == b.has_type && (!a.has_type || a.type == b.type) && a.has_id == b.has_id &&
         (!a.has_id || a.id == b.id);
}

absl::StatusOr<DeviceName> ParseDeviceName(absl::string_view name) {
  DeviceName parsed;
  if (!ParseFull(name, &parsed)) return Malformed(name);
  return parsed;
}

absl::StatusOr<DeviceName> ParseLocalDeviceName(absl::string_view name) {
  DeviceName parsed;
  if (!ParseLocal(name, &parsed)) return Malformed(name);
  return parsed;
}

absl::StatusOr<DeviceName> ParseFullOrLocalDeviceName(absl::string_view name) {
  DeviceName parsed;
  if (ParseFull(name, &parsed) || ParseLocal(name, &parsed)) return parsed;
  return Malformed(name);
}

std::string DeviceNameToString(const DeviceName& name) {
  std::string out;
  if (name.has_job) absl::StrAppend(&out, "/job:", name.job);
  if (name.has_replica) absl::StrAppend(&out, "/replica:", name.replica);
  if (name.has_task) absl::StrAppend(&out, "/task:", name.task);
  if (name.has_type) {
    absl::StrAppend(&out, "/device:", name.type, ":");
    if (name.has_id) {
      absl::StrAppend(&out, name.id);
    } else {
      out += '*';
    }
  }
  return out;
}

std::string FullDeviceName(absl::string_view type, int id) {
  return FullDeviceName(kLocalJob, 0, 0, type, id);
}

std::string FullDeviceName(absl::string_view job, int replica, int task, absl::string_view type,
                           int id) {
  return MakeName(job, replica, task, absl::StrCat("/device:", type, ":", id));
}

std::string LegacyDeviceName(absl::string_view type, int id) {
  return LegacyDeviceName(kLocalJob, 0, 0, type, id);
}

std::string LegacyDeviceName(absl::string_view job, int replica, int task, absl::string_view type,
                             int id) {
  return MakeName(job, replica, task, absl::StrCat("/", absl::AsciiStrToLower(type), ":", id));
}

bool IsFullySpecified(const DeviceName& name) {
  return name.has_job && name.has_replica && name.has_task && name.has_type && name.has_id;
}

bool Matches(const DeviceName& pattern, const DeviceName& device) {
  return IsSpecification(pattern, device);
}

bool AreCompatible(const DeviceName& a, const DeviceName& b) {
  if (a.has_job && b.has_job && a.job != b.job) return false;
  if (a.has_replica && b.has_replica && a.replica != b.replica) return false;
  if (a.has_task && b.has_task && a.task != b.task) return false;
  if (a.has_type && b.has_type && a.type != b.type) return false;
  if (a.has_id && b.has_id && a.id != b.id) return false;
  return true;
}

bool IsSpecification(const DeviceName& less_specific, const DeviceName& more_specific) {
  const DeviceName& l = less_specific;
  const DeviceName& m = more_specific;
  if (l.has_job && (!m.has_job || l.job != m.job)) return false;
  if (l.has_replica && (!m.has_replica || l.replica != m.replica)) return false;
  if (l.has_task && (!m.has_task || l.task != m.task)) return false;
  if (l.has_type && (!m.has_type || l.type != m.type)) return false;
  if (l.has_id && (!m.has_id || l.id != m.id)) return false;
  return true;
}

bool IsSameAddressSpace(const DeviceName& a, const DeviceName& b) {
  return a.has_job && b.has_job && a.job == b.job && a.has_replica && b.has_replica &&
         a.replica == b.replica && a.has_task && b.has_task && a.task == b.task;
}

absl::Status MergeDeviceNames(DeviceName* target, const DeviceName& other,
                              bool allow_soft_placement) {
  return MergeImpl(target, other, allow_soft_placement,
                   /*override_conflicts=*/false);
}

absl::Status MergeOverrideDeviceNames(DeviceName* target, const DeviceName& other) {
  return MergeImpl(target, other, /*allow_soft_placement=*/true,
                   /*override_conflicts=*/true);
}

int DeviceTypePriority(absl::string_view type) {
  if (type == "GPU") return 210;
  if (type == "CPU") return 60;
  return -1;
}

bool DeviceOrderLess(int a_priority, absl::string_view a_name, int b_priority,
                     absl::string_view b_name) {
  if (a_priority != b_priority) return a_priority > b_priority;
  return a_name < b_name;
}

bool DeviceOrderLess(const DeviceName& a, const DeviceName& b) {
  return DeviceOrderLess(DeviceTypePriority(a.has_type ? a.type : ""), DeviceNameToString(a),
                         DeviceTypePriority(b.has_type ? b.type : ""), DeviceNameToString(b));
}

}  // namespace rill
