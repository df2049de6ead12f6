// Python programs lowered to the language (docs/python.md): the TensorFlow 1 graphs of the
// thesis (seed 004, Appendices B and C: function.Declare/Defun, tf.cond, placeholders fed by
// sess.run, tf.device) and plain numeric Python (top-level defs, loops, math.*). The result is
// the surface syntax of a program, which the type checker elaborates into the core IR like any
// .ad file, so every command works on it. What the lowering cannot express faithfully is
// refused with a CompileError at the construct (exit 3), never translated approximately.
#pragma once

#include <string>
#include <vector>

#include "lang/python/lower/python_kind.hpp"
#include "lang/source.hpp"
#include "lang/syntax.hpp"

namespace adlang::py {

// A `with tf.device(D):` block: the statements between `begin` and `end` (inclusive lines) of
// the function `function` (empty: the program's term) are placed on device D.
struct Placement {
  std::string function;
  SourceLoc begin;
  SourceLoc end;
  std::string device;
  // The task of the device ("/job:local/replica:0/task:1/device:CPU:0" is on task 1): the rank
  // of the partition that runs these lines.
  unsigned rank = 0;
  // As the partitioned graph's placement option reads it: FUNCTION:LINE=RANK for each line of
  // the block (the program's term is placed as main:LINE=RANK).
  std::vector<std::string> place_options() const;
};

// An input's value from the `feed_dict` of the script's own `sess.run`: the default when no
// --env gives the input.
struct DefaultInput {
  Name name;
  std::string value;  // a value in --env syntax
};

struct LoweredPython {
  SyntaxProgram program;
  std::vector<DefaultInput> defaults;
  std::vector<Placement> placements;
  // The kind of the printed value, for `adlang run` to print it as Python's print does.
  PrintedKind printed;
};

// Lowers the Python module `file`. Throws CompileError for a syntax error or a construct the
// lowering refuses.
LoweredPython lower_python(const SourceFile& file);

// True when `path` names a Python file (ends in ".py").
bool is_python_path(const std::string& path);

// `lowered` as .ad text: the placements and default inputs as comments, then the program.
std::string print_lowered(const LoweredPython& lowered);

}  // namespace adlang::py
