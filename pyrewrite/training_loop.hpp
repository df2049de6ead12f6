// Training-loop identification (seed 002, Sec. 3): summaries of modules, functions, classes and
// values, computed by summary_M / summary_S̄ / summary_S / summary_E / summary_W̄ / summary_W /
// summary_Ā, and the ⊔ of the kinds of training loop found, which chooses the pattern.
//
// The lattice: ⊥ ⊑ Keras, GradTape, Session, Monitored ⊑ ⊤ (two different kinds: Sec. 3.1
// restriction 3). The document has the kinds GradTape and Optimizer (model.fit); Optimizer is
// split here into Keras (model.fit), Session (tf.Session) and Monitored (MonitoredTrainingSession),
// the three patterns that use a distributed optimizer (docs/pyrewrite.md).
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/python/ast/py_ast.hpp"

namespace adlang::py {

enum class LoopKind { None, Keras, Tape, Session, Monitored, Conflict };

std::string_view loop_kind_name(
    LoopKind k);  // "none", "keras", "tape", "session", "monitored", "conflict"
// tl_1 ⊔ tl_2
LoopKind join(LoopKind a, LoopKind b);

struct LoopEvidence {
  LoopKind kind;
  SourceLoc loc;
  std::string what;  // e.g. "model.fit"
};

struct ModuleSummary {
  LoopKind loop = LoopKind::None;
  std::vector<LoopEvidence> evidence;     // every training-loop construct found, in order
  std::set<std::string> model_classes;    // classes derived from keras.Model
  std::set<std::string> model_instances;  // names bound to model instances
  bool imports_tensorflow = false;
  // `K.set_session(tf.Session(...))`: a TF1 session carries the config of Keras (Horovod's TF1
  // Keras example); `standalone_keras` when that Keras is the `keras` package, not tf.keras.
  bool keras_session_config = false;
  bool standalone_keras = false;
  // `tf.enable_eager_execution(...)`: a TensorFlow 1 script in eager mode (its config pins the
  // GPU).
  bool tf1_eager = false;
  std::set<std::string> keras_sessions;  // `sess = tf.Session(...)` handed to `K.set_session(sess)`
  SourceLoc horovod_import;              // known() when the script imports horovod already
  std::vector<Diagnostic> diagnostics;   // Sec. 3.1 restrictions 4 and 5
};

// summary_M⟦id stmt* type_ignore⟧
ModuleSummary summary_M(const Node& module);

}  // namespace adlang::py
