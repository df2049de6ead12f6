// The rule set of the TensorFlow 2.x GradientTape API pattern (seed 002, Sec. 2.4): the tape is
// wrapped in hvd.DistributedGradientTape after its `with` block, the model and optimizer
// variables are broadcast from rank 0 after the first apply_gradients, dataset steps are divided
// by hvd.size(), and saving and printing run on rank 0.
#include "pyrewrite/qualified_name.hpp"
#include "pyrewrite/rules_common.hpp"

namespace adlang::py {

namespace {

bool mentions_call(const Node& n, const std::string& receiver, std::string_view method) {
  if (n.is(Kind::Call)) {
    auto r = method_receiver(call_func(n), method);
    if (r && *r == receiver) return true;
  }
  for (const Field& f : n.fields) {
    if (f.tag == Field::Tag::Node && mentions_call(*f.node, receiver, method)) return true;
    if (f.tag == Field::Tag::List)
      for (const NodePtr& c : f.list)
        if (c && mentions_call(*c, receiver, method)) return true;
  }
  return false;
}

class TapeRules final : public RuleSet {
 public:
  using RuleSet::RuleSet;
  std::string_view section() const override { return "2.4"; }

 protected:
  // trans_S⟦import alias*⟧(σ) (2.4): as 2.3, plus `hvd_broadcast_done = False` (trans_M places
  // one flag per optimizer after this import).
  // Amended: a TensorFlow 1 script in eager mode (`tf.enable_eager_execution()`) pins the GPU in
  // the config of that call, as Horovod's TF1 eager example does (TensorFlow 1 before 1.14 has
  // no tf.config).
  StmtResult import_stmt(const Node& s, const Env& sigma, const Env& sigma1) override {
    return tf2_import_rule(s, sigma, sigma1, "horovod.tensorflow", !ctx_.tf1_eager);
  }

  // trans_A⟦id⟧(σ) (2.4) adds: LET id = config THEN σ["config" ↦ id]
  Env trans_A(const Node& alias, const Env& sigma) override {
    Env e = RuleSet::trans_A(alias, sigma);
    if (alias.text("name") == "config")
      return e.with("config", alias.has("asname") ? alias.text("asname") : "config");
    return e;
  }

  // A strict form of assignment statements (2.4).
  std::optional<StmtResult> assign_call(const Node& s, const Node& call, const std::string& id_r,
                                        const Env& sigma) override {
    // # Dataset
    // IF σ("tensor_flow") = id_t AND expr_1 = id_t.data.Dataset.expr_3 THEN
    //     ([id_r = expr_1(...)], σ["dataset" ↦ id_r])
    // Amended: also a chain of dataset methods on such a call (...from_tensor_slices(x).batch(n)).
    if (is_dataset(call, sigma)) {
      ctx_.fire(s, "trans_S: dataset (recorded)", std::string(section()));
      return same(s, sigma.with("dataset", id_r), trans_E(call, sigma));
    }
    // # Variable Broadcasting: id_r = σ("optimizer").apply_gradients(...)
    if (auto r = apply_gradients_rule(s, call, sigma)) return r;
    if (auto r = lr_scheduler_rule(s, call, id_r, sigma)) return r;
    // # Optimizer: ([id_r = expr_1(...)], σ["optimizer" ↦ id_r])
    // Amended: the learning rate is scaled by hvd.size() as in the other patterns.
    if (auto r = optimizer_rule(s, call, id_r, sigma, /*wrap=*/false, TfClass::KerasOptimizer))
      return r;
    // Amended: TF1 optimizers (tf.compat.v1.train.AdamOptimizer, ...) used with a tape in eager
    // mode are scaled and broadcast likewise.
    if (auto r = optimizer_rule(s, call, id_r, sigma, /*wrap=*/false, TfClass::Tf1Optimizer))
      return r;
    if (auto r = model_rule(s, call, id_r, sigma)) return r;
    if (auto r = checkpoint_rule(s, call, id_r, sigma)) return r;
    // Amended: the ConfigProto a TF1 eager script passes to tf.enable_eager_execution pins the GPU.
    if (ctx_.tf1_eager)
      if (auto r = config_proto_rule(s, call, id_r, sigma)) return r;
    if (auto r = root_rank_assign_rule(s, call, id_r, sigma)) return r;
    return std::nullopt;
  }

