// The core IR: typed terms and boolean terms of the paper (Sec. 2), with the type subscripts of
// pairs and projections filled in. Trace terms (Sec. 3) are the terms without If, LetRec, Call
// and Rd.
//
// Nodes are immutable and made only through the validating factories in namespace `mk`
// (docs/style.md item 2; the node constructors are private, each node befriends its factory): every
// node knows its type, and a factory refuses operands of the wrong type with an InternalError (the
// type checker reports user errors before that can happen). A new TermKind makes every `switch`
// over kinds fail to compile until it is handled
// (-Wswitch under -Werror), which is how we keep one list of node kinds (docs/style.md item 1).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lang/name.hpp"
#include "lang/op.hpp"
#include "lang/ref.hpp"
#include "lang/source.hpp"
#include "lang/type.hpp"

namespace adlang {

enum class TermKind {
  Var,      // x
  Literal,  // r (a real number)
  Add,      // M + N (the built-in addition)
  Op,       // op(M)
  Let,      // let x:T = M in N
  Unit,     // *
  Pair,     // <M, N>_{T,U}
  Fst,      // fst_{T,U}(M)
  Snd,      // snd_{T,U}(M)
  If,       // if B then M else N
  LetRec,   // letrec f(x:T):U = M in N   (a group of functions: top-level defs)
  Call,     // f(M)
  Rd,       // M.rd_L(x:T. N)
};

enum class BoolKind {
  Const,  // true, false
  Pred,   // pred(M)
};

const char* to_string(TermKind k);

class TermNode : public RefCounted {
 public:
  TermKind kind() const { return kind_; }
  Type type() const { return type_; }
  SourceLoc loc() const { return loc_; }

 protected:
  TermNode(TermKind k, Type t, SourceLoc loc) : kind_(k), type_(t), loc_(loc) {}

 private:
  TermKind kind_;
  Type type_;
  SourceLoc loc_;
};

class BoolTermNode : public RefCounted {
 public:
  BoolKind kind() const { return kind_; }
  SourceLoc loc() const { return loc_; }

 protected:
  BoolTermNode(BoolKind k, SourceLoc loc) : kind_(k), loc_(loc) {}

 private:
  BoolKind kind_;
  SourceLoc loc_;
};

// A handle to a term node. `as<Let>()` is a checked downcast (null if the kind differs).
class Term : public Ref<TermNode> {
 public:
  using Ref<TermNode>::Ref;
  Term(const Ref<TermNode>& r) : Ref<TermNode>(r) {}  // NOLINT(google-explicit-constructor)
  TermKind kind() const { return get()->kind(); }
  Type type() const { return get()->type(); }
  SourceLoc loc() const { return get()->loc(); }
  template <class Node>
  const Node* as() const {
    return get() && get()->kind() == Node::kKind ? static_cast<const Node*>(get()) : nullptr;
  }
};

class BoolTerm : public Ref<BoolTermNode> {
 public:
  using Ref<BoolTermNode>::Ref;
  BoolTerm(const Ref<BoolTermNode>& r) : Ref<BoolTermNode>(r) {}  // NOLINT
  BoolKind kind() const { return get()->kind(); }
  SourceLoc loc() const { return get()->loc(); }
  template <class Node>
  const Node* as() const {
    return get() && get()->kind() == Node::kKind ? static_cast<const Node*>(get()) : nullptr;
  }
};

// The identity of a function definition, given at resolution (lang/resolve.hpp): every FunDef of
// a resolved program has its own id, and every call carries the id of the definition it calls,
// so that no later pass looks functions up by name (names are kept for printing only).
enum class FunId : std::uint32_t { Unresolved = 0 };

// One function of a recursive group: f(x:T):U = M, with FV(M) within {x}.
struct FunDef {
  Name name;
  Name param;
  Type param_type;
  Type result_type;
  Term body;
  SourceLoc loc;
  FunId id = FunId::Unresolved;
};

// The function a call calls: its name as written and, once resolved, its definition's id.
struct FunRef {
  FunRef(Name n, FunId i = FunId::Unresolved) : name(n), id(i) {}  // NOLINT: a name is a ref
  Name name;
  FunId id;
};

// ---- the factory ------------------------------------------------------------------------

// The one way to make IR nodes. Each function checks the typing rule of Fig. 1 for its node
// (given the types of its operands) and throws InternalError if it fails.
namespace mk {

Term var(Name x, Type t, SourceLoc loc = {});
// `text` must be a decimal literal as in docs/design.md Sec. 3, optionally with a leading '-'.
Term literal(const std::string& text, SourceLoc loc = {});
Term add(Term a, Term b, SourceLoc loc = {});
Term op(Op o, Term arg, SourceLoc loc = {});
// op applied to a pair: op(<a, b>), the meaning of `op(a, b)`.
Term op(Op o, Term a, Term b, SourceLoc loc = {});
Term let(Name x, Type t, Term bound, Term body, SourceLoc loc = {});
Term unit(SourceLoc loc = {});
Term pair(Term a, Term b, SourceLoc loc = {});
Term fst(Term a, SourceLoc loc = {});
Term snd(Term a, SourceLoc loc = {});
Term if_(BoolTerm guard, Term then_branch, Term else_branch, SourceLoc loc = {});
// The defs keep their ids (FunId::Unresolved until resolve_functions gives them one).
Term letrec(std::vector<FunDef> defs, Term body, SourceLoc loc = {});
// A call of f: by name only (f.id unresolved) until resolve_functions fills in the id.
Term call(FunRef f, Type param_type, Type result_type, Term arg, SourceLoc loc = {});
Term rd(Term cotangent, Term point, Name x, Type t, Term body, SourceLoc loc = {});

BoolTerm bool_const(bool v, SourceLoc loc = {});
BoolTerm pred(Pred p, Term arg, SourceLoc loc = {});

}  // namespace mk

// ---- term nodes -------------------------------------------------------------------------

struct Var final : TermNode {
  static constexpr TermKind kKind = TermKind::Var;
  Name name;

