// Fuzz target: adlang fmt's round trip. For a program that parses, print(parse(text)) parses
// again and printing is a fixed point: print(parse(print(parse(text)))) = print(parse(text)).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lang/diagnostics.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "support/stack.hpp"

using namespace adlang;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string once;
  try {
    once = print_syntax_program(parse_program(text));
  } catch (const CompileError&) {
    return 0;
  } catch (const StackExhausted&) {
    return 0;
  }
  std::string twice;
  try {
    twice = print_syntax_program(parse_program(once));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "the printed program does not parse: %s\n--- printed:\n%s\n", e.what(),
                 once.c_str());
    std::abort();
  }
  if (twice != once) {
    std::fprintf(stderr, "printing is not a fixed point\n--- once:\n%s\n--- twice:\n%s\n",
                 once.c_str(), twice.c_str());
    std::abort();
  }
  return 0;
}
