#include "driver/repl_session.hpp"

namespace adlang {

int ReplSession::handle(const std::string& input, std::uint32_t line) {
  CommandResult r = session_.handle(input, line);
  out_ << r.out;
  err_ << r.err;
  return r.exit_code;
}

}  // namespace adlang
