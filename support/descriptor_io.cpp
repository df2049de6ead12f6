#include "support/descriptor_io.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace adlang {
namespace {

template <class Transfer>
bool transfer_all(std::size_t n, Transfer transfer) {
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = transfer(done);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    done += static_cast<std::size_t>(r);
  }
  return true;
}

}  // namespace

bool write_all(int fd, const void* bytes, std::size_t n) {
  const auto* c = static_cast<const char*>(bytes);
  return transfer_all(n, [&](std::size_t done) { return ::write(fd, c + done, n - done); });
}

bool send_all(int fd, const void* bytes, std::size_t n) {
  const auto* c = static_cast<const char*>(bytes);
  return transfer_all(
      n, [&](std::size_t done) { return ::send(fd, c + done, n - done, MSG_NOSIGNAL); });
}

bool read_all(int fd, void* bytes, std::size_t n) {
  auto* c = static_cast<char*>(bytes);
  return transfer_all(n, [&](std::size_t done) { return ::read(fd, c + done, n - done); });
}

}  // namespace adlang
