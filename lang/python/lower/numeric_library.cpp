// The library functions the lowering knows (docs/python.md, "Library"): Python's math and
// builtins, and TensorFlow's scalar operations, by their qualified names (imports resolved:
// `tf.less` is tensorflow.less). TensorFlow's conventions are TensorFlow's: tf.mod is floormod
// (the sign of the divisor), tf.cond is `if`, tf.constant and tf.identity are their argument.
#include <algorithm>
#include <map>
#include <string_view>

#include "lang/op.hpp"
#include "lang/operators.hpp"
#include "lang/python/lower/lowerer.hpp"

namespace adlang::py {

namespace {

// Unary operators of the language, by library name: `module.name` for each module the
// operator table gives the operator (OpDefinition::python_modules).
const std::map<std::string, std::string>& unary_ops() {
  static const std::map<std::string, std::string> m = [] {
    std::map<std::string, std::string> names;
    for (const OpDefinition& d : kOpDefinitions) {
      for (std::string_view modules = d.python_modules; !modules.empty();) {
        std::size_t end = std::min(modules.find(' '), modules.size());
        names.emplace(std::string(modules.substr(0, end)) + "." + std::string(d.name),
                      std::string(d.name));
        modules.remove_prefix(std::min(end + 1, modules.size()));
      }
    }
    return names;
  }();
  return m;
}

const std::map<std::string, BinOp>& binary_ops() {
  static const std::map<std::string, BinOp> m = {
      {"tf.add", BinOp::Plus},       {"tf.subtract", BinOp::Minus}, {"tf.sub", BinOp::Minus},
      {"tf.multiply", BinOp::Times}, {"tf.mul", BinOp::Times},      {"tf.divide", BinOp::Divide},
      {"tf.div", BinOp::Divide},     {"tf.truediv", BinOp::Divide}, {"tf.realdiv", BinOp::Divide},
  };
  return m;
}

const std::map<std::string, std::string>& comparisons() {
  static const std::map<std::string, std::string> m = {
      {"tf.less", "Lt"},           {"tf.less_equal", "LtE"}, {"tf.greater", "Gt"},
      {"tf.greater_equal", "GtE"}, {"tf.equal", "Eq"},       {"tf.not_equal", "NotEq"},
  };
  return m;
}

PredKind pred_of(const std::string& op, bool& negated) {
  negated = op == "NotEq";
  if (op == "Lt") return PredKind::Lt;
  if (op == "LtE") return PredKind::Le;
  if (op == "Gt") return PredKind::Gt;
  if (op == "GtE") return PredKind::Ge;
  return PredKind::Eq;
}

}  // namespace

bool is_operator_function(const std::string& library_name) {
  return unary_ops().count(library_name) > 0;
}

std::string library_name(std::string q) {
  // Spellings TensorFlow accepts for the same operation.
  for (const char* p :
       {"tensorflow.compat.v1.math.", "tensorflow.compat.v1.nn.", "tensorflow.compat.v1.",
        "tensorflow.math.", "tensorflow.nn.", "tensorflow."}) {
    std::string pre = p;
    if (q.rfind(pre, 0) == 0) return "tf." + q.substr(pre.size());
  }
  return q;
}

Value Lowerer::lower_library_call(const Node& e, const std::string& qualified, Scope& scope) {
  std::string q = library_name(qualified);
  SourceLoc l = loc(e);
  auto real = [](Syntax s) { return Value{s, Shape::real()}; };
  auto scalar = [&](const Value& v, const Node& at) {
    if (!v.shape.is_scalar())
      refuse(at, "'" + qualified + "' of " + to_string(v.shape) + " cannot be lowered");
    return v.syntax;
  };
  std::set<std::string> name_kw = {"name"};

  if (q == "tf.cond") return lower_cond_call(e, scope);
  if (q == "tf.gradients") return lower_gradients(e, scope);
  if (q == "tf.constant" || q == "tf.identity" || q == "tf.convert_to_tensor") {
    const auto& args = call_args(e);
    if (!args.empty() && (args[0]->is(Kind::List) || args[0]->is(Kind::Tuple)))
      refuse(*args[0], "tensors of rank > 0 cannot be lowered");
    for (const NodePtr& k : call_keywords(e)) {
      const std::string& kw = k->text("arg");
      if (kw == "shape") refuse(*k, "tensors of rank > 0 cannot be lowered");
      if (kw != "dtype" && kw != "name") refuse(*k, "this keyword argument cannot be lowered");
    }
    std::vector<Value> v = positional_args(e, scope, 1, 2, {"dtype", "name"});
    return v[0];
  }
  if (q == "float" || q == "tf.to_float" || q == "tf.to_double") {
    std::vector<Value> v = positional_args(e, scope, 1, 1, name_kw);
    return real(scalar(v[0], e));
  }
  if (q == "tf.cast") {
    std::vector<Value> v = positional_args(e, scope, 1, 2, {"dtype", "name"});
    const Node* dt = call_args(e).size() > 1 ? call_args(e)[1].get() : nullptr;
    if (const Node* k = find_keyword(e, "dtype")) dt = k->child("value");
    std::optional<std::string> t = dt ? qualified_name(*dt) : std::nullopt;
    if (t && (t->find("float") != std::string::npos)) return real(scalar(v[0], e));
    if (!t || t->find("int") == std::string::npos)
      refuse(e, "tf.cast is lowered to float and int types only");
    return lower_library_call(e, "int", scope);
  }
  if (q == "int") {
    if (!Op::lookup("floor")) refuse(e, "int() needs the operator floor");
    std::vector<Value> v = positional_args(e, scope, 1, 2, {"dtype", "name"});
    std::vector<std::pair<Name, Syntax>> lets;
    Syntax x = shared(scalar(v[0], e), lets);
    Name floor("floor");
    // int(x) truncates toward zero: floor(x) for x >= 0, -floor(-x) below.
    Syntax r = syn_if(syn_compare(PredKind::Lt, x, syn_number("0", l), l),
                      syn_neg(syn_call(floor, {syn_neg(x, l)}, l), l), syn_call(floor, {x}, l), l);
    return real(wrap_lets(lets, r));
  }
  if (auto it = unary_ops().find(q); it != unary_ops().end()) {
    if (!Op::lookup(it->second)) refuse(e, "the operator " + it->second + " is not available");
    std::vector<Value> v = positional_args(e, scope, 1, 1, name_kw);
    return real(syn_call(Name(it->second), {scalar(v[0], e)}, l));
  }
  if (auto it = binary_ops().find(q); it != binary_ops().end()) {
    std::vector<Value> v = positional_args(e, scope, 2, 2, name_kw);
    return real(syn_binary(it->second, scalar(v[0], e), scalar(v[1], e), l));
  }
  if (q == "tf.negative") {
    std::vector<Value> v = positional_args(e, scope, 1, 1, name_kw);
    return real(syn_neg(scalar(v[0], e), l));
  }
  if (q == "tf.square" || q == "numpy.square") {
    std::vector<Value> v = positional_args(e, scope, 1, 1, name_kw);
    std::vector<std::pair<Name, Syntax>> lets;
    Syntax x = shared(scalar(v[0], e), lets);
    return real(wrap_lets(lets, syn_binary(BinOp::Times, x, x, l)));
  }
  if (q == "tf.mod" || q == "tf.floormod" || q == "tf.floordiv" || q == "tf.floor_div") {
    if (!Op::lookup("floor")) refuse(e, "'" + qualified + "' needs the operator floor");
    std::vector<Value> v = positional_args(e, scope, 2, 2, name_kw);
    std::vector<std::pair<Name, Syntax>> lets;
    Syntax x = shared(scalar(v[0], e), lets);
    Syntax y = shared(scalar(v[1], e), lets);
    Syntax fl = syn_call(Name("floor"), {syn_binary(BinOp::Divide, x, y, l)}, l);
    if (q == "tf.floordiv" || q == "tf.floor_div") return real(wrap_lets(lets, fl));
    return real(
        wrap_lets(lets, syn_binary(BinOp::Minus, x, syn_binary(BinOp::Times, fl, y, l), l)));
  }
  if (q == "abs" || q == "tf.abs" || q == "math.fabs" || q == "numpy.abs") {
    std::vector<Value> v = positional_args(e, scope, 1, 1, name_kw);
    std::vector<std::pair<Name, Syntax>> lets;
    Syntax x = shared(scalar(v[0], e), lets);
    return real(wrap_lets(
        lets, syn_if(syn_compare(PredKind::Lt, x, syn_number("0", l), l), syn_neg(x, l), x, l)));
  }
  if (q == "max" || q == "min" || q == "tf.maximum" || q == "tf.minimum") {
    std::vector<Value> v = positional_args(e, scope, 2, 2, name_kw);
    std::vector<std::pair<Name, Syntax>> lets;
    Syntax x = shared(scalar(v[0], e), lets);
    Syntax y = shared(scalar(v[1], e), lets);
    bool is_max = q == "max" || q == "tf.maximum";
    // max(x, y) is x unless y > x, as Python's max returns the first of equal arguments.
    Syntax g = syn_compare(is_max ? PredKind::Gt : PredKind::Lt, y, x, l);
    return real(wrap_lets(lets, syn_if(g, y, x, l)));
  }
  if (auto it = comparisons().find(q); it != comparisons().end()) {
    std::vector<Value> v = positional_args(e, scope, 2, 2, name_kw);
    bool negated = false;
    PredKind p = pred_of(it->second, negated);
    Syntax g = syn_compare(p, scalar(v[0], e), scalar(v[1], e), l);
    Syntax one = syn_number("1", l), zero = syn_number("0", l);
    return Value{negated ? syn_if(g, zero, one, l) : syn_if(g, one, zero, l), Shape::boolean()};
  }
  if (q == "tf.logical_not") {
    std::vector<Value> v = positional_args(e, scope, 1, 1, name_kw);
    Syntax g = syn_compare(PredKind::Eq, scalar(v[0], e), syn_number("1", l), l);
    return Value{syn_if(g, syn_number("0", l), syn_number("1", l), l), Shape::boolean()};
  }
  if (q == "tf.logical_and" || q == "tf.logical_or") {
    std::vector<Value> v = positional_args(e, scope, 2, 2, name_kw);
    Syntax g = syn_compare(PredKind::Eq, scalar(v[0], e), syn_number("1", l), l);
    Syntax r = q == "tf.logical_and" ? syn_if(g, scalar(v[1], e), syn_number("0", l), l)
                                     : syn_if(g, syn_number("1", l), scalar(v[1], e), l);
    return Value{r, Shape::boolean()};
  }
  if (q == "print")
    refuse(e, "print is lowered only as the module's last statement",
           {"the program's term is the module's last statement: an expression or print(E)"});
  if (q == "open" || q == "input" || q == "tf.print" || q == "tf.io.write_file")
    refuse(e, "I/O other than the program's final print cannot be lowered");
  if (q == "tf.placeholder")
    refuse(e, "tf.placeholder is lowered only as `name = tf.placeholder(...)` at the top level");
  if (q == "tf.Variable" || q == "tf.get_variable")
    refuse(e, "TensorFlow variables (mutable state) cannot be lowered",
           {"use tf.constant or a placeholder for an input"});
  refuse(e, "the function '" + qualified + "' cannot be lowered",
         {"lowered: math and TensorFlow scalar operations, tf.cond, tf.gradients, and the "
          "program's own functions (docs/python.md)"});
}

}  // namespace adlang::py
