#include "semantics/symbolic_eval.hpp"

#include <memory>
#include <string>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/verifier.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/derivation_recorder.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/repeated_call.hpp"
#include "support/resource_budget.hpp"
#include "support/setting_hint.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

template <class S>
class SymbolicEval {
 public:
  SymbolicEval(ValueEnv<S>& rho, EvalContext& cx) : rho_(rho), cx_(cx) {}

  // M in the trivial context: phi | rho |- M ~> C.
  //
  // The redexes whose trace is the trace of a subterm in a trivial context (the let body of
  // `let x = V in N`, the branch of `if true/false`, the body of a letrec, and a called
  // function's body) continue in this loop instead of recursing, with what must be wrapped
  // around their trace kept on an explicit stack: so a loop written as tail recursion traces
  // in constant C++ stack however long it runs. A redex in a non-trivial context (Fig. 5)
  // still recurses, as the nesting of its trace does.
  Traced<S> sym(const Term& m0, const FunFrame* phi0) {
    std::vector<Wrapper> wrappers;
    std::vector<Level> levels;  // only when recording a derivation
    RepeatedCall<S> chain;      // the calls this loop continues with (semantics/repeated_call.hpp)
    Term m = m0;
    const FunFrame* phi = phi0;
    Traced<S> result;
    // rho as this call found it: every binding pushed below is dropped when it returns.
    const typename ValueEnv<S>::Frame entry = rho_.enter_frame_keeping_visible();
    typename ValueEnv<S>::FrameExit exit(rho_, entry);  // also when an exception passes
    for (;;) {
      const StackScope stack_scope = check_evaluation_depth(m.loc());
      if (cx_.recorder) {
        cx_.recorder->enter(EventKind::Sym, m, phi);
        levels.push_back(Level{wrappers.size(), wrappers.size(), false});
      }
      // phi | rho |- V ~> V
      if (is_value(m)) {
        result = Traced<S>{m, close_value(m, rho_)};
        break;
      }
      // Fig. 5: E[R] ~> let x:T_V = C in D. Reducing the subterms in evaluation position to
      // values records one binding per redex met in a non-trivial context, in order.
      Wrapper w;
      w.kind = Wrapper::Bindings;
      Term redex = reduce_subterms(m, phi, w.bindings);
      if (!w.bindings.empty()) wrappers.push_back(std::move(w));
      if (cx_.recorder) levels.back().after_bindings = wrappers.size();
      if (is_value(redex)) {
        result = Traced<S>{redex, close_value(redex, rho_)};
        break;
      }
      if (!continue_with(redex, phi, entry, m, phi, wrappers, chain)) {
        result = sym_redex(redex, phi);
        break;
      }
      if (cx_.recorder) levels.back().continued = true;
    }
    exit.leave();
    if (!cx_.recorder) {
      unwind(wrappers, result.trace, 0);
      return result;
    }
    // Closes the judgements opened above, innermost first, each with its own trace.
    std::string value = print_value<S>(m0.type(), result.value);
    for (std::size_t k = levels.size(); k-- > 0;) {
      unwind(wrappers, result.trace, levels[k].after_bindings);
      if (levels[k].continued) cx_.recorder->leave(value, result.trace);  // its SymRedex
      unwind(wrappers, result.trace, levels[k].at_start);
      cx_.recorder->leave(value, result.trace);  // its Sym
    }
    return result;
  }

 private:
  struct Binding {
    Name name;
    Term trace;
    SourceLoc loc;
  };

  // What sym() wraps around the trace of the term it continues with, innermost last.
  struct Wrapper {
    enum Kind {
      Bindings,  // let x1 = C1 in ... let xn = Cn in [] (Fig. 5)
      Let,       // let x:T = V in [] (Fig. 4, let)
      Call,      // let x:T = V in [] (Fig. 4, call)
      Scope,     // the function environment of a letrec body or a callee (owned frame)
    } kind = Bindings;
    std::vector<Binding> bindings;
    Name var;
    Term bound;
    SourceLoc loc;
    std::unique_ptr<FunFrame> fun_frame;
  };

