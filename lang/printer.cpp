#include "lang/printer.hpp"

#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/layout.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

using layout::Doc;

class TermPrinter {
 public:
  explicit TermPrinter(PrintStyle style)
      : paper_(style == PrintStyle::Paper), ids_(style == PrintStyle::Resolved) {}

  Doc term(const Term& t) {
    const StackScope stack_scope = check_stack("a term is nested too deeply to print");
    switch (t.kind()) {
      case TermKind::Var:
        return {t.as<Var>()->name.str(), layout::kAtom};
      case TermKind::Literal: {
        const std::string& text = t.as<Literal>()->text;
        return {text, text[0] == '-' ? layout::kPrefix : layout::kAtom};
      }
      case TermKind::Add: {
        const Add* a = t.as<Add>();
        return infix(a->lhs, "+", a->rhs, layout::kSum);
      }
      case TermKind::Op:
        return op(*t.as<OpApp>());
      case TermKind::Let: {
        // A chain of lets in body position (every trace of a loop) is printed in one pass, so
        // printing is linear in the chain's length and does not recurse along it.
        std::string out;
        Term cur = t;
        while (const Let* l = cur.as<Let>()) {
          std::string head = l->var.str() + (paper_ ? ":" : ": ") + to_string(l->bound.type());
          out += layout::let_layout("let", head, open(l->bound), "");
          cur = l->body;
        }
        out += open(cur);
        return {out, layout::kOpen};
      }
      case TermKind::Unit:
        return {"*", layout::kAtom};
      case TermKind::Pair:
        return pair(t);
      case TermKind::Fst:
        return projection("fst", t.as<Fst>()->arg);
      case TermKind::Snd:
        return projection("snd", t.as<Snd>()->arg);
      case TermKind::If: {
        const If* i = t.as<If>();
        return {layout::if_layout(boolean(i->guard), open(i->then_branch), open(i->else_branch)),
                layout::kOpen};
      }
      case TermKind::LetRec:
        return letrec(*t.as<LetRec>());
      case TermKind::Call: {
        const Call* c = t.as<Call>();
        return {function_name(c->fun.name, c->fun.id) + "(" + arguments(c->arg) + ")",
                layout::kPostfix};
      }
      case TermKind::Rd: {
        const Rd* r = t.as<Rd>();
        std::string bind = r->var.str() + (paper_ ? ":" : ": ") + to_string(r->point.type()) +
                           ". " + open(r->body);
        std::string point = open(r->point);
        std::string head = layout::at_level(term(r->cotangent), layout::kPostfix);
        if (!paper_ && !head.empty() && head[0] == '-') head = "(" + head + ")";
        std::string text = paper_ ? head + ".rd_{" + point + "}(" + bind + ")"
                                  : head + ".rd[" + point + "](" + bind + ")";
        return {text, layout::kPostfix};
      }
    }
    throw InternalError("internal error: unknown term kind in printer");
  }

  std::string boolean(const BoolTerm& b) {
    switch (b.kind()) {
      case BoolKind::Const:
        return b.as<BoolConst>()->value ? "true" : "false";
      case BoolKind::Pred: {
        const PredApp* p = b.as<PredApp>();
        if (const Pair* args = p->arg.as<Pair>(); args && !paper_) {
          return layout::at_level(term(args->first), layout::kSum) + " " + p->pred.symbol() + " " +
                 layout::at_level(term(args->second), layout::kSum);
        }
        return p->pred.name() + "(" + arguments(p->arg) + ")";
      }
    }
    throw InternalError("internal error: unknown boolean term kind in printer");
  }

  std::string program(const Term& t) {
    const LetRec* group = t.as<LetRec>();
    if (!group || paper_) return open(t) + "\n";
    std::string out;
    for (const FunDef& d : group->defs) {
      out += "def " + header(d) + " =\n  " + layout::indent(open(d.body), 2) + ";\n";
    }
    out += "\n" + open(group->body) + "\n";
    return out;
  }

  std::string open(const Term& t) { return term(t).text; }

 private:
  bool paper_;
  bool ids_;  // PrintStyle::Resolved

  // f, or f#id when printing resolution.
  std::string function_name(Name f, FunId id) {
    if (!ids_) return f.str();
    return f.str() + "#" +
           (id == FunId::Unresolved ? std::string("?")
                                    : std::to_string(static_cast<std::uint32_t>(id)));
  }

  Doc infix(const Term& a, const char* sym, const Term& b, int level) {
    // Left-associative: the right operand needs a tighter level than the operator's own.
    return {
        layout::at_level(term(a), level) + " " + sym + " " + layout::at_level(term(b), level + 1),
        level};
  }

  Doc op(const OpApp& o) {
    if (!paper_) {
      const Pair* args = o.arg.as<Pair>();
      if (const char* sym = o.op.infix_symbol(); sym && args) {
        int level = o.op.kind() == OpKind::Sub ? layout::kSum : layout::kProduct;
        return infix(args->first, sym, args->second, level);
      }
      if (o.op.kind() == OpKind::Neg && o.arg.kind() != TermKind::Literal)
        return {"-" + layout::neg_operand(term(o.arg)), layout::kPrefix};
    }
    return {o.op.name() + "(" + arguments(o.arg) + ")", layout::kPostfix};
  }

  // The argument of f(...): a pair (a, (b, c)) prints as `a, (b, c)` and ((a, b), c) as
  // `a, b, c`, since f(a, b, c) means f(((a, b), c)).
  std::string arguments(const Term& arg) {
    if (paper_) return open(arg);
    if (arg.as<Pair>()) return flat_tuple(arg);
    return open(arg);
  }

  std::string flat_tuple(const Term& t) {
    std::vector<const TermNode*> parts;
    Term cur = t;
    while (const Pair* p = cur.as<Pair>()) {
      parts.push_back(p->second.get());
      cur = p->first;
    }
    std::string out = open(cur);
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
      out += ", " + open(Term(*it));
    return out;
  }

  Doc pair(const Term& t) {
    if (paper_) {
      const Pair* p = t.as<Pair>();
      return {"<" + open(p->first) + ", " + open(p->second) + ">", layout::kAtom};
    }
    return {"(" + layout::indent(flat_tuple(t), 1) + ")", layout::kAtom};
  }

  Doc projection(const char* name, const Term& arg) {
    if (paper_) return {std::string(name) + "(" + open(arg) + ")", layout::kPostfix};
    std::string operand = layout::at_level(term(arg), layout::kPrefix);
    return {std::string(name) + " " + operand, layout::kPrefix};
  }

  std::string header(const FunDef& d) {
    return function_name(d.name, d.id) + "(" + d.param.str() + ": " + to_string(d.param_type) +
           "): " + to_string(d.result_type);
  }

  Doc letrec(const LetRec& l) {
    if (l.defs.size() != 1) {
      throw InternalError(
          "internal error: a mutually recursive group can only be printed at the top of a "
          "program (as defs)");
    }
    const FunDef& d = l.defs[0];
    return {layout::let_layout("letrec", header(d), open(d.body), open(l.body)), layout::kOpen};
  }
};

}  // namespace

std::string print_term(const Term& t, PrintStyle style) {
  return TermPrinter(style).open(t);
}

std::string print_bool(const BoolTerm& b, PrintStyle style) {
  return TermPrinter(style).boolean(b);
}

std::string print_program(const Term& t, PrintStyle style) {
  return TermPrinter(style).program(t);
}

}  // namespace adlang
