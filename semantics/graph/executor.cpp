#include "semantics/graph/executor.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include <sys/mman.h>

#include "lang/diagnostics.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/op_eval.hpp"

namespace adlang::graph {
namespace {

// ---- tokens ---------------------------------------------------------------------------

// An undefinedness and its place in the program's left-to-right call-by-value order: the
// positions of the call sites from the main body down to the frame where it arose, then the
// position of the node. The smallest key is the undefinedness the sequential evaluators meet
// first (docs/graph.md).
struct Bottom {
  Undefined error;
  std::vector<std::uint32_t> key;
};

enum class State : std::uint8_t { Live, Dead, Bottom };

struct Token {
  union {
    double value;
    const Bottom* bottom;
  };
  State state;

  static Token live(double v) {
    Token t;
    t.value = v;
    t.state = State::Live;
    return t;
  }
  static Token dead() {
    Token t;
    t.value = 0;
    t.state = State::Dead;
    return t;
  }
  static Token undefined(const Bottom* b) {
    Token t;
    t.bottom = b;
    t.state = State::Bottom;
    return t;
  }
};

// The earlier of two bottoms in evaluation order.
const Bottom* earlier(const Bottom* a, const Bottom* b) {
  if (!a) return b;
  if (!b) return a;
  return b->key < a->key ? b : a;
}

// ---- executable bodies -----------------------------------------------------------------

// A node as the executor reads it: 48 bytes, its consumers in the body's flat edge array, its
// rarely needed data (operator, location, rd program) in the graph's Node.
struct ExecNode {
  NodeKind kind;
  bool control;
  std::uint16_t nin, nout;
  std::uint32_t slot;   // first input slot (multi-input nodes)
  std::uint32_t multi;  // index among the body's multi-input nodes, UINT32_MAX if single
  std::uint32_t port0;  // its first output port in Code::port_start
  std::uint32_t pos;
  std::uint32_t index;
  std::uint32_t site;
  double value;
  const Node* info;
};

struct LocalDest {
  std::uint32_t node;  // local index in the body
  std::uint32_t input;
};

// A body in executable form. The static engine shares one per body; the dynamic engine
// copies it for every call (TensorFlow instantiates the callee's body per invocation).
struct Code {
  std::vector<ExecNode> nodes;
  std::vector<std::uint32_t> port_start;  // per output port: its first entry in `dests`
  std::vector<LocalDest> dests;
};

Code make_code(const Graph& g, const Body& b) {
  Code c;
  for (NodeId id : b.nodes) {
    const Node& n = g.nodes[id];
    ExecNode e{};
    e.kind = n.kind;
    e.control = n.control;
    e.nin = static_cast<std::uint16_t>(n.num_inputs());
    e.nout = static_cast<std::uint16_t>(n.num_outputs());
    e.slot = n.slot;
    e.multi = b.multi_index[n.local];
    e.port0 = static_cast<std::uint32_t>(c.port_start.size());
    e.pos = n.pos;
    e.index = n.index;
    e.site = n.site;
    e.value = n.value;
    e.info = &n;
    for (const auto& out : n.outputs) {
      c.port_start.push_back(static_cast<std::uint32_t>(c.dests.size()));
      bool cross = n.kind == NodeKind::Call || n.kind == NodeKind::Exit;
      if (!cross)
        for (const Dest& d : out)
          c.dests.push_back(LocalDest{d.node - b.first, d.input});
    }
    c.nodes.push_back(e);
  }
  c.port_start.push_back(static_cast<std::uint32_t>(c.dests.size()));
  return c;
}

// ---- frames ----------------------------------------------------------------------------

// A frame's lock when several workers share it (guards its state and argument buffer only
// for the moment of a Call; a spin lock keeps frames free of allocations).
class SpinLock {
 public:
  void lock() {
    while (flag_.exchange(true, std::memory_order_acquire)) {
      while (flag_.load(std::memory_order_relaxed)) {
      }
    }
  }
  void unlock() { flag_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> flag_{false};
};

enum class FrameState : std::uint8_t {
  Pending,  // made by an argument's Call before the control Call: arguments are buffered
  Running,  // entered: tokens flow into the body
  Refused,  // the control Call found no fuel or frame budget: arguments are dropped
};

// One activation of a body: the tag t/i of its tokens is this frame, whose parent is t and
// whose call site is i. `live` counts what keeps it alive: tokens of this tag in flight or in
// input slots, Calls of its site not yet arrived, and live child frames.
template <bool Threaded>
struct Frame {
  using Count = std::conditional_t<Threaded, std::atomic<std::int64_t>, std::int64_t>;
  using Pending = std::conditional_t<Threaded, std::atomic<std::int32_t>, std::int32_t>;
  using Child = std::conditional_t<Threaded, std::atomic<Frame*>, Frame*>;

