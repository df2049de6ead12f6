#include "cli/kernel_command.hpp"

#include <pthread.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <thread>
#include <xeus/xkernel.hpp>
#include <xeus/xkernel_configuration.hpp>
#include <xeus/xserver_zmq.hpp>

#include "cli/kernel_interpreter.hpp"
#include "cli/kernelspec.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

namespace {

// SIGINT is blocked in every thread (xeus's threads inherit the mask) and taken by one thread
// of its own, which stops the running cell: no ZeroMQ call is ever interrupted by it.
void take_interrupts() {
  sigset_t sigint;
  sigemptyset(&sigint);
  sigaddset(&sigint, SIGINT);
  pthread_sigmask(SIG_BLOCK, &sigint, nullptr);
  std::thread([sigint] {
    for (;;) {
      int sig = 0;
      if (sigwait(&sigint, &sig) == 0) KernelInterpreter::interrupt();
    }
  }).detach();
}

int run_kernel(const std::string& connection_file, std::ostream& err) {
  xeus::xconfiguration config;
  try {
    config = xeus::load_configuration(connection_file);
  } catch (const std::exception& e) {
    err << "adlang: error: cannot read the connection file '" << connection_file
        << "': " << e.what() << "\n";
    return kExitUsage;
  }
  // The zygote first: it must be forked while this process has one thread.
  std::unique_ptr<KernelZygote> zygote;
  try {
    zygote = std::make_unique<KernelZygote>();
  } catch (const std::exception& e) {
    err << "adlang: error: " << e.what() << "\n";
    return kExitInternalError;
  }
  take_interrupts();
  auto context = xeus::make_context<zmq::context_t>();
  xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context),
                       std::make_unique<KernelInterpreter>(std::move(zygote)),
                       xeus::make_xserver_zmq);
  kernel.start();
  return kExitOk;
}

}  // namespace

void register_kernel_command(CLI::App& app, int& exit_code) {
  struct State {
    std::string connection_file;
    KernelspecOptions install;
  };
  auto st = std::make_shared<State>();
  CLI::App* kernel = app.add_subcommand(
      "kernel",
      "the Jupyter kernel (started by Jupyter from the kernelspec `adlang kernel install` "
      "writes): cells of definitions and terms, %trace, %diff, %den, %check, %plot, %set");
  kernel->require_subcommand(0, 1);
  kernel->add_option("-f,--connection-file", st->connection_file,
                     "the connection file Jupyter gives the kernel");
  CLI::App* install = kernel->add_subcommand(
      "install", "write the kernelspec `adlang` (as `ipykernel install` does)");
  auto* user = install->add_flag("--user", st->install.user,
                                 "for this user (~/.local/share/jupyter/kernels/adlang)");
  install
      ->add_option("--prefix", st->install.prefix,
                   "under DIR/share/jupyter/kernels/adlang (e.g. a virtual environment)")
      ->excludes(user)
      ->type_name("DIR");
  install->callback(
      [st, &exit_code] { exit_code = kernel_install_command(st->install, std::cout, std::cerr); });
  kernel->callback([st, kernel, &exit_code] {
    if (kernel->got_subcommand("install")) return;
    if (st->connection_file.empty()) {
      std::cerr << "adlang: error: adlang kernel runs under Jupyter, which gives it -f "
                   "CONNECTION_FILE\nnote: `adlang kernel install` writes the kernelspec "
                   "Jupyter starts it from\n";
      exit_code = kExitUsage;
      return;
    }
    exit_code = run_kernel(st->connection_file, std::cerr);
  });
}

}  // namespace adlang
