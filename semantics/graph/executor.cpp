#include "semantics/graph/executor.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>
#include <unordered_set>

#include <sys/mman.h>

#include "lang/diagnostics.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/graph/budgets.hpp"
#include "semantics/graph/firing_rules.hpp"
#include "semantics/graph/frame.hpp"
#include "semantics/graph/frame_memory.hpp"
#include "semantics/graph/node_value.hpp"
#include "semantics/graph/saved_values.hpp"
#include "semantics/graph/schedule.hpp"
#include "semantics/graph/token.hpp"
#include "semantics/graph/work_stealing.hpp"
#include "semantics/op_eval.hpp"
#include "support/memory_regions.hpp"
#include "support/resource_budget.hpp"
#include "support/threads.hpp"
#include "support/worker_pool.hpp"

namespace adlang::graph {
namespace {

// ---- the executor ----------------------------------------------------------------------

template <bool Threaded>
class Executor {
  using F = Frame;
  using Counts = FrameCounts<Threaded>;  // frame.hpp

 public:
  Executor(const Graph& g, const GraphOptions& o, NameSupply& names)
      : g_(g),
        o_(o),
        names_(names),
        propagate_(o.deadness == Deadness::Propagate),
        dynamic_(o.engine == Engine::Dynamic) {
    results_.assign(g.bodies[g.main].exits.size(), Token::dead());
    result_set_.assign(results_.size(), 0);
    if (o.schedule) {
      internal_check(o.schedule->graph == &g && o.schedule->nodes == g.nodes.size() &&
                         o.schedule->with_guards == !propagate_ &&
                         o.schedule->bodies.size() == g.bodies.size(),
                     "a graph run with the schedule of another graph or deadness");
    } else {
      own_schedule_ = make_graph_schedule(g, /*with_guards=*/!propagate_);
    }
    schedules_ = (o.schedule ? *o.schedule : own_schedule_).bodies.data();
    for (std::uint32_t b = 0; b < g.bodies.size(); ++b) {
      const Schedule& sc = schedules_[b];
      Shape sh;
      // Layout: the frame, its pending counts (padded to a multiple of kImageGroup bytes),
      // its slots. The first two are copied from the image (see make_frame).
      std::vector<std::int32_t> pending;
      for (const Block& blk : sc.blocks)
        pending.push_back(blk.pending);
      std::size_t bytes = sizeof(std::int32_t) * pending.size();
      bytes = sizeof(F) + (bytes + kImageGroup - 1) / kImageGroup * kImageGroup;
      sh.image.assign(bytes, 0);
      F image{};
      image.body = b;
      image.live = 1;
      image.exits_pending = static_cast<std::int32_t>(sc.exits);
      image.code = &sc;
      std::memcpy(sh.image.data(), &image, sizeof image);
      std::memcpy(sh.image.data() + sizeof image, pending.data(),
                  sizeof(std::int32_t) * pending.size());
      sh.slots_at = bytes;
      sh.size = sh.slots_at + sizeof(Token) * sc.num_slots;
      sh.uses_store = g.bodies[b].uses_store;
      shapes_.push_back(std::move(sh));
      // A work item packs a frame (16-byte aligned, below 2^48) and a block in 64 bits.
      internal_check(sc.blocks.size() < (std::size_t(1) << 20),
                     "a graph body has more than 2^20 blocks");
    }
    unsigned n = Threaded ? std::max(1u, o.threads) : 1u;
    for (unsigned i = 0; i < n; ++i)
      workers_.push_back(std::make_unique<Worker>(g.bodies.size()));
  }

  ~Executor() {
    // A run that ended by an exception (a budget, an internal error) leaves frames and tags.
    // (A run that exceeded its bound may leave a trie too large to walk within it: its tags
    // go with the chunks, and only their tables by slot are lost.)
    // (The store's tags go with the store: saved_values.hpp.)
    for (auto& w : workers_)
      memory_.give_back(w->chunk);
  }

  Value<double> run(const std::vector<Value<double>>& inputs, GraphStats* stats) {
    Worker& w0 = *workers_[0];
    const Schedule& ms = schedules_[g_.main];
    F* root = make_frame(w0, nullptr, g_.main, UINT32_MAX, nullptr);
    root_ = root;
    std::size_t k = 0;
    for (const Value<double>& v : inputs)
      for (double x : v)
        root->slots[ms.input_slots[k++]] = Token::live(x);
    internal_check(k + 1 == ms.input_slots.size(), "graph inputs do not match the program's");
    root->slots[ms.input_slots.back()] = Token::live(0);
    run_workers(root);
    internal_check(Counts::live_of(root) == 0, "work is left in the main frame after termination");
    free_frame(w0, root);
    if constexpr (Threaded) {
      for (auto& w : workers_)
        budgets_.publish_frames(w->budget);
    }
    internal_check(budgets_.live_frames() == 0, "a frame outlived its run");
    if (stats) *stats = collect_stats();
    // Termination is detected: nothing is left anywhere. Every output must have arrived (a
    // call refused by an exhausted budget returns a bottom, so also then).
    const Bottom* bottom = nullptr;
    Value<double> out;
    for (std::size_t i = 0; i < results_.size(); ++i) {
      internal_check(result_set_[i] != 0, "the graph stopped before producing its result");
      const Token& t = results_[i];
      internal_check(!t.is_dead() && !t.is_absent(), "the graph's result is dead");
      if (t.is_bottom()) bottom = earlier(bottom, t.bottom());
      if (t.is_live()) out.push_back(t.value());
    }
    // A budget that ran out while the graph pursued a call that sequential evaluation would
    // never have made: an undefinedness before every refused call (the result's earliest
    // bottom, in evaluation order) is the program's, as it is without the budget.
    if (budget_failure_ && (!bottom || bottom->budget)) std::rethrow_exception(budget_failure_);
    if (bottom) throw bottom->error;
    if (g_.result_type.size() == 0) out.clear();
    return out;
  }

