#include "semantics/graph/partitioned_executor.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "lang/diagnostics.hpp"
#include "semantics/graph/call_chain.hpp"
#include "semantics/graph/firing_rules.hpp"
#include "semantics/graph/node_value.hpp"
#include "semantics/graph/token.hpp"
#include "support/resource_budget.hpp"
#include "support/setting_hint.hpp"

namespace adlang::graph {

namespace {

constexpr std::uint32_t kNoTag = UINT32_MAX;

// A token here (partitioned_executor.hpp, "Tokens and frames"): token.hpp's Token, which the
// firing rules read, and beside it the name of the callee's frame, which a call site's outputs
// carry when it is entered (for the Sends and Push edges of its arguments, and the admission
// its copies read). Absent (a call site that was not entered tells the Sends of its arguments
// to send nothing) never crosses partitions.
struct PartitionToken {
  Token token = Token::live(0);
  FrameName child = 0;
};

// A frame as this partition knows it: the tag t/i as its parent t and call site i (a
// CallLink, call_chain.hpp, by index into the table of records; the main frame's parent and
// site are kNoTag), and its name on every partition.
struct TagRecord : CallLink<std::uint32_t> {
  FrameName name = 0;
  std::uint32_t fired = 0;     // nodes of this partition that fired in it
  std::uint32_t children = 0;  // records below it
};

// A token as a message carries it (message.hpp): its state, value, and a bottom's record by
// value (token.hpp's Bottom is this process's).
void put_token(Message& m, const Token& k) {
  internal_check(!k.is_absent(), "an absent token left its partition");
  if (k.is_live()) {
    m.state = kMessageLive;
    m.value = k.value();
  } else if (k.is_dead()) {
    m.state = kMessageDead;
  } else {
    m.state = kMessageBottom;
    m.error = k.bottom()->error;
    m.key = k.bottom()->key;
  }
}

struct Entry {
  std::vector<PartitionToken> in;
  std::vector<std::uint8_t> arrived;
};

struct Ready {
  std::uint32_t node, tag;
  std::vector<PartitionToken> in;
};

}  // namespace

struct PartitionRunner::Impl {
  const Partitioned& p;
  const Graph& g;
  const Partition& part;
  const PartitionedOptions& o;
  NameSupply& names;
  std::vector<TagRecord> tags;
  std::vector<std::uint32_t> free_tags;
  std::unordered_map<std::uint64_t, std::uint32_t> child_of;
  std::unordered_map<FrameName, std::uint32_t> by_name;
  // Messages for frames this partition's state machine has not made yet.
  std::unordered_map<FrameName, std::vector<Message>> early;
  FrameName next_name;
  std::uint32_t root = kNoTag;
  std::uint64_t live_tags = 0;
  std::unordered_map<std::uint64_t, Entry> store;
  std::vector<Ready> ready;
  std::vector<std::unique_ptr<Bottom>> bottoms;  // the bottom tokens' records
  std::vector<std::pair<std::uint32_t, Token>> results;
  std::vector<Message>* out = nullptr;
  std::uint64_t fuel;
  const Bottom* fuel_bottom = nullptr;
  const Bottom* frames_bottom = nullptr;
  GraphStats st;

  Impl(const Partitioned& pp, std::uint32_t rank, const PartitionedOptions& oo, NameSupply& nn)
      : p(pp),
        g(*pp.graph),
        part(pp.parts[rank]),
        o(oo),
        names(nn),
        next_name((static_cast<FrameName>(rank) + 1) << 40),
        fuel(oo.graph.eval.fuel) {}

  // ---- tags ----

  std::uint32_t new_tag(std::uint32_t parent, std::uint32_t site, std::uint32_t body,
                        FrameName name) {
    std::uint32_t t;
    if (!free_tags.empty()) {
      t = free_tags.back();
      free_tags.pop_back();
    } else {
      t = static_cast<std::uint32_t>(tags.size());
      tags.emplace_back();
    }
    TagRecord& r = tags[t];
    r = TagRecord{};
    r.parent = parent;
    r.site = site;
    r.body = body;
    r.name = name;
    internal_check(by_name.emplace(name, t).second, "two live frames with one name");
    check_resources();  // --timeout and --max-memory (docs/robustness.md)
    ++st.frames_created;
    ++live_tags;
    st.peak_live_frames = std::max(st.peak_live_frames, live_tags);
    return t;
  }