  Frame* parent;
  std::uint32_t body;
  std::uint32_t site;  // global index of the call site (UINT32_MAX for the main frame)
  Count live;
  FrameState state;
  SpinLock lock;     // Threaded: guards state and the argument buffer
  const Code* code;  // the body (Dynamic: this activation's own copy)
  Child* children;   // per call site of the body
  Token* slots;      // input slots of multi-input nodes
  Pending* pending;  // inputs still missing, per multi-input node
  Token* args;       // arguments buffered while Pending
  std::uint8_t* has_arg;
};

template <bool Threaded>
struct Item {
  Frame<Threaded>* frame;
  std::uint32_t node;  // local index in the frame's body
  Token token;         // the input of a single-input node
};

// ---- the executor ----------------------------------------------------------------------

template <bool Threaded>
class Executor {
  using F = Frame<Threaded>;
  using It = Item<Threaded>;

 public:
  Executor(const Graph& g, const GraphOptions& o, NameSupply& names)
      : g_(g), o_(o), names_(names), fuel_left_(o.eval.fuel) {
    results_.assign(g.bodies[g.main].exits.size(), Token::dead());
    result_set_.assign(results_.size(), 0);
    for (const Body& b : g.bodies) {
      std::vector<std::int32_t> init(b.num_multi);
      for (NodeId id : b.nodes) {
        const Node& n = g.nodes[id];
        std::uint32_t m = b.multi_index[n.local];
        if (m != UINT32_MAX) init[m] = static_cast<std::int32_t>(n.num_inputs());
      }
      pending_init_.push_back(std::move(init));
      codes_.push_back(make_code(g, b));
    }
  }

  ~Executor() {
    for (void* p : blocks_)
      std::free(p);
  }

  Value<double> run(const std::vector<Value<double>>& inputs, GraphStats* stats) {
    const Body& mb = g_.bodies[g_.main];
    F* root = make_frame(nullptr, g_.main, UINT32_MAX);
    root->state = FrameState::Running;
    root_ = root;
    std::vector<It> seeds;
    std::size_t k = 0;
    for (const Value<double>& v : inputs)
      for (double x : v)
        seeds.push_back(It{root, mb.inputs[k++] - mb.first, Token::live(x)});
    internal_check(k + 1 == mb.inputs.size(), "graph inputs do not match the program's");
    seeds.push_back(It{root, mb.inputs.back() - mb.first, Token::live(0)});
    add_live(root, static_cast<std::int64_t>(seeds.size()));
    run_workers(seeds);
    internal_check(root->live == 0, "tokens are left in the main frame after termination");
    free_frame(root);
    if (stats) *stats = collect_stats();
    // Termination is detected: no item is left anywhere. Every output must have arrived.
    const Bottom* bottom = nullptr;
    Value<double> out;
    for (std::size_t i = 0; i < results_.size(); ++i) {
      internal_check(result_set_[i] != 0, "the graph stopped before producing its result");
      const Token& t = results_[i];
      internal_check(t.state != State::Dead, "the graph's result is dead");
      if (t.state == State::Bottom) bottom = earlier(bottom, t.bottom);
      if (t.state == State::Live) out.push_back(t.value);
    }
    if (bottom) throw bottom->error;
    if (g_.result_type.size() == 0) out.clear();
    return out;
  }

 private:
  const Graph& g_;
  const GraphOptions& o_;
  NameSupply& names_;
  std::conditional_t<Threaded, std::atomic<std::int64_t>, std::int64_t> fuel_left_;
  std::vector<std::vector<std::int32_t>> pending_init_;
  std::vector<Code> codes_;
  std::vector<Token> results_;
  std::vector<std::uint8_t> result_set_;
  F* root_ = nullptr;