 private:
  struct alignas(64) Worker {
    explicit Worker(std::size_t bodies) : free_frames(bodies, nullptr) {}
    WorkList list;  // work_stealing.hpp
    // Children made by the running block, each holding its frame: added to the frame's live
    // count once, at the block's end (no other worker can run them before: see run_parallel).
    std::int64_t holds = 0;
    std::uint64_t tokens = 0, dead = 0, frames = 0, copies = 0;
    std::uint32_t polls = 0;  // calls admitted (the run's bound is checked at every 256th)
    WorkerBudget budget;      // budgets.hpp
    // Per body, the frames freed for reuse: a list through each frame's first word.
    std::vector<void*, CacheLineAllocator<void*>> free_frames;
    Chunks chunk;
    StealCells cells;  // threaded: requests for work (work_stealing.hpp)
  };

  const Graph& g_;
  const GraphOptions& o_;
  NameSupply& names_;
  const bool propagate_;
  const bool dynamic_;                   // Engine::Dynamic
  GraphSchedule own_schedule_;           // when the options give none
  const Schedule* schedules_ = nullptr;  // by body
  // What a fresh frame of each body holds: its size, where its slots start, and the image of
  // its fields and pending counts.
  static constexpr std::size_t kImageGroup = 32;
  struct Shape {
    std::size_t size = 0, slots_at = 0;
    bool uses_store = false;
    // A fresh frame's first slots_at bytes: the Frame of a call from nowhere (no parent, site
    // or tag; live 1; its outputs pending) and its blocks' pending counts.
    std::vector<unsigned char> image;
  };
  std::vector<Shape> shapes_;
  std::vector<std::unique_ptr<Worker>> workers_;
  SharedBudgets<Threaded, Worker> budgets_{workers_, o_.eval.fuel, o_.max_frames};  // budgets.hpp
  std::vector<Token> results_;
  std::vector<std::uint8_t> result_set_;
  F* root_ = nullptr;
  std::mutex mu_;  // bottoms_, Rd evaluation
  std::vector<std::unique_ptr<Bottom>> bottoms_;
  const Bottom* fuel_bottom_ = nullptr;
  // A budget exhausted during the run (over_budget): rethrown when the run has unwound.
  std::atomic<bool> budget_failed_{false};
  // GraphOptions::bound: whether there is one, and the run's start.
  const RunClock clock_{o_.bound};
  const bool bounded_ = clock_.bounded();
  std::exception_ptr budget_failure_;
  const Bottom* frames_bottom_ = nullptr;
  PoolLoans* loans_ = nullptr;  // threaded: the run's loans of threads (run_workers)
  alignas(64) std::atomic<bool> done_{false};
  WorkStealing<Worker> stealing_{workers_, done_};
  // Frame memory (frame_memory.hpp) and the store of saved values (saved_values.hpp); the store
  // goes first, giving its chunks back.
  ChunkSource memory_{Threaded};
  SavedValues store_{Threaded, memory_, clock_};

  // Drops n from f's count; frees f when it reaches zero (its hold on its parent ended with
  // its last output, fire_exit). The main frame reaching zero is the end of the run.
  [[gnu::always_inline]] inline void release(Worker& w, F* f, std::int64_t n) {
    if (Counts::dec(f, f->live, n) != 0) return;
    if (f == root_) {
      if constexpr (Threaded) {
        stealing_.finish();  // wakes the workers asleep for want of work
      } else {
        done_.store(true, std::memory_order_release);
      }
      return;
    }
    free_frame(w, f);
  }

  // ---- frames ----

  // A frame of `body` called from `site` (`cs`: its CallSite), or the main frame (UINT32_MAX,
  // null).
  [[gnu::always_inline]] inline F* make_frame(Worker& w, F* parent, std::uint32_t body,
                                              std::uint32_t site, const CallSite* cs) {
    const Shape& sh = shapes_[body];
    const Schedule& s = schedules_[body];
    void* mem = w.free_frames[body];
    if (mem != nullptr) {
      w.free_frames[body] = *static_cast<void**>(mem);
    } else {
      mem = memory_.carve(w.chunk, sh.size);
    }
    char* p = static_cast<char*>(mem);
    // Copied in fixed-size groups (field by field, and the counts by std::copy, which is a
    // call to memmove, took more instructions: docs/performance.md Sec. 9, "Tokens in 8
    // bytes").
    const unsigned char* image = sh.image.data();
    std::memcpy(p, image, sizeof(F));
    for (std::size_t k = sizeof(F); k < sh.slots_at; k += kImageGroup)
      std::memcpy(p + k, image + k, kImageGroup);
    F* f = std::launder(reinterpret_cast<F*>(p));
    f->parent = parent;
    f->site = site;
    f->local = cs ? cs->local : 0;
    f->slots = reinterpret_cast<Token*>(p + sh.slots_at);
    if (cs && cs->tagged) {
      internal_check(parent->tag != nullptr, "a tagged call from a frame without a tag");
      f->tag = store_.enter(parent->tag, cs->mirror);
    } else if (sh.uses_store) {
      f->tag = store_.new_root();
    }
    if (dynamic_ && parent) {
      // TensorFlow's dynamic approach: the call instantiates a copy of the callee's body.
      f->code = new Schedule(s);
      ++w.copies;
    }
    budgets_.frames_changed(w.budget, 1);
    return f;
  }

