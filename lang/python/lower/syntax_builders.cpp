// The small syntax builders of lowerer.hpp.
#include "lang/python/lower/lowerer.hpp"

namespace adlang::py {

Syntax syn_node(SyntaxKind k, SourceLoc l) {
  return Syntax(new SyntaxNode(k, l));
}

SyntaxNode* syn_new(SyntaxKind k, SourceLoc l) {
  return new SyntaxNode(k, l);
}

Syntax syn_number(const std::string& text, SourceLoc l) {
  SyntaxNode* s = syn_new(SyntaxKind::Number, l);
  s->text = text;
  return Syntax(s);
}

Syntax syn_var(Name x, SourceLoc l) {
  SyntaxNode* s = syn_new(SyntaxKind::Var, l);
  s->name = x;
  return Syntax(s);
}

Syntax syn_binary(BinOp op, Syntax a, Syntax b, SourceLoc l) {
  SyntaxNode* s = syn_new(SyntaxKind::Binary, l);
  s->binop = op;
  s->kids = {a, b};
  return Syntax(s);
}

Syntax syn_neg(Syntax a, SourceLoc l) {
  if (a->kind == SyntaxKind::Number && !a->text.empty()) {
    return syn_number(a->text[0] == '-' ? a->text.substr(1) : "-" + a->text, l);
  }
  SyntaxNode* s = syn_new(SyntaxKind::Neg, l);
  s->kids = {a};
  return Syntax(s);
}

Syntax syn_call(Name f, std::vector<Syntax> args, SourceLoc l) {
  SyntaxNode* s = syn_new(SyntaxKind::Call, l);
  s->name = f;
  s->kids = std::move(args);
  return Syntax(s);
}

Syntax syn_tuple(std::vector<Syntax> parts, SourceLoc l) {
  if (parts.empty()) return syn_node(SyntaxKind::Unit, l);
  if (parts.size() == 1) return parts[0];
  SyntaxNode* s = syn_new(SyntaxKind::Tuple, l);
  s->kids = std::move(parts);
  return Syntax(s);
}

Syntax syn_if(Syntax guard, Syntax m, Syntax n, SourceLoc l) {
  SyntaxNode* s = syn_new(SyntaxKind::If, l);
  s->kids = {guard, m, n};
  return Syntax(s);
}

Syntax syn_compare(PredKind p, Syntax a, Syntax b, SourceLoc l) {
  SyntaxNode* s = syn_new(SyntaxKind::Compare, l);
  s->pred = p;
  s->kids = {a, b};
  return Syntax(s);
}

Syntax syn_bool(bool v, SourceLoc l) {
  SyntaxNode* s = syn_new(SyntaxKind::Bool, l);
  s->bool_value = v;
  return Syntax(s);
}

Syntax syn_let(Name x, Syntax m, Syntax n, SourceLoc l) {
  SyntaxNode* s = syn_new(SyntaxKind::Let, l);
  s->binders = {Binder{x, Type(), l}};
  s->kids = {m, n};
  return Syntax(s);
}

Syntax syn_tuple_let(const std::vector<Name>& xs, const std::vector<Shape>& shapes, Syntax m,
                     Syntax n, SourceLoc l) {
  if (xs.empty()) return n;
  if (xs.size() == 1) return syn_let(xs[0], m, n, l);
  SyntaxNode* s = syn_new(SyntaxKind::TupleLet, l);
  for (std::size_t i = 0; i < xs.size(); ++i)
    s->binders.push_back(Binder{xs[i], shapes[i].type(), l});
  s->kids = {m, n};
  return Syntax(s);
}

Syntax syn_project(Syntax t, std::size_t n, std::size_t i, SourceLoc l) {
  if (n <= 1) return t;
  if (i == n - 1) {
    SyntaxNode* s = syn_new(SyntaxKind::Snd, l);
    s->kids = {t};
    return Syntax(s);
  }
  SyntaxNode* f = syn_new(SyntaxKind::Fst, l);
  f->kids = {t};
  return syn_project(Syntax(f), n - 1, i, l);
}

}  // namespace adlang::py
