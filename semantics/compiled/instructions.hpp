// The compiled evaluator's code (semantics/compiled_eval.hpp): the instruction set of its stack
// machine, each instruction with the rule of Figs. 2-3 it implements, and a compiled program.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "lang/name.hpp"
#include "lang/op.hpp"
#include "lang/source.hpp"
#include "lang/term.hpp"
#include "semantics/undefined.hpp"

namespace adlang::compiled {

// Operands are scalars on one stack; `fp` is the base of the current frame (a function's
// parameter, then its lets and temporaries). Each instruction's effect, with its figure rule.
// Superinstructions do what the instructions they stand for do, one after another, in one
// dispatch (docs/performance.md Sec. 1): SubLC and BranchLtLC .. BranchEqLC for an operand pair
// <x, r> of a real local x and a literal r, the commonest in guards and arguments (n < 1.5,
// n - 1); Load2 for two Load1 in a row that no jump enters between.

enum class Code : std::uint8_t {
  Const,     // push consts[a]                                         (a literal r)
  Load1,     // push st[fp + a]                                        (a real variable)
  Load2,     // Load1 a; Load1 b
  Load,      // push st[fp + a .. fp + a + b)                          (a variable / path)
  Input,     // push inputs[a .. a + b)                                (a program input, rho)
  Slide,     // remove the b... below the top a: [.. X(a) R(b)] -> [.. R(b)]   (end of let)
  Drop,      // sp -= a                                                (fst)
  Add,       // V + W => r + s; locs[a]                                (Fig. 2, +)
  Neg,       // ev(neg, V); locs[a]
  Sub,       // ev(sub, V); locs[a]
  Mul,       // ev(mul, V); locs[a]
  Div,       // ev(div, V); locs[a]
  OpAdd,     // ev(add, V); locs[a]
  Op,        // ev(ops[b], V); locs[a]                                 (Fig. 2, op)
  BranchLt,  // pred(V), pred = lt; jump to c if false; locs[a]       (Fig. 2, pred and if)
  BranchGt,  // the same with gt, then le, ge, eq (in the order of PredKind)
  BranchLe,
  BranchGe,
  BranchEq,
  SubLC,       // Load1 b; Const c; Sub a
  BranchLtLC,  // Load1 d; Const e; BranchLt a c; then gt, le, ge, eq
  BranchGtLC,
  BranchLeLC,
  BranchGeLC,
  BranchEqLC,
  Jump,      // pc = a
  Call,      // f(V): fn a, |T| = b; locs[c]; its entry d, max_height e  (Fig. 2, call)
  TailCall,  // the same in tail position: the caller's frame is reused
  Ret,       // the result (a scalars) replaces the frame
  Ret1,      // Ret 1: a real result
  Rd,        // W.rd_V(x:T. N): rds[a]                                 (Fig. 2, rd)
  Fail,      // throw fails[a] (a literal outside the precision's range)
  Halt,
};

// The branch on predicate k, or its superinstruction.
inline Code branch_code(PredKind k, bool local_and_literal) {
  static_assert(static_cast<int>(PredKind::Eq) == 4 &&
                static_cast<int>(Code::BranchEq) - static_cast<int>(Code::BranchLt) == 4 &&
                static_cast<int>(Code::BranchEqLC) - static_cast<int>(Code::BranchLtLC) == 4);
  return static_cast<Code>(static_cast<int>(local_and_literal ? Code::BranchLtLC : Code::BranchLt) +
                           static_cast<int>(k));
}

struct Instr {
  Code code;
  std::uint32_t a = 0, b = 0, c = 0, d = 0, e = 0;
};

// A variable: a region of the current frame, or of the inputs (rho).
struct Slot {
  Name name;
  bool input = false;
  std::uint32_t off = 0;
  std::uint32_t size = 0;
};

struct Group {
  const LetRec* letrec;
  std::uint32_t first_fn;  // index of letrec->defs[0] in Program::functions
};

// An rd redex: what symbolic evaluation needs from the evaluation state at that point.
struct RdSite {
  const Rd* node;
  std::vector<Slot> locals;   // bindings in scope, in binding order
  bool top_level;             // whether rho is visible (not inside a function body)
  std::vector<Group> groups;  // the function environment, outermost first
  std::uint32_t point_size;
};

template <class S>
struct Program {
  std::vector<Instr> code;
  std::vector<S> consts;
  std::vector<SourceLoc> locs;
  std::vector<Op> ops;
  std::vector<Undefined> fails;
  std::vector<RdSite> rds;
  struct Function {
    const FunDef* def;
    std::uint32_t entry = 0;
    std::uint32_t max_height = 0;
  };
  std::vector<Function> functions;
  std::vector<S> inputs;
  // Where each input's value was copied from (its name in rho): a program compiled once can be
  // run again in another environment with the same names and types (refill_inputs).
  std::vector<std::pair<Name, std::uint32_t>> input_names;
  std::uint32_t main_max_height = 0;
};

}  // namespace adlang::compiled
