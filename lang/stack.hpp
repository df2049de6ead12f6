// Stack depth protection for the recursive passes (parser, type checker, printer, evaluators, R).
//
// Programs and traces can nest arbitrarily deep. Every recursive pass calls
// stack_nearly_exhausted() on entry and reports a clear error instead of overflowing; the CLI
// and the tests run passes on a thread with a large stack (run_on_large_stack) so that deep but
// reasonable inputs (10^5 nested parentheses) still work.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>

#include "lang/address_sanitizer.hpp"

namespace adlang {

namespace stack_detail {
// The lowest address the current thread's stack may reach; null until first computed. An
// inline variable with a constant initializer, so every use is a plain TLS access.
inline thread_local const char* limit = nullptr;
bool compute_nearly_exhausted(const char* here);
}  // namespace stack_detail

// True when less than a safety margin of the current thread's stack remains. Cheap: one
// comparison once the thread's limit is known.
inline bool stack_nearly_exhausted() {
  // The frame's address, not a local's: under AddressSanitizer a local may live on its "fake
  // stack" (heap memory, for detecting use after return), whose address says nothing of depth.
  const char* addr = static_cast<const char*>(__builtin_frame_address(0));
  if (stack_detail::limit != nullptr) return addr < stack_detail::limit;
  return stack_detail::compute_nearly_exhausted(addr);
}

// Thrown when a recursive pass would overflow the stack. `what()` names the pass, e.g.
// "the program is nested too deeply to parse".
class StackExhausted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws StackExhausted(what) when the stack is nearly exhausted.
inline void check_stack(const char* what) {
  if (stack_nearly_exhausted()) throw StackExhausted(what);
}

// The default stack for run_on_large_stack: 4 GiB of address space, committed only as used.
// Under AddressSanitizer it is 64 MiB: ASan cannot clean the shadow of a larger stack when an
// exception unwinds it (google/sanitizers#189) and then reports false errors, so sanitizer
// builds check memory safety at the depths a 64 MiB stack reaches.
inline constexpr std::size_t kLargeStackBytes =
    kAddressSanitizer ? std::size_t(64) << 20 : std::size_t(4) << 30;

// Runs `body` on a new thread with a stack of `bytes` bytes and waits for it; an exception
// thrown by `body` is rethrown in the caller.
void run_on_large_stack(const std::function<void()>& body, std::size_t bytes = kLargeStackBytes);

}  // namespace adlang
