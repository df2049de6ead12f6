#include "support/stack.hpp"

#include <pthread.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/stack.h>
#else
#include <sys/mman.h>
#include <ucontext.h>
#endif

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace adlang {

namespace {

// The lowest address the stack may reach, or null if the bounds cannot be read.
const char* compute_limit() {
#ifdef __EMSCRIPTEN__
  // WebAssembly (the playground): one stack, from emscripten_stack_get_base() down to
  // emscripten_stack_get_end(); an overflow there would corrupt memory, not fault.
  const char* end = reinterpret_cast<const char*>(emscripten_stack_get_end());
  std::size_t size = emscripten_stack_get_base() - emscripten_stack_get_end();
  return end + std::max<std::size_t>(std::size_t(256) << 10, size / 8);
#else
  const char* limit = nullptr;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return nullptr;
  void* addr = nullptr;
  std::size_t size = 0;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr) {
    // Sanitizers make frames several times larger, so keep a generous margin.
    std::size_t margin = std::max<std::size_t>(std::size_t(1) << 20, size / 16);
    if (margin < size) limit = static_cast<const char*>(addr) + margin;
  }
  pthread_attr_destroy(&attr);
  return limit;
#endif
}

struct Job {
  const std::function<void()>* body;
  std::exception_ptr error;
};

void run_job(Job& job) {
  try {
    (*job.body)();
  } catch (...) {
    job.error = std::current_exception();
  }
}

#if !defined(__EMSCRIPTEN__)
void* run_job_on_thread(void* p) {
  run_job(*static_cast<Job*>(p));
  return nullptr;
}

// A large stack for `body`, on a new thread: the path under AddressSanitizer, which cannot
// follow a switch of stacks within one thread (swapcontext), and the fallback when no stack
// can be mapped.
void run_on_new_thread(Job& job, std::size_t bytes) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  pthread_t thread;
  int rc = pthread_create(&thread, &attr, &run_job_on_thread, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    // Could not get a large stack (address space limits): run here, still guarded.
    run_job(job);
    return;
  }
  pthread_join(thread, nullptr);
}

// The stacks mapped so far and not in use. A stack is mapped once and kept for the process's
// life: the command line runs one body per process, and a new mapping and its unmapping would
// be most of a trivial program's start-up (docs/performance.md, "Start-up"); the REPL, the
// kernel and the tests run many, one after another. A stack taken again is first given back
// to the system (MADV_DONTNEED), so a deep recursion's pages do not stay resident.
struct StackRegion {
  char* base = nullptr;  // the lowest address: one guard page, then the usable stack
  std::size_t bytes = 0;
  bool used = false;  // has run a body since it was mapped or given back
};

constexpr std::size_t kGuardBytes = 64 * 1024;
// The part of a large stack, from its start (the highest addresses), kept in small pages.
constexpr std::size_t kSmallPagesBytes = std::size_t(64) << 20;

std::mutex& free_stacks_mutex() {
  static std::mutex* m = new std::mutex;  // never destroyed: used until the process ends
  return *m;
}

std::vector<StackRegion>& free_stacks() {
  static std::vector<StackRegion>* v = new std::vector<StackRegion>;
  return *v;
}

std::optional<StackRegion> take_stack(std::size_t bytes) {
  {
    std::lock_guard lock(free_stacks_mutex());
    std::vector<StackRegion>& stacks = free_stacks();
    for (std::size_t i = 0; i < stacks.size(); ++i) {
      if (stacks[i].bytes != bytes) continue;
      StackRegion r = stacks[i];
      stacks.erase(stacks.begin() + std::ptrdiff_t(i));
      if (r.used) madvise(r.base + kGuardBytes, r.bytes, MADV_DONTNEED);
      return r;
    }
  }
  void* p = mmap(nullptr, bytes + kGuardBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) return std::nullopt;
  char* base = static_cast<char*>(p);
  if (mprotect(base, kGuardBytes, PROT_NONE) != 0) {
    munmap(p, bytes + kGuardBytes);
    return std::nullopt;
  }
  // Below its first kSmallPagesBytes, the stack may take huge pages (where the kernel gives
  // them on request): a recursion that reaches that far commits 2 MiB a fault instead of
  // 4 KiB, and most of its time was the page faults of the stack. The first part is kept in
  // small pages (even where huge pages are the default), so that an ordinary run commits a few
  // of them, not 2 MiB. Advice only: a kernel without huge pages refuses it, and nothing changes.
  if (bytes > 2 * kSmallPagesBytes) {
    char* const small = base + kGuardBytes + bytes - kSmallPagesBytes;
    madvise(base + kGuardBytes, bytes - kSmallPagesBytes, MADV_HUGEPAGE);
    madvise(small, kSmallPagesBytes, MADV_NOHUGEPAGE);
  }
  return StackRegion{base, bytes, false};
}

