#include "lang/term_size.hpp"

#include <unordered_map>

#include "lang/stack.hpp"

namespace adlang {

namespace {

class SizeCounter {
 public:
  double tree(const Term& t) {
    auto it = memo_.find(t.get());
    if (it != memo_.end()) return it->second;
    check_stack("a term is nested too deeply to measure");
    double n = 1;
    switch (t.kind()) {
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
        break;
      case TermKind::Add:
        n += tree(t.as<Add>()->lhs) + tree(t.as<Add>()->rhs);
        break;
      case TermKind::Op:
        n += tree(t.as<OpApp>()->arg);
        break;
      case TermKind::Let:
        n += tree(t.as<Let>()->bound) + tree(t.as<Let>()->body);
        break;
      case TermKind::Pair:
        n += tree(t.as<Pair>()->first) + tree(t.as<Pair>()->second);
        break;
      case TermKind::Fst:
        n += tree(t.as<Fst>()->arg);
        break;
      case TermKind::Snd:
        n += tree(t.as<Snd>()->arg);
        break;
      case TermKind::If: {
        const If* i = t.as<If>();
        if (const PredApp* p = i->guard.as<PredApp>())
          n += 1 + tree(p->arg);
        else
          n += 1;
        n += tree(i->then_branch) + tree(i->else_branch);
        break;
      }
      case TermKind::LetRec:
        for (const FunDef& d : t.as<LetRec>()->defs)
          n += tree(d.body);
        n += tree(t.as<LetRec>()->body);
        break;
      case TermKind::Call:
        n += tree(t.as<Call>()->arg);
        break;
      case TermKind::Rd:
        n += tree(t.as<Rd>()->cotangent) + tree(t.as<Rd>()->point) + tree(t.as<Rd>()->body);
        break;
    }
    memo_.emplace(t.get(), n);
    return n;
  }
  std::uint64_t distinct() const { return memo_.size(); }

 private:
  std::unordered_map<const TermNode*, double> memo_;
};

}  // namespace

TermSize term_size(const Term& t) {
  SizeCounter c;
  TermSize s;
  s.tree = c.tree(t);
  s.dag = c.distinct();
  return s;
}

}  // namespace adlang
