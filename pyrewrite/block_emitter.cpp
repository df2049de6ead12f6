#include "pyrewrite/block_emitter.hpp"

#include <map>

#include "lang/diagnostics.hpp"

namespace adlang::py {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

// A string constant (or f-string) spanning several lines: its continuation lines must not be
// re-indented, that would change the string.
bool has_multiline_string(const Node& n) {
  if ((n.is(Kind::Constant) || n.is(Kind::JoinedStr)) && n.span.known() &&
      n.span.end_line != n.span.line)
    return true;
  for (const Field& f : n.fields) {
    if (f.tag == Field::Tag::Node && has_multiline_string(*f.node)) return true;
    if (f.tag == Field::Tag::List)
      for (const NodePtr& c : f.list)
        if (c && has_multiline_string(*c)) return true;
  }
  return false;
}

class BlockWriter {
 public:
  BlockWriter(const SourceLayout& layout, const Node* owner, const Node& first)
      : layout_(layout), text_(layout.text()), nl_(layout.newline()) {
    std::size_t b = layout.begin(first);
    std::size_t lb = layout.line_begin(first.span.line);
    bool starts_line = true;
    for (std::size_t i = lb; i < b; ++i)
      if (!is_space(text_[i])) starts_line = false;
    if (starts_line)
      indent_ = std::string(layout.indentation(first.span.line));
    else if (owner)
      indent_ = std::string(layout.indentation(owner->span.line)) + layout.indent_unit();
  }

  // New code, re-indented: every line but the first gets the block's indentation.
  std::string lines(const std::string& code, const std::string& sep_indent) const {
    std::string out;
    std::size_t pos = 0;
    bool first = true;
    while (pos <= code.size()) {
      std::size_t e = code.find('\n', pos);
      std::string_view line(code.data() + pos, (e == std::string::npos ? code.size() : e) - pos);
      if (!first) out += nl_ + sep_indent;
      std::size_t depth = 0;
      while (line.substr(0, 4) == "    ") {
        line.remove_prefix(4);
        ++depth;
      }
      for (std::size_t d = 0; d < depth; ++d)
        out += layout_.indent_unit();
      out += line;
      first = false;
      if (e == std::string::npos) break;
      pos = e + 1;
    }
    return out;
  }

  std::string join(const std::vector<std::string>& codes) const {
    std::string all;
    for (const std::string& c : codes)
      all += (all.empty() ? "" : "\n") + c;
    return lines(all, indent_);
  }

  // Makes `s` begin its own line (the text before it on its line is only indentation).
  void isolate_before(const Node& s) {
    std::size_t b = layout_.begin(s);
    std::size_t p = b;
    while (p > 0 && is_space(text_[p - 1]))
      --p;
    if (p == 0 || text_[p - 1] == '\n') return;
    std::size_t from = p;
    if (text_[p - 1] == ';') {
      from = p - 1;
      while (from > 0 && is_space(text_[from - 1]))
        --from;
    }
    edits_.push_back({from, b, nl_ + indent_});
  }

  // True when only spaces, a ';', a comment or the end of line follow `s` on its last line.
  bool last_on_line(const Node& s, std::size_t* next = nullptr) const {
    std::size_t q = layout_.end(s);
    while (q < text_.size() && is_space(text_[q]))
      ++q;
    if (q < text_.size() && text_[q] == ';') {
      ++q;
      while (q < text_.size() && is_space(text_[q]))
        ++q;
    }
    if (next) *next = q;
    return q >= text_.size() || text_[q] == '\n' || text_[q] == '\r' || text_[q] == '#' ||
           text_[q] == '\\';
  }

  void isolate_after(const Node& s) {
    std::size_t q;
    if (last_on_line(s, &q)) return;
    edits_.push_back({layout_.end(s), q, nl_ + indent_});
  }

  void insert_before(const Node& s, const std::vector<std::string>& codes) {
    isolate_before(s);
    edits_.push_back({layout_.begin(s), layout_.begin(s), join(codes) + nl_ + indent_});
  }

  void insert_after(const Node& s, const std::vector<std::string>& codes) {
    if (last_on_line(s)) {
      std::size_t at = layout_.line_end_with_newline(s.span.end_line);
      std::string prefix = (at == text_.size() && (at == 0 || text_[at - 1] != '\n')) ? nl_ : "";
      edits_.push_back({at, at, prefix + indent_ + join(codes) + nl_});
    } else {
      edits_.push_back({layout_.end(s), layout_.end(s), nl_ + indent_ + join(codes)});
    }
  }

