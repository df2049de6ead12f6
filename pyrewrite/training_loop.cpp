#include "pyrewrite/training_loop.hpp"

#include <map>
#include <optional>

#include "pyrewrite/qualified_name.hpp"

namespace adlang::py {

std::string_view loop_kind_name(LoopKind k) {
  switch (k) {
    case LoopKind::None:
      return "none";
    case LoopKind::Keras:
      return "keras";
    case LoopKind::Tape:
      return "tape";
    case LoopKind::Session:
      return "session";
    case LoopKind::Monitored:
      return "monitored";
    case LoopKind::Conflict:
      return "conflict";
  }
  return "none";
}

LoopKind join(LoopKind a, LoopKind b) {
  if (a == LoopKind::None) return b;
  if (b == LoopKind::None || a == b) return a;
  return LoopKind::Conflict;
}

namespace {

// Summary ::= ModuleSummary id σ tl | FuncSummary tl | ClassSummary arg | ValueSummary s
struct Summary {
  enum class Tag { Module, Func, Class, Value } tag;
  std::string path;              // Module: the module's qualified name
  LoopKind tl = LoopKind::None;  // Func
  bool model = false;            // Class: arg = Model
  std::string value;             // Value: s ("model_instance")
};

// σ ∈ Σ = Id ⇀fin Summary
using Sigma = std::map<std::string, Summary>;

class Summarizer {
 public:
  ModuleSummary out;
  std::set<std::string> set_session_names;  // names some `set_session(name)` call is given

  // summary_S̄⟦stmt_1 ... stmt_n⟧(σ) = (σ_n, tl_1 ⊔ ... ⊔ tl_n)
  LoopKind summary_Sbar(const std::vector<NodePtr>& stmts, Sigma& sigma) {
    LoopKind tl = LoopKind::None;
    for (const NodePtr& s : stmts)
      tl = join(tl, summary_S(*s, sigma));
    return tl;
  }

 private:
  // The ModuleSummary bindings of σ as import bindings, for name resolution; kept up to date as
  // summary_A adds them (a name rebound to something else later is not tracked: restriction 2.1.2).
  Env imports_;

  void bind_module(Sigma& sigma, const std::string& local, const std::string& path) {
    sigma[local] = Summary{Summary::Tag::Module, path, LoopKind::None, false, ""};
    imports_ = imports_.with("import:" + local, path);
  }

  std::optional<std::string> resolved(const Node& e, const Sigma&) const {
    return resolve(e, imports_);
  }

  bool is_session(const Node& f) const {
    auto q = resolve(f, imports_);
    return q && (*q == "tensorflow.Session" || *q == "tensorflow.InteractiveSession");
  }

  void evidence(LoopKind k, const Node& at, std::string what) {
    out.evidence.push_back({k, loc_of(at), std::move(what)});
  }

  bool is_model_class(const Node& base, const Sigma& sigma) const {
    if (base.is(Kind::Name)) {
      auto it = sigma.find(base.text("id"));
      if (it != sigma.end() && it->second.tag == Summary::Tag::Class && it->second.model)
        return true;
    }
    auto q = resolved(base, sigma);
    return q && (*q == "tensorflow.keras.Model" || *q == "tensorflow.keras.Sequential");
  }

  LoopKind summary_body(const Node& s, std::string_view field, Sigma sigma) {
    return summary_Sbar(s.list(field), sigma);
  }