  // trans_S⟦expr_1 : expr_2 (= expr_3)?⟧(σ) =
  //   # Dataset
  //   IF expr_1 = id_1 AND σ("tensor_flow") = id_2 AND expr_3 = id_2.data.Dataset.expr_4(...) THEN
  //     ([expr_1 : expr_2 = expr_3], σ["dataset" ↦ id_1])
  //   ELSE ([expr_1 : expr_2 (= trans_E⟦expr_3⟧(σ))?], σ)
  std::optional<StmtResult> ann_assign(const Node& s, const Env& sigma) override {
    const Node* v = s.child("value");
    const Node& t = *s.child("target");
    if (v && t.is(Kind::Name) && v->is(Kind::Call) && is_dataset(*v, sigma)) {
      ctx_.fire(s, "trans_S: dataset (recorded)", std::string(section()));
      return same(s, sigma.with("dataset", t.text("id")));
    }
    return std::nullopt;
  }

  // trans_S⟦(#type:s)? (async)? for expr_1 in expr_2 : ...⟧(σ) =
  //   # Adjust Steps
  //   IF σ("config") = id_c AND (expr_2 = range(id_c.iterations_per_epoch) OR
  //                              expr_2 = tqdm(range(id_c.iterations_per_epoch))) THEN
  //     ([for expr_1 in range(id_c.iterations_per_epoch // hvd.size()) : ...], σ)
  std::optional<StmtResult> for_loop(const Node& s, const Env& sigma) override {
    auto id_c = sigma.get("config");
    if (!id_c) return std::nullopt;
    const Node* it = s.child("iter");
    if (it->is(Kind::Call) && is_name(call_func(*it), "tqdm") && call_args(*it).size() == 1)
      it = call_args(*it).front().get();
    if (!it->is(Kind::Call) || !is_name(call_func(*it), "range") || call_args(*it).size() != 1 ||
        !is_member(*call_args(*it).front(), *id_c, "iterations_per_epoch"))
      return std::nullopt;
    const Node& n = *call_args(*it).front();
    ctx_.fire(s, "trans_S: adjust steps (iterations per epoch / hvd.size())",
              std::string(section()));
    Edits e{replace(n, ctx_.src(n) + " // " + size())};
    ++conditional_depth_;
    for (const char* f : {"body", "orelse"}) {
      const auto& stmts = s.list(f);
      if (stmts.empty()) continue;
      ++depth_;
      StmtResult b = trans_Sbar(stmts, sigma);
      --depth_;
      Edits be = emit_block(stmts, b.stmts, ctx_.layout(), &s);
      e.insert(e.end(), be.begin(), be.end());
    }
    --conditional_depth_;
    return same(s, sigma, e);
  }

  // trans_S⟦(#type:s)? (async)? with with_item* : stmt*⟧(σ) =
  //   LET with_item*', σ_1 = trans_W̄⟦with_item*⟧(σ) IN LET stmt*', σ_2 = trans_S̄⟦stmt*⟧(σ_1) IN
  //   # Wrapping Gradient Tape
  //   IF σ_1 \ σ = ["gradient_tape" ↦ id] THEN
  //     ([with with_item*' : stmt*', id = hvd.DistributedGradientTape(id)], σ_2)
  //   ELSE ([with with_item*' : stmt*'], σ_2)
  // Amended: when the body itself calls id.gradient, the tape is wrapped in the body, before
  // the first statement that does.
  std::optional<StmtResult> with_stmt(const Node& s, const Env& sigma) override {
    std::vector<std::string> outer = std::move(bound_tapes_);
    bound_tapes_.clear();
    auto [e, sigma1] = trans_Wbar(s.list("items"), sigma);
    // σ_1 \ σ: every tape the items bind (one `with` may open several tapes).
    std::vector<std::string> tapes = std::move(bound_tapes_);
    bound_tapes_ = std::move(outer);
    const auto& stmts = s.list("body");
    ++depth_;
    StmtResult b = trans_Sbar(stmts, sigma1);
    --depth_;
    std::vector<std::string> after;
    for (const std::string& tape : tapes) {
      std::string wrap = tape + " = " + hvd() + ".DistributedGradientTape(" + tape + ")";
      bool inside = false;
      for (const NodePtr& st : stmts) {
        if (!mentions_call(*st, tape, "gradient")) continue;
        std::size_t at = 0;
        while (at < b.stmts.size() && b.stmts[at].source != st.get())
          ++at;
        OutStmt w = OutStmt::fresh(wrap);
        w.source = st.get();
        b.stmts.insert(b.stmts.begin() + static_cast<long>(at), w);
        inside = true;
        break;
      }
      if (!inside) after.push_back(wrap);
      ctx_.fire(s, "trans_S: wrapping gradient tape", std::string(section()));
    }
    Edits be = emit_block(stmts, b.stmts, ctx_.layout(), &s);
    e.insert(e.end(), be.begin(), be.end());
    StmtResult r = same(s, b.env, e);
    for (std::string& w : after)
      r.stmts.push_back(OutStmt::fresh(std::move(w)));
    return r;
  }

