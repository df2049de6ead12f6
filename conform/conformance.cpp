#include "conform/conformance.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

#include "checker/numerics.hpp"
#include "checker/program_generator.hpp"
#include "checker/property_case.hpp"
#include "checker/shrink.hpp"
#include "lang/printer.hpp"

namespace adlang::conform {

const char* to_string(ConformClass c) {
  switch (c) {
    case ConformClass::Agree:
      return "agree";
    case ConformClass::BothUndefined:
      return "both undefined";
    case ConformClass::SystemDefinedWhereUndefined:
      return "system defined where undefined";
    case ConformClass::SystemUndefinedWhereDefined:
      return "system undefined where defined";
    case ConformClass::Disagree:
      return "disagree";
    case ConformClass::Skipped:
      return "skipped";
  }
  return "";
}

const char* json_key(ConformClass c) {
  switch (c) {
    case ConformClass::Agree:
      return "agree";
    case ConformClass::BothUndefined:
      return "both_undefined";
    case ConformClass::SystemDefinedWhereUndefined:
      return "system_defined_where_undefined";
    case ConformClass::SystemUndefinedWhereDefined:
      return "system_undefined_where_defined";
    case ConformClass::Disagree:
      return "disagree";
    case ConformClass::Skipped:
      return "skipped";
  }
  return "";
}

const char* to_string(ConformProperty p) {
  return p == ConformProperty::Value ? "value" : "gradient";
}

namespace {

using checker::Case;
using checker::CheckConfig;
using checker::Input;
using checker::Program;
using checker::Result;

// How bad a class is: a program's class is its calls' worst.
int severity(ConformClass c) {
  switch (c) {
    case ConformClass::Skipped:
      return 0;
    case ConformClass::Agree:
      return 1;
    case ConformClass::BothUndefined:
      return 2;
    case ConformClass::SystemDefinedWhereUndefined:
      return 3;
    case ConformClass::SystemUndefinedWhereDefined:
      return 4;
    case ConformClass::Disagree:
      return 5;
  }
  return 0;
}

// The paper's reasons for bottom, in the words of docs/conform.md.
std::string undefined_reason(UndefinedKind k) {
  switch (k) {
    case UndefinedKind::Predicate:
      return "strict tie";
    case UndefinedKind::OpDomain:
      return "outside an operator's open domain";
    case UndefinedKind::Fuel:
    case UndefinedKind::Unfold:
    case UndefinedKind::Depth:
    case UndefinedKind::Repeats:
      return "non-termination";
    case UndefinedKind::Range:
    case UndefinedKind::TraceSize:
    case UndefinedKind::Unsupported:
      break;
  }
  return "resource limit";
}

CheckConfig semantics_config(const ConformOptions& options, PredicateMode predicates) {
  CheckConfig c;
  c.predicates = predicates;
  c.den_predicates = predicates;
  c.fuel = options.fuel;
  c.max_trace_nodes = 2000000;
  c.linear_r = true;
  return c;
}

// The semantics' answer for `term` over the program's inputs.
Expectation expect(const Program& p, const Term& term, const ConformOptions& options) {
  CheckConfig strict = semantics_config(options, PredicateMode::Strict);
  Case<double> k(p, strict, 0);
  Result<double> r = k.run(term, p.inputs);
  Expectation e;
  if (r.defined()) {
    e.value.assign(r.value.begin(), r.value.end());
    e.shown = print_value<double>(term.type(), r.value);
    return e;
  }
  e.detail = r.reason;
  UndefinedKind kind = r.bottom_of ? r.bottom_of->kind() : UndefinedKind::Range;
  e.reason = undefined_reason(kind);
  e.state = e.reason == "resource limit" ? Expectation::GaveUp : Expectation::Undefined;
  if (e.state == Expectation::Undefined) {
    CheckConfig total = semantics_config(options, PredicateMode::Total);
    Case<double> kt(p, total, 0);
    Result<double> rt = kt.run(term, p.inputs);
    if (rt.defined()) e.total_predicates_value = print_value<double>(term.type(), rt.value);
  }
  return e;
}

bool close(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    double scale = 1 + std::max(std::fabs(a[i]), std::fabs(b[i]));
    if (!(std::fabs(a[i] - b[i]) <= kConformTolerance * scale)) return false;
  }
  return true;
}

// One call's class from the semantics' answer and the system's.
void classify_call(CallVerdict& v, const AdapterReply& reply, std::size_t index) {
  const Expectation& e = v.expected;
  if (e.state == Expectation::GaveUp) {
    v.cls = ConformClass::Skipped;
    v.reason = "the semantics gave up: " + e.detail;
    return;
  }
  std::string system_failure;  // empty if the system answered with a value
  std::vector<double> got;
  if (reply.status != AdapterReply::Answered) {
    system_failure = to_string(reply.status);
    v.system = system_failure + ": " + reply.detail;
  } else if (!reply.results[index].ok) {
    system_failure = "exception";
    v.system = reply.results[index].error;
  } else {
    v.system = reply.results[index].value;
    if (!protocol_reals(v.system, got)) {
      system_failure = "malformed reply";
    } else {
      for (double g : got) {
        if (std::isnan(g)) {
          system_failure = "nan";
          break;
        }
        if (std::isinf(g)) system_failure = "inf";
      }
    }
  }
  if (e.state == Expectation::Defined) {
    if (!system_failure.empty()) {
      v.cls = ConformClass::SystemUndefinedWhereDefined;
      v.reason = system_failure;
    } else if (close(got, e.value)) {
      v.cls = ConformClass::Agree;
    } else {
      v.cls = ConformClass::Disagree;
      v.reason = to_string(v.property);
    }
    return;
  }
  v.cls = system_failure.empty() ? ConformClass::SystemDefinedWhereUndefined
                                 : ConformClass::BothUndefined;
  v.reason = e.reason;
}

// The exported module with main and, for `wrt`, gradient.
std::string export_program(const Program& p, std::optional<std::size_t> wrt, ExportTarget target,
                           NameSupply& names) {
  std::vector<TypedName> inputs = checker::typed(p.inputs);
  std::vector<ExportEntry> entries{ExportEntry{"main", inputs, p.term}};
  if (wrt) entries.push_back(gradient_entry(p.term, inputs, *wrt, names));
  ExportOptions o;
  o.target = target;
  o.predicates = PredicateMode::Total;  // the system's own comparisons are what is tested
  o.origin = "A random program of adlang conform";
  return export_python(entries, o, names);
}

ExportTarget target_of(const Adapter& adapter) {
  return adapter.language() == "python" ? ExportTarget::Python : ExportTarget::Torch;
}

Term gradient_term(const Program& p, std::size_t wrt, const std::vector<std::string>& cotangent) {
  const Input& x = p.inputs.at(wrt);
  return mk::rd(checker::value_term(p.term.type(), cotangent), mk::var(x.name, x.type), x.name,
                x.type, p.term);
}

bool wants(const ConformOptions& o, ConformProperty p) {
  return std::find(o.properties.begin(), o.properties.end(), p) != o.properties.end();
}

// The 50-digit witnesses of a disagreement: the denotation of the call (Fig. 7's semantics,
// independent of both evaluators) and, for a gradient, central differences of the program.
std::string witnesses(const ProgramVerdict& v, const ConformOptions& options) {
  const Program& p = v.program;
  CheckConfig c = semantics_config(options, PredicateMode::Strict);
  std::string out;
  for (const CallVerdict& call : v.calls) {
    if (call.cls != ConformClass::Disagree) continue;
    std::optional<std::size_t> wrt;
    for (std::size_t i = 0; i < p.inputs.size(); ++i)
      if (p.inputs[i].name.str() == v.wrt) wrt = i;
    Term term =
        call.property == ConformProperty::Value ? p.term : gradient_term(p, *wrt, v.cotangent);
    Case<Mpfr50> k(p, c, 0);
    Result<Mpfr50> den = k.den(term, p.inputs);
    out += "  " + std::string(to_string(call.property)) + ":\n";
    out += "    adlang (double):          " + call.expected.shown + "\n";
    out += "    the system:               " + call.system + "\n";
    out += "    denotation (50 digits):   " + checker::show(den, term.type()) + "\n";
    bool adlang_right = false;
    if (den.defined()) {
      std::vector<double> d;
      for (const Mpfr50& x : den.value)
        d.push_back(std::stod(ScalarTraits<Mpfr50>::to_text(x)));
      adlang_right = close(d, call.expected.value);
    }
    if (call.property == ConformProperty::Gradient && wrt) {
      const Input& x = p.inputs[*wrt];
      std::vector<Input> rest = k.inputs_without(*wrt);
      Value<Mpfr50> a = checker::input_value<Mpfr50>(x);
      Value<Mpfr50> w = checker::input_value<Mpfr50>(Input{x.name, p.term.type(), v.cotangent});
      Value<Mpfr50> grad(a.size());
      std::string why;
      bool ok = true;
      for (std::size_t j = 0; j < a.size() && ok; ++j) {
        Value<Mpfr50> e(a.size(), Mpfr50(0));
        e[j] = Mpfr50(1);
        auto col = k.central_differences(x, rest, a, e, why);
        if (!col) {
          ok = false;
          break;
        }
        Mpfr50 dot(0);
        for (std::size_t r = 0; r < w.size(); ++r)
          dot = dot + w[r] * (*col)[1][r];
        grad[j] = dot;
      }
      out += "    central differences:      " +
             (ok ? print_value<Mpfr50>(x.type, grad) : "not available (" + why + ")") + "\n";
    }
    out += adlang_right ? "    verdict: the system is wrong (adlang agrees with the denotation)\n"
                        : "    verdict: adlang's evaluation differs from the denotation: an adlang "
                          "bug, please report it\n";
  }
  return out;
}

}  // namespace

