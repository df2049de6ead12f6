// What a kernel's cell process sends the kernel through its pipe (docs/kernel.md, "Interrupt,
// and the cell's process"): messages of one kind letter, then the length-prefixed fields
// (support/length_prefixed.hpp) as one length-prefixed body.
//   O text / E text          the stdout / stderr stream
//   D (type content)...      display data
//   X ename evalue line...   the error that ended the cell
//   S snapshot               the session's state after the cell
#pragma once

namespace adlang {

constexpr char kCellStdout = 'O', kCellStderr = 'E', kCellDisplay = 'D', kCellError = 'X',
               kCellState = 'S';

}  // namespace adlang
