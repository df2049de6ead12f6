#include "pyrewrite/qualified_name.hpp"

#include <array>
#include <utility>

namespace adlang::py {

namespace {

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

std::string_view last_component(std::string_view q) {
  std::size_t dot = q.rfind('.');
  return dot == std::string_view::npos ? q : q.substr(dot + 1);
}

std::string_view parent(std::string_view q) {
  std::size_t dot = q.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : q.substr(0, dot);
}

constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kKerasOptimizers = {{
    {"Adam", "0.001"},
    {"AdamW", "0.001"},
    {"SGD", "0.01"},
    {"RMSprop", "0.001"},
    {"Adagrad", "0.001"},
    {"Adadelta", "0.001"},
    {"Adamax", "0.001"},
    {"Nadam", "0.001"},
    {"Ftrl", "0.001"},
    {"Lion", "0.001"},
}};

// The standalone Keras 2.2/2.3 package (`import keras` with TensorFlow 1): its own defaults.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kKeras2Optimizers = {{
    {"SGD", "0.01"},
    {"RMSprop", "0.001"},
    {"Adagrad", "0.01"},
    {"Adadelta", "1.0"},
    {"Adam", "0.001"},
    {"Adamax", "0.002"},
    {"Nadam", "0.002"},
}};

constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kTf1Optimizers = {{
    {"GradientDescentOptimizer", ""},
    {"AdamOptimizer", "0.001"},
    {"MomentumOptimizer", ""},
    {"RMSPropOptimizer", ""},
    {"AdagradOptimizer", ""},
    {"AdadeltaOptimizer", "0.001"},
    {"FtrlOptimizer", ""},
    {"ProximalAdagradOptimizer", ""},
}};

constexpr std::array<std::string_view, 6> kSchedules = {
    "ExponentialDecay", "InverseTimeDecay",    "PolynomialDecay",
    "CosineDecay",      "CosineDecayRestarts", "LearningRateSchedule"};

constexpr std::array<std::string_view, 6> kTf1Decays = {"exponential_decay", "inverse_time_decay",
                                                        "natural_exp_decay", "polynomial_decay",
                                                        "cosine_decay",      "linear_cosine_decay"};

}  // namespace

std::optional<std::string> dotted_name(const Node& e) {
  if (e.is(Kind::Name)) return e.text("id");
  if (e.is(Kind::Attribute)) {
    auto base = dotted_name(*e.child("value"));
    if (!base) return std::nullopt;
    return *base + "." + e.text("attr");
  }
  return std::nullopt;
}

bool is_name(const Node& e, std::string_view id) {
  return e.is(Kind::Name) && e.text("id") == id;
}

bool is_member(const Node& e, std::string_view base, std::string_view path) {
  auto d = dotted_name(e);
  return d && d->size() == base.size() + 1 + path.size() && starts_with(*d, base) &&
         (*d)[base.size()] == '.' && std::string_view(*d).substr(base.size() + 1) == path;
}

std::optional<std::string> method_receiver(const Node& e, std::string_view attr) {
  if (!e.is(Kind::Attribute) || e.text("attr") != attr) return std::nullopt;
  const Node& v = *e.child("value");
  if (!v.is(Kind::Name)) return std::nullopt;
  return v.text("id");
}

std::string canonical(std::string q) {
  static const std::array<std::pair<std::string_view, std::string_view>, 9> prefixes = {{
      {"keras.", "tensorflow.keras."},
      {"tf_keras.", "tensorflow.keras."},
      {"tensorflow.python.keras.", "tensorflow.keras."},
      {"tensorflow.compat.v1.", "tensorflow."},
      {"tensorflow.compat.v2.", "tensorflow."},
      {"tensorflow.optimizers.", "tensorflow.keras.optimizers."},
      {"tensorflow.keras.optimizers.legacy.", "tensorflow.keras.optimizers."},
      {"tensorflow.keras.optimizers.experimental.", "tensorflow.keras.optimizers."},
      {"tensorflow.keras.models.", "tensorflow.keras."},
  }};
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [from, to] : prefixes) {
      if (starts_with(q, from)) {
        q = std::string(to) + q.substr(from.size());
        changed = true;
      }
    }
  }
  return q;
}

std::optional<std::string> resolve(const Node& e, const Env& sigma) {
  auto d = dotted_name(e);
  if (!d) return std::nullopt;
  std::size_t dot = d->find('.');
  std::string head = d->substr(0, dot);
  auto module = sigma.get("import:" + head);
  if (!module) return std::nullopt;
  return canonical(*module + (dot == std::string::npos ? "" : d->substr(dot)));
}

bool subclass_of(const std::string& q, TfClass c, const std::set<std::string>& model_classes) {
  std::string_view name = last_component(q);
  std::string_view where = parent(q);
  switch (c) {
    case TfClass::KerasOptimizer:
      if (where != "tensorflow.keras.optimizers") return false;
      for (const auto& [n, lr] : kKerasOptimizers)
        if (n == name) return true;
      return name == "Optimizer";
    case TfClass::PiecewiseConstantDecay:
      return q == "tensorflow.keras.optimizers.schedules.PiecewiseConstantDecay";
    case TfClass::LearningRateSchedule:
      if (where != "tensorflow.keras.optimizers.schedules" &&
          where != "tensorflow.keras.experimental")
        return false;
      for (std::string_view n : kSchedules)
        if (n == name) return true;
      return false;
    case TfClass::Tf1DecayFunction:
      if (where != "tensorflow.train") return false;
      for (std::string_view n : kTf1Decays)
        if (n == name) return true;
      return false;
    case TfClass::Tf1Optimizer:
      if (where != "tensorflow.train") return false;
      for (const auto& [n, lr] : kTf1Optimizers)
        if (n == name) return true;
      return name == "Optimizer";
    case TfClass::KerasModel:
      return q == "tensorflow.keras.Model" || q == "tensorflow.keras.Sequential" ||
             starts_with(q, "tensorflow.keras.applications.") ||
             q == "tensorflow.keras.load_model" || model_classes.count(q) != 0;
  }
  return false;
}

bool is_set_session(const std::string& q) {
  return last_component(q) == "set_session" &&
         starts_with(q, "tensorflow.keras.backend");  // .set_session, .tensorflow_backend...
}

std::optional<std::string> default_learning_rate(const std::string& q, bool standalone_keras2) {
  std::string_view name = last_component(q);
  std::string_view where = parent(q);
  if (where == "tensorflow.keras.optimizers" && standalone_keras2) {
    for (const auto& [n, lr] : kKeras2Optimizers)
      if (n == name) return std::string(lr);
    return std::nullopt;
  }
  if (where == "tensorflow.keras.optimizers")
    for (const auto& [n, lr] : kKerasOptimizers)
      if (n == name) return std::string(lr);
  if (where == "tensorflow.train")
    for (const auto& [n, lr] : kTf1Optimizers)
      if (n == name && !lr.empty()) return std::string(lr);
  return std::nullopt;
}

}  // namespace adlang::py