PreparedProgram prepare_program(const Program& program, const ConformOptions& options,
                                std::optional<std::size_t> wrt,
                                const std::vector<std::string>& cotangent) {
  PreparedProgram prepared;
  prepared.ad_text = checker::program_text(program);
  std::vector<std::string> args;
  for (const Input& in : program.inputs)
    args.push_back(protocol_value(in.type, in.scalars));
  if (wants(options, ConformProperty::Value)) {
    prepared.calls.push_back(AdapterCall{"main", args});
    CallVerdict c;
    c.property = ConformProperty::Value;
    c.expected = expect(program, program.term, options);
    prepared.verdicts.push_back(c);
  }
  if (wrt) {
    std::vector<std::string> gargs{protocol_value(program.term.type(), cotangent)};
    gargs.insert(gargs.end(), args.begin(), args.end());
    prepared.calls.push_back(AdapterCall{"gradient", gargs});
    CallVerdict c;
    c.property = ConformProperty::Gradient;
    c.expected = expect(program, gradient_term(program, *wrt, cotangent), options);
    prepared.verdicts.push_back(c);
  }
  return prepared;
}

std::string export_program(const Program& program, std::optional<std::size_t> wrt,
                           ExportTarget target) {
  NameSupply names;
  checker::reserve_program_names(program, names);
  return export_program(program, wrt, target, names);
}