  std::uint32_t root_tag() {
    if (root == kNoTag) {
      root = new_tag(kNoTag, kNoTag, g.main, 0);
      deliver_early(0);
    }
    return root;
  }

  // The frame t/site, named `name` when it is made here.
  std::uint32_t child(std::uint32_t t, std::uint32_t site, FrameName name) {
    const std::uint64_t k = child_key(t, site);
    auto it = child_of.find(k);
    if (it != child_of.end()) return it->second;
    internal_check(name != 0, "a frame made without its name");
    std::uint32_t c = new_tag(t, site, g.sites[site].callee, name);
    ++tags[t].children;
    child_of.emplace(k, c);
    deliver_early(name);
    return c;
  }

  void deliver_early(FrameName name);
  void deliver(const Message& m);

  // A frame's record goes when every node of its body here has fired and its children are
  // gone.
  void maybe_free(std::uint32_t t) {
    while (t != kNoTag) {
      TagRecord& r = tags[t];
      if (r.fired < part.nodes_per_body[r.body] || r.children > 0) return;
      std::uint32_t parent = r.parent;
      if (parent != kNoTag) {
        child_of.erase(child_key(parent, r.site));
        --tags[parent].children;
      } else {
        root = kNoTag;
      }
      by_name.erase(r.name);
      free_tags.push_back(t);
      --live_tags;
      t = parent;
    }
  }

  // ---- tokens ----

  // (A partition does not track returns: every frame's record lives until its nodes here
  // have fired, and the key is the walk's.)
  std::vector<std::uint32_t> key_at(std::uint32_t t, std::uint32_t pos) const {
    return call_chain_key(
        g, t, pos, kNoTag,
        [this](std::uint32_t x) -> const CallLink<std::uint32_t>& { return tags[x]; },
        [](std::uint32_t) { return false; });
  }

  const Bottom* record(Undefined e, std::vector<std::uint32_t> key) {
    bottoms.push_back(std::make_unique<Bottom>(Bottom{std::move(e), std::move(key), false}));
    return bottoms.back().get();
  }

  const Bottom* bottom(std::uint32_t t, std::uint32_t pos, Undefined e) {
    return record(std::move(e), key_at(t, pos));
  }

  static PartitionToken with(Token k) { return PartitionToken{k, 0}; }
  static PartitionToken dead() { return with(Token::dead()); }
  static PartitionToken live(double v) { return with(Token::live(v)); }

  // ---- matching ----

  static bool any_of(const Graph& g, const PartNode& n) {
    if (n.kind != PartKind::Node && n.kind != PartKind::Copy) return false;
    NodeKind k = g.nodes[n.orig].kind;
    return k == NodeKind::InputMerge || k == NodeKind::Return;
  }

  void arrive(std::uint32_t node, std::uint32_t input, std::uint32_t t, const PartitionToken& k) {
    const PartNode& n = part.nodes[node];
    if (any_of(g, n)) {
      ready.push_back(Ready{node, t, {k}});
      return;
    }
    const std::uint32_t width = n.kind == PartKind::Recv ? 2 : n.num_inputs();
    std::uint64_t key = (static_cast<std::uint64_t>(node) << 32) | t;
    Entry& e = store[key];
    if (e.in.empty()) {
      e.in.resize(width);
      e.arrived.assign(width, 0);
    }
    internal_check(!e.arrived[input], "two tokens for one input of a node instance");
    e.in[input] = k;
    e.arrived[input] = 1;
    bool complete;
    if (n.kind == PartKind::Recv) {
      complete = e.arrived[0] && (e.in[0].token.is_dead() || e.arrived[1]);
      internal_check(!(e.arrived[0] && e.in[0].token.is_dead() && e.arrived[1]),
                     "a message for a call that was not entered");
    } else {
      complete = std::all_of(e.arrived.begin(), e.arrived.end(), [](std::uint8_t a) { return a; });
    }
    if (!complete) return;
    ready.push_back(Ready{node, t, std::move(e.in)});
    store.erase(key);
  }

