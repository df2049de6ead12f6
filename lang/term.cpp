#include "lang/term.hpp"

#include <cstdlib>
#include <string>
#include <utility>

#include "lang/diagnostics.hpp"
#include "support/stack.hpp"

namespace adlang {

const char* to_string(TermKind k) {
  switch (k) {
    case TermKind::Var:
      return "variable";
    case TermKind::Literal:
      return "literal";
    case TermKind::Add:
      return "addition";
    case TermKind::Op:
      return "operator application";
    case TermKind::Let:
      return "let";
    case TermKind::Unit:
      return "unit";
    case TermKind::Pair:
      return "pair";
    case TermKind::Fst:
      return "fst";
    case TermKind::Snd:
      return "snd";
    case TermKind::If:
      return "conditional";
    case TermKind::LetRec:
      return "letrec";
    case TermKind::Call:
      return "function call";
    case TermKind::Rd:
      return "rd";
  }
  return "term";
}

namespace {

// `detail` is a function making the message, so that it is built only on failure (these
// factories are on every hot path: R, symbolic evaluation, the checker's generators).
template <class Detail>
void require(bool ok, const char* rule, Detail&& detail) {
  if (!ok) throw InternalError(std::string("internal error: ill-typed ") + rule + ": " + detail());
}

std::string mismatch(Type expected, Type got) {
  return "expected " + to_string(expected) + ", got " + to_string(got);
}

}  // namespace

bool is_literal_text(const std::string& text) {
  std::size_t i = 0, n = text.size();
  auto digits = [&]() {
    std::size_t start = i;
    while (i < n && text[i] >= '0' && text[i] <= '9')
      ++i;
    return i > start;
  };
  if (i < n && text[i] == '-') ++i;
  if (!digits()) return false;
  if (i < n && text[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

namespace mk {

Term var(Name x, Type t, SourceLoc loc) {
  require(!x.empty() && bool(t), "variable",
          [&] { return std::string("needs a name and a type"); });
  return Term(new Var(x, t, loc));
}

Term literal(const std::string& text, SourceLoc loc) {
  require(is_literal_text(text), "literal",
          [&] { return std::string("not a decimal number: '" + text + "'"); });
  // A whole number of up to 15 digits (as R's zeros, "0") is exact in a double: strtod's value
  // without strtod.
  if (text.size() <= 15 && text.find_first_not_of("0123456789") == std::string::npos) {
    double v = 0;
    for (char c : text)
      v = 10 * v + (c - '0');
    return Term(new Literal(text, v, loc));
  }
  return Term(new Literal(text, std::strtod(text.c_str(), nullptr), loc));
}

// Fig. 1: M : real, N : real |- M + N : real.
Term add(Term a, Term b, SourceLoc loc) {
  require(a.type().is_real(), "addition",
          [&] { return std::string(mismatch(Type::real(), a.type())); });
  require(b.type().is_real(), "addition",
          [&] { return std::string(mismatch(Type::real(), b.type())); });
  return Term(new Add(std::move(a), std::move(b), loc));
}

// Fig. 1: M : T |- op(M) : U for op : T -> U.
Term op(Op o, Term arg, SourceLoc loc) {
  require(arg.type() == o.arg_type(), "operator application",
          [&] { return std::string(o.name() + ": " + mismatch(o.arg_type(), arg.type())); });
  return Term(new OpApp(o, std::move(arg), loc));
}

Term op(Op o, Term a, Term b, SourceLoc loc) {
  return op(o, pair(std::move(a), std::move(b), loc), loc);
}

// Fig. 1: M : T, x:T |- N : U gives let x:T = M in N : U.
Term let(Name x, Type t, Term bound, Term body, SourceLoc loc) {
  require(!x.empty(), "let", [&] { return std::string("needs a variable name"); });
  require(bound.type() == t, "let",
          [&] { return std::string(x.str() + ": " + mismatch(t, bound.type())); });
  return Term(new Let(x, std::move(bound), std::move(body), loc));
}

Term unit(SourceLoc loc) {
  return Term(new UnitVal(loc));
}

Term pair(Term a, Term b, SourceLoc loc) {
  return Term(new Pair(std::move(a), std::move(b), loc));
}

Term fst(Term a, SourceLoc loc) {
  require(a.type().is_pair(), "fst",
          [&] { return std::string("argument of type " + to_string(a.type())); });
  return Term(new Fst(std::move(a), loc));
}

Term snd(Term a, SourceLoc loc) {
  require(a.type().is_pair(), "snd",
          [&] { return std::string("argument of type " + to_string(a.type())); });
  return Term(new Snd(std::move(a), loc));
}

Term if_(BoolTerm guard, Term then_branch, Term else_branch, SourceLoc loc) {
  require(bool(guard), "conditional", [&] { return std::string("needs a guard"); });
  require(then_branch.type() == else_branch.type(), "conditional", [&] {
    return std::string("branches: " + mismatch(then_branch.type(), else_branch.type()));
  });
  return Term(new If(std::move(guard), std::move(then_branch), std::move(else_branch), loc));
}

// Fig. 1: Phi[f:T->U] | x:T |- M : U and Phi[f:T->U] | Gamma |- N : S.
Term letrec(std::vector<FunDef> defs, Term body, SourceLoc loc) {
  require(!defs.empty(), "letrec", [&] { return std::string("binds no function"); });
  for (const FunDef& d : defs) {
    require(!d.name.empty() && !d.param.empty(), "letrec",
            [&] { return std::string("function needs names"); });
    require(d.body.type() == d.result_type, "letrec", [&] {
      return std::string(d.name.str() + ": " + mismatch(d.result_type, d.body.type()));
    });
  }
  return Term(new LetRec(std::move(defs), std::move(body), loc));
}

// Fig. 1: M : T |- f(M) : U for f : T -> U in Phi.
Term call(FunRef f, Type param_type, Type result_type, Term arg, SourceLoc loc) {
  require(arg.type() == param_type, "call",
          [&] { return std::string(f.name.str() + ": " + mismatch(param_type, arg.type())); });
  return Term(new Call(f, param_type, result_type, std::move(arg), loc));
}

// Fig. 1: Gamma[x:T] |- N : U, L : T, M : U gives M.rd_L(x:T. N) : T.
Term rd(Term cotangent, Term point, Name x, Type t, Term body, SourceLoc loc) {
  require(point.type() == t, "rd point", [&] { return std::string(mismatch(t, point.type())); });
  require(cotangent.type() == body.type(), "rd cotangent",
          [&] { return std::string(mismatch(body.type(), cotangent.type())); });
  return Term(new Rd(std::move(cotangent), std::move(point), x, std::move(body), loc));
}

BoolTerm bool_const(bool v, SourceLoc loc) {
  return BoolTerm(new BoolConst(v, loc));
}

// Fig. 1: M : T |- pred(M) for pred : T.
BoolTerm pred(Pred p, Term arg, SourceLoc loc) {
  require(arg.type() == p.arg_type(), "predicate",
          [&] { return std::string(p.name() + ": " + mismatch(p.arg_type(), arg.type())); });
  return BoolTerm(new PredApp(p, std::move(arg), loc));
}

}  // namespace mk

bool is_value(const Term& t) {
  const StackScope stack_scope = check_stack("a value is nested too deeply");
  switch (t.kind()) {
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
      return true;
    case TermKind::Pair: {
      const Pair* p = t.as<Pair>();
      return is_value(p->first) && is_value(p->second);
    }
    case TermKind::Add:
    case TermKind::Op:
    case TermKind::Let:
    case TermKind::Fst:
    case TermKind::Snd:
    case TermKind::If:
    case TermKind::LetRec:
    case TermKind::Call:
    case TermKind::Rd:
      return false;
  }
  return false;
}

bool is_trace_term(const Term& t) {
  const StackScope stack_scope = check_stack("a term is nested too deeply");
  switch (t.kind()) {
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
      return true;
    case TermKind::Add:
      return is_trace_term(t.as<Add>()->lhs) && is_trace_term(t.as<Add>()->rhs);
    case TermKind::Op:
      return is_trace_term(t.as<OpApp>()->arg);
    case TermKind::Let:
      return is_trace_term(t.as<Let>()->bound) && is_trace_term(t.as<Let>()->body);
    case TermKind::Pair:
      return is_trace_term(t.as<Pair>()->first) && is_trace_term(t.as<Pair>()->second);
    case TermKind::Fst:
      return is_trace_term(t.as<Fst>()->arg);
    case TermKind::Snd:
      return is_trace_term(t.as<Snd>()->arg);
    case TermKind::If:
    case TermKind::LetRec:
    case TermKind::Call:
    case TermKind::Rd:
      return false;
  }
  return false;
}

}  // namespace adlang