 private:
  friend Term mk::var(Name x, Type t, SourceLoc loc);
  Var(Name n, Type t, SourceLoc l) : TermNode(kKind, t, l), name(n) {}
};

// A real constant, kept as its decimal text so that every precision reads it exactly as
// written (0.1 is 1/10 in exact mode and the nearest double in double mode).
struct Literal final : TermNode {
  static constexpr TermKind kKind = TermKind::Literal;
  std::string text;  // digits ('.' digits)? (e [+-]? digits)?, possibly with a leading '-'
  double approx;     // text read as a double (may be +-inf for huge literals)

 private:
  friend Term mk::literal(const std::string& text, SourceLoc loc);
  Literal(std::string t, double v, SourceLoc l)
      : TermNode(kKind, Type::real(), l), text(std::move(t)), approx(v) {}
};

struct Add final : TermNode {
  static constexpr TermKind kKind = TermKind::Add;
  Term lhs, rhs;

 private:
  friend Term mk::add(Term a, Term b, SourceLoc loc);
  Add(Term a, Term b, SourceLoc l)
      : TermNode(kKind, Type::real(), l), lhs(std::move(a)), rhs(std::move(b)) {}
};

struct OpApp final : TermNode {
  static constexpr TermKind kKind = TermKind::Op;
  Op op;
  Term arg;

 private:
  friend Term mk::op(Op o, Term arg, SourceLoc loc);
  OpApp(Op o, Term a, SourceLoc l)
      : TermNode(kKind, o.result_type(), l), op(o), arg(std::move(a)) {}
};

struct Let final : TermNode {
  static constexpr TermKind kKind = TermKind::Let;
  Name var;  // its type is bound.type()
  Term bound, body;

 private:
  friend Term mk::let(Name x, Type t, Term bound, Term body, SourceLoc loc);
  Let(Name x, Term m, Term n, SourceLoc l)
      : TermNode(kKind, n.type(), l), var(x), bound(std::move(m)), body(std::move(n)) {}
};

struct UnitVal final : TermNode {
  static constexpr TermKind kKind = TermKind::Unit;

 private:
  friend Term mk::unit(SourceLoc loc);
  explicit UnitVal(SourceLoc l) : TermNode(kKind, Type::unit(), l) {}
};

struct Pair final : TermNode {
  static constexpr TermKind kKind = TermKind::Pair;
  Term first, second;  // the subscripts T, U are first.type(), second.type()

