#include "pyrewrite/restrictions.hpp"

#include <map>
#include <set>
#include <string>

#include "pyrewrite/environment.hpp"
#include "pyrewrite/qualified_name.hpp"

namespace adlang::py {

namespace {

class Checker {
 public:
  std::vector<Diagnostic> out;

  void module(const Node& m) {
    bool seen_code = false;
    for (const NodePtr& s : m.list("body")) {
      bool import =
          s->is(Kind::Import) || s->is(Kind::ImportFrom) || is_docstring(*s) || only_imports(*s);
      if (import && seen_code && imports_tensorflow(*s))
        warn(*s, "restriction 2.1.1: this import is not at the top of the module",
             {"Horovod is initialised right after the TensorFlow import; code above it runs "
              "before hvd.init()"});
      if (!import) seen_code = true;
      if (s->is(Kind::Import)) {
        for (const NodePtr& a : s->list("names")) {
          const std::string& n = a->text("name");
          bool as = a->has("asname");
          std::string local = as ? a->text("asname") : n.substr(0, n.find('.'));
          sigma_ = sigma_.with("import:" + local, as ? n : local);
        }
      }
      if (s->is(Kind::ImportFrom) && s->field("level").integer == 0 && s->has("module"))
        for (const NodePtr& a : s->list("names")) {
          std::string local = a->has("asname") ? a->text("asname") : a->text("name");
          sigma_ = sigma_.with("import:" + local, s->text("module") + "." + a->text("name"));
        }
      stmt(*s);
    }
  }

 private:
  static bool is_docstring(const Node& s) {
    return s.is(Kind::Expr) && s.child("value")->is(Kind::Constant);
  }
  // try: import x / except ImportError: ... and similar guards count as imports.
  static bool only_imports(const Node& s) {
    if (!s.is(Kind::Try) && !s.is(Kind::If)) return false;
    for (const NodePtr& b : s.list("body"))
      if (!b->is(Kind::Import) && !b->is(Kind::ImportFrom) && !b->is(Kind::Pass)) return false;
    return true;
  }
  static bool imports_tensorflow(const Node& s) {
    if (s.is(Kind::Import))
      for (const NodePtr& a : s.list("names"))
        if (a->text("name").rfind("tensorflow", 0) == 0) return true;
    if (s.is(Kind::ImportFrom) && s.has("module"))
      return s.text("module").rfind("tensorflow", 0) == 0;
    return false;
  }

  // Members of tensorflow the rules recognise by name (aliasing others is harmless).
  static bool rule_relevant(const std::string& q) {
    for (const char* p :
         {"tensorflow.keras.optimizers", "tensorflow.train", "tensorflow.data", "tensorflow.config",
          "tensorflow.GradientTape", "tensorflow.Session", "tensorflow.InteractiveSession",
          "tensorflow.ConfigProto", "tensorflow.print", "tensorflow.keras.Model",
          "tensorflow.keras.Sequential", "tensorflow.global_variables_initializer",
          "tensorflow.function", "tensorflow.keras.callbacks"})
      if (q == p || q.rfind(std::string(p) + ".", 0) == 0) return true;
    return q == "tensorflow.keras" || q == "tensorflow.compat.v1" || q == "tensorflow.compat";
  }

  void warn(const Node& at, std::string msg, std::vector<std::string> notes) {
    out.push_back(Diagnostic{Severity::Warning, loc_of(at), std::move(msg), std::move(notes)});
  }

  // What kind of tracked object a call creates: "optimizer", "dataset", "checkpoint" or "".
  std::string created(const Node& v) const {
    if (!v.is(Kind::Call)) return "";
    auto q = resolve(call_func(v), sigma_);
    if (!q) return "";
    if (subclass_of(*q, TfClass::KerasOptimizer) || subclass_of(*q, TfClass::Tf1Optimizer))
      return "optimizer";
    if (q->rfind("tensorflow.data.", 0) == 0) return "dataset";
    if (*q == "tensorflow.train.Checkpoint") return "checkpoint";
    return "";
  }

  void stmt(const Node& s) {
    if (s.is(Kind::Assign) && s.list("targets").size() == 1 &&
        s.list("targets")[0]->is(Kind::Name)) {
      const std::string& target = s.list("targets")[0]->text("id");
      const Node& v = *s.child("value");
      // Restriction 2.1.2: the tensorflow module is bound only by an import.
      if (auto q = resolve(v, sigma_); q && v.is(Kind::Name) && *q == "tensorflow")
        warn(s, "restriction 2.1.2: the tensorflow module is assigned to '" + target + "'",
             {"the rules recognise TensorFlow only through the name its import binds"});
      // Restriction 2.1.3: members of tensorflow are not aliased.
      else if (auto q2 = resolve(v, sigma_); q2 && v.is(Kind::Attribute) && rule_relevant(*q2))
        warn(s, "restriction 2.1.3: '" + target + "' aliases the TensorFlow member " + *q2,
             {"calls through '" + target + "' are not recognised by the rules"});
      // Restrictions 2.1.5 and 2.1.10: created once by an assignment of a call, not aliased.
      std::string kind = created(v);
      if (!kind.empty()) {
        auto it = objects_.find(target);
        if (it != objects_.end() && it->second == kind)
          warn(s, "restriction 2.1.5: the " + kind + " '" + target + "' is created a second time",
               {"the rules rewrite each creation; make sure the distributed wrapping applies to "
                "the object that is used"});
        objects_[target] = kind;
      } else if (v.is(Kind::Name) && objects_.count(v.text("id"))) {
        std::string k = objects_[v.text("id")];
        warn(s,
             std::string(k == "checkpoint" ? "restriction 2.1.10" : "restriction 2.1.5") +
                 ": the " + k + " '" + v.text("id") + "' is aliased as '" + target + "'",
             {"uses through '" + target +
              "' are not rewritten (no broadcast, wrapping or "
              "rank-0 guard)"});
      }
    }
    for (const char* f : {"body", "orelse", "finalbody"}) {
      const auto& names = field_names(s.kind);
      bool has = false;
      for (std::string_view n : names)
        has = has || n == f;
      if (!has) continue;
      for (const NodePtr& c : s.list(f))
        stmt(*c);
    }
    if (s.is(Kind::Try) || s.is(Kind::TryStar))
      for (const NodePtr& h : s.list("handlers"))
        for (const NodePtr& c : h->list("body"))
          stmt(*c);
  }

  Env sigma_;
  std::map<std::string, std::string> objects_;
};

}  // namespace

std::vector<Diagnostic> check_restrictions(const Node& module) {
  Checker c;
  c.module(module);
  return std::move(c.out);
}

}  // namespace adlang::py
