#include "lang/type_checker.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "lang/diagnostics.hpp"
#include "lang/near_miss.hpp"
#include "lang/operators.hpp"
#include "lang/resolve.hpp"
#include "lang/verifier.hpp"
#include "support/setting_hint.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

// The note under "unknown function": every operator of the table, a sized one as name_n.
std::string operator_list_note() {
  std::string note = "operators are";
  for (const OpDefinition& d : kOpDefinitions) {
    note += ' ';
    note += d.name;
    if (d.sized) note += "_n";
  }
  return note;
}

struct FunSig {
  Type param;
  Type result;
};

// Gamma and Phi with O(1) lookup and shadowing. A function body sees only its parameter
// (Fig. 1: Phi[f:T->U] | x:T |- M : U): bindings made before the body are below `floor_`.
class Scopes {
 public:
  struct VarBinding {
    Type type;
    std::size_t index;
  };

  void bind_var(Name x, Type t) { vars_[x].push_back(VarBinding{t, next_index_++}); }
  void unbind_var(Name x) {
    auto it = vars_.find(x);
    it->second.pop_back();
    if (it->second.empty()) vars_.erase(it);
  }
  // The innermost binding of x, or null.
  const VarBinding* lookup_var(Name x) const {
    auto it = vars_.find(x);
    return it == vars_.end() ? nullptr : &it->second.back();
  }
  // Bindings with index below the floor are outside the current function body.
  std::size_t floor() const { return floor_; }
  std::size_t enter_function_body() { return std::exchange(floor_, next_index_); }
  void leave_function_body(std::size_t saved) { floor_ = saved; }

  void bind_fun(Name f, FunSig s) { funs_[f].push_back(s); }
  void unbind_fun(Name f) {
    auto it = funs_.find(f);
    it->second.pop_back();
    if (it->second.empty()) funs_.erase(it);
  }
  const FunSig* lookup_fun(Name f) const {
    auto it = funs_.find(f);
    return it == funs_.end() ? nullptr : &it->second.back();
  }

