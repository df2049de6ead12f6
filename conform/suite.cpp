#include "conform/suite.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace adlang::conform {

namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json expectation_json(const Expectation& e) {
  nlohmann::json j;
  if (e.state == Expectation::Defined) {
    j["value"] = e.value;
    j["shown"] = e.shown;
  } else {
    j["undefined"] = e.reason;
    j["detail"] = e.detail;
    if (e.total_predicates_value) j["total_predicates_value"] = *e.total_predicates_value;
  }
  return j;
}

Expectation expectation_from(const nlohmann::json& j) {
  Expectation e;
  if (j.contains("value")) {
    e.value = j.at("value").get<std::vector<double>>();
    e.shown = j.at("shown").get<std::string>();
    return e;
  }
  e.state = Expectation::Undefined;
  e.reason = j.at("undefined").get<std::string>();
  e.detail = j.at("detail").get<std::string>();
  if (j.contains("total_predicates_value"))
    e.total_predicates_value = j.at("total_predicates_value").get<std::string>();
  return e;
}

}  // namespace

void emit_case(const std::string& dir, const std::string& name, const checker::Program& program,
               std::optional<std::size_t> wrt, const std::vector<std::string>& cotangent,
               const ConformOptions& options) {
  fs::path at = fs::path(dir) / name;
  fs::create_directories(at);
  PreparedProgram prepared = prepare_program(program, options, wrt, cotangent);
  write_text(at / "program.ad", prepared.ad_text);
  write_text(at / "program.torch.py", export_program(program, wrt, ExportTarget::Torch));
  try {
    write_text(at / "program.python.py", export_program(program, wrt, ExportTarget::Python));
  } catch (const ExportTooLarge&) {
    // Recursion through rd needs a derivative function of every order: no plain-Python export
    // (the plain-Python system skips the case).
  }
  nlohmann::json j;
  j["name"] = name;
  j["inputs"] = nlohmann::json::object();
  for (std::size_t i = 0; i < program.inputs.size(); ++i)
    j["inputs"][program.inputs[i].name.str()] =
        nlohmann::json::parse(prepared.calls.empty() ? "null" : prepared.calls[0].args[i]);
  j["wrt"] = wrt ? program.inputs[*wrt].name.str() : "";
  j["cotangent"] = cotangent;
  j["calls"] = nlohmann::json::array();
  for (std::size_t i = 0; i < prepared.calls.size(); ++i) {
    nlohmann::json c;
    c["property"] = to_string(prepared.verdicts[i].property);
    c["entry"] = prepared.calls[i].entry;
    c["args"] = nlohmann::json::array();
    for (const std::string& a : prepared.calls[i].args)
      c["args"].push_back(nlohmann::json::parse(a));
    c["expected"] = expectation_json(prepared.verdicts[i].expected);
    j["calls"].push_back(c);
  }
  write_text(at / "case.json", j.dump(2) + "\n");
}

ConformReport run_suite(Adapter& adapter, const std::string& dir) {
  auto began = std::chrono::steady_clock::now();
  adapter.start();
  std::vector<fs::path> cases;
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + " is not a directory");
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (fs::exists(e.path() / "case.json")) cases.push_back(e.path());
  if (cases.empty()) throw std::runtime_error(dir + " holds no case (no */case.json)");
  std::sort(cases.begin(), cases.end());
  ConformReport report;
  report.system = adapter.system();
  std::string language = adapter.language();
  for (const fs::path& c : cases) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(read_text(c / "case.json"));
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error((c / "case.json").string() + ": " + e.what());
    }
    ProgramVerdict v;
    v.index = report.programs;
    v.wrt = j.value("wrt", "");
    std::vector<AdapterCall> calls;
    for (const nlohmann::json& call : j.at("calls")) {
      AdapterCall a;
      a.entry = call.at("entry").get<std::string>();
      for (const nlohmann::json& arg : call.at("args"))
        a.args.push_back(arg.dump());
      calls.push_back(a);
      CallVerdict cv;
      cv.property = call.at("property").get<std::string>() == "value" ? ConformProperty::Value
                                                                      : ConformProperty::Gradient;
      cv.expected = expectation_from(call.at("expected"));
      v.calls.push_back(cv);
    }
    std::string ad_text = read_text(c / "program.ad");
    fs::path exported = c / ("program." + language + ".py");
    if (fs::exists(exported)) {
      classify_calls(adapter, read_text(exported), ad_text, calls, v);
    } else {
      v.cls = ConformClass::Skipped;
      v.reason = "no " + language + " export (its derivative code exceeds the export's bound)";
    }
    v.suite_case = c.filename().string();
    v.suite_text = ad_text;
    ++report.programs;
    ++report.counts[static_cast<std::size_t>(v.cls)];
    ++report.reasons[std::string(to_string(v.cls)) + (v.reason.empty() ? "" : ": " + v.reason)];
    report.cases.push_back(v);
  }
  report.adapter_restarts = adapter.restarts();
  report.adapter_seconds = adapter.adapter_seconds();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return report;
}

}  // namespace adlang::conform
