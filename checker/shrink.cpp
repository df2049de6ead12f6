#include "checker/shrink.hpp"

#include <algorithm>

#include "checker/term_edit.hpp"
#include "lang/free_vars.hpp"
#include "lang/vector_space.hpp"

namespace adlang::checker {

namespace {

std::vector<TypedName> typed(const std::vector<Input>& inputs) {
  std::vector<TypedName> g;
  for (const Input& in : inputs)
    g.push_back(TypedName{in.name, in.type});
  return g;
}

// A constant of type t, simplest first.
std::vector<Term> constants(Type t) {
  if (t.is_real()) return {mk::literal("0"), mk::literal("1")};
  return {make_zero(t)};
}

// Candidate programs, roughly largest reduction first.
std::vector<Program> candidates(const Program& p) {
  std::vector<Program> out;
  // Drop an input the term does not use.
  NameSet fv = free_vars(p.term);
  for (std::size_t i = 0; i < p.inputs.size(); ++i) {
    if (!fv.count(p.inputs[i].name)) {
      Program q = p;
      q.inputs.erase(q.inputs.begin() + static_cast<std::ptrdiff_t>(i));
      out.push_back(q);
    }
  }
  // Replace a subterm by a subterm of the same type, or by a constant.
  std::vector<Term> subs = subterms(p.term);
  for (std::size_t i = 0; i < subs.size(); ++i) {
    const Term& s = subs[i];
    std::vector<Term> repl;
    std::vector<Term> inner = subterms(s);
    for (std::size_t j = 1; j < inner.size(); ++j)
      if (inner[j].type() == s.type()) repl.push_back(inner[j]);
    if (!is_value(s))
      for (const Term& c : constants(s.type()))
        repl.push_back(c);
    else if (s.kind() == TermKind::Var ||
             (s.kind() == TermKind::Literal && s.as<Literal>()->text != "0" &&
              s.as<Literal>()->text != "1"))
      for (const Term& c : constants(s.type()))
        repl.push_back(c);
    for (const Term& r : repl) {
      Term t = replace_subterm(p.term, i, r);
      if (t && !t.same_as(p.term)) out.push_back(Program{t, p.inputs});
    }
  }
  // Simpler input values.
  for (std::size_t i = 0; i < p.inputs.size(); ++i) {
    for (std::size_t j = 0; j < p.inputs[i].scalars.size(); ++j) {
      for (const char* simple : {"0", "1"}) {
        if (p.inputs[i].scalars[j] == simple || p.inputs[i].scalars[j] == "0") continue;
        Program q = p;
        q.inputs[i].scalars[j] = simple;
        out.push_back(q);
      }
    }
  }
  return out;
}

}  // namespace

Program shrink(const Program& failing, const std::function<bool(const Program&)>& still_fails,
               unsigned max_candidates, ShrinkStats* stats) {
  Program current = failing;
  ShrinkStats st;
  bool improved = true;
  while (improved && st.candidates < max_candidates) {
    improved = false;
    for (const Program& c : candidates(current)) {
      if (st.candidates >= max_candidates) break;
      if (node_count(c.term) > node_count(current.term)) continue;
      if (!well_scoped(c.term, typed(c.inputs))) continue;
      ++st.candidates;
      if (still_fails(c)) {
        current = c;
        ++st.steps;
        improved = true;
        break;
      }
    }
  }
  if (stats) *stats = st;
  return current;
}

}  // namespace adlang::checker
