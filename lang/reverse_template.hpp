// The reverse derivatives op_r of the operator table (docs/design.md Sec. 5): the templates written
// in each operator's definition (lang/operators.hpp), parsed by the compiler (a constexpr
// parser: a template that does not parse, or names an operator outside the table, does not
// compile) into small trees, and instantiated as trace terms over table operators. R's op
// clause (Fig. 6) writes W.op_r(D) for op_r(<D, W>); we expand it to the template, so nested
// differentiation only ever meets table operators. The run-time tape (semantics/compiled/tape.hpp)
// evaluates the same trees on scalars.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lang/name.hpp"
#include "lang/op.hpp"
#include "lang/operators.hpp"
#include "lang/term.hpp"

namespace adlang {

// A node of a parsed template: w, x, a component of a pair x, an integer literal, a table
// operator applied to one argument or to a pair of arguments, or a pair (of the adjoints of the
// two components of a pair argument). Its parts are indices of other nodes.
struct ReverseNode {
  enum class Kind : std::uint8_t { Cotangent, Argument, First, Second, Literal, Apply, Pair };
  Kind kind = Kind::Literal;
  OpKind op = OpKind::Neg;  // Apply; a sized operator has the size of the one differentiated
  int literal = 0;          // Literal
  int parts[2] = {-1, -1};  // Apply (two parts: its argument is their pair), Pair
  int nparts = 0;
};

// A parsed template: its nodes, children before parents, and the root.
struct ReverseTemplate {
  std::array<ReverseNode, 16> nodes{};
  int size = 0;
  int root = -1;
  constexpr const ReverseNode& node(int i) const { return nodes[static_cast<std::size_t>(i)]; }
};

namespace reverse_template_detail {

// A recursive-descent reader of the templates' notation:
//   expr ::= '(' expr ',' expr ')' | name '(' expr [',' expr] ')' | variable | integer
// where a sized operator is written name_n and the variables are w, x, a b (the components of
// real * real), u v (of real^n * real^n) and c v (of real * real^n). Run by the compiler: an
// error is a throw, which makes the constant expression fail to compile.
class Reader {
 public:
  constexpr explicit Reader(std::string_view text) : s_(text) {}

  constexpr ReverseTemplate read() {
    t_.root = expr();
    skip_space();
    if (i_ != s_.size()) throw "text after the end of a reverse template";
    return t_;
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
  ReverseTemplate t_{};

  constexpr int add(ReverseNode n) {
    if (t_.size == static_cast<int>(t_.nodes.size())) throw "a reverse template too large";
    t_.nodes[static_cast<std::size_t>(t_.size)] = n;
    return t_.size++;
  }
  constexpr void skip_space() {
    while (i_ < s_.size() && s_[i_] == ' ')
      ++i_;
  }
  constexpr bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  constexpr void expect(char c) {
    if (!eat(c)) throw "a parenthesis or comma is missing in a reverse template";
  }
  static constexpr bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  }
  static constexpr ReverseNode leaf(ReverseNode::Kind k) {
    ReverseNode n;
    n.kind = k;
    return n;
  }

  constexpr int expr() {
    skip_space();
    if (eat('(')) {
      ReverseNode p = leaf(ReverseNode::Kind::Pair);
      p.parts[0] = expr();
      expect(',');
      p.parts[1] = expr();
      expect(')');
      p.nparts = 2;
      return add(p);
    }
    std::size_t start = i_;
    while (i_ < s_.size() && word_char(s_[i_]))
      ++i_;
    std::string_view word = s_.substr(start, i_ - start);
    if (word.empty()) throw "a name or number is missing in a reverse template";
    if (word[0] >= '0' && word[0] <= '9') {
      ReverseNode lit = leaf(ReverseNode::Kind::Literal);
      for (char c : word) {
        if (c < '0' || c > '9') throw "a malformed integer in a reverse template";
        lit.literal = lit.literal * 10 + (c - '0');
      }
      return add(lit);
    }
    if (eat('(')) return apply(word);
    if (word == "w") return add(leaf(ReverseNode::Kind::Cotangent));
    if (word == "x") return add(leaf(ReverseNode::Kind::Argument));
    if (word == "a" || word == "u" || word == "c") return add(leaf(ReverseNode::Kind::First));
    if (word == "b" || word == "v") return add(leaf(ReverseNode::Kind::Second));
    throw "an unknown variable in a reverse template";
  }

  static constexpr bool names(std::string_view word, const OpDefinition& d) {
    if (!d.sized) return word == d.name;
    return word.size() == d.name.size() + 2 && word.substr(0, d.name.size()) == d.name &&
           word.substr(d.name.size()) == "_n";
  }

  constexpr int apply(std::string_view word) {
    ReverseNode e = leaf(ReverseNode::Kind::Apply);
    bool found = false;
    for (const OpDefinition& d : kOpDefinitions) {
      if (names(word, d)) {
        e.op = d.kind;
        found = true;
      }
    }
    if (!found) throw "an operator outside the table in a reverse template";
    e.parts[0] = expr();
    e.nparts = 1;
    if (eat(',')) {
      e.parts[1] = expr();
      e.nparts = 2;
    }
    expect(')');
    return add(e);
  }
};

constexpr std::array<ReverseTemplate, kOpKindCount> parse_all() {
  std::array<ReverseTemplate, kOpKindCount> all{};
  for (std::size_t k = 0; k < kOpKindCount; ++k)
    all[k] = Reader(kOpDefinitions[k].reverse).read();
  return all;
}

constexpr bool reads_argument(const ReverseTemplate& t, int i) {
  const ReverseNode& n = t.node(i);
  switch (n.kind) {
    case ReverseNode::Kind::Argument:
    case ReverseNode::Kind::First:
    case ReverseNode::Kind::Second:
      return true;
    case ReverseNode::Kind::Cotangent:
    case ReverseNode::Kind::Literal:
      return false;
    case ReverseNode::Kind::Apply:
    case ReverseNode::Kind::Pair:
      for (int p = 0; p < n.nparts; ++p)
        if (reads_argument(t, n.parts[p])) return true;
      return false;
  }
  return true;
}

}  // namespace reverse_template_detail

// The parsed template of each operator, by OpKind, computed by the compiler.
inline constexpr std::array<ReverseTemplate, kOpKindCount> kReverseTemplates =
    reverse_template_detail::parse_all();

constexpr const ReverseTemplate& reverse_rule(OpKind k) {
  return kReverseTemplates[static_cast<std::size_t>(k)];
}

// Whether op_r reads its argument x (mul's does, add's does not): what the tape keeps.
constexpr bool reverse_reads_argument(OpKind k) {
  const ReverseTemplate& t = reverse_rule(k);
  return reverse_template_detail::reads_argument(t, t.root);
}

// op_r(<x, w>) for values x : op.arg_type() and w : op.result_type(). The values may be used
// more than once in the result (they are variables, constants or pairs of them); when x is a
// syntactic pair its components are used directly instead of fst x / snd x.
Term reverse_template(Op op, const Term& x, const Term& w, SourceLoc loc = {});

// W.op_r(D) for any trace term D and value W: the template, with D let-bound to a fresh name
// first when it is not a value (so it is evaluated once).
Term instantiate_reverse(Op op, const Term& d, const Term& w, NameSupply& names,
                         SourceLoc loc = {});

}  // namespace adlang
