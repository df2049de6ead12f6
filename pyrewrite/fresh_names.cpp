#include "pyrewrite/fresh_names.hpp"

namespace adlang::py {

FreshNames::FreshNames(const Node& module) {
  collect(module);
}

void FreshNames::collect(const Node& n) {
  const auto& names = field_names(n.kind);
  for (std::size_t i = 0; i < n.fields.size(); ++i) {
    const Field& f = n.fields[i];
    switch (f.tag) {
      case Field::Tag::Node:
        collect(*f.node);
        break;
      case Field::Tag::List:
        for (const NodePtr& c : f.list)
          if (c) collect(*c);
        break;
      case Field::Tag::Names:
        used_.insert(f.names.begin(), f.names.end());
        break;
      case Field::Tag::Text: {
        std::string_view fname = names[i];
        if (fname == "id" || fname == "attr" || fname == "name" || fname == "asname" ||
            fname == "arg" || fname == "rest" || fname == "module") {
          // Dotted names (import a.b.c, from a.b import c) contribute each component.
          std::string_view t = f.text;
          while (!t.empty()) {
            std::size_t dot = t.find('.');
            used_.insert(std::string(t.substr(0, dot)));
            if (dot == std::string_view::npos) break;
            t.remove_prefix(dot + 1);
          }
        }
        break;
      }
      case Field::Tag::None:
      case Field::Tag::Int:
        break;
    }
  }
}

std::string FreshNames::fresh(std::string_view hint) {
  std::string name(hint);
  for (int i = 1; used_.count(name); ++i)
    name = std::string(hint) + "_" + std::to_string(i);
  used_.insert(name);
  return name;
}

}  // namespace adlang::py
