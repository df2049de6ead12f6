// The compiled evaluator's compiler: the core IR to the code of semantics/compiled/
// instructions.hpp, with every variable resolved to a slot at a static offset and every call
// to its function.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lang/diagnostics.hpp"
#include "semantics/compiled/instructions.hpp"
#include "semantics/environment.hpp"
#include "semantics/op_eval.hpp"
#include "support/stack.hpp"

namespace adlang::compiled {

// The innermost binding of each name in scope, for the compiler's scopes (a trace binds hundreds
// of thousands of names in one chain): an open-addressing hash table from a Name to the index of
// its innermost slot, or -1 once its bindings have all gone out of scope. Entries are never
// removed while the scope lasts, so lookups need no tombstones; the scope keeps what each binding
// shadows. A scope's table comes from, and goes back to, its thread's few tables of scopes that
// ended, with only the cells it used emptied: a program is compiled at every run, and growing a
// new table to a long chain's 2^20 cells took a third of compiling one (docs/performance.md
// Sec. 5).
class NameIndex {
 public:
  NameIndex() = default;
  NameIndex(const NameIndex&) = delete;
  NameIndex& operator=(const NameIndex&) = delete;
  ~NameIndex() { give_back(); }

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
    if (2 * (used_cells_.size() + 1) > entries_.size()) grow();
    const std::size_t i = cell(x);
    Entry& e = entries_[i];
    if (e.var == kEmpty) {
      // Listed before it is filled: a bad_alloc here must not leave a cell that give_back()
      // would not empty.
      used_cells_.push_back(static_cast<std::uint32_t>(i));
      e.name = x;
      e.var = -1;
    }
    return std::exchange(e.var, var);
  }

 private:
  static constexpr std::int32_t kEmpty = -2;
  struct Entry {
    Name name;
    std::int32_t var = kEmpty;
  };
  using Table = std::vector<Entry>;
  // What a thread keeps of ended scopes' tables, every cell empty: at most kKeptTables (a
  // compilation has two scopes open at most, the main term's and a function body's), of at most
  // kKeptCells cells each (16 bytes a cell: at most 32 MiB a thread, kept while it lives).
  static constexpr std::size_t kKeptTables = 2, kKeptCells = std::size_t{1} << 20;
  static std::vector<Table>& kept() {
    // Its room made first, so that give_back() never allocates.
    thread_local std::vector<Table> tables = [] {
      std::vector<Table> t;
      t.reserve(kKeptTables);
      return t;
    }();
    return tables;
  }

  Table entries_;                          // a power of two in size, at most half used
  std::vector<std::uint32_t> used_cells_;  // the cells holding a name

