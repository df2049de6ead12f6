#include "cli/kernel_cell.hpp"

#include <optional>
#include <sstream>

#include "driver/session.hpp"
#include "lang/diagnostics.hpp"
#include "lang/parser.hpp"
#include "support/trim.hpp"

namespace adlang {

namespace {

bool starts_with_word(const std::string& s, const std::string& word) {
  return s.compare(0, word.size(), word) == 0 &&
         (s.size() == word.size() || s[word.size()] == ' ' || s[word.size()] == '\t' ||
          s[word.size()] == '(');
}

bool is_whole_term(const std::string& text) {
  try {
    parse_program(text);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

bool is_count(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// Magics that are the REPL's commands under another sign.
bool is_repl_magic(const std::string& name) {
  return name == "set" || name == "env" || name == "load" || name == "defs";
}

// Magics whose arguments are not a term: they take the cell's next term.
bool takes_next_term(const std::string& name, const std::string& args) {
  if (name == "diff" || name == "plot") return true;
  if (name == "check") return args.empty();
  if (name == "trace" || name == "den" || name == "type" || name == "derivation")
    return args.empty();
  return false;  // help, and unknown magics (reported when they run)
}

class Splitter {
 public:
  std::vector<CellInput> inputs;

  void line(const std::string& raw, std::uint32_t number) {
    std::string t = trim(raw);
    if (!buffer_.empty() && !is_def_) {
      // A term goes on while it is not whole, or on indented lines; a definition or a
      // command always starts a new input (an unfinished term then reports its error).
      bool indented = !t.empty() && (raw[0] == ' ' || raw[0] == '\t');
      bool starts_new = starts_with_word(t, "def") || (!t.empty() && (t[0] == '%' || t[0] == ':'));
      if (starts_new || (!indented && is_whole_term(buffer_))) {
        flush();
      } else {
        buffer_ += "\n" + raw;
        return;
      }
    }
    if (buffer_.empty()) {
      if (t.empty()) return;
      if (t[0] == '%' || t[0] == ':') {
        command(t, number);
        return;
      }
      buffer_line_ = number;
      buffer_ = raw;
    } else {
      buffer_ += "\n" + raw;  // a definition before its ';'
    }
    is_def_ = starts_with_word(trim(buffer_), "def");
    if (is_def_ && !Session::needs_more(buffer_)) flush();
  }

  void finish() {
    flush();
    if (pending_) inputs.push_back(*pending_);
    pending_.reset();
  }

 private:
  std::string buffer_;
  std::uint32_t buffer_line_ = 1;
  bool is_def_ = false;
  std::optional<CellInput> pending_;  // a magic waiting for its term

  void flush() {
    if (trim(buffer_).empty()) {
      buffer_.clear();
      return;
    }
    CellInput in;
    if (!is_def_ && pending_) {
      in = *pending_;
      pending_.reset();
    } else {
      in.line = buffer_line_;
    }
    in.text = buffer_;
    in.text_line = buffer_line_;
    inputs.push_back(in);
    buffer_.clear();
    is_def_ = false;
  }

  void command(const std::string& t, std::uint32_t number) {
    CellInput in;
    in.line = in.text_line = number;
    if (t[0] == ':') {
      in.text = t;
      inputs.push_back(in);
      return;
    }
    std::size_t sp = t.find_first_of(" \t");
    std::string name = t.substr(1, sp == std::string::npos ? std::string::npos : sp - 1);
    std::string args = sp == std::string::npos ? "" : trim(t.substr(sp));
    if (is_repl_magic(name)) {
      in.text = ":" + t.substr(1);
      inputs.push_back(in);
      return;
    }
    if (pending_) inputs.push_back(*pending_);  // it gets no term: reported when it runs
    pending_.reset();
    in.magic = name;
    if (takes_next_term(name, args)) {
      in.args = args;
      pending_ = in;
      return;
    }
    if (name == "check" && is_count(args)) {
      in.args = args;
    } else {
      in.text = args;  // `%trace f(2)`: the term on the magic's line
    }
    inputs.push_back(in);
  }
};

}  // namespace

std::vector<CellInput> split_cell(const std::string& cell) {
  Splitter s;
  std::istringstream lines(cell);
  std::string line;
  std::uint32_t number = 0;
  while (std::getline(lines, line))
    s.line(line, ++number);
  s.finish();
  return s.inputs;
}

bool cell_is_complete(const std::string& cell) {
  for (const CellInput& in : split_cell(cell))
    if (in.magic.empty() && Session::needs_more(trim(in.text))) return false;
  return true;
}

}  // namespace adlang
