#include "semantics/compiled_eval.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/resource_budget.hpp"
#include "lang/stack.hpp"
#include "semantics/op_eval.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/symbolic_eval.hpp"

namespace adlang {

namespace {

// ---- the code ---------------------------------------------------------------------------
//
// Operands are scalars on one stack; `fp` is the base of the current frame (a function's
// parameter, then its lets and temporaries). Each instruction's effect, with its figure rule:

enum class Code : std::uint8_t {
  Const,     // push consts[a]                                         (a literal r)
  Load1,     // push st[fp + a]                                        (a real variable)
  Load,      // push st[fp + a .. fp + a + b)                          (a variable / path)
  Input,     // push inputs[a .. a + b)                                (a program input, rho)
  Slide,     // remove the b... below the top a: [.. X(a) R(b)] -> [.. R(b)]   (end of let)
  Drop,      // sp -= a                                                (fst)
  Add,       // V + W => r + s; locs[a]                                (Fig. 2, +)
  Neg,       // ev(neg, V); locs[a]
  Sub,       // ev(sub, V); locs[a]
  Mul,       // ev(mul, V); locs[a]
  Div,       // ev(div, V); locs[a]
  OpAdd,     // ev(add, V); locs[a]
  Op,        // ev(ops[b], V); locs[a]                                 (Fig. 2, op)
  Branch,    // pred(V) with preds[b]; jump to c if false; locs[a]    (Fig. 2, pred and if)
  Jump,      // pc = a
  Call,      // f(V): fn a, |T| = b; locs[c]                           (Fig. 2, call)
  TailCall,  // the same in tail position: the caller's frame is reused
  Ret,       // the result (a scalars) replaces the frame
  Rd,        // W.rd_V(x:T. N): rds[a]                                 (Fig. 2, rd)
  Fail,      // throw fails[a] (a literal outside the precision's range)
  Halt,
};

struct Instr {
  Code code;
  std::uint32_t a = 0, b = 0, c = 0;
};

// A variable: a region of the current frame, or of the inputs (rho).
struct Slot {
  Name name;
  bool input = false;
  std::uint32_t off = 0;
  std::uint32_t size = 0;
};

struct Group {
  const LetRec* letrec;
  std::uint32_t first_fn;  // index of letrec->defs[0] in Program::functions
};

// An rd redex: what symbolic evaluation needs from the evaluation state at that point.
struct RdSite {
  const Rd* node;
  std::vector<Slot> locals;   // bindings in scope, in binding order
  bool top_level;             // whether rho is visible (not inside a function body)
  std::vector<Group> groups;  // the function environment, outermost first
  std::uint32_t point_size;
};

// The innermost binding of each name in scope, for the compiler's scopes (a trace binds hundreds
// of thousands of names in one chain): an open-addressing hash table from a Name to the index of
// its innermost slot, or -1 once its bindings have all gone out of scope. Entries are never
// removed, so lookups need no tombstones; the scope keeps what each binding shadows.
class NameIndex {
 public:
  // The innermost binding of x, or -1.
  std::int32_t find(Name x) const {
    if (entries_.empty()) return -1;
    for (std::size_t i = home(x);; i = (i + 1) & mask()) {
      const Entry& e = entries_[i];
      if (e.var == kEmpty) return -1;
      if (e.name == x) return e.var;
    }
  }
  // Makes `var` the innermost binding of x; returns the one it shadows (or -1).
  std::int32_t set(Name x, std::int32_t var) {
    if (2 * (used_ + 1) > entries_.size()) grow();
    Entry& e = slot(x);
    if (e.var == kEmpty) {
      e.name = x;
      e.var = -1;
      ++used_;
    }
    return std::exchange(e.var, var);
  }

 private:
  static constexpr std::int32_t kEmpty = -2;
  struct Entry {
    Name name;
    std::int32_t var = kEmpty;
  };
  std::vector<Entry> entries_;  // a power of two in size, at most half used
  std::size_t used_ = 0;

  std::size_t mask() const { return entries_.size() - 1; }
  // A Name hashes to its interned string's address. Strings interned one after the other (a
  // program's names, in order) are heap nodes some 64 bytes apart, so dropping the low 6 bits
  // gives them nearby entries and the lookups of a let chain stay in cache; the high bits are
  // folded in to spread distant addresses.
  std::size_t home(Name x) const {
    std::size_t a = x.hash();
    return ((a >> 6) ^ (a >> 26)) & mask();
  }
  Entry& slot(Name x) {
    std::size_t i = home(x);
    while (entries_[i].var != kEmpty && entries_[i].name != x)
      i = (i + 1) & mask();
    return entries_[i];
  }
  void grow() {
    std::vector<Entry> old =
        std::exchange(entries_, std::vector<Entry>(std::max<std::size_t>(64, 2 * entries_.size())));
    for (const Entry& e : old)
      if (e.var != kEmpty) slot(e.name) = e;
  }
};

template <class S>
struct Program {
  std::vector<Instr> code;
  std::vector<S> consts;
  std::vector<SourceLoc> locs;
  std::vector<Op> ops;
  struct Arity {
    std::uint32_t in, out;  // the sizes of an operator's argument and result
  };
  std::vector<Arity> op_arity;  // of each of `ops`
  std::vector<Pred> preds;
  std::vector<Undefined> fails;
  std::vector<RdSite> rds;
  struct Function {
    const FunDef* def;
    std::uint32_t entry = 0;
    std::uint32_t max_height = 0;
  };
  std::vector<Function> functions;
  std::vector<S> inputs;
  // Where each input's value was copied from (its name in rho): a program compiled once can be
  // run again in another environment with the same names and types (refill_inputs).
  std::vector<std::pair<Name, std::uint32_t>> input_names;
  std::uint32_t main_max_height = 0;
};

// ---- the compiler -----------------------------------------------------------------------

template <class S>
class Compiler {
 public:
  // `groups`: the function environment of the term (letrec groups, outermost first), whose
  // functions are compiled into this program too.
  Compiler(Program<S>& p, const ValueEnv<S>& rho, const std::vector<Group>& groups = {})
      : p_(p), rho_(rho) {
    for (const Group& g : groups)
      groups_.push_back(g.letrec);
  }

