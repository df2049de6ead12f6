// R itself, side by side: the paper's R (Fig. 6, --ad=paper) against the linear R
// (--ad=linear, the default).
//
// Part 1: R on a let-chain trace of length n = 4..24,
//   C_n = let x1 = sin(x) in let x2 = sin(x1) in ... let xn = sin(x(n-1)) in xn,
// differentiated at x = 0.5: time per n and the sizes of C_n and of each R's output (as a tree,
// which is what printing and evaluation walk, and as distinct nodes in memory). The paper's let
// clause differentiates each body twice, so its time doubles with n; once one n takes more than
// 10 s the larger ones are not run.
//
// Part 2: nested derivatives, each run as `adlang run` (a subprocess: process start-up
// included, the same for both) with the default R and with --ad=paper, the latter under
// `timeout 60` with an unlimited step budget and an 8 GiB address-space limit:
//   - a Hessian-vector product by fd over grad,
//   - the third derivative of sin by three nested fd (six levels of rd),
//   - the fifth derivative of x^5 by five nested fd (ten levels of rd).
#include <chrono>
#include <cstdio>
#include <fstream>

#include "ad/linear_reverse_deriv.hpp"
#include "ad/reverse_deriv.hpp"
#include "bench_support.hpp"
#include "lang/term_size.hpp"
#include "support/stack.hpp"

namespace adlang::bench {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

Term let_chain(int n, Name x) {
  std::vector<Name> xs;
  for (int i = 0; i <= n; ++i)
    xs.push_back(i == 0 ? x : Name("x" + std::to_string(i)));
  Term c = mk::var(xs[n], Type::real());
  for (int i = n; i >= 1; --i)
    c = mk::let(xs[i], Type::real(),
                mk::op(Op::make(OpKind::Sin), mk::var(xs[i - 1], Type::real())), c);
  return c;
}

void let_chain_table() {
  std::printf("R on the let chain C_n (time per n; sizes as tree nodes / distinct nodes)\n");
  std::printf("%4s %8s %14s %22s %12s %16s\n", "n", "|C_n|", "paper R (s)", "paper output",
              "linear R (s)", "linear output");
  Name x("x");
  // The linear R first for every n: freeing the paper's R's huge outputs makes glibc's next
  // allocations slow for a while (malloc_consolidate), which must not be charged to it.
  std::vector<double> linear_time;
  std::vector<TermSize> linear_size;
  for (int n = 4; n <= 24; ++n) {
    Term c = let_chain(n, x);
    NameSupply names;
    auto t0 = std::chrono::steady_clock::now();
    Term d = linear_reverse_deriv(mk::literal("1"), mk::literal("0.5"), x, Type::real(), c, names);
    linear_time.push_back(seconds_since(t0));
    linear_size.push_back(term_size(d));
  }
  bool paper_on = true;
  for (int n = 4; n <= 24; ++n) {
    Term c = let_chain(n, x);
    TermSize cs = term_size(c);
    std::string paper_time = "not run", paper_size = "-";
    if (paper_on) {
      NameSupply names;
      auto t0 = std::chrono::steady_clock::now();
      Term d = reverse_deriv(mk::literal("1"), mk::literal("0.5"), x, Type::real(), c, names);
      double t = seconds_since(t0);
      TermSize ds = term_size(d);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.4f", t);
      paper_time = buf;
      std::snprintf(buf, sizeof buf, "%.3g / %llu", ds.tree,
                    static_cast<unsigned long long>(ds.dag));
      paper_size = buf;
      if (t > 10) paper_on = false;
    }
    const TermSize& ls = linear_size[static_cast<std::size_t>(n - 4)];
    std::printf("%4d %8.0f %14s %22s %12.6f %9.0f / %llu\n", n, cs.tree, paper_time.c_str(),
                paper_size.c_str(), linear_time[static_cast<std::size_t>(n - 4)], ls.tree,
                static_cast<unsigned long long>(ls.dag));
    std::fflush(stdout);
  }
}

struct Nested {
  const char* name;
  const char* program;
  const char* env;
  const char* expected;
};

// Runs `adlang run` on `file`; returns the wall time and the first line of output.
std::pair<double, std::string> adlang_run(const std::string& file, const std::string& args) {
  std::string cmd = "ulimit -v 8388608; timeout 60 " + std::string(ADLANG_BINARY) + " run " + file +
                    " " + args + " 2>&1; echo \"exit=$?\"";
  auto t0 = std::chrono::steady_clock::now();
  std::string out = capture(cmd);
  double t = seconds_since(t0);
  return {t, out};
}

std::string summary(const std::pair<double, std::string>& r) {
  const std::string& out = r.second;
  if (out.find("exit=124") != std::string::npos) return "did not finish in 60 s";
  std::string first = out.substr(0, out.find('\n'));
  if (out.find("exit=0") == std::string::npos) {
    if (out.find("out of memory") != std::string::npos) return "out of memory (8 GiB limit)";
    return "failed: " + first.substr(0, 60);
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.3f s -> %s", r.first, first.c_str());
  return buf;
}

void nested_table() {
  const std::vector<Nested> cases = {
      {"Hessian-vector product (fd over grad)",
       "(1, 2, 3).fd[(0.5, 0.3, 0.2)](u: real^3. grad[u](z: real^3.\n"
       "  let (a: real, b: real, c: real) = z in sin(a * b) + b * c * c + exp(a)))\n",
       "", "(3.567982554907509, 2.0916362918282028, 2.5999999999999996)"},
      {"third derivative of sin (3 nested fd)",
       "1.fd[x](a: real. 1.fd[a](b: real. 1.fd[b](c: real. sin(c))))\n", "--env x=0.5",
       "-cos(0.5) = -0.8775825618903728"},
      {"fifth derivative of x^5 (5 nested fd)",
       "1.fd[x](a: real. 1.fd[a](b: real. 1.fd[b](c: real. 1.fd[c](d: real.\n"
       "  1.fd[d](e: real. e * e * e * e * e)))))\n",
       "--env x=0.5", "120"},
  };
  std::printf("\nnested derivatives, `adlang run` (wall time, including process start-up)\n");
  for (const Nested& c : cases) {
    std::string file = "/tmp/adlang_rd_bench_" + std::to_string(&c - cases.data()) + ".ad";
    std::ofstream(file) << c.program;
    auto linear = adlang_run(file, c.env);
    auto paper = adlang_run(
        file, std::string(c.env) + " --ad=paper --max-derivative-steps " + "1000000000000");
    std::printf("%-40s expected %s\n  --ad=linear: %s\n  --ad=paper:  %s\n", c.name, c.expected,
                summary(linear).c_str(), summary(paper).c_str());
  }
}

}  // namespace
}  // namespace adlang::bench

int main() {
  adlang::run_on_large_stack([] {
    adlang::bench::let_chain_table();
    adlang::bench::nested_table();
  });
  return 0;
}
