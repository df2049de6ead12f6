#include "semantics/graph/reference_executor.hpp"

#include <algorithm>
#include <deque>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <unordered_map>
#include <utility>

#include "lang/diagnostics.hpp"
#include "semantics/graph/budgets.hpp"
#include "semantics/graph/call_chain.hpp"
#include "semantics/graph/firing_rules.hpp"
#include "semantics/graph/node_value.hpp"
#include "semantics/graph/token.hpp"
#include "support/resource_budget.hpp"

namespace adlang::graph {
namespace {

constexpr std::uint32_t kNoIndex = std::numeric_limits<std::uint32_t>::max();

// An activation: the tag t/i as its parent t and its call site i (global), as in executor.cpp
// (call_chain.hpp's CallLink; the main frame's parent and site are kNoIndex).
struct RefFrame : CallLink<std::uint32_t> {
  std::uint32_t exits_pending = 0;  // outputs not yet sent
  std::uint32_t tag = kNoIndex;     // its tag in the store (docs/graph-ad.md), or none
  bool returned = false;            // every output sent
  // The positions of the call sites from the main body down to it (token.hpp's Bottom key
  // without the node's place).
  std::vector<std::uint32_t> path;
};

// A node instance's inputs as they arrive (a call site's: its Calls').
struct Pending {
  std::vector<Token> in;
  std::int32_t settled = 0;  // inputs arrived (a Merge's predicate may settle more: firing_rules)
};

class Reference {
 public:
  Reference(const Graph& g, const GraphOptions& o, NameSupply& names)
      : g_(g),
        o_(o),
        names_(names),
        propagate_(o.deadness == Deadness::Propagate),
        fuel_(o.eval.fuel),
        clock_(o.bound) {}

  Value<double> run(const std::vector<Value<double>>& inputs, GraphStats* stats) {
    const Body& main = g_.bodies[g_.main];
    results_.assign(main.exits.size(), std::nullopt);
    const std::uint32_t root = new_frame(g_.main, kNoIndex, kNoIndex);
    std::size_t k = 0;
    for (const Value<double>& v : inputs)
      for (double x : v) {
        internal_check(k + 1 < main.inputs.size(), "graph inputs do not match the program's");
        arrive_source(root, main.inputs[k++], Token::live(x));
      }
    internal_check(k + 1 == main.inputs.size(), "graph inputs do not match the program's");
    arrive_source(root, main.inputs.back(), Token::live(0));
    while (!ready_.empty()) {
      const auto [frame, node] = ready_.top();
      ready_.pop();
      fire(frame, node);
    }
    internal_check(pending_.empty(), "a node instance waits for an input after the run");
    if (stats) {
      stats_.calls = o_.eval.fuel - fuel_;
      *stats = stats_;
    }
    const Bottom* bottom = nullptr;
    Value<double> out;
    for (const std::optional<Token>& t : results_) {
      internal_check(t.has_value(), "the graph stopped before producing its result");
      internal_check(!t->is_dead() && !t->is_absent(), "the graph's result is dead");
      if (t->is_bottom()) bottom = earlier(bottom, t->bottom());
      if (t->is_live()) out.push_back(t->value());
    }
    if (budget_failure_ && (!bottom || bottom->budget)) std::rethrow_exception(budget_failure_);
    if (bottom) throw bottom->error;
    if (g_.result_type.size() == 0) out.clear();
    return out;
  }

 private:
  const Graph& g_;
  const GraphOptions& o_;
  NameSupply& names_;
  const bool propagate_;
  std::uint64_t fuel_;
  const RunClock clock_;
  std::deque<RefFrame> frames_;
  std::uint64_t live_frames_ = 0;
  std::unordered_map<std::uint64_t, Pending> pending_;  // by (frame, node)
  // The node instances ready to fire, the earliest in the program's left-to-right call-by-value
  // order first: so the calls' subtrees run in the order sequential evaluation runs them, and
  // a shared budget (fuel) runs out where it does for the sequential evaluators.
  struct Later {
    const Reference* r;
    bool operator()(const std::pair<std::uint32_t, NodeId>& a,
                    const std::pair<std::uint32_t, NodeId>& b) const {
      return r->order(b, a);
    }
  };
  std::priority_queue<std::pair<std::uint32_t, NodeId>,
                      std::vector<std::pair<std::uint32_t, NodeId>>, Later>
      ready_{Later{this}};

