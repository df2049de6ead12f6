#include "semantics/compiled_eval.hpp"

#include "semantics/compiled/compiler.hpp"
#include "semantics/compiled/machine.hpp"
#include "semantics/ordinary_eval.hpp"

namespace adlang {

template <class S>
Value<S> compiled_eval(const Term& m, const ValueEnv<S>& rho, EvalContext& cx) {
  compiled::Program<S> p;
  compiled::Compiler<S>(p, rho).compile_main(m);
  return compiled::Machine<S>(p, rho, cx).run(m.type());
}

template <class S>
Value<S> evaluate(const Term& m, ValueEnv<S>& rho, EvalContext& cx) {
  if (cx.options.evaluator == Evaluator::Compiled && !cx.options.unfold)
    return compiled_eval(m, rho, cx);
  return ordinary_eval(m, rho, nullptr, cx);
}

#define ADLANG_INSTANTIATE(S)                                                        \
  template Value<S> compiled_eval<S>(const Term&, const ValueEnv<S>&, EvalContext&); \
  template Value<S> evaluate<S>(const Term&, ValueEnv<S>&, EvalContext&);
ADLANG_INSTANTIATE(double)
ADLANG_INSTANTIATE(Mpfr50)
ADLANG_INSTANTIATE(Mpfr100)
ADLANG_INSTANTIATE(Rational)
#undef ADLANG_INSTANTIATE

}  // namespace adlang