  // Frees f, and then the parent f still held (returned_to), if that was its parent's last unit,
  // and so on up (a loop, not release: a chain of held parents must not recurse).
  void free_frame(Worker& w, F* f) {
    for (;;) {
      F* const held = Threaded && f->holds_parent ? f->parent : nullptr;
      if (dynamic_ && f->parent) delete f->code;
      if (f->tag) store_.leave(f->tag);
      std::uint32_t body = f->body;
      f->~F();
      budgets_.frames_changed(w.budget, -1);
      void* mem = f;
      *static_cast<void**>(mem) = w.free_frames[body];
      w.free_frames[body] = mem;
      if (held == nullptr || Counts::dec(held, held->live, 1) != 0) return;
      f = held;  // (never the main frame: returned_to holds no main frame)
    }
  }

  const Bottom* make_bottom(const F* f, std::uint32_t pos, Undefined e, bool budget = false) {
    auto b = std::make_unique<Bottom>(Bottom{std::move(e), Counts::key_at(g_, f, pos), budget});
    const Bottom* p = b.get();
    std::lock_guard<std::mutex> l(mu_);
    bottoms_.push_back(std::move(b));
    return p;
  }

  GraphStats collect_stats() {
    GraphStats s;
    for (auto& w : workers_) {
      s.tokens += w->tokens;
      s.dead_tokens += w->dead;
      s.frames_created += w->frames;
      s.bodies_copied += w->copies;
    }
    s.workers = static_cast<std::uint32_t>(workers_.size());
    if constexpr (Threaded) s.workers_taking_part = stealing_.taking_part();
    s.peak_live_frames = static_cast<std::uint64_t>(budgets_.peak_frames());
    s.calls = budgets_.calls_made();  // Call firings and the calls of Rd nodes' evaluations
    s.saved_values = store_.saved();
    s.peak_saved_values = store_.peak_values();
    s.peak_saved_bytes = store_.peak_bytes();
    return s;
  }

  // ---- scheduling ----

  // Block b of frame f has all its inputs: count it in f's live count and queue it.
  void ready(Worker& w, F* f, std::uint32_t b) {
    const Block& blk = f->code->blocks[b];
    if (blk.first == blk.end) {
      // Only sources (a call site's Returns): count them and pass the signal on.
      w.tokens += blk.sources;
      signal_successors(w, f, blk);
      return;
    }
    Counts::inc(f, f->live, 1);
    w.list.enqueue(work_item(f, b));
  }

  void signal(Worker& w, F* f, std::uint32_t b, std::int32_t n) {
    if (Counts::arrive(f, b, n)) ready(w, f, b);
  }

  void run_workers(F* root) {
    Worker& w0 = *workers_[0];
    if constexpr (!Threaded) {
      signal(w0, root, schedules_[g_.main].entry, 1);
      for (std::uint64_t x = w0.list.take(); x != 0; x = w0.list.take())
        run_block(w0, item_frame(x), item_block(x));
    } else {
      signal(w0, root, schedules_[g_.main].entry, 1);
      std::exception_ptr failure;
      std::mutex failure_mu;
      auto work = [this, &failure, &failure_mu](std::size_t i) {
        try {
          run_parallel(i);  // (below)
        } catch (...) {
          std::lock_guard<std::mutex> l(failure_mu);
          if (!failure) failure = std::current_exception();
          stealing_.finish();
        }
      };
      // Worker 0 is the calling thread, the others threads of the pool kept for the process's
      // life (support/worker_pool.hpp), lent as worker 0 brings them in (run_parallel):
      // starting them per run cost more than most runs. A loan whose thread had not begun when
      // the run ended is taken back: that worker had nothing to do.
      const std::function<void(std::size_t)> body = work;
      PoolLoans loans(body);
      loans_ = &loans;
      work(0);
      loans_ = nullptr;
      loans.end(/*take_back_unstarted=*/true);
      if (failure) std::rethrow_exception(failure);
    }
  }

  // Worker `me` with several threads (work_stealing.hpp). The frame of an item handed to
  // another worker, and its ancestors up to one that has returned, will be touched by the
  // thief: their counts become atomic from now on. Those not yet shared are the owner's (only
  // the worker that made a frame touches it until it is shared).
  void run_parallel(std::size_t me) {
    stealing_.run(
        me, [this](Worker& w, std::uint64_t x) { run_block(w, item_frame(x), item_block(x)); },
        [](std::uint64_t x) {
          for (F* g = item_frame(x); g && !Counts::flag(g->shared); g = g->parent) {
            Counts::set(g->shared, true);
            if (Counts::flag(g->returned)) break;
          }
        },
        [this](std::size_t k) { loans_->lend(k); });  // (called on worker 0 only)
  }

  // ---- blocks ----

