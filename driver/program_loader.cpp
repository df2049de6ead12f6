#include "driver/program_loader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "lang/diagnostics.hpp"
#include "lang/missing_input.hpp"
#include "lang/parser.hpp"
#include "lang/pragma.hpp"
#include "lang/python/lower/python_lowering.hpp"
#include "lang/python/lower/python_print.hpp"
#include "lang/term_visitor.hpp"
#include "lang/type_checker.hpp"
#include "support/exit_codes.hpp"
#include "support/setting_hint.hpp"

namespace adlang {

std::shared_ptr<SourceFile> read_source(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw CommandFailure(
        kExitUsage, "adlang: error: cannot read '" + path + "': " + std::strerror(errno) + "\n");
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    throw CommandFailure(kExitUsage, "adlang: error: cannot read '" + path + "'\n");
  }
  return std::make_shared<SourceFile>(path, text.str());
}

PredicateMode predicate_mode(const std::string& given, const std::string& file) {
  if (given == "total") return PredicateMode::Total;
  if (given == "strict") return PredicateMode::Strict;
  if (py::is_python_path(file)) return PredicateMode::Total;
  // A pragma among the program's first lines (a file that cannot be read is reported when the
  // command reads it).
  std::ifstream in(file, std::ios::binary);
  std::string head(8192, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return predicates_pragma(head) == "total" ? PredicateMode::Total : PredicateMode::Strict;
}

ParsedFile parse_file(const SourceFile& file) {
  try {
    ParsedFile p;
    if (py::is_python_path(file.path())) {
      py::LoweredPython lowered = py::lower_python(file);
      for (const py::DefaultInput& d : lowered.defaults)
        p.default_env.emplace_back(d.name.str(), d.value);
      p.lowered_text = py::print_lowered(lowered);
      for (const py::Placement& pl : lowered.placements)
        for (const std::string& o : pl.place_options())
          p.default_place.push_back(o);
      p.syntax = std::move(lowered.program);
      p.python_printed = std::move(lowered.printed);
    } else {
      p.syntax = parse_program(file.text());
    }
    return p;
  } catch (const CompileError& e) {
    throw CommandFailure(kExitCompileError, e.diagnostic(), &file);
  }
}

namespace {

bool valid_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '\'')) return false;
  return true;
}

// The first operator outside the polynomial fragment, in preorder (subterms in evaluation
// order), with an explicit stack (let chains may be very deep).
const OpApp* first_non_polynomial(const Term& root) {
  std::vector<Term> todo{root};
  while (!todo.empty()) {
    Term t = std::move(todo.back());
    todo.pop_back();
    if (const OpApp* o = t.as<OpApp>(); o && !o->op.is_polynomial()) return o;
    std::size_t first = todo.size();
    for_each_subterm(t, [&](const Term& c) { todo.push_back(c); });
    std::reverse(todo.begin() + static_cast<std::ptrdiff_t>(first), todo.end());
  }
  return nullptr;
}

}  // namespace

void check_precision_supports(const Term& program, Precision p, const SourceFile& file) {
  if (p != Precision::Exact) return;
  if (const OpApp* o = first_non_polynomial(program)) {
    Diagnostic d{Severity::Error,
                 o->loc(),
                 "'" + o->op.name() + "' is outside the polynomial fragment that " +
                     setting_hint(Setting::Precision, "exact") + " computes",
                 {"exact rationals support + - * / neg add sub mul div dot_n scale_n; use " +
                  setting_hint(Setting::Precision, "double, 50 or 100")}};
    throw CommandFailure(kExitUsage, d, &file);
  }
}

