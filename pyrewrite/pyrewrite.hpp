// `adlang pyrewrite` as a library: rewrite one single-GPU TensorFlow training script into a
// Horovod script (the rewrite document, seed 002), as minimal edits of its text.
//
// Steps: parse with CPython's ast (a syntax error is an error diagnostic), summarise the module
// (Sec. 3) to find the kind of training loop, which chooses the pattern unless one is given,
// check the module-wide restrictions (Sec. 2.1), apply the pattern's rules (trans_M), and check
// that the result parses again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lang/diagnostics.hpp"
#include "pyrewrite/rewrite_context.hpp"
#include "pyrewrite/rules_common.hpp"
#include "pyrewrite/text_edit.hpp"
#include "pyrewrite/training_loop.hpp"

namespace adlang::py {

struct RewriteOptions {
  std::optional<Pattern> pattern;  // nothing: chosen by training-loop identification
};

enum class RewriteStatus {
  Rewritten,  // the rules applied (the output may still equal the input)
  Unchanged,  // nothing to do: empty, no TensorFlow, no training loop, already uses Horovod
  Failed,     // the input cannot be rewritten: syntax error, two kinds of training loop
};

struct RewriteResult {
  RewriteStatus status = RewriteStatus::Unchanged;
  std::string output;                   // the rewritten text (the input when not Rewritten)
  Edits edits;                          // Rewritten: the edits of the input that give output
  std::optional<Pattern> pattern;       // the pattern applied
  LoopKind detected = LoopKind::None;   // what Sec. 3 found
  std::vector<Diagnostic> diagnostics;  // errors, restriction warnings, notes; in source order
  std::vector<RuleFiring> firings;      // the rules that fired (--explain)
  std::string reason;                   // for Unchanged / Failed: one sentence why
};

std::string_view pattern_name(Pattern p);  // "keras", "tape", "session", "monitored"
std::optional<Pattern> pattern_from_name(std::string_view name);
std::string_view pattern_section(Pattern p);  // "2.3" ...

RewriteResult rewrite_python(const std::string& path, const std::string& text,
                             const RewriteOptions& options = {});

// Only the training-loop identification of a script (for directory arguments): LoopKind::None
// also for scripts that do not parse.
LoopKind identify_training_loop(const std::string& path, const std::string& text);

}  // namespace adlang::py