  std::size_t mask() const { return entries_.size() - 1; }
  // A name's home is its serial number (Name::serial): a program's names are interned in the
  // order they are read, so a let chain's names get neighbouring cells and its look-ups stay in
  // cache, and distinct names interned close together never share a home. (Homes taken from
  // the entries' addresses clustered once the entries were not evenly spaced:
  // docs/performance.md Sec. 5.)
  std::size_t home(Name x) const { return x.serial() & mask(); }
  std::size_t cell(Name x) const {
    std::size_t i = home(x);
    while (entries_[i].var != kEmpty && entries_[i].name != x)
      i = (i + 1) & mask();
    return i;
  }
  // A table twice the size (the first: a kept one if there is one, every kept table having at
  // least 64 cells), the names moved over. If it cannot be had (bad_alloc), the scope is left
  // with no table and no cells: consistent, though its bindings are gone with the compilation.
  void grow() {
    const std::size_t wanted = std::max<std::size_t>(64, 2 * entries_.size());
    Table old = std::exchange(entries_, Table());
    used_cells_.clear();  // keeps its capacity: the moves below do not allocate
    std::vector<Table>& tables = kept();
    if (old.empty() && !tables.empty()) {
      entries_ = std::move(tables.back());
      tables.pop_back();
      return;
    }
    entries_.assign(wanted, Entry{});
    for (const Entry& e : old)
      if (e.var != kEmpty) {
        const std::size_t i = cell(e.name);
        entries_[i] = e;
        used_cells_.push_back(static_cast<std::uint32_t>(i));
      }
  }
  // Empties the cells used and keeps the table for the thread's next scope, if it is not large.
  void give_back() noexcept {
    if (entries_.empty()) return;  // else grow() has made the thread's list
    std::vector<Table>& tables = kept();
    if (entries_.size() > kKeptCells || tables.size() >= kKeptTables) return;
    const Entry blank{};
    for (std::uint32_t i : used_cells_)
      entries_[i] = blank;
    tables.push_back(std::move(entries_));
  }
};

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
      p_.functions[job.fn].entry = label();
      compile_tail(f.def->body, body);
      p_.functions[job.fn].max_height = body.max_height;
    }
    // Each call gets its function's entry and frame height (instructions.hpp, Call).
    for (Instr& in : p_.code)
      if (in.code == Code::Call || in.code == Code::TailCall) {
        in.d = p_.functions[in.a].entry;
        in.e = p_.functions[in.a].max_height;
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
  std::uint32_t label_ = 0;  // the last jump target or entry (label())

  static std::uint32_t size_of(Type t) { return static_cast<std::uint32_t>(t.size()); }

  std::uint32_t here() const { return static_cast<std::uint32_t>(p_.code.size()); }
  // here(), as the target of a jump or an entry: no superinstruction may span it.
  std::uint32_t label() {
    label_ = here();
    return label_;
  }
  void emit(Code c, std::uint32_t a = 0, std::uint32_t b = 0, std::uint32_t d = 0,
            std::uint32_t e = 0, std::uint32_t f = 0) {
    p_.code.push_back(Instr{c, a, b, d, e, f});
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
    else if (s.size == 1 && here() > label_ && p_.code.back().code == Code::Load1)
      p_.code.back() = Instr{Code::Load2, p_.code.back().a, s.off};  // Load1 a; Load1 s.off
    else if (s.size == 1)
      emit(Code::Load1, s.off);
    else if (s.size > 0)
      emit(Code::Load, s.off, s.size);
    sc.grow(s.size);
  }

  // The operand pair <x, r> of a superinstruction (instructions.hpp: SubLC, BranchLtLC ..): a real
  // local x and a literal r in the precision's range; its frame offset and the constant's index.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> local_and_literal(const Term& arg,
                                                                           const Scope& sc) {
    const Pair* pr = arg.as<Pair>();
    if (pr == nullptr) return std::nullopt;
    const Var* x = pr->first.as<Var>();
    const Literal* lit = pr->second.as<Literal>();
    if (x == nullptr || lit == nullptr) return std::nullopt;
    std::int32_t found = sc.index.find(x->name);
    if (found < 0) return std::nullopt;
    const Slot& s = sc.vars[static_cast<std::size_t>(found)];
    if (s.input || s.size != 1) return std::nullopt;
    try {
      p_.consts.push_back(literal_value<S>(*lit));
    } catch (const Undefined&) {
      return std::nullopt;  // compiled as Const's Fail
    }
    return std::pair{s.off, static_cast<std::uint32_t>(p_.consts.size() - 1)};
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
    if (auto lc = local_and_literal(p->arg, sc)) {
      std::size_t at = p_.code.size();
      emit(branch_code(p->pred.kind(), true), loc(b.loc()), 0, 0, lc->first, lc->second);
      sc.grow(2);  // the operands' slots, as Load1 and Const use them
      sc.height -= 2;
      return at;
    }
    compile(p->arg, sc);
    std::size_t at = p_.code.size();
    emit(branch_code(p->pred.kind(), false), loc(b.loc()));
    sc.height -= 2;
    return at;
  }

  void compile(const Term& t, Scope& sc) {
    const StackScope stack_scope = check_evaluation_depth(t.loc());
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
        if (o->op.kind() == OpKind::Sub) {
          if (auto lc = local_and_literal(o->arg, sc)) {
            emit(Code::SubLC, loc(t.loc()), lc->first, lc->second);
            sc.grow(2);  // the operands' slots, as Load1 and Const use them
            sc.height -= 1;
            return;
          }
        }
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
            // Every other operator through the table's primal (lang/operators.hpp), so that
            // a new operator needs no opcode (docs/design.md Sec. 5).
            p_.ops.push_back(o->op);
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
        p_.code[*branch].c = label();
        sc.height = h;
        compile(i->else_branch, sc);
        p_.code[jump].a = label();
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
    const StackScope stack_scope = check_evaluation_depth(t.loc());
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
        p_.code[*branch].c = label();
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
    if (size_of(t.type()) == 1)
      emit(Code::Ret1);
    else
      emit(Code::Ret, size_of(t.type()));
  }
};

}  // namespace adlang::compiled
