#include "lang/type.hpp"

#include <map>
#include <mutex>
#include <utility>

namespace adlang {

class TypeNode {
 public:
  TypeNode(TypeKind k, const TypeNode* a, const TypeNode* b, std::size_t size, std::size_t power)
      : kind(k), first(a), second(b), size(size), power(power) {}
  TypeKind kind;
  const TypeNode* first;
  const TypeNode* second;
  std::size_t size;
  std::size_t power;  // n >= 2 if real^n, else 0
};

namespace {

struct TypeTable {
  std::mutex mutex;
  std::map<std::pair<const TypeNode*, const TypeNode*>, const TypeNode*> pairs;
};

TypeTable& type_table() {
  static TypeTable* table = new TypeTable();  // Never destroyed: Types outlive statics.
  return *table;
}

const TypeNode* real_node() {
  static const TypeNode* n = new TypeNode(TypeKind::Real, nullptr, nullptr, 1, 0);
  return n;
}

const TypeNode* unit_node() {
  static const TypeNode* n = new TypeNode(TypeKind::Unit, nullptr, nullptr, 0, 0);
  return n;
}

}  // namespace

Type Type::real() {
  return Type(real_node());
}
Type Type::unit() {
  return Type(unit_node());
}

Type Type::pair(Type a, Type b) {
  TypeTable& t = type_table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto key = std::make_pair(a.n_, b.n_);
  auto it = t.pairs.find(key);
  if (it != t.pairs.end()) return Type(it->second);
  std::size_t power = 0;
  if (b.n_ == real_node()) {
    if (a.n_ == real_node())
      power = 2;
    else if (a.n_->power >= 2)
      power = a.n_->power + 1;
  }
  const TypeNode* n = new TypeNode(TypeKind::Pair, a.n_, b.n_, a.n_->size + b.n_->size, power);
  t.pairs.emplace(key, n);
  return Type(n);
}

Type Type::real_power(std::size_t n) {
  if (n == 0) return unit();
  Type t = real();
  for (std::size_t i = 1; i < n; ++i)
    t = pair(t, real());
  return t;
}

TypeKind Type::kind() const {
  return n_->kind;
}
Type Type::first() const {
  return Type(n_->first);
}
Type Type::second() const {
  return Type(n_->second);
}
std::size_t Type::size() const {
  return n_->size;
}
std::size_t Type::real_power_exponent() const {
  return n_->power;
}

namespace {

void print_type(Type t, bool parenthesize_pair, std::string& out) {
  switch (t.kind()) {
    case TypeKind::Real:
      out += "real";
      return;
    case TypeKind::Unit:
      out += "unit";
      return;
    case TypeKind::Pair: {
      std::size_t n = t.real_power_exponent();
      if (n >= 3) {
        out += "real^" + std::to_string(n);
        return;
      }
      if (parenthesize_pair) out += '(';
      // '*' on types is left-associative: only a pair on the right needs parentheses.
      print_type(t.first(), false, out);
      out += " * ";
      print_type(t.second(), true, out);
      if (parenthesize_pair) out += ')';
      return;
    }
  }
}

}  // namespace

std::string to_string(Type t) {
  std::string out;
  print_type(t, false, out);
  return out;
}

}  // namespace adlang