  void emit(std::uint32_t node, std::uint32_t port, std::uint32_t t, const PartitionToken& k) {
    for (const PartDest& d : part.nodes[node].outputs[port]) {
      std::uint32_t to = t;
      if (d.rule == TagRule::Push) {
        to = child(t, d.site, k.child);
      } else if (d.rule == TagRule::Pop) {
        if (tags[t].site != d.site) continue;  // the Return of another call site
        to = tags[t].parent;
      } else if (d.rule == TagRule::Match && tags[t].site != d.site) {
        arrive(d.node, d.input, t, dead());  // no message in a frame another site made
        continue;
      }
      arrive(d.node, d.input, to, k);
    }
  }

  // ---- firing ----

  void fire(Ready& r) {
    const PartNode& n = part.nodes[r.node];
    ++st.tokens;
    switch (n.kind) {
      case PartKind::Node:
        fire_node(r, n);
        break;
      case PartKind::Copy:
        if (o.run_state_machine_copies) fire_node(r, n);
        break;
      case PartKind::Site:
        fire_site(r, n);
        break;
      case PartKind::SiteCopy: {
        const PartitionToken& ctl = r.in[0];
        const PartitionToken& admitted = r.in[1];
        if (ctl.token.is_dead()) ++st.dead_tokens;
        if (o.run_state_machine_copies && ctl.token.is_live() && admitted.token.is_live() &&
            admitted.token.value() != 0) {
          PartitionToken k = ctl;
          k.child = admitted.child;
          emit(r.node, 0, r.tag, k);
        }
        break;
      }
      case PartKind::Send:
        send(r, n);
        break;
      case PartKind::Recv:
        if (!r.in[0].token.is_dead()) emit(r.node, 0, r.tag, r.in[1]);
        break;
    }
    ++tags[r.tag].fired;
    maybe_free(r.tag);
  }

  void fire_node(Ready& r, const PartNode& pn) {
    const Node& n = g.nodes[pn.orig];
    std::vector<PartitionToken>& in = r.in;
    switch (n.kind) {
      case NodeKind::Switch: {
        // (Deadness propagated: every node of an activation fires once here. A Switch's and a
        // Merge's tokens never carry a callee's name: only a call site's outputs do.)
        Token out[2] = {Token::dead(), Token::dead()};
        st.dead_tokens +=
            rules::fire_switch(in[0].token, in[1].token, /*propagate=*/true, out[0], out[1]).dead;
        emit(r.node, 0, r.tag, with(out[0]));
        emit(r.node, 1, r.tag, with(out[1]));
        return;
      }
      case NodeKind::Merge: {
        Token out = Token::dead();
        st.dead_tokens += rules::fire_merge(in[0].token, in[1].token, in[2].token, out).dead;
        emit(r.node, 0, r.tag, with(out));
        return;
      }
      case NodeKind::InputMerge:
      case NodeKind::Return:
        st.dead_tokens += rules::fire_forward(in[0].token).dead;
        emit(r.node, 0, r.tag, in[0]);
        return;
      case NodeKind::Exit:
        st.dead_tokens += rules::fire_forward(in[0].token).dead;
        if (n.body == g.main) {
          results.emplace_back(n.index, in[0].token);
          return;
        }
        emit(r.node, 0, r.tag, in[0]);
        return;
      case NodeKind::Call:
        throw InternalError("internal error: a Call outside its call site's node");
      default:
        break;
    }
    // The strict nodes (no input is absent here: absent tokens stay in their partition).
    Token first = Token::dead();
    const rules::Strictness strict = rules::strict_inputs(
        static_cast<std::uint32_t>(in.size()),
        [&](std::uint32_t i) -> const Token& { return in[i].token; },
        [](const Token& a, const Token& b) { return earlier(a, b); }, first);
    internal_check(strict != rules::Strictness::Absent, "a strict node fired without a token");
    const std::uint32_t nout = n.num_outputs();
    if (strict != rules::Strictness::Live) {
      st.dead_tokens += rules::strict_firing(strict).dead;
      const PartitionToken k = strict == rules::Strictness::Dead ? dead() : with(first);
      for (std::uint32_t j = 0; j < nout; ++j)
        emit(r.node, j, r.tag, k);
      return;
    }
    std::vector<double> x(in.size()), y(std::max<std::uint32_t>(nout, 1));
    for (std::size_t i = 0; i < in.size(); ++i)
      x[i] = in[i].token.value();
    std::uint64_t calls = 0;
    std::optional<Undefined> e =
        strict_node_value(n, x.data(), y.data(), o.graph.eval, fuel, names, calls);
    fuel -= std::min(fuel, calls);
    if (e) {
      const PartitionToken k = with(Token::undefined(bottom(r.tag, n.pos, *e)));
      for (std::uint32_t j = 0; j < nout; ++j)
        emit(r.node, j, r.tag, k);
      return;
    }
    for (std::uint32_t j = 0; j < nout; ++j)
      emit(r.node, j, r.tag, live(y[j]));
  }

