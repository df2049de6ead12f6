#include "viz/trace_graph.hpp"

#include <algorithm>
#include <unordered_map>

#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "lang/rename.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/undefined.hpp"
#include "viz/operand_order.hpp"

namespace adlang {

namespace {

// The label of an operator's node: the infix symbol of the arithmetic ones, as written, with
// the operands named where their order matters ("a / b"; the edges are labelled a and b).
// Other operators whose operands' order matters have their edges numbered.
void label_operation(const Op& op, std::size_t operands, TraceGraphNode& n) {
  const char* infix = op.infix_symbol();
  n.label = op.kind() == OpKind::Neg ? "-" : infix ? infix : op.name();  // as the printer writes
  if (operands < 2 || !operands_ordered(op)) return;  // a pair variable is one operand
  if (infix && operands == 2) {
    n.label = std::string("a ") + infix + " b";
    n.operand_labels = {"a", "b"};
    return;
  }
  for (std::size_t k = 1; k <= operands; ++k)
    n.operand_labels.push_back(std::to_string(k));
}

struct Binding {
  Name name;
  Term bound;  // an atom (value term of atoms) or one operation on atoms
};

// A-normal form: every operation bound to its own variable, in evaluation order.
class Normalizer {
 public:
  explicit Normalizer(NameSupply& names) : names_(names) {}
  std::vector<Binding> chain;

  // The atom (a value term) that t's value is, after appending t's operations to the chain.
  Term atom(const Term& t) {
    Term s = shallow(t);
    if (is_value(s)) return s;
    Name y = names_.fresh("t");
    chain.push_back(Binding{y, s});
    return mk::var(y, s.type(), s.loc());
  }

  // t with its operands made atoms (an atom, or one operation on atoms); the lets of t are
  // appended to the chain, each bound to its own operation.
  Term shallow(const Term& t) {
    switch (t.kind()) {
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
        return t;
      case TermKind::Pair:
        return mk::pair(atom(t.as<Pair>()->first), atom(t.as<Pair>()->second), t.loc());
      case TermKind::Let: {
        const Let* l = t.as<Let>();
        chain.push_back(Binding{l->var, shallow(l->bound)});
        return shallow(l->body);
      }
      case TermKind::Add: {
        Term a = atom(t.as<Add>()->lhs);
        Term b = atom(t.as<Add>()->rhs);
        return mk::add(a, b, t.loc());
      }
      case TermKind::Op:
        return mk::op(t.as<OpApp>()->op, atom(t.as<OpApp>()->arg), t.loc());
      case TermKind::Fst:
        return mk::fst(atom(t.as<Fst>()->arg), t.loc());
      case TermKind::Snd:
        return mk::snd(atom(t.as<Snd>()->arg), t.loc());
      case TermKind::If:
      case TermKind::LetRec:
      case TermKind::Call:
      case TermKind::Rd:
        break;
    }
    throw InternalError("internal error: trace graph of a term that is not a trace term");
  }

 private:
  NameSupply& names_;
};

template <class S>
class GraphBuilder {
 public:
  GraphBuilder(const ValueEnv<S>& rho, const NameSet& user_names, EvalContext& cx)
      : rho_(rho), user_names_(user_names), env_(rho), cx_(cx) {}

  TraceGraph build(const Term& trace, const std::optional<AdjointRequest>& adjoints,
                   std::size_t max_nodes) {
    NameSet avoid = free_vars(trace);
    Normalizer norm(cx_.names);
    Term result = norm.atom(rename_apart(trace, avoid, cx_.names));
    const std::vector<Binding>& chain = norm.chain;
    if (chain.size() > max_nodes) {
      throw Undefined(UndefinedKind::TraceSize, trace.loc(),
                      "the trace has " + std::to_string(chain.size()) +
                          " operations, too many to draw (at most " + std::to_string(max_nodes) +
                          ")",
                      {"draw a smaller instance of the program (smaller inputs, fewer steps)"});
    }
    // Nodes and primal values, binding by binding.
    std::vector<std::size_t> binding_node(chain.size(), kNone);
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const Binding& b = chain[i];
      Value<S> v = ordinary_eval(b.bound, env_, nullptr, cx_);
      if (const Var* alias = b.bound.as<Var>()) {
        // `let y = x`: y names x's node too (a call's parameter, a user's let of a value).
        std::size_t n = node_for_var(alias->name, alias->type());
        name_node(n, b.name);
        node_of_[b.name] = n;
      } else {
        std::size_t n = node_for(b.bound);
        name_node(n, b.name);
        TraceGraphNode& node = graph_.nodes[n];
        node.value = print_value<S>(b.bound.type(), v);
        node_of_[b.name] = n;
        binding_node[i] = n;
      }
      env_.push(b.name, std::move(v));
    }
    graph_.output = atom_node(result);
    if (adjoints) add_adjoints(chain, result, binding_node, *adjoints);
    return graph_;
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const ValueEnv<S>& rho_;
  const NameSet& user_names_;
  ValueEnv<S> env_;
  EvalContext& cx_;
  TraceGraph graph_;
  std::unordered_map<Name, std::size_t, NameHash> node_of_;