  // The inputs slot of x, if the compiled term uses x.
  std::optional<Slot> input_slot(Name x) const {
    auto it = input_slots_.find(x);
    if (it == input_slots_.end()) return std::nullopt;
    return it->second;
  }

  void compile_main(const Term& m) {
    Scope sc;
    sc.top_level = true;
    for (const LetRec* l : groups_)
      letrec_group(*l, sc);
    compile(m, sc);
    emit(Code::Halt);
    p_.main_max_height = sc.max_height;
    // Function bodies, compiled from a worklist (not recursively: bodies may define more).
    while (!pending_.empty()) {
      Pending job = std::move(pending_.back());
      pending_.pop_back();
      auto& f = p_.functions[job.fn];
      Scope body;
      body.top_level = false;
      body.groups = std::move(job.groups);
      const Type param = f.def->param_type;
      body.bind(Slot{f.def->param, false, 0, size_of(param)});
      body.height = body.max_height = size_of(param);
      p_.functions[job.fn].entry = static_cast<std::uint32_t>(p_.code.size());
      compile_tail(f.def->body, body);
      p_.functions[job.fn].max_height = body.max_height;
    }
  }

 private:
  struct Scope {
    std::vector<Slot> vars;  // in binding order (what an rd redex sees)
    // The innermost slot of each name (an index into `vars`), and for each slot of `vars` the
    // binding of its name that it shadows (or -1).
    NameIndex index;
    std::vector<std::int32_t> shadowed;
    void bind(const Slot& s) {
      shadowed.push_back(index.set(s.name, static_cast<std::int32_t>(vars.size())));
      vars.push_back(s);
    }
    void unbind_to(std::size_t n) {
      while (vars.size() > n) {
        index.set(vars.back().name, shadowed.back());
        shadowed.pop_back();
        vars.pop_back();
      }
    }
    bool top_level = false;
    std::vector<Group> groups;
    std::uint32_t height = 0, max_height = 0;
    void grow(std::uint32_t n) {
      height += n;
      max_height = std::max(max_height, height);
    }
  };
  struct Pending {
    std::uint32_t fn;
    std::vector<Group> groups;
  };

  Program<S>& p_;
  const ValueEnv<S>& rho_;
  std::vector<const LetRec*> groups_;  // the function environment of the compiled term
  std::unordered_map<Name, Slot, NameHash> input_slots_;
  std::vector<Pending> pending_;

  static std::uint32_t size_of(Type t) { return static_cast<std::uint32_t>(t.size()); }

  std::uint32_t here() const { return static_cast<std::uint32_t>(p_.code.size()); }
  void emit(Code c, std::uint32_t a = 0, std::uint32_t b = 0, std::uint32_t d = 0) {
    p_.code.push_back(Instr{c, a, b, d});
  }
  std::uint32_t loc(SourceLoc l) {
    p_.locs.push_back(l);
    return static_cast<std::uint32_t>(p_.locs.size() - 1);
  }

  // A variable in scope: the innermost local binding, else (outside function bodies) rho.
  Slot lookup(Name x, const Scope& sc) {
    std::int32_t found = sc.index.find(x);
    if (found >= 0) return sc.vars[static_cast<std::size_t>(found)];
    internal_check(sc.top_level, "unbound variable in a function body");
    auto it = input_slots_.find(x);
    if (it != input_slots_.end()) return it->second;
    const Value<S>* v = rho_.lookup(x);
    internal_check(v != nullptr, "unbound variable during evaluation");
    Slot s{x, true, static_cast<std::uint32_t>(p_.inputs.size()),
           static_cast<std::uint32_t>(v->size())};
    p_.inputs.insert(p_.inputs.end(), v->begin(), v->end());
    p_.input_names.emplace_back(x, s.off);
    input_slots_.emplace(x, s);
    return s;
  }

  // A path (x, fst P, snd P) denotes a region of a variable's slot.
  std::optional<Slot> path(const Term& t, const Scope& sc) {
    switch (t.kind()) {
      case TermKind::Var:
        return lookup(t.as<Var>()->name, sc);
      case TermKind::Fst: {
        const Fst* f = t.as<Fst>();
        auto s = path(f->arg, sc);
        if (s) s->size = size_of(t.type());
        return s;
      }
      case TermKind::Snd: {
        const Snd* f = t.as<Snd>();
        auto s = path(f->arg, sc);
        if (s) {
          s->off += size_of(f->arg.type().first());
          s->size = size_of(t.type());
        }
        return s;
      }
      case TermKind::Literal:
      case TermKind::Add:
      case TermKind::Op:
      case TermKind::Let:
      case TermKind::Unit:
      case TermKind::Pair:
      case TermKind::If:
      case TermKind::LetRec:
      case TermKind::Call:
      case TermKind::Rd:
        return std::nullopt;
    }
    return std::nullopt;
  }

  void load(const Slot& s, Scope& sc) {
    if (s.input)
      emit(Code::Input, s.off, s.size);
    else if (s.size == 1)
      emit(Code::Load1, s.off);
    else if (s.size > 0)
      emit(Code::Load, s.off, s.size);
    sc.grow(s.size);
  }

  void literal(const Literal& lit, Scope& sc) {
    try {
      S v = literal_value<S>(lit);
      p_.consts.push_back(std::move(v));
      emit(Code::Const, static_cast<std::uint32_t>(p_.consts.size() - 1));
    } catch (const Undefined& e) {
      // Undefined only if evaluated: the literal may sit in a branch never taken.
      p_.fails.push_back(e);
      emit(Code::Fail, static_cast<std::uint32_t>(p_.fails.size() - 1));
    }
    sc.grow(1);
  }

