// The compiled evaluator's machine: runs the code of semantics/compiled/instructions.hpp on an
// operand stack, with control frames on the heap; records the run-time tape
// (semantics/compiled/tape.hpp) when it runs the body of an rd redex for AdMode::Tape.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lang/diagnostics.hpp"
#include "semantics/compiled/compiler.hpp"
#include "semantics/compiled/instructions.hpp"
#include "semantics/compiled/tape.hpp"
#include "semantics/op_eval.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/symbolic_eval.hpp"
#include "support/resource_budget.hpp"
#include "support/setting_hint.hpp"

namespace adlang::compiled {

template <class S>
[[noreturn]] void sum_out_of_range(SourceLoc loc) {
  throw Undefined(UndefinedKind::Range, loc,
                  std::string("the sum is outside the range of ") +
                      to_string(ScalarTraits<S>::precision) + " precision",
                  {"rerun with " + setting_hint(Setting::Precision, "50") +
                   " to compute with 50-digit floats"});
}

template <class S>
class Machine {
 public:
  Machine(const Program<S>& p, const ValueEnv<S>& rho, EvalContext& cx)
      : p_(p), rho_(rho), cx_(cx) {}

  Value<S> run(Type result) {
    ensure(p_.main_max_height + 1);
    std::size_t sp = exec<false>();
    return top(sp, result.size());
  }

  // The fast path of an rd redex: runs the program (the rd body N, whose inputs include x) while
  // recording a tape of the operations that depend on x (whose scalars have the ids 0 .. |T|-1),
  // then sweeps the tape in reverse from the cotangent w: the value of W.R_V(x:T. C) for the
  // linear R, computed the way its output computes it (each template's arithmetic, each adjoint
  // summed in the order of its contributions) without building C or R's output. Writes the
  // x_size scalars of the adjoint of x to out, only if it completes. One machine runs an rd
  // site's every derivative (Machine::rd): its stacks and tape are kept from one run to the
  // next, and a run left by an exception is started afresh.
  void reverse_sweep(Type result, const std::optional<Slot>& x, std::size_t x_size, const S* w,
                     S* out) {
    if (!tape_) tape_ = std::make_unique<tape::Tape<S>>(cx_.options.max_trace_nodes);
    tape_->start(x_size);
    input_ids_.assign(p_.inputs.size(), -1);
    if (x) {
      for (std::uint32_t i = 0; i < x->size; ++i)
        input_ids_[x->off + i] = static_cast<std::int32_t>(i);
    }
    ensure(p_.main_max_height + 1);
    std::size_t sp = exec<true>();
    std::size_t n = result.size();
    tape_->sweep(ids_.data() + sp - n, w, n, x_size, out);
    trim();
  }

  // After a run of the fast path, completed or not: the memory of a long run (its stacks beyond
  // kKeptScalars, a tape beyond 1 MiB) is given back, as when the machine was made anew for
  // each derivative; a small body's stays for the next derivative.
  void trim() {
    constexpr std::size_t kKeptScalars = std::size_t(1) << 16;
    if (st_.size() > kKeptScalars) {
      st_ = {};
      ids_ = {};
      frames_.reset();
      frames_capacity_ = 0;
    }
    if (tape_) tape_->release_if_large();
  }

 private:
  struct Frame {
    const Instr* ret;
    std::size_t fp;
  };

  const Program<S>& p_;
  const ValueEnv<S>& rho_;
  EvalContext& cx_;
  std::vector<S> st_;
  // The control stack, grown by doubling into memory not written beforehand, so that only the
  // frames used become resident (a recursion 10^7 calls deep holds 160 MB of them).
  std::unique_ptr<Frame[]> frames_;
  std::size_t frames_capacity_ = 0;
  // Taping (the fast path of rd): the tape, and each stack scalar's id on it (-1 for a
  // constant).
  std::unique_ptr<tape::Tape<S>> tape_;
  std::vector<std::int32_t> ids_, input_ids_;
  // Where an input of a compiled rd body takes its value from at each derivative: the binding
  // of its name in the site's environment (site_env), found once, when the body is compiled.
  struct InputSource {
    enum class From : std::uint8_t { Point, Frame, Inputs, Rho };
    From from;
    std::uint32_t off;   // in the point, the frame (from fp) or this program's inputs
    std::uint32_t to;    // in the body's inputs
    std::uint32_t size;  // scalars
    Name name;           // for Rho
  };
  // The bodies of this program's rd sites (by site index), compiled for the fast path when
  // first met, each with the machine that runs all its derivatives.
  struct CompiledBody {
    std::unique_ptr<Program<S>> program;
    std::optional<Slot> x;
    std::vector<InputSource> sources;
    std::unique_ptr<Machine> machine;
  };
  std::vector<CompiledBody> rd_bodies_;

