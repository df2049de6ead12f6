// The rules every pattern of the rewrite document shares (seed 002, Sec. 2.3-2.6 repeat them per
// pattern): trans_M, trans_S̄, the congruence cases of trans_S, trans_E, trans_O, trans_H,
// trans_Ā, trans_W̄, trans_C and trans_P, with σ threaded exactly as written. A pattern's rule
// set (rules_keras.cpp, rules_tape.cpp, rules_session.cpp, rules_monitored.cpp) overrides the
// hooks where its rules have strict forms, and uses the shared rule pieces below, which the
// document writes identically in several patterns.
//
// Representation: a rule's Stmt list is a StmtList (block_emitter.hpp); trans_E returns the edits
// that turn the expression's text into the rewritten expression's text (none: unchanged).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/python/ast/py_ast.hpp"
#include "pyrewrite/block_emitter.hpp"
#include "pyrewrite/environment.hpp"
#include "pyrewrite/qualified_name.hpp"
#include "pyrewrite/rewrite_context.hpp"

namespace adlang::py {

enum class Pattern { Keras, Tape, Session, Monitored };

// Whether `pred` holds of `n` or of a node under it.
bool any_node(const Node& n, const std::function<bool(const Node&)>& pred);

// `0` or `False`: a verbosity that prints nothing (kept as it is on every rank).
bool is_silent(const Node& e);

class RuleSet {
 public:
  explicit RuleSet(RewriteContext& ctx) : ctx_(ctx) {}
  virtual ~RuleSet() = default;
  RuleSet(const RuleSet&) = delete;
  RuleSet& operator=(const RuleSet&) = delete;

  // The document's section of this pattern ("2.3" ...).
  virtual std::string_view section() const = 0;

  // trans_M⟦stmt* type_ignore⟧ = trans_S̄⟦stmt*⟧(σ)._1 type_ignore, as edits of the module text.
  Edits trans_M(const Node& module);
  // trans_S̄⟦stmt_1 ... stmt_n⟧(σ): σ threaded left to right, the lists concatenated.
  StmtResult trans_Sbar(const std::vector<NodePtr>& stmts, const Env& sigma);
  // trans_S⟦stmt⟧(σ)
  StmtResult trans_S(const Node& s, const Env& sigma);
  // trans_E⟦expr⟧(σ)
  Edits trans_E(const Node& e, const Env& sigma);
  // trans_O⟦comprehension⟧(σ)
  Edits trans_O(const Node& c, const Env& sigma);
  // trans_H⟦exc_handler⟧(σ)
  Edits trans_H(const Node& h, const Env& sigma);
  // trans_Ā⟦alias*⟧(σ) and trans_A⟦alias⟧(σ)
  Env trans_Abar(const std::vector<NodePtr>& aliases, const Env& sigma);
  virtual Env trans_A(const Node& alias, const Env& sigma);
  // trans_W̄⟦with_item*⟧(σ) and trans_W⟦with_item⟧(σ)
  std::pair<Edits, Env> trans_Wbar(const std::vector<NodePtr>& items, const Env& sigma);
  virtual std::pair<Edits, Env> trans_W(const Node& item, const Env& sigma);
  // trans_C⟦match_case⟧(σ) and trans_P⟦pattern⟧(σ)
  Edits trans_C(const Node& c, const Env& sigma);
  Edits trans_P(const Node& p, const Env& sigma);

 protected:
  // ---- Hooks: a pattern's strict forms. Nothing = the rule does not apply (general form). ----
  // id_r = expr_1(expr_11 ... (id_k =)? expr_2k) (#type:s)?
  virtual std::optional<StmtResult> assign_call(const Node& s, const Node& call,
                                                const std::string& id_r, const Env& sigma);
  // expr_0 = expr_1 (#type:s)?  (checked before the general form; all patterns: CUDA devices)
  virtual std::optional<StmtResult> assign_strict(const Node& s, const Env& sigma);
  // expr_1 : expr_2 (= expr_3)?
  virtual std::optional<StmtResult> ann_assign(const Node& s, const Env& sigma);
  // expr_1(expr_11 ... (id_k =)? expr_2k) as a statement
  virtual std::optional<StmtResult> expr_call(const Node& s, const Node& call, const Env& sigma);
  // expr as a statement, general form (Session: variable broadcasting)
  virtual std::optional<StmtResult> expr_general(const Node& s, const Env& sigma);
  // import alias*: σ₁ = trans_Ā⟦alias*⟧(σ) is given
  virtual StmtResult import_stmt(const Node& s, const Env& sigma, const Env& sigma1);
  // (async) for
  virtual std::optional<StmtResult> for_loop(const Node& s, const Env& sigma);
  // (async) with
  virtual std::optional<StmtResult> with_stmt(const Node& s, const Env& sigma);
  // Strict forms of trans_E on a call
  virtual std::optional<Edits> call_E(const Node& call, const Env& sigma);

