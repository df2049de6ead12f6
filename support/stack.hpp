// Stack depth protection for the recursive passes (parser, type checker, printer, evaluators, R).
//
// Programs and traces can nest arbitrarily deep. Every recursive pass opens a StackScope on
// entry (check_stack) and reports a clear error instead of overflowing; the CLI and the tests run
// passes on a thread with a large stack (run_on_large_stack) so that deep but reasonable inputs
// (10^5 nested parentheses) still work.
//
// WebAssembly (the playground, docs/playground.md) keeps its frames on the engine's own call
// stack (984 KB in Chromium), which the module can neither read nor size: there each open scope
// counts what a guarded frame of its pass was measured to take of that stack (StackFrameBytes),
// against a budget of part of it (support/stack.cpp), so a deep recursion ends in the same clear
// error as on the command line, only sooner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "support/address_sanitizer.hpp"

namespace adlang {

#ifdef __EMSCRIPTEN__
inline constexpr bool kCountsStackBytes = true;
#else
inline constexpr bool kCountsStackBytes = false;
#endif

// WebAssembly only: how much of the engine's stack a guarded frame takes, with the passes'
// frames between two guarded ones, by pass (measured in headless Chromium on the -Os build,
// support/stack.cpp). Unused natively.
enum class StackFrameBytes : std::uint32_t {
  Evaluator = 4800,   // check_evaluation_depth: the symbolic, ordinary and compiled evaluators
  Denotation = 1500,  // the denotational evaluator
  Other = 2000,       // parser, type checker, printers, R, term utilities
};

namespace stack_detail {
// The lowest address the current thread's stack may reach; null until first computed. An
// inline variable with a constant initializer, so every use is a plain TLS access.
inline thread_local const char* limit = nullptr;
bool compute_nearly_exhausted(const char* here);
// WebAssembly only: the estimate of the engine's stack the open StackScopes take, and the
// budget for it.
inline thread_local std::uint32_t used_bytes = 0;
extern const std::uint32_t kBudgetBytes;
}  // namespace stack_detail

// True when less than a safety margin of the current thread's stack remains. Cheap: one
// comparison once the thread's limit is known.
inline bool stack_nearly_exhausted(StackFrameBytes next = StackFrameBytes::Other) {
  if constexpr (kCountsStackBytes) {
    if (stack_detail::used_bytes + static_cast<std::uint32_t>(next) > stack_detail::kBudgetBytes)
      return true;
  }
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

// One guarded frame of a recursive pass, open while the frame runs (see the top of this file):
// nothing in a native build; in WebAssembly, the frame's bytes counted.
class [[nodiscard]] StackScope {
 public:
  explicit StackScope(StackFrameBytes bytes = StackFrameBytes::Other)
      : bytes_(static_cast<std::uint32_t>(bytes)) {
    if constexpr (kCountsStackBytes) stack_detail::used_bytes += bytes_;
  }
  ~StackScope() {
    if constexpr (kCountsStackBytes) stack_detail::used_bytes -= bytes_;
  }
  StackScope(const StackScope&) = delete;
  StackScope& operator=(const StackScope&) = delete;

 private:
  std::uint32_t bytes_;
};

// Throws StackExhausted(what) when the stack is nearly exhausted; else opens the frame's scope:
//   const StackScope scope = check_stack("the term is nested too deeply");
inline StackScope check_stack(const char* what, StackFrameBytes bytes = StackFrameBytes::Other) {
  if (stack_nearly_exhausted(bytes)) throw StackExhausted(what);
  return StackScope(bytes);
}

// The default stack for run_on_large_stack: 4 GiB of address space, committed only as used.
// Under AddressSanitizer it is 64 MiB: ASan cannot clean the shadow of a larger stack when an
// exception unwinds it (google/sanitizers#189) and then reports false errors, so sanitizer
// builds check memory safety at the depths a 64 MiB stack reaches.
inline constexpr std::size_t kLargeStackBytes =
    kAddressSanitizer ? std::size_t(64) << 20 : std::size_t(4) << 30;

// Runs `body` on a stack of `bytes` bytes and returns when it ends; an exception thrown by
// `body` is rethrown in the caller. The stack is switched to within the calling thread
// (swapcontext) and kept for the next call; under AddressSanitizer, which cannot follow such a
// switch, `body` runs on a new thread with a stack of that size. In WebAssembly it runs on
// the engine's one stack.
void run_on_large_stack(const std::function<void()>& body, std::size_t bytes = kLargeStackBytes);

}  // namespace adlang