  // One pass of sym()'s loop, for closing its recorded judgements: how many wrappers there
  // were when it began and after its Fig. 5 bindings, and whether it continued with a body.
  struct Level {
    std::size_t at_start, after_bindings;
    bool continued;
  };

  ValueEnv<S>& rho_;
  EvalContext& cx_;

  // Opens the judgement of a redex whose body sym() continues with (derivation_recorder.hpp).
  void record_continued(const Term& redex, const FunFrame* phi) {
    if (cx_.recorder) cx_.recorder->enter(EventKind::SymRedex, redex, phi);
  }
  void record_bind(Name x, const Type& t, const Value<S>& v) {
    if (cx_.recorder) cx_.recorder->bind(x, print_value<S>(t, v));
  }

  // If the trace of `redex` is the trace of a term in the trivial context, sets m and phi to
  // that term and its function environment, records the wrapper, and returns true.
  bool continue_with(const Term& redex, const FunFrame* phi_in,
                     const typename ValueEnv<S>::Frame& entry, Term& m, const FunFrame*& phi,
                     std::vector<Wrapper>& wrappers, RepeatedCall<S>& chain) {
    switch (redex.kind()) {
      // let x:T = V in N ~> let x:T = V in C, if V => V' and N ~> C under rho[V'/x]
      case TermKind::Let: {
        count_trace_node(redex.loc());
        const Let* l = redex.as<Let>();
        record_continued(redex, phi_in);
        rho_.push(l->var, close_value(l->bound, rho_));
        record_bind(l->var, l->bound.type(), *rho_.lookup(l->var));
        Wrapper w;
        w.kind = Wrapper::Let;
        w.var = l->var;
        w.bound = l->bound;
        w.loc = redex.loc();
        wrappers.push_back(std::move(w));
        m = l->body;
        return true;
      }
      // if true then M else N ~> C if M ~> C; if false then M else N ~> C if N ~> C
      case TermKind::If: {
        count_trace_node(redex.loc());
        const If* i = redex.as<If>();
        const BoolConst* b = i->guard.as<BoolConst>();
        internal_check(b != nullptr, "conditional redex without a boolean value");
        record_continued(redex, phi_in);
        m = b->value ? i->then_branch : i->else_branch;
        return true;
      }
      // letrec f(x:T):U = M in N ~> C if N ~> C under phi[clo_phi(f(x:T):U. M)/f]
      case TermKind::LetRec: {
        count_trace_node(redex.loc());
        const LetRec* l = redex.as<LetRec>();
        record_continued(redex, phi_in);
        Wrapper w;
        w.kind = Wrapper::Scope;
        w.fun_frame = std::make_unique<FunFrame>(
            FunFrame{l, phi_in, cx_.options.unfold.value_or(UINT64_MAX)});
        phi = w.fun_frame.get();
        wrappers.push_back(std::move(w));
        m = l->body;
        return true;
      }
      // f(V) ~> let x:T = V in C, if V => V' and M ~> C under phi'[phi(f)/f] | {x -> V'}
      case TermKind::Call: {
        count_trace_node(redex.loc());
        const Call* c = redex.as<Call>();
        Value<S> arg = close_value(c->arg, rho_);
        Closure clo = lookup_function(phi_in, c->fun);
        FunFrame scratch{};
        const FunFrame* callee = enter_call(clo, scratch, cx_, redex.loc());
        Wrapper w;
        w.kind = Wrapper::Call;
        w.var = clo.def->param;
        w.bound = c->arg;
        w.loc = redex.loc();
        if (callee == &scratch) {
          w.fun_frame = std::make_unique<FunFrame>(scratch);
          callee = w.fun_frame.get();
        }
        if (chain.repeats(clo.def, callee, arg)) throw repeated_call(*clo.def, *c, arg);
        // A call in the trivial context is the last evaluation in this call of sym(): what
        // follows only wraps traces. So the bindings pushed since sym() began are dead (the
        // callee sees only its parameter) and are dropped now, which keeps rho constant in
        // size along a loop written as tail recursion.
        rho_.leave_frame(entry);
        rho_.enter_frame();
        record_continued(redex, phi_in);
        record_bind(clo.def->param, c->param_type, arg);
        rho_.push(clo.def->param, std::move(arg));
        wrappers.push_back(std::move(w));
        phi = callee;
        m = clo.def->body;
        return true;
      }
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Add:
      case TermKind::Op:
      case TermKind::Unit:
      case TermKind::Pair:
      case TermKind::Fst:
      case TermKind::Snd:
      case TermKind::Rd:
        return false;
    }
    return false;
  }