  // Runs block bi of frame f: its nodes in order, each by its firing rule (graph.hpp), then
  // signals its successors. The common cases (every input live, the result in range) are
  // written out here; everything else goes to fire_strict.
  void run_block(Worker& w, F* f, std::uint32_t bi) {
    const Schedule& s = *f->code;
    const Block& blk = s.blocks[bi];
    Token* const slots = f->slots;
    const std::uint32_t* const inputs = s.inputs.data();
    const ScheduledNode* const end = s.nodes.data() + blk.end;
    const std::size_t pushed = w.list.stack.size();  // the block's calls after the first go here
    w.tokens += blk.sources;
    for (const ScheduledNode* np = s.nodes.data() + blk.first; np != end; ++np) {
      const ScheduledNode& n = *np;
      // (A schedule for propagated deadness has no guard.)
      if (n.guard != kNoGuard) {
        const std::uint32_t skip_to = untaken_end(s, slots, n.guard);
        if (skip_to != 0) {
          np = s.nodes.data() + skip_to - 1;
          continue;
        }
      }
      const std::uint32_t* in = inputs + n.in;
      switch (n.kind) {
        case NodeKind::Const:
        case NodeKind::BoolConst:
          if (slots[in[0]].is_live() && !n.info->error) {
            ++w.tokens;
            slots[n.out] = Token::live(n.value);
            continue;
          }
          break;
        case NodeKind::Add:
          if (slots[in[0]].is_live() && slots[in[1]].is_live()) {
            double r = value_in(n, slots, in, 0) + value_in(n, slots, in, 1);
            if (ScalarTraits<double>::in_range(r)) {
              w.tokens += n.fires;
              slots[n.out] = Token::live(r);
              continue;
            }
          }
          break;
        case NodeKind::Op:
          if (fire_arithmetic(w, slots, n, in, o_.eval.predicates)) continue;
          break;
        case NodeKind::Pred:
          if (slots[in[0]].is_live() && slots[in[1]].is_live()) {
            std::optional<bool> v =
                eval_pred(Pred::make(static_cast<PredKind>(n.pred)), value_in(n, slots, in, 0),
                          value_in(n, slots, in, 1), o_.eval.predicates);
            if (v) {
              w.tokens += n.fires;
              slots[n.out] = Token::boolean(*v);
              continue;
            }
          }
          break;
        case NodeKind::Switch:
          fire_switch(w, slots, n, in);
          continue;
        case NodeKind::Merge:
          if (n.side != kNoSide) {
            fire_tail(w, f, n, in);
            continue;
          }
          fire_merge(w, slots, n, in);
          continue;
        case NodeKind::Call:
          fire_site(w, f, n, in);
          continue;
        case NodeKind::Exit: {
          const Token t = slots[in[0]];
          const rules::Firing r = rules::fire_forward(t);
          w.tokens += r.fired;
          if (r.dead) ++w.dead;
          fire_exit(w, f, n, t);
          continue;
        }
        case NodeKind::Gate:
          if (slots[in[0]].is_live() && slots[in[1]].is_live()) {
            ++w.tokens;
            slots[n.out] = slots[in[0]];
            continue;
          }
          break;
        case NodeKind::Save:
        case NodeKind::Load:
          // (Out of the loop: a gradient's bodies fire one per value the adjoint reads.)
          if (slots[in[0]].is_live()) {
            fire_store(w, f, n, in);
            continue;
          }
          break;
        case NodeKind::Sync:
        case NodeKind::Rd:
          break;
        case NodeKind::InputMerge:
        case NodeKind::Return:
          throw InternalError("internal error: a source node in a block's node list");
        default:
          // (Every kind is a case above: without this, the dispatch tests its range first.)
          __builtin_unreachable();
      }
      if (slots[in[0]].is_absent() &&
          (n.immediate == kNoImmediate || slots[in[n.immediate]].is_absent())) {
        // The untaken side of a Switch (a folded constant whose token is not absent still
        // fires: fire_strict).
        for (std::uint32_t k = 0; k < n.nout; ++k)
          slots[n.out + k] = Token::absent();
        continue;
      }
      fire_strict(w, f, n, in);
    }
    if (w.holds != 0) {
      Counts::inc(f, f->live, w.holds);
      w.holds = 0;
      // The first call runs next; the others are on the stack, which runs the last pushed
      // first: turned round, they run in the block's order, sequential evaluation's.
      if (w.list.stack.size() - pushed > 1)
        std::reverse(w.list.stack.begin() + static_cast<std::ptrdiff_t>(pushed),
                     w.list.stack.end());
    }
    hand_on(w, f, blk);
  }

  // The end of the first range in the chain from guard `gi` whose side of its Switches is not
  // taken (schedule.hpp, Guard): its nodes would all write "absent", so only the slots read
  // outside it are written; 0 if every range of the chain is taken.
  static std::uint32_t untaken_end(const Schedule& s, Token* slots, std::uint32_t gi) {
    for (; gi != kNoGuard; gi = s.guards[gi].next) {
      const Guard& gd = s.guards[gi];
      const Token& p = slots[gd.pred];
      if (p.selects(gd.side)) continue;
      for (std::uint32_t k = gd.exports; k < gd.exports_end; ++k)
        slots[s.exported[k]] = Token::absent();
      return gd.end;
    }
    return 0;
  }

  // Signals the successors of a block that holds a unit of f's live count. The first that
  // becomes ready takes over the unit (no change to the count); f is not touched once it is
  // queued.
  [[gnu::always_inline]] inline void hand_on(Worker& w, F* f, const Block& blk) {
    const Schedule& s = *f->code;
    std::uint64_t heir = 0;
    for (std::uint32_t k = blk.succ; k < blk.succ_end; ++k) {
      const Successor& x = s.successors[k];
      std::int32_t c = x.merge_inputs == 0 ? 1 : merge_arrivals(f, x);
      if (c == 0 || !Counts::arrive(f, x.block, x.pending, c)) continue;
      if (heir != 0 || x.empty) {
        ready(w, f, x.block);
      } else {
        heir = work_item(f, x.block);
      }
    }
    if (heir != 0) {
      w.list.enqueue(heir);
    } else {
      release(w, f, 1);
    }
  }

  void signal_successors(Worker& w, F* f, const Block& blk) {
    const Schedule& s = *f->code;
    for (std::uint32_t k = blk.succ; k < blk.succ_end; ++k) {
      const Successor& x = s.successors[k];
      std::int32_t c = x.merge_inputs == 0 ? 1 : merge_arrivals(f, x);
      if (c > 0 && Counts::arrive(f, x.block, x.pending, c)) ready(w, f, x.block);
    }
  }

