#include "core/thread_pool.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

// Eigen is included through the eigen3/ directory under /usr/include; its headers include each
// other with relative paths, so no extra -I/-isystem is needed (see the BUILD target).
#include <eigen3/unsupported/Eigen/CXX11/ThreadPool>

#include "absl/strings/str_cat.h"
#include "core/denormal.h"
#include "core/logging.h"

namespace rill {
namespace {

// Eigen's StlThreadEnvironment, plus a thread name for debuggers, top -H and perf.
struct NamedThreadEnvironment {
  struct Task {
    std::function<void()> f;
  };

  // Starts the thread in the constructor and joins it in the destructor, as Eigen requires.
  class EnvThread {
   public:
    EnvThread(const std::string& thread_name, std::function<void()> f)
        : thread_([thread_name, f = std::move(f)] {
            pthread_setname_np(pthread_self(), thread_name.c_str());
            // Pool threads run kernels: subnormals flush to zero, as on TensorFlow's threads.
            FlushDenormalsOnThisThread();
            f();
          }) {}
    ~EnvThread() { thread_.join(); }
    void OnCancel() {}

   private:
    std::thread thread_;
  };

  explicit NamedThreadEnvironment(std::string thread_name) : thread_name(std::move(thread_name)) {}

  EnvThread* CreateThread(std::function<void()> f) {
    return new EnvThread(thread_name, std::move(f));
  }
  Task CreateTask(std::function<void()> f) { return Task{std::move(f)}; }
  void ExecuteTask(const Task& t) { t.f(); }

  std::string thread_name;  // At most 15 characters (pthread_setname_np's limit).
};

// ParallelFor makes up to this many blocks per thread, so uneven blocks still balance.
constexpr int64_t kBlocksPerThread = 4;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

using EigenPool = Eigen::ThreadPoolTempl<NamedThreadEnvironment>;

// The methods of ThreadPool call EigenPool's members by qualified name, i.e. non-virtually: pool
// threads may still call Schedule while ~ThreadPool runs, and a virtual call would read the vptr
// that the destructor chain is rewriting (a data race ThreadSanitizer reports).
class ThreadPool::Impl final : public EigenPool {
 public:
  Impl(int num_threads, std::string thread_name)
      : EigenPool(num_threads, /*allow_spinning=*/true,
                  NamedThreadEnvironment(std::move(thread_name))) {}
};

int DefaultNumThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

ThreadPool::ThreadPool(std::string name, int num_threads) : name_(std::move(name)) {
  RILL_CHECK(num_threads >= 1) << "ThreadPool \"" << name_ << "\" needs at least one thread, got "
                               << num_threads;
  impl_ = std::make_unique<Impl>(num_threads, ("rill_" + name_).substr(0, 15));
}

absl::StatusOr<std::unique_ptr<ThreadPool>> ThreadPool::Create(std::string name, int num_threads) {
  if (num_threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Thread pool \"", name, "\" needs at least one thread, got ", num_threads));
  }
  // Start num_threads threads that wait for a release, then let them go: when the process cannot
  // start them all, nothing else has been made and the ones started just end.
  std::mutex mu;
  std::condition_variable released_cv;
  bool released = false;
  std::vector<std::thread> probes;
  probes.reserve(num_threads);
  std::string failure;
  for (int i = 0; i < num_threads; ++i) {
    try {
      probes.emplace_back([&] {
        std::unique_lock<std::mutex> lock(mu);
        released_cv.wait(lock, [&] { return released; });
      });
    } catch (const std::system_error& e) {
      failure = absl::StrCat("thread ", i + 1, " of ", num_threads, " could not start: ", e.what());
      break;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    released = true;
  }
  released_cv.notify_all();
  for (std::thread& t : probes) t.join();
  if (!failure.empty()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "Could not start thread pool \"", name, "\" of ", num_threads, " threads (", failure,
        "). Ask for fewer threads (ConfigProto.inter_op_parallelism_threads) or raise the "
        "process's thread or memory limit"));
  }
  return std::make_unique<ThreadPool>(std::move(name), num_threads);
}