  // The variables the current function body (or the main term) sees, and the functions in
  // scope, sorted: the candidates of a "did you mean".
  std::vector<std::string> visible_var_names() const {
    std::vector<std::string> out;
    for (const auto& [x, bindings] : vars_)
      if (bindings.back().index >= floor_) out.push_back(x.str());
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<std::string> fun_names() const {
    std::vector<std::string> out;
    for (const auto& [f, sigs] : funs_)
      out.push_back(f.str());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::unordered_map<Name, std::vector<VarBinding>, NameHash> vars_;
  std::unordered_map<Name, std::vector<FunSig>, NameHash> funs_;
  std::size_t next_index_ = 0;
  std::size_t floor_ = 0;
};

std::string show(Type t) {
  return "'" + to_string(t) + "'";
}

class Checker {
 public:
  explicit Checker(NameSupply& names) : names_(names) {}

  // The program with the functions `scope` (checked before) in scope: one letrec group of
  // `scope` and the program's defs around its main term.
  Term program(const std::vector<FunDef>& scope, const SyntaxProgram& p,
               const std::vector<TypedName>& inputs) {
    for (const TypedName& in : inputs)
      scopes_.bind_var(in.name, in.type);
    if (scope.empty() && p.defs.empty()) return term(p.main);
    std::vector<FunDef> defs = definitions(scope, p.defs);
    Term main = term(p.main);
    SourceLoc loc = scope.empty() ? p.defs.front().loc : scope.front().loc;
    defs.insert(defs.begin(), scope.begin(), scope.end());
    return mk::letrec(std::move(defs), main, loc);
  }

  // The defs `ds`, each with `scope` and all of `ds` in scope (Fig. 1's letrec rule).
  std::vector<FunDef> definitions(const std::vector<FunDef>& scope,
                                  const std::vector<SyntaxDef>& ds) {
    for (const FunDef& f : scope)
      scopes_.bind_fun(f.name, FunSig{f.param_type, f.result_type});
    std::unordered_map<Name, SourceLoc, NameHash> seen;
    for (const FunDef& f : scope)
      seen.emplace(f.name, f.loc);
    for (const SyntaxDef& d : ds) {
      auto [it, fresh] = seen.emplace(d.name, d.loc);
      if (!fresh) {
        throw CompileError(d.loc, "function '" + d.name.str() + "' is defined twice",
                           {"the first definition is at line " + std::to_string(it->second.line)});
      }
      scopes_.bind_fun(d.name, FunSig{d.param.type, d.result_type});
    }
    std::vector<FunDef> defs;
    for (const SyntaxDef& d : ds)
      defs.push_back(function_body(d.name, d.param, d.result_type, d.body, d.loc));
    return defs;
  }

  Term term(const Syntax& s) {
    const StackScope stack_scope = check_stack("the program is nested too deeply to type-check");
    switch (s->kind) {
      case SyntaxKind::Var:
        return variable(s);
      case SyntaxKind::Number:
        return mk::literal(s->text, s->loc);
      case SyntaxKind::Unit:
        return mk::unit(s->loc);
      case SyntaxKind::Tuple: {
        std::vector<Term> parts;
        for (const Syntax& k : s->kids)
          parts.push_back(term(k));
        return make_tuple_term(parts, s->loc);
      }
      case SyntaxKind::Binary:
        return binary(s);
      case SyntaxKind::Neg: {
        Term a = real_operand(s->kids[0], "the operand of unary '-'");
        return mk::op(Op::make(OpKind::Neg), a, s->loc);
      }
      case SyntaxKind::Call:
        return call(s);
      case SyntaxKind::Fst:
      case SyntaxKind::Snd: {
        Term a = term(s->kids[0]);
        const char* which = s->kind == SyntaxKind::Fst ? "fst" : "snd";
        if (!a.type().is_pair()) {
          throw CompileError(
              s->kids[0]->loc,
              std::string(which) + " needs a pair, but this has type " + show(a.type()));
        }
        return s->kind == SyntaxKind::Fst ? mk::fst(a, s->loc) : mk::snd(a, s->loc);
      }
      case SyntaxKind::Let:
        return let(s);
      case SyntaxKind::TupleLet:
        return tuple_let(s);
      case SyntaxKind::LetFun:
      case SyntaxKind::LetRec:
        return local_function(s);
      case SyntaxKind::If: {
        BoolTerm guard = boolean(s->kids[0]);
        Term m = term(s->kids[1]);
        Term n = term(s->kids[2]);
        if (m.type() != n.type()) {
          throw CompileError(s->kids[2]->loc, "the 'else' branch has type " + show(n.type()) +
                                                  " but the 'then' branch has type " +
                                                  show(m.type()));
        }
        return mk::if_(guard, m, n, s->loc);
      }
      case SyntaxKind::Rd:
        return rd(s);
      case SyntaxKind::Fd:
        return fd(s);
      case SyntaxKind::Grad:
        return grad(s);
      case SyntaxKind::Compare:
        throw CompileError(s->loc, "a comparison is not a term",
                           {"comparisons can only be the guard of an 'if': "
                            "if a < b then ... else ..."});
      case SyntaxKind::Bool:
        throw CompileError(s->loc, "'true' and 'false' are not values in adlang",
                           {"they can only be the guard of an 'if'"});
      case SyntaxKind::Zero:
        return make_zero(s->type, s->loc);
      case SyntaxKind::AddAt: {
        Term a = term(s->kids[0]);
        Term b = term(s->kids[1]);
        expect_type(a, s->type, s->kids[0]->loc,
                    "the first operand of add[" + to_string(s->type) + "]");
        expect_type(b, s->type, s->kids[1]->loc,
                    "the second operand of add[" + to_string(s->type) + "]");
        return make_plus(s->type, a, b, names_, s->loc);
      }
    }
    throw InternalError("internal error: unknown syntax kind");
  }

  // Fig. 1: true, false, pred(M) with M : T for pred : T.
  BoolTerm boolean(const Syntax& s) {
    switch (s->kind) {
      case SyntaxKind::Bool:
        return mk::bool_const(s->bool_value, s->loc);
      case SyntaxKind::Compare: {
        Pred p = Pred::make(s->pred);
        Term a = real_operand(s->kids[0], std::string("the left side of '") + p.symbol() + "'");
        Term b = real_operand(s->kids[1], std::string("the right side of '") + p.symbol() + "'");
        return mk::pred(p, mk::pair(a, b, s->loc), s->loc);
      }
      case SyntaxKind::Call:
        if (auto p = Pred::lookup(s->name.str())) {
          Term arg = arguments(s);
          if (arg.type() != p->arg_type()) {
            throw CompileError(
                s->loc, "predicate '" + p->name() + "' takes two reals, not " + show(arg.type()));
          }
          return mk::pred(*p, arg, s->loc);
        }
        break;
      case SyntaxKind::Var:
      case SyntaxKind::Number:
      case SyntaxKind::Unit:
      case SyntaxKind::Tuple:
      case SyntaxKind::Binary:
      case SyntaxKind::Neg:
      case SyntaxKind::Fst:
      case SyntaxKind::Snd:
      case SyntaxKind::Let:
      case SyntaxKind::TupleLet:
      case SyntaxKind::LetFun:
      case SyntaxKind::LetRec:
      case SyntaxKind::If:
      case SyntaxKind::Rd:
      case SyntaxKind::Fd:
      case SyntaxKind::Grad:
      case SyntaxKind::Zero:
      case SyntaxKind::AddAt:
        break;
    }
    throw CompileError(s->loc, "the guard of an 'if' must be a comparison",
                       {"write a comparison (a < b, a >= b, a = b, ...), a predicate "
                        "(lt(a, b), ...), true or false"});
  }

 private:
  NameSupply& names_;
  Scopes scopes_;

  void expect_type(const Term& t, Type want, SourceLoc loc, const std::string& what) {
    if (t.type() != want) {
      throw CompileError(
          loc, what + " has type " + show(t.type()) + " but " + show(want) + " is expected");
    }
  }

  Term real_operand(const Syntax& s, const std::string& what) {
    Term t = term(s);
    if (!t.type().is_real()) {
      throw CompileError(s->loc, what + " must be a real, but has type " + show(t.type()));
    }
    return t;
  }

  Term variable(const Syntax& s) {
    const Scopes::VarBinding* b = scopes_.lookup_var(s->name);
    if (b && b->index >= scopes_.floor()) return mk::var(s->name, b->type, s->loc);
    if (b) {
      throw CompileError(
          s->loc,
          "a function body cannot use '" + s->name.str() + "', which is bound outside the function",
          {"the paper's letrec rule allows no free variables in function bodies "
           "(Fig. 1); pass '" +
           s->name.str() + "' as part of the argument"});
    }
    if (scopes_.lookup_fun(s->name)) {
      throw CompileError(s->loc, "'" + s->name.str() + "' is a function, not a value",
                         {"call it: " + s->name.str() + "(...)"});
    }
    std::vector<std::string> notes;
    if (std::optional<std::string> near = did_you_mean(s->name.str(), scopes_.visible_var_names()))
      notes.push_back(*near);
    notes.push_back("a program's free variables are its inputs: give it a value with " +
                    setting_hint(Setting::Input, s->name.str() + "=VALUE"));
    throw CompileError(s->loc, "unbound variable '" + s->name.str() + "'", notes);
  }

  Term binary(const Syntax& s) {
    static const char* const symbols[] = {"+", "-", "*", "/"};
    const char* sym = symbols[static_cast<int>(s->binop)];
    Term a = term(s->kids[0]);
    Term b = term(s->kids[1]);
    for (int i = 0; i < 2; ++i) {
      const Term& t = i == 0 ? a : b;
      if (!t.type().is_real()) {
        std::vector<std::string> notes;
        if (s->binop == BinOp::Plus)
          notes.push_back("to add values of type " + to_string(t.type()) + " write add[" +
                          to_string(t.type()) + "](a, b)");
        throw CompileError(s->kids[i]->loc,
                           std::string(i == 0 ? "the left" : "the right") + " operand of '" + sym +
                               "' must be a real, but has type " + show(t.type()),
                           notes);
      }
    }
    switch (s->binop) {
      case BinOp::Plus:
        return mk::add(a, b, s->loc);
      case BinOp::Minus:
        return mk::op(Op::make(OpKind::Sub), a, b, s->loc);
      case BinOp::Times:
        return mk::op(Op::make(OpKind::Mul), a, b, s->loc);
      case BinOp::Divide:
        return mk::op(Op::make(OpKind::Div), a, b, s->loc);
    }
    throw InternalError("internal error: unknown binary operator");
  }

  // f(a, b) = f((a, b)); f() = f(*).
  Term arguments(const Syntax& s) {
    std::vector<Term> args;
    for (const Syntax& k : s->kids)
      args.push_back(term(k));
    return make_tuple_term(args, s->loc);
  }

  Term call(const Syntax& s) {
    if (const FunSig* found = scopes_.lookup_fun(s->name)) {
      FunSig f = *found;  // a copy: checking the arguments may bind functions
      Term arg = arguments(s);
      if (arg.type() != f.param) {
        throw CompileError(s->loc, "'" + s->name.str() + "' takes an argument of type " +
                                       show(f.param) + ", but is given " + show(arg.type()));
      }
      return mk::call(s->name, f.param, f.result, arg, s->loc);
    }
    if (auto op = Op::lookup(s->name.str())) {
      Term arg = arguments(s);
      if (arg.type() != op->arg_type()) {
        throw CompileError(s->loc, "operator '" + op->name() + "' takes an argument of type " +
                                       show(op->arg_type()) + ", but is given " + show(arg.type()));
      }
      return mk::op(*op, arg, s->loc);
    }
    if (Pred::lookup(s->name.str())) {
      throw CompileError(s->loc, "predicate '" + s->name.str() + "' is not a term",
                         {"predicates can only be the guard of an 'if'"});
    }
    std::vector<std::string> notes;
    if (scopes_.lookup_var(s->name)) {
      notes.push_back("'" + s->name.str() + "' is a variable, not a function");
    } else {
      std::vector<std::string> callable = scopes_.fun_names();
      for (const Op& op : Op::all(0))
        callable.push_back(op.name());
      if (std::optional<std::string> near = did_you_mean(s->name.str(), callable))
        notes.push_back(*near);
    }
    notes.push_back(operator_list_note());
    throw CompileError(s->loc, "unknown function '" + s->name.str() + "'", notes);
  }

  Term let(const Syntax& s) {
    const Binder& x = s->binders[0];
    Term m = term(s->kids[0]);
    if (x.type && m.type() != x.type) {
      throw CompileError(s->kids[0]->loc, "'" + x.name.str() + "' is declared " + show(x.type) +
                                              " but is bound to a term of type " + show(m.type()));
    }
    scopes_.bind_var(x.name, m.type());
    Term n = term(s->kids[1]);
    scopes_.unbind_var(x.name);
    return mk::let(x.name, m.type(), m, n, s->loc);
  }

  // Sec. 2: let <x0:T0, ..., x(n-1):T(n-1)> = M in N with M : T0 * ... * T(n-1).
  Term tuple_let(const Syntax& s) {
    Term m = term(s->kids[0]);
    std::vector<Type> want;
    for (const Binder& b : s->binders)
      want.push_back(b.type);
    Type expected = want[0];
    for (std::size_t i = 1; i < want.size(); ++i)
      expected = Type::pair(expected, want[i]);
    if (m.type() != expected) {
      throw CompileError(s->kids[0]->loc,
                         "the tuple pattern expects " + show(expected) +
                             " but the bound term has type " + show(m.type()),
                         {"a pattern (x0: T0, ..., xn: Tn) matches the left-nested product "
                          "T0 * ... * Tn"});
    }
    std::vector<TypedName> vars;
    for (const Binder& b : s->binders) {
      for (const TypedName& v : vars) {
        if (v.name == b.name)
          throw CompileError(b.loc, "'" + b.name.str() + "' appears twice in the tuple pattern");
      }
      vars.push_back(TypedName{b.name, b.type});
      scopes_.bind_var(b.name, b.type);
    }
    Term n = term(s->kids[1]);
    for (const Binder& b : s->binders)
      scopes_.unbind_var(b.name);
    return make_tuple_let(vars, m, n, names_, s->loc);
  }

  FunDef function_body(Name f, const Binder& param, Type result, const Syntax& body,
                       SourceLoc loc) {
    std::size_t saved = scopes_.enter_function_body();
    scopes_.bind_var(param.name, param.type);
    Term m = term(body);
    scopes_.unbind_var(param.name);
    scopes_.leave_function_body(saved);
    if (m.type() != result) {
      throw CompileError(body->loc, "the body of '" + f.str() + "' has type " + show(m.type()) +
                                        " but '" + f.str() + "' is declared to return " +
                                        show(result));
    }
    return FunDef{f, param.name, param.type, result, m, loc};
  }

  // letrec f(x:T):U = M in N; `let f(x:T):U = M in N` abbreviates it (paper Sec. 2).
  Term local_function(const Syntax& s) {
    scopes_.bind_fun(s->name, FunSig{s->binders[0].type, s->type});
    FunDef d = function_body(s->name, s->binders[0], s->type, s->kids[0], s->loc);
    Term n = term(s->kids[1]);
    scopes_.unbind_fun(s->name);
    return mk::letrec({d}, n, s->loc);
  }

  // Fig. 1: Gamma[x:T] |- N : U, L : T, M : U gives M.rd_L(x:T. N) : T.
  Term rd(const Syntax& s) {
    const Binder& x = s->binders[0];
    Term point = term(s->kids[1]);
    expect_type(point, x.type, s->kids[1]->loc,
                "the point of rd (where '" + x.name.str() + "' is)");
    Term body = bound_body(x, s->kids[2]);
    Term cot = term(s->kids[0]);
    if (cot.type() != body.type()) {
      throw CompileError(s->kids[0]->loc,
                         "the cotangent (the term before '.rd') has type " + show(cot.type()) +
                             " but the body has type " + show(body.type()),
                         {"in M.rd[L](x: T. N), M has the type of N"});
    }
    return mk::rd(cot, point, x.name, x.type, body, s->loc);
  }

  // Sec. 2: M.fd_{U,L}(x:T. N) = M.rd_{0_U}(y:U. y.rd_L(x:T. N)), with M : T.
  Term fd(const Syntax& s) {
    const Binder& x = s->binders[0];
    Term point = term(s->kids[1]);
    expect_type(point, x.type, s->kids[1]->loc,
                "the point of fd (where '" + x.name.str() + "' is)");
    Term body = bound_body(x, s->kids[2]);
    Term tangent = term(s->kids[0]);
    expect_type(tangent, x.type, s->kids[0]->loc, "the tangent (the term before '.fd')");
    Type u = body.type();
    Name y = names_.fresh("y");
    Term inner = mk::rd(mk::var(y, u, s->loc), point, x.name, x.type, body, s->loc);
    return mk::rd(tangent, make_zero(u, s->loc), y, u, inner, s->loc);
  }

  // Sec. 2: grad_L(x:T. N) = 1.rd_L(x:T. N), with N : real.
  Term grad(const Syntax& s) {
    const Binder& x = s->binders[0];
    Term point = term(s->kids[0]);
    expect_type(point, x.type, s->kids[0]->loc,
                "the point of grad (where '" + x.name.str() + "' is)");
    Term body = bound_body(x, s->kids[1]);
    if (!body.type().is_real()) {
      throw CompileError(s->kids[1]->loc,
                         "grad needs a real-valued body, but this has type " + show(body.type()),
                         {"for other result types use M.rd[L](x: T. N) with a cotangent M"});
    }
    return mk::rd(mk::literal("1", s->loc), point, x.name, x.type, body, s->loc);
  }

  Term bound_body(const Binder& x, const Syntax& body) {
    scopes_.bind_var(x.name, x.type);
    Term n = term(body);
    scopes_.unbind_var(x.name);
    return n;
  }
};

// Collects free variables of surface terms in order of first occurrence.
class InputCollector {
 public:
  std::vector<Name> result;

  void term(const Syntax& s) {
    const StackScope stack_scope = check_stack("the program is nested too deeply");
    switch (s->kind) {
      case SyntaxKind::Var:
        if (!bound(s->name) && seen_.insert(s->name).second) result.push_back(s->name);
        return;
      case SyntaxKind::Let:
      case SyntaxKind::TupleLet:
        term(s->kids[0]);
        with(s->binders, s->kids[1]);
        return;
      case SyntaxKind::LetFun:
      case SyntaxKind::LetRec:
        function(s->binders[0], s->kids[0]);
        term(s->kids[1]);
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
      case SyntaxKind::Number:
      case SyntaxKind::Unit:
      case SyntaxKind::Tuple:
      case SyntaxKind::Binary:
      case SyntaxKind::Neg:
      case SyntaxKind::Call:
      case SyntaxKind::Fst:
      case SyntaxKind::Snd:
      case SyntaxKind::If:
      case SyntaxKind::Compare:
      case SyntaxKind::Bool:
      case SyntaxKind::Zero:
      case SyntaxKind::AddAt:
        for (const Syntax& k : s->kids)
          term(k);
        return;
    }
  }

  // Names in a function body other than its parameter are type errors, not inputs.
  void function(const Binder&, const Syntax& body) {
    ++function_depth_;
    term(body);
    --function_depth_;
  }

 private:
  std::size_t function_depth_ = 0;
  std::unordered_map<Name, std::size_t, NameHash> scope_;  // binding counts
  NameSet seen_;

  bool bound(Name x) const {
    if (function_depth_ > 0) return true;
    auto it = scope_.find(x);
    return it != scope_.end() && it->second > 0;
  }

  void with(const std::vector<Binder>& binders, const Syntax& body) {
    for (const Binder& b : binders)
      ++scope_[b.name];
    term(body);
    for (const Binder& b : binders)
      --scope_[b.name];
  }
};

}  // namespace

Term desugar_program(const SyntaxProgram& program, const std::vector<TypedName>& inputs,
                     NameSupply& names) {
  Term core = Checker(names).program({}, program, inputs);
  verify_pass("desugaring", core, inputs, FunIds::MayBeUnresolved);
  return core;
}

Term check_program(const SyntaxProgram& program, const std::vector<TypedName>& inputs,
                   NameSupply& names) {
  Term resolved = resolve_functions(desugar_program(program, inputs, names));
  verify_pass("resolution", resolved, inputs, FunIds::Resolved);
  return resolved;
}

std::vector<FunDef> check_definitions(const std::vector<FunDef>& scope,
                                      const std::vector<SyntaxDef>& defs, NameSupply& names) {
  std::vector<FunDef> checked = Checker(names).definitions(scope, defs);
  // Verified as the group they make with their scope, around a main term of no interest.
  std::vector<FunDef> group = scope;
  group.insert(group.end(), checked.begin(), checked.end());
  if (!group.empty())
    verify_pass("desugaring", mk::letrec(group, mk::unit()), {}, FunIds::MayBeUnresolved);
  return checked;
}

Term check_program_in(const std::vector<FunDef>& scope, const SyntaxProgram& program,
                      const std::vector<TypedName>& inputs, NameSupply& names) {
  Term core = Checker(names).program(scope, program, inputs);
  verify_pass("desugaring", core, inputs, FunIds::MayBeUnresolved);
  Term resolved = resolve_functions(core);
  verify_pass("resolution", resolved, inputs, FunIds::Resolved);
  return resolved;
}

Term check_term(const Syntax& term, const std::vector<TypedName>& inputs, NameSupply& names) {
  SyntaxProgram p;
  p.main = term;
  return check_program(p, inputs, names);
}

std::vector<Name> program_inputs(const SyntaxProgram& program) {
  InputCollector c;
  for (const SyntaxDef& d : program.defs)
    c.function(d.param, d.body);
  c.term(program.main);
  return c.result;
}

}  // namespace adlang
