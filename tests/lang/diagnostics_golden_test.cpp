// Every diagnostic the front end (lexer, parser, type checker) can emit, at least once each:
// tests/golden/diagnostics/NAME.ad is a program, NAME.err the error it gets, rendered as the CLI
// renders it (file:line:col, the source line, a caret, the notes). The inputs of a program are
// reals, as `adlang fmt --after desugar` types them; a first line `-- inputs: a b` lists them
// instead (an unbound variable is a free variable that is not an input). A first line
// `-- values: a b` names the inputs that have values, as the CLI's --env would: the first other
// input gets the diagnostic of an input without a value (lang/missing_input.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/missing_input.hpp"
#include "lang/parser.hpp"
#include "lang/type_checker.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

std::string front_end_error(const std::string& name, const std::string& text) {
  SourceFile file(name + ".ad", text);
  try {
    SyntaxProgram p = parse_program(text);
    std::vector<TypedName> inputs;
    const std::string header = "-- inputs:", values = "-- values:";
    if (text.rfind(values, 0) == 0) {
      std::istringstream names_given(text.substr(values.size(), text.find('\n') - values.size()));
      std::vector<std::string> valued;
      for (std::string n; names_given >> n;)
        valued.push_back(n);
      for (const Name& n : program_inputs(p)) {
        if (std::find(valued.begin(), valued.end(), n.str()) == valued.end())
          return render(missing_input(p, n, valued).diagnostic, &file);
        inputs.push_back(TypedName{n, Type::real()});
      }
    } else if (text.rfind(header, 0) == 0) {
      std::istringstream names_given(text.substr(header.size(), text.find('\n') - header.size()));
      for (std::string n; names_given >> n;)
        inputs.push_back(TypedName{Name(n), Type::real()});
    } else {
      for (const Name& n : program_inputs(p))
        inputs.push_back(TypedName{n, Type::real()});
    }
    NameSupply names;
    for (const Name& n : p.identifiers)
      names.reserve(n);
    check_program(p, inputs, names);
  } catch (const CompileError& e) {
    return render(e.diagnostic(), &file);
  }
  return "(no error)\n";
}

TEST(FrontEndDiagnostics, EachHasAGoldenFile) {
  std::string dir = test::source_dir() + "/tests/golden/diagnostics";
  std::vector<std::filesystem::path> programs;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".ad") programs.push_back(e.path());
  std::sort(programs.begin(), programs.end());
  EXPECT_GE(programs.size(), 60u);
  for (const std::filesystem::path& p : programs) {
    std::string name = p.stem().string();
    std::string err = front_end_error(name, test::read_file(p.string()));
    EXPECT_NE(err, "(no error)\n") << name;
    test::expect_golden("diagnostics/" + name + ".err", err);
  }
}

}  // namespace
}  // namespace adlang
