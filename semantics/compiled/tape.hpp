// The run-time tape: the third differentiation of adlang (ad/ad_mode.hpp, AdMode::Tape).
//
// Reverse accumulation over the operations an evaluator executes for an rd body N, without
// building N's trace C or R's output: while N runs, every operation whose operands depend on x
// is recorded (its operator, its operands' ids and, if its reverse template reads them, their
// values: for the unsized operators, the operator and ids in one fixed-size entry); then the sweep
// runs the records backwards from the cotangent W, sending each operation's adjoint through the
// reverse template of its operator (lang/operators.hpp, parsed in lang/reverse_template.hpp,
// evaluated here on scalars with the operators' own primals) and summing the contributions to each
// scalar in the order they arrive. That is the arithmetic of the linear R's output W.R_V(x:T. C)
// (ad/linear_reverse_deriv.hpp), in the same order, so the tape gives the linear R's value to the
// bit; the `tape-agrees` property checks it.
//
// The tape applies where N differentiates no further and everything is defined: NotTapeable
// (or an Undefined from a primal) tells the evaluator to take the linear R instead, which
// reports what is undefined and where. The compiled evaluator (semantics/compiled/machine.hpp)
// is its one user; this header is a template over the scalar type, instantiated there.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/op.hpp"
#include "lang/reverse_template.hpp"
#include "semantics/op_eval.hpp"
#include "semantics/value.hpp"
#include "support/memory_regions.hpp"
#include "support/resource_budget.hpp"

// In a namespace of its own, so that a test can build a mutant of it beside the original.
namespace adlang::tape {

// Thrown while taping or sweeping when the tape cannot give the value: the evaluator takes the
// linear R instead.
struct NotTapeable {};

template <class S>
class Tape {
 public:
  // A tape of at most max_operations records (the trace-size budget).
  explicit Tape(std::uint64_t max_operations) : max_operations_(max_operations) {}

  // Empties the tape for a new run, in which the ids 0 .. x_size-1 are the scalars of x, the
  // independent variable. A tape is made once per rd site and started at each of its
  // derivatives: the memory of the last run is kept when it is small (release_if_large).
  void start(std::size_t x_size) {
    size_ = 0;
    check_at_ = 0;
    entries_.clear();
    ids_.clear();
    vals_.clear();
    next_id_ = static_cast<std::int32_t>(x_size);
  }

  // Frees the tape's memory if it holds more than kKeptBytes, so that a long tape's memory
  // (taken from MappedRegions) is given back after its sweep, as when the tape was made anew.
  void release_if_large() {
    const std::size_t bytes = entries_.capacity_bytes() + ids_.capacity_bytes() +
                              vals_.capacity_bytes() + adj_capacity_ * (sizeof(S) + 1);
    if (bytes <= kKeptBytes) return;
    entries_.release();
    ids_.release();
    vals_.release();
    adj_ = Array<S>();
    set_ = Array<char>();
    adj_capacity_ = 0;
  }

  // Records the operation op on its argument's scalars x (ids `ids`, -1 for a constant) if one
  // of them depends on x; returns the id of its first result (the others follow), or -1.
  [[gnu::always_inline]] std::int32_t record(Op op, const S* x, const std::int32_t* ids,
                                             std::size_t n, std::size_t nout) {
    bool live = false;
    for (std::size_t i = 0; i < n; ++i)
      live = live || ids[i] >= 0;
    if (!live) return -1;
    return push(op, x, ids, n, nout);
  }

  // record() for a binary operation on reals.
  [[gnu::always_inline]] std::int32_t record2(Op op, const S* x, const std::int32_t* ids) {
    if ((ids[0] & ids[1]) < 0) return -1;  // both -1: constants
    return push(op, x, ids, 2, 1);
  }

  // record() for a unary operation on a real.
  [[gnu::always_inline]] std::int32_t record1(Op op, const S* x, const std::int32_t* ids) {
    if (ids[0] < 0) return -1;
    return push(op, x, ids, 1, 1);
  }