  // Wraps the trace in the recorded wrappers above `down_to`, innermost first (rho is
  // restored by sym()).
  void unwind(std::vector<Wrapper>& wrappers, Term& trace, std::size_t down_to) {
    for (std::size_t i = wrappers.size(); i-- > down_to;) {
      Wrapper& w = wrappers[i];
      switch (w.kind) {
        case Wrapper::Bindings:
          for (std::size_t j = w.bindings.size(); j-- > 0;) {
            const Binding& b = w.bindings[j];
            trace = mk::let(b.name, b.trace.type(), b.trace, trace, b.loc);
          }
          break;
        case Wrapper::Let:
        case Wrapper::Call:
          trace = mk::let(w.var, w.bound.type(), w.bound, trace, w.loc);
          break;
        case Wrapper::Scope:
          break;
      }
      wrappers.pop_back();
    }
  }

  // The evaluation reached a call it made before, with the same closure and argument, through
  // calls in the trivial context only: it repeats forever (semantics/repeated_call.hpp).
  Undefined repeated_call(const FunDef& f, const Call& c, const Value<S>& arg) const {
    return Undefined(UndefinedKind::Repeats, c.loc(),
                     "'" + f.name.str() + "' is called again with the same argument " +
                         print_value<S>(c.param_type, arg) +
                         " by the calls in tail position that followed this call: the "
                         "evaluation repeats forever",
                     {"evaluation is deterministic, and a function body sees only its argument: "
                      "this is a proof that it does not end, not a budget"});
  }

  void count_trace_node(SourceLoc loc) {
    check_resources();
    if (++cx_.trace_nodes > cx_.options.max_trace_nodes) {
      throw Undefined(
          UndefinedKind::TraceSize, loc,
          "the trace has more than " + std::to_string(cx_.options.max_trace_nodes) + " steps",
          {"raise the limit with " + setting_hint(Setting::MaxTrace, "N")});
    }
    if (cx_.rd_depth > 0 && cx_.trace_nodes - cx_.rd_trace_start > cx_.options.max_rd_trace_nodes) {
      throw Undefined(UndefinedKind::TraceSize, cx_.rd_trace_loc,
                      "the trace of this derivative has more than " +
                          std::to_string(cx_.options.max_rd_trace_nodes) + " steps",
                      {"a recursion inside the derivative may not terminate; raise the limit "
                       "with " +
                       setting_hint(Setting::MaxRdTrace, "N")});
    }
  }

  // M in a non-trivial context: reduces M to a value term, recording a binding
  // x = C (with rho[V/x]) for the redex M becomes, as Fig. 5's context rule does.
  Term reduce(const Term& m, const FunFrame* phi, std::vector<Binding>& bindings) {
    const StackScope stack_scope = check_evaluation_depth(m.loc());
    if (is_value(m)) return m;
    Term redex = reduce_subterms(m, phi, bindings);
    if (is_value(redex)) return redex;  // a pair of values
    if (cx_.recorder) cx_.recorder->enter(EventKind::SymContext, m, phi);
    Traced<S> t = sym_redex(redex, phi);
    count_trace_node(m.loc());
    Name x = cx_.names.fresh("x");
    if (cx_.recorder) cx_.recorder->leave(print_value<S>(m.type(), t.value), t.trace, x);
    rho_.push(x, std::move(t.value));
    bindings.push_back(Binding{x, t.trace, m.loc()});
    return mk::var(x, m.type(), m.loc());
  }