  // The environment of an rd site's body, as symbolic evaluation sees it: rho (at the top
  // level), then the site's locals in binding order (x is pushed by the caller).
  ValueEnv<S> site_env(const RdSite& site, std::size_t fp) const {
    ValueEnv<S> env;
    if (site.top_level) env = rho_;
    for (const Slot& s : site.locals) {
      const S* data = s.input ? p_.inputs.data() + s.off : st_.data() + fp + s.off;
      env.push(s.name, Value<S>(data, data + s.size));
    }
    return env;
  }

  // The sources of body's inputs: for each, the innermost binding of its name in the site's
  // environment with x pushed last, as ValueEnv::lookup finds it.
  static std::vector<InputSource> input_sources(const Program<S>& body, const RdSite& site,
                                                const Rd& r) {
    std::vector<InputSource> sources;
    for (const auto& [name, to] : body.input_names) {
      InputSource src{InputSource::From::Rho, 0, to, 0, name};
      if (name == r.var) {
        src.from = InputSource::From::Point;
        src.size = site.point_size;
      } else {
        for (std::size_t i = site.locals.size(); i-- > 0;) {
          const Slot& s = site.locals[i];
          if (s.name != name) continue;
          src.from = s.input ? InputSource::From::Inputs : InputSource::From::Frame;
          src.off = s.off;
          src.size = s.size;
          break;
        }
        internal_check(src.from != InputSource::From::Rho || site.top_level,
                       "an rd body's input is not bound");
      }
      sources.push_back(src);
    }
    return sources;
  }

  // Copies the values of body's inputs at this derivative (the point at st_[base ..]).
  void refill_inputs(CompiledBody& body, std::size_t fp, std::size_t base) const {
    S* inputs = body.program->inputs.data();
    for (const InputSource& src : body.sources) {
      const S* from = nullptr;
      switch (src.from) {
        case InputSource::From::Point:
          from = st_.data() + base;
          break;
        case InputSource::From::Frame:
          from = st_.data() + fp + src.off;
          break;
        case InputSource::From::Inputs:
          from = p_.inputs.data() + src.off;
          break;
        case InputSource::From::Rho: {
          const Value<S>* v = rho_.lookup(src.name);
          internal_check(v != nullptr, "an rd body's input is not bound");
          from = v->data();
          break;
        }
      }
      std::copy_n(from, src.size, inputs + src.to);
    }
  }

  Value<S> top(std::size_t sp, std::size_t n) const {
    return Value<S>(st_.begin() + static_cast<std::ptrdiff_t>(sp - n),
                    st_.begin() + static_cast<std::ptrdiff_t>(sp));
  }

  // The operand stack (and the tape's ids of its slots) holds at least n scalars. The capacity
  // doubles, but only the slots reached are made: a deep recursion's stack is resident as far as
  // it reaches, and a reallocation holds the old stack and its copy, not a new one filled to
  // twice the length (docs/robustness.md, "The trace of one derivative").
  void ensure(std::size_t n) {
    if (st_.size() < n) {
      if (st_.capacity() < n) st_.reserve(std::max(n, 2 * st_.capacity()));
      st_.resize(n);
    }
    if (tape_ && ids_.size() < st_.size()) {
      if (ids_.capacity() < st_.size()) ids_.reserve(std::max(st_.size(), 2 * ids_.capacity()));
      ids_.resize(st_.size(), -1);
    }
  }

  // The fuel check and count of the reference evaluator (enter_call), for calls of a closure
  // of the ordinary language.
  void enter(std::uint32_t fn, std::uint32_t loc_index) {
    static const FunFrame kOrdinary{nullptr, nullptr, UINT64_MAX};
    FunFrame scratch{};
    enter_call(Closure{&kOrdinary, p_.functions[fn].def}, scratch, cx_, p_.locs[loc_index]);
  }

