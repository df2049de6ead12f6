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

// A long line is shown as a window of whole UTF-8 characters around the caret.
TEST(FrontEndDiagnostics, LongLinesAreClippedAroundTheCaret) {
  const std::string e_acute = "\xc3\xa9";
  std::string line(150, 'a');
  for (int i = 0; i < 100; ++i)
    line += e_acute;
  SourceExcerpt shown = excerpt_around(line, 141);
  EXPECT_TRUE(shown.clipped_before);
  EXPECT_TRUE(shown.clipped_after);
  EXPECT_EQ(shown.begin, 41u);
  EXPECT_EQ(shown.end, 240u);  // 241 would cut an é in two
  // A window that would begin inside a character begins after it.
  const std::string wide = std::string(1, 'a') + e_acute + e_acute + std::string(300, 'b');
  EXPECT_EQ(excerpt_around(wide, 102).begin, 3u);
  // At the start, at the end, and past the end (a caret at end of file).
  EXPECT_EQ(excerpt_around(line, 0).begin, 0u);
  EXPECT_FALSE(excerpt_around(line, 0).clipped_before);
  EXPECT_EQ(excerpt_around(line, line.size()).end, line.size());
  EXPECT_FALSE(excerpt_around(line, line.size()).clipped_after);
  // A short line is shown whole.
  EXPECT_FALSE(excerpt_around(std::string(kLongSourceLine, 'a'), 150).clipped_after);
  // A diagnostic on a line of 3·10^6 characters stays short.
  SourceFile file("big.ad", std::string(3000000, '(') + "x");
  const std::string shown_text =
      render(Diagnostic{Severity::Error, SourceLoc{1, 2000000}, "nested", {}}, &file);
  EXPECT_LT(shown_text.size(), 2 * kLongSourceLine + 100) << shown_text.substr(0, 400);
}

}  // namespace
}  // namespace adlang
