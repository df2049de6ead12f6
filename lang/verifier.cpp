#include "lang/verifier.hpp"

#include <cstdlib>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "lang/diagnostics.hpp"
#include "lang/name_index.hpp"
#include "lang/term_visitor.hpp"

namespace adlang {

namespace {

// Thrown inside the walk to stop at the first violation.
struct Violation {
  std::string what;
};

class Verifier : public TermMutator {
 public:
  Verifier(const std::vector<TypedName>& inputs, FunIds ids, bool open = false)
      : ids_(ids), open_(open) {
    for (const TypedName& in : inputs)
      bind(in.name, in.type);
  }

 protected:
  Term pre(const Term& t) override {
    if (const Var* v = t.as<Var>()) {
      const Binding* found = lookup(v->name);
      if (open_ && !found) {
        // A free variable of an open term: an input whose type its first occurrence gives.
        found = &(open_inputs_[v->name] = Binding{t.type(), 0});
      }
      if (!found) fail(t, "variable '" + v->name.str() + "' is not bound");
      const Binding& b = *found;
      if (b.fun_depth != fun_depth_)
        fail(t, "variable '" + v->name.str() +
                    "' is used in a function body that does not bind it (Fig. 1: the body of "
                    "f(x:T):U = M has no free variable but x)");
      same(t, b.type, t.type(), "the variable's type");
    }
    return Term();
  }

  // Binders: a let's variable is in scope in its body (subterm 1), an rd's in its body (2), a
  // letrec's functions in all its subterms and each parameter in its function's body.
  void enter_subterm(const Term& t, std::size_t i) override {
    if (const Let* l = t.as<Let>(); l && i == 1) bind(l->var, l->bound.type());
    if (const Rd* r = t.as<Rd>(); r && i == 2) bind(r->var, r->point.type());
    if (const LetRec* l = t.as<LetRec>()) {
      if (i == 0) enter_group(t, *l);
      if (i < l->defs.size()) {
        ++fun_depth_;
        bind(l->defs[i].param, l->defs[i].param_type);
      }
    }
  }

  void leave_subterm(const Term& t, std::size_t i) override {
    if (const Let* l = t.as<Let>(); l && i == 1) unbind(l->var);
    if (const Rd* r = t.as<Rd>(); r && i == 2) unbind(r->var);
    if (const LetRec* l = t.as<LetRec>()) {
      if (i < l->defs.size()) {
        unbind(l->defs[i].param);
        --fun_depth_;
      } else {
        for (const FunDef& d : l->defs)
          phi_[d.name].pop_back();
      }
    }
  }

  // The typing rule of Fig. 1 for t, given its subterms' types.
  Term post(const Term& t, const Term&) override {
    switch (t.kind()) {
      case TermKind::Var:
        break;  // checked in pre
      case TermKind::Literal:
        if (!is_literal_text(t.as<Literal>()->text)) fail(t, "the literal is not a decimal number");
        same(t, Type::real(), t.type(), "a literal's type");
        break;
      case TermKind::Add:
        same(t, Type::real(), t.as<Add>()->lhs.type(), "the left operand of +");
        same(t, Type::real(), t.as<Add>()->rhs.type(), "the right operand of +");
        same(t, Type::real(), t.type(), "the type of M + N");
        break;
      case TermKind::Op: {
        const OpApp* o = t.as<OpApp>();
        same(t, o->op.arg_type(), o->arg.type(), "the argument of " + o->op.name());
        same(t, o->op.result_type(), t.type(), "the type of " + o->op.name() + "(M)");
        break;
      }
      case TermKind::Let:
        same(t, t.as<Let>()->body.type(), t.type(), "the type of let x = M in N (N's)");
        break;
      case TermKind::Unit:
        same(t, Type::unit(), t.type(), "the type of *");
        break;
      case TermKind::Pair: {
        const Pair* p = t.as<Pair>();
        same(t, Type::pair(p->first.type(), p->second.type()), t.type(), "the type of <M, N>");
        break;
      }
      case TermKind::Fst:
      case TermKind::Snd: {
        Type a = t.kind() == TermKind::Fst ? t.as<Fst>()->arg.type() : t.as<Snd>()->arg.type();
        if (!a.is_pair()) fail(t, "the argument of a projection has type " + to_string(a));
        same(t, t.kind() == TermKind::Fst ? a.first() : a.second(), t.type(),
             "the type of a projection");
        break;
      }
      case TermKind::If: {
        const If* i = t.as<If>();
        if (!i->guard) fail(t, "the conditional has no guard");
        if (const PredApp* p = i->guard.as<PredApp>())
          same(t, p->pred.arg_type(), p->arg.type(), "the argument of " + p->pred.name());
        same(t, t.type(), i->then_branch.type(), "the then branch");
        same(t, t.type(), i->else_branch.type(), "the else branch");
        break;
      }
      case TermKind::LetRec: {
        const LetRec* l = t.as<LetRec>();
        for (const FunDef& d : l->defs)
          same(t, d.result_type, d.body.type(), "the body of function '" + d.name.str() + "'");
        same(t, l->body.type(), t.type(), "the type of letrec ... in N (N's)");
        break;
      }
      case TermKind::Call:
        call(t, *t.as<Call>());
        break;
      case TermKind::Rd: {
        const Rd* r = t.as<Rd>();
        same(t, r->body.type(), r->cotangent.type(), "the cotangent of rd (the body's type)");
        same(t, r->point.type(), t.type(), "the type of M.rd_L(x:T. N) (T)");
        break;
      }
    }
    return t;
  }