  // The operator O of the table applied to the two reals at the top of the stack (recorded on
  // the tape when taping).
  template <bool Taping, class O>
  [[gnu::always_inline]] void binary(S* st, std::int32_t* id, std::size_t& sp,
                                     std::uint32_t loc_index) {
    std::int32_t r = -1;
    if constexpr (Taping)
      r = tape_->record2(Op::make(O::definition.kind), st + sp - 2, id + sp - 2);
    S& a = st[sp - 2];
    O::primal(&a, &a, 0);
    --sp;
    if constexpr (Taping) id[sp - 1] = r;
    if (!ScalarTraits<S>::in_range(a))
      op_eval_detail::check_range(Op::make(O::definition.kind), &a, 1, p_.locs[loc_index]);
  }

  // The unsized operator O of one real (sin, cos, exp, ...) applied to the real at the top of
  // the stack (recorded on the tape when taping), inline as binary() is: eval_op's domain check
  // with the run's predicates, the primal, the range check. False, doing nothing, for the other
  // operators, which take eval_op (and exact rationals outside the polynomial fragment, whose
  // error eval_op reports).
  template <bool Taping, class O>
  [[gnu::always_inline]] bool unary(S* st, std::int32_t* id, std::size_t sp,
                                    std::uint32_t loc_index) {
    constexpr OpDefinition d = O::definition;
    if constexpr (d.sized || d.arg != OpShape::Real || d.result != OpShape::Real ||
                  (ScalarTraits<S>::exact && !d.polynomial)) {
      return false;
    } else {
      S* a = st + sp - 1;
      if constexpr (Taping) id[sp - 1] = tape_->record1(Op::make(d.kind), a, id + sp - 1);
      if constexpr (d.domain != OpDomain::All) {
        if (op_eval_detail::outside_domain(d.domain, a, cx_.options.predicates))
          op_eval_detail::out_of_domain(Op::make(d.kind), a[0], p_.locs[loc_index]);
      }
      S out;
      O::primal(a, &out, 0);
      *a = std::move(out);
      if (!ScalarTraits<S>::in_range(*a))
        op_eval_detail::check_range(Op::make(d.kind), a, 1, p_.locs[loc_index]);
      return true;
    }
  }
  // unary() for the operator of kind k: one comparison per operator of the table before it.
  template <bool Taping, class... O>
  [[gnu::always_inline]] bool unary_inline(OpKind k, S* st, std::int32_t* id, std::size_t sp,
                                           std::uint32_t loc_index, OperatorList<O...>) {
    return ((k == O::definition.kind && unary<Taping, O>(st, id, sp, loc_index)) || ...);
  }

  // The ids of an operation's nout results at ids_[base ..], from its first id (or -1).
  void result_ids(std::size_t base, std::int32_t first, std::size_t nout) {
    for (std::size_t i = 0; i < nout; ++i)
      ids_[base + i] = first < 0 ? -1 : first + static_cast<std::int32_t>(i);
  }

  // The reference evaluator's entry to a call (enter_call) with its common case inlined: the
  // budgets' poll (check_resources: one relaxed load, which gcc did not inline into exec), the
  // fuel check and the counts. A budget exhausted or the fuel out, enter_call reports it (and
  // counts the call, should the flag have been lowered in between).
  [[gnu::always_inline]] void enter_fast(std::uint32_t fn, std::uint32_t loc_index) {
    if (budget_detail::flag.load(std::memory_order_relaxed) || cx_.fuel_left == 0) [[unlikely]] {
      enter(fn, loc_index);
      return;
    }
    --cx_.fuel_left;
    ++cx_.calls;
  }

// Threaded dispatch (labels as values, in GCC and Clang): each handler ends by jumping through
// the table to the next instruction's handler, so that each has its own indirect branch and no
// bounds check (docs/performance.md Sec. 1).
#define ADLANG_NEXT()                                    \
  do {                                                   \
    in = pc++;                                           \
    goto* kHandlers[static_cast<std::size_t>(in->code)]; \
  } while (false)

