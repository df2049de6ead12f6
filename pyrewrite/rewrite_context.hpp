// What one rewrite of one module shares across its rules, beside σ: the source and its layout,
// the fresh-name supply (NewID), the name Horovod is imported as, the diagnostics and the list of
// rules that fired (--explain), the enclosing function frames (for `global` declarations) and the
// broadcast flags the GradientTape rules allocate.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/python/ast/py_ast.hpp"
#include "pyrewrite/fresh_names.hpp"
#include "pyrewrite/source_layout.hpp"
#include "pyrewrite/text_edit.hpp"

namespace adlang::py {

struct RuleFiring {
  std::string rule;     // e.g. "trans_S: optimizer learning rate scaling and wrapping"
  std::string section;  // the document's section, e.g. "2.3"
  SourceLoc loc;
};

// A flag recording that the initial broadcast of one optimizer's variables has happened.
struct BroadcastFlag {
  std::string optimizer;  // the optimizer's variable
  bool tf_variable;       // inside @tf.function the flag is a tf.Variable (read at run time)
  std::string name;       // the fresh name
};

// An enclosing function definition while its body is rewritten.
struct FunctionFrame {
  const Node* def = nullptr;
  bool tf_function = false;          // decorated with tf.function
  std::vector<std::string> globals;  // `global` declarations the rules need at its top
};

class RewriteContext {
 public:
  RewriteContext(std::string path, const std::string& text, const Node& module);

  const std::string& path() const { return path_; }
  const SourceLayout& layout() const { return layout_; }
  const std::string& text() const { return layout_.text(); }
  // NewID()
  std::string new_id(std::string_view hint) { return names_.fresh(hint); }
  // The name `horovod.tensorflow` is imported as ("hvd" unless the script uses that name).
  const std::string& hvd() const { return hvd_; }
  // Source text of a node, with `edits` inside it applied.
  std::string src(const Node& n, const Edits& edits = {}) const;

  void fire(const Node& at, std::string rule, std::string section);
  void warn(const Node& at, std::string message, std::vector<std::string> notes = {});
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::vector<RuleFiring>& firings() const { return firings_; }

  std::vector<FunctionFrame>& frames() { return frames_; }
  // The broadcast flag of `optimizer` (allocated on first use).
  BroadcastFlag broadcast_flag(const std::string& optimizer, bool tf_variable);
  const std::vector<BroadcastFlag>& broadcast_flags() const { return flags_; }

  // User classes derived from keras.Model and names holding model instances (Sec. 3 summary).
  std::set<std::string> model_classes;
  std::set<std::string> model_instances;
  // A TF1 session only carries Keras' config (`K.set_session(tf.Session(...))`), and whether
  // that Keras is the standalone `keras` package (Sec. 3 summary).
  bool keras_session_config = false;
  bool standalone_keras = false;
  bool tf1_eager = false;                // `tf.enable_eager_execution(...)` configures TensorFlow 1
  std::set<std::string> keras_sessions;  // `sess = tf.Session(...)` handed to `K.set_session(sess)`

 private:
  std::string path_;
  SourceLayout layout_;
  FreshNames names_;
  std::string hvd_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<RuleFiring> firings_;
  std::vector<FunctionFrame> frames_;
  std::vector<BroadcastFlag> flags_;
};

}  // namespace adlang::py
