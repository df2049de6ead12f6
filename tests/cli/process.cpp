#include "cli/process.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace adlang::test {

std::string adlang_binary() {
  const char* b = std::getenv("ADLANG_BINARY");
  if (!b) throw std::runtime_error("ADLANG_BINARY is not set (run the tests through ctest)");
  return b;
}

namespace {

std::string read_all(int fd) {
  std::string s;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0)
    s.append(buf, static_cast<std::size_t>(n));
  return s;
}

}  // namespace

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& cwd, const std::string& stdin_text) {
  // Output goes to temporary files so that large outputs cannot deadlock a pipe.
  char out_name[] = "/tmp/adlang_test_out_XXXXXX";
  char err_name[] = "/tmp/adlang_test_err_XXXXXX";
  char in_name[] = "/tmp/adlang_test_in_XXXXXX";
  int out_fd = mkstemp(out_name), err_fd = mkstemp(err_name), in_fd = mkstemp(in_name);
  if (out_fd < 0 || err_fd < 0 || in_fd < 0) throw std::runtime_error("mkstemp failed");
  if (write(in_fd, stdin_text.data(), stdin_text.size()) != static_cast<ssize_t>(stdin_text.size()))
    throw std::runtime_error("write failed");
  lseek(in_fd, 0, SEEK_SET);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  ProcessResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.peak_bytes = std::uint64_t(usage.ru_maxrss) * 1024;
  r.cpu_seconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  lseek(out_fd, 0, SEEK_SET);
  lseek(err_fd, 0, SEEK_SET);
  r.out = read_all(out_fd);
  r.err = read_all(err_fd);
  close(out_fd);
  close(err_fd);
  close(in_fd);
  unlink(out_name);
  unlink(err_name);
  unlink(in_name);
  return r;
}

std::vector<std::string> split_command_line(const std::string& line) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (char c : line) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(cur);
  return words;
}

}  // namespace adlang::test
