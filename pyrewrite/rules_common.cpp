#include "pyrewrite/rules_common.hpp"

#include <algorithm>

#include "pyrewrite/qualified_name.hpp"

namespace adlang::py {

// ---------------------------------------------------------------------------------------------
// trans_M and trans_S̄

// trans_M⟦stmt* type_ignore⟧ = trans_S̄⟦stmt*⟧(σ)._1 type_ignore
// Amended (docs/pyrewrite.md, "broadcast flags"): the flags the GradientTape rules allocate are
// initialised right after the statement that imports TensorFlow, one per optimizer.
bool any_node(const Node& n, const std::function<bool(const Node&)>& pred) {
  if (pred(n)) return true;
  for (const Field& f : n.fields) {
    if (f.tag == Field::Tag::Node && f.node && any_node(*f.node, pred)) return true;
    if (f.tag == Field::Tag::List)
      for (const NodePtr& c : f.list)
        if (c && any_node(*c, pred)) return true;
  }
  return false;
}

Edits RuleSet::trans_M(const Node& module) {
  module_ = &module;
  const auto& stmts = module.list("body");
  if (stmts.empty()) return {};
  StmtResult r = trans_Sbar(stmts, Env{});
  if (!ctx_.broadcast_flags().empty()) {
    const Node* anchor = tf_import_top_ ? tf_import_top_ : stmts.front().get();
    std::size_t at = 0;
    bool found = false;
    for (std::size_t i = 0; i < r.stmts.size(); ++i)
      if (r.stmts[i].source == anchor) {
        at = i + 1;
        found = true;
      }
    if (!found) at = 0;
    for (const BroadcastFlag& f : ctx_.broadcast_flags()) {
      std::string init =
          f.tf_variable ? f.name + " = " + tf_import_name_ + ".Variable(False, trainable=False)"
                        : f.name + " = False";
      OutStmt o = OutStmt::fresh(init);
      o.source = anchor;
      r.stmts.insert(r.stmts.begin() + static_cast<long>(at), o);
      ++at;
    }
  }
  return emit_block(stmts, r.stmts, ctx_.layout(), nullptr);
}

// trans_S̄⟦stmt_1 stmt_2 ... stmt_n⟧(σ) = LET stmt_1*', σ_1 = trans_S⟦stmt_1⟧(σ) IN ...
//                                        (stmt_1*' @ ... @ stmt_n*', σ_n)
StmtResult RuleSet::trans_Sbar(const std::vector<NodePtr>& stmts, const Env& sigma) {
  StmtResult r{{}, sigma};
  for (const NodePtr& s : stmts) {
    if (depth_ == 0 && ctx_.frames().empty()) current_top_ = s.get();
    StmtResult one = trans_S(*s, r.env);
    for (OutStmt& o : one.stmts) {
      if (!o.source) o.source = s.get();
      r.stmts.push_back(std::move(o));
    }
    r.env = std::move(one.env);
  }
  return r;
}

StmtResult RuleSet::same(const Node& s, const Env& sigma, Edits e) const {
  return StmtResult{{OutStmt::keep(s, std::move(e))}, sigma};
}

Edits RuleSet::body(const Node& owner, std::string_view field, const Env& sigma) {
  const auto& stmts = owner.list(field);
  if (stmts.empty()) return {};
  ++depth_;
  StmtResult r = trans_Sbar(stmts, sigma);
  --depth_;
  return emit_block(stmts, r.stmts, ctx_.layout(), &owner);
}

// ---------------------------------------------------------------------------------------------
// trans_S

namespace {

void append(Edits& to, const Edits& from) {
  to.insert(to.end(), from.begin(), from.end());
}

bool is_docstring(const Node& s) {
  if (!s.is(Kind::Expr)) return false;
  const Node& v = *s.child("value");
  return v.is(Kind::Constant) && v.constant_type == ConstantType::Str;
}

}  // namespace

StmtResult RuleSet::trans_S(const Node& s, const Env& sigma) {
  switch (s.kind) {
    // trans_S⟦(@expr_1)* def id (args) (-> expr_2)? : (#type:s)? stmt*⟧(σ) =
    //   ([(@expr_1)* def id (args) (-> expr_2)? : (#type:s)? trans_S̄⟦stmt*⟧(σ)._1], σ)
    // (and async def). Amended: `global` declarations the rules need go to the top of the body.
    case Kind::FunctionDef:
    case Kind::AsyncFunctionDef: {
      FunctionFrame f;
      f.def = &s;
      for (const NodePtr& d : s.list("decorator_list")) {
        const Node& fn = d->is(Kind::Call) ? call_func(*d) : *d;
        auto q = resolved(fn, sigma);
        if (q && *q == "tensorflow.function") f.tf_function = true;
      }
      ctx_.frames().push_back(f);
      const auto& stmts = s.list("body");
      ++depth_;
      int saved_cond = conditional_depth_;
      conditional_depth_ = 0;
      StmtResult r = trans_Sbar(stmts, sigma);
      conditional_depth_ = saved_cond;
      --depth_;
      FunctionFrame done = ctx_.frames().back();
      ctx_.frames().pop_back();
      if (!done.globals.empty()) {
        std::string decl = "global ";
        for (std::size_t i = 0; i < done.globals.size(); ++i)
          decl += (i ? ", " : "") + done.globals[i];
        OutStmt g = OutStmt::fresh(decl);
        const Node* first = stmts.front().get();
        std::size_t at = 0;
        if (is_docstring(*first)) {
          for (std::size_t i = 0; i < r.stmts.size(); ++i)
            if (r.stmts[i].source == first) at = i + 1;
        }
        g.source = first;
        r.stmts.insert(r.stmts.begin() + static_cast<long>(at), g);
      }
      return same(s, sigma, emit_block(stmts, r.stmts, ctx_.layout(), &s));
    }
    // trans_S⟦(@expr_1)* class id (expr_2* keyword*) : stmt*⟧(σ) = ([... trans_S̄⟦stmt*⟧(σ)._1], σ)
    case Kind::ClassDef:
      return same(s, sigma, body(s, "body", sigma));
    // trans_S⟦return expr?⟧(σ) = ([return (trans_E⟦expr⟧(σ))?], σ)
    case Kind::Return:
      return same(s, sigma, trans_E_opt(s.child("value"), sigma));
    // trans_S⟦delete expr*⟧(σ) = ([delete expr*], σ)
    case Kind::Delete:
      return same(s, sigma);
    case Kind::Assign: {
      // A strict form of assignment statements: id_r = expr_1(...) (#type:s)?
      const auto& targets = s.list("targets");
      const Node& value = *s.child("value");
      if (targets.size() == 1 && targets[0]->is(Kind::Name) && value.is(Kind::Call)) {
        if (auto r = assign_call(s, value, targets[0]->text("id"), sigma)) return *r;
      }
      // trans_S⟦expr_0 = expr_1 (#type:s)?⟧(σ) = IF σ("os") = id_os AND expr_0 = ... THEN ([], σ)
      if (auto r = assign_strict(s, sigma)) return *r;
      // Restriction 2.1.6: an optimizer variable must not be reassigned to another value.
      for (const NodePtr& t : targets) {
        if (!t->is(Kind::Name)) continue;
        if (sigma.is("optimizer", t->text("id")) || sigma.has("optimizer:" + t->text("id"))) {
          ctx_.warn(s,
                    "restriction 2.1.6: '" + t->text("id") +
                        "' holds an optimizer and is reassigned here",
                    {"the rules track the optimizer by its variable; after this assignment the "
                     "broadcast and wrapping refer to whatever the variable now holds"});
        }
      }
      // trans_S⟦expr_1* = expr_2 (#type:s)?⟧(σ) = ([expr_1* = trans_E⟦expr_2⟧(σ) (#type:s)?], σ)
      return general_S(s, sigma);
    }
    // trans_S⟦expr_1 binop= expr_2⟧(σ) = ([expr_1 binop= trans_E⟦expr_2⟧(σ)], σ)
    case Kind::AugAssign:
      return same(s, sigma, trans_E(*s.child("value"), sigma));
    // trans_S⟦expr_1 : expr_2 (= expr_3)?⟧(σ) = ([expr_1 : expr_2 (= trans_E⟦expr_3⟧(σ))?], σ)
    case Kind::AnnAssign:
      if (auto r = ann_assign(s, sigma)) return *r;
      return same(s, sigma, trans_E_opt(s.child("value"), sigma));
    // trans_S⟦(#type:s)? (async)? for expr_1 in expr_2 : stmt_1* (else : stmt_2*)?⟧(σ) =
    //   ([for expr_1 in trans_E⟦expr_2⟧(σ) : trans_S̄⟦stmt_1*⟧(σ)._1 (else : ...)?], σ)
    case Kind::For:
    case Kind::AsyncFor: {
      if (auto r = for_loop(s, sigma)) return *r;
      Edits e = trans_E(*s.child("iter"), sigma);
      ++conditional_depth_;
      append(e, body(s, "body", sigma));
      append(e, body(s, "orelse", sigma));
      --conditional_depth_;
      return same(s, sigma, e);
    }
    // trans_S⟦while (expr) : stmt_1* (else : stmt_2*)?⟧(σ) =
    //   ([while (trans_E⟦expr⟧(σ)) : trans_S̄⟦stmt_1*⟧(σ)._1 (else : ...)?], σ)
    // (the document writes trans_S̄⟦expr⟧ for the condition: read as trans_E)
    // trans_S⟦if (expr) : stmt* (else : stmt*)?⟧(σ) = likewise
    case Kind::While:
    case Kind::If: {
      Edits e = trans_E(*s.child("test"), sigma);
      ++conditional_depth_;
      append(e, body(s, "body", sigma));
      append(e, body(s, "orelse", sigma));
      --conditional_depth_;
      return same(s, sigma, e);
    }
    // trans_S⟦(#type:s)? (async)? with with_item* : stmt*⟧(σ) =
    //   LET with_item*', σ_1 = trans_W̄⟦with_item*⟧(σ) IN LET stmt*', σ_2 = trans_S̄⟦stmt*⟧(σ_1) IN
    //   ([with with_item*' : stmt*'], σ_2)
    case Kind::With:
    case Kind::AsyncWith: {
      if (auto r = with_stmt(s, sigma)) return *r;
      auto [e, sigma1] = trans_Wbar(s.list("items"), sigma);
      ++depth_;
      StmtResult inner = trans_Sbar(s.list("body"), sigma1);
      --depth_;
      append(e, emit_block(s.list("body"), inner.stmts, ctx_.layout(), &s));
      return same(s, inner.env, e);
    }
    // trans_S⟦match expr : match_case*⟧(σ) = ([match trans_E⟦expr⟧(σ) : (trans_C⟦match_case⟧(σ))*],
    // σ)
    case Kind::Match: {
      Edits e = trans_E(*s.child("subject"), sigma);
      ++conditional_depth_;
      for (const NodePtr& c : s.list("cases"))
        append(e, trans_C(*c, sigma));
      --conditional_depth_;
      return same(s, sigma, e);
    }
    // trans_S⟦raise expr_1? (from expr_2)?⟧(σ) = ([raise expr_1? (from expr_2)?], σ)
    case Kind::Raise:
      return same(s, sigma);
    // trans_S⟦try : stmt_1* exc_handler* (else : stmt_2*)? (finally : stmt_3*)?⟧(σ) =
    //   ([try : trans_S̄⟦stmt_1*⟧(σ)._1 (trans_H⟦exc_handler⟧(σ))* (else : trans_S̄⟦stmt_2*⟧(σ)._1)?
    //     (finally : trans_S̄⟦stmt_3*⟧(σ)._1)?], σ)
    // (the document writes stmt_3 for the else branch: read as stmt_2)
    case Kind::Try:
    case Kind::TryStar: {
      ++conditional_depth_;
      Edits e = body(s, "body", sigma);
      for (const NodePtr& h : s.list("handlers"))
        append(e, trans_H(*h, sigma));
      append(e, body(s, "orelse", sigma));
      append(e, body(s, "finalbody", sigma));
      --conditional_depth_;
      return same(s, sigma, e);
    }
    // trans_S⟦assert expr_1 expr_2?⟧(σ) = ([assert trans_E⟦expr_1⟧(σ) expr_2?], σ)
    case Kind::Assert:
      return same(s, sigma, trans_E(*s.child("test"), sigma));
    // trans_S⟦import alias*⟧(σ) = LET σ_1 = trans_Ā⟦alias*⟧(σ) IN ... (pattern-specific)
    case Kind::Import:
      return import_stmt(s, sigma, trans_Abar(s.list("names"), sigma));
    // trans_S⟦from i id? import alias*⟧(σ) = ([from i id? import alias*], σ_1)
    // σ_1 records what the names now refer to (docs/pyrewrite.md, "imports in σ").
    case Kind::ImportFrom: {
      Env sigma1 = sigma;
      if (s.field("level").integer == 0 && s.has("module")) {
        for (const NodePtr& a : s.list("names")) {
          const std::string& name = a->text("name");
          if (name == "*") continue;
          std::string local = a->has("asname") ? a->text("asname") : name;
          sigma1 = sigma1.with("import:" + local, s.text("module") + "." + name);
        }
      }
      return import_stmt(s, sigma, sigma1);
    }
    // trans_S⟦global id*⟧(σ) = ([global id*], σ), likewise nonlocal, pass, break, continue
    case Kind::Global:
    case Kind::Nonlocal:
    case Kind::Pass:
    case Kind::Break:
    case Kind::Continue:
      return same(s, sigma);
    case Kind::Expr: {
      const Node& v = *s.child("value");
      // A strict form of expr statements: expr_1(expr_11 ... (id_k =)? expr_2k)
      if (v.is(Kind::Call)) {
        if (auto r = expr_call(s, v, sigma)) return *r;
      }
      // A general form of expr statements
      if (auto r = expr_general(s, sigma)) return *r;
      // trans_S⟦expr⟧(σ) = ([trans_E⟦expr⟧(σ)], σ)
      return same(s, sigma, trans_E(v, sigma));
    }
    default:
      throw InternalError("internal error: trans_S has no rule for " +
                          std::string(kind_name(s.kind)));
  }
}

StmtResult RuleSet::general_S(const Node& s, const Env& sigma) {
  return same(s, sigma, trans_E(*s.child("value"), sigma));
}

// ---------------------------------------------------------------------------------------------
// trans_E, trans_O, trans_H, trans_C, trans_P

Edits RuleSet::trans_E_list(const std::vector<NodePtr>& es, const Env& sigma) {
  Edits e;
  for (const NodePtr& x : es)
    if (x) append(e, trans_E(*x, sigma));
  return e;
}

Edits RuleSet::trans_E_opt(const Node* x, const Env& sigma) {
  return x ? trans_E(*x, sigma) : Edits{};
}

Edits RuleSet::trans_E(const Node& e, const Env& sigma) {
  switch (e.kind) {
    // trans_E⟦expr_1 boolop expr_2⟧(σ) = trans_E⟦expr_1⟧(σ) boolop trans_E⟦expr_2⟧(σ)
    case Kind::BoolOp:
      return trans_E_list(e.list("values"), sigma);
    // trans_E⟦expr_1 := expr_2⟧(σ) = expr_1 := trans_E⟦expr_2⟧(σ)
    case Kind::NamedExpr:
      return trans_E(*e.child("value"), sigma);
    // trans_E⟦expr_1 binop expr_2⟧(σ) = trans_E⟦expr_1⟧(σ) binop trans_E⟦expr_2⟧(σ)
    case Kind::BinOp: {
      Edits r = trans_E(*e.child("left"), sigma);
      append(r, trans_E(*e.child("right"), sigma));
      return r;
    }
    // trans_E⟦unop expr⟧(σ) = unop trans_E⟦expr⟧(σ)
    case Kind::UnaryOp:
      return trans_E(*e.child("operand"), sigma);
    // trans_E⟦lambda args : expr⟧(σ) = lambda args : trans_E⟦expr⟧(σ)
    case Kind::Lambda:
      return trans_E(*e.child("body"), sigma);
    // trans_E⟦expr_1 if expr_2 else expr_3⟧(σ) = trans_E⟦expr_1⟧(σ) if trans_E⟦expr_2⟧(σ) else ...
    case Kind::IfExp: {
      Edits r = trans_E(*e.child("body"), sigma);
      append(r, trans_E(*e.child("test"), sigma));
      append(r, trans_E(*e.child("orelse"), sigma));
      return r;
    }
    // trans_E⟦{(expr_1 : expr_2)* (**expr_3)*}⟧(σ) = {(expr_1 : trans_E⟦expr_2⟧(σ))* (**expr_3)*}
    case Kind::Dict: {
      Edits r;
      const auto& keys = e.list("keys");
      const auto& values = e.list("values");
      for (std::size_t i = 0; i < values.size(); ++i)
        if (i < keys.size() && keys[i]) append(r, trans_E(*values[i], sigma));
      return r;
    }
    // trans_E⟦{expr*}⟧, ⟦[expr*]⟧, ⟦(expr*)⟧ = the elements' trans_E
    case Kind::Set:
    case Kind::List:
    case Kind::Tuple:
      return trans_E_list(e.list("elts"), sigma);
    // trans_E⟦[expr comprehension*]⟧(σ) = [trans_E⟦expr⟧(σ) (trans_O⟦comprehension⟧(σ))*]
    // (and set comprehensions, generator expressions)
    case Kind::ListComp:
    case Kind::SetComp:
    case Kind::GeneratorExp: {
      Edits r = trans_E(*e.child("elt"), sigma);
      for (const NodePtr& c : e.list("generators"))
        append(r, trans_O(*c, sigma));
      return r;
    }
    // trans_E⟦{expr_1 : expr_2 comprehension*}⟧(σ) = {expr_1 : trans_E⟦expr_2⟧(σ) (trans_O...)*}
    case Kind::DictComp: {
      Edits r = trans_E(*e.child("value"), sigma);
      for (const NodePtr& c : e.list("generators"))
        append(r, trans_O(*c, sigma));
      return r;
    }
    // trans_E⟦await expr⟧, ⟦yield expr?⟧, ⟦yield from expr⟧: the operand's trans_E
    case Kind::Await:
    case Kind::Yield:
    case Kind::YieldFrom:
      return trans_E_opt(e.child("value"), sigma);
    // trans_E⟦expr_1 (compop expr_2)*⟧(σ) = trans_E⟦expr_1⟧(σ) (compop trans_E⟦expr_2⟧(σ))*
    case Kind::Compare: {
      Edits r = trans_E(*e.child("left"), sigma);
      append(r, trans_E_list(e.list("comparators"), sigma));
      return r;
    }
    // trans_E⟦expr_1(expr_11 ... (id_k =)? expr_2k)⟧(σ): the pattern's strict forms, else
    //   trans_E⟦expr_1⟧(σ) (trans_E⟦expr_11⟧(σ) ... (id_k =)? trans_E⟦expr_2k⟧(σ))
    case Kind::Call: {
      if (auto r = call_E(e, sigma)) return *r;
      Edits r = trans_E(call_func(e), sigma);
      for (const NodePtr& a : call_args(e))
        if (!a->is(Kind::Starred)) append(r, trans_E(*a, sigma));
      for (const NodePtr& k : call_keywords(e))
        append(r, trans_E(*k->child("value"), sigma));
      return r;
    }
    // trans_E⟦{expr_1 (!i)? (:expr_2)?}⟧, ⟦expr*⟧ (f-strings), ⟦constant⟧, ⟦*expr⟧, ⟦**expr⟧, ⟦id⟧
    // are unchanged
    case Kind::FormattedValue:
    case Kind::JoinedStr:
    case Kind::Constant:
    case Kind::Starred:
    case Kind::Name:
      return {};
    // trans_E⟦expr.id⟧(σ) = (trans_E⟦expr⟧(σ)).id
    case Kind::Attribute:
      return trans_E(*e.child("value"), sigma);
    // trans_E⟦expr_1[expr_2]⟧(σ) = trans_E⟦expr_1⟧(σ)[trans_E⟦expr_2⟧(σ)]
    case Kind::Subscript: {
      Edits r = trans_E(*e.child("value"), sigma);
      append(r, trans_E(*e.child("slice"), sigma));
      return r;
    }
    // trans_E⟦expr_1? (:expr_2)? (:expr_3)?⟧(σ) = the parts' trans_E
    case Kind::Slice: {
      Edits r = trans_E_opt(e.child("lower"), sigma);
      append(r, trans_E_opt(e.child("upper"), sigma));
      append(r, trans_E_opt(e.child("step"), sigma));
      return r;
    }
    default:
      throw InternalError("internal error: trans_E has no rule for " +
                          std::string(kind_name(e.kind)));
  }
}

// trans_O⟦for expr_1 in expr_2 (if expr_3)*⟧(σ) = for expr_1 in trans_E⟦expr_2⟧(σ) (if
// trans_E⟦expr_3⟧(σ))*
Edits RuleSet::trans_O(const Node& c, const Env& sigma) {
  Edits r = trans_E(*c.child("iter"), sigma);
  append(r, trans_E_list(c.list("ifs"), sigma));
  return r;
}

// trans_H⟦except expr? (as id)? : stmt*⟧(σ) = except expr? (as id)? : trans_S̄⟦stmt*⟧(σ)._1
Edits RuleSet::trans_H(const Node& h, const Env& sigma) {
  return body(h, "body", sigma);
}

// trans_C⟦case pattern (if expr)? : stmt*⟧(σ) =
//   case trans_P⟦pattern⟧(σ) (if trans_E⟦expr⟧(σ))? : trans_S̄⟦stmt*⟧(σ)._1
Edits RuleSet::trans_C(const Node& c, const Env& sigma) {
  Edits r = trans_P(*c.child("pattern"), sigma);
  append(r, trans_E_opt(c.child("guard"), sigma));
  const auto& stmts = c.list("body");
  ++depth_;
  StmtResult b = trans_Sbar(stmts, sigma);
  --depth_;
  // A case's body is indented relative to its `case` line (the first statement's line gives it).
  append(r, emit_block(stmts, b.stmts, ctx_.layout(), c.child("pattern")));
  return r;
}

Edits RuleSet::trans_P(const Node& p, const Env& sigma) {
  switch (p.kind) {
    // trans_P⟦expr⟧(σ) = trans_E⟦expr⟧(σ); trans_P⟦constant⟧(σ) = constant
    case Kind::MatchValue:
      return trans_E(*p.child("value"), sigma);
    case Kind::MatchSingleton:
      return {};
    // trans_P⟦[pattern*]⟧(σ) = [trans_P⟦pattern⟧(σ)*]; trans_P⟦p_1 | p_2⟧ = trans_P⟦p_1⟧ |
    // trans_P⟦p_2⟧
    case Kind::MatchSequence:
    case Kind::MatchOr: {
      Edits r;
      for (const NodePtr& q : p.list("patterns"))
        append(r, trans_P(*q, sigma));
      return r;
    }
    // trans_P⟦*(id)?⟧(σ) = *(id)?
    case Kind::MatchStar:
      return {};
    // trans_P⟦{(expr : pattern)* id?}⟧(σ) = {(expr : trans_P⟦pattern⟧(σ))* id?}
    case Kind::MatchMapping: {
      Edits r;
      for (const NodePtr& q : p.list("patterns"))
        append(r, trans_P(*q, sigma));
      return r;
    }
    // trans_P⟦expr (pattern_1* (id = pattern_2)*)⟧(σ) = expr (trans_P⟦pattern_1⟧(σ)* (id =
    // trans_P...)*)
    case Kind::MatchClass: {
      Edits r;
      for (const NodePtr& q : p.list("patterns"))
        append(r, trans_P(*q, sigma));
      for (const NodePtr& q : p.list("kwd_patterns"))
        append(r, trans_P(*q, sigma));
      return r;
    }
    // trans_P⟦(pattern as)? id⟧(σ) = (trans_P⟦pattern⟧(σ) as)? id; trans_P⟦_⟧(σ) = _
    case Kind::MatchAs:
      return p.child("pattern") ? trans_P(*p.child("pattern"), sigma) : Edits{};
    default:
      throw InternalError("internal error: trans_P has no rule for " +
                          std::string(kind_name(p.kind)));
  }
}

// ---------------------------------------------------------------------------------------------
// trans_Ā, trans_A, trans_W̄, trans_W

// trans_Ā⟦alias_1 ... alias_n⟧(σ) = trans_A⟦alias_n⟧(trans_A⟦alias_n-1⟧(... trans_A⟦alias_1⟧(σ)))
Env RuleSet::trans_Abar(const std::vector<NodePtr>& aliases, const Env& sigma) {
  Env e = sigma;
  for (const NodePtr& a : aliases)
    e = trans_A(*a, e);
  return e;
}

// trans_A⟦id⟧(σ) = LET id = tensorflow THEN σ["tensor_flow" ↦ id] LET id = os THEN σ["os" ↦ id]
// ELSE σ trans_A⟦id_1 as id_2⟧(σ) = likewise with id_2; trans_A⟦id_1.id_2(.id_3)* (as id_2)?⟧(σ) =
// σ Every alias also records "import:<local>" (docs/pyrewrite.md, "imports in σ").
Env RuleSet::trans_A(const Node& alias, const Env& sigma) {
  const std::string& name = alias.text("name");
  bool as = alias.has("asname");
  std::string local = as ? alias.text("asname") : name.substr(0, name.find('.'));
  Env e = sigma.with("import:" + local, as ? name : local);
  if (name == "tensorflow") return e.with("tensor_flow", local);
  if (name == "os") return e.with("os", local);
  return e;
}

// trans_W̄⟦with_item_1 ... with_item_n⟧(σ): σ threaded through trans_W
std::pair<Edits, Env> RuleSet::trans_Wbar(const std::vector<NodePtr>& items, const Env& sigma) {
  Edits r;
  Env e = sigma;
  for (const NodePtr& i : items) {
    auto [ei, next] = trans_W(*i, e);
    append(r, ei);
    e = std::move(next);
  }
  return {r, e};
}

// trans_W⟦expr⟧(σ) = (trans_E⟦expr⟧(σ), σ); trans_W⟦expr_1 as expr_2⟧(σ) = (trans_E⟦expr_1⟧(σ) as
// expr_2, σ)
std::pair<Edits, Env> RuleSet::trans_W(const Node& item, const Env& sigma) {
  return {trans_E(*item.child("context_expr"), sigma), sigma};
}

// ---------------------------------------------------------------------------------------------
// Default hooks: no strict form applies.

std::optional<StmtResult> RuleSet::assign_call(const Node&, const Node&, const std::string&,
                                               const Env&) {
  return std::nullopt;
}
std::optional<StmtResult> RuleSet::assign_strict(const Node& s, const Env& sigma) {
  if (auto r = visible_device_list_rule(s, sigma)) return r;
  return cuda_devices_rule(s, sigma);
}
std::optional<StmtResult> RuleSet::ann_assign(const Node&, const Env&) {
  return std::nullopt;
}
std::optional<StmtResult> RuleSet::expr_call(const Node&, const Node&, const Env&) {
  return std::nullopt;
}
std::optional<StmtResult> RuleSet::expr_general(const Node&, const Env&) {
  return std::nullopt;
}
StmtResult RuleSet::import_stmt(const Node& s, const Env&, const Env& sigma1) {
  return same(s, sigma1);
}
std::optional<StmtResult> RuleSet::for_loop(const Node&, const Env&) {
  return std::nullopt;
}
std::optional<StmtResult> RuleSet::with_stmt(const Node&, const Env&) {
  return std::nullopt;
}
std::optional<Edits> RuleSet::call_E(const Node&, const Env&) {
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Helpers

std::optional<std::string> RuleSet::resolved(const Node& e, const Env& sigma) const {
  return resolve(e, sigma);
}

bool RuleSet::is_subclass(const Node& func, const Env& sigma, TfClass c) const {
  if (c == TfClass::KerasModel && func.is(Kind::Name) && ctx_.model_classes.count(func.text("id")))
    return true;
  auto q = resolve(func, sigma);
  return q && subclass_of(*q, c);
}

bool RuleSet::is_key_member(const Node& e, const Env& sigma, const std::string& key,
                            std::string_view path) const {
  auto id = sigma.get(key);
  return id && is_member(e, *id, path);
}

std::optional<std::string> RuleSet::tf_name(const Env& sigma) const {
  if (auto t = sigma.get("tensor_flow")) return t;
  return sigma.get("tensor_flow_compat");
}

std::string RuleSet::operand(const Node& e, const Edits& inner) const {
  std::string t = ctx_.src(e, inner);
  bool atomic = e.is(Kind::Name) || e.is(Kind::Attribute) || e.is(Kind::Call) ||
                e.is(Kind::Subscript) || e.is(Kind::List) || e.is(Kind::Dict) ||
                (e.is(Kind::Constant) && e.constant_type != ConstantType::Str) ||
                (e.is(Kind::BinOp) &&
                 (e.text("op") == "Mult" || e.text("op") == "Div" || e.text("op") == "FloorDiv" ||
                  e.text("op") == "Mod" || e.text("op") == "MatMult" || e.text("op") == "Pow"));
  if (e.is(Kind::Constant) && e.constant_type == ConstantType::Str) atomic = true;
  // A constant that begins a line continuation inside brackets keeps its text as it is.
  return atomic ? t : "(" + t + ")";
}

TextEdit RuleSet::replace(const Node& n, std::string text) const {
  return TextEdit{ctx_.layout().begin(n), ctx_.layout().end(n), std::move(text)};
}

TextEdit RuleSet::add_argument(const Node& call, const std::string& text) const {
  return add_arguments(call, {text});
}

TextEdit RuleSet::add_arguments(const Node& call, const std::vector<std::string>& texts) const {
  std::string text;
  for (const std::string& t : texts)
    text += (text.empty() ? "" : ", ") + t;
  std::size_t last = 0;
  bool any = false;
  for (const NodePtr& a : call_args(call)) {
    last = std::max(last, ctx_.layout().end(*a));
    any = true;
  }
  for (const NodePtr& k : call_keywords(call)) {
    last = std::max(last, ctx_.layout().end(*k));
    any = true;
  }
  if (any) return TextEdit{last, last, ", " + text};
  std::size_t close = ctx_.layout().end(call) - 1;  // the call's ')'
  return TextEdit{close, close, text};
}

std::optional<Edits> RuleSet::scale_argument(const Node& call,
                                             const std::vector<std::string>& keywords,
                                             const std::string& op, const Env& sigma,
                                             const std::optional<std::string>& fallback) {
  const Node* target = nullptr;
  for (const std::string& k : keywords)
    if (const Node* kw = find_keyword(call, k)) {
      target = kw->child("value");
      break;
    }
  if (!target && !call_args(call).empty() && !call_args(call).front()->is(Kind::Starred))
    target = call_args(call).front().get();
  if (target) {
    // A learning rate schedule the rules already scaled (σ("lr_scheduler")) is not scaled twice.
    if (target->is(Kind::Name) && sigma.is("lr_scheduler", target->text("id"))) return Edits{};
    return Edits{replace(*target, operand(*target) + " " + op + " " + size())};
  }
  // Amended: standalone Keras 2.2 knows only `lr=` (2.3 also takes it).
  std::string keyword =
      standalone_keras2() && keywords.front() == "learning_rate" ? "lr" : keywords.front();
  if (fallback)
    return Edits{add_argument(call, keyword + "=" + *fallback + " " + op + " " + size())};
  return std::nullopt;
}

bool RuleSet::pure_for_printing(const Node& e, const Env& sigma) const {
  static const std::set<std::string> pure = {"str",    "repr", "format", "len",  "int",  "float",
                                             "round",  "abs",  "min",    "max",  "type", "sum",
                                             "sorted", "list", "tuple",  "dict", "bool", "id"};
  if (e.is(Kind::Call)) {
    const Node& f = call_func(e);
    bool ok = (f.is(Kind::Name) && pure.count(f.text("id"))) ||
              (f.is(Kind::Attribute) && (f.text("attr") == "format" || f.text("attr") == "numpy" ||
                                         f.text("attr") == "item" || f.text("attr") == "join" ||
                                         f.text("attr") == "result"));
    if (!ok) return false;
  }
  if (e.is(Kind::NamedExpr) || e.is(Kind::Await) || e.is(Kind::Yield) || e.is(Kind::YieldFrom))
    return false;
  for (const Field& f : e.fields) {
    if (f.tag == Field::Tag::Node && !pure_for_printing(*f.node, sigma)) return false;
    if (f.tag == Field::Tag::List)
      for (const NodePtr& c : f.list)
        if (c && !pure_for_printing(*c, sigma)) return false;
  }
  return true;
}

}  // namespace adlang::py