  // Frames and bottoms are shared; counters are per worker and summed at the end.
  struct Counters {
    std::uint64_t tokens = 0, dead = 0, frames = 0, calls = 0, copies = 0;
  };
  std::mutex mu_;  // bottoms_, free_frames_ (Threaded), Rd evaluation
  std::vector<std::unique_ptr<Bottom>> bottoms_;
  const Bottom* fuel_bottom_ = nullptr;
  const Bottom* frames_bottom_ = nullptr;
  std::vector<std::vector<void*>> free_frames_{std::vector<std::vector<void*>>(g_.bodies.size())};
  std::vector<void*> blocks_;  // chunks of frames, freed with the executor
  char* chunk_ = nullptr;
  std::size_t chunk_left_ = 0;

  // Frames are carved from large chunks (growing the heap one frame at a time is slow in
  // the commands' worker thread, whose malloc arena grows by mprotect).
  void* carve(std::size_t size) {
    size = (size + 15) & ~std::size_t(15);
    if (size > chunk_left_) {
      // 8 MiB chunks aligned for transparent huge pages: first touches of fresh memory
      // (page faults) dominate deep recursions, and a huge page takes one fault per 2 MiB.
      constexpr std::size_t kHuge = std::size_t(2) << 20;
      std::size_t n =
          (std::max<std::size_t>(size, std::size_t(8) << 20) + kHuge - 1) & ~(kHuge - 1);
      chunk_ = static_cast<char*>(std::aligned_alloc(kHuge, n));
      if (!chunk_) throw std::bad_alloc();
      madvise(chunk_, n, MADV_HUGEPAGE);
      blocks_.push_back(chunk_);
      chunk_left_ = n;
    }
    void* p = chunk_;
    chunk_ += size;
    chunk_left_ -= size;
    return p;
  }
  std::conditional_t<Threaded, std::atomic<std::int64_t>, std::int64_t> live_frames_{0};
  std::conditional_t<Threaded, std::atomic<std::int64_t>, std::int64_t> peak_frames_{0};

  // Work distribution (Threaded): per-worker LIFO stacks, a shared queue for idle workers.
  std::deque<It> shared_;
  std::mutex queue_mu_;
  std::condition_variable queue_cv_;
  std::atomic<std::int64_t> outstanding_{0};
  std::atomic<int> idle_{0};
  std::atomic<bool> done_{false};
  std::vector<Counters> counters_;

  struct Worker {
    std::vector<It> stack;
    Counters* c;
    int depth = 0;  // nesting of inline firings
  };

  // ---- bookkeeping ----

  static void add_live(F* f, std::int64_t n) { f->live += n; }
  // Drops n from f's count; frees f (and, in turn, parents) when it reaches zero.
  void release(F* f, std::int64_t n) {
    while (f) {
      std::int64_t left;
      if constexpr (Threaded) {
        left = f->live.fetch_sub(n, std::memory_order_acq_rel) - n;
      } else {
        f->live -= n;
        left = f->live;
      }
      if (left != 0 || f == root_) return;
      F* parent = f->parent;
      free_frame(f);
      f = parent;
      n = 1;
    }
  }

  F* make_frame(F* parent, std::uint32_t body, std::uint32_t site) {
    const Body& b = g_.bodies[body];
    std::size_t nargs = b.inputs.size() - 1;
    std::size_t size = sizeof(F) + sizeof(typename F::Child) * b.sites.size() +
                       sizeof(Token) * b.num_slots + sizeof(typename F::Pending) * b.num_multi +
                       sizeof(Token) * nargs + nargs + 16;
    void* mem = nullptr;
    if constexpr (!Threaded) {
      auto& list = free_frames_[body];
      if (!list.empty()) {
        mem = list.back();
        list.pop_back();
      }
    } else {
      std::lock_guard<std::mutex> l(mu_);
      auto& list = free_frames_[body];
      if (!list.empty()) {
        mem = list.back();
        list.pop_back();
      }
    }
    if (!mem) {
      if constexpr (Threaded) {
        std::lock_guard<std::mutex> l(mu_);
        mem = carve(size);
      } else {
        mem = carve(size);
      }
    }
    char* p = static_cast<char*>(mem);
    F* f = new (p) F;
    p += sizeof(F);
    f->parent = parent;
    f->body = body;
    f->site = site;
    f->live = 0;
    f->state = FrameState::Pending;
    f->code = &codes_[body];
    f->children = reinterpret_cast<typename F::Child*>(p);
    for (std::size_t i = 0; i < b.sites.size(); ++i)
      new (&f->children[i]) typename F::Child(nullptr);
    p += sizeof(typename F::Child) * b.sites.size();
    // The 8-byte parts first (Tokens), then the 4-byte counts, then the flags: each part
    // aligned for its type.
    static_assert(alignof(F) >= alignof(Token) && alignof(typename F::Child) >= alignof(Token));
    f->slots = reinterpret_cast<Token*>(p);
    p += sizeof(Token) * b.num_slots;
    f->args = reinterpret_cast<Token*>(p);
    p += sizeof(Token) * nargs;
    f->pending = reinterpret_cast<typename F::Pending*>(p);
    for (std::size_t i = 0; i < b.num_multi; ++i)
      new (&f->pending[i]) typename F::Pending(pending_init_[body][i]);
    p += sizeof(typename F::Pending) * b.num_multi;
    f->has_arg = reinterpret_cast<std::uint8_t*>(p);
    std::memset(f->has_arg, 0, nargs);
    if (o_.engine == Engine::Dynamic && parent) {
      // TensorFlow's dynamic approach: the call instantiates a copy of the callee's body.
      f->code = new Code(codes_[body]);
    }
    std::int64_t now;
    if constexpr (Threaded) {
      now = live_frames_.fetch_add(1) + 1;
      std::int64_t peak = peak_frames_.load();
      while (now > peak && !peak_frames_.compare_exchange_weak(peak, now)) {
      }
    } else {
      now = ++live_frames_;
      if (now > peak_frames_) peak_frames_ = now;
    }
    return f;
  }