ThreadPool::~ThreadPool() = default;  // ~ThreadPoolTempl drains the queues and joins.

void ThreadPool::Schedule(std::function<void()> fn) {
  // EigenPool::Schedule would call ScheduleWithHint virtually; call it directly instead.
  impl_->EigenPool::ScheduleWithHint(std::move(fn), 0, impl_->EigenPool::NumThreads());
}

int ThreadPool::NumThreads() const { return impl_->EigenPool::NumThreads(); }

int ThreadPool::CurrentThreadId() const { return impl_->EigenPool::CurrentThreadId(); }

Eigen::ThreadPoolInterface* ThreadPool::AsEigenThreadPool() const { return impl_.get(); }

int64_t ThreadPool::BlockSize(int64_t total, int64_t cost_per_unit, int64_t workers) {
  const int64_t cost = std::max<int64_t>(cost_per_unit, 1);
  const int64_t block_size = std::max<int64_t>(1, CeilDiv(ThreadPool::kMinCostPerBlock, cost));
  return std::max(block_size, CeilDiv(total, std::max<int64_t>(workers, 1) * kBlocksPerThread));
}

void ThreadPool::ParallelFor(int64_t total, int64_t cost_per_unit,
                             const std::function<void(int64_t, int64_t)>& fn) {
  if (total <= 0) return;
  const int64_t cost = std::max<int64_t>(cost_per_unit, 1);
  // Threads that run blocks: the pool's, plus the caller when it is not a pool thread.
  const int64_t num_threads = ParallelismForCaller();
  if (num_threads <= 1 || TooSmallToSplit(total, cost)) {
    fn(0, total);
    return;
  }
  const int64_t block_size = BlockSize(total, cost, num_threads);
  const int64_t num_blocks = CeilDiv(total, block_size);  // <= num_threads * kBlocksPerThread
  if (num_blocks <= 1) {
    fn(0, total);
    return;
  }

  // Blocks are handed out through a shared counter to the caller and to up to
  // min(num_blocks - 1, num_threads) helper closures. The caller keeps claiming blocks until none
  // is left, so it only ever waits for blocks that some thread is already running. Helpers that
  // start late find nothing to claim; `state` is shared so it outlives them, while `fn` is only
  // called for claimed blocks, all of which finish before the caller returns.
  struct State {
    State(int64_t total, int64_t block_size, int64_t num_blocks,
          const std::function<void(int64_t, int64_t)>* fn)
        : total(total),
          block_size(block_size),
          num_blocks(num_blocks),
          fn(fn),
          pending(num_blocks) {}
    const int64_t total;
    const int64_t block_size;
    const int64_t num_blocks;
    const std::function<void(int64_t, int64_t)>* const fn;
    std::atomic<int64_t> next_block{0};
    // std primitives rather than absl::BlockingCounter so that ThreadSanitizer builds (with
    // Debian's uninstrumented Abseil) see the synchronization.
    std::mutex mu;
    std::condition_variable all_done;
    int64_t pending;  // Blocks not yet finished; guarded by mu.

    void RunBlocks() {
      for (;;) {
        const int64_t b = next_block.fetch_add(1, std::memory_order_relaxed);
        if (b >= num_blocks) return;
        const int64_t begin = b * block_size;
        (*fn)(begin, std::min(total, begin + block_size));
        std::lock_guard<std::mutex> lock(mu);
        if (--pending == 0) all_done.notify_all();
      }
    }

    void WaitForAllBlocks() {
      std::unique_lock<std::mutex> lock(mu);
      all_done.wait(lock, [this] { return pending == 0; });
    }
  };
  auto state = std::make_shared<State>(total, block_size, num_blocks, &fn);
  const int64_t helpers = std::min<int64_t>(num_blocks - 1, NumThreads());
  for (int64_t i = 0; i < helpers; ++i) {
    Schedule([state] { state->RunBlocks(); });
  }
  state->RunBlocks();
  state->WaitForAllBlocks();
}

}  // namespace rill
