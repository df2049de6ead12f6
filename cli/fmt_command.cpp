// adlang fmt: the program printed back in the concrete syntax (comments are not kept); a .py
// file printed as the program it lowers to.
#include "cli/command_runner.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "lang/printer.hpp"

namespace adlang {

int fmt_command(const std::string& path, std::ostream& out, std::ostream& err) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(false, out, err, file, [&] {
    file = read_source(path);
    ParsedFile parsed = parse_file(*file);
    // A .py file prints as the program it lowers to, so a reader sees what the Python means.
    out << (parsed.lowered_text.empty() ? print_syntax_program(parsed.syntax)
                                        : parsed.lowered_text);
    return int(kExitOk);
  });
}

}  // namespace adlang
