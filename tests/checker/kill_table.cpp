// Prints the kill table of docs/checker.md: for every mutant and every property, the number
// of programs tried until the property first fails (within 2,000) and the size of its shrunk
// counterexample ("-" if it never fails). A report, not a test (a property that never fails
// runs all 2,000 programs): build target adlang_kill_table and run it.
#include <cstdio>

#include "checker/runner.hpp"
#include "checker/term_edit.hpp"
#include "mutants.hpp"

int main() {
  using namespace adlang;
  std::printf("| mutant |");
  for (const PropertyInfo& p : all_properties())
    std::printf(" %s |", p.name);
  std::printf("\n|---|");
  for (std::size_t i = 0; i < all_properties().size(); ++i)
    std::printf("---|");
  std::printf("\n");
  for (const std::string& name : mutants::names()) {
    checker::CheckConfig config = mutants::config(name);
    std::printf("| %s |", name.c_str());
    for (const PropertyInfo& p : all_properties()) {
      checker::RunOptions o;
      o.count = 2000;
      o.seed = 1;
      o.stop_after_first_failure = true;
      o.properties = {p.name};
      checker::RunReport r = checker::run_checks(o, config);
      if (r.counterexamples.empty()) {
        std::printf(" - |");
      } else {
        const checker::Counterexample& c = r.counterexamples.front();
        std::printf(" %llu (%zu) |", static_cast<unsigned long long>(c.index + 1),
                    checker::node_count(c.shrunk.term));
      }
      std::fflush(stdout);
    }
    std::printf("\n");
  }
}
