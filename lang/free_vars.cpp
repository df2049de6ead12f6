#include "lang/free_vars.hpp"
#include "lang/mentioned_names.hpp"

#include <unordered_map>
#include <utility>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/term_visitor.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

// Walks a term, tracking how many times each name is bound in the current scope.
class FreeVarWalker {
 public:
  explicit FreeVarWalker(NameSet& out) : out_(out) {}

  void term(const Term& t) {
    const StackScope stack_scope = check_stack("a term is nested too deeply");
    switch (t.kind()) {
      case TermKind::Var: {
        Name x = t.as<Var>()->name;
        auto it = bound_.find(x);
        if (it == bound_.end() || it->second == 0) out_.insert(x);
        return;
      }
      case TermKind::Literal:
      case TermKind::Unit:
        return;
      case TermKind::Add:
        term(t.as<Add>()->lhs);
        term(t.as<Add>()->rhs);
        return;
      case TermKind::Op:
        term(t.as<OpApp>()->arg);
        return;
      case TermKind::Let: {
        const Let* l = t.as<Let>();
        term(l->bound);
        under(l->var, l->body);
        return;
      }
      case TermKind::Pair:
        term(t.as<Pair>()->first);
        term(t.as<Pair>()->second);
        return;
      case TermKind::Fst:
        term(t.as<Fst>()->arg);
        return;
      case TermKind::Snd:
        term(t.as<Snd>()->arg);
        return;
      case TermKind::If: {
        const If* i = t.as<If>();
        boolean(i->guard);
        term(i->then_branch);
        term(i->else_branch);
        return;
      }
      case TermKind::LetRec: {
        const LetRec* l = t.as<LetRec>();
        for (const FunDef& d : l->defs)
          under(d.param, d.body);
        term(l->body);
        return;
      }
      case TermKind::Call:
        term(t.as<Call>()->arg);
        return;
      case TermKind::Rd: {
        const Rd* r = t.as<Rd>();
        term(r->cotangent);
        term(r->point);
        under(r->var, r->body);
        return;
      }
    }
  }

  void boolean(const BoolTerm& b) {
    if (const PredApp* p = b.as<PredApp>()) term(p->arg);
  }

 private:
  NameSet& out_;
  std::unordered_map<Name, int, NameHash> bound_;

  void under(Name x, const Term& body) {
    ++bound_[x];
    term(body);
    --bound_[x];
  }
};

// Walks with an explicit stack (not recursion): traces of long loops are let chains a million
// deep, and this runs on every trace R differentiates.
// Calls `each` on every variable and function name occurring in a term, bound or free.
template <class F>
class NameWalker {
 public:
  explicit NameWalker(F each) : each_(std::move(each)) {}

  void term(const Term& root) {
    std::vector<Term> todo{root};
    while (!todo.empty()) {
      Term t = std::move(todo.back());
      todo.pop_back();
      switch (t.kind()) {
        case TermKind::Var:
          each_(t.as<Var>()->name);
          break;
        case TermKind::Let:
          each_(t.as<Let>()->var);
          break;
        case TermKind::LetRec:
          for (const FunDef& d : t.as<LetRec>()->defs) {
            each_(d.name);
            each_(d.param);
          }
          break;
        case TermKind::Call:
          each_(t.as<Call>()->fun.name);
          break;
        case TermKind::Rd:
          each_(t.as<Rd>()->var);
          break;
        case TermKind::Literal:
        case TermKind::Add:
        case TermKind::Op:
        case TermKind::Unit:
        case TermKind::Pair:
        case TermKind::Fst:
        case TermKind::Snd:
        case TermKind::If:
          break;
      }
      for_each_subterm(t, [&](const Term& c) { todo.push_back(c); });
    }
  }

 private:
  F each_;
};

}  // namespace

void add_free_vars(const Term& t, NameSet& out) {
  FreeVarWalker(out).term(t);
}

NameSet free_vars(const Term& t) {
  NameSet out;
  add_free_vars(t, out);
  return out;
}

bool occurs_free(Name x, const Term& t) {
  return free_vars(t).count(x) > 0;
}

void reserve_names(const Term& t, NameSupply& names) {
  NameWalker([&](Name n) { names.reserve(n); }).term(t);
}

NameSet mentioned_names(const Term& t) {
  NameSet out;
  NameWalker([&](Name n) { out.insert(n); }).term(t);
  return out;
}

}  // namespace adlang