  // Call_i (Sec. 5.2.1), every Call of the site at once, on the partition that holds it: the
  // rule is firing_rules.hpp's call_site_choice.
  void fire_site(Ready& r, const PartNode& pn) {
    const CallSite& s = g.sites[pn.site];
    const std::uint32_t nin = static_cast<std::uint32_t>(s.calls.size());
    auto to_returns = [&](const PartitionToken& k) {
      // The Sends of the arguments fire (and send nothing): the callee is not entered.
      const PartitionToken absent = with(Token::absent());
      for (std::uint32_t j = 0; j < nin; ++j)
        for (const PartDest& d : part.nodes[r.node].outputs[j])
          if (part.nodes[d.node].kind == PartKind::Send) arrive(d.node, d.input, r.tag, absent);
      if (!o.call_return_edge) return;
      for (std::uint32_t ret : part.returns[pn.site])
        arrive(ret, 0, r.tag, k);
    };
    Token first = Token::dead();
    const rules::CallChoice choice = rules::call_site_choice(
        nin, [&](std::uint32_t j) -> const Token& { return r.in[j].token; },
        [](const Token& a, const Token& b) { return earlier(a, b); }, first);
    internal_check(choice != rules::CallChoice::None, "a call site fired without a token");
    if (choice == rules::CallChoice::Dead) {
      ++st.dead_tokens;
      to_returns(dead());
      emit(r.node, site_admission_port(s), r.tag, dead());
      emit(r.node, site_entered_port(s), r.tag, dead());
      return;
    }
    const Bottom* b = choice == rules::CallChoice::Bottom ? first.bottom() : nullptr;
    if (!b) b = admit(r.tag, s);
    if (b) {
      to_returns(with(Token::undefined(b)));
      emit(r.node, site_admission_port(s), r.tag, live(0));
      emit(r.node, site_entered_port(s), r.tag, dead());
      return;
    }
    ++st.calls;
    // This partition names the activation for all (docs/graph-partition.md).
    const FrameName name = next_name++;
    for (std::uint32_t j = 0; j < nin; ++j) {
      PartitionToken k = r.in[j];
      k.child = name;
      emit(r.node, j, r.tag, k);
    }
    PartitionToken admitted = live(1);
    admitted.child = name;
    emit(r.node, site_admission_port(s), r.tag, admitted);
    emit(r.node, site_entered_port(s), r.tag, live(0));
  }

  // The charge of a call: nullptr, or the refusal (fuel, or frames on this partition).
  const Bottom* admit(std::uint32_t t, const CallSite& s) {
    if (fuel == 0) {
      if (!fuel_bottom) {
        Undefined e(UndefinedKind::Fuel, s.loc,
                    "out of fuel after " + std::to_string(o.graph.eval.fuel) +
                        " function calls on partition " + std::to_string(part.rank) + " in '" +
                        g.bodies[s.callee].name + "'",
                    {"the recursion may not terminate; raise the limit with " +
                     setting_hint(Setting::Fuel, "N") + " (it holds per partition)"});
        fuel_bottom = bottom(t, s.pos, e);
      }
      return fuel_bottom;
    }
    if (live_tags >= o.graph.max_frames) {
      if (!frames_bottom) {
        Undefined e(UndefinedKind::Depth, s.loc,
                    "more than " + std::to_string(o.graph.max_frames) +
                        " activations are live at once on partition " + std::to_string(part.rank) +
                        " (calling '" + g.bodies[s.callee].name + "')",
                    {"raise the limit with " + setting_hint(Setting::MaxFrames, "N") +
                     " (it holds per partition)"});
        frames_bottom = bottom(t, s.pos, e);
      }
      return frames_bottom;
    }
    --fuel;
    return nullptr;
  }

