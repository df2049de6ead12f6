#include "support/setting_hint.hpp"

#include <atomic>

namespace adlang {

namespace {

std::atomic<FrontEnd> current_front_end{FrontEnd::CommandLine};

// The command line's flag for `s` with its value: "--fuel N".
std::string flag(Setting s, const std::string& value) {
  switch (s) {
    case Setting::Fuel:
      return "--fuel " + value;
    case Setting::Precision:
      return "--precision " + value;
    case Setting::Predicates:
      return "--predicates " + value;
    case Setting::Ad:
      return "--ad " + value;
    case Setting::Input:
      return "--env " + value;
    case Setting::Wrt:
      return "--wrt " + value;
    case Setting::Unfold:
      return "--unfold " + value;
    case Setting::MaxTrace:
      return "--max-trace " + value;
    case Setting::MaxDerivativeSteps:
      return "--max-derivative-steps " + value;
    case Setting::MaxRdNesting:
      return "--max-rd-nesting " + value;
    case Setting::MaxRdTrace:
      return "--max-rd-trace " + value;
    case Setting::MaxFrames:
      return "--max-frames " + value;
    case Setting::DerivationMaxJudgements:
      return "--derivation-max-judgements " + value;
    case Setting::Timeout:
      return "--timeout " + value;
    case Setting::MaxMemory:
      return "--max-memory " + value;
  }
  return value;
}

// The word after :set / %set for the settings a session has; empty for the others.
const char* session_key(Setting s) {
  switch (s) {
    case Setting::Fuel:
      return "fuel";
    case Setting::Precision:
      return "precision";
    case Setting::Predicates:
      return "predicates";
    case Setting::Ad:
      return "ad";
    default:
      return "";
  }
}

// The playground's words for `s`: the page's setting where it has one (web/page/index.html).
std::string page_setting(Setting s, const std::string& value) {
  switch (s) {
    case Setting::Fuel:
      return "the page's Fuel setting (" + value + ")";
    case Setting::Precision:
      return "the page's Precision setting (" + value + ")";
    case Setting::Input:
      return "a line " + value + " in the page's Inputs";
    case Setting::Wrt:
      return "the page's \"with respect to\" setting (" + value + ")";
    default:
      return "adlang run " + flag(s, value) + " (the page has no setting for it)";
  }
}

}  // namespace

void set_front_end(FrontEnd f) {
  current_front_end.store(f);
}

FrontEnd front_end() {
  return current_front_end.load();
}

std::string setting_hint(Setting s, const std::string& value) {
  const FrontEnd f = front_end();
  if (f == FrontEnd::CommandLine) return flag(s, value);
  if (f == FrontEnd::Playground) return page_setting(s, value);
  const std::string sigil = f == FrontEnd::Repl ? ":" : "%";
  if (*session_key(s)) return sigil + "set " + session_key(s) + " " + value;
  if (s == Setting::Input) return sigil + "env " + value;
  if (s == Setting::Wrt) return f == FrontEnd::Repl ? ":diff E wrt " + value : "%diff " + value;
  return "adlang run " + flag(s, value) + " (the " + (f == FrontEnd::Repl ? "REPL" : "notebook") +
         " has no setting for it)";
}

}  // namespace adlang