  // Whether instance a comes before instance b in evaluation order: their frames' paths, each
  // followed by the node's place.
  bool order(const std::pair<std::uint32_t, NodeId>& a,
             const std::pair<std::uint32_t, NodeId>& b) const {
    const std::vector<std::uint32_t>& pa = frames_[a.first].path;
    const std::vector<std::uint32_t>& pb = frames_[b.first].path;
    const std::uint32_t xa = g_.nodes[a.second].pos, xb = g_.nodes[b.second].pos;
    const std::size_t n = std::min(pa.size(), pb.size());
    for (std::size_t i = 0; i < n; ++i)
      if (pa[i] != pb[i]) return pa[i] < pb[i];
    // One path is a prefix of the other: compare the shorter one's node with the other's next
    // call site.
    if (pa.size() == pb.size()) return xa != xb ? xa < xb : a.second < b.second;
    if (pa.size() < pb.size()) return xa <= pb[n];
    return pa[n] < xb;
  }
  std::vector<std::unique_ptr<Bottom>> bottoms_;
  const Bottom* fuel_bottom_ = nullptr;
  const Bottom* frames_bottom_ = nullptr;
  std::exception_ptr budget_failure_;
  std::uint32_t polls_ = 0;
  std::vector<std::optional<Token>> results_;
  GraphStats stats_;
  // The store of saved values (docs/graph-ad.md): tags as a trie of call-site elements, values
  // by (tag, slot).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> tag_children_;
  std::uint32_t tags_ = 0;
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> saved_;

  static std::uint64_t key(std::uint32_t frame, NodeId node) {
    return (static_cast<std::uint64_t>(frame) << 32) | node;
  }

  // ---- frames and bottoms ----

  std::uint32_t new_frame(std::uint32_t body, std::uint32_t parent, std::uint32_t site) {
    RefFrame f;
    f.body = body;
    f.parent = parent;
    f.site = site;
    f.exits_pending = static_cast<std::uint32_t>(g_.bodies[body].exits.size());
    if (parent != kNoIndex) {
      f.path = frames_[parent].path;
      f.path.push_back(g_.sites[site].pos);
    }
    if (site != kNoIndex && g_.sites[site].tagged) {
      const std::uint32_t up = frames_[parent].tag;
      internal_check(up != kNoIndex, "a tagged call from a frame without a tag");
      auto [it, fresh] = tag_children_.emplace(std::make_pair(up, g_.sites[site].mirror), tags_);
      if (fresh) ++tags_;
      f.tag = it->second;
    } else if (g_.bodies[body].uses_store) {
      f.tag = tags_++;  // a root
    }
    frames_.push_back(f);
    ++live_frames_;
    stats_.peak_live_frames = std::max(stats_.peak_live_frames, live_frames_);
    return static_cast<std::uint32_t>(frames_.size() - 1);
  }

  // The key of an undefinedness at place `pos` of frame f (token.hpp's Bottom). As in
  // executor.cpp, an undefinedness below a frame that has sent its outputs reaches no result.
  std::vector<std::uint32_t> key_at(std::uint32_t f, std::uint32_t pos) const {
    return call_chain_key(
        g_, f, pos, kNoIndex,
        [this](std::uint32_t x) -> const CallLink<std::uint32_t>& { return frames_[x]; },
        [this](std::uint32_t x) { return frames_[x].returned; });
  }

  const Bottom* make_bottom(std::uint32_t f, std::uint32_t pos, Undefined e, bool budget = false) {
    bottoms_.push_back(std::make_unique<Bottom>(Bottom{std::move(e), key_at(f, pos), budget}));
    return bottoms_.back().get();
  }

  static Token earliest(const Token& a, const Token& b) { return earlier(a, b); }

  // ---- matching ----

  // How many inputs node n waits for, counted as firing_rules.hpp's Merge settles them.
  static std::int32_t needed(const Node& n) {
    return n.kind == NodeKind::InputMerge || n.kind == NodeKind::Return
               ? 1
               : static_cast<std::int32_t>(n.num_inputs());
  }

  void make_ready(std::uint32_t f, NodeId node) { ready_.emplace(f, node); }

  // A token for input `input` of node `node` in frame f. No token (absent) never arrives.
  void arrive(std::uint32_t f, NodeId node, std::uint32_t input, Token t) {
    if (t.is_absent()) return;
    const Node& n = g_.nodes[node];
    if (n.kind == NodeKind::Call) {
      // A call site's Calls fire together (executor.hpp: one node per site).
      arrive_site(f, n.site, n.index, t);
      return;
    }
    Pending& p = pending_[key(f, node)];
    if (p.in.empty()) p.in.assign(n.num_inputs(), Token::absent());
    internal_check(p.in[input].is_absent(), "two tokens for one input of a node instance");
    p.in[input] = t;
    p.settled += n.kind == NodeKind::Merge && input == 2
                     ? rules::merge_settled_by_predicate(t, propagate_)
                     : 1;
    if (p.settled >= needed(n)) make_ready(f, node);
  }

  // The token of an InputMerge or a Return: its one input.
  void arrive_source(std::uint32_t f, NodeId node, Token t) {
    Pending& p = pending_[key(f, node)];
    internal_check(p.in.empty(), "two tokens for one input of a node instance");
    p.in.assign(1, t);
    p.settled = 1;
    make_ready(f, node);
  }