  // The sweep: the adjoint of x (x_size scalars, written to out) when the n scalars with ids
  // result_ids have the cotangent w: the value of W.R_V(x:T. C) for the linear R. Nothing is
  // written to out unless the sweep completes (NotTapeable leaves it as it was).
  void sweep(const std::int32_t* result_ids, const S* w, std::size_t n, std::size_t x_size,
             S* out) {
    // adj_[k] is read only once set_[k] says it was written.
    const std::size_t ids_used = static_cast<std::size_t>(next_id_);
    if (adj_capacity_ < ids_used) {
      adj_ = Array<S>(ids_used);
      set_ = Array<char>(ids_used);
      adj_capacity_ = ids_used;
    }
    std::fill_n(set_.get(), ids_used, 0);
    // The cotangent's zero components send nothing, as the linear R drops a zero literal
    // cotangent (so the adjoint of x is +0 there, whatever the sign of zero a template gives).
    for (std::size_t i = 0; i < n; ++i)
      if (!(w[i] == S(0))) contribute(result_ids[i], w[i]);
    auto entries = entries_.reverse();
    auto ids = ids_.reverse();
    auto vals = vals_.reverse();
    std::int32_t first = next_id_;  // of the results of the operation swept next
    for (std::size_t k = size_; k-- > 0;) {
      const Entry& e = *entries.pop(1);
      const Record r = Record::of(e.word);
      const std::uint32_t unsized = kUnsized[static_cast<std::size_t>(r.kind)];
      if (unsized != 0) {  // one result; its operands' ids in e, their values (if read) on vals
        --first;
        const std::uint32_t nread = unsized - 1;
        const S* x = nread != 0 ? vals.pop(nread) : nullptr;
        // A zero adjoint (never set) sends nothing.
        if (set_[static_cast<std::size_t>(first)])
          backward_inline(r.kind, adj_[static_cast<std::size_t>(first)], e.in, x, Operators{});
        continue;
      }
      const Op op = Op::make(r.kind, r.n);
      const std::size_t nin = op.arg_size(), nout = op.result_size();
      first -= static_cast<std::int32_t>(nout);
      const std::int32_t* in = ids.pop(nin);
      const S* x = kReads[static_cast<std::size_t>(r.kind)] ? vals.pop(nin) : nullptr;
      backward(op, first, nout, in, x);
    }
    for (std::size_t i = 0; i < x_size; ++i)
      out[i] = set_[i] ? adj_[i] : S(0);
  }

 private:
  // One operation of the tape: its operator, kept in one word of its entry. Its results have
  // the next ids, in the order of the entries: the sweep pops the entries in reverse order.
  struct Record {
    OpKind kind;
    std::uint32_t n;  // the vector size of a sized operator (at most kMaxVectorOpSize)
    static constexpr std::uint32_t kKindBits = 8;
    static_assert(kOpKindCount <= (1u << kKindBits) && (kMaxVectorOpSize >> (31 - kKindBits)) == 0);
    std::int32_t word() const {
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(kind) | (n << kKindBits));
    }
    static Record of(std::int32_t word) {
      const std::uint32_t w = static_cast<std::uint32_t>(word);
      return Record{static_cast<OpKind>(w & ((1u << kKindBits) - 1)), w >> kKindBits};
    }
  };
  // The entry of an operation: its Record's word and, for an unsized operator (whose argument
  // is one or two reals), its operands' ids (-1 for a constant), so that taping its ids is one
  // push of a fixed size and sweeping them one pop. The values its template reads are a run on
  // the stack of values (none for +, - and neg: an entry of 12 bytes is all of such a record).
  // A sized operator's operands (dot_n, scale_n: any number of reals) are runs on the stacks of
  // ids and of values, after those of the operators before it.
  struct Entry {
    std::int32_t word;
    std::int32_t in[2];
  };
  std::uint64_t max_operations_;
  std::size_t size_ = 0;        // operations on the tape
  std::uint64_t check_at_ = 0;  // the size at which push() calls checkpoint()
  BlockStack<Entry> entries_;
  BlockStack<std::int32_t> ids_;  // of the sized operators' operands
  BlockStack<S> vals_;
  std::int32_t next_id_ = 0;
  Array<S> adj_;  // the adjoint of each id, where set_
  Array<char> set_;
  std::size_t adj_capacity_ = 0;  // the length of adj_ and set_
  static constexpr std::size_t kKeptBytes = std::size_t(1) << 20;
  std::vector<S> scratch_;  // the values of a template's subterms, during one backward step
  std::size_t scratch_top_ = 0;

  // Whether each operator's template reads its argument.
  static constexpr std::array<bool, kOpKindCount> reads_of() {
    std::array<bool, kOpKindCount> r{};
    for (std::size_t k = 0; k < kOpKindCount; ++k)
      r[k] = reverse_reads_argument(static_cast<OpKind>(k));
    return r;
  }
  static constexpr std::array<bool, kOpKindCount> kReads = reads_of();

