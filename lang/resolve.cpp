#include "lang/resolve.hpp"

#include <atomic>
#include <unordered_map>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/term_visitor.hpp"

namespace adlang {

FunId fresh_fun_id() {
  static std::atomic<std::uint32_t> next{1};
  return FunId{next.fetch_add(1, std::memory_order_relaxed)};
}

namespace {

class Resolver : public TermMutator {
 protected:
  // A letrec group is in scope in every function body of the group and in its body.
  void enter_subterm(const Term& t, std::size_t i) override {
    const LetRec* l = t.as<LetRec>();
    if (!l || i != 0) return;
    std::vector<FunId> ids;
    for (const FunDef& d : l->defs) {
      ids.push_back(fresh_fun_id());
      scope_[d.name].push_back(ids.back());
    }
    groups_.push_back(std::move(ids));
  }

  void leave_subterm(const Term& t, std::size_t i) override {
    const LetRec* l = t.as<LetRec>();
    if (!l || i != l->defs.size()) return;
    for (const FunDef& d : l->defs)
      scope_[d.name].pop_back();
  }

  Term post(const Term& t, const Term& rebuilt) override {
    if (const Call* c = rebuilt.as<Call>()) {
      auto it = scope_.find(c->fun.name);
      if (it == scope_.end() || it->second.empty())
        throw InternalError("internal error: call of an unbound function '" + c->fun.name.str() +
                            "'");
      FunId id = it->second.back();
      if (id == c->fun.id) return rebuilt;
      return mk::call(FunRef(c->fun.name, id), c->param_type, c->type(), c->arg, c->loc());
    }
    if (const LetRec* l = rebuilt.as<LetRec>()) {
      std::vector<FunDef> defs = l->defs;
      std::vector<FunId> ids = std::move(groups_.back());
      groups_.pop_back();
      for (std::size_t j = 0; j < defs.size(); ++j)
        defs[j].id = ids[j];
      return mk::letrec(std::move(defs), l->body, t.loc());
    }
    return rebuilt;
  }

 private:
  std::unordered_map<Name, std::vector<FunId>, NameHash> scope_;
  std::vector<std::vector<FunId>> groups_;
};

}  // namespace

Term resolve_functions(const Term& t) {
  Resolver r;
  return r.mutate(t);
}

}  // namespace adlang
