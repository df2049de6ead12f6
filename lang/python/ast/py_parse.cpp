#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "lang/python/ast/py_parse.hpp"

#include <string>
#include <vector>

#include "lang/python/ast/python_runtime.hpp"
#include "support/utf8.hpp"

namespace adlang::py {

namespace {

// A strong reference that is released when it goes out of scope.
class Ref {
 public:
  explicit Ref(PyObject* p = nullptr) : p_(p) {}
  ~Ref() { Py_XDECREF(p_); }
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  PyObject* get() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  PyObject* p_;
};

std::string utf8_of(PyObject* s) {
  if (!s || !PyUnicode_Check(s)) return {};
  Py_ssize_t n = 0;
  const char* c = PyUnicode_AsUTF8AndSize(s, &n);
  if (!c) {
    PyErr_Clear();
    return {};
  }
  return std::string(c, static_cast<std::size_t>(n));
}

long long int_attr(PyObject* o, const char* name, long long fallback) {
  Ref v(PyObject_GetAttrString(o, name));
  if (!v || v.get() == Py_None) {
    PyErr_Clear();
    return fallback;
  }
  long long r = PyLong_AsLongLong(v.get());
  if (r == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return fallback;
  }
  return r;
}

std::string type_name(PyObject* o) {
  std::string n = Py_TYPE(o)->tp_name;
  std::size_t dot = n.rfind('.');
  return dot == std::string::npos ? n : n.substr(dot + 1);
}

// Interned field-name strings, one vector per kind.
const std::vector<PyObject*>& field_keys(Kind k) {
  static std::vector<std::vector<PyObject*>> cache;
  std::size_t i = static_cast<std::size_t>(k);
  if (cache.empty()) {
    Kind last = Kind::TypeIgnore;
    cache.resize(static_cast<std::size_t>(last) + 1);
  }
  if (cache[i].empty() && !field_names(k).empty()) {
    for (std::string_view f : field_names(k))
      cache[i].push_back(PyUnicode_InternFromString(std::string(f).c_str()));
  }
  return cache[i];
}

ConstantType constant_type_of(PyObject* v) {
  if (v == Py_None) return ConstantType::None;
  if (PyBool_Check(v)) return ConstantType::Bool;
  if (PyLong_Check(v)) return ConstantType::Int;
  if (PyFloat_Check(v)) return ConstantType::Float;
  if (PyComplex_Check(v)) return ConstantType::Complex;
  if (PyUnicode_Check(v)) return ConstantType::Str;
  if (PyBytes_Check(v)) return ConstantType::Bytes;
  if (v == Py_Ellipsis) return ConstantType::Ellipsis;
  return ConstantType::Other;
}

// Deeper trees than this are rejected: the rules recurse over the tree, and a chain such as
// `a + a + ... + a` with thousands of terms (which CPython itself accepts up to about 3,000)
// would exhaust the stack of a sanitizer build. Real scripts nest a few dozen levels.
constexpr int kMaxDepth = 1000;

class Converter {
 public:
  NodePtr node(PyObject* o) {
    struct Depth {
      int& d;
      explicit Depth(int& x) : d(x) { ++d; }
      ~Depth() { --d; }
    } guard(depth_);
    if (depth_ > kMaxDepth) {
      auto line = static_cast<std::uint32_t>(int_attr(o, "lineno", 0));
      auto col = static_cast<std::uint32_t>(int_attr(o, "col_offset", 0));
      throw CompileError(SourceLoc{line, line ? col + 1 : 0},
                         "the script nests expressions more than " + std::to_string(kMaxDepth) +
                             " levels deep; adlang pyrewrite does not rewrite it");
    }
    std::string tn = type_name(o);
    Kind k;
    if (!kind_from_name(tn, k))
      throw InternalError("unsupported Python syntax node '" + tn + "' (CPython " +
                          Py_GetVersion() + ")");
    auto n = std::make_shared<Node>();
    n->kind = k;
    if (category(k) != Category::Module && PyObject_HasAttrString(o, "lineno") &&
        k != Kind::TypeIgnore) {
      n->span.line = static_cast<std::uint32_t>(int_attr(o, "lineno", 0));
      n->span.col = static_cast<std::uint32_t>(int_attr(o, "col_offset", 0));
      n->span.end_line = static_cast<std::uint32_t>(int_attr(o, "end_lineno", n->span.line));
      n->span.end_col = static_cast<std::uint32_t>(int_attr(o, "end_col_offset", n->span.col));
    }
    const auto& keys = field_keys(k);
    n->fields.resize(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      Ref v(PyObject_GetAttr(o, keys[i]));
      if (!v) {
        PyErr_Clear();
        continue;
      }
      if (k == Kind::Constant && i == 0) {
        constant(*n, v.get());
        continue;
      }
      field(n->fields[i], v.get());
    }
    return n;
  }