  // ---- Rule pieces the document repeats across patterns ----
  // Learning rate scheduler scaling (PiecewiseConstantDecay, LearningRateSchedule,
  // compat.v1.train.exponential_decay).
  std::optional<StmtResult> lr_scheduler_rule(const Node& s, const Node& call,
                                              const std::string& id_r, const Env& sigma);
  // Optimizer learning rate scaling (and wrapping when `wrap`): `expr_1 <: Optimizer`.
  std::optional<StmtResult> optimizer_rule(const Node& s, const Node& call, const std::string& id_r,
                                           const Env& sigma, bool wrap, TfClass tag);
  // Model related: `expr_1 <: tensorflow.keras.Model`, and `model.evaluate` verbosity.
  std::optional<StmtResult> model_rule(const Node& s, const Node& call, const std::string& id_r,
                                       const Env& sigma);
  // Checkpoint: `tf.train.Checkpoint(...)`.
  std::optional<StmtResult> checkpoint_rule(const Node& s, const Node& call,
                                            const std::string& id_r, const Env& sigma);
  // Config: `tf.config.experimental.set_visible_devices(...)` is removed.
  std::optional<StmtResult> set_visible_devices_rule(const Node& s, const Node& call,
                                                     const Env& sigma);
  // Root rank blocking: model.save/summary/..., checkpoint.save, tf.print, print.
  std::optional<StmtResult> root_rank_rule(const Node& s, const Node& call, const Env& sigma);
  // The `config=` of a TF1 call configuring TensorFlow (`tf.Session(...)` given to Keras,
  // `tf.enable_eager_execution(...)`) pins the GPU.
  std::optional<StmtResult> config_argument_rule(const Node& s, const Node& carrier,
                                                 const Env& sigma);
  // `config.gpu_options.visible_device_list = ...` of the script's ConfigProto: the local rank's.
  std::optional<StmtResult> visible_device_list_rule(const Node& s, const Env& sigma);
  // CUDA visible devices: `os.environ['CUDA_VISIBLE_DEVICES'] = ...` is removed.
  std::optional<StmtResult> cuda_devices_rule(const Node& s, const Env& sigma);
  // Whether `call` is one the root rank blocking rule guards.
  bool root_rank_call(const Node& call, const Env& sigma) const;
  // Root rank blocking of an assigned call (`path = saver.save(...)`): amended rule.
  std::optional<StmtResult> root_rank_assign_rule(const Node& s, const Node& call,
                                                  const std::string& id_r, const Env& sigma);
  // The import rule of the TF2 patterns (2.3, 2.4): horovod import, hvd.init(), GPU pinning.
  StmtResult tf2_import_rule(const Node& s, const Env& sigma, const Env& sigma1,
                             const std::string& horovod_module, bool pin_gpus = true);
  // The import rule of the TF1 patterns (2.5, 2.6) and their trans_A.
  StmtResult tf1_import_rule(const Node& s, const Env& sigma, const Env& sigma1);
  Env tf1_trans_A(const Node& alias, const Env& sigma);
  // Minimized optimizer (2.5, 2.6): id_r = expr_1(...).minimize(...).
  std::optional<StmtResult> minimize_rule(const Node& s, const Node& call, const std::string& id_r,
                                          const Env& sigma);
  // Config proto (2.5, 2.6): id_r = tf.ConfigProto(...).
  std::optional<StmtResult> config_proto_rule(const Node& s, const Node& call,
                                              const std::string& id_r, const Env& sigma);
  // The chain of strict assignment forms the TF1 patterns share (2.5, 2.6): minimized
  // optimizer, config proto, learning rate schedules, optimizers, model, checkpoint, saver and
  // initializer bookkeeping, root rank blocking of assigned results.
  std::optional<StmtResult> tf1_assign_rules(const Node& s, const Node& call,
                                             const std::string& id_r, const Env& sigma);
  // trans_S⟦(#type:s)? with with_item* : stmt*⟧(σ) of 2.5 and 2.6: the ConfigProto is inserted
  // before the statement when trans_W gave a session `config=<pending_config_>`.
  StmtResult tf1_with_rule(const Node& s, const Env& sigma);
  // The standalone Keras 2 package of a TF1 script (`K.set_session` with `import keras`): its
  // optimizers take `lr` and have their own default rates.
  bool standalone_keras2() const { return ctx_.keras_session_config && ctx_.standalone_keras; }
  std::optional<std::string> default_rate(const std::string& q) const {
    return default_learning_rate(q, standalone_keras2());
  }
  // Whether the module assigns to the attribute `dotted` (`config.gpu_options.allow_growth`).
  bool module_assigns(const std::string& dotted) const;
  // The ConfigProto lines the TF1 with-rules insert (named `name`).
  std::string session_config_code(const std::string& name, const std::string& tf) const;
  // Amended TF1 bookkeeping: tf.train.Saver and tf.global_variables_initializer() variables.
  std::optional<StmtResult> tf1_bookkeeping_rule(const Node& s, const Node& call,
                                                 const std::string& id_r, const Env& sigma);

