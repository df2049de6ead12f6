// NewID() of the rewrite document: a supply of fresh identifiers that collide with no name used
// anywhere in the module (variables, functions, classes, parameters, attributes, imports,
// keywords) nor with any name handed out before.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "lang/python/ast/py_ast.hpp"

namespace adlang::py {

class FreshNames {
 public:
  explicit FreshNames(const Node& module);
  // `hint` itself when it is free, else hint_1, hint_2, ... (the first that is free).
  std::string fresh(std::string_view hint);
  bool used(std::string_view name) const { return used_.count(std::string(name)) != 0; }

 private:
  void collect(const Node& n);
  std::set<std::string> used_;
  std::map<std::string, int, std::less<>> next_suffix_;  // per hint: the next suffix to try
};

}  // namespace adlang::py