  // The common operators on live inputs inside their domain, with the result in range: the
  // definitions' primals and domains, as the compiled evaluator applies them (op_eval.hpp).
  static bool fire_arithmetic(Worker& w, Token* slots, const ScheduledNode& n,
                              const std::uint32_t* in, PredicateMode mode) {
    double r;
    switch (n.op) {
      case OpKind::Neg:
      case OpKind::Floor:
      case OpKind::Sin:
      case OpKind::Cos:
      case OpKind::Exp:
      case OpKind::Log: {
        if (!slots[in[0]].is_live()) return false;
        const double x = value_in(n, slots, in, 0);
        bool ok = false;
        switch (n.op) {
          case OpKind::Neg:
            ok = unary<operators::Neg>(x, r, mode);
            break;
          case OpKind::Floor:
            ok = unary<operators::Floor>(x, r, mode);
            break;
          case OpKind::Sin:
            ok = unary<operators::Sin>(x, r, mode);
            break;
          case OpKind::Cos:
            ok = unary<operators::Cos>(x, r, mode);
            break;
          case OpKind::Exp:
            ok = unary<operators::Exp>(x, r, mode);
            break;
          case OpKind::Log:
            ok = unary<operators::Log>(x, r, mode);
            break;
          default:
            break;
        }
        if (!ok) return false;
        break;
      }
      case OpKind::Sub:
      case OpKind::Mul:
      case OpKind::Div: {
        if (!slots[in[0]].is_live() || !slots[in[1]].is_live()) return false;
        double x[2] = {value_in(n, slots, in, 0), value_in(n, slots, in, 1)};
        if (n.op == OpKind::Sub) {
          operators::Sub::primal(x, &r, 0);
        } else if (n.op == OpKind::Mul) {
          operators::Mul::primal(x, &r, 0);
        } else {
          if (op_eval_detail::outside_domain(operators::Div::definition.domain, x, mode))
            return false;
          operators::Div::primal(x, &r, 0);
        }
        break;
      }
      default:
        return false;
    }
    if (!ScalarTraits<double>::in_range(r)) return false;
    w.tokens += n.fires;
    slots[n.out] = Token::live(r);
    return true;
  }

  // Operator O's primal at x inside its domain (false outside: the generic path reports it).
  template <class O>
  static bool unary(double x, double& r, PredicateMode mode) {
    if (op_eval_detail::outside_domain(O::definition.domain, &x, mode)) return false;
    O::primal(&x, &r, 0);
    return true;
  }

  // Input i of node n: its token's value, or the folded constant's (ScheduledNode::immediate).
  static double value_in(const ScheduledNode& n, const Token* slots, const std::uint32_t* in,
                         std::uint32_t i) {
    return i == n.immediate ? n.value : slots[in[i]].value();
  }

  // The inputs of a Merge that a block has produced. A live predicate also counts the input
  // that will never come (the untaken side; Deadness::Elide), a bottom one both.
  std::int32_t merge_arrivals(const F* f, const Successor& x) const {
    std::int32_t n = 0;
    for (std::uint32_t i = 0; i < 3; ++i) {
      if (!(x.merge_inputs & (1u << i))) continue;
      const Token& t = f->slots[x.merge_slots[i]];
      if (i == 2) {
        n += rules::merge_settled_by_predicate(t, propagate_);
      } else if (!t.is_absent()) {
        n += 1;
      }
    }
    return n;
  }

  static void emit_all(F* f, const ScheduledNode& n, Token t) {
    for (std::uint32_t k = 0; k < n.nout; ++k)
      f->slots[n.out + k] = t;
  }

  // The strict nodes (and constants) in general: no token if an input is absent, a dead
  // token if one is dead, the earliest bottom if one is bottom, else the node's value.
  [[gnu::noinline]] void fire_strict(Worker& w, F* f, const ScheduledNode& n,
                                     const std::uint32_t* in) {
    Token* slots = f->slots;
    if (n.immediate != kNoImmediate) {
      // The folded constant's firing: on any token but none (its token is its input's).
      const State c = slots[in[n.immediate]].state();
      if (c != State::Absent) ++w.tokens;
      if (c == State::Dead) ++w.dead;
    }
    Token bottom = Token::dead();
    const rules::Strictness st = rules::strict_inputs(
        n.nin, [&](std::uint32_t i) -> const Token& { return slots[in[i]]; },
        [](const Token& a, const Token& b) { return earlier(a, b); }, bottom);
    if (st == rules::Strictness::Absent) {
      emit_all(f, n, Token::absent());
      return;
    }
    w.tokens += 1 + n.elided;  // (its elided Switches fire when it does: SwitchElision)
    if (st != rules::Strictness::Live) {
      w.dead += rules::strict_firing(st).dead;
      emit_all(f, n, st == rules::Strictness::Dead ? Token::dead() : bottom);
      return;
    }
    switch (n.kind) {
      case NodeKind::Const:
      case NodeKind::BoolConst:
        slots[n.out] = n.info->error ? Token::undefined(make_bottom(f, n.pos, *n.info->error))
                                     : Token::live(n.value);
        return;
      case NodeKind::Add: {
        double s = value_in(n, slots, in, 0) + value_in(n, slots, in, 1);
        if (!ScalarTraits<double>::in_range(s)) {
          slots[n.out] = Token::undefined(make_bottom(f, n.pos, sum_out_of_range(n.info->loc)));
        } else {
          slots[n.out] = Token::live(s);
        }
        return;
      }
      case NodeKind::Op:
        fire_op(f, n, in);
        return;
      case NodeKind::Pred: {
        const Pred& pr = *n.info->pred;
        double a = value_in(n, slots, in, 0);
        std::optional<bool> v = eval_pred(pr, a, value_in(n, slots, in, 1), o_.eval.predicates);
        slots[n.out] =
            v ? Token::boolean(*v)
              : Token::undefined(make_bottom(f, n.pos, predicate_undefined(pr, a, n.info->loc)));
        return;
      }
      case NodeKind::Sync:
        slots[n.out] = Token::live(0);
        return;
      case NodeKind::Gate:
        slots[n.out] = slots[in[0]];
        return;
      case NodeKind::Rd:
        fire_rd(f, n, in);
        return;
      case NodeKind::Save:
      case NodeKind::Load:
        apply_store(f, n, in);
        return;
      case NodeKind::Switch:
      case NodeKind::Merge:
      case NodeKind::InputMerge:
      case NodeKind::Call:
      case NodeKind::Return:
      case NodeKind::Exit:
        throw InternalError("internal error: unexpected node kind in the executor");
    }
  }

