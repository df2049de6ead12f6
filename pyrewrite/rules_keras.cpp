// The rule set of the TensorFlow 2.x Keras API pattern (seed 002, Sec. 2.3): the optimizer is
// scaled and wrapped in hvd.DistributedOptimizer, model.fit gets the broadcast callback, and
// saving, printing and logging run on rank 0.
#include "pyrewrite/qualified_name.hpp"
#include "pyrewrite/rules_common.hpp"

namespace adlang::py {

namespace {

// Optimizers Keras accepts by name in model.compile, and the classes they stand for.
std::optional<std::string> optimizer_class_for(std::string_view name) {
  static const std::vector<std::pair<std::string_view, std::string_view>> m = {
      {"adam", "Adam"},       {"sgd", "SGD"},           {"rmsprop", "RMSprop"},
      {"adagrad", "Adagrad"}, {"adadelta", "Adadelta"}, {"adamax", "Adamax"},
      {"nadam", "Nadam"},     {"ftrl", "Ftrl"},         {"adamw", "AdamW"}};
  std::string lower;
  for (char c : name)
    lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const auto& [k, v] : m)
    if (k == lower) return std::string(v);
  return std::nullopt;
}

class KerasRules final : public RuleSet {
 public:
  using RuleSet::RuleSet;
  std::string_view section() const override { return "2.3"; }

 protected:
  StmtResult import_stmt(const Node& s, const Env& sigma, const Env& sigma1) override {
    // Amended: when a TF1 session carries Keras' config (`K.set_session(tf.Session(...))`,
    // Horovod's TF1 Keras example) the GPU is pinned in that ConfigProto, not by the TF2 calls,
    // and standalone Keras gets horovod.keras (its callbacks run in standalone Keras' session).
    StmtResult r =
        ctx_.keras_session_config
            ? tf2_import_rule(s, sigma, sigma1,
                              ctx_.standalone_keras ? "horovod.keras" : "horovod.tensorflow.keras",
                              /*pin_gpus=*/false)
            : tf2_import_rule(s, sigma, sigma1, "horovod.tensorflow.keras");
    // The `math` module the division of epochs (model.fit) needs is imported with Horovod, unless
    // the script imports it at its top level.
    if (r.stmts.size() > 1 && module_) {
      for (const NodePtr& t : module_->list("body"))
        if (t->is(Kind::Import))
          for (const NodePtr& a : t->list("names"))
            if (a->text("name") == "math") math_ = a->has("asname") ? a->text("asname") : "math";
      if (math_.empty() && any_node(*module_, [&](const Node& c) {
            if (!c.is(Kind::Call)) return false;
            auto recv = method_receiver(call_func(c), "fit");
            return recv && ctx_.model_instances.count(*recv) &&
                   !find_keyword(c, "steps_per_epoch") && fit_epochs(c);
          })) {
        math_ = ctx_.new_id("math");
        r.stmts.push_back(
            OutStmt::fresh(math_ == "math" ? "import math" : "import math as " + math_));
      }
    }
    return r;
  }

  // A strict form of assignment statements (2.3): the chain of the document, in its order.
  std::optional<StmtResult> assign_call(const Node& s, const Node& call, const std::string& id_r,
                                        const Env& sigma) override {
    if (auto r = lr_scheduler_rule(s, call, id_r, sigma)) return r;
    if (auto r = optimizer_rule(s, call, id_r, sigma, /*wrap=*/true, TfClass::KerasOptimizer))
      return r;
    // Amended: a TF1 ConfigProto (the config `K.set_session(tf.Session(config=config))` carries
    // to Keras) pins the GPU, as in Horovod's TF1 Keras example.
    if (auto r = config_proto_rule(s, call, id_r, sigma)) return r;
    if (ctx_.keras_sessions.count(id_r))
      if (auto r = session_config_rule(s, call, sigma)) return r;
    if (auto r = model_rule(s, call, id_r, sigma)) return r;
    if (auto r = checkpoint_rule(s, call, id_r, sigma)) return r;
    // Amended: `history = model.fit(...)` is rewritten like the statement form.
    if (auto r = fit_rule(s, call, sigma)) return r;
    if (auto r = root_rank_assign_rule(s, call, id_r, sigma)) return r;
    return std::nullopt;  // # Default: ([id_r = trans_E⟦expr_1(...)⟧(σ)], σ)
  }

