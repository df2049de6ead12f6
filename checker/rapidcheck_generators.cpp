#include "checker/rapidcheck_generators.hpp"

#include <algorithm>

#include "lang/printer.hpp"

namespace adlang::gen {

namespace {

// RapidCheck's picks as the generator's choices: inside rc::gen::exec, each pick shrinks
// towards 0, the simplest alternative.
class RapidCheckChoices final : public checker::Choices {
 public:
  unsigned below(unsigned n) override { return n <= 1 ? 0 : *rc::gen::inRange(0u, n); }
  bool chance(double p) override { return *rc::gen::inRange(0, 1000) < p * 1000; }
};

// The test suite's configuration in the checker's terms; RapidCheck's size (0-100) scales the
// size budget.
checker::GenConfig translate(const GenConfig& cfg, int size) {
  checker::GenConfig c;
  c.max_size =
      static_cast<unsigned>(2 + (std::max(size, 0) * 4 * std::max(cfg.max_depth, 1)) / 100);
  c.max_rd_depth = cfg.differentiation ? static_cast<unsigned>(std::max(cfg.max_rd_nesting, 0)) : 0;
  c.polynomial_only = cfg.polynomial_only;
  c.recursion = cfg.recursion;
  c.conditionals = cfg.conditionals;
  c.max_inputs = static_cast<unsigned>(std::max(cfg.max_inputs, 0));
  return c;
}

std::string value_syntax(Type t, const std::vector<std::string>& scalars, std::size_t& i) {
  switch (t.kind()) {
    case TypeKind::Real:
      return scalars[i++];
    case TypeKind::Unit:
      return "*";
    case TypeKind::Pair: {
      std::string a = value_syntax(t.first(), scalars, i);
      std::string b = value_syntax(t.second(), scalars, i);
      return "(" + a + ", " + b + ")";
    }
  }
  return "*";
}

std::string value_syntax(Type t, const std::vector<std::string>& scalars) {
  std::size_t i = 0;
  return value_syntax(t, scalars, i);
}

GeneratedProgram view(const checker::Program& p) {
  GeneratedProgram g;
  g.term = p.term;
  for (const checker::Input& in : p.inputs) {
    g.inputs.push_back(TypedName{in.name, in.type});
    g.input_values.push_back(value_syntax(in.type, in.scalars));
  }
  return g;
}

}  // namespace

void showValue(const GeneratedProgram& p, std::ostream& os) {
  for (std::size_t i = 0; i < p.inputs.size(); ++i)
    os << "--env " << p.inputs[i].name.str() << "=" << p.input_values[i] << "\n";
  os << print_program(p.term);
}

rc::Gen<Type> type(const GenConfig&) {
  return rc::gen::exec([] {
    RapidCheckChoices ch;
    return checker::random_type(ch, 2);
  });
}

rc::Gen<GeneratedProgram> program_of_type(Type t, const GenConfig& cfg) {
  return rc::gen::withSize([t, cfg](int size) {
    return rc::gen::exec([t, cfg, size] {
      RapidCheckChoices ch;
      return view(checker::generate_program(ch, translate(cfg, size), t));
    });
  });
}

rc::Gen<GeneratedProgram> program(const GenConfig& cfg) {
  return rc::gen::withSize([cfg](int size) {
    return rc::gen::exec([cfg, size] {
      RapidCheckChoices ch;
      return view(checker::generate_program(ch, translate(cfg, size)));
    });
  });
}

rc::Gen<Term> trace_term(Type t, std::vector<TypedName> vars, const GenConfig& cfg) {
  return rc::gen::withSize([t, vars, cfg](int size) {
    return rc::gen::exec([t, vars, cfg, size] {
      RapidCheckChoices ch;
      return checker::generate_trace_term(ch, t, vars, translate(cfg, size));
    });
  });
}

rc::Gen<std::string> value_text(Type t) {
  return rc::gen::exec([t] {
    RapidCheckChoices ch;
    return value_syntax(t, checker::random_value(ch, t));
  });
}

}  // namespace adlang::gen