  // trans_W⟦expr_1 as expr_2⟧(σ) =
  //   IF σ("tensor_flow") = id_1 AND expr_1 = id_1.GradientTape() AND expr_2 = id_2 THEN
  //     (expr_1 as expr_2, σ["gradient_tape" ↦ id_2])
  //   ELSE (trans_E⟦expr_1⟧(σ) as expr_2, σ)
  std::pair<Edits, Env> trans_W(const Node& item, const Env& sigma) override {
    const Node& ctx_expr = *item.child("context_expr");
    const Node* as = item.child("optional_vars");
    if (as && as->is(Kind::Name) && ctx_expr.is(Kind::Call)) {
      auto q = resolve(call_func(ctx_expr), sigma);
      if (q && *q == "tensorflow.GradientTape") {
        bound_tapes_.push_back(as->text("id"));
        return {trans_E(ctx_expr, sigma), sigma.with("gradient_tape", as->text("id"))};
      }
    }
    return RuleSet::trans_W(item, sigma);
  }

  // A strict form of expr statements (2.4).
  std::optional<StmtResult> expr_call(const Node& s, const Node& call, const Env& sigma) override {
    if (auto r = apply_gradients_rule(s, call, sigma)) return r;
    if (auto r = set_visible_devices_rule(s, call, sigma)) return r;
    if (auto q = resolve(call_func(call), sigma); q && *q == "tensorflow.enable_eager_execution")
      if (auto r = config_argument_rule(s, call, sigma)) return r;
    return root_rank_rule(s, call, sigma);
  }

  // trans_E⟦expr_1(...)⟧(σ) =
  //   # Adjust Steps
  //   IF σ("dataset") = id_t AND expr_1 = id_t.take THEN
  //     IF id_i = count THEN expr_1(... id_i = expr_2i // hvd.size() ...)
  //     ELSE expr_1(expr_11 // hvd.size() ...)
  std::optional<Edits> call_E(const Node& call, const Env& sigma) override {
    const Node& f = call_func(call);
    auto ds = sigma.get("dataset");
    if (ds && method_receiver(f, "take") == ds) {
      if (auto e = scale_argument(call, {"count"}, "//", sigma, std::nullopt)) {
        ctx_.fire(call, "trans_E: adjust steps (dataset.take / hvd.size())",
                  std::string(section()));
        return e;
      }
    }
    // Restriction 2.1.8: apply_gradients must be a statement or the right-hand side of one.
    auto recv = method_receiver(f, "apply_gradients");
    if (recv && sigma.has("optimizer:" + *recv))
      ctx_.warn(call,
                "restriction 2.1.8: apply_gradients is nested inside an expression; the "
                "initial broadcast of the variables is not inserted",
                {"write `" + *recv + ".apply_gradients(...)` as a statement of its own"});
    return std::nullopt;
  }

 private:
  bool is_dataset(const Node& call, const Env& sigma) const {
    const Node* c = &call;
    while (c->is(Kind::Call)) {
      const Node& f = call_func(*c);
      auto q = resolve(f, sigma);
      if (q && q->rfind("tensorflow.data.", 0) == 0) return true;
      if (!f.is(Kind::Attribute)) return false;
      c = f.child("value");
    }
    return false;
  }

  std::vector<std::string> bound_tapes_;  // tapes bound by the with items being rewritten