  // A strict form of expr statements (2.3).
  std::optional<StmtResult> expr_call(const Node& s, const Node& call, const Env& sigma) override {
    if (auto r = set_visible_devices_rule(s, call, sigma)) return r;
    if (auto r = set_session_rule(s, call, sigma)) return r;
    if (auto r = compile_rule(s, call, sigma)) return r;
    if (auto r = fit_rule(s, call, sigma)) return r;
    // Amended: `model.evaluate(...)` as a statement gets the verbosity of the assigned form.
    if (auto r = model_rule(s, call, "", sigma)) {
      if (!r->stmts.empty() && !r->stmts.front().edits.empty()) return r;
    }
    return root_rank_rule(s, call, sigma);
  }

 private:
  std::string math_;  // the name `math` is imported as (for the division of epochs)

  bool is_model(const Env& sigma, const std::string& id) const {
    return sigma.is("model", id) || ctx_.model_instances.count(id);
  }

  // The Keras namespace as the script spells it: the standalone `keras` package it imports (its
  // models take only its own optimizers and callbacks), else tf.keras, or a name bound to
  // tensorflow.keras.
  std::optional<std::string> keras(const Env& sigma) const {
    for (const auto& [k, v] : sigma.bindings())
      if (k.rfind("import:", 0) == 0 && v == "keras") return k.substr(7);
    if (auto tf = sigma.get("tensor_flow")) return *tf + ".keras";
    for (const auto& [k, v] : sigma.bindings())
      if (k.rfind("import:", 0) == 0 && canonical(v) == "tensorflow.keras") return k.substr(7);
    return std::nullopt;
  }

  // The Keras namespace for the code the rules write. Standalone Keras 2 in a TF1 script that
  // imports only names from it (`from keras.models import Sequential`) is imported as a module
  // before the statement: its models take only its own optimizers and callbacks.
  std::optional<std::string> keras_for_code(const Env& sigma, std::vector<std::string>& pre,
                                            Env& out) {
    for (const auto& [k, v] : sigma.bindings())
      if (k.rfind("import:", 0) == 0 && v == "keras") return k.substr(7);
    if (!standalone_keras2()) return keras(sigma);
    std::string name = ctx_.new_id("keras");
    pre.push_back(name == "keras" ? "import keras" : "import keras as " + name);
    out = out.with("import:" + name, "keras");
    return name;
  }

  // Amended: `K.set_session(tf.Session(config=C))` (Horovod's TF1 Keras example). A config the
  // script names was pinned where it was created (config proto rule); a config written inline
  // is named and pinned before the statement; a session without one is given one.
  std::optional<StmtResult> set_session_rule(const Node& s, const Node& call, const Env& sigma) {
    auto q = resolve(call_func(call), sigma);
    if (!q || !is_set_session(*q) || call_args(call).size() != 1) return std::nullopt;
    const Node& session = *call_args(call).front();
    if (!session.is(Kind::Call)) return std::nullopt;
    return session_config_rule(s, session, sigma);
  }

  // The config of a session Keras is given (inside `K.set_session(...)`, or `sess = tf.Session()`
  // with `K.set_session(sess)`), pinned as above (config_argument_rule).
  std::optional<StmtResult> session_config_rule(const Node& s, const Node& session,
                                                const Env& sigma) {
    auto qs = resolve(call_func(session), sigma);
    if (!qs || (*qs != "tensorflow.Session" && *qs != "tensorflow.InteractiveSession"))
      return std::nullopt;
    return config_argument_rule(s, session, sigma);
  }

