#include "lang/python/ast/py_ast.hpp"

#include <array>
#include <string>

#include "lang/diagnostics.hpp"

namespace adlang::py {

namespace {

struct KindInfo {
  std::string_view name;
  Category category;
  std::vector<std::string_view> fields;
};

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    std::size_t sp = s.find(' ');
    if (sp != 0) out.push_back(s.substr(0, sp));
    if (sp == std::string_view::npos) break;
    s.remove_prefix(sp + 1);
  }
  return out;
}

const std::vector<KindInfo>& table() {
  static const std::vector<KindInfo> t = {
#define ADLANG_PY_KIND_INFO(kind, cat, fields) {#kind, Category::cat, split_fields(fields)},
      ADLANG_PY_NODE_KINDS(ADLANG_PY_KIND_INFO)
#undef ADLANG_PY_KIND_INFO
  };
  return t;
}

const Field& none_field() {
  static const Field f;
  return f;
}

}  // namespace

std::string_view kind_name(Kind k) {
  return table()[static_cast<std::size_t>(k)].name;
}

Category category(Kind k) {
  return table()[static_cast<std::size_t>(k)].category;
}

const std::vector<std::string_view>& field_names(Kind k) {
  return table()[static_cast<std::size_t>(k)].fields;
}

bool kind_from_name(std::string_view name, Kind& out) {
  const auto& t = table();
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].name == name) {
      out = static_cast<Kind>(i);
      return true;
    }
  }
  return false;
}

const Field& Node::field(std::string_view name) const {
  const auto& names = field_names(kind);
  for (std::size_t i = 0; i < names.size() && i < fields.size(); ++i)
    if (names[i] == name) return fields[i];
  internal_check(false, "py::Node::field: no such field for this node kind");
  return none_field();
}

const Node* Node::child(std::string_view name) const {
  const Field& f = field(name);
  return f.tag == Field::Tag::Node ? f.node.get() : nullptr;
}

const std::vector<NodePtr>& Node::list(std::string_view name) const {
  return field(name).list;
}

const std::string& Node::text(std::string_view name) const {
  return field(name).text;
}

const Node& call_func(const Node& call) {
  internal_check(call.is(Kind::Call), "call_func on a non-call");
  return *call.child("func");
}

const std::vector<NodePtr>& call_args(const Node& call) {
  internal_check(call.is(Kind::Call), "call_args on a non-call");
  return call.list("args");
}

const std::vector<NodePtr>& call_keywords(const Node& call) {
  internal_check(call.is(Kind::Call), "call_keywords on a non-call");
  return call.list("keywords");
}

const Node* find_keyword(const Node& call, std::string_view name) {
  for (const NodePtr& k : call_keywords(call))
    if (k->field("arg").tag == Field::Tag::Text && k->text("arg") == name) return k.get();
  return nullptr;
}

const std::vector<NodePtr>& block(const Node& n, std::string_view field) {
  return n.list(field);
}

}  // namespace adlang::py