  // Adds `x` to node n's names if the program's text has it.
  void name_node(std::size_t n, Name x) {
    if (!user_names_.count(x)) return;
    std::vector<std::string>& names = graph_.nodes[n].names;
    if (std::find(names.begin(), names.end(), x.str()) == names.end()) names.push_back(x.str());
  }

  std::size_t add(TraceGraphNode n) {
    graph_.nodes.push_back(std::move(n));
    return graph_.nodes.size() - 1;
  }

  std::size_t node_for_var(Name x, Type t) {
    auto it = node_of_.find(x);
    if (it != node_of_.end()) return it->second;
    const Value<S>* v = rho_.lookup(x);
    internal_check(v != nullptr, "trace graph: unbound variable");
    TraceGraphNode n;
    n.kind = TraceGraphNode::Kind::Input;
    n.names = {x.str()};
    n.value = print_value<S>(t, *v);
    return node_of_[x] = add(std::move(n));
  }

  // The node of an atom: a variable's node, a literal (a node at each use), or a tuple of
  // atoms.
  std::size_t atom_node(const Term& a) {
    switch (a.kind()) {
      case TermKind::Var:
        return node_for_var(a.as<Var>()->name, a.type());
      case TermKind::Literal:
      case TermKind::Unit: {
        TraceGraphNode n;
        n.kind = TraceGraphNode::Kind::Constant;
        n.label = a.kind() == TermKind::Unit ? "*" : a.as<Literal>()->text;
        n.value = a.kind() == TermKind::Unit
                      ? "*"
                      : print_value<S>(a.type(), Value<S>{literal_value<S>(*a.as<Literal>())});
        return add(std::move(n));
      }
      case TermKind::Pair:
        return node_for(a);
      case TermKind::Add:
      case TermKind::Op:
      case TermKind::Let:
      case TermKind::Fst:
      case TermKind::Snd:
      case TermKind::If:
      case TermKind::LetRec:
      case TermKind::Call:
      case TermKind::Rd:
        break;
    }
    throw InternalError("internal error: trace graph: not an atom");
  }

  // The operands of an operation on `arg`: the components of a tuple of atoms, one each.
  void operands(const Term& arg, std::vector<std::size_t>& out) {
    if (const Pair* p = arg.as<Pair>()) {
      operands(p->first, out);
      operands(p->second, out);
      return;
    }
    out.push_back(atom_node(arg));
  }

  std::size_t node_for(const Term& op) {
    TraceGraphNode n;
    switch (op.kind()) {
      case TermKind::Op:
        operands(op.as<OpApp>()->arg, n.operands);
        label_operation(op.as<OpApp>()->op, n.operands.size(), n);
        break;
      case TermKind::Add:
        n.label = "+";
        n.operands = {atom_node(op.as<Add>()->lhs), atom_node(op.as<Add>()->rhs)};
        break;
      case TermKind::Fst:
        n.label = "fst";
        n.operands = {atom_node(op.as<Fst>()->arg)};
        break;
      case TermKind::Snd:
        n.label = "snd";
        n.operands = {atom_node(op.as<Snd>()->arg)};
        break;
      case TermKind::Pair:  // a tuple's components are ordered
        operands(op, n.operands);
        if (n.operands.size() == 2) {
          n.label = "(a, b)";
          n.operand_labels = {"a", "b"};
        } else {
          n.label = "tuple";
          for (std::size_t k = 1; k <= n.operands.size(); ++k)
            n.operand_labels.push_back(std::to_string(k));
        }
        break;
      case TermKind::Literal:
      case TermKind::Unit:  // a let-bound constant: a node of its own (named by the caller)
        n.kind = TraceGraphNode::Kind::Constant;
        n.label = op.kind() == TermKind::Unit ? "*" : op.as<Literal>()->text;
        break;
      case TermKind::Var:
      case TermKind::Let:
      case TermKind::If:
      case TermKind::LetRec:
      case TermKind::Call:
      case TermKind::Rd:
        throw InternalError("internal error: trace graph: not an operation");
    }
    if (op.kind() == TermKind::Pair) {
      ValueEnv<S> scratch = env_;
      n.value = print_value<S>(op.type(), ordinary_eval(op, scratch, nullptr, cx_));
    }
    return add(std::move(n));
  }