 private:
  void constant(Node& n, PyObject* v) {
    n.constant_type = constant_type_of(v);
    Field& f = n.fields[0];
    f.tag = Field::Tag::Text;
    Ref r(PyObject_Repr(v));
    f.text = utf8_of(r.get());
    if (n.constant_type == ConstantType::Str) n.str_value = utf8_of(v);
    PyErr_Clear();
  }

  void field(Field& f, PyObject* v) {
    if (v == Py_None) return;
    if (PyList_Check(v)) {
      Py_ssize_t len = PyList_GET_SIZE(v);
      // Identifiers (Global.names) and operators (Compare.ops: their class names) are names.
      Kind ignored;
      bool names = len > 0 && (PyUnicode_Check(PyList_GET_ITEM(v, 0)) ||
                               (PyList_GET_ITEM(v, 0) != Py_None &&
                                !kind_from_name(type_name(PyList_GET_ITEM(v, 0)), ignored)));
      f.tag = names ? Field::Tag::Names : Field::Tag::List;
      for (Py_ssize_t i = 0; i < len; ++i) {
        PyObject* e = PyList_GET_ITEM(v, i);
        if (names)
          f.names.push_back(PyUnicode_Check(e) ? utf8_of(e) : type_name(e));
        else
          f.list.push_back(e == Py_None ? nullptr : node(e));
      }
      return;
    }
    if (PyUnicode_Check(v)) {
      f.tag = Field::Tag::Text;
      f.text = utf8_of(v);
      return;
    }
    if (PyLong_Check(v)) {
      f.tag = Field::Tag::Int;
      f.integer = PyLong_AsLongLong(v);
      PyErr_Clear();
      return;
    }
    std::string tn = type_name(v);
    Kind k;
    if (kind_from_name(tn, k)) {
      f.tag = Field::Tag::Node;
      f.node = node(v);
      return;
    }
    // Operators, comparison operators and expression contexts: their class name.
    f.tag = Field::Tag::Text;
    f.text = tn;
  }

  int depth_ = 0;
};

// The byte column of the 1-based character column `chars` in `line`.
std::uint32_t byte_column(const std::string& text, std::uint32_t line, long long chars) {
  std::size_t pos = 0;
  for (std::uint32_t l = 1; l < line && pos < text.size(); ++l) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) return 1;
    pos = nl + 1;
  }
  std::size_t start = pos;
  long long seen = 1;
  while (pos < text.size() && text[pos] != '\n' && seen < chars) {
    unsigned char c = static_cast<unsigned char>(text[pos]);
    ++pos;
    while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80 && c >= 0x80)
      ++pos;
    ++seen;
  }
  return static_cast<std::uint32_t>(pos - start + 1);
}

