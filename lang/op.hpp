// An operator of the table at a vector size: the handle every consumer passes around. What
// each operator is (name, type, domain, primal, reverse template) is defined once, in
// lang/operators.hpp; this class reads it from there. Evaluation of operators lives in
// semantics/op_eval.hpp, not here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/operators.hpp"
#include "lang/type.hpp"

namespace adlang {

// The largest vector size accepted in dot_n / scale_n (a guard against absurd types).
inline constexpr unsigned kMaxVectorOpSize = 1u << 16;

class Op {
 public:
  // Looks up an operator by its concrete-syntax name: "sin", "dot_3", "scale_2", ...
  static std::optional<Op> lookup(std::string_view name);
  // The operator of kind k; `n` is the vector size for Dot and Scale (n >= 1), ignored otherwise.
  static Op make(OpKind k, unsigned n = 0) {
    if (!adlang::definition(k).sized) return Op(k, 0);
    check_vector_size(n);
    return Op(k, n);
  }
  // Every operator with vector size at most `max_n`: the table a test walks.
  static std::vector<Op> all(unsigned max_n);

  OpKind kind() const { return kind_; }
  unsigned vector_size() const { return n_; }
  std::string name() const;
  Type arg_type() const;
  Type result_type() const;
  OpDomain domain() const { return definition().domain; }
  // The sizes of the argument and the result, in reals (|T| and |U|).
  std::size_t arg_size() const { return size_of(definition().arg, n_); }
  std::size_t result_size() const { return size_of(definition().result, n_); }
  // Its definition (lang/operators.hpp).
  const OpDefinition& definition() const { return adlang::definition(kind_); }
  // The domain in words, for error messages: "its argument must be > 0".
  std::string domain_text() const;
  // True for + - * / style binary operators written infix in the concrete syntax.
  const char* infix_symbol() const { return definition().infix; }
  // Whether the operator belongs to the polynomial fragment (exact rational evaluation).
  bool is_polynomial() const { return definition().polynomial; }

  bool operator==(const Op&) const = default;

 private:
  Op(OpKind k, unsigned n) : kind_(k), n_(n) {}
  // An internal error unless 1 <= n <= kMaxVectorOpSize.
  static void check_vector_size(unsigned n);
  OpKind kind_;
  unsigned n_;
};

// The names of the operators in the polynomial fragment, which exact rationals compute, for
// messages: "neg add sub mul div dot_n scale_n".
std::string polynomial_operator_names();

// Predicate symbols (paper Sec. 2: pred : T, here all on real * real).
enum class PredKind { Lt, Gt, Le, Ge, Eq };

class Pred {
 public:
  static std::optional<Pred> lookup(std::string_view name);  // lt gt le ge eq
  static Pred make(PredKind k) { return Pred(k); }
  static std::vector<Pred> all();
  PredKind kind() const { return kind_; }
  std::string name() const;
  const char* symbol() const;  // < > <= >= =
  Type arg_type() const { return Type::pair(Type::real(), Type::real()); }
  bool operator==(const Pred&) const = default;

 private:
  explicit Pred(PredKind k) : kind_(k) {}
  PredKind kind_;
};

}  // namespace adlang
