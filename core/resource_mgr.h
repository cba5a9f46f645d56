// ResourceMgr: per-device storage for state that outlives a step (variables, queues), keyed by
// (container, name) and by C++ type. A Session owns one per device for its whole life, so
// variables keep their values across runs and across failed runs.
//
//   RILL_ASSIGN_OR_RETURN(std::shared_ptr<Var> v, rm->LookupOrCreate<Var>("", "w",
//       [] { return std::make_shared<Var>(DT_FLOAT); }));
//
// Thread-safe. Resources are shared_ptr: a lookup keeps the resource alive even if it is deleted
// from the manager meanwhile.
#ifndef RILL_CORE_RESOURCE_MGR_H_
#define RILL_CORE_RESOURCE_MGR_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/mutex.h"

namespace rill {

// Base of everything a ResourceMgr holds.
class ResourceBase {
 public:
  virtual ~ResourceBase() = default;
  virtual std::string DebugString() const = 0;
};

class ResourceMgr {
 public:
  // Returns the resource of type T at (container, name), creating it with `creator` if absent.
  // InvalidArgument if a resource of another type holds that name.
  template <typename T>
  absl::StatusOr<std::shared_ptr<T>> LookupOrCreate(
      const std::string& container, const std::string& name,
      const std::function<std::shared_ptr<T>()>& creator) {
    rill::MutexLock lock(&mu_);
    auto key = std::make_pair(container, name);
    auto it = resources_.find(key);
    if (it != resources_.end()) {
      if (it->second.type != std::type_index(typeid(T))) {
        return absl::InvalidArgumentError(absl::StrCat("Resource ", container, "/", name,
                                                       " exists with a different type (",
                                                       it->second.type.name(), ")"));
      }
      return std::static_pointer_cast<T>(it->second.resource);
    }
    std::shared_ptr<T> created = creator();
    resources_.emplace(key, Entry{std::type_index(typeid(T)), created});
    return created;
  }

  // NotFound "Resource <container>/<name> does not exist." when absent.
  template <typename T>
  absl::StatusOr<std::shared_ptr<T>> Lookup(const std::string& container,
                                            const std::string& name) const {
    rill::MutexLock lock(&mu_);
    auto it = resources_.find(std::make_pair(container, name));
    if (it == resources_.end() || it->second.type != std::type_index(typeid(T))) {
      return absl::NotFoundError(
          absl::StrCat("Resource ", container, "/", name, " does not exist."));
    }
    return std::static_pointer_cast<T>(it->second.resource);
  }

  // Drops the resource at (container, name), whatever its type (DestroyResourceOp); holders of
  // its shared_ptr keep it alive until they let go. NotFound "Resource <container>/<name> does
  // not exist." when absent.
  absl::Status Delete(const std::string& container, const std::string& name) {
    rill::MutexLock lock(&mu_);
    if (resources_.erase(std::make_pair(container, name)) == 0) {
      return absl::NotFoundError(
          absl::StrCat("Resource ", container, "/", name, " does not exist."));
    }
    return absl::OkStatus();
  }

  // Drops every resource (Session::Close).
  void Clear() {
    rill::MutexLock lock(&mu_);
    resources_.clear();
  }
  int size() const {
    rill::MutexLock lock(&mu_);
    return static_cast<int>(resources_.size());
  }

 private:
  struct Entry {
    std::type_index type;
    std::shared_ptr<ResourceBase> resource;
  };
  mutable rill::Mutex mu_;
  std::map<std::pair<std::string, std::string>, Entry> resources_ ABSL_GUARDED_BY(mu_);
};

}  // namespace rill

#endif  // RILL_CORE_RESOURCE_MGR_H_
