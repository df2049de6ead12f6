// The playground's entry points for JavaScript (embind, web/playground.hpp):
//   Module.run({command, source, env, precision, wrt, dir, from, to, samples, fuel})
//     -> {stdout, stderr, exit_code, error} (error: the failure's name, empty on success)
//   Module.check(property, count, seed, precision, editor, source, env, progress) -> the same;
//     progress({property, tried, passed, failed, both_undefined, discarded, seconds}, total) is
//     called as the run goes on, with the property's counts so far
//   Module.properties() -> the property names, one a line
//   Module.default_fuel(precision) -> the fuel of a run without --fuel at that precision
#include <emscripten/bind.h>

#include "web/playground.hpp"

namespace {

adlang::PlaygroundResult check(const std::string& property, unsigned count, unsigned seed,
                               const std::string& precision, bool editor, const std::string& source,
                               const std::string& env, emscripten::val progress) {
  adlang::PlaygroundCheck c;
  c.property = property;
  c.count = count;
  c.seed = seed;
  c.precision = precision;
  c.editor = editor;
  c.source = source;
  c.env = env;
  return adlang::check_playground(
      c, [&](const adlang::checker::PropertySummary& so_far, std::uint64_t total) {
        emscripten::val counts = emscripten::val::object();
        counts.set("property", so_far.name);
        counts.set("tried", static_cast<double>(so_far.tried));
        counts.set("passed", static_cast<double>(so_far.passed));
        counts.set("failed", static_cast<double>(so_far.failed));
        counts.set("both_undefined", static_cast<double>(so_far.both_undefined));
        counts.set("discarded", static_cast<double>(so_far.discarded));
        counts.set("seconds", so_far.seconds);
        progress(counts, static_cast<double>(total));
      });
}

}  // namespace

EMSCRIPTEN_BINDINGS(adlang_playground) {
  emscripten::value_object<adlang::PlaygroundResult>("PlaygroundResult")
      .field("stdout", &adlang::PlaygroundResult::out)
      .field("stderr", &adlang::PlaygroundResult::err)
      .field("exit_code", &adlang::PlaygroundResult::exit_code)
      .field("error", &adlang::PlaygroundResult::error);
  emscripten::value_object<adlang::PlaygroundRequest>("PlaygroundRequest")
      .field("command", &adlang::PlaygroundRequest::command)
      .field("source", &adlang::PlaygroundRequest::source)
      .field("env", &adlang::PlaygroundRequest::env)
      .field("precision", &adlang::PlaygroundRequest::precision)
      .field("wrt", &adlang::PlaygroundRequest::wrt)
      .field("dir", &adlang::PlaygroundRequest::dir)
      .field("from", &adlang::PlaygroundRequest::from)
      .field("to", &adlang::PlaygroundRequest::to)
      .field("samples", &adlang::PlaygroundRequest::samples)
      .field("fuel", &adlang::PlaygroundRequest::fuel);
  emscripten::function("run", &adlang::run_playground);
  emscripten::function("check", &check);
  emscripten::function("properties", &adlang::playground_properties);
  emscripten::function("default_fuel", &adlang::playground_default_fuel);
}