template <class S>
std::unique_ptr<LoadedProgram<S>> load_program(const CommonOptions& opts,
                                               std::shared_ptr<SourceFile>& file) {
  auto p = std::make_unique<LoadedProgram<S>>();
  p->file = opts.source ? opts.source : read_source(opts.file);
  file = p->file;
  ParsedFile parsed;
  if (opts.scope) {
    // Only the program's own text is parsed: the definitions before it are checked already.
    try {
      parsed.syntax =
          parse_program(std::string_view(p->file->text()).substr(opts.scope->program_offset),
                        opts.scope->program_line);
    } catch (const CompileError& e) {
      throw CommandFailure(kExitCompileError, e.diagnostic(), p->file.get());
    }
    p->names = opts.scope->names;
  } else {
    parsed = parse_file(*p->file);
  }
  p->syntax = std::move(parsed.syntax);
  p->default_place = parsed.default_place;
  p->python_printed = std::move(parsed.python_printed);
  for (const Name& n : p->syntax.identifiers)
    p->names.reserve(n);

  // The --env values, read in precision S.
  std::unordered_map<std::string, ProgramInput<S>> given;
  for (const std::string& binding : opts.env) {
    std::size_t eq = binding.find('=');
    std::string name = binding.substr(0, eq);
    if (eq == std::string::npos || !valid_name(name)) {
      throw CommandFailure(kExitUsage,
                           "adlang: error: --env expects NAME=VALUE, got '" + binding + "'\n");
    }
    try {
      ParsedValue<S> v = parse_value<S>(binding.substr(eq + 1));
      given[name] = ProgramInput<S>{Name(name), v.type, std::move(v.value)};
    } catch (const ValueSyntaxError& e) {
      throw CommandFailure(kExitUsage, "adlang: error: --env " + name + ": " + e.what() + "\n");
    }
  }
  // A Python script's own feed_dict gives the inputs --env does not.
  for (const auto& [name, value] : parsed.default_env) {
    if (given.count(name)) continue;
    ParsedValue<S> v = parse_value<S>(value);
    given[name] = ProgramInput<S>{Name(name), v.type, std::move(v.value)};
  }
  std::vector<Name> inputs = program_inputs(p->syntax);
  for (const Name& x : inputs) {
    auto it = given.find(x.str());
    if (it == given.end()) {
      std::vector<std::string> valued;
      for (const auto& [name, _] : given)
        valued.push_back(name);
      std::sort(valued.begin(), valued.end());
      std::vector<Name> functions;
      if (opts.scope)
        for (const FunDef& f : opts.scope->defs)
          functions.push_back(f.name);
      MissingInput m = missing_input(p->syntax, x, valued, functions);
      throw CommandFailure(m.is_function ? kExitCompileError : kExitUsage, m.diagnostic,
                           p->file.get());
    }
    p->inputs.push_back(std::move(it->second));
    given.erase(it);
  }
  if (!given.empty()) {
    std::string names;
    for (const auto& [name, _] : given)
      names += (names.empty() ? "'" : ", '") + name + "'";
    throw CommandFailure(kExitUsage, "adlang: error: --env gives " + names +
                                         ", which the program does not use as an input\n");
  }

  std::vector<TypedName> typed;
  for (const ProgramInput<S>& in : p->inputs)
    typed.push_back(TypedName{in.name, in.type});
  try {
    p->term = opts.scope ? check_program_in(opts.scope->defs, p->syntax, typed, p->names)
                         : check_program(p->syntax, typed, p->names);
  } catch (const CompileError& e) {
    throw CommandFailure(kExitCompileError, e.diagnostic(), p->file.get());
  }
  check_precision_supports(p->term, opts.precision, *p->file);
  return p;
}

template <class S>
void check_printable(const LoadedProgram<S>& p) {
  if (p.python_printed && p.python_printed->undecided)
    throw CommandFailure(kExitCompileError, *p.python_printed->undecided, p.file.get());
}

template <class S>
std::string print_result(const LoadedProgram<S>& p, const Value<S>& v) {
  if (p.python_printed) {
    std::vector<py::PrintedScalar> scalars;
    for (const S& x : v)
      scalars.push_back(py::PrintedScalar{static_cast<double>(x), ScalarTraits<S>::to_text(x)});
    if (auto text = py::print_python_value(p.python_printed->kind, scalars)) return *text;
  }
  return print_value<S>(p.term.type(), v);
}

#define ADLANG_INSTANTIATE(S)                                \
  template void check_printable<S>(const LoadedProgram<S>&); \
  template std::string print_result<S>(const LoadedProgram<S>&, const Value<S>&);
ADLANG_INSTANTIATE(double)
ADLANG_INSTANTIATE(Mpfr50)
ADLANG_INSTANTIATE(Mpfr100)
ADLANG_INSTANTIATE(Rational)
#undef ADLANG_INSTANTIATE

template std::unique_ptr<LoadedProgram<double>> load_program<double>(const CommonOptions&,
                                                                     std::shared_ptr<SourceFile>&);
template std::unique_ptr<LoadedProgram<Mpfr50>> load_program<Mpfr50>(const CommonOptions&,
                                                                     std::shared_ptr<SourceFile>&);
template std::unique_ptr<LoadedProgram<Mpfr100>> load_program<Mpfr100>(
    const CommonOptions&, std::shared_ptr<SourceFile>&);
template std::unique_ptr<LoadedProgram<Rational>> load_program<Rational>(
    const CommonOptions&, std::shared_ptr<SourceFile>&);

}  // namespace adlang