  void arrive_site(std::uint32_t f, std::uint32_t site, std::uint32_t j, Token t) {
    const CallSite& s = g_.sites[site];
    const NodeId control = s.calls.back();
    Pending& p = pending_[key(f, control)];
    if (p.in.empty()) p.in.assign(s.calls.size(), Token::absent());
    internal_check(p.in[j].is_absent(), "two tokens for one Call of a call site");
    p.in[j] = t;
    if (++p.settled == static_cast<std::int32_t>(s.calls.size())) make_ready(f, control);
  }

  // Output `port` of node n in frame f carries t.
  void emit(std::uint32_t f, const Node& n, std::uint32_t port, Token t) {
    for (const Dest& d : n.outputs[port]) {
      const Node& to = g_.nodes[d.node];
      if (to.kind == NodeKind::InputMerge || to.kind == NodeKind::Return) continue;  // by site
      if (to.body != n.body) continue;
      arrive(f, d.node, d.input, t);
    }
  }

  void emit_all(std::uint32_t f, const Node& n, Token t) {
    for (std::uint32_t k = 0; k < n.num_outputs(); ++k)
      emit(f, n, k, t);
  }

  void count(rules::Firing r, std::uint64_t n = 1) {
    stats_.tokens += r.fired * n;
    stats_.dead_tokens += r.dead * n;
  }

  // ---- firing ----

  void fire(std::uint32_t f, NodeId id) {
    const Node& n = g_.nodes[id];
    auto it = pending_.find(key(f, id));
    internal_check(it != pending_.end(), "a node instance fired without its inputs");
    const std::vector<Token> in = std::move(it->second.in);
    pending_.erase(it);
    switch (n.kind) {
      case NodeKind::Switch: {
        Token out[2] = {Token::absent(), Token::absent()};
        count(rules::fire_switch(in[0], in[1], propagate_, out[0], out[1]));
        emit(f, n, 0, out[0]);
        emit(f, n, 1, out[1]);
        return;
      }
      case NodeKind::Merge: {
        Token out = Token::absent();
        count(rules::fire_merge(in[0], in[1], in[2], out));
        emit(f, n, 0, out);
        return;
      }
      case NodeKind::InputMerge:
      case NodeKind::Return:
        count(rules::fire_forward(in[0]));
        emit(f, n, 0, in[0]);
        return;
      case NodeKind::Exit:
        count(rules::fire_forward(in[0]));
        exit(f, n, in[0]);
        return;
      case NodeKind::Call:
        fire_site(f, n.site, in);
        return;
      case NodeKind::Const:
      case NodeKind::BoolConst:
      case NodeKind::Add:
      case NodeKind::Op:
      case NodeKind::Pred:
      case NodeKind::Sync:
      case NodeKind::Gate:
      case NodeKind::Rd:
      case NodeKind::Save:
      case NodeKind::Load:
        fire_strict(f, n, in);
        return;
    }
  }

  void fire_strict(std::uint32_t f, const Node& n, const std::vector<Token>& in) {
    Token first = Token::dead();
    const rules::Strictness s = rules::strict_inputs(
        n.num_inputs(), [&](std::uint32_t i) -> const Token& { return in[i]; }, &earliest, first);
    count(rules::strict_firing(s));
    if (s == rules::Strictness::Absent) return;
    if (s != rules::Strictness::Live) {
      emit_all(f, n, s == rules::Strictness::Dead ? Token::dead() : first);
      return;
    }
    std::vector<double> x(in.size()), y(std::max<std::uint32_t>(n.num_outputs(), 1));
    for (std::size_t i = 0; i < in.size(); ++i)
      x[i] = in[i].value();
    if (n.kind == NodeKind::Save || n.kind == NodeKind::Load) {
      store(f, n, x[0]);
      return;
    }
    std::uint64_t calls = 0;
    std::optional<Undefined> e;
    try {
      e = strict_node_value(n, x.data(), y.data(), o_.eval, fuel_, names_, calls);
    } catch (const BudgetExceeded&) {
      fuel_ -= std::min(fuel_, calls);
      emit_all(f, n, Token::undefined(budget_exhausted(f, n.pos, n.loc)));
      return;
    }
    fuel_ -= std::min(fuel_, calls);
    if (e) {
      emit_all(f, n, Token::undefined(make_bottom(f, n.pos, *e)));
      return;
    }
    for (std::uint32_t k = 0; k < n.num_outputs(); ++k)
      emit(f, n, k, Token::live(y[k]));
  }