void classify_calls(Adapter& adapter, const std::string& source, const std::string& ad_text,
                    const std::vector<AdapterCall>& calls, ProgramVerdict& v) {
  AdapterReply reply = adapter.run(source, ad_text, calls);
  v.cls = ConformClass::Skipped;
  for (std::size_t i = 0; i < v.calls.size(); ++i) {
    classify_call(v.calls[i], reply, i);
    if (severity(v.calls[i].cls) >= severity(v.cls)) {
      v.cls = v.calls[i].cls;
      v.reason = v.calls[i].reason;
    }
  }
}

ProgramVerdict classify_program(Adapter& adapter, const Program& program,
                                const ConformOptions& options, std::optional<std::size_t> wrt,
                                const std::vector<std::string>& cotangent) {
  ProgramVerdict v;
  v.program = program;
  v.cotangent = cotangent;
  if (wrt && *wrt >= program.inputs.size()) wrt.reset();
  if (!wants(options, ConformProperty::Gradient)) wrt.reset();
  if (wrt) v.wrt = program.inputs[*wrt].name.str();
  std::string source;
  try {
    source = export_program(program, wrt, target_of(adapter));
  } catch (const ExportTooLarge& e) {
    v.cls = ConformClass::Skipped;
    v.reason = std::string("export too large: ") + e.what();
    return v;
  }
  PreparedProgram prepared = prepare_program(program, options, wrt, cotangent);
  v.calls = prepared.verdicts;
  classify_calls(adapter, source, prepared.ad_text, prepared.calls, v);
  return v;
}

