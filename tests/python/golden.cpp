#include "golden.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/python/ast/py_parse.hpp"
#include "lang/source.hpp"

namespace adlang::test {

namespace fs = std::filesystem;

std::string source_dir() {
  return ADLANG_SOURCE_DIR;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool file_exists(const std::string& path) {
  return fs::exists(path);
}

std::vector<std::string> files_with_suffix(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool update_golden() {
  const char* u = std::getenv("ADLANG_UPDATE_GOLDEN");
  return u && std::string(u) == "1";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string render_log(const std::string& label, const std::string& input,
                       const py::RewriteResult& r) {
  std::string s = "status: ";
  s += r.status == py::RewriteStatus::Rewritten   ? "rewritten"
       : r.status == py::RewriteStatus::Unchanged ? "unchanged"
                                                  : "failed";
  s += "\npattern: " + std::string(r.pattern ? py::pattern_name(*r.pattern) : "none");
  s += "\ndetected: " + std::string(py::loop_kind_name(r.detected)) + "\n";
  if (!r.reason.empty()) s += "reason: " + r.reason + "\n";
  SourceFile file(label, input);
  for (const Diagnostic& d : r.diagnostics)
    s += render(d, &file, label);
  for (const auto& f : r.firings)
    s += "rule " + std::to_string(f.loc.line) + ":" + std::to_string(f.loc.col) + " " + f.rule +
         " (Sec. " + f.section + ")\n";
  return s;
}

void expect_golden(const std::string& path, const std::string& actual) {
  if (update_golden()) {
    write_file(path, actual);
    return;
  }
  ASSERT_TRUE(file_exists(path)) << "missing golden file " << path
                                 << " (ADLANG_UPDATE_GOLDEN=1 writes it for review)";
  EXPECT_EQ(read_file(path), actual) << "in " << path;
}

namespace {

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

}  // namespace

void expect_well_formed(const std::string& label, const std::string& input,
                        const py::RewriteResult& r) {
  // The result parses.
  EXPECT_NO_THROW(py::parse_module(label, r.output)) << label << ": the output does not parse";
  // Comment lines survive, in order.
  std::vector<std::string> out = lines(r.output);
  std::size_t at = 0;
  for (const std::string& l : lines(input)) {
    std::size_t p = l.find_first_not_of(" \t");
    if (p == std::string::npos || l[p] != '#') continue;
    while (at < out.size() && out[at].find(l.substr(p)) == std::string::npos)
      ++at;
    EXPECT_LT(at, out.size()) << label << ": comment line lost: " << l;
  }
  // Rewriting the result again changes nothing: it imports horovod now.
  if (r.status == py::RewriteStatus::Rewritten && r.output != input) {
    py::RewriteResult again = py::rewrite_python(label, r.output);
    EXPECT_EQ(again.status, py::RewriteStatus::Unchanged)
        << label << ": a rewritten script must be recognised as using Horovod";
    EXPECT_EQ(again.output, r.output);
  }
}

}  // namespace adlang::test
