#include "pyrewrite/rewrite_context.hpp"

#include <utility>

namespace adlang::py {

RewriteContext::RewriteContext(std::string path, const std::string& text, const Node& module)
    : path_(std::move(path)), layout_(text), names_(module), hvd_(names_.fresh("hvd")) {}

std::string RewriteContext::src(const Node& n, const Edits& edits) const {
  return apply_edits_in(layout_.text(), layout_.begin(n), layout_.end(n), edits);
}

void RewriteContext::fire(const Node& at, std::string rule, std::string section) {
  firings_.push_back(
      {std::move(rule), std::move(section), SourceLoc{at.span.line, at.span.col + 1}});
}

void RewriteContext::warn(const Node& at, std::string message, std::vector<std::string> notes) {
  diagnostics_.push_back(Diagnostic{Severity::Warning, SourceLoc{at.span.line, at.span.col + 1},
                                    std::move(message), std::move(notes)});
}

BroadcastFlag RewriteContext::broadcast_flag(const std::string& optimizer, bool tf_variable) {
  for (const BroadcastFlag& f : flags_)
    if (f.optimizer == optimizer && f.tf_variable == tf_variable) return f;
  std::string hint = flags_.empty() ? "hvd_broadcast_done" : optimizer + "_broadcast_done";
  flags_.push_back({optimizer, tf_variable, names_.fresh(hint)});
  return flags_.back();
}

}  // namespace adlang::py
