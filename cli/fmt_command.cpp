// adlang fmt: the program printed back in the concrete syntax (comments are not kept).
#include "cli/command_runner.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "lang/printer.hpp"

namespace adlang {

int fmt_command(const std::string& path, std::ostream& out, std::ostream& err) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(false, out, err, file, [&] {
    file = read_source(path);
    out << print_syntax_program(parse_file(*file));
    return int(kExitOk);
  });
}

}  // namespace adlang