[[noreturn]] void throw_python_error(const std::string& text) {
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  Ref t(type), v(value), b(tb);
  if (v && PyErr_GivenExceptionMatches(type, PyExc_SyntaxError)) {
    Ref msg(PyObject_GetAttrString(v.get(), "msg"));
    std::string m = utf8_of(msg.get());
    PyErr_Clear();
    auto line = static_cast<std::uint32_t>(int_attr(v.get(), "lineno", 0));
    long long offset = int_attr(v.get(), "offset", 1);
    SourceLoc loc{line, line ? byte_column(text, line, offset < 1 ? 1 : offset) : 0};
    std::string kind = type_name(v.get()) == "IndentationError" ? "indentation error: "
                       : type_name(v.get()) == "TabError"       ? "tab error: "
                                                                : "syntax error: ";
    throw CompileError(loc, kind + (m.empty() ? "invalid syntax" : m),
                       {"the input must be a Python 3.11 module (parsed by CPython's ast module)"});
  }
  if (v && PyErr_GivenExceptionMatches(type, PyExc_RecursionError))
    throw CompileError(SourceLoc{}, "the script nests expressions too deeply for CPython's parser");
  if (v && PyErr_GivenExceptionMatches(type, PyExc_MemoryError))
    throw CompileError(SourceLoc{}, "CPython's parser ran out of memory on this script");
  Ref s(v ? PyObject_Str(v.get()) : nullptr);
  std::string what = utf8_of(s.get());
  PyErr_Clear();
  throw CompileError(SourceLoc{}, "CPython cannot parse the script: " + what);
}

}  // namespace

SourceLoc first_invalid_utf8(const std::string& text) {
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  auto bad = [&]() { return SourceLoc{line, static_cast<std::uint32_t>(i - line_start + 1)}; };
  while (i < text.size()) {
    std::size_t len = utf8_sequence_length(text, i);
    if (len == 0) return bad();
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    i += len;
  }
  return SourceLoc{};
}

namespace {

// ast.parse(text, path, 'exec', type_comments=True) as a new reference; CompileError on failure.
// The line and column (in bytes, from 1) of `text[offset]`, lines ended by '\n'.
SourceLoc location_at(const std::string& text, std::size_t offset) {
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return SourceLoc{line, static_cast<std::uint32_t>(offset - line_start + 1)};
}

PyObject* python_parse(const std::string& path, const std::string& text) {
  SourceLoc bad = first_invalid_utf8(text);
  if (bad.known())
    throw CompileError(bad, "the script is not valid UTF-8",
                       {"Python 3 source is UTF-8 by default; convert the file, e.g. with "
                        "`iconv -f latin1 -t utf-8`"});
  std::size_t nul = text.find('\0');
  if (nul != std::string::npos)
    throw CompileError(location_at(text, nul), "the script contains a null byte");
  // CPython ends a line at a carriage return not followed by a line feed (universal newlines),
  // but locations here and the rewriter's edits count lines by '\n': such a script would be
  // edited at the wrong lines, so it is refused.
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) {
      throw CompileError(location_at(text, i),
                         "the script has a carriage return that does not end a CRLF line",
                         {"end lines with \\n or \\r\\n, e.g. with `mac2unix`"});
    }
  PythonLock lock;
  static PyObject* parse_fn = nullptr;
  if (!parse_fn) {
    Ref ast(PyImport_ImportModule("ast"));
    if (!ast) {
      PyErr_Print();
      throw InternalError("the embedded Python cannot import its `ast` module");
    }
    parse_fn = PyObject_GetAttrString(ast.get(), "parse");
    if (!parse_fn) throw InternalError("the embedded Python's ast module has no parse()");
  }
  Ref source(PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "strict"));
  if (!source) throw_python_error(text);
  Ref filename(PyUnicode_DecodeFSDefault(path.c_str()));
  if (!filename) PyErr_Clear();
  Ref args(Py_BuildValue("(OOs)", source.get(), filename ? filename.get() : Py_None, "exec"));
  Ref kwargs(Py_BuildValue("{s:O}", "type_comments", Py_True));
  PyObject* tree = PyObject_Call(parse_fn, args.get(), kwargs.get());
  if (!tree) throw_python_error(text);
  return tree;
}

}  // namespace

NodePtr parse_module(const std::string& path, const std::string& text) {
  PythonLock lock;
  Ref tree(python_parse(path, text));
  Converter conv;
  return conv.node(tree.get());
}

void check_syntax(const std::string& path, const std::string& text) {
  PythonLock lock;
  Ref tree(python_parse(path, text));
}

}  // namespace adlang::py