  // The evaluation contexts E of Sec. 3, in order: reduces the subterms of M in evaluation
  // position to values, so that what is left is a redex R (or a value). Boolean redexes
  // pred(V) in a guard are evaluated here (Fig. 5's second rule: E[R_bool] ~> C if
  // R_bool => V_bool and E[V_bool] ~> C), leaving `if true/false then M else N`.
  Term reduce_subterms(const Term& m, const FunFrame* phi, std::vector<Binding>& bs) {
    switch (m.kind()) {
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
      case TermKind::LetRec:
        return m;
      case TermKind::Add: {  // E + N, V + E
        const Add* a = m.as<Add>();
        Term l = reduce(a->lhs, phi, bs);
        Term r = reduce(a->rhs, phi, bs);
        return l.same_as(a->lhs) && r.same_as(a->rhs) ? m : mk::add(l, r, m.loc());
      }
      case TermKind::Op: {  // op(E)
        const OpApp* o = m.as<OpApp>();
        Term arg = reduce(o->arg, phi, bs);
        return arg.same_as(o->arg) ? m : mk::op(o->op, arg, m.loc());
      }
      case TermKind::Let: {  // let x:T = E in N
        const Let* l = m.as<Let>();
        Term bound = reduce(l->bound, phi, bs);
        return bound.same_as(l->bound) ? m : mk::let(l->var, bound.type(), bound, l->body, m.loc());
      }
      case TermKind::Pair: {  // <E, N>, <V, E>
        const Pair* p = m.as<Pair>();
        Term a = reduce(p->first, phi, bs);
        Term b = reduce(p->second, phi, bs);
        return a.same_as(p->first) && b.same_as(p->second) ? m : mk::pair(a, b, m.loc());
      }
      case TermKind::Fst: {  // fst(E)
        Term a = reduce(m.as<Fst>()->arg, phi, bs);
        return a.same_as(m.as<Fst>()->arg) ? m : mk::fst(a, m.loc());
      }
      case TermKind::Snd: {  // snd(E)
        Term a = reduce(m.as<Snd>()->arg, phi, bs);
        return a.same_as(m.as<Snd>()->arg) ? m : mk::snd(a, m.loc());
      }
      case TermKind::If: {  // if pred(E) then M else N
        const If* i = m.as<If>();
        const PredApp* p = i->guard.as<PredApp>();
        if (!p) return m;
        Term arg = reduce(p->arg, phi, bs);
        Value<S> v = close_value(arg, rho_);
        std::optional<bool> b = eval_pred(p->pred, v[0], v[1], cx_.options.predicates);
        if (!b) throw predicate_undefined(p->pred, v[0], i->guard.loc());
        if (cx_.recorder) {  // Fig. 5: E[R_bool] ~> C if R_bool => V_bool and E[V_bool] ~> C
          cx_.recorder->enter_bool(EventKind::SymBool, mk::pred(p->pred, arg, i->guard.loc()), m,
                                   phi);
          cx_.recorder->bind(Name(), print_value<S>(arg.type(), v));  // V' of pred(V)
          cx_.recorder->leave(*b ? "true" : "false");
        }
        return mk::if_(mk::bool_const(*b, i->guard.loc()), i->then_branch, i->else_branch, m.loc());
      }
      case TermKind::Call: {  // f(E)
        const Call* c = m.as<Call>();
        Term arg = reduce(c->arg, phi, bs);
        return arg.same_as(c->arg) ? m : mk::call(c->fun, c->param_type, m.type(), arg, m.loc());
      }
      case TermKind::Rd: {  // M.rd_E(x:T. N), then E.rd_V(x:T. N)
        const Rd* r = m.as<Rd>();
        Term point = reduce(r->point, phi, bs);
        Term cot = reduce(r->cotangent, phi, bs);
        if (point.same_as(r->point) && cot.same_as(r->cotangent)) return m;
        return mk::rd(cot, point, r->var, point.type(), r->body, m.loc());
      }
    }
    throw InternalError("internal error: unknown term kind in symbolic evaluation");
  }

  // phi | rho |- R ~> C, reported to the derivation recorder when there is one.
  Traced<S> sym_redex(const Term& r, const FunFrame* phi) {
    if (!cx_.recorder) return sym_redex_node(r, phi);
    cx_.recorder->enter(EventKind::SymRedex, r, phi);
    Traced<S> t = sym_redex_node(r, phi);
    cx_.recorder->leave(print_value<S>(r.type(), t.value), t.trace);
    return t;
  }

