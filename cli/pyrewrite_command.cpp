#include "cli/pyrewrite_command.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/source.hpp"
#include "pyrewrite/pyrewrite.hpp"
#include "pyrewrite/unified_diff.hpp"
#include "support/descriptor_io.hpp"

namespace adlang::cli {

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string input;
  std::string output;
  bool diff = false;
  std::string pattern = "auto";
  bool explain = false;
  bool json = false;
  bool in_place = false;
};

constexpr int kOk = 0;
constexpr int kUsage = 2;
constexpr int kInput = 3;

bool read_file(const fs::path& p, std::string& out, std::string& error) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// Writes `text` to `target` atomically: a temporary file beside it, then rename(2).
bool write_atomically(const fs::path& target, const std::string& text, std::string& error,
                      const fs::path* mode_from = nullptr) {
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".pyrewrite-XXXXXX")).string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = mkstemp(buf.data());
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!write_all(fd, text.data(), text.size())) {
    error = std::strerror(errno);
    ::close(fd);
    ::unlink(buf.data());
    return false;
  }
  struct stat st;
  mode_t mode = 0644;
  if (mode_from && ::stat(mode_from->c_str(), &st) == 0) mode = st.st_mode & 07777;
  ::fchmod(fd, mode);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    error = std::strerror(errno);
    ::unlink(buf.data());
    return false;
  }
  if (std::rename(buf.data(), target.c_str()) != 0) {
    error = std::strerror(errno);
    ::unlink(buf.data());
    return false;
  }
  return true;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\r':
        o += "\\r";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o;
}

std::string q(const std::string& s) {
  return "\"" + json_escape(s) + "\"";
}

const char* severity_name(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note";
}

std::string status_name(py::RewriteStatus s) {
  return s == py::RewriteStatus::Rewritten   ? "rewritten"
         : s == py::RewriteStatus::Unchanged ? "unchanged"
                                             : "failed";
}

std::string to_json(const std::string& path, const py::RewriteResult& r, const std::string& text,
                    const std::string& diff, bool with_diff) {
  std::string j = "{\"file\": " + q(path) + ", \"status\": " + q(status_name(r.status));
  j += ", \"detected\": " + q(std::string(py::loop_kind_name(r.detected)));
  j += ", \"pattern\": " + (r.pattern ? q(std::string(py::pattern_name(*r.pattern))) : "null");
  if (!r.reason.empty()) j += ", \"reason\": " + q(r.reason);
  j += ", \"rules\": [";
  for (std::size_t i = 0; i < r.firings.size(); ++i) {
    const auto& f = r.firings[i];
    j += (i ? ", " : "") + std::string("{\"rule\": ") + q(f.rule) +
         ", \"section\": " + q(f.section) + ", \"line\": " + std::to_string(f.loc.line) +
         ", \"col\": " + std::to_string(f.loc.col) + "}";
  }
  j += "], \"diagnostics\": [";
  for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
    const auto& d = r.diagnostics[i];
    j += (i ? ", " : "") + std::string("{\"severity\": ") + q(severity_name(d.severity)) +
         ", \"line\": " + std::to_string(d.loc.line) + ", \"col\": " + std::to_string(d.loc.col) +
         ", \"message\": " + q(d.message) + ", \"notes\": [";
    for (std::size_t k = 0; k < d.notes.size(); ++k)
      j += (k ? ", " : "") + q(d.notes[k]);
    j += "]}";
  }
  j += "]";
  if (with_diff)
    j += ", \"diff\": " + q(diff);
  else
    j += ", \"output\": " + q(text);
  return j + "}";
}

void print_diagnostics(const std::string& path, const std::string& text,
                       const py::RewriteResult& r) {
  SourceFile file(path, text);
  for (const Diagnostic& d : r.diagnostics)
    std::cerr << render(d, &file, path);
}

void print_explain(const std::string& path, const py::RewriteResult& r) {
  if (r.pattern)
    std::cerr << path << ": pattern " << py::pattern_name(*r.pattern) << " (Sec. "
              << py::pattern_section(*r.pattern)
              << "), training loop detected: " << py::loop_kind_name(r.detected) << "\n";
  for (const auto& f : r.firings)
    std::cerr << path << ":" << f.loc.line << ":" << f.loc.col << ": " << f.rule << " (Sec. "
              << f.section << ")\n";
}