  // A Save or a Load on a live token: fire_strict's rule for them, without its checks.
  [[gnu::noinline]] void fire_store(Worker& w, F* f, const ScheduledNode& n,
                                    const std::uint32_t* in) {
    ++w.tokens;
    apply_store(f, n, in);
  }
  void apply_store(F* f, const ScheduledNode& n, const std::uint32_t* in) {
    Token* slots = f->slots;
    if (n.kind == NodeKind::Save) {
      store_.save(f->tag, n.index, slots[in[0]].value());
      slots[n.out] = slots[in[0]];
    } else {
      slots[n.out] = Token::live(store_.take(f->tag, n.index, n.info->control));
    }
  }

  static constexpr std::uint32_t kSmall = 8;

  [[gnu::noinline]] void fire_op(F* f, const ScheduledNode& n, const std::uint32_t* in) {
    double x[2 * kSmall], y[kSmall];
    std::vector<double> xs, ys;
    double* xp = x;
    double* yp = y;
    if (n.nin > 2 * kSmall || n.nout > kSmall) {
      xs.resize(n.nin);
      ys.resize(n.nout);
      xp = xs.data();
      yp = ys.data();
    }
    for (std::uint32_t i = 0; i < n.nin; ++i)
      xp[i] = value_in(n, f->slots, in, i);
    try {
      eval_op<double>(*n.info->op, xp, yp, n.info->loc, o_.eval.predicates);
    } catch (const Undefined& e) {
      emit_all(f, n, Token::undefined(make_bottom(f, n.pos, e)));
      return;
    }
    for (std::uint32_t k = 0; k < n.nout; ++k)
      f->slots[n.out + k] = Token::live(yp[k]);
  }

  // Switch (d, p) and Merge (t, e, p): firing_rules.hpp.
  void fire_switch(Worker& w, Token* slots, const ScheduledNode& n, const std::uint32_t* in) {
    const rules::Firing r =
        rules::fire_switch(slots[in[0]], slots[in[1]], propagate_, slots[n.out], slots[n.out + 1]);
    w.tokens += r.fired;
    if (r.dead) ++w.dead;
  }
  void fire_merge(Worker& w, Token* slots, const ScheduledNode& n, const std::uint32_t* in) {
    const rules::Firing r =
        rules::fire_merge(slots[in[0]], slots[in[1]], slots[in[2]], slots[n.out]);
    w.tokens += r.fired;
    if (r.dead) ++w.dead;
  }

  // A folded tail (schedule.hpp, ScheduledNode::side): the Merge on the body's output and its
  // Exit, on the Merge's side `side` only.
  [[gnu::noinline]] void fire_tail(Worker& w, F* f, const ScheduledNode& n,
                                   const std::uint32_t* in) {
    // (Apart, so that the common tail saves no register for a call it does not make.)
    if (n.nin > 2) {
      fire_chain_tail(w, f, n, in);
      return;
    }
    const Token t = merge_tail_token(w, f->slots, n, in);
    if (!t.is_absent()) fire_exit(w, f, n, t);
  }
  [[gnu::noinline]] void fire_chain_tail(Worker& w, F* f, const ScheduledNode& n,
                                         const std::uint32_t* in) {
    const Token t = chain_tail_token(w, f->slots, n, in);
    if (!t.is_absent()) fire_exit(w, f, n, t);
  }

  // The token a folded tail sends, with its firings counted (the Merges' and the Exit's), or
  // absent if it does not fire (it never sends absent).
  static Token tail_token(Worker& w, const Token* slots, const ScheduledNode& n,
                          const std::uint32_t* in) {
    return n.nin > 2 ? chain_tail_token(w, slots, n, in) : merge_tail_token(w, slots, n, in);
  }

  // The tail of one Merge.
  static Token merge_tail_token(Worker& w, const Token* slots, const ScheduledNode& n,
                                const std::uint32_t* in) {
    // The Merge's rule (firing_rules.hpp, merge_choice) on its side's input only: a predicate
    // that is not live is sent (or nothing, without one); a live one that selects the side
    // sends its input (Token::selects).
    const Token p = slots[in[1]];
    if (!p.is_live()) {
      if (!n.sends_bottom || p.is_absent()) return Token::absent();
      w.tokens += 2;  // the Merge sends its bottom (or dead) predicate, the Exit sends that
      if (p.is_dead()) w.dead += 2;
      return p;
    }
    if (!p.selects(n.side)) return Token::absent();
    const Token t = slots[in[0]];
    internal_check(!t.is_absent(), "a body's output is absent");
    w.tokens += 2;  // the Merge's firing and the Exit's
    if (t.is_dead()) ++w.dead;
    return t;
  }

  // The tail of a chain of Merges (it sends no bottom): it fires when each predicate is live
  // and selects its side (Token::selects: the Merge's choice of that side).
  [[gnu::noinline]] static Token chain_tail_token(Worker& w, const Token* slots,
                                                  const ScheduledNode& n, const std::uint32_t* in) {
    for (std::uint32_t i = 1; i < n.nin; ++i)
      if (!slots[in[i]].selects((n.side >> (i - 1)) & 1u)) return Token::absent();
    const Token t = slots[in[0]];
    internal_check(!t.is_absent(), "a body's output is absent");
    w.tokens += n.nin;  // every Merge's firing and the Exit's
    if (t.is_dead()) ++w.dead;
    return t;
  }

