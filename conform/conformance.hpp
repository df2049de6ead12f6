// `adlang conform`: the semantics as the oracle of a real AD system. Random programs from the
// checker's generator (checker/program_generator.hpp) are exported (conform/python_export.hpp),
// run by the system through an adapter (conform/adapter.hpp), and each result is classified
// against the semantics (docs/conform.md):
//
//   agree                           both defined, equal within kConformTolerance;
//   both undefined                  the semantics is bottom and the system says so (an error,
//                                   NaN or inf);
//   system defined where undefined  the semantics is bottom (a strict tie, outside an operator's
//                                   open domain, non-termination) but the system gives a
//                                   number: its convention (e.g. relu'(0) = 0);
//   system undefined where defined  the semantics has a value, the system gives NaN, inf, an
//                                   exception, a timeout or a crash;
//   disagree                        both defined, different: shrunk (checker/shrink.hpp) and
//                                   shown with 50-digit witnesses;
//   skipped                         the semantics gave up (a resource limit) or the export was
//                                   too large: the program says nothing.
//
// What is computed for each program: its value (main) and, if it has inputs, its gradient
// W^T J with respect to one input along a random cotangent W (gradient), each compared.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/program.hpp"
#include "conform/adapter.hpp"
#include "conform/python_export.hpp"

namespace adlang::conform {

// Agreement: |a - b| <= kConformTolerance * (1 + max(|a|, |b|)) for every real. The system
// computes in float64 like adlang's double evaluator but in another order, and nested
// derivatives of small programs lose a few digits; 1e-7 leaves that room and still catches a
// wrong derivative (which is wrong in its first digits).
inline constexpr double kConformTolerance = 1e-7;

enum class ConformClass {
  Agree,
  BothUndefined,
  SystemDefinedWhereUndefined,
  SystemUndefinedWhereDefined,
  Disagree,
  Skipped,
};
inline constexpr std::size_t kConformClassCount = 6;

// "agree", "both undefined", ...
const char* to_string(ConformClass c);
// agree, both-undefined, ... (the --json keys).
const char* json_key(ConformClass c);

// What is compared: the value (main) and the gradient.
enum class ConformProperty { Value, Gradient };
const char* to_string(ConformProperty p);

// The semantics' answer for one call: a value, or undefined with its reason.
struct Expectation {
  enum State { Defined, Undefined, GaveUp } state = Defined;
  std::vector<double> value;  // the reals, in order, when Defined
  std::string shown;          // the value as adlang prints it
  std::string reason;         // Undefined/GaveUp: the category (strict tie, ...)
  std::string detail;         // Undefined/GaveUp: adlang's message
  // Undefined: the value under total predicates, if the convention defines it.
  std::optional<std::string> total_predicates_value;
};

// One call's verdict.
struct CallVerdict {
  ConformProperty property = ConformProperty::Value;
  ConformClass cls = ConformClass::Agree;
  std::string reason;    // the category within the class (strict tie; nan; exception; ...)
  Expectation expected;  // the semantics
  std::string system;    // the system's answer (a JSON value or its error)
};

// One program's verdicts: the worst class of its calls decides its class.
struct ProgramVerdict {
  checker::Program program;
  std::uint64_t index = 0;
  std::string wrt;                     // the input of the gradient (empty: none)
  std::vector<std::string> cotangent;  // W, as decimal texts
  std::vector<CallVerdict> calls;
  ConformClass cls = ConformClass::Skipped;
  std::string reason;
  std::string suite_case, suite_text;  // a suite's case: its name and program.ad
};

struct Disagreement {
  ProgramVerdict original, shrunk;
  unsigned shrink_steps = 0;
  std::string ad_text;      // the shrunk program, as .ad
  std::string python_text;  // its export to the system's language
  std::string witnesses;    // 50-digit denotation, central differences, and who is right
};

struct ConformOptions {
  std::uint64_t count = 100;
  std::uint64_t seed = 1;
  unsigned max_size = 0;  // 0: the checker's default
  std::vector<ConformProperty> properties{ConformProperty::Value, ConformProperty::Gradient};
  unsigned max_shrink_candidates = 400;
  std::uint64_t fuel = 100000;
};

struct ConformReport {
  std::string system;  // from the adapter's greeting
  std::uint64_t programs = 0;
  std::array<std::uint64_t, kConformClassCount> counts{};
  std::map<std::string, std::uint64_t> reasons;  // "class: reason" -> programs
  std::vector<ProgramVerdict> examples;          // the first program of each class: reason
  std::vector<Disagreement> disagreements;
  std::vector<ProgramVerdict> cases;  // a suite run: every case
  unsigned adapter_restarts = 0;
  double seconds = 0, adapter_seconds = 0;
};

// Program `index` of a run: the checker's random program (at least one input), the input of
// its gradient and the cotangent, a pure function of (options.seed, index).
struct RandomCase {
  checker::Program program;
  std::size_t wrt = 0;
  std::vector<std::string> cotangent;
};
RandomCase random_case(const ConformOptions& options, std::uint64_t index);

// Runs `options.count` random programs through `adapter`, classifying each.
ConformReport run_conformance(Adapter& adapter, const ConformOptions& options,
                              const std::function<void(std::uint64_t, std::uint64_t)>& progress);

// The classification of one program (its calls made by `adapter`); used by the suite runner and
// by shrinking. `wrt` < inputs.size() asks for the gradient too, along `cotangent`.
ProgramVerdict classify_program(Adapter& adapter, const checker::Program& program,
                                const ConformOptions& options, std::optional<std::size_t> wrt,
                                const std::vector<std::string>& cotangent);

// A program's calls, expected values and exports, as a suite stores them (conform/suite.hpp).
struct PreparedProgram {
  std::vector<AdapterCall> calls;
  std::vector<CallVerdict> verdicts;  // property and expected filled in
  std::string ad_text;
};
// The calls and the semantics' expectations of `program` (value, and the gradient for `wrt`).
PreparedProgram prepare_program(const checker::Program& program, const ConformOptions& options,
                                std::optional<std::size_t> wrt,
                                const std::vector<std::string>& cotangent);
// The exported module of `program` (main, and gradient for `wrt`), predicates total.
std::string export_program(const checker::Program& program, std::optional<std::size_t> wrt,
                           ExportTarget target);
// Runs `calls` on the system and classifies each against the expectation in `verdicts`; the
// program's class is the worst. ExportTooLarge is the caller's.
void classify_calls(Adapter& adapter, const std::string& source, const std::string& ad_text,
                    const std::vector<AdapterCall>& calls, ProgramVerdict& verdict);

// The table, the examples and the shrunk disagreements, as text or as JSON.
void print_report(const ConformReport& report, std::ostream& out);
void print_report_json(const ConformReport& report, std::ostream& out);

}  // namespace adlang::conform