  // Save (v) -> v keeps v under (slot, tag); Load (ctl) -> v takes it (0 when nothing was
  // saved there: a cotangent nothing was added to). docs/graph-ad.md.
  void store(std::uint32_t f, const Node& n, double v) {
    const std::uint32_t tag = frames_[f].tag;
    internal_check(tag != kNoIndex, "a Save or a Load in a frame without a tag");
    const auto at = std::make_pair(tag, n.index);
    if (n.kind == NodeKind::Save) {
      internal_check(saved_.emplace(at, v).second, "a value saved twice by one activation");
      ++stats_.saved_values;
      stats_.peak_saved_values = std::max<std::uint64_t>(stats_.peak_saved_values, saved_.size());
      emit(f, n, 0, Token::live(v));
      return;
    }
    double r = 0;
    auto it = saved_.find(at);
    if (it != saved_.end()) {
      r = it->second;
      saved_.erase(it);
    } else {
      internal_check(!n.control, "an adjoint activation found no saved predicate");
    }
    emit(f, n, 0, Token::live(r));
  }

  // Call_i: firing_rules.hpp's call_site_choice, then the budgets, then the child frame t/i.
  void fire_site(std::uint32_t f, std::uint32_t site, const std::vector<Token>& in) {
    const CallSite& s = g_.sites[site];
    const std::uint32_t nin = static_cast<std::uint32_t>(in.size());
    Token first = Token::dead();
    const rules::CallChoice c = rules::call_site_choice(
        nin, [&](std::uint32_t j) -> const Token& { return in[j]; }, &earliest, first);
    count(rules::call_site_firing(c), nin);
    if (c == rules::CallChoice::None) return;
    if (c == rules::CallChoice::Dead) {
      to_returns(f, s, Token::dead());
      return;
    }
    const Bottom* refused = c == rules::CallChoice::Bottom ? first.bottom() : admit(f, s);
    if (refused) {
      to_returns(f, s, Token::undefined(refused));
      return;
    }
    const std::uint32_t child = new_frame(s.callee, f, site);
    ++stats_.frames_created;
    const Body& callee = g_.bodies[s.callee];
    for (std::uint32_t j = 0; j < nin; ++j)
      arrive_source(child, callee.inputs[j], in[j]);
  }

  // The site's Returns receive t (the control edge Call_i -> Return_i, Sec. 5.4.6).
  void to_returns(std::uint32_t f, const CallSite& s, Token t) {
    for (std::size_t k = 0; k < s.returns.size(); ++k)
      arrive_source(f, s.returns[k], t);
  }

  // Exit_k of frame t/i: to Return_i^k in frame t, or to the results.
  void exit(std::uint32_t f, const Node& n, Token t) {
    RefFrame& fr = frames_[f];
    internal_check(fr.exits_pending > 0, "a body sent an output twice");
    if (--fr.exits_pending == 0) {
      fr.returned = true;
      --live_frames_;
    }
    if (fr.parent == kNoIndex) {
      results_[n.index] = t;
      return;
    }
    arrive_source(fr.parent, g_.sites[fr.site].returns[n.index], t);
  }

  // ---- budgets (budgets.hpp; as executor.cpp's admit) ----

  const Bottom* admit(std::uint32_t f, const CallSite& s) {
    if (budget_failure_) return refused(f, s);
    try {
      check_resources();
      if (clock_.bounded() && (++polls_ & 255u) == 0) clock_.check();
    } catch (const BudgetExceeded&) {
      return budget_exhausted(f, s.pos, s.loc);
    } catch (const RunBoundExceeded&) {
      return budget_exhausted(f, s.pos, s.loc);
    }
    if (s.charges_fuel) {
      if (fuel_ == 0) {
        if (!fuel_bottom_) {
          fuel_bottom_ = make_bottom(f, s.pos, fuel_exhausted_error(g_, s, o_.eval.fuel));
        }
        return fuel_bottom_;
      }
      --fuel_;
    }
    if (live_frames_ >= o_.max_frames) {
      if (!frames_bottom_) {
        frames_bottom_ = make_bottom(f, s.pos, frames_exhausted_error(g_, s, o_.max_frames));
      }
      return frames_bottom_;
    }
    return nullptr;
  }

  const Bottom* budget_exhausted(std::uint32_t f, std::uint32_t pos, SourceLoc loc) {
    if (!budget_failure_) budget_failure_ = std::current_exception();
    return make_bottom(f, pos, budget_refused_error(loc),
                       /*budget=*/true);
  }

  const Bottom* refused(std::uint32_t f, const CallSite& s) {
    return make_bottom(f, s.pos, budget_refused_error(s.loc),
                       /*budget=*/true);
  }
};

}  // namespace

Value<double> run_graph_reference(const Graph& g, const std::vector<Value<double>>& inputs,
                                  const GraphOptions& options, NameSupply& names,
                                  GraphStats* stats) {
  Reference r(g, options, names);
  return r.run(inputs, stats);
}

}  // namespace adlang::graph
