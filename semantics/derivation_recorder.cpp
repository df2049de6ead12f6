#include "semantics/derivation_recorder.hpp"

#include "lang/diagnostics.hpp"
#include "semantics/environment.hpp"
#include "semantics/undefined.hpp"
#include "support/setting_hint.hpp"

namespace adlang {

namespace {

// The names of the functions in phi, outermost first.
std::vector<std::string> function_names(const FunFrame* phi) {
  std::vector<std::string> names;
  for (const FunFrame* fr = phi; fr; fr = fr->parent) {
    for (std::size_t i = fr->group->defs.size(); i-- > 0;)
      names.push_back(fr->group->defs[i].name.str());
  }
  return {names.rbegin(), names.rend()};
}

}  // namespace

void DerivationRecorder::enter(EventKind k, const Term& t, const FunFrame* phi) {
  if (++events_ > max_events_) {
    throw Undefined(UndefinedKind::TraceSize, t.loc(),
                    "the derivation has more than " + std::to_string(max_events_) + " judgements",
                    {"derivations are for small programs; raise the limit with " +
                     setting_hint(Setting::DerivationMaxJudgements, "N")});
  }
  DerivationEvent e;
  e.kind = k;
  e.term = t;
  e.phi = function_names(phi);
  open_.push_back(std::move(e));
}

void DerivationRecorder::enter_bool(EventKind k, const BoolTerm& b, const Term& t,
                                    const FunFrame* phi) {
  enter(k, t, phi);
  open_.back().bool_term = b;
}

void DerivationRecorder::bind(Name x, std::string value) {
  internal_check(!open_.empty(), "derivation binding outside an event");
  open_.back().binds.emplace_back(x, std::move(value));
}

void DerivationRecorder::leave(std::string value, Term trace, Name var) {
  internal_check(!open_.empty(), "derivation event closed twice");
  DerivationEvent e = std::move(open_.back());
  open_.pop_back();
  e.value = std::move(value);
  e.trace = std::move(trace);
  e.var = var;
  if (open_.empty()) {
    done_.push_back(std::move(e));
  } else {
    open_.back().children.push_back(std::move(e));
  }
}

const DerivationEvent& DerivationRecorder::root() const {
  internal_check(complete(), "derivation record incomplete");
  return done_.front();
}

}  // namespace adlang