  // summary_S⟦stmt⟧(σ)
  LoopKind summary_S(const Node& s, Sigma& sigma) {
    switch (s.kind) {
      // summary_S⟦(@expr_1)* def id (args) ... : stmt*⟧(σ) =
      //   LET σ', tl = summary_S̄⟦stmt*⟧ IN (σ[id ↦ FuncSummary tl], ⊥)
      // Amended: the function's tl also counts for the module (a function of the script is
      // assumed to be called, e.g. main() under `if __name__ == "__main__":`).
      case Kind::FunctionDef:
      case Kind::AsyncFunctionDef: {
        Summary f{Summary::Tag::Func, "", LoopKind::None, false, ""};
        sigma[s.text("name")] = f;  // recursion sees the function
        LoopKind tl = summary_body(s, "body", sigma);
        f.tl = tl;
        sigma[s.text("name")] = f;
        return tl;
      }
      // summary_S⟦(@expr)* class id (expr_11 ... (id_k =)? expr_2k) : stmt*⟧(σ) =
      //   IF expr_1i = id_c.keras.Model AND σ(id_c) = ModuleSummary "tensorflow" ... THEN
      //     (σ[id ↦ ClassSummary Model], ⊥) ELIF (keywords likewise) ELSE (σ[id ↦ ClassSummary ⊥],
      //     ⊥)
      // Amended: a base that is itself a model class counts.
      case Kind::ClassDef: {
        bool model = false;
        for (const NodePtr& b : s.list("bases"))
          model = model || is_model_class(*b, sigma);
        for (const NodePtr& k : s.list("keywords"))
          model = model || is_model_class(*k->child("value"), sigma);
        sigma[s.text("name")] = Summary{Summary::Tag::Class, "", LoopKind::None, model, ""};
        if (model) out.model_classes.insert(s.text("name"));
        return LoopKind::None;
      }
      // A strict form of assignment statements:
      // summary_S⟦id_r = id_c() (#type:s)?⟧(σ) =
      //   IF σ(id_c) = ClassSummary Model THEN (σ[id_r ↦ ValueSummary "model_instance"], ⊥) ELSE
      //   (σ, ⊥)
      // Amended: any arguments; Keras' own model constructors; the value's calls are summarised.
      case Kind::Assign: {
        const Node& v = *s.child("value");
        const auto& targets = s.list("targets");
        if (targets.size() == 1 && targets[0]->is(Kind::Name) && v.is(Kind::Call)) {
          const Node& f = call_func(v);
          bool model = is_model_class(f, sigma);
          auto q = resolved(f, sigma);
          if (q && subclass_of(*q, TfClass::KerasModel)) model = true;
          if (model) {
            sigma[targets[0]->text("id")] =
                Summary{Summary::Tag::Value, "", LoopKind::None, false, "model_instance"};
            out.model_instances.insert(targets[0]->text("id"));
          }
        }
        // Restriction 3.1.4: nor assigned to a variable.
        passed_function(v, sigma, "assigned to a variable");
        // Amended: `sess = tf.Session(...)` that is only handed to `K.set_session(sess)` carries
        // Keras' config, like the session written inside the set_session call (summary_E).
        if (targets.size() == 1 && targets[0]->is(Kind::Name) && v.is(Kind::Call) &&
            set_session_names.count(targets[0]->text("id")) && is_session(call_func(v))) {
          out.keras_sessions.insert(targets[0]->text("id"));
          LoopKind tl = LoopKind::None;
          for (const NodePtr& x : call_args(v))
            tl = join(tl, summary_E(*x, sigma));
          for (const NodePtr& k : call_keywords(v))
            tl = join(tl, summary_E(*k->child("value"), sigma));
          return tl;
        }
        return summary_E(v, sigma);
      }
      case Kind::AugAssign:
      case Kind::AnnAssign:
      case Kind::Return:
        return s.child("value") ? summary_E(*s.child("value"), sigma) : LoopKind::None;
      // summary_S⟦(async)? for ... : stmt_1* (else : stmt_2*)?⟧(σ) = LET _, tl =
      // summary_S̄⟦stmt_1*⟧(σ) IN (σ, tl) summary_S⟦while (expr) : stmt_1* (else : stmt_2*)?⟧(σ) =
      // likewise
      case Kind::For:
      case Kind::AsyncFor:
      case Kind::While: {
        LoopKind tl = summary_body(s, "body", sigma);
        if (s.is(Kind::For) || s.is(Kind::AsyncFor))
          tl = join(tl, summary_E(*s.child("iter"), sigma));
        return tl;
      }
      // summary_S⟦(async)? with with_item* : stmt*⟧(σ) =
      //   LET _, tl = summary_S̄⟦stmt*⟧(σ) IN (σ, summary_W̄⟦with_item*⟧(σ) ⊔ tl)
      case Kind::With:
      case Kind::AsyncWith: {
        LoopKind w = LoopKind::None;
        // summary_W̄⟦with_item_1 ... with_item_n⟧(σ) = summary_W⟦with_item_1⟧(σ) ⊔ ...
        // summary_W⟦expr_1 as expr_2?⟧(σ) = summary_E⟦expr_1⟧(σ)
        for (const NodePtr& i : s.list("items"))
          w = join(w, summary_E(*i->child("context_expr"), sigma));
        return join(w, summary_body(s, "body", sigma));
      }
      // summary_S⟦try : stmt_1* ...⟧(σ) = (σ, summary_S̄⟦stmt_1*⟧(σ))
      case Kind::Try:
      case Kind::TryStar:
        return summary_body(s, "body", sigma);
      // Amended: an `if` is looked into (the document's default gives ⊥); a training loop under a
      // condition other than `__name__ == "__main__"` breaks restriction 3.1.5.
      case Kind::If: {
        LoopKind tl = join(summary_body(s, "body", sigma), summary_body(s, "orelse", sigma));
        if (tl != LoopKind::None && !is_main_guard(*s.child("test")))
          out.diagnostics.push_back(
              Diagnostic{Severity::Warning,
                         loc_of(s),
                         "restriction 3.1.5: the training loop is defined conditionally",
                         {"the rewrite assumes the loop always runs; check the other branch"}});
        return tl;
      }
      // summary_S⟦import alias*⟧(σ) = (summary_Ā⟦alias*⟧(σ), ⊥)
      case Kind::Import:
        for (const NodePtr& a : s.list("names"))
          summary_A(*a, sigma);
        return LoopKind::None;
      // summary_S⟦from i id* import alias*⟧(σ): the names get ModuleSummary (id* + id_k)
      case Kind::ImportFrom: {
        if (s.field("level").integer != 0 || !s.has("module")) return LoopKind::None;
        const std::string& m = s.text("module");
        if (m == "horovod" || m.rfind("horovod.", 0) == 0) out.horovod_import = loc_of(s);
        if (canonical(m + ".").rfind("tensorflow.", 0) == 0) out.imports_tensorflow = true;
        for (const NodePtr& a : s.list("names")) {
          std::string local = a->has("asname") ? a->text("asname") : a->text("name");
          bind_module(sigma, local, m + "." + a->text("name"));
        }
        return LoopKind::None;
      }
      // summary_S⟦expr⟧(σ) = (σ, summary_E⟦expr⟧(σ))
      case Kind::Expr:
        return summary_E(*s.child("value"), sigma);
      // summary_S⟦stmt⟧(σ) = (σ, ⊥)
      default:
        return LoopKind::None;
    }
  }

