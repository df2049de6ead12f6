#include "lang/op.hpp"

#include <charconv>

#include "lang/diagnostics.hpp"

namespace adlang {

namespace {

struct ScalarOpInfo {
  OpKind kind;
  const char* name;
};

constexpr ScalarOpInfo kNamedOps[] = {
    {OpKind::Neg, "neg"},     {OpKind::Add, "add"},   {OpKind::Sub, "sub"},
    {OpKind::Mul, "mul"},     {OpKind::Div, "div"},   {OpKind::Sin, "sin"},
    {OpKind::Cos, "cos"},     {OpKind::Exp, "exp"},   {OpKind::Log, "log"},
    {OpKind::Sqrt, "sqrt"},   {OpKind::Tanh, "tanh"}, {OpKind::Sigmoid, "sigmoid"},
    {OpKind::Floor, "floor"},
};

std::optional<unsigned> parse_size_suffix(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::string_view digits = name.substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;  // dot_03 is not dot_3
  unsigned n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  if (n < 1 || n > kMaxVectorOpSize) return std::nullopt;
  return n;
}

}  // namespace

std::optional<Op> Op::lookup(std::string_view name) {
  for (const ScalarOpInfo& info : kNamedOps)
    if (name == info.name) return Op(info.kind, 0);
  if (auto n = parse_size_suffix(name, "dot_")) return Op(OpKind::Dot, *n);
  if (auto n = parse_size_suffix(name, "scale_")) return Op(OpKind::Scale, *n);
  return std::nullopt;
}

Op Op::make(OpKind k, unsigned n) {
  if (k == OpKind::Dot || k == OpKind::Scale) {
    internal_check(n >= 1 && n <= kMaxVectorOpSize, "vector operator size out of range");
    return Op(k, n);
  }
  return Op(k, 0);
}

std::vector<Op> Op::all(unsigned max_n) {
  std::vector<Op> ops;
  for (const ScalarOpInfo& info : kNamedOps)
    ops.push_back(Op(info.kind, 0));
  for (unsigned n = 1; n <= max_n; ++n) {
    ops.push_back(Op(OpKind::Dot, n));
    ops.push_back(Op(OpKind::Scale, n));
  }
  return ops;
}

std::string Op::name() const {
  switch (kind_) {
    case OpKind::Dot:
      return "dot_" + std::to_string(n_);
    case OpKind::Scale:
      return "scale_" + std::to_string(n_);
    case OpKind::Neg:
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Sqrt:
    case OpKind::Tanh:
    case OpKind::Sigmoid:
    case OpKind::Floor:
      break;
  }
  for (const ScalarOpInfo& info : kNamedOps)
    if (info.kind == kind_) return info.name;
  throw InternalError("internal error: operator without a name");
}

Type Op::arg_type() const {
  Type real = Type::real();
  switch (kind_) {
    case OpKind::Neg:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Sqrt:
    case OpKind::Tanh:
    case OpKind::Sigmoid:
    case OpKind::Floor:
      return real;
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
      return Type::pair(real, real);
    case OpKind::Dot:
      return Type::pair(Type::real_power(n_), Type::real_power(n_));
    case OpKind::Scale:
      return Type::pair(real, Type::real_power(n_));
  }
  throw InternalError("internal error: unknown operator kind");
}

Type Op::result_type() const {
  if (kind_ == OpKind::Scale) return Type::real_power(n_);
  return Type::real();
}

OpDomain Op::domain() const {
  switch (kind_) {
    case OpKind::Log:
    case OpKind::Sqrt:
      return OpDomain::PositiveArgument;
    case OpKind::Div:
      return OpDomain::NonzeroDenominator;
    case OpKind::Floor:
      return OpDomain::OffIntegers;
    case OpKind::Neg:
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Exp:
    case OpKind::Tanh:
    case OpKind::Sigmoid:
    case OpKind::Dot:
    case OpKind::Scale:
      return OpDomain::All;
  }
  throw InternalError("internal error: unknown operator kind");
}

std::string Op::domain_text() const {
  switch (domain()) {
    case OpDomain::All:
      return "it is defined everywhere";
    case OpDomain::PositiveArgument:
      return name() + "(x) is defined (and smooth) only for x > 0";
    case OpDomain::NonzeroDenominator:
      return "a / b is defined only for b != 0";
    case OpDomain::OffIntegers:
      return name() +
             "(x) is smooth (and defined) only off the integers, where it does not jump; "
             "--predicates total makes it total";
  }
  throw InternalError("internal error: unknown operator domain");
}

const char* Op::infix_symbol() const {
  switch (kind_) {
    case OpKind::Sub:
      return "-";
    case OpKind::Mul:
      return "*";
    case OpKind::Div:
      return "/";
    case OpKind::Neg:
    case OpKind::Add:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Sqrt:
    case OpKind::Tanh:
    case OpKind::Sigmoid:
    case OpKind::Floor:
    case OpKind::Dot:
    case OpKind::Scale:
      return nullptr;
  }
  return nullptr;
}

bool Op::is_polynomial() const {
  switch (kind_) {
    case OpKind::Neg:
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Dot:
    case OpKind::Scale:
      return true;
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Sqrt:
    case OpKind::Tanh:
    case OpKind::Sigmoid:
    case OpKind::Floor:
      return false;
  }
  return false;
}

namespace {

struct PredInfo {
  PredKind kind;
  const char* name;
  const char* symbol;
};

constexpr PredInfo kPreds[] = {
    {PredKind::Lt, "lt", "<"},  {PredKind::Gt, "gt", ">"}, {PredKind::Le, "le", "<="},
    {PredKind::Ge, "ge", ">="}, {PredKind::Eq, "eq", "="},
};

}  // namespace

std::optional<Pred> Pred::lookup(std::string_view name) {
  for (const PredInfo& p : kPreds)
    if (name == p.name) return Pred(p.kind);
  return std::nullopt;
}

std::vector<Pred> Pred::all() {
  std::vector<Pred> v;
  for (const PredInfo& p : kPreds)
    v.push_back(Pred(p.kind));
  return v;
}

std::string Pred::name() const {
  for (const PredInfo& p : kPreds)
    if (p.kind == kind_) return p.name;
  throw InternalError("internal error: unknown predicate");
}

const char* Pred::symbol() const {
  for (const PredInfo& p : kPreds)
    if (p.kind == kind_) return p.symbol;
  throw InternalError("internal error: unknown predicate");
}

}  // namespace adlang
