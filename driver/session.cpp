#include "driver/session.hpp"

#include <algorithm>
#include <sstream>

#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/program_loader.hpp"
#include "lang/diagnostics.hpp"
#include "lang/lexer.hpp"
#include "lang/mentioned_names.hpp"
#include "lang/missing_input.hpp"
#include "lang/parser.hpp"
#include "lang/python/lower/python_lowering.hpp"
#include "lang/type_checker.hpp"
#include "support/exit_codes.hpp"
#include "support/length_prefixed.hpp"
#include "support/trim.hpp"

namespace adlang {

namespace {

// The tokens of `text`, or none if it does not lex.
std::vector<Token> tokens_of(const std::string& text) {
  try {
    return lex(text);
  } catch (const CompileError&) {
    return {};
  }
}

// Byte offset of a 1-based line/column in `text`.
std::size_t offset_of(const std::string& text, SourceLoc loc) {
  std::size_t off = 0;
  for (std::uint32_t line = 1; line < loc.line && off < text.size(); ++off)
    if (text[off] == '\n') ++line;
  return off + loc.col - 1;
}

const char* predicates_name(PredicateMode p) {
  return p == PredicateMode::Total ? "total" : "strict";
}

}  // namespace

const char* Session::help_text() {
  return "Enter a definition or an expression; its value is printed.\n"
         "  def f(x: real): real = x * x;   a definition, in scope for later lines (a later\n"
         "                                  def of the same name replaces it)\n"
         "  f(3) + 1                        an expression: its value (adlang run)\n"
         "  :type E                         the type of E\n"
         "  :trace E                        the trace term of E (Figs. 4-5)\n"
         "  :diff E wrt x                   the reverse derivative of E in the input x (Fig. 6)\n"
         "  :den E                          the denotation of E (Fig. 7), computed independently\n"
         "  :check E                        the paper's theorems (adlang check's properties) on E\n"
         "  :derivation E                   the derivation of E's evaluation (Figs. 2-5)\n"
         "  :env x=0.5                      give the input x a value (E may use it freely)\n"
         "  :load FILE                      run FILE and bring its definitions into scope\n"
         "  :set precision double|50|100|exact\n"
         "  :set predicates strict|total\n"
         "  :set ad tape|linear|paper       which differentiation computes rd\n"
         "  :set fuel N                     function calls allowed per evaluation\n"
         "  :set                            the current settings\n"
         "  :defs                           the definitions and inputs in scope\n"
         "  :help                           this text\n"
         "  :quit                           leave (as does end of input)\n";
}

bool Session::needs_more(const std::string& text) {
  std::vector<Token> toks = tokens_of(text);
  if (toks.empty() || toks[0].kind != TokenKind::KwDef) return false;
  for (const Token& t : toks)
    if (t.kind == TokenKind::Semicolon) return false;
  return true;
}

CommandResult Session::finish(Action& a, int code) {
  a.result.settle(code, a.out.str(), a.err.str());
  return std::move(a.result);
}

int Session::usage(Action& a, const std::string& message) const {
  const std::string text = source_name_ + ": error: " + message + "\n";
  a.err << text;
  a.result.fail(ErrorKind::Usage, message, text);
  return kExitUsage;
}

CommandResult Session::usage_error(const std::string& message) const {
  Action a;
  return finish(a, usage(a, message));
}

CommandResult Session::handle(const std::string& input, std::uint32_t first_line) {
  input_line_ = first_line;
  Action a;
  std::string line = trim(input);
  std::vector<Token> toks = tokens_of(line);
  if (line.empty() || (!toks.empty() && toks[0].kind == TokenKind::End)) return finish(a, kExitOk);
  // `help` alone asks for help (as in Python's REPL), unless it is an input with a value.
  bool help_is_input = false;
  for (const Input& in : inputs_)
    help_is_input = help_is_input || in.name == "help";
  if (line == "help" && !help_is_input) return finish(a, command(a, "help", ""));
  if (line[0] == ':') {
    std::size_t sp = line.find_first_of(" \t");
    std::string name = line.substr(1, sp == std::string::npos ? std::string::npos : sp - 1);
    std::string arg = sp == std::string::npos ? "" : trim(line.substr(sp));
    return finish(a, command(a, name, arg));
  }
  if (!toks.empty() && toks[0].kind == TokenKind::KwDef)
    return finish(a, define(a, line, source_name_, first_line));
  CommonOptions opts;
  if (int code = program_options(a, line, opts)) return finish(a, code);
  return finish(a, run_command(opts, a.out, a.err, &a.result));
}

CommonOptions Session::base_options() const {
  CommonOptions o;
  o.precision = precision_;
  o.predicates = predicates_;
  o.ad = ad_;
  o.fuel = fuel_;
  return o;
}

std::shared_ptr<SourceFile> Session::program_file(const std::string& main) const {
  std::vector<SourcePiece> pieces = pieces_;
  pieces.push_back(SourcePiece{text_lines_ + 1, source_name_, input_line_});
  // No newline after main: an unfinished line is reported at its end.
  return std::make_shared<SourceFile>(source_name_, text_ + main, std::move(pieces));
}

std::uint32_t Session::append_text(const std::string& text, const std::string& origin,
                                   std::uint32_t line) {
  const std::uint32_t first = text_lines_ + 1;
  pieces_.push_back(SourcePiece{first, origin, line});
  text_ += text + "\n";
  text_lines_ += static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  return first;
}

std::vector<FunDef> Session::checked_functions(std::size_t except) const {
  std::vector<FunDef> fs;
  for (std::size_t i = 0; i < defs_.size(); ++i)
    if (i != except) fs.insert(fs.end(), defs_[i].checked.begin(), defs_[i].checked.end());
  return fs;
}

int Session::program_options(Action& a, const std::string& expr, CommonOptions& opts,
                             const std::string& supplied) const {
  opts = base_options();
  opts.file = source_name_;
  opts.source = program_file(expr);
  // The program is the input alone, in the scope of the session's checked definitions.
  auto scope = std::make_shared<DefinitionScope>();
  scope->defs = checked_functions();
  scope->names = names_;
  scope->program_offset = text_.size();
  scope->program_line = text_lines_ + 1;
  opts.scope = std::move(scope);
  SyntaxProgram program;
  try {
    program = parse_program(expr, text_lines_ + 1);
  } catch (const CompileError&) {
    return kExitOk;  // the command reports the syntax error with its location
  }
  std::vector<std::string> valued;
  for (const Input& in : inputs_)
    valued.push_back(in.name);
  if (!supplied.empty()) valued.push_back(supplied);
  for (const Name& x : program_inputs(program)) {
    if (x.str() == supplied) continue;
    const Input* given = nullptr;
    for (const Input& in : inputs_)
      if (in.name == x.str()) given = &in;
    if (!given) {
      std::vector<Name> functions;
      for (const FunDef& f : opts.scope->defs)
        functions.push_back(f.name);
      MissingInput m = missing_input(program, x, valued, functions);
      const std::string text = render(m.diagnostic, opts.source.get());
      a.err << text;
      SourceOrigin origin = opts.source->origin_of(m.diagnostic.loc.line);
      a.result.fail(m.is_function ? ErrorKind::Compile : ErrorKind::Usage,
                    CommandDiagnostic{m.diagnostic.message, origin.name, origin.line,
                                      m.diagnostic.loc.col, text});
      return a.result.exit_code;
    }
    opts.env.push_back(given->name + "=" + given->value);
  }
  return kExitOk;
}

int Session::command(Action& a, const std::string& name, const std::string& arg) {
  auto needs_arg = [&](const char* what) {
    if (!arg.empty()) return false;
    usage(a, ":" + name + " needs " + what);
    return true;
  };
  if (name == "help" || name == "h" || name == "?") {
    a.out << help_text();
    return kExitOk;
  }
  if (name == "quit" || name == "q") {
    quit_ = true;
    return kExitOk;
  }
  if (name == "defs") {
    for (const Def& d : defs_)
      a.out << d.text << "\n";
    for (const Input& in : inputs_)
      a.out << ":env " << in.name << "=" << in.value << "\n";
    return kExitOk;
  }
  if (name == "set") return set(a, arg);
  if (name == "env") return needs_arg("NAME=VALUE") ? kExitUsage : set_input(a, arg);
  if (name == "load") return needs_arg("a file name") ? kExitUsage : load(a, arg);
  if (name == "check") {
    // The properties of `adlang check` on the one program E with the session's inputs.
    if (needs_arg("an expression")) return kExitUsage;
    CommonOptions opts;
    if (int code = program_options(a, arg, opts)) return code;
    return check_one_program(opts, {}, ad_ != AdMode::Paper, a.out, a.err, &a.result);
  }
  if (name == "type") {
    if (needs_arg("an expression")) return kExitUsage;
    CommonOptions opts;
    if (int code = program_options(a, arg, opts)) return code;
    std::shared_ptr<SourceFile> file;
    return run_guarded(
        false, a.out, a.err, file,
        [&] {
          auto p = load_program<double>(opts, file);
          a.result.type = to_string(p->term.type());
          a.out << *a.result.type << "\n";
          return int(kExitOk);
        },
        &a.result);
  }
  if (name == "trace") {
    if (needs_arg("an expression")) return kExitUsage;
    TraceOptions opts;
    if (int code = program_options(a, arg, opts)) return code;
    return trace_command(opts, a.out, a.err, &a.result);
  }
  if (name == "derivation") {
    if (needs_arg("an expression")) return kExitUsage;
    CommonOptions opts;
    if (int code = program_options(a, arg, opts)) return code;
    opts.derivation = DerivationView{};
    return run_command(opts, a.out, a.err, &a.result);
  }
  if (name == "den") {
    if (needs_arg("an expression")) return kExitUsage;
    DenOptions opts;
    if (int code = program_options(a, arg, opts)) return code;
    return den_command(opts, a.out, a.err, &a.result);
  }
  if (name == "diff") {
    if (needs_arg("an expression and 'wrt NAME'")) return kExitUsage;
    std::size_t at = arg.rfind(" wrt ");
    if (at == std::string::npos)
      return usage(a, ":diff needs 'wrt NAME' after the expression, as in :diff x * x wrt x");
    DiffOptions opts;
    if (int code = program_options(a, trim(arg.substr(0, at)), opts)) return code;
    opts.wrt = trim(arg.substr(at + 5));
    return diff_command(opts, a.out, a.err, &a.result);
  }
  usage(a, "unknown command :" + name);
  a.err << "note: :help lists the commands\n";
  a.result.diagnostic->rendered += "note: :help lists the commands\n";
  return kExitUsage;
}

CommandResult Session::trace_picture(const std::string& expr, std::uint32_t line,
                                     const std::string& wrt) {
  input_line_ = line;
  Action a;
  TraceOptions opts;
  if (int code = program_options(a, expr, opts)) return finish(a, code);
  opts.format = "svg";  // no -o: each page into the result
  if (!wrt.empty()) opts.wrt = wrt;
  return finish(a, trace_picture_command(opts, a.out, a.err, &a.result));
}

CommandResult Session::plot(const std::string& expr, std::uint32_t line, const std::string& wrt,
                            double from, double to, bool table) {
  input_line_ = line;
  Action a;
  PlotOptions opts;
  if (int code = program_options(a, expr, opts, wrt)) return finish(a, code);
  opts.wrt = wrt;
  opts.from = from;
  opts.to = to;
  opts.picture_in_result = true;
  opts.print_samples = table;
  return finish(a, plot_command(opts, a.out, a.err, &a.result));
}

CommandResult Session::check_random(std::uint64_t count) {
  Action a;
  CheckOptions opts;
  opts.count = count;
  opts.precision = precision_;
  opts.predicates = predicates_;
  opts.linear_r = ad_ == AdMode::Linear;
  opts.progress = false;
  return finish(a, check_command(opts, a.out, a.err, &a.result));
}

int Session::define(Action& a, const std::string& text, const std::string& origin,
                    std::uint32_t line) {
  std::vector<Token> toks = tokens_of(text);
  std::string name = toks.size() > 1 && toks[1].kind == TokenKind::Ident ? toks[1].text : "";
  std::size_t replaced = defs_.size();
  for (std::size_t i = 0; i < defs_.size(); ++i)
    if (!name.empty() && defs_[i].name == name) replaced = i;
  // The text joins the session's (its locations point there), and leaves it again if the
  // definition is refused.
  const std::string saved_text = text_;
  const std::uint32_t saved_lines = text_lines_;
  const std::size_t saved_pieces = pieces_.size();
  const std::uint32_t first = append_text(text, origin, line);
  CommonOptions opts = base_options();
  std::shared_ptr<SourceFile> file = program_file("()");
  Def def{name, {}, {}, text, origin, line};
  std::vector<Def> defs = defs_;
  NameSupply names = names_;
  int code = run_guarded(
      false, a.out, a.err, file,
      [&] {
        // As a program of its own with the main term (), as `adlang run` would read it.
        SyntaxProgram parsed;
        try {
          parsed = parse_program(text + "\n()", first);
        } catch (const CompileError& e) {
          throw CommandFailure(kExitCompileError, e.diagnostic(), file.get());
        }
        for (const Name& n : parsed.identifiers)
          names.reserve(n);
        def.syntax = parsed.defs;
        // The definition is checked against the session's checked ones. One it replaces with
        // other types takes its callers along: they are checked again, from their syntax, with
        // it (the top-level definitions are one letrec group, in which order does not matter).
        std::vector<std::size_t> again;
        if (replaced < defs.size()) {
          bool same_types = def.syntax.size() == defs[replaced].checked.size();
          for (std::size_t k = 0; same_types && k < def.syntax.size(); ++k) {
            const FunDef& old = defs[replaced].checked[k];
            const SyntaxDef& d = def.syntax[k];
            same_types = old.name == d.name && old.param_type == d.param.type &&
                         old.result_type == d.result_type;
          }
          for (std::size_t i = 0; !same_types && i < defs.size(); ++i) {
            if (i == replaced) continue;
            bool calls = false;
            for (const FunDef& f : defs[i].checked) {
              NameSet mentioned = mentioned_names(f.body);
              for (const FunDef& old : defs[replaced].checked)
                calls = calls || mentioned.count(old.name);
            }
            if (calls) again.push_back(i);
          }
        }
        std::vector<FunDef> scope;
        std::vector<SyntaxDef> checking = def.syntax;
        for (std::size_t i = 0; i < defs.size(); ++i) {
          if (i == replaced) continue;
          if (std::find(again.begin(), again.end(), i) != again.end()) {
            checking.insert(checking.end(), defs[i].syntax.begin(), defs[i].syntax.end());
          } else {
            scope.insert(scope.end(), defs[i].checked.begin(), defs[i].checked.end());
          }
        }
        std::vector<FunDef> checked = check_definitions(scope, checking, names);
        for (const FunDef& f : checked)
          check_precision_supports(f.body, opts.precision, *file);
        auto next = checked.begin();
        def.checked.assign(next, next + static_cast<std::ptrdiff_t>(def.syntax.size()));
        next += static_cast<std::ptrdiff_t>(def.syntax.size());
        for (std::size_t i : again) {
          defs[i].checked.assign(next, next + static_cast<std::ptrdiff_t>(defs[i].syntax.size()));
          next += static_cast<std::ptrdiff_t>(defs[i].syntax.size());
        }
        return int(kExitOk);
      },
      &a.result);
  if (code != kExitOk) {
    text_ = saved_text;
    text_lines_ = saved_lines;
    pieces_.resize(saved_pieces);
    return code;
  }
  if (replaced < defs.size()) {
    defs[replaced] = std::move(def);
  } else {
    defs.push_back(std::move(def));
  }
  defs_ = std::move(defs);
  names_ = std::move(names);
  return code;
}

int Session::load(Action& a, const std::string& path) {
  CommonOptions opts = base_options();
  opts.file = path;
  std::shared_ptr<SourceFile> source;
  ParsedFile parsed;
  {
    std::shared_ptr<SourceFile> file;
    int code = run_guarded(
        false, a.out, a.err, file,
        [&] {
          source = read_source(path);
          file = source;
          parsed = parse_file(*source);
          return int(kExitOk);
        },
        &a.result);
    if (code != kExitOk) return code;
  }
  const SyntaxProgram& syntax = parsed.syntax;
  // A Python program runs as `adlang run` runs it: under total comparisons unless the session
  // chose (docs/python.md); its definitions come from its lowering, printed as .ad text.
  bool python = py::is_python_path(path);
  if (!predicates_set_ && predicate_mode("", path) != predicates_) {
    predicates_ = predicate_mode("", path);  // the default `adlang run` takes for this file
    opts.predicates = predicates_;
    a.out << "-- predicates " << predicates_name(predicates_) << ", as `adlang run` takes them for "
          << path << " (:set predicates to change)\n";
  }
  const std::string& text = python ? parsed.lowered_text : source->text();
  // Its definitions: from each `def` to its ';'.
  std::vector<Token> toks = tokens_of(text);
  std::vector<std::pair<std::string, std::uint32_t>> texts;  // each with its first line
  for (std::size_t i = 0; i < toks.size(); ++i) {
    if (toks[i].kind != TokenKind::KwDef) continue;
    std::size_t j = i;
    while (j < toks.size() && toks[j].kind != TokenKind::Semicolon)
      ++j;
    if (j == toks.size()) break;
    std::size_t b = offset_of(text, toks[i].loc);
    std::size_t e = offset_of(text, toks[j].loc) + 1;
    texts.emplace_back(text.substr(b, e - b), toks[i].loc.line);
    i = j;
  }
  // Run it as `adlang run` would (its diagnostics point into the file), with the session's
  // inputs for its free variables; without them, only its definitions are loaded.
  std::string missing;
  for (const Name& x : program_inputs(syntax)) {
    bool given = false;
    for (const auto& [name, value] : parsed.default_env)
      given = given || name == x.str();  // a Python script's feed_dict
    for (const Input& in : inputs_) {
      if (in.name == x.str()) {
        opts.env.push_back(in.name + "=" + in.value);
        given = true;
      }
    }
    if (!given) missing += (missing.empty() ? "" : ", ") + x.str();
  }
  int code = kExitOk;
  if (missing.empty()) {
    code = run_command(opts, a.out, a.err, &a.result);
    if (code == kExitCompileError) return code;
  } else {
    a.out << "-- " << path << ": its definitions are loaded; its main term has inputs without "
          << "values (" << missing << "): give them with :env NAME=VALUE to run it\n";
  }
  // A Python program's definitions are those of its lowering (adlang fmt prints it).
  const std::string origin = python ? path + " (as .ad)" : path;
  for (const auto& [t, line] : texts) {
    int c = define(a, t, origin, line);
    if (c != kExitOk) return c;
  }
  return code;
}

int Session::set(Action& a, const std::string& arg) {
  std::istringstream words(arg);
  std::string key, value;
  words >> key >> value;
  if (key.empty()) {
    a.out << "precision " << to_string(precision_) << "\npredicates "
          << predicates_name(predicates_) << "\nad "
          << (ad_ == AdMode::Paper    ? "paper"
              : ad_ == AdMode::Linear ? "linear"
                                      : "tape")
          << "\nfuel " << fuel_.value_or(default_fuel(precision_))
          << (fuel_ ? "" : " (the default at this precision)") << "\n";
    return kExitOk;
  }
  if (key == "precision") {
    if (auto p = parse_precision(value)) {
      precision_ = *p;
      return kExitOk;
    }
    return usage(a, ":set precision takes double, 50, 100 or exact");
  }
  if (key == "predicates" && (value == "strict" || value == "total")) {
    predicates_ = value == "total" ? PredicateMode::Total : PredicateMode::Strict;
    predicates_set_ = true;
    return kExitOk;
  }
  if (key == "ad" && (value == "tape" || value == "linear" || value == "paper")) {
    ad_ = value == "paper" ? AdMode::Paper : value == "linear" ? AdMode::Linear : AdMode::Tape;
    return kExitOk;
  }
  if (key == "fuel") {
    std::size_t used = 0;
    try {
      unsigned long long n = std::stoull(value, &used);
      if (used == value.size() && n > 0 && value.find('-') == std::string::npos) {
        fuel_ = n;
        return kExitOk;
      }
    } catch (const std::exception&) {
    }
    return usage(a, ":set fuel takes a positive number of calls");
  }
  return usage(a, ":set " + arg +
                      ": expected precision double|50|100|exact, predicates strict|total, ad "
                      "tape|linear|paper, or fuel N");
}

int Session::set_input(Action& a, const std::string& arg) {
  std::size_t eq = arg.find('=');
  std::string name = trim(arg.substr(0, eq));
  std::string value = eq == std::string::npos ? "" : trim(arg.substr(eq + 1));
  std::vector<Token> toks = tokens_of(name);
  if (eq == std::string::npos || toks.size() != 2 || toks[0].kind != TokenKind::Ident) {
    return usage(a, ":env expects NAME=VALUE, got '" + arg + "'");
  }
  try {
    parse_value<double>(value);
  } catch (const ValueSyntaxError& e) {
    return usage(a, ":env " + name + ": " + e.what());
  }
  for (Input& in : inputs_) {
    if (in.name == name) {
      in.value = value;
      return kExitOk;
    }
  }
  inputs_.push_back(Input{name, value});
  return kExitOk;
}

std::string Session::snapshot() const {
  std::string s;
  put_field(s, std::to_string(static_cast<int>(precision_)));
  put_field(s, std::to_string(static_cast<int>(predicates_)));
  put_field(s, predicates_set_ ? "1" : "0");
  put_field(s, std::to_string(static_cast<int>(ad_)));
  put_field(s, fuel_ ? std::to_string(*fuel_) : "");
  put_field(s, std::to_string(defs_.size()));
  for (const Def& d : defs_) {
    put_field(s, d.name);
    put_field(s, d.text);
    put_field(s, d.origin);
    put_field(s, std::to_string(d.line));
  }
  put_field(s, std::to_string(inputs_.size()));
  for (const Input& in : inputs_) {
    put_field(s, in.name);
    put_field(s, in.value);
  }
  return s;
}

void Session::restore(const std::string& s) {
  std::size_t at = 0;
  precision_ = static_cast<Precision>(std::stoi(take_field(s, at)));
  predicates_ = static_cast<PredicateMode>(std::stoi(take_field(s, at)));
  predicates_set_ = take_field(s, at) == "1";
  ad_ = static_cast<AdMode>(std::stoi(take_field(s, at)));
  std::string fuel = take_field(s, at);
  fuel_ = fuel.empty() ? std::nullopt : std::optional<std::uint64_t>(std::stoull(fuel));
  // The definitions' texts, checked again together (they were checked so when saved).
  defs_.clear();
  text_.clear();
  text_lines_ = 0;
  pieces_.clear();
  names_ = NameSupply();
  std::vector<SyntaxDef> syntax;
  for (std::size_t n = std::stoul(take_field(s, at)); n > 0; --n) {
    std::string name = take_field(s, at);
    std::string text = take_field(s, at);
    std::string origin = take_field(s, at);
    Def d{name, {}, {}, text, origin, std::uint32_t(std::stoul(take_field(s, at)))};
    SyntaxProgram parsed = parse_program(text + "\n()", append_text(text, origin, d.line));
    for (const Name& id : parsed.identifiers)
      names_.reserve(id);
    d.syntax = parsed.defs;
    syntax.insert(syntax.end(), parsed.defs.begin(), parsed.defs.end());
    defs_.push_back(std::move(d));
  }
  std::vector<FunDef> checked = check_definitions({}, syntax, names_);
  auto next = checked.begin();
  for (Def& d : defs_) {
    d.checked.assign(next, next + static_cast<std::ptrdiff_t>(d.syntax.size()));
    next += static_cast<std::ptrdiff_t>(d.syntax.size());
  }
  inputs_.clear();
  for (std::size_t n = std::stoul(take_field(s, at)); n > 0; --n) {
    std::string name = take_field(s, at);
    inputs_.push_back(Input{name, take_field(s, at)});
  }
}

}  // namespace adlang
