#include "lang/alpha.hpp"

#include <unordered_map>
#include <vector>

#include "support/stack.hpp"

namespace adlang {

namespace {

// Each side maps a bound name to the stack of binding levels it currently denotes; a bound
// occurrence on both sides must refer to binders made at the same level.
class Side {
 public:
  void bind(Name x, int level) { map_[x].push_back(level); }
  void unbind(Name x) { map_[x].pop_back(); }
  // The level x is bound at, or -1 if free.
  int level(Name x) const {
    auto it = map_.find(x);
    return it == map_.end() || it->second.empty() ? -1 : it->second.back();
  }

 private:
  std::unordered_map<Name, std::vector<int>, NameHash> map_;
};

class AlphaEq {
 public:
  bool term(const Term& a, const Term& b) {
    const StackScope stack_scope = check_stack("a term is nested too deeply to compare");
    if (a.same_as(b) && depth_ == 0) return true;
    if (a.kind() != b.kind() || a.type() != b.type()) return false;
    switch (a.kind()) {
      case TermKind::Var:
        return same_var(vars_a_, a.as<Var>()->name, vars_b_, b.as<Var>()->name);
      case TermKind::Literal:
        return a.as<Literal>()->text == b.as<Literal>()->text;
      case TermKind::Unit:
        return true;
      case TermKind::Add:
        return term(a.as<Add>()->lhs, b.as<Add>()->lhs) && term(a.as<Add>()->rhs, b.as<Add>()->rhs);
      case TermKind::Op:
        return a.as<OpApp>()->op == b.as<OpApp>()->op &&
               term(a.as<OpApp>()->arg, b.as<OpApp>()->arg);
      case TermKind::Let: {
        const Let *x = a.as<Let>(), *y = b.as<Let>();
        return term(x->bound, y->bound) && under(x->var, y->var, x->body, y->body);
      }
      case TermKind::Pair:
        return term(a.as<Pair>()->first, b.as<Pair>()->first) &&
               term(a.as<Pair>()->second, b.as<Pair>()->second);
      case TermKind::Fst:
        return term(a.as<Fst>()->arg, b.as<Fst>()->arg);
      case TermKind::Snd:
        return term(a.as<Snd>()->arg, b.as<Snd>()->arg);
      case TermKind::If: {
        const If *x = a.as<If>(), *y = b.as<If>();
        return boolean(x->guard, y->guard) && term(x->then_branch, y->then_branch) &&
               term(x->else_branch, y->else_branch);
      }
      case TermKind::LetRec:
        return letrec(*a.as<LetRec>(), *b.as<LetRec>());
      case TermKind::Call: {
        const Call *x = a.as<Call>(), *y = b.as<Call>();
        return x->param_type == y->param_type &&
               same_var(funs_a_, x->fun.name, funs_b_, y->fun.name) && term(x->arg, y->arg);
      }
      case TermKind::Rd: {
        const Rd *x = a.as<Rd>(), *y = b.as<Rd>();
        return term(x->cotangent, y->cotangent) && term(x->point, y->point) &&
               under(x->var, y->var, x->body, y->body);
      }
    }
    return false;
  }

  bool boolean(const BoolTerm& a, const BoolTerm& b) {
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
      case BoolKind::Const:
        return a.as<BoolConst>()->value == b.as<BoolConst>()->value;
      case BoolKind::Pred:
        return a.as<PredApp>()->pred == b.as<PredApp>()->pred &&
               term(a.as<PredApp>()->arg, b.as<PredApp>()->arg);
    }
    return false;
  }

 private:
  Side vars_a_, vars_b_, funs_a_, funs_b_;
  int depth_ = 0;  // number of binders entered; shared subterms are equal only at depth 0

  static bool same_var(const Side& sa, Name a, const Side& sb, Name b) {
    int la = sa.level(a), lb = sb.level(b);
    if (la < 0 && lb < 0) return a == b;  // both free: same name
    return la == lb;
  }

  bool under(Name xa, Name xb, const Term& a, const Term& b) {
    int level = depth_++;
    vars_a_.bind(xa, level);
    vars_b_.bind(xb, level);
    bool eq = term(a, b);
    vars_a_.unbind(xa);
    vars_b_.unbind(xb);
    --depth_;
    return eq;
  }

  bool letrec(const LetRec& a, const LetRec& b) {
    if (a.defs.size() != b.defs.size()) return false;
    int base = depth_;
    depth_ += static_cast<int>(a.defs.size());
    for (std::size_t i = 0; i < a.defs.size(); ++i) {
      funs_a_.bind(a.defs[i].name, base + static_cast<int>(i));
      funs_b_.bind(b.defs[i].name, base + static_cast<int>(i));
    }
    bool eq = true;
    for (std::size_t i = 0; eq && i < a.defs.size(); ++i) {
      const FunDef &da = a.defs[i], &db = b.defs[i];
      eq = da.param_type == db.param_type && da.result_type == db.result_type &&
           under(da.param, db.param, da.body, db.body);
    }
    eq = eq && term(a.body, b.body);
    for (std::size_t i = 0; i < a.defs.size(); ++i) {
      funs_a_.unbind(a.defs[i].name);
      funs_b_.unbind(b.defs[i].name);
    }
    depth_ = base;
    return eq;
  }
};

}  // namespace

bool alpha_equivalent(const Term& a, const Term& b) {
  return AlphaEq().term(a, b);
}
bool alpha_equivalent(const BoolTerm& a, const BoolTerm& b) {
  return AlphaEq().boolean(a, b);
}

}  // namespace adlang
