// The export family: the plain-Python export (conform/python_export.hpp) means what the program
// means. Run on request only (`adlang check --property export-round-trip`): it runs each
// program in Python, through one plain-Python adapter process (conform/adapter.hpp) kept for
// the whole run.
#include "conform/export_property.hpp"

#include <mutex>

#include "checker/property_case.hpp"
#include "conform/adapter.hpp"
#include "conform/python_export.hpp"

namespace adlang::checker {

namespace {

// Compares the export's answer with adlang's result for one call.
template <class S>
Outcome compare(const std::string& what, const Result<S>& adlang, const conform::CallResult& python,
                Type t) {
  if (adlang.state == Result<S>::Resource) return discard(adlang.reason);
  if (!python.ok) {
    if (adlang.bottom()) return both_undefined();
    return fail(what + ": adlang gives " + show(adlang, t) + ", the Python export raises " +
                python.error);
  }
  std::vector<double> got;
  if (!conform::protocol_reals(python.value, got))
    return fail(what + ": the Python export gives " + python.value);
  if (adlang.bottom()) {
    // math.sqrt(0) and math.floor(2) have values: the plain export's operators follow Python's
    // math at the boundary of their open domain; a strict tie must still raise Undefined.
    if (adlang.bottom_of && adlang.bottom_of->kind() == UndefinedKind::OpDomain)
      return discard("outside an operator's open domain, where Python's math has a value");
    return fail(what + ": adlang gives " + show(adlang, t) + ", the Python export gives " +
                python.value);
  }
  Value<S> v;
  for (double g : got)
    v.push_back(S(g));
  if (!numerics::close(v, adlang.value))
    return fail(what + ": adlang gives " + show(adlang, t) + ", the Python export gives " +
                python.value);
  return pass();
}

struct ExportRoundTrip {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome ExportRoundTrip::check(Case<S>& k) {
  static std::mutex adapter_mutex;
  static conform::Adapter adapter(conform::adapter_command("python"), 10);
  const Program& p = k.program();
  auto d = k.differentiation();
  if (!d) return discard("no input to differentiate with respect to");
  std::vector<TypedName> inputs = typed(p.inputs);
  std::size_t wrt = 0;
  while (p.inputs[wrt].name != d->x.name)
    ++wrt;
  conform::ExportOptions options;
  options.target = conform::ExportTarget::Python;
  options.predicates = k.config().predicates;
  std::string source;
  try {
    source = conform::export_python({conform::ExportEntry{"main", inputs, p.term},
                                     conform::gradient_entry(p.term, inputs, wrt, k.names())},
                                    options, k.names());
  } catch (const conform::ExportTooLarge& e) {
    return discard(e.what());
  }
  std::vector<std::string> args;
  for (const Input& in : p.inputs)
    args.push_back(conform::protocol_value(in.type, in.scalars));
  std::vector<std::string> gargs{conform::protocol_value(p.term.type(), d->w_scalars)};
  gargs.insert(gargs.end(), args.begin(), args.end());
  conform::AdapterReply reply;
  {
    std::lock_guard<std::mutex> lock(adapter_mutex);
    reply = adapter.run(source, program_text(p), {{"main", args}, {"gradient", gargs}});
  }
  if (reply.status != conform::AdapterReply::Answered)
    return fail(std::string("the Python adapter: ") + conform::to_string(reply.status) + ": " +
                reply.detail);
  Result<S> value = k.run(p.term, p.inputs);
  Result<S> gradient = k.run(d->rd, d->rest);
  Outcome v = compare("the value", value, reply.results[0], p.term.type());
  if (v.verdict == Verdict::Fail || v.verdict == Verdict::Discard) return v;
  Outcome g = compare("the gradient " + d->where, gradient, reply.results[1], d->x.type);
  if (g.verdict != Verdict::Pass) return g;
  return v;
}

// Programs with an input to differentiate with respect to.
GenConfig export_generator(unsigned max_size) {
  GenConfig g = default_generator(max_size);
  g.min_inputs = 1;
  return g;
}

}  // namespace

const std::vector<PropertyInfo>& export_properties() {
  static const std::vector<PropertyInfo> table{property_entry<ExportRoundTrip>(
      "export-round-trip", "export", "Sec. 3 (the export means what the program means)",
      "the plain-Python export computes adlang run's value and adlang diff's derivative",
      PrecisionRule::DoubleOnly, &export_generator)};
  return table;
}

void add_export_properties() {
  add_on_request_properties(export_properties());
}

}  // namespace adlang::checker