  void free_frame(F* f) {
    if (f->parent) f->parent->children[g_.sites[f->site].local] = nullptr;
    if (o_.engine == Engine::Dynamic && f->parent) delete f->code;
    std::uint32_t body = f->body;
    f->~F();
    --live_frames_;
    if constexpr (Threaded) {
      std::lock_guard<std::mutex> l(mu_);
      free_frames_[body].push_back(f);
    } else {
      free_frames_[body].push_back(f);
    }
  }

  // The key of an undefinedness at node `pos` of frame f (see Bottom).
  std::vector<std::uint32_t> key_at(const F* f, std::uint32_t pos) const {
    std::vector<std::uint32_t> key;
    for (const F* x = f; x->parent; x = x->parent)
      key.push_back(g_.sites[x->site].pos);
    std::reverse(key.begin(), key.end());
    key.push_back(pos);
    return key;
  }

  const Bottom* make_bottom(const F* f, std::uint32_t pos, Undefined e) {
    auto b = std::make_unique<Bottom>(Bottom{std::move(e), key_at(f, pos)});
    const Bottom* p = b.get();
    std::lock_guard<std::mutex> l(mu_);
    bottoms_.push_back(std::move(b));
    return p;
  }

  GraphStats collect_stats() const {
    GraphStats s;
    for (const Counters& c : counters_) {
      s.tokens += c.tokens;
      s.dead_tokens += c.dead;
      s.frames_created += c.frames;
      (void)c.calls;
      s.bodies_copied += c.copies;
    }
    s.peak_live_frames = static_cast<std::uint64_t>(peak_frames_);
    s.calls = calls_made();  // Call firings and the calls of Rd nodes' evaluations
    return s;
  }

  // ---- scheduling ----

  void push(Worker& w, It item) {
    if constexpr (Threaded) {
      outstanding_.fetch_add(1, std::memory_order_relaxed);
      if (idle_.load(std::memory_order_relaxed) > 0 && !w.stack.empty()) {
        {
          std::lock_guard<std::mutex> l(queue_mu_);
          shared_.push_back(item);
        }
        queue_cv_.notify_one();
        return;
      }
    }
    w.stack.push_back(item);
  }

  void run_workers(const std::vector<It>& seeds) {
    unsigned n = Threaded ? std::max(1u, o_.threads) : 1u;
    counters_.assign(n, Counters{});
    if constexpr (!Threaded) {
      Worker w;
      w.c = &counters_[0];
      for (auto it = seeds.rbegin(); it != seeds.rend(); ++it)
        w.stack.push_back(*it);
      run_serial(w);
    } else {
      outstanding_ = static_cast<std::int64_t>(seeds.size());
      for (auto it = seeds.rbegin(); it != seeds.rend(); ++it)
        shared_.push_back(*it);
      std::vector<std::thread> threads;
      std::exception_ptr failure;
      std::mutex failure_mu;
      for (unsigned i = 0; i < n; ++i) {
        threads.emplace_back([this, i, &failure, &failure_mu] {
          Worker w;
          w.c = &counters_[i];
          try {
            run_parallel(w);
          } catch (...) {
            std::lock_guard<std::mutex> l(failure_mu);
            if (!failure) failure = std::current_exception();
            done_ = true;
            queue_cv_.notify_all();
          }
        });
      }
      for (std::thread& t : threads)
        t.join();
      if (failure) std::rethrow_exception(failure);
    }
  }

