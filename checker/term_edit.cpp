#include "checker/term_edit.hpp"

#include <algorithm>

#include "lang/diagnostics.hpp"
#include "lang/resolve.hpp"
#include "lang/term_visitor.hpp"
#include "lang/verifier.hpp"
#include "support/stack.hpp"

namespace adlang::checker {

namespace {

void collect(const Term& t, std::vector<Term>& out) {
  const StackScope stack_scope = check_stack("the term is nested too deeply");
  out.push_back(t);
  for (const Term& k : subterms_of(t))
    collect(k, out);
}

constexpr std::size_t kDone = std::size_t(-1);

Term replace_at(const Term& t, std::size_t& index, const Term& by) {
  if (index == kDone) return t;
  if (index == 0) {
    index = kDone;
    return by;
  }
  --index;
  std::vector<Term> k = subterms_of(t);
  for (Term& c : k)
    c = replace_at(c, index, by);
  return with_subterms(t, k);
}

}  // namespace

bool well_scoped(const Term& t, const std::vector<TypedName>& inputs) {
  return !ir_violation(t, inputs, FunIds::MayBeUnresolved).has_value();
}

std::vector<Term> subterms(const Term& t) {
  std::vector<Term> out;
  collect(t, out);
  return out;
}

Term replace_subterm(const Term& t, std::size_t index, const Term& by) {
  try {
    std::size_t i = index;
    // Resolved again: a call moved into the scope of another function of its name calls that one.
    return resolve_functions(replace_at(t, i, by));
  } catch (const InternalError&) {
    return Term();
  }
}

std::size_t node_count(const Term& t) {
  return subterms(t).size();
}

bool is_polynomial_term(const Term& t) {
  for (const Term& s : subterms(t))
    if (const OpApp* o = s.as<OpApp>(); o && !o->op.is_polynomial()) return false;
  return true;
}

}  // namespace adlang::checker