  // let x1 = M1 in ... let xn = Mn in N (a chain of lets, walked iteratively since traces
  // are long let chains): the bound values stay in their slots while N runs; then one Slide
  // removes them all from under N's value. Lets of paths are aliases and take no slot.
  template <class Body>
  void let_chain(const Term& t, Scope& sc, bool tail, Body&& body) {
    const std::uint32_t h0 = sc.height;
    const std::size_t vars0 = sc.vars.size();
    const Term* cur = &t;  // each let's body is owned by the let, so by t
    while (const Let* l = cur->as<Let>()) {
      if (auto alias = path(l->bound, sc)) {
        alias->name = l->var;
        sc.bind(*alias);
      } else {
        std::uint32_t at = sc.height;
        compile(l->bound, sc);
        sc.bind(Slot{l->var, false, at, sc.height - at});
      }
      cur = &l->body;
    }
    body(*cur);
    sc.unbind_to(vars0);
    if (tail) return;
    std::uint32_t r = size_of(t.type());
    std::uint32_t slots = sc.height - r - h0;
    if (slots > 0) emit(Code::Slide, slots, r);
    sc.height = h0 + r;
  }

  // The function a call calls, by its id (lang/resolve.hpp).
  std::uint32_t resolve(const FunRef& f, const Scope& sc) {
    internal_check(f.id != FunId::Unresolved, "a call of an unresolved function");
    for (std::size_t i = sc.groups.size(); i-- > 0;) {
      const Group& g = sc.groups[i];
      for (std::size_t j = 0; j < g.letrec->defs.size(); ++j)
        if (g.letrec->defs[j].id == f.id) return g.first_fn + static_cast<std::uint32_t>(j);
    }
    throw InternalError("internal error: call of an unbound function");
  }

  void letrec_group(const LetRec& l, Scope& sc) {
    Group g{&l, static_cast<std::uint32_t>(p_.functions.size())};
    sc.groups.push_back(g);
    for (std::size_t j = 0; j < l.defs.size(); ++j) {
      p_.functions.push_back(typename Program<S>::Function{&l.defs[j]});
      pending_.push_back(Pending{g.first_fn + static_cast<std::uint32_t>(j), sc.groups});
    }
  }

  // Guard of a conditional: returns the index of the Branch instruction to patch with the
  // else-branch's address, or nullopt for a constant guard (then *constant is its value).
  std::optional<std::size_t> guard(const BoolTerm& b, Scope& sc, bool* constant) {
    if (const BoolConst* c = b.as<BoolConst>()) {
      *constant = c->value;
      return std::nullopt;
    }
    const PredApp* p = b.as<PredApp>();
    compile(p->arg, sc);
    p_.preds.push_back(p->pred);
    std::size_t at = p_.code.size();
    emit(Code::Branch, loc(b.loc()), static_cast<std::uint32_t>(p_.preds.size() - 1), 0);
    sc.height -= 2;
    return at;
  }

  void compile(const Term& t, Scope& sc) {
    check_evaluation_depth(t.loc());
    switch (t.kind()) {
      // phi | rho |- V => rho(V)
      case TermKind::Var:
        load(lookup(t.as<Var>()->name, sc), sc);
        return;
      case TermKind::Literal:
        literal(*t.as<Literal>(), sc);
        return;
      case TermKind::Unit:
        return;
      // V + W => t where t = r + s
      case TermKind::Add: {
        const Add* a = t.as<Add>();
        compile(a->lhs, sc);
        compile(a->rhs, sc);
        emit(Code::Add, loc(t.loc()));
        sc.height -= 1;
        return;
      }
      // op(V) => W where ev(op, V') ~ W
      case TermKind::Op: {
        const OpApp* o = t.as<OpApp>();
        compile(o->arg, sc);
        std::uint32_t l = loc(t.loc());
        switch (o->op.kind()) {
          case OpKind::Neg:
            emit(Code::Neg, l);
            break;
          case OpKind::Sub:
            emit(Code::Sub, l);
            break;
          case OpKind::Mul:
            emit(Code::Mul, l);
            break;
          case OpKind::Div:
            emit(Code::Div, l);
            break;
          case OpKind::Add:
            emit(Code::OpAdd, l);
            break;
          default:
            p_.ops.push_back(o->op);
            p_.op_arity.push_back({size_of(o->op.arg_type()), size_of(o->op.result_type())});
            emit(Code::Op, l, static_cast<std::uint32_t>(p_.ops.size() - 1));
            break;
        }
        sc.height -= size_of(o->arg.type());
        sc.grow(size_of(t.type()));
        return;
      }
      // let x:T = V in N => W if N => W under rho[V'/x]
      case TermKind::Let:
        let_chain(t, sc, false, [&](const Term& body) { compile(body, sc); });
        return;
      // <V, W>: the concatenation of the two values
      case TermKind::Pair:
        compile(t.as<Pair>()->first, sc);
        compile(t.as<Pair>()->second, sc);
        return;
      // fst_{T,U}(V) => W1 where V => <W1, W2>
      case TermKind::Fst: {
        if (auto s = path(t, sc)) return load(*s, sc);
        const Fst* f = t.as<Fst>();
        compile(f->arg, sc);
        std::uint32_t drop = size_of(f->arg.type().second());
        if (drop > 0) emit(Code::Drop, drop);
        sc.height -= drop;
        return;
      }
      // snd_{T,U}(V) => W2 where V => <W1, W2>
      case TermKind::Snd: {
        if (auto s = path(t, sc)) return load(*s, sc);
        const Snd* f = t.as<Snd>();
        compile(f->arg, sc);
        std::uint32_t below = size_of(f->arg.type().first());
        if (below > 0) emit(Code::Slide, below, size_of(t.type()));
        sc.height -= below;
        return;
      }
      // if true then M else N => V if M => V; if false then M else N => V if N => V
      case TermKind::If: {
        const If* i = t.as<If>();
        bool constant = false;
        auto branch = guard(i->guard, sc, &constant);
        if (!branch) return compile(constant ? i->then_branch : i->else_branch, sc);
        std::uint32_t h = sc.height;
        compile(i->then_branch, sc);
        std::size_t jump = p_.code.size();
        emit(Code::Jump);
        p_.code[*branch].c = here();
        sc.height = h;
        compile(i->else_branch, sc);
        p_.code[jump].a = here();
        return;
      }
      // letrec f(x:T):U = M in N => V if N => V under phi[clo_phi(f(x:T):U. M)/f]
      case TermKind::LetRec: {
        const LetRec* l = t.as<LetRec>();
        letrec_group(*l, sc);
        compile(l->body, sc);
        sc.groups.pop_back();
        return;
      }
      // f(V) => W if M => W under phi'[phi(f)/f] | {x -> V'}
      case TermKind::Call: {
        const Call* c = t.as<Call>();
        compile(c->arg, sc);
        std::uint32_t k = size_of(c->arg.type());
        emit(Code::Call, resolve(c->fun, sc), k, loc(t.loc()));
        sc.height -= k;
        sc.grow(size_of(t.type()));
        return;
      }
      // W.rd_V(x:T. N) => X if W.rd_V(x:T. N) ~> C and C => X: the point, then the
      // cotangent (the contexts M.rd_E and E.rd_V of Fig. 3), then symbolic evaluation.
      case TermKind::Rd: {
        const Rd* r = t.as<Rd>();
        std::uint32_t h = sc.height;
        compile(r->point, sc);
        compile(r->cotangent, sc);
        p_.rds.push_back(RdSite{r, sc.vars, sc.top_level, sc.groups, size_of(r->point.type())});
        emit(Code::Rd, static_cast<std::uint32_t>(p_.rds.size() - 1));
        sc.height = h;
        sc.grow(size_of(t.type()));
        return;
      }
    }
    throw InternalError("internal error: unknown term kind in the compiler");
  }