  void run_serial(Worker& w) {
    while (!w.stack.empty()) {
      It item = w.stack.back();
      w.stack.pop_back();
      fire(w, item);
    }
  }

  void run_parallel(Worker& w) {
    for (;;) {
      if (w.stack.empty()) {
        std::unique_lock<std::mutex> l(queue_mu_);
        ++idle_;
        queue_cv_.wait(l, [&] { return done_.load() || !shared_.empty(); });
        --idle_;
        if (shared_.empty()) return;  // done
        w.stack.push_back(shared_.front());
        shared_.pop_front();
        continue;
      }
      It item = w.stack.back();
      w.stack.pop_back();
      fire(w, item);
      if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        {
          std::lock_guard<std::mutex> l(queue_mu_);
          done_ = true;
        }
        queue_cv_.notify_all();
        return;
      }
    }
  }

  // ---- delivery ----

  // Delivers token t to input `input` of node `node` in frame f.
  void deliver(Worker& w, F* f, std::uint32_t node, std::uint32_t input, Token t) {
    const ExecNode& n = f->code->nodes[node];
    std::uint32_t m = n.multi;
    add_live(f, 1);
    if (m == UINT32_MAX) {
      // Single-input nodes fire inline (bounded nesting), else via the work list.
      if (w.depth < 32) {
        ++w.depth;
        fire(w, It{f, node, t});
        --w.depth;
      } else {
        push(w, It{f, node, t});
      }
      return;
    }
    f->slots[n.slot + input] = t;
    std::int32_t arrived = 1;
    if (n.kind == NodeKind::Merge && input == 2 && o_.deadness == Deadness::Elide) {
      // The predicate tells which branch input will never come: count it (both, unless the
      // predicate is live) as arrived dead.
      arrived = t.state == State::Live ? 2 : 3;
      if (t.state == State::Live) {
        f->slots[n.slot + (t.value != 0 ? 1 : 0)] = Token::dead();
      } else {
        f->slots[n.slot] = f->slots[n.slot + 1] = Token::dead();
      }
      add_live(f, arrived - 1);  // the inputs counted as arrived are released when it fires
    }
    bool ready;
    if constexpr (Threaded) {
      ready = f->pending[m].fetch_sub(arrived, std::memory_order_acq_rel) == arrived;
    } else {
      ready = (f->pending[m] -= arrived) == 0;
    }
    if (ready) push(w, It{f, node, Token::dead()});
  }

  void emit(Worker& w, F* f, const ExecNode& n, std::uint32_t port, Token t) {
    const Code& c = *f->code;
    std::uint32_t end = c.port_start[n.port0 + port + 1];
    for (std::uint32_t i = c.port_start[n.port0 + port]; i < end; ++i)
      deliver(w, f, c.dests[i].node, c.dests[i].input, t);
  }

  // ---- firing ----

