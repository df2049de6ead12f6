// Types of the language (paper Sec. 2): T ::= real | unit | T * U.
//
// Types are hash-consed: structurally equal types are the same object, so equality is pointer
// equality and a Type is a cheap value. |T| is the dimension of [[T]] = R^|T| (paper Sec. 5).
#pragma once

#include <cstddef>
#include <string>

namespace adlang {

enum class TypeKind { Real, Unit, Pair };

class TypeNode;

class Type {
 public:
  Type() = default;  // A null type; only for default-made slots, never in IR.

  static Type real();
  static Type unit();
  static Type pair(Type first, Type second);
  // real^n: unit for n = 0, real for n = 1, (real^(n-1)) * real otherwise (paper Sec. 2).
  static Type real_power(std::size_t n);

  TypeKind kind() const;
  bool is_real() const { return kind() == TypeKind::Real; }
  bool is_unit() const { return kind() == TypeKind::Unit; }
  bool is_pair() const { return kind() == TypeKind::Pair; }
  // Components of a pair type (T and U of T * U).
  Type first() const;
  Type second() const;
  // |T|: the number of reals in a value of this type.
  std::size_t size() const;
  // n if this type is real^n with n >= 2 (the left-nested product of reals), else 0.
  std::size_t real_power_exponent() const;

  bool operator==(const Type& o) const { return n_ == o.n_; }
  bool operator!=(const Type& o) const { return n_ != o.n_; }
  explicit operator bool() const { return n_ != nullptr; }
  const TypeNode* node() const { return n_; }

 private:
  explicit Type(const TypeNode* n) : n_(n) {}
  const TypeNode* n_ = nullptr;
};

// Concrete syntax of a type (docs/design.md Sec. 3): `real`, `unit`, `real * (real * real)`, and
// `real^n` for left-nested products of n >= 3 reals.
std::string to_string(Type t);

}  // namespace adlang
