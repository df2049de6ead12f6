// The playground's entry points for JavaScript (embind, web/playground.hpp):
//   Module.run({command, source, env, precision, wrt, dir, from, to, samples})
//     -> {stdout, stderr, exit_code}
//   Module.check(property, count, seed, precision, editor, source, env, progress) -> the same;
//     progress(property, done, total) is called as the run goes on
//   Module.properties() -> the property names, one a line
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
      c, [&](const std::string& name, std::uint64_t done, std::uint64_t total) {
        progress(name, static_cast<double>(done), static_cast<double>(total));
      });
}

}  // namespace

EMSCRIPTEN_BINDINGS(adlang_playground) {
  emscripten::value_object<adlang::PlaygroundResult>("PlaygroundResult")
      .field("stdout", &adlang::PlaygroundResult::out)
      .field("stderr", &adlang::PlaygroundResult::err)
      .field("exit_code", &adlang::PlaygroundResult::exit_code);
  emscripten::value_object<adlang::PlaygroundRequest>("PlaygroundRequest")
      .field("command", &adlang::PlaygroundRequest::command)
      .field("source", &adlang::PlaygroundRequest::source)
      .field("env", &adlang::PlaygroundRequest::env)
      .field("precision", &adlang::PlaygroundRequest::precision)
      .field("wrt", &adlang::PlaygroundRequest::wrt)
      .field("dir", &adlang::PlaygroundRequest::dir)
      .field("from", &adlang::PlaygroundRequest::from)
      .field("to", &adlang::PlaygroundRequest::to)
      .field("samples", &adlang::PlaygroundRequest::samples);
  emscripten::function("run", &adlang::run_playground);
  emscripten::function("check", &check);
  emscripten::function("properties", &adlang::playground_properties);
}