  void guard(const Node& s, const std::string& cond) {
    isolate_before(s);
    isolate_after(s);
    const std::string& unit = layout_.indent_unit();
    edits_.push_back(
        {layout_.begin(s), layout_.begin(s), "if " + cond + ":" + nl_ + indent_ + unit});
    if (s.span.end_line > s.span.line && !has_multiline_string(s))
      for (std::uint32_t l = s.span.line + 1; l <= s.span.end_line; ++l) {
        std::size_t lb = layout_.line_begin(l);
        if (lb < text_.size() && text_[lb] != '\n' && text_[lb] != '\r')
          edits_.push_back({lb, lb, unit});
      }
  }

  void replace(const Node& s, const std::vector<std::string>& codes) {
    edits_.push_back({layout_.begin(s), layout_.end(s), join(codes)});
  }

  // Removes `s` with its line when it is alone there, else with its ';' separator.
  void remove(const Node& s) {
    std::size_t b = layout_.begin(s), e = layout_.end(s);
    std::size_t lb = layout_.line_begin(s.span.line);
    bool alone_before = true;
    for (std::size_t i = lb; i < b; ++i)
      if (!is_space(text_[i])) alone_before = false;
    std::size_t next;
    bool alone_after = last_on_line(s, &next);
    if (alone_before && alone_after) {
      edits_.push_back({lb, layout_.line_end_with_newline(s.span.end_line), ""});
    } else if (!alone_after) {
      edits_.push_back({b, next, ""});
    } else {
      std::size_t p = b;
      while (p > lb && is_space(text_[p - 1]))
        --p;
      if (p > lb && text_[p - 1] == ';') {
        --p;
        while (p > lb && is_space(text_[p - 1]))
          --p;
        edits_.push_back({p, e, ""});
      } else {
        edits_.push_back({b, e, "pass"});  // the only statement after a header's ':'
      }
    }
  }

  Edits& edits() { return edits_; }

 private:
  const SourceLayout& layout_;
  const std::string& text_;
  const std::string& nl_;
  std::string indent_;
  Edits edits_;
};

}  // namespace

Edits emit_block(const std::vector<NodePtr>& original, const StmtList& out,
                 const SourceLayout& layout, const Node* owner) {
  if (original.empty()) return {};
  // Group the output by the input statement that produced it.
  struct Group {
    std::vector<std::string> before, after;
    const OutStmt* kept = nullptr;
  };
  std::map<const Node*, Group> groups;
  std::map<const Node*, std::size_t> index;
  for (std::size_t i = 0; i < original.size(); ++i)
    index[original[i].get()] = i;
  std::size_t last_kept = 0;
  bool any_kept = false;
  for (const OutStmt& o : out) {
    const Node* src = o.source ? o.source : o.original;
    internal_check(src && index.count(src),
                   "emit_block: a statement without a source in this block");
    Group& g = groups[src];
    if (o.original) {
      internal_check(o.original == src && !g.kept, "emit_block: an original moved or duplicated");
      internal_check(!any_kept || index[src] > last_kept, "emit_block: originals reordered");
      g.kept = &o;
      last_kept = index[src];
      any_kept = true;
    } else {
      (g.kept ? g.after : g.before).push_back(o.code);
    }
  }
  BlockWriter w(layout, owner, *original.front());
  bool block_has_content = any_kept;
  for (const auto& [src, g] : groups)
    if (!g.before.empty() || !g.after.empty()) block_has_content = true;
  bool placed_pass = false;
  for (const NodePtr& sp : original) {
    const Node& s = *sp;
    auto it = groups.find(&s);
    if (it == groups.end()) {
      if (!block_has_content && !placed_pass) {
        w.replace(s, {"pass"});
        placed_pass = true;
      } else {
        w.remove(s);
      }
      continue;
    }
    const Group& g = it->second;
    if (!g.kept) {
      std::vector<std::string> all = g.before;
      all.insert(all.end(), g.after.begin(), g.after.end());
      w.replace(s, all);
      continue;
    }
    if (!g.before.empty()) w.insert_before(s, g.before);
    if (!g.kept->guard.empty()) w.guard(s, g.kept->guard);
    for (const TextEdit& e : g.kept->edits)
      w.edits().push_back(e);
    if (!g.after.empty()) {
      w.isolate_after(s);
      w.insert_after(s, g.after);
    }
  }
  return std::move(w.edits());
}

}  // namespace adlang::py