  template <bool Taping>
  std::size_t exec() {
    // In the order of Code.
    static const void* const kHandlers[] = {
        &&do_const,        &&do_load1,        &&do_load2,        &&do_load,
        &&do_input,        &&do_slide,        &&do_drop,         &&do_add,
        &&do_neg,          &&do_sub,          &&do_mul,          &&do_div,
        &&do_op_add,       &&do_op,           &&do_branch_lt,    &&do_branch_gt,
        &&do_branch_le,    &&do_branch_ge,    &&do_branch_eq,    &&do_sub_lc,
        &&do_branch_lt_lc, &&do_branch_gt_lc, &&do_branch_le_lc, &&do_branch_ge_lc,
        &&do_branch_eq_lc, &&do_jump,         &&do_call,         &&do_tail_call,
        &&do_ret,          &&do_ret1,         &&do_rd,           &&do_fail,
        &&do_halt};
    static_assert(sizeof(kHandlers) / sizeof(kHandlers[0]) ==
                  static_cast<std::size_t>(Code::Halt) + 1);
    const Instr* code = p_.code.data();
    const Instr* pc = code;
    const Instr* in = nullptr;
    S* st = st_.data();
    std::size_t cap = st_.size();
    std::int32_t* id = Taping ? ids_.data() : nullptr;
    std::size_t sp = 0, fp = 0;
    const PredicateMode mode = cx_.options.predicates;
    const S* consts = p_.consts.data();
    if (frames_capacity_ < 64) {
      frames_ = std::unique_ptr<Frame[]>(new Frame[64]);
      frames_capacity_ = 64;
    }
    Frame* fr = frames_.get();
    Frame* fr_end = fr + frames_capacity_;
    auto refresh = [&]() __attribute__((always_inline)) {
      st = st_.data();
      cap = st_.size();
      if constexpr (Taping) id = ids_.data();
    };
    // The operand stack holds fp + max_height + 1 scalars for the function entered at fp.
    auto reserve_frame = [&](std::uint32_t max_height) __attribute__((always_inline)) {
      if (cap < fp + max_height + 1) [[unlikely]] {
        ensure(fp + max_height + 1);
        refresh();
      }
    };
    auto push_frame = [&]() __attribute__((always_inline)) {
      if (fr == fr_end) [[unlikely]] {
        const std::size_t n = static_cast<std::size_t>(fr - frames_.get());
        std::unique_ptr<Frame[]> larger(new Frame[2 * frames_capacity_]);
        std::copy(frames_.get(), fr, larger.get());
        frames_ = std::move(larger);
        frames_capacity_ *= 2;
        fr = frames_.get() + n;
        fr_end = frames_.get() + frames_capacity_;
      }
      *fr++ = Frame{pc, fp};
    };
    // The steps of Load1 a, of Const c, and of a branch (the superinstructions repeat them).
    auto load1 = [&](std::uint32_t a) __attribute__((always_inline)) {
      if constexpr (Taping) id[sp] = id[fp + a];
      st[sp] = st[fp + a];
      ++sp;
    };
    auto constant = [&](std::uint32_t c) __attribute__((always_inline)) {
      if constexpr (Taping) id[sp] = -1;
      st[sp++] = consts[c];
    };
    // Branch on predicate K: one handler for each, so that the comparison is not switched on.
    auto branch = [&]<PredKind K>() __attribute__((always_inline)) {
      sp -= 2;
      const Pred pred = Pred::make(K);
      std::optional<bool> b = eval_pred(pred, st[sp], st[sp + 1], mode);
      if (!b) throw predicate_undefined(pred, st[sp], p_.locs[in->a]);
      if (!*b) pc = code + in->c;
    };
    ADLANG_NEXT();
  do_const:
    constant(in->a);
    ADLANG_NEXT();
  do_load1:
    load1(in->a);
    ADLANG_NEXT();
  do_load2:
    load1(in->a);
    load1(in->b);
    ADLANG_NEXT();
  do_load:
    for (std::uint32_t i = 0; i < in->b; ++i) {
      if constexpr (Taping) id[sp + i] = id[fp + in->a + i];
      st[sp + i] = st[fp + in->a + i];
    }
    sp += in->b;
    ADLANG_NEXT();
  do_input:
    for (std::uint32_t i = 0; i < in->b; ++i) {
      if constexpr (Taping) id[sp + i] = input_ids_[in->a + i];
      st[sp + i] = p_.inputs[in->a + i];
    }
    sp += in->b;
    ADLANG_NEXT();
  do_slide : {
    std::size_t to = sp - in->a - in->b;
    for (std::uint32_t i = 0; i < in->b; ++i) {
      if constexpr (Taping) id[to + i] = id[to + in->a + i];
      st[to + i] = std::move(st[to + in->a + i]);
    }
    sp -= in->a;
    ADLANG_NEXT();
  }
  do_drop:
    sp -= in->a;
    ADLANG_NEXT();
  do_add : {  // the built-in + (Fig. 2), the arithmetic of the table's add
    std::int32_t r = -1;
    if constexpr (Taping) r = tape_->record2(Op::make(OpKind::Add), st + sp - 2, id + sp - 2);
    S& a = st[sp - 2];
    operators::Add::primal(&a, &a, 0);
    --sp;
    if constexpr (Taping) id[sp - 1] = r;
    if (!ScalarTraits<S>::in_range(a)) sum_out_of_range<S>(p_.locs[in->a]);
    ADLANG_NEXT();
  }
  do_neg:
    if constexpr (Taping)
      id[sp - 1] = tape_->record1(Op::make(OpKind::Neg), st + sp - 1, id + sp - 1);
    operators::Neg::primal(st + sp - 1, st + sp - 1, 0);
    ADLANG_NEXT();
  do_sub:
    binary<Taping, operators::Sub>(st, id, sp, in->a);
    ADLANG_NEXT();
  do_mul:
    binary<Taping, operators::Mul>(st, id, sp, in->a);
    ADLANG_NEXT();
  do_op_add:
    binary<Taping, operators::Add>(st, id, sp, in->a);
    ADLANG_NEXT();
  do_div:
    if (op_eval_detail::outside_domain(operators::Div::definition.domain, st + sp - 2,
                                       PredicateMode::Strict)) {
      op_eval_detail::out_of_domain(Op::make(OpKind::Div), st[sp - 1], p_.locs[in->a]);
    }
    binary<Taping, operators::Div>(st, id, sp, in->a);
    ADLANG_NEXT();
  do_op : {
    const Op op = p_.ops[in->b];
    if (unary_inline<Taping>(op.kind(), st, id, sp, in->a, Operators{})) ADLANG_NEXT();
    const std::size_t n = op.arg_size(), r = op.result_size();
    std::size_t base = sp - n;
    std::int32_t first = -1;
    if constexpr (Taping) first = tape_->record(op, st + base, id + base, n, r);
    if (r == 1) {
      S out;
      eval_op(op, st + base, &out, p_.locs[in->a], cx_.options.predicates);
      st[base] = std::move(out);
    } else {
      std::vector<S> out(r);
      eval_op(op, st + base, out.data(), p_.locs[in->a], cx_.options.predicates);
      ensure(base + r + 1);
      refresh();
      for (std::size_t i = 0; i < r; ++i)
        st[base + i] = std::move(out[i]);
    }
    if constexpr (Taping) result_ids(base, first, r);
    sp = base + r;
    ADLANG_NEXT();
  }
  // The branch on each predicate, and its superinstruction.
#define ADLANG_BRANCH(label, K)                                  \
  do_branch_##label : branch.template operator()<PredKind::K>(); \
  ADLANG_NEXT();                                                 \
  do_branch_##label##_lc : load1(in->d);                         \
  constant(in->e);                                               \
  branch.template operator()<PredKind::K>();                     \
  ADLANG_NEXT();
    ADLANG_BRANCH(lt, Lt)
    ADLANG_BRANCH(gt, Gt)
    ADLANG_BRANCH(le, Le)
    ADLANG_BRANCH(ge, Ge)
    ADLANG_BRANCH(eq, Eq)
#undef ADLANG_BRANCH
  do_sub_lc:
    load1(in->b);
    constant(in->c);
    binary<Taping, operators::Sub>(st, id, sp, in->a);
    ADLANG_NEXT();
  do_jump:
    pc = code + in->a;
    ADLANG_NEXT();
  do_call:
    enter_fast(in->a, in->c);
    push_frame();
    fp = sp - in->b;
    reserve_frame(in->e);
    pc = code + in->d;
    ADLANG_NEXT();
  do_tail_call : {
    enter_fast(in->a, in->c);
    std::size_t from = sp - in->b;
    for (std::uint32_t i = 0; i < in->b; ++i) {
      if constexpr (Taping) id[fp + i] = id[from + i];
      st[fp + i] = std::move(st[from + i]);
    }
    sp = fp + in->b;
    reserve_frame(in->e);
    pc = code + in->d;
    ADLANG_NEXT();
  }
  do_ret1:
    if constexpr (Taping) id[fp] = id[sp - 1];
    st[fp] = std::move(st[sp - 1]);
    sp = fp + 1;
    --fr;
    pc = fr->ret;
    fp = fr->fp;
    ADLANG_NEXT();
  do_ret : {
    std::size_t from = sp - in->a;
    for (std::uint32_t i = 0; i < in->a; ++i) {
      if constexpr (Taping) id[fp + i] = id[from + i];
      st[fp + i] = std::move(st[from + i]);
    }
    sp = fp + in->a;
    --fr;
    pc = fr->ret;
    fp = fr->fp;
    ADLANG_NEXT();
  }
  do_rd:
    // An rd inside the body being taped: nested differentiation takes the symbolic path.
    if constexpr (Taping) throw tape::NotTapeable{};
    sp = rd(in->a, sp, fp);
    refresh();
    ADLANG_NEXT();
  do_fail:
    throw p_.fails[in->a];
  do_halt:
    return sp;
  }
#undef ADLANG_NEXT