  void send(Ready& r, const PartNode& pn) {
    const Channel& c = p.channels[pn.channel];
    const PartitionToken& k = r.in[0];
    if (k.token.is_absent()) return;
    Message m;
    m.channel = pn.channel;
    if (c.rule == TagRule::Pop) {
      if (tags[r.tag].site != c.site) return;  // an output to another call site's Return
      m.frame = tags[tags[r.tag].parent].name;
    } else if (c.rule == TagRule::Push) {
      m.frame = k.child;
    } else {
      m.frame = tags[r.tag].name;
    }
    put_token(m, k.token);
    m.child = k.child;
    out->push_back(std::move(m));
  }
};

PartitionRunner::PartitionRunner(const Partitioned& p, std::uint32_t rank,
                                 const PartitionedOptions& options, NameSupply& names)
    : impl_(std::make_unique<Impl>(p, rank, options, names)) {}

PartitionRunner::~PartitionRunner() = default;

void PartitionRunner::start(const std::vector<Value<double>>& inputs) {
  Impl& x = *impl_;
  const Partition& part = x.part;
  if (!part.needs[x.g.main]) return;
  std::uint32_t t = x.root_tag();
  std::vector<double> flat;
  for (const Value<double>& v : inputs)
    for (double d : v)
      flat.push_back(d);
  internal_check(flat.size() + 1 == x.g.bodies[x.g.main].inputs.size(),
                 "graph inputs do not match the program's");
  for (std::size_t k = 0; k < part.main_inputs.size(); ++k)
    x.arrive(part.main_inputs[k], 0, t, Impl::live(flat[part.main_input_index[k]]));
  // The dummy constant that starts this partition's copy of main's state machine.
  x.arrive(part.control[x.g.main], 0, t, Impl::live(0));
}

void PartitionRunner::Impl::deliver(const Message& m) {
  auto it = by_name.find(m.frame);
  if (it == by_name.end()) {
    // The state machine here has not reached that frame yet: the message waits for it.
    early[m.frame].push_back(m);
    return;
  }
  Token k = Token::dead();
  switch (m.state) {
    case kMessageLive:
      k = Token::live(m.value);
      break;
    case kMessageDead:
      break;
    case kMessageBottom:
      k = Token::undefined(record(*m.error, m.key));
      break;
    default:
      throw InternalError("internal error: a message of an unknown state");
  }
  arrive(p.channels[m.channel].recv, 1, it->second, PartitionToken{k, m.child});
}

void PartitionRunner::Impl::deliver_early(FrameName name) {
  auto it = early.find(name);
  if (it == early.end()) return;
  std::vector<Message> waiting = std::move(it->second);
  early.erase(it);
  for (const Message& m : waiting)
    deliver(m);
}

void PartitionRunner::deliver(const Message& m) {
  impl_->deliver(m);
}

bool PartitionRunner::run(std::vector<Message>& out, std::size_t max_firings) {
  Impl& x = *impl_;
  x.out = &out;
  for (std::size_t n = 0; n < max_firings && !x.ready.empty(); ++n) {
    Ready r = std::move(x.ready.back());
    x.ready.pop_back();
    x.fire(r);
  }
  x.out = nullptr;
  return !x.ready.empty();
}

std::vector<std::pair<std::uint32_t, Message>> PartitionRunner::results() const {
  const Impl& x = *impl_;
  std::vector<std::pair<std::uint32_t, Message>> r;
  for (const auto& [index, k] : x.results) {
    Message m;
    put_token(m, k);
    r.emplace_back(index, std::move(m));
  }
  return r;
}

bool PartitionRunner::idle() const {
  return impl_->ready.empty();
}

bool PartitionRunner::quiescent() const {
  const Impl& x = *impl_;
  return x.ready.empty() && x.store.empty() && x.live_tags == 0 && x.early.empty();
}

std::string PartitionRunner::waiting_summary() const {
  const Impl& x = *impl_;
  std::ostringstream o;
  o << "partition " << x.part.rank << ": " << x.store.size() << " node instances waiting, "
    << x.live_tags << " frames open, messages for " << x.early.size() << " frames never reached";
  std::size_t shown = 0;
  for (const auto& [key, e] : x.store) {
    if (shown++ == 3) break;
    const PartNode& n = x.part.nodes[key >> 32];
    o << (shown == 1 ? " (" : ", ") << to_string(n.kind);
    if (n.kind == PartKind::Node || n.kind == PartKind::Copy)
      o << " " << to_string(x.g.nodes[n.orig].kind);
    if (n.kind == PartKind::Recv) o << " #" << n.channel;
  }
  if (shown) o << ")";
  shown = 0;
  for (std::uint32_t t = 0; t < x.tags.size() && shown < 3; ++t) {
    if (std::find(x.free_tags.begin(), x.free_tags.end(), t) != x.free_tags.end()) continue;
    const TagRecord& r = x.tags[t];
    o << (shown++ ? ", " : "; open: ") << "a frame of '" << x.g.bodies[r.body].name << "' with "
      << r.fired << " of " << x.part.nodes_per_body[r.body] << " nodes fired";
  }
  return o.str();
}

GraphStats PartitionRunner::stats() const {
  return impl_->st;
}

Value<double> assemble_result(const Graph& g,
                              const std::vector<std::pair<std::uint32_t, Message>>& results) {
  const std::size_t n = g.bodies[g.main].exits.size();
  std::vector<const Message*> by_index(n, nullptr);
  for (const auto& [index, m] : results) {
    internal_check(index < n && !by_index[index], "an output of main arrived twice");
    by_index[index] = &m;
  }
  const Message* first_bottom = nullptr;
  Value<double> out;
  for (const Message* m : by_index) {
    internal_check(m != nullptr, "the partitioned graph stopped before producing its result");
    internal_check(m->state != kMessageDead, "the graph's result is dead");
    if (m->state == kMessageBottom && (!first_bottom || m->key < first_bottom->key))
      first_bottom = m;
    if (m->state == kMessageLive) out.push_back(m->value);
  }
  if (first_bottom) throw *first_bottom->error;
  if (g.result_type.size() == 0) out.clear();
  return out;
}

Value<double> run_partitioned(const Partitioned& p, const std::vector<Value<double>>& inputs,
                              const PartitionedOptions& options, NameSupply& names,
                              PartitionedStats* stats) {
  const std::size_t n = p.parts.size();
  std::vector<std::unique_ptr<PartitionRunner>> runners;
  for (std::uint32_t r = 0; r < n; ++r)
    runners.push_back(std::make_unique<PartitionRunner>(p, r, options, names));
  PartitionedStats st;
  st.messages.assign(n, std::vector<std::uint64_t>(n, 0));
  st.bytes = st.dead_messages = st.messages;
  for (auto& r : runners)
    r->start(inputs);
  std::vector<Message> out;
  for (bool progress = true; progress;) {
    progress = false;
    for (std::uint32_t r = 0; r < n; ++r) {
      out.clear();
      if (runners[r]->run(out, kFiringsPerBatch)) progress = true;
      for (const Message& m : out) {
        const Channel& c = p.channels[m.channel];
        // Through the wire encoding, as between MPI processes.
        std::string wire = encode(m);
        ++st.messages[c.from][c.to];
        st.bytes[c.from][c.to] += wire.size();
        if (m.state == kMessageDead) ++st.dead_messages[c.from][c.to];
        runners[c.to]->deliver(decode(wire));
        progress = true;
      }
    }
  }
  std::vector<std::pair<std::uint32_t, Message>> results;
  std::string waiting;
  for (auto& r : runners) {
    for (auto& x : r->results())
      results.push_back(std::move(x));
    if (!r->quiescent()) waiting += "; " + r->waiting_summary();
    st.per_rank.push_back(r->stats());
  }
  if (stats) *stats = st;
  if (!waiting.empty())
    throw InternalError("internal error: the partitioned graph deadlocked" + waiting);
  return assemble_result(*p.graph, results);
}

}  // namespace adlang::graph
