// The graph family: graph-agrees, the tagged dataflow graph (semantics/graph, thesis Secs. 3-5)
// against the compiled evaluator, bit for bit.
#include "checker/graph_agrees.hpp"

#include <chrono>
#include <optional>
#include <sstream>
#include <type_traits>

#include "checker/numerics.hpp"
#include "checker/property_case.hpp"
#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/graph/partition.hpp"
#include "semantics/graph/partitioned_executor.hpp"
#include "semantics/graph/placement.hpp"
#include "semantics/graph/reference_executor.hpp"
#include "support/stack.hpp"
#include "support/threads.hpp"

namespace adlang::checker {
namespace {

struct Run {
  bool defined = false;
  Value<double> value;
  UndefinedKind kind = UndefinedKind::OpDomain;
  std::string reason;
  SourceLoc loc;  // of the undefinedness
  // The graph's run exceeded its bound (graph::RunBound): `reason` says which.
  bool out_of_bound = false;
  double seconds = 0;  // how long the run took
};

template <class F>
Run attempt_run(F&& f) {
  Run r;
  const auto start = std::chrono::steady_clock::now();
  try {
    r.value = f();
    r.defined = true;
  } catch (const Undefined& e) {
    r.kind = e.kind();
    r.reason = std::string(to_string(e.kind())) + ": " + e.what();
    r.loc = e.loc();
  } catch (const graph::RunBoundExceeded& e) {
    r.out_of_bound = true;
    r.reason = e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

// The bound of one graph run, from the compiled evaluator's run of the same program.
graph::RunBound run_bound(const CheckConfig& config, const Run& compiled) {
  return graph::RunBound{config.graph_run_seconds + config.graph_run_ratio * compiled.seconds,
                         config.graph_run_memory};
}

// A graph run that exceeded its bound: the counterexample's text.
std::string out_of_bound(const char* variant, const Run& r, const Run& compiled) {
  std::ostringstream o;
  o << variant << ": " << r.reason << " (it ran " << r.seconds
    << " s; the compiled evaluator: " << compiled.seconds << " s)";
  return o.str();
}

std::string show(const Run& r, Type t) {
  if (!r.defined) return "undefined (" + r.reason + ")";
  std::ostringstream o;
  o.precision(17);
  o << print_value<double>(t, r.value) << " [";
  for (std::size_t i = 0; i < r.value.size(); ++i)
    o << (i ? " " : "") << r.value[i];
  o << "]";
  return o.str();
}

// What the graph properties evaluate with: the compiled evaluator's options, differentiating
// with the run-time tape as `adlang run` does (the Rd nodes use it too).
EvalOptions graph_eval_options(const CheckConfig& config) {
  EvalOptions eo;
  eo.predicates = config.predicates;
  eo.evaluator = Evaluator::Compiled;
  eo.fuel = config.fuel;
  eo.max_trace_nodes = config.max_trace_nodes;
  eo.max_rd_trace_nodes = config.max_trace_nodes;
  use_ad(eo, AdMode::Tape);
  eo.max_derivative_steps = config.max_linear_derivative_steps;
  return eo;
}

// The reference: M by the compiled evaluator.
Run compiled_run(const Term& term, const std::vector<std::pair<Name, Type>>& inputs,
                 const std::vector<Value<double>>& values, const EvalOptions& eo) {
  NameSupply names;
  reserve_names(term, names);
  return attempt_run([&] {
    ValueEnv<double> rho;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      rho.push(inputs[i].first, values[i]);
    EvalContext cx(eo, names);
    return compiled_eval(term, rho, cx);
  });
}

// One way of running a graph: engine, threads, deadness.
struct Variant {
  const char* name;
  graph::Engine engine;
  unsigned threads;
  graph::Deadness deadness;
};

using RunGraphFn = Value<double> (*)(const graph::Graph&, const std::vector<Value<double>>&,
                                     const graph::GraphOptions&, NameSupply&, graph::GraphStats*);

// A graph's two schedules (with guards, for elided deadness; without, for propagated), each made
// at its first run and shared by the property's later runs of that graph, as TensorFlow
// initialises an executor once per graph (semantics/graph/schedule.hpp). Making them at every
// run was a tenth of the checker's instructions.
class Schedules {
 public:
  explicit Schedules(const graph::Graph& g) : g_(g) {}
  const graph::GraphSchedule* of(graph::Deadness d) {
    std::optional<graph::GraphSchedule>& s = d == graph::Deadness::Elide ? elide_ : propagate_;
    if (!s) s = graph::make_graph_schedule(g_, /*with_guards=*/d == graph::Deadness::Elide);
    return &*s;
  }

 private:
  const graph::Graph& g_;
  std::optional<graph::GraphSchedule> elide_, propagate_;
};

// One run of `g` as variant `v`; `schedules` (of `g`) null for an executor that takes none.
Run run_variant(const Variant& v, const graph::Graph& g, Schedules* schedules, const Term& term,
                const std::vector<Value<double>>& values, const EvalOptions& eo, RunGraphFn run,
                const graph::RunBound& bound, graph::GraphStats* stats = nullptr) {
  graph::GraphOptions go;
  if (schedules) go.schedule = schedules->of(v.deadness);
  go.bound = bound;
  go.engine = v.engine;
  go.threads = v.threads;
  go.deadness = v.deadness;
  go.eval = eo;
  NameSupply gnames;
  reserve_names(term, gnames);
  return attempt_run([&] { return run(g, values, go, gnames, stats); });
}

// A program's inputs as the graph takes them: names and types, and their values.
void graph_inputs(const Program& program, std::vector<std::pair<Name, Type>>& inputs,
                  std::vector<Value<double>>& values) {
  for (const Input& in : program.inputs) {
    inputs.emplace_back(in.name, in.type);
    values.push_back(input_value<double>(in));
  }
}

}  // namespace

Outcome graph_agrees(const Program& program, const CheckConfig& config) {
  std::vector<std::pair<Name, Type>> inputs;
  std::vector<Value<double>> values;
  graph_inputs(program, inputs, values);
  return graph_agrees_on(program.term, inputs, values, config);
}

// The graph's undefinedness is the compiled evaluator's: the same kind, or a call the tracer
// proved to repeat forever (UndefinedKind::Repeats, semantics/repeated_call.hpp), which the graph,
// having no such check, meets as its fuel running out.
static bool same_undefinedness(UndefinedKind graph, UndefinedKind compiled) {
  return graph == compiled || (compiled == UndefinedKind::Repeats && graph == UndefinedKind::Fuel);
}

Outcome graph_agrees_on(const Term& term, const std::vector<std::pair<Name, Type>>& inputs,
                        const std::vector<Value<double>>& values, const CheckConfig& config) {
  const EvalOptions eo = graph_eval_options(config);
  Type t = term.type();
  Run compiled = compiled_run(term, inputs, values, eo);
  if (!compiled.defined && compiled.kind == UndefinedKind::TraceSize)
    return Outcome{Verdict::Discard, compiled.reason};

  graph::Graph g = graph::lower_to_graph(term, inputs, graph::RdLowering::Host);
  graph::verify(g);
  Schedules schedules(g);

  using graph::Deadness;
  using graph::Engine;
  const Variant variants[] = {
      {"static graph, 1 thread", Engine::Static, 1, Deadness::Elide},
      {"static graph, 4 threads", Engine::Static, 4, Deadness::Elide},
      {"static graph, 1 thread, dead tokens propagated", Engine::Static, 1, Deadness::Propagate},
      {"static graph, 4 threads, dead tokens propagated", Engine::Static, 4, Deadness::Propagate},
      {"dynamic graph, 1 thread", Engine::Dynamic, 1, Deadness::Elide},
      {"dynamic graph, 4 threads, dead tokens propagated", Engine::Dynamic, 4,
       Deadness::Propagate}};
  graph::GraphStats elided, propagated;  // of the two static runs at 1 thread
  for (const Variant& v : variants) {
    if (v.threads > 1 && !kThreadsAvailable) continue;  // the playground (support/threads.hpp)
    graph::GraphStats* stats = nullptr;
    if (v.engine == Engine::Static && v.threads == 1)
      stats = v.deadness == Deadness::Elide ? &elided : &propagated;
    Run r = run_variant(v, g, &schedules, term, values, eo, &graph::run_graph,
                        run_bound(config, compiled), stats);
    if (r.out_of_bound) return Outcome{Verdict::Fail, out_of_bound(v.name, r, compiled)};
    bool agree = compiled.defined ? (r.defined && numerics::identical(r.value, compiled.value))
                                  : (!r.defined && same_undefinedness(r.kind, compiled.kind));
    if (!agree) {
      return Outcome{Verdict::Fail, std::string("compiled evaluator: ") + show(compiled, t) + "\n" +
                                        v.name + ": " + show(r, t)};
    }
  }
  // Eliding deadness drops the dead tokens and nothing else: every other token fires the same
  // (docs/graph.md; this checks the schedule's jumps and read-through Switches, which only the
  // elided run has, against the propagated run, which has none).
  if (compiled.defined &&
      (elided.tokens != propagated.tokens - propagated.dead_tokens || elided.dead_tokens != 0 ||
       elided.calls != propagated.calls || elided.frames_created != propagated.frames_created)) {
    return Outcome{
        Verdict::Fail,
        "static graph, 1 thread: " + std::to_string(elided.tokens) + " tokens (" +
            std::to_string(elided.dead_tokens) + " dead), " + std::to_string(elided.calls) +
            " calls, " + std::to_string(elided.frames_created) +
            " frames; with dead tokens propagated: " + std::to_string(propagated.tokens) +
            " tokens (" + std::to_string(propagated.dead_tokens) + " dead), " +
            std::to_string(propagated.calls) + " calls, " +
            std::to_string(propagated.frames_created) + " frames"};
  }
  return Outcome{compiled.defined ? Verdict::Pass : Verdict::BothUndefined, ""};
}

// The statistics two runs must share: node firings, dead ones, calls, frames, saved values.
static std::string stats_text(const graph::GraphStats& s) {
  return std::to_string(s.tokens) + " tokens (" + std::to_string(s.dead_tokens) + " dead), " +
         std::to_string(s.calls) + " calls, " + std::to_string(s.frames_created) + " frames, " +
         std::to_string(s.saved_values) + " values saved";
}

Outcome graph_reference_agrees_on(const Term& term,
                                  const std::vector<std::pair<Name, Type>>& inputs,
                                  const std::vector<Value<double>>& values,
                                  const CheckConfig& config) {
  const EvalOptions eo = graph_eval_options(config);
  Type t = term.type();
  graph::Graph g = graph::lower_to_graph(term, inputs, graph::RdLowering::Host);
  graph::verify(g);
  Schedules schedules(g);
  // No compiled evaluator's time to scale by: the bound is its fixed part, twice.
  const graph::RunBound bound{2 * config.graph_run_seconds, config.graph_run_memory};
  using graph::Deadness;
  using graph::Engine;
  struct Pair {
    Variant fast;
    const char* reference;
  };
  const Pair pairs[] = {
      {{"static graph, 1 thread", Engine::Static, 1, Deadness::Elide}, "reference executor"},
      {{"static graph, 1 thread, dead tokens propagated", Engine::Static, 1, Deadness::Propagate},
       "reference executor, dead tokens propagated"},
      {{"static graph, 4 threads", Engine::Static, 4, Deadness::Elide}, "reference executor"}};
  bool defined = false;
  for (const Pair& pr : pairs) {
    const Variant& v = pr.fast;
    if (v.threads > 1 && !kThreadsAvailable) continue;  // the playground (support/threads.hpp)
    graph::GraphStats fast_stats, ref_stats;
    const bool one = v.threads == 1;
    Run fast = run_variant(v, g, &schedules, term, values, eo, config.impl.run_graph, bound,
                           one ? &fast_stats : nullptr);
    if (fast.out_of_bound) return Outcome{Verdict::Fail, std::string(v.name) + ": " + fast.reason};
    defined = fast.defined;
    const Variant rv{pr.reference, Engine::Static, 1, v.deadness};
    Run ref = run_variant(rv, g, nullptr, term, values, eo, &graph::run_graph_reference, bound,
                          &ref_stats);
    if (ref.out_of_bound) return Outcome{Verdict::Fail, std::string(rv.name) + ": " + ref.reason};
    // The same bits, or the same undefinedness (at one thread, where both are deterministic,
    // at the same place).
    const bool agree =
        fast.defined ? (ref.defined && numerics::identical(fast.value, ref.value))
                     : (!ref.defined && fast.kind == ref.kind && (!one || fast.loc == ref.loc));
    if (!agree) {
      auto at = [](const Run& x) {
        return x.defined ? std::string()
                         : " at " + std::to_string(x.loc.line) + ":" + std::to_string(x.loc.col);
      };
      return Outcome{Verdict::Fail, std::string(v.name) + ": " + show(fast, t) + at(fast) + "\n" +
                                        rv.name + ": " + show(ref, t) + at(ref)};
    }
    // The blocks fire what the nodes fire one by one (docs/graph.md, "Blocks": the statistics
    // are those of the node-level semantics).
    if (one && fast.defined &&
        (fast_stats.tokens != ref_stats.tokens || fast_stats.dead_tokens != ref_stats.dead_tokens ||
         fast_stats.calls != ref_stats.calls ||
         fast_stats.frames_created != ref_stats.frames_created ||
         fast_stats.saved_values != ref_stats.saved_values)) {
      return Outcome{Verdict::Fail, std::string(v.name) + ": " + stats_text(fast_stats) + "\n" +
                                        rv.name + ": " + stats_text(ref_stats)};
    }
  }
  return Outcome{defined ? Verdict::Pass : Verdict::BothUndefined, ""};
}

Outcome partitioned_agrees_on(const Term& term, const std::vector<std::pair<Name, Type>>& inputs,
                              const std::vector<Value<double>>& values, const CheckConfig& config,
                              Choices& choices) {
  const EvalOptions eo = graph_eval_options(config);
  Type t = term.type();
  Run compiled = compiled_run(term, inputs, values, eo);
  // Fuel and frames hold per partition: a run that exhausts them is not comparable.
  if (!compiled.defined &&
      (compiled.kind == UndefinedKind::TraceSize || compiled.kind == UndefinedKind::Fuel ||
       compiled.kind == UndefinedKind::Depth))
    return Outcome{Verdict::Discard, compiled.reason};
  graph::Graph g = graph::lower_to_graph(term, inputs, graph::RdLowering::Host);
  // A random placement, node by node (a call site kept whole), over 2 or 3 partitions.
  const std::uint32_t ranks = 2 + choices.below(2);
  std::vector<std::uint32_t> rank_of(g.nodes.size());
  for (std::uint32_t& r : rank_of)
    r = choices.below(ranks);
  graph::unite_call_sites(g, rank_of);
  graph::Partitioned p = graph::partition_graph(g, rank_of, ranks);
  graph::PartitionedOptions po;
  po.graph.deadness = graph::Deadness::Propagate;
  po.graph.eval = eo;
  NameSupply pnames;
  reserve_names(term, pnames);
  Run r = attempt_run([&] { return graph::run_partitioned(p, values, po, pnames); });
  bool agree = compiled.defined ? (r.defined && numerics::identical(r.value, compiled.value))
                                : (!r.defined && same_undefinedness(r.kind, compiled.kind));
  if (!agree) {
    std::string placement;
    for (std::uint32_t x : rank_of)
      placement += std::to_string(x);
    return Outcome{Verdict::Fail, std::string("compiled evaluator: ") + show(compiled, t) +
                                      "\npartitioned graph (" + std::to_string(ranks) +
                                      " partitions; node placement " + placement +
                                      "): " + show(r, t)};
  }
  return Outcome{compiled.defined ? Verdict::Pass : Verdict::BothUndefined, ""};
}

Outcome graph_rd_agrees_on(const Term& term, const std::vector<std::pair<Name, Type>>& inputs,
                           const std::vector<Value<double>>& values, const CheckConfig& config) {
  EvalOptions eo = graph_eval_options(config);
  use_ad(eo, AdMode::Linear);
  Type t = term.type();
  graph::Graph g = config.impl.lower_graph(term, inputs, graph::RdLowering::Adjoint);
  graph::verify(g);
  Schedules schedules(g);
  const bool inlined = g.inlined_rds() > 0;
  bool has_rd = false;
  for (const graph::Node& n : g.nodes)
    has_rd = has_rd || n.kind == graph::NodeKind::Rd;
  for (const graph::Body& b : g.bodies)
    has_rd = has_rd || b.role == graph::BodyRole::Adjoint;
  if (!has_rd && !inlined) return Outcome{Verdict::Discard, "no rd in the program"};
  Run linear = compiled_run(term, inputs, values, eo);
  if (!linear.defined && linear.kind == UndefinedKind::TraceSize)
    return Outcome{Verdict::Discard, linear.reason};

  using graph::Deadness;
  using graph::Engine;
  const Variant variants[] = {
      {"static graph, 1 thread", Engine::Static, 1, Deadness::Elide},
      {"static graph, 4 threads", Engine::Static, 4, Deadness::Elide},
      {"static graph, 4 threads, dead tokens propagated", Engine::Static, 4, Deadness::Propagate},
      {"dynamic graph, 1 thread, dead tokens propagated", Engine::Dynamic, 1, Deadness::Propagate}};
  // An rd inlined into its host (semantics/graph/inline_rd.hpp) computes what its two call
  // sites compute, on every variant: the same bits, or the same undefinedness (at one thread,
  // where it is deterministic, with the same reason and location).
  std::optional<graph::Graph> calls;
  std::optional<Schedules> call_schedules;  // of `calls`
  if (inlined) {
    calls = config.impl.lower_graph(term, inputs, graph::RdLowering::Calls);
    graph::verify(*calls);
    call_schedules.emplace(*calls);
  }
  std::optional<Run> first;
  for (const Variant& v : variants) {
    if (v.threads > 1 && !kThreadsAvailable) continue;  // the playground (support/threads.hpp)
    Run r = run_variant(v, g, &schedules, term, values, eo, config.impl.run_graph,
                        run_bound(config, linear));
    if (r.out_of_bound) return Outcome{Verdict::Fail, out_of_bound(v.name, r, linear)};
    if (calls) {
      Run c = run_variant(v, *calls, &*call_schedules, term, values, eo, config.impl.run_graph,
                          run_bound(config, linear));
      if (c.out_of_bound)
        return Outcome{Verdict::Fail,
                       out_of_bound((std::string(v.name) + ", rds called").c_str(), c, linear)};
      bool same = r.defined ? (c.defined && numerics::identical(r.value, c.value))
                            : (!c.defined && r.kind == c.kind &&
                               (v.threads > 1 || (r.reason == c.reason && r.loc == c.loc)));
      if (!same) {
        auto at = [](const Run& x) {
          return x.defined ? std::string()
                           : " at " + std::to_string(x.loc.line) + ":" + std::to_string(x.loc.col);
        };
        return Outcome{Verdict::Fail, std::string(v.name) + ", rds inlined: " + show(r, t) + at(r) +
                                          "\n" + v.name + ", rds called: " + show(c, t) + at(c)};
      }
    }
    // The adjoint graph adds the same contributions in the same order on every engine and
    // thread count; against the linear R (which may add them in another order) the values
    // agree within the checker's double tolerance (checker/numerics.hpp).
    bool agree = linear.defined ? (r.defined && (numerics::identical(r.value, linear.value) ||
                                                 numerics::close(r.value, linear.value)))
                                : (!r.defined && same_undefinedness(r.kind, linear.kind));
    if (agree && first && first->defined) agree = numerics::identical(r.value, first->value);
    if (!agree) {
      std::string what = std::string("compiled evaluator, linear R: ") + show(linear, t) + "\n" +
                         v.name + ": " + show(r, t);
      if (first) what += "\n" + std::string(variants[0].name) + ": " + show(*first, t);
      return Outcome{Verdict::Fail, what};
    }
    if (!first) first = r;
  }
  return Outcome{linear.defined ? Verdict::Pass : Verdict::BothUndefined, ""};
}

namespace {

// A graph property: the graph computes in double only, and must agree to the bit (no
// confirmation step). `on` checks the program's term on its inputs (graph_inputs).
template <Outcome (*on)(const Term&, const std::vector<std::pair<Name, Type>>&,
                        const std::vector<Value<double>>&, const CheckConfig&)>
struct OnGraphInputs {
  template <class S>
  static Outcome check(Case<S>& k) {
    if constexpr (std::is_same_v<S, double>) {
      std::vector<std::pair<Name, Type>> inputs;
      std::vector<Value<double>> values;
      graph_inputs(k.program(), inputs, values);
      return on(k.program().term, inputs, values, k.config());
    } else {  // PrecisionRule::DoubleOnly: the registry never runs it in another precision
      throw InternalError("internal error: a graph property run in a precision other than double");
    }
  }
};

using GraphAgrees = OnGraphInputs<&graph_agrees_on>;
using GraphReferenceAgrees = OnGraphInputs<&graph_reference_agrees_on>;
using GraphRdAgrees = OnGraphInputs<&graph_rd_agrees_on>;

struct PartitionedAgrees {
  template <class S>
  static Outcome check(Case<S>& k) {
    if constexpr (std::is_same_v<S, double>) {
      std::vector<std::pair<Name, Type>> inputs;
      std::vector<Value<double>> values;
      graph_inputs(k.program(), inputs, values);
      return partitioned_agrees_on(k.program().term, inputs, values, k.config(), k.rng());
    } else {  // PrecisionRule::DoubleOnly
      throw InternalError(
          "internal error: partitioned-agrees run in a precision other than double");
    }
  }
};

// The default programs, with recursions whose steps host rds (GenConfig::rd_in_step): the
// activations of those rds may outlive their host's frame (docs/graph-ad.md).
GenConfig graph_generator(unsigned max_size) {
  GenConfig g = default_generator(max_size);
  g.rd_in_step = 0.5;
  return g;
}

// Programs with rd more often than the default's (programs without one are discarded).
GenConfig rd_generator(unsigned max_size) {
  GenConfig g = graph_generator(max_size);
  g.rd_main = true;
  return g;
}

}  // namespace

std::vector<PropertyInfo> graph_properties() {
  PropertyInfo p = property_entry<GraphAgrees>(
      "graph-agrees", "graph", "thesis Secs. 3-5",
      kThreadsAvailable
          ? "the tagged dataflow graph (static, dynamic; 1 and 4 threads) = the compiled evaluator"
          : "the tagged dataflow graph (static, dynamic; 1 thread: this build has no threads) = "
            "the compiled evaluator",
      PrecisionRule::DoubleOnly, &graph_generator);
  p.bitwise = true;
  PropertyInfo q = property_entry<PartitionedAgrees>(
      "partitioned-agrees", "graph", "thesis Sec. 5.4",
      "the graph split over 2 or 3 partitions at random (one process) = the compiled evaluator",
      PrecisionRule::DoubleOnly, &default_generator);
  q.bitwise = true;
  PropertyInfo r = property_entry<GraphRdAgrees>(
      "graph-rd-agrees", "graph", "docs/graph-ad.md",
      kThreadsAvailable
          ? "rd in reverse mode inside the graph (forward and adjoint bodies; 1 and 4 threads) = "
            "the linear R"
          : "rd in reverse mode inside the graph (forward and adjoint bodies; 1 thread: this build "
            "has no threads) = the linear R",
      PrecisionRule::DoubleOnly, &rd_generator);
  r.bitwise = true;  // its tolerance is in the check: no confirmation in another precision
  PropertyInfo e = property_entry<GraphReferenceAgrees>(
      "graph-ref-agrees", "graph", "thesis Sec. 3.2",
      kThreadsAvailable
          ? "the graph's executor (1 and 4 threads, dead tokens elided and propagated) = the "
            "reference executor (one node at a time), value and firings"
          : "the graph's executor (1 thread: this build has no threads; dead tokens elided and "
            "propagated) = the reference executor (one node at a time), value and firings",
      PrecisionRule::DoubleOnly, &graph_generator);
  e.bitwise = true;
  return {p, e, r, q};
}

}  // namespace adlang::checker
