// σ ∈ Σ = Str ⇀fin Id: the environment of the rewrite document's rules, threaded through
// trans_S̄ exactly as the rules write it (a value: each rule returns the environment it extends).
//
// Keys used by the rules (seed 002, Sec. 2.3-2.6): "tensor_flow", "tensor_flow_compat", "os",
// "config", "optimizer", "model", "dataset", "checkpoint", "lr_scheduler", "gradient_tape",
// "session", "monitored_session", "config_proto". Keys added by this implementation (see
// docs/pyrewrite.md): "import:<local name>" maps a name bound by an import to the module path it
// names (so `from tensorflow import keras` makes `keras.Model` resolve), "saver" (a TF1 Saver),
// "initializer" (a variable holding tf.global_variables_initializer()), "optimizer:<id>" (every
// optimizer, not only the last one, so a second optimizer gets its own broadcast flag).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace adlang::py {

class Env {
 public:
  // σ(key), or nothing when key ∉ dom σ.
  std::optional<std::string> get(const std::string& key) const {
    auto it = map_.find(key);
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }
  bool has(const std::string& key) const { return map_.count(key) != 0; }
  // σ(key) = id
  bool is(const std::string& key, const std::string& id) const {
    auto it = map_.find(key);
    return it != map_.end() && it->second == id;
  }
  // σ[key ↦ id]
  Env with(const std::string& key, const std::string& id) const {
    Env e = *this;
    e.map_[key] = id;
    return e;
  }
  // σ₁ \ σ: the bindings of *this that `before` does not have (or has with another value).
  std::map<std::string, std::string> minus(const Env& before) const {
    std::map<std::string, std::string> d;
    for (const auto& [k, v] : map_)
      if (!before.is(k, v)) d[k] = v;
    return d;
  }
  const std::map<std::string, std::string>& bindings() const { return map_; }

 private:
  std::map<std::string, std::string> map_;
};

}  // namespace adlang::py
