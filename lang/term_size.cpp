#include "lang/term_size.hpp"

#include <unordered_map>
#include <utility>
#include <vector>

#include "lang/term_visitor.hpp"

namespace adlang {

// Post-order with an explicit stack (traces of loops are let chains a million deep), each
// distinct node measured once.
TermSize term_size(const Term& root) {
  std::unordered_map<const TermNode*, double> memo;
  std::vector<std::pair<Term, bool>> stack;
  stack.emplace_back(root, false);
  while (!stack.empty()) {
    auto& [t, expanded] = stack.back();
    if (memo.count(t.get())) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      expanded = true;
      Term node = t;  // `stack` may reallocate below
      for_each_subterm(node, [&](const Term& c) {
        if (!memo.count(c.get())) stack.emplace_back(c, false);
      });
      continue;
    }
    Term node = t;
    stack.pop_back();
    double n = 1;
    double extra = for_each_subterm(node, [&](const Term& c) { n += memo.at(c.get()); });
    n += extra;
    memo.emplace(node.get(), n);
  }
  TermSize s;
  s.tree = memo.at(root.get());
  s.dag = memo.size();
  return s;
}

}  // namespace adlang
