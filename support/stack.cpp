#include "support/stack.hpp"

#include <pthread.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/stack.h>
#endif

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

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

void* run_job(void* p) {
  Job* job = static_cast<Job*>(p);
  try {
    (*job->body)();
  } catch (...) {
    job->error = std::current_exception();
  }
  return nullptr;
}

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
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  pthread_t thread;
  int rc = pthread_create(&thread, &attr, &run_job, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    // Could not get a large stack (address space limits): run here, still guarded.
    body();
    return;
  }
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace adlang