  // ---- Helpers ----
  RewriteContext& ctx() { return ctx_; }
  const std::string& hvd() const { return ctx_.hvd(); }
  std::string size() const { return ctx_.hvd() + ".size()"; }
  std::string rank0() const { return ctx_.hvd() + ".rank() == 0"; }
  StmtResult same(const Node& s, const Env& sigma, Edits e = {}) const;
  // `e`'s text (with `inner` edits) as an operand of a binary operator of `op`'s precedence.
  std::string operand(const Node& e, const Edits& inner = {}) const;
  // Edits scaling the argument `keyword` (or the first positional argument) of `call` by
  // `op hvd.size()`; when the call has neither and `fallback` is set, it is added as keyword.
  std::optional<Edits> scale_argument(const Node& call, const std::vector<std::string>& keywords,
                                      const std::string& op, const Env& sigma,
                                      const std::optional<std::string>& fallback);
  // An edit adding `text` (a keyword argument) at the end of `call`'s arguments; several
  // arguments added to one call must be added by one edit (add_arguments).
  TextEdit add_argument(const Node& call, const std::string& text) const;
  TextEdit add_arguments(const Node& call, const std::vector<std::string>& texts) const;
  TextEdit replace(const Node& n, std::string text) const;
  // The call's function resolves to a canonical name (through σ's imports).
  std::optional<std::string> resolved(const Node& e, const Env& sigma) const;
  // expr_1 <: C, user model classes included.
  bool is_subclass(const Node& func, const Env& sigma, TfClass c) const;
  // e is `σ(key).path`
  bool is_key_member(const Node& e, const Env& sigma, const std::string& key,
                     std::string_view path) const;
  // The tensorflow module's local name (σ("tensor_flow"), else σ("tensor_flow_compat")).
  std::optional<std::string> tf_name(const Env& sigma) const;
  // The innermost enclosing function frame, or null at module level.
  FunctionFrame* frame() { return ctx_.frames().empty() ? nullptr : &ctx_.frames().back(); }
  // A call without side effects beyond formatting (restriction 2.1.4).
  bool pure_for_printing(const Node& e, const Env& sigma) const;

  RewriteContext& ctx_;
  bool import_done_ = false;      // the horovod import is inserted once
  std::string pending_config_;    // TF1: the fresh ConfigProto name trans_W passed to a session
  int depth_ = 0;                 // nesting of compound statements being rewritten
  int conditional_depth_ = 0;     // inside if/while/for/try bodies (restriction 2.1.7)
  const Node* module_ = nullptr;  // the module being rewritten (set by trans_M)
  const Node* current_top_ = nullptr;    // the module-level statement being rewritten
  const Node* tf_import_top_ = nullptr;  // the module-level statement holding the tf import
  std::string tf_import_name_;           // the tensorflow name bound there

 private:
  Edits body(const Node& owner, std::string_view field, const Env& sigma);
  Edits trans_E_list(const std::vector<NodePtr>& es, const Env& sigma);
  Edits trans_E_opt(const Node* e, const Env& sigma);
  StmtResult general_S(const Node& s, const Env& sigma);
};

// The rule set of a pattern.
std::unique_ptr<RuleSet> make_keras_rules(RewriteContext& ctx);
std::unique_ptr<RuleSet> make_tape_rules(RewriteContext& ctx);
std::unique_ptr<RuleSet> make_session_rules(RewriteContext& ctx);
std::unique_ptr<RuleSet> make_monitored_rules(RewriteContext& ctx);

}  // namespace adlang::py
