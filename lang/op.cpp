#include "lang/op.hpp"

#include <charconv>

#include "lang/diagnostics.hpp"
#include "support/setting_hint.hpp"

namespace adlang {

namespace {

std::optional<unsigned> parse_size_suffix(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() + 1 || name.substr(0, prefix.size()) != prefix ||
      name[prefix.size()] != '_')
    return std::nullopt;
  std::string_view digits = name.substr(prefix.size() + 1);
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;  // dot_03 is not dot_3
  unsigned n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  if (n < 1 || n > kMaxVectorOpSize) return std::nullopt;
  return n;
}

Type type_of(OpShape shape, unsigned n) {
  switch (shape) {
    case OpShape::Real:
      return Type::real();
    case OpShape::RealPair:
      return Type::pair(Type::real(), Type::real());
    case OpShape::VectorPair:
      return Type::pair(Type::real_power(n), Type::real_power(n));
    case OpShape::RealVector:
      return Type::pair(Type::real(), Type::real_power(n));
    case OpShape::Vector:
      return Type::real_power(n);
  }
  throw InternalError("internal error: unknown operator shape");
}

}  // namespace

std::optional<Op> Op::lookup(std::string_view name) {
  for (const OpDefinition& d : kOpDefinitions) {
    if (!d.sized && name == d.name) return Op(d.kind, 0);
    if (d.sized)
      if (auto n = parse_size_suffix(name, d.name)) return Op(d.kind, *n);
  }
  return std::nullopt;
}

void Op::check_vector_size(unsigned n) {
  internal_check(n >= 1 && n <= kMaxVectorOpSize, "vector operator size out of range");
}

std::vector<Op> Op::all(unsigned max_n) {
  std::vector<Op> ops;
  for (const OpDefinition& d : kOpDefinitions)
    if (!d.sized) ops.push_back(Op(d.kind, 0));
  for (unsigned n = 1; n <= max_n; ++n)
    for (const OpDefinition& d : kOpDefinitions)
      if (d.sized) ops.push_back(Op(d.kind, n));
  return ops;
}

std::string Op::name() const {
  const OpDefinition& d = definition();
  if (d.sized) return std::string(d.name) + "_" + std::to_string(n_);
  return std::string(d.name);
}

Type Op::arg_type() const {
  return type_of(definition().arg, n_);
}

Type Op::result_type() const {
  return type_of(definition().result, n_);
}

std::string polynomial_operator_names() {
  std::string names;
  for (const OpDefinition& d : kOpDefinitions) {
    if (!d.polynomial) continue;
    if (!names.empty()) names += ' ';
    names += d.name;
    if (d.sized) names += "_n";
  }
  return names;
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
             "(x) is smooth (and defined) only off the integers, where it does not jump; " +
             setting_hint(Setting::Predicates, "total") + " makes it total";
  }
  throw InternalError("internal error: unknown operator domain");
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