  // ---- unsized operators: the template compiled by the C++ compiler ----
  //
  // Every value in the template of an unsized operator is one real (its argument is a real or a
  // pair of reals, and a Pair is only the root), so each node becomes inline code: the
  // operators' primals with the domain and range checks of semantics/op_eval.hpp, the same
  // arithmetic in the same order as the linear R's output evaluates.

  // The value of node I of O's template at the argument x (a real or a pair of reals) and the
  // cotangent w.
  template <class O, int I>
  [[gnu::always_inline]] static void eval_fixed(const S* x, const S& w, S& out) {
    constexpr ReverseNode n = reverse_rule(O::definition.kind).node(I);
    if constexpr (n.kind == ReverseNode::Kind::Cotangent) {
      out = w;
    } else if constexpr (n.kind == ReverseNode::Kind::Argument ||
                         n.kind == ReverseNode::Kind::First) {
      out = x[0];
    } else if constexpr (n.kind == ReverseNode::Kind::Second) {
      out = x[1];
    } else if constexpr (n.kind == ReverseNode::Kind::Literal) {
      out = S(n.literal);
    } else if constexpr (n.kind == ReverseNode::Kind::Apply) {
      using Inner = std::tuple_element_t<static_cast<std::size_t>(n.op), OperatorTuple>;
      constexpr OpDefinition d = Inner::definition;
      static_assert(!d.sized, "a sized operator inside the template of an unsized one");
      S arg[n.nparts];
      eval_fixed<O, n.parts[0]>(x, w, arg[0]);
      if constexpr (n.nparts == 2) eval_fixed<O, n.parts[1]>(x, w, arg[1]);
      if constexpr (d.domain != OpDomain::All) {
        // The argument named is eval_op's: the denominator, else the (first) argument.
        if (op_eval_detail::outside_domain(d.domain, arg, PredicateMode::Strict)) {
          if constexpr (d.domain == OpDomain::NonzeroDenominator) {
            op_eval_detail::out_of_domain(Op::make(d.kind), arg[1], SourceLoc{});
          } else {
            op_eval_detail::out_of_domain(Op::make(d.kind), arg[0], SourceLoc{});
          }
        }
      }
      if constexpr (ScalarTraits<S>::exact && !d.polynomial) {
        throw NotTapeable{};  // outside what exact rationals compute
      } else {
        Inner::primal(arg, &out, 0);
      }
      if (!ScalarTraits<S>::in_range(out))
        op_eval_detail::check_range(Op::make(d.kind), &out, 1, SourceLoc{});
    } else {
      static_assert(n.kind != ReverseNode::Kind::Pair, "a pair inside a template's part");
    }
  }

  // One part of O's template (node I, the adjoint of the argument scalar with id `id`), sent
  // only if that scalar has an adjoint to receive it: R builds no adjoint for what does not
  // depend on x. A literal 0 sends nothing, as the linear R propagates zeros.
  template <class O, int I>
  [[gnu::always_inline]] void send_fixed(const S* x, const S& w, std::int32_t id) {
    constexpr ReverseNode n = reverse_rule(O::definition.kind).node(I);
    if constexpr (n.kind == ReverseNode::Kind::Literal && n.literal == 0) {
      return;
    } else {
      if (id < 0) return;
      S v;
      eval_fixed<O, I>(x, w, v);
      contribute(id, v);
    }
  }

  // backward() for the unsized operator O, whose adjoint w is set.
  template <class O>
  [[gnu::always_inline]] void backward_fixed(const S& w, const std::int32_t* ids, const S* x) {
    constexpr const ReverseTemplate& t = reverse_rule(O::definition.kind);
    constexpr ReverseNode root = t.node(t.root);
    if constexpr (root.kind == ReverseNode::Kind::Pair) {
      send_fixed<O, root.parts[0]>(x, w, ids[0]);
      send_fixed<O, root.parts[1]>(x, w, ids[1]);
    } else {
      send_fixed<O, t.root>(x, w, ids[0]);
    }
  }

  // backward_fixed() for the unsized operator of kind k, inline in the sweep: one comparison
  // per operator of the table before it (lang/operators.hpp lists neg, add, sub, mul first).
  template <class... O>
  [[gnu::always_inline]] void backward_inline(OpKind k, const S& w, const std::int32_t* ids,
                                              const S* x, OperatorList<O...>) {
    (void)((k == O::definition.kind && (backward_unsized<O>(w, ids, x), true)) || ...);
  }
  template <class O>
  [[gnu::always_inline]] void backward_unsized(const S& w, const std::int32_t* ids, const S* x) {
    if constexpr (!O::definition.sized) backward_fixed<O>(w, ids, x);
  }