  // The redex rules of Fig. 4.
  Traced<S> sym_redex_node(const Term& r, const FunFrame* phi) {
    count_trace_node(r.loc());
    switch (r.kind()) {
      // V + W ~> V + W
      case TermKind::Add: {
        const Add* a = r.as<Add>();
        Value<S> v = close_value(a->lhs, rho_);
        Value<S> w = close_value(a->rhs, rho_);
        v[0] = v[0] + w[0];
        if (!ScalarTraits<S>::in_range(v[0])) {
          throw Undefined(UndefinedKind::Range, r.loc(),
                          std::string("the sum is outside the range of ") +
                              to_string(ScalarTraits<S>::precision) + " precision",
                          {"rerun with " + setting_hint(Setting::Precision, "50") +
                           " to compute with 50-digit floats"});
        }
        return Traced<S>{r, std::move(v)};
      }
      // op(V) ~> op(V)
      case TermKind::Op: {
        const OpApp* o = r.as<OpApp>();
        Value<S> arg = close_value(o->arg, rho_);
        Value<S> out(o->op.result_type().size());
        eval_op(o->op, arg.data(), out.data(), r.loc(), cx_.options.predicates);
        return Traced<S>{r, std::move(out)};
      }
      // let x:T = V in N ~> let x:T = V in C, if V => V' and N ~> C under rho[V'/x]
      case TermKind::Let: {
        const Let* l = r.as<Let>();
        rho_.push(l->var, close_value(l->bound, rho_));
        record_bind(l->var, l->bound.type(), *rho_.lookup(l->var));
        Traced<S> body = sym(l->body, phi);
        rho_.pop();
        return Traced<S>{mk::let(l->var, l->bound.type(), l->bound, body.trace, r.loc()),
                         std::move(body.value)};
      }
      // fst_{T,U}(V) ~> fst_{T,U}(V)
      case TermKind::Fst: {
        Value<S> v = close_value(r.as<Fst>()->arg, rho_);
        v.resize(r.type().size());
        return Traced<S>{r, std::move(v)};
      }
      // snd_{T,U}(V) ~> snd_{T,U}(V)
      case TermKind::Snd: {
        Value<S> v = close_value(r.as<Snd>()->arg, rho_);
        v.erase(v.begin(), v.end() - static_cast<std::ptrdiff_t>(r.type().size()));
        return Traced<S>{r, std::move(v)};
      }
      // if true then M else N ~> C if M ~> C; if false then M else N ~> C if N ~> C
      case TermKind::If: {
        const If* i = r.as<If>();
        const BoolConst* b = i->guard.as<BoolConst>();
        internal_check(b != nullptr, "conditional redex without a boolean value");
        return sym(b->value ? i->then_branch : i->else_branch, phi);
      }
      // letrec f(x:T):U = M in N ~> C if N ~> C under phi[clo_phi(f(x:T):U. M)/f]
      case TermKind::LetRec: {
        const LetRec* l = r.as<LetRec>();
        FunFrame frame{l, phi, cx_.options.unfold.value_or(UINT64_MAX)};
        return sym(l->body, &frame);
      }
      // f(V) ~> let x:T = V in C, if V => V' and M ~> C under phi'[phi(f)/f] | {x -> V'}
      case TermKind::Call: {
        const Call* c = r.as<Call>();
        Value<S> arg = close_value(c->arg, rho_);
        Closure clo = lookup_function(phi, c->fun);
        FunFrame scratch{};
        const FunFrame* callee = enter_call(clo, scratch, cx_, r.loc());
        auto frame = rho_.enter_frame();
        record_bind(clo.def->param, c->param_type, arg);
        rho_.push(clo.def->param, std::move(arg));
        Traced<S> body = sym(clo.def->body, callee);
        rho_.leave_frame(frame);
        return Traced<S>{mk::let(clo.def->param, c->param_type, c->arg, body.trace, r.loc()),
                         std::move(body.value)};
      }
      // W.rd_V(x:T. N) ~> W.R_V(x:T. C), if V => V' and N ~> C under rho[V'/x]
      case TermKind::Rd:
        return rd(*r.as<Rd>(), phi);
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
      case TermKind::Pair:
        break;
    }
    throw InternalError("internal error: symbolic evaluation of a non-redex");
  }

