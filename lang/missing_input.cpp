#include "lang/missing_input.hpp"

#include <algorithm>
#include <optional>

#include "lang/near_miss.hpp"
#include "support/setting_hint.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

// The first free occurrence of x in a main term, with the variables and functions in scope
// there. Function bodies are not searched: a free name in one is a type error, not an input.
class FirstOccurrence {
 public:
  explicit FirstOccurrence(Name x) : x_(x) {}

  std::vector<Name> vars, funs;  // in scope, innermost last
  SourceLoc loc;
  std::vector<Name> vars_there, funs_there;

  bool found() const { return loc.known(); }

  void term(const Syntax& s) {
    const StackScope stack_scope = check_stack("the program is nested too deeply");
    if (found()) return;
    switch (s->kind) {
      case SyntaxKind::Var:
        if (s->name == x_ && std::find(vars.begin(), vars.end(), x_) == vars.end()) {
          loc = s->loc;
          vars_there = vars;
          funs_there = funs;
        }
        return;
      case SyntaxKind::Let:
      case SyntaxKind::TupleLet:
        term(s->kids[0]);
        with(s->binders, s->kids[1]);
        return;
      case SyntaxKind::LetFun:
      case SyntaxKind::LetRec:
        funs.push_back(s->name);
        term(s->kids[1]);
        funs.pop_back();
        return;
      case SyntaxKind::Rd:
      case SyntaxKind::Fd:
        term(s->kids[0]);
        term(s->kids[1]);
        with(s->binders, s->kids[2]);
        return;
      case SyntaxKind::Grad:
        term(s->kids[0]);
        with(s->binders, s->kids[1]);
        return;
      default:
        for (const Syntax& k : s->kids)
          term(k);
        return;
    }
  }

 private:
  Name x_;

  void with(const std::vector<Binder>& binders, const Syntax& body) {
    for (const Binder& b : binders)
      vars.push_back(b.name);
    term(body);
    vars.resize(vars.size() - binders.size());
  }
};

}  // namespace

MissingInput missing_input(const SyntaxProgram& program, Name x,
                           const std::vector<std::string>& valued,
                           const std::vector<Name>& functions) {
  FirstOccurrence at(x);
  at.funs = functions;
  for (const SyntaxDef& d : program.defs)
    at.funs.push_back(d.name);
  at.term(program.main);
  const std::string name = x.str();
  if (std::find(at.funs_there.begin(), at.funs_there.end(), x) != at.funs_there.end()) {
    return MissingInput{Diagnostic{Severity::Error,
                                   at.loc,
                                   "'" + name + "' is a function, not a value",
                                   {"call it: " + name + "(...)"}},
                        true};
  }
  std::vector<std::string> candidates;
  for (auto v = at.vars_there.rbegin(); v != at.vars_there.rend(); ++v)
    candidates.push_back(v->str());
  candidates.insert(candidates.end(), valued.begin(), valued.end());
  std::vector<std::string> notes;
  if (std::optional<std::string> near = did_you_mean(name, candidates)) notes.push_back(*near);
  notes.push_back("a program's free variables are its inputs: give it a value with " +
                  setting_hint(Setting::Input, name + "=VALUE"));
  return MissingInput{
      Diagnostic{Severity::Error, at.loc, "input '" + name + "' has no value", std::move(notes)},
      false};
}

}  // namespace adlang