  // For each operator kind, read from the table once per kind rather than per record: 0 for a
  // sized operator; for an unsized one (its template compiled, its operands' ids in its Entry),
  // 1 + the number of values its template reads (the size of its argument, or none).
  template <class O>
  static constexpr std::uint32_t unsized_at() {
    if constexpr (O::definition.sized) {
      return 0;
    } else {
      constexpr std::size_t nin = adlang::size_of(O::definition.arg, 0);
      static_assert(adlang::size_of(O::definition.result, 0) == 1 && nin <= 2,
                    "an unsized operator of one or two reals to one");
      return 1 + (reverse_reads_argument(O::definition.kind) ? static_cast<std::uint32_t>(nin) : 0);
    }
  }
  template <class... O>
  static constexpr std::array<std::uint32_t, sizeof...(O)> unsized_of(OperatorList<O...>) {
    return {unsized_at<O>()...};
  }
  static constexpr std::array<std::uint32_t, kOpKindCount> kUnsized = unsized_of(Operators{});

  [[gnu::always_inline]] std::int32_t push(Op op, const S* x, const std::int32_t* ids,
                                           std::size_t n, std::size_t nout) {
    if (size_ == check_at_) checkpoint();
    ++size_;
    const std::size_t k = static_cast<std::size_t>(op.kind());
    Entry* e = entries_.push(1);
    e->word = Record{op.kind(), op.vector_size()}.word();
    // The operands' ids in the entry (n <= 2; the kind, hence the branch, is known where record2
    // is called) or, for a sized operator, in a run beside it; the values read in a run.
    std::int32_t* to = kUnsized[k] ? e->in : ids_.push(n);
    for (std::size_t i = 0; i < n; ++i)  // a loop: n is small, a memcpy call costs more
      to[i] = ids[i];
    if (kReads[k]) {
      S* v = vals_.push(n);
      for (std::size_t i = 0; i < n; ++i)
        v[i] = x[i];
    }
    std::int32_t out = next_id_;
    next_id_ += static_cast<std::int32_t>(nout);
    return out;
  }

  // Before the record at check_at_ (every 4096th, and the one over the budget): the budget of
  // records, then the resource budgets (support/resource_budget.hpp). One comparison a record.
  [[gnu::noinline]] void checkpoint() {
    if (size_ >= max_operations_) throw NotTapeable{};
    check_resources();
    check_at_ = std::min<std::uint64_t>((size_ | 0xfff) + 1, max_operations_);
  }

  // Adds the contribution c to the adjoint of the scalar with id `i` (none for a constant): the
  // first contribution is the adjoint, later ones are added to it, in order.
  [[gnu::always_inline]] void contribute(std::int32_t i, const S& c) {
    if (i < 0) return;
    std::size_t k = static_cast<std::size_t>(i);
    if (!set_[k]) {
      adj_[k] = c;
      set_[k] = 1;
    } else {
      adj_[k] = adj_[k] + c;
      if (!ScalarTraits<S>::in_range(adj_[k])) throw NotTapeable{};
    }
  }

  // Room for k scalars of a template's subterm values.
  S* take(std::size_t k) {
    internal_check(scratch_top_ + k <= scratch_.size(), "tape scratch space exhausted");
    S* at = scratch_.data() + scratch_top_;
    scratch_top_ += k;
    return at;
  }

  // The number of scalars of the first component of a pair argument (a, u or c).
  static std::size_t first_size(Op op) {
    switch (op.definition().arg) {
      case OpShape::RealPair:
      case OpShape::RealVector:
        return 1;
      case OpShape::VectorPair:
        return op.vector_size();
      case OpShape::Real:
      case OpShape::Vector:
        break;
    }
    throw InternalError("internal error: a reverse template takes a component of a non-pair");
  }

  // ---- sized operators (dot_n, scale_n): the template interpreted ----

