// `adlang fmt`: the surface syntax printed back with its abbreviations (printer.hpp).
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/layout.hpp"
#include "lang/printer.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

using layout::Doc;

std::string binder_text(const Binder& b) {
  if (!b.type) return b.name.str();
  return b.name.str() + ": " + to_string(b.type);
}

class SyntaxPrinter {
 public:
  Doc doc(const Syntax& s) {
    const StackScope stack_scope = check_stack("the program is nested too deeply to print");
    switch (s->kind) {
      case SyntaxKind::Var:
        return {s->name.str(), layout::kAtom};
      case SyntaxKind::Number:
        return {s->text, s->text[0] == '-' ? layout::kPrefix : layout::kAtom};
      case SyntaxKind::Unit:
        return {"*", layout::kAtom};
      case SyntaxKind::Tuple:
        return {"(" + layout::indent(list(s->kids), 1) + ")", layout::kAtom};
      case SyntaxKind::Binary: {
        static const char* const symbols[] = {"+", "-", "*", "/"};
        int level =
            (s->binop == BinOp::Plus || s->binop == BinOp::Minus) ? layout::kSum : layout::kProduct;
        return {layout::at_level(doc(s->kids[0]), level) + " " +
                    symbols[static_cast<int>(s->binop)] + " " +
                    layout::at_level(doc(s->kids[1]), level + 1),
                level};
      }
      case SyntaxKind::Neg:
        return {"-" + layout::neg_operand(doc(s->kids[0])), layout::kPrefix};
      case SyntaxKind::Call:
        return {s->name.str() + "(" + list(s->kids) + ")", layout::kPostfix};
      case SyntaxKind::Fst:
      case SyntaxKind::Snd:
        return {std::string(s->kind == SyntaxKind::Fst ? "fst " : "snd ") +
                    layout::at_level(doc(s->kids[0]), layout::kPrefix),
                layout::kPrefix};
      case SyntaxKind::Let:
        return {layout::let_layout("let", binder_text(s->binders[0]), open(s->kids[0]),
                                   open(s->kids[1])),
                layout::kOpen};
      case SyntaxKind::TupleLet: {
        std::string head = "(";
        for (std::size_t i = 0; i < s->binders.size(); ++i)
          head += (i ? ", " : "") + binder_text(s->binders[i]);
        head += ")";
        return {layout::let_layout("let", head, open(s->kids[0]), open(s->kids[1])), layout::kOpen};
      }
      case SyntaxKind::LetFun:
      case SyntaxKind::LetRec: {
        std::string head =
            s->name.str() + "(" + binder_text(s->binders[0]) + "): " + to_string(s->type);
        return {layout::let_layout(s->kind == SyntaxKind::LetFun ? "let" : "letrec", head,
                                   open(s->kids[0]), open(s->kids[1])),
                layout::kOpen};
      }
      case SyntaxKind::If:
        return {layout::if_layout(open(s->kids[0]), open(s->kids[1]), open(s->kids[2])),
                layout::kOpen};
      case SyntaxKind::Rd:
      case SyntaxKind::Fd: {
        std::string head = layout::at_level(doc(s->kids[0]), layout::kPostfix);
        if (!head.empty() && head[0] == '-') head = "(" + head + ")";
        return {head + (s->kind == SyntaxKind::Rd ? ".rd[" : ".fd[") + open(s->kids[1]) + "](" +
                    binder_text(s->binders[0]) + ". " + open(s->kids[2]) + ")",
                layout::kPostfix};
      }
      case SyntaxKind::Grad:
        return {"grad[" + open(s->kids[0]) + "](" + binder_text(s->binders[0]) + ". " +
                    open(s->kids[1]) + ")",
                layout::kAtom};
      case SyntaxKind::Compare:
        return {layout::at_level(doc(s->kids[0]), layout::kSum) + " " +
                    Pred::make(s->pred).symbol() + " " +
                    layout::at_level(doc(s->kids[1]), layout::kSum),
                layout::kCompare};
      case SyntaxKind::Bool:
        return {s->bool_value ? "true" : "false", layout::kAtom};
      case SyntaxKind::Zero:
        return {"zero[" + to_string(s->type) + "]", layout::kAtom};
      case SyntaxKind::AddAt:
        return {"add[" + to_string(s->type) + "](" + list(s->kids) + ")", layout::kPostfix};
    }
    throw InternalError("internal error: unknown syntax kind in printer");
  }

  std::string open(const Syntax& s) { return doc(s).text; }

 private:
  std::string list(const std::vector<Syntax>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
      out += (i ? ", " : "") + open(items[i]);
    return out;
  }
};

}  // namespace

std::string print_syntax(const Syntax& s) {
  return SyntaxPrinter().open(s);
}

std::string print_syntax_program(const SyntaxProgram& p) {
  SyntaxPrinter printer;
  std::string out;
  for (const SyntaxDef& d : p.defs) {
    out += "def " + d.name.str() + "(" + binder_text(d.param) + "): " + to_string(d.result_type) +
           " =\n  " + layout::indent(printer.open(d.body), 2) + ";\n";
  }
  if (!p.defs.empty()) out += "\n";
  out += printer.open(p.main) + "\n";
  return out;
}

}  // namespace adlang
