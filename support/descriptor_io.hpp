// Whole reads and writes on a file descriptor, retried after EINTR and short counts: the
// kernel's zygote and its cells (cli/kernel_zygote.cpp), `adlang serve`, the rewriter's files.
#pragma once

#include <cstddef>

namespace adlang {

// Writes all n bytes; false (errno set) if the descriptor fails or is closed.
bool write_all(int fd, const void* bytes, std::size_t n);

// As write_all, to a socket with MSG_NOSIGNAL: a peer that has gone is an answer of false, not
// a SIGPIPE.
bool send_all(int fd, const void* bytes, std::size_t n);

// Reads exactly n bytes; false at end of file first or on an error.
bool read_all(int fd, void* bytes, std::size_t n);

}  // namespace adlang