 private:
  friend Term mk::pair(Term a, Term b, SourceLoc loc);
  Pair(Term a, Term b, SourceLoc l)
      : TermNode(kKind, Type::pair(a.type(), b.type()), l),
        first(std::move(a)),
        second(std::move(b)) {}
};

struct Fst final : TermNode {
  static constexpr TermKind kKind = TermKind::Fst;
  Term arg;  // the subscripts T, U are arg.type().first(), .second()

 private:
  friend Term mk::fst(Term a, SourceLoc loc);
  Fst(Term a, SourceLoc l) : TermNode(kKind, a.type().first(), l), arg(std::move(a)) {}
};

struct Snd final : TermNode {
  static constexpr TermKind kKind = TermKind::Snd;
  Term arg;

 private:
  friend Term mk::snd(Term a, SourceLoc loc);
  Snd(Term a, SourceLoc l) : TermNode(kKind, a.type().second(), l), arg(std::move(a)) {}
};

struct If final : TermNode {
  static constexpr TermKind kKind = TermKind::If;
  BoolTerm guard;
  Term then_branch, else_branch;

 private:
  friend Term mk::if_(BoolTerm guard, Term then_branch, Term else_branch, SourceLoc loc);
  If(BoolTerm b, Term m, Term n, SourceLoc l)
      : TermNode(kKind, m.type(), l),
        guard(std::move(b)),
        then_branch(std::move(m)),
        else_branch(std::move(n)) {}
};

// letrec f(x:T):U = M in N. The paper binds one function; top-level defs bind a group that
// may be mutually recursive (docs/design.md Sec. 6), treated alike by all evaluators.
struct LetRec final : TermNode {
  static constexpr TermKind kKind = TermKind::LetRec;
  std::vector<FunDef> defs;
  Term body;

 private:
  friend Term mk::letrec(std::vector<FunDef> defs, Term body, SourceLoc loc);
  LetRec(std::vector<FunDef> d, Term n, SourceLoc l)
      : TermNode(kKind, n.type(), l), defs(std::move(d)), body(std::move(n)) {}
};

struct Call final : TermNode {
  static constexpr TermKind kKind = TermKind::Call;
  FunRef fun;
  Type param_type;
  Term arg;

 private:
  friend Term mk::call(FunRef f, Type param_type, Type result_type, Term arg, SourceLoc loc);
  Call(FunRef f, Type param_t, Type result_t, Term a, SourceLoc l)
      : TermNode(kKind, result_t, l), fun(f), param_type(param_t), arg(std::move(a)) {}
};

// M.rd_L(x:T. N): the reverse derivative of x:T |-> N at L, applied to the cotangent M.
struct Rd final : TermNode {
  static constexpr TermKind kKind = TermKind::Rd;
  Term cotangent;  // M : U
  Term point;      // L : T
  Name var;        // x : T (its type is point.type())
  Term body;       // N : U

 private:
  friend Term mk::rd(Term cotangent, Term point, Name x, Type t, Term body, SourceLoc loc);
  Rd(Term m, Term l, Name x, Term n, SourceLoc loc)
      : TermNode(kKind, l.type(), loc),
        cotangent(std::move(m)),
        point(std::move(l)),
        var(x),
        body(std::move(n)) {}
};

// ---- boolean term nodes -----------------------------------------------------------------

struct BoolConst final : BoolTermNode {
  static constexpr BoolKind kKind = BoolKind::Const;
  bool value;

 private:
  friend BoolTerm mk::bool_const(bool v, SourceLoc loc);
  BoolConst(bool v, SourceLoc l) : BoolTermNode(kKind, l), value(v) {}
};

struct PredApp final : BoolTermNode {
  static constexpr BoolKind kKind = BoolKind::Pred;
  Pred pred;
  Term arg;

 private:
  friend BoolTerm mk::pred(Pred p, Term arg, SourceLoc loc);
  PredApp(Pred p, Term a, SourceLoc l) : BoolTermNode(kKind, l), pred(p), arg(std::move(a)) {}
};

// ---- classification (paper Sec. 3) ------------------------------------------------------

// Values: V ::= x | r | * | <V, W>.
bool is_value(const Term& t);
// Trace terms: no conditionals, function definitions or calls, or differentiations.
bool is_trace_term(const Term& t);
// True if `text` is a valid literal text (see mk::literal).
bool is_literal_text(const std::string& text);

}  // namespace adlang