  // `id` is a parameter of the function being rewritten.
  bool is_parameter_of_frame(const std::string& id) {
    FunctionFrame* fr = frame();
    if (!fr || !fr->def) return false;
    const Node& args = *fr->def->child("args");
    for (const char* field : {"posonlyargs", "args", "kwonlyargs"})
      for (const NodePtr& a : args.list(field))
        if (a->text("arg") == id) return true;
    return false;
  }

  // # Variable Broadcasting
  // ELIF σ("optimizer") = id_t AND expr_1 = id_t.apply_gradients THEN
  //   IF id_i = grads_and_vars THEN
  //     LET id_z = NewID() IN
  //     ([id_z = expr_2i, (id_r =)? expr_1(... id_i = id_z ...), global hvd_broadcast_done,
  //       if not hvd_broadcast_done: [hvd.broadcast_variables([x[1] for x in id_z], root_rank=0),
  //         hvd.broadcast_variables(id_t.variables(), root_rank=0), hvd_broadcast_done = True]], σ)
  //   ELSE likewise with expr_11
  // Amended: `id_z = list(...)` (a zip iterator is consumed by apply_gradients); one flag per
  // optimizer; `global` once, at the top of the function; inside @tf.function the flag is a
  // tf.Variable (docs/pyrewrite.md).
  std::optional<StmtResult> apply_gradients_rule(const Node& s, const Node& call,
                                                 const Env& sigma) {
    auto recv = method_receiver(call_func(call), "apply_gradients");
    if (!recv) return std::nullopt;
    // Amended: an optimizer that reaches the training function as a parameter
    // (`def train(model, optimizer, dataset)`) is broadcast under the parameter's name.
    bool parameter = !sigma.has("optimizer:" + *recv) && !sigma.is("optimizer", *recv) &&
                     is_parameter_of_frame(*recv);
    if (parameter)
      ctx_.fire(s, "trans_S: the optimizer is a parameter of the training function",
                std::string(section()));
    if (!parameter && !sigma.has("optimizer:" + *recv) && !sigma.is("optimizer", *recv)) {
      ctx_.warn(call, "restriction 2.1.9: '" + *recv +
                          "' is not an optimizer created (by an "
                          "assignment, before this point) where the rules can see it; the initial "
                          "broadcast of the variables is not inserted");
      return std::nullopt;
    }
    const Node* gv = nullptr;
    if (const Node* kw = find_keyword(call, "grads_and_vars"))
      gv = kw->child("value");
    else if (!call_args(call).empty())
      gv = call_args(call).front().get();
    if (!gv || gv->is(Kind::Starred)) return std::nullopt;
    FunctionFrame* fr = frame();
    bool tf_fn = fr && fr->tf_function;
    BroadcastFlag flag = ctx_.broadcast_flag(*recv, tf_fn);
    std::string z = ctx_.new_id("grads_and_vars");
    std::string gv_text = ctx_.src(*gv, trans_E(*gv, sigma));
    bool is_list = gv->is(Kind::List) || gv->is(Kind::ListComp);
    const std::string& h = hvd();
    std::string broadcast = "if not " + flag.name + ":\n    " + h +
                            ".broadcast_variables([x[1] for x in " + z + "], root_rank=0)\n    " +
                            h + ".broadcast_variables(" + *recv +
                            ".variables(), root_rank=0)\n    " +
                            (tf_fn ? flag.name + ".assign(True)" : flag.name + " = True");
    if (fr && !tf_fn) {
      bool have = false;
      for (const std::string& g : fr->globals)
        have = have || g == flag.name;
      if (!have) fr->globals.push_back(flag.name);
    }
    ctx_.fire(s, "trans_S: variable broadcasting after the first apply_gradients",
              std::string(section()));
    StmtResult r{{}, sigma};
    r.stmts.push_back(OutStmt::fresh(z + " = " + (is_list ? gv_text : "list(" + gv_text + ")")));
    r.stmts.push_back(OutStmt::keep(s, {replace(*gv, z)}));
    r.stmts.push_back(OutStmt::fresh(broadcast));
    return r;
  }
};

}  // namespace

std::unique_ptr<RuleSet> make_tape_rules(RewriteContext& ctx) {
  return std::make_unique<TapeRules>(ctx);
}

}  // namespace adlang::py
