// The playground's entry point for JavaScript (embind): Module.run(command, source, env,
// precision, wrt) returns {stdout, stderr, exit_code} (web/playground.hpp).
#include <emscripten/bind.h>

#include "web/playground.hpp"

EMSCRIPTEN_BINDINGS(adlang_playground) {
  emscripten::value_object<adlang::PlaygroundResult>("PlaygroundResult")
      .field("stdout", &adlang::PlaygroundResult::out)
      .field("stderr", &adlang::PlaygroundResult::err)
      .field("exit_code", &adlang::PlaygroundResult::exit_code);
  emscripten::function("run", &adlang::run_playground);
}