  static bool is_main_guard(const Node& test) {
    if (!test.is(Kind::Compare) || test.list("comparators").size() != 1) return false;
    const Node& l = *test.child("left");
    const Node& r = *test.list("comparators").front();
    auto is_main = [](const Node& n) {
      return n.is(Kind::Constant) && n.constant_type == ConstantType::Str &&
             n.str_value == "__main__";
    };
    return (is_name(l, "__name__") && is_main(r)) || (is_name(r, "__name__") && is_main(l));
  }

  // summary_A⟦id_1.id_2 ... id_n (as id)?⟧(σ): the bound name gets a ModuleSummary
  void summary_A(const Node& a, Sigma& sigma) {
    const std::string& name = a.text("name");
    if (name == "horovod" || name.rfind("horovod.", 0) == 0) out.horovod_import = loc_of(a);
    if (name == "tensorflow" || name.rfind("tensorflow.", 0) == 0 || name == "keras" ||
        name.rfind("keras.", 0) == 0)
      out.imports_tensorflow = true;
    bool as = a.has("asname");
    std::string local = as ? a.text("asname") : name.substr(0, name.find('.'));
    bind_module(sigma, local, as ? name : local);
  }

  // summary_E⟦expr()⟧(σ) =
  //   IF σ(id) = ValueSummary "model_instance" AND expr = id.fit THEN Optimizer (here: Keras)
  //   ELIF σ(id) = ModuleSummary "tensorflow" σ' tl AND expr = id.GradientTape THEN GradTape
  //   ELSE ⊥
  // summary_E⟦expr⟧(σ) = ⊥
  // Amended: tf.Session → Session, MonitoredTrainingSession → Monitored, a call of a function
  // with FuncSummary tl → tl, `m.compile(...)` makes m a model instance, and the calls inside an
  // expression are all looked at.
  LoopKind summary_E(const Node& e, Sigma& sigma) {
    LoopKind tl = LoopKind::None;
    if (e.is(Kind::Call)) {
      const Node& f = call_func(e);
      auto recv = method_receiver(f, "compile");
      if (recv && (find_keyword(e, "optimizer") || find_keyword(e, "loss"))) {
        sigma[*recv] = Summary{Summary::Tag::Value, "", LoopKind::None, false, "model_instance"};
        out.model_instances.insert(*recv);
      }
      auto fit = method_receiver(f, "fit");
      auto it = fit ? sigma.find(*fit) : sigma.end();
      if (it != sigma.end() && it->second.tag == Summary::Tag::Value &&
          it->second.value == "model_instance") {
        tl = join(tl, LoopKind::Keras);
        evidence(LoopKind::Keras, e, *fit + ".fit");
      }
      if (auto q = resolved(f, sigma); q && is_set_session(*q)) {
        out.keras_session_config = true;
        auto d = dotted_name(f);
        auto m = d ? imports_.get("import:" + d->substr(0, d->find('.'))) : std::nullopt;
        if (m && (*m == "keras" || m->rfind("keras.", 0) == 0)) out.standalone_keras = true;
        // Amended: a TF1 session that only carries a config to Keras
        // (`K.set_session(tf.Session(config=config))`, Horovod's TF1 Keras example) is not a
        // training loop of its own; its arguments are still looked at.
        for (const NodePtr& a : call_args(e)) {
          auto qa = a->is(Kind::Call) ? resolved(call_func(*a), sigma) : std::nullopt;
          bool session =
              qa && (*qa == "tensorflow.Session" || *qa == "tensorflow.InteractiveSession");
          tl = join(tl, summary_E(session ? call_func(*a) : *a, sigma));
          if (session) {
            for (const NodePtr& x : call_args(*a))
              tl = join(tl, summary_E(*x, sigma));
            for (const NodePtr& k : call_keywords(*a))
              tl = join(tl, summary_E(*k->child("value"), sigma));
          }
        }
        return tl;
      }
      if (auto q = resolved(f, sigma)) {
        if (*q == "tensorflow.enable_eager_execution") out.tf1_eager = true;
        if (*q == "tensorflow.GradientTape") {
          tl = join(tl, LoopKind::Tape);
          evidence(LoopKind::Tape, e, "GradientTape");
        } else if (*q == "tensorflow.Session" || *q == "tensorflow.InteractiveSession") {
          tl = join(tl, LoopKind::Session);
          evidence(LoopKind::Session, e, "Session");
        } else if (*q == "tensorflow.train.MonitoredTrainingSession" ||
                   *q == "tensorflow.train.MonitoredSession") {
          tl = join(tl, LoopKind::Monitored);
          evidence(LoopKind::Monitored, e, "MonitoredTrainingSession");
        }
      }
      if (f.is(Kind::Name)) {
        auto fn = sigma.find(f.text("id"));
        if (fn != sigma.end() && fn->second.tag == Summary::Tag::Func) tl = join(tl, fn->second.tl);
      }
      // Restriction 3.1.4: a function holding a training loop must not be passed as an argument.
      for (const NodePtr& a : call_args(e))
        passed_function(*a, sigma, "passed as an argument");
      for (const NodePtr& k : call_keywords(e))
        passed_function(*k->child("value"), sigma, "passed as an argument");
    }
    for (const Field& fl : e.fields) {
      if (fl.tag == Field::Tag::Node && category(fl.node->kind) == Category::Expr)
        tl = join(tl, summary_E(*fl.node, sigma));
      if (fl.tag == Field::Tag::List) {
        for (const NodePtr& c : fl.list) {
          if (c && category(c->kind) == Category::Expr)
            tl = join(tl, summary_E(*c, sigma));
          else if (c && c->is(Kind::keyword))
            tl = join(tl, summary_E(*c->child("value"), sigma));
        }
      }
    }
    return tl;
  }