  void fire(Worker& w, const It& item) {
    F* f = item.frame;
    const ExecNode& n = f->code->nodes[item.node];
    ++w.c->tokens;
    switch (n.kind) {
      case NodeKind::InputMerge:
      case NodeKind::Return:
        if (item.token.state == State::Dead) ++w.c->dead;
        emit(w, f, n, 0, item.token);
        release(f, 1);
        return;
      case NodeKind::Exit:
        fire_exit(w, f, n, item.token);
        return;
      case NodeKind::Call:
        fire_call(w, f, n, item.token);
        return;
      case NodeKind::Const:
      case NodeKind::BoolConst: {
        Token t = item.token;
        if (t.state == State::Live) {
          t = n.info->error ? Token::undefined(make_bottom(f, n.pos, *n.info->error))
                            : Token::live(n.value);
        } else {
          ++w.c->dead;
        }
        emit(w, f, n, 0, t);
        release(f, 1);
        return;
      }
      case NodeKind::Add:
      case NodeKind::Op:
      case NodeKind::Pred:
      case NodeKind::Switch:
      case NodeKind::Merge:
      case NodeKind::Sync:
      case NodeKind::Gate:
      case NodeKind::Rd:
        break;  // strict nodes and Switch/Merge: below, once their inputs are gathered
    }
    // Strict nodes: gather the inputs.
    std::uint32_t nin = n.nin;
    const Token* in = n.multi == UINT32_MAX ? &item.token : f->slots + n.slot;
    if (n.kind == NodeKind::Switch || n.kind == NodeKind::Merge) {
      fire_control(w, f, n, in);
      release(f, nin);
      return;
    }
    bool dead = false;
    const Bottom* bottom = nullptr;
    for (std::uint32_t i = 0; i < nin; ++i) {
      if (in[i].state == State::Dead) dead = true;
      if (in[i].state == State::Bottom) bottom = earlier(bottom, in[i].bottom);
    }
    if (dead || bottom) {
      if (dead) ++w.c->dead;
      Token t = dead ? Token::dead() : Token::undefined(bottom);
      for (std::uint32_t k = 0; k < n.nout; ++k)
        emit(w, f, n, k, t);
      release(f, nin);
      return;
    }
    switch (n.kind) {
      case NodeKind::Add: {
        double s = in[0].value + in[1].value;
        if (!ScalarTraits<double>::in_range(s)) {
          emit(w, f, n, 0,
               Token::undefined(make_bottom(
                   f, n.pos,
                   Undefined(UndefinedKind::Range, n.info->loc,
                             "the sum is outside the range of double precision",
                             {"rerun with --precision 50 to compute with 50-digit floats"}))));
        } else {
          emit(w, f, n, 0, Token::live(s));
        }
        break;
      }
      case NodeKind::Op: {
        double x[2 * kSmall], y[kSmall];
        std::vector<double> xs, ys;
        double* xp = x;
        double* yp = y;
        std::uint32_t nout = n.nout;
        if (nin > 2 * kSmall || nout > kSmall) {
          xs.resize(nin);
          ys.resize(nout);
          xp = xs.data();
          yp = ys.data();
        }
        for (std::uint32_t i = 0; i < nin; ++i)
          xp[i] = in[i].value;
        try {
          eval_op<double>(*n.info->op, xp, yp, n.info->loc, o_.eval.predicates);
        } catch (const Undefined& e) {
          Token t = Token::undefined(make_bottom(f, n.pos, e));
          for (std::uint32_t k = 0; k < nout; ++k)
            emit(w, f, n, k, t);
          break;
        }
        for (std::uint32_t k = 0; k < nout; ++k)
          emit(w, f, n, k, Token::live(yp[k]));
        break;
      }
      case NodeKind::Pred: {
        const Pred& pr = *n.info->pred;
        std::optional<bool> v = eval_pred(pr, in[0].value, in[1].value, o_.eval.predicates);
        if (!v) {
          emit(w, f, n, 0,
               Token::undefined(
                   make_bottom(f, n.pos, predicate_undefined(pr, in[0].value, n.info->loc))));
        } else {
          emit(w, f, n, 0, Token::live(*v ? 1 : 0));
        }
        break;
      }
      case NodeKind::Sync:
        emit(w, f, n, 0, Token::live(0));
        break;
      case NodeKind::Gate:
        emit(w, f, n, 0, in[0]);
        break;
      case NodeKind::Rd:
        fire_rd(w, f, n, in);
        break;
      case NodeKind::Const:
      case NodeKind::BoolConst:
      case NodeKind::Switch:
      case NodeKind::Merge:
      case NodeKind::InputMerge:
      case NodeKind::Call:
      case NodeKind::Return:
      case NodeKind::Exit:
        throw InternalError("internal error: unexpected node kind in the executor");
    }
    release(f, nin);
  }

  static constexpr std::uint32_t kSmall = 8;

  // Switch (d, p) and Merge (t, e, p) (Sec. 3.2). A bottom predicate sends dead tokens to
  // both branches, and the Merge, which also reads the predicate, reports it.
  void fire_control(Worker& w, F* f, const ExecNode& n, const Token* in) {
    if (n.kind == NodeKind::Switch) {
      const Token& d = in[0];
      const Token& p = in[1];
      if (p.state != State::Live || d.state == State::Dead) {
        if (o_.deadness == Deadness::Elide) return;
        ++w.c->dead;
        emit(w, f, n, 0, Token::dead());
        emit(w, f, n, 1, Token::dead());
        return;
      }
      bool taken = p.value != 0;
      emit(w, f, n, taken ? 0 : 1, d);
      if (o_.deadness == Deadness::Propagate) emit(w, f, n, taken ? 1 : 0, Token::dead());
      return;
    }
    const Token& p = in[2];
    if (p.state != State::Live) {
      if (p.state == State::Dead) ++w.c->dead;
      emit(w, f, n, 0, p);
      return;
    }
    emit(w, f, n, 0, p.value != 0 ? in[0] : in[1]);
  }

