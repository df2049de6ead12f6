// The engines family: what `adlang run` executes, against the reference. The compiled
// evaluator (semantics/compiled_eval.hpp) must compute what the reference evaluator computes
// (Figs. 2-3), and the run-time tape (AdMode::Tape) what the linear R computes on the trace:
// the same operations in the same order, so the same numbers to the bit, and the same
// undefinedness at the same place for the same reason.
#include "checker/property_case.hpp"

namespace adlang::checker {

namespace {

// The reference evaluator recurses along the term; only it is bounded by the C++ stack.
template <class S>
bool reference_out_of_stack(const Result<S>& r) {
  if (r.state == Result<S>::Defined) return false;
  if (r.bottom_of && r.bottom_of->kind() == UndefinedKind::Depth) return true;
  return r.state == Result<S>::Resource && !r.bottom_of;  // StackExhausted and alike
}

// The engine's result against the reference's: identical values, or the same undefinedness
// (kind, location, reason).
template <class S>
Outcome engine_agreement(const char* engine, const Result<S>& e, const char* reference,
                         const Result<S>& r, Type t, const std::string& where) {
  if (reference_out_of_stack(r)) return discard(r.reason);
  auto differ = [&] {
    return fail(where + std::string(engine) + " = " + show(e, t) + "\n" + reference + " = " +
                show(r, t));
  };
  if (e.state != r.state) return differ();
  switch (r.state) {
    case Result<S>::Defined:
      return numerics::identical(e.value, r.value) ? pass() : differ();
    case Result<S>::Bottom:
    case Result<S>::Resource: {
      if (e.reason != r.reason) return differ();
      if (e.bottom_of && r.bottom_of && !(e.bottom_of->loc() == r.bottom_of->loc()))
        return fail(where + engine + " and " + reference + " are undefined at different places (" +
                    e.reason + ")");
      return r.state == Result<S>::Bottom ? both_undefined() : discard(r.reason);
    }
  }
  return differ();
}

// compiled-agrees: M => V by the compiled evaluator and by the reference evaluator, with the R
// of the run (Fig. 6's, or the linear one under --ad linear).
struct CompiledAgrees {
  template <class S>
  static Outcome check(Case<S>& k) {
    const Program& p = k.program();
    AdMode ad = k.linear_r() ? AdMode::Linear : AdMode::Paper;
    Result<S> compiled = k.run_compiled(p.term, p.inputs, ad);
    Result<S> reference = k.run_reference(p.term, p.inputs, ad);
    return engine_agreement("M => V (compiled evaluator)", compiled, "M => V (reference evaluator)",
                            reference, p.term.type(), "");
  }
};

// tape-agrees: W.rd_V(x. M) by the compiled evaluator with the run-time tape (reverse
// accumulation over the executed operations) and by the reference evaluator with the linear R
// (symbolic evaluation to the trace C, W.R_V(x. C), evaluation of R's output).
struct TapeAgrees {
  template <class S>
  static Outcome check(Case<S>& k) {
    auto d = k.differentiation();
    if (!d) return discard("no input to differentiate with respect to");
    Result<S> tape = k.run_compiled(d->rd, d->rest, AdMode::Tape);
    Result<S> linear = k.run_reference(d->rd, d->rest, AdMode::Linear);
    return engine_agreement("W.rd_V(x. M) (tape)", tape, "W.rd_V(x. M) (linear R)", linear,
                            d->x.type, d->where + "\n");
  }
};

// The tape applies to an rd whose body differentiates no further (a nested rd takes the
// symbolic path), so tape-agrees generates bodies without rd.
GenConfig tape_generator(unsigned max_size) {
  GenConfig g = default_generator(max_size);
  g.min_inputs = 1;
  g.max_rd_depth = 0;
  return g;
}

}  // namespace

std::vector<PropertyInfo> engine_properties() {
  std::vector<PropertyInfo> engines = {
      property_entry<CompiledAgrees>(
          "compiled-agrees", "engines", "Figs. 2-3",
          "the compiled evaluator = the reference evaluator, to the bit, with the same bottoms",
          PrecisionRule::AsRequested, &default_generator),
      property_entry<TapeAgrees>("tape-agrees", "engines", "Fig. 6 (linear R)",
                                 "the run-time tape's rd = the linear R's, to the bit",
                                 PrecisionRule::AsRequested, &tape_generator),
  };
  for (PropertyInfo& p : engines)
    p.bitwise = true;
  return engines;
}

}  // namespace adlang::checker