  // The rd redex W.rd_V(x:T. N), with V and W on the stack. With AdMode::Tape, its value
  // is computed by the run-time tape (reverse_sweep); when that does not apply (an rd inside N,
  // anything undefined, a value out of range in the sweep) or with the other modes, by symbolic
  // evaluation of the redex (Fig. 4) in the environment at this point, with the R of the mode,
  // as the reference evaluator does it. The tape gives the value of W.R_V(x:T. C) for the
  // linear R.
  std::size_t rd(std::uint32_t site_index, std::size_t sp, std::size_t fp) {
    const RdSite& site = p_.rds[site_index];
    const Rd& r = *site.node;
    std::size_t cot_size = r.cotangent.type().size();
    std::size_t base = sp - cot_size - site.point_size;
    auto region = [&](const S* data, std::size_t off, std::size_t n) {
      return Value<S>(data + off, data + off + n);
    };
    if (cx_.options.ad == AdMode::Tape) {
      const std::uint64_t fuel = cx_.fuel_left, calls = cx_.calls;
      try {
        // N is compiled once per rd site and run by one machine: its environment at this site
        // has the same names and types each time, only other values, copied into its inputs.
        if (rd_bodies_.empty()) rd_bodies_.resize(p_.rds.size());
        CompiledBody& body = rd_bodies_[site_index];
        if (!body.program) {
          ValueEnv<S> env = site_env(site, fp);
          env.push(r.var, region(st_.data(), base, site.point_size));
          auto program = std::make_unique<Program<S>>();
          Compiler<S> compiler(*program, env, site.groups);
          compiler.compile_main(r.body);
          body.x = compiler.input_slot(r.var);
          body.sources = input_sources(*program, site, r);
          // The body's free variables are its inputs: the machine never reads rho, as it runs
          // no rd (one inside N takes the symbolic path).
          body.machine = std::make_unique<Machine>(*program, rho_, cx_);
          body.program = std::move(program);
        } else {
          refill_inputs(body, fp, base);
        }
        ensure(base + site.point_size + 1);
        body.machine->reverse_sweep(r.body.type(), body.x, site.point_size,
                                    st_.data() + base + site.point_size, st_.data() + base);
        return base + site.point_size;
      } catch (const tape::NotTapeable&) {
      } catch (const Undefined&) {
      }
      // The symbolic path redoes the calls, and reports what is undefined.
      if (!rd_bodies_.empty() && rd_bodies_[site_index].machine)
        rd_bodies_[site_index].machine->trim();
      cx_.fuel_left = fuel;
      cx_.calls = calls;
    }
    Value<S> result;
    {
      ValueEnv<S> env = site_env(site, fp);
      std::vector<FunFrame> frames(site.groups.size());
      for (std::size_t i = 0; i < frames.size(); ++i)
        frames[i] = FunFrame{site.groups[i].letrec, i == 0 ? nullptr : &frames[i - 1], UINT64_MAX};
      const FunFrame* phi = frames.empty() ? nullptr : &frames.back();
      Name zl = cx_.names.fresh("l"), zm = cx_.names.fresh("m");
      Type t = r.point.type();
      env.push(zl, region(st_.data(), base, site.point_size));
      env.push(zm, region(st_.data(), base + site.point_size, cot_size));
      Term redex = mk::rd(mk::var(zm, r.cotangent.type(), r.cotangent.loc()),
                          mk::var(zl, t, r.point.loc()), r.var, t, r.body, r.loc());
      result = symbolic_eval(redex, env, phi, cx_).value;
    }
    ensure(base + result.size() + 1);
    for (std::size_t i = 0; i < result.size(); ++i)
      st_[base + i] = std::move(result[i]);
    return base + result.size();
  }
};

}  // namespace adlang::compiled