  // A function body: code that ends in Ret or TailCall on every path.
  void compile_tail(const Term& t, Scope& sc) {
    check_evaluation_depth(t.loc());
    switch (t.kind()) {
      case TermKind::Let:
        let_chain(t, sc, true, [&](const Term& body) { compile_tail(body, sc); });
        return;
      case TermKind::If: {
        const If* i = t.as<If>();
        bool constant = false;
        auto branch = guard(i->guard, sc, &constant);
        if (!branch) return compile_tail(constant ? i->then_branch : i->else_branch, sc);
        std::uint32_t h = sc.height;
        compile_tail(i->then_branch, sc);
        p_.code[*branch].c = here();
        sc.height = h;
        compile_tail(i->else_branch, sc);
        return;
      }
      case TermKind::Call: {
        const Call* c = t.as<Call>();
        compile(c->arg, sc);
        emit(Code::TailCall, resolve(c->fun, sc), size_of(c->arg.type()), loc(t.loc()));
        return;
      }
      case TermKind::LetRec: {
        const LetRec* l = t.as<LetRec>();
        letrec_group(*l, sc);
        compile_tail(l->body, sc);
        sc.groups.pop_back();
        return;
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
        break;
    }
    compile(t, sc);
    emit(Code::Ret, size_of(t.type()));
  }
};

// ---- the machine ------------------------------------------------------------------------

template <class S>
[[noreturn]] void sum_out_of_range(SourceLoc loc) {
  throw Undefined(UndefinedKind::Range, loc,
                  std::string("the sum is outside the range of ") +
                      to_string(ScalarTraits<S>::precision) + " precision",
                  {"rerun with --precision 50 to compute with 50-digit floats"});
}

// Thrown inside the fast path of an rd redex when it cannot be used (see Machine::rd).
struct NotTapeable {};

// One operation of a tape: `code` (with `op`, an index into Program::ops, for Code::Op). Its
// operands' ids (and values, if keeps_values(code)) are the next ones on the tape's operand
// stacks, and its results have the next ids: the reverse sweep pops them in reverse order.
struct TapeOp {
  Code code;
  std::uint32_t op;
};

// Whether the reverse template of an operation reads its operands' values (+, - and neg do not).
constexpr bool keeps_values(Code c) {
  return c == Code::Mul || c == Code::Div || c == Code::Op;
}

// Memory mapped directly, in multiples of 2 MiB aligned to 2 MiB and advised (on Linux) to use
// transparent huge pages: the storage of long tapes. Regions given back are kept, up to
// kKeptBytes per thread, for the next tapes rather than returned to the system, since fresh
// memory costs a page fault per page and its zeroing, about as much as taping itself.
class MappedRegions {
 public:
  static constexpr std::size_t kHugePage = std::size_t(2) << 20;
  static constexpr std::size_t kKeptBytes = std::size_t(256) << 20;

  MappedRegions() = default;
  MappedRegions(const MappedRegions&) = delete;
  MappedRegions& operator=(const MappedRegions&) = delete;
  ~MappedRegions() {
    for (const Region& r : kept_)
      munmap(r.at, r.bytes);
  }

  // The regions of the calling thread.
  static MappedRegions& here() {
    thread_local MappedRegions regions;
    return regions;
  }

  struct Region {
    void* at = nullptr;
    std::size_t bytes = 0;
  };
  // A region of at least `bytes` bytes: the smallest one kept that is large enough, else a new
  // one of `bytes` rounded up to 2 MiB.
  Region take(std::size_t bytes) {
    bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    std::size_t best = kept_.size();
    for (std::size_t i = 0; i < kept_.size(); ++i)
      if (kept_[i].bytes >= bytes && (best == kept_.size() || kept_[i].bytes < kept_[best].bytes))
        best = i;
    if (best < kept_.size()) {
      Region r = kept_[best];
      kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
      kept_bytes_ -= r.bytes;
      return r;
    }
    return map(bytes);
  }
  void give(Region r) {
    if (kept_bytes_ + r.bytes > kKeptBytes) {
      munmap(r.at, r.bytes);
      return;
    }
    kept_.push_back(r);
    kept_bytes_ += r.bytes;
  }

 private:
  std::vector<Region> kept_;
  std::size_t kept_bytes_ = 0;

  // Maps a huge page more than needed, and unmaps what lies outside the aligned part.
  static Region map(std::size_t bytes) {
    const std::size_t len = bytes + kHugePage;
    void* raw = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    char* begin = static_cast<char*>(raw);
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(begin);
    char* aligned = begin + ((kHugePage - at % kHugePage) % kHugePage);
    if (aligned > begin) munmap(begin, static_cast<std::size_t>(aligned - begin));
    char* end = aligned + bytes;
    if (begin + len > end) munmap(end, static_cast<std::size_t>(begin + len - end));
#ifdef MADV_HUGEPAGE
    madvise(aligned, bytes, MADV_HUGEPAGE);  // advice only: its failure changes nothing
#endif
    return Region{aligned, bytes};
  }
};

// Storage for n elements of T, default-initialized (scalars are left unwritten). Arrays of
// trivial T of 2 MiB and more (the tapes of long computations) are MappedRegions.
template <class T>
class Array {
 public:
  Array() = default;
  explicit Array(std::size_t n) : data_(allocate(n)) {}
  T* get() const { return data_.get(); }
  T& operator[](std::size_t i) const { return data_[i]; }

