#include "cli/kernelspec.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "cli/full_build.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// The adlang executable's absolute path, so the kernelspec works without adlang on PATH: the
// lean adlang beside adlang-full when adlang-full runs the command (cli/full_build.hpp).
std::string self_path() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "adlang";
  std::filesystem::path lean = p.parent_path() / "adlang";
  if (p.filename() == cli::kFullBuildName && std::filesystem::exists(lean, ec))
    return lean.string();
  return p.string();
}

}  // namespace

std::string kernelspec_dir(const KernelspecOptions& opts) {
  std::filesystem::path data;
  if (opts.prefix) {
    data = std::filesystem::absolute(*opts.prefix) / "share" / "jupyter";
  } else if (opts.user) {
    std::string home = env_or("HOME", "/");
    data = env_or("JUPYTER_DATA_DIR", env_or("XDG_DATA_HOME", home + "/.local/share") + "/jupyter");
  } else {
    data = "/usr/local/share/jupyter";
  }
  return (data / "kernels" / "adlang").lexically_normal().string();
}

std::string kernelspec_json(const std::string& adlang_path) {
  nlohmann::json spec = {
      {"argv", {adlang_path, "kernel", "-f", "{connection_file}"}},
      {"display_name", "adlang"},
      {"language", "adlang"},
      {"interrupt_mode", "signal"},
      {"metadata", nlohmann::json::object()},
  };
  return spec.dump(1) + "\n";
}

int kernel_install_command(const KernelspecOptions& opts, std::ostream& out, std::ostream& err) {
  std::string dir = kernelspec_dir(opts);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream f(dir + "/kernel.json", std::ios::binary);
  if (ec || !(f << kernelspec_json(self_path())) || !f.flush()) {
    err << "adlang: error: cannot write the kernelspec to " << dir << "/kernel.json"
        << (ec ? ": " + ec.message() : std::string()) << "\n"
        << (opts.prefix || opts.user ? "" : "note: --user installs it for this user only\n");
    return kExitUsage;
  }
  out << "Installed kernelspec adlang in " << dir << "\n";
  return kExitOk;
}

}  // namespace adlang