 private:
  struct Binding {
    Type type;
    int fun_depth;  // the number of function bodies around the binder
  };

  FunIds ids_;
  bool open_;  // free variables are inputs (of the type of their first occurrence)
  // Gamma: the binders in scope, innermost last (binders nest: each is unbound before any bound
  // outside it), and each name's innermost one (NameIndex's scopes, not a node-based map of
  // vectors allocated twice per name: R's output, Fig. 6, binds a fresh name per let).
  struct Bound {
    Name name;
    Binding binding;
    std::uint32_t shadowed;  // the index in gamma_ of the binder of name this one hides
  };
  std::vector<Bound> gamma_;
  NameIndex innermost_;
  std::unordered_map<Name, Binding, NameHash> open_inputs_;  // open_: the free variables met
  std::unordered_map<Name, std::vector<const FunDef*>, NameHash> phi_;
  std::unordered_set<std::uint32_t> seen_ids_;
  int fun_depth_ = 0;

  [[noreturn]] static void fail(const Term& t, const std::string& what) {
    std::string where =
        t.loc().known() ? " at " + std::to_string(t.loc().line) + ":" + std::to_string(t.loc().col)
                        : "";
    throw Violation{std::string(to_string(t.kind())) + where + ": " + what};
  }

  static void same(const Term& t, Type expected, Type got, const std::string& what) {
    if (!(expected == got))
      fail(t, what + " has type " + to_string(got) + ", expected " + to_string(expected));
  }

  const Binding* lookup(Name x) const {
    const std::uint32_t i = innermost_.find(x);
    if (i != NameIndex::kNone) return &gamma_[i].binding;
    auto it = open_inputs_.find(x);
    return it == open_inputs_.end() ? nullptr : &it->second;
  }
  void bind(Name x, Type type) {
    const std::uint32_t i = static_cast<std::uint32_t>(gamma_.size());
    gamma_.push_back(Bound{x, Binding{type, fun_depth_}, innermost_.enter(x, i)});
  }
  void unbind(Name x) {
    internal_check(!gamma_.empty() && gamma_.back().name == x, "the verifier's scopes do not nest");
    innermost_.leave(x, gamma_.back().shadowed);
    gamma_.pop_back();
  }

  void enter_group(const Term& t, const LetRec& l) {
    std::unordered_set<Name, NameHash> names;
    for (const FunDef& d : l.defs) {
      if (d.name.empty() || d.param.empty()) fail(t, "a function without a name or parameter");
      if (!names.insert(d.name).second)
        fail(t, "function '" + d.name.str() + "' is defined twice in one group");
      if (ids_ == FunIds::Resolved) {
        if (d.id == FunId::Unresolved)
          fail(t, "function '" + d.name.str() + "' has no id (not resolved)");
        if (!seen_ids_.insert(static_cast<std::uint32_t>(d.id)).second)
          fail(t, "function '" + d.name.str() + "' shares its id with another definition");
      }
      phi_[d.name].push_back(&d);
    }
  }

  // Fig. 1: M : T |- f(M) : U for f : T -> U in Phi.
  void call(const Term& t, const Call& c) {
    auto it = phi_.find(c.fun.name);
    if (it == phi_.end() || it->second.empty())
      fail(t, "function '" + c.fun.name.str() + "' is not in scope");
    const FunDef& d = *it->second.back();
    if (ids_ == FunIds::Resolved && c.fun.id != d.id)
      fail(t, "the call of '" + c.fun.name.str() +
                  "' does not carry the id of the definition in scope");
    same(t, d.param_type, c.param_type,
         "the parameter type the call of '" + d.name.str() + "' records");
    same(t, d.param_type, c.arg.type(), "the argument of '" + d.name.str() + "'");
    same(t, d.result_type, t.type(), "the type of the call of '" + d.name.str() + "'");
  }
};

}  // namespace

std::optional<std::string> ir_violation(const Term& t, const std::vector<TypedName>& inputs,
                                        FunIds ids) {
  try {
    Verifier v(inputs, ids);
    v.mutate(t);
  } catch (const Violation& e) {
    return e.what;
  }
  return std::nullopt;
}

void verify_ir(const Term& t, const std::vector<TypedName>& inputs, FunIds ids) {
  if (std::optional<std::string> v = ir_violation(t, inputs, ids))
    throw InternalError("internal error: the IR verifier rejects a " + *v);
}

bool ir_verification_on() {
#ifndef NDEBUG
  return true;
#else
  static const bool on = [] {
    const char* v = std::getenv("ADLANG_VERIFY");
    return v != nullptr && *v != '\0' && std::string_view(v) != "0";
  }();
  return on;
#endif
}

void verify_pass(std::string_view pass, const Term& t, const std::vector<TypedName>& inputs,
                 FunIds ids) {
  if (!ir_verification_on()) return;
  if (std::optional<std::string> v = ir_violation(t, inputs, ids))
    throw InternalError("internal error: the IR verifier rejects the output of " +
                        std::string(pass) + ": a " + *v);
}

void verify_open_pass(std::string_view pass, const Term& t) {
  if (!ir_verification_on()) return;
  std::optional<std::string> v;
  try {
    Verifier verifier({}, FunIds::MayBeUnresolved, /*open=*/true);
    verifier.mutate(t);
  } catch (const Violation& e) {
    v = e.what;
  }
  if (v)
    throw InternalError("internal error: the IR verifier rejects the output of " +
                        std::string(pass) + ": a " + *v);
}

}  // namespace adlang
