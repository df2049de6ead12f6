// The rule set of the TensorFlow 1.x Session API pattern (seed 002, Sec. 2.5): the optimizer is
// scaled and wrapped, the session gets a ConfigProto pinning one GPU per process, the initial
// variables are broadcast from rank 0 after initialisation, and saving and printing run on rank 0.
#include "pyrewrite/qualified_name.hpp"
#include "pyrewrite/rules_common.hpp"

namespace adlang::py {

namespace {

class SessionRules final : public RuleSet {
 public:
  using RuleSet::RuleSet;
  std::string_view section() const override { return "2.5"; }

 protected:
  StmtResult import_stmt(const Node& s, const Env& sigma, const Env& sigma1) override {
    return tf1_import_rule(s, sigma, sigma1);
  }
  Env trans_A(const Node& alias, const Env& sigma) override { return tf1_trans_A(alias, sigma); }

  // A strict form of assignment statements (2.5): the chain 2.5 and 2.6 share, and sessions
  // bound by assignment.
  std::optional<StmtResult> assign_call(const Node& s, const Node& call, const std::string& id_r,
                                        const Env& sigma) override {
    if (auto r = session_assign_rule(s, call, id_r, sigma)) return r;
    return tf1_assign_rules(s, call, id_r, sigma);
  }

  // trans_S⟦(#type:s)? with with_item* : stmt*⟧(σ) (2.5): see tf1_with_rule.
  std::optional<StmtResult> with_stmt(const Node& s, const Env& sigma) override {
    return tf1_with_rule(s, sigma);
  }

  // A strict form of with item (2.5):
  // trans_W⟦expr_1(...)⟧(σ) = IF "config_proto" ∉ σ AND σ("tensor_flow_compat") = id_t AND
  //   expr_1 = id_t.Session THEN (expr_1(... config=config), σ["session" ↦ as]) ELSE ...
  // Amended: with a ConfigProto of the script's own (σ("config_proto")) it is passed instead; a
  // call that already has config= keeps it.
  std::pair<Edits, Env> trans_W(const Node& item, const Env& sigma) override {
    const Node& c = *item.child("context_expr");
    const Node* as = item.child("optional_vars");
    if (c.is(Kind::Call) && is_session(c, sigma)) {
      Env out = as && as->is(Kind::Name) ? sigma.with("session", as->text("id")) : sigma;
      return {session_config_edits(c, sigma), out};
    }
    return RuleSet::trans_W(item, sigma);
  }

  // A strict form of expr statements (2.5).
  std::optional<StmtResult> expr_call(const Node& s, const Node& call, const Env& sigma) override {
    if (auto r = set_visible_devices_rule(s, call, sigma)) return r;
    return root_rank_rule(s, call, sigma);
  }

  // A general form of expr statements (2.5):
  //   # Variable Broadcasting
  //   IF σ("session") = id_s AND σ("tensor_flow_compat") = id_t AND
  //      expr = id_s.run(id_t.global_variables_initializer()) THEN
  //     ([expr, id_s.run(hvd.broadcast_global_variables(root_rank=0))], σ)
  //   ELIF σ("tensor_flow_compat") = id_t AND expr = id_t.global_variables_initializer().run() THEN
  //     ([expr, hvd.broadcast_global_variables(root_rank=0).run()], σ)
  //   ELSE ([trans_E⟦expr⟧(σ)], σ)
  // Amended: also `sess.run(init)` and `init.run()` for `init = tf.global_variables_initializer()`.
  std::optional<StmtResult> expr_general(const Node& s, const Env& sigma) override {
    const Node& v = *s.child("value");
    if (!v.is(Kind::Call)) return std::nullopt;
    const Node& f = call_func(v);
    auto sess = method_receiver(f, "run");
    const std::string bcast = hvd() + ".broadcast_global_variables(root_rank=0)";
    if (sess && sigma.is("session", *sess) && call_args(v).size() == 1 &&
        is_initializer(*call_args(v).front(), sigma)) {
      ctx_.fire(s, "trans_S: variable broadcasting after initialisation", std::string(section()));
      return StmtResult{{OutStmt::keep(s), OutStmt::fresh(*sess + ".run(" + bcast + ")")}, sigma};
    }
    if (f.is(Kind::Attribute) && f.text("attr") == "run" && call_args(v).empty() &&
        is_initializer(*f.child("value"), sigma)) {
      ctx_.fire(s, "trans_S: variable broadcasting after initialisation", std::string(section()));
      return StmtResult{{OutStmt::keep(s), OutStmt::fresh(bcast + ".run()")}, sigma};
    }
    return std::nullopt;
  }

 private:
  bool is_session(const Node& call, const Env& sigma) const {
    auto q = resolve(call_func(call), sigma);
    return q && (*q == "tensorflow.Session" || *q == "tensorflow.InteractiveSession") &&
           sigma.has("tensor_flow_compat");
  }

  bool is_initializer(const Node& e, const Env& sigma) const {
    if (e.is(Kind::Name)) return sigma.is("initializer", e.text("id"));
    if (!e.is(Kind::Call) || !call_args(e).empty()) return false;
    auto q = resolve(call_func(e), sigma);
    return q && (*q == "tensorflow.global_variables_initializer" ||
                 *q == "tensorflow.initialize_all_variables");
  }

  // config=<fresh config> (recorded in pending_config_ for the with rule), or the script's own
  // ConfigProto, unless the call passes a config already.
  Edits session_config_edits(const Node& call, const Env& sigma) {
    if (find_keyword(call, "config")) return {};
    if (auto own = sigma.get("config_proto")) return {add_argument(call, "config=" + *own)};
    pending_config_ = ctx_.new_id("config");
    return {add_argument(call, "config=" + pending_config_)};
  }

  // Amended: a session bound by assignment (`sess = tf.Session(...)`) is treated as the with item.
  std::optional<StmtResult> session_assign_rule(const Node& s, const Node& call,
                                                const std::string& id_r, const Env& sigma) {
    if (!is_session(call, sigma)) return std::nullopt;
    pending_config_.clear();
    Edits e = session_config_edits(call, sigma);
    StmtResult r{{}, sigma.with("session", id_r)};
    auto tf = sigma.get("tensor_flow_compat");
    if (!pending_config_.empty() && tf)
      r.stmts.push_back(OutStmt::fresh(session_config_code(pending_config_, *tf)));
    pending_config_.clear();
    ctx_.fire(s, "trans_S: session (ConfigProto pinning the GPU)", std::string(section()));
    r.stmts.push_back(OutStmt::keep(s, e));
    return r;
  }
};

}  // namespace

std::unique_ptr<RuleSet> make_session_rules(RewriteContext& ctx) {
  return std::make_unique<SessionRules>(ctx);
}

}  // namespace adlang::py