// Rewrites one file; returns the exit code.
int run_file(const Options& o, const fs::path& input, const fs::path* out_path,
             bool quiet_unchanged) {
  std::string text, error;
  if (!read_file(input, text, error)) {
    std::cerr << "adlang pyrewrite: error: cannot read '" << input.string() << "': " << error
              << "\n";
    return kUsage;
  }
  py::RewriteOptions ro;
  if (o.pattern != "auto") ro.pattern = py::pattern_from_name(o.pattern);
  py::RewriteResult r = py::rewrite_python(input.string(), text, ro);
  std::string label = input.string();
  std::string diff = o.diff ? py::unified_diff(text, r.output, "a/" + label, "b/" + label) : "";
  if (o.json) {
    std::cout << to_json(label, r, r.output, diff, o.diff) << "\n";
  } else {
    print_diagnostics(label, text, r);
    if (o.explain) print_explain(label, r);
    if (r.status != py::RewriteStatus::Rewritten && !r.reason.empty() && !quiet_unchanged)
      std::cerr << label << ": " << (r.status == py::RewriteStatus::Failed ? "error" : "note")
                << ": " << r.reason << "\n";
  }
  if (r.status == py::RewriteStatus::Failed) return kInput;
  if (!o.json) {
    if (o.diff)
      std::cout << diff;
    else if (!out_path)
      std::cout << r.output;
  }
  if (out_path) {
    const fs::path* mode_from = o.in_place ? &input : nullptr;
    if (!(o.in_place && r.output == text) &&
        !write_atomically(*out_path, r.output, error, mode_from)) {
      std::cerr << "adlang pyrewrite: error: cannot write '" << out_path->string() << "': " << error
                << "\n";
      return kUsage;
    }
  }
  return kOk;
}

int run_directory(const Options& o, const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it =
           fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".py") files.push_back(it->path());
  if (ec) {
    std::cerr << "adlang pyrewrite: error: cannot read directory '" << dir.string()
              << "': " << ec.message() << "\n";
    return kUsage;
  }
  std::sort(files.begin(), files.end());
  std::vector<std::pair<fs::path, py::LoopKind>> loops;
  for (const fs::path& f : files) {
    std::string text, error;
    if (!read_file(f, text, error)) continue;
    py::LoopKind k = py::identify_training_loop(f.string(), text);
    if (k != py::LoopKind::None) loops.push_back({f, k});
  }
  if (loops.empty()) {
    std::cerr << dir.string() << ": note: no script in the directory holds a training loop; "
              << "nothing is rewritten (" << files.size() << " Python files looked at)\n";
    return kOk;
  }
  if (loops.size() > 1) {
    std::cerr << dir.string() << ": error: restriction 3.1.1: the training loop must be defined in "
              << "one file, found in " << loops.size() << ":\n";
    for (const auto& [f, k] : loops)
      std::cerr << "  " << f.string() << " (" << py::loop_kind_name(k) << ")\n";
    std::cerr << "note: rewrite the one that trains: adlang pyrewrite FILE\n";
    return kInput;
  }
  const fs::path& target = loops.front().first;
  for (const fs::path& f : files)
    if (f != target) std::cerr << f.string() << ": unchanged (no training loop)\n";
  std::cerr << target.string() << ": holds the training loop ("
            << py::loop_kind_name(loops.front().second) << ")\n";
  if (o.in_place) return run_file(o, target, &target, false);
  if (!o.output.empty()) {
    fs::path out = fs::path(o.output) / fs::relative(target, dir);
    fs::create_directories(out.parent_path(), ec);
    return run_file(o, target, &out, false);
  }
  return run_file(o, target, nullptr, false);
}

}  // namespace

void register_pyrewrite_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "pyrewrite",
      "Rewrite a single-GPU TensorFlow training script into a Horovod script (prints it, or "
      "writes it with -o / --in-place).");
  cmd->add_option("input", opts->input, "the script (IN.py), or a directory holding it")
      ->required();
  cmd->add_option("-o,--output", opts->output,
                  "write the result here (a directory when the input is one)");
  cmd->add_flag("--diff", opts->diff, "print a unified diff instead of the rewritten script");
  cmd->add_option("--pattern", opts->pattern,
                  "auto (training-loop identification), keras, tape, session or monitored")
      ->check(CLI::IsMember({"auto", "keras", "tape", "session", "monitored"}))
      ->capture_default_str();
  cmd->add_flag("--explain", opts->explain,
                "list every rule that fired, with its location and the document's section");
  cmd->add_flag("--json", opts->json, "print the result as JSON (for tooling)");
  cmd->add_flag("--in-place", opts->in_place, "rewrite the input file itself (atomically)");
  cmd->callback([opts, &exit_code]() {
    const Options& o = *opts;
    if (o.in_place && !o.output.empty()) {
      std::cerr << "adlang pyrewrite: error: --in-place and -o exclude each other\n";
      exit_code = kUsage;
      return;
    }
    std::error_code ec;
    fs::path in(o.input);
    if (!fs::exists(in, ec)) {
      std::cerr << "adlang pyrewrite: error: '" << o.input << "' does not exist\n";
      exit_code = kUsage;
      return;
    }
    try {
      if (fs::is_directory(in, ec)) {
        exit_code = run_directory(o, in);
      } else {
        fs::path out(o.output);
        exit_code = run_file(o, in, o.in_place ? &in : (o.output.empty() ? nullptr : &out), false);
      }
    } catch (const std::exception& e) {
      std::cerr << "adlang pyrewrite: " << e.what() << "\n"
                << "note: this is a bug in adlang; please report it with the script\n";
      exit_code = 1;
    }
  });
}

}  // namespace adlang::cli
