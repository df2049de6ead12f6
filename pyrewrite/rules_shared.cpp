// The rule pieces the rewrite document writes identically in several patterns' rule sets
// (seed 002, Sec. 2.3-2.6), and the amendments they share (docs/pyrewrite.md).
#include "pyrewrite/qualified_name.hpp"
#include "pyrewrite/rules_common.hpp"

namespace adlang::py {

namespace {

bool is_str(const Node& e, std::string_view v) {
  return e.is(Kind::Constant) && e.constant_type == ConstantType::Str && e.str_value == v;
}

}  // namespace

// # Learning rate scheduler scaling
// IF expr_1 <: "tensorflow.keras.optimizers.schedules.PiecewiseConstantDecay" THEN
//     ([id_r = expr_1(...)], σ["lr_scheduler" ↦ id_r])
// ELIF expr_1 <: tensorflow.keras.optimizers.schedules.LearningRateSchedule THEN
//     IF id_i = initial_learning_rate THEN (... id_i = expr_2i * hvd.size() ...)
//     ELSE (... expr_11 * hvd.size() ...), σ["lr_scheduler" ↦ id_r]
// ELIF expr_1 <: tensorflow.compat.v1.train.exponential_decay THEN
//     likewise with learning_rate
std::optional<StmtResult> RuleSet::lr_scheduler_rule(const Node& s, const Node& call,
                                                     const std::string& id_r, const Env& sigma) {
  const Node& f = call_func(call);
  if (is_subclass(f, sigma, TfClass::PiecewiseConstantDecay)) {
    ctx_.fire(s, "trans_S: learning rate scheduler (PiecewiseConstantDecay, recorded)",
              std::string(section()));
    return same(s, sigma.with("lr_scheduler", id_r));
  }
  std::vector<std::string> kw;
  if (is_subclass(f, sigma, TfClass::LearningRateSchedule))
    kw = {"initial_learning_rate"};
  else if (is_subclass(f, sigma, TfClass::Tf1DecayFunction))
    kw = {"learning_rate"};
  else
    return std::nullopt;
  auto e = scale_argument(call, kw, "*", sigma, std::nullopt);
  if (!e) {
    ctx_.warn(call, "the learning rate schedule has no " + kw.front() + " argument; not scaled");
    return same(s, sigma.with("lr_scheduler", id_r));
  }
  ctx_.fire(s, "trans_S: learning rate scheduler scaling", std::string(section()));
  return same(s, sigma.with("lr_scheduler", id_r), *e);
}

// # Optimizer learning rate scaling and wrapping
// ELIF expr_1 <: tensorflow.keras.optimizers.Optimizer THEN
//     IF id_i = learning_rate THEN ([id_r = expr_1(... id_i = expr_2i * hvd.size() ...),
//                                    id_r = hvd.DistributedOptimizer(id_r)], σ["optimizer" ↦ id_r])
//     ELSE ([id_r = expr_1(expr_11 * hvd.size() ...), id_r = hvd.DistributedOptimizer(id_r)], ...)
// Amended: no learning rate argument -> learning_rate=<the class's default> * hvd.size();
// an already scaled schedule (σ("lr_scheduler")) is not scaled again.
std::optional<StmtResult> RuleSet::optimizer_rule(const Node& s, const Node& call,
                                                  const std::string& id_r, const Env& sigma,
                                                  bool wrap, TfClass c) {
  const Node& f = call_func(call);
  if (!is_subclass(f, sigma, c)) return std::nullopt;
  auto q = resolve(f, sigma);
  auto e = scale_argument(call, {"learning_rate", "lr"}, "*", sigma,
                          q ? default_rate(*q) : std::nullopt);
  if (!e) {
    ctx_.warn(call,
              "the optimizer has no learning rate argument and its default is unknown; "
              "the learning rate is not scaled by " +
                  size());
    e = Edits{};
  }
  if (conditional_depth_ > 0)
    ctx_.warn(s, "restriction 2.1.7: the optimizer is created conditionally",
              {"the rules assume one optimizer created unconditionally; check that every branch "
               "creates and wraps it"});
  StmtResult r = same(s, sigma.with("optimizer", id_r).with("optimizer:" + id_r, id_r), *e);
  if (wrap) {
    r.stmts.push_back(OutStmt::fresh(id_r + " = " + hvd() + ".DistributedOptimizer(" + id_r + ")"));
    ctx_.fire(s, "trans_S: optimizer learning rate scaling and wrapping", std::string(section()));
  } else {
    ctx_.fire(s, "trans_S: optimizer learning rate scaling", std::string(section()));
  }
  return r;
}

// `0` or `False`: a verbosity that prints nothing.
bool is_silent(const Node& e) {
  return e.is(Kind::Constant) &&
         (e.constant_type == ConstantType::Int || e.constant_type == ConstantType::Bool) &&
         (e.text("value") == "0" || e.text("value") == "False");
}

// # Model related
// ELIF expr_1 <: tensorflow.keras.Model THEN ([id_r = expr_1(...)], σ["model" ↦ id_r])
// ELIF id_m = σ("model") AND expr_1 = id_m.evaluate THEN
//     IF id_i = verbose THEN (... id_i = 1 if hvd.rank() == 0 else 0 ...)
//     ELSE (... verbose = 1 if hvd.rank() == 0 else 0 ...)   (a keyword: see docs/pyrewrite.md)
std::optional<StmtResult> RuleSet::model_rule(const Node& s, const Node& call,
                                              const std::string& id_r, const Env& sigma) {
  const Node& f = call_func(call);
  if (is_subclass(f, sigma, TfClass::KerasModel)) {
    ctx_.fire(s, "trans_S: model related (model recorded)", std::string(section()));
    return same(s, sigma.with("model", id_r));
  }
  auto recv = method_receiver(f, "evaluate");
  if (recv && (sigma.is("model", *recv) || ctx_.model_instances.count(*recv))) {
    Edits e;
    // Amended: `verbose=0` is silent on every rank already and stays as it is.
    if (const Node* kw = find_keyword(call, "verbose")) {
      if (!is_silent(*kw->child("value")))
        e.push_back(replace(*kw->child("value"),
                            operand(*kw->child("value")) + " if " + rank0() + " else 0"));
    } else {
      e.push_back(add_argument(call, "verbose=1 if " + rank0() + " else 0"));
    }
    ctx_.fire(s, "trans_S: model.evaluate verbosity on rank 0", std::string(section()));
    return same(s, sigma, e);
  }
  return std::nullopt;
}

// # Checkpoint
// ELIF σ("tensor_flow") = id_t AND expr_1 = id_t.train.Checkpoint THEN
//     ([id_r = expr_1(...)], σ["checkpoint" ↦ id_r])
std::optional<StmtResult> RuleSet::checkpoint_rule(const Node& s, const Node& call,
                                                   const std::string& id_r, const Env& sigma) {
  auto q = resolve(call_func(call), sigma);
  if (!q || *q != "tensorflow.train.Checkpoint") return std::nullopt;
  ctx_.fire(s, "trans_S: checkpoint (recorded)", std::string(section()));
  return same(s, sigma.with("checkpoint", id_r));
}

// # Config
// IF id_t = σ("tensor_flow") AND expr_1 = id_t.config.experimental.set_visible_devices THEN ([], σ)
std::optional<StmtResult> RuleSet::set_visible_devices_rule(const Node& s, const Node& call,
                                                            const Env& sigma) {
  auto q = resolve(call_func(call), sigma);
  if (!q || (*q != "tensorflow.config.experimental.set_visible_devices" &&
             *q != "tensorflow.config.set_visible_devices"))
    return std::nullopt;
  ctx_.fire(s, "trans_S: config (set_visible_devices removed; Horovod pins the GPU)",
            std::string(section()));
  return StmtResult{{}, sigma};
}

// # Root Rank Blocking
// ELIF id_m = σ("model") AND (expr_1 = id_m.write OR id_m.summary OR id_m.save_weights OR
//      expr.load_weights OR id_m.save) OR id_c = σ("checkpoint") AND expr_1 = id_c.save OR
//      id_t = σ("tensor_flow") AND expr_1 = id_t.print OR expr_1 = print THEN
//     ([if hvd.rank() == 0: expr_1(...)], σ)
// Amended: a TF1 Saver's save (σ("saver")) is guarded too.
bool RuleSet::root_rank_call(const Node& call, const Env& sigma) const {
  const Node& f = call_func(call);
  if (is_name(f, "print")) return true;
  if (is_key_member(f, sigma, "tensor_flow", "print") ||
      is_key_member(f, sigma, "tensor_flow_compat", "print"))
    return true;
  if (f.is(Kind::Attribute) && f.text("attr") == "load_weights") return true;
  for (const char* m : {"write", "summary", "save_weights", "save"}) {
    auto recv = method_receiver(f, m);
    if (recv && (sigma.is("model", *recv) || ctx_.model_instances.count(*recv))) return true;
  }
  auto recv = method_receiver(f, "save");
  return recv && (sigma.is("checkpoint", *recv) || sigma.is("saver", *recv));
}

std::optional<StmtResult> RuleSet::root_rank_rule(const Node& s, const Node& call,
                                                  const Env& sigma) {
  if (!root_rank_call(call, sigma)) return std::nullopt;
  const Node& f = call_func(call);
  bool printing = is_name(f, "print") || (f.is(Kind::Attribute) && f.text("attr") == "print");
  bool pure = true;
  for (const NodePtr& a : call_args(call))
    pure = pure && pure_for_printing(*a, sigma);
  for (const NodePtr& k : call_keywords(call))
    pure = pure && pure_for_printing(*k->child("value"), sigma);
  if (printing && !pure) {
    ctx_.warn(s, "restriction 2.1.4: this print call has side effects; it is left on all ranks",
              {"guarding it with `if " + rank0() +
               ":` would skip those side effects (and any "
               "collective operation among them) on the other ranks"});
    return same(s, sigma);
  }
  ctx_.fire(s, "trans_S: root rank blocking", std::string(section()));
  OutStmt o = OutStmt::keep(s);
  o.guard = rank0();
  return StmtResult{{o}, sigma};
}

// Amended: `id_r = <root-rank call>` runs on rank 0 only, after `id_r = None`, so the name is
// bound on every rank.
std::optional<StmtResult> RuleSet::root_rank_assign_rule(const Node& s, const Node& call,
                                                         const std::string& id_r,
                                                         const Env& sigma) {
  if (!root_rank_call(call, sigma) || is_name(call_func(call), "print")) return std::nullopt;
  ctx_.fire(s, "trans_S: root rank blocking (assigned result)", std::string(section()));
  OutStmt o = OutStmt::keep(s);
  o.guard = rank0();
  return StmtResult{{OutStmt::fresh(id_r + " = None"), o}, sigma};
}

// trans_S⟦expr_0 = expr_1 (#type:s)?⟧(σ) =
//     IF σ("os") = id_os AND expr_0 = id_os.environ['CUDA_VISIBLE_DEVICES'] THEN ([], σ)
std::optional<StmtResult> RuleSet::cuda_devices_rule(const Node& s, const Env& sigma) {
  if (!s.is(Kind::Assign) || s.list("targets").size() != 1) return std::nullopt;
  const Node& t = *s.list("targets").front();
  if (!t.is(Kind::Subscript)) return std::nullopt;
  auto os = sigma.get("os");
  if (!os || !is_member(*t.child("value"), *os, "environ") ||
      !is_str(*t.child("slice"), "CUDA_VISIBLE_DEVICES"))
    return std::nullopt;
  ctx_.fire(s, "trans_S: CUDA visible devices (removed; Horovod pins the GPU)",
            std::string(section()));
  return StmtResult{{}, sigma};
}

// Amended: the `config=` of a TF1 call that configures TensorFlow for the script (the session
// Keras is given, `tf.enable_eager_execution(...)`), as Horovod's TF1 examples pin the GPU. A
// config the script names was pinned where it was created (config proto rule); one written inline
// is named and pinned before the statement; a call without one is given one (`tf.ConfigProto`
// beside `tf.Session`, `tf.compat.v1.ConfigProto` beside `tf.compat.v1.Session`).
std::optional<StmtResult> RuleSet::config_argument_rule(const Node& s, const Node& carrier,
                                                        const Env& sigma) {
  const Node* config = find_keyword(carrier, "config");
  if (config && config->child("value")->is(Kind::Name) &&
      sigma.is("config_proto", config->child("value")->text("id")))
    return std::nullopt;
  std::string prefix = ctx_.src(call_func(carrier));
  if (prefix.rfind('.') != std::string::npos) {
    prefix = prefix.substr(0, prefix.rfind('.'));
  } else if (auto tf = sigma.get("tensor_flow")) {
    prefix = *tf;
  } else {
    ctx_.warn(carrier,
              "the call has no config and the rules do not know the name of tensorflow here; "
              "the GPU is not pinned");
    return std::nullopt;
  }
  std::string name = ctx_.new_id("config");
  std::string code =
      name + " = " + (config ? ctx_.src(*config->child("value")) : prefix + ".ConfigProto()");
  code += "\n" + name + ".gpu_options.allow_growth = True";
  code += "\n" + name + ".gpu_options.visible_device_list = str(" + hvd() + ".local_rank())";
  ctx_.fire(s, "trans_S: TF1 config argument (ConfigProto pinning the GPU)",
            std::string(section()));
  StmtResult r{{OutStmt::fresh(code)}, sigma.with("config_proto", name)};
  r.stmts.push_back(OutStmt::keep(s, {config ? replace(*config->child("value"), name)
                                             : add_argument(carrier, "config=" + name)}));
  return r;
}

// Amended: the script's own `C.gpu_options.visible_device_list = X` (σ("config_proto") = C)
// would undo the pinning: X becomes str(hvd.local_rank()).
std::optional<StmtResult> RuleSet::visible_device_list_rule(const Node& s, const Env& sigma) {
  if (!s.is(Kind::Assign) || s.list("targets").size() != 1) return std::nullopt;
  auto d = dotted_name(*s.list("targets").front());
  auto c = sigma.get("config_proto");
  if (!d || !c || *d != *c + ".gpu_options.visible_device_list") return std::nullopt;
  ctx_.fire(s, "trans_S: config proto (the script's device list replaced by the local rank)",
            std::string(section()));
  return same(s, sigma, {replace(*s.child("value"), "str(" + hvd() + ".local_rank())")});
}

// trans_S⟦import alias*⟧(σ) (2.3, 2.4) =
//   LET σ_1 = trans_Ā⟦alias*⟧(σ) IN
//   IF σ_1 \ σ = ["tensor_flow" ↦ id] THEN
//     ([import alias*, import horovod.tensorflow as hvd, hvd.init(),
//       gpus = id.config.experimental.list_physical_devices('GPU'),
//       for gpu in gpus: id.config.experimental.set_memory_growth(gpu, True),
//       if gpus: id.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')], σ_1)
//   ELSE ([import alias*], σ_1)
// Amended: read "σ_1 \ σ contains tensor_flow"; once per module; `from tensorflow import ...`
// counts as an import of tensorflow; 2.3 imports horovod.tensorflow.keras (docs/pyrewrite.md).
// Amended: with `pin_gpus` false (a TF1 ConfigProto pins the GPU, Horovod's TF1 Keras example)
// only the import and hvd.init() are inserted, and no tensorflow import is added for them.
StmtResult RuleSet::tf2_import_rule(const Node& s, const Env& sigma, const Env& sigma1,
                                    const std::string& horovod_module, bool pin_gpus) {
  auto added = sigma1.minus(sigma);
  std::optional<std::string> tf;
  std::vector<std::string> pre;
  if (added.count("tensor_flow")) tf = added["tensor_flow"];
  Env out = sigma1;
  if (!tf && s.is(Kind::ImportFrom) && s.field("level").integer == 0 &&
      canonical(s.text("module") + ".").rfind("tensorflow.", 0) == 0) {
    tf = sigma1.get("tensor_flow");
    if (!tf && !pin_gpus) {
      tf = "";
    } else if (!tf) {
      tf = ctx_.new_id("tf");
      pre.push_back("import tensorflow as " + *tf);
      out = out.with("tensor_flow", *tf).with("import:" + *tf, "tensorflow");
    }
  }
  if (!tf || import_done_) return same(s, out);
  import_done_ = true;
  if (depth_ == 0 && ctx_.frames().empty()) {
    tf_import_top_ = current_top_;
  } else {
    ctx_.warn(s,
              "restriction 2.1.1: TensorFlow is imported inside a block, not at the top of the "
              "module; Horovod is initialised there");
    tf_import_top_ = current_top_;
  }
  tf_import_name_ = *tf;
  const std::string& h = hvd();
  std::vector<std::string> post = pre;
  post.push_back("import " + horovod_module + " as " + h);
  post.push_back(h + ".init()");
  if (!pin_gpus) {
    ctx_.fire(s, "trans_S: import (horovod import, hvd.init(); the ConfigProto pins the GPU)",
              std::string(section()));
    StmtResult r = same(s, out);
    for (std::string& p : post)
      r.stmts.push_back(OutStmt::fresh(std::move(p)));
    return r;
  }
  std::string gpus = ctx_.new_id("gpus"), gpu = ctx_.new_id("gpu");
  post.push_back(gpus + " = " + *tf + ".config.experimental.list_physical_devices('GPU')");
  post.push_back("for " + gpu + " in " + gpus + ":\n    " + *tf +
                 ".config.experimental.set_memory_growth(" + gpu + ", True)");
  post.push_back("if " + gpus + ":\n    " + *tf + ".config.experimental.set_visible_devices(" +
                 gpus + "[" + h + ".local_rank()], 'GPU')");
  ctx_.fire(s, "trans_S: import (horovod import, hvd.init(), GPU pinning)", std::string(section()));
  StmtResult r = same(s, out);
  for (std::string& p : post)
    r.stmts.push_back(OutStmt::fresh(std::move(p)));
  return r;
}

// trans_S⟦import alias*⟧(σ) (2.5, 2.6) =
//   IF σ_1 \ σ = ["tensor_flow_compat" ↦ id] THEN
//     ([import alias*, import horovod.tensorflow as hvd, hvd.init()], σ_1) ELSE ([import alias*],
//     σ_1)
StmtResult RuleSet::tf1_import_rule(const Node& s, const Env& sigma, const Env& sigma1) {
  auto added = sigma1.minus(sigma);
  if (!added.count("tensor_flow_compat") || import_done_) return same(s, sigma1);
  import_done_ = true;
  tf_import_top_ = current_top_;
  tf_import_name_ = added["tensor_flow_compat"];
  if (depth_ != 0 || !ctx_.frames().empty())
    ctx_.warn(s,
              "restriction 2.1.1: TensorFlow is imported inside a block, not at the top of the "
              "module; Horovod is initialised there");
  ctx_.fire(s, "trans_S: import (horovod import, hvd.init())", std::string(section()));
  StmtResult r = same(s, sigma1);
  r.stmts.push_back(OutStmt::fresh("import horovod.tensorflow as " + hvd()));
  r.stmts.push_back(OutStmt::fresh(hvd() + ".init()"));
  return r;
}

// trans_A⟦id⟧(σ) (2.5, 2.6) =
//   LET id = tensorflow.compat.v1 THEN σ["tensor_flow_compat" ↦ id]
//   LET id = tensorflow THEN σ["tensor_flow" ↦ id]   LET id = os THEN σ["os" ↦ id]   ELSE σ
// Amended: `import tensorflow` also binds "tensor_flow_compat" (TF 1.x scripts use tf.Session).
Env RuleSet::tf1_trans_A(const Node& alias, const Env& sigma) {
  Env e = RuleSet::trans_A(alias, sigma);
  const std::string& name = alias.text("name");
  bool as = alias.has("asname");
  if (name == "tensorflow.compat.v1" && as)
    return e.with("tensor_flow_compat", alias.text("asname"));
  if (name == "tensorflow") return e.with("tensor_flow_compat", as ? alias.text("asname") : name);
  return e;
}

// trans_S⟦id_r = expr_1(...).id_m(...) (#type:s)?⟧(σ) =
//   IF expr_1 <: tensorflow.compat.v1.train.Optimizer AND id_m = minimize THEN
//     ([id_r = expr_1(... learning rate * hvd.size() ...).id_m(...), id_r =
//     hvd.DistributedOptimizer(id_r)],
//      σ["optimizer" ↦ id_r])
// Amended: id_r is the training op, not the optimizer; the optimizer gets its own fresh name:
//   opt = expr_1(... * hvd.size()); opt = hvd.DistributedOptimizer(opt); id_r = opt.minimize(...)
std::optional<StmtResult> RuleSet::minimize_rule(const Node& s, const Node& call,
                                                 const std::string& /*id_r: the training op, kept*/,
                                                 const Env& sigma) {
  const Node& f = call_func(call);
  if (!f.is(Kind::Attribute) || f.text("attr") != "minimize") return std::nullopt;
  const Node& inner = *f.child("value");
  if (!inner.is(Kind::Call)) return std::nullopt;
  const Node& cls = call_func(inner);
  if (!is_subclass(cls, sigma, TfClass::Tf1Optimizer) &&
      !is_subclass(cls, sigma, TfClass::KerasOptimizer))
    return std::nullopt;
  auto q = resolve(cls, sigma);
  auto scaled =
      scale_argument(inner, {"learning_rate"}, "*", sigma, q ? default_rate(*q) : std::nullopt);
  if (!scaled) {
    ctx_.warn(inner,
              "the optimizer has no learning rate argument and its default is unknown; "
              "the learning rate is not scaled by " +
                  size());
    scaled = Edits{};
  }
  std::string opt = ctx_.new_id("optimizer");
  std::string ctor = ctx_.src(inner, *scaled);
  ctx_.fire(s, "trans_S: minimized optimizer (scaled, wrapped)", std::string(section()));
  StmtResult r{{}, sigma.with("optimizer", opt).with("optimizer:" + opt, opt)};
  r.stmts.push_back(OutStmt::fresh(opt + " = " + ctor));
  r.stmts.push_back(OutStmt::fresh(opt + " = " + hvd() + ".DistributedOptimizer(" + opt + ")"));
  r.stmts.push_back(OutStmt::keep(s, {replace(inner, opt)}));
  return r;
}

// # Config Proto
// IF id_t = σ("tensor_flow") AND expr_1 = id_t.ConfigProto THEN
//     (id_r = expr_1(...), σ["config_proto" ↦ id_r])       (the document writes σ[id_r ↦ ...])
// Amended: the user's ConfigProto gets the GPU pinning lines the with-rule would have added.
std::optional<StmtResult> RuleSet::config_proto_rule(const Node& s, const Node& call,
                                                     const std::string& id_r, const Env& sigma) {
  auto q = resolve(call_func(call), sigma);
  if (!q || *q != "tensorflow.ConfigProto") return std::nullopt;
  ctx_.fire(s, "trans_S: config proto (recorded, GPU pinned)", std::string(section()));
  StmtResult r = same(s, sigma.with("config_proto", id_r));
  // Amended: a script that sets allow_growth itself keeps its own line (not a second one).
  if (!module_assigns(id_r + ".gpu_options.allow_growth"))
    r.stmts.push_back(OutStmt::fresh(id_r + ".gpu_options.allow_growth = True"));
  if (!module_assigns(id_r + ".gpu_options.visible_device_list"))
    r.stmts.push_back(OutStmt::fresh(id_r + ".gpu_options.visible_device_list = str(" + hvd() +
                                     ".local_rank())"));
  return r;
}

std::optional<StmtResult> RuleSet::tf1_assign_rules(const Node& s, const Node& call,
                                                    const std::string& id_r, const Env& sigma) {
  if (auto r = minimize_rule(s, call, id_r, sigma)) return r;
  if (auto r = config_proto_rule(s, call, id_r, sigma)) return r;
  if (auto r = lr_scheduler_rule(s, call, id_r, sigma)) return r;
  if (auto r = optimizer_rule(s, call, id_r, sigma, true, TfClass::KerasOptimizer)) return r;
  // Amended: TF1 optimizers (tf.train.AdamOptimizer, ...) are scaled and wrapped likewise.
  if (auto r = optimizer_rule(s, call, id_r, sigma, true, TfClass::Tf1Optimizer)) return r;
  if (auto r = model_rule(s, call, id_r, sigma)) return r;
  if (auto r = checkpoint_rule(s, call, id_r, sigma)) return r;
  if (auto r = tf1_bookkeeping_rule(s, call, id_r, sigma)) return r;
  return root_rank_assign_rule(s, call, id_r, sigma);
}

// trans_S⟦(#type:s)? with with_item* : stmt*⟧(σ) (2.5; 2.6 with "monitored_session") =
//   IF "config_proto" ∉ σ AND σ("tensor_flow_compat") = id_t THEN
//     LET with_item*', σ_1 = trans_W̄⟦with_item*⟧(σ) IN LET stmt*', σ_2 = trans_S̄⟦stmt*⟧(σ_1) IN
//     # Config
//     IF σ_1 \ σ = ["session" ↦ id] THEN
//       ([config = id_t.ConfigProto(), config.gpu_options.allow_growth = True,
//         config.gpu_options.visible_device_list = str(hvd.local_rank()),
//         with with_item*' : stmt*'], σ_2)
//   ELSE ([with with_item*' : stmt*'], σ_2)
// Amended: `config` is a fresh name (trans_W chose it and passed it to the session).
StmtResult RuleSet::tf1_with_rule(const Node& s, const Env& sigma) {
  pending_config_.clear();
  auto [e, sigma1] = trans_Wbar(s.list("items"), sigma);
  std::string config = pending_config_;
  pending_config_.clear();
  const auto& stmts = s.list("body");
  ++depth_;
  StmtResult b = trans_Sbar(stmts, sigma1);
  --depth_;
  Edits be = emit_block(stmts, b.stmts, ctx_.layout(), &s);
  e.insert(e.end(), be.begin(), be.end());
  StmtResult r{{}, b.env};
  auto tf = sigma.get("tensor_flow_compat");
  if (!config.empty() && tf) {
    ctx_.fire(s, "trans_S: config (ConfigProto pinning the GPU)", std::string(section()));
    r.stmts.push_back(OutStmt::fresh(session_config_code(config, *tf)));
  }
  r.stmts.push_back(OutStmt::keep(s, e));
  return r;
}

namespace {

bool assigns(const Node& module, const std::string& dotted) {
  return any_node(module, [&](const Node& n) {
    if (n.is(Kind::Assign))
      for (const NodePtr& t : n.list("targets"))
        if (dotted_name(*t) == dotted) return true;
    return (n.is(Kind::AnnAssign) || n.is(Kind::AugAssign)) &&
           dotted_name(*n.child("target")) == dotted;
  });
}

}  // namespace

bool RuleSet::module_assigns(const std::string& dotted) const {
  return module_ && assigns(*module_, dotted);
}

std::string RuleSet::session_config_code(const std::string& name, const std::string& tf) const {
  return name + " = " + tf + ".ConfigProto()\n" + name + ".gpu_options.allow_growth = True\n" +
         name + ".gpu_options.visible_device_list = str(" + hvd() + ".local_rank())";
}

// Amended: remember `saver = tf.train.Saver(...)` (its saves are rank-0 only) and
// `init = tf.global_variables_initializer()` (its run is followed by the broadcast).
std::optional<StmtResult> RuleSet::tf1_bookkeeping_rule(const Node& s, const Node& call,
                                                        const std::string& id_r, const Env& sigma) {
  auto q = resolve(call_func(call), sigma);
  if (!q) return std::nullopt;
  if (*q == "tensorflow.train.Saver") {
    ctx_.fire(s, "trans_S: saver (recorded)", std::string(section()));
    return same(s, sigma.with("saver", id_r));
  }
  if (*q == "tensorflow.global_variables_initializer" ||
      *q == "tensorflow.initialize_all_variables") {
    ctx_.fire(s, "trans_S: variable initializer (recorded)", std::string(section()));
    return same(s, sigma.with("initializer", id_r));
  }
  return std::nullopt;
}

}  // namespace adlang::py
