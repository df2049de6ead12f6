// Names of TensorFlow API objects as the rules compare them: the dotted name of an expression
// (`tf.keras.optimizers.Adam`), resolved through the imports recorded in σ
// ("tensorflow.keras.optimizers.Adam"), canonicalised across the spellings TensorFlow accepts
// (tf.optimizers = tf.keras.optimizers, tf.compat.v1.X = tf.X in TF1 code, standalone keras), and
// the document's subclass test `expr <: C` against a table of TensorFlow classes.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "lang/python/ast/py_ast.hpp"
#include "pyrewrite/environment.hpp"

namespace adlang::py {

// "a.b.c" for Name/Attribute chains, nothing for anything else.
std::optional<std::string> dotted_name(const Node& e);
// e is the Name `id`.
bool is_name(const Node& e, std::string_view id);
// e is `base.path` (e.g. base "tf", path "config.experimental.set_visible_devices").
bool is_member(const Node& e, std::string_view base, std::string_view path);
// e is `<something>.attr`; returns the Name the chain starts with when that is a plain Name.
std::optional<std::string> method_receiver(const Node& e, std::string_view attr);

// The fully qualified, canonical name e refers to through the imports in σ, or nothing.
std::optional<std::string> resolve(const Node& e, const Env& sigma);
// Canonical spelling of a qualified name (see the file comment).
std::string canonical(std::string qualified);

// The document's `<:` for the classes (and TF1 decay functions) the rules name.
enum class TfClass {
  KerasOptimizer,          // tensorflow.keras.optimizers.Optimizer
  PiecewiseConstantDecay,  // tensorflow.keras.optimizers.schedules.PiecewiseConstantDecay
  LearningRateSchedule,    // tensorflow.keras.optimizers.schedules.LearningRateSchedule
  Tf1DecayFunction,        // tensorflow.compat.v1.train.exponential_decay (and its siblings)
  Tf1Optimizer,            // tensorflow.compat.v1.train.Optimizer
  KerasModel,              // tensorflow.keras.Model
};
// `canonical_name <: c`; `model_classes` are user classes known to derive from keras.Model.
bool subclass_of(const std::string& canonical_name, TfClass c,
                 const std::set<std::string>& model_classes = {});
// Keras' `set_session` (`keras.backend.set_session`, `tf.compat.v1.keras.backend.set_session`,
// `keras.backend.tensorflow_backend.set_session`): a canonical name.
bool is_set_session(const std::string& canonical_name);
// The default learning rate of a known optimizer class, or nothing. `standalone_keras2`: the
// defaults of the standalone Keras 2.2/2.3 package of TensorFlow 1 scripts (Adadelta 1.0, ...).
std::optional<std::string> default_learning_rate(const std::string& canonical_name,
                                                 bool standalone_keras2 = false);

}  // namespace adlang::py