  // # model.compile
  // ELIF id_m = σ("model") AND expr_1 = id_m.compile THEN
  //   # string "adam" case
  //   IF id_i = optimizer AND expr_2i = "adam" THEN
  //     ([optim = tf.optimizers.Adam(learning_rate=0.001 * hvd.size), optim =
  //     hvd.DistributedOptimizer(optim),
  //       expr_1(... id_i = optim ...)], σ)
  //   ELIF expr_11 = "adam" THEN likewise with the first positional argument
  //   ELSE ([expr_1(...)], σ)
  // Amended: every optimizer Keras accepts by name (with its default rate), `optim` is a fresh
  // name, hvd.size() is called; an optimizer constructed inside the call is scaled and wrapped
  // in place.
  std::optional<StmtResult> compile_rule(const Node& s, const Node& call, const Env& sigma) {
    auto recv = method_receiver(call_func(call), "compile");
    if (!recv || !is_model(sigma, *recv)) return std::nullopt;
    Env out = sigma.has("model") ? sigma : sigma.with("model", *recv);
    const Node* opt = nullptr;
    if (const Node* kw = find_keyword(call, "optimizer"))
      opt = kw->child("value");
    else if (!call_args(call).empty())
      opt = call_args(call).front().get();
    if (!opt) return same(s, out);
    if (opt->is(Kind::Constant) && opt->constant_type == ConstantType::Str) {
      auto cls = optimizer_class_for(opt->str_value);
      std::vector<std::string> pre;
      auto rate = cls ? default_rate("tensorflow.keras.optimizers." + *cls) : std::nullopt;
      auto k = rate ? keras_for_code(sigma, pre, out) : std::nullopt;
      if (!cls || !k || !rate) {
        ctx_.warn(*opt, "optimizer '" + opt->str_value +
                            "' given by name is not one the rules "
                            "know; it is not wrapped in " +
                            hvd() + ".DistributedOptimizer");
        return same(s, out);
      }
      std::string optim = ctx_.new_id("optim");
      ctx_.fire(s, "trans_S: model.compile (optimizer given by name)", std::string(section()));
      StmtResult r{{}, out.with("optimizer", optim).with("optimizer:" + optim, optim)};
      for (std::string& p : pre)
        r.stmts.push_back(OutStmt::fresh(std::move(p)));
      r.stmts.push_back(OutStmt::fresh(optim + " = " + *k + ".optimizers." + *cls +
                                       (standalone_keras2() ? "(" : "(learning_rate=") + *rate +
                                       " * " + size() + ")"));
      r.stmts.push_back(
          OutStmt::fresh(optim + " = " + hvd() + ".DistributedOptimizer(" + optim + ")"));
      r.stmts.push_back(OutStmt::keep(s, {replace(*opt, optim)}));
      return r;
    }
    if (opt->is(Kind::Call) && is_subclass(call_func(*opt), sigma, TfClass::KerasOptimizer)) {
      auto q = resolve(call_func(*opt), sigma);
      auto scaled = scale_argument(*opt, {"learning_rate", "lr"}, "*", sigma,
                                   q ? default_rate(*q) : std::nullopt);
      ctx_.fire(s, "trans_S: model.compile (optimizer constructed in the call: scaled, wrapped)",
                std::string(section()));
      return same(s, out,
                  {replace(*opt, hvd() + ".DistributedOptimizer(" +
                                     ctx_.src(*opt, scaled.value_or(Edits{})) + ")")});
    }
    return same(s, out);
  }

  // The number of epochs of `model.fit(x, y, batch_size, epochs, ...)`, or nullptr.
  static const Node* fit_epochs(const Node& call) {
    if (const Node* kw = find_keyword(call, "epochs")) return kw->child("value");
    const auto& args = call_args(call);
    for (std::size_t i = 0; i < args.size() && i < 4; ++i)
      if (args[i]->is(Kind::Starred)) return nullptr;
    return args.size() >= 4 ? args[3].get() : nullptr;
  }

