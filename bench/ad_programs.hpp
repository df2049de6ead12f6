// The .ad programs of the AD benchmarks, generated as text, and the same functions
// in C++ over any scalar type (double, ADOL-C's adouble, Sacado's Rad::ADvar).
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace adlang::bench {

// (a) f(x) = sum_{i<n} sin(x_i) * x_{i+1} over n = blocks * 100 inputs, as a let chain.
//
// The input is a balanced tuple of `blocks` blocks of type real^100 (not one left-nested
// real^n): symbolic evaluation keeps each let-bound value in full, so taking a left-nested
// real^n apart one component at a time would hold O(n^2) reals, while a balanced tree holds
// O(n log n). Its components are taken apart with explicit fst/snd lets.
// primal: f(v); gradient: grad[v](u: T. f(u)).
inline constexpr int kBlock = 100;

inline std::string real_power_text(int k) {
  return k == 1 ? "real" : (k == 2 ? "real * real" : "real^" + std::to_string(k));
}

// The type of blocks [lo, hi).
inline std::string blocks_type(int lo, int hi) {
  if (hi - lo == 1) return real_power_text(kBlock);
  int mid = (lo + hi) / 2;
  return "(" + blocks_type(lo, mid) + ") * (" + blocks_type(mid, hi) + ")";
}

// Lets binding x_i for the inputs of blocks [lo, hi), given a variable `t` holding them.
inline void take_apart(int lo, int hi, const std::string& t, std::string& out) {
  if (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    std::string a = "t_" + std::to_string(lo) + "_" + std::to_string(mid);
    std::string b = "t_" + std::to_string(mid) + "_" + std::to_string(hi);
    out += "let " + a + ": " + blocks_type(lo, mid) + " = fst " + t + " in\n";
    out += "let " + b + ": " + blocks_type(mid, hi) + " = snd " + t + " in\n";
    take_apart(lo, mid, a, out);
    take_apart(mid, hi, b, out);
    return;
  }
  // One block real^100: r_k is its prefix of length k; x = snd r_k, r_(k-1) = fst r_k.
  std::string r = "r" + std::to_string(lo) + "_";
  out += "let " + r + std::to_string(kBlock) + ": " + real_power_text(kBlock) + " = " + t + " in\n";
  for (int k = kBlock; k >= 2; --k) {
    std::string ks = std::to_string(k), k1 = std::to_string(k - 1);
    out += "let x_" + std::to_string(lo * kBlock + k) + ": real = snd " + r + ks + " in\n";
    out += "let " + r + k1 + ": " + real_power_text(k - 1) + " = fst " + r + ks + " in\n";
  }
  out += "let x_" + std::to_string(lo * kBlock + 1) + ": real = " + r + "1 in\n";
}

inline std::string sum_program(int blocks, bool gradient) {
  const int n = blocks * kBlock;
  std::string var = gradient ? "u" : "v";
  std::string body;
  body.reserve(static_cast<std::size_t>(n) * 96);
  take_apart(0, blocks, var, body);
  body += "let s_1: real = sin(x_1) * x_2 in\n";
  for (int i = 2; i < n; ++i) {
    std::string is = std::to_string(i);
    body += "let s_" + is + ": real = s_" + std::to_string(i - 1) + " + sin(x_" + is + ") * x_" +
            std::to_string(i + 1) + " in\n";
  }
  body += "s_" + std::to_string(n - 1) + "\n";
  if (!gradient) return body;
  return "grad[v](u: " + blocks_type(0, blocks) + ".\n" + body + ")\n";
}

template <class T>
T sum_function(const std::vector<T>& x) {
  using std::sin;
  T s = sin(x[0]) * x[1];
  for (std::size_t i = 1; i + 1 < x.size(); ++i)
    s = s + sin(x[i]) * x[i + 1];
  return s;
}

// (b) the scalar chain y <- sin(y) * 1.0001 + y * y * 1e-6, n times, as tail recursion.
inline std::string chain_program(bool gradient) {
  std::string defs =
      "def loop(p: real * real): real =\n"
      "  let (k: real, y: real) = p in\n"
      "  if k < 0.5 then y else loop(k - 1, sin(y) * 1.0001 + y * y * 0.000001);\n";
  return defs + (gradient ? "grad[y0](y: real. loop(n, y))\n" : "loop(n, y0)\n");
}

template <class T>
T chain_function(T y, long n) {
  using std::sin;
  for (long k = 0; k < n; ++k)
    y = sin(y) * 1.0001 + y * y * 0.000001;
  return y;
}

// (c) a 10-input function, differentiated at every step of a recursive gradient-descent
// loop: f(w) = sum_i (w_i - i/10)^2 + 0.1 sum_{i<10} sin(w_i) w_{i+1}; `iterations` steps of
// w <- w - 0.01 grad f(w) from w = 0. The primal runs the same loop with f(w) in place of the
// gradient: w_i <- w_i - 1e-9 f(w).
inline std::string descent_program(bool gradient) {
  std::string w, f = "def f(w: real^10): real =\n  let (";
  for (int i = 1; i <= 10; ++i)
    f += std::string(i > 1 ? ", " : "") + "w" + std::to_string(i) + ": real";
  f += ") = w in\n  ";
  for (int i = 1; i <= 10; ++i) {
    std::string wi = "w" + std::to_string(i), c = std::to_string(i / 10.0).substr(0, 3);
    f += std::string(i > 1 ? " + " : "") + "(" + wi + " - " + c + ") * (" + wi + " - " + c + ")";
  }
  for (int i = 1; i < 10; ++i)
    f += " + 0.1 * sin(w" + std::to_string(i) + ") * w" + std::to_string(i + 1);
  f += ";\n";
  std::string d =
      "def descend(p: real * real^10): real^10 =\n"
      "  let (k: real, w: real^10) = p in\n"
      "  if k < 0.5 then w else\n";
  std::string ws, gs, next;
  for (int i = 1; i <= 10; ++i) {
    std::string is = std::to_string(i);
    ws += std::string(i > 1 ? ", " : "") + "w" + is + ": real";
    gs += std::string(i > 1 ? ", " : "") + "g" + is + ": real";
    next += std::string(i > 1 ? ", " : "") +
            (gradient ? "w" + is + " - 0.01 * g" + is : "w" + is + " - 0.000000001 * s");
  }
  if (gradient) {
    d += "  let (" + gs + ") = grad[w](u: real^10. f(u)) in\n";
  } else {
    d += "  let s: real = f(w) in\n";
  }
  d += "  let (" + ws + ") = w in\n";
  d += "  descend(k - 1, (" + next + "));\n";
  return f + d + "descend(n, (0, 0, 0, 0, 0, 0, 0, 0, 0, 0))\n";
}

template <class T>
T descent_f(const std::vector<T>& w) {
  using std::sin;
  T s = (w[0] - 0.1) * (w[0] - 0.1);
  for (int i = 1; i < 10; ++i) {
    double c = (i + 1) / 10.0;
    s = s + (w[i] - c) * (w[i] - c);
  }
  for (int i = 0; i < 9; ++i)
    s = s + 0.1 * sin(w[i]) * w[i + 1];
  return s;
}

}  // namespace adlang::bench