RandomCase random_case(const ConformOptions& options, std::uint64_t index) {
  checker::GenConfig g = checker::default_generator(options.max_size);
  g.min_inputs = 1;
  RandomCase c;
  c.program = checker::generate_program(options.seed, index, g);
  checker::Rng rng(options.seed ^ 0xc0f0, index);
  c.wrt = rng.below(static_cast<unsigned>(c.program.inputs.size()));
  c.cotangent = checker::random_value(rng, c.program.term.type());
  return c;
}

ConformReport run_conformance(Adapter& adapter, const ConformOptions& options,
                              const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  auto began = std::chrono::steady_clock::now();
  adapter.start();
  ConformReport report;
  report.system = adapter.system();
  std::map<std::string, bool> shown;
  for (std::uint64_t i = 0; i < options.count; ++i) {
    RandomCase rc = random_case(options, i);
    const Program& p = rc.program;
    std::size_t wrt = rc.wrt;
    const std::vector<std::string>& w = rc.cotangent;
    ProgramVerdict v = classify_program(adapter, p, options, wrt, w);
    v.index = i;
    ++report.programs;
    ++report.counts[static_cast<std::size_t>(v.cls)];
    std::string key = std::string(to_string(v.cls)) + (v.reason.empty() ? "" : ": " + v.reason);
    ++report.reasons[key];
    if (v.cls == ConformClass::Disagree) {
      Disagreement d;
      d.original = v;
      std::string name = v.wrt;
      checker::ShrinkStats stats;
      Program small = checker::shrink(
          p,
          [&](const Program& candidate) {
            std::optional<std::size_t> k;
            for (std::size_t j = 0; j < candidate.inputs.size(); ++j)
              if (candidate.inputs[j].name.str() == name) k = j;
            ProgramVerdict c = classify_program(adapter, candidate, options, k, w);
            return c.cls == ConformClass::Disagree;
          },
          options.max_shrink_candidates, &stats);
      std::optional<std::size_t> k;
      for (std::size_t j = 0; j < small.inputs.size(); ++j)
        if (small.inputs[j].name.str() == name) k = j;
      d.shrunk = classify_program(adapter, small, options, k, w);
      d.shrunk.index = i;
      d.shrink_steps = stats.steps;
      d.ad_text = checker::program_text(small);
      d.python_text = export_program(small, k, target_of(adapter));
      d.witnesses = witnesses(d.shrunk, options);
      report.disagreements.push_back(std::move(d));
    } else if (v.cls != ConformClass::Agree && !shown[key]) {
      shown[key] = true;
      report.examples.push_back(v);
    }
    if (progress) progress(i + 1, options.count);
  }
  report.adapter_restarts = adapter.restarts();
  report.adapter_seconds = adapter.adapter_seconds();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return report;
}

namespace {

std::string indent(const std::string& text, const std::string& by) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    out += by + text.substr(at, nl - at) + "\n";
    at = nl + 1;
  }
  return out;
}

std::string call_line(const CallVerdict& c) {
  std::string expected = c.expected.state == Expectation::Defined
                             ? c.expected.shown
                             : "undefined (" + c.expected.detail + ")";
  std::string line = "  " + std::string(to_string(c.property)) + ": " + to_string(c.cls) +
                     "\n    adlang:     " + expected + "\n    the system: " + c.system + "\n";
  if (c.cls == ConformClass::SystemDefinedWhereUndefined) {
    line += "    convention: " +
            (c.expected.total_predicates_value
                 ? "the conventional (total) comparisons, which give " +
                       *c.expected.total_predicates_value
                 : std::string("a value where the operator has none in the paper's semantics")) +
            "\n";
  }
  return line;
}

}  // namespace