void give_back_stack(StackRegion r) {
  r.used = true;
  std::lock_guard lock(free_stacks_mutex());
  free_stacks().push_back(r);
}

// The switch onto and back from a stack of the current thread (swapcontext).
struct StackSwitch {
  ucontext_t caller;
  ucontext_t callee;
  Job* job;
};

// makecontext passes int arguments only: the StackSwitch's address in two halves.
void run_switched(unsigned int high, unsigned int low) {
  auto* sw = reinterpret_cast<StackSwitch*>((std::uintptr_t(high) << 32) | std::uintptr_t(low));
  run_job(*sw->job);
  // Returning resumes sw->caller (uc_link).
}

// Runs the job on `region` in this thread. False if the switch could not be made.
bool run_on_region(Job& job, const StackRegion& region) {
  StackSwitch sw{};
  sw.job = &job;
  if (getcontext(&sw.callee) != 0) return false;
  sw.callee.uc_stack.ss_sp = region.base + kGuardBytes;
  sw.callee.uc_stack.ss_size = region.bytes;
  sw.callee.uc_link = &sw.caller;
  const auto address = reinterpret_cast<std::uintptr_t>(&sw);
  makecontext(&sw.callee, reinterpret_cast<void (*)()>(&run_switched), 2,
              static_cast<unsigned int>(address >> 32), static_cast<unsigned int>(address));
  // The passes' depth checks (stack_nearly_exhausted) measure against this stack while the
  // body runs on it: the same margin as a thread's stack of this size (compute_limit).
  const char* saved_limit = stack_detail::limit;
  const std::size_t margin = std::max<std::size_t>(std::size_t(1) << 20, region.bytes / 16);
  stack_detail::limit = region.base + kGuardBytes + margin;
  const int rc = swapcontext(&sw.caller, &sw.callee);
  stack_detail::limit = saved_limit;
  return rc == 0;
}
#endif

}  // namespace

namespace stack_detail {

// The part of the engine's stack (984 KB in Chromium) the playground's scopes may take
// (WebAssembly; unused natively). Measured in headless Chromium on the -Os build, 2026-11: the
// stack ran out with 215 open frames of the symbolic evaluator (a non-tail recursion traced),
// 689 of the denotational evaluator (the same recursion), and about 936 of the parser and type
// checker (a chain of 400 lets), which StackFrameBytes turns into 4.6, 1.4 and 1.05 KB a frame;
// the budget is 60% of the stack, for the engine's baseline code, whose frames are larger
// than its optimised code's, and for passes measured less closely.
const std::uint32_t kBudgetBytes = 600 * 1024;

bool compute_nearly_exhausted(const char* here) {
  limit = compute_limit();
  if (limit == nullptr) {
    // Unknown bounds: a limit no stack address is below, so exhaustion is never reported.
    limit = reinterpret_cast<const char*>(1);
    return false;
  }
  return here < limit;
}

}  // namespace stack_detail

void run_on_large_stack(const std::function<void()>& body, std::size_t bytes) {
  Job job{&body, nullptr};
#ifdef __EMSCRIPTEN__
  // One stack, the engine's (stack_detail::kBudgetBytes above).
  (void)bytes;
  run_job(job);
#else
  bool ran = false;
  // A plain `if`: its branch is compiled in every build, so clang does not find the stack
  // functions unused under AddressSanitizer.
  if (!kAddressSanitizer) {
    if (std::optional<StackRegion> region = take_stack(bytes)) {
      ran = run_on_region(job, *region);
      give_back_stack(*region);
    }
  }
  if (!ran) run_on_new_thread(job, bytes);
#endif
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace adlang