  // let y_{i+1} = D_{i+1} in ... in result: what follows binding i.
  static Term suffix(const std::vector<Binding>& chain, std::size_t from, const Term& result) {
    Term t = result;
    for (std::size_t j = chain.size(); j-- > from;)
      t = mk::let(chain[j].name, chain[j].bound.type(), chain[j].bound, t);
    return t;
  }

  std::string adjoint_of(const Term& w, Name y, Type t, const Value<S>& at, const Term& rest,
                         ValueEnv<S>& env) {
    Name z = cx_.names.fresh("v");
    env.push(z, at);
    Term d = cx_.options.reverse_deriv(w, mk::var(z, t), y, t, rest, cx_.names,
                                       cx_.derivative_steps_left(), &cx_.derivative);
    Value<S> a = ordinary_eval(d, env, nullptr, cx_);
    env.pop();
    return print_value<S>(t, a);
  }

  void add_adjoints(const std::vector<Binding>& chain, const Term& result,
                    const std::vector<std::size_t>& binding_node, const AdjointRequest& req) {
    graph_.wrt = req.wrt.str();
    ValueEnv<S> scratch;
    graph_.cotangent =
        print_value<S>(req.cotangent.type(), ordinary_eval(req.cotangent, scratch, nullptr, cx_));
    // The input: W.R_V(x:T. C).
    ValueEnv<S> env = rho_;
    const Value<S>* xv = rho_.lookup(req.wrt);
    internal_check(xv != nullptr, "trace graph: the input to differentiate has no value");
    auto x_node = node_of_.find(req.wrt);
    std::string x_adjoint =
        adjoint_of(req.cotangent, req.wrt, req.wrt_type, *xv, suffix(chain, 0, result), env);
    if (x_node != node_of_.end()) graph_.nodes[x_node->second].adjoint = x_adjoint;
    // Each binding y = D: W.R_y(y:S. E), E the rest of the trace.
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const Binding& b = chain[i];
      Value<S> v = ordinary_eval(mk::var(b.name, b.bound.type()), env_, nullptr, cx_);
      env.push(b.name, v);
      if (binding_node[i] == kNone) continue;
      graph_.nodes[binding_node[i]].adjoint =
          adjoint_of(req.cotangent, b.name, b.bound.type(), v, suffix(chain, i + 1, result), env);
    }
  }
};

}  // namespace

template <class S>
TraceGraph trace_graph(const Term& trace, const ValueEnv<S>& rho, const NameSet& user_names,
                       const std::optional<AdjointRequest>& adjoints, EvalContext& cx,
                       std::size_t max_nodes) {
  return GraphBuilder<S>(rho, user_names, cx).build(trace, adjoints, max_nodes);
}

template TraceGraph trace_graph<double>(const Term&, const ValueEnv<double>&, const NameSet&,
                                        const std::optional<AdjointRequest>&, EvalContext&,
                                        std::size_t);
template TraceGraph trace_graph<Mpfr50>(const Term&, const ValueEnv<Mpfr50>&, const NameSet&,
                                        const std::optional<AdjointRequest>&, EvalContext&,
                                        std::size_t);
template TraceGraph trace_graph<Mpfr100>(const Term&, const ValueEnv<Mpfr100>&, const NameSet&,
                                         const std::optional<AdjointRequest>&, EvalContext&,
                                         std::size_t);
template TraceGraph trace_graph<Rational>(const Term&, const ValueEnv<Rational>&, const NameSet&,
                                          const std::optional<AdjointRequest>&, EvalContext&,
                                          std::size_t);

}  // namespace adlang