void print_report(const ConformReport& r, std::ostream& out) {
  out << "adlang conform: " << r.system << ", " << r.programs << " programs; agreement within "
      << kConformTolerance << " relative (|a - b| <= tol * (1 + max(|a|, |b|)))\n\n";
  out << "class                                                 programs\n";
  for (std::size_t c = 0; c < kConformClassCount; ++c) {
    std::string name = to_string(static_cast<ConformClass>(c));
    out << name << std::string(54 - name.size(), ' ') << r.counts[c] << "\n";
    for (const auto& [key, n] : r.reasons) {
      if (key.rfind(name + ": ", 0) != 0 || static_cast<ConformClass>(c) == ConformClass::Skipped)
        continue;
      std::string reason = "  " + key.substr(name.size() + 2);
      out << reason << std::string(reason.size() < 54 ? 54 - reason.size() : 1, ' ') << n << "\n";
    }
  }
  double rate = r.seconds > 0 ? static_cast<double>(r.programs) / r.seconds : 0;
  double share = r.seconds > 0 ? r.adapter_seconds / r.seconds : 0;
  out << "\n"
      << r.programs << " programs in " << r.seconds << " s (" << rate
      << " programs/s); time in the adapter " << static_cast<int>(share * 100 + 0.5)
      << "%, in adlang " << static_cast<int>((1 - share) * 100 + 0.5) << "%; adapter restarts "
      << r.adapter_restarts << "\n";
  for (const ProgramVerdict& v : r.cases) {
    out << "\ncase " << v.suite_case << ": " << to_string(v.cls)
        << (v.reason.empty() ? "" : " (" + v.reason + ")") << "\n";
    if (v.cls == ConformClass::Agree) continue;
    out << indent(v.suite_text, "    ");
    for (const CallVerdict& c : v.calls)
      out << call_line(c);
  }
  for (const ProgramVerdict& v : r.examples) {
    out << "\nexample: " << to_string(v.cls) << (v.reason.empty() ? "" : " (" + v.reason + ")")
        << ", program " << v.index << (v.wrt.empty() ? "" : ", gradient with respect to " + v.wrt)
        << "\n"
        << indent(checker::program_text(v.program), "    ");
    for (const CallVerdict& c : v.calls)
      out << call_line(c);
  }
  for (const Disagreement& d : r.disagreements) {
    out << "\nDISAGREE: program " << d.original.index << ", shrunk in " << d.shrink_steps
        << " steps to\n"
        << indent(d.ad_text, "    ") << "exported:\n"
        << indent(d.python_text, "    ");
    for (const CallVerdict& c : d.shrunk.calls)
      out << call_line(c);
    out << "witnesses:\n" << d.witnesses;
  }
}

void print_report_json(const ConformReport& r, std::ostream& out) {
  nlohmann::json j;
  j["system"] = r.system;
  j["programs"] = r.programs;
  j["tolerance"] = kConformTolerance;
  for (std::size_t c = 0; c < kConformClassCount; ++c)
    j["classes"][json_key(static_cast<ConformClass>(c))] = r.counts[c];
  j["reasons"] = r.reasons;
  j["seconds"] = r.seconds;
  j["adapter_seconds"] = r.adapter_seconds;
  j["adapter_restarts"] = r.adapter_restarts;
  auto program_json = [](const ProgramVerdict& v) {
    nlohmann::json p;
    p["index"] = v.index;
    p["class"] = json_key(v.cls);
    p["reason"] = v.reason;
    p["program"] = v.suite_case.empty() ? checker::program_text(v.program) : v.suite_text;
    if (!v.suite_case.empty()) p["case"] = v.suite_case;
    p["wrt"] = v.wrt;
    for (const CallVerdict& c : v.calls) {
      nlohmann::json cj;
      cj["property"] = to_string(c.property);
      cj["class"] = json_key(c.cls);
      cj["reason"] = c.reason;
      cj["expected"] = c.expected.state == Expectation::Defined ? c.expected.shown
                                                                : "undefined: " + c.expected.detail;
      cj["system"] = c.system;
      if (c.expected.total_predicates_value)
        cj["total_predicates_value"] = *c.expected.total_predicates_value;
      p["calls"].push_back(cj);
    }
    return p;
  };
  j["examples"] = nlohmann::json::array();
  for (const ProgramVerdict& v : r.examples)
    j["examples"].push_back(program_json(v));
  j["cases"] = nlohmann::json::array();
  for (const ProgramVerdict& v : r.cases)
    j["cases"].push_back(program_json(v));
  j["disagreements"] = nlohmann::json::array();
  for (const Disagreement& d : r.disagreements) {
    nlohmann::json dj = program_json(d.shrunk);
    dj["original_index"] = d.original.index;
    dj["shrink_steps"] = d.shrink_steps;
    dj["python"] = d.python_text;
    dj["witnesses"] = d.witnesses;
    j["disagreements"].push_back(dj);
  }
  out << j.dump(2) << "\n";
}

}  // namespace adlang::conform
