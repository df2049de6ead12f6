// The editor's highlighting of adlang (docs/language.md): a CodeMirror 5 simple mode
// (addon/mode/simple.js). The keywords are the lexer's (lang/lexer.cpp, kKeywords; the browser
// test checks that each is highlighted), `rd` and `fd` after a dot (M.rd[L](x: T. N)), the
// operators of the table (lang/operators.hpp) and the infix ones, numbers as the lexer reads
// them, and `--` comments.
'use strict';

const ADLANG_KEYWORDS = ['def', 'let', 'letrec', 'in', 'if', 'then', 'else', 'fst', 'snd', 'true',
                         'false', 'real', 'unit', 'grad'];
const ADLANG_OPERATORS = ['sin', 'cos', 'exp', 'log', 'sqrt', 'tanh', 'sigmoid', 'floor'];

(() => {
  // A word ends where no identifier character follows (identifiers may contain ').
  const word = (names) => new RegExp('(?:' + names.join('|') + ")(?![A-Za-z0-9_'])");
  CodeMirror.defineSimpleMode('adlang', {
    start: [
      {regex: /--.*/, token: 'comment'},
      {regex: /(\.)(rd|fd)(?![A-Za-z0-9_'])/, token: [null, 'keyword']},
      {regex: word(ADLANG_KEYWORDS), token: 'keyword'},
      {regex: /(?:dot|scale)_\d+(?![A-Za-z0-9_'])/, token: 'builtin'},
      {regex: word(ADLANG_OPERATORS), token: 'builtin'},
      {regex: /[A-Za-z_][A-Za-z0-9_']*/, token: 'variable'},
      {regex: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, token: 'number'},
      {regex: /<=|>=|[-+*\/^<>=]/, token: 'operator'},
    ],
    meta: {lineComment: '--'},
  });
})();