  // The number of scalars of the value of node i of template t, for the operator op.
  static std::size_t size_of(const ReverseTemplate& t, int i, Op op) {
    const ReverseNode& n = t.node(i);
    switch (n.kind) {
      case ReverseNode::Kind::Cotangent:
        return op.result_size();
      case ReverseNode::Kind::Argument:
        return op.arg_size();
      case ReverseNode::Kind::First:
        return first_size(op);
      case ReverseNode::Kind::Second:
        return op.arg_size() - first_size(op);
      case ReverseNode::Kind::Literal:
        return 1;
      case ReverseNode::Kind::Apply:
        return Op::make(n.op, op.vector_size()).result_size();
      case ReverseNode::Kind::Pair:
        return size_of(t, n.parts[0], op) + size_of(t, n.parts[1], op);
    }
    throw InternalError("internal error: unknown reverse-template node");
  }

  // The value of node i of op's template t at the argument x and cotangent w, into out: each
  // operator applied by eval_op (semantics/op_eval.hpp), as the evaluator of the linear R's
  // output applies it.
  void eval(const ReverseTemplate& t, int i, Op op, const S* x, const S* w, S* out) {
    const ReverseNode& n = t.node(i);
    switch (n.kind) {
      case ReverseNode::Kind::Cotangent:
        std::copy_n(w, op.result_size(), out);
        return;
      case ReverseNode::Kind::Argument:
        std::copy_n(x, op.arg_size(), out);
        return;
      case ReverseNode::Kind::First:
        std::copy_n(x, first_size(op), out);
        return;
      case ReverseNode::Kind::Second: {
        std::size_t f = first_size(op);
        std::copy_n(x + f, op.arg_size() - f, out);
        return;
      }
      case ReverseNode::Kind::Literal:
        out[0] = S(n.literal);
        return;
      case ReverseNode::Kind::Apply: {
        Op inner = Op::make(n.op, op.vector_size());
        S* arg = take(inner.arg_size());
        eval(t, n.parts[0], op, x, w, arg);
        if (n.nparts == 2) eval(t, n.parts[1], op, x, w, arg + size_of(t, n.parts[0], op));
        eval_op(inner, arg, out, SourceLoc{}, PredicateMode::Strict);
        return;
      }
      case ReverseNode::Kind::Pair:
        eval(t, n.parts[0], op, x, w, out);
        eval(t, n.parts[1], op, x, w, out + size_of(t, n.parts[0], op));
        return;
    }
    throw InternalError("internal error: unknown reverse-template node");
  }

  // The contributions of node i of the template (the adjoint of the k argument scalars with
  // ids `ids`), computed only if one of them has an adjoint to receive it. A literal 0 sends
  // nothing.
  void send(const ReverseTemplate& t, int i, Op op, const S* x, const S* w, const std::int32_t* ids,
            std::size_t k) {
    const ReverseNode& n = t.node(i);
    if (n.kind == ReverseNode::Kind::Literal && n.literal == 0) return;
    bool needed = false;
    for (std::size_t j = 0; j < k; ++j)
      needed = needed || ids[j] >= 0;
    if (!needed) return;
    S* v = take(k);
    eval(t, i, op, x, w, v);
    for (std::size_t j = 0; j < k; ++j)
      contribute(ids[j], v[j]);
  }

  // One operation of a sized operator backwards (the unsized ones take backward_fixed): op's
  // adjoint (of its nout results, with the ids out ..) through op's reverse template to its
  // operands, with ids `ids` and values `x` (null unless the template reads them).
  void backward(Op op, std::int32_t out, std::size_t nout, const std::int32_t* ids, const S* x) {
    bool any = false;
    for (std::size_t i = 0; i < nout; ++i)
      any = any || set_[static_cast<std::size_t>(out) + i];
    if (!any) return;  // a zero adjoint: nothing to send
    const std::size_t nin = op.arg_size();
    // Generous room: a template nests a few operators, each on at most nin + nout scalars.
    const std::size_t room = 8 * (nin + nout) + 8;
    if (scratch_.size() < room) scratch_.resize(room);
    scratch_top_ = 0;
    S* w = take(nout);
    for (std::size_t i = 0; i < nout; ++i) {
      std::size_t k = static_cast<std::size_t>(out) + i;
      w[i] = set_[k] ? adj_[k] : S(0);
    }
    const ReverseTemplate& t = reverse_rule(op.kind());
    const ReverseNode& root = t.node(t.root);
    if (root.kind == ReverseNode::Kind::Pair) {
      const std::size_t f = first_size(op);
      send(t, root.parts[0], op, x, w, ids, f);
      send(t, root.parts[1], op, x, w, ids + f, nin - f);
    } else {
      send(t, t.root, op, x, w, ids, nin);
    }
  }
};

}  // namespace adlang::tape