  // One more rd redex inside those being evaluated (--max-rd-nesting); the outermost one starts
  // the count of its trace's steps (--max-rd-trace).
  struct RdNesting {
    RdNesting(EvalContext& cx, SourceLoc loc) : cx_(cx) {
      if (cx_.rd_depth >= cx_.options.max_rd_nesting) {
        throw Undefined(UndefinedKind::Depth, loc,
                        "derivatives are nested more than " +
                            std::to_string(cx_.options.max_rd_nesting) + " levels deep",
                        {"a recursion through a derivative may not terminate; raise the limit "
                         "with " +
                         setting_hint(Setting::MaxRdNesting, "N")});
      }
      if (cx_.rd_depth++ == 0) {
        cx_.rd_trace_start = cx_.trace_nodes;
        cx_.rd_trace_loc = loc;
      }
    }
    ~RdNesting() { --cx_.rd_depth; }
    RdNesting(const RdNesting&) = delete;
    RdNesting& operator=(const RdNesting&) = delete;
    EvalContext& cx_;
  };

  Traced<S> rd(const Rd& r, const FunFrame* phi) {
    RdNesting nesting(cx_, r.loc());
    Type t = r.point.type();
    rho_.push(r.var, close_value(r.point, rho_));
    record_bind(r.var, t, *rho_.lookup(r.var));
    Term c = sym(r.body, phi).trace;
    rho_.pop();
    Term d;
    try {
      d = cx_.options.reverse_deriv(r.cotangent, r.point, r.var, t, c, cx_.names,
                                    cx_.derivative_steps_left(), &cx_.derivative);
    } catch (const DerivativeTooLarge&) {
      // R was given the steps left; the user set the run's budget, so that is what we report.
      throw Undefined(
          UndefinedKind::TraceSize, r.loc(),
          "the derivatives of this run need more than " +
              std::to_string(cx_.options.max_derivative_steps) + " steps of R in all",
          {"nested derivatives through the paper's R (" + setting_hint(Setting::Ad, "paper") +
           ") grow exponentially, through " + setting_hint(Setting::Ad, "linear") +
           " they do not; the limit is raised with " +
           setting_hint(Setting::MaxDerivativeSteps, "N")});
    } catch (const StackExhausted& e) {
      throw Undefined(UndefinedKind::Depth, r.loc(), e.what(),
                      {"the trace being differentiated is nested too deeply for the stack"});
    }
    // The value of the rd redex is the value of its trace (Fig. 2). A trace has no calls, so
    // the function environment and the unfolding bound do not matter for it.
    // (A recorded derivation needs the reference evaluator's judgements.)
    Value<S> v = cx_.options.evaluator == Evaluator::Compiled && !cx_.recorder
                     ? compiled_eval(d, rho_, cx_)
                     : ordinary_eval(d, rho_, phi, cx_);
    return Traced<S>{d, std::move(v)};
  }
};

}  // namespace

template <class S>
Traced<S> symbolic_eval(const Term& m, ValueEnv<S>& rho, const FunFrame* phi, EvalContext& cx) {
  Traced<S> traced = SymbolicEval<S>(rho, cx).sym(m, phi);
  verify_open_pass("symbolic evaluation", traced.trace);
  return traced;
}

template Traced<double> symbolic_eval<double>(const Term&, ValueEnv<double>&, const FunFrame*,
                                              EvalContext&);
template Traced<Mpfr50> symbolic_eval<Mpfr50>(const Term&, ValueEnv<Mpfr50>&, const FunFrame*,
                                              EvalContext&);
template Traced<Mpfr100> symbolic_eval<Mpfr100>(const Term&, ValueEnv<Mpfr100>&, const FunFrame*,
                                                EvalContext&);
template Traced<Rational> symbolic_eval<Rational>(const Term&, ValueEnv<Rational>&, const FunFrame*,
                                                  EvalContext&);

}  // namespace adlang
