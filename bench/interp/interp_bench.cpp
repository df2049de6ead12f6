// The interpreter against Lua (docs/performance.md Sec. 1, "Against Lua 5.4 and LuaJIT's
// interpreter"): `adlang run examples/{fib,tak,ack}.ad` against the same functions in Lua
// (bench/interp/*.lua, on floats with the same guards) under lua5.4 and under `luajit -joff`
// (LuaJIT's interpreter, its trace compiler off), and with --old, another build of adlang
// (--adlang: the adlang measured, by default this build's).
// Whole processes, start-up included, in turns (process.hpp); the medians of wall and CPU time
// and their ratios.
//
//   interp_bench [--runs N] [--old PATH] [--adlang PATH] [--only fib|tak|ack]   (11 rounds)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "process.hpp"

namespace {

using adlang::bench::Process;
using adlang::bench::Reference;

struct Program {
  std::string name;
  std::vector<std::string> env;  // name=value, in the order of the Lua file's arguments
};

// About 0.2-0.4 s each under lua5.4 on the 2-core machine.
const std::vector<Program> kPrograms = {
    {"fib", {"n=34"}},
    {"tak", {"x=27", "y=18", "z=9"}},
    {"ack", {"m=3", "n=9"}},
};

// Enough for the largest (fib(34): 18.5 M calls); the default stops at 10 M calls.
constexpr const char* kFuel = "1000000000";

std::vector<Process> commands_for(const Program& p, const std::string& binary,
                                  const std::string& old) {
  const std::string source = ADLANG_SOURCE_DIR;
  std::vector<std::string> values;
  std::string call = p.name + "(";
  for (const std::string& e : p.env) {
    values.push_back(e.substr(e.find('=') + 1));
    call += (values.size() > 1 ? ", " : "") + values.back();
  }
  call += ")";
  auto lua = [&](std::string label, std::vector<std::string> argv) {
    argv.push_back(source + "/bench/interp/" + p.name + ".lua");
    argv.insert(argv.end(), values.begin(), values.end());
    return Process{std::move(label), std::move(argv), {}, {}};
  };
  auto adlang = [&](std::string label, const std::string& binary) {
    std::vector<std::string> argv = {binary, "run", source + "/examples/" + p.name + ".ad",
                                     "--fuel", kFuel};
    for (const std::string& e : p.env) {
      argv.push_back("--env");
      argv.push_back(e);
    }
    return Process{std::move(label), std::move(argv), {}, {}};
  };
  std::vector<Process> c;
  c.push_back(lua("lua5.4 " + call, {"lua5.4"}));
  c.push_back(lua("luajit -joff " + call, {"luajit", "-joff"}));
  c.push_back(adlang("adlang run " + call, binary));
  if (!old.empty()) c.push_back(adlang("old adlang run " + call, old));
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 11;
  std::string old, only, binary = ADLANG_BINARY;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
    } else if (a == "--old" && i + 1 < argc) {
      old = argv[++i];
    } else if (a == "--adlang" && i + 1 < argc) {
      binary = argv[++i];
    } else if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: interp_bench [--runs N] [--old PATH_TO_ADLANG] [--adlang PATH] "
                   "[--only fib|tak|ack]\n");
      return 2;
    }
  }
  if (rounds < 1) rounds = 1;
  for (const char* tool : {"lua5.4", "luajit"})
    if (!adlang::bench::on_path(tool)) {
      std::fprintf(stderr,
                   "interp_bench: %s is missing (Debian: lua5.4, luajit; scripts/install-deps.sh "
                   "--bench)\n",
                   tool);
      return 1;
    }
  std::printf("interpreters: whole processes, medians of %d runs each, in turns\n", rounds);
  for (const Program& p : kPrograms) {
    if (!only.empty() && p.name != only) continue;
    std::vector<Process> commands = commands_for(p, binary, old);
    if (!adlang::bench::run_in_turns(commands, rounds, "interp_bench")) return 1;
    std::vector<Reference> refs = {{0, "lua"}, {1, "jit"}};
    if (!old.empty()) refs.push_back({3, "old"});
    adlang::bench::print_medians(commands, refs, 34);
  }
  return 0;
}