  // Exit_k of frame t/i: to Return_i^k in frame t (the tag's last call site selects the Return,
  // which is what the thesis's filter on every Return computes). When the last output has
  // left, the caller's block of that return is signalled.
  [[gnu::noinline]] void fire_exit(Worker& w, F* f, const ScheduledNode& n, Token t) {
    if (!send_output(f, n, t)) return;
    if (F* parent = f->parent) {
      // f never touches its parent again: its hold on the parent passes to the return block.
      // (The main frame matters to a return with several threads only: at one thread, passing
      // root_ cost a load per return, 1 instruction per call of fib.)
      const std::uint32_t rb = Counts::returned_to(f, Threaded ? root_ : nullptr);
      if (parent->code->blocks[rb].tail_only) {
        release(w, f, 1);
        return_through_tails(w, parent, rb);
        return;
      }
      run_held(w, parent, rb);
    }
    release(w, f, 1);
  }

  // Exit_k's token, to the parent's Return_i^k or to the results; whether it was f's last.
  bool send_output(F* f, const ScheduledNode& n, Token t) {
    if (F* parent = f->parent) {
      parent->slots[parent->code->return_slots[f->local][n.index]] = t;
    } else {
      results_[n.index] = t;
      result_set_[n.index] = 1;
    }
    return Counts::last_output(f);
  }

  // Return block rb of f is one tail (Block::tail_only), ready, and holds a unit of f's live
  // count: it runs here rather than queued, and when its tail sends f's last output and the
  // return block that output reaches is one tail too, that one runs next, and so on up (a
  // chain of tail calls returns in one loop, and no block is queued per frame).
  [[gnu::noinline]] void return_through_tails(Worker& w, F* f, std::uint32_t rb) {
    for (;;) {
      const Block& blk = f->code->blocks[rb];
      const Schedule& s = *f->code;
      const ScheduledNode& n = s.nodes[blk.first];
      w.tokens += blk.sources;
      const Token t = tail_token(w, f->slots, n, s.inputs.data() + n.in);
      // The block's unit ends here, and with the last output f's own (fire_exit's).
      if (t.is_absent() || !send_output(f, n, t)) {
        release(w, f, 1);
        return;
      }
      F* parent = f->parent;
      if (!parent) {
        release(w, f, 2);
        return;
      }
      rb = Counts::returned_to(f, Threaded ? root_ : nullptr);
      if (!parent->code->blocks[rb].tail_only) {
        run_held(w, parent, rb);
        release(w, f, 2);
        return;
      }
      release(w, f, 2);
      f = parent;
    }
  }

  // Block b of f is ready and inherits a unit of f's live count that its caller holds.
  [[gnu::always_inline]] inline void run_held(Worker& w, F* f, std::uint32_t b) {
    const Block& blk = f->code->blocks[b];
    if (blk.first != blk.end) {
      w.list.enqueue(work_item(f, b));
      return;
    }
    w.tokens += blk.sources;
    hand_on(w, f, blk);
  }

  // Call_i (every Call of site i at once, arguments then control; the rule is
  // firing_rules.hpp's call_site_choice): the tag t becomes t/i. The control Call charges fuel
  // and the frame budget; a refusal goes to the Returns.
  void fire_site(Worker& w, F* f, const ScheduledNode& n, const std::uint32_t* in) {
    const Token* slots = f->slots;
    const CallSite& s = g_.sites[n.site];
    // The common case first: every Call live.
    if (!all_live(slots, in, n.nin)) {
      fire_site_not_live(w, f, n, in, s);
      return;
    }
    w.tokens += n.nin;
    if (const Bottom* refused = admit(w, f, s)) {  // a call that is not made charges nothing
      return_undefined(w, f, s, refused);
      return;
    }
    enter(w, f, n, in, s);
  }

  // A call site some of whose Calls are not live.
  [[gnu::noinline]] void fire_site_not_live(Worker& w, F* f, const ScheduledNode& n,
                                            const std::uint32_t* in, const CallSite& s) {
    const Token* slots = f->slots;
    Token first = Token::dead();
    const rules::CallChoice c = rules::call_site_choice(
        n.nin, [&](std::uint32_t j) -> const Token& { return slots[in[j]]; },
        [](const Token& a, const Token& b) { return earlier(a, b); }, first);
    const rules::Firing r = rules::call_site_firing(c);
    w.tokens += r.fired * n.nin;
    w.dead += r.dead * n.nin;
    if (c == rules::CallChoice::None) return;
    if (c == rules::CallChoice::Dead) {
      const Schedule& fs = *f->code;
      for (std::uint32_t r : fs.return_slots[s.local])
        f->slots[r] = Token::dead();
      w.dead += fs.return_slots[s.local].size();  // the Returns will fire on them
      signal(w, f, fs.return_block[s.local], 1);
      return;
    }
    const Bottom* bottom = c == rules::CallChoice::Bottom ? first.bottom() : nullptr;
    if (!bottom) bottom = admit(w, f, s);  // a call that is not made charges nothing
    if (bottom) {
      return_undefined(w, f, s, bottom);
      return;
    }
    enter(w, f, n, in, s);
  }

  // Call_i's firing: the child frame t/i, its arguments, its entry block queued.
  [[gnu::always_inline]] inline void enter(Worker& w, F* f, const ScheduledNode& n,
                                           const std::uint32_t* in, const CallSite& s) {
    const Token* slots = f->slots;
    F* c = make_frame(w, f, s.callee, n.site, &s);
    ++w.frames;
    ++w.holds;  // the child keeps f alive until it returns (counted at the block's end)
    const Schedule& cs = *c->code;
    for (std::uint32_t j = 0; j < n.nin; ++j)
      c->slots[cs.input_slots[j]] = slots[in[j]];
    // The entry block is ready, and no other worker holds c yet.
    Counts::set(c->live, Counts::live_of(c) + 1);
    w.list.enqueue(work_item(c, cs.entry));
  }