  // Exit_k of frame t/i: to Return_i^k in frame t (the tag's last call site selects the Return,
  // which is what the thesis's filter on every Return computes).
  void fire_exit(Worker& w, F* f, const ExecNode& n, Token t) {
    if (!f->parent) {
      results_[n.index] = t;
      result_set_[n.index] = 1;
      release(f, 1);
      return;
    }
    const CallSite& s = g_.sites[f->site];
    deliver(w, f->parent, s.returns[n.index] - g_.bodies[s.caller].first, 0, t);
    release(f, 1);
  }

  F* child(Worker& w, F* f, const CallSite& s) {
    if constexpr (Threaded) {
      F* c = f->children[s.local].load(std::memory_order_acquire);
      if (c) return c;
      std::lock_guard<SpinLock> l(f->lock);
      c = f->children[s.local].load(std::memory_order_acquire);
      if (c) return c;
      c = new_child(w, f, s);
      f->children[s.local].store(c, std::memory_order_release);
      return c;
    } else {
      F* c = f->children[s.local];
      if (c) return c;
      c = new_child(w, f, s);
      f->children[s.local] = c;
      return c;
    }
  }

  F* new_child(Worker& w, F* f, const CallSite& s) {
    F* c = make_frame(f, s.callee, static_cast<std::uint32_t>(&s - g_.sites.data()));
    ++w.c->frames;
    if (o_.engine == Engine::Dynamic) ++w.c->copies;
    add_live(c, static_cast<std::int64_t>(s.calls.size()));  // Calls still to arrive
    add_live(f, 1);                                          // the child keeps f alive
    return c;
  }

  // Call_i: the tag t becomes t/i. Dead tokens never enter the callee: a dead control Call
  // sends dead tokens to the site's Returns (the control edge Call -> Return, Sec. 5.4.6),
  // and dead argument Calls are dropped. The control Call charges fuel and the frame budget,
  // and starts the activation.
  void fire_call(Worker& w, F* f, const ExecNode& n, Token t) {
    const CallSite& s = g_.sites[n.site];
    if (t.state == State::Dead) {
      ++w.c->dead;
      if (n.control)
        for (NodeId r : s.returns)
          deliver(w, f, r - g_.bodies[s.caller].first, 0, Token::dead());
      release(f, 1);
      return;
    }
    F* c = child(w, f, s);
    const Body& cb = g_.bodies[s.callee];
    if (!n.control) {
      std::unique_lock<SpinLock> l;
      if constexpr (Threaded) l = std::unique_lock<SpinLock>(c->lock);
      if (c->state == FrameState::Running) {
        if constexpr (Threaded) l.unlock();
        deliver(w, c, cb.inputs[n.index] - cb.first, 0, t);
      } else if (c->state == FrameState::Pending) {
        c->args[n.index] = t;
        c->has_arg[n.index] = 1;
        add_live(c, 1);
      }
      if constexpr (Threaded) {
        if (l.owns_lock()) l.unlock();
      }
      release(c, 1);  // one Call arrived
      release(f, 1);
      return;
    }
    const Bottom* refuse = nullptr;
    if (!take_fuel()) {
      refuse = fuel_exhausted(f, s);
    } else if (static_cast<std::uint64_t>(live_frames_) > o_.max_frames) {
      refuse = frames_exhausted(f, s);
    }
    std::vector<std::pair<std::uint32_t, Token>> buffered;
    {
      std::unique_lock<SpinLock> l;
      if constexpr (Threaded) l = std::unique_lock<SpinLock>(c->lock);
      c->state = refuse ? FrameState::Refused : FrameState::Running;
      for (std::uint32_t j = 0; j + 1 < cb.inputs.size(); ++j) {
        if (c->has_arg[j]) {
          buffered.emplace_back(j, c->args[j]);
          c->has_arg[j] = 0;
        }
      }
    }
    if (refuse) {
      for (NodeId r : s.returns)
        deliver(w, f, r - g_.bodies[s.caller].first, 0, Token::undefined(refuse));
      release(c, static_cast<std::int64_t>(buffered.size()) + 1);
      release(f, 1);
      return;
    }
    ++w.c->calls;
    deliver(w, c, cb.inputs.back() - cb.first, 0, t);
    for (auto& [j, a] : buffered)
      deliver(w, c, cb.inputs[j] - cb.first, 0, a);
    release(c, static_cast<std::int64_t>(buffered.size()) + 1);
    release(f, 1);
  }