  void passed_function(const Node& a, const Sigma& sigma, const std::string& how) {
    if (!a.is(Kind::Name)) return;
    auto fn = sigma.find(a.text("id"));
    if (fn != sigma.end() && fn->second.tag == Summary::Tag::Func &&
        fn->second.tl != LoopKind::None)
      out.diagnostics.push_back(Diagnostic{
          Severity::Warning,
          loc_of(a),
          "restriction 3.1.4: function '" + a.text("id") + "' holds a training loop and is " + how,
          {"training-loop identification follows direct calls only"}});
  }
};

}  // namespace

namespace {

// The names passed to a `set_session` call (`sess = tf.Session(...)` then `K.set_session(sess)`).
void collect_set_session_names(const Node& n, std::set<std::string>& names) {
  if (n.is(Kind::Call) && call_args(n).size() == 1 && call_args(n).front()->is(Kind::Name)) {
    const Node& f = call_func(n);
    if ((f.is(Kind::Attribute) && f.text("attr") == "set_session") || is_name(f, "set_session"))
      names.insert(call_args(n).front()->text("id"));
  }
  for (const Field& f : n.fields) {
    if (f.tag == Field::Tag::Node && f.node) collect_set_session_names(*f.node, names);
    if (f.tag == Field::Tag::List)
      for (const NodePtr& c : f.list)
        if (c) collect_set_session_names(*c, names);
  }
}

}  // namespace

ModuleSummary summary_M(const Node& module) {
  Summarizer s;
  collect_set_session_names(module, s.set_session_names);
  Sigma sigma;
  s.out.loop = s.summary_Sbar(module.list("body"), sigma);
  return std::move(s.out);
}

}  // namespace adlang::py
