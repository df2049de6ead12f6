// The rule set of the TensorFlow 1.x MonitoredTrainingSession pattern (seed 002, Sec. 2.6): the
// optimizer is scaled and wrapped, the session gets a ConfigProto pinning one GPU per process and
// the hvd.BroadcastGlobalVariablesHook, StopAtStepHook's last step is divided by hvd.size(),
// checkpoints are written by rank 0 only, and printing runs on rank 0.
#include "pyrewrite/qualified_name.hpp"
#include "pyrewrite/rules_common.hpp"

namespace adlang::py {

namespace {

class MonitoredRules final : public RuleSet {
 public:
  using RuleSet::RuleSet;
  std::string_view section() const override { return "2.6"; }

 protected:
  StmtResult import_stmt(const Node& s, const Env& sigma, const Env& sigma1) override {
    return tf1_import_rule(s, sigma, sigma1);
  }
  Env trans_A(const Node& alias, const Env& sigma) override { return tf1_trans_A(alias, sigma); }

  // A strict form of assignment statements (2.6): the chain 2.5 and 2.6 share.
  std::optional<StmtResult> assign_call(const Node& s, const Node& call, const std::string& id_r,
                                        const Env& sigma) override {
    return tf1_assign_rules(s, call, id_r, sigma);
  }

  // trans_S⟦(#type:s)? with with_item* : stmt*⟧(σ) (2.6): as 2.5, with
  //   IF σ_1 \ σ = ["monitored_session" ↦ id] THEN ([config = id_t.ConfigProto(), ...], σ_2)
  std::optional<StmtResult> with_stmt(const Node& s, const Env& sigma) override {
    return tf1_with_rule(s, sigma);
  }

  // A strict form of with item (2.6):
  // trans_W⟦expr_1(...)⟧(σ) = # MonitoredSession
  //   IF σ("tensor_flow_compat") = id_t AND expr_1 = id_t.train.MonitoredTrainingSession THEN
  //     IF id_i = hooks THEN
  //       (expr_1(... id_i = expr_2i.append(hvd.BroadcastGlobalVariablesHook(0)) ...
  //               (config = config when "config_proto" ∉ σ)), σ["monitored_session" ↦ as])
  //     ELSE (expr_1(... hooks = [hvd.BroadcastGlobalVariablesHook(0)] (config = config)?), ...)
  // Amended: the hooks stay a list (list.append returns None): the hook is added to a list
  // literal, or the list is rebuilt as [*hooks, hook]; `config` is fresh (or the script's own
  // ConfigProto); checkpoint_dir is given on rank 0 only, as Horovod's guide does.
  std::pair<Edits, Env> trans_W(const Node& item, const Env& sigma) override {
    const Node& c = *item.child("context_expr");
    const Node* as = item.child("optional_vars");
    if (!c.is(Kind::Call)) return RuleSet::trans_W(item, sigma);
    auto q = resolve(call_func(c), sigma);
    if (!q || *q != "tensorflow.train.MonitoredTrainingSession" || !sigma.has("tensor_flow_compat"))
      return RuleSet::trans_W(item, sigma);
    Edits e = trans_E(c, sigma);
    std::vector<std::string> added;
    const std::string hook = hvd() + ".BroadcastGlobalVariablesHook(0)";
    if (const Node* kw = find_keyword(c, "hooks")) {
      const Node& v = *kw->child("value");
      if (v.is(Kind::List) && !v.list("elts").empty()) {
        std::size_t at = ctx_.layout().end(*v.list("elts").back());
        e.push_back({at, at, ", " + hook});
      } else if (v.is(Kind::List)) {
        e.push_back(replace(v, "[" + hook + "]"));
      } else {
        e.push_back(replace(v, "[*" + ctx_.src(v) + ", " + hook + "]"));
      }
    } else {
      added.push_back("hooks=[" + hook + "]");
    }
    if (!find_keyword(c, "config")) {
      if (auto own = sigma.get("config_proto")) {
        added.push_back("config=" + *own);
      } else {
        pending_config_ = ctx_.new_id("config");
        added.push_back("config=" + pending_config_);
      }
    }
    if (const Node* kw = find_keyword(c, "checkpoint_dir"))
      e.push_back(replace(*kw->child("value"),
                          operand(*kw->child("value")) + " if " + rank0() + " else None"));
    if (!added.empty()) e.push_back(add_arguments(c, added));
    ctx_.fire(c, "trans_W: MonitoredTrainingSession (broadcast hook, config)",
              std::string(section()));
    Env out = as && as->is(Kind::Name) ? sigma.with("monitored_session", as->text("id")) : sigma;
    return {e, out};
  }

  // A strict form of expr statements (2.6).
  std::optional<StmtResult> expr_call(const Node& s, const Node& call, const Env& sigma) override {
    if (auto r = set_visible_devices_rule(s, call, sigma)) return r;
    return root_rank_rule(s, call, sigma);
  }

  // trans_E⟦expr_1(...)⟧(σ) (2.6) =
  //   IF σ("tensor_flow_compat") = id_t AND expr_1 = id_t.train.StopAtStepHook THEN
  //     IF id_i = last_step THEN expr_1(... id_i = expr_2i // hvd.size() ...)
  //     ELSE expr_1(expr_11 // hvd.size() ...)
  std::optional<Edits> call_E(const Node& call, const Env& sigma) override {
    auto q = resolve(call_func(call), sigma);
    if (!q || *q != "tensorflow.train.StopAtStepHook") return std::nullopt;
    // StopAtStepHook(num_steps=None, last_step=None): a positional argument is num_steps.
    const Node* kw = find_keyword(call, "last_step");
    if (!kw) kw = find_keyword(call, "num_steps");
    const Node* target = kw ? kw->child("value") : nullptr;
    if (!target && !call_args(call).empty()) target = call_args(call).front().get();
    if (!target) return std::nullopt;
    ctx_.fire(call, "trans_E: adjust steps (StopAtStepHook / hvd.size())", std::string(section()));
    return Edits{replace(*target, operand(*target) + " // " + size())};
  }
};

}  // namespace

std::unique_ptr<RuleSet> make_monitored_rules(RewriteContext& ctx) {
  return std::make_unique<MonitoredRules>(ctx);
}

}  // namespace adlang::py
