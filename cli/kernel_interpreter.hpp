// The adlang Jupyter kernel's interpreter (xeus, docs/kernel.md): the Jupyter messages on a
// KernelSession (cli/kernel_session.hpp).
//
// Each cell is evaluated in a process of its own, which the kernel's zygote forks
// (cli/kernel_zygote.hpp) on a copy of the session's state: the evaluators have no cancellation,
// so an interrupt (SIGINT, interrupt_mode "signal") kills that process, and the kernel stays as
// it was before the cell. The process sends its outputs through a pipe as it makes them, and at
// the end the session's state (definitions, inputs, settings), which the kernel takes over; an
// interrupted or crashed cell sends none, and changes nothing.
#pragma once

#include <xeus/xinterpreter.hpp>

#include <memory>

#include "cli/kernel_session.hpp"
#include "cli/kernel_zygote.hpp"

namespace adlang {

class KernelInterpreter : public xeus::xinterpreter {
 public:
  // Cells run in processes the zygote forks (cli/kernel_zygote.hpp).
  explicit KernelInterpreter(std::unique_ptr<KernelZygote> zygote) : zygote_(std::move(zygote)) {}

  // Stops the cell being evaluated, if any (async-signal-safe; called on SIGINT).
  static void interrupt();

 private:
  std::unique_ptr<KernelZygote> zygote_;
  KernelSession session_;

  void configure_impl() override {}
  nl::json execute_request_impl(int execution_counter, const std::string& code, bool silent,
                                bool store_history, nl::json user_expressions,
                                bool allow_stdin) override;
  nl::json complete_request_impl(const std::string& code, int cursor_pos) override;
  nl::json inspect_request_impl(const std::string& code, int cursor_pos, int detail_level) override;
  nl::json is_complete_request_impl(const std::string& code) override;
  nl::json kernel_info_request_impl() override;
  void shutdown_request_impl() override {}
};

}  // namespace adlang