  // The control Call's charge: nullptr, or the refusal (no fuel, or too many frames).
  // Adjoint sites and an rd's two sites charge no fuel (CallSite::charges_fuel).
  const Bottom* admit(Worker& w, const F* f, const CallSite& s) {
    if (const Bottom* b = over_budget(w, f, s)) return b;
    if (s.charges_fuel && !budgets_.take_fuel(w.budget)) return fuel_exhausted(f, s);
    // The frame is not made yet: it would be one more.
    if (!budgets_.frame_allowed(w.budget)) return frames_exhausted(f, s);
    return nullptr;
  }

  // --timeout and --max-memory (docs/robustness.md), polled at each call: once a budget is
  // exhausted, this call and every later one are refused, so that the run unwinds and frees
  // what it holds (graph-dynamic's body copies among it), and run() then reports the budget,
  // or an undefinedness that comes before every refused call.
  const Bottom* over_budget(Worker& w, const F* f, const CallSite& s) {
    if (budget_failed_.load(std::memory_order_acquire)) return refused(f, s.pos, s.loc);
    try {
      check_resources();
      if (bounded_ && (++w.polls & 255u) == 0) clock_.check();
      return nullptr;
    } catch (const BudgetExceeded&) {
      return budget_exhausted(f, s.pos, s.loc);
    } catch (const RunBoundExceeded&) {
      return budget_exhausted(f, s.pos, s.loc);
    }
  }

  // Records the BudgetExceeded being handled; the refusal of the call at `pos`.
  const Bottom* budget_exhausted(const F* f, std::uint32_t pos, SourceLoc loc) {
    std::exception_ptr e = std::current_exception();
    {
      std::lock_guard<std::mutex> l(mu_);
      if (!budget_failure_) {
        budget_failure_ = e;
        budget_failed_.store(true, std::memory_order_release);
      }
    }
    return refused(f, pos, loc);
  }

  // A call at `pos` of frame f refused by the budget: a bottom with its own place in
  // evaluation order, so that run() can tell whether an undefinedness comes before it.
  const Bottom* refused(const F* f, std::uint32_t pos, SourceLoc loc) {
    return make_bottom(f, pos, budget_refused_error(loc), /*budget=*/true);
  }

  // The Returns of site s in frame f receive `bottom`.
  void return_undefined(Worker& w, F* f, const CallSite& s, const Bottom* bottom) {
    const Schedule& fs = *f->code;
    for (std::uint32_t r : fs.return_slots[s.local])
      f->slots[r] = Token::undefined(bottom);
    signal(w, f, fs.return_block[s.local], 1);
  }

  // Running out of fuel or frames is one event: every later refusal shares its record.
  const Bottom* fuel_exhausted(const F* f, const CallSite& s) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (fuel_bottom_) return fuel_bottom_;
    }
    const Bottom* b = make_bottom(f, s.pos, fuel_exhausted_error(g_, s, budgets_.calls_made()));
    std::lock_guard<std::mutex> l(mu_);
    if (!fuel_bottom_) fuel_bottom_ = b;
    return fuel_bottom_;
  }

  const Bottom* frames_exhausted(const F* f, const CallSite& s) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (frames_bottom_) return frames_bottom_;
    }
    const Bottom* b = make_bottom(f, s.pos, frames_exhausted_error(g_, s, o_.max_frames));
    std::lock_guard<std::mutex> l(mu_);
    if (!frames_bottom_) frames_bottom_ = b;
    return frames_bottom_;
  }

  // W.rd_V(x:T. N) on the host: the redex with its letrec groups, evaluated by the compiled
  // evaluator (symbolic evaluation and R, Fig. 2) with the graph's remaining fuel.
  void fire_rd(F* f, const ScheduledNode& n, const std::uint32_t* in) {
    std::vector<double> x(n.nin);
    for (std::uint32_t i = 0; i < n.nin; ++i)
      x[i] = f->slots[in[i]].value();
    Value<double> r;
    try {
      std::lock_guard<std::mutex> l(mu_);
      std::uint64_t calls = 0;
      try {
        r = evaluate_rd(*n.info->rd, x.data(), o_.eval,
                        static_cast<std::uint64_t>(std::max<std::int64_t>(0, budgets_.fuel_left())),
                        budgets_.calls_made(), names_, calls);
      } catch (...) {
        budgets_.spend_fuel(static_cast<std::int64_t>(calls));
        throw;
      }
      budgets_.spend_fuel(static_cast<std::int64_t>(calls));
    } catch (const Undefined& e) {
      emit_all(f, n, Token::undefined(make_bottom(f, n.pos, e)));
      return;
    } catch (const BudgetExceeded&) {
      emit_all(f, n, Token::undefined(budget_exhausted(f, n.pos, n.info->loc)));
      return;
    }
    if (r.empty()) {
      f->slots[n.out] = Token::live(0);
      return;
    }
    for (std::uint32_t j = 0; j < n.nout; ++j)
      f->slots[n.out + j] = Token::live(r[j]);
  }
};

}  // namespace

Value<double> run_graph(const Graph& g, const std::vector<Value<double>>& inputs,
                        const GraphOptions& options, NameSupply& names, GraphStats* stats) {
  if (options.threads <= 1) {
    Executor<false> ex(g, options, names);
    return ex.run(inputs, stats);
  }
  if constexpr (!kThreadsAvailable) {
    throw InternalError("internal error: a graph run at " + std::to_string(options.threads) +
                        " threads in a build without threads");
  } else {
    Executor<true> ex(g, options, names);
    return ex.run(inputs, stats);
  }
}

}  // namespace adlang::graph