 private:
  static constexpr bool kTrivial = std::is_trivial_v<T>;
  struct Free {
    std::size_t mapped = 0;  // the size of its MappedRegions region, if it has one
    void operator()(T* p) const {
      if (mapped != 0)
        MappedRegions::here().give({p, mapped});
      else if constexpr (kTrivial)
        std::free(p);
      else
        delete[] p;
    }
  };
  std::unique_ptr<T[], Free> data_;

  static std::unique_ptr<T[], Free> allocate(std::size_t n) {
    if constexpr (!kTrivial) {
      return std::unique_ptr<T[], Free>(new T[n]);
    } else {
      const std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(T);
      if (bytes < MappedRegions::kHugePage) {
        void* p = std::malloc(bytes);
        if (p == nullptr) throw std::bad_alloc();
        return std::unique_ptr<T[], Free>(static_cast<T*>(p));
      }
      MappedRegions::Region r = MappedRegions::here().take(bytes);
      return std::unique_ptr<T[], Free>(static_cast<T*>(r.at), Free{r.bytes});
    }
  }
};

// A stack of T kept in blocks, so that it grows without moving what it holds: pushes add runs
// of elements, each contiguous, and a reverse cursor takes the runs back in reverse order.
// Blocks double in size up to 2 MiB (see MappedRegions), so that small tapes stay small.
template <class T>
class BlockStack {
  struct Block {
    Array<T> data;
    std::size_t size = 0, capacity = 0;
  };

 public:
  // Room for a run of n elements at the top, to be written.
  T* push(std::size_t n) {
    if (top_ == nullptr || top_->size + n > top_->capacity) add_block(n);
    T* at = top_->data.get() + top_->size;
    top_->size += n;
    return at;
  }
  // The runs of elements, last pushed first.
  class Reverse {
   public:
    explicit Reverse(const std::vector<Block>& blocks) : blocks_(blocks), block_(blocks.size()) {}
    // The previous run of n elements (n as pushed).
    const T* pop(std::size_t n) {
      if (n == 0) return nullptr;
      while (pos_ < n) {
        --block_;
        pos_ = blocks_[block_].size;
      }
      pos_ -= n;
      return blocks_[block_].data.get() + pos_;
    }

   private:
    const std::vector<Block>& blocks_;
    std::size_t block_, pos_ = 0;
  };
  Reverse reverse() const { return Reverse(blocks_); }

 private:
  static constexpr std::size_t kFirstBlock = 256,
                               kMaxBlock =
                                   std::max(kFirstBlock, MappedRegions::kHugePage / sizeof(T));
  std::vector<Block> blocks_;
  Block* top_ = nullptr;

