#include "pyrewrite/pyrewrite.hpp"

#include <algorithm>

#include "lang/python/ast/py_parse.hpp"
#include "pyrewrite/restrictions.hpp"

namespace adlang::py {

std::string_view pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Keras:
      return "keras";
    case Pattern::Tape:
      return "tape";
    case Pattern::Session:
      return "session";
    case Pattern::Monitored:
      return "monitored";
  }
  return "keras";
}

std::string_view pattern_section(Pattern p) {
  switch (p) {
    case Pattern::Keras:
      return "2.3";
    case Pattern::Tape:
      return "2.4";
    case Pattern::Session:
      return "2.5";
    case Pattern::Monitored:
      return "2.6";
  }
  return "2.3";
}

std::optional<Pattern> pattern_from_name(std::string_view n) {
  for (Pattern p : {Pattern::Keras, Pattern::Tape, Pattern::Session, Pattern::Monitored})
    if (pattern_name(p) == n) return p;
  return std::nullopt;
}

namespace {

std::optional<Pattern> pattern_of(LoopKind k) {
  switch (k) {
    case LoopKind::Keras:
      return Pattern::Keras;
    case LoopKind::Tape:
      return Pattern::Tape;
    case LoopKind::Session:
      return Pattern::Session;
    case LoopKind::Monitored:
      return Pattern::Monitored;
    case LoopKind::None:
    case LoopKind::Conflict:
      return std::nullopt;
  }
  return std::nullopt;
}

std::string describe(LoopKind k) {
  switch (k) {
    case LoopKind::Keras:
      return "Keras model.fit";
    case LoopKind::Tape:
      return "GradientTape";
    case LoopKind::Session:
      return "tf.Session";
    case LoopKind::Monitored:
      return "MonitoredTrainingSession";
    default:
      return std::string(loop_kind_name(k));
  }
}

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  });
}

void sort_diagnostics(std::vector<Diagnostic>& d) {
  std::stable_sort(d.begin(), d.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    return a.loc.col < b.loc.col;
  });
}

}  // namespace

LoopKind identify_training_loop(const std::string& path, const std::string& text) {
  if (blank(text)) return LoopKind::None;
  try {
    return summary_M(*parse_module(path, text)).loop;
  } catch (const CompileError&) {
    return LoopKind::None;
  }
}

RewriteResult rewrite_python(const std::string& path, const std::string& text,
                             const RewriteOptions& options) {
  RewriteResult r;
  r.output = text;
  if (blank(text)) {
    r.reason = "the file is empty; there is nothing to rewrite";
    return r;
  }
  NodePtr module;
  try {
    module = parse_module(path, text);
  } catch (const CompileError& e) {
    r.status = RewriteStatus::Failed;
    r.diagnostics.push_back(e.diagnostic());
    r.reason = "the script is not a valid Python module";
    return r;
  }
  ModuleSummary summary = summary_M(*module);
  r.detected = summary.loop;
  if (summary.horovod_import.known()) {
    r.diagnostics.push_back(Diagnostic{Severity::Note,
                                       summary.horovod_import,
                                       "the script already imports horovod; it is left as it is",
                                       {}});
    r.reason = "the script already uses Horovod";
    return r;
  }
  if (!summary.imports_tensorflow) {
    r.reason = "the script does not import TensorFlow; there is nothing to rewrite";
    return r;
  }
  std::optional<Pattern> pattern = options.pattern;
  if (!pattern) {
    if (summary.loop == LoopKind::Conflict) {
      // Sec. 3.1 restriction 3: each model has one type of training loop.
      const LoopEvidence& first = summary.evidence.front();
      const LoopEvidence* second = &summary.evidence.back();
      for (const LoopEvidence& e : summary.evidence)
        if (e.kind != first.kind) {
          second = &e;
          break;
        }
      r.status = RewriteStatus::Failed;
      r.diagnostics.push_back(Diagnostic{
          Severity::Error,
          second->loc,
          "restriction 3.1.3: the script has two kinds of training loop: " +
              describe(second->kind) + " here and " + describe(first.kind) + " at line " +
              std::to_string(first.loc.line),
          {"each model must have one type of training loop; choose the pattern with --pattern " +
           std::string(pattern_name(*pattern_of(first.kind))) + " or --pattern " +
           std::string(pattern_name(*pattern_of(second->kind)))}});
      r.reason = "the script has two kinds of training loop";
      return r;
    }
    pattern = pattern_of(summary.loop);
    if (!pattern) {
      r.reason =
          "no training loop found (model.fit, GradientTape, tf.Session or "
          "MonitoredTrainingSession); choose a pattern with --pattern to rewrite anyway";
      return r;
    }
  }
  r.pattern = pattern;
  RewriteContext ctx(path, text, *module);
  ctx.model_classes = summary.model_classes;
  ctx.model_instances = summary.model_instances;
  ctx.keras_session_config = summary.keras_session_config;
  ctx.standalone_keras = summary.standalone_keras;
  ctx.keras_sessions = summary.keras_sessions;
  ctx.tf1_eager = summary.tf1_eager;
  std::unique_ptr<RuleSet> rules;
  switch (*pattern) {
    case Pattern::Keras:
      rules = make_keras_rules(ctx);
      break;
    case Pattern::Tape:
      rules = make_tape_rules(ctx);
      break;
    case Pattern::Session:
      rules = make_session_rules(ctx);
      break;
    case Pattern::Monitored:
      rules = make_monitored_rules(ctx);
      break;
  }
  r.edits = rules->trans_M(*module);
  r.output = apply_edits(text, r.edits);
  r.status = RewriteStatus::Rewritten;
  r.firings = ctx.firings();
  r.diagnostics = summary.diagnostics;
  for (Diagnostic& d : check_restrictions(*module))
    r.diagnostics.push_back(std::move(d));
  for (const Diagnostic& d : ctx.diagnostics())
    r.diagnostics.push_back(d);
  sort_diagnostics(r.diagnostics);
  std::stable_sort(r.firings.begin(), r.firings.end(),
                   [](const RuleFiring& a, const RuleFiring& b) {
                     if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
                     return a.loc.col < b.loc.col;
                   });
  if (r.firings.empty())
    r.diagnostics.push_back(
        Diagnostic{Severity::Note,
                   {},
                   "no rule of pattern " + std::string(pattern_name(*pattern)) + " applied",
                   {}});
  // The result must parse: a failure here is a bug in a rule, not in the script.
  try {
    check_syntax(path, r.output);
  } catch (const CompileError& e) {
    throw InternalError("internal error: the rewritten script does not parse (" +
                        std::to_string(e.diagnostic().loc.line) + ":" +
                        std::to_string(e.diagnostic().loc.col) + ": " + e.diagnostic().message +
                        ")");
  }
  return r;
}

}  // namespace adlang::py