  // # model.fit
  // ELIF id_m = σ("model") AND expr_1 = id_m.fit THEN
  //   IF id_i = callbacks THEN
  //     ([callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)],
  //       if hvd.rank() == 0: callbacks.append(expr_2i),
  //       expr_1(... callbacks = callbacks ...)], σ)
  //   ELSE ([callbacks = [...], expr_1(... callbacks = callbacks)], σ)
  // Amended: `callbacks` is a fresh name; the user's callbacks are added as a list, not appended
  // as one element; on ranks other than 0 only the checkpoint and TensorBoard callbacks are left
  // out (Horovod's guidance; every other callback must run on all ranks); steps_per_epoch is
  // divided by hvd.size() and verbose is 0 except on rank 0, as Horovod's Keras guide does.
  std::optional<StmtResult> fit_rule(const Node& s, const Node& call, const Env& sigma) {
    auto recv = method_receiver(call_func(call), "fit");
    if (!recv || !is_model(sigma, *recv)) return std::nullopt;
    std::string cb = ctx_.new_id("callbacks");
    const std::string& h = hvd();
    std::vector<std::string> pre;
    Env out = sigma;
    pre.push_back(cb + " = [" + h + ".callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]");
    Edits e;
    std::vector<std::string> added;
    if (const Node* kw = find_keyword(call, "callbacks")) {
      const Node& user = *kw->child("value");
      std::string c = ctx_.new_id("callback");
      if (auto k = keras_for_code(sigma, pre, out)) {
        pre.push_back(cb + " += [" + c + " for " + c + " in " + ctx_.src(user) + " if " + rank0() +
                      " or not isinstance(" + c + ", (" + *k + ".callbacks.ModelCheckpoint, " + *k +
                      ".callbacks.TensorBoard))]");
      } else {
        pre.push_back("if " + rank0() + ":\n    " + cb + ".extend(" + ctx_.src(user) + ")");
      }
      e.push_back(replace(user, cb));
    } else {
      added.push_back("callbacks=" + cb);
    }
    if (const Node* kw = find_keyword(call, "steps_per_epoch")) {
      e.push_back(replace(*kw->child("value"), operand(*kw->child("value")) + " // " + size()));
    } else if (const Node* epochs = fit_epochs(call)) {
      // Amended: without steps_per_epoch every worker goes through the whole data set in an
      // epoch, so the number of epochs is divided, as Horovod's Keras example does
      // (`epochs = int(math.ceil(12.0 / hvd.size()))`).
      std::string math = math_;
      for (const auto& [k, v] : out.bindings())
        if (k.rfind("import:", 0) == 0 && v == "math") math = k.substr(7);
      if (math.empty()) {
        math = ctx_.new_id("math");
        pre.insert(pre.begin(), math == "math" ? "import math" : "import math as " + math);
        out = out.with("import:" + math, "math");
      }
      e.push_back(
          replace(*epochs, "int(" + math + ".ceil(" + operand(*epochs) + " / " + size() + "))"));
    }
    if (const Node* kw = find_keyword(call, "verbose")) {
      if (!is_silent(*kw->child("value")))
        e.push_back(replace(*kw->child("value"),
                            operand(*kw->child("value")) + " if " + rank0() + " else 0"));
    } else {
      added.push_back("verbose=1 if " + rank0() + " else 0");
    }
    if (!added.empty()) e.push_back(add_arguments(call, added));
    ctx_.fire(s, "trans_S: model.fit (broadcast callback)", std::string(section()));
    StmtResult r{{}, out};
    for (std::string& p : pre)
      r.stmts.push_back(OutStmt::fresh(std::move(p)));
    r.stmts.push_back(OutStmt::keep(s, e));
    return r;
  }
};

}  // namespace

std::unique_ptr<RuleSet> make_keras_rules(RewriteContext& ctx) {
  return std::make_unique<KerasRules>(ctx);
}

}  // namespace adlang::py