  // Out of line: push() is on the hot path of taping, and this is its rare case.
  [[gnu::noinline]] void add_block(std::size_t n) {
    std::size_t cap =
        blocks_.empty() ? kFirstBlock : std::min(2 * blocks_.back().capacity, kMaxBlock);
    cap = std::max(cap, n);
    blocks_.push_back(Block{Array<T>(cap), 0, cap});
    top_ = &blocks_.back();
  }
};

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
  // summed in the order of its contributions) without building C or R's output.
  Value<S> reverse_sweep(Type result, const std::optional<Slot>& x, std::size_t x_size,
                         const S* w) {
    taping_ = true;
    input_ids_.assign(p_.inputs.size(), -1);
    next_id_ = static_cast<std::int32_t>(x_size);
    if (x) {
      for (std::uint32_t i = 0; i < x->size; ++i)
        input_ids_[x->off + i] = static_cast<std::int32_t>(i);
    }
    ensure(p_.main_max_height + 1);
    std::size_t sp = exec<true>();
    std::size_t n = result.size();
    // adj_[k] is read only once set_[k] says it was written.
    adj_ = Array<S>(static_cast<std::size_t>(next_id_));
    set_ = Array<char>(static_cast<std::size_t>(next_id_));
    std::fill_n(set_.get(), next_id_, 0);
    // The cotangent's zero components send nothing, as the linear R drops a zero literal
    // cotangent (so the adjoint of x is +0 there, whatever the sign of zero a template gives).
    for (std::size_t i = 0; i < n; ++i)
      if (!(w[i] == S(0))) contribute(ids_[sp - n + i], [&] { return w[i]; });
    auto ids = tape_ids_.reverse();
    auto vals = tape_vals_.reverse();
    std::int32_t first = next_id_;  // of the results of the operation swept next
    auto op = tape_ops_.reverse();
    for (std::size_t k = tape_size_; k-- > 0;) {
      const TapeOp t = *op.pop(1);
      const auto [nin, nout] = arity(t);
      first -= static_cast<std::int32_t>(nout);
      const std::int32_t* in = ids.pop(nin);
      const S* x = keeps_values(t.code) ? vals.pop(nin) : nullptr;
      backward(t, first, nout, in, x);
    }
    Value<S> out(x_size);
    for (std::size_t i = 0; i < x_size; ++i)
      out[i] = set_[i] ? adj_[i] : S(0);
    return out;
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
  std::vector<Frame> frames_;
  // Taping (the fast path of rd): each stack scalar's id on the tape, -1 for a constant.
  bool taping_ = false;
  std::vector<std::int32_t> ids_, input_ids_;
  BlockStack<TapeOp> tape_ops_;
  std::size_t tape_size_ = 0;  // operations on the tape
  BlockStack<std::int32_t> tape_ids_;
  BlockStack<S> tape_vals_;
  std::int32_t next_id_ = 0;
  Array<S> adj_;  // the adjoint of each id, where set_
  Array<char> set_;
  // The bodies of this program's rd sites, compiled for the fast path when first met.
  struct CompiledBody {
    std::unique_ptr<Program<S>> program;
    std::optional<Slot> x;
  };
  std::unordered_map<std::uint32_t, CompiledBody> rd_bodies_;

  static void refill_inputs(Program<S>& p, const ValueEnv<S>& env) {
    for (const auto& [name, off] : p.input_names) {
      const Value<S>* v = env.lookup(name);
      internal_check(v != nullptr, "an rd body's input is not bound");
      std::copy(v->begin(), v->end(), p.inputs.begin() + static_cast<std::ptrdiff_t>(off));
    }
  }

  Value<S> top(std::size_t sp, std::size_t n) const {
    return Value<S>(st_.begin() + static_cast<std::ptrdiff_t>(sp - n),
                    st_.begin() + static_cast<std::ptrdiff_t>(sp));
  }

  void ensure(std::size_t n) {
    if (st_.size() < n) st_.resize(std::max(n, 2 * st_.size()));
    if (taping_ && ids_.size() < st_.size()) ids_.resize(st_.size(), -1);
  }

  // The fuel check and count of the reference evaluator (enter_call), for calls of a closure
  // of the ordinary language.
  void enter(std::uint32_t fn, std::uint32_t loc_index) {
    static const FunFrame kOrdinary{nullptr, nullptr, UINT64_MAX};
    FunFrame scratch{};
    enter_call(Closure{&kOrdinary, p_.functions[fn].def}, scratch, cx_, p_.locs[loc_index]);
  }

  template <class F>
  void arith(S* st, std::size_t& sp, std::uint32_t loc_index, OpKind k, F&& f) {
    S& a = st[sp - 2];
    a = f(a, st[sp - 1]);
    --sp;
    if (!ScalarTraits<S>::in_range(a))
      op_eval_detail::check_range(Op::make(k), &a, 1, p_.locs[loc_index]);
  }

  // The sizes of a tape operation's operands and results.
  typename Program<S>::Arity arity(TapeOp t) const {
    switch (t.code) {
      case Code::Op:
        return p_.op_arity[t.op];
      case Code::Neg:
        return {1, 1};
      default:
        return {2, 1};
    }
  }

  // Records an operation on the n scalars at st[base ..] (ids at id[base ..]) if one of them
  // depends on x; returns the id of its first result, or -1.
  std::int32_t record(Code code, std::uint32_t op, const S* st, const std::int32_t* id,
                      std::size_t base, std::size_t n, std::size_t nout) {
    bool live = false;
    for (std::size_t i = 0; i < n; ++i)
      live = live || id[base + i] >= 0;
    if (!live) return -1;
    return push_op(code, op, st + base, id + base, n, nout);
  }

  // record() for the two operands at the top of the stack.
  std::int32_t record2(Code code, const S* st, const std::int32_t* id, std::size_t sp) {
    if ((id[sp - 2] & id[sp - 1]) < 0) return -1;  // both -1: constants
    return push_op(code, 0, st + sp - 2, id + sp - 2, 2, 1);
  }

  std::int32_t push_op(Code code, std::uint32_t op, const S* x, const std::int32_t* ids,
                       std::size_t n, std::size_t nout) {
    if (tape_size_ >= cx_.options.max_trace_nodes) throw NotTapeable{};
    if ((tape_size_ & 0xfff) == 0) check_resources();
    ++tape_size_;
    *tape_ops_.push(1) = TapeOp{code, op};
    std::int32_t* to = tape_ids_.push(n);
    for (std::size_t i = 0; i < n; ++i)  // a loop: n is small, a memcpy call costs more
      to[i] = ids[i];
    if (keeps_values(code)) {
      S* v = tape_vals_.push(n);
      for (std::size_t i = 0; i < n; ++i)
        v[i] = x[i];
    }
    std::int32_t out = next_id_;
    next_id_ += static_cast<std::int32_t>(nout);
    return out;
  }

  // The ids of an operation's nout results at ids_[base ..], from its first id (or -1).
  void result_ids(std::size_t base, std::int32_t first, std::size_t nout) {
    for (std::size_t i = 0; i < nout; ++i)
      ids_[base + i] = first < 0 ? -1 : first + static_cast<std::int32_t>(i);
  }

  template <bool Tape>
  std::size_t exec() {
    const Instr* code = p_.code.data();
    const Instr* pc = code;
    S* st = st_.data();
    std::int32_t* id = Tape ? ids_.data() : nullptr;
    std::size_t sp = 0, fp = 0;
    const PredicateMode mode = cx_.options.predicates;
    auto refresh = [&] {
      st = st_.data();
      if constexpr (Tape) id = ids_.data();
    };
    for (;;) {
      const Instr& in = *pc++;
      switch (in.code) {
        case Code::Const:
          if constexpr (Tape) id[sp] = -1;
          st[sp++] = p_.consts[in.a];
          break;
        case Code::Load1:
          if constexpr (Tape) id[sp] = id[fp + in.a];
          st[sp] = st[fp + in.a];
          ++sp;
          break;
        case Code::Load:
          for (std::uint32_t i = 0; i < in.b; ++i) {
            if constexpr (Tape) id[sp + i] = id[fp + in.a + i];
            st[sp + i] = st[fp + in.a + i];
          }
          sp += in.b;
          break;
        case Code::Input:
          for (std::uint32_t i = 0; i < in.b; ++i) {
            if constexpr (Tape) id[sp + i] = input_ids_[in.a + i];
            st[sp + i] = p_.inputs[in.a + i];
          }
          sp += in.b;
          break;
        case Code::Slide: {
          std::size_t to = sp - in.a - in.b;
          for (std::uint32_t i = 0; i < in.b; ++i) {
            if constexpr (Tape) id[to + i] = id[to + in.a + i];
            st[to + i] = std::move(st[to + in.a + i]);
          }
          sp -= in.a;
          break;
        }
        case Code::Drop:
          sp -= in.a;
          break;
        case Code::Add: {
          std::int32_t r = -1;
          if constexpr (Tape) r = record2(Code::Add, st, id, sp);
          S& a = st[sp - 2];
          a = a + st[sp - 1];
          --sp;
          if constexpr (Tape) id[sp - 1] = r;
          if (!ScalarTraits<S>::in_range(a)) sum_out_of_range<S>(p_.locs[in.a]);
          break;
        }
        case Code::Neg:
          if constexpr (Tape)
            id[sp - 1] =
                id[sp - 1] < 0 ? -1 : push_op(Code::Neg, 0, st + sp - 1, id + sp - 1, 1, 1);
          st[sp - 1] = -st[sp - 1];
          break;
        case Code::Sub:
        case Code::Mul:
        case Code::OpAdd:
        case Code::Div: {
          std::int32_t r = -1;
          if constexpr (Tape) r = record2(in.code, st, id, sp);
          switch (in.code) {
            case Code::Sub:
              arith(st, sp, in.a, OpKind::Sub, [](const S& a, const S& b) { return a - b; });
              break;
            case Code::Mul:
              arith(st, sp, in.a, OpKind::Mul, [](const S& a, const S& b) { return a * b; });
              break;
            case Code::OpAdd:
              arith(st, sp, in.a, OpKind::Add, [](const S& a, const S& b) { return a + b; });
              break;
            default:
              if (st[sp - 1] == 0) {
                op_eval_detail::out_of_domain(Op::make(OpKind::Div), st[sp - 1], p_.locs[in.a]);
              }
              arith(st, sp, in.a, OpKind::Div, [](const S& a, const S& b) { return a / b; });
              break;
          }
          if constexpr (Tape) id[sp - 1] = r;
          break;
        }
        case Code::Op: {
          const Op op = p_.ops[in.b];
          const std::size_t n = p_.op_arity[in.b].in, r = p_.op_arity[in.b].out;
          std::size_t base = sp - n;
          std::int32_t first = -1;
          if constexpr (Tape) first = record(Code::Op, in.b, st, id, base, n, r);
          if (r == 1) {
            S out;
            eval_op(op, st + base, &out, p_.locs[in.a], cx_.options.predicates);
            st[base] = std::move(out);
          } else {
            std::vector<S> out(r);
            eval_op(op, st + base, out.data(), p_.locs[in.a], cx_.options.predicates);
            ensure(base + r + 1);
            refresh();
            for (std::size_t i = 0; i < r; ++i)
              st[base + i] = std::move(out[i]);
          }
          if constexpr (Tape) result_ids(base, first, r);
          sp = base + r;
          break;
        }
        case Code::Branch: {
          sp -= 2;
          std::optional<bool> b = eval_pred(p_.preds[in.b], st[sp], st[sp + 1], mode);
          if (!b) throw predicate_undefined(p_.preds[in.b], st[sp], p_.locs[in.a]);
          if (!*b) pc = code + in.c;
          break;
        }
        case Code::Jump:
          pc = code + in.a;
          break;
        case Code::Call: {
          enter(in.a, in.c);
          frames_.push_back(Frame{pc, fp});
          fp = sp - in.b;
          const auto& f = p_.functions[in.a];
          if (st_.size() < fp + f.max_height + 1) {
            ensure(fp + f.max_height + 1);
            refresh();
          }
          pc = code + f.entry;
          break;
        }
        case Code::TailCall: {
          enter(in.a, in.c);
          std::size_t from = sp - in.b;
          for (std::uint32_t i = 0; i < in.b; ++i) {
            if constexpr (Tape) id[fp + i] = id[from + i];
            st[fp + i] = std::move(st[from + i]);
          }
          sp = fp + in.b;
          const auto& f = p_.functions[in.a];
          if (st_.size() < fp + f.max_height + 1) {
            ensure(fp + f.max_height + 1);
            refresh();
          }
          pc = code + f.entry;
          break;
        }
        case Code::Ret: {
          std::size_t from = sp - in.a;
          for (std::uint32_t i = 0; i < in.a; ++i) {
            if constexpr (Tape) id[fp + i] = id[from + i];
            st[fp + i] = std::move(st[from + i]);
          }
          sp = fp + in.a;
          const Frame f = frames_.back();
          frames_.pop_back();
          pc = f.ret;
          fp = f.fp;
          break;
        }
        case Code::Rd:
          // An rd inside the body being taped: nested differentiation takes the symbolic path.
          if constexpr (Tape) throw NotTapeable{};
          sp = rd(in.a, sp, fp);
          refresh();
          break;
        case Code::Fail:
          throw p_.fails[in.a];
        case Code::Halt:
          return sp;
      }
    }
  }

  // Adds the contribution c to the adjoint of the scalar with id `i` (none for a constant): the
  // first contribution is the adjoint, later ones are added to it, in order.
  // The contribution is make(), computed only for a scalar that has an adjoint (R builds no
  // adjoint, so no contribution, for what does not depend on x).
  template <class Make>
  void contribute(std::int32_t i, Make&& make) {
    if (i < 0) return;
    std::size_t k = static_cast<std::size_t>(i);
    if (!set_[k]) {
      adj_[k] = make();
      set_[k] = 1;
    } else {
      adj_[k] = adj_[k] + make();
      if (!ScalarTraits<S>::in_range(adj_[k])) throw NotTapeable{};
    }
  }

  static S checked(S v) {
    if (!ScalarTraits<S>::in_range(v)) throw NotTapeable{};
    return v;
  }

  // The reverse templates of the transcendental operators (doubles and MPFR floats); false
  // for the others.
  bool transcendental(Op op, const std::int32_t* ids, const S* x, const S& w0) {
    using std::cos;
    using std::exp;
    using std::sin;
    using std::sqrt;
    using std::tanh;
    switch (op.kind()) {
      case OpKind::Sin:  // sin_r(x, w) = mul(w, cos(x))
        contribute(ids[0], [&] { return checked(w0 * checked(cos(x[0]))); });
        return true;
      case OpKind::Cos:  // cos_r(x, w) = neg(mul(w, sin(x)))
        contribute(ids[0], [&] { return -checked(w0 * checked(sin(x[0]))); });
        return true;
      case OpKind::Exp:  // exp_r(x, w) = mul(w, exp(x))
        contribute(ids[0], [&] { return checked(w0 * checked(exp(x[0]))); });
        return true;
      case OpKind::Log:  // log_r(x, w) = div(w, x)
        contribute(ids[0], [&] { return checked(w0 / x[0]); });
        return true;
      case OpKind::Sqrt:  // sqrt_r(x, w) = div(w, mul(2, sqrt(x)))
        contribute(ids[0], [&] { return checked(w0 / checked(S(2) * checked(sqrt(x[0])))); });
        return true;
      case OpKind::Tanh: {  // tanh_r(x, w) = mul(w, sub(1, mul(tanh(x), tanh(x))))
        S th = tanh(x[0]);
        contribute(ids[0], [&] { return checked(w0 * checked(S(1) - checked(th * th))); });
        return true;
      }
      case OpKind::Sigmoid: {  // sigmoid_r(x, w) = mul(w, mul(sigmoid(x), sub(1, sigmoid(x))))
        S sg;
        eval_op(op, x, &sg, {}, PredicateMode::Strict);
        contribute(ids[0], [&] { return checked(w0 * checked(sg * checked(S(1) - sg))); });
        return true;
      }
      case OpKind::Floor:  // floor_r(x, w) = 0: nothing to send
        return true;
      default:
        return false;
    }
  }

  // One tape operation backwards: its adjoint w through the reverse template of
  // lang/reverse_template.cpp (the same arithmetic in the same order), to its operands.
  // The operation t, whose results have the ids out .. out + nout - 1, on the operands with ids
  // `ids` and values `x` (null unless keeps_values(t.code)).
  void backward(TapeOp t, std::int32_t out, std::uint32_t nout, const std::int32_t* ids,
                const S* x) {
    bool any = false;
    for (std::uint32_t i = 0; i < nout; ++i)
      any = any || set_[static_cast<std::size_t>(out) + i];
    if (!any) return;  // a zero adjoint: nothing to send
    auto w = [&](std::uint32_t i) -> S {
      std::size_t k = static_cast<std::size_t>(out) + i;
      return set_[k] ? adj_[k] : S(0);
    };
    const S w0 = w(0);
    switch (t.code) {
      case Code::Add:    // d/dD (D + E) = d/dE (D + E) = 1
      case Code::OpAdd:  // add_r((a, b), w) = (w, w)
        contribute(ids[0], [&] { return w0; });
        contribute(ids[1], [&] { return w0; });
        return;
      case Code::Neg:  // neg_r(x, w) = neg(w)
        contribute(ids[0], [&] { return -w0; });
        return;
      case Code::Sub:  // sub_r((a, b), w) = (w, neg(w))
        contribute(ids[0], [&] { return w0; });
        contribute(ids[1], [&] { return -w0; });
        return;
      case Code::Mul:  // mul_r((a, b), w) = (mul(w, b), mul(w, a))
        contribute(ids[0], [&] { return checked(w0 * x[1]); });
        contribute(ids[1], [&] { return checked(w0 * x[0]); });
        return;
      case Code::Div:  // div_r((a, b), w) = (div(w, b), neg(div(mul(w, a), mul(b, b))))
        contribute(ids[0], [&] { return checked(w0 / x[1]); });
        contribute(ids[1], [&] { return -checked(checked(w0 * x[0]) / checked(x[1] * x[1])); });
        return;
      case Code::Op:
        break;
      default:
        throw InternalError("internal error: an instruction on the tape that is not an operation");
    }
    const Op op = p_.ops[t.op];
    const unsigned n = op.vector_size();
    if constexpr (ScalarTraits<S>::exact) {
      // Exact rationals have only the polynomial fragment (the primal refuses the rest).
      if (!op.is_polynomial()) throw NotTapeable{};
    } else {
      if (transcendental(op, ids, x, w0)) return;
    }
    switch (op.kind()) {
      case OpKind::Dot: {  // dot_n_r((u, v), w) = (scale_n(w, v), scale_n(w, u))
        for (unsigned i = 0; i < n; ++i)
          contribute(ids[i], [&] { return checked(w0 * x[n + i]); });
        for (unsigned i = 0; i < n; ++i)
          contribute(ids[n + i], [&] { return checked(w0 * x[i]); });
        return;
      }
      case OpKind::Scale: {  // scale_n_r((c, v), w) = (dot_n(v, w), scale_n(c, w))
        S sum = checked(x[1] * w(0));
        for (unsigned i = 1; i < n; ++i)
          sum = checked(sum + checked(x[1 + i] * w(i)));
        contribute(ids[0], [&] { return sum; });
        for (unsigned i = 0; i < n; ++i)
          contribute(ids[1 + i], [&] { return checked(x[0] * w(i)); });
        return;
      }
      default:
        break;
    }
    throw InternalError("internal error: an operator without a tape rule");
  }

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
    ValueEnv<S> env;
    if (site.top_level) env = rho_;
    for (const Slot& s : site.locals) {
      env.push(s.name, s.input ? region(p_.inputs.data(), s.off, s.size)
                               : region(st_.data(), fp + s.off, s.size));
    }
    Value<S> result;
    bool done = false;
    if (cx_.options.ad == AdMode::Tape) {
      const std::uint64_t fuel = cx_.fuel_left, calls = cx_.calls;
      try {
        env.push(r.var, region(st_.data(), base, site.point_size));
        // N is compiled once per rd site and run: its environment at this site has the same
        // names and types each time, only other values.
        CompiledBody& body = rd_bodies_[site_index];
        if (!body.program) {
          body.program = std::make_unique<Program<S>>();
          Compiler<S> compiler(*body.program, env, site.groups);
          compiler.compile_main(r.body);
          body.x = compiler.input_slot(r.var);
        } else {
          refill_inputs(*body.program, env);
        }
        Machine<S> tape(*body.program, env, cx_);
        Value<S> w = region(st_.data(), base + site.point_size, cot_size);
        result = tape.reverse_sweep(r.body.type(), body.x, site.point_size, w.data());
        done = true;
      } catch (const NotTapeable&) {
      } catch (const Undefined&) {
      }
      if (!done) {  // the symbolic path redoes the calls, and reports what is undefined
        cx_.fuel_left = fuel;
        cx_.calls = calls;
        env.pop();
      }
    }
    if (!done) {
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

}  // namespace

template <class S>
Value<S> compiled_eval(const Term& m, const ValueEnv<S>& rho, EvalContext& cx) {
  Program<S> p;
  Compiler<S>(p, rho).compile_main(m);
  return Machine<S>(p, rho, cx).run(m.type());
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
