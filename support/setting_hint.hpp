// How a diagnostic's hint names a setting ("raise the limit with --fuel N"): the one place that
// decides it, per front end. The command line names its flags; the REPL its :set and :env
// commands; the notebook its %set and %env magics; the browser playground the settings on its
// page (docs/playground.md). The engines that report a limit or a
// precision problem write setting_hint(Setting::Fuel, "N") where they would name a flag, and
// the front end in use (chosen once per process, before any evaluation) decides the words.
#pragma once

#include <string>

namespace adlang {

// The front ends whose users read the hints.
enum class FrontEnd {
  CommandLine,  // adlang run, trace, diff, ...: flags (--fuel N)
  Repl,         // adlang repl: :set fuel N, :env x=VALUE, :diff E wrt x
  Notebook,     // the Jupyter kernel's cells: %set fuel N, %env x=VALUE, %diff x
  Playground,   // the browser playground: the page's Fuel setting (N), a line in its Inputs
};

// The settings a hint can name.
enum class Setting {
  Fuel,                     // calls allowed per evaluation
  Precision,                // double, 50, 100 or exact
  Predicates,               // strict or total
  Ad,                       // tape, linear or paper
  Input,                    // an input's value: the value is "NAME=VALUE"
  Wrt,                      // the input a derivative is taken in: the value is its name
  Unfold,                   // the limited language's unfolding bound
  MaxTrace,                 // the size of a trace
  MaxDerivativeSteps,       // the steps of a derivative
  MaxRdNesting,             // nested rd
  MaxRdTrace,               // the trace of one rd redex
  MaxFrames,                // the graph engines' frames
  DerivationMaxJudgements,  // the judgements of a printed derivation
  Timeout,                  // the time budget
  MaxMemory,                // the memory budget
};

// The front end whose words hints use from now on (the process's; CommandLine by default).
void set_front_end(FrontEnd f);
FrontEnd front_end();

// How the user of the current front end sets `s` to `value`: "--fuel N", ":set fuel N",
// "%set fuel N", "the page's Fuel setting (N)". A setting the front end has no command for is named
// as the command line's flag with the command that takes it ("adlang run --max-trace N").
std::string setting_hint(Setting s, const std::string& value);

}  // namespace adlang
