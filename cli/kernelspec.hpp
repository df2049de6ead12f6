// `adlang kernel install [--user | --prefix DIR]`: writes the kernelspec of the adlang Jupyter
// kernel, named `adlang`, where `ipykernel install` would write its own (jupyter_core's paths):
//   (neither)     /usr/local/share/jupyter/kernels/adlang (system-wide)
//   --user        $JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter, else
//                 ~/.local/share/jupyter, followed by kernels/adlang
//   --prefix DIR  DIR/share/jupyter/kernels/adlang
// kernel.json runs this executable as `adlang kernel -f {connection_file}`, with
// interrupt_mode "signal" (an interrupt is SIGINT: docs/kernel.md).
#pragma once

#include <optional>
#include <ostream>
#include <string>

namespace adlang {

struct KernelspecOptions {
  bool user = false;
  std::optional<std::string> prefix;
};

// The directory the kernelspec goes to.
std::string kernelspec_dir(const KernelspecOptions& opts);

// kernel.json for the executable at `adlang_path`.
std::string kernelspec_json(const std::string& adlang_path);

// Writes the kernelspec and reports where; returns an exit code (support/exit_codes.hpp).
int kernel_install_command(const KernelspecOptions& opts, std::ostream& out, std::ostream& err);

}  // namespace adlang