  bool take_fuel() {
    if constexpr (Threaded) {
      std::int64_t left = fuel_left_.load(std::memory_order_relaxed);
      while (left > 0 && !fuel_left_.compare_exchange_weak(left, left - 1)) {
      }
      return left > 0;
    } else {
      if (fuel_left_ <= 0) return false;
      --fuel_left_;
      return true;
    }
  }

  std::uint64_t calls_made() const {
    return o_.eval.fuel - static_cast<std::uint64_t>(std::max<std::int64_t>(0, fuel_left_));
  }

  // Running out of fuel or frames is one event: every later refusal shares its record.
  const Bottom* fuel_exhausted(const F* f, const CallSite& s) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (fuel_bottom_) return fuel_bottom_;
    }
    Undefined e(UndefinedKind::Fuel, s.loc,
                "out of fuel after " + std::to_string(calls_made()) + " function calls in '" +
                    g_.bodies[s.callee].name + "'",
                {"the recursion may not terminate; raise the limit with --fuel N"});
    const Bottom* b = make_bottom(f, s.pos, e);
    std::lock_guard<std::mutex> l(mu_);
    if (!fuel_bottom_) fuel_bottom_ = b;
    return fuel_bottom_;
  }

  const Bottom* frames_exhausted(const F* f, const CallSite& s) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (frames_bottom_) return frames_bottom_;
    }
    Undefined e(UndefinedKind::Depth, s.loc,
                "more than " + std::to_string(o_.max_frames) +
                    " activations are live at once (calling '" + g_.bodies[s.callee].name + "')",
                {"the graph keeps a frame per live activation; raise the limit with "
                 "--max-frames N"});
    const Bottom* b = make_bottom(f, s.pos, e);
    std::lock_guard<std::mutex> l(mu_);
    if (!frames_bottom_) frames_bottom_ = b;
    return frames_bottom_;
  }

  // W.rd_V(x:T. N) on the host: the redex with its letrec groups, evaluated by the compiled
  // evaluator (symbolic evaluation and R, Fig. 2) with the graph's remaining fuel.
  void fire_rd(Worker& w, F* f, const ExecNode& n, const Token* in) {
    const RdProgram& p = *n.info->rd;
    ValueEnv<double> rho;
    std::size_t k = 0;
    for (const auto& [name, type] : p.inputs) {
      Value<double> v;
      for (std::size_t i = 0; i < type.size(); ++i)
        v.push_back(in[k++].value);
      rho.push(name, std::move(v));
    }
    std::uint32_t nout = n.nout;
    Value<double> r;
    try {
      std::lock_guard<std::mutex> l(mu_);
      EvalOptions eo = o_.eval;
      eo.evaluator = Evaluator::Compiled;
      std::int64_t left = fuel_left_;
      eo.fuel = static_cast<std::uint64_t>(std::max<std::int64_t>(0, left));
      EvalContext cx(eo, names_);
      try {
        r = evaluate(p.term, rho, cx);
      } catch (...) {
        fuel_left_ -= static_cast<std::int64_t>(cx.calls);
        throw;
      }
      fuel_left_ -= static_cast<std::int64_t>(cx.calls);
    } catch (const Undefined& e) {
      Token t = Token::undefined(make_bottom(f, n.pos, e));
      for (std::uint32_t j = 0; j < nout; ++j)
        emit(w, f, n, j, t);
      return;
    }
    if (r.empty()) {
      emit(w, f, n, 0, Token::live(0));
      return;
    }
    for (std::uint32_t j = 0; j < nout; ++j)
      emit(w, f, n, j, Token::live(r[j]));
  }
};

}  // namespace

Value<double> run_graph(const Graph& g, const std::vector<Value<double>>& inputs,
                        const GraphOptions& options, NameSupply& names, GraphStats* stats) {
  if (options.threads <= 1) {
    Executor<false> ex(g, options, names);
    return ex.run(inputs, stats);
  }
  Executor<true> ex(g, options, names);
  return ex.run(inputs, stats);
}

}  // namespace adlang::graph
