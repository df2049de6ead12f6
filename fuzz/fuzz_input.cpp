#include "fuzz/fuzz_input.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace adlang::fuzz {

namespace {

int memory_file() {
  static const int fd = memfd_create("adlang-fuzz-input", MFD_CLOEXEC);
  if (fd < 0) {
    std::perror("memfd_create");
    std::abort();
  }
  return fd;
}

// The words of a documented command line: white space separates, single quotes group.
std::vector<std::string> command_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '\'') {
      quoted = !quoted;
      any = true;
    } else if (!quoted && (c == ' ' || c == '\t')) {
      if (any) words.push_back(word);
      word.clear();
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (any) words.push_back(word);
  return words;
}

}  // namespace

FuzzInput make_input(const std::uint8_t* data, std::size_t size) {
  FuzzInput in;
  in.text.assign(reinterpret_cast<const char*>(data), size);
  int fd = memory_file();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
    std::perror("writing the fuzz input");
    std::abort();
  }
  in.path = "/proc/self/fd/" + std::to_string(fd);
  std::istringstream lines(in.text);
  const std::string tag = "-- env ", run = "-- $ adlang ";
  bool documented_run = false;
  for (std::string line; std::getline(lines, line) && in.env.size() < 16;) {
    if (line.rfind(tag, 0) == 0) in.env.push_back(line.substr(tag.size()));
    if (line.rfind(run, 0) == 0 && !documented_run) {
      documented_run = true;
      std::vector<std::string> words = command_words(line.substr(run.size()));
      for (std::size_t i = 0; i + 1 < words.size(); ++i)
        if (words[i] == "--env") in.env.push_back(words[i + 1]);
    }
  }
  return in;
}

void bound(CommonOptions& o) {
  o.fuel = 2000;
  o.max_trace = 20000;
  o.max_derivative_steps = 20000;
  o.max_rd_nesting = 8;
}

void expect_exit(int code, std::initializer_list<int> allowed, const std::string& what,
                 const std::string& output) {
  for (int a : allowed)
    if (code == a) return;
  std::fprintf(stderr, "%s: unexpected exit code %d\n%s\n", what.c_str(), code, output.c_str());
  std::abort();
}

}  // namespace adlang::fuzz
